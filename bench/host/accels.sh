# shellcheck shell=sh
# The accelerators, as one table (sourced by the host scripts).  For each:
#   accel_flavour ACCEL   which kernel build it boots (x86_64 or um)
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

accel_flavour() {
	case "$1" in
	kvm | tcg | icount) echo x86_64 ;;
	uml) echo um ;;
	*) return 1 ;;
	esac
}

flavour_kernel() {
	case "$2" in
	x86_64) echo "$1/obj-x86_64/arch/x86/boot/bzImage" ;;
	um) echo "$1/obj-um/linux" ;;
	*) return 1 ;;
	esac
}

# icount counts instructions: the same on every sample, 5 are plenty.
# tcg timings are emulation artefacts: no point in long runs.
accel_plan_args() {
	case "$1" in
	icount) echo "bench.samples=5 bench.sample_us=5000" ;;
	tcg) echo "bench.samples=7 bench.sample_us=10000" ;;
	# UML traps every guest syscall through ptrace (~60 us): a seccomp
	# filter's cost disappears in that, so no seccomp cells there.
	# Hardware timing: 11 placements of 5 samples per cell (lib.sh,
	# combine_placements): one placement's median does not repeat; and
	# each run waits for a quiet machine (quiet_gate).
	uml) echo "bench.seccomp_calls=0 bench.placements=11 bench.samples=5 bench.gate=1" ;;
	kvm) echo "bench.placements=11 bench.samples=5 bench.gate=1" ;;
	*) echo "" ;;
	esac
}

accel_unit() {
	case "$1" in
	icount) echo insns ;;
	*) echo ns ;;
	esac
}

accel_kind() {
	case "$1" in
	kvm | uml) echo hardware ;;
	icount) echo counted ;;
	tcg) echo emulated ;;
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
	case "$accel" in
	kvm) set -- -accel kvm -cpu host ;;
	tcg) set -- -accel tcg ;;
	icount) set -- -accel tcg -icount shift=0,align=off,sleep=off ;;
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
	exec qemu-system-x86_64 "$@" -m "$mem" -smp 1 -no-reboot \
		-display none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$initrd" \
		-drive "file=$disk,format=raw,if=virtio" \
		-append "console=ttyS0 $cmdline" < /dev/null
}
