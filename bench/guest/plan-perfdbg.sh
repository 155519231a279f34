#!/bin/sh
out=$1
{
	ls -l /usr/bin/perf /lib/ld-linux* 2>&1
	perf --version 2>&1
	echo "rc=$?"
	perf stat -x, -e task-clock -- true 2>&1
	echo "rc=$?"
	PERF_EVENTS=$(grep -o 'PERF_EVENTS=[^ ]*' /bench/lib.sh | head -1); echo "$PERF_EVENTS"
	perf stat -x, -e task-clock,cycles,instructions -- true 2>&1
	echo "rc=$?"
	perf record -o /tmp/p.data -- true 2>&1; echo "rc=$?"
	perf report -i /tmp/p.data --stdio 2>&1 | head -20
	dmesg | grep -i perf
} > "$out/perfdbg.txt" 2>&1
