#!/bin/sh
# The modeled accelerators' results (docs/model.md): what mkcsv makes of
# the plugin's windows, and what must hold of any run of them.
#   tests-model.sh TOOLS_DIR             the fixture results/fixtures/modeled,
#                                         and mkcsv's refusals on broken copies
#   tests-model.sh TOOLS_DIR RUN_DIR...  the invariants on runs (make check's
#                                         modeled boots)
# Prints PASS:/FAIL: lines and "N passed, N failed".
set -eu
tools=$1
shift
TEST_PREFIX="model results: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/../bench/host/testlib.sh"
fixture=$(cd "$(dirname "$0")/fixtures/modeled" && pwd)

# rows CSV AWK: AWK over the tag=bench and tag=mix (mixed traffic: its
# vm_insns a mean of three decimals) rows of the modeled accelerators,
# with v["column"] the row's values; it prints the rows that break a rule.
rows() {
	awk -v rule="$2" '
	# the fields of a CSV line into f[] (quoted fields hold commas)
	function fields(line,   n, i, c, q) {
		n = 1; q = 0; f[1] = ""
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "\"") q = !q
			else if (c == "," && !q) f[++n] = ""
			else f[n] = f[n] c
		}
		return n
	}
	NR == 1 { nf = fields($0); for (i = 1; i <= nf; i++) col[f[i]] = i; next }
	{
		fields($0)
		for (k in col) v[k] = f[col[k]]
		if (v["kind"] != "modeled" || (v["tag"] != "bench" && v["tag"] != "mix")) next
		n++
		bad = 0
		if (rule == "cycles") {
			# modelled cycles: the formula over the per-call counters
			m = split(v["model_formula"], term, " ")
			s = 0
			# mispredicts: those of the predictor of the core
			for (t = 1; t <= m; t++) { split(term[t], cw, ":"); s += v["model_" cw[1]] * cw[2] }
			d = s - v["model_cycles"]; if (d < 0) d = -d
			bad = d > 0.02 + 0.001 * s || v["median"] + 0 != v["model_cycles"] + 0
		} else if (rule == "predictors") {
			# each predictor record: its mispredictions are its conditional,
			# indirect and the return stack ones; model_mispredicts: the core own
			m = split("none btb tcache tage", p, " ")
			for (t = 1; t <= m; t++) {
				d = v["model_cond_miss_" p[t]] + v["model_ind_miss_" p[t]] + v["model_ret_miss"] - v["model_mispredicts_" p[t]]
				if (d * d > 0.0001 || v["model_mispredicts_" p[t]] == "") bad = 1
			}
			bad = bad || v["model_mispredicts"] + 0 != v["model_mispredicts_" v["model_predictor"]] + 0 ||
				v["model_cycles"] + 0 != v["model_cycles_" v["model_predictor"]] + 0 ||
				v["model_cond_miss_none"] + 0 != v["model_cond_taken"] + 0 ||
				v["model_ind_miss_none"] + 0 != v["model_ind"] + 0
		} else if (rule == "window")
			# a mixed cell'"'"'s samples see a slice of its skbs, its
			# window two passes over every skb: they differ by design
			bad = v["tag"] == "bench" && (v["counted_insns"] <= 0 || (v["model_insns"] - v["counted_insns"]) ^ 2 > (0.01 * v["counted_insns"]) ^ 2)
		else if (rule == "switch")
			# exact on one packet; a mixed cell has a mean vm_insns of
			# three decimals
			bad = v["engine"] == "old" && (v["model_ind"] - v["vm_insns"]) ^ 2 > (v["tag"] == "bench" ? 0 : 0.0001)
		else if (rule == "threaded")
			bad = (v["engine"] == "new" || v["engine"] == "new2014") &&
				v["model_ind"] + (v["tag"] == "bench" ? 0 : 0.01) < v["vm_insns"] + 0
		else if (rule == "oldjit")
			bad = v["engine"] == "oldjit" && v["model_ind"] + 0 != 1
		else if (rule == "caches")
			bad = v["engine"] != "baseline" && (v["skbs"] + 0 == 10000 ? v["model_l1d_miss"] + 0 < 1 : v["model_l1d_miss"] + 0 > 0.05)
		if (bad) { print v["accel"], v["id"]; nbad++ }
	}
	END { if (!n) print "no modeled bench rows"; exit nbad || !n }' "$1"
}

