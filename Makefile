# Reproduce commit bd4cf0ed331a's classic BPF benchmark on Debian's 6.1 tree.
#
#   make bench    build everything, boot the guest(s), print the ns/call tables
#   make check    host tests and in-guest tests; ends with "N passed, N failed"
#   make tables RUN=results/<id>   re-make a saved run's tables, plots, cover
#   make readme-results RUN=results/<id>   that run's headline ratios and
#                 claims into README.md (the reference-run block)
#
# Pipeline: filters/ -> kernel-patches/ -> bench/ (module, guest, host
# runner) -> results/ -> plots/; lib/ the C they share (CSV, registries,
# statistics, the run loader).  Everything built lives in build/.

TOP      := $(CURDIR)
BUILD    := $(TOP)/build
# KERNEL=NAME: the source tree of record NAME in bench/kernels.conf
# (default 6.1, the tree `linux-source` installs; KERNEL=6.12 opts in).
include $(TOP)/bench/kernels.mk
TREE     := $(BUILD)/$(KTREE_NAME)
TOOLS    := $(BUILD)/tools
MODULE   := $(TOP)/bench/module
# A kernel is built from KTREE into KOUT/obj-<flavour>, its module and
# initramfs into KOUT/module-<flavour> and KOUT/initramfs-<flavour>.cpio.gz:
# make compare (bench/host/run-compare.sh) points them at the trees it
# patches, build/compare/<side>/.  A KERNEL other than the default builds
# into build/kernel-<KERNEL>/.
KTREE    ?= $(TREE)
KOUT     ?= $(KOUT_DIR)
HOSTCFLAGS := -O2 -Wall -Wextra -Werror

# Kernel flavours: one record each in bench/flavours.conf (x86_64 boots
# under QEMU: kvm, tcg, icount; um is User-mode Linux, native speed, no
# JIT): ARCH, base config, config fragment, make targets, toolchain prefix,
# whether perf goes into its initramfs.
FLAVOURS_CONF := $(TOP)/bench/flavours.conf
include $(TOP)/bench/flavours.mk
$(foreach f,$(FLAVOURS),$(eval KARCH_$(f) := $(call flavour,$(f),arch)))
$(foreach f,$(FLAVOURS),$(eval KBASE_$(f) := $(call flavour,$(f),base)))
$(foreach f,$(FLAVOURS),$(eval KFRAG_$(f) := $(addprefix $(TOP)/,$(call flavour,$(f),fragment))))
$(foreach f,$(FLAVOURS),$(eval KTARGETS_$(f) := $(call flavour,$(f),targets)))
$(foreach f,$(FLAVOURS),$(eval KCROSS_$(f) := $(filter-out -,$(call flavour,$(f),cross))))
# `make kernel`, `module`, `initramfs` (and so check) build the flavours
# whose record does not say "default 0" or "default check" (x86_64, um,
# i386, arm); make bench builds those its accelerators boot (ACCEL,
# ARCHES: bench/host/bench-flavours.sh).  A flavour with its own guest_cc gets its
# static guest tools in build/tools-<flavour>/ and the busybox of Debian's
# busybox-static:<debarch> (bench/host/foreign-busybox.sh).
DEFAULT_FLAVOURS := $(foreach f,$(FLAVOURS),$(if $(filter 0 check,$(call flavour,$(f),default)),,$(f)))
# Archives appended to a flavour's initramfs: perf where the record says
# "perf 1", the host's (bench/host/mkperfcpio.sh) or, for a flavour with a
# debarch, Debian's linux-perf:<debarch> (bench/host/foreign-perf.sh).
$(foreach f,$(FLAVOURS),$(eval EXTRA_$(f) := $(if $(filter 1,$(call flavour,$(f),perf)),$(if $(DEBARCH_$(f)),$(BUILD)/perf-$(f).cpio.gz,$(BUILD)/perf.cpio.gz))))
GUESTTOOLS := knob seccomp-bench bpfdiff knobfuzz capture
$(foreach f,$(FLAVOURS),$(eval GTOOLS_$(f) := $(if $(GUESTCC_$(f)),$(BUILD)/tools-$(f),$(TOOLS))))
$(foreach f,$(FLAVOURS),$(eval BUSYBOX_$(f) := $(if $(DEBARCH_$(f)),$(BUILD)/busybox-$(f)/busybox)))
$(foreach f,$(FLAVOURS),$(eval GDEPS_$(f) := $(if $(GUESTCC_$(f)),$(addprefix $(GTOOLS_$(f))/,$(GUESTTOOLS))) $(BUSYBOX_$(f))))
$(foreach f,$(FLAVOURS),$(eval XDEPS_$(f) := $(if $(KCROSS_$(f))$(GUESTCC_$(f)),deps-cross)))

