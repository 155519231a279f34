#!/bin/sh
# Install the Debian packages a make target needs, or, when not root, print
# the exact commands and stop.
#
# usage: deps.sh bench|check|cross
#   cross: the 32-bit flavours (i386, arm): cross compilers with their libc
#   for the static guest tools, qemu-system-arm (qemu-system-i386 is in
#   qemu-system-x86), the i386 and armhf Debian architectures enabled.
#   Never gcc-multilib: it conflicts with the cross compilers.  Each
#   flavour's busybox and perf come from Debian's busybox-static:<arch> and
#   linux-perf:<arch> (bench/host/foreign-*.sh).
#   check: also what `make -C filters/seccomp check` needs to regenerate the
#   i386 and arm seccomp filters: the same cross compilers, Debian's
#   libseccomp-dev of i386 and armhf (multiarch: those architectures are
#   enabled first, as foreign-busybox.sh does; the packages co-install with
#   the amd64 libseccomp-dev and remove nothing) and qemu-user to run the
#   static i386/arm mkseccomp and the 32-bit guests' perf on the host
#   (bench/host/tests-foreign-perf.sh).  Those three come without recommends: qemu-user
#   recommends qemu-user-binfmt, which would register binfmt handlers in the
#   host kernel.
set -eu

common="linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev
	cpio gzip xz-utils ccache qemu-system-x86 busybox-static tcpdump perl
	linux-perf libseccomp-dev gnuplot-nox xxd"
cross="crossbuild-essential-i386 crossbuild-essential-armhf"
norec="" archs=""
case "${1:-bench}" in
bench) want="$common" ;;
check)
	want="$common shellcheck libpcap-dev $cross"
	norec="qemu-user libseccomp-dev:i386 libseccomp-dev:armhf"
	archs="i386 armhf" ;;
cross)
	want="$common $cross qemu-system-arm"
	# enabled here, once: make -j fetches the busybox and perf of both
	# at once, and two apt-get updates at once fail on apt's lock
	archs="i386 armhf" ;;
*) echo "usage: $0 bench|check|cross" >&2; exit 2 ;;
esac

# missing PKG...: the ones not installed.  PKG:ARCH is that architecture's
# instance; a bare PKG the native one (or arch all): with multiarch, dpkg
# lists every installed instance of a bare name.
native=$(dpkg --print-architecture)
missing() {
	for pkg in "$@"; do
		case $pkg in
		*:*) arch=${pkg#*:} ;;
		*) arch=$native ;;
		esac
		dpkg-query -W -f='${Architecture} ${Status}\n' "$pkg" 2>/dev/null |
			grep -q -x -e "$arch install ok installed" -e "all install ok installed" ||
			printf ' %s' "$pkg"
	done
}
# shellcheck disable=SC2086 # word lists
missing=$(missing $want)
# shellcheck disable=SC2086
missing_norec=$(missing $norec)
addarch=""
for a in $archs; do
	dpkg --print-foreign-architectures | grep -qx "$a" || addarch="$addarch $a"
done
[ -z "$missing$missing_norec$addarch" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Missing Debian packages or architectures. As root, run:" >&2
	for a in $addarch; do
		echo "  dpkg --add-architecture $a" >&2
	done
	[ -z "$addarch" ] || echo "  apt-get update" >&2
	[ -z "$missing" ] || echo "  apt-get install -y$missing" >&2
	[ -z "$missing_norec" ] || echo "  apt-get install -y --no-install-recommends$missing_norec" >&2
	exit 1
fi
for a in $addarch; do
	echo "[deps] enabling Debian architecture $a"
	dpkg --add-architecture "$a"
done
[ -z "$missing$missing_norec" ] || echo "[deps] installing:$missing$missing_norec"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
[ -z "$missing" ] || apt-get install -y -q $missing >/dev/null
# shellcheck disable=SC2086
[ -z "$missing_norec" ] || apt-get install -y -q --no-install-recommends $missing_norec >/dev/null
