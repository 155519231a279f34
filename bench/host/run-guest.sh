#!/bin/sh
# Boot the benchmark kernel (QEMU or UML, see accels.sh), run one plan, and collect what the
# guest wrote to /out into OUTDIR.  Prints the guest's progress lines,
# kills a hung guest after TIMEOUT seconds, and exits non-zero unless the
# guest reported status=ok.
#
# usage: run-guest.sh ACCEL PLAN OUTDIR BZIMAGE INITRAMFS [bench.KEY=VALUE...]
# env:   TIMEOUT (seconds, default 900), GUEST_MEM (MiB, default 1024)
set -eu

accel=$1 plan=$2 outdir=$3 kernel=$4 initrd=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
accel_kind "$accel" > /dev/null || { echo "unknown accelerator '$accel' (know: $ACCELS)" >&2; exit 2; }
# A debug kernel (KASAN, lockdep, kmemleak, ...) is many times slower and
# differently slow per engine: its figures would mean nothing.
if [ "$(accel_attr "$accel" debug || echo 0)" = 1 ]; then
	case "$plan" in
	bench | paired)
		echo "run-guest.sh: $accel boots a debug kernel (accels.conf: debug 1): it runs correctness plans only, never the timing plan '$plan'" >&2
		exit 2 ;;
	esac
fi
extra=$(accel_attr "$accel" cmdline || true)
timeout=${TIMEOUT:-900}

mkdir -p "$outdir"
disk=$outdir/.out.img
rm -f "$disk"
truncate -s 256M "$disk"
log=$outdir/console.log
rcfile=$outdir/.qemu.rc

echo "[run] booting $accel guest, plan=$plan (timeout ${timeout}s)"
start=$(date +%s)
{
	timeout --foreground -k 5 "$timeout" "$here/boot-guest.sh" "$accel" \
		"$kernel" "$initrd" "$disk" \
		"panic=-1 quiet ${extra:+$extra }bench.plan=$plan bench.accel=$accel bench.flavour=$(accel_flavour "$accel") $*" 2>&1
	echo $? > "$rcfile"
} | tee "$log" | grep --line-buffered '^\[guest\]' || true
rc=$(cat "$rcfile")
# UML may leave the terminal in raw mode.
if [ -t 0 ]; then stty sane 2>/dev/null || true; fi
elapsed=$(( $(date +%s) - start ))

tar -xf "$disk" -C "$outdir" 2>/dev/null || true
rm -f "$disk" "$rcfile"
status=$(sed -n 's/^status=//p' "$outdir/status" 2>/dev/null || true)
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "[run] $accel guest hung: killed after ${timeout}s; console in $log" >&2
	exit 1
fi
if [ "$status" != ok ]; then
	echo "[run] $accel guest plan=$plan ended with status '${status:-none}' (qemu rc $rc) after ${elapsed}s; console in $log" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
echo "[run] $accel guest plan=$plan ok in ${elapsed}s"
