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
ARCH     := x86_64
KOBJ     := $(BUILD)/obj-$(ARCH)
FRAGMENT := $(TOP)/bench/kernel-$(ARCH).config
TOOLS    := $(BUILD)/tools
MODULE   := $(TOP)/bench/module
HOSTCFLAGS := -O2 -Wall -Wextra -Werror

export ACCEL BENCH_ARGS

.PHONY: all bench check deps-bench deps-check tree kernel module tools filters \
	initramfs export-patches reset-tree clean

all: initramfs

deps-bench:
	@$(TOP)/bench/host/deps.sh bench

deps-check:
	@$(TOP)/bench/host/deps.sh check

tree: deps-bench
	@$(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/kernel-patches

kernel: tree
	@$(TOP)/bench/host/build-kernel.sh $(TREE) $(KOBJ) $(ARCH) $(FRAGMENT) bzImage modules

module: kernel
	@echo "[module] building bench/module against $(KOBJ)"
	@$(MAKE) -s -C $(KOBJ) M=$(MODULE) W=1 modules

$(TOOLS)/knob: bench/guest/knob.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

$(TOOLS)/mkcsv: results/mkcsv.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $<

$(TOOLS)/%: results/%.c results/csv.c results/csv.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $< results/csv.c -lm

tools: deps-bench $(TOOLS)/knob $(TOOLS)/mkcsv $(TOOLS)/mktable $(TOOLS)/cmpruns \
	$(TOOLS)/crosscheck

filters: deps-bench
	@$(MAKE) -s -C filters

initramfs: module tools filters
	@$(TOP)/bench/host/mkinitramfs.sh $(BUILD)/initramfs.cpio.gz $(KOBJ) \
		$(TOOLS)/knob $(MODULE)/bpf_bench.ko $(KOBJ)/lib/test_bpf.ko

bench: initramfs
	@$(TOP)/bench/host/run-bench.sh $(TOP) $(BUILD) $(KOBJ)

check: deps-check
	@$(TOP)/bench/host/run-check.sh $(TOP) $(BUILD) $(KOBJ)

export-patches:
	@$(TOP)/kernel-patches/export-series.sh $(TREE) $(TOP)/kernel-patches

reset-tree:
	@rm -f $(TREE)/.git/bench-series
	@$(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/kernel-patches

clean:
	rm -rf $(BUILD)
