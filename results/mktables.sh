#!/bin/sh
# The tables stage: a run's raw guest output (run.txt, <accel>/host.txt,
# meta.txt, cells.txt, control.txt, test_bpf.txt, perf/, and repeat-N/ of
# REPEAT runs, <accel>/paired.txt) -> results.csv, ratios.csv,
# absolute.csv, median-ratios.csv, claims.csv, decomposition.csv,
# table.txt, spread.txt, plots/ and the cover letter.  Every derived
# number (a ratio, a cost per VM instruction) is formed once, into one of
# the CSVs; table.txt, the plots and the cover letter print it.  Boots
# nothing: `make bench` runs it after its boots, `make tables
# RUN=results/<id>` on a saved run, and results/tests.sh on the fixture
# runs of results/fixtures/.
#
# usage: mktables.sh RUN_DIR TOOLS_DIR [TREE_DIR COVER.patch]
# env:   PLOTS=0 to skip the plots (default: drawn when gnuplot is there)
#        SPREAD_LIMIT  percent, for the REPEAT spread (default 5)
set -eu

[ $# = 2 ] || [ $# = 4 ] || {
	echo "usage: mktables.sh RUN_DIR TOOLS_DIR [TREE_DIR COVER.patch]" >&2
	exit 2
}
run=$1 tools=$2 tree=${3:-} cover=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$run" ] || { echo "mktables.sh: no run directory $run" >&2; exit 1; }
[ -f "$run/run.txt" ] || { echo "mktables.sh: no $run/run.txt (not a run directory)" >&2; exit 1; }
# A run run-bench.sh did not get to the end of (RUN/INCOMPLETE) has no tables.
if [ -f "$run/INCOMPLETE" ]; then
	echo "mktables.sh: $run is marked incomplete: $(head -n 1 "$run/INCOMPLETE"); no tables made" >&2
	exit 1
fi

# A capture-workload run (make bench FILTERS=... PCAP=...): its own tables.
if [ -f "$run/workload/workload.txt" ]; then
	exec "$here/mkcapture.sh" "$run" "$tools"
fi

# The tables are made anew; if a step fails, none of them is left (a
# half-written table is no result).  Plots and cover letter come after.
rm_outs() {
	rm -rf "$run/results.csv" "$run/ratios.csv" "$run/ratios.tmp" \
		"$run/absolute.csv" "$run/absolute.tmp" \
		"$run/median-ratios.csv" "$run/claims.csv" "$run/decomposition.csv" \
		"$run/layouts.csv" "$run/layouts" "$run/against.csv" \
		"$run/spread.csv" "$run/ratio-spread.csv" \
		"$run/table.txt" "$run/spread.txt" "$run/ratio-spread.txt" \
		"$run"/repeat-*/results.csv "$run"/repeat-*/ratios.csv \
		"$run"/repeat-*/absolute.csv
}
rm_outs
failed() {
	rc=$?
	[ "$rc" != 0 ] || return 0
	rm_outs
	echo "mktables.sh: $run: a step failed (see above): no results.csv, table.txt" >&2
}
trap failed EXIT

"$tools/mkcsv" "$run" > "$run/results.csv"

