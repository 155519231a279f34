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

# run_cell ENGINE FILTER PACKET SKBS [TAG]: run one cell and print the
# result line prefixed with what was measured.
run_cell() {
	engine=$1 filter=$2 packet=$3 skbs=$4 tag=${5:-bench}
	expect=$(expected_verdict "$filter" "$packet") ||
		{ say "no verdict for $filter/$packet"; return 1; }
	set_knob_file prog "$FILTERS/$filter.dd" &&
	set_knob_file packet "$FILTERS/packets/$packet.hex" &&
	set_knob engine "$engine" &&
	set_knob skbs "$skbs" &&
	set_knob expect "$expect" &&
	set_knob run 1 || return 1
	echo "tag=$tag filter=$filter packet=$packet $(cat "$KNOBS/result")"
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
