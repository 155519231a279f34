#!/bin/sh
# Host tests of the plots (plots/render.sh, csv2dat) and the cover letter
# (mkcover) on a made-up run with every accelerator kind and a sweep.
# usage: tests-cover.sh TOOLS_DIR [KEEP_DIR]   prints PASS:/FAIL: lines
#        (KEEP_DIR: keep the made-up run, its plots and cover letter there)
set -eu
tools=$(cd "$1" && pwd)
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
render=$(dirname "$here")/plots/render.sh
# shellcheck source=bench/host/testlib.sh
. "$here/../bench/host/testlib.sh"
# bigger FILE BYTES: FILE exists and has more than BYTES bytes
bigger() { [ -f "$1" ] && [ "$(wc -c < "$1")" -gt "$2" ]; }
is_png() { bigger "$1" 10000 && head -c 8 "$1" | grep -q PNG; }
is_svg() { bigger "$1" 5000 && grep -q '<svg' "$1" && grep -q '</svg>' "$1"; }

# fixture RUN_DIR: kvm and uml (hardware, ns), icount (counted, insns) and
# tcg (emulated, ns); kvm sweeps skbs 1..100000, icount has 3 points, uml
# and tcg only the table's 1 and 10000; uml has no jit; kvm has perf reports.
fixture() {
	run=$1
	mkdir -p "$run"
	cat > "$run/run.txt" <<'X'
run_id=fixture
date=2025-01-02T03:04:05Z
host_cpu=Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz
kernel=6.1.192
debian_version=6.1.192-3
series_hash=def456def456
accels=kvm uml icount tcg
X
	for a in kvm uml icount tcg; do
		mkdir -p "$run/$a"
		case $a in
		kvm | uml) unit=ns kind=hardware cpu='Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz' ;;
		icount) unit=insns kind=counted cpu='QEMU Virtual CPU, version 2.5+' ;;
		*) unit=ns kind=emulated cpu='QEMU Virtual CPU, version 2.5+' ;;
		esac
		printf 'accel=%s\nunit=%s\nkind=%s\nconfig_hash=abc123abc123\n' \
			"$a" "$unit" "$kind" > "$run/$a/host.txt"
		printf 'kernel=6.1.192\ncpu=%s\nclocksource=tsc\n' "$cpu" > "$run/$a/meta.txt"
	done
	# accel engine filter hit-cost miss-cost skbs...: a curve from hit to miss
	awk '{
		for (i = 6; i <= NF; i++) {
			s = $i
			fr = (s == 1) ? 0 : (s == 10) ? 0.05 : (s == 100) ? 0.2 : \
			     (s == 1000) ? 0.6 : (s == 10000) ? 1 : 1.3
			m = $4 + ($5 - $4) * fr
			printf "tag=bench filter=%s packet=tcp22-payload engine=%s skbs=%s samples=21 calls_per_sample=4096 min=%.3f median=%.3f mean=%.3f stddev=%.3f verdict=262144 jited=%d insns=30 image_bytes=0 clock=tsc\n", \
				$3, $2, s, m * 0.95, m, m * 1.02, m * 0.04, $2 == "jit" >> (dir "/" $1 "/cells.txt")
		}
	}' dir="$run" <<'X'
