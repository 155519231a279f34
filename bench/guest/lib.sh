# shellcheck shell=sh
# Shared functions of the guest plans (sourced; busybox sh).
# The bench module's knobs live in $KNOBS; filters and packets in /bench.

KNOBS=/sys/kernel/debug/bpf_bench
FILTERS=/bench/filters

say() { echo "[guest] $*" >&2; }

# layout_seed: what a boot fixes, varied on purpose (docs/statistics.md).
# BENCH_SEED=S (run-bench.sh draws one per boot and records it in the
# boot's host.txt) holds S mod 1024 pages in a file of the initramfs (in
# memory) before the module is loaded, so that the pages of the module's
# text and of everything it then allocates come from further on; the seed
# goes into meta.txt.  No seed: nothing is held.
layout_seed() {
	[ -n "${BENCH_SEED:-}" ] || return 0
	pages=$((BENCH_SEED % 1024))
	[ "$pages" = 0 ] || dd if=/dev/zero of=/layout-pad bs=4096 count="$pages" 2> /dev/null
}

load_bench_module() {
	insmod /bench/modules/bpf_bench.ko
	[ -d "$KNOBS" ] || { say "bpf_bench loaded but $KNOBS is missing"; return 1; }
}

# set_knob NAME VALUE: write and fail loudly with the errno.
set_knob() {
	if ! err=$(/bench/knob "$KNOBS/$1" "$2"); then
		say "writing '$2' to $1 failed: $err"
		return 1
	fi
}

# set_knob_file NAME FILE: write a whole file in one write(2).
set_knob_file() {
	if ! err=$(/bench/knob "$KNOBS/$1" - < "$2"); then
		say "writing $2 to $1 failed: $err"
		return 1
	fi
}

# write_refused NAME VALUE ERRNO: writing VALUE to knob NAME fails with
# errno ERRNO and leaves the knob as it was; else fails, saying what
# happened on stdout.
write_refused() {
	wr_before=$(cat "$KNOBS/$1")
	wr_err=$(/bench/knob "$KNOBS/$1" "$2") && wr_err="errno=none"
	wr_after=$(cat "$KNOBS/$1")
	[ "$wr_err" = "errno=$3" ] && [ "$wr_before" = "$wr_after" ] && return 0
	# a program's value is many lines: the first of each, cut
	echo "got $wr_err, want errno=$3; value kept: $([ "$wr_before" = "$wr_after" ] && echo yes || echo no)" \
		"(before '$(echo "$wr_before" | head -n 1 | cut -c1-60)'," \
		"after '$(echo "$wr_after" | head -n 1 | cut -c1-60)')"
	return 1
}

# expected_verdict FILTER PACKET: the value tcpdump's verdict implies.
expected_verdict() {
	awk -v f="$1" -v p="$2" '$1 == f && $2 == p { print $3; found = 1 }
		END { exit !found }' "$FILTERS/verdicts.txt"
}

# perf is captured when the guest has it and the plan did not turn it off.
PERF_EVENTS=task-clock,cycles,instructions,branches,branch-misses,cache-misses
perf_wanted() {
	[ "${BENCH_PERF:-1}" != 0 ] && [ -n "${PERF_OUT:-}" ] && command -v perf > /dev/null
}

# perf_setup: let perf see kernel and module symbols.
perf_setup() {
	perf_wanted || return 0
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
	mkdir -p "$PERF_OUT"
	export HOME=/tmp
}

# timed_run CELL: write 1 to run, under perf stat when perf is wanted (the
# counters cover exactly the timed run), then once more under perf record
# for a profile.  perf failing never fails the cell, the run failing does.
timed_run() {
	if ! perf_wanted; then
		set_knob run 1
		return
	fi
	if ! err=$(perf stat -x, -o "$PERF_OUT/$1.stat" -e "$PERF_EVENTS" -- \
		/bench/knob "$KNOBS/run" 1); then
		say "run of $1 failed: $err"
		return 1
	fi
	cp "$KNOBS/result" /tmp/result.timed
	perf_profile "$PERF_OUT/$1.report" jit_image_of_result \
		/bench/knob "$KNOBS/run" 1
}

