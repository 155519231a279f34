#!/bin/sh
# make compare: a kernel developer's patches measured against the baseline.
# Both kernels get the same bench module, filters and plan; the boots of
# the two are interleaved (run-bench.sh KERNELS); the tables stage
# (results/mkcompare.sh) writes the comparison per accelerator, its plot
# and a cover letter for the patches.  docs/compare.md has the method.
#
# usage: run-compare.sh TOP BUILD [--check]
#        --check: only refuse bad PATCHES, BASE, ACCEL, BOOTS or BENCH_ARGS
#        (make compare runs it before building anything)
# env:   PATCHES  the patches: a directory of git format-patch files, an
#                 mbox, or one patch file (required)
#        BASE     patches that make the baseline (same forms), applied on
#                 top of the benchmark tree first (default: none, the
#                 baseline is build/linux, Debian's tree with kernel-patches/)
#        ACCEL, ARCHES, BOOTS, BENCH_ARGS, RESULTS_DIR: as make bench
#        KERNEL, KTREE, KOUT, KPACKAGE: the benchmark tree, its objects and
#                 Debian package (make compare KERNEL=6.12; default
#                 build/linux, build/, linux-source-6.1); the comparison
#                 goes to KOUT/compare/
#
# The trees are build/compare/{baseline,patched}/linux (git worktrees of
# build/linux), the objects in them; a patch that does not apply is
# refused before anything is built.
set -eu

top=$1 build=$2
here=$top/bench/host
tree=${KTREE:-$build/linux} kout=${KOUT:-$build}
cmp=$kout/compare
say() { printf '[compare] %s\n' "$*"; }
die() { echo "[compare] $*" >&2; exit 2; }

[ -n "${PATCHES:-}" ] || die "PATCHES is not set: make compare PATCHES=DIR|MBOX (git format-patch output)"
[ -e "$PATCHES" ] || die "PATCHES=$PATCHES: no such file or directory"
[ -z "${BASE:-}" ] || [ -e "$BASE" ] || die "BASE=$BASE: no such file or directory"
[ "${REPEAT:-1}" = 1 ] || die "REPEAT=$REPEAT: make compare repeats by BOOTS"
[ -z "${FILTERS:-}${PCAP:-}" ] || die "FILTERS, PCAP: make compare does not take a capture workload yet (make bench does: docs/capture.md)"
"$here/run-bench.sh" "$top" "$build" --check
[ "${3:-}" != --check ] || exit 0

# The trees, both before any build: a patch that does not apply stops here.
base=$(git -C "$tree" rev-parse HEAD)
mkdir -p "$cmp"
if [ -n "${BASE:-}" ]; then
	"$here/compare-tree.sh" "$tree" "$base" "$cmp/baseline" "$BASE"
	bout=$cmp/baseline btree=$cmp/baseline/linux
	base=$(cat "$cmp/baseline/head")
else
	# The baseline is make bench's own kernel: its objects, linked.
	rm -rf "$cmp/baseline/linux"
	mkdir -p "$cmp/baseline"
	: > "$cmp/baseline/patches.txt"
	echo "$base" > "$cmp/baseline/head"
	bout=$kout btree=$tree
fi
"$here/compare-tree.sh" "$tree" "$base" "$cmp/patched" "$PATCHES"
[ -s "$cmp/patched/patches.txt" ] || die "PATCHES=$PATCHES: no patch in it"

# tree.txt: the lines a side adds to its run.txt.
for side in baseline patched; do
	t=$btree
	[ "$side" = baseline ] || t=$cmp/patched/linux
	{
		echo "side=$side"
		echo "tree=$t"
		echo "tree_base=$(git -C "$tree" rev-parse HEAD)"
		echo "tree_head=$(cat "$cmp/$side/head")"
		echo "patches=$(wc -l < "$cmp/$side/patches.txt")"
		sed 's/^/patch=/' "$cmp/$side/patches.txt"
	} > "$cmp/$side/tree.txt"
done

flavours=$("$here/bench-flavours.sh")
targets=$(for f in $flavours; do printf 'initramfs-%s ' "$f"; done)
n=0
for side in baseline patched; do
	n=$((n + 1))
	say "building the $side kernels ($n/2: $flavours; the second shares the first's ccache)"
	if [ "$side" = patched ]; then
		out=$cmp/patched kt=$cmp/patched/linux
	else
		out=$bout kt=$btree
	fi
	# A flavour's first build in a patched worktree whose files are dated
	# (compare-tree.sh: older than any object but those patches changed)
	# starts from a copy of make bench's objects, built just now from the
	# commit it is at: kbuild then rebuilds what the patches change, not
	# the whole kernel.  Only with the baseline make bench's tree,
	# unmodified (git diff HEAD).
	if [ "$side" = patched ]; then
		if [ -e "$cmp/patched/dated" ] && [ -z "${BASE:-}" ] && git -C "$tree" diff --quiet HEAD; then
			from=$(cd "$tree" && pwd)/ to=$(cd "$kt" && pwd)/
			for f in $flavours; do
				[ -e "$kt/obj-$f" ] || [ ! -f "$tree/obj-$f/.config" ] || {
					say "patched $f: starting from a copy of the baseline's objects ($tree/obj-$f)"
					# (not its code-layout variants: layout-link.sh)
					mkdir -p "$kt/obj-$f"
					(cd "$tree/obj-$f" && find . -mindepth 1 -maxdepth 1 ! -name layout -exec cp -a {} "$kt/obj-$f/" \;)
					# objtool's build records absolute paths (its .cmd
					# files): moved, it would be rebuilt, and with it
					# every object that objtool checks
					grep -rlIZ "$from" "$kt/obj-$f" | xargs -0 -r sed -i "s|$from|$to|g"
				}
			done
		fi
	fi
	# shellcheck disable=SC2086 # a list of make targets
	KOUT=$out KTREE=$kt make --no-print-directory -C "$top" -j"$(nproc)" $targets
	# make bench's kernels stay where they are: the baseline links them.
	if [ "$side" = baseline ] && [ -z "${BASE:-}" ]; then
		for f in $flavours; do
			ln -sfn "$kout/obj-$f" "$cmp/baseline/obj-$f"
			ln -sfn "$kout/initramfs-$f.cpio.gz" "$cmp/baseline/initramfs-$f.cpio.gz"
		done
		bout=$cmp/baseline
	fi
done

KERNELS="baseline=$bout patched=$cmp/patched" "$here/run-bench.sh" "$top" "$build"