# invariants NAME RUN_DIR: what any modeled run's results must show
invariants() {
	csv=$2/results.csv
	expect "$1: modelled cycles = the core's formula over the per-call counters, and are the cell's figure" rows "$csv" cycles
	expect "$1: every predictor record's mispredictions are its counters' sum; the figure is the core's predictor's; none misses every taken branch and indirect jump" rows "$csv" predictors
	expect "$1: the window counted the timed loop and nothing else (model insns within 1% of icount's)" rows "$csv" window
	expect "$1: old's switch dispatch: one indirect jump per executed classic insn" rows "$csv" switch
	expect "$1: new's threaded dispatch: at least one indirect jump per executed eBPF insn" rows "$csv" threaded
	expect "$1: oldjit: one indirect jump a call (into the image)" rows "$csv" oldjit
	expect "$1: 10000 skbs miss L1D at least once a call, 1 skb almost never" rows "$csv" caches
}

if [ $# -gt 0 ]; then
	for r in "$@"; do invariants "$(basename "$r")" "$r"; done
	test_summary
	exit
fi

invariants fixture "$fixture"
# the claims and the table, from the same data
# shellcheck disable=SC2016
expect "fixture: every model claim judged on both accelerators, none unmeasurable" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["claim"] ~ /^model-/ { n[$c["accel"]]++; if ($c["verdict"] == "not measurable") bad++ }
	$c["kind"] == "modeled" && $c["claim"] !~ /^model-/ { bad++ }
	END { exit bad || n["modeled"] < 10 || n["modeled-arm"] < 10 }' "$fixture/claims.csv"
expect "fixture: table.txt names the core and the cycle formula of each accelerator" sh -c "
	grep -q '^model counters per call, accel=modeled: core zen5, ' '$fixture/table.txt' &&
	grep -q '^model counters per call, accel=modeled-arm: core a15, ' '$fixture/table.txt' &&
	grep -q 'cycles = base:1 mispredicts:14 l1i_miss:14 l2_lead:50,' '$fixture/table.txt' &&
	grep -q 'cycles = insns:0.5 mispredicts:15 ' '$fixture/table.txt'"
expect "fixture: the figures are headed as a model, never as hardware timing" sh -c "
	grep -q '^--x86_64-- accel=modeled: MODELLED cycles per call: .*NOT hardware timing' '$fixture/table.txt' &&
	! grep 'accel=modeled.*hardware timing' '$fixture/table.txt' | grep -v -q 'NOT hardware timing'"

# The model against uml's measured ratios (bench/measured.conf) and the
# 2014 design by era: validation.csv, from the same results.csv.
vget() { "$tools/csvget" "$fixture/validation.csv" "$@" 2> /dev/null || echo missing; }
rget() { "$tools/csvget" "$fixture/results.csv" "$@" 2> /dev/null || echo missing; }
# old_new COL TAG FILTER SKBS: results.csv's COL of old over new's, modeled,
# in that cell; "missing" without both.
old_new() {
	awk -v o="$(rget "$1" accel=modeled tag="$2" engine=old filter="$3" skbs="$4")" \
		-v n="$(rget "$1" accel=modeled tag="$2" engine=new filter="$3" skbs="$4")" \
		'BEGIN { if (n > 0 && o != "missing") printf "%.12g\n", o / n; else print "missing" }'
}
is "$(vget uml accel=modeled core=glc predictor=tage cell=fprog1-hit pair=old/new) $(vget measured accel=modeled core=zen5 predictor=tage cell=fprog2-miss pair=old/new2014)" \
	"0.4719 amd-epyc-uml" "validation.csv: each measured record beside the core it names (Intel: glc, AMD: zen5)"
is "$(vget measured accel=modeled core=zen5 predictor=btb cell=fprog1-hit pair=old/new)" "" \
	"validation.csv: a predictor not the core's own is no validation row"
# shellcheck disable=SC2016
expect "validation.csv: the build's ratio is results.csv's model_cycles_core_glc old/new, the instructions' counted_insns'" awk \
	-v r="$(old_new model_cycles_core_glc bench fprog1 1)" -v ri="$(old_new counted_insns bench fprog1 1)" \
	-v m="$(vget built accel=modeled core=glc predictor=tage cell=fprog1-hit pair=old/new)" \
	-v i="$(vget insns accel=modeled core=glc predictor=tage cell=fprog1-hit pair=old/new)" \
	'BEGIN { d = m - r; e = i - ri; exit !(r != "missing" && ri != "missing" && d * d < 1e-8 && e * e < 1e-8) }'
# shellcheck disable=SC2016
expect "validation.csv: within10 and closer follow from the figures" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["measured"] != "" {
		n++; m = $c["model"] / $c["uml"]; x = $c["insns"] / $c["uml"]
		w = (m - 1) ^ 2 <= 0.01; cl = log(m) ^ 2 < log(x) ^ 2
		if (w != $c["within10"] || cl != $c["closer"]) bad++ }
	END { exit bad || n != 24 }' "$fixture/validation.csv"
expect "table.txt: the validation against each measured host and the era table, the 2012 core first" sh -c "
	grep -q '^model against measured, accel=modeled: core glc (its own predictor) against' '$fixture/table.txt' &&
	grep -q '^model against measured, accel=modeled: core zen5 (its own predictor) against' '$fixture/table.txt' &&
	grep -q '^  the model within 10% of uml: [0-9]* of 12; closer than the instruction count: [0-9]* of 12' '$fixture/table.txt' &&
	grep -A4 '^the 2014 design against the 3.14 interpreter, by era, accel=modeled' '$fixture/table.txt' >/dev/null &&
	grep -A8 'by era, accel=modeled' '$fixture/table.txt' | grep -A1 'old/new2014 2014 commit  *2.9x' | grep -q 'snb 2012, tcache \*'"

# Mixed traffic (bench.mix=1): mixed.csv from the same results.csv,
# ratios.csv and mix-ratios.csv.
xget() { "$tools/csvget" "$fixture/mixed.csv" "$@" 2> /dev/null || echo missing; }
# shellcheck disable=SC2016
expect "mixed.csv: every modeled core's three pairs and five engines in both filters' cache-miss cells" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "modeled" { n[$c["accel"] " " $c["core"] " " $c["figure"]]++ }
	END { exit !(n["modeled zen5 cycles"] == 6 && n["modeled glc mispredicts"] == 10 &&
		n["modeled snb cycles"] == 6 && n["modeled-arm a15 mispredicts"] == 10) }' "$fixture/mixed.csv"
# shellcheck disable=SC2016
expect "mixed.csv: data-dependent branches: every engine mispredicts more a call on the mixed skbs on zen5 and glc (TAGE)" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["figure"] == "mispredicts" && ($c["core"] == "zen5" || $c["core"] == "glc") {
		n++; if (!($c["mixed"] > $c["single"] + 0.3)) bad++ }
	END { exit bad || n != 20 }' "$fixture/mixed.csv"
# shellcheck disable=SC2016
expect "mixed.csv: a model's mixed ratio is over its 9 code layouts, the build's (results.csv tag mix) in their range" awk \
	-v r="$(old_new model_cycles mix fprog1 10000)" \
	-v lo="$(xget mixed_min accel=modeled core=zen5 figure=cycles filter=fprog1 what=old/new)" \
	-v hi="$(xget mixed_max accel=modeled core=zen5 figure=cycles filter=fprog1 what=old/new)" \
	-v l="$(xget layouts accel=modeled core=zen5 figure=cycles filter=fprog1 what=old/new)" \
	'BEGIN { exit !(r != "missing" && l == 9 && r >= lo - 1e-6 && r <= hi + 1e-6) }'
is "$(xget timed_ratio accel=modeled core=glc figure=cycles filter=fprog2 what=old/new2014) $(xget timed accel=modeled core=zen5 figure=cycles filter=fprog2 what=old/new2014)" \
	"$("$tools/csvget" "$fixture/mix-ratios.csv" ratio accel=uml pair=old/new2014 filter=fprog2 skbs=10000) " \
	"mixed.csv: glc (the core bench/measured.conf names for this host's cpu) carries uml's paired mixed ratio; zen5 none"
is "$(xget single accel=uml figure=median filter=fprog1 what=old/new) $(xget basis accel=uml figure=median filter=fprog1 what=old/new) $(xget layouts accel=uml figure=median filter=fprog1 what=old/new)" \
	"$("$tools/csvget" "$fixture/ratios.csv" ratio accel=uml pair=old/new filter=fprog1 skbs=10000) paired 24" \
	"mixed.csv: uml's figures are its paired ratios over its 24 code layouts (ratios.csv's beside mix-ratios.csv's)"
expect "table.txt: the mixed traffic of uml, modeled and modeled-arm, the model headed as a model" sh -c "
	grep -q '^mixed traffic, accel=uml\$' '$fixture/table.txt' &&
	grep -A1 '^mixed traffic, accel=modeled\$' '$fixture/table.txt' | grep -q 'NOT hardware timing' &&
	grep -q '^mixed traffic, accel=modeled-arm\$' '$fixture/table.txt'"

# A measured record is held against the model of its flavour's 2014
# architecture (um: x86_64): named arm, the x86_64 model gets no rows.
rm -rf "$tmp/varm"
cp -R "$fixture" "$tmp/varm"
sed 's/^\tflavour\t\tum$/\tflavour\t\tarm/' "$(dirname "$0")/../bench/measured.conf" > "$tmp/measured-arm.conf"
expect "validation.csv: measured records of flavour arm give the x86_64 model no rows (um's give it 24)" sh -c "
	MEASURED_CONF='$tmp/measured-arm.conf' '$tools/mkclaims' '$tmp/varm' &&
	[ \$(grep -c '^modeled,' '$tmp/varm/validation.csv') = 0 ] &&
	[ \$(grep -c '^modeled,.*,[a-z-]*-uml,' '$fixture/validation.csv') = 24 ]"

# mkmeasured: a measured record from a run's own ratios (a host a later run
# adds), checked by regcheck beside the live ones.
umlfx=$(cd "$(dirname "$0")/fixtures/uml-boots" && pwd)
expect "mkmeasured: a record of the uml-boots fixture passes regcheck beside bench/measured.conf" sh -c "
	{ cat '$(dirname "$0")/../bench/measured.conf'; echo; '$tools/mkmeasured' '$umlfx' uml amd-boots zen5; } > '$tmp/measured.conf' &&
	MEASURED_CONF='$tmp/measured.conf' '$tools/regcheck'"
is "$("$tools/mkmeasured" "$umlfx" uml amd-boots zen5 2> /dev/null | awk '$1 == "ratio.old/new2014" { print $2 }')" \
	"$("$tools/csvget" "$umlfx/ratios.csv" ratio accel=uml pair=old/new2014 filter=fprog1 skbs=1):$(printf '%.4f' "$("$tools/csvget" "$umlfx/ratios.csv" ci_lo accel=uml pair=old/new2014 filter=fprog1 skbs=1)"):$(printf '%.4f' "$("$tools/csvget" "$umlfx/ratios.csv" ci_hi accel=uml pair=old/new2014 filter=fprog1 skbs=1)")" \
	"mkmeasured: RATIO:LO:HI of the first cell is ratios.csv's"
refused "mkmeasured refuses an accelerator with no ratios in the run" "no ratio of accel icount" \
	"$tools/mkmeasured" "$umlfx" icount x zen5

# mkcsv refuses what it cannot pair or compute, naming it (testlib.sh
# refused)
broken() {
	rm -rf "$tmp/b"
	cp -R "$fixture" "$tmp/b"
	rm -f "$tmp/b/results.csv"
}
broken
sed -i '/^window=3 /d' "$tmp/b/modeled/model.txt"
refused "mkcsv refuses a cell whose window is not in model.txt" "modeled/cells.txt:4: window 3 of core zen5 is not in" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i '/^model_formula=/d' "$tmp/b/modeled-arm/host.txt"
refused "mkcsv refuses a modeled accelerator without model_formula" "modeled-arm/host.txt: kind modeled but no model_formula" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i 's/^model_formula=base:1 /model_formula=base:1 tlb_miss:30 /' "$tmp/b/modeled/host.txt"
refused "mkcsv refuses a formula term that is no model counter" "'tlb_miss' is not COUNTER:WEIGHT" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i '/^window=.* core=zen5 /s/ base=[0-9.]* base_dropped=[0-9]*$//' "$tmp/b/modeled/model.txt"
refused "mkcsv refuses a formula with base on window lines mcabase did not cost" "the window lines have no base" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i '/^window=3 core=zen5 /s/ restarts=0/ restarts=1/' "$tmp/b/modeled/model.txt"
refused "mkcsv refuses a window with a start marker inside it" "window 3 had 1 start markers inside it" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i '/^window=3 core=glc /d' "$tmp/b/modeled/model.txt"
refused "mkcsv refuses a cell whose window has no line of a further core (model_also)" "window 3 of core glc is not in" \
	"$tools/mkcsv" "$tmp/b"
broken
sed -i '1s/ model_window=[0-9]* model_calls=[0-9]*//' "$tmp/b/modeled/cells.txt"
refused "mkcsv refuses a cell of a modeled accelerator without its window" "cells.txt:1: a cell of a modeled accelerator without model_window" \
	"$tools/mkcsv" "$tmp/b"
# Code layout (docs/model.md, "Code layout"): the fixture with two
# variant boots of the bench plan, as make bench makes them for kind
# modeled (accels.conf variants bench): one the same as the build, one in
# which old fprog #2 cache-hit (window 6) mispredicts 20 indirect jumps a
# call with ITTAGE (zen5's own predictor), the build's none, so
# that "new faster than old" on fprog #2 cache-hit holds there with TAGE
# (depends on the predictor) and is reversed under every predictor in the
# other two layouts.
rm -rf "$tmp/lay"
cp -R "$fixture" "$tmp/lay"
rm -rf "$tmp/lay"/modeled/boot-*
for k in 2 3; do
	mkdir "$tmp/lay/modeled/boot-$k"
	cp "$fixture/modeled/cells.txt" "$fixture/modeled/meta.txt" "$fixture/modeled/status" \
		"$tmp/lay/modeled/boot-$k/"
	{ cat "$fixture/modeled/host.txt"; echo "layout=${k}1"; } > "$tmp/lay/modeled/boot-$k/host.txt"
done
cp "$fixture/modeled/model.txt" "$tmp/lay/modeled/boot-2/model.txt"
sed 's/^\(window=6 core=zen5 .* ind_miss_ittage=\)[0-9]* /\1400000 /' "$fixture/modeled/model.txt" > "$tmp/lay/modeled/boot-3/model.txt"
lay=$tmp/lay
expect "layouts: the tables stage makes a run of each variant boot (layouts/21, layouts/31)" sh -c "
	PLOTS=0 '$(dirname "$0")/mktables.sh' '$lay' '$tools' > /dev/null 2>&1 &&
	[ -s '$lay/layouts/21/claims.csv' ] && [ -s '$lay/layouts/31/results.csv' ]"
get() { "$tools/csvget" "$@" 2> /dev/null || echo missing; }
built=$(get "$lay/results.csv" median accel=modeled tag=bench engine=old filter=fprog2 skbs=1)
is "$(get "$lay/layouts.csv" layouts accel=modeled what=figure name=old filter=fprog2 skbs=1) $(get "$lay/layouts.csv" min accel=modeled what=figure name=old filter=fprog2 skbs=1) $(get "$lay/layouts.csv" built accel=modeled what=figure name=old filter=fprog2 skbs=1)" \
	"3 $built $built" "layouts.csv: old fprog #2 cache-hit over 3 layouts, its minimum the kernel as built's"
# shellcheck disable=SC2016
expect "layouts.csv: its maximum is the variant's, 20 x 14 cycles dearer" awk -F, -v b="$built" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["accel"] == "modeled" && $c["what"] == "figure" && $c["name"] == "old" && $c["filter"] == "fprog2" && $c["skbs"] == 1 {
		d = $c["max"] - b; found = d > 20 * 14 * 0.99 && d < 20 * 14 * 1.01 }
	END { exit !found }' "$lay/layouts.csv"
is "$(get "$lay/claims.csv" verdict accel=modeled claim=model-new-faster cell=fprog2-hit) / $(get "$lay/claims.csv" layout_verdicts accel=modeled claim=model-new-faster cell=fprog2-hit)" \
	"depends on the layout / reversed 2, depends on the predictor 1" "claims.csv: a claim reversed in 2 layouts and predictor-dependent in 1 depends on the layout"
is "$(get "$lay/claims.csv" verdict accel=modeled claim=model-new-faster cell=fprog1-hit) / $(get "$lay/claims.csv" layout_verdicts accel=modeled claim=model-new-faster cell=fprog1-hit)" \
	"reversed / reversed 3" "claims.csv: a claim with one verdict in every layout keeps it"
# shellcheck disable=SC2016
expect "validation.csv: the model's ratio is its geometric mean over the 3 layouts, the build's beside it" awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["core"] == "zen5" && $c["predictor"] == "tage" && $c["cell"] == "fprog2-hit" && $c["pair"] == "old/new" {
		b = $c["built"]; m = $c["model"]; hi = $c["model_max"]
		# two layouts at the build, one at hi: the mean is (b^2 hi)^(1/3)
		d = m - exp((2 * log(b) + log(hi)) / 3)
		found = $c["layouts"] == 3 && $c["model_min"] == b && hi > 2 * b && d * d < 1e-6 }
	END { exit !found }' "$lay/validation.csv"
cg() { get "$lay/claims.csv" "$1" accel=modeled claim=model-new-faster cell=fprog2-hit; }
expect "claims.csv: a figure over the 3 layouts is their geometric mean, as validation.csv's, the build's in the basis" \
	awk -v v="$(cg value)" -v lo="$(cg layout_min)" -v hi="$(cg layout_max)" \
	-v m="$(get "$lay/validation.csv" model accel=modeled core=zen5 predictor=tage cell=fprog2-hit pair=old/new)" \
	-v b="$(cg basis)" 'BEGIN { d = v - exp((2 * log(lo) + log(hi)) / 3); e = v / m - 1
		exit !(hi > lo && d * d < 1e-8 && e * e < 1e-8 && b ~ /geometric mean over 3 code layouts/) }'
is "$(get "$lay/claims.csv" layouts accel=modeled-arm claim=model-new-faster cell=fprog1-hit)" "" \
	"claims.csv: no layout columns for an accelerator with no variants (modeled-arm)"
expect "table.txt: a code-layouts section for modeled only, old fprog #2 cache-hit as a range" sh -c "
	grep -q '^code layouts, accel=modeled: each figure.s range, min-max, over 3 code layouts' '$lay/table.txt' &&
	! grep -q '^code layouts, accel=modeled-arm' '$lay/table.txt' &&
	grep -A4 '^code layouts, accel=modeled:' '$lay/table.txt' | grep -Eq '^old BPF +[0-9.]+ +[0-9.]+ +$(printf '%.1f' "$built")-[0-9.]+ '"
is "$(get "$fixture/layouts.csv" layouts accel=modeled what=figure name=new filter=fprog1 skbs=1)" 9 \
	"fixture: layouts.csv has the run's figures over its 9 code layouts (the kernel as built and 8 variants)"

test_summary
