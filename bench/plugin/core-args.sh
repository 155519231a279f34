#!/bin/sh
# The bpfmodel plugin's arguments for a core record of bench/cores.conf:
# "l1i=...,l1d=...,..." (accels.sh core_plugin_args), or the record's
# key KEY with -k KEY.  The records are read as accels.sh reads its own.
# usage: core-args.sh CORE | core-args.sh -k KEY CORE
set -eu
here=$(cd "$(dirname "$0")/../host" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
key=
if [ "${1:-}" = -k ]; then
	key=${2:?usage: core-args.sh -k KEY CORE}
	shift 2
fi
[ $# = 1 ] || { echo "usage: core-args.sh [-k KEY] CORE" >&2; exit 2; }
if [ -n "$key" ]; then
	conf_get "$CORES_CONF" core "$1" "$key" || { echo "core-args.sh: core $1 has no $key in $CORES_CONF" >&2; exit 1; }
	exit 0
fi
core_plugin_args "$1" || exit 1
