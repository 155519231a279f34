#!/bin/sh
# make compare end to end (bench/host/run-compare.sh) on the two fixture
# patches of bench/compare-fixtures/, with known effects:
#   dispatch-nops  three nops per instruction the eBPF interpreter runs: under
#                  icount every interpreted cell (new, new2014) costs exactly
#                  3 x its executed eBPF instructions more, the classic
#                  interpreter, the JITs and the loop not one more;
#   comment-only   a comment reworded: every counted delta 0, and under
#                  kvm-nested (the kvm path under nested TCG) every verdict
#                  "not measurable";
#   layout-shift   a function nothing calls, in front of the classic
#                  interpreter: no engine's code changes, sk_run_filter()
#                  moves by 48 bytes (64 where every function is on a
#                  64-byte line); every counted delta 0, and under uml
#                  over 8 code-layout variants (LAYOUT_SEEDS, relinked from
#                  uml's two builds in turn, one paired boot of each
#                  kernel in each) no timed cell shows a difference
#                  at a family-wise 0.1% (Holm): a null result fails this
#                  at most 0.1% of the time;
# and a patch that does not apply, refused before anything is built.
# usage: tests-make-compare.sh TOP BUILD    prints PASS:/FAIL: lines
set -eu
top=$1 build=$2
TEST_PREFIX="compare: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
fixtures=$top/bench/compare-fixtures
out=$build/check-compare
rm -rf "$out"
mkdir -p "$out"
# shortened as make check's other runs; perf on where the guest has it
short="bench.placements=1 bench.samples=3 bench.sample_us=2000 bench.rounds=7 bench.paired_placements=1 bench.seccomp_calls=20000 bench.seccomp_runs=3"
get() { "$build/tools/csvget" "$@" 2> /dev/null || true; }

# compare NAME PATCHES ACCEL BOOTS ARGS [ENV...]: run-compare.sh into
# $out/NAME; sets $run to the run directory.
compare() {
	run=
	c_name=$1 c_patches=$2 c_accel=$3 c_boots=$4 c_args=$5
	shift 5
	if env RESULTS_DIR="$out/$c_name" PATCHES="$c_patches" ACCEL="$c_accel" BOOTS="$c_boots" QUIET="25 0 1" \
		BENCH_ARGS="$c_args" "$@" "$top/bench/host/run-compare.sh" "$top" "$build" > "$out/$c_name.log" 2>&1; then
		run=$(find "$out/$c_name" -mindepth 1 -maxdepth 1 -type d | head -n 1)
		pass "$c_name: make compare ran (ACCEL=$c_accel)"
	else
		fail "$c_name: make compare ran (ACCEL=$c_accel): $(grep -v '^\[' "$out/$c_name.log" | tail -n 1)"
	fi
}

# 0. Bad input, refused by make compare's first step (--check).
# refused NAME WANT ENV...: run-compare.sh --check under ENV exits 2 saying WANT.
refused() {
	r_name=$1 r_want=$2
	shift 2
	if env "$@" "$top/bench/host/run-compare.sh" "$top" "$build" --check > "$out/input.log" 2>&1; then
		fail "input: $r_name accepted"
	else
		expect "input: $r_name refused: $r_want" grep -qF "$r_want" "$out/input.log"
	fi
}
refused "no PATCHES" "PATCHES is not set" PATCHES=
refused "missing PATCHES" "PATCHES=/nonexistent: no such file" PATCHES=/nonexistent
refused "missing BASE" "BASE=/nonexistent: no such file" PATCHES="$fixtures/comment-only" BASE=/nonexistent
refused "REPEAT" "make compare repeats by BOOTS" PATCHES="$fixtures/comment-only" REPEAT=2
refused "a bad ACCEL" "unknown accelerator 'warp'" PATCHES="$fixtures/comment-only" ACCEL=warp

