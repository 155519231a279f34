# Grouped bars, one group per bench cell, one bar per series, each bar
# labelled with its value.  Run by render.sh with term ("svg" or "png"),
# out (output file) and par (the <stem>.gp csv2dat wrote: dat, ttl, ylab,
# xlab, fmt or labelcol, whiskers, refline (with refy, reflabel: a dashed
# line at y = refy), nser, names[], colours[], xtics, and optionally logy:
# a log y axis, for ratios) set.  labelcol: the .dat column that holds each
# bar's label as the tables print it (the ratio plots: never rounded
# here); else the label is the bar's value in fmt.
if (term eq "svg") {
	set terminal svg size 1200,700 dynamic noenhanced font "Sans,12" background "#ffffff"
} else {
	set terminal pngcairo size 1200,700 noenhanced font "Sans,10" background "#ffffff"
}
set output out
load par
set title ttl
set ylabel ylab
set xlabel xlab offset 0,-1.2
set style fill solid 0.85 border lc rgb "#333333"
set grid ytics lc rgb "#dddddd"
set key outside below horizontal
if (exists("logy") && logy) {
	set logscale y 2
	set yrange [*:*]
	set offsets 0, 0, graph 0.12, graph 0.05
} else {
	set yrange [0:*]
	set offsets 0, 0, graph 0.12, 0
}
set xtics nomirror scale 0
if (refline) {
	set arrow 1 from graph 0, first refy to graph 1, first refy nohead dt 2 lw 1.5 lc rgb "#555555" front
	set label 1 reflabel at graph 0.01, first refy left offset 0,0.8 textcolor rgb "#555555" front
}
if (whiskers) {
	plot for [i=1:nser] dat index (i-1) using 1:2:3:4:5 with boxerrorbars lc rgb colours[i] lw 1 title names[i], \
	     for [i=1:nser] dat index (i-1) using 1:4:(exists("labelcol") ? stringcolumn(labelcol) : sprintf(fmt, $2)) with labels offset 0,0.7 font ",9" notitle
} else {
	plot for [i=1:nser] dat index (i-1) using 1:2:5 with boxes lc rgb colours[i] title names[i], \
	     for [i=1:nser] dat index (i-1) using 1:2:(exists("labelcol") ? stringcolumn(labelcol) : sprintf(fmt, $2)) with labels offset 0,0.7 font ",9" notitle
}
