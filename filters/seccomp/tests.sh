#!/bin/sh
# tests.sh - host tests of filters/seccomp (run by: make -C filters/seccomp check)
#
#   [SECCOMP_ARCHES="x86_64 i386 arm"] [RUN_i386=qemu-i386] [RUN_arm=qemu-arm] \
#       sh tests.sh BUILDDIR SCRATCHDIR
#
# BUILDDIR holds mkseccomp-<arch> for the archs of SECCOMP_ARCHES, sceval
# and seccomp-bench (the host's; seccomp-bench-<arch> builds are used when
# present).  RUN_<arch> runs that arch's static builds (default: directly
# for the host's arch, else qemu-user's qemu-<arch>; empty: directly).  Prints one line per test, "PASS: ..."
# or "FAIL: ..." ("SKIP: ..." when a tool is missing), then "N passed,
# N failed"; exit 1 if any test failed.
#
# Nothing is installed into the host kernel: the seccomp-bench --verdict and
# --prove-uncached checks run inside the guest (bench/guest/plan-check.sh),
# each arch's in its own guest.
set -eu

[ $# -eq 2 ] || { echo "usage: tests.sh BUILDDIR SCRATCHDIR" >&2; exit 2; }
B=$1
T=$2
SRC=$(cd "$(dirname "$0")" && pwd)
EV=$B/sceval
SB=$B/seccomp-bench
SECCOMP_ARCHES=${SECCOMP_ARCHES:-x86_64 i386 arm}
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

# --- the archs -----------------------------------------------------------

# suffix ARCH: of its filter files (short<suffix>.bpf); verdicts_of ARCH:
# its verdicts file, whose lines name the filters short and large.
suffix() { echo "-$1"; }
verdicts_of() {
	echo "$SRC/verdicts$(suffix "$1").txt"
}

# run_of ARCH: what runs that arch's builds (RUN_<arch>).
run_of() {
	if eval "[ -n \"\${RUN_$1+set}\" ]"; then
		eval "echo \"\$RUN_$1\""
	elif [ "$1" != "$(uname -m)" ]; then
		echo "qemu-$1"
	fi
}

# mk ARCH ARGS...: that arch's mkseccomp.
mk() {
	mk_arch=$1
	shift
	# shellcheck disable=SC2046 # RUN_* is a command with its arguments
	$(run_of "$mk_arch") "$B/mkseccomp-$mk_arch" "$@"
}

# NR_syscalls of 6.1 per arch: the action cache's bitmap bound.
nr_syscalls() {
	case $1 in
	x86_64 | i386) echo 451 ;;
	arm) echo 452 ;;
	esac
}

# bits ARCH: the width of a syscall argument.
bits() {
	case $1 in
	x86_64) echo 64 ;;
	*) echo 32 ;;
	esac
}

# --- design facts (what the filters are meant to be) ----------------------

# Program length in instructions (libseccomp 2.5.4).  32-bit filters compare
# the low word of an argument only, and have no x32 check.
expected_insns() {
	case $1 in
	short-x86_64) echo 15 ;;
	large-x86_64) echo 1225 ;;
	short-i386 | short-arm) echo 11 ;;
	large-i386 | large-arm) echo 718 ;;
	*) echo none ;;
	esac
}

# Distinct syscalls with rules (libseccomp's pfc "filter for syscall" blocks):
# large has 1, 4, 1000, 100..199 and the harness syscalls that are not 1
# or 4 (x86_64: clock_gettime, exit_group; i386, arm: also clock_gettime64).
expected_syscalls() {
	case $1 in
	short*) echo 2 ;;
	large-x86_64) echo 105 ;;
	large-i386 | large-arm) echo 106 ;;
	*) echo none ;;
	esac
}

# The benchmarked call per filter: "NR ARG DENY_ARG INSNS DENY_INSNS" --
# syscall(NR, ARG) is timed and is ALLOWed after INSNS executed
# instructions; the same NR with a0 = DENY_ARG (its deny twin, used by
# --prove-uncached) is denied after DENY_INSNS.
bench_call() {
	case $1 in
	short-x86_64) echo "199 100 0 11 11" ;;
	large-x86_64) echo "199 100 0 115 115" ;;
	short-i386 | short-arm) echo "199 100 0 8 8" ;;
	large-i386 | large-arm) echo "199 100 0 113 113" ;;
	*) echo none ;;
	esac
}