# make plots / make cover-letter work on this results directory.
RUN   ?= $(TOP)/results/latest
COVER ?= $(TOP)/kernel-patches/0000-cover-letter.patch

# ARCHES: the architectures make bench covers with ACCEL=auto (default
# all: x86_64 i386 arm32), e.g. make bench ARCHES=x86_64.
export ACCEL ARCHES BENCH_ARGS REPEAT BOOTS LAYOUTS LAYOUT_SEEDS LAYOUT_BUILDS QUIET PATCHES BASE CHECK_KERNELS
# FILTERS='NAME=EXPR;...' (or a file), PCAP=FILE: the capture workload,
# a user's filters on a user's capture (docs/capture.md); CAPTURE_MAX,
# CAPTURE_SHUFFLE its sampling and order.
export FILTERS PCAP CAPTURE_MAX CAPTURE_SHUFFLE
PCAPDIFF := $(BUILD)/diff/pcapdiff
# ccache: paths under the clone are hashed relative to it, so a second
# clone (CI's) hits the cache the first one filled.
export CCACHE_BASEDIR := $(TOP)
export CCACHE_NOHASHDIR := 1
# Depend mode: a miss compiles once, with no preprocessor pass first (the
# compiler's -MD output names the headers); with an empty cache an x86_64
# kernel built in 532 s instead of 698 s (no ccache: 519 s).
export CCACHE_DEPEND := 1

.PHONY: all bench bench-input compare compare-input tables check fuzz deps-bench deps-check deps-cross tree kernel module tools filters \
	initramfs export-patches reset-tree trend clean plots cover-letter readme-results testbpf model-tools \
	$(foreach f,$(FLAVOURS),kernel-$(f) module-$(f) initramfs-$(f))

all: initramfs

deps-bench:
	@KPACKAGE=$(KPACKAGE) $(TOP)/bench/host/deps.sh bench

# After deps-bench, never beside it: under make -j two apt-gets would race
# for apt's lock.
deps-cross: deps-bench
	@KPACKAGE=$(KPACKAGE) $(TOP)/bench/host/deps.sh cross

deps-check:
	@KPACKAGE=$(KPACKAGE) $(TOP)/bench/host/deps.sh check

tree: deps-bench
	@LINUX_PACKAGE=$(KPACKAGE) $(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/$(KSERIES)

kernel: $(addprefix kernel-,$(DEFAULT_FLAVOURS))
module: $(addprefix module-,$(DEFAULT_FLAVOURS))
initramfs: $(addprefix initramfs-,$(DEFAULT_FLAVOURS))

.SECONDEXPANSION:
# Marked recursive ("+"): under make -jN the kernel's own make shares the
# job slots (bench/host/build-kernel.sh), so several flavours build side by
# side, each filling the other's single-threaded link.
$(addprefix kernel-,$(FLAVOURS)): kernel-%: tree $$(XDEPS_$$*)
	+@KCONFIG_BASE=$(KBASE_$*) CROSS_COMPILE=$(KCROSS_$*) $(TOP)/bench/host/build-kernel.sh $(KTREE) \
		$(KOUT)/obj-$* $(KARCH_$*) "$(KFRAG_$*)" $(KTARGETS_$*)

# The module is built per flavour in a copy of its sources: kbuild writes
# its objects next to them.
$(addprefix module-,$(FLAVOURS)): module-%: kernel-%
	@echo "[module] building bench/module for $*"
	@mkdir -p $(KOUT)/module-$*
	@cp -p $(MODULE)/Kbuild $(MODULE)/*.c $(KOUT)/module-$*/
	@$(MAKE) -s -C $(KOUT)/obj-$* ARCH=$(KARCH_$*) $(if $(KCROSS_$*),CROSS_COMPILE=$(KCROSS_$*)) M=$(KOUT)/module-$* W=1 modules

$(TOOLS)/knob: bench/guest/knob.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

$(TOOLS)/knobfuzz: bench/guest/knobfuzz.c lib/registry.c lib/registry.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -DREG_DIR='"/bench"' -static -o $@ $< lib/registry.c

$(TOOLS)/mkcsv: results/mkcsv.c lib/csv.c lib/csv.h lib/stats.c lib/stats.h lib/cell.h lib/registry.c lib/registry.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) $(REGFLAGS) -o $@ $< lib/csv.c lib/stats.c lib/registry.c -lm

