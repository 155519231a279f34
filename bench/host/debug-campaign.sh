#!/bin/sh
# The debug kernel's campaign: build flavour debug (KASAN, UBSAN, lockdep,
# kmemleak, ...), check that its .config really has the detectors, boot it
# with plan debug (bench/guest/plan-debug.sh: the check plan, knobfuzz,
# the differential fuzz of every engine, kmemleak and the kernel log) and
# assert the counts.  One "PASS: ..." / "FAIL: ..." line per test on
# stdout, progress and the counts on stderr.
#
# usage: debug-campaign.sh TOP BUILD MODE
#   MODE check  the short campaign of make check (FUZZ_WRITES 3000 knob
#               writes, FUZZ_PAIRS 5000 pairs, FUZZ_RELOADS 2)
#   MODE fuzz   make fuzz: 12000 writes, 100000 pairs, 8 reloads (the
#               check plan only with FUZZ_CHECK=1: make check runs it on
#               this kernel); ends with "N passed, N failed"
# env:   DEBUG_BUILT (1: the caller has just built flavour debug's
#        initramfs, as make check's build stage does: no make here),
#        FUZZ_WRITES, FUZZ_PAIRS, FUZZ_RELOADS, FUZZ_SEED (default 1),
#        FUZZ_SECONDS (the pair fuzz's time limit, default 1800),
#        DEBUG_ACCEL (default debug), TIMEOUT (the boot's, default 3600),
#        DEBUG_KERNEL (the tree of bench/kernels.conf, default the default
#        one: make fuzz KERNEL=6.12; its objects in build/kernel-<NAME>/)
set -eu

top=$1 build=$2 mode=$3
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
# shellcheck disable=SC2034 # read by testlib.sh
TEST_TMP=0
# shellcheck source=bench/host/testlib.sh
. "$here/testlib.sh"
case "$mode" in
check) writes=3000 pairs=5000 reloads=2
	# make check runs the check plan on the plain kernels; on this one
	# (19x slower under TCG: 7+ min for the check plan) only the short
	# campaign: knobfuzz, the pair fuzz of every engine, kmemleak and the
	# kernel log (FUZZ_CHECK=1 adds the check plan, shortened: skbs 1,
	# one non-linear headlen, the gate's test waiting 2 s at most)
	diff="bench.fuzz_check=${FUZZ_CHECK:-0} bench.diff_random=40 bench.diff_fuzz=5 bench.check_skbs=1 bench.diff_headlens=34 bench.gate_budget=2" ;;
fuzz) writes=12000 pairs=100000 reloads=8 diff="bench.fuzz_check=${FUZZ_CHECK:-0} bench.diff_random=400 bench.diff_fuzz=30" ;;
*) echo "usage: debug-campaign.sh TOP BUILD check|fuzz" >&2; exit 2 ;;
esac
writes=${FUZZ_WRITES:-$writes} pairs=${FUZZ_PAIRS:-$pairs}
reloads=${FUZZ_RELOADS:-$reloads} seed=${FUZZ_SEED:-1} secs=${FUZZ_SECONDS:-1800}
accel=${DEBUG_ACCEL:-debug}
dkernel=${DEBUG_KERNEL:-$KERNEL_DEFAULT}
kernel_attr "$dkernel" package > /dev/null 2>&1 || { echo "debug-campaign.sh: unknown kernel '$dkernel' (bench/kernels.conf)" >&2; exit 2; }
flavour=$(accel_flavour "$accel")
# the tree's objects and sources (bench/kernels.mk: KOUT_DIR, KTREE_NAME)
kout=$(kernel_out "$build" "$dkernel")
tree=$build/linux
[ "$dkernel" = "$KERNEL_DEFAULT" ] || tree=$build/linux-$dkernel
obj=$kout/obj-$flavour
outdir=$kout/$mode-$accel
log=$kout/$mode-$accel.build.log
# the tests' names: "debug:" and "guest(debug)" on the default tree,
# "debug@6.12:" and "guest(debug@6.12)" on another
at=
[ "$dkernel" = "$KERNEL_DEFAULT" ] || at=@$dkernel
tag=debug$at
say() { echo "[debug] $*" >&2; }
cd "$top"

# A debug accelerator never runs a timing plan.
if err=$("$here/run-guest.sh" "$accel" bench "$kout/refuse-$accel" /dev/null /dev/null 2>&1); then
	fail "$tag: run-guest.sh refuses the bench plan on $accel"
else
	case "$err" in
	*"debug kernel"*"never the timing plan 'bench'"*) pass "$tag: run-guest.sh refuses the bench plan on $accel" ;;
	*) fail "$tag: run-guest.sh refuses the bench plan on $accel (said: $err)" ;;
	esac
fi
rm -rf "$kout/refuse-$accel"

s=$(date +%s)
if [ "${DEBUG_BUILT:-0}" = 1 ] && [ -f "$kout/initramfs-$flavour.cpio.gz" ]; then
	# make check built it beside the other flavours: a second make only
	# re-reads the tree (half a minute here)
	: > "$log"
	pass "$tag: kernel, module and initramfs of flavour $flavour (built by the caller)"
elif say "building flavour $flavour (make initramfs-$flavour)" &&
	make -s KERNEL="$dkernel" "initramfs-$flavour" > "$log" 2>&1; then
	pass "$tag: kernel, module and initramfs of flavour $flavour"
else
	tail -n 20 "$log" >&2
	fail "$tag: kernel, module and initramfs of flavour $flavour"
	[ "$mode" = check ] || test_summary
	exit 0