# bench_vars FILTER: set BNR BARG BDENY BINSNS BDINSNS from bench_call
bench_vars() {
	read -r BNR BARG BDENY BINSNS BDINSNS <<EOF2
$(bench_call "$1")
EOF2
}

# The action of the deny twin.
deny_action() {
	case $1 in
	short*) echo "ERRNO(1)" ;;
	large*) echo KILL_PROCESS ;;
	esac
}

# Syscalls (< NR_syscalls) the 6.1 action cache would pre-allow (the filter
# never runs for them).
expected_cache() {
	case $1 in
	short-x86_64) seq 0 450 | grep -v -x -e 110 -e 199 ;;
	large-x86_64) printf '%s\n' 1 4 228 231 ;;
	short-i386) seq 0 450 | grep -v -x -e 64 -e 199 ;;
	large-i386) printf '%s\n' 1 4 252 265 403 ;;
	short-arm) seq 0 451 | grep -v -x -e 64 -e 199 ;;
	large-arm) printf '%s\n' 1 4 248 263 403 ;;
	esac
}

# The harness syscalls large must allow unconditionally, by the numbers of
# the kernel's own tables (arch/x86/entry/syscalls/syscall_{64,32}.tbl,
# arch/arm/tools/syscall.tbl): "name nr" lines, with the 05 rules' 1 and 4
# (x86_64: write, stat; i386, arm: exit, write).
harness() {
	case $1 in
	x86_64) printf '%s\n' "write 1" "stat 4" "clock_gettime 228" "exit_group 231" ;;
	i386) printf '%s\n' "exit 1" "write 4" "clock_gettime 265" "clock_gettime64 403" \
		"exit_group 252" ;;
	arm) printf '%s\n' "exit 1" "write 4" "clock_gettime 263" "clock_gettime64 403" \
		"exit_group 248" ;;
	esac
}

# nr_of ARCH NAME: a syscall that seccomp-bench may make after its filter is
# on, by qemu -strace's name ("?" for any other).
nr_of() {
	case $1:$2 in
	x86_64:fremovexattr | i386:getuid32 | arm:getuid32) echo 199 ;;
	*:write | *:clock_gettime | *:clock_gettime64 | *:exit_group)
		harness "$1" | awk -v n="$2" '$1 == n { print $2 }' ;;
	*) echo "?" ;;
	esac
}

# Argument cases beyond a0 of 05-sim-long_jumps' chains on syscall 1000
# (a0 == i, a1 != 0, a2 < SSIZE_MAX of the arch) and the a0 word split:
# "NR A0 A1 A2:ACTION".
arg_cases() {
	set -- "1000 5 1 0:ALLOW" "1000 99 1 7:ALLOW" "1000 0 1 0:ALLOW" \
		"1000 5 0 0:KILL_PROCESS" "1000 100 1 0:KILL_PROCESS"
	printf '%s\n' "$@"
	case $(bits "$ARCH") in
	64) printf '%s\n' "1000 5 1 9223372036854775806:ALLOW" \
		"1000 5 1 9223372036854775807:KILL_PROCESS" \
		"1000 5 4294967296 0:ALLOW" "1000 4294967301 1 0:KILL_PROCESS" ;;
	32) printf '%s\n' "1000 5 1 2147483646:ALLOW" "1000 5 1 2147483647:KILL_PROCESS" \
		"1000 5 1 4294967295:KILL_PROCESS" "1000 5 4294967295 0:ALLOW" ;;
	esac
}

for tool in "$EV" "$SB"; do
	[ -x "$tool" ] || { echo "tests.sh: $tool missing (make -C filters/seccomp tools)" >&2; exit 2; }
done

# --- sceval's arch table ------------------------------------------------------

eq "$("$EV" --arches | tr '\n' ' ')" \
	"x86_64 0xc000003e 451 64 i386 0x40000003 451 32 arm 0x40000028 452 32 " \
	"sceval --arches: AUDIT_ARCH, 6.1 NR_syscalls and argument width of x86_64, i386, arm"

