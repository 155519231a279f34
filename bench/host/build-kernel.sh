#!/bin/sh
# Configure (tinyconfig + fragment) and build the guest kernel out of tree,
# with ccache.  Fails if any option of the fragment did not survive
# olddefconfig, so a benchmark never runs on a kernel without what it needs.
#
# usage: build-kernel.sh TREE OBJ ARCH FRAGMENT TARGET...
set -eu

tree=$1 obj=$2 arch=$3 fragment=$4
shift 4
jobs=$(nproc)
# The objects live in a direct subdirectory of the tree (OBJ is a symlink
# to it): kbuild then names every source by a relative path (srctree "..")
# and ccache, with CCACHE_BASEDIR for the module and tools, hits across
# clones at other paths.  The directory is excluded from the tree's git
# status.
tree=$(cd "$tree" && pwd)
real=$tree/$(basename "$obj")
mkdir -p "$real"
if [ ! -L "$obj" ]; then
	rm -rf "$obj"
	ln -s "$real" "$obj"
fi
grep -qx "/obj-*/" "$tree/.git/info/exclude" 2>/dev/null ||
	echo "/obj-*/" >> "$tree/.git/info/exclude"
obj=$real
fragment=$(cd "$(dirname "$fragment")" && pwd)/$(basename "$fragment")
# CROSS_COMPILE (environment): the toolchain prefix of a cross flavour
# (e.g. arm-linux-gnueabihf-); host programs stay on the host gcc.
cross=${CROSS_COMPILE:-}
cc="${cross}gcc" hostcc="gcc"
command -v ccache >/dev/null 2>&1 && cc="ccache $cc" hostcc="ccache gcc"
base=${KCONFIG_BASE:-tinyconfig}

kmake() {
	make -s -C "$tree" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="$cc" HOSTCC="$hostcc" "$@"
}

# Regenerate the configuration only when the fragment or the base changed.
stamp="$obj/.bench-config-input"
want=$( (echo "$base"; cat "$fragment") | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "[kernel] configuring $arch: $base + $(basename "$fragment")"
	kmake "$base" >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" >/dev/null
	kmake olddefconfig >/dev/null
	echo "$want" > "$stamp"
fi

missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qx "$line" "$obj/.config" || { echo "[kernel] config lost: $line" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#"# "}; opt=${opt%% *}
		grep -q "^$opt=" "$obj/.config" && { echo "[kernel] config forced on: $opt" >&2; missing=1; } ;;
	esac
done < "$fragment"
[ "$missing" = 0 ] || { echo "[kernel] fragment $fragment not satisfied" >&2; exit 1; }

echo "[kernel] building $arch in $obj ($jobs jobs; a clean build takes 6-9 min)"
start=$(date +%s)
kmake -j"$jobs" "$@"
echo "[kernel] built $arch in $(( $(date +%s) - start )) s: $(kmake -s kernelrelease)"