# 1. A patch that does not apply: refused, named, before any build.
mkdir -p "$out/bad"
sed 's/^ select_insn:$/ select_insn_elsewhere:/' "$fixtures"/dispatch-nops/0001-*.patch > "$out/bad/0001-does-not-apply.patch"
if env PATCHES="$out/bad" ACCEL=icount "$top/bench/host/run-compare.sh" "$top" "$build" > "$out/bad.log" 2>&1; then
	fail "refusal: a patch that does not apply was accepted"
else
	expect "refusal: names the patch and says it does not apply" \
		grep -q '0001-does-not-apply.patch does not apply to ' "$out/bad.log"
	expect "refusal: git's message follows" grep -q '^    .*patch does not apply' "$out/bad.log"
	expect "refusal: nothing was built" sh -c "! grep -q '^\[kernel\]\|^\[module\]' '$out/bad.log'"
fi

# 2. The dispatch fixture under icount: delta = 3 x executed eBPF insns.
compare dispatch "$fixtures/dispatch-nops" icount 1 "$short"
if [ -n "$run" ]; then
	c=$run/compare.csv
	# shellcheck disable=SC2016 # awk's fields
	# +-1: the timer, or one guest interrupt in a sample of 2048 calls
	# (results/mkcompare.c IRQ_INSNS)
	expect "dispatch: every new and new2014 cell: delta = 3 x vm_insns exactly (+-1), slower" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["engine"]) == "new" || $(c["engine"]) == "new2014" {
			n++; d = $(c["delta"]) - 3 * $(c["vm_insns"]); if (d < 0) d = -d
			if (d > 1 || $(c["vm_insns"]) == "" || $(c["verdict"]) != "slower") bad++ }
		END { exit bad || n < 8 }' "$c"
	# shellcheck disable=SC2016
	expect "dispatch: old, oldjit, jit and the loop unchanged on every cell" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["engine"]) != "new" && $(c["engine"]) != "new2014" {
			n++; if ($(c["verdict"]) !~ /^within \+-/) bad++ }
		END { exit bad || n < 12 }' "$c"
	d=$(get "$c" delta engine=new filter=fprog1 skbs=1)
	expect "dispatch: new fprog1: +$d insns per call = 3 x 58" \
		awk -v d="$d" 'BEGIN { exit !(d > 173.5 && d < 174.5) }'
	cover=$run/series/0000-cover-letter.patch
	expect "dispatch: the series has the cover letter and the patch" \
		test -s "$cover" -a -s "$(find "$run/series" -name '0001-*.patch' | head -n 1)"
	if git mailinfo "$out/msg" "$out/patch" < "$cover" > "$out/info" 2>&1; then
		pass "dispatch: git mailinfo accepts the cover letter"
		expect "dispatch: the cover letter's text is the summary" grep -q '^    8 cells slower, 0 faster, 16 within the counted noise' "$out/msg"
		expect "dispatch: the table is below the --- line" grep -q '^accel=icount: ' "$out/patch"
		expect "dispatch: no table above it" sh -c "! grep -q '^accel=icount: ' '$out/msg'"
	else
		fail "dispatch: git mailinfo accepts the cover letter"
	fi
	if command -v gnuplot > /dev/null; then
		expect "dispatch: the plot" test -s "$run/plots/compare-icount.svg"
	fi
fi

# icount_within WHAT CSV: every icount row of compare.csv CSV (20 or more)
# is within the counted noise: a change that moves no instruction.
icount_within() {
	# shellcheck disable=SC2016
	expect "$1: every icount delta is within the counted noise" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["accel"]) == "icount" { n++; if ($(c["verdict"]) !~ /^within \+-/) bad++ }
		END { exit bad || n < 20 }' "$2"
}

