# make compare: one bar per engine and cell of an accelerator, patched
# against baseline, with its 95% CI where timed.  Run by
# results/mkcompare.sh with term ("svg" or "png"), out (output file) and
# par (the compare-<accel>.gp results/mkcompare wrote: dat, ttl, ylab,
# refy: the "no change" line, 0 for a difference, 1 for a ratio).
if (term eq "svg") {
	set terminal svg size 1200,700 dynamic noenhanced font "Sans,12" background "#ffffff"
} else {
	set terminal pngcairo size 1200,700 noenhanced font "Sans,10" background "#ffffff"
}
set output out
load par
set title ttl
set ylabel ylab
set style fill solid 0.85 border lc rgb "#333333"
set boxwidth 0.6
set grid ytics lc rgb "#dddddd"
set xtics nomirror rotate by -40 scale 0
set offsets 0.5, 0.5, graph 0.1, graph 0.1
unset key
set arrow 1 from graph 0, first refy to graph 1, first refy nohead dt 2 lw 1.5 lc rgb "#555555" front
plot dat using 0:2:xtic(1) with boxes lc rgb "#1f77b4", \
     dat using 0:2:3:4 with yerrorbars lc rgb "#333333" pt 0 lw 1.5
