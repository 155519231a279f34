# shellcheck shell=sh
# The accelerators the runner knows, as one table (sourced by the host
# scripts).  Each entry says how QEMU is started and how its numbers may be
# read:
#   accel_qemu_args ACCEL   QEMU options selecting it
#   accel_unit ACCEL        unit of the per-call figures
#   accel_kind ACCEL        hardware | emulated | counted
# Adding an accelerator means adding one case to each function.

# Used by the scripts that source this file.
# shellcheck disable=SC2034
ACCELS="kvm tcg icount"

accel_qemu_args() {
	case "$1" in
	kvm) echo "-accel kvm -cpu host" ;;
	tcg) echo "-accel tcg" ;;
	icount) echo "-accel tcg -icount shift=0,align=off,sleep=off" ;;
	*) return 1 ;;
	esac
}

accel_unit() {
	case "$1" in
	icount) echo "insns" ;;
	*) echo "ns" ;;
	esac
}

accel_kind() {
	case "$1" in
	kvm) echo "hardware" ;;
	tcg) echo "emulated" ;;
	icount) echo "counted" ;;
	*) return 1 ;;
	esac
}
