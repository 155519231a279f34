#!/bin/sh
# Host tests of the paired statistics (results/paired.c, mkratios) on
# synthetic rounds: a known ratio recovered under a drifting machine speed,
# the order-statistics CI, "no difference shown", malformed input.
# usage: tests-paired.sh TOOLS_DIR      prints PASS:/FAIL: lines
set -eu
tools=$1
TEST_PREFIX="results: paired: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"
mkratios=$tools/mkratios

# rounds FILTER SKBS PLACEMENT N A_FACTOR DRIFT_FROM DRIFT_TO NOISE [SEED]:
# N rounds of engines old and new, old = A_FACTOR x new, both multiplied by
# a machine-speed factor drifting linearly DRIFT_FROM -> DRIFT_TO across the
# rounds and by independent noise of +-NOISE (fraction, LCG-made).
rounds() {
	awk -v f="$1" -v s="$2" -v p="$3" -v n="$4" -v a="$5" -v d0="$6" \
		-v d1="$7" -v noise="$8" -v seed="${9:-1}" '
	function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
	BEGIN {
		printf "paired filter=%s packet=pkt skbs=%s placement=%s engines=old,new rounds=%d order=rotate verdict=1 calls=1024,512 jited=0,0 insns=24,144\n", f, s, p, n
		for (r = 0; r < n; r++) {
			m = d0 + (d1 - d0) * (n > 1 ? r / (n - 1) : 0)
			old = 20 * a * m * (1 + noise * (2 * rnd() - 1))
			new = 20 * m * (1 + noise * (2 * rnd() - 1))
			printf "paired filter=%s packet=pkt skbs=%s placement=%s round=%d old=%.3f new=%.3f\n", f, s, p, r, old, new
		}
	}'
}
# field CSV ROWMATCH COLUMN: COLUMN of the first row whose pair (or
# engine) column is ROWMATCH.
field() {
	awk -F, -v want="$2" -v col="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
	$5 == want { print $(idx[col]); exit }' "$1"
}
near() { # VALUE WANT TOLERANCE_FRACTION
	awk -v v="$1" -v w="$2" -v t="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= t * w) }'
}

# 1. ratio 2.00 under a drift 1.0 -> 1.8, three placements of 30 rounds
{ rounds fprog1 1 0 30 2.0 1.0 1.8 0.02 1
  echo "tag=bench filter=fprog1 an unrelated line"
  rounds fprog1 1 1 30 2.0 1.2 1.6 0.02 7
  rounds fprog1 1 2 30 2.0 1.8 1.0 0.02 11; } > "$tmp/drift.txt"
if "$mkratios" -a uml "$tmp/drift.txt" > "$tmp/drift.csv" 2> "$tmp/err"; then
	r=$(field "$tmp/drift.csv" old/new ratio)
	expect "drift 1.0->1.8: paired median old/new $r is 2.00 within 1%" near "$r" 2.0 0.01
	expect "drift: rounds of all placements counted (90)" \
		test "$(field "$tmp/drift.csv" old/new rounds)" = 90
	expect "drift: CI level of 90 rounds is 95.0" \
		test "$(field "$tmp/drift.csv" old/new ci_level)" = 95.0
	expect "drift: CI half-width under 1%" \
		awk -v h="$(field "$tmp/drift.csv" old/new halfwidth_pct)" 'BEGIN { exit !(h > 0 && h < 1) }'
	expect "drift: verdict faster" test "$(field "$tmp/drift.csv" old/new verdict)" = faster
	expect "drift: accel column" grep -q '^uml,fprog1,pkt,1,old/new,' "$tmp/drift.csv"
	expect "drift: pairs whose engines did not run are left out" \
		test "$(wc -l < "$tmp/drift.csv")" = 2
else
	fail "drift: mkratios failed: $(cat "$tmp/err")"
