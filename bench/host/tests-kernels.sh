#!/bin/sh
# The kernel trees are a registry (bench/kernels.conf, docs/kernels.md):
# KERNEL=NAME picks the tree, the objects' directory, the series and the
# Debian package from the record, the default stays 6.1's layout, a name
# the registry lacks is refused; run-bench.sh and run-compare.sh take the
# tree from KTREE/KOUT/KPACKAGE.  Nothing is built or booted.
#
# usage: tests-kernels.sh TOP     prints PASS:/FAIL: lines
set -eu
top=$(cd "$1" && pwd)
TEST_PREFIX="kernels: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
b=$top/build

is "$(makevar "$top" KERNEL) $(makevar "$top" TREE) $(makevar "$top" KOUT) $(makevar "$top" KSERIES) $(makevar "$top" KPACKAGE)" \
	"6.1 $b/linux $b kernel-patches linux-source-6.1" \
	"the default is 6.1: build/linux, objects in build/, kernel-patches/, linux-source-6.1"
is "$(makevar "$top" TREE KERNEL=6.12) $(makevar "$top" KOUT KERNEL=6.12) $(makevar "$top" KSERIES KERNEL=6.12) $(makevar "$top" KPACKAGE KERNEL=6.12)" \
	"$b/linux-6.12 $b/kernel-6.12 kernel-patches/6.12 linux-source-6.12" \
	"KERNEL=6.12: build/linux-6.12, objects in build/kernel-6.12/, kernel-patches/6.12, linux-source-6.12"
is "$(makevar "$top" TESTBPF) $(makevar "$top" TESTBPF KERNEL=6.12)" "$b/testbpf $b/kernel-6.12/testbpf" \
	"lib/test_bpf.c's vectors are cut per tree"
refused "an unknown KERNEL is refused, naming the registry's" \
	"unknown KERNEL=5.10 \(bench/kernels.conf: 6.1 6.12\)" makevar "$top" TREE KERNEL=5.10
expect "every record's series directory holds its patches (0001-*.patch...)" sh -c "
	for s in \$(awk '\$1 == \"series\" { print \$2 }' '$top/bench/kernels.conf'); do
		ls '$top'/\$s/0001-*.patch > /dev/null || exit 1
	done"
expect "deps.sh installs the tree's package (KPACKAGE)" sh -c "
	KPACKAGE=linux-source-6.12 '$top/bench/host/deps.sh' --list bench | grep -q '^want: linux-source-6.12 '"
expect "deps.sh check installs the packages of the trees make check boots (every one with a check key; CHECK_KERNELS=none: the default's only)" sh -c "
	CHECK_KERNELS='' '$top/bench/host/deps.sh' --list check | grep -q '^want: linux-source-6.1 .* linux-source-6.12\$' &&
	CHECK_KERNELS=6.12 '$top/bench/host/deps.sh' --list check | grep -q '^want: linux-source-6.1 .* linux-source-6.12\$' &&
	! CHECK_KERNELS=none '$top/bench/host/deps.sh' --list check | grep -q 'linux-source-6.12'"
refused "make check refuses a CHECK_KERNELS tree without a check record, before anything" \
	"CHECK_KERNELS: '6.1' is not a tree make check can boot \(.*: 6.12; none: the default tree only\)" \
	env CHECK_KERNELS=6.1 "$top/bench/host/run-check.sh" "$top" "$tmp/build"
# shellcheck source=bench/host/accels.sh
here=$top/bench/host . "$top/bench/host/accels.sh"
is "$KERNEL_DEFAULT $CHECKABLE_KERNELS $(kernel_out /b 6.1) $(kernel_out /b 6.12)" "6.1 6.12 /b /b/kernel-6.12" \
	"the shell's reader: default 6.1, make check can boot 6.12 (CHECK_KERNELS), their objects where kernels.mk puts them"
is "$(CHECK_KERNELS='' check_kernels)|$(CHECK_KERNELS=none check_kernels)|$(CHECK_KERNELS=6.12 check_kernels)" "6.12||6.12" \
	"make check boots every tree with a check key by default (6.12), none with CHECK_KERNELS=none"
expect "the default tree's reference run is a run directory in the clone (results.csv, run.txt of its kernel)" sh -c "
	r='$top'/\$(awk '/^kernel 6\.1\$/ { on = 1; next } /^[^ \t#]/ { on = 0 } on && \$1 == \"reference\" { print \$2 }' '$top/bench/kernels.conf') &&
	test -s \"\$r/results.csv\" && grep -q '^kernel=6\.1\.' \"\$r/run.txt\""
# The runner takes the tree, the objects and the package it is given: a
# KERNEL=6.12 run with no kernel built is refused naming build/kernel-6.12.
refused "run-bench.sh boots KOUT's kernels (none built: refused, naming them)" \
	"no .*$tmp/k612/initramfs-x86_64.cpio.gz|not built \(no $tmp/k612/" \
	env ACCEL=icount ARCHES=x86_64 KOUT="$tmp/k612" KTREE="$tmp/linux" KPACKAGE=linux-source-6.12 \
	RESULTS_DIR="$tmp/results" "$top/bench/host/run-bench.sh" "$top" "$tmp/build"

test_summary
