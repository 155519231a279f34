#!/bin/sh
# The tables stage of make compare (run-bench.sh runs it with KERNELS):
# RUN/baseline and RUN/patched, each a run directory, get their own tables
# (mktables.sh, no plots); results/mkcompare writes RUN/compare.csv,
# compare.txt, summary.txt and the plot data; gnuplot draws
# RUN/plots/compare-<accel>.{svg,png}; and RUN/series/ gets the patches of
# the patched kernel with a cover letter (our tables and perf below its
# "---" line), for git send-email.
#
# usage: mkcompare.sh RUN_DIR TOOLS_DIR
set -eu

[ $# = 2 ] || { echo "usage: mkcompare.sh RUN_DIR TOOLS_DIR" >&2; exit 2; }
run=$1 tools=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=results/kv.sh
. "$here/kv.sh"

for side in baseline patched; do
	[ -f "$run/$side/run.txt" ] || { echo "mkcompare.sh: no $run/$side/run.txt (not a make compare run)" >&2; exit 1; }
	PLOTS=0 "$here/mktables.sh" "$run/$side" "$tools"
done
rm -rf "$run/plots" "$run/series"
"$tools/mkcompare" "$run"

if command -v gnuplot > /dev/null; then
	(
		cd "$run/plots"
		for par in compare-*.gp; do
			for term in svg png; do
				gnuplot -e "term='$term'; out='${par%.gp}.$term'; par='$par'" \
					"$(dirname "$here")/plots/compare.gp"
			done
		done
	)
	echo "[compare] plots in $run/plots/"
else
	echo "[compare] no gnuplot: no plots (apt-get install gnuplot-nox)" >&2
fi

# The cover letter: git format-patch's, with our summary as its text and
# the tables and perf below the "---" line.
tree=$(kv "$run/patched/run.txt" tree)
from=$(kv "$run/baseline/run.txt" tree_head)
to=$(kv "$run/patched/run.txt" tree_head)
if ! git -C "$tree" cat-file -e "$to^{commit}" 2> /dev/null; then
	echo "[compare] no cover letter: the patched tree $tree no longer has $to" >&2
	exit 0
fi
# The cover letter's From: the user's git identity where git has one
# (the clone's config), else the tree's.
name=$(git -C "$here" config user.name 2> /dev/null || true)
email=$(git -C "$here" config user.email 2> /dev/null || true)
if [ -n "$name" ] && [ -n "$email" ]; then
	set -- -c "user.name=$name" -c "user.email=$email"
else
	set --
fi
git "$@" -C "$tree" format-patch -q --cover-letter \
	-o "$run/series" "$from..$to"
cover=$run/series/0000-cover-letter.patch
awk -v summary="$run/summary.txt" -v tables="$run/compare.txt" '
	function cat(f,   l) { while ((getline l < f) > 0) print l; close(f) }
	# git leaves these for the author: the subject keeps the marker
	/^\*\*\* BLURB HERE \*\*\*$/ { cat(summary); print ""; print "---"; dashes = 1; next }
	dashes && /^-- $/ && !done { cat(tables); done = 1 }
	{ print }
' "$cover" > "$cover.tmp"
mv "$cover.tmp" "$cover"
echo "[compare] $run/series/: the cover letter and $(($(find "$run/series" -name '*.patch' | wc -l) - 1)) patch(es)"
