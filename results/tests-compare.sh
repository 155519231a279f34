#!/bin/sh
# Host tests of make compare's statistics and tables (results/mkcompare,
# lib/stats.c) on made-up runs of two kernels: an exact counted delta
# and its per-instruction figure, the blocked design's interval checked
# against its closed form, blocks by code-layout variant, a known slowdown
# found over blocks, a null table that stays "no difference shown" after
# Holm, and a changed verdict refused with the engine and cell named.
# usage: tests-compare.sh TOOLS_DIR      prints PASS:/FAIL: lines
set -eu
tools=$1
TEST_PREFIX="results: compare: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"
mkcompare=$tools/mkcompare
get() { "$tools/csvget" "$@" 2> /dev/null || true; }
near() { # VALUE WANT TOLERANCE (absolute)
	awk -v v="$1" -v w="$2" -v t="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= t) }'
}

# results ACCEL KIND UNIT ENGINE:MEDIAN:VM_INSNS:VERDICT...: a results.csv
# of bench cells fprog1 tcp22-payload skbs=1.
results() {
	echo "run_id,accel,kind,tag,engine,filter,packet,skbs,median,unit,verdict,vm_insns,cpu,config_hash"
	a=$1 k=$2 u=$3
	shift 3
	for c in "$@"; do
		echo "$c" | awk -F: -v a="$a" -v k="$k" -v u="$u" \
			'{ printf "t,%s,%s,bench,%s,fprog1,tcp22-payload,1,%s,%s,%s,%s,test cpu,abc\n", a, k, $1, $2, u, $4, $3 }'
	done
}

# boot FILE CELLS VALUE...: one boot's paired.txt: CELLS cells (fprog<i>),
# engines old and new, one round each, old = the VALUE, new = 2 x VALUE for
# the first cell; the others reuse it.
boot() {
	f=$1 cells=$2
	shift 2
	mkdir -p "$(dirname "$f")"
	awk -v n="$cells" -v v="$1" 'BEGIN {
		for (c = 1; c <= n; c++) {
			printf "paired filter=fprog%d packet=p skbs=1 placement=0 engines=old,new rounds=1 order=rotate verdict=1 calls=1,1 jited=0,0 insns=1,1\n", c
			printf "paired filter=fprog%d packet=p skbs=1 placement=0 round=0 old=%.6f new=%.6f\n", c, v, 2 * v
		}
	}' > "$f"
}

# side RUN SIDE ACCEL CELLS VALUE[@LAYOUT]...: SIDE's boots of a timed
# accelerator: the first the bench plan's (boot 1, never analysed), the
# others paired boots 2.., each of code-layout variant LAYOUT if given.
side() {
	r=$1 s=$2 a=$3 cells=$4
	shift 4
	mkdir -p "$r/$s"
	echo "tree_head=$s-head" > "$r/$s/run.txt"
	results "$a" hardware ns "old:1::1" > "$r/$s/results.csv"
	k=1
	for v in "$@"; do
		if [ "$k" = 1 ]; then
			boot "$r/$s/$a/paired.txt" "$cells" "${v%@*}"
		else
			boot "$r/$s/$a/boot-$k/paired.txt" "$cells" "${v%@*}"
			[ "${v#*@}" = "$v" ] || echo "layout=${v#*@}" > "$r/$s/$a/boot-$k/host.txt"
		fi
		k=$((k + 1))
	done
}

# 1. counted: the exact difference, per executed eBPF instruction
r=$tmp/counted
mkdir -p "$r/baseline" "$r/patched"
results icount counted insns new:744.389:58:262144 old:286.097:14:262144 > "$r/baseline/results.csv"
results icount counted insns new:918.201:58:262144 old:286.2:14:262144 > "$r/patched/results.csv"
if "$mkcompare" "$r" 2> "$tmp/err"; then
	d=$(get "$r/compare.csv" delta engine=new)
	expect "counted: new's delta $d is 173.812" near "$d" 173.812 0.0005
	expect "counted: new slower" test "$(get "$r/compare.csv" verdict engine=new)" = slower
	expect "counted: old's +0.103 is timer noise: within +-0.50" \
		test "$(get "$r/compare.csv" verdict engine=old)" = "within +-0.50"
	expect "counted: the table shows delta/vm insn 3.00 x 58" grep -q ' 3\.00 x 58 ' "$r/compare.txt"
	expect "counted: summary: 1 slower, 1 within the counted noise" \
		grep -q '^    1 cells slower, 0 faster, 1 within the counted noise' "$r/summary.txt"
	expect "counted: plot data and parameters" test -s "$r/plots/compare-icount.dat" -a -s "$r/plots/compare-icount.gp"
else
	fail "counted: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 1b. counted, with min and calls_per_sample: the delta of the samples
