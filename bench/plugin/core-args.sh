#!/bin/sh
# The bpfmodel plugin's arguments for a core record of bench/cores.conf:
# "l1i=...,l1d=...,..." (every key but arch and title), or the record's
# key KEY with -k KEY.  The records are read as accels.sh reads its own.
# usage: core-args.sh CORE | core-args.sh -k KEY CORE
set -eu
here=$(cd "$(dirname "$0")/../host" && pwd)
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
CORES_CONF=${CORES_CONF:-$CONF_DIR/cores.conf}
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
keys=$(conf_keys "$CORES_CONF" core "$1") || { echo "core-args.sh: no core $1 in $CORES_CONF" >&2; exit 1; }
echo "$keys" | awk '$1 != "arch" && $1 != "title" { printf "%s%s=%s", n++ ? "," : "", $1, $2 } END { print "" }'