fi
# The same drift, engines measured one after the other (old during the
# first half, new during the second), as unpaired runs do: the ratio of
# the per-engine medians is off by far more than 1%.
{ rounds fprog1 1 0 30 2.0 1.0 1.4 0.02 3 | sed 's/ new=[0-9.]*/ new=1/'
  rounds fprog1 1 1 30 2.0 1.4 1.8 0.02 5 | sed 's/ old=[0-9.]*/ old=1/'; } > "$tmp/seq.txt"
if "$mkratios" -A "$tmp/seq.txt" > "$tmp/seq.csv" 2> "$tmp/err"; then
	# medians of the two halves: old's in placement 0, new's in placement 1
	o=$(awk -F'[ =]' '/placement=0 round=/ { print $(NF - 2) }' "$tmp/seq.txt" | sort -n | awk '{ v[NR] = $1 } END { print (v[15] + v[16]) / 2 }')
	n=$(awk -F'[ =]' '/placement=1 round=/ { print $NF }' "$tmp/seq.txt" | sort -n | awk '{ v[NR] = $1 } END { print (v[15] + v[16]) / 2 }')
	expect "sequential: ratio of per-engine medians ($o / $n) is off by > 10%" \
		awk -v o="$o" -v n="$n" 'BEGIN { r = o / n; exit !(r < 1.8 || r > 2.2) }'
else
	fail "sequential: mkratios -A failed: $(cat "$tmp/err")"
fi

# 2. equal engines, +-3% noise: the CI contains 1
rounds fprog2 10000 0 40 1.0 1.0 1.5 0.03 17 > "$tmp/same.txt"
if "$mkratios" "$tmp/same.txt" > "$tmp/same.csv" 2> "$tmp/err"; then
	expect "equal engines: no difference shown" \
		test "$(field "$tmp/same.csv" old/new verdict)" = "no difference shown"
	expect "equal engines: ci_lo <= 1 <= ci_hi" awk -v lo="$(field "$tmp/same.csv" old/new ci_lo)" \
		-v hi="$(field "$tmp/same.csv" old/new ci_hi)" 'BEGIN { exit !(lo <= 1 && hi >= 1) }'
else
	fail "equal engines: mkratios failed: $(cat "$tmp/err")"
fi

# 3. order statistics on known ratios 1..N (new = 10, old = 10 * k)
known() { # N [START]
	awk -v n="$1" 'BEGIN { for (r = 0; r < n; r++) printf "paired filter=f packet=p skbs=1 placement=0 round=%d new=10 old=%d\n", r, 10 * (n - r) }'
}
check_known() { # N MEDIAN LO HI LEVEL
	known "$1" > "$tmp/k$1.txt"
	if "$mkratios" -p old/new "$tmp/k$1.txt" > "$tmp/k$1.csv" 2> "$tmp/err"; then
		got=$(awk -F, 'NR == 2 { print $6, $7, $8, $9 }' "$tmp/k$1.csv")
		expect "n=$1: median, ci_lo, ci_hi, ci_level = $2 $3 $4 $5 (got $got)" \
			test "$got" = "$2 $3 $4 $5"
	else
		fail "n=$1: mkratios failed: $(cat "$tmp/err")"
	fi
}
check_known 5 3.0000 "" "" ""
check_known 6 3.5000 1.0000 6.0000 96.8
check_known 7 4.0000 1.0000 7.0000 98.4
check_known 21 11.0000 6.0000 16.0000 97.3
check_known 100 50.5000 40.0000 61.0000 95.0
expect "n=5: no CI (fewer than 6 rounds)" grep -q ',no CI (fewer than 6 rounds),' "$tmp/k5.csv"
known 6 > "$tmp/inv.txt"
expect "a pair is a list entry: new/old is the inverse" \
	sh -c "'$mkratios' -p new/old '$tmp/inv.txt' | grep -q ',new/old,0.2917,'"
# absolute medians: new is 10 in every round
expect "-A: per-engine medians" \
	sh -c "'$mkratios' -a icount -A '$tmp/inv.txt' | grep -q '^icount,f,p,1,new,10.000,10.000,10.000,96.8,6,1,rounds,0.00,10.000,10.000,10.000,10.000,1,,,,$'"