# with the fewest instructions (an interrupt only adds), the noise bound
# of the side with fewer calls per sample (2000 / 1024), and the patched
# kernel's executed eBPF instructions beside the baseline's.
r=$tmp/counted-min
mkdir -p "$r/baseline" "$r/patched"
printf '%s\n' "run_id,accel,kind,tag,engine,filter,packet,skbs,min,median,unit,verdict,vm_insns,calls_per_sample,cpu,config_hash" \
	"t,icount,counted,bench,new,fprog1,tcp22-payload,1,744.0,745.5,insns,262144,58,4096,c,abc" \
	"t,icount,counted,bench,old,fprog1,tcp22-payload,1,286.0,286.0,insns,262144,14,4096,c,abc" > "$r/baseline/results.csv"
printf '%s\n' "run_id,accel,kind,tag,engine,filter,packet,skbs,min,median,unit,verdict,vm_insns,calls_per_sample,cpu,config_hash" \
	"t,icount,counted,bench,new,fprog1,tcp22-payload,1,802.0,803.9,insns,262144,59,1024,c,abc" \
	"t,icount,counted,bench,old,fprog1,tcp22-payload,1,287.5,287.9,insns,262144,14,1024,c,abc" > "$r/patched/results.csv"
if "$mkcompare" "$r" 2> "$tmp/err"; then
	expect "counted min: new's delta from the minima, 58.000" near "$(get "$r/compare.csv" delta engine=new)" 58 0.0005
	expect "counted min: old's +1.5 within the patched side's bound 2000/1024" \
		test "$(get "$r/compare.csv" verdict engine=old)" = "within +-1.95"
	expect "counted min: both sides' vm insns, 58->59" \
		sh -c "[ '$(get "$r/compare.csv" vm_insns_patched engine=new)' = 59 ] && grep -q ' 58->59 ' '$r/compare.txt'"
	expect "counted min: the delta per baseline VM insn (58 / 58) in compare.csv, as compare.txt prints it" \
		sh -c "[ '$(get "$r/compare.csv" delta_per_vm_insn engine=new)' = 1 ] && grep -q ' 58->59  *1.00 x 58 ' '$r/compare.txt'"
	expect "counted min: the summary's line per engine, its change in percent" \
		sh -c "grep -q '^    new BPF  *+7.8% ..  *+7.8% over 1 cells: 1 slower, 0 faster$' '$r/summary.txt' &&
			grep -q '^    old BPF  *+0.5% ..  *+0.5% over 1 cells: within the counted noise$' '$r/summary.txt'"
else
	fail "counted min: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 2. a changed verdict fails the comparison, naming engine and cell
results icount counted insns new:744.389:58:262144 old:286.097:14:0 > "$r/patched/results.csv"
if "$mkcompare" "$r" > /dev/null 2> "$tmp/err"; then
	fail "verdict changed: accepted"
else
	expect "verdict changed: refused naming engine old and the cell" \
		grep -q 'engine old, cell fprog1 tcp22-payload skbs=1: the verdicts differ (baseline 262144, patched 0)' "$tmp/err"
fi

