#!/bin/sh
# Install the Debian packages a make target needs, or, when not root, print
# the exact apt-get line and stop.
#
# usage: deps.sh bench|check|cross
#   cross: the opt-in 32-bit flavours (i386, arm): cross compilers with
#   their libc for the static guest tools, qemu-system-arm (qemu-system-i386
#   is in qemu-system-x86).  Never gcc-multilib: it conflicts with the
#   cross compilers.  Each flavour's busybox comes from Debian's
#   busybox-static:<arch> (bench/host/foreign-busybox.sh).
set -eu

common="linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev
	cpio gzip xz-utils ccache qemu-system-x86 busybox-static tcpdump perl
	linux-perf libseccomp-dev gnuplot-nox xxd"
case "${1:-bench}" in
bench) want="$common" ;;
check) want="$common shellcheck libpcap-dev" ;;
cross) want="$common crossbuild-essential-i386 crossbuild-essential-armhf
	qemu-system-arm" ;;
*) echo "usage: $0 bench|check|cross" >&2; exit 2 ;;
esac

missing=""
for pkg in $want; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Missing Debian packages. As root, run:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
echo "[deps] installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q $missing >/dev/null