# 4. the boot is the unit of replication: one file per boot.  Boots whose
# rounds all give 0.50, 0.55 and 0.45: the ratio is their geometric mean
# 0.4983, the CI the t-interval (2 df, t = 4.303) on their logs,
# [0.3883, 0.6395]; the pooled rounds' CI (a diagnostic) is far narrower.
for b in 1 2 3; do
	rounds fprog1 1 0 9 "$(echo "$b" | awk '{ print $1 == 1 ? 0.50 : $1 == 2 ? 0.55 : 0.45 }')" 1 1 0 > "$tmp/boot$b.txt"
done
"$mkratios" -p old/new "$tmp/boot1.txt" "$tmp/boot2.txt" "$tmp/boot3.txt" > "$tmp/boots.csv"
expect "boots: the geometric mean of the boots' medians" near "$(field "$tmp/boots.csv" old/new ratio)" 0.4983 0.0002
expect "boots: the t-interval on the logs, low end" near "$(field "$tmp/boots.csv" old/new ci_lo)" 0.3883 0.0003
expect "boots: the t-interval on the logs, high end" near "$(field "$tmp/boots.csv" old/new ci_hi)" 0.6395 0.0003
expect "boots: ci_over=boots, 3 boots, 27 rounds" \
	sh -c "[ '$(field "$tmp/boots.csv" old/new ci_over)' = boots ] && [ '$(field "$tmp/boots.csv" old/new boots)' = 3 ] && [ '$(field "$tmp/boots.csv" old/new rounds)' = 27 ]"
expect "boots: the range of the boots' medians" \
	sh -c "[ '$(field "$tmp/boots.csv" old/new boot_min)' = 0.4500 ] && [ '$(field "$tmp/boots.csv" old/new boot_max)' = 0.5500 ]"
# -r HIT,MISS: a run-level sd (here 1% for a one-skb cell) added in
# quadrature to the standard error over boots: [0.3869, 0.6418].
"$mkratios" -p old/new -r 1,2 "$tmp/boot1.txt" "$tmp/boot2.txt" "$tmp/boot3.txt" > "$tmp/boots-r.csv"
expect "boots: -r widens the t-interval by the run-level sd, low end" near "$(field "$tmp/boots-r.csv" old/new ci_lo)" 0.3869 0.0003
expect "boots: -r widens the t-interval by the run-level sd, high end" near "$(field "$tmp/boots-r.csv" old/new ci_hi)" 0.6418 0.0003
expect "boots: -r: run_sd_pct 1.00 for a one-skb cell" test "$(field "$tmp/boots-r.csv" old/new run_sd_pct)" = 1.00
expect "boots: -r leaves the ratio as it is" \
	test "$(field "$tmp/boots-r.csv" old/new ratio)" = "$(field "$tmp/boots.csv" old/new ratio)"
for bad in 1 1,x -1,2 1,51 1,2,3; do
	expect "boots: -r $bad refused" sh -c "! '$mkratios' -r '$bad' '$tmp/boot1.txt' > /dev/null 2>&1"
done
expect "one boot: ci_over=rounds" sh -c "'$mkratios' '$tmp/boot1.txt' | grep -q ',1,rounds,0.00,0.5000,0.5000,0.5000,0.5000,1,,,,,0.00$'"
# 4b. Code-layout variants (mkratios -g, run-bench.sh LAYOUTS): six boots,
# two of each of variants A, B, C, whose rounds give .50 .52, .60 .62 and
# .40 .42.  A variant's boots share its layout, so the unit is the
# variant: the geometric mean of the variants' means (0.5033) with the
# t-interval over the 3 variants (2 df): [0.3069, 0.8252]; the log sd of
# the variants' means 19.91%, of boots within a variant 2.88%.
k=0
for v in .50 .52 .60 .62 .40 .42; do
	k=$((k + 1))
	rounds fprog1 1 0 9 "$v" 1 1 0 > "$tmp/lay$k.txt"