# Paired rounds (<accel>/paired.txt, and <accel>/boot-K/paired.txt of the
# accelerator's further boots) -> ratios.csv: per cell and engine pair the
# ratio over the boots with its 95% CI (mkratios: one file per boot), each
# row with the accelerator, CPU, kernel and config.
# shellcheck source=results/kv.sh
. "$here/kv.sh"
# all_boot_files ACCEL_DIR [FILE]: its FILE (paired.txt) files, one per
# boot, in boot order.
all_boot_files() {
	echo "$1/${2:-paired.txt}"
	find "$1" -mindepth 2 -maxdepth 2 -path "*/boot-[0-9]*/${2:-paired.txt}" |
		awk '{ k = $0; sub(/.*\/boot-/, "", k); print k + 0, $0 }' | sort -n | cut -d' ' -f2-
}
# boot_files ACCEL_DIR [FILE]: the boots the figures are formed over: with
# code-layout variants (a "layout" in a boot's host.txt, run-bench.sh
# LAYOUTS) the paired boots of the variants only, not the bench plan's
# boot of the kernel as built; else every boot.
boot_files() {
	if grep -qs '^layout=' "$1"/boot-*/host.txt; then
		for f in $(all_boot_files "$1" "${2:-}"); do
			! grep -qs '^layout=' "$(dirname "$f")/host.txt" || echo "$f"
		done
	else
		all_boot_files "$1" "${2:-}"
	fi
}
# layout_labels ACCEL_DIR [FILE]: -g and the layout seed of each of
# boot_files, comma-separated (mkratios), or nothing without variants.
layout_labels() {
	grep -qs '^layout=' "$1"/boot-*/host.txt || return 0
	printf -- '-g '
	for f in $(boot_files "$1" "${2:-}"); do kv "$(dirname "$f")/host.txt" layout; done | paste -sd, -
}
# layout_builds ACCEL_DIR: the builds its variants were relinked from
# (host.txt layout_build, run-bench.sh), "+"-joined in order of first boot.
layout_builds() {
	for f in $(boot_files "$1"); do kv "$(dirname "$f")/host.txt" layout_build; done |
		awk 'NF && !seen[$0]++' | paste -sd+ -
}
# ratios DIR: DIR/ratios.csv and absolute.csv from DIR/<accel>/paired.txt,
# DIR/mix-ratios.csv from the mixed-traffic rounds, paired-mix.txt (none
# without).  The config hash is per accelerator (host.txt), from run.txt
# in older runs.
ratios() {
	rm -f "$1/ratios.csv" "$1/absolute.csv" "$1/mix-ratios.csv"
	# a layout_builds column in runs whose variants name their build
	builds_col=
	! grep -qs '^layout_build=' "$1"/*/boot-*/host.txt || builds_col=1
	for d in "$1"/*/; do
		d=${d%/}
		for what in ratios absolute mix-ratios; do
			src=paired.txt
			[ "$what" != mix-ratios ] || src=paired-mix.txt
			[ -f "$d/$src" ] || continue
			a=$(kv "$d/host.txt" accel)
			[ -n "$a" ] || a=$(basename "$d")
			ch=$(kv "$d/host.txt" config_hash)
			[ -n "$ch" ] || ch=$(kv "$run/run.txt" config_hash)
			rsd=$(kv "$d/host.txt" run_sd)
			# one word per boot file (run directories have no spaces)
			# shellcheck disable=SC2046
			"$tools/mkratios" -s $( [ "$what" != absolute ] || echo -A) -a "$a" ${rsd:+-r "$rsd"} $(layout_labels "$d" "$src") \
				-c "kind=$(kv "$d/host.txt" kind)" \
				-c "unit=$(kv "$d/host.txt" unit)" \
				-c "flavour=$(kv "$d/host.txt" flavour)" \
				-c "cpu=$(kv "$d/meta.txt" cpu)" \
				-c "kernel=$(kv "$d/meta.txt" kernel)" \
				-c "config_hash=$ch" \
				-c "series_hash=$(kv "$run/run.txt" series_hash)" \
				$( [ -z "$builds_col" ] || echo "-c layout_builds=$(layout_builds "$d")") \
				$(boot_files "$d" "$src") > "$1/$what.tmp"
			if [ -f "$1/$what.csv" ]; then
				tail -n +2 "$1/$what.tmp" >> "$1/$what.csv"
			else
				cat "$1/$what.tmp" > "$1/$what.csv"
			fi
			rm -f "$1/$what.tmp"
		done
	done
}
ratios "$run"
# Code-layout runs (docs/model.md, "Code layout"): each boot of a variant
# that ran the bench plan (a kind with "variants bench" in accels.conf:
# the modeled accelerators) becomes a run of its own, RUN/layouts/SEED/
# (run.txt and a link to the boot), with its results.csv and mkclaims'
# files; mkclaims on RUN then forms each figure's and claim's range over
# the layouts (layouts.csv, claims.csv's layout columns).
layout_runs() {
	rm -rf "$run/layouts"
	for d in "$run"/*/boot-[0-9]*/; do
		d=${d%/}
		seed=$(kv "$d/host.txt" layout)
		[ -n "$seed" ] || continue
		[ -f "$d/cells.txt" ] || continue
		mkdir -p "$run/layouts/$seed"
		cp "$run/run.txt" "$run/layouts/$seed/run.txt"
		ln -s "../../$(basename "$(dirname "$d")")/$(basename "$d")" \
			"$run/layouts/$seed/$(basename "$(dirname "$d")")"
	done
	for l in "$run"/layouts/*/; do
		[ -d "$l" ] || continue
		"$tools/mkcsv" "$l" > "$l/results.csv"
		"$tools/mkclaims" "$l"
	done
}
layout_runs
# The ratios of the medians (engines.conf ratio records, and the pairs of
# the claims and splits), the 2014 claims and the old/new split (claim and
# split records) -> median-ratios.csv, claims.csv, decomposition.csv: the
# data every rendering uses.
"$tools/mkclaims" "$run"
if [ -f "$run/ratios.csv" ]; then
	"$tools/mktable" "$run/results.csv" "$run/ratios.csv" "$run/absolute.csv" > "$run/table.txt"
else
	"$tools/mktable" "$run/results.csv" > "$run/table.txt"
fi
# A run of a tree other than the default: its counted figures beside the
# default tree's reference run (bench/kernels.conf reference; docs/kernels.md).
"$tools/mktrend" -r "$run" >> "$run/table.txt"

# REPEAT=n: each cell's median over the n runs (REPEAT: whole runs) and their spread,
# (max - min) / min (run-to-run spread), below the tables.
# The paired ratios of every run too: their spread over the runs is what
# a shared machine cannot move (limits RATIO_LIMIT for one skb, default 3%,
# RATIO_MISS_LIMIT for more, default 5%).
runs="$run/results.csv"
rruns=
[ ! -f "$run/ratios.csv" ] || rruns=$run/ratios.csv
n=1
for rep in $(find -H "$run" -maxdepth 1 -type d -name 'repeat-[0-9]*' | sort -t- -k2 -n); do
	"$tools/mkcsv" "$rep" > "$rep/results.csv"
	runs="$runs $rep/results.csv"
	ratios "$rep"
	if [ -n "$rruns" ] && [ -f "$rep/ratios.csv" ]; then
		rruns="$rruns $rep/ratios.csv"
	else
		rruns=
	fi
	n=$((n + 1))
done
id=$(sed -n 's/^run_id=//p' "$run/run.txt")
# cmpruns: ratio-spread.txt / spread.txt (every cell), ratio-spread.csv /
# spread.csv (the same as data) and the summary under the tables.
if [ "$n" -gt 1 ] && [ -n "$rruns" ]; then
	{
		echo "== paired ratio per cell in each of the $n runs (REPEAT; first = ratios.csv), their median, spread = (max - min) / min"
		# shellcheck disable=SC2086
		"$tools/cmpruns" -m "${RATIO_MISS_LIMIT:-5}" -c "$run/ratio-spread.csv" $rruns "${RATIO_LIMIT:-3}" || true
	} > "$run/ratio-spread.txt"
	{
		echo "run-to-run spread of the paired ratios over $n runs (results/$id/ratio-spread.txt):"
		# shellcheck disable=SC2086
		"$tools/cmpruns" -m "${RATIO_MISS_LIMIT:-5}" -s /old/new $rruns "${RATIO_LIMIT:-3}" || true
		echo
	} >> "$run/table.txt"
fi
if [ "$n" -gt 1 ]; then
	limit=${SPREAD_LIMIT:-5}
	{
		echo "== median per cell in each of the $n runs (first = results.csv), their median, spread = (max - min) / min"
		# shellcheck disable=SC2086
		"$tools/cmpruns" -c "$run/spread.csv" $runs "$limit" || true
	} > "$run/spread.txt"
	{
		echo "run-to-run spread of the medians over $n runs (results/$id/spread.txt):"
		# shellcheck disable=SC2086
		"$tools/cmpruns" -s /control -l -h "the host's native control loop over the same runs (machine noise, not the guest's):" \
			$runs "$limit" || true
		echo
	} >> "$run/table.txt"
fi

# The tables are complete.
trap - EXIT

if [ "${PLOTS:-1}" != 0 ]; then
	if command -v gnuplot > /dev/null; then
		CSV2DAT=$tools/csv2dat MKTREND=$tools/mktrend "$(dirname "$here")/plots/render.sh" "$run"
	else
		echo "[tables] no gnuplot: no plots (apt-get install gnuplot-nox)" >&2
	fi
fi

if [ -n "$tree" ]; then
	if git -C "$tree" rev-parse -q --verify pristine > /dev/null 2>&1; then
		"$tools/mkcover" "$run" "$tree" "$cover"
		echo "[tables] cover letter: $cover"
	else
		echo "[tables] no patched tree in $tree (make tree): no cover letter" >&2
	fi
fi
echo "[tables] $run: results.csv, table.txt$( [ "$n" -gt 1 ] && echo ", spread.txt")"