# 3. The comment fixture: nothing changes, counted; and the kvm path
# under nested TCG (kvm-nested: 3 boots of each kernel, interleaved),
# whose figures are a test, not timing: every verdict "not measurable".
compare comment "$fixtures/comment-only" "icount kvm-nested" 3 "$short bench.perf=0"
if [ -n "$run" ]; then
	c=$run/compare.csv
	icount_within comment "$c"
	# shellcheck disable=SC2016
	expect "comment: every kvm-nested verdict is not measurable (a test of the kvm path)" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["accel"]) == "kvm-nested" { n++; if ($(c["verdict"]) != "not measurable" || $(c["blocks"]) != 2) bad++ }
		END { exit bad || n < 20 }' "$c"
	expect "comment: the summary says the kvm-nested cells are not measurable" \
		grep -q "^    [0-9]* cells, not measurable$" "$run/summary.txt"
fi

# 3b. The layout fixture: code moves, none changes.  Counted: nothing.
# Timed (uml): 8 blocks, each a code-layout variant seed both kernels
# were relinked with (4 of each build); the classic interpreter lands 48
# bytes later in every variant of the patched kernel (64 in those with
# every function on a 64-byte line).  Under the null the Holm-adjusted
# p of a table is below 0.001 at most 0.1% of the time.
compare layout "$fixtures/layout-shift" "icount uml" 9 "$short bench.perf=0" \
	LAYOUT_SEEDS="101 102 103 104 105 106 107 108"
if [ -n "$run" ]; then
	c=$run/compare.csv
	icount_within layout "$c"
	# shellcheck disable=SC2016
	expect "layout: sk_run_filter 48 bytes later in the patched kernel in the 4 variants of um, 64 in the 4 of um-align64" sh -c '
		n=0 m=0
		for h in "$1"/baseline/uml/boot-*/host.txt; do
			p=$(echo "$h" | sed "s|/baseline/|/patched/|")
			a=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$h"); b=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$p")
			[ -n "$a" ] && [ -n "$b" ] || exit 1
			case "$(sed -n "s/^layout_build=//p" "$h")/$(sed -n "s/^layout_build=//p" "$p")" in
			um/um) [ $((0x$b - 0x$a)) = 48 ] || exit 1; n=$((n + 1)) ;;
			um-align64/um-align64) [ $((0x$b - 0x$a)) = 64 ] || exit 1; m=$((m + 1)) ;;
			*) exit 1 ;;
			esac
		done
		[ "$n" = 4 ] && [ "$m" = 4 ]' sh "$run"
	# shellcheck disable=SC2016
	expect "layout: uml, 8 blocks of layout variants: no cell shows a difference at family-wise 0.1% (Holm)" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["accel"]) == "uml" { n++
			if ($(c["p_holm"]) == "" || $(c["p_holm"]) < 0.001 || $(c["blocks"]) != 8 ||
			    $(c["block_kind"]) != "layout variants") bad++ }
		END { exit bad || n < 6 }' "$c"
	expect "layout: the uml table says its verdicts are Holm-adjusted, with the change it detects" \
		grep -q 'detects: the change this many blocks' "$run/compare.txt"
fi

# 4. A patch that breaks the interpreter's verdicts: the run fails, its
# INCOMPLETE naming the engine and the cell.
if env RESULTS_DIR="$out/breaks" PATCHES="$fixtures/breaks-verdict" ACCEL=icount \
	BENCH_ARGS="$short bench.perf=0" "$top/bench/host/run-compare.sh" "$top" "$build" > "$out/breaks.log" 2>&1; then
	fail "breaks-verdict: a patch that breaks the verdicts passed"
else
	inc=$(find "$out/breaks" -name INCOMPLETE | head -n 1)
	expect "breaks-verdict: the run is marked incomplete" test -s "$inc"
	expect "breaks-verdict: the reason names the patched kernel's engine new and cell fprog1 skbs=1" \
		grep -q 'cell [0-9]*/[0-9]*: engine=new filter=fprog1 skbs=1: bpf_bench: run: new returned' "$inc"
	expect "breaks-verdict: the baseline's boot passed" grep -q 'icount guest plan=bench ok' "$out/breaks.log"
fi

test_summary
