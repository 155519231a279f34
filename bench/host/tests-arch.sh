#!/bin/sh
# Adding an architecture is a flavour record, a config fragment and its
# filters (docs/extending.md): a fixture registry adds the made-up flavour
# armv7 (bench/host/fixtures/arch: its flavour record, one accelerator
# record, its fragment; arm's toolchain and seccomp filters) to the live
# ones, and each step of the pipeline is shown to take it with no code
# changed: the Makefile's build variables, the Debian packages, the seccomp
# filters' builder, the accelerator's QEMU command line (a stand-in
# qemu-system-arm prints it), and a canned counted run through the tables,
# the plots and the cover letter.  Nothing is built or booted.
#
# usage: tests-arch.sh TOP TOOLS_DIR     prints PASS:/FAIL: lines
set -eu
top=$(cd "$1" && pwd)
tools=$(cd "$2" && pwd)
TEST_PREFIX="arch: "
# shellcheck source=bench/host/testlib.sh
. "$top/bench/host/testlib.sh"
keep=${3:-}
fx=$top/bench/host/fixtures/arch

cat "$top/bench/flavours.conf" "$fx/flavour.conf" > "$tmp/flavours.conf"
cat "$top/bench/accels.conf" "$fx/accel.conf" > "$tmp/accels.conf"
cat "$top/bench/times.conf" "$fx/times.conf" > "$tmp/times.conf"
FLAVOURS_CONF=$tmp/flavours.conf ACCELS_CONF=$tmp/accels.conf TIMES_CONF=$tmp/times.conf
export FLAVOURS_CONF ACCELS_CONF TIMES_CONF


# --- the build: the top Makefile's variables of flavour armv7 -------------
is "$(makevar "$top" KARCH_armv7) $(makevar "$top" KCROSS_armv7) $(makevar "$top" KTARGETS_armv7)" \
	"arm arm-linux-gnueabihf- zImage modules" "make: kernel-armv7 is ARCH=arm, CROSS_COMPILE and targets from its record"
is "$(makevar "$top" KFRAG_armv7 | sed "s|$top/||g")" \
	"bench/kernel-omit.config bench/kernel-arm.config bench/host/fixtures/arch/kernel-armv7.config" \
	"make: kernel-armv7 merges its own fragment last"
is "$(makevar "$top" DEFAULT_FLAVOURS)" "$(default_flavours "$FLAVOURS_CONF")" \
	"make: make kernel/initramfs build it (no default key): the default flavours of the records"
is "$(default_flavours "$FLAVOURS_CONF" | sed "s/.* //")" "armv7" "make: the added flavour armv7 is the last default one"
is "$(makevar "$top" GDEPS_armv7 | sed "s|$top/build/||g")" \
	"tools-armv7/knob tools-armv7/seccomp-bench tools-armv7/bpfdiff tools-armv7/knobfuzz tools-armv7/capture busybox-armv7/busybox" \
	"make: its static guest tools (guest_cc) and Debian's busybox-static:armhf"
is "$(makevar "$top" EXTRA_armv7 | sed "s|$top/build/||g") $(makevar "$top" SECCOMPARCH_armv7) $(makevar "$top" XDEPS_armv7)" \
	"perf-armv7.cpio.gz arm deps-cross" \
	"make: its initramfs gets linux-perf:armhf and arm's seccomp filters; the cross packages first"

# --- the packages ---------------------------------------------------------
for m in cross check; do
	expect "deps.sh --list $m: the record's packages and Debian architecture" sh -c "
		'$top/bench/host/deps.sh' --list $m > '$tmp/deps-$m' &&
		grep -q '^want: .* armv7-fixture-package' '$tmp/deps-$m' && grep -qx 'archs: i386 armhf' '$tmp/deps-$m'"
done
expect "deps.sh --list check: libseccomp-dev of its Debian architecture, once" \
	grep -qx 'norec: qemu-user libseccomp-dev:i386 libseccomp-dev:armhf' "$tmp/deps-check"
expect "deps.sh --list bench: none of it (make bench builds x86_64 and um)" sh -c "
	'$top/bench/host/deps.sh' --list bench | grep -qx 'archs:' &&
	! '$top/bench/host/deps.sh' --list bench | grep -q 'armv7-fixture-package'"

# --- the seccomp filters: arm's, made by arm's flavour --------------------
is "$(makevar "$top/filters/seccomp" SECCOMP_ALL_ARCHES) $(makevar "$top/filters/seccomp" SECCOMP_FLAVOUR_arm)" \
	"x86_64 i386 arm arm" "seccomp: armv7 shares arm's filters; the arm flavour builds them"
