#!/bin/sh
# tests.sh - host tests of filters/seccomp (run by: make -C filters/seccomp check)
#
#   sh tests.sh BUILDDIR SCRATCHDIR
#
# BUILDDIR holds mkseccomp, sceval and seccomp-bench.  Prints one line per
# test, "PASS: ..." or "FAIL: ..." ("SKIP: ..." when a tool is missing),
# then "N passed, N failed"; exit 1 if any test failed.
#
# Nothing is installed into the host kernel: the seccomp-bench --verdict and
# --prove-uncached checks run inside the guest (bench/guest/plan-check.sh).
set -eu

[ $# -eq 2 ] || { echo "usage: tests.sh BUILDDIR SCRATCHDIR" >&2; exit 2; }
B=$1
T=$2
SRC=$(cd "$(dirname "$0")" && pwd)
MK=$B/mkseccomp
EV=$B/sceval
SB=$B/seccomp-bench
VERDICTS=$SRC/verdicts.txt
export LC_ALL=C

# The project's one test protocol (pass, fail, skip, ok, test_summary).
# shellcheck disable=SC2034 # read by testlib.sh
TEST_TMP=0
# shellcheck source=bench/host/testlib.sh
. "$SRC/../../bench/host/testlib.sh"
# eq GOT WANT DESCRIPTION
eq() {
	if [ "$1" = "$2" ]; then pass "$3"; else fail "$3 (got '$1', want '$2')"; fi
}

rm -rf "$T"
mkdir -p "$T"

# --- design facts (what the filters are meant to be) ----------------------

# Program length in instructions (libseccomp 2.5.4).
expected_insns() {
	case $1 in
	short) echo 15 ;;
	large) echo 1225 ;;
	*) echo none ;;
	esac
}

# Distinct syscalls with rules (libseccomp's pfc "filter for syscall" blocks).
expected_syscalls() {
	case $1 in
	short) echo 2 ;;
	large) echo 105 ;;
	*) echo none ;;
	esac
}

# The benchmarked call per filter: "NR ARG DENY_ARG INSNS" -- syscall(NR, ARG)
# is timed, is ALLOWed after INSNS executed instructions, and the same NR
# with a0 = DENY_ARG is denied (used by --prove-uncached).
bench_call() {
	case $1 in
	short) echo "199 100 0 11" ;;
	large) echo "199 100 0 115" ;;
	*) echo none ;;
	esac
}

# bench_vars FILTER: set BNR BARG BDENY BINSNS from bench_call
bench_vars() {
	read -r BNR BARG BDENY BINSNS <<EOF2
$(bench_call "$1")
EOF2
}

# Syscalls (< 451) the 6.1 action cache would pre-allow (filter never runs).
expected_cache() {
	case $1 in
	short) seq 0 450 | grep -v -x -e 110 -e 199 ;;
	large) printf '%s\n' 1 4 228 231 ;;
	esac
}

for tool in "$MK" "$EV" "$SB"; do
	[ -x "$tool" ] || { echo "tests.sh: $tool missing (make -C filters/seccomp tools)" >&2; exit 2; }
done
filters=$("$MK" --list)

# --- regeneration -----------------------------------------------------------

mkdir -p "$T/gen"
st=0; "$MK" "$T/gen" || st=1
ok "$st" "mkseccomp regenerates the filters"
for f in $filters; do
	for e in bpf dd pfc; do
		st=0; cmp -s "$T/gen/$f.$e" "$SRC/$f.$e" || st=1
		ok "$st" "$f.$e: regenerated file is identical to the committed one"
	done
done

# --- the programs -------------------------------------------------------------

for f in $filters; do
	bpf=$SRC/$f.bpf
	size=$(wc -c <"$bpf" | tr -d ' ')
	n=$((size / 8))
	st=0; [ $((size % 8)) -eq 0 ] || st=1
	ok "$st" "$f.bpf: size $size is a multiple of 8 (struct sock_filter)"
	st=0; [ "$n" -ge 1 ] && [ "$n" -le 4096 ] || st=1
	ok "$st" "$f.bpf: length $n in 1..4096 (BPF_MAXINSNS)"
	eq "$n" "$(expected_insns "$f")" "$f.bpf: instruction count"
	# last insn: code (u16, host order = little endian on x86_64), class RET = 6
	code=$(od -An -tu2 -j $((size - 8)) -N2 "$bpf" | tr -d ' ')
	eq "$((code & 7))" 6 "$f.bpf: last instruction is RET"
	eq "$("$EV" --check "$bpf" 2>&1)" "ok insns=$n" \
		"$f.bpf: passes the kernel's classic/seccomp checks (sceval --check)"
	"$EV" --dd "$bpf" >"$T/$f.dd"
	st=0; cmp -s "$T/$f.dd" "$SRC/$f.dd" || st=1
	ok "$st" "$f.dd: is $f.bpf in tcpdump -dd form"
	eq "$(grep -c '^{ 0x[0-9a-f]*, [0-9]*, [0-9]*, 0x[0-9a-f]\{8\} },$' "$SRC/$f.dd")" "$n" \
		"$f.dd: $n lines of '{ 0x.., jt, jf, 0x........ },'"
	eq "$(grep -c 'filter for syscall' "$SRC/$f.pfc")" "$(expected_syscalls "$f")" \
		"$f.pfc: libseccomp lists the expected number of syscalls with rules"
done

# --- verdicts.txt ------------------------------------------------------------

