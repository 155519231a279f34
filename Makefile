# Reproduce commit bd4cf0ed331a's classic BPF benchmark on Debian's 6.1 tree.
#
#   make bench    build everything, boot the guest(s), print the ns/call tables
#   make check    host tests and in-guest tests; ends with "N passed, N failed"
#
# Pipeline: filters/ -> kernel-patches/ -> bench/ (module, guest, host
# runner) -> results/ -> plots/.  Everything built lives in build/.

TOP      := $(CURDIR)
BUILD    := $(TOP)/build
TREE     := $(BUILD)/linux
TOOLS    := $(BUILD)/tools
MODULE   := $(TOP)/bench/module
HOSTCFLAGS := -O2 -Wall -Wextra -Werror

# Kernel flavours: x86_64 boots under QEMU (kvm, tcg, icount), um is
# User-mode Linux (native speed, no JIT).  Each has a config fragment
# bench/kernel-<flavour>.config merged onto a base config.
FLAVOURS        := x86_64 um
KBASE_x86_64    := tinyconfig
KTARGETS_x86_64 := bzImage modules
KBASE_um        := tinyconfig
KTARGETS_um     := linux modules
# Archives appended to a flavour's initramfs (UML has no perf).
EXTRA_x86_64    := $(BUILD)/perf.cpio.gz
EXTRA_um        :=

# make plots / make cover-letter work on this results directory.
RUN   ?= $(TOP)/results/latest
COVER ?= $(TOP)/kernel-patches/0000-cover-letter.patch

export ACCEL BENCH_ARGS REPEAT
# ccache: paths under the clone are hashed relative to it, so a second
# clone (CI's) hits the cache the first one filled.
export CCACHE_BASEDIR := $(TOP)
export CCACHE_NOHASHDIR := 1

.PHONY: all bench check deps-bench deps-check tree kernel module tools filters \
	initramfs export-patches reset-tree clean plots cover-letter \
	$(foreach f,$(FLAVOURS),kernel-$(f) module-$(f) initramfs-$(f))

all: initramfs

deps-bench:
	@$(TOP)/bench/host/deps.sh bench

deps-check:
	@$(TOP)/bench/host/deps.sh check

