#!/bin/sh
# The debug kernel's plan (flavour debug: KASAN, UBSAN, lockdep,
# DEBUG_ATOMIC_SLEEP, kmemleak, slub_debug): correctness only, no timing.
#
#  1. the kernel really has its detectors, and booted without a report;
#  2. the check plan (plan-check.sh, with the differential test
#     plan-diff.sh) as on every other kernel;
#  3. knobfuzz: BENCH_FUZZ_WRITES writes over every knob, from several
#     processes, with BENCH_FUZZ_RELOADS module unload/reload cycles;
#  4. the regression cases of filters/diff/cases.txt (bpfdiff cases: the
#     nla-nest-* walks past the skb head among them) and
#     BENCH_DIFF_RANDOM generated programs (bpfdiff run random:SEED:N) on
#     every engine;
#  5. bpfdiff fuzz: BENCH_FUZZ_PAIRS (program, packet, headlen) pairs of
#     generated programs on every engine, linear and non-linear skbs;
#  6. the module unloaded, a kmemleak scan, and the whole kernel log (read
#     from /proc/kmsg since boot) searched for BUG, WARNING, KASAN, UBSAN,
#     lockdep and kmemleak reports.
#
# Writes PASS:/FAIL: lines to $out/tests.txt and the counts to
# $out/debug.txt, one "key=value ..." line per step:
#   knobfuzz: writes=N refused=N mismatches=N errno_mismatches=N ...
#   cases: cases=N nla=N unexplained=N
#   bpfdiff: pairs=N agree=N documented=N unexplained=N
#   reports: reports=N bug=N warning=N kasan=N ubsan=N lockdep=N oops=N kmemleak=N
# Options (bench.fuzz_KEY=VALUE): BENCH_FUZZ_SEED (1), BENCH_FUZZ_WRITES
# (3000), BENCH_FUZZ_PAIRS (5000), BENCH_FUZZ_RELOADS (2),
# BENCH_FUZZ_SECONDS (the bpfdiff fuzz's time limit, 1800), BENCH_FUZZ_CHECK
# (0: no check plan); the check plan's BENCH_DIFF_RANDOM and BENCH_DIFF_FUZZ
# as for plan-diff.sh.
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh

results=$out/tests.txt
: > "$results"
# shellcheck disable=SC2034 # read by testlib.sh
TEST_LOG=$results TEST_TMP=0
# shellcheck source=/dev/null
. /bench/testlib.sh
counts=$out/debug.txt
: > "$counts"
seed=${BENCH_FUZZ_SEED:-1}
writes=${BENCH_FUZZ_WRITES:-3000}
pairs=${BENCH_FUZZ_PAIRS:-5000}
reloads=${BENCH_FUZZ_RELOADS:-2}
limit=${BENCH_FUZZ_SECONDS:-1800}
t0=$(date +%s)
step() { say "debug: $* (at $(($(date +%s) - t0)) s)"; }

# The whole kernel log from boot on, whatever later clears the ring
# buffer (plan-diff.sh's dmesg -c) or overwrites it.
cat /proc/kmsg > "$out/kernel.log" &
kmsg=$!

step "1/6 kmemleak: the boot's leaks"
KMEMLEAK=/sys/kernel/debug/kmemleak
# What the boot itself left: leaks found now are the kernel's, not ours,
# and are cleared (reported as boot_leaks); every later one counts.
echo scan > "$KMEMLEAK" || true
boot_leaks=$(grep -c '^unreferenced object' "$KMEMLEAK" || true)
cat "$KMEMLEAK" > "$out/kmemleak-boot.txt" 2>/dev/null || true
echo clear > "$KMEMLEAK" || true
say "debug: kmemleak after boot: $boot_leaks suspected leaks (cleared)"

if [ "${BENCH_FUZZ_CHECK:-1}" = 1 ]; then
	step "2/6 the check plan"
	BENCH_DIFF_RANDOM=${BENCH_DIFF_RANDOM:-40} BENCH_DIFF_FUZZ=${BENCH_DIFF_FUZZ:-5} \
		/bench/plan-check.sh "$out" || fail "guest: debug: plan-check.sh ran to the end"
