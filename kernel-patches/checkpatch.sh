#!/bin/sh
# checkpatch --strict on one patch of the series: prints every report that
# kernel-patches/checkpatch-exceptions does not accept, and fails if there
# is one.  The tree is a tarball import without upstream history, so
# checkpatch cannot look up the commit ids the messages cite
# (UNKNOWN_COMMIT_ID is never checked).
#
# usage: checkpatch.sh TREE PATCH
set -eu

tree=$1 patch=$2
here=$(cd "$(dirname "$0")" && pwd)
num=$(basename "$patch" | cut -c1-4)
# The patch by absolute path: checkpatch misreads blank context lines of a
# relative one as trailing whitespace.
patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")

perl "$tree/scripts/checkpatch.pl" --strict -q --show-types \
	--ignore UNKNOWN_COMMIT_ID "$patch" 2>/dev/null |
awk -v num="$num" -v exc="$here/checkpatch-exceptions" '
BEGIN {
	while ((getline line < exc) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		n = split(line, f, /[ \t]+/)
		if (f[1] != num)
			continue
		for (i = 3; i <= n; i++)
			ok[f[2], f[i]] = 1
	}
}
# A report: "ERROR:TYPE: text", lines up to a blank one, one of them
# "#N: FILE: path:line:".
function flush() {
	if (report != "" && !ok[file, type]) {
		printf "%s\n", report
		bad++
	}
	report = ""; type = ""; file = ""
}
/^(ERROR|WARNING|CHECK):/ {
	flush()
	split($0, t, ":"); type = t[2]; report = $0; next
}
report != "" && /^$/ { flush(); next }
report != "" {
	report = report "\n" $0
	if (match($0, /FILE: [^:]+/))
		file = substr($0, RSTART + 6, RLENGTH - 6)
}
END { flush(); exit bad > 0 }'
