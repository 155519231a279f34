#!/bin/sh
# Host tests of result formatting: mkcsv and mktable on a made-up run.
# usage: tests.sh TOOLS_DIR      prints PASS:/FAIL: lines
set -eu
tools=$1
TEST_PREFIX="results: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"

run=$tmp/run
mkdir -p "$run/tcg" "$run/icount"
cat > "$run/run.txt" <<'X'
run_id=test
kernel=6.1.192
debian_version=6.1.192-3
config_hash=abc123
series_hash=def456
X
for a in tcg icount; do
	unit=ns kind=emulated
	[ "$a" = icount ] && unit=insns kind=counted
	printf 'accel=%s\nunit=%s\nkind=%s\n' "$a" "$unit" "$kind" > "$run/$a/host.txt"
	printf 'kernel=6.1.192\ncpu=QEMU Virtual CPU, version 2.5+\nclocksource=tsc\n' > "$run/$a/meta.txt"
done
cell() { # accel tag engine filter packet skbs median [ci_lo ci_hi]
	ci=
	[ $# -gt 7 ] && ci=" ci_lo=$8 ci_hi=$9 ci_level=97.3"
	echo "tag=$2 filter=$4 packet=$5 engine=$3 skbs=$6 samples=21 calls_per_sample=4096 min=$7 median=$7 mean=$7 stddev=0.500$ci verdict=262144 jited=0 insns=30 image_bytes=0 clock=tsc" >> "$run/$1/cells.txt"
}
for a in tcg icount; do
	cell $a bench new fprog1 tcp22-payload 1 31.250
	cell $a bench new fprog1 tcp22-payload 10000 71.000
	cell $a bench new fprog2 tcp22-payload 1 47.000
	cell $a bench new fprog2 tcp22-payload 10000 97.000
	cell $a bench old fprog1 tcp22-payload 1 90.000
	cell $a bench old fprog1 tcp22-payload 10000 101.000
	cell $a bench old fprog2 tcp22-payload 1 192.000
	cell $a bench old fprog2 tcp22-payload 10000 202.000
	cell $a crosscheck new fprog1 testbpf100 1 770.000
done
# tcg's cells carry confidence intervals; fprog #2 cache-miss overlaps.
: > "$run/tcg/cells.txt"
cell tcg bench new fprog1 tcp22-payload 1 31.250 31.000 31.500
cell tcg bench new fprog1 tcp22-payload 10000 71.000 70.000 72.000
cell tcg bench new fprog2 tcp22-payload 1 47.000 46.500 47.500
cell tcg bench new fprog2 tcp22-payload 10000 97.000 90.000 210.000
cell tcg bench old fprog1 tcp22-payload 1 90.000 89.000 91.000
cell tcg bench old fprog1 tcp22-payload 10000 101.000 100.000 102.000
cell tcg bench old fprog2 tcp22-payload 1 192.000 190.000 194.000
cell tcg bench old fprog2 tcp22-payload 10000 202.000 195.000 209.000
cell tcg crosscheck new fprog1 testbpf100 1 770.000
mkdir -p "$run/tcg/perf"
cat > "$run/tcg/perf/bench-old-fprog2-tcp22-payload-skbs1.stat" <<'X'
# started on Thu Dec  3 04:00:00 2026

812.50,msec,task-clock,812500000,100.00,0.999,CPUs utilized
<not supported>,,cycles,0,100.00,,
<not supported>,,instructions,0,100.00,,
<not supported>,,branches,0,100.00,,
<not supported>,,branch-misses,0,100.00,,
<not supported>,,cache-misses,0,100.00,,
X
sed 's/^<not supported>,,branches,0/1000000,,branches,800000000/; s/^<not supported>,,branch-misses,0/25000,,branch-misses,800000000/' \
	"$run/tcg/perf/bench-old-fprog2-tcp22-payload-skbs1.stat" > "$run/icount/perf-new.stat"
mkdir -p "$run/icount/perf"
mv "$run/icount/perf-new.stat" "$run/icount/perf/bench-old-fprog2-tcp22-payload-skbs1.stat"
echo "[    1.0] test_bpf: #33 tcpdump port 22 jited:0 735 741 748 PASS" > "$run/icount/test_bpf.txt"
echo "[    1.1] test_bpf: #34 tcpdump complex jited:1 100 150 194 PASS" >> "$run/icount/test_bpf.txt"

echo "tag=control filter=before packet=none engine=native skbs=1 samples=11 calls_per_sample=1048576 min=16.1 median=17.25 mean=17.8 stddev=1.7 ci_lo=16.1 ci_hi=19.8 ci_level=98.8 verdict=0 jited=0 insns=12 image_bytes=0 clock=monotonic" > "$run/tcg/control.txt"
sed 's/filter=before/filter=after/; s/median=17.25/median=31.5/' "$run/tcg/control.txt" > "$tmp/after.txt"
cat "$tmp/after.txt" >> "$run/tcg/control.txt"

if "$tools/mkcsv" "$run" > "$run/results.csv" 2> "$tmp/err"; then
	pass "mkcsv accepts a well-formed run"
else
	fail "mkcsv accepts a well-formed run: $(cat "$tmp/err")"
fi
expect "csv has header + 22 rows (2 host control)" test "$(wc -l < "$run/results.csv")" = 23
expect "csv header names accel, cpu, kernel, config" \
	grep -q '^run_id,accel,kind,.*,unit,.*,cpu,clocksource,kernel,debian_version,config_hash,series_hash,task_clock_ms,cycles,instructions,branches,branch_misses,cache_misses,flavour,ci_lo,ci_hi,ci_level,placements,gate_waits,clock\(,\|$\)' "$run/results.csv"
expect "csv quotes a cpu model with a comma" grep -q ',"QEMU Virtual CPU, version 2.5+",' "$run/results.csv"
expect "csv row carries accel, unit and config" \
	grep -q '^test,icount,counted,bench,new,fprog1,tcp22-payload,1,21,4096,31.250,31.250,31.250,0.500,insns,262144,0,30,0,' "$run/results.csv"
expect "csv takes test_bpf's 100-byte figure" \
	grep -q '^test,icount,counted,test_bpf,new,testbpf33,testbpf100,1,1,,748,748,748,,insns,' "$run/results.csv"
expect "csv maps jited:1 to engine jit" grep -q ',test_bpf,jit,testbpf34,testbpf100,.*,194,194,194,' "$run/results.csv"

# tables DIR: the claims (mkclaims) and table.txt of DIR/results.csv
tables() { "$tools/mkclaims" "$1" && "$tools/mktable" "$1/results.csv" > "$1/table.txt"; }
tables "$run"
expect "claims: branch-misses not measurable without a PMU (tcg), never blank" \
	grep -q '^  perf stat: drastic difference in branch-misses .* not measurable (no PMU)$' "$run/table.txt"
# icount with branch-miss counts for old and new: 25000 vs 5000, 5x
sed 's/^25000,,branch-misses/5000,,branch-misses/' "$run/icount/perf/bench-old-fprog2-tcp22-payload-skbs1.stat" \
	> "$run/icount/perf/bench-new-fprog2-tcp22-payload-skbs1.stat"
mkdir -p "$tmp/pmu"
"$tools/mkcsv" "$run" > "$tmp/pmu/results.csv"
tables "$tmp/pmu"
expect "claims: branch-misses old/new from perf stat where counted (5x: holds)" \
	grep -q '^  perf stat: drastic difference in branch-misses .* ours: 5.000  *holds (perf stat old/new' "$tmp/pmu/table.txt"
rm "$run/icount/perf/bench-new-fprog2-tcp22-payload-skbs1.stat"
expect "claims: no paired rounds: the new/old claims are not measurable, not blank" \
	grep -q '^  new faster than old, fprog #1 cache-hit .* 2014: 2.9x .* not measurable (no paired old/new cell)$' "$run/table.txt"
expect "csv: perf stat task-clock and 'not supported' counters" \
	grep -q '^test,tcg,emulated,bench,old,fprog2,.*,812.50,not supported,not supported,not supported,not supported,not supported,,190.000,194.000,97.3,,,tsc\(,\|$\)' "$run/results.csv"
expect "csv: perf stat counted branches" \
	grep -q '^test,icount,counted,bench,old,fprog2,.*,812.50,not supported,not supported,1000000,25000,not supported,,,,,,,tsc\(,\|$\)' "$run/results.csv"
expect "table: perf section says not supported, never 0" \
	sh -c "grep -A2 'perf stat, accel=tcg' '$run/table.txt' | grep -q '^old BPF  *812.50  *not supported  *not supported  *not supported  *not supported  *-$'"
expect "table: perf section branch-miss rate" \
	sh -c "grep -A2 'perf stat, accel=icount' '$run/table.txt' | grep -q '^old BPF .* 1000000  *25000  *2.50%$'"
expect "table: icount (counted) comes before tcg (emulated)" \
	sh -c "grep -n 'accel=icount' '$run/table.txt' | cut -d: -f1 | { read -r i; grep -n 'accel=tcg' '$run/table.txt' | cut -d: -f1 | { read -r t; [ \$i -lt \$t ]; }; }"
expect "csv: CI columns from the result line" \
	grep -q '^test,tcg,emulated,bench,new,fprog1,.*,97.3,,,tsc\(,\|$\)' "$run/results.csv"
# tcg is timed (accels.conf kind emulated: timed 1): its medians' CIs are
# one boot's placements, so no significance mark, and the CI block says so
expect "table: a timed accelerator's ratios of medians carry no significance mark" \
	grep -q '^old/new  *2.9x  *1.4x  *4.1x  *2.1x   (2014:' "$run/table.txt"
expect "table: no legend of marks without marks" sh -c "! grep -q 'CIs of the median do not overlap' '$run/table.txt'"
expect "table: CI block under the tcg table, said to be within boot 1" \
	sh -c "grep -A6 '^95% confidence interval' '$run/table.txt' | grep -q '^old BPF  *89.0..91.0  *100.0..102.0  *190.0..194.0  *195.0..209.0$' &&
		grep -q '^within boot 1: how precisely that boot measured' '$run/table.txt'"
expect "table: no CI block without CI columns (icount)" \
	test "$(grep -c '^95% confidence interval' "$run/table.txt")" = 1
expect "table: the host control loop before and after the boot" \
	grep -q '^host control loop .*: 17.25 ns$' "$run/table.txt"
expect "table: the host control loop after the boot" grep -q '^before the boot, 31.5 ns after' "$run/table.txt"
expect "table: tcg is marked emulated" grep -q 'accel=tcg: EMULATED timing' "$run/table.txt"
expect "table: icount unit is insns" grep -q 'unit: insns per call' "$run/table.txt"
expect "table: new BPF row" grep -q '^new BPF  *31.2  *71.0  *47.0  *97.0$' "$run/table.txt"
expect "table: old/new ratio beside 2014's" grep -q '^old/new  *2.9x  *1.4x  *4.1x  *2.1x   (2014: 2.9x 1.4x 4.1x 2.1x)$' "$run/table.txt"
expect "table: 2014 reference rows" grep -q '^old BPF jit  *12  *34  *17  *44$' "$run/table.txt"
expect "table: kernel, config and series" grep -q 'kernel: 6.1.192 (Debian linux-source 6.1.192-3), config abc123, series def456' "$run/table.txt"
expect "table: cross-check diff vs test_bpf" grep -q '^#33 new  vs fprog1 *748 *770.000 *+2.9%' "$run/table.txt"

# Engines from bench/engines.conf get their label; one it does not know is
# shown with its name, in the tables and the plots, after the known ones.
cp -R "$run" "$tmp/eng"
for e in oldjit zzz; do
	cell tcg bench "$e" fprog1 tcp22-payload 1 20.000
	cell tcg bench "$e" fprog2 tcp22-payload 1 30.000
done
mv "$run/tcg/cells.txt" "$tmp/eng/tcg/cells.txt"
cp "$tmp/eng/tcg/cells.txt" "$run/tcg/cells.txt"
sed -i '/engine=\(oldjit\|zzz\) /d' "$run/tcg/cells.txt"
# shellcheck disable=SC2129
echo "tag=bench filter=fprog2 packet=tcp22-payload engine=jit skbs=10000 samples=21 calls_per_sample=4096 min=9 median=9 mean=9 stddev=0 verdict=262144 jited=1 insns=30 image_bytes=512 clock=tsc image_start=0xffffffffa0007000 image_end=0xffffffffa0007200 vm_insns=0 future_key=7" >> "$tmp/eng/tcg/cells.txt"
# Placements: one line per run from the guest, combined here (stats.c).
for k in 1 2 3 4 5 6 7 8 9 10 11; do
	echo "id=bench-new-fprog2-tcp22-payload-skbs100 tag=bench filter=fprog2 packet=tcp22-payload placement=$k placements=11 engine=new skbs=100 samples=5 calls_per_sample=4096 min=$((k + 100)).5 median=$((k + 110)) mean=$((k + 120)) stddev=1 ci_lo=1 ci_hi=2 ci_level=97.3 verdict=262144 jited=0 insns=30 image_bytes=0 clock=tsc gate_waits=$((k % 2))"
done >> "$tmp/eng/tcg/cells.txt"
for k in 1 2 3; do
	echo "id=seccomp-new-large-nr199-skbs1 tag=seccomp filter=large packet=nr199 engine=new skbs=1 placement=$k placements=3 samples=1 calls_per_sample=20000 min=$k.25 median=$k.25 mean=$k.25 stddev=0 verdict=ALLOW jited=0 insns=0 image_bytes=0 clock=monotonic"
done >> "$tmp/eng/tcg/cells.txt"
mkdir -p "$tmp/eng/tcg/perf"
echo "99.5,msec,task-clock,99500000,100.00,0.999,CPUs utilized" > "$tmp/eng/tcg/perf/seccomp-new-large-nr199-skbs1.stat"
"$tools/mkcsv" "$tmp/eng" > "$tmp/eng/results.csv" 2> "$tmp/err" || true
# val ACCEL TAG ENGINE FILTER SKBS COLUMN: a field of a row.
val() {
	"$tools/csvget" "$tmp/eng/results.csv" "$6" accel="$1" tag="$2" engine="$3" filter="$4" skbs="$5"
}
expect "csvget: a quoted field with a comma is one field; no row: exit 1; an unknown key: exit 2" \
	sh -c "test \"\$('$tools/csvget' '$run/results.csv' cpu accel=tcg tag=bench)\" = 'QEMU Virtual CPU, version 2.5+' &&
	       { '$tools/csvget' '$run/results.csv' cpu accel=nosuch; test \$? = 1; } &&
	       { '$tools/csvget' '$run/results.csv' cpu nosuch=1 2> /dev/null; test \$? = 2; }"
p11() { for c in "$@"; do printf '%s ' "$(val tcg bench new fprog2 100 "$c")"; done; }
expect "placements: 11 lines make one row, samples those of one placement" \
	test "$(p11 samples placements)" = "5 11 "
expect "placements: median of the medians, min of the mins, mean of the means, waits summed" \
	test "$(p11 median min mean gate_waits)" = "116.000 101.500 126.000 6 "
expect "placements: the median's 95% CI over 11 placements is ranks 2 and 10 (98.8%)" \
	test "$(p11 ci_lo ci_hi ci_level)" = "112.000 120.000 98.8 "
expect "placements: 3 seccomp runs: the median, no CI, the perf stat of the cell's id" \
	test "$(for c in median ci_lo placements task_clock_ms; do printf '%s/' "$(val tcg seccomp new large 1 "$c")"; done)" = "2.250//3/99.5/"
cp -R "$tmp/eng" "$tmp/short"
grep -v 'placement=11 ' "$tmp/eng/tcg/cells.txt" > "$tmp/short/tcg/cells.txt"
expect "placements: a cell with a placement missing is refused" \
	sh -c "! '$tools/mkcsv' '$tmp/short' > /dev/null 2>&1"
expect "mkcsv keeps every key it is not told about, as columns after the known ones (and icount's perf_calls and counts per call)" \
	sh -c "head -n 1 '$tmp/eng/results.csv' | grep -q ',gate_waits,clock,perf_calls,branches_per_call,branch_misses_per_call,perf_branch_miss_pct,image_start,image_end,vm_insns,future_key\(,\|$\)' && grep -q ',tsc,,,,,0xffffffffa0007000,0xffffffffa0007200,0,7\(,\|$\)' '$tmp/eng/results.csv'"
"$tools/mktable" "$tmp/eng/results.csv" > "$tmp/eng/table.txt" 2>> "$tmp/err" || true
expect "registry: oldjit's row carries its registry label" \
	grep -q '^old BPF jit  *20.0  *n/a  *30.0  *n/a$' "$tmp/eng/table.txt"
expect "registry: an unknown engine is shown with its name, after the known ones" \
	sh -c "awk '/accel=tcg/ { p = 1 } p && /^ratios of the medians/ { exit } p' '$tmp/eng/table.txt' | tail -n 1 | grep -q '^zzz  *20.0  *n/a  *30.0  *n/a$'"
mkdir -p "$tmp/eng/plots"
expect "registry: csv2dat draws an unknown engine under its name" \
	sh -c "'$tools/csv2dat' '$tmp/eng/results.csv' '$tmp/eng/plots' > /dev/null 2>&1 && grep -q '^names.* = \"zzz\"' '$tmp/eng/plots/ns-tcg.gp' && grep -q '^# zzz$' '$tmp/eng/plots/ns-tcg.dat'"
# No tool has an accelerator limit below the registry's: a run with 12
# accelerators (four-accels' rows under 3 names each) is tabled and drawn
# whole.
fxa=$(dirname "$0")/fixtures/four-accels/results.csv
mkdir -p "$tmp/many/plots"
{ head -n 1 "$fxa"; for k in 1 2 3; do tail -n +2 "$fxa" | sed "s/^fixture,\([a-z]*\),/fixture,\1$k,/"; done; } > "$tmp/many/results.csv"
"$tools/mkclaims" "$tmp/many"
expect "registry: 12 accelerators: mktable tables all 12" \
	sh -c "'$tools/mktable' '$tmp/many/results.csv' | grep -c '^--.*-- accel=' | grep -qx 12"
expect "registry: 12 accelerators: csv2dat draws all 12" \
	sh -c "'$tools/csv2dat' '$tmp/many/results.csv' '$tmp/many/plots' > /dev/null 2>&1 && ls '$tmp/many/plots' | grep -c '^ratios-.*[0-9]\.gp$' | grep -qx 12"
expect "registry: an unknown accelerator kind is tabled last, under its kind" \
	sh -c "sed 's/^test,icount,counted,/test,icount,novel,/' '$run/results.csv' > '$tmp/kind.csv' && '$tools/mktable' '$tmp/kind.csv' | grep '^--' | head -n 2 | tail -n 1 | grep -q 'accel=icount: novel$'"

# The 2014 table of an architecture is shown when the run measured a
# flavour compared with it (bench/flavours.conf ref2014_arch): the paired
# fixture with its icount rows relabelled as measured on i386.
fxp=$(dirname "$0")/fixtures/paired
mkdir -p "$tmp/i386" "$tmp/arm"
sed '/^fixture-paired,icount,/s/,x86_64,/,i386,/' "$fxp/results.csv" > "$tmp/i386/results.csv"
tables "$tmp/i386"
expect "registry: a run on i386 adds the 2014 i386 table after x86_64's" \
	sh -c "grep -A4 '^--i386-- 2014, commit bd4cf0ed331a' '$tmp/i386/table.txt' | grep -q '^new BPF  *40  *119  *69  *172$' && grep -n '^--.*-- 2014' '$tmp/i386/table.txt' | head -n 1 | grep -q x86_64"
expect "registry: no 2014 table of an architecture the run did not measure" \
	sh -c "! grep -q '^--arm32-- 2014' '$tmp/i386/table.txt' && ! grep -q '^--i386-- 2014' '$fxp/table.txt'"
expect "registry: the oldjit row of an i386 table says why it is empty" \
	grep -q '^old BPF jit  *n/a (3.14 had no i386 JIT)' "$tmp/i386/table.txt"
# Seccomp's 2014 seconds per architecture (engines.conf seccomp2014.ARCH):
# i386 has the large filter's only ("-" for the short one), arm32 both,
# its large filter the same for old and new (claimed: no difference).
expect "registry: i386 seccomp table: 2014 large 5.4 s / 3.8 s, the short figure not given prints -" \
	sh -c "grep -q '^2014 old  *-  *5.4 s$' '$tmp/i386/table.txt' && grep -q '^2014 new  *-  *3.8 s$' '$tmp/i386/table.txt'"
expect "registry: i386 seccomp claims: short without a 2014 ratio, large 5.4/3.8" \
	sh -c "grep -q '^  seccomp short filter \"slightly better\"  *2014: -  *ours: 0.998 ' '$tmp/i386/table.txt' && grep -q '^  seccomp large filter \"much faster\"  *2014: 1.42x  *ours: 1.308  *holds ' '$tmp/i386/table.txt'"
sed '/^fixture-paired,icount,/s/,x86_64,/,arm,/' "$fxp/results.csv" > "$tmp/arm/results.csv"
tables "$tmp/arm"
expect "registry: arm32 seccomp table: 2014 short 4.0 s / 3.7 s, large 13.5 s both" \
	sh -c "grep -q '^2014 old  *4.0 s  *13.5 s$' '$tmp/arm/table.txt' && grep -q '^2014 new  *3.7 s  *13.5 s$' '$tmp/arm/table.txt'"
expect "registry: arm32 seccomp claims: short 1.08x; large \"no difference\", which an exact count of 1.308 does not hold" \
	sh -c "grep -q '^  seccomp short filter \"slightly better\"  *2014: 1.08x ' '$tmp/arm/table.txt' && grep -q '^  seccomp large filter \"no difference\"  *2014: 1.00x  *ours: 1.308  *does not hold (new faster) ' '$tmp/arm/table.txt' && ! grep -q 'large filter \"no difference\"' '$tmp/i386/table.txt'"

cp "$run/results.csv" "$tmp/same.csv"
sed 's/,31.250,31.250,31.250,/,31.500,31.500,31.500,/' "$run/results.csv" > "$tmp/off.csv"
expect "cmpruns: identical runs agree" "$tools/cmpruns" "$run/results.csv" "$tmp/same.csv" 1
expect "cmpruns: 0.8% off passes a 1% limit" "$tools/cmpruns" "$run/results.csv" "$tmp/off.csv" 1
expect "cmpruns: 0.8% off fails a 0.5% limit" sh -c "! '$tools/cmpruns' '$run/results.csv' '$tmp/off.csv' 0.5"
sed 's/,31.250,31.250,31.250,/,31.000,31.000,31.000,/' "$run/results.csv" > "$tmp/low.csv"
"$tools/cmpruns" "$run/results.csv" "$tmp/off.csv" "$tmp/low.csv" 1 > "$tmp/three.out" || true
expect "cmpruns: three runs, their median 31.25 and spread = (max - min) / min = 1.61%" \
	grep -q '^icount/bench/new/fprog1/tcp22-payload/1  *31.250  *31.500  *31.000  median  *31.250  *1.61%  > limit$' "$tmp/three.out"
expect "cmpruns: three runs summary" grep -q 'cells compared over 3 runs, worst spread (max-min)/min 1.61% (limit 1.00%)' "$tmp/three.out"
grep -v ',crosscheck,' "$run/results.csv" > "$tmp/fewer.csv"
expect "cmpruns: a missing cell fails" sh -c "! '$tools/cmpruns' '$run/results.csv' '$tmp/fewer.csv' 50"
expect "crosscheck: 770 vs 748 is within 10%" "$tools/crosscheck" "$run/results.csv" new testbpf33 fprog1 10
expect "crosscheck: 770 vs 748 is not within 2%" sh -c "! '$tools/crosscheck' '$run/results.csv' new testbpf33 fprog1 2"
expect "crosscheck: no test_bpf figure fails" sh -c "! '$tools/crosscheck' '$tmp/fewer.csv' jit testbpf33 fprog1 10"

echo "tag=bench engine=new median" >> "$run/tcg/cells.txt"
expect "mkcsv rejects a malformed cell line" sh -c "! '$tools/mkcsv' '$run' > /dev/null 2>&1"
rm "$run/run.txt"
expect "mkcsv rejects a run without run.txt" sh -c "! '$tools/mkcsv' '$run' > /dev/null 2>&1"

# The tables stage on the saved fixture runs (results/fixtures/*/: raw
# guest output and the expected results): results.csv, ratios.csv,
# absolute.csv, median-ratios.csv, claims.csv, layouts.csv, against.csv,
# validation.csv, decomposition.csv, table.txt, spread.txt and the plot data are re-made
# byte for byte.
for fx in "$(dirname "$0")"/fixtures/*/; do
	name=$(basename "$fx")
	# (a data fixture that is no run: layout-variants)
	[ -f "$fx/run.txt" ] || continue
	rm -rf "$tmp/fx"
	cp -R "$fx" "$tmp/fx"
	rm -f "$tmp/fx/results.csv" "$tmp/fx/ratios.csv" "$tmp/fx/absolute.csv" "$tmp/fx/table.txt" "$tmp/fx/spread.txt" "$tmp/fx/ratio-spread.txt" \
		"$tmp/fx/claims.csv" "$tmp/fx/decomposition.csv" "$tmp/fx/spread.csv" "$tmp/fx/ratio-spread.csv" \
		"$tmp/fx/median-ratios.csv" "$tmp/fx/layouts.csv" "$tmp/fx/against.csv" \
		"$tmp/fx/validation.csv"
	plots=0
	[ -d "$fx/expected-plots" ] && command -v gnuplot > /dev/null && plots=1
	if PLOTS=$plots "$(dirname "$0")/mktables.sh" "$tmp/fx" "$tools" > "$tmp/fx.out" 2>&1; then
		pass "tables: the stage takes fixture $name"
	else
		fail "tables: the stage takes fixture $name: $(tail -n 3 "$tmp/fx.out")"
	fi
	for f in results.csv ratios.csv absolute.csv median-ratios.csv claims.csv layouts.csv against.csv \
		validation.csv decomposition.csv spread.csv ratio-spread.csv table.txt spread.txt ratio-spread.txt; do
		[ -f "$fx/$f" ] || continue
		expect "tables: fixture $name: $f re-made byte for byte" cmp "$fx/$f" "$tmp/fx/$f"
	done
	if [ "$plots" = 1 ]; then
		bad=0
		for f in "$fx"/expected-plots/*; do
			cmp -s "$f" "$tmp/fx/plots/$(basename "$f")" || bad=$((bad + 1))
		done
		expect "tables: fixture $name: plot data and parameters re-made byte for byte ($bad differ)" test "$bad" = 0
	fi
done
fx=$(dirname "$0")/fixtures/icount-engines
expect "tables: decomposition: vm insns and cost per VM insn per engine (icount-engines)" \
	grep -q '^new BPF/2014  *354.1  *21  *16.86  *646.2  *41  *15.76$' "$fx/table.txt"
expect "tables: decomposition: old/new split into old/new2014 x new2014/new with paired CIs" \
	sh -c "grep -A2 '^fprog #1: old/new = old/new2014 0.81 \[0.81, 0.81\] x new2014/new 0.48 \[0.48, 0.48\] (paired, 95% CI):' '$fx/table.txt' | grep -q 'makes a call 2.10x dearer (58 vs 21 VM'"
expect "tables: all four 2014 x86_64 rows beside ours, old BPF jit measured" \
	sh -c "grep -q '^old BPF jit  *93.0  *93.0  *135.0  *135.1$' '$fx/table.txt' && grep -q '^old BPF jit  *12  *34  *17  *44$' '$fx/table.txt'"
expect "tables: seccomp: new2014 has no seccomp cells and the table says why (engines.conf seccomp_note)" \
	grep -q '^new BPF/2014   not run: = new less 2 insns (v3.15 also made seccomp loads ctx loads' "$fx/table.txt"
expect "tables: no decomposition without vm_insns (four-accels)" \
	sh -c "! grep -q '^decomposition' '$(dirname "$0")/fixtures/four-accels/table.txt'"
fx=$(dirname "$0")/fixtures/paired
expect "tables: paired fixture: old/new ratio row of icount with its CI" \
	grep -q '^old/new           2.67 \[2.67, 2.67\]    2.56 \[2.56, 2.56\]' "$fx/table.txt"
expect "tables: paired fixture: a CI containing 1.00 prints as no difference shown" \
	grep -q '^old/new           0.33 \[0.33, 0.34\]  no difference shown' "$fx/table.txt"
# one boot: se = ln(hi / lo) / 3.92, (1.960 + 0.842) x sqrt(2) x se: 1.66%
expect "tables: paired fixture: power line of the hardware accelerator" \
	sh -c "grep -q '^statistical power: largest ratio CI half-width 0.81%' '$fx/table.txt' &&
		grep -q '^about 1.7% (ratios.csv apart80_pct; docs/statistics.md)$' '$fx/table.txt'"
# one boot of a timed accelerator: its CI is within that boot, no verdict
expect "tables: paired fixture: a timed claim of one boot is not measurable, and says why (uml cache-hit)" \
	grep -q '^  new faster than old, fprog #1 cache-hit .* 2014: 2.9x   ours: 0.33 \[0.33, 0.34\]  not measurable (timed, one boot: its CI is within that boot (BOOTS))$' "$fx/table.txt"
expect "tables: paired fixture: a counted claim names what its CI is over (icount)" \
	grep -q '^  new faster than old, fprog #1 cache-hit .* ours: 2.67 \[2.67, 2.67\]  holds (CI within one boot)$' "$fx/table.txt"
expect "tables: paired fixture: 9 claim lines per accelerator, none blank" \
	test "$(sed -n '/^== 2014 claims/,$p' "$fx/table.txt" | grep -c -E '^  [a-z].* (holds|reversed|no difference shown|not measurable)')" = 18
expect "tables: paired fixture: ratio rows carry accel, kind, cpu, kernel, config" \
	grep -q '^uml,hardware,ns,um,Intel(R) Xeon(R) CPU @ 2.20GHz,6.1.192,abc123,def456,fprog1,tcp22-payload,1,old/new,0.3345,' "$fx/ratios.csv"
# The power line prints apart80_pct as ratios.csv has it (mkratios forms it
# with the CI, stats_apart_pct; the renderer computes nothing): the paired
# fixture's uml figure replaced by 42.00 prints as 42.0%.
rm -rf "$tmp/pw"
cp -R "$fx" "$tmp/pw"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $1 == "uml" { $c["apart80_pct"] = "42.00" } { print }' \
	"$fx/ratios.csv" > "$tmp/pw/ratios.csv"
"$tools/mktable" "$tmp/pw/results.csv" "$tmp/pw/ratios.csv" "$tmp/pw/absolute.csv" > "$tmp/pw/table.txt" 2>&1 || true
expect "tables: the power line prints ratios.csv's apart80_pct, computing nothing" \
	grep -q '^about 42.0% (ratios.csv apart80_pct; docs/statistics.md)$' "$tmp/pw/table.txt"
# A mixture under the table of a timed accelerator (mkratios' mixture
# test, docs/statistics.md): the uml-boots fixture's real boots 1-4 and 8
# more copied from boots 2-4, the last three with old 1.7x slower in every
# round.  old/new and old/new2014 form two modes in every cell (3 of 12
# boots at about 1.7x), new2014/new (no old in it) in none.
fxb=$(dirname "$0")/fixtures/uml-boots
expect "tables: uml-boots (4 boots, fewer than the test needs): no mixture note, mode_units empty" \
	sh -c "! grep -q '^two modes' '$fxb/table.txt' && test -z \"\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { printf \"%s\", \$c[\"mode_units\"] }' '$fxb/ratios.csv')\""
rm -rf "$tmp/mix"
cp -R "$fxb" "$tmp/mix"
rm -rf "$tmp/mix/expected-plots"
for k in 5 6 7 8 9 10 11 12; do
	cp -R "$tmp/mix/uml/boot-$(( (k - 2) % 3 + 2 ))" "$tmp/mix/uml/boot-$k"
done
for k in 10 11 12; do
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^old=/) $i = sprintf("old=%.3f", 1.7 * substr($i, 5)); print }' \
		"$tmp/mix/uml/boot-$k/paired.txt" > "$tmp/mix/paired.tmp"
	mv "$tmp/mix/paired.tmp" "$tmp/mix/uml/boot-$k/paired.txt"
done
PLOTS=0 "$(dirname "$0")/mktables.sh" "$tmp/mix" "$tools" > "$tmp/mix.out" 2>&1 || true
expect "tables: mixture: the note under the uml table names 8 cells, old/new and old/new2014" \
	sh -c "test \"\$(sed -n '/^two modes/,/^per call/p' '$tmp/mix/table.txt' | grep -c -E '^  old/new(2014)? .*: 3 of 12 boots at 1\.[67][0-9]x the other 9$')\" = 8"
expect "tables: mixture: new2014/new is not named" \
	sh -c "! sed -n '/^two modes/,/^per call/p' '$tmp/mix/table.txt' | grep -q '^  new2014/new'"
expect "tables: mixture: fprog #1 cache-hit old/new named with its factor" \
	grep -q '^  old/new      fprog #1 cache-hit: 3 of 12 boots at 1\.[67][0-9]x the other 9$' "$tmp/mix/table.txt"
expect "tables: mixture: the note sits under the uml table, before the next section" \
	sh -c "awk '/^--um/ { u = 1 } /^two modes/ { exit !u } END { exit !u }' '$tmp/mix/table.txt'"
# The quiet gate's records (bench/host/quiet.sh, each boot's host.txt,
# run_load_gates): the uml-boots fixture with a gate's records added: boot
# 2 booted again once (its busy run in uml/busy/boot-2.1), boot 4 kept busy
# after its retry (uml/busy/boot-4.1); the busy runs' rounds (old 3x
# slower) stay out of the ratios.
rm -rf "$tmp/gate"
cp -R "$fxb" "$tmp/gate"
rm -rf "$tmp/gate/expected-plots"
printf 'control_ns=15.015\nquiet_ref_ns=15.066 quiet_rule=25,20,0\nredone=0\n' >> "$tmp/gate/uml/host.txt"
printf 'control_ns=16.263\nquiet_ref_ns=15.015 quiet_rule=25,20,1\nredone=1\n' >> "$tmp/gate/uml/boot-2/host.txt"
printf 'control_ns=14.070\nquiet_ref_ns=15.015 quiet_rule=25,20,1\nredone=0\n' >> "$tmp/gate/uml/boot-3/host.txt"
printf 'control_ns=19.500\nquiet_ref_ns=14.070 quiet_rule=25,20,1\nredone=1 busy=1\n' >> "$tmp/gate/uml/boot-4/host.txt"
for b in 2.1:21.200:15.015 4.1:20.400:14.070; do
	d=$tmp/gate/uml/busy/boot-${b%%:*}
	mkdir -p "$d"
	cp "$fxb/uml/boot-2/meta.txt" "$d/"
	{ grep -v '^control_ns=\|^quiet_ref_ns=\|^redone=' "$fxb/uml/boot-2/host.txt"
	  c=${b#*:}
	  printf 'control_ns=%s\nquiet_ref_ns=%s quiet_rule=25,20,1\n' "${c%%:*}" "${c#*:}"; } > "$d/host.txt"
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^old=/) $i = sprintf("old=%.3f", 3 * substr($i, 5)); print }' \
		"$fxb/uml/boot-2/paired.txt" > "$d/paired.txt"
done
PLOTS=0 "$(dirname "$0")/mktables.sh" "$tmp/gate" "$tools" > "$tmp/gate.out" 2>&1 || true
sed -n '/^quiet gate/,/^$/p' "$tmp/gate/table.txt" > "$tmp/gate.block"
cat > "$tmp/gate.want" <<'X'
quiet gate (bench/host/quiet.sh; rule PCT,WAIT_S,REDO 25,20,1; each boot's host.txt):
  4 boots, 2 booted again, 1 kept busy; 2 busy boots set aside in uml/busy/
  (control loop 20.400-21.200 ns)
  judged against the quietest control loop of the run so far: 15.066 ns at
  boot 1, 14.070 ns at boot 4
  control loop after each boot: 14.070-19.500 ns (slowest: boot 4)

X
expect "tables: quiet gate: the block under the uml table: boots, redone, busy, reference, rule, control range" \
	cmp "$tmp/gate.want" "$tmp/gate.block"
expect "tables: quiet gate: the busy boots' rounds are not among the ratios' boots" \
	cmp "$fxb/ratios.csv" "$tmp/gate/ratios.csv"
expect "tables: quiet gate: no block for a run whose boots recorded no gate (uml-boots)" \
	sh -c "! grep -q '^quiet gate' '$fxb/table.txt'"
# paired-repeat: three REPEAT runs of the paired fixture's uml cells, every time
# of run 2 x1.45 and of run 3 x0.9 (the machine's speed), and in run 3
# old 4% slower in fprog #1's cache-hit cell and new 4% slower in fprog
# #2's 10000-skb cell.
fx=$(dirname "$0")/fixtures/paired-repeat
expect "tables: ratio spread: a common drift of 45% moves no paired ratio" \
	grep -q '^  uml/fprog1/tcp22-payload/10000/old/new  *0.995  *0.995  *0.995  median  *0.995  *0.00%  all < 1  CIs overlap 3/3, inside 6/6$' "$fx/table.txt"
expect "tables: ratio spread: a 4% move is over the 3% cache-hit limit" \
	grep -q '^  uml/fprog1/tcp22-payload/1/old/new  *0.335  *0.335  *0.348  median  *0.335  *4.01%  > limit  all < 1  CIs overlap 1/3, inside 2/6$' "$fx/table.txt"
expect "tables: ratio spread: a 4% move is within the 5% limit of a 10000-skb cell" \
	grep -q '^  uml/fprog2/tcp22-payload/10000/old/new  *0.995  *0.995  *0.957  median  *0.995  *3.99%  all < 1  CIs overlap 1/3, inside 4/6$' "$fx/table.txt"
expect "tables: ratio spread: the CI calibration over the 3 runs (8 of 12 pairs overlap, 18 of 24 inside)" \
	grep -q "^CI calibration over 3 runs: the CIs of 8 of 12 (cell, pair of runs) overlap; another run's ratio inside this run's CI 18 of 24 times (75%" "$fx/table.txt"
expect "tables: ratio spread: the control loop's spread over the same runs beside it" \
	grep -q '^  uml/control/native/before/none/1  *17.400  *25.200  *16.000  median  *17.400  *57.50%  > limit$' "$fx/table.txt"
expect "cmpruns: results.csv and ratios.csv are not compared with each other" \
	sh -c "! '$tools/cmpruns' '$fx/results.csv' '$fx/ratios.csv' 3 2>/dev/null"
# A ratio whose runs fall on both sides of 1.00 has no verdict: the
# 10000-skb old/new at 0.995 in one run and 1.010 in another (outside the
# first run's CI: inside 1 of 2).
sed 's/,10000,old\/new,0.9950,/,10000,old\/new,1.0100,/' "$fx/ratios.csv" > "$tmp/above.csv"
"$tools/cmpruns" -m 5 "$fx/ratios.csv" "$tmp/above.csv" 3 > "$tmp/side.out" || true
expect "cmpruns: a ratio on both sides of 1.00 over the runs: straddles 1, no verdict; CI calibration" \
	grep -q '^uml/fprog1/tcp22-payload/10000/old/new  *0.995  *1.010  median  *1.002  *1.51%  straddles 1: no verdict  CIs overlap 1/1, inside 1/2$' "$tmp/side.out"
expect "cmpruns: a ratio below 1.00 in every run says so" \
	grep -q '^uml/fprog1/tcp22-payload/1/old/new  *0.335  *0.335  median  *0.335  *0.00%  all < 1  CIs overlap 1/1, inside 2/2$' "$tmp/side.out"
# make readme-results: the reference-run block of README.md from table.txt.
printf 'before\n<!-- reference-run: begin -->\nstale\n<!-- reference-run: end -->\nafter\n' > "$tmp/README.md"
mr=$(dirname "$0")/mkreadme.sh
"$mr" "$tools" "$(dirname "$0")/fixtures/paired-repeat" "$tmp/README.md" > /dev/null 2>&1 || true
expect "readme: the block carries the run's finding, tables and claims, rendered from its data" \
	sh -c "grep -q '^    new faster than old  *0.33-0.99x  *not measurable (all 4 cells)$' '$tmp/README.md' &&
		grep -q '^On Debian.s linux-source .* the 2014 result is$' '$tmp/README.md' &&
		grep -q '^not measured here: \"new faster than old\" is not measurable (claims.csv$' '$tmp/README.md' &&
		grep -q '^old/new  *0.33  *0.99±1%' '$tmp/README.md' &&
		grep -q '^Reference run .fixture-paired-repeat.: .make bench ACCEL=' '$tmp/README.md'"
expect "readme: the old block is replaced, the text around it kept" \
	sh -c "! grep -q '^stale$' '$tmp/README.md' && test \"\$(head -n 1 '$tmp/README.md')\" = before &&
		test \"\$(tail -n 1 '$tmp/README.md')\" = after"
cp "$tmp/README.md" "$tmp/README.once"
"$mr" "$tools" "$(dirname "$0")/fixtures/paired-repeat" "$tmp/README.md" > /dev/null 2>&1 || true
expect "readme: re-making the block is idempotent" cmp "$tmp/README.once" "$tmp/README.md"
printf 'no markers\n' > "$tmp/README.bad"
expect "readme: refuses a README without the markers" \
	sh -c "! '$mr' '$tools' '$(dirname "$0")/fixtures/paired' '$tmp/README.bad' 2>/dev/null"
rm -rf "$tmp/inc"
cp -R "$(dirname "$0")/fixtures/paired" "$tmp/inc"
echo "guest hung" > "$tmp/inc/INCOMPLETE"
expect "readme: refuses a run marked incomplete" \
	sh -c "! '$mr' '$tools' '$tmp/inc' '$tmp/README.md' 2>/dev/null"
expect "readme: README.md has exactly one reference-run block" \
	sh -c "test \"\$(grep -c -x -e '<!-- reference-run: begin -->' -e '<!-- reference-run: end -->' '$(dirname "$0")/../README.md')\" = 2"
expect "tables: the stage refuses a directory that is not a run" \
	sh -c "! '$(dirname "$0")/mktables.sh' '$tmp/nothing' '$tools' 2>/dev/null"

# make trend: one accelerator on two kernels (fixtures icount-engines, 6.1,
# and icount-612, 6.12) beside the 2014 table.
fxd=$(dirname "$0")/fixtures
"$tools/mktrend" icount "$fxd/icount-engines" "$fxd/icount-612" > "$tmp/trend.txt" 2>&1 || true
expect "trend: columns headed by the two runs' kernels" \
	grep -Eq '^ +2014 +6\.1\.192 +6\.12\.118 +last/first$' "$tmp/trend.txt"
expect "trend: new BPF, fprog #1 cache-hit: 2014 31 ns, 744.2 (58 VM insns) on 6.1, 863.4 (58) on 6.12, 1.16x" \
	grep -Eq '^  new BPF +31 +744\.2 +\(58\) +863\.4 +\(58\) +1\.16$' "$tmp/trend.txt"
expect "trend: old BPF unchanged (286.1, 14 classic insns), the eBPF JIT TBD in 2014" sh -c "
	grep -Eq '^  old BPF +90 +286\.1 +\(14\) +286\.1 +\(14\) +1\.00$' '$tmp/trend.txt' &&
	grep -Eq '^  new BPF jit +TBD +124\.0 +\(58\) +124\.1 +\(58\) +1\.00$' '$tmp/trend.txt'"
refused "trend: a run without the accelerator is refused, by name" \
	"mktrend: no results of this accelerator in .*icount-612" "$tools/mktrend" uml "$fxd/icount-612"
# A run of 6.12 gets, below its tables, the trend against 6.1's reference
# run (bench/kernels.conf: 6.1's reference is fixtures/icount-engines);
# a run of 6.1 does not.
fx=$fxd/icount-612/table.txt
expect "trend in table.txt: a 6.12 run beside 6.1's reference run, named" \
	grep -q '^== beside 6.1: the reference run results/fixtures/icount-engines of bench/kernels.conf (6.1.192, run 20261203-151016)$' "$fx"
expect "trend in table.txt: new BPF fprog #1 cache-hit 744.2 -> 863.4, 1.16x" \
	grep -Eq '^  new BPF +31 +744\.2 +\(58\) +863\.4 +\(58\) +1\.16$' "$fx"
expect "trend in table.txt: the change split: 58 -> 58 VM insns x 12.83 -> 14.89 per insn" \
	grep -Eq '^  new BPF +fprog1 +58 -> +58 VM insns x +12\.83 -> +14\.89 per insn \(1\.16x\)$' "$fx"
expect "trend in table.txt: executed VM insns the same on both kernels, said once" \
	test "$(grep -c '^  executed VM insns per call: the same on both kernels' "$fx")" = 1
expect "trend in table.txt: paired old/new with CIs on each kernel (0.38 on 6.1, 0.33 on 6.12)" \
	grep -Eq '^  old/new +fprog #1 cache-hit +0\.38 \[ 0\.38,  0\.38\] +0\.33 \[ 0\.33,  0\.33\]$' "$fx"
expect "trend plot: new BPF fprog #1 cache-hit bar at 1.16 (trend-icount.dat)" \
	sh -c "sed -n '/^# new\$/,/^\$/p' '$fxd/icount-612/expected-plots/trend-icount.dat' | grep -q '^[0-9.]* 1.1602 '"
expect "trend: none in the table of a run of the default tree (6.1)" \
	sh -c "! grep -q '^== beside' '$fxd/icount-engines/table.txt' '$fxd/four-accels/table.txt'"

# A mitigations choice against mitigations=off (accels.conf against; the
# fixture debian-mitigations: Debian's configuration under icount and the
# model on QEMU's EPYC, with and without mitigations=off, run
# 20261206-211151): against.csv forms the difference and ratio once, the
# table prints them under both accelerators' recorded mitigations.
fxm=$fxd/debian-mitigations
get() { "$tools/csvget" "$@" 2> /dev/null || echo missing; }
is "$(get "$fxm/against.csv" against accel=icount-deb-epyc engine=new filter=fprog1 skbs=1) $(get "$fxm/against.csv" delta accel=icount-deb-epyc engine=new filter=fprog1 skbs=1)" \
	"icount-deb-off $(awk -v a="$(get "$fxm/results.csv" median accel=icount-deb-epyc tag=bench engine=new filter=fprog1 skbs=1)" \
		-v b="$(get "$fxm/results.csv" median accel=icount-deb-off tag=bench engine=new filter=fprog1 skbs=1)" 'BEGIN { printf "%.6g", a - b }')" \
	"against: new fprog #1 cache-hit on EPYC's mitigations against mitigations=off, the difference of the two medians"
is "$(get "$fxm/against.csv" accel accel=icount-deb-off)" missing "against: none for the accelerator without an against key"
expect "against: the table heads the section with both accelerators' mitigations" sh -c "
	grep -A2 '^accel=icount-deb-epyc against accel=icount-deb-off (insns per call' '$fxm/table.txt' |
	grep -q '^  icount-deb-off: spectre_v2: Vulnerable;' &&
	grep -q '^mitigations: spectre_v2: Retpolines; retbleed: untrained return thunk' '$fxm/table.txt'"
expect "against: the classic interpreter pays nothing for retpolines, new over 40% (fprog #1 cache-hit)" sh -c "
	grep -A7 '^accel=icount-deb-epyc against' '$fxm/table.txt' | grep -Eq '^old BPF +\+3\.0 1\.01x' &&
	grep -A7 '^accel=icount-deb-epyc against' '$fxm/table.txt' | grep -Eq '^new BPF +\+375\.6 1\.42x'"

test_summary
