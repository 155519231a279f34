#!/bin/sh
# The kernel flavours make bench builds, one line: those of the
# accelerators in ACCEL, or with ACCEL=auto those of every accelerator
# auto may pick on ARCHES (bench/host/accels.sh bench_flavours).
#
# usage: bench-flavours.sh     env: ACCEL, ARCHES (as make bench)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
bench_flavours
echo