else
	step "2/6 the check plan: left out (bench.fuzz_check=0)"
fi
# plan-check.sh starts tests.txt afresh: the detectors are tested after it.
expect "guest: debug: kmemleak is on" test -w "$KMEMLEAK"
expect "guest: debug: lockdep is on (/proc/lockdep)" test -r /proc/lockdep
expect "guest: debug: KASAN is on" grep -q "KernelAddressSanitizer initialized" "$out/kernel.log"
expect "guest: debug: slub_debug is on" grep -q "slub_debug=FZPU" /proc/cmdline

step "3/6 knobfuzz: $writes writes, $reloads reloads (seed $seed)"
if [ ! -d "$KNOBS" ]; then load_bench_module || true; fi
if r=$(/bench/knobfuzz -s "$seed" -n "$writes" -c "$reloads" -j 4 \
	-m /bench/modules/bpf_bench.ko -f "$FILTERS" 2>&1); then kf=0; else kf=1; fi
echo "$r" > "$out/knobfuzz.txt"
echo "$r" | grep -E '^(MISMATCH|ERRNO)' | head -n 20 >&2 || true
line=$(echo "$r" | grep '^knobfuzz: writes=' | tail -n 1)
echo "$line" >> "$counts"
say "debug: $line"
ok "$kf" "guest: debug: knobfuzz: no mismatch, no errno mismatch, $writes writes made"
kw=$(echo "$line" | sed -n 's/.* writes=\([0-9]*\) .*/\1/p')
expect "guest: debug: knobfuzz made at least $writes writes (${kw:-none})" test "${kw:-0}" -ge "$writes"
# The control: with a wrong model (skbs takes only 0) knobfuzz must fail.
r=$(/bench/knobfuzz -X -s "$seed" -n 300 -c 0 -j 2 -f "$FILTERS" 2>&1) && xf=0 || xf=1
xm=$(echo "$r" | sed -n 's/^knobfuzz: writes=.* mismatches=\([0-9]*\) .*/\1/p')
expect "guest: debug: knobfuzz -X (a wrong model) finds mismatches (${xm:-none})" \
	test "$xf" = 1 -a "${xm:-0}" -gt 0

step "4/6 the regression cases (filters/diff/cases.txt, the nla-nest-* heap walks among them) and the random programs"
if [ ! -d "$KNOBS" ]; then load_bench_module || true; fi
/bench/knob "$KNOBS/headlen" 0 > /dev/null || true
if r=$(/bench/bpfdiff cases "$FILTERS/diff/cases.txt" 2>&1); then cf=0; else cf=1; fi
echo "$r" > "$out/bpfdiff-cases.txt"
echo "$r" | grep -E "^(UNEXPLAINED|  )" | head -n 40 >&2 || true
nc=$(grep -c '^nla-' "$out/bpfdiff-cases.txt" || true)
echo "cases: cases=$(grep -cv '^#' "$FILTERS/diff/cases.txt") nla=$nc unexplained=$(grep -c ' UNEXPLAINED$' "$out/bpfdiff-cases.txt" || true)" >> "$counts"
ok "$cf" "guest: debug: the regression cases: 0 unexplained ($nc nla-nest-* cases among them)"
# the differential test's random programs (random:1:400 held the 6.12 heap
# walks r1-35 and r1-131), linear and at the check's headlens
nrandom=${BENCH_DIFF_RANDOM:-40}
# shellcheck disable=SC2046 # the headlens are words
if r=$(/bench/bpfdiff run "random:$seed:$nrandom" "$FILTERS/diff/packets.txt" "$out/diff-random.txt" \
	$(echo "${BENCH_DIFF_HEADLENS:-14,34,54}" | tr , " ") 2>&1); then rf=0; else rf=1; fi
