#!/bin/sh
# make readme-results RUN="results/<id> ...": put runs' headline results
# into README.md, between the lines "<!-- reference-run: begin -->" and
# "<!-- reference-run: end -->": per run the command, machine and date,
# the finding, each accelerator's table and the 2014 claims in brief, as
# `mkcover -r` renders them from the run's results.csv, ratios.csv,
# absolute.csv, claims.csv and decomposition.csv (the cover letter's
# rendering; nothing typed by hand).  The rest of README.md is left as it
# is.
#
# usage: mkreadme.sh TOOLS_DIR RUN_DIR... README
set -eu

[ $# -ge 3 ] || { echo "usage: mkreadme.sh TOOLS_DIR RUN_DIR... README" >&2; exit 2; }
tools=$1
shift
for readme; do :; done
begin='<!-- reference-run: begin -->'
end='<!-- reference-run: end -->'
if [ "$(grep -c -x -F "$begin" "$readme")" != 1 ] || [ "$(grep -c -x -F "$end" "$readme")" != 1 ]; then
	echo "mkreadme: $readme needs exactly one '$begin' and one '$end' line" >&2
	exit 1
fi
block=$(mktemp)
trap 'rm -f "$block" "$block.new"' EXIT

# one RUN_DIR: its part of the block.
one() {
	run=$1
	for f in "$run/run.txt" "$run/results.csv" "$run/claims.csv"; do
		[ -s "$f" ] || { echo "mkreadme: $f missing or empty (make tables RUN=$run first)" >&2; exit 1; }
	done
	if [ -e "$run/INCOMPLETE" ]; then
		echo "mkreadme: $run is marked incomplete ($(head -n 1 "$run/INCOMPLETE")): not a reference run" >&2
		exit 1
	fi
	"$tools/mkcover" -r "$run"
}

runs=
while [ $# -gt 1 ]; do
	one "$1" >> "$block"
	runs="$runs $1"
	shift
done
echo "Re-made by \`make readme-results RUN=\"${runs# }\"\`." >> "$block"
awk -v b="$begin" -v e="$end" -v f="$block" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip { print }' "$readme" > "$block.new"
cat "$block.new" > "$readme"
echo "[readme] $readme: reference run(s)$runs ($(grep -c . "$block") lines)"