# jit_image_of_result: the JIT image range of the last run ("" "" if none).
jit_image_of_result() {
	echo "$(result_key image_start) $(result_key image_end)"
}

# perf_profile REPORT RANGE_FN CMD...: CMD under perf record (cpu-clock),
# its perf report --stdio into REPORT, with the bare addresses in the range
# RANGE_FN prints after the run folded into one JIT image line.  Once in a
# while (seen under icount) perf resolves none of the module's symbols: a
# report without one named kernel symbol is recorded once more.
perf_profile() {
	report=$1 range_fn=$2
	shift 2
	for attempt in 1 2; do
		perf record -q -N -e cpu-clock -F 4000 -o /tmp/perf.data -- \
			"$@" > /dev/null 2>&1 || break
		# shellcheck disable=SC2046
		perf report -i /tmp/perf.data --stdio --sort symbol \
			--percent-limit 0.5 2> /dev/null |
			fold_jit_samples $("$range_fn") > "$report" || true
		grep -q '%  \[k\] [A-Za-z_[]' "$report" && break
		[ "$attempt" = 2 ] || say "perf: no kernel symbol resolved in $(basename "$report"), recording again"
	done
	rm -f /tmp/perf.data
}

# result_key KEY: a key of the last run's result line (empty if absent).
result_key() {
	tr ' ' '\n' < "$KNOBS/result" | sed -n "s/^$1=//p"
}

# fold_jit_samples START END: a JIT image has no kallsyms entry, so perf
# report lists each sampled address in it as a bare 0x... symbol.  Fold the
# ones in [START, END) into one "[bpf jit image]" line, re-sorted by share.
# perf prints BITS_PER_LONG/4 hex digits (16 on x86_64, 8 on i386 and arm),
# the module always 16: addresses are compared as numbers, by their digits
# without leading zeros, shorter first, then as strings.  The header is
# kept, perf's closing tip dropped.
fold_jit_samples() {
	awk -v lo="${1:-}" -v hi="${2:-}" '
	function digits(a) { a = tolower(a); sub(/^0x/, "", a); sub(/^0+/, "", a); return a "" }
	function below(a, b) { return length(a) != length(b) ? length(a) < length(b) : a < b }
	BEGIN { n = 0; l = digits(lo); h = digits(hi) }
	/^#/ || /^$/ { if (!n) print; next }
	$2 == "[k]" && lo != "" && $3 ~ /^0x[0-9a-f]+$/ &&
	    !below(digits($3), l) && below(digits($3), h) {
		jit += $1; folded++; next
	}
	{ pct[n] = $1 + 0; line[n++] = $0 }
	END {
		if (folded) {
			pct[n] = jit
			line[n++] = sprintf("%9.2f%%  [k] [bpf jit image: %d addresses in %s-%s]",
				jit, folded, lo, hi)
		}
		for (i = 1; i < n; i++)
			for (j = i; j > 0; j--) {
				if (pct[j] <= pct[j - 1])
					break
				t = pct[j]; pct[j] = pct[j - 1]; pct[j - 1] = t
				t = line[j]; line[j] = line[j - 1]; line[j - 1] = t
			}
		for (i = 0; i < n; i++)
			print line[i]
	}'
}

# run_cell ENGINE FILTER PACKET SKBS [TAG]: run one cell and print its
# result line, prefixed with the cell's id (<tag>-<engine>-<filter>-
# <packet>-skbs<N>: the name of its perf files) and what was measured.
# With BENCH_PLACEMENTS=R > 1 the cell is run R times, R placements, one
# line each (placement=K placements=R), which mkcsv combines on the host
# (results/mkcsv.c); perf covers the first.  With BENCH_GATE=1 each run
# waits for a quiet machine first (quiet_gate) and its line says how long.
# Each run of a cell is a new placement: new skbs, a new program, a new
# process and kernel stack (the knob tool), so new cache-set and 4K-alias
# relations between them, and a different moment of the host.  On hardware
# that can move a cell's median by far more than its within-run CI (UML
# here: 24 vs 32 ns for the same cell in one boot), so a single run per
# cell does not repeat across boots.
# cell_prefix ENGINE FILTER PACKET SKBS TAG: sets id and prefix, the start
# of a cell's result line (no subshell: plan-check.sh calls it per cell).
cell_prefix() {
	id=$5-$1-$2-$3-skbs$4
	prefix="id=$id tag=$5 filter=$2 packet=$3"
}