echo "$r" > "$out/bpfdiff-random.txt"
echo "$r" | grep -E "^(UNEXPLAINED|  )" | head -n 40 >&2 || true
ok "$rf" "guest: debug: $nrandom random programs (seed $seed) on every engine: $(echo "$r" | tail -n 1)"

step "5/6 bpfdiff fuzz: $pairs pairs (seed $seed)"
if [ ! -d "$KNOBS" ]; then load_bench_module || true; fi
/bench/knob "$KNOBS/headlen" 0 > /dev/null || true
if r=$(/bench/bpfdiff fuzz "$seed" "$limit" "$FILTERS/diff/packets.txt" "$pairs" 2>&1); then bf=0; else bf=1; fi
echo "$r" > "$out/bpfdiff-fuzz.txt"
echo "$r" | grep -E "^(UNEXPLAINED|  )" | head -n 40 >&2 || true
sum=$(echo "$r" | tail -n 1)
np=$(echo "$sum" | sed -n 's/.* \([0-9]*\) (program, packet, headlen) pairs compared.*/\1/p')
na=$(echo "$sum" | sed -n 's/.* compared: \([0-9]*\) agree.*/\1/p')
nd=$(echo "$sum" | sed -n 's/.* agree, \([0-9]*\) documented.*/\1/p')
nu=$(echo "$sum" | sed -n 's/.*, \([0-9]*\) unexplained;.*/\1/p')
echo "bpfdiff: pairs=${np:-0} agree=${na:-0} documented=${nd:-0} unexplained=${nu:-none}" >> "$counts"
say "debug: $sum"
ok "$bf" "guest: debug: bpfdiff fuzz: 0 unexplained differences in ${np:-0} pairs"
expect "guest: debug: bpfdiff fuzz compared at least $pairs pairs (${np:-none})" test "${np:-0}" -ge "$pairs"

step "6/6 kmemleak and the kernel log"
rmmod bpf_bench 2> /dev/null || true
# kmemleak reports an object only once it is 5 s old and was found
# unreferenced: wait, scan twice.
sleep 6
echo scan > "$KMEMLEAK" || true
sleep 1
echo scan > "$KMEMLEAK" || true
cat "$KMEMLEAK" > "$out/kmemleak.txt" 2>/dev/null || true
leaks=$(grep -c '^unreferenced object' "$out/kmemleak.txt" || true)
sleep 1
kill "$kmsg" 2> /dev/null || true
wait "$kmsg" 2> /dev/null || true
# One line per report (its first line), the module's own messages left
# out: they quote what the fuzzer wrote.
kernel_reports "$out/kernel.log" > "$out/reports.txt"
n() { grep -cE "$1" "$out/reports.txt" || true; }
bug=$(n 'BUG: ') warning=$(n 'WARNING: ') kasan=$(n 'KASAN')
ubsan=$(n 'UBSAN: ') oops=$(n 'Oops|general protection fault|kernel BUG at')
lockdep=$(n 'locking|lock state|lock inversion|register non-static key|RCU usage|dependency')
total=$(( $(wc -l < "$out/reports.txt") + leaks ))
echo "reports: reports=$total bug=$bug warning=$warning kasan=$kasan ubsan=$ubsan lockdep=$lockdep oops=$oops kmemleak=$leaks boot_leaks=$boot_leaks" >> "$counts"
say "debug: reports=$total (kernel log: $(wc -l < "$out/reports.txt"), kmemleak: $leaks)"
head -n 20 "$out/reports.txt" >&2
grep -A 12 '^unreferenced object' "$out/kmemleak.txt" | head -n 40 >&2 || true
expect "guest: debug: the kernel log has lines from boot to the end" grep -q 'bpf_bench' "$out/kernel.log"
ok "$([ "$(wc -l < "$out/reports.txt")" = 0 ]; echo $?)" \
	"guest: debug: no BUG, WARNING, KASAN, UBSAN or lockdep report in the kernel log"
ok "$([ "$leaks" = 0 ]; echo $?)" "guest: debug: kmemleak: no suspected leak after the campaign"
step "done"
