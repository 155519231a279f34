#!/bin/sh
# The kernel flavours make bench builds, one line: those of the
# accelerators in ACCEL, or with ACCEL=auto those of every accelerator
# auto may pick on ARCHES (bench/host/accels.sh bench_flavours).
#
# With -t: the make targets instead, initramfs-FLAVOUR each, and
# model-tools when an accelerator of ACCEL boots with the model plugin.
#
# usage: bench-flavours.sh [-t]     env: ACCEL, ARCHES (as make bench)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
if [ "${1:-}" != -t ]; then
	bench_flavours
	echo
	exit 0
fi
for f in $(bench_flavours); do printf 'initramfs-%s ' "$f"; done
if [ "${ACCEL:-auto}" != auto ]; then
	for a in $ACCEL; do
		if accel_attr "$a" model > /dev/null; then printf 'model-tools'; break; fi
	done
fi
echo
