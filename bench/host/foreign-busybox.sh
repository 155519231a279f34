#!/bin/sh
# Fetch Debian's own static busybox for another architecture (multiarch
# download: no binary from anywhere else) and extract it.
#
# usage: foreign-busybox.sh DEBARCH OUT     e.g. armhf build/busybox-arm/busybox
# Needs root the first time (dpkg --add-architecture, apt-get update);
# otherwise prints the commands to run as root.
set -eu

arch=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/debarch.sh
. "$here/debarch.sh"
debarch_enable "$arch" busybox
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f=$(deb_files "$arch" busybox-static | cut -d" " -f2)
[ -n "$f" ] || { echo "no Debian package busybox-static:$arch" >&2; exit 1; }
deb=$tmp/$f
deb_download "$tmp" "$arch" busybox-static
dpkg-deb -x "$deb" "$tmp/root"
mkdir -p "$(dirname "$out")"
cp "$tmp/root/bin/busybox" "$out.tmp"
chmod 0755 "$out.tmp"
mv "$out.tmp" "$out"
echo "[busybox] $out: $(basename "$deb")"
