#!/bin/sh
# Configure (tinyconfig, or Debian's own configuration, + fragments) and
# build the guest kernel out of tree, with ccache.  Fails if any option of
# the fragments did not survive olddefconfig, so a benchmark never runs on
# a kernel without what it needs.
#
# usage: build-kernel.sh TREE OBJ ARCH "FRAGMENT..." TARGET...
#   FRAGMENT...  one or more fragments (one argument, blank-separated),
#                merged in order: a later fragment's setting of an option
#                wins, and is the one checked
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tree=$1 obj=$2 arch=$3 fragments=$4
shift 4
# Under a parallel make whose recipe is marked recursive ("+", the
# Makefile's kernel-% rule), share its job slots: kernels of several
# flavours then build side by side, and one's single-threaded link and
# modpost run while the other compiles.  Otherwise nproc jobs of its own.
case " ${MAKEFLAGS:-} " in
*" --jobserver-auth="* | *" --jobserver-fds="*) jflag="" jobs="sharing make's job slots" ;;
*) jflag=-j$(nproc) jobs="$(nproc) jobs" ;;
esac
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
	mkdir -p "$(dirname "$obj")"
	ln -s "$real" "$obj"
fi
exclude=$(git -C "$tree" rev-parse --path-format=absolute --git-path info/exclude)
grep -qx "/obj-*/" "$exclude" 2>/dev/null ||
	echo "/obj-*/" >> "$exclude"
obj=$real
abs=""
for f in $fragments; do
	abs="$abs $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
fragments=${abs# }
# CROSS_COMPILE: the flavour's toolchain prefix (bench/flavours.conf).
cross=${CROSS_COMPILE:-}
cc="${cross}gcc" hostcc="gcc"
if command -v ccache >/dev/null 2>&1; then
	# every kernel object through ccache but an .incbin of a binary (kcc.sh)
	cc="$here/kcc.sh $cc" hostcc="ccache gcc"
fi
base=${KCONFIG_BASE:-tinyconfig}
# base debian:NAME: Debian's configuration NAME of the tree's version
# (/usr/src/linux-config-X.Y/config.NAME.xz, package linux-config-X.Y),
# its modules turned off (mod2noconfig: the guests load the bench module
# only); otherwise a make target (tinyconfig).
debian_config=
case "$base" in
debian:*)
	ver=$(make -s -C "$tree" kernelversion | cut -d. -f1-2)
	debian_config=/usr/src/linux-config-$ver/config.${base#debian:}.xz
	[ -f "$debian_config" ] || {
		echo "[kernel] $debian_config: no such file (apt-get install linux-config-$ver)" >&2
		exit 1
	}
	;;
esac
# nm without the plugins of other compilers (a tenth of a build here)
nm=$("$here/kernel-nm.sh" "$cross")

kmake() {
	make -s -C "$tree" O="$obj" ARCH="$arch" CC="$cc" HOSTCC="$hostcc" NM="$nm" \
		${cross:+CROSS_COMPILE="$cross"} "$@"
}

# RELINK=1 (bench/host/layout-link.sh): the objects' configuration as it
# is, whatever the fragments say; only the targets are made.
relink=${RELINK:-0}
# Regenerate the configuration only when a fragment or the base changed.
stamp="$obj/.bench-config-input"
# shellcheck disable=SC2086 # the fragments are a list
want=$( (echo "$base"; cat $fragments; [ -z "$debian_config" ] || xz -dc "$debian_config") | sha1sum | cut -c1-40)
names=""
for f in $fragments; do names="$names${names:+ + }$(basename "$f")"; done
if [ "$relink" != 1 ] && { [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; }; then
	echo "[kernel] configuring $arch: $base + $names"
	if [ -n "$debian_config" ]; then
		xz -dc "$debian_config" > "$obj/.config"
		kmake olddefconfig >/dev/null
		kmake mod2noconfig >/dev/null
	else
		kmake "$base" >/dev/null
	fi
	# shellcheck disable=SC2086
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $fragments >/dev/null
	kmake olddefconfig >/dev/null
	echo "$want" > "$stamp"
	# what the harness changed of Debian's configuration, listed with the
	# objects (run-bench.sh copies it into each run)
	if [ -n "$debian_config" ]; then
		xz -dc "$debian_config" | "$here/config-diff.sh" - "$obj/.config" > "$obj/debian-config.diff"
		d=$obj/debian-config.diff
		echo "[kernel] differences from Debian's $(basename "$debian_config" .xz) ($d): $(grep -c ': m -> n$' "$d") modules off, $(grep -v ': m -> n$' "$d" | grep -c ' -> n$') options that hung on them gone, $(grep -vc ' -> n$' "$d") set for the harness or by the build"
	fi
fi

# The settings the fragments ask for, the last one of each option.
# shellcheck disable=SC2086
wanted=$(awk '
	/^CONFIG_[A-Za-z0-9_]*=/ { o = $0; sub(/=.*/, "", o) }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { o = $2 }
	o != "" { if (!(o in v)) order[n++] = o; v[o] = $0; o = "" }
	END { for (i = 0; i < n; i++) print v[order[i]] }' $fragments)
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qx "$line" "$obj/.config" || { echo "[kernel] config lost: $line" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#"# "}; opt=${opt%% *}
		grep -q "^$opt=" "$obj/.config" && { echo "[kernel] config forced on: $opt" >&2; missing=1; } ;;
	esac
done <<EOT
$( [ "$relink" = 1 ] || echo "$wanted")
EOT
[ "$missing" = 0 ] || { echo "[kernel] fragments $names not satisfied" >&2; exit 1; }
# CONFIG_ONLY=1: configured and checked, not built (make check's test of
# a configuration's derivation, bench/host/tests-debian-config.sh)
[ "${CONFIG_ONLY:-0}" = 0 ] || exit 0

echo "[kernel] building $arch in $obj ($jobs; alone, with an empty ccache 4-9 min, with hits 1-3)"
start=$(date +%s)
# shellcheck disable=SC2086 # empty or one word
kmake $jflag "$@"
echo "[kernel] built $arch in $(( $(date +%s) - start )) s: $(kmake -s kernelrelease)"