kvm old fprog1 60 75 1 10 100 1000 10000 100000
kvm new fprog1 25 55 1 10 100 1000 10000 100000
kvm jit fprog1 8 30 1 10 100 1000 10000 100000
kvm baseline fprog1 3 20 1 10 100 1000 10000 100000
kvm old fprog2 130 150 1 10 100 1000 10000 100000
kvm new fprog2 35 80 1 10 100 1000 10000 100000
kvm jit fprog2 12 38 1 10 100 1000 10000 100000
kvm baseline fprog2 3 20 1 10 100 1000 10000 100000
uml old fprog1 70 88 1 10000
uml new fprog1 30 61 1 10000
uml baseline fprog1 5 24 1 10000
uml old fprog2 150 170 1 10000
uml new fprog2 41 90 1 10000
uml baseline fprog2 5 24 1 10000
icount old fprog1 410 410 1 1000 10000
icount new fprog1 160 160 1 1000 10000
icount jit fprog1 45 45 1 1000 10000
icount baseline fprog1 20 20 1 1000 10000
icount old fprog2 900 900 1 1000 10000
icount new fprog2 230 230 1 1000 10000
icount jit fprog2 70 70 1 1000 10000
icount baseline fprog2 20 20 1 1000 10000
tcg old fprog1 900 950 1 10000
tcg new fprog1 400 460 1 10000
tcg jit fprog1 120 170 1 10000
tcg baseline fprog1 40 80 1 10000
tcg old fprog2 1900 2000 1 10000
tcg new fprog2 560 640 1 10000
tcg jit fprog2 190 240 1 10000
tcg baseline fprog2 40 80 1 10000
X
	echo "tag=crosscheck filter=fprog1 packet=testbpf100 engine=new skbs=1 samples=21 calls_per_sample=4096 min=170 median=170 mean=170 stddev=0 verdict=262144 jited=0 insns=30 image_bytes=0 clock=tsc" >> "$run/icount/cells.txt"
	echo "[    1.0] test_bpf: #33 tcpdump port 22 jited:0 160 165 168 PASS" > "$run/icount/test_bpf.txt"
	mkdir -p "$run/kvm/perf"
	for e in old new; do
		cat > "$run/kvm/perf/bench-$e-fprog2-tcp22-payload-skbs1.report" <<X
# Samples: 10K of event 'cycles'
# Overhead  Command  Shared Object      Symbol
# ........  .......  .................  ......................
#
    41.20%  insmod   [kernel.kallsyms]  [k] ${e}_run_filter
    20.10%  insmod   [bpf_bench]        [k] bench_loop
     9.00%  insmod   [kernel.kallsyms]  [k] skb_copy_bits
     5.00%  insmod   [kernel.kallsyms]  [k] ktime_get
     3.00%  insmod   [kernel.kallsyms]  [k] memcpy
     1.00%  insmod   [kernel.kallsyms]  [k] native_irq_return_iret

X
	done
	cat > "$run/kvm/perf/seccomp-old-large-nr199-skbs1.report" <<'X'
# Overhead  Symbol                            IPC   [IPC Coverage]
#
    73.10%  [k] sk_run_filter                 -      -
     5.00%  [k] __seccomp_filter              -      -
X
}

run=$tmp/run
fixture "$run"
if "$tools/mkcsv" "$run" > "$run/results.csv" 2> "$tmp/err" &&
	"$tools/mkclaims" "$run" 2>> "$tmp/err" &&
	"$tools/mktable" "$run/results.csv" > "$run/table.txt" 2>> "$tmp/err"; then
	pass "cover: mkcsv, mkclaims and mktable take the made-up run"
else
	fail "cover: mkcsv, mkclaims and mktable take the made-up run: $(cat "$tmp/err")"
fi

# ---- plots
p=$run/plots
succeeds "plots: render.sh draws the made-up run" "$tmp/render.out" \
	env CSV2DAT="$tools/csv2dat" "$render" "$run"
stems="ns-kvm ns-uml insns-icount ns-tcg ratios-kvm ratios-uml ratios-icount ratios-tcg ratios-all"
for a in kvm uml icount tcg; do
	stems="$stems sweep-$a-fprog1 sweep-$a-fprog2"
done
bad=""
for s in $stems; do
	is_svg "$p/$s.svg" || bad="$bad $s.svg"
	is_png "$p/$s.png" || bad="$bad $s.png"
done
expect "plots: all 17 plots as non-trivial SVG and PNG${bad:+ (bad:$bad)}" test -z "$bad"
expect "plots: nothing beyond the expected plots" \
	test "$(find "$p" -name '*.svg' | wc -l)" = 17
for a in kvm uml icount tcg; do
	u=ns; [ $a = icount ] && u=insns
	expect "plots: $u-$a title names accel=$a" grep -q "Classic BPF $u per call, accel=$a" "$p/$u-$a.svg"
	expect "plots: ratios-$a title names accel=$a" grep -q "ratios of median $u per call, accel=$a" "$p/ratios-$a.svg"
	expect "plots: sweep-$a-fprog1 title names accel=$a" grep -q "Working-set sweep, fprog1: $u per call vs distinct skbs, accel=$a" "$p/sweep-$a-fprog1.svg"