# The host tools share lib/: the CSV reader, the registries, the statistics,
# the simulations' option parser.
HOSTLIB := lib/cells.c lib/csv.c lib/layouts.c lib/opts.c lib/registry.c lib/run.c lib/stats.c
HOSTHDR := lib/cell.h lib/csv.h lib/layouts.h lib/opts.h lib/registry.h lib/run.h lib/stats.h
REGFLAGS := -DREG_DIR='"$(TOP)/bench"'

$(TOOLS)/%: results/%.c $(HOSTLIB) $(HOSTHDR)
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) $(REGFLAGS) -o $@ $< $(HOSTLIB) -lm

$(TOOLS)/csv2dat: plots/csv2dat.c $(HOSTLIB) $(HOSTHDR)
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) $(REGFLAGS) -o $@ $< $(HOSTLIB) -lm

$(TOOLS)/seccomp-bench $(TOOLS)/capture: $(TOOLS)/%: bench/guest/%.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -o $@ $<

$(TOOLS)/mkcaps: filters/user/mkcaps.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $<

$(TOOLS)/layoutpads: bench/host/layoutpads.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $<

$(TOOLS)/control: bench/host/control.c lib/stats.c lib/stats.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $< lib/stats.c -lm

$(TOOLS)/bpfdiff: bench/guest/bpfdiff.c lib/registry.c lib/registry.h lib/die.c lib/die.h
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -DREG_DIR='"/bench"' -static -o $@ $< lib/registry.c lib/die.c

$(TOOLS)/mkratios $(TOOLS)/mkcompare: $(TOOLS)/%: results/%.c results/paired.c results/paired.h $(HOSTLIB) $(HOSTHDR)
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) $(REGFLAGS) -o $@ $< results/paired.c $(HOSTLIB) -lm

tools: deps-bench $(TOOLS)/knob $(TOOLS)/mkcsv $(TOOLS)/mktable $(TOOLS)/cmpruns \
	$(TOOLS)/crosscheck $(TOOLS)/mkcover $(TOOLS)/csv2dat $(TOOLS)/seccomp-bench $(TOOLS)/capture \
	$(TOOLS)/bpfdiff $(TOOLS)/control $(TOOLS)/layoutpads $(TOOLS)/mkratios $(TOOLS)/knobfuzz $(TOOLS)/simboots $(TOOLS)/simcompare $(TOOLS)/layoutcov \
	$(TOOLS)/mkclaims $(TOOLS)/csvget $(TOOLS)/mkcompare $(TOOLS)/mktrend $(TOOLS)/regcheck \
	$(TOOLS)/mkmeasured $(TOOLS)/mkcapture $(TOOLS)/mkcaps $(PCAPDIFF)

# The branch and cache model (docs/model.md): the QEMU plugin, checked
# against the installed QEMUs' exports, and its validation programs
# (bench/plugin/tests.sh, run by make check).
$(TOOLS)/bpfmodel.so: bench/plugin/bpfmodel.c bench/plugin/qemu-plugin-api.h bench/plugin/check-qemu.sh
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -shared -fPIC -fvisibility=hidden -o $@.tmp $< -lm
	@$(TOP)/bench/plugin/check-qemu.sh $@.tmp qemu-system-x86_64 qemu-system-i386 qemu-system-arm
	@mv $@.tmp $@

$(TOOLS)/modelcheck: bench/plugin/modelcheck.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -static -no-pie -o $@ $<

$(BUILD)/tools-arm/modelcheck: bench/plugin/modelcheck.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_arm) $(HOSTCFLAGS) -static -o $@ $<

# The interval model's base cost per window: llvm-mca over the plugin's
# profile of each window (bench/plugin/mcabase.c).
$(TOOLS)/mcabase: bench/plugin/mcabase.c
	@mkdir -p $(TOOLS)
	$(CC) $(HOSTCFLAGS) -o $@ $<

model-tools: $(TOOLS)/bpfmodel.so $(TOOLS)/mcabase $(TOOLS)/modelcheck $(BUILD)/tools-arm/modelcheck