done
"$mkratios" -p old/new -g A,A,B,B,C,C "$tmp"/lay1.txt "$tmp"/lay2.txt "$tmp"/lay3.txt \
	"$tmp"/lay4.txt "$tmp"/lay5.txt "$tmp"/lay6.txt > "$tmp/lay.csv"
# the geometric mean of the variants' means; the t-interval over 3 variants
while read -r col want tol; do
	expect "layouts: $col $want" near "$(field "$tmp/lay.csv" old/new "$col")" "$want" "$tol"
done <<EOF
ratio 0.5033 0.0002
ci_lo 0.3069 0.0003
ci_hi 0.8252 0.0003
EOF
expect "layouts: ci_over=layouts, 3 layouts of 6 boots" \
	test "$(field "$tmp/lay.csv" old/new ci_over) $(field "$tmp/lay.csv" old/new layouts) $(field "$tmp/lay.csv" old/new boots)" = "layouts 3 6"
expect "layouts: sd of the variants 19.91%, of boots within one 2.88%" \
	test "$(field "$tmp/lay.csv" old/new sd_layout_pct) $(field "$tmp/lay.csv" old/new sd_boot_pct)" = "19.91 2.88"
# the same six boots as one build's (no -g): the t-interval over 6 boots
# (5 df) is far narrower than what the variants show
"$mkratios" -p old/new "$tmp"/lay1.txt "$tmp"/lay2.txt "$tmp"/lay3.txt \
	"$tmp"/lay4.txt "$tmp"/lay5.txt "$tmp"/lay6.txt > "$tmp/lay1b.csv"
expect "layouts: without -g, ci_over=boots and layouts 1" \
	test "$(field "$tmp/lay1b.csv" old/new ci_over) $(field "$tmp/lay1b.csv" old/new layouts)" = "boots 1"
for bad in A,A A,,B,B,C,C A,A,B,B,C,C,D "" ; do
	expect "layouts: -g '$bad' for 6 files refused" sh -c "! '$mkratios' -g '$bad' '$tmp'/lay1.txt '$tmp'/lay2.txt '$tmp'/lay3.txt '$tmp'/lay4.txt '$tmp'/lay5.txt '$tmp'/lay6.txt > /dev/null 2>&1"
done
# The estimator's coverage on 1000 synthetic runs of 8 boots x 60 rounds:
# a per-boot factor exp(N(0, 8%)), round noise 3%.  The CI over boots must
# cover the true ratio in >= 93% of the runs; the CI of the pooled rounds
# (rounds taken as independent, the method before boots) in < 50%.
if line=$("$tools/simboots" -r 1000 -b 8 -n 60 -s 0.08 -w 0.03 -t 0.48 -S 1); then
	cov=$(echo "$line" | sed -n 's/.* over_boots=\([0-9.]*\) .*/\1/p')
	pooled=$(echo "$line" | sed -n 's/.* pooled=\([0-9.]*\) .*/\1/p')
	expect "simulated: the CI over boots covers the true ratio in >= 93% of 1000 runs ($cov)" \
		awk -v c="$cov" 'BEGIN { exit !(c != "" && c >= 0.93) }'
	expect "simulated: the pooled-rounds CI covers it in < 50% ($pooled)" \
		awk -v c="$pooled" 'BEGIN { exit !(c != "" && c < 0.50) }'
else
	fail "simulated: simboots failed"