done
for s in ns-tcg ratios-tcg sweep-tcg-fprog1 sweep-tcg-fprog2; do
	expect "plots: $s title says EMULATED (QEMU TCG), not hardware timing" \
		grep -q "accel=tcg: EMULATED (QEMU TCG), not hardware timing" "$p/$s.svg"
done
expect "plots: tcg y axis says EMULATED ns" grep -q "EMULATED ns per call, accel=tcg (not hardware time)" "$p/ns-tcg.svg"
expect "plots: ratios-all says it mixes accelerators, EMULATED among them" \
	grep -q "MIXES accelerators: hardware ns, counted insns and EMULATED (QEMU TCG) ns, not hardware timing" "$p/ratios-all.svg"
expect "plots: no hardware or icount plot claims EMULATED" \
	sh -c "! grep -l EMULATED '$p'/ns-kvm.svg '$p'/ns-uml.svg '$p'/insns-icount.svg '$p'/sweep-kvm-fprog1.svg '$p'/ratios-kvm.svg"
expect "plots: kvm title says hardware timing" grep -q "accel=kvm: hardware timing" "$p/ns-kvm.svg"
expect "plots: icount title says counted, not time" \
	grep -q "accel=icount: counted guest instructions (QEMU -icount), not time" "$p/insns-icount.svg"
expect "plots: ns y axis with unit and accel" grep -q ">ns per call, accel=kvm<" "$p/ns-kvm.svg"
expect "plots: insns y axis with unit and accel" \
	grep -q ">guest instructions (insns) per call, accel=icount<" "$p/insns-icount.svg"
expect "plots: sweep y axis with unit and accel" grep -q ">ns per call, accel=uml<" "$p/sweep-uml-fprog2.svg"
expect "plots: sweep x axis is distinct skbs, log scale" \
	grep -q "distinct skbs cycled through (working set, log scale)" "$p/sweep-kvm-fprog1.svg"
expect "plots: ratio y axis names the ratio, unit and accel" \
	grep -q "ratio of median insns per call (A/B = how many times cheaper B is), accel=icount" "$p/ratios-icount.svg"
expect "plots: bar x axis names the cells" grep -q "cache-miss (10000 skbs)" "$p/ns-kvm.svg"
expect "plots: spread is explained" grep -q "whiskers = min sample..mean+1 stddev (no CI" "$p/ns-kvm.svg"
expect "plots: bars carry the medians (old fprog1 hit 60.000, min 57.000)" \
	grep -q '^0.7000 60.000 57.000 ' "$p/ns-kvm.dat"
expect "plots: uml has no jit bar" sh -c "! grep -q 'jit' '$p/ns-uml.gp'"
expect "plots: uml ratios have no new/jit series" sh -c "! grep -q '^names.*new/jit' '$p/ratios-uml.gp'"
expect "plots: ratios beside 2014 (2.4 ours, 2.9 2014)" \
	sh -c "grep -q ' 2.4 ' '$p/ratios-kvm.dat' && grep -q ' 2.9 ' '$p/ratios-kvm.dat'"
expect "plots: kvm sweep has 6 points per engine, 1 to 100000" \
	sh -c "awk 'NF == 4 && !/^#/ { n++ } END { exit n != 24 }' '$p/sweep-kvm-fprog1.dat' && grep -q '^100000 ' '$p/sweep-kvm-fprog1.dat'"
expect "plots: a run without a sweep says so and draws 2 points" \
	sh -c "grep -q 'accel=uml fprog1: no working-set sweep' '$tmp/render.out' && grep -q 'NO SWEEP' '$p/sweep-uml-fprog1.svg'"
expect "plots: a real sweep is not called NO SWEEP" sh -c "! grep -q 'NO SWEEP' '$p/sweep-kvm-fprog1.svg'"

