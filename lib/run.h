/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's results on the host, loaded once: results.csv (the cells),
 * ratios.csv and absolute.csv (the paired rounds over boots),
 * median-ratios.csv, claims.csv and decomposition.csv (results/mkclaims),
 * the quiet gate's records of each boot (host.txt), and the accelerators
 * in table order.  Every tool that reads a run looks cells up here; the
 * numbers derived from the cells (the ratio of two medians, the cost per
 * VM instruction) are read from those files, never formed again.
 */
#ifndef RESULTS_RUN_H
#define RESULTS_RUN_H

#include "csv.h"

/*
 * The quiet gate's records of one pinned accelerator (bench/host/quiet.sh,
 * quiet_after): what each boot's host.txt says, ACCEL/host.txt (boot 1),
 * ACCEL/boot-K/host.txt (the boots kept) and ACCEL/busy/boot-K.N/host.txt
 * (a busy boot that was booted again: kept for the audit, out of the
 * figures).  Counts over the boots kept; NAN where no boot recorded it.
 */
struct run_gate {
	char accel[64];
	char dir[64];		/* the accelerator's directory in the run */
	int boots;		/* boots kept with a control_ns record */
	int redone;		/* of them, booted again before being kept (redone > 0) */
	int busy;		/* of them, kept busy (busy=1: no retry left) */
	int discarded;		/* busy boots booted again (busy/boot-K.N) */
	char rule[32];		/* quiet_rule PCT,WAIT_S,REDO of the paired boots */
	double ref_first, ref_last;	/* quiet_ref_ns of the first and last boot */
	int ref_last_boot;		/* the boot of ref_last */
	double control_min, control_max;	/* control_ns over the boots kept */
	int control_max_boot;		/* the boot of control_max */
	double busy_min, busy_max;	/* control_ns of the discarded boots */
};

/*
 * A figure as a renderer shows it, formed once when the run is loaded
 * (lib/cells.c): its value, its 95% CI where it has one, what that CI is
 * over and the row it came from.  csv NULL: the run has no such figure.
 */
struct run_fig {
	const struct csv *csv;
	const struct csv_row *row;
	double v;
	double lo, hi;		/* the 95% CI; NAN when there is none */
	const char *over;	/* its file's ci_over (layouts, boots), or "" */
	int boots;		/* the boots it is over; 1: one boot */
};

/* What the whiskers of a cell's median show in a plot. */
enum run_whisker { RUN_WHISKER_CI, RUN_WHISKER_MINMAX, RUN_WHISKER_SD };

/*
 * A cell of the run, typed: an engine's figures in one (tag, filter, skbs)
 * of one accelerator.  The bench plan's median (results.csv) and the
 * paired rounds' median over boots (absolute.csv) are both kept; @figure
 * is the one a cell's single number shows, decided here once: the one
 * over boots where the run has it.
 */
struct run_cell {
	const char *accel, *kind, *tag, *engine, *filter, *packet, *skbs, *unit;
	struct run_fig median;		/* results.csv; csv NULL: none */
	struct run_fig paired;		/* absolute.csv; csv NULL: none */
	const struct run_fig *figure;	/* &paired where there, else &median */
	double whisker_lo, whisker_hi;	/* the median's whisker ends */
	enum run_whisker whisker;	/* the CI, else min..max, else min..mean+sd */
	double vm_insns;		/* eBPF/classic insns a call; NAN: not counted */
	double per_vm_insn;		/* median_per_vm_insn (mkcsv); NAN: none */
};

/*
 * A ratio A/B of one cell, typed: the paired ratio (ratios.csv, over the
 * interleaved rounds) and the ratio of the two medians (median-ratios.csv,
 * results/mkclaims); @figure is the one to quote: the paired one where the
 * run has it.
 */
struct run_quot {
	const char *accel, *tag, *pair, *filter, *skbs;
	struct run_fig paired;		/* csv NULL: none */
	struct run_fig medians;		/* csv NULL: none */
	const struct run_fig *figure;
	double halfwidth_pct;		/* of the paired CI; NAN: none */
};

struct run {
	struct csv results, ratios, absolute, claims, splits, mratios, layouts, against;
	struct csv validation, mixed, crosscheck;
	int has_ratios, has_absolute, has_claims, has_splits, has_mratios, has_layouts;
	int has_against, has_validation, has_mixed, has_crosscheck;
	const char **accels;	/* table order: accels.conf's kinds, then the rest */
	int naccels;
	char **info;		/* run.txt's key=value lines (run_load_dir) */
	int ninfo;
	struct run_gate *gates;	/* run_load_gates */
	int ngates;
	struct run_cell *cells;	/* run_type_cells */
	int ncells;
	struct run_quot *quots;
	int nquots;
};

