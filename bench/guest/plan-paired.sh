#!/bin/sh
# Paired plan: interleaved rounds of several engines on the same skbs
# (paired.sh), raw per-round lines in $out/paired.txt for results/mkratios.
#
# Tunables from the kernel command line (bench.KEY=VALUE):
#   BENCH_ENGINES     engines compared      (default: old,new)
#   BENCH_FILTERS     filters               (default: fprog1,fprog2)
#   BENCH_SKBS        skbs per cell         (default: 1,10000)
#   BENCH_ROUNDS      rounds per placement  (default: 30)
#   BENCH_PLACEMENTS  placements per cell   (default: 3)
#   BENCH_SAMPLE_US   sample length         (default: the module's)
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh
# shellcheck source=/dev/null
. /bench/paired.sh

load_bench_module
wait_clocksource
write_meta "$out/meta.txt"
if [ -n "${BENCH_SAMPLE_US:-}" ]; then set_knob sample_us "$BENCH_SAMPLE_US"; fi
engines=${BENCH_ENGINES:-old,new}
filters=$(echo "${BENCH_FILTERS:-fprog1,fprog2}" | tr ',' ' ')
skbs_list=$(echo "${BENCH_SKBS:-1,10000}" | tr ',' ' ')
packet=tcp22-payload
: > "$out/paired.txt"
for f in $filters; do
	for s in $skbs_list; do
		say "paired cell: filter=$f skbs=$s engines=$engines"
		paired_cell "$f" "$packet" "$s" "$engines" \
			"${BENCH_ROUNDS:-30}" "${BENCH_PLACEMENTS:-3}" >> "$out/paired.txt"
	done
done
