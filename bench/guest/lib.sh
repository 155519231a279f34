# shellcheck shell=sh
# Shared functions of the guest plans (sourced; busybox sh).
# The bench module's knobs live in $KNOBS; filters and packets in /bench.

KNOBS=/sys/kernel/debug/bpf_bench
FILTERS=/bench/filters

say() { echo "[guest] $*"; }

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
	if perf record -q -N -e cpu-clock -F 4000 -o /tmp/perf.data -- \
		/bench/knob "$KNOBS/run" 1 > /dev/null 2>&1; then
		perf report -i /tmp/perf.data --stdio --sort symbol \
			--percent-limit 0.5 2> /dev/null |
			fold_jit_samples "$(result_key image_start)" \
				"$(result_key image_end)" > "$PERF_OUT/$1.report" || true
	fi
	rm -f /tmp/perf.data
}

# result_key KEY: a key of the last run's result line (empty if absent).
result_key() {
	tr ' ' '\n' < "$KNOBS/result" | sed -n "s/^$1=//p"
}

# fold_jit_samples START END: a JIT image has no kallsyms entry, so perf
# report lists each sampled address in it as a bare 0x... symbol.  Fold the
# ones in [START, END) into one "[bpf jit image]" line, re-sorted by share.
# Addresses are compared as strings: perf and the module both print 16
# lower-case hex digits.  The header is kept, perf's closing tip dropped.
fold_jit_samples() {
	awk -v lo="$1" -v hi="$2" '
	BEGIN { n = 0 }
	/^#/ || /^$/ { if (!n) print; next }
	$2 == "[k]" && lo != "" && length($3) == 18 &&
	    ($3 "") >= (lo "") && ($3 "") < (hi "") {
		jit += $1; folded++; next
	}
	{ pct[n] = $1 + 0; line[n++] = $0 }
	END {
		if (folded) {
			pct[n] = jit
			line[n++] = sprintf("%9.2f%%  [k] [bpf jit image %s, %d addresses]",
				jit, lo, folded)
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

# run_cell ENGINE FILTER PACKET SKBS [TAG]: run one cell and print the
# result line prefixed with what was measured.
run_cell() {
	engine=$1 filter=$2 packet=$3 skbs=$4 tag=${5:-bench}
	expect=$(expected_verdict "$filter" "$packet") ||
		{ say "no verdict for $filter/$packet"; return 1; }
	rm -f /tmp/result.timed
	set_knob_file prog "$FILTERS/$filter.dd" &&
	set_knob_file packet "$FILTERS/packets/$packet.hex" &&
	set_knob engine "$engine" &&
	set_knob skbs "$skbs" &&
	set_knob expect "$expect" &&
	timed_run "$tag-$engine-$filter-$packet-skbs$skbs" || return 1
	if [ -f /tmp/result.timed ]; then
		echo "tag=$tag filter=$filter packet=$packet $(cat /tmp/result.timed)"
	else
		echo "tag=$tag filter=$filter packet=$packet $(cat "$KNOBS/result")"
	fi
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
	} > "$1"
}