# make bench regenerates and compares the x86_64 seccomp filters only (no
# cross toolchain needed); make check (filters/seccomp check) every flavour's.
filters: deps-bench
	@$(MAKE) -s -C filters
	@$(MAKE) -s -C filters/seccomp SECCOMP_ARCHES=x86_64 FLAVOURS_CONF=$(FLAVOURS_CONF)
	@$(MAKE) -s -C filters/diff

# lib/test_bpf.c's CLASSIC tests as vectors for the guest (build/testbpf/;
# another KERNEL's in build/kernel-<KERNEL>/testbpf/), cut from the tree at
# build time (filters/testbpf/README.md).
TESTBPF := $(KOUT_DIR)/testbpf
testbpf: tree
	@$(MAKE) -s -C filters/testbpf TREE=$(TREE) BUILD=$(TESTBPF)

# Static guest tools and busybox of a flavour with its own compiler.
$(BUILD)/tools-%/knob: bench/guest/knob.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/tools-%/knobfuzz: bench/guest/knobfuzz.c lib/registry.c lib/registry.h | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -DREG_DIR='"/bench"' -static -o $@ $< lib/registry.c

$(BUILD)/tools-%/seccomp-bench: bench/guest/seccomp-bench.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/tools-%/capture: bench/guest/capture.c | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -static -o $@ $<

$(BUILD)/tools-%/bpfdiff: bench/guest/bpfdiff.c lib/registry.c lib/registry.h lib/die.c lib/die.h | deps-cross
	@mkdir -p $(@D)
	$(GUESTCC_$*) $(HOSTCFLAGS) -DREG_DIR='"/bench"' -static -o $@ $< lib/registry.c lib/die.c

$(BUILD)/busybox-%/busybox: bench/host/foreign-busybox.sh bench/host/debarch.sh
	@$(TOP)/bench/host/foreign-busybox.sh $(DEBARCH_$*) $@

$(addprefix initramfs-,$(FLAVOURS)): initramfs-%: module-% tools filters testbpf $$(EXTRA_$$*) $$(GDEPS_$$*)
	@BUSYBOX="$(BUSYBOX_$*)" EXTRA_CPIO="$(EXTRA_$*)" SECCOMP_ARCH="$(SECCOMPARCH_$*)" TESTBPF="$(TESTBPF)" \
		$(TOP)/bench/host/mkinitramfs.sh \
		$(KOUT)/initramfs-$*.cpio.gz $(KOUT)/obj-$* $(GTOOLS_$*) \
		$(KOUT)/module-$*/bpf_bench.ko $(KOUT)/obj-$*/lib/test_bpf.ko

$(BUILD)/perf.cpio.gz: bench/host/mkperfcpio.sh | kernel-x86_64
	@$(TOP)/bench/host/mkperfcpio.sh $@ $(KOUT)/obj-x86_64

# Debian's linux-perf:<debarch> with its libraries and loader; the .debs
# stay in $(BUILD)/debs/<debarch>/.
$(BUILD)/perf-%.cpio.gz: bench/host/foreign-perf.sh bench/host/debarch.sh | kernel-%
	@$(TOP)/bench/host/foreign-perf.sh $(DEBARCH_$*) $(KOUT)/obj-$* $@

# Bad ACCEL, ARCHES, REPEAT or BENCH_ARGS (bench/args.conf) are refused
# first, before anything is built; then the estimate, the build of the
# flavours the run boots (bench/host/bench-flavours.sh; side by side,
# sharing nproc job slots), the boots.
bench: bench-input
	@$(TOP)/bench/host/estimate.sh $(BUILD)
	@$(MAKE) --no-print-directory -j$$(nproc) $$($(TOP)/bench/host/bench-flavours.sh -t)
	@KOUT=$(KOUT) KTREE=$(KTREE) KPACKAGE=$(KPACKAGE) $(TOP)/bench/host/run-bench.sh $(TOP) $(BUILD)

# With FILTERS or PCAP the check compiles the expressions (tcpdump) and
# checks @FILE programs (pcapdiff): those first.
bench-input: $(if $(FILTERS)$(PCAP),deps-bench $(PCAPDIFF))
	@$(TOP)/bench/host/run-bench.sh $(TOP) $(BUILD) --check

