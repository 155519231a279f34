#!/bin/sh
# The kvm path end to end, under its nested accelerator (accels.conf
# "boot nested": the kvm record's QEMU command line in an outer TCG guest
# with SVM, docs/accelerators.md): make bench's runner with ACCEL=NESTED
# and BOOTS=3 (the probe, the bench plan's boot, two paired boots through
# the quiet gate, perf, tables, claims, plots, the cover letter).
# What the kvm path must produce is asserted: a row for every engine the
# flavour has (jit, oldjit included: the JITs ran compiled), the boots
# and the quiet gate's record, the CPU line, the labels of a test kind.
# (make compare on the nested accelerator: tests-make-compare.sh.)
#
# usage: tests-nested.sh TOP BUILD NESTED    prints PASS:/FAIL: lines
set -eu
top=$1 build=$2 accel=$3
here=$top/bench/host
TEST_PREFIX="$accel: "
# shellcheck source=bench/host/testbench.sh
. "$here/testbench.sh"
get() { "$build/tools/csvget" "$@" 2> /dev/null || true; }

flavour=$(accel_flavour "$accel")
inner=$(accel_attr "$accel" nests)
kind=$(accel_kind "$accel")
what=$(conf_get "$ACCELS_CONF" kind "$kind" what)
plot=$(conf_get "$ACCELS_CONF" kind "$kind" plot)
d=$build/check-$accel
bench_run "$d" "ACCEL=$accel BOOTS=3 LAYOUT_SEEDS='11 22': probe, 3 boots, tables" \
	ACCEL="$accel" BOOTS=3 LAYOUT_SEEDS="11 22" QUIET="25 0 1"
b1=$run/$accel

expect "the explicit ACCEL was probed first" grep -q "^\[bench\] $accel: probe boot" "$d.log"
# the inner guest ran the kvm record's own command line, under KVM
boot=$(accel_attr "$inner" boot)
want="$(flavour_attr "$flavour" qemu) ${boot#qemu }"
expect "the outer guest ran $inner's command line ($want ...)" \
	grep -aq "^\[nested\] inner: $want " "$b1/console.log"
expect "the outer guest had /dev/kvm with nested paging" \
	grep -aq '^\[nested\] outer guest: .*/dev/kvm ready (Nested Paging enabled)' "$b1/console.log"
expect "the bench guest ran under KVM (clocksource kvm-clock)" grep -q '^clocksource=kvm-clock' "$b1/meta.txt"
expect "host.txt records the outer guest (Debian's kernel image package, QEMU)" \
	sh -c "grep -q '^outer_kernel=linux-image-' '$b1/host.txt' && grep -q '^outer_qemu=qemu-system-x86 ' '$b1/host.txt'"

# every engine the flavour has, in every cell; the JITs compiled
for e in $(conf_names "$top/bench/engines.conf" engine); do
	if conf_get "$top/bench/engines.conf" engine "$e" "missing.$flavour" > /dev/null; then
		expect "engine $e: no rows ($flavour has none)" test -z "$(get "$run/results.csv" median tag=bench engine="$e" filter=fprog1 skbs=1)"
		continue
	fi
	n=0
	for c in $(conf_names "$top/bench/engines.conf" cell); do
		m=$(get "$run/results.csv" median tag=bench engine="$e" \
			filter="$(conf_get "$top/bench/engines.conf" cell "$c" filter)" \
			skbs="$(conf_get "$top/bench/engines.conf" cell "$c" skbs)")
		awk -v m="$m" 'BEGIN { exit !(m > 0) }' && n=$((n + 1))
	done
	expect "engine $e: a median in each of the 4 cells" test "$n" = 4
	if [ "$(conf_get "$top/bench/engines.conf" engine "$e" jited || echo 0)" = 1 ]; then
		expect "engine $e ran compiled (jited=1)" test "$(get "$run/results.csv" jited tag=bench engine="$e" filter=fprog1 skbs=1)" = 1
	fi
