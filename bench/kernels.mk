# bench/kernels.mk - the kernel source trees of bench/kernels.conf, for
# make (included by the top Makefile).  KERNEL=NAME picks one (default:
# the record with "default 1").
#
#   KERNELS_ALL     the names, in file order
#   KERNEL          the one this make works on
#   KPACKAGE        its Debian source package (/usr/src/<package>.tar.xz)
#   KSERIES         its patch series directory, relative to the clone
#   KTREE_NAME      its tree under build/: linux (the default), linux-<NAME>
#   KOUT_DIR        where its kernels, modules and initramfs go: build/,
#                   or build/kernel-<NAME>/ for another one

KERNELS_CONF ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/kernels.conf
include $(dir $(lastword $(MAKEFILE_LIST)))registry.mk
KERNELS_ALL := $(call recs,$(KERNELS_CONF),kernel)
KERNEL_DEFAULT := $(firstword $(foreach k,$(KERNELS_ALL),$(if $(filter 1,$(call rec,$(KERNELS_CONF),kernel,$(k),default)),$(k))))
KERNEL ?= $(KERNEL_DEFAULT)
ifeq ($(filter $(KERNEL),$(KERNELS_ALL)),)
$(error unknown KERNEL=$(KERNEL) (bench/kernels.conf: $(KERNELS_ALL)))
endif
KPACKAGE := $(call rec,$(KERNELS_CONF),kernel,$(KERNEL),package)
KSERIES := $(call rec,$(KERNELS_CONF),kernel,$(KERNEL),series)
# another kernel than the default gets directories of its own
KOTHER := $(filter-out $(KERNEL_DEFAULT),$(KERNEL))
KTREE_NAME := linux$(if $(KOTHER),-$(KERNEL))
KOUT_DIR = $(BUILD)$(if $(KOTHER),/kernel-$(KERNEL))
