#!/bin/sh
# Boot one guest in the foreground (run-guest.sh puts a timeout around it).
# usage: boot-guest.sh ACCEL KERNEL INITRD DISK CMDLINE
set -eu
# shellcheck source=bench/host/accels.sh
. "$(dirname "$0")/accels.sh"
accel_boot "$@"
