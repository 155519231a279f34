#!/bin/sh
# The registry check (results/regcheck) where nothing may have been built
# yet: make bench's bench-input (run-bench.sh --check) runs it before any
# build, with a BUILD that may not exist.  TOOLS/regcheck when it is there
# and newer than its sources, else one compiled into a scratch directory
# (under a second; BUILD stays untouched).  It reads the registries as every
# tool does: bench/*.conf, or the files ENGINES_CONF, ACCELS_CONF,
# FLAVOURS_CONF, KERNELS_CONF, CORES_CONF and ARGS_CONF name.
# usage: regcheck.sh TOP [TOOLS]   silent and 0, or "FILE:LINE: ..." lines and 1
set -eu
top=$1 tools=${2:-}
set -- "$top/results/regcheck.c" "$top/results/registry.c" "$top/results/registry.h"
if [ -n "$tools" ] && [ -x "$tools/regcheck" ] && [ -z "$(find "$@" -newer "$tools/regcheck")" ]; then
	exec "$tools/regcheck"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"${CC:-cc}" -O2 -Wall -DREG_DIR="\"$top/bench\"" -o "$scratch/regcheck" "$1" "$2"
"$scratch/regcheck"
