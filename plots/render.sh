#!/bin/sh
# Draw a run's plots: RUN_DIR/results.csv (and ratios.csv, the paired
# ratios the tables show) -> RUN_DIR/plots/*.{svg,png},
# with the data each one shows beside it (*.dat, *.gp; see csv2dat.c).
#
# usage: render.sh RUN_DIR
#        render.sh --index DIR INDEX   draw the plots INDEX lists, in DIR
# env:   CSV2DAT  the csv2dat binary (default: build/tools/csv2dat)
#        MKTREND  the mktrend binary (default: build/tools/mktrend): a run
#                 of a tree other than the default gets the trend plot
#                 against the default's reference run (trend-<accel>)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
csv2dat=${CSV2DAT:-$(dirname "$here")/build/tools/csv2dat}
mktrend=${MKTREND:-$(dirname "$here")/build/tools/mktrend}
# draw DIR INDEX: the plots INDEX lists ("SCRIPT STEM" lines: plots/
# SCRIPT.gp with DIR/STEM.gp), svg and png, in DIR.
draw() {
	command -v gnuplot > /dev/null ||
		{ echo "render.sh: no gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
	n=0
	while read -r script stem; do
		for term in svg png; do
			(cd "$1" && gnuplot -e "term='$term'; out='$stem.$term'; par='$stem.gp'" "$here/$script.gp")
		done
		n=$((n + 1))
	done < "$2"
	echo "[plots] $n plots (svg and png) in $1"
}
# render.sh --index DIR INDEX: only draw (make trend)
if [ "${1:-}" = --index ] && [ $# = 3 ]; then
	draw "$2" "$3"
	exit 0
fi
[ $# = 1 ] || { echo "usage: render.sh RUN_DIR" >&2; exit 2; }
run=$1
[ -d "$run" ] || { echo "render.sh: no run directory $run" >&2; exit 1; }
if [ -f "$run/INCOMPLETE" ]; then
	echo "render.sh: $run is marked incomplete: $(head -n 1 "$run/INCOMPLETE"); no plots" >&2
	exit 1
fi
[ -f "$run/results.csv" ] || { echo "render.sh: no $run/results.csv (make tables RUN=$run)" >&2; exit 1; }
for t in "$csv2dat" "$mktrend"; do
	[ -x "$t" ] || { echo "render.sh: no $t (make tools)" >&2; exit 1; }
done
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
"$mktrend" -p "$out" -r "$run" >> "$out/index.txt"
draw "$out" "$out/index.txt"