$(PCAPDIFF): filters/diff/pcapdiff.c
	@$(MAKE) -s -C filters/diff $@

compare-input:
	@$(TOP)/bench/host/run-compare.sh $(TOP) $(BUILD) --check

# make compare PATCHES=DIR|MBOX [BASE=DIR|MBOX]: the patches measured
# against the baseline (default: build/linux, Debian's tree with our
# series), both kernels booted interleaved under ACCEL (as make bench;
# BOOTS for the timed ones); results/<id>/compare.txt, plots/ and
# series/, the patches with a cover letter (bench/host/run-compare.sh,
# docs/compare.md).
compare: compare-input tree tools
	@COMPARE=1 $(TOP)/bench/host/estimate.sh $(BUILD)
	@KERNEL=$(KERNEL) KTREE=$(TREE) KOUT=$(KOUT) KPACKAGE=$(KPACKAGE) $(TOP)/bench/host/run-compare.sh $(TOP) $(BUILD)

# make tables RUN=results/<id>: results.csv, table.txt, plots/ and a cover
# letter (RUN/cover-letter.patch, when the patched tree exists) re-made
# from a saved run's raw guest output, booting nothing (results/mktables.sh,
# the stage make bench ends with).
tables: tools
	@$(TOP)/results/mktables.sh $(RUN) $(TOOLS) $(TREE) $(RUN)/cover-letter.patch

plots: tools
	@$(TOP)/plots/render.sh $(RUN)

readme-results: tools
	@$(TOP)/results/mkreadme.sh $(TOOLS) $(RUN) $(TOP)/README.md

cover-letter: tools tree
	@$(TOOLS)/mkcover $(RUN) $(TREE) $(COVER)
	@echo "[cover] $(COVER): [PATCH 0/$$(git -C $(TREE) rev-list --count pristine..HEAD)] from $(RUN)"

# make check also builds and boots the other trees of bench/kernels.conf
# with a check key (CHECK_KERNELS=none: the default tree only), and, unless
# CHECK_DEBUG=0, the debug kernel and its short campaign (make fuzz: the
# long one).
check: deps-check
	@$(TOP)/bench/host/run-check.sh $(TOP) $(BUILD)

# make fuzz: the debug kernel (flavour debug: KASAN, UBSAN, lockdep,
# kmemleak) booted with the long campaign: >= 10000 knob writes (knobfuzz),
# >= 100000 (program, packet) pairs on every engine (bpfdiff fuzz), module
# reloads, then kmemleak and the kernel log; ends "N passed, N failed".
fuzz: deps-check
	@DEBUG_KERNEL=$(KERNEL) $(TOP)/bench/host/debug-campaign.sh $(TOP) $(BUILD) fuzz

# make trend RUNS="results/A results/B" [ACCEL=icount]: one accelerator's
# figures on the kernels of several runs beside the 2014 table
# (docs/kernels.md), into the last run's trend-<accel>.txt, and its plot
# (last/first per cell and engine) into the last run's plots/trend-<accel>.*.
TREND_ACCEL = $(or $(filter-out auto,$(ACCEL)),icount)
trend: $(TOOLS)/mktrend
	@test -n "$(RUNS)" || { echo 'make trend: RUNS="results/<id> results/<id>..." (runs of different kernels)' >&2; exit 2; }
	@$(TOOLS)/mktrend $(TREND_ACCEL) $(RUNS) > $(lastword $(RUNS))/trend-$(TREND_ACCEL).txt
	@cat $(lastword $(RUNS))/trend-$(TREND_ACCEL).txt
	@mkdir -p $(lastword $(RUNS))/plots
	@$(TOOLS)/mktrend -p $(lastword $(RUNS))/plots $(TREND_ACCEL) $(RUNS) > $(lastword $(RUNS))/plots/trend-index.txt
	@! command -v gnuplot > /dev/null || $(TOP)/plots/render.sh --index $(lastword $(RUNS))/plots $(lastword $(RUNS))/plots/trend-index.txt

export-patches:
	@$(TOP)/kernel-patches/export-series.sh $(TREE) $(TOP)/$(KSERIES)

reset-tree:
	@rm -f $(TREE)/.git/bench-series
	@LINUX_PACKAGE=$(KPACKAGE) $(TOP)/kernel-patches/prepare-tree.sh $(TREE) $(TOP)/$(KSERIES)

clean:
	rm -rf $(BUILD)

