#!/bin/sh
# Fetch Debian's own static busybox for another architecture (multiarch
# download: no binary from anywhere else) and extract it.
#
# usage: foreign-busybox.sh DEBARCH OUT     e.g. armhf build/busybox-arm/busybox
# Needs root the first time (dpkg --add-architecture, apt-get update);
# otherwise prints the commands to run as root.
set -eu

arch=$1 out=$2
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	if [ "$(id -u)" != 0 ]; then
		echo "Debian architecture $arch is not enabled. As root, run:" >&2
		echo "  dpkg --add-architecture $arch && apt-get update" >&2
		exit 1
	fi
	echo "[busybox] enabling Debian architecture $arch"
	dpkg --add-architecture "$arch"
	apt-get update -q > /dev/null
fi
tmp=$(mktemp -d)
chmod 0755 "$tmp"	# apt-get download runs as _apt
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download -q "busybox-static:$arch" > /dev/null); then
	# The package lists may predate the architecture being enabled.
	[ "$(id -u)" = 0 ] && apt-get update -q > /dev/null
	(cd "$tmp" && apt-get download -q "busybox-static:$arch" > /dev/null)
fi
deb=$(ls "$tmp"/busybox-static_*_"$arch".deb)
dpkg-deb -x "$deb" "$tmp/root"
mkdir -p "$(dirname "$out")"
cp "$tmp/root/bin/busybox" "$out.tmp"
chmod 0755 "$out.tmp"
mv "$out.tmp" "$out"
echo "[busybox] $out: $(basename "$deb")"
