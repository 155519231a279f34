# The capture workload's rounds (results/mkcapture.c): per filter, one
# column of points per engine, each point one round's packets per second
# (a counted accelerator: guest instructions per packet); the medians
# are in the table.  Run by render.sh --index with term, out and par (the
# capture-ACCEL-CELL.gp mkcapture wrote: dat, ttl, ylab, nser, names[],
# colours[], the xtics) set.
if (term eq "svg") {
	set terminal svg size 1200,700 dynamic noenhanced font "Sans,12" background "#ffffff"
} else {
	set terminal pngcairo size 1200,700 noenhanced font "Sans,10" background "#ffffff"
}
set output out
load par
set title ttl
set ylabel ylab
set grid ytics lc rgb "#dddddd"
set key outside below horizontal
set yrange [0:*]
set xrange [-0.6:*]
set offsets 0, 0.6, graph 0.05, 0
set xtics nomirror scale 0
plot for [i=1:nser] dat index (i-1) using 1:2 with points pt 7 ps 0.6 lc rgb colours[i] title names[i]