fi
# A run-level factor (1%) that every boot of a run shares: the CI over
# boots alone misses the true ratio far more than 5% of the time; told the
# run-level sd (mkratios -r, bench/times.conf run_sd) it covers it again.
line=$("$tools/simboots" -b 10 -s 0.02 -w 0.02 -u 0.01 -S 3)
expect "simulated: an unseen 1% run-level factor: the CI over boots covers < 85% ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*over_boots=/, \"\"); exit !(\$1 + 0 < 0.85) }'"
line=$("$tools/simboots" -b 10 -s 0.02 -w 0.02 -u 0.01 -U 0.01 -S 3)
expect "simulated: the same, told the run-level sd: >= 93% ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*over_boots=/, \"\"); exit !(\$1 + 0 >= 0.93) }'"
expect "simulated: another seed, 5 boots: >= 93%" sh -c "'$tools/simboots' -b 5 -S 99 | awk '{ sub(/.*over_boots=/, \"\"); exit !(\$1 + 0 >= 0.93) }'"
# layoutcov: the CI over L variants drawn from a pool of real ones.  A
# pool of 48 variants, half at 0.40 and half at 0.50 (a discrete layout
# effect): sets of 24 cover the pool's mean; a pool of one value has no
# spread to miss by; bad input is refused.
awk 'BEGIN { for (i = 0; i < 48; i++) printf "c/1/old/new %.2f\n", i % 2 ? 0.40 : 0.50 }' > "$tmp/pool.txt"
line=$("$tools/layoutcov" -L 24 -r 500 < "$tmp/pool.txt")
expect "layoutcov: two discrete layouts, sets of 24 of 48 cover the pool's mean >= 95% ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*coverage=/, \"\"); exit !(\$1 + 0 >= 0.95) }'"
awk 'BEGIN { for (i = 0; i < 30; i++) print "c/1/old/new 0.5" }' > "$tmp/pool1.txt"
expect "layoutcov: one value: coverage 1, half-width 0" \
	test "$("$tools/layoutcov" -r 10 < "$tmp/pool1.txt")" = "c/1/old/new variants=30 coverage=1.000 halfwidth_pct=0.0"
expect "layoutcov: a pool smaller than L says so" \
	sh -c "'$tools/layoutcov' -L 40 -r 10 < '$tmp/pool1.txt' | grep -q 'variants=30 (fewer than 40)'"
expect "layoutcov: a line that is no KEY RATIO is refused with its number" \
	sh -c "printf 'c 0.5\nc x\n' | '$tools/layoutcov' 2>&1 >/dev/null | grep -q 'line 2: not'"
# ... and on the 96 real variants of four uml runs (fixtures/layout-variants,
# docs/statistics.md): every cell's CI over 24 of them covers the mean of
# all 96 in >= 95% of 2000 draws (fixed seed: the figures of the docs).
cov=$(grep -v '^#' "$(dirname "$0")/fixtures/layout-variants/pool.txt" | "$tools/layoutcov" -L 24 -r 2000)
expect "layoutcov: real variants, 12 cells, every coverage >= 0.95" \
	sh -c "echo '$cov' | awk '{ sub(/.*coverage=/, \"\"); sub(/ .*/, \"\"); n++; if (\$1 + 0 < 0.95) bad++ } END { exit bad || n != 12 }'"
expect "simboots refuses one boot" sh -c "! '$tools/simboots' -b 1 2> /dev/null"

# 4c. apart80_pct: how far another run's ratio must lie to be told from
# this one at 80% power, formed with the CI (stats_apart_pct).  Over the 3
# boots above, CI [0.3883, 0.6395]: se = ln(0.6395 / 0.3883) / (2 x 4.303),
# (t(0.975, 4) + t(0.80, 4)) x sqrt(2) x se = (2.776 + 0.941) x 1.414 x
# 0.0580: 35.6%.  Within one boot (order statistics, taken as normal):
# ranks 6 and 16 of 1..21, se = ln(16 / 6) / 3.92, (1.960 + 0.842) x
# 1.414 x se: 169.5%.
expect "power: apart80_pct over 3 boots is 35.6% ($(field "$tmp/boots.csv" old/new apart80_pct))" \
	near "$(field "$tmp/boots.csv" old/new apart80_pct)" 35.6 0.005
expect "power: apart80_pct within one boot is 169.5% ($(field "$tmp/k21.csv" old/new apart80_pct))" \
	near "$(field "$tmp/k21.csv" old/new apart80_pct)" 169.5 0.002
expect "power: no CI, no apart80_pct (5 rounds)" test -z "$(field "$tmp/k5.csv" old/new apart80_pct)"
expect "power: absolute.csv has no apart80_pct" \
	sh -c "! '$mkratios' -A '$tmp/boot1.txt' | head -n 1 | grep -q apart80_pct"