run_cell() {
	engine=$1 filter=$2 packet=$3 skbs=$4 tag=${5:-bench}
	cell_prefix "$engine" "$filter" "$packet" "$skbs" "$tag"
	rm -f /tmp/result.timed
	set_knob_file prog "$FILTERS/$filter.dd" &&
	set_cell_traffic "$filter" "$packet" || return 1
	# the gate's budget is per cell
	rm -f /tmp/gate.slept /tmp/gate.spent
	placements=${BENCH_PLACEMENTS:-1}
	placement=0
	while [ "$placement" -lt "$placements" ]; do
		gate_waits=0
		quiet_gate || return 1
		set_knob engine "$engine" && set_knob skbs "$skbs" || return 1
		if [ "$placement" = 0 ]; then
			timed_run "$id" || return 1
		else
			set_knob run 1 || return 1
		fi
		placement=$((placement + 1))
		cell_prefix "$engine" "$filter" "$packet" "$skbs" "$tag"
		[ "$placements" = 1 ] || prefix="$prefix placement=$placement placements=$placements"
		gate=
		[ "${BENCH_GATE:-0}" = 1 ] && gate=" gate_waits=$gate_waits"
		# timed_run under perf keeps the perf stat run's result
		if [ -f /tmp/result.timed ]; then
			echo "$prefix $(cat /tmp/result.timed)$gate"
		else
			echo "$prefix $(cat "$KNOBS/result")$gate"
		fi
		rm -f /tmp/result.timed
	done
}

# set_cell_traffic FILTER PACKET: the skbs' frames: PACKET's, every call
# to return tcpdump's verdict; or for PACKET "mix" the mixed traffic
# (mix_frames), each skb its frame's verdict.
set_cell_traffic() {
	if [ "$2" = mix ]; then
		mix_frames "$1" > /tmp/frames || return 1
		set_knob_file frames /tmp/frames && set_knob mix 1
		return
	fi
	expect=$(expected_verdict "$1" "$2") ||
		{ say "no verdict for $1/$2"; return 1; }
	set_knob mix 0 &&
	set_knob_file packet "$FILTERS/packets/$2.hex" &&
	set_knob expect "$expect"
}

# mix_frames FILTER: the frames knob's value for mixed traffic: every packet
# of filters/packets (verdicts.txt's, in its order), each line its verdict
# under FILTER and its bytes.
mix_frames() {
	awk -v f="$1" '$1 == f { print $2, $3 }' "$FILTERS/verdicts.txt" > /tmp/mix.list
	[ "$(wc -l < /tmp/mix.list)" -ge 2 ] ||
		{ say "mix: fewer than 2 packets of $1 in verdicts.txt"; return 1; }
	while read -r pkt verdict; do
		echo "$verdict $(tr '\n' ' ' < "$FILTERS/packets/$pkt.hex")"
	done < /tmp/mix.list
}

# quiet_gate: with BENCH_GATE=1 (hardware timing), wait until the machine
# is quiet before a run: a short loop-only probe must come within 5% of the
# fastest probe of this boot (gate_calibrate), else sleep 2 s and probe
# again, at most BENCH_GATE_WAITS (15) times per run and BENCH_GATE_BUDGET
# (20) seconds of sleep per cell (run_cell resets it: one busy stretch
# cannot spend the waiting of every later cell).  Ratios need no gate: the
# paired cells (paired.sh) sample all engines in the same rounds.  On a
# shared host a neighbour's load slows everything on the CPU, the loop
# alone too (here by 10-20% for minutes at a time).  Leaves engine and
# skbs for the caller.
quiet_gate() {
	[ "${BENCH_GATE:-0}" = 1 ] || return 0
	waits=0
	while :; do
		slept=$(cat /tmp/gate.slept 2>/dev/null || echo 0)
		if [ "$slept" -ge "${BENCH_GATE_BUDGET:-20}" ]; then
			[ -f /tmp/gate.spent ] ||
				say "gate: this cell's ${slept} s of waiting spent; measuring it without the gate"
			: > /tmp/gate.spent
			break
		fi
		probe=$(gate_probe) || return 1
		best=$(cat /tmp/gate.best)
		if awk -v p="$probe" -v b="$best" 'BEGIN { exit !(p <= b * 1.05) }'; then
			awk -v p="$probe" -v b="$best" 'BEGIN { exit !(p < b) }' &&
				echo "$probe" > /tmp/gate.best
			break
		fi
		if [ "$waits" -ge "${BENCH_GATE_WAITS:-15}" ]; then
			say "gate: still busy after $waits waits (loop-only $probe ns, best $best ns); measuring anyway"
			break
		fi
		waits=$((waits + 1))
		echo $((slept + 2)) > /tmp/gate.slept
		sleep 2
	done
	gate_waits=$((gate_waits + waits))
}

