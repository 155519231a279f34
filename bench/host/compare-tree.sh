#!/bin/sh
# make compare: one side's kernel tree, a git worktree of the benchmark
# tree (Debian's linux-source with kernel-patches/) at BASE with PATCHES
# applied by git am.  A worktree that exists is reset and re-patched in
# place, so its objects (SIDE/linux/obj-*) stay and kbuild rebuilds only
# the files the patches change; ccache is shared with every other tree.
# A new worktree's files are dated 2000-01-01 before the patches apply
# (SIDE/dated): then only what the patches change, now or in an earlier
# run, is newer than the objects run-compare.sh may seed a flavour's
# directory with (a copy of the baseline's, built from the same commit).
#
# usage: compare-tree.sh TREE BASE SIDE PATCHES...
#   TREE     the benchmark tree (build/linux)
#   BASE     the commit of TREE the side starts from
#   SIDE     the side's directory: SIDE/linux (the worktree), SIDE/patches.txt
#            (one line per patch applied: commit and subject), SIDE/head
#   PATCHES  a directory of git format-patch files (NNNN-*.patch, the
#            cover letter 0000-* left out), an mbox, or a single patch file
#
# A patch that does not apply is refused with its name and git's message;
# the worktree is then left at BASE with nothing applied (exit 1).
set -eu

tree=$1 base=$2 side=$3
shift 3
wt=$side/linux
say() { printf '[compare] %s\n' "$*"; }
git_wt() {
	git -C "$wt" -c user.name=bench -c user.email=bench@localhost \
		-c commit.gpgsign=false "$@"
}

# The patch files, in the order git am takes them.
files=""
for p in "$@"; do
	if [ -d "$p" ]; then
		list=$(find "$p" -maxdepth 1 -name '*.patch' ! -name '0000-*' | LC_ALL=C sort)
		[ -n "$list" ] || { echo "[compare] $p: no *.patch files (git format-patch output)" >&2; exit 1; }
		files="$files $list"
	elif [ -f "$p" ] && [ -r "$p" ]; then
		files="$files $p"
	else
		echo "[compare] $p: no such patch file or directory" >&2
		exit 1
	fi
done

mkdir -p "$side"
if git -C "$wt" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git_wt am --abort > /dev/null 2>&1 || true
	git_wt checkout -q -f --detach "$base"
	git_wt clean -fdq
else
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$(cd "$side" && pwd)/linux" "$base"
	find "$wt" -path "$wt/.git" -prune -o -exec touch -h -d @946684800 {} +
	git_wt update-index -q --refresh > /dev/null || true
	: > "$side/dated"
fi

for f in $files; do
	if ! out=$(git_wt am -q --whitespace=nowarn "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" 2>&1); then
		git_wt am --abort > /dev/null 2>&1 || true
		git_wt checkout -q -f --detach "$base"
		{
			echo "[compare] $f does not apply to $(git -C "$tree" log -1 --format='%h (%s)' "$base"):"
			# git's advice on resuming does not apply: the am was aborted
			echo "$out" | grep -v '^\(When you have resolved\|If you prefer to skip\|To restore the original\|hint:\)' | sed 's/^/    /'
		} >&2
		exit 1
	fi
done
git_wt log --reverse --format='%h %s' "$base..HEAD" > "$side/patches.txt"
git_wt rev-parse HEAD > "$side/head"
say "$(basename "$side"): $(wc -l < "$side/patches.txt") patch(es) on $(git -C "$tree" rev-parse --short "$base")"
