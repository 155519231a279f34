#!/bin/sh
# Write the tree's commits since the pristine Debian import back to
# kernel-patches/ with git format-patch, so that the series is edited as
# commits in the tree and never by hand.
#
# usage: export-series.sh TREE_DIR PATCH_DIR
set -eu

tree=$1
patches=$(cd "$2" && pwd)

find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
# a fixed abbreviation: the index lines do not move with the tree's object count
git -C "$tree" -c core.abbrev=9 format-patch -q --zero-commit --no-signature --no-numbered \
	-o "$patches" pristine..HEAD
n=$(find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | wc -l)
# The tree now matches the exported series: record it as applied.
hash=$(find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' \
	| LC_ALL=C sort | xargs -r cat | sha1sum | cut -c1-12)
printf 'applied_hash=%s\napplied_head=%s\n' "$hash" "$(git -C "$tree" rev-parse HEAD)" \
	> "$tree/.git/bench-series"
echo "[tree] exported $n patch(es) to $patches (series $hash)"