# gate_probe: the loop-only median over 3 samples of 5 ms on one skb of the
# current packet; the knobs it changes other than engine and skbs are put
# back.
gate_probe() {
	samples=$(cat "$KNOBS/samples") sample_us=$(cat "$KNOBS/sample_us")
	mix=$(cat "$KNOBS/mix")
	set_knob engine baseline && set_knob skbs 1 && set_knob samples 3 &&
	set_knob sample_us 5000 && set_knob mix 0 && set_knob run 1 || return 1
	result_key median
	set_knob samples "$samples" && set_knob sample_us "$sample_us" &&
	set_knob mix "$mix"
}

# gate_calibrate FILTER PACKET: with BENCH_GATE=1, the fastest of 5 probes
# a second apart on that cell is the boot's quiet reference.
gate_calibrate() {
	[ "${BENCH_GATE:-0}" = 1 ] || return 0
	rm -f /tmp/gate.slept /tmp/gate.spent
	set_knob_file prog "$FILTERS/$1.dd" &&
	set_cell_traffic "$1" "$2" || return 1
	rm -f /tmp/gate.best
	for i in 1 2 3 4 5; do
		probe=$(gate_probe) || return 1
		if [ ! -f /tmp/gate.best ] ||
			awk -v p="$probe" -v b="$(cat /tmp/gate.best)" 'BEGIN { exit !(p < b) }'; then
			echo "$probe" > /tmp/gate.best
		fi
		[ "$i" = 5 ] || sleep 1
	done
	say "gate: quiet loop-only reference $(cat /tmp/gate.best) ns"
}

# wait_clocksource: x86 boots on tsc-early and moves to tsc (or another
# clocksource) a second or two later; do not time anything before that.
wait_clocksource() {
	cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
	i=0
	while [ "$(cat $cs 2>/dev/null)" = tsc-early ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	say "clocksource: $(cat $cs 2>/dev/null || echo unknown)"
}

# write_meta FILE: what the guest saw of itself.
write_meta() {
	{
		echo "kernel=$(uname -r)"
		echo "accel=$BENCH_ACCEL"
		cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
		echo "cpu=${cpu:-unknown}"
		echo "cpus=$(grep -c ^processor /proc/cpuinfo)"
		cs=/sys/devices/system/clocksource/clocksource0
		echo "clocksource=$(cat $cs/current_clocksource 2>/dev/null || echo unknown)"
		echo "clocksources=$(cat $cs/available_clocksource 2>/dev/null | tr ' ' ,)"
		echo "bpf_jit_enable=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo none)"
		echo "seed=${BENCH_SEED:-}"
	} > "$1"
	# the mitigations the kernel chose on this CPU: every file of
	# /sys/devices/system/cpu/vulnerabilities in vulnerabilities.txt beside
	# meta.txt, and in brief as meta.txt's mitigations (mkcsv: a column;
	# mktable: under the heading): of those that change the code the cells
	# run (indirect branches and returns: spectre_v2, retbleed,
	# spec_rstack_overflow, indirect_target_selection; kernel entry and exit
	# in the seccomp cells: meltdown's PTI, mds), what is not "Not
	# affected", its first clause
	vuln=/sys/devices/system/cpu/vulnerabilities
	[ -d "$vuln" ] || return 0
	for f in "$vuln"/*; do
		echo "$(basename "$f"): $(cat "$f")"
	done > "$(dirname "$1")/vulnerabilities.txt"
	echo "mitigations=$(awk -F': ' -v want="spectre_v2 retbleed spec_rstack_overflow indirect_target_selection meltdown mds" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) rank[w[i]] = i }
		($1 in rank) && $2 != "Not affected" {
		s = substr($0, length($1) + 3); sub(/^Mitigation: /, "", s); sub(/[;,].*/, "", s)
		line[rank[$1]] = $1 ": " s }
		END { for (i = 1; i <= n; i++) if (i in line) printf "%s%s", k++ ? "; " : "", line[i] }' \
		"$(dirname "$1")/vulnerabilities.txt")" >> "$1"
}