tree: deps-bench
	@$(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/kernel-patches

kernel: $(addprefix kernel-,$(FLAVOURS))
module: $(addprefix module-,$(FLAVOURS))
initramfs: $(addprefix initramfs-,$(FLAVOURS))

$(addprefix kernel-,$(FLAVOURS)): kernel-%: tree
	@KCONFIG_BASE=$(KBASE_$*) $(TOP)/bench/host/build-kernel.sh $(TREE) \
		$(BUILD)/obj-$* $* $(TOP)/bench/kernel-$*.config $(KTARGETS_$*)

# The module is built per flavour in a copy of its sources: kbuild writes
# its objects next to them.
$(addprefix module-,$(FLAVOURS)): module-%: kernel-%
	@echo "[module] building bench/module for $*"
	@mkdir -p $(BUILD)/module-$*
	@cp -p $(MODULE)/Kbuild $(MODULE)/*.c $(BUILD)/module-$*/
	@$(MAKE) -s -C $(BUILD)/obj-$* ARCH=$* M=$(BUILD)/module-$* W=1 modules

$(TOOLS)/knob: bench/guest/knob.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

$(TOOLS)/mkcsv: results/mkcsv.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $<

$(TOOLS)/%: results/%.c results/csv.c results/csv.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $< results/csv.c -lm

$(TOOLS)/csv2dat: plots/csv2dat.c results/csv.c results/csv.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $< results/csv.c -lm

$(TOOLS)/seccomp-bench: bench/guest/seccomp-bench.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

$(TOOLS)/control: bench/host/control.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $< -lm

$(TOOLS)/bpfdiff: bench/guest/bpfdiff.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

tools: deps-bench $(TOOLS)/knob $(TOOLS)/mkcsv $(TOOLS)/mktable $(TOOLS)/cmpruns \
	$(TOOLS)/crosscheck $(TOOLS)/mkcover $(TOOLS)/csv2dat $(TOOLS)/seccomp-bench \
	$(TOOLS)/bpfdiff $(TOOLS)/control

filters: deps-bench
	@$(MAKE) -s -C filters
	@$(MAKE) -s -C filters/seccomp
	@$(MAKE) -s -C filters/diff

.SECONDEXPANSION:
$(addprefix initramfs-,$(FLAVOURS)): initramfs-%: module-% tools filters $$(EXTRA_$$*)
	@EXTRA_CPIO="$(EXTRA_$*)" $(TOP)/bench/host/mkinitramfs.sh \
		$(BUILD)/initramfs-$*.cpio.gz $(BUILD)/obj-$* $(TOOLS) \
		$(BUILD)/module-$*/bpf_bench.ko $(BUILD)/obj-$*/lib/test_bpf.ko

$(BUILD)/perf.cpio.gz: bench/host/mkperfcpio.sh | kernel-x86_64
	@$(TOP)/bench/host/mkperfcpio.sh $@ $(BUILD)/obj-x86_64

bench: initramfs
	@$(TOP)/bench/host/run-bench.sh $(TOP) $(BUILD)
	@$(TOP)/plots/render.sh $(TOP)/results/latest

plots: tools
	@$(TOP)/plots/render.sh $(RUN)

cover-letter: tools tree
	@$(TOOLS)/mkcover $(RUN) $(TREE) $(COVER)
	@echo "[cover] $(COVER): [PATCH 0/$$(git -C $(TREE) rev-list --count pristine..HEAD)] from $(RUN)"

check: deps-check
	@$(TOP)/bench/host/run-check.sh $(TOP) $(BUILD)

export-patches:
	@$(TOP)/kernel-patches/export-series.sh $(TREE) $(TOP)/kernel-patches

reset-tree:
	@rm -f $(TREE)/.git/bench-series
	@$(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/kernel-patches

clean:
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------
# Opt-in 32-bit flavours (issue 14): i386 (qemu-system-i386) and arm
# (qemu-system-arm -M virt -cpu cortex-a15).  Not part of kernel, module,
# initramfs, bench or check yet:
#   make initramfs-i386 initramfs-arm
#   ACCEL="icount-i386 icount-arm" ... (bench/host/accels.sh, ACCELS_32)
# Per flavour: ARCH (the flavour name), base config, fragment
# bench/kernel-<flavour>.config, kernel targets, toolchain prefix for kbuild
# (KCROSS), compiler of the static guest tools (GUESTCC) and the Debian
# architecture the guest's busybox-static comes from (DEBARCH).  The guest
# tools go to build/tools-<flavour>/, busybox to build/busybox-<flavour>/.
XFLAVOURS       := i386 arm
KBASE_i386      := tinyconfig
KTARGETS_i386   := bzImage modules
KCROSS_i386     :=
GUESTCC_i386    := i686-linux-gnu-gcc
DEBARCH_i386    := i386
KBASE_arm       := tinyconfig
KTARGETS_arm    := zImage modules
KCROSS_arm      := arm-linux-gnueabihf-
GUESTCC_arm     := arm-linux-gnueabihf-gcc
DEBARCH_arm     := armhf
GUESTTOOLS      := knob seccomp-bench bpfdiff

.PHONY: deps-cross $(foreach f,$(XFLAVOURS),kernel-$(f) module-$(f) \
	initramfs-$(f) guest-tools-$(f))

deps-cross:
	@$(TOP)/bench/host/deps.sh cross

$(addprefix kernel-,$(XFLAVOURS)): kernel-%: tree deps-cross
	@CROSS_COMPILE=$(KCROSS_$*) KCONFIG_BASE=$(KBASE_$*) \
		$(TOP)/bench/host/build-kernel.sh $(TREE) $(BUILD)/obj-$* $* \
		$(TOP)/bench/kernel-$*.config $(KTARGETS_$*)

$(addprefix module-,$(XFLAVOURS)): module-%: kernel-%
	@echo "[module] building bench/module for $*"
	@mkdir -p $(BUILD)/module-$*
	@cp -p $(MODULE)/Kbuild $(MODULE)/*.c $(BUILD)/module-$*/
	@$(MAKE) -s -C $(BUILD)/obj-$* ARCH=$* CROSS_COMPILE=$(KCROSS_$*) \
		M=$(BUILD)/module-$* W=1 modules

$(BUILD)/tools-%/knob: bench/guest/knob.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/tools-%/seccomp-bench: bench/guest/seccomp-bench.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/tools-%/bpfdiff: bench/guest/bpfdiff.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/busybox-%/busybox: bench/host/foreign-busybox.sh
	@$(TOP)/bench/host/foreign-busybox.sh $(DEBARCH_$*) $@

$(addprefix guest-tools-,$(XFLAVOURS)): guest-tools-%: \
	$(addprefix $(BUILD)/tools-%/,$(GUESTTOOLS)) $(BUILD)/busybox-%/busybox

$(addprefix initramfs-,$(XFLAVOURS)): initramfs-%: module-% guest-tools-% filters
	@BUSYBOX=$(BUILD)/busybox-$*/busybox EXTRA_CPIO= \
		$(TOP)/bench/host/mkinitramfs.sh \
		$(BUILD)/initramfs-$*.cpio.gz $(BUILD)/obj-$* $(BUILD)/tools-$* \
		$(BUILD)/module-$*/bpf_bench.ko $(BUILD)/obj-$*/lib/test_bpf.ko
