#!/bin/sh
# The derivation of the Debian-configuration kernel (flavour x86_64-debian,
# docs/kernels.md "Debian's configuration"), configured only
# (build-kernel.sh CONFIG_ONLY=1; the build itself is opt-in in make check,
# CHECK_DEBIAN=1): Debian's amd64 file of the tree's version, its modules
# off, the harness's fragment; what Debian chose stays (the mitigations,
# the unwinder, the JIT default), what the guests need is built in, and
# every difference from Debian's file is listed.
#
# usage: tests-debian-config.sh TOP BUILD TREE    prints PASS:/FAIL: lines
set -eu
top=$1 build=$2 tree=$3
here=$top/bench/host
# shellcheck source=bench/host/accels.sh
. "$here/accels.sh"
TEST_PREFIX="debian config: "
# shellcheck source=bench/host/testlib.sh
. "$here/testlib.sh"

flavour=x86_64-debian
base=$(flavour_attr "$flavour" base)
frags=
for f in $(flavour_attr "$flavour" fragment); do frags="$frags${frags:+ }$top/$f"; done
obj=$build/check-debian-config/obj-$flavour-check
# configure DIR FRAGMENTS: build-kernel.sh's configuration stage into DIR
configure() {
	CONFIG_ONLY=1 KCONFIG_BASE=$base "$here/build-kernel.sh" "$tree" "$1" \
		"$(flavour_attr "$flavour" arch)" "$2" > "$1.log" 2>&1 || { cat "$1.log"; return 1; }
}
rm -rf "$build/check-debian-config" "$tree/obj-$flavour-check"
mkdir -p "$build/check-debian-config"
expect "configured from $base + $(flavour_attr "$flavour" fragment)" configure "$obj" "$frags"
cfg=$obj/.config diff=$obj/debian-config.diff
ver=$(make -s -C "$tree" kernelversion | cut -d. -f1-2)
deb=/usr/src/linux-config-$ver/config.${base#debian:}.xz
# has OPTION=VALUE...: every one is a line of the .config
has() {
	for o; do grep -qx "$o" "$cfg" || return 1; done
}
expect "Debian's mitigations stay (RETPOLINE, RETHUNK, SLS, PAGE_TABLE_ISOLATION, CPU_SRSO)" \
	has CONFIG_RETPOLINE=y CONFIG_RETHUNK=y CONFIG_SLS=y CONFIG_PAGE_TABLE_ISOLATION=y CONFIG_CPU_SRSO=y
expect "Debian's choices stay (ORC unwinder, BPF_JIT_DEFAULT_ON, no BPF_JIT_ALWAYS_ON, the same preemption model)" sh -c "
	grep -qx CONFIG_UNWINDER_ORC=y '$cfg' && grep -qx CONFIG_BPF_JIT_DEFAULT_ON=y '$cfg' &&
	! grep -q '^CONFIG_BPF_JIT_ALWAYS_ON=y' '$cfg' &&
	[ \"\$(xz -dc '$deb' | grep -E 'CONFIG_PREEMPT(_NONE|_VOLUNTARY|)[ =]')\" = \"\$(grep -E 'CONFIG_PREEMPT(_NONE|_VOLUNTARY|)[ =]' '$cfg')\" ]"
expect "no module but test_bpf's (mod2noconfig)" sh -c "[ \"\$(grep '=m\$' '$cfg')\" = CONFIG_TEST_BPF=m ]"
expect "what the guests and the series need is built in (virtio-blk, debugfs, the 3.14 engines), no debug info" \
	has CONFIG_VIRTIO_BLK=y CONFIG_VIRTIO_PCI=y CONFIG_DEBUG_FS=y CONFIG_BPF_CLASSIC_INTERP=y \
	CONFIG_BPF_CLASSIC_JIT=y CONFIG_BPF_CONVERT_2014=y CONFIG_DEBUG_INFO_NONE=y
expect "debian-config.diff: one 'CONFIG_X: OLD -> NEW' line per difference" \
	awk '!/^CONFIG_[A-Za-z0-9_]*: .* -> .*$/ { bad++ } END { exit bad || NR < 100 }' "$diff"
# shellcheck disable=SC2016
expect "debian-config.diff: every option the fragment sets otherwise than Debian is listed" sh -c '
	xz -dc "$1" > "$3.deb"
	"$4/config-diff.sh" "$3.deb" "$3" > "$3.again"
	cmp -s "$3.again" "$2" || exit 1
	for o in CONFIG_VIRTIO_BLK CONFIG_BPF_CLASSIC_INTERP CONFIG_DEBUG_INFO_NONE; do
		grep -q "^$o: " "$2" || exit 1
	done' sh "$deb" "$diff" "$cfg" "$here"
# a fragment asking for an option the tree does not have is refused
printf 'CONFIG_BENCH_NO_SUCH_OPTION=y\n' > "$build/check-debian-config/bad.config"
refused "a fragment option that does not survive is refused (config lost)" "config lost: CONFIG_BENCH_NO_SUCH_OPTION=y" \
	configure "$build/check-debian-config/obj-bad-check" "$frags $build/check-debian-config/bad.config"
rm -rf "$tree/obj-$flavour-check" "$tree/obj-bad-check"
test_summary