for ARCH in $SECCOMP_ARCHES; do
	sfx=$(suffix "$ARCH")
	VERDICTS=$(verdicts_of "$ARCH")
	filters=$(mk "$ARCH" --list)

	# --- regeneration ----------------------------------------------------

	mkdir -p "$T/gen-$ARCH"
	st=0; mk "$ARCH" "$T/gen-$ARCH" || st=1
	ok "$st" "$ARCH: mkseccomp regenerates the filters"
	eq "$(echo "$filters" | tr '\n' ' ')" "short$sfx large$sfx " "$ARCH: mkseccomp --list"
	for f in $filters; do
		for e in bpf dd pfc; do
			st=0; cmp -s "$T/gen-$ARCH/$f.$e" "$SRC/$f.$e" || st=1
			ok "$st" "$f.$e: regenerated file is identical to the committed one"
		done
	done

	# --- the programs ----------------------------------------------------

	for f in $filters; do
		bpf=$SRC/$f.bpf
		size=$(wc -c <"$bpf" | tr -d ' ')
		n=$((size / 8))
		st=0; [ $((size % 8)) -eq 0 ] || st=1
		ok "$st" "$f.bpf: size $size is a multiple of 8 (struct sock_filter)"
		st=0; [ "$n" -ge 1 ] && [ "$n" -le 4096 ] || st=1
		ok "$st" "$f.bpf: length $n in 1..4096 (BPF_MAXINSNS)"
		eq "$n" "$(expected_insns "$f")" "$f.bpf: instruction count"
		# last insn: code (u16, little endian on all three), class RET = 6
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

	# --- the verdicts file -----------------------------------------------

	vname=$(basename "$VERDICTS")
	st=0
	grep -v -e '^#' -e '^[[:space:]]*$' "$VERDICTS" >"$T/verdicts-$ARCH" || st=1
	ok "$st" "$vname has entries"
	bad=$(awk 'NF != 4 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ ||
		$4 !~ /^(ALLOW|KILL_PROCESS|KILL_THREAD|TRAP|LOG|USER_NOTIF|ERRNO\([0-9]+\)|TRACE\([0-9]+\))$/' \
		"$T/verdicts-$ARCH")
	eq "$bad" "" "$vname: every line is '<filter> <nr> <arg0> <ACTION>'"
	if [ "$(bits "$ARCH")" = 32 ]; then
		eq "$(awk '$3 > 4294967295' "$T/verdicts-$ARCH")" "" \
			"$vname: every arg0 fits the arch's 32-bit registers"
	fi
	for g in short large; do
		st=0; grep -q "^$g " "$T/verdicts-$ARCH" || st=1
		ok "$st" "$vname covers filter $g ($g$sfx.bpf)"
		bench_vars "$g$sfx"
		st=0; grep -q -x "$g $BNR $BARG ALLOW" "$T/verdicts-$ARCH" || st=1
		ok "$st" "$vname has the benchmarked call of $g: syscall($BNR, $BARG) ALLOW"
		st=0; grep -q -x "$g $BNR $BDENY $(deny_action "$g")" "$T/verdicts-$ARCH" || st=1
		ok "$st" "$vname has the denied twin of $g's benchmarked call: syscall($BNR, $BDENY) $(deny_action "$g")"
	done
	unknown=$(awk '$1 != "short" && $1 != "large" { printf "%s ", $1 }' "$T/verdicts-$ARCH")
	eq "$unknown" "" "$vname names only the filters short and large"

	# --- the evaluator agrees with the verdicts --------------------------

	while read -r g nr a0 want; do
		got=$("$EV" --arch "$ARCH" "$SRC/$g$sfx.bpf" "$nr" "$a0" 2>&1) || true
		eq "${got% insns=*}" "$want" "sceval: $g$sfx syscall($nr, $a0) -> $want"
	done <"$T/verdicts-$ARCH"

	# Path lengths of the benchmarked call and its deny twin.
	for f in $filters; do
		bench_vars "$f"
		eq "$("$EV" --arch "$ARCH" "$SRC/$f.bpf" "$BNR" "$BARG")" "ALLOW insns=$BINSNS" \
			"sceval: $f benchmarked syscall($BNR, $BARG) is ALLOWed after $BINSNS insns"
		eq "$("$EV" --arch "$ARCH" "$SRC/$f.bpf" "$BNR" "$BDENY")" \
			"$(deny_action "$f") insns=$BDINSNS" \
			"sceval: $f deny twin syscall($BNR, $BDENY) is $(deny_action "$f") after $BDINSNS insns"
	done

	# The 05 rules beyond arg0, and the harness syscalls by number.
	L=$SRC/large$sfx.bpf
	arg_cases >"$T/cases-$ARCH"
	while IFS=: read -r args want; do
		# shellcheck disable=SC2086 # word splitting of the argument list is intended
		got=$("$EV" --arch "$ARCH" "$L" $args) || true
		eq "${got% insns=*}" "$want" "sceval: large$sfx syscall($(echo "$args" | tr ' ' ',')) -> $want"
	done <"$T/cases-$ARCH"
	harness "$ARCH" >"$T/harness-$ARCH"
	while read -r name nr; do
		got=$("$EV" --arch "$ARCH" "$L" "$nr" 0) || true
		eq "${got% insns=*}" ALLOW "sceval: large$sfx allows $name ($nr) unconditionally"
	done <"$T/harness-$ARCH"

	# Arch checks: every other arch is killed at the arch check; x86_64
	# kills x32 calls, the 32-bit filters have no x32 bit.
	for f in $filters; do
		for other in x86_64 i386 arm; do
			[ "$other" != "$ARCH" ] || continue
			eq "$("$EV" --arch "$other" "$SRC/$f.bpf" 199 100)" "KILL_PROCESS insns=3" \
				"sceval: $f kills a $other call at the arch check"
		done
	done
	case $ARCH in
	x86_64) want=KILL_PROCESS ;;
	*) want=ALLOW ;;
	esac
	got=$("$EV" --arch "$ARCH" "$SRC/short$sfx.bpf" 1073741863 0) || true
	eq "${got% insns=*}" "$want" "sceval: short$sfx syscall(0x40000027) (x32 bit) -> $want"
	if [ "$(bits "$ARCH")" = 32 ]; then
		st=0; "$EV" --arch "$ARCH" "$SRC/short$sfx.bpf" 199 4294967296 >/dev/null 2>&1 || st=$?
		eq "$st" 2 "sceval: an $ARCH argument above 32 bits is refused (exit 2)"
	fi

	# --- the 6.1 action cache ------------------------------------------

	for f in $filters; do
		"$EV" --cache --arch "$ARCH" "$SRC/$f.bpf" >"$T/$f.cache"
		expected_cache "$f" >"$T/$f.cache.want"
		st=0; cmp -s "$T/$f.cache" "$T/$f.cache.want" || st=1
		ok "$st" "cache emulation: $f pre-allows exactly the expected syscalls ($(wc -l <"$T/$f.cache" | tr -d ' ') of $(nr_syscalls "$ARCH"))"
		bench_vars "$f"
		st=0; ! grep -q -x "$BNR" "$T/$f.cache" || st=1
		ok "$st" "cache emulation: $f's benchmarked syscall $BNR is NOT cached (its filter path loads a0)"
	done

	# --- what seccomp-bench calls once the filter is on -------------------
	# Its build for the arch under qemu-user -strace, without a filter
	# (qemu-user has no seccomp(2)): every syscall from its first benchmark
	# call on -- what it makes with the filter on -- must be allowed by
	# large (sceval).  qemu-user has no vDSO: clock_gettime is a syscall.

	case $ARCH in
	x86_64) sb=$SB qemu=qemu-x86_64 ;;
	*) sb=$B/seccomp-bench-$ARCH qemu=qemu-$ARCH ;;
	esac
	if [ ! -x "$sb" ] || ! command -v "$qemu" >/dev/null 2>&1; then
		skip "$ARCH: seccomp-bench's syscalls under $qemu -strace ($sb or $qemu missing)"
		continue
	fi
	st=0
	"$qemu" -strace "$sb" none 199 100 3 2>"$T/strace-$ARCH" >/dev/null || st=1
	ok "$st" "$ARCH: seccomp-bench none 199 100 3 runs under $qemu -strace"
	first=$(awk '$2 ~ /^(getuid32|fremovexattr)\(/ { print NR; exit }' "$T/strace-$ARCH")
	calls=$(tail -n +"${first:-1}" "$T/strace-$ARCH" |
		sed -n -e 's/^[0-9][0-9]* \([a-z_0-9]*\)(.*/\1/p' -e 's/^[0-9][0-9]* \(Unknown syscall [0-9]*\)$/\1/p' |
		sort -u | tr '\n' ' ')
	st=0; [ -n "$first" ] && [ -n "$calls" ] || st=1
	ok "$st" "$ARCH: seccomp-bench's syscalls after its first benchmark call: $calls"
	for name in $calls; do
		nr=$(nr_of "$ARCH" "$name")
		a0=0
		[ "$nr" = 199 ] && a0=100
		got=FAIL
		[ "$nr" = "?" ] || got=$("$EV" --arch "$ARCH" "$L" "$nr" "$a0") || true
		eq "${got% insns=*}" ALLOW "sceval: large$sfx allows seccomp-bench's $name ($nr)"
	done
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
