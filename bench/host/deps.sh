#!/bin/sh
# Install the Debian packages a make target needs, or, when not root, print
# the exact apt-get line and stop.
#
# usage: deps.sh bench|check|cross
#   check: also qemu-user, which runs the 32-bit guests' perf on the host
#   (bench/host/tests-foreign-perf.sh), installed without its Recommends:
#   qemu-user-binfmt would register binfmt_misc handlers with the host's
#   kernel.
#   cross: the opt-in 32-bit flavours (i386, arm): cross compilers with
#   their libc for the static guest tools, qemu-system-arm (qemu-system-i386
#   is in qemu-system-x86).  Never gcc-multilib: it conflicts with the
#   cross compilers.  Each flavour's busybox and perf come from Debian's
#   busybox-static:<arch> and linux-perf:<arch> (bench/host/foreign-*.sh).
set -eu

common="linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev
	cpio gzip xz-utils ccache qemu-system-x86 busybox-static tcpdump perl
	linux-perf libseccomp-dev gnuplot-nox xxd"
# installed with --no-install-recommends
norec="qemu-user"
case "${1:-bench}" in
bench) want="$common" ;;
check) want="$common shellcheck libpcap-dev qemu-user" ;;
cross) want="$common crossbuild-essential-i386 crossbuild-essential-armhf
	qemu-system-arm" ;;
*) echo "usage: $0 bench|check|cross" >&2; exit 2 ;;
esac

missing="" missing_norec=""
native=$(dpkg --print-architecture)
for pkg in $want; do
	# the native instance: with other architectures enabled (the 32-bit
	# flavours) a library may be installed for several; arch-all
	# packages have no qualified name
	status=$(dpkg-query -W -f='${Status}' "$pkg:$native" 2>/dev/null ||
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] && continue
	case " $norec " in
	*" $pkg "*) missing_norec="$missing_norec $pkg" ;;
	*) missing="$missing $pkg" ;;
	esac
done
[ -z "$missing$missing_norec" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Missing Debian packages. As root, run:" >&2
	[ -z "$missing" ] || echo "  apt-get install -y$missing" >&2
	[ -z "$missing_norec" ] || echo "  apt-get install -y --no-install-recommends$missing_norec" >&2
	exit 1
fi
echo "[deps] installing:$missing$missing_norec"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
[ -z "$missing" ] || apt-get install -y -q $missing >/dev/null
# shellcheck disable=SC2086
[ -z "$missing_norec" ] || apt-get install -y -q --no-install-recommends $missing_norec >/dev/null
