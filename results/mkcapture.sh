#!/bin/sh
# The tables stage of a capture-workload run (make bench FILTERS=...
# PCAP=..., docs/capture.md): RUN/table.txt, capture.csv,
# capture-ratios.csv and plots/capture-*.{svg,png} from what the guests
# wrote (results/mkcapture.c).  Boots nothing: run-bench.sh runs it after
# the boots, `make tables RUN=results/<id>` on a saved run.
#
# usage: mkcapture.sh RUN_DIR TOOLS_DIR
# env:   PLOTS=0 to skip the plots (default: drawn when gnuplot is there)
set -eu

[ $# = 2 ] || { echo "usage: mkcapture.sh RUN_DIR TOOLS_DIR" >&2; exit 2; }
run=$1 tools=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$run/run.txt" ] || { echo "mkcapture.sh: no $run/run.txt (not a run directory)" >&2; exit 1; }
if [ -f "$run/INCOMPLETE" ]; then
	echo "mkcapture.sh: $run is marked incomplete: $(head -n 1 "$run/INCOMPLETE"); no tables made" >&2
	exit 1
fi
rm -rf "$run/table.txt" "$run/capture.csv" "$run/capture-ratios.csv" "$run/plots"
if ! "$tools/mkcapture" "$run" > "$run/table.tmp"; then
	rm -rf "$run/table.tmp" "$run/capture.csv" "$run/capture-ratios.csv" "$run/plots"
	echo "mkcapture.sh: $run: the tables could not be made (see above)" >&2
	exit 1
fi
mv "$run/table.tmp" "$run/table.txt"
if [ "${PLOTS:-1}" != 0 ] && command -v gnuplot > /dev/null; then
	"$here/../plots/render.sh" --index "$run/plots" "$run/plots/index.txt" >&2
fi
