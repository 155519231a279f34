#!/bin/sh
# Boot one guest in the foreground (run-guest.sh puts a timeout around it).
# usage: boot-guest.sh ACCEL KERNEL INITRD DISK CMDLINE
# env:   GUEST_PIDFILE  gets the guest's pid (this shell execs the guest)
set -eu
# shellcheck source=bench/host/accels.sh
. "$(dirname "$0")/accels.sh"
[ -z "${GUEST_PIDFILE:-}" ] || echo $$ > "$GUEST_PIDFILE"
accel_boot "$@"
