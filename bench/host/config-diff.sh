#!/bin/sh
# The options two kernel configurations set differently, one line each,
# sorted: "CONFIG_X: OLD -> NEW" (n: not set), e.g. Debian's own
# configuration against the one a harness kernel was built with
# (bench/host/build-kernel.sh, base debian:NAME).
#
# usage: config-diff.sh OLD NEW       (- for standard input)
set -eu
[ $# = 2 ] || { echo "usage: config-diff.sh OLD NEW" >&2; exit 2; }
awk -v new="$2" '
	function opt(line, v) {
		if (line ~ /^CONFIG_[A-Za-z0-9_]*=/) {
			v[1] = substr(line, 1, index(line, "=") - 1)
			v[2] = substr(line, index(line, "=") + 1)
			return 1
		}
		if (line ~ /^# CONFIG_[A-Za-z0-9_]* is not set$/) {
			split(line, w, " ")
			v[1] = w[2]
			v[2] = "n"
			return 1
		}
		return 0
	}
	{ if (opt($0, kv)) old[kv[1]] = kv[2] }
	END {
		while ((getline line < new) > 0)
			if (opt(line, kv)) now[kv[1]] = kv[2]
		for (o in old) {
			n = (o in now) ? now[o] : "n"
			if (old[o] != n) print o ": " old[o] " -> " n
		}
		for (o in now)
			if (!(o in old) && now[o] != "n") print o ": n -> " now[o]
	}' "$1" | LC_ALL=C sort