ci=$tmp/ci
mkdir -p "$ci"
# The same run with every cell's ci_lo/ci_hi at 90%/110% of its median.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
	$col["ci_lo"] == "" && $col["median"] != "" && $0 !~ /"/ {
		$col["ci_lo"] = $col["median"] * 0.9; $col["ci_hi"] = $col["median"] * 1.1
	} { print }' "$run/results.csv" > "$ci/results.csv"
succeeds "plots: render.sh takes ci_lo,ci_hi values" "$tmp/ci.out" \
	env CSV2DAT="$tools/csv2dat" "$render" "$ci"
expect "plots: whiskers are the CI when there is one" \
	sh -c "grep -q '^0.7000 60.000 54.000 66.000 ' '$ci/plots/ns-kvm.dat' && grep -q 'whiskers = 95% CI of the median' '$ci/plots/ns-kvm.svg'"
expect "plots: render.sh fails on a directory without results.csv" \
	sh -c "! CSV2DAT='$tools/csv2dat' '$render' '$tmp/nothing'"

# ---- cover letter
tree=$tmp/tree
series_tree "$tree"
cover=$tmp/cover.patch
if SOURCE_DATE_EPOCH=1700000000 "$tools/mkcover" "$run" "$tree" "$cover" 2> "$tmp/err"; then
	pass "cover: mkcover writes a cover letter"
else
	fail "cover: mkcover writes a cover letter: $(cat "$tmp/err")"
fi
expect "cover: format-patch first line" \
	test "$(head -n 1 "$cover")" = "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
expect "cover: From: the tree's committer, name quoted" grep -qx 'From: "A. U. Thor" <author@example.org>' "$cover"
expect "cover: Date: from SOURCE_DATE_EPOCH" grep -qx 'Date: Tue, 14 Nov 2023 22:13:20 +0000' "$cover"
expect "cover: subject [PATCH 0/2] for 2 commits" grep -q '^Subject: \[PATCH 0/2\] ' "$cover"
expect "cover: points to the full table.txt, does not paste it" \
	sh -c "grep -q '(full tables: results/.*/table.txt)' '$cover' && ! grep -q '^== 2014 claims, re-tested' '$cover'"
expect "cover: ns/call table row" grep -q '^new BPF  *25.0  *55.0  *35.0  *80.0$' "$cover"
expect "cover: insns/call table" grep -q '^accel=icount (.*, insns per call, counted):$' "$cover"
expect "cover: the 2014 ratios beside old/new, also without paired cells" \
	grep -q '^old/new  *-  *-  *-  *-  2014: 2.9x 1.4x 4.1x 2.1x$' "$cover"
expect "cover: says the old interpreter is for the bench module only" grep -q 'for a bench module only' "$cover"
expect "cover: the claims in brief, the branch-misses claim where no PMU counted" \
	sh -c "grep -q '^The 2014 claims re-tested (claims.csv' '$cover' && grep -q '^    perf stat: drastic difference in branch-misses  *-  *not measurable$' '$cover'"
expect "cover: says how to read a ratio" grep -q 'A ratio t_A/t_B > 1 means B is faster; it is paired' "$cover"
expect "cover: machine: host cpu, Debian version, series" \
	grep -q '^Machine: host cpu Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz; kernel .* (Debian linux-source 6.1.192-3), series def456def456.$' "$cover"
expect "cover: every accelerator with kind, cpu and config" \
	sh -c "grep -q '^  accel=tcg: emulated; guest cpu QEMU Virtual CPU, version 2.5+; config abc123abc123' '$cover' && [ \$(grep -c '^  accel=[a-z]*: ' '$cover') = 4 ]"
expect "cover: perf top symbols per engine of one cell, one line each" \
	sh -c "grep -q '^perf report, accel=kvm, fprog #2 cache-hit' '$cover' && grep -q '^  old BPF  *41.20% old_run_filter, ' '$cover' && ! grep -q native_irq_return_iret '$cover'"
expect "cover: shortlog of the series" \
	sh -c "grep -q '^A. U. Thor (2):' '$cover' && grep -q 'bpf: revive the 3.14 classic BPF interpreter' '$cover' && ! grep -q '^ *base$' '$cover'"
