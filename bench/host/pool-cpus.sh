#!/bin/bash
# The CPUs of make check's job pool, and the check that its guests use
# them all: two guests pinned to one CPU while another idles would be
# timed and slowed alike, and the pool would take twice its time.
#
# usage: pool-cpus.sh list
#            the CPUs this process may run on, one line, space-separated
#            (its affinity list: the pool's slot i runs on the i-th)
#        pool-cpus.sh sample OUT [INTERVAL]
#            every INTERVAL seconds (default 5) until killed, append to OUT
#            one line per running guest (a QEMU, or a User-mode Linux
#            kernel whose parent is none), "guest EPOCH PID COMM CPUS",
#            and one per CPU, "cpu EPOCH N BUSY_PCT" (its busy share since
#            the last sample, from /proc/stat)
#        pool-cpus.sh check FILE
#            fails, naming the time and the guests, when two guests of one
#            sample were both pinned to the same single CPU; prints how
#            many samples had two guests and how busy each CPU was then
set -eu

# cpus_of LIST: a kernel CPU list ("0-1,4") as words ("0 1 4").
cpus_of() {
	local r
	for r in ${1//,/ }; do
		case "$r" in
		*-*) seq "${r%-*}" "${r#*-}" ;;
		*) echo "$r" ;;
		esac
	done | tr '\n' ' ' | sed 's/ $//'
}

# allowed PID: the CPU list PID may run on.
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null; }

# guests: "PID COMM" of each running guest, a QEMU system emulator or a
# User-mode Linux kernel (its command line has the ubd0= con=null con0= of
# bench/host/accels.sh) whose parent is none: UML's helper processes are
# its children.
guests() {
	ps -e -o pid=,ppid=,comm=,args= | awk '
	$3 ~ /^qemu-system-/ || $3 != "awk" && / ubd0=[^ ]* con=null con0=/ { p[$1] = $2; c[$1] = $3 }
	END { for (i in p) if (!(p[i] in p)) print i, c[i] }'
}

sample() {
	local out=$1 interval=${2:-5} t pid comm line
	declare -A prev_busy=() prev_total=()
	while :; do
		t=$(date +%s)
		guests | while read -r pid comm; do
			echo "guest $t $pid $comm $(allowed "$pid")"
		done
		# cpuN user nice system idle iowait irq softirq steal
		while read -r line; do
			# shellcheck disable=SC2086 # the fields
			set -- $line
			local n=${1#cpu} busy=$(($2 + $3 + $4 + $7 + $8 + $9)) total=$(($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9))
			if [ -n "${prev_total[$n]:-}" ] && [ "$total" -gt "${prev_total[$n]}" ]; then
				echo "cpu $t $n $(( 100 * (busy - prev_busy[$n]) / (total - prev_total[$n]) ))"
			fi
			prev_busy[$n]=$busy prev_total[$n]=$total
		done < <(grep '^cpu[0-9]' /proc/stat)
		sleep "$interval"
	done >> "$out"
}

check() {
	awk '
	$1 == "guest" { n[$2]++; g[$2, n[$2]] = $3 " (" $4 ")"; m[$2, n[$2]] = $5; next }
	$1 == "cpu" { busy[$2, $3] = $4; cpus[$3] = 1; next }
	END {
		for (t in n) {
			if (n[t] < 2) continue
			two++
			for (i = 1; i <= n[t]; i++)
				for (j = i + 1; j <= n[t]; j++)
					if (m[t, i] == m[t, j] && m[t, i] ~ /^[0-9]+$/) {
						printf "at %s: guests %s and %s both pinned to host cpu %s\n", t, g[t, i], g[t, j], m[t, i]
						bad++
					}
			for (c in cpus) if ((t, c) in busy) { sum[c] += busy[t, c]; cnt[c]++ }
		}
		printf "%d samples with two or more guests", two
		for (c in cpus) if (cnt[c]) printf ", cpu %s %.0f%% busy", c, sum[c] / cnt[c]
		printf "; %d with two guests on one pinned cpu\n", bad
		exit bad > 0 || two == 0
	}' "$1"
}

case "${1:-}" in
list) cpus_of "$(allowed $$)"; echo ;;
sample) sample "$2" "${3:-5}" ;;
check) check "$2" ;;
*) echo "usage: pool-cpus.sh list | sample OUT [INTERVAL] | check FILE" >&2; exit 2 ;;
esac
