/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registries of bench/: engines.conf (engines, ratios, cells, claims,
 * splits), accels.conf (accelerator kinds and accelerators), flavours.conf,
 * kernels.conf, cores.conf and args.conf, each read once by every host tool
 * that asks.  Records are "TYPE NAME" lines (engine, ratio NUM/DEN, kind,
 * accel, ...) followed by indented "KEY VALUE..." lines; see the files for
 * the keys.  What a record names in another is checked by results/regcheck.
 */
#ifndef RESULTS_REGISTRY_H
#define RESULTS_REGISTRY_H

#include <stddef.h>

#define REG_MAX		64	/* records of one type */
#define REG_MAX_KEYS	24	/* keys of one record */

struct reg_rec {
	char name[64];
	int nkeys;
	char key[REG_MAX_KEYS][48];
	char val[REG_MAX_KEYS][256];
	int known;		/* 0: made up for a name the file lacks */
	int line;		/* of its "TYPE NAME" line (0: made up) */
	int kline[REG_MAX_KEYS];	/* of each key */
};

struct reg {
	int n;
	struct reg_rec *rec;	/* n of them; moved when one is added */
	const char *path;	/* the file they were read from */
};

/* The registries (loaded on first use; exit with a message on a bad file). */
struct reg *reg_engines(void);
struct reg *reg_ratios(void);
/* engines.conf's table cells, 2014 claims and ratio splits (mkclaims) */
struct reg *reg_cells(void);
struct reg *reg_claims(void);
struct reg *reg_splits(void);
struct reg *reg_kinds(void);
/* bench/accels.conf's accelerators (the shell reads them: accels.sh) */
struct reg *reg_accels(void);
struct reg *reg_flavours(void);
/*
 * bench/cores.conf (the model plugin's cores and the predictor records),
 * bench/args.conf (plan options)
 */
struct reg *reg_cores(void);
struct reg *reg_predictors(void);
/* bench/measured.conf: uml's ratios measured on the hosts the model is held against */
struct reg *reg_measured(void);
/* bench/times.conf: measured times (guest_s, boot_s, check_s, run_sd; build_s, relink_s) */
struct reg *reg_time_accels(void);
struct reg *reg_time_flavours(void);
struct reg *reg_time_hosts(void);
struct reg *reg_time_jobs(void);
struct reg *reg_args(void);
/* bench/kernels.conf: the kernel source trees */
struct reg *reg_kernels(void);
/* The record of kernel version @version ("6.12.118+": record 6.12), or NULL. */
struct reg_rec *reg_kernel_of(const char *version);
/* The default tree's record (default 1). */
struct reg_rec *reg_kernel_default(void);
/* @rel, a path relative to the clone, as kernels.conf's clone sees it. */
const char *reg_clone_path(const char *rel);

/* Record NAME; with @add, a record with no keys is made for an unknown one. */
struct reg_rec *reg_find(struct reg *r, const char *name, int add);
/*
 * Engines @num and @den of a pair "NUM/DEN" (a ratio's or a split's name, a
 * claim's pair), each at most @n - 1 characters; 0 when it is not one.
 */
int reg_pair(const char *name, char *num, char *den, size_t n);
/* Value of KEY ("" when absent). */
const char *reg_get(const struct reg_rec *rec, const char *key);
/* Value of KEY, or @def when absent. */
const char *reg_get_or(const struct reg_rec *rec, const char *key,
		       const char *def);
/* Split the value of KEY into at most @max blank-separated words. */
int reg_words(const struct reg_rec *rec, const char *key, char words[][32],
	      int max);

/*
 * The model plugin's per-call counters, in the order of its window lines
 * (bench/plugin/bpfmodel.c): mkcsv turns each into model_<name>, the
 * registry check holds cores.conf's formulas and predictor records to them.
 */
#define REG_MODEL_COUNTERS \
	"insns cond cond_taken cond_miss cond_miss_bimodal cond_miss_tage ind " \
	"ind_miss ind_miss_btb ind_miss_ittage ret ret_miss l1i_acc l1i_miss " \
	"l1d_acc l1d_miss l2_acc l2_miss"
/*
 * Counters a window line may lack: the plugin's l2_lead (its runs before
 * it counted them), and base and base_dropped, which bench/plugin/mcabase
 * adds to the lines of a core with an mcpu key.  A formula that names one
 * a line lacks is refused.
 */
#define REG_MODEL_OPTIONAL "l2_lead base base_dropped"

/* An engine's row label: its label, or its name when the file lacks it. */
const char *engine_label(const char *name);
/* An engine's plot series name. */
const char *engine_plot_label(const char *name);
/* The architecture of the 2014 table a flavour is compared with. */
const char *reg_ref_arch(const char *flavour);
/*
 * The 2014 figures WHAT.ARCH (ref2014, seccomp2014) of @rec beside a table
 * of @flavour, ARCH = reg_ref_arch(@flavour) (um: x86_64, the host it runs
 * on); none when the commit message has no such figure.  Returns the
 * number of words.
 */
int reg_ref(const struct reg_rec *rec, const char *what, const char *flavour,
	    char words[][32], int max);
/* Rank of an accelerator kind (file order); unknown kinds last. */
int kind_rank(const char *kind);
/*
 * Whether kind record @kind has @flag 1 (accels.conf: timed, test); 0 for an
 * unknown kind.
 */
int kind_flag(const char *kind, const char *flag);

#endif
