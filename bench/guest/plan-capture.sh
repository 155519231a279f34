#!/bin/sh
# The capture workload (make bench FILTERS=... PCAP=...): a user's filters
# on a user's capture, every engine built in but baseline, every call
# checked against libpcap's verdict (bench/guest/capture.c; the frames
# file pcapdiff --capture made on the host: /dev/ubdb under UML, which
# streams it from the host, else /input/frames.bin of the initramfs).
#
# Tunables from the kernel command line (bench.KEY=VALUE):
#   BENCH_ENGINES         engines (default: every engine built in)
#   BENCH_CAPTURE_ROUNDS  rounds (default 7)
#   BENCH_CAPTURE_PASSES, BENCH_CAPTURE_WINDOW  the warm cell (default 4, 64)
#   BENCH_CAPTURE_FLIP    the test of the check itself: the capture frame
#                         of this index gets a wrong verdict
set -eu
out=$1
# shellcheck source=/dev/null
. /bench/lib.sh

load_bench_module
wait_clocksource
write_meta "$out/meta.txt"
frames=/input/frames.bin
[ ! -b /dev/ubdb ] || frames=/dev/ubdb
[ -e "$frames" ] || { say "capture: no frames file ($frames): the host passes one with FILTERS and PCAP"; exit 1; }
set -- -r "${BENCH_CAPTURE_ROUNDS:-7}" -p "${BENCH_CAPTURE_PASSES:-4}" -w "${BENCH_CAPTURE_WINDOW:-64}"
[ -z "${BENCH_ENGINES:-}" ] || set -- "$@" -e "$BENCH_ENGINES"
[ -z "${BENCH_CAPTURE_FLIP:-}" ] || set -- "$@" -f "$BENCH_CAPTURE_FLIP"
/bench/capture "$@" "$frames" "$out"
