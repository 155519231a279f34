#!/bin/sh
# The hardware-counter path of perf stat, which no machine of ours has run
# (no PMU): results/fixtures/kvm-pmu, a kvm run whose perf/*.stat files are
# what Debian's perf 6.1 writes for the guest's `perf stat -x, -e
# task-clock,cycles,instructions,branches,branch-misses,cache-misses`
# (bench/guest/lib.sh timed_run) on a CPU with a PMU, through mkcsv,
# mkclaims, mktable and mkcover; and copies of it with a "<not counted>"
# and a "<not supported>" line among counted ones.  The CSV format was
# checked against the 6.1 tree's tools/perf/util/stat-display.c, printout()
# and print_metric_csv() in CSV mode (counter value, unit, event, run time,
# percentage running, metric value, metric unit), and stat-shadow.c,
# perf_stat__print_shadow_stats() (the metrics: "insn per cycle" for
# instructions, "of all branches" for branch-misses, printed by
# print_metric_csv without the "%"); the first tests hold the fixture to
# it, and to the tree's source when build/linux is there.
# usage: tests-pmu.sh TOOLS_DIR      prints PASS:/FAIL: lines
set -eu
tools=$1
TEST_PREFIX="pmu: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures/kvm-pmu
perf=$fx/kvm/perf

