#!/bin/sh
# The benchmark plan: every engine x filter x cache mode on the accepting
# packet, the cross-check cells on test_bpf's packet, and lib/test_bpf's own
# timing of the same two tcpdump programs.
#
# Tunables from the kernel command line (bench.KEY=VALUE):
#   BENCH_ENGINES  engines in row order      (default: every engine built in)
#   BENCH_FILTERS  filters                   (default: fprog1,fprog2)
#   BENCH_SKBS     distinct skbs per cell    (default: 1,10,100,1000,10000,100000:
#                  the table's cache-hit/miss columns are 1 and 10000, the
#                  rest is the working-set sweep plotted by make plots)
#   BENCH_SAMPLES, BENCH_SAMPLE_US           (default: the module's)
#   BENCH_PERF     0 to skip perf stat/record (default: on where perf is)
#   BENCH_PLACEMENTS  runs per cell, one line each (default 1; lib.sh),
#                  combined by mkcsv on the host
#   BENCH_GATE     1: wait for a quiet machine before each run (lib.sh)
#   BENCH_SECCOMP_CALLS, BENCH_SECCOMP_RUNS  syscalls per run and runs per
#                  seccomp cell (default: 1000000, 5; 0 calls skips seccomp)
#   BENCH_MIX      1: the mixed-traffic cells after the per-engine ones
#   BENCH_PAIRED   0: no paired cells (default 1): after the per-engine
#                  cells, every engine but baseline measured in interleaved
#                  rounds on the table's cells (paired.sh) into $out/paired.txt
#   BENCH_ROUNDS, BENCH_PAIRED_PLACEMENTS, BENCH_PAIRED_SAMPLE_US
#                  the paired cells' rounds (paired.sh, paired_cells)
#   BENCH_SEED     the boot's layout seed (lib.sh, layout_seed)
#   BENCH_MODEL_CALLS  N > 0: after its samples each cell runs one window of
#                  N calls between the model plugin's markers (accelerators
#                  of kind modeled, docs/model.md); lib/test_bpf's own
#                  timing, which has no window, is then skipped
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh
# shellcheck source=/dev/null
. /bench/seccomp.sh
# shellcheck source=/dev/null
. /bench/paired.sh

export PERF_OUT="$out/perf"
layout_seed
load_bench_module
perf_setup
wait_clocksource
write_meta "$out/meta.txt"
if [ -n "${BENCH_SAMPLES:-}" ]; then set_knob samples "$BENCH_SAMPLES"; fi
if [ -n "${BENCH_SAMPLE_US:-}" ]; then set_knob sample_us "$BENCH_SAMPLE_US"; fi
model_calls=${BENCH_MODEL_CALLS:-0}
set_knob model_calls "$model_calls"

engines=$(echo "${BENCH_ENGINES:-$(cat "$KNOBS/engines")}" | tr ',' ' ')
filters=$(echo "${BENCH_FILTERS:-fprog1,fprog2}" | tr ',' ' ')
skbs_list=$(echo "${BENCH_SKBS:-1,10,100,1000,10000,100000}" | tr ',' ' ')
packet=tcp22-payload

# BENCH_GATE=1: each run waits for a quiet machine (lib.sh, quiet_gate).
gate_calibrate fprog1 "$packet"

total=0
for e in $engines; do for f in $filters; do for s in $skbs_list; do
	total=$((total + 1))
done; done; done
n=0
for e in $engines; do
	for f in $filters; do
		for s in $skbs_list; do
			n=$((n + 1))
			say "cell $n/$total: engine=$e filter=$f skbs=$s"
			run_cell "$e" "$f" "$packet" "$s" >> "$out/cells.txt"
		done
	done
done

