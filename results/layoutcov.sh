#!/bin/sh
# The coverage of the CI over code-layout variants on the real variants
# of saved runs (results/layoutcov.c): each paired boot of a variant of
# the runs' uml accelerator dirs becomes one "cell/skbs/pair ratio" line
# (mkratios, one boot at a time), and layoutcov draws sets of LAYOUTS of
# them.
#
# usage: layoutcov.sh TOOLS_DIR ACCEL_DIR... [-- LAYOUTCOV_OPTIONS]
#        ACCEL_DIR: a run's accelerator directory (RUN/uml, RUN/repeat-2/uml)
set -eu
tools=$1
shift
dirs=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	dirs="$dirs $1"
	shift
done
[ $# = 0 ] || shift
[ -n "$dirs" ] || { echo "usage: layoutcov.sh TOOLS_DIR ACCEL_DIR... [-- OPTIONS]" >&2; exit 2; }
for d in $dirs; do
	for b in "$d"/boot-*/; do
		# the variants' boots only (host.txt layout=)
		grep -qs '^layout=' "$b/host.txt" || continue
		"$tools/mkratios" -s "$b/paired.txt" | awk -F, '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $(c["filter"]) "/" $(c["skbs"]) "/" $(c["pair"]), $(c["ratio"]) }'
	done
done | "$tools/layoutcov" "$@"