expect "cover: diffstat of the series" grep -q '^ 2 files changed, 2 insertions(+)$' "$cover"
expect "cover: signature line" grep -qx -- '-- ' "$cover"
if (cd "$tmp" && git mailinfo msg body < "$cover" > info) 2> "$tmp/err"; then
	pass "cover: git mailinfo accepts it"
else
	fail "cover: git mailinfo accepts it: $(cat "$tmp/err")"
fi
expect "cover: mailinfo parses the subject" \
	grep -qx "Subject: bpf: re-measure bd4cf0ed331a's classic BPF interpreter rework on 6.1" "$tmp/info"
expect "cover: mailinfo parses the author" grep -qx "Author: A. U. Thor" "$tmp/info"
expect "cover: mailinfo -k keeps [PATCH 0/2]" \
	sh -c "cd '$tmp' && git mailinfo -k m2 b2 < '$cover' | grep -q '^Subject: \[PATCH 0/2\] '"
expect "cover: mailinfo keeps the whole body as the message" \
	sh -c "[ ! -s '$tmp/body' ] && grep -q '^new BPF  *25.0  *55.0' '$tmp/msg' && grep -q '2 files changed' '$tmp/msg'"

rm -r "$run/kvm/perf"
"$tools/mkcover" "$run" "$tree" "$tmp/noperf.patch" 2> /dev/null || true
expect "cover: says when perf was not captured" grep -q '^perf: not captured in this run' "$tmp/noperf.patch"
git -C "$tree" tag -f pristine HEAD > /dev/null 2>&1
expect "cover: an empty series fails and leaves no file" \
	sh -c "! '$tools/mkcover' '$run' '$tree' '$tmp/empty.patch' 2>/dev/null && [ ! -e '$tmp/empty.patch' ]"

if [ -n "$keep" ]; then
	mkdir -p "$keep"
	cp -R "$run" "$keep/"
	cp "$cover" "$keep/cover.patch"
fi

# ---- one ratio everywhere: a run with boots (results/fixtures/uml-boots,
# 4 uml boots) shows each paired ratio of ratios.csv, over its boots, with
# the same CI in table.txt, in the cover letter and in the ratio plot's data.
fxb=$tmp/uml-boots
cp -R "$here/fixtures/uml-boots" "$fxb"
series_tree "$tmp/tree-boots"
succeeds "one ratio: the tables stage, plots and cover letter of fixture uml-boots" "$tmp/fxb.out" \
	env PLOTS=1 "$here/mktables.sh" "$fxb" "$tools" "$tmp/tree-boots" "$fxb/cover.patch"
# ratio_cells PAIR FORMAT: the pair's ratio and CI in the four table cells
ratio_cells() {
	awk -F, -v pair="$1" -v fmt="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["accel"] == "uml" && $c["pair"] == pair {
		k = $c["filter"] "/" $c["skbs"]
		r[k] = sprintf(fmt, $c["ratio"], $c["ci_lo"], $c["ci_hi"])
		if (fmt ~ /\[/ && $c["ci_lo"] <= 1 && $c["ci_hi"] >= 1) r[k] = "no difference shown"
	}
	END { printf "%s|%s|%s|%s\n", r["fprog1/1"], r["fprog1/10000"], r["fprog2/1"], r["fprog2/10000"] }' "$fxb/ratios.csv"
}
# cover_cells PAIR: the pair's row in the cover letter: ratio±half-width
cover_cells() {
	awk -F, -v pair="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["accel"] == "uml" && $c["pair"] == pair {
		k = $c["filter"] "/" $c["skbs"]
		r[k] = sprintf("%.2f", $c["ratio"])
		if ($c["halfwidth_pct"] >= 0.5) r[k] = sprintf("%.2f±%.0f%%", $c["ratio"], $c["halfwidth_pct"])
	}
	END {
		# the cover pads by characters: "±" is one column, two bytes
		printf "%-14s", pair
		n = split("fprog1/1 fprog1/10000 fprog2/1 fprog2/10000", cl, " ")
		for (i = 1; i <= n; i++) printf(" %" (index(r[cl[i]], "±") ? 12 : 11) "s", r[cl[i]])
	}' "$fxb/ratios.csv"
}
for pair in old/new old/new2014 new2014/new; do
	want=$(ratio_cells "$pair" "%.2f [%.2f, %.2f]" | awk -F'|' -v p="$pair" '{ printf "%-14s %20s %20s %20s %20s", p, $1, $2, $3, $4 }')
	expect "one ratio: $pair over the boots, the same in table.txt and the cover letter" \
		sh -c "grep -qxF -- '$want' '$fxb/table.txt' && grep -qF -- '$(cover_cells "$pair")' '$fxb/cover.patch'"
	# the plot's series of this pair: the block whose label is "PAIR, accel=uml"
	n=$(sed -n 's/^names\[\([0-9]*\)\] = "\(.*\), accel=uml"$/\1 \2/p' "$fxb/plots/ratios-uml.gp" | awk -v p="$pair" '$2 == p { print $1 }')
	got=$(awk -v n="${n:-0}" 'BEGIN { b = 1 } /^NaN/ { b++; next } b == n && NF == 6 { printf "%s%.3f %.3f %.3f", sep, $2, $3, $4; sep = "|" }' "$fxb/plots/ratios-uml.dat")
	expect "one ratio: $pair and its CI, the same in the ratio plot's data" \
		test "$got" = "$(ratio_cells "$pair" "%.3f %.3f %.3f")"