st=0
grep -v -e '^#' -e '^[[:space:]]*$' "$VERDICTS" >"$T/verdicts" || st=1
ok "$st" "verdicts.txt has entries"
bad=$(awk 'NF != 4 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ ||
	$4 !~ /^(ALLOW|KILL_PROCESS|KILL_THREAD|TRAP|LOG|USER_NOTIF|ERRNO\([0-9]+\)|TRACE\([0-9]+\))$/' \
	"$T/verdicts")
eq "$bad" "" "verdicts.txt: every line is '<filter> <nr> <arg0> <ACTION>'"
for f in $filters; do
	st=0; grep -q "^$f " "$T/verdicts" || st=1
	ok "$st" "verdicts.txt covers filter $f"
	bench_vars "$f"
	st=0; grep -q -x "$f $BNR $BARG ALLOW" "$T/verdicts" || st=1
	ok "$st" "verdicts.txt has the benchmarked call of $f: syscall($BNR, $BARG) ALLOW"
	st=0; grep -q "^$f $BNR $BDENY " "$T/verdicts" || st=1
	ok "$st" "verdicts.txt has the denied twin of $f's benchmarked call: syscall($BNR, $BDENY)"
done
unknown=$(awk '{print $1}' "$T/verdicts" | sort -u | while read -r f; do
	printf '%s\n' "$filters" | grep -q -x "$f" || printf '%s ' "$f"; done)
eq "$unknown" "" "verdicts.txt names only known filters"

# --- the evaluator agrees with verdicts.txt ----------------------------------

while read -r f nr a0 want; do
	got=$("$EV" "$SRC/$f.bpf" "$nr" "$a0" 2>&1) || true
	eq "${got% insns=*}" "$want" "sceval: $f syscall($nr, $a0) -> $want"
done <"$T/verdicts"

# Path lengths of the benchmarked calls (instructions executed by the filter).
for f in $filters; do
	bench_vars "$f"
	eq "$("$EV" "$SRC/$f.bpf" "$BNR" "$BARG")" "ALLOW insns=$BINSNS" \
		"sceval: $f benchmarked syscall($BNR, $BARG) is ALLOWed after $BINSNS insns"
done

# Rules beyond arg0 (05-sim-long_jumps' chains on syscall 1000: a0 == i,
# a1 != 0, a2 < SSIZE_MAX) and the arch check.
L=$SRC/large.bpf
for c in "1000 5 1 0:ALLOW" "1000 99 1 7:ALLOW" "1000 0 1 0:ALLOW" \
	"1000 5 0 0:KILL_PROCESS" "1000 100 1 0:KILL_PROCESS" \
	"1000 5 1 9223372036854775806:ALLOW" "1000 5 1 9223372036854775807:KILL_PROCESS" \
	"1000 5 4294967296 0:ALLOW" "1000 4294967301 1 0:KILL_PROCESS"; do
	args=${c%:*}
	want=${c#*:}
	# shellcheck disable=SC2086 # word splitting of the argument list is intended
	got=$("$EV" "$L" $args) || true
	eq "${got% insns=*}" "$want" "sceval: large syscall($(echo "$args" | tr ' ' ',')) -> $want"
done
for f in $filters; do
	# i386 (AUDIT_ARCH_I386 = 0x40000003): bad arch, killed after 3 insns
	eq "$("$EV" --arch 0x40000003 "$SRC/$f.bpf" 199 100)" "KILL_PROCESS insns=3" \
		"sceval: $f kills a foreign-arch (i386) call at the arch check"
done

# --- the 6.1 action cache ----------------------------------------------------

for f in $filters; do
	"$EV" --cache "$SRC/$f.bpf" >"$T/$f.cache"
	expected_cache "$f" >"$T/$f.cache.want"
	st=0; cmp -s "$T/$f.cache" "$T/$f.cache.want" || st=1
	ok "$st" "cache emulation: $f pre-allows exactly the expected syscalls ($(wc -l <"$T/$f.cache" | tr -d ' ') of 451)"
	bench_vars "$f"
	st=0; ! grep -q -x "$BNR" "$T/$f.cache" || st=1
	ok "$st" "cache emulation: $f's benchmarked syscall $BNR is NOT cached (its filter path loads a0)"
done

# --- seccomp-bench, no filter ----------------------------------------------

out=$("$SB" none 199 100 1000 2>&1) || true
st=0
printf '%s\n' "$out" | grep -q -x 'filter=none nr=199 calls=1000 seconds=[0-9]*\.[0-9]\{6\} ns_per_call=[0-9]*\.[0-9]\{3\}' || st=1
ok "$st" "seccomp-bench none 199 100 1000 prints the result line ($out)"
st=0; "$SB" "$T/no-such.bpf" 199 100 10 >/dev/null 2>&1 || st=$?
eq "$st" 2 "seccomp-bench: a missing filter file is a usage error (exit 2)"
printf 'abc' >"$T/odd.bpf"
st=0; "$SB" --verdict "$T/odd.bpf" 199 100 >/dev/null 2>&1 || st=$?
eq "$st" 2 "seccomp-bench: a file that is not a sock_filter array is refused (exit 2)"

# --- the scripts themselves ------------------------------------------------

if command -v shellcheck >/dev/null 2>&1; then
	st=0; (cd "$SRC/../.." && shellcheck -x -s sh filters/seccomp/tests.sh) || st=1
	ok "$st" "shellcheck tests.sh"
else
	skip "shellcheck not installed"
fi

test_summary
