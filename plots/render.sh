#!/bin/sh
# Draw a run's plots: RUN_DIR/results.csv (and ratios.csv, the paired
# ratios the tables show) -> RUN_DIR/plots/*.{svg,png},
# with the data each one shows beside it (*.dat, *.gp; see csv2dat.c).
#
# usage: render.sh RUN_DIR
# env:   CSV2DAT  the csv2dat binary (default: build/tools/csv2dat)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
csv2dat=${CSV2DAT:-$(dirname "$here")/build/tools/csv2dat}
[ $# = 1 ] || { echo "usage: render.sh RUN_DIR" >&2; exit 2; }
run=$1
[ -d "$run" ] || { echo "render.sh: no run directory $run" >&2; exit 1; }
if [ -f "$run/INCOMPLETE" ]; then
	echo "render.sh: $run is marked incomplete: $(head -n 1 "$run/INCOMPLETE"); no plots" >&2
	exit 1
fi
[ -f "$run/results.csv" ] || { echo "render.sh: no $run/results.csv (make tables RUN=$run)" >&2; exit 1; }
[ -x "$csv2dat" ] || { echo "render.sh: no $csv2dat (make tools)" >&2; exit 1; }
command -v gnuplot > /dev/null ||
	{ echo "render.sh: no gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }

out=$run/plots
mkdir -p "$out"
rm -f "$out"/*.svg "$out"/*.png "$out"/*.dat "$out"/*.gp "$out/index.txt"
# the paired ratios (ratios.csv) where the run has them
if [ -f "$run/ratios.csv" ]; then
	"$csv2dat" "$run/results.csv" "$out" "$run/ratios.csv" > "$out/index.txt"
else
	"$csv2dat" "$run/results.csv" "$out" > "$out/index.txt"
fi
cd "$out"
n=0
while read -r script stem; do
	for term in svg png; do
		gnuplot -e "term='$term'; out='$stem.$term'; par='$stem.gp'" "$here/$script.gp"
	done
	n=$((n + 1))
done < index.txt
echo "[plots] $n plots (svg and png) in $out"
