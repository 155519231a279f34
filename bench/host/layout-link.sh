#!/bin/sh
# Code-layout variants of a built kernel: one relink per seed, the same
# objects with a seeded padding in front of each (bench/host/layoutpads.c),
# so that each variant differs from the others only in where every
# object's functions land (docs/statistics.md, "Code layout").  Nothing is
# recompiled: in a copy of the object directory the padded member list
# replaces vmlinux.a and kbuild relinks it (kallsyms passes and all) as
# it would after a change; the flavour's image is copied out.  The
# kernel as built is never touched, so guests may boot it meanwhile.
#
# usage: layout-link.sh TOP OBJ FLAVOUR SEED...
#        OBJ: the link build-kernel.sh made to the objects (KOUT/obj-FLAVOUR)
#        writes OBJ/layout/SEED/{IMAGE,layout.txt,pads.txt} per seed
#        (IMAGE: the flavour record's image, e.g. linux); a variant linked
#        before from the same kernel is kept, one of another seed removed
#        when 6 hours old.  One progress line a variant.
# env:   LAYOUT_PAD_MAX  padding bound in bytes (default 256, step 16)
set -eu

top=$1 obj=$2 flavour=$3
shift 3
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
say() { printf '[layout] %s\n' "$*"; }
die() { echo "[layout] $*" >&2; exit 1; }
# build-kernel.sh keeps the objects in TREE/obj-FLAVOUR behind the link OBJ
# (KOUT/obj-FLAVOUR): given anything else it would replace it by a link.
[ -L "$obj" ] || die "$obj is not the link to the objects build-kernel.sh made (pass KOUT/obj-$flavour)"
real=$(readlink -f "$obj")
tree=$(dirname "$real")
out=$(cd "$(dirname "$obj")" && pwd)
[ -f "$real/vmlinux.a" ] || die "$real/vmlinux.a: no such file (build the $flavour kernel first)"
tools=${TOOLS:-$top/build/tools}
[ -x "$tools/layoutpads" ] || die "$tools/layoutpads is not built (make tools)"
image=$(flavour_attr "$flavour" image)
name=$(basename "$image")
arch=$(flavour_attr "$flavour" arch)
frags=""
for f in $(flavour_attr "$flavour" fragment); do frags="$frags${frags:+ }$top/$f"; done
cross=$(flavour_attr "$flavour" cross || true)
[ "$cross" != - ] || cross=""
max=${LAYOUT_PAD_MAX:-256}

