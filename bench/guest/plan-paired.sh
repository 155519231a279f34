#!/bin/sh
# Paired plan: interleaved rounds of several engines on the same skbs
# (paired.sh), raw per-round lines in $out/paired.txt for results/mkratios;
# nothing else.  run-bench.sh boots it for every boot of a timed
# accelerator after the first (accels.conf boots): the same paired cells
# as the bench plan, with the same options.
#
# Tunables from the kernel command line (bench.KEY=VALUE):
#   BENCH_ENGINES  engines compared (default: every engine that runs a program)
#   BENCH_FILTERS  filters (default: fprog1,fprog2)
#   BENCH_SKBS, BENCH_ROUNDS, BENCH_PAIRED_PLACEMENTS, BENCH_PAIRED_SAMPLE_US
#                  as in the bench plan (paired.sh, paired_cells)
#   BENCH_MIX      1: the mixed traffic's rounds too (plan-bench.sh), into
#                  paired-mix.txt
#   BENCH_SEED     the boot's layout seed (lib.sh, layout_seed)
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh
# shellcheck source=/dev/null
. /bench/paired.sh

layout_seed
load_bench_module
wait_clocksource
write_meta "$out/meta.txt"
# shellcheck disable=SC2046 # the filters are words
paired_cells "$out/paired.txt" "${BENCH_ENGINES:-}" tcp22-payload \
	$(echo "${BENCH_FILTERS:-fprog1,fprog2}" | tr ',' ' ')
# shellcheck disable=SC2046 # the filters are words
[ "${BENCH_MIX:-0}" != 1 ] ||
	paired_cells "$out/paired-mix.txt" "${BENCH_ENGINES:-}" mix \
		$(echo "${BENCH_FILTERS:-fprog1,fprog2}" | tr ',' ' ')
