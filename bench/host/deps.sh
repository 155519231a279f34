#!/bin/sh
# Install the Debian packages a make target needs, or, when not root, print
# the exact commands and stop.
#
# usage: deps.sh bench|check|cross
#        deps.sh --list bench|check|cross   print what the mode wants (the
#                                           want, norec and archs lines), install nothing
#   bench: the x86_64 and um flavours (the common list below).
#   cross: also every flavour's own host packages (flavours.conf
#   `packages`: its cross compiler with its libc for the static guest
#   tools, its qemu-system package) and its Debian architecture (`debarch`)
#   enabled.  Never gcc-multilib: it conflicts with the cross compilers.
#   Each such flavour's busybox and perf come from Debian's
#   busybox-static:<debarch> and linux-perf:<debarch> (bench/host/foreign-*.sh).
#   check: also what `make -C filters/seccomp check` needs to regenerate
#   the seccomp filters of every flavour with a debarch: Debian's
#   libseccomp-dev:<debarch> (multiarch; co-installs with the amd64
#   libseccomp-dev and removes nothing) and qemu-user to run its static
#   mkseccomp and the guest's perf on the host
#   (bench/host/tests-foreign-perf.sh).  Those come without recommends:
#   qemu-user recommends qemu-user-binfmt, which would register binfmt
#   handlers in the host kernel.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck source=bench/host/debarch.sh
. "$here/debarch.sh"

list=0
[ "${1:-}" != --list ] || { list=1; shift; }
# KPACKAGE: the kernel source package (make KERNEL=..., bench/kernels.conf),
# and Debian's configurations of that version, linux-config-X.Y (flavour
# x86_64-debian's base, bench/host/build-kernel.sh).
kpackage=${KPACKAGE:-$(kernel_attr "$KERNEL_DEFAULT" package)}
common="$kpackage linux-config-${kpackage#linux-source-} build-essential flex bison bc libelf-dev libssl-dev
	cpio gzip xz-utils ccache qemu-system-x86 busybox-static tcpdump perl
	linux-perf libseccomp-dev libpcap-dev gnuplot-nox xxd llvm-19"
# From the flavour records: each one's packages and foreign architecture.
cross="" archs="" seccomp=""
for f in $FLAVOURS; do
	cross="$cross $(flavour_attr "$f" packages || true)"
	a=$(flavour_attr "$f" debarch || echo -)
	[ "$a" = - ] || case " $archs " in
	*" $a "*) ;;
	*) archs="$archs $a" seccomp="$seccomp libseccomp-dev:$a" ;;
	esac
done
# make check: also the other trees it boots (CHECK_KERNELS, bench/kernels.conf).
ktrees=$(for k in $(check_kernels); do kernel_attr "$k" package; done | tr '\n' ' ')
norec=""
case "${1:-bench}" in
bench) want="$common" archs="" ;;
check)
	want="$common shellcheck $cross $ktrees"
	[ -z "$archs" ] || norec="qemu-user$seccomp" ;;
# cross enables the architectures, once: make -j fetches the busybox and
# perf of every flavour at once, and two apt-get updates at once fail on
# apt's lock.
cross) want="$common $cross" ;;
*) echo "usage: $0 [--list] bench|check|cross" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086 # word lists
if [ "$list" = 1 ]; then
	echo "want:" $want
	echo "norec:" $norec
	echo "archs:" $archs
	exit 0
fi

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
apt_update deps
# shellcheck disable=SC2086
[ -z "$missing" ] || apt-get install -y -q $missing >/dev/null
# shellcheck disable=SC2086
[ -z "$missing_norec" ] || apt-get install -y -q --no-install-recommends $missing_norec >/dev/null