done
expect "one ratio: the plot says its whiskers are the CI over 4 boots of one build" \
	grep -q 'whiskers = 95% CI over 4 boots of one build, log scale' "$fxb/plots/ratios-uml.gp"
expect "one ratio: the claims quote the over-boots ratio" \
	grep -qF "ours: $(ratio_cells old/new "%.2f [%.2f, %.2f]" | cut -d'|' -f1)  reversed" "$fxb/table.txt"
expect "one ratio: claims.csv holds the over-boots ratio the table quotes" \
	test "$(for c in value ci_lo ci_hi; do "$tools/csvget" "$fxb/claims.csv" "$c" accel=uml claim=new-faster cell=fprog1-hit; done |
		awk '{ v[NR] = $1 } END { printf "%.2f [%.2f, %.2f]", v[1], v[2], v[3] }')" = \
	"$(ratio_cells old/new "%.2f [%.2f, %.2f]" | cut -d'|' -f1)"
# One number, one rendering: a paired ratio whose three-decimal rounding
# ends in 5 (0.5852: 0.585 is 0.58499... as a double, 0.58x once rounded
# again) reads 0.59 in table.txt, in the cover letter and on its bar in the
# plot; a ratio of medians (old/jit 0.4496: 0.450 would read 0.45x on a
# plot of paired bars) reads 0.4x in the table's ratio line and on its bar.
# The plot's data holds each figure as its CSV has it and each bar's label
# as the table prints it.
tie=$tmp/tie
rm -rf "$tie"
cp -R "$here/fixtures/uml-boots" "$tie"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR > 1 && $c["pair"] == "old/new" && $c["filter"] == "fprog1" && $c["skbs"] == 1 { $c["ratio"] = "0.5852" }
	{ print }' "$here/fixtures/uml-boots/ratios.csv" > "$tie/ratios.csv"
# uml has no jit: a made-up jit row beside old's in fprog #2's cache-miss cell
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	!($c["engine"] == "old" && $c["tag"] == "bench" && $c["filter"] == "fprog2" && $c["skbs"] == 10000) { print; next }
	{ $c["median"] = "0.450"; $c["ci_lo"] = ""; $c["ci_hi"] = ""; print; $c["engine"] = "jit"; $c["median"] = "1.001"; print }' \
	"$here/fixtures/uml-boots/results.csv" > "$tie/results.csv"
if "$tools/mkclaims" "$tie" 2> "$tmp/tie.err" &&
	"$tools/mktable" "$tie/results.csv" "$tie/ratios.csv" "$tie/absolute.csv" > "$tie/table.txt" 2>> "$tmp/tie.err" &&
	CSV2DAT=$tools/csv2dat MKTREND=$tools/mktrend "$render" "$tie" > "$tmp/tie.out" 2>&1 &&
	"$tools/mkcover" "$tie" "$tmp/tree-boots" "$tie/cover.patch" >> "$tmp/tie.out" 2>&1; then
	pass "one number: the tables, plots and cover letter of a run with ties"
