# Per-call cost against the working set (distinct skbs), log x axis, one
# line per engine.  Run by render.sh with term, out and par set (par, the
# <stem>.gp csv2dat wrote: dat, ttl, ylab, xlab, xmin, xmax, nser, names[],
# colours[]).
if (term eq "svg") {
	set terminal svg size 1200,700 dynamic noenhanced font "Sans,12" background "#ffffff"
} else {
	set terminal pngcairo size 1200,700 noenhanced font "Sans,10" background "#ffffff"
}
set output out
load par
set title ttl
set ylabel ylab
set xlabel xlab
set logscale x 10
set xrange [xmin / 2.0 : xmax * 2.0]
set format x "%.0f"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set grid xtics ytics lc rgb "#dddddd"
set key outside below horizontal
plot for [i=1:nser] dat index (i-1) using 1:2:3:4 with yerrorlines lc rgb colours[i] lw 2 pt 7 ps 0.8 title names[i]
