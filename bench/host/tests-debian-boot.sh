#!/bin/sh
# The Debian-configuration kernel booted (make check with CHECK_DEBIAN=1;
# docs/kernels.md "Debian's configuration"): make bench's runner on its
# icount accelerators of two mitigation choices, EPYC's (retpolines,
# return thunks) and EPYC's with mitigations=off, shortened.  Asserted:
# each boot recorded the mitigations its kernel chose, the two differ,
# the tables say so, the run lists the configuration's differences from
# Debian's, the engines executed the VM instructions they do on the
# tinyconfig kernel, and the mitigations cost instructions.
#
# usage: tests-debian-boot.sh TOP BUILD    prints PASS:/FAIL: lines
set -eu
top=$1 build=$2
here=$top/bench/host
TEST_PREFIX="debian boot: "
# shellcheck source=bench/host/testbench.sh
. "$here/testbench.sh"
get() { "$build/tools/csvget" "$@" 2> /dev/null || true; }

on=icount-deb-epyc off=icount-deb-off
d=$build/check-debian-boot
bench_run "$d" "ACCEL='$on $off' (shortened): boots, tables" \
	ACCEL="$on $off" BENCH_ARGS="bench.samples=3 bench.sample_us=2000 bench.seccomp_calls=0"
expect "$on: the kernel chose retpolines (meta.txt mitigations, vulnerabilities.txt)" sh -c "
	grep -q '^mitigations=.*spectre_v2: Retpolines' '$run/$on/meta.txt' &&
	grep -q '^spectre_v2: Mitigation: Retpolines' '$run/$on/vulnerabilities.txt'"
expect "$off: mitigations=off: spectre_v2 Vulnerable" \
	grep -q '^mitigations=.*spectre_v2: Vulnerable' "$run/$off/meta.txt"
is "$(get "$run/results.csv" mitigations accel="$on" | grep -c Retpolines) $(get "$run/results.csv" mitigations accel="$off" | grep -c Retpolines)" \
	"1 0" "results.csv: the mitigations column of each accelerator"
expect "table.txt: both tables headed with their mitigations" sh -c "
	[ \"\$(grep -c '^mitigations: ' '$run/table.txt')\" -ge 2 ]"
expect "the run lists the differences from Debian's configuration (kernel-x86_64-debian.debian-diff)" \
	grep -q '^CONFIG_VIRTIO_BLK: m -> y$' "$run/kernel-x86_64-debian.debian-diff"
is "$(get "$run/results.csv" vm_insns accel="$on" tag=bench engine=new filter=fprog1 skbs=1) $(get "$run/results.csv" vm_insns accel="$off" tag=bench engine=new filter=fprog1 skbs=1)" \
	"58 58" "engine new executes fprog #1's 58 eBPF instructions on Debian's configuration too"
expect "table.txt: $on against $off (its record's against), new fprog #1 dearer" \
	sh -c "grep -A9 '^accel=$on against accel=$off ' '$run/table.txt' | grep -Eq '^new BPF +[+][1-9][0-9.]* 1[.][0-9]+x'"
for a in "$on" "$off"; do
	get "$run/results.csv" median accel="$a" tag=bench engine=new filter=fprog1 skbs=1
done > "$d/new"
# shellcheck disable=SC2016
expect "the interpreters cost more instructions with the mitigations than without (new, fprog #1)" sh -c '
	a=$(sed -n 1p "$1") b=$(sed -n 2p "$1"); [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" "BEGIN { exit !(a > b) }"' sh "$d/new"
test_summary