# The format: "# started on DATE", a blank line, one line of 7 fields per
# event in -e order; the unit msec for task-clock only, none (an empty
# field) for the hardware counters; each metric what perf 6.1 computes
# from the counts (GHz over task-clock's ns, which is also its run time).
bad=$(for f in "$perf"/*.stat; do
	awk -F, -v f="$(basename "$f")" '
	function num(s) { return s ~ /^[0-9]+(\.[0-9]+)?$/ }
	function off(got, want, tol) { return got - want > tol || want - got > tol }
	BEGIN { split("task-clock cycles instructions branches branch-misses cache-misses", ev, " ") }
	NR == 1 { if ($0 !~ /^# started on [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]+ [0-9]+$/) print f ": header"; next }
	NR == 2 { if ($0 != "") print f ": no blank line"; next }
	{
		e = ev[NR - 2]
		if (NF != 7 || $3 != e || !num($1) || $2 != (e == "task-clock" ? "msec" : "") ||
		    $4 !~ /^[0-9]+$/ || $5 != "100.00")
			print f ": " $0
		v[e] = $1; m[e] = $6; u[e] = $7
	}
	END {
		ns = v["task-clock"] * 1e6
		if (u["task-clock"] != "CPUs utilized" || u["cycles"] != "GHz" ||
		    u["instructions"] != "insn per cycle" || u["branches"] !~ /^[KMG]\/sec$/ ||
		    u["branch-misses"] != "of all branches" || m["cache-misses"] u["cache-misses"] != "")
			print f ": metric units"
		if (off(m["cycles"], v["cycles"] / ns, 0.01) ||
		    off(m["instructions"], v["instructions"] / v["cycles"], 0.005) ||
		    off(m["branch-misses"], 100 * v["branch-misses"] / v["branches"], 0.005))
			print f ": metric values"
	}' "$f"
done)
expect "fixture: every perf stat file is perf 6.1's -x, CSV (value,unit,event,run,pct,metric,metric unit)${bad:+: $bad}" \
	test -z "$bad"
expect "fixture: one perf stat file per bench cell (24)" \
	test "$(find "$perf" -name 'bench-*.stat' | wc -l)" = 24
src=$here/../build/linux/tools/perf/util
if [ -f "$src/stat-display.c" ] && [ -f "$src/stat-shadow.c" ] &&
    grep -qx 'VERSION = 6' "$src/../../../Makefile" 2> /dev/null &&
    grep -qx 'PATCHLEVEL = 1' "$src/../../../Makefile" 2> /dev/null; then
	# shellcheck disable=SC2016 # C source, not expansions
	expect "fixture: the 6.1 tree's perf prints CSV as the fixture has it (stat-display.c, stat-shadow.c)" \
		sh -c "grep -qF '\"%s%\" PRIu64 \"%s%.2f\", config->csv_sep,' '$src/stat-display.c' &&
			grep -qF 'fprintf(out, \"%s%s%s%s\", config->csv_sep, vals, config->csv_sep, skip_spaces(unit));' '$src/stat-display.c' &&
			grep -qF '\"insn per cycle\", ratio);' '$src/stat-shadow.c' &&
			grep -qF '\"%7.2f%%\", \"of all branches\", ratio);' '$src/stat-shadow.c' &&
			grep -qF 'print_metric(config, ctxp, NULL, \"%8.3f\", \"GHz\", ratio);' '$src/stat-shadow.c'"
else
	skip "fixture: the 6.1 tree's perf prints CSV as the fixture has it (no 6.1 tree in build/linux)"
fi

# The tables stage on a copy of the fixture (results/tests.sh compares its
# outputs with the fixture's, byte for byte): the counts as perf printed
# them, and per call.
run=$tmp/fx
cp -R "$fx" "$run"
rm -f "$run"/*.csv "$run"/*.txt
cp "$fx/run.txt" "$run/run.txt"
succeeds "tables: the stage takes the fixture" "$tmp/fx.out" \
	env PLOTS=0 "$here/mktables.sh" "$run" "$tools"
csv=$run/results.csv
# row ENGINE FILTER SKBS COLUMN...: the bench row's columns of $rcsv (default
# the fixture's results.csv), each followed by a space.
row() {
	r_e=$1 r_f=$2 r_s=$3
	shift 3
	for c in "$@"; do
		printf '%s ' "$("$tools/csvget" "${rcsv:-$csv}" "$c" tag=bench engine="$r_e" filter="$r_f" skbs="$r_s")"
	done
}
is "$(row old fprog2 1 task_clock_ms cycles instructions branches branch_misses cache_misses)" \
	"277.47 956706310 2358152026 449259279 3034100 7825 " \
	"results.csv: old BPF fprog #2 cache-hit, perf's counts of its run"
is "$(awk -F, 'NR > 2 { printf "%s ", $1 }' "$perf/bench-old-fprog2-tcp22-payload-skbs1.stat")" \
	"277.47 956706310 2358152026 449259279 3034100 7825 " \
	"results.csv: ... which are the .stat file's first fields"
# perf_calls = skbs + (3 + 1) x calls_per_sample - 1 + samples x calls_per_sample
is "$(row old fprog2 1 calls_per_sample perf_calls) $(row new fprog2 1 calls_per_sample perf_calls)" \
	"524288 4718592  262144 2359296 " \
	"perf_calls: old BPF's run made 1 + 4 x 524288 - 1 + 5 x 524288 calls, new BPF's half (its own calibration)"
is "$(row old fprog2 1 cycles_per_call instructions_per_call branches_per_call branch_misses_per_call cache_misses_per_call)" \
	"202.752 499.758 95.210 0.643 0.001658 " \
	"per call: old BPF fprog #2 cache-hit: cycles, instructions, branches, branch-misses, cache-misses"
is "$(row new fprog2 1 cycles_per_call instructions_per_call branches_per_call branch_misses_per_call)" \
	"336.200 1224.515 196.421 0.236 " \
	"per call: new BPF fprog #2 cache-hit"
is "$(row oldjit fprog2 10000 calls_per_sample perf_calls)" "2097152 18884367 " \
	"perf_calls: the first placement's calibration, the run perf stat counted (2097152 a sample; 1048576 in placements 2, 4, 7, 9)"
# every *_per_call of every row: its count over perf_calls
bad=$(awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["perf_calls"] != "" {
		n++
		split("cycles instructions branches branch_misses cache_misses", c, " ")
		for (k = 1; k <= 5; k++) {
			want = $col[c[k]] / $col["perf_calls"]
			got = $col[c[k] "_per_call"]
			if (got == "" || got - want > want * 0.001 || want - got > want * 0.001)
				print NR ": " c[k]
		}
	}
	END { if (n != 24) print n " rows with perf_calls" }' "$csv")
expect "per call: each of the 24 rows' *_per_call is its count over perf_calls${bad:+: $bad}" test -z "$bad"
expect "perf_calls: mkcsv's calibration runs and seccomp warm-up are the module's and seccomp-bench's" \
	sh -c "grep -q '^#define BENCH_CALIB_RUNS[[:space:]]*3[[:space:]]' '$here/../bench/module/bpf_bench.c' &&
		grep -q '^#define CALIB_RUNS[[:space:]]*3$' '$here/mkcsv.c' &&
		grep -q '^#define WARMUP 1000$' '$here/../bench/guest/seccomp-bench.c' &&
		grep -q '^#define SECCOMP_WARMUP[[:space:]]*1000$' '$here/mkcsv.c'"

# table.txt: the whole runs' counts, and per call.
tab=$run/table.txt
expect "table: old BPF's whole run: task-clock, cycles, instructions, branches, branch-misses, miss rate" \
	grep -q '^old BPF  *277.47  *956706310  *2358152026  *449259279  *3034100  *0.68%$' "$tab"
expect "table: per call with IPC: old BPF 0.643 branch-misses a call, new BPF 0.236" \
	sh -c "grep -A3 '^per call: the run.s counts over its calls (perf_calls' '$tab' | grep -q '^old BPF  *4718592  *202.752  *499.758  *2.46  *95.210  *0.643$' &&
		grep -A3 '^per call: the run.s counts over its calls (perf_calls' '$tab' | grep -q '^new BPF  *2359296  *336.200  *1224.515  *3.64  *196.421  *0.236$'"
expect "table: no note on missing counters where every counter counted" \
	sh -c "! grep -q 'not supported\|not counted' '$tab'"

# The claim: per call (2.72), not the whole runs' counts (5.45).
whole=$(awk 'BEGIN { printf "%.2f", 3034100 / 556840 }')
expect "claim: perf stat branch-misses old/new 2.724 per call (the whole runs: $whole): holds, over one run of each engine" \
	grep -q '^  perf stat: drastic difference in branch-misses   2014: -      ours: 2.724  *holds (perf stat old/new, fprog #2 cache-hit: branch_misses per call (perf_calls) over one run of each engine, no CI)$' "$tab"
is "$(awk -F, '$4 == "branch-misses" { print $8, $11 }' "$run/claims.csv")" \
	"$(awk 'BEGIN { printf "%.6g holds", (3034100 / 4718592) / (556840 / 2359296) }')" \
	"claims.csv: the value is (3034100 / 4718592) / (556840 / 2359296)"
"$tools/mkcover" -r "$run" > "$tmp/cover.txt" 2>&1 || true
expect "cover: the claims in brief show 2.72x holds for branch-misses" \
	grep -q '^    perf stat: drastic difference in branch-misses 2.72x  *holds$' "$tmp/cover.txt"
expect "cover: the finding names the claim without a figure, not 're-tests none'" \
	sh -c "grep -q '^This run has no figure for \"new faster than old\" (claims.csv basis: no$' '$tmp/cover.txt' &&
		! grep -q 're-tests none' '$tmp/cover.txt'"

# A "<not counted>" line (run time 0: multiplexed out, or the PMU taken)
# and a "<not supported>" one among counted lines, as perf 6.1 prints
# them, and a multiplexed count (50.00% running, scaled by perf).
nc=$tmp/nc
cp -R "$run" "$nc"
sed -i 's/^[0-9]*,,branch-misses,[0-9]*,100.00,[0-9.]*,of all branches$/<not counted>,,branch-misses,0,0.00,,/;
	s/^\([0-9]*,,branches,[0-9]*\),100.00,/\1,50.00,/' "$nc/kvm/perf/bench-new-fprog2-tcp22-payload-skbs1.stat"
sed -i 's/^[0-9]*,,cycles,[0-9]*,100.00,[0-9.]*,GHz$/<not supported>,,cycles,0,100.00,,/' \
	"$nc/kvm/perf/bench-old-fprog2-tcp22-payload-skbs1.stat"
expect "not counted: the copy has the lines" \
	sh -c "grep -qx '<not counted>,,branch-misses,0,0.00,,' '$nc/kvm/perf/bench-new-fprog2-tcp22-payload-skbs1.stat' &&
		grep -qx '<not supported>,,cycles,0,100.00,,' '$nc/kvm/perf/bench-old-fprog2-tcp22-payload-skbs1.stat'"
succeeds "not counted: the tables stage takes the run" "$tmp/nc.out" \
	env PLOTS=0 "$here/mktables.sh" "$nc" "$tools"
is "$(rcsv=$nc/results.csv row new fprog2 1 branch_misses branch_misses_per_call cycles branches branches_per_call instructions_per_call)" \
	"not counted  793195772 463415055 196.421 1224.515 " \
	"not counted: new BPF's branch-misses read 'not counted', no figure per call; its other counters parsed"
is "$(rcsv=$nc/results.csv row old fprog2 1 cycles cycles_per_call instructions_per_call branch_misses_per_call)" \
	"not supported  499.758 0.643 " \
	"not supported: old BPF's cycles read 'not supported'; its other counters parsed"
expect "not counted: the table says so, its miss rate and IPC '-', never 0" \
	sh -c "grep -q '^new BPF  *230.05  *793195772  *2888993626  *463415055  *not counted  *-$' '$nc/table.txt' &&
		grep -q '^old BPF  *4718592  *-  *499.758  *-  *95.210  *0.643$' '$nc/table.txt' &&
		grep -q '^new BPF  *2359296  *336.200  *1224.515  *3.64  *196.421  *-$' '$nc/table.txt'"
expect "not counted: the table explains both words" \
	sh -c "grep -q '^(\"not counted\": perf stat had the counter but it never ran' '$nc/table.txt' &&
		grep -q '^(\"not supported\": this CPU/hypervisor exposes' '$nc/table.txt'"
expect "not counted: the claim is not measurable and says which counter of which engine" \
	grep -q '^  perf stat: drastic difference in branch-misses .* not measurable (perf stat: branch_misses <not counted> for new)$' "$nc/table.txt"

# A seccomp cell's run under perf stat is one seccomp-bench of its calls:
# the check, 1000 warm-up and the timed calls.
for k in 1 2 3; do
	echo "id=seccomp-new-large-nr199-skbs1 tag=seccomp filter=large packet=nr199 engine=new skbs=1 placement=$k placements=3 samples=1 calls_per_sample=20000 min=1$k.25 median=1$k.25 mean=1$k.25 stddev=0 verdict=ALLOW jited=0 insns=0 image_bytes=0 clock=monotonic"
done >> "$nc/kvm/cells.txt"
printf '# started on Sun Dec  6 16:40:02 2026\n\n%s\n%s\n' \
	"12.31,msec,task-clock,12310442,100.00,0.991,CPUs utilized" \
	"1050050,,branches,12308569,100.00,85.298,M/sec" > "$nc/kvm/perf/seccomp-new-large-nr199-skbs1.stat"
"$tools/mkcsv" "$nc" > "$tmp/seccomp.csv" 2> "$tmp/err" || true
is "$("$tools/csvget" "$tmp/seccomp.csv" perf_calls tag=seccomp engine=new) $("$tools/csvget" "$tmp/seccomp.csv" branches_per_call tag=seccomp engine=new)" \
	"21001 50.000" "perf_calls: a seccomp cell's run: 1 + 1000 + 20000 filtered calls"
test_summary