else
	fail "one number: the tables, plots and cover letter of a run with ties: $(tail -n 3 "$tmp/tie.err" "$tmp/tie.out")"
fi
expect "one number: a paired ratio of 0.5852 reads 0.59 in table.txt, the cover letter and on its bar" \
	sh -c "grep -q '^old/new  *0.59 \[' '$tie/table.txt' && grep -q '^old/new  *0.59±' '$tie/cover.patch' &&
		grep -q '^[0-9.]* 0.5852 .* 0.59x$' '$tie/plots/ratios-uml.dat' && grep -q '>0.59x<' '$tie/plots/ratios-uml.svg'"
expect "one number: a ratio of medians of 0.4496 reads 0.4x in table.txt and on its bar" \
	sh -c "grep -q '^old/jit  *-  *-  *-  *0.4x$' '$tie/table.txt' && grep -q '^[0-9.]* 0.449550* .* 0.4x$' '$tie/plots/ratios-uml.dat' &&
		grep -q '>0.4x<' '$tie/plots/ratios-uml.svg' && ! grep -q '>0.45x<' '$tie/plots/ratios-uml.svg'"
above=$(sed -n '/^ .* | /{=;q}' "$fxb/cover.patch")
expect "cover: at most 150 lines above the diffstat (${above:-none})" test "${above:-999}" -le 151
expect "cover: its first paragraph names the finding from claims.csv" \
	sh -c "sed -n '9,12p' '$fxb/cover.patch' | tr '\n' ' ' | grep -q '^On Debian.s linux-source .* the 2014 result is reversed: \"new faster than old\" is reversed in all 4 cells on 1 accelerator'"

# The accelerator's run_sd (bench/times.conf, recorded in each boot's host.txt)
# widens the CI over boots and the table says so.
rm -rf "$tmp/rsd"
cp -R "$here/fixtures/uml-boots" "$tmp/rsd"
echo "run_sd=0.6,1.0" >> "$tmp/rsd/uml/host.txt"
PLOTS=0 "$here/mktables.sh" "$tmp/rsd" "$tools" > /dev/null 2>&1 || true
expect "run_sd: host.txt's run_sd reaches ratios.csv (0.60 one skb, 1.00 more)" sh -c "
	grep -q ',fprog1,tcp22-payload,1,old/new,.*,4,boots,0.60,' '$tmp/rsd/ratios.csv' &&
	grep -q ',fprog1,tcp22-payload,10000,old/new,.*,4,boots,1.00,' '$tmp/rsd/ratios.csv'"
expect "run_sd: the table says the CI is widened by it" \
	grep -q '^widened by the run-level sd measured for this accelerator (bench/times.conf run_sd);$' "$tmp/rsd/table.txt"
