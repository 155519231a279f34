#!/bin/sh
# Extract a Debian linux-source tarball into a git-ignored directory, make
# it a git repository with a pristine commit, and apply kernel-patches/*.patch
# with git am.  Re-running only re-applies the series when it changed, and
# refuses to discard commits in the tree that were not exported yet.
#
# usage: prepare-tree.sh TREE_DIR PATCH_DIR
# env:   LINUX_PACKAGE  the source package (default linux-source-6.1;
#                       bench/kernels.conf): its /usr/src/<package>.tar.xz
#        LINUX_TARBALL  another tarball of it
set -eu

tree=$1
patches=$(cd "$2" && pwd)
package=${LINUX_PACKAGE:-linux-source-6.1}
tarball=${LINUX_TARBALL:-/usr/src/$package.tar.xz}
state=$tree/.git/bench-series

say() { printf '[tree] %s\n' "$*"; }

git_tree() {
	git -C "$tree" -c user.name=bench -c user.email=bench@localhost \
		-c commit.gpgsign=false "$@"
}

series_hash() {
	# The applied series is identified by the contents of its patches.
	find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | LC_ALL=C sort | xargs -r cat | sha1sum | cut -c1-12
}

if [ ! -d "$tree/.git" ]; then
	[ -r "$tarball" ] || { echo "missing $tarball (apt-get install $package)" >&2; exit 1; }
	rm -rf "$tree.tmp"
	mkdir -p "$(dirname "$tree")"
	mkdir -p "$tree.tmp"
	say "extracting $tarball (about 15 s)"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	# Debian's top-level .gitignore ignores everything ('/*'): drop it from
	# the pristine commit so that git sees the tree.
	rm -f "$tree.tmp/.gitignore"
	say "creating pristine commit (about 30 s)"
	git -C "$tree.tmp" init -q -b debian
	git -C "$tree.tmp" add -A
	git -C "$tree.tmp" -c user.name=bench -c user.email=bench@localhost \
		commit -q -m "Debian linux-source $(dpkg-query -W -f '${Version}' "$package" 2>/dev/null || echo unknown)"
	git -C "$tree.tmp" tag pristine
	mv "$tree.tmp" "$tree"
fi

want=$(series_hash)
if [ -f "$state" ]; then
	# shellcheck disable=SC1090
	. "$state"
	head=$(git_tree rev-parse HEAD)
	if [ "$head" != "${applied_head:-}" ]; then
		echo "$tree has commits that are not in $patches (HEAD $head)." >&2
		echo "Run 'make export-patches' to keep them or 'make reset-tree' to drop them." >&2
		exit 1
	fi
	if [ "${applied_hash:-}" = "$want" ]; then
		say "series $want already applied"
		exit 0
	fi
fi

n=$(find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | wc -l)
say "applying $n patch(es) from $patches with git am"
git_tree checkout -q -f -B bench pristine
git_tree am -q --abort 2>/dev/null || true
if [ "$n" -gt 0 ]; then
	# shellcheck disable=SC2046
	git_tree am -q --whitespace=nowarn $(find "$patches" -maxdepth 1 \
		-name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | LC_ALL=C sort)
fi
printf 'applied_hash=%s\napplied_head=%s\n' "$want" "$(git_tree rev-parse HEAD)" > "$state"
say "tree at $(git_tree rev-parse --short HEAD), series $want"