# Mixed traffic (BENCH_MIX=1): every engine that runs a program on each
# filter's 10000 skbs of every filters/ packet in a fixed shuffled order,
# each call checked against its frame's verdict (lib.sh mix_frames), so
# that branches depend on the data; tag mix, packet mix.
if [ "${BENCH_MIX:-0}" = 1 ]; then
	for e in $engines; do
		# a program's verdicts: not the loop-only baseline (checker none)
		[ "$(engine_attr "$e" checker 6.1)" != none ] || continue
		for f in $filters; do
			say "mixed traffic: engine=$e filter=$f skbs=10000"
			run_cell "$e" "$f" mix 10000 mix >> "$out/cells.txt"
		done
	done
fi

# The JIT images of the filters, as hex bytes; the host disassembles them
# (bench/host/disasm-images.sh): every engine the registry marks jited.
for e in $engines; do
	[ "$(engine_attr "$e" jited 0)" = 1 ] || continue
	for f in $filters; do
		if ! { set_knob engine "$e" && set_knob_file prog "/bench/filters/$f.dd"; }; then
			say "image: $e $f: prog not accepted"
			exit 1
		fi
		cat "$KNOBS/image" > "$out/image-$e-$f.hex"
	done
done

# Paired cells: every engine that runs a program, interleaved in rounds on
# the same skbs (paired.sh); results/mkratios makes the ratios.  With
# BENCH_MIX=1 the mixed traffic's too, at 10000 skbs, into paired-mix.txt.
if [ "${BENCH_PAIRED:-1}" != 0 ]; then
	# shellcheck disable=SC2086 # the filters are words
	paired_cells "$out/paired.txt" "" "$packet" $filters || exit 1
	# shellcheck disable=SC2086 # the filters are words
	[ "${BENCH_MIX:-0}" != 1 ] ||
		paired_cells "$out/paired-mix.txt" "" mix $filters || exit 1
fi

# Cross-check: test_bpf's 100-byte packet through our harness and through
# the tree's own timer, interpreter and JIT.  fprog1 is test #33's program
# and testbpf34wrap test #34's (filters/README.md).
# shellcheck disable=SC2013
for e in $(cat "$KNOBS/engines"); do
	[ "$(engine_attr "$e" crosscheck 0)" = 1 ] || continue
	for f in fprog1 testbpf34wrap; do
		say "cross-check: engine=$e filter=$f packet=testbpf100"
		run_cell "$e" "$f" testbpf100 1 crosscheck >> "$out/cells.txt"
	done
done
if [ -f /bench/modules/test_bpf.ko ] && [ "$model_calls" = 0 ]; then
	jits="0 1"
	[ -w /proc/sys/net/core/bpf_jit_enable ] || jits=none
	for jit in $jits; do
		say "cross-check: lib/test_bpf #33 #34 with bpf_jit_enable=$jit"
		[ "$jit" = none ] || echo "$jit" > /proc/sys/net/core/bpf_jit_enable
		dmesg -c > /dev/null
		insmod /bench/modules/test_bpf.ko test_suite=test_bpf test_range=33,34 ||
			{ say "test_bpf failed to load"; exit 1; }
		rmmod test_bpf
		dmesg | grep 'test_bpf: #3[34] ' >> "$out/test_bpf.txt"
	done
	[ "$jits" = none ] || echo 1 > /proc/sys/net/core/bpf_jit_enable
fi

# Seccomp: syscall(199, 100) under no filter, the short and the large
# filter, each filter attached under every engine the kernel offers.
calls=${BENCH_SECCOMP_CALLS:-1000000}
runs=${BENCH_SECCOMP_RUNS:-5}
if [ "$calls" -gt 0 ] && [ -n "$(seccomp_engines)" ]; then
	say "seccomp: no filter, $runs x $calls calls"
	seccomp_cell new none "$calls" "$runs" >> "$out/cells.txt"
	for e in $(seccomp_engines); do
		for f in short large; do
			say "seccomp: engine=$e filter=$f, $runs x $calls calls"
			seccomp_cell "$e" "$f" "$calls" "$runs" >> "$out/cells.txt"
		done
	done
	seccomp_use jit
fi