fi
build_s=$(($(date +%s) - s))
[ "${DEBUG_BUILT:-0}" = 1 ] ||
	say "built in $build_s s ($(grep -o 'built x86_64 in [0-9]* s' "$log" || echo 'kernel up to date'))"

# The detectors and the series really are in the kernel (kconfig drops
# what it cannot satisfy; build-kernel.sh fails on that too).
for o in KASAN KASAN_GENERIC KASAN_INLINE KASAN_VMALLOC UBSAN UBSAN_BOUNDS UBSAN_SHIFT \
	PROVE_LOCKING LOCKDEP DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK SLUB_DEBUG BUG \
	BPF_JIT BPF_CLASSIC_INTERP BPF_CLASSIC_JIT BPF_CONVERT_2014; do
	expect "$tag: .config has CONFIG_$o=y" grep -qx "CONFIG_$o=y" "$obj/.config"
done
expect "$tag: .config has no BPF_JIT_ALWAYS_ON (engine new)" sh -c "! grep -q '^CONFIG_BPF_JIT_ALWAYS_ON=y' '$obj/.config'"
# A fragment line kconfig cannot satisfy fails the build: generic KASAN
# with software tags is no x86_64 option.
bad=$kout/debug-dropped.config
echo "CONFIG_KASAN_SW_TAGS=y" > "$bad"
rm -rf "$kout/obj-dropcheck" "$tree/obj-dropcheck"
if "$here/build-kernel.sh" "$tree" "$kout/obj-dropcheck" x86_64 \
	"$(flavour_attr debug fragment | sed "s|[^ ]*|$top/&|g") $bad" bzImage > "$kout/dropcheck.log" 2>&1; then
	fail "$tag: build-kernel.sh fails on a fragment line kconfig drops"
else
	expect "$tag: build-kernel.sh fails on a fragment line kconfig drops" \
		grep -q 'config lost: CONFIG_KASAN_SW_TAGS=y' "$kout/dropcheck.log"
fi
rm -rf "$kout/obj-dropcheck" "$tree/obj-dropcheck" "$bad"

say "booting $accel: $writes knob writes, $pairs pairs, $reloads reloads (seed $seed)"
rm -rf "$outdir"
s=$(date +%s)
# shellcheck disable=SC2086 # the diff options are words
if TIMEOUT=${TIMEOUT:-3600} "$here/run-guest.sh" "$accel" debug "$outdir" \
	"$(flavour_kernel "$kout" "$flavour")" "$kout/initramfs-$flavour.cpio.gz" \
	bench.fuzz_writes="$writes" bench.fuzz_pairs="$pairs" \
	bench.fuzz_reloads="$reloads" bench.fuzz_seed="$seed" bench.fuzz_seconds="$secs" $diff >&2; then
	pass "$tag: guest($accel$at): debug plan ran to the end"
else
	fail "$tag: guest($accel$at): debug plan ran to the end"
fi
boot_s=$(($(date +%s) - s))
sed "s/^\(PASS\|FAIL\): guest:/\1: guest($accel$at):/" "$outdir/tests.txt" 2>/dev/null |
	grep -E '^(PASS|FAIL): ' || true
if [ -f "$outdir/diff-tcpdump.txt" ] && [ -x "$build/diff/pcapdiff" ]; then
	"$build/diff/pcapdiff" filters/diff/programs.dd filters/diff/packets.txt \
		"$outdir/diff-tcpdump.txt" "$accel" 2>&1 | grep -E '^(PASS|FAIL): ' || true
fi

# The counts, as the guest wrote them (plan-debug.sh).
counts=$outdir/debug.txt
get() { sed -n "s/^$1: .*\<$2=\([0-9]*\).*/\1/p" "$counts" 2>/dev/null | tail -n 1; }
kw=$(get knobfuzz writes) kr=$(get knobfuzz refused) km=$(get knobfuzz mismatches)
ke=$(get knobfuzz errno_mismatches) kl=$(get knobfuzz reloads)
np=$(get bpfdiff pairs) nd=$(get bpfdiff documented) nu=$(get bpfdiff unexplained)
nr=$(get reports reports) nl=$(get reports kmemleak)
nc=$(get cases nla) cu=$(get cases unexplained)
expect "$tag: knobfuzz wrote at least $writes times (${kw:-none})" test "${kw:-0}" -ge "$writes"
expect "$tag: knobfuzz: 0 read-back mismatches (${km:-none})" test "${km:-x}" = 0
expect "$tag: knobfuzz: 0 errno mismatches (${ke:-none})" test "${ke:-x}" = 0
expect "$tag: knobfuzz: $reloads module reloads (${kl:-none})" test "${kl:-0}" -ge "$reloads"
expect "$tag: the regression cases ran, the nla-nest-* ones among them (${nc:-none})" test "${nc:-0}" -ge 38
expect "$tag: the regression cases: 0 unexplained (${cu:-none})" test "${cu:-x}" = 0
expect "$tag: bpfdiff fuzz compared at least $pairs pairs (${np:-none})" test "${np:-0}" -ge "$pairs"
expect "$tag: bpfdiff fuzz: 0 unexplained differences (${nu:-none})" test "${nu:-x}" = 0
expect "$tag: 0 reports in the kernel log and kmemleak (${nr:-none})" test "${nr:-x}" = 0
# One parseable line of the whole campaign.
echo "$tag: mode=$mode accel=$accel writes=${kw:-0} refused=${kr:-0} mismatches=${km:-0} pairs=${np:-0} differences=$(( ${nd:-0} + ${nu:-0} )) unexplained=${nu:-0} reports=${nr:-0} kmemleak=${nl:-0} build_s=$build_s boot_s=$boot_s" |
	tee "$outdir/summary.txt" >&2
[ "$mode" = check ] || test_summary
