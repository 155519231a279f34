# shellcheck shell=sh
# The accelerators, as one table (sourced by the host scripts).  For each:
#   accel_flavour ACCEL   which kernel build it boots (x86_64, um; opt-in
#                         32-bit flavours: i386, arm)
#   accel_unit ACCEL      unit of the per-call figures
#   accel_kind ACCEL      hardware | counted | emulated
#   accel_plan_args ACCEL plan options it defaults to (BENCH_ARGS override)
#   flavour_kernel BUILD FLAVOUR   the kernel image a flavour boots
#   accel_boot ACCEL KERNEL INITRD DISK CMDLINE
#                         run the guest in the foreground, console on stdout
# Adding an accelerator means adding one case to each function.

# In order of trust: hardware timing first, emulated timing last.
# shellcheck disable=SC2034
ACCELS="kvm uml icount tcg"
# Opt-in 32-bit guests (issue 14): not booted by default yet.  kvm-i386
# needs a usable /dev/kvm (probe it with a timeout, as kvm).
# shellcheck disable=SC2034
ACCELS_32="kvm-i386 icount-i386 tcg-i386 icount-arm tcg-arm"

accel_flavour() {
	case "$1" in
	kvm | tcg | icount) echo x86_64 ;;
	uml) echo um ;;
	kvm-i386 | tcg-i386 | icount-i386) echo i386 ;;
	tcg-arm | icount-arm) echo arm ;;
	*) return 1 ;;
	esac
}

flavour_kernel() {
	case "$2" in
	x86_64) echo "$1/obj-x86_64/arch/x86/boot/bzImage" ;;
	um) echo "$1/obj-um/linux" ;;
	i386) echo "$1/obj-i386/arch/x86/boot/bzImage" ;;
	arm) echo "$1/obj-arm/arch/arm/boot/zImage" ;;
	*) return 1 ;;
	esac
}

# icount counts instructions: the same on every sample, 5 are plenty.
# tcg timings are emulation artefacts: no point in long runs.
accel_plan_args() {
	case "$1" in
	icount) echo "bench.samples=5 bench.sample_us=5000" ;;
	tcg) echo "bench.samples=7 bench.sample_us=10000" ;;
	# The seccomp filters (filters/seccomp/) are built for AUDIT_ARCH_X86_64
	# and kill a call from any other architecture: no seccomp cells on the
	# 32-bit guests until they have filters of their own.
	icount-i386 | icount-arm) echo "bench.samples=5 bench.sample_us=5000 bench.seccomp_calls=0" ;;
	tcg-i386 | tcg-arm) echo "bench.samples=7 bench.sample_us=10000 bench.seccomp_calls=0" ;;
	# UML traps every guest syscall through ptrace (~60 us): a seccomp
	# filter's cost disappears in that, so no seccomp cells there.
	# Hardware timing: 11 placements of 5 samples per cell (lib.sh,
	# combine_placements): one placement's median does not repeat; and
	# each run waits for a quiet machine (quiet_gate).
	uml) echo "bench.seccomp_calls=0 bench.placements=11 bench.samples=5 bench.gate=1" ;;
	kvm) echo "bench.placements=11 bench.samples=5 bench.gate=1" ;;
	kvm-i386) echo "bench.placements=11 bench.samples=5 bench.gate=1 bench.seccomp_calls=0" ;;
	*) echo "" ;;
	esac
}

accel_unit() {
	case "$1" in
	icount | icount-i386 | icount-arm) echo insns ;;
	*) echo ns ;;
	esac
}

accel_kind() {
	case "$1" in
	kvm | uml | kvm-i386) echo hardware ;;
	icount | icount-i386 | icount-arm) echo counted ;;
	tcg | tcg-i386 | tcg-arm) echo emulated ;;
	*) return 1 ;;
	esac
}

# accel_pin ACCEL: the host CPU a hardware-timing guest is pinned to
# (PIN_CPU, default the last one; "none" to not pin), empty if none.
accel_pin() {
	[ "$(accel_kind "$1")" = hardware ] || return 0
	pin=${PIN_CPU:-$(( $(nproc) - 1 ))}
	[ "$pin" != none ] && command -v taskset > /dev/null && echo "$pin"
	return 0
}

accel_boot() {
	accel=$1 kernel=$2 initrd=$3 disk=$4 cmdline=$5
	mem=${GUEST_MEM:-1024}
	pin=$(accel_pin "$accel")
	# Pin this shell, and so the guest it becomes (UML's processes,
	# QEMU's threads), to one CPU.
	if [ -n "$pin" ]; then
		taskset -cp "$pin" $$ > /dev/null ||
			echo "[run] could not pin to cpu $pin" >&2
		echo "[run] $accel guest pinned to host cpu $pin" >&2
	fi
	qemu="qemu-system-x86_64" console=ttyS0 drive=if=virtio
	case "$accel" in
	kvm) set -- -accel kvm -cpu host ;;
	tcg) set -- -accel tcg ;;
	icount) set -- -accel tcg -icount shift=0,align=off,sleep=off ;;
	# 32-bit x86: QEMU's default 32-bit CPU (qemu32, a 686 with cmov).
	kvm-i386) qemu="qemu-system-i386"; set -- -accel kvm -cpu host ;;
	tcg-i386) qemu="qemu-system-i386"; set -- -accel tcg ;;
	icount-i386)
		qemu="qemu-system-i386"
		set -- -accel tcg -icount shift=0,align=off,sleep=off ;;
	# 32-bit ARM: the virt board (PL011 console, virtio-mmio disk; QEMU
	# passes the device tree), a Cortex-A15.
	tcg-arm | icount-arm)
		qemu="qemu-system-arm" console=ttyAMA0
		drive=if=none,id=out
		set -- -M virt -cpu cortex-a15 -accel tcg \
			-device virtio-blk-device,drive=out
		if [ "$accel" = icount-arm ]; then
			set -- "$@" -icount shift=0,align=off,sleep=off
		fi ;;
	uml)
		# UML keeps guest memory in an unlinked file under TMPDIR.  On
		# a disk file system (here /tmp is ext4) the host writes its
		# dirty pages back and the next guest store to each faults;
		# tmpfs has no writeback.
		# The command line is split into kernel arguments on purpose.
		if [ -z "${UML_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
			UML_TMPDIR=/dev/shm
		fi
		[ -n "${UML_TMPDIR:-}" ] && export TMPDIR="$UML_TMPDIR"
		echo "[run] uml guest memory under ${TMPDIR:-/tmp}" >&2
		# shellcheck disable=SC2086
		exec "$kernel" mem="${mem}M" initrd="$initrd" ubd0="$disk" \
			con=null con0=null,fd:1 $cmdline < /dev/null ;;
	*) return 1 ;;
	esac
	exec "$qemu" "$@" -m "$mem" -smp 1 -no-reboot \
		-display none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$initrd" \
		-drive "file=$disk,format=raw,$drive" \
		-append "console=$console $cmdline" < /dev/null
}