lay=$real/layout
mkdir -p "$lay/pads"
# One run at a time per kernel (make check's jobs may ask together).
exec 9> "$lay/.lock"
flock 9
# Variants of earlier runs (6.5 MB each for um) are removed once they are
# 6 hours old, unless this run asks for them again; a run boots its
# variants within the hour after linking them.
for d in "$lay"/*/; do
	[ -f "$d/layout.txt" ] || continue
	s=$(basename "$d")
	case " $* " in *" $s "*) continue ;; esac
	[ -z "$(find "$d/layout.txt" -mmin +360)" ] || rm -rf "$d"
done
# The kernel the variants are of: a variant linked from another build
# (the tree was patched or rebuilt since) is linked again.
base=$(sha1sum < "$real/$image" | cut -c1-12)

# One padding object per size: 16-byte aligned code of int3 (0xcc) bytes.
# (for ARCH=i386 the host compiler is the 32-bit one with -m32, as kbuild's)
m32=
case "$arch" in i386) m32=-m32 ;; esac
b=16
while [ "$b" -lt "$max" ]; do
	[ -f "$lay/pads/pad-$b.o" ] ||
		printf '\t.section .text,"ax",@progbits\n\t.balign 16\n\t.skip %d, 0xcc\n' "$b" |
		"${cross}gcc" ${m32:+"$m32"} -c -x assembler -o "$lay/pads/pad-$b.o" -
	b=$((b + 16))
done

# The relinks happen in a copy of the objects, OBJ.layout in the tree
# (behind the link KOUT/obj-FLAVOUR.layout, as build-kernel.sh wants).
work=$real.layout wlink=$out/$(basename "$obj").layout
cleanup() { rm -rf "$work" "$wlink"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
copied=0

# relink WHAT: kbuild's link of the objects in the copy, as they are
# (RELINK=1: the objects' own configuration, e.g. built with
# kernel-align64.config, whatever the record's fragments say).
relink() {
	RELINK=1 KCONFIG_BASE=$(flavour_attr "$flavour" base) CROSS_COMPILE=$cross \
		"$here/build-kernel.sh" "$tree" "$wlink" "$arch" "$frags" "$name" \
		> "$lay/link.log" 2>&1 || { tail -n 20 "$lay/link.log" >&2; die "relinking $1 failed ($lay/link.log)"; }
}
# addr SYMBOL MAP: SYMBOL's address in System.map MAP (hex), or -.
addr() { awk -v s="$1" '$3 == s { print $1; f = 1; exit } END { if (!f) print "-" }' "$2"; }

n=$# i=0 t0=$(date +%s)
for seed; do
	i=$((i + 1))
	d=$lay/$seed
	if [ -f "$d/$name" ] && grep -qx "base=$base" "$d/layout.txt" 2> /dev/null &&
	   grep -qx "settled=1" "$d/layout.txt"; then
		say "$flavour variant $i/$n (seed $seed): linked before"
		continue
	fi
	if [ "$copied" = 0 ]; then
		rm -rf "$work" "$wlink"
		mkdir -p "$work"
		(cd "$real" && find . -mindepth 1 -maxdepth 1 ! -name layout -exec cp -a {} "$work/" \;)
		ln -s "$work" "$wlink"
		# kbuild's member paths, relative to the objects (ar prints them
		# relative to where it runs): the same in every tree
		(cd "$work" && ar t vmlinux.a) > "$lay/members.txt"
		copied=1
		# Settle the copy: kbuild's first run in it re-makes vmlinux.a (on
		# x86_64 the first variant of a batch came out as the kernel as
		# built, every symbol where it was); after one plain relink the
		# padded archives are linked as they are.
		say "$flavour: settling the copy of the objects (one plain relink)"
		relink "the copy of the objects"
	fi
	left=""
	[ "$i" = 1 ] || left=", about $(( ($(date +%s) - t0) * (n - i + 1) / (i - 1) ))s left"
	say "$flavour variant $i/$n (seed $seed): relinking$left"
	rm -rf "$d"
	mkdir -p "$d/p"
	"$tools/layoutpads" -m "$max" "$seed" < "$lay/members.txt" > "$d/pads.txt"
	# The member list with a padding object (a link to one of pads/) in
	# front of each member that gets one, in kbuild's order.
	awk '$1 > 0 { print "ln -s ../../pads/pad-" $1 ".o " NR ".o" }' "$d/pads.txt" > "$d/p/links.sh"
	(cd "$d/p" && sh links.sh && rm links.sh)
	list=$(awk -v p="$d/p" '$1 > 0 { printf "%s/%d.o\n", p, NR } { $1 = ""; sub(/^ /, ""); print }' "$d/pads.txt")
	rm -f "$work/vmlinux.a"
	# shellcheck disable=SC2086 # one member a word (kbuild paths have no blanks)
	(cd "$work" && ar cDPrST vmlinux.a $list)
	# RELINK=1: the objects' own configuration (they may have been built
	# with other fragments than the record's, e.g. kernel-align64.config)
	relink "seed $seed"
	# the link took the padded archive (kbuild did not re-make it)
	[ "$(cd "$work" && ar t vmlinux.a | wc -l)" = "$(( $(wc -l < "$lay/members.txt") + $(awk '$1 > 0' "$d/pads.txt" | wc -l) ))" ] ||
		die "seed $seed: kbuild re-made vmlinux.a, the link is not padded ($lay/link.log)"
	cp "$work/$image" "$d/$name"
	{
		echo "seed=$seed"
		echo "base=$base"
		echo "members=$(wc -l < "$lay/members.txt")"
		echo "padded=$(awk '$1 > 0' "$d/pads.txt" | wc -l)"
		echo "pad_bytes=$(awk '{ s += $1 } END { print s + 0 }' "$d/pads.txt")"
		echo "pad_max=$max"
		echo "settled=1"
		for s in sk_run_filter ___bpf_prog_run bpf_convert_filter skb_copy_bits; do
			echo "addr_$s=$(addr "$s" "$work/System.map")"
		done
	} > "$d/layout.txt"
done
say "$flavour: $n variant(s) of kernel $base in $lay/ ($(( $(date +%s) - t0 ))s)"
