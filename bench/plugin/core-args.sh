#!/bin/sh
# The bpfmodel plugin's arguments for a core record of bench/cores.conf:
# "l1i=...,l1d=...,..." (every key but arch and title), or the record's
# key KEY with -k KEY.
# usage: core-args.sh CORE | core-args.sh -k KEY CORE
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CORES_CONF=${CORES_CONF:-$here/../cores.conf}
key=
if [ "${1:-}" = -k ]; then
	key=${2:?usage: core-args.sh -k KEY CORE}
	shift 2
fi
[ $# = 1 ] || { echo "usage: core-args.sh [-k KEY] CORE" >&2; exit 2; }
awk -v c="$1" -v k="$key" '
/^[^ \t#]/ { rec = ($1 == "core" && $2 == c); if (rec) found = 1; next }
rec && NF >= 2 && $1 !~ /^#/ {
	if (k != "") { if ($1 == k) { $1 = ""; sub(/^ +/, ""); print; got = 1 } next }
	if ($1 == "arch" || $1 == "title") next
	args = args (args == "" ? "" : ",") $1 "=" $2
}
END {
	if (!found) { printf "core-args.sh: no core %s in %s\n", c, FILENAME > "/dev/stderr"; exit 1 }
	if (k != "") exit !got
	print args
}' "$CORES_CONF"