# The engine registry (bench/engines.conf): what the tests know of each
# engine the module lists.
ENGINES_CONF=${ENGINES_CONF:-/bench/engines.conf}

# engine_attr ENGINE KEY [DEFAULT]: KEY of ENGINE's record, DEFAULT when
# the registry has no such key or no such engine.
engine_attr() {
	awk -v e="$1" -v k="$2" -v d="${3:-}" '
	/^[^ \t#]/ { rec = ($1 == "engine" && $2 == e); next }
	rec && $1 == k { $1 = ""; sub(/^ +/, ""); v = $0; found = 1 }
	END { print found ? v : d }' "$ENGINES_CONF"
}

# engine_profiles ENGINE...: "ENGINE CHECKER SEMANTICS" per engine that
# runs programs (checker none: the loop-only baseline); an engine the
# registry does not know is taken for a 6.1 one.
engine_profiles() {
	for e in "$@"; do
		c=$(engine_attr "$e" checker 6.1)
		[ "$c" = none ] || echo "$e $c $(engine_attr "$e" semantics 6.1)"
	done
}

# spec_value SPEC VERSION: the value SPEC ("3.14=V 6.1=V" or "all=V")
# gives engines of VERSION; a version SPEC does not name (2014: new2014's
# semantics, 6.1 but for negative-offset loads) takes the 6.1 value.  A
# token naming an engine itself ("new2014=1") is a documented exception
# for that engine (engine_exception).
spec_value() {
	for tok in $1; do
		case "${tok%%=*}" in "$2" | all) echo "${tok#*=}"; return ;; esac
	done
	[ "$2" = 6.1 ] || spec_value "$1" 6.1
}

# engine_exception SPEC ENGINE: the value SPEC names ENGINE with, if any.
engine_exception() {
	for tok in $1; do
		[ "${tok%%=*}" = "$2" ] && { echo "${tok#*=}"; return; }
	done
	return 0
}

# want_eval SPEC PROFILES: the eval line ("old=V new=V ...") that SPEC
# means for the engines of PROFILES (engine_profiles).  An engine's checker
# decides when its value is a negative errno (the program is rejected),
# else its runtime semantics: a new engine needs no new expected strings.
want_eval() {
	w=""
	while read -r e c s; do
		[ -n "$e" ] || continue
		v=$(engine_exception "$1" "$e")
		if [ -z "$v" ]; then
			v=$(spec_value "$1" "$c")
			case "$v" in -*) ;; *) v=$(spec_value "$1" "$s") ;; esac
		fi
		w="$w${w:+ }$e=$v"
	done <<W
$2
W
	echo "$w"
}

# registry_engines: the engines of the registry, in its order.
registry_engines() {
	awk '$1 == "engine" { print $2 }' "$ENGINES_CONF"
}

# kernel_reports LOG: the first line of every BUG, WARNING, KASAN, UBSAN,
# lockdep or RCU report in a kernel log (plan-debug.sh), the bench module's
# own messages left out: they quote what was written to its knobs.
kernel_reports() {
	grep -v 'bpf_bench: ' "$1" |
		grep -E 'BUG: |WARNING: |UBSAN: |kernel BUG at|Oops|general protection fault|INFO: possible|INFO: trying to register|suspicious RCU usage' ||
		true
}
