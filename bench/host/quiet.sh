# shellcheck shell=sh
# The host's control loop around the boots of a pinned (timed) accelerator
# and the boot-level quiet gate; sourced by run-bench.sh (and by
# bench/host/tests-badinput.sh with a made-up control loop).
# Needs: accel_attr, accel_pin (accels.sh), $build; CONTROL overrides the
# control loop (bench/host/control.c).

quiet_ref=

# host_control_line ACCEL LABEL: one control loop line on ACCEL's CPU.
host_control_line() {
	pin=$(accel_pin "$1")
	if [ -n "$pin" ]; then
		taskset -c "$pin" "${CONTROL:-$build/tools/control}" "$2"
	else
		"${CONTROL:-$build/tools/control}" "$2"
	fi
}

# control_median ACCEL LABEL: the control loop's median (ns) on ACCEL's CPU.
control_median() {
	host_control_line "$1" "$2" | sed -n 's/.* median=\([0-9.]*\) .*/\1/p'
}

# host_control DIR ACCEL LABEL: for a pinned guest (pin=1, hardware timing),
# time the native control loop on the CPU the guest runs on, so the tables
# can show how steady the host itself was around the boots; the first one
# is the quiet gate's first reference.
host_control() {
	[ "$(accel_attr "$2" pin || true)" = 1 ] || return 0
	line=$(host_control_line "$2" "$3")
	echo "$line" >> "$1/control.txt"
	m=$(echo "$line" | sed -n 's/.* median=\([0-9.]*\) .*/\1/p')
	if [ -z "$quiet_ref" ] && [ -n "$m" ]; then quiet_ref=$m; fi
	return 0
}

# slower M: whether control median M is more than $q_pct percent slower
# than the quietest of the run ($quiet_ref).
slower() {
	awk -v m="$1" -v r="$quiet_ref" -v p="$q_pct" 'BEGIN { exit !(m > r * (1 + p / 100)) }'
}

# quiet_after DIR ACCEL K [MAX_REDO]: the boot-level quiet gate of boot K,
# just made into DIR (accels.conf quiet PCT WAIT_S REDO; QUIET="PCT WAIT_S
# REDO" overrides, QUIET="0 0 0" turns it off; MAX_REDO overrides REDO).
# The control loop after the boot against the quietest of the run: more
# than PCT percent slower, the host was busy during the boot.  Unless the
# boot was booted again REDO times already ($redo), wait up to WAIT_S
# seconds for the host to be quiet and return 1: boot K again.  Records
# control_ns, the reference it was judged against (quiet_ref_ns) and the
# rule, and redone (busy=1 for a busy boot kept) in DIR/host.txt.
quiet_after() {
	q_dir=$1 q_accel=$2 q_k=$3 q_max=${4:-}
	# shellcheck disable=SC2086
	set -- ${QUIET:-$(accel_attr "$q_accel" quiet || echo 0 0 0)}
	q_pct=${1:-0} q_wait=${2:-0} q_redo=${q_max:-${3:-0}}
	[ "$(accel_attr "$q_accel" pin || true)" = 1 ] || return 0
	[ "$q_pct" != 0 ] || return 0
	m=$(control_median "$q_accel" "boot-$q_k")
	[ -n "$m" ] || return 0
	[ -n "$quiet_ref" ] || quiet_ref=$m
	echo "control_ns=$m" >> "$q_dir/host.txt"
	# the reference this boot was judged against, and the rule
	printf 'quiet_ref_ns=%s\nquiet_rule=%s,%s,%s\n' "$quiet_ref" "$q_pct" "$q_wait" "$q_redo" >> "$q_dir/host.txt"
	if ! slower "$m"; then
		awk -v m="$m" -v r="$quiet_ref" 'BEGIN { exit !(m < r) }' && quiet_ref=$m
		echo "redone=${redo:-0}" >> "$q_dir/host.txt"
		return 0
	fi
	if [ "${redo:-0}" -ge "$q_redo" ]; then
		echo "[bench] $q_accel boot $q_k: the host was busy (control loop $m ns, quietest $quiet_ref): kept"
		echo "redone=${redo:-0} busy=1" >> "$q_dir/host.txt"
		return 0
	fi
	waited=0
	while [ "$waited" -lt "$q_wait" ] && slower "$m"; do
		sleep 5
		waited=$((waited + 5))
		m=$(control_median "$q_accel" "boot-$q_k-wait")
	done
	echo "[bench] $q_accel boot $q_k: the host was busy (control loop slower than $q_pct% over the quietest, $quiet_ref ns; waited ${waited}s): booting again"
	return 1
}
