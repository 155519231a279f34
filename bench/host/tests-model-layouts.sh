#!/bin/sh
# A modeled accelerator over code layouts (docs/model.md, "Code layout"):
# make bench's runner with ACCEL=MODELED and two variants (LAYOUT_SEEDS="11
# 22", as the nested kvm jobs link them): the bench plan on the kernel as
# built, then on each variant (kind modeled: accels.conf variants bench),
# the tables stage's runs of the variants (layouts/11, layouts/22) and
# the range of every figure and claim over the three layouts.  What must
# hold: a variant really moved the code (sk_run_filter elsewhere), its
# instruction counts did not move (within the tolerance of
# bench/check-expect.conf layout-insns-agree: an instruction count does
# not see the layout), and every claim's verdict is the one all layouts
# give or "depends on the layout".
#
# usage: tests-model-layouts.sh TOP BUILD MODELED    prints PASS:/FAIL: lines
set -eu
top=$1 build=$2 accel=$3
here=$top/bench/host
TEST_PREFIX="$accel over code layouts: "
# shellcheck source=bench/host/testbench.sh
. "$here/testbench.sh"
# shellcheck disable=SC2034 # read by expect.sh, sourced below
CHECK_EXPECT_CONF=$top/bench/check-expect.conf
# shellcheck source=bench/host/expect.sh
. "$here/expect.sh"
get() { "$build/tools/csvget" "$@" 2> /dev/null || true; }

bench_run "$build/check-layouts-$accel" "ACCEL=$accel LAYOUT_SEEDS='11 22': three boots of the bench plan, tables" \
	ACCEL="$accel" LAYOUT_SEEDS="11 22"
b2=$run/$accel/boot-2
expect "boot 2 ran the bench plan (cells.txt, model.txt) on variant 11" sh -c "
	[ -s '$b2/cells.txt' ] && [ -s '$b2/model.txt' ] && grep -qx 'layout=11' '$b2/host.txt'"
# shellcheck disable=SC2016
expect "the variant moved the code: sk_run_filter elsewhere than in the kernel as built (System.map)" sh -c '
	a=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$1/host.txt")
	b=$(awk "\$3 == \"sk_run_filter\" { print \$1 }" "$2/System.map")
	[ -n "$a" ] && [ "$a" != - ] && [ -n "$b" ] && [ "$a" != "$b" ]' sh "$b2" "$build/obj-$(accel_flavour "$accel")"
tol=$(tol_pct layout-insns-agree)
# shellcheck disable=SC2016
expect "$(xv layout-insns-agree what) within $tol%" awk -F, -v tol="$tol" '
	FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; f++; next }
	$c["tag"] != "bench" { next }
	{ k = $c["engine"] " " $c["filter"] " " $c["skbs"]; v = $c["counted_insns"] + 0 }
	f == 1 { a[k] = v; next }
	{ n++; if (!(k in a) || v < a[k] * (1 - tol / 100) || v > a[k] * (1 + tol / 100)) bad++ }
	END { exit bad || n < 16 }' "$run/results.csv" "$run/layouts/11/results.csv"
# shellcheck disable=SC2016
expect "layouts.csv: every figure of $accel over 3 layouts, built the table's figure, min <= built <= max" awk -F, '
	FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["accel"] != a || $c["layouts"] != 3 || $c["min"] > $c["built"] + 0 || $c["built"] > $c["max"] + 0) bad++ }
	END { exit bad || n < 16 }' a="$accel" "$run/layouts.csv"
is "$(get "$run/layouts.csv" built accel="$accel" what=figure name=new filter=fprog1 skbs=1)" \
	"$(get "$run/results.csv" median accel="$accel" tag=bench engine=new filter=fprog1 skbs=1)" \
	"layouts.csv's built figure is results.csv's (new fprog #1 cache-hit)"
# claims.csv's model claims of ACCEL, a line each: claim|verdict|layouts|layout_verdicts
for c in claim verdict layouts layout_verdicts; do
	"$build/tools/csvget" -a "$run/claims.csv" "$c" accel="$accel" > "$tmp/claims.$c" || true
done
paste -d'|' "$tmp/claims.claim" "$tmp/claims.verdict" "$tmp/claims.layouts" "$tmp/claims.layout_verdicts" |
	grep '^model-' > "$tmp/claims" || true
# shellcheck disable=SC2016
expect "claims.csv: every model claim over 3 layouts, its verdict the one of all or 'depends on the layout'" awk -F'|' '
	{ n++ }
	$3 != 3 { bad++; next }
	$4 ~ /,/ && $2 != "depends on the layout" { bad++ }
	$4 !~ /,/ && $4 != $2 " 3" { bad++ }
	END { exit bad || n < 10 }' "$tmp/claims"
expect "table.txt: the code-layouts section of $accel over 3 code layouts" \
	grep -q "^code layouts, accel=$accel: each figure's range, min-max, over 3 code layouts" "$run/table.txt"
test_summary
