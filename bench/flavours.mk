# bench/flavours.mk - the kernel flavours of bench/flavours.conf, for make
# (included by the top Makefile and filters/seccomp/Makefile).  Each key a
# rule needs becomes a variable per flavour; the per-architecture facts
# (compiler, Debian architecture, seccomp arch) are read here only.
#
#   FLAVOURS            the flavour names, in file order
#   $(call flavour,NAME,KEY)   KEY of flavour NAME's record (empty if none)
#   GUESTCC_<f>         its guest compiler (empty: the host's cc)
#   DEBARCH_<f>         its Debian architecture (empty: the host's)
#   SECCOMPARCH_<f>     the arch of the seccomp filters in its initramfs
#                       (default x86_64)
#   SECCOMP_ALL_ARCHES  every flavour's seccomp arch, once, in file order
#   SECCOMP_FLAVOUR_<a> the first flavour of seccomp arch <a>: its compiler
#                       and Debian architecture build that arch's mkseccomp
#                       (filters/seccomp/Makefile)

FLAVOURS_CONF ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))/flavours.conf
include $(dir $(lastword $(MAKEFILE_LIST)))registry.mk
flavour = $(call rec,$(FLAVOURS_CONF),flavour,$(1),$(2))
FLAVOURS := $(call recs,$(FLAVOURS_CONF),flavour)
$(foreach f,$(FLAVOURS),$(eval GUESTCC_$(f) := $(filter-out cc,$(call flavour,$(f),guest_cc))))
$(foreach f,$(FLAVOURS),$(eval DEBARCH_$(f) := $(filter-out -,$(call flavour,$(f),debarch))))
$(foreach f,$(FLAVOURS),$(eval SECCOMPARCH_$(f) := $(or $(call flavour,$(f),seccomp_arch),x86_64)))
# $(call uniq,WORDS): WORDS without repeats, first occurrence kept.
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
SECCOMP_ALL_ARCHES := $(strip $(call uniq,$(foreach f,$(FLAVOURS),$(SECCOMPARCH_$(f)))))
$(foreach a,$(SECCOMP_ALL_ARCHES),$(eval SECCOMP_FLAVOUR_$(a) := $(firstword $(foreach f,$(FLAVOURS),$(if $(filter $(a),$(SECCOMPARCH_$(f))),$(f))))))