done

# the boots, the quiet gate's record, the ratios over boots
expect "run.txt: $accel:3 boots" grep -q "^boots=$accel:3$" "$run/run.txt"
expect "boots 2 and 3 ran the paired plan" test -s "$b1/boot-2/paired.txt" -a -s "$b1/boot-3/paired.txt"
# shellcheck disable=SC2016
expect "the quiet gate's control loop and reference after every boot (host.txt)" sh -c '
	for b in "$1" "$1/boot-2" "$1/boot-3"; do
		grep -q "^control_ns=[0-9]" "$b/host.txt" || exit 1
	done
	grep -q "^quiet_ref_ns=[0-9.]*$" "$1/boot-2/host.txt" && grep -q "^quiet_rule=25,0,1$" "$1/boot-2/host.txt"' sh "$b1"
# the kvm kernel's code-layout variants: boot 2 on seed 11's, boot 3 on 22's
# shellcheck disable=SC2016
expect "boots 2 and 3 booted the kernel relinked with seeds 11 and 22 (sk_run_filter at two addresses)" sh -c '
	[ "$(sed -n "s/^layout=//p" "$1/boot-2/host.txt")" = 11 ] &&
	[ "$(sed -n "s/^layout=//p" "$1/boot-3/host.txt")" = 22 ] &&
	a=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$1/boot-2/host.txt") &&
	b=$(sed -n "s/^layout_addr_sk_run_filter=//p" "$1/boot-3/host.txt") &&
	[ -n "$a" ] && [ "$a" != - ] && [ -n "$b" ] && [ "$a" != "$b" ]' sh "$b1"
# shellcheck disable=SC2016
expect "ratios.csv: every $accel row over the 2 paired boots of 2 code layouts (ci_over=layouts)" awk -F, -v a="$accel" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == a { n++; if ($c["boots"] != 2 || $c["layouts"] != 2 || $c["ci_over"] != "layouts") bad++ }
	END { exit bad || !n }' "$run/ratios.csv"
expect "perf ran in the guest: a stat and a report per cell" \
	sh -c "[ \$(ls '$b1/perf/'*.stat | wc -l) -ge 20 ] && [ \$(ls '$b1/perf/'*.report | wc -l) -ge 20 ]"
expect "perf stat: no PMU at either level (hardware events <not supported>)" \
	grep -q '<not supported>' "$b1/perf/bench-old-fprog1-tcp22-payload-skbs1.stat"

# the labels of a test kind, everywhere
expect "table.txt: the heading says what the figures are ($kind)" grep -qF "accel=$accel: $what" "$run/table.txt"
expect "table.txt: the CPU line names the emulated CPU and the host" \
	grep -q "^cpu: QEMU TCG's [A-Za-z0-9-]* (outer guest) with KVM nested in it; host: " "$run/table.txt"
# (the text column holds commas: the rows are matched whole)
n=$(grep -c "^$accel," "$run/claims.csv" || true)
expect "claims.csv: every claim on $accel ($n) reads not measurable (a test of the path)" \
	sh -c "[ $n -ge 6 ] && [ \"\$(grep -c '^$accel,.*,not measurable,\"kind $kind: a test of the path' '$run/claims.csv')\" = $n ]"
if command -v gnuplot > /dev/null; then
	expect "plots: the per-call plot's title says it is a test" grep -qF "$plot" "$run/plots/ns-$accel.svg"
fi
cover=$run/cover-letter.patch
expect "cover letter: the run has one (RUN/cover-letter.patch)" test -s "$cover"
expect "cover letter: the accelerator's table is labelled a test" \
	grep -qF "accel=$accel ($flavour, ns per call, $plot" "$cover"
expect "cover letter: says no claim is judged from it" grep -q "$accel.*: $plot; no claim is judged from them" "$cover"
test_summary
