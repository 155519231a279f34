#!/bin/sh
# /init of the benchmark guest (busybox).  Runs the plan named on the kernel
# command line (bench.plan=NAME -> /bench/plan-NAME.sh) and hands everything
# it wrote to /out back to the host as a tar archive on the first raw disk
# (/dev/vda under QEMU, /dev/ubda under UML), or with bench.out=console
# on the console (no disk: an accelerator whose record says out console).  The status file is written
# pessimistically first, so a crash or hang leaves "status=crashed".
set -eu

/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null || true
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /out

plan=probe
accel=unknown
read -r cmdline < /proc/cmdline
# Word splitting of the command line is intended.
# shellcheck disable=SC2086
for arg in $cmdline; do
	case "$arg" in
	bench.plan=*) plan=${arg#bench.plan=} ;;
	bench.accel=*) accel=${arg#bench.accel=} ;;
	bench.*=*)
		# Other bench.key=value options reach the plan as BENCH_KEY.
		key=${arg#bench.}; key=${key%%=*}
		export "BENCH_$(echo "$key" | tr '[:lower:]' '[:upper:]')=${arg#*=}" ;;
	esac
done
export BENCH_ACCEL="$accel"

disk=""
for d in /dev/vda /dev/ubda; do
	[ -b "$d" ] && disk=$d && break
done

finish() {
	echo "status=$1" > /out/status
	dmesg > /out/dmesg.txt 2>/dev/null || true
	if [ -n "$disk" ]; then
		# a full results image (GUEST_DISK_SIZE): the host says so
		if ! tar -cf "$disk" -C /out . || ! sync; then
			echo "[guest] cannot write the results to $disk ($(du -sk /out | cut -f1) KiB in /out)"
		fi
	elif [ "${BENCH_OUT:-disk}" = console ]; then
		# no disk on purpose (bench.out=console): base64 of the tar,
		# read back by the host from the console log (run-guest.sh)
		echo "[bench-out] begin"
		tar -cf - -C /out . | base64
		echo "[bench-out] end"
	else
		echo "[guest] no output disk found" >&2
	fi
	echo "[guest] plan $plan finished: $1"
	# bench.exit=reboot (flavours.conf cmdline): a kernel without ACPI
	# cannot power an x86 machine off, only halt it; QEMU runs with
	# -no-reboot, so a reboot ends it.
	if [ "${BENCH_EXIT:-poweroff}" = reboot ]; then reboot -f; fi
	poweroff -f
}

echo "status=crashed" > /out/status
[ -n "$disk" ] && tar -cf "$disk" -C /out . && sync

echo "[guest] $(uname -r) accel=$accel plan=$plan"
if [ -x "/bench/plan-$plan.sh" ]; then
	if "/bench/plan-$plan.sh" /out; then
		finish ok
	else
		finish "failed($?)"
	fi
else
	echo "[guest] unknown plan '$plan'" >&2
	finish "failed(no plan)"
fi