is "$(makevar "$top/filters/seccomp" RUN_arm) $(makevar "$top/filters/seccomp" CC_arm) $(makevar "$top/filters/seccomp" TRIPLET_arm)" \
	"qemu-arm arm-linux-gnueabihf-gcc arm-linux-gnueabihf" \
	"seccomp: the arm mkseccomp's compiler, runner and libseccomp from the flavour record"
refused "seccomp: an arch no flavour has is refused, naming the registry's" \
	"unknown arch in SECCOMP_ARCHES=sparc .*: x86_64 i386 arm" \
	make -s -C "$top/filters/seccomp" FLAVOURS_CONF="$FLAVOURS_CONF" SECCOMP_ARCHES=sparc

# --- the accelerator ------------------------------------------------------
is "$(ACCEL=icount-armv7 "$top/bench/host/bench-flavours.sh" -t | tr -s ' ' | sed 's/ $//')" \
	"initramfs-armv7" "bench: ACCEL=icount-armv7 builds initramfs-armv7 (and so its kernel)"
# shellcheck disable=SC2016
is "$(sh -c 'here=$1; . "$here/accels.sh"; echo "$ALL_ARCHES / $(flavour_arch armv7) / $(accel_flavour icount-armv7) $(accel_kind icount-armv7)"' sh "$top/bench/host")" \
	"x86_64 i386 arm32 / arm32 / armv7 counted" "accels: armv7 is compared with the 2014 arm32 table"
mkdir -p "$tmp/bin"
# shellcheck disable=SC2016 # the stand-in's own "$@"
printf '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n' > "$tmp/bin/qemu-system-arm"
chmod +x "$tmp/bin/qemu-system-arm"
# shellcheck disable=SC2016
PATH=$tmp/bin:$PATH sh -c 'here=$1; . "$here/accels.sh"; accel_boot icount-armv7 K I D "bench.plan=bench"' \
	sh "$top/bench/host" > "$tmp/qemu-args" 2>&1 || true
is "$(tr '\n' ' ' < "$tmp/qemu-args")" \
	"-M virt -cpu cortex-a15 -accel tcg -icount shift=0,align=off,sleep=off -device virtio-blk-device,drive=out -drive file=D,format=raw,if=none,id=out -m 1024 -smp 1 -no-reboot -display none -monitor none -serial stdio -kernel K -initrd I -append console=ttyAMA0 bench.plan=bench " \
	"boot: its qemu-system-arm command line, console and result disk from the records"

# --- a counted run on armv7 through the tables, plots and cover letter ----
# The icount-engines fixture's canned guest output, as if icount-armv7's
# (host.txt names the accelerator and its flavour, as run-guest.sh writes it).
run=$tmp/run
mkdir -p "$run"
cp "$top/results/fixtures/icount-engines/run.txt" "$run/"
cp -R "$top/results/fixtures/icount-engines/icount" "$run/icount-armv7"
sed -i 's/^accels=icount$/accels=icount-armv7/' "$run/run.txt"
sed -i -e 's/^accel=icount$/accel=icount-armv7/' -e 's/^flavour=x86_64$/flavour=armv7/' \
	"$run/icount-armv7/host.txt"
series_tree "$tmp/tree"
succeeds "results: the tables stage, plots and cover letter of a run on armv7" "$tmp/mk.out" \
	env PLOTS=1 "$top/results/mktables.sh" "$run" "$tools" "$tmp/tree" "$run/cover.patch"
expect "results: results.csv names the accelerator and the flavour's title" sh -c "
	'$tools/csvget' '$run/results.csv' accel tag=bench engine=old filter=fprog1 skbs=1 | grep -qx icount-armv7"
expect "results: table.txt heads its section with the flavour's title and sets the 2014 arm32 table beside it" sh -c "
	grep -q '^--armv7 (fixture)-- accel=icount-armv7: guest instructions per call' '$run/table.txt' &&
	grep -q '^--arm32-- 2014, commit bd4cf0ed331a' '$run/table.txt'"
expect "results: the 2014 arm32 figures (old BPF 202 300 475 540 ns)" \
	grep -Eq '^old BPF +202 +300 +475 +540$' "$run/table.txt"
expect "results: the plots of icount-armv7" sh -c "
	grep -q 'accel=icount-armv7' '$run/plots/ratios-icount-armv7.gp' && test -s '$run/plots/insns-icount-armv7.dat'"
expect "results: the cover letter has armv7's table with the 2014 arm32 ratios (old/new 1.1x 1.1x 1.4x 1.1x)" sh -c "
	grep -q '^accel=icount-armv7 (armv7, insns per call, counted):' '$run/cover.patch' &&
	grep -Eq '^old/new +0.38 +0.38 +0.41 +0.41  2014: 1.1x 1.1x 1.4x 1.1x$' '$run/cover.patch'"

[ -z "$keep" ] || cp -R "$run" "$keep"
test_summary
