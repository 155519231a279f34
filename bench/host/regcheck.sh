#!/bin/sh
# The registry check (results/regcheck) where nothing may have been built
# yet: make bench's bench-input (run-bench.sh --check) runs it before any
# build, with a BUILD that may not exist.  The regcheck of the first TOOLS
# directory that has one newer than its sources (any built from this
# clone will do: each reads the registries the same way), else one
# compiled into a scratch directory (about a second; nothing is written to
# a TOOLS directory).  It reads the registries as every tool does:
# bench/*.conf, or the files ENGINES_CONF, ACCELS_CONF, FLAVOURS_CONF,
# KERNELS_CONF, CORES_CONF and ARGS_CONF name.
# usage: regcheck.sh TOP [TOOLS...]   silent and 0, or "FILE:LINE: ..." lines and 1
set -eu
top=$1
shift
for tools in "$@"; do
	if [ -x "$tools/regcheck" ] && [ -z "$(find "$top/results/regcheck.c" "$top/lib/registry.c" \
		"$top/lib/registry.h" -newer "$tools/regcheck")" ]; then
		exec "$tools/regcheck"
	fi
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"${CC:-cc}" -O2 -Wall -DREG_DIR="\"$top/bench\"" -o "$scratch/regcheck" \
	"$top/results/regcheck.c" "$top/lib/registry.c"
"$scratch/regcheck"