# 4d. The mixture test (stats_modes, docs/statistics.md).
# mixboots NAME FIRST LAST: 12 boot files $tmp/NAME-K.txt whose old/new
# sits near 0.50 (boot K: 0.5 x (0.98 + 0.005 K), 2% round noise), boots
# FIRST..LAST with old 1.7x slower (the slow mode measured under uml);
# $files: their names.
mixboots() {
	files=""
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
		f=$(awk -v k="$k" -v s="$([ "$k" -ge "$2" ] && [ "$k" -le "$3" ] && echo 1.7 || echo 1)" \
			'BEGIN { printf "%.4f", s * 0.5 * (0.98 + 0.005 * k) }')
		rounds fprog1 1 0 30 "$f" 1 1 0.02 "$k" > "$tmp/$1-$k.txt"
		files="$files $tmp/$1-$k.txt"
	done
}
# modes NAME FIRST LAST WHAT UNITS [FACTOR]: mkratios over mixboots NAME
# FIRST LAST finds mode_units UNITS, and mode_factor FACTOR within 2% (no
# FACTOR: none).
modes() {
	mixboots "$1" "$2" "$3"
	# shellcheck disable=SC2086 # one word per boot file
	"$mkratios" -p old/new $files > "$tmp/$1.csv"
	expect "mixture: $4: mode_units $5 ($(field "$tmp/$1.csv" old/new mode_units))" \
		test "$(field "$tmp/$1.csv" old/new mode_units)" = "$5"
	if [ -n "${6:-}" ]; then
		expect "mixture: $4: mode_factor $6 within 2% ($(field "$tmp/$1.csv" old/new mode_factor))" \
			near "$(field "$tmp/$1.csv" old/new mode_factor)" "$6" 0.02
	else
		expect "mixture: $4: no mode_factor" test -z "$(field "$tmp/$1.csv" old/new mode_factor)"
	fi
}
# Three of 12 boots slow: the largest gap of the sorted log medians (0.53)
# is far over 6 x the spread within the two sides (about 1.5%); the
# factor, the slow boots' median (boot 11) over the others' (boots 5 and
# 6), is 1.7 x 1.035 / 1.0075 = 1.746.
modes mix 10 12 "3 of 12 boots 1.7x slower" 3 1.746
# as 12 code-layout variants of one boot each: the variants are the units
# shellcheck disable=SC2086
"$mkratios" -p old/new -g a,b,c,d,e,f,g,h,i,j,k,l $files > "$tmp/mixg.csv"
expect "mixture: over 12 code layouts: ci_over layouts, mode_units 3" \
	test "$(field "$tmp/mixg.csv" old/new ci_over)/$(field "$tmp/mixg.csv" old/new mode_units)" = layouts/3
# shellcheck disable=SC2086,SC2046
"$mkratios" -p old/new $(echo $files | cut -d' ' -f1-9) > "$tmp/mix9.csv"
expect "mixture: 9 boots (fewer than 10): not tested, both columns empty" \
	test "$(field "$tmp/mix9.csv" old/new mode_units)/$(field "$tmp/mix9.csv" old/new mode_factor)" = /
# Nine slow, three not: the smaller mode lies below, its factor (boot 2
# over boot 8) 0.99 / (1.7 x 1.02) = 0.571.
modes low 4 12 "3 of 12 boots below the rest" 3 0.571
# none slow: one mode
modes one 13 12 "the 12 boots without slow ones" 0
# The rule's size on normal boots (simboots, fixed seed: 20000 runs of 10
# boots, the fewest it tests): two modes in at most 0.5% of runs; with a
# slow mode (each of 24 boots 1.7x slower with probability 0.1) in at
# least 85% (a run has a slow boot with probability 1 - 0.9^24 = 0.92),
# where the t-interval covers the ratio of a boot outside it in under 90%.
line=$("$tools/simboots" -r 20000 -b 10 -s 0.02 -w 0.02 -S 1)
expect "mixture: simulated normal boots: two modes in <= 0.5% of runs ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*modes=/, \"\"); exit !(\$1 + 0 <= 0.005) }'"
line=$("$tools/simboots" -r 4000 -b 24 -s 0.02 -w 0.02 -m 0.1 -M 1.7 -S 1)
expect "mixture: simulated slow mode: two modes in >= 85% of runs ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*modes=/, \"\"); exit !(\$1 + 0 >= 0.85) }'"
expect "mixture: simulated slow mode: the t-interval covers < 90% ($line)" \
	sh -c "echo '$line' | awk '{ sub(/.*over_boots=/, \"\"); exit !(\$1 + 0 < 0.90) }'"