expect "run_sd: a wider CI, the same ratio" sh -c "
	a=\$(grep ',fprog1,tcp22-payload,1,old/new,' '$fxb/ratios.csv' | cut -d, -f13-15)
	b=\$(grep ',fprog1,tcp22-payload,1,old/new,' '$tmp/rsd/ratios.csv' | cut -d, -f13-15)
	[ \"\${a%%,*}\" = \"\${b%%,*}\" ] && awk -v a=\"\$a\" -v b=\"\$b\" 'BEGIN { split(a, x, \",\"); split(b, y, \",\"); exit !(y[2] < x[2] && y[3] > x[3]) }'"
# an engine's absolute ns move with the machine between runs: no run-level
# sd of a ratio widens them, and the table says their CI is for this run
expect "run_sd: absolute.csv's CIs are not widened (run_sd_pct 0.00), said to be this run's" sh -c "
	grep -q ',fprog1,tcp22-payload,1,old,.*,4,boots,0.00,' '$tmp/rsd/absolute.csv' &&
	cmp -s '$fxb/absolute.csv' '$tmp/rsd/absolute.csv' &&
	grep -q '^95% CI for this run only: absolute times move with the machine between runs):$' '$tmp/rsd/table.txt'"

# ---- a new engine, ratio and claim are records: a fixture registry adds
# engine zzz (canned guest output: new's rounds at half the time), ratio
# zzz/new and a claim on it; they reach ratios.csv, claims.csv, table.txt,
# the plots and the cover letter with no code changed.
fk=$tmp/fake
cp -R "$here/fixtures/paired" "$fk"
rm -f "$fk"/*.csv "$fk/table.txt"
awk '{ print } $0 ~ / engine=new / {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^(min|median|mean)=/) { split($i, kv, "="); $i = kv[1] "=" sprintf("%.3f", kv[2] / 2) }
	sub(/engine=new/, "engine=zzz"); print }' "$here/fixtures/paired/uml/cells.txt" > "$fk/uml/cells.txt"
awk '/ engines=/ { sub(/engines=old,new/, "engines=old,new,zzz"); sub(/calls=[0-9]*,[0-9]*/, "&,4096");
		  sub(/jited=0,0/, "jited=0,0,0"); sub(/insns=[0-9]*,[0-9]*/, "&,40") }
	/ round=/ { for (i = 1; i <= NF; i++) if ($i ~ /^new=/) { split($i, kv, "="); z = sprintf(" zzz=%.3f", kv[2] / 2) } $0 = $0 z }
	{ print }' "$here/fixtures/paired/uml/paired.txt" > "$fk/uml/paired.txt"
{
	cat "$here/../bench/engines.conf"
	printf 'engine zzz\n\tlabel\t\tzzz BPF\n\tplot_label\tzzz BPF (a made-up engine)\n\tcolour\t\t#123456\n\tchecker\t\t6.1\n\tsemantics\t6.1\n'
	printf 'ratio zzz/new\n\tcolour\t\t#654321\n'
	printf 'claim new-faster-than-zzz\n\tkind\t\tratio\n\ttext\t\tnew faster than zzz\n\tpair\t\tzzz/new\n'
} > "$tmp/fake.conf"
series_tree "$tmp/tree-fake"
succeeds "registry: a fixture registry with engine zzz: the tables stage, plots and cover letter" "$tmp/fk.out" \
	env ENGINES_CONF="$tmp/fake.conf" PLOTS=1 "$here/mktables.sh" "$fk" "$tools" "$tmp/tree-fake" "$fk/cover.patch"
expect "registry: engine zzz: its row in table.txt and in the cover letter, by its label" \
	sh -c "grep -q '^zzz BPF  *35.1' '$fk/table.txt' && grep -q '^zzz BPF  *35.1' '$fk/cover.patch'"
expect "registry: ratio zzz/new: paired, in ratios.csv, table.txt and the cover letter (0.50)" \
	sh -c "grep -q ',zzz/new,' '$fk/ratios.csv' && grep -q '^zzz/new  *0.50 \[0.50, 0.50\]' '$fk/table.txt' && grep -q '^zzz/new  *0.50 ' '$fk/cover.patch'"
expect "registry: ratio zzz/new and engine zzz in the plots" \
	sh -c "grep -q 'zzz/new, accel=uml' '$fk/plots/ratios-uml.gp' && grep -q 'zzz BPF (a made-up engine)' '$fk/plots/ns-uml.gp'"
# (the fixture's uml has one boot: a timed claim of one boot is not judged)
expect "registry: claim new-faster-than-zzz: claims.csv, table.txt, cover (one boot: not measurable)" \
	sh -c "grep -q '^uml,.*,new-faster-than-zzz,\"new faster than zzz, fprog #1 cache-hit\",fprog1-hit,-,0.5,.*,not measurable,\"timed, one boot' '$fk/claims.csv' &&
	       grep -q '^  new faster than zzz, fprog #1 cache-hit .* not measurable (timed, one boot: its CI is within that boot (BOOTS))$' '$fk/table.txt' &&
	       grep -q '^    new faster than zzz  *0.50x  *not measurable (all 4 cells)' '$fk/cover.patch'"

test_summary
