#!/bin/sh
# extract.sh TREE OUT: cut what mkvectors.c compiles from the tree's
# lib/test_bpf.c (and the prandom code one fill helper uses) into
# OUT/tests.inc and OUT/populate.inc.  Nothing of it is stored in the
# repository: the vectors are always the tree's.
set -eu
tree=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$tree/lib/test_bpf.c
[ -f "$src" ] || { echo "extract.sh: no $src (make tree)" >&2; exit 1; }
mkdir -p "$out/uapi/linux"
# The classic BPF uapi headers of the tree, prepared as `make headers_install`
# does (scripts/headers_install.sh: no compiler.h include).
for h in filter.h bpf_common.h if_ether.h; do
	sed -E -e 's@^#include <linux/compiler(|_types).h>@@' \
		-e 's/([[:space:](])(__user|__force|__iomem)[[:space:]]/\1/g' \
		"$tree/include/uapi/linux/$h" > "$out/uapi/linux/$h"
done
awk -f "$here/cut.awk" "$src" > "$out/tests.cut"
# The fill helpers of the CLASSIC entries, and the helpers those call.
fills=$(grep -o '\.fill_helper = [A-Za-z0-9_]*' "$out/tests.cut" |
	awk '$3 != "NULL" { print $3 }' | sort -u | tr '\n' ' ')
inner=""
if [ -n "$fills" ]; then
	awk -v names="$fills" -f "$here/cutdefs.awk" "$src" > "$out/fills.cut"
	inner=$(grep -o '__bpf_fill_[A-Za-z0-9_]*(' "$out/fills.cut" | tr -d '(' | sort -u | tr '\n' ' ')
fi
{
	echo "/* Cut from $src by filters/testbpf/extract.sh: do not edit. */"
	awk -v what=prelude -f "$here/cutdefs.awk" "$src"
	awk -v names="__seed prandom_seed_state" -f "$here/cutdefs.awk" "$tree/include/linux/prandom.h"
	awk -v names="prandom_u32_state" -f "$here/cutdefs.awk" "$tree/lib/random32.c"
	# file order: the inner helpers come before their callers
	[ -z "$fills" ] || awk -v names="$inner $fills" -f "$here/cutdefs.awk" "$src"
	cat "$out/tests.cut"
} > "$out/tests.inc.tmp"
awk -v what=populate -f "$here/cutdefs.awk" "$src" > "$out/populate.inc.tmp"
mv "$out/tests.inc.tmp" "$out/tests.inc"
mv "$out/populate.inc.tmp" "$out/populate.inc"
rm -f "$out/tests.cut" "$out/fills.cut"