/* Load RESULTS (and each other file that is not NULL). */
void run_open(struct run *run, const char *results, const char *ratios,
	      const char *absolute);
/* DIR/results.csv and, where they exist, the other files of the run. */
void run_load_dir(struct run *run, const char *dir);
/* A key of run.txt ("" when absent or not loaded). */
const char *run_info(const struct run *run, const char *key);
/*
 * The value of @key in the key=value file @path (a boot's host.txt) into
 * @buf, cut to @n - 1 bytes; "" when the file or the key is missing.
 */
void run_file_kv(const char *path, const char *key, char *buf, size_t n);
/*
 * Load what results/mkclaims writes beside results.csv: DIR/claims.csv,
 * DIR/decomposition.csv, DIR/median-ratios.csv, DIR/layouts.csv,
 * DIR/against.csv, DIR/validation.csv, DIR/mixed.csv and DIR/crosscheck.csv,
 * where they exist.
 */
void run_load_claims(struct run *run, const char *dir);
/* The directory of the file @path ("." for a bare name) into @buf. */
const char *run_dir_of(const char *path, char *buf, size_t n);
/*
 * The quiet gate's records of each accelerator directory of DIR whose
 * boots recorded a control_ns (host.txt), into run->gates.
 */
void run_load_gates(struct run *run, const char *dir);
/* The quiet gate's records of @accel, or NULL (no pinned boot recorded). */
const struct run_gate *run_gate(const struct run *run, const char *accel);

/*
 * Type the cells and ratios of the files loaded so far (lib/cells.c);
 * run_open and run_load_claims call it, so a loaded run is typed.
 */
void run_type_cells(struct run *run);
/* A typed cell; NULL @filter or @skbs matches any; NULL when none. */
const struct run_cell *run_cell(const struct run *run, const char *accel,
				const char *tag, const char *engine,
				const char *filter, const char *skbs);
/* The same, on packet @packet (NULL: any). */
const struct run_cell *run_cell_on(const struct run *run, const char *accel,
				   const char *tag, const char *engine,
				   const char *filter, const char *packet,
				   const char *skbs);
/* A typed ratio "A/B" (@tag bench or seccomp); NULL when neither file has it. */
const struct run_quot *run_quot(const struct run *run, const char *accel,
				const char *tag, const char *pair,
				const char *filter, const char *skbs);

/* A cell of results.csv; NULL for @filter or @skbs matches any. */
const struct csv_row *run_result(const struct run *run, const char *accel,
				 const char *tag, const char *engine,
				 const char *filter, const char *skbs);
/* An engine's figures over boots (absolute.csv, ci_over=layouts or boots). */
const struct csv_row *run_absolute(const struct run *run, const char *accel,
				   const char *engine, const char *filter,
				   const char *skbs);
/* The first results.csv row of @accel. */
const struct csv_row *run_accel_row(const struct run *run, const char *accel);
/*
 * The mitigations @accel's guest recorded (meta.txt mitigations, a
 * results.csv column): what its kernel patched in on that CPU; "" when the
 * run has none.
 */
const char *run_accel_mitigations(const struct run *run, const char *accel);
/* What @accel's figures are: its kind's "what" in accels.conf. */
const char *run_accel_what(const struct run *run, const char *accel);
/*
 * The id of a results.csv row (its perf reports are RUN/<accel>/perf/ID.*):
 * its id column, or for a run without ids what ids are:
 * <tag>-<engine>-<filter>-<packet>-skbs<N>.
 */
void run_cell_id(const struct run *run, const struct csv_row *r, char *buf,
		 size_t n);
/*
 * What the CI of row @r of a ratios.csv or absolute.csv is formed over, in
 * words for a heading, into @buf: "over 36 boots of 12 code layouts",
 * "over 16 boots of one build" (one code layout: the CI holds for that
 * build only), "within one boot".
 */
const char *run_ci_over(const struct csv *csv, const struct csv_row *r,
			char *buf, size_t n);
/*
 * Whether @accel's figures are timings (its kind record says "timed 1",
 * accels.conf): they move from boot to boot, so no verdict is read from
 * one boot's interval or from a point value.
 */
int run_accel_timed(const struct run *run, const char *accel);
/* A row's ci_lo and ci_hi, when both are there (returns 1). */
int run_ci(const struct csv *csv, const struct csv_row *r, double *lo,
	   double *hi);

/*
 * The top @top symbols of the perf report @path on one line into @buf,
 * "12.34% sym, 5.67% sym2, ..."; returns how many (0: no report).
 */
int run_perf_top(const char *path, int top, char *buf, size_t n);

#endif