# The real variants of four uml runs (fixtures/layout-variants, 24 each, in
# run order): the classic interpreter's fast line offset makes two modes
# in fprog #1 cache-hit old/new and old/new2014 and fprog #2 cache-hit
# old/new2014 in every run (2-7 of 24 variants, 1.28-1.34x the others);
# the two eBPF engines' pair (new2014/new) in none.
grep -v '^#' "$(dirname "$0")/fixtures/layout-variants/pool.txt" | "$tools/layoutcov" -m -L 24 > "$tmp/lmodes.txt"
expect "mixture: real variants: 3 cells x 4 runs in two modes, 1.25-1.35x" \
	sh -c "grep -E '^(fprog1/1/old/new|fprog1/1/old/new2014|fprog2/1/old/new2014) set=' '$tmp/lmodes.txt' |
		awk '{ sub(/.*mode_units=/, \"\"); split(\$0, a, / mode_factor=/); if (a[1] >= 1 && a[2] >= 1.25 && a[2] <= 1.35) n++ } END { exit n != 12 }'"
expect "mixture: real variants: new2014/new in one mode in every run" \
	test "$(grep -c '/new2014/new set=[1-4] variants=24 mode_units=0$' "$tmp/lmodes.txt")" = 16
expect "mixture: layoutcov -m on sets under 10 says not tested" \
	sh -c "grep -v '^#' '$(dirname "$0")/fixtures/layout-variants/pool.txt' | '$tools/layoutcov' -m -L 8 | head -n 1 | grep -q 'mode_units=- (fewer than 10)$'"

# 5. malformed input: an error naming file and line, non-zero exit
bad() { # NAME LINE MESSAGE_PART
	{ known 6; echo "$2"; } > "$tmp/bad.txt"
	refused "malformed: $1: refused with file:line and why" "bad.txt:7: .*$3" \
		"$mkratios" "$tmp/bad.txt"
}
bad "value not a number" "paired filter=f packet=p skbs=1 placement=1 round=0 new=abc old=1" "not a number"
bad "negative value" "paired filter=f packet=p skbs=1 placement=1 round=0 new=-1 old=1" "not a number"
bad "no placement" "paired filter=f packet=p skbs=1 round=0 new=1 old=1" "no placement"
bad "duplicate round" "paired filter=f packet=p skbs=1 placement=0 round=3 new=1 old=1" "given twice"
bad "one engine" "paired filter=f packet=p skbs=1 placement=1 round=0 new=1" "need 2"
bad "other engines" "paired filter=f packet=p skbs=1 placement=1 round=0 new=1 jit=1" "not in the cell"
bad "not key=value" "paired filter=f packet=p skbs=1 placement=1 round=0 new=1 old" "not key=value"
bad "bad skbs" "paired filter=f packet=p skbs=x placement=1 round=0 new=1 old=1" "bad skbs"
bad "round and engines" "paired filter=f packet=p skbs=1 placement=1 round=0 engines=a,b" "header"
printf 'tag=bench something\n' > "$tmp/none.txt"
expect "no paired lines: error" sh -c "! '$mkratios' '$tmp/none.txt' 2> /dev/null"
expect "a requested pair no cell ran: error" sh -c "! '$mkratios' -p old/jit '$tmp/inv.txt' > /dev/null 2>&1"
expect "bad pair syntax: error" sh -c "! '$mkratios' -p old '$tmp/inv.txt' > /dev/null 2>&1"