# 3. The blocked design against its closed form: boot 1 (the bench plan,
# 99 and 1) left out; blocks k = 2, 3, 4 with log ratios .1, .2, .3: mean
# .2, sd .1, se .1/sqrt(3), t = 3.4641, df 2, p = 1 - t/sqrt(t^2 + 2) =
# .07418, CI exp(.2 -+ 4.3027 se) = [.9527, 1.5658]
r=$tmp/blocked
side "$r" baseline uml 1 99 1 1 1
side "$r" patched uml 1 1 1.105170918 1.221402758 1.349858808
if "$mkcompare" "$r" 2> "$tmp/err"; then
	while read -r col want tol; do
		expect "blocked: $col $want" near "$(get "$r/compare.csv" "$col" engine=old)" "$want" "$tol"
	done <<-EOF
	ratio 1.2214 0.0001
	p 0.07418 0.00001
	ci_lo 0.9527 0.0001
	ci_hi 1.5658 0.0001
	EOF
	expect "blocked: 3 blocks of boot pairs, boot 1 left out" \
		test "$(get "$r/compare.csv" blocks engine=old) $(get "$r/compare.csv" block_kind engine=old) $(get "$r/compare.csv" boots_baseline engine=old)" = "3 boot pairs 3"
	expect "blocked: no difference shown" \
		test "$(get "$r/compare.csv" verdict engine=old)" = "no difference shown"
	# 10% over 3 blocks of sd .1 at Holm's first step .05/2: (t(.9875, 2) +
	# t(.8, 2)) .1/sqrt(3) = (6.2053 + 1.0607) .057735 = .41949: 52.1%
	expect "blocked: detects 52.1% at 80% power" near "$(get "$r/compare.csv" detectable_pct engine=old)" 52.1 0.1
	expect "blocked: the table has the detects column" grep -q ' detects  verdict$' "$r/compare.txt"
	# (the engine names were pointers into the boots, freed before the
	# table was written: the first rows printed none)
	# shellcheck disable=SC2016
	expect "blocked: every row of the table names its engine" awk '
		/^  engine / { t = 1; next } t && /^  \(/ { exit } t && /skbs=/ { n++; if ($0 !~ /^  [a-zA-Z]/) bad++ }
		END { exit bad || !n }' "$r/compare.txt"
else
	fail "blocked: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 3b. Blocks by code-layout variant: variant A runs at 10, B at 20 on both
# kernels, the patch adds 10% to each; the boots come in another order on
# each side.  Paired by variant every block is log 1.1 exactly; paired by
# boot number (or unpaired) the layouts' 2x would swamp it.
r=$tmp/layouts
side "$r" baseline uml 1 5 10@11 20@22 10.2@11 20@22
side "$r" patched uml 1 5 22@22 11@11 22@22 11.22@11
if "$mkcompare" "$r" 2> "$tmp/err"; then
	expect "layouts: ratio 1.1 from 2 blocks of layout variants" \
		test "$(get "$r/compare.csv" ratio engine=old) $(get "$r/compare.csv" blocks engine=old) $(get "$r/compare.csv" block_kind engine=old)" = "1.1000 2 layout variants"
	expect "layouts: slower" test "$(get "$r/compare.csv" verdict engine=old)" = slower
	expect "layouts: the note names the blocks" grep -q '2 blocks (layout variants' "$r/compare.txt"
else
	fail "layouts: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 4. a 10% slowdown over 6 paired boots each, boot-to-boot noise of 2%
r=$tmp/slower
side "$r" baseline uml 1 1 20.0 20.4 19.7 20.2 19.9 20.3
side "$r" patched uml 1 1 22.1 22.5 21.8 22.0 22.3 21.9
if "$mkcompare" "$r" 2> "$tmp/err"; then
	ratio=$(get "$r/compare.csv" ratio engine=new)
	expect "slower: ratio $ratio within 1% of 1.10" near "$ratio" 1.10 0.011
	expect "slower: verdict slower" test "$(get "$r/compare.csv" verdict engine=new)" = slower
	expect "slower: its CI covers 1.10" awk -v l="$(get "$r/compare.csv" ci_lo engine=new)" \
		-v h="$(get "$r/compare.csv" ci_hi engine=new)" 'BEGIN { exit !(l < 1.10 && h > 1.10) }'
	expect "slower: the note under the table names Holm" grep -q 'Holm-adjusted over the 2 comparisons' "$r/compare.txt"
else
	fail "slower: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 5. no change, 20 comparisons (10 cells x 2 engines), noise of 3%: nothing
# shown, and Holm never lowers a p
r=$tmp/null
side "$r" baseline uml 10 1 20.0 20.6 19.5 20.3 19.8
side "$r" patched uml 10 1 20.5 19.6 20.9 20.2 20.7
if "$mkcompare" "$r" 2> "$tmp/err"; then
	n=$(grep -c ',no difference shown,' "$r/compare.csv" || true)
	expect "null: all 20 comparisons no difference shown ($n)" test "$n" = 20
	# shellcheck disable=SC2016 # awk's fields
	expect "null: Holm's p is at least the raw p on every row" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["p_holm"]) + 0 < $(c["p"]) + 0 { bad++ } END { exit bad > 0 }' "$r/compare.csv"
else
	fail "null: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 6. one paired boot of a kernel: one block, no test, said so
r=$tmp/one
side "$r" baseline uml 1 20.0 20.0
side "$r" patched uml 1 22.0 22.1 22.2
if "$mkcompare" "$r" 2> "$tmp/err"; then
	expect "one paired boot: too few blocks" grep -q ',too few blocks' "$r/compare.csv"
else
	fail "one boot: mkcompare failed: $(head -n 1 "$tmp/err")"
fi

# 7. The size and power of the timed verdicts (results/simcompare.c), with
# the spread measured under uml (docs/statistics.md, "Code layout"): a
# variant's log sd 13%, boots 3%, 12 comparisons a table.  Under the null
# the family-wise rate of a false "slower"/"faster" is at most 5%: the
# estimate of 4000 tables (fixed seed, so no test flakes) may exceed 0.05
# by its Monte Carlo error, 2 x sqrt(.05 x .95 / 4000) = 0.007.
sim="$tools/simcompare"
for a in "-L 8" "-L 24" "-L 8 -D 1.25 -m 0.1" "-L 24 -D 1.25 -m 0.1 -M 1.7"; do
	# shellcheck disable=SC2086 # the options are words
	line=$("$sim" -r 4000 $a)
	expect "size: $a: family-wise false verdicts at most 5% ($line)" \
		sh -c "echo '$line' | awk '{ sub(/.*fwer=/, \"\"); exit !(\$1 + 0 <= 0.057) }'"
done
line=$("$sim" -r 4000 -L 24 -e 1.25)
expect "power: 24 blocks find a 25% change in >= 80% of tables, detects < 25% ($line)" \
	sh -c "echo '$line' | awk '{ for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
		exit !(v[\"power_first\"] >= 0.8 && v[\"detect_pct\"] < 25) }'"
expect "simcompare refuses one block" sh -c "! '$sim' -L 1 2> /dev/null"

test_summary
