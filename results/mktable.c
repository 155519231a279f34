// SPDX-License-Identifier: GPL-2.0
/*
 * mktable - print the ns/call tables of a run in the layout of commit
 * bd4cf0ed331a: one row per engine, columns fprog #1 cache-hit/miss and
 * fprog #2 cache-hit/miss, with the 2014 x86_64 figures and ratios beside
 * ours, then the cross-check against lib/test_bpf's own timer.
 *
 *   mktable RUN_DIR/results.csv > RUN_DIR/table.txt
 *
 * One table per accelerator, the most trustworthy first (hardware timing,
 * then instruction counts, then emulated timing), each labelled with what
 * measured it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/csv.h"
#include "../lib/registry.h"
#include "../lib/run.h"
#include "../lib/stats.h"

static struct run run;

/*
 * Engines in row order: those of bench/engines.conf, then any other the
 * run measured, labelled with its name (load_engines).
 */
static struct {
	const char *engine, *label;
	const struct reg_rec *rec;
} engines[REG_MAX];

static size_t nengines;

#define NENGINES nengines


static const char *get(const struct csv_row *r, const char *name)
{
	return csv_get(&run.results, r, name);
}

/* The mitigations @accel's guest recorded, or "not recorded". */
static const char *mitigations_of(const char *accel)
{
	const char *m = run_accel_mitigations(&run, accel);

	return *m ? m : "not recorded";
}

static void add_engine(const char *name)
{
	size_t e;

	for (e = 0; e < nengines; e++)
		if (!strcmp(engines[e].engine, name))
			return;
	if (nengines == REG_MAX || !*name)
		return;
	engines[nengines].engine = name;
	engines[nengines].label = engine_label(name);
	engines[nengines++].rec = reg_find(reg_engines(), name, 0);
}

static void load_engines(void)
{
	struct reg *r = reg_engines();
	int i;

	for (i = 0; i < r->n; i++)
		add_engine(r->rec[i].name);
	for (i = 0; i < run.results.nrows; i++)
		add_engine(get(&run.results.rows[i], "engine"));
}

static const struct csv_row *find(const char *accel, const char *tag,
			      const char *engine, const char *filter,
			      const char *skbs)
{
	return run_result(&run, accel, tag, engine, filter, skbs);
}

/*
 * A typed cell the bench plan measured (lib/cells.c: its figures parsed
 * once, at load), or NULL.
 */
static const struct run_cell *tcell(const char *accel, const char *tag,
				    const char *engine, const char *filter,
				    const char *skbs)
{
	const struct run_cell *t = run_cell(&run, accel, tag, engine, filter, skbs);

	return t && t->median.csv ? t : NULL;
}

/* The 95% CI of the median the module computed, if the cell has one. */
static int ci(const struct run_cell *t, double *lo, double *hi)
{
	if (!t || isnan(t->median.lo))
		return 0;
	*lo = t->median.lo;
	*hi = t->median.hi;
	return 1;
}

/*
 * Two engines differ significantly in a cell when their 95% confidence
 * intervals of the median do not overlap ("*"); "~" when they overlap;
 * nothing when either has no interval (median-ratios.csv's cis: apart,
 * overlap, empty).  Non-overlap of two 95% intervals is a conservative
 * test (README.md, "Statistics").
 */
static const char *significance(const struct csv_row *m)
{
	const char *cis = csv_get(&run.mratios, m, "cis");

	return !strcmp(cis, "apart") ? "*" : !strcmp(cis, "overlap") ? "~" : "";
}

/* The table's columns: the cell records of engines.conf, in order. */
static int ncells(void)
{
	return reg_cells()->n;
}

static const char *cell_get(int c, const char *key)
{
	return reg_get(&reg_cells()->rec[c], key);
}

static void header(int width)
{
	int c;

	printf("%-14s", "");
	for (c = 0; c < ncells(); c++)
		printf(" %*s", width, cell_get(c, "head"));
	printf("\n%-14s", "");
	for (c = 0; c < ncells(); c++)
		printf(" %*s", width, cell_get(c, "sub"));
	printf("\n");
}

/*
 * The paired ratios of ratios.csv (results/mkratios over each accelerator's
 * paired.txt, made by the tables stage): per cell and engine pair, the
 * median of the per-round time ratios t_A / t_B with its 95% CI, typed
 * (lib/cells.c); NULL when the cell has none.
 */
static const struct run_quot *pquot(const char *accel, const char *pair,
				    const char *filter, const char *skbs)
{
	const struct run_quot *q = run_quot(&run, accel, "bench", pair, filter, skbs);

	return q && q->paired.csv ? q : NULL;
}

/* Its row, for the columns a figure does not carry. */
static const struct csv_row *rfind(const char *accel, const char *pair,
				   const char *filter, const char *skbs)
{
	const struct run_quot *q = pquot(accel, pair, filter, skbs);

	return q ? q->paired.row : NULL;
}

static const char *rget(const struct csv_row *r, const char *name)
{
	return csv_get(&run.ratios, r, name);
}

/* "2.87 [2.80, 2.95]", "no difference shown" or "2.87 (no CI)" */
static void ratio_text(char *buf, size_t n, const struct run_quot *q)
{
	const struct run_fig *f = q ? &q->paired : NULL;

	if (!f)
		snprintf(buf, n, "-");
	else if (isnan(f->lo))
		snprintf(buf, n, "%.2f (no CI)", f->v);
	else if (f->lo <= 1.0 && f->hi >= 1.0)
		snprintf(buf, n, "no difference shown");
	else
		snprintf(buf, n, "%.2f [%.2f, %.2f]", f->v, f->lo, f->hi);
}

/* The paired ratio rows of @accel for every ratio record of the registry. */
static void paired_table(const char *accel, const char *kind)
{
	const struct run_quot *worst = NULL;
	const char *rounds = NULL, *boots = NULL, *over = NULL;
	char buf[128];
	int i, c, any = 0;

	for (i = 0; i < reg_ratios()->n; i++) {
		const char *pair = reg_ratios()->rec[i].name;

		for (c = 0; c < ncells(); c++)
			if (rfind(accel, pair, cell_get(c, "filter"), cell_get(c, "skbs")))
				break;
		if (c == ncells())
			continue;
		if (!any++) {
			const struct csv_row *r0 = NULL;

			for (c = 0; c < ncells() && !r0; c++)
				r0 = rfind(accel, pair, cell_get(c, "filter"), cell_get(c, "skbs"));
			over = csv_has(&run.ratios, "ci_over") ? rget(r0, "ci_over") : "rounds";
			boots = csv_has(&run.ratios, "boots") ? rget(r0, "boots") : "1";
			if (!strcmp(over, "layouts"))
				printf("paired ratios t_A/t_B %s\n(per boot the median of its interleaved rounds on the same skbs; per code\n"
				       "layout the mean of its boots; their geometric mean with its 95%% CI over\n"
				       "the code layouts%s;\n"
				       "> 1: the second engine is faster):\n", run_ci_over(&run.ratios, r0, buf, sizeof(buf)),
				       csv_has(&run.ratios, "run_sd_pct") && atof(rget(r0, "run_sd_pct")) > 0 ?
				       ",\nwidened by the run-level sd measured for this accelerator (bench/times.conf run_sd)" : "");
			else if (!strcmp(over, "boots"))
				printf("paired ratios t_A/t_B %s\n(per boot the median of its interleaved rounds on the same skbs; their\n"
				       "geometric mean with its 95%% CI over boots%s;\n"
				       "> 1: the second engine is faster):\n", run_ci_over(&run.ratios, r0, buf, sizeof(buf)),
				       csv_has(&run.ratios, "run_sd_pct") && atof(rget(r0, "run_sd_pct")) > 0 ?
				       ",\nwidened by the run-level sd measured for this accelerator (bench/times.conf run_sd)" : "");
			else
				printf("paired ratios t_A/t_B (interleaved rounds on the same skbs; median of the\n"
				       "per-round ratios with its 95%% CI within one boot; > 1: the second engine\n"
				       "is faster):\n");
			header(20);
		}
		printf("%-14s", pair);
		for (c = 0; c < ncells(); c++) {
			const struct run_quot *q = pquot(accel, pair, cell_get(c, "filter"),
							 cell_get(c, "skbs"));

			ratio_text(buf, sizeof(buf), q);
			printf(" %20s", buf);
			if (q && !rounds)
				rounds = rget(q->paired.row, "rounds");
			if (q && !isnan(q->halfwidth_pct) &&
			    (!worst || q->halfwidth_pct > worst->halfwidth_pct))
				worst = q;
		}
		printf("\n");
	}
	if (!any)
		return;
	printf("(%s rounds per cell, all placements%s; results/ratios.csv)\n",
	       rounds ? rounds : "-", boots && strcmp(boots, "1") ? " of all boots" : "");
	if (!strcmp(kind, "hardware") && !strcmp(over, "rounds"))
		printf("one boot: its CI holds within that boot, another boot need not fall\n"
		       "in it (BOOTS; docs/statistics.md)\n");
	if (!strcmp(kind, "hardware") && !strcmp(over, "boots"))
		printf("one build: its CI holds for this build's code layout; another build (one\n"
		       "more patch, another compiler) may move it further (LAYOUTS; docs/statistics.md)\n");
	if (!strcmp(kind, "hardware") && worst) {
		/* apart80_pct: formed with the CI (mkratios, stats_apart_pct) */
		const struct csv_row *w = worst->paired.row;
		const char *apart = csv_has(&run.ratios, "apart80_pct") ?
				    rget(w, "apart80_pct") : "";

		printf("statistical power: largest ratio CI half-width %s%% (%s %s skbs=%s):\n"
		       "a true ratio that far from 1 is shown at 50%% power",
		       rget(w, "halfwidth_pct"), worst->pair, worst->filter, worst->skbs);
		if (*apart)
			printf("; another run of the\n"
			       "same kind tells its ratio from this one at 80%% power when they differ by\n"
			       "about %.1f%% (ratios.csv apart80_pct; docs/statistics.md)\n", atof(apart));
		else
			printf("\n");
	}
}

/*
 * The cells of @accel whose boots or code layouts form two modes
 * (ratios.csv mode_units and mode_factor: mkratios' mixture test,
 * stats_modes), named under the paired ratios of a timed accelerator.
 */
static void modes_note(const char *accel)
{
	const char *pair, *over;
	int i, c, minor, units, any = 0;
	const struct csv_row *r;

	if (!csv_has(&run.ratios, "mode_units"))
		return;
	for (i = 0; i < reg_ratios()->n; i++) {
		pair = reg_ratios()->rec[i].name;
		for (c = 0; c < ncells(); c++) {
			r = rfind(accel, pair, cell_get(c, "filter"), cell_get(c, "skbs"));
			minor = r ? atoi(rget(r, "mode_units")) : 0;
			if (minor <= 0)
				continue;
			over = rget(r, "ci_over");
			units = atoi(rget(r, !strcmp(over, "layouts") ? "layouts" : "boots"));
			if (!any++)
				printf("two modes (mkratios' mixture test, docs/statistics.md): in these cells the\n"
				       "boots or code layouts the CI is over split at a gap of more than %.0f times\n"
				       "the spread within each side; the t-interval assumes one roughly normal\n"
				       "spread, not a mixture:\n",
				       STATS_MODE_K);
			printf("  %-12s %s %s: %d of %d %s at %.2fx the other %d\n", pair,
			       cell_get(c, "head"), cell_get(c, "sub"), minor, units,
			       !strcmp(over, "layouts") ? "code layouts" : "boots",
			       atof(rget(r, "mode_factor")), units - minor);
		}
	}
}

/*
 * The per-engine figures of the paired rounds (absolute.csv, mkratios -A
 * over each accelerator's boots): shown where they are over boots, the
 * absolute counterpart of the paired ratios (the host control loop, below
 * the tables, tells how fast the machine was).
 */
static const struct run_fig *afind(const char *accel, const char *engine,
				   const char *filter, const char *skbs)
{
	const struct run_cell *t = run_cell(&run, accel, "bench", engine, filter, skbs);

	return t && t->paired.csv ? &t->paired : NULL;
}

static void absolute_table(const char *accel)
{
	const struct run_fig *r;
	char buf[128];
	size_t e;
	int c, any = 0;

	for (e = 0; e < NENGINES; e++) {
		for (c = 0; c < ncells(); c++)
			if (afind(accel, engines[e].engine, cell_get(c, "filter"), cell_get(c, "skbs")))
				break;
		if (c == ncells())
			continue;
		if (!any++) {
			r = afind(accel, engines[e].engine, cell_get(c, "filter"), cell_get(c, "skbs"));
			printf("per call in the paired rounds %s\n(%s; per boot the median of its rounds, their geometric mean with its\n"
			       "95%% CI for this run only: absolute times move with the machine between runs):\n",
			       run_ci_over(&run.absolute, r->row, buf, sizeof(buf)),
			       csv_get(&run.absolute, r->row, "unit"));
			header(20);
		}
		printf("%-14s", engines[e].label);
		for (c = 0; c < ncells(); c++) {
			r = afind(accel, engines[e].engine, cell_get(c, "filter"), cell_get(c, "skbs"));
			if (!r)
				snprintf(buf, sizeof(buf), "-");
			else if (!isnan(r->lo))
				snprintf(buf, sizeof(buf), "%.1f [%.1f, %.1f]", r->v, r->lo, r->hi);
			else
				snprintf(buf, sizeof(buf), "%.1f", r->v);
			printf(" %20s", buf);
		}
		printf("\n");
	}
}

/*
 * "2014 claims, re-tested": one line per row of claims.csv (results/
 * mkclaims: the claim records of bench/engines.conf evaluated on the run).
 */
static void claims(const char *accel, const char *what)
{
	const struct csv *c = &run.claims;
	char buf[64], verdict[256];
	double lo, hi;
	int i;

	printf("accel=%s (%s):\n", accel, what);
	for (i = 0; run.has_claims && i < c->nrows; i++) {
		const struct csv_row *r = &c->rows[i];
		const char *v = csv_get(c, r, "value"), *basis = csv_get(c, r, "basis");

		if (strcmp(csv_get(c, r, "accel"), accel))
			continue;
		if (!*v)
			snprintf(buf, sizeof(buf), "-");
		else if (run_ci(c, r, &lo, &hi))
			snprintf(buf, sizeof(buf), "%.2f [%.2f, %.2f]", atof(v), lo, hi);
		else
			snprintf(buf, sizeof(buf), "%.3f", atof(v));
		snprintf(verdict, sizeof(verdict), "%s%s%s%s", csv_get(c, r, "verdict"),
			 *basis ? " (" : "", basis, *basis ? ")" : "");
		printf("  %-48s 2014: %-6s ours: %-18s %s\n", csv_get(c, r, "text"),
		       csv_get(c, r, "ref2014"), buf, verdict);
	}
	if (!run.has_claims)
		printf("  (no claims.csv beside results.csv: results/mkclaims RUN_DIR makes it)\n");
}

static int marked;	/* a ratio line of this table carries a mark */
/*
 * The table's accelerator times (accels.conf kind record "timed 1"): its
 * medians come from the placements of one boot, whose intervals say how
 * precisely that boot measured, not where another boot lands: no mark.
 */
static int timed;
static int ratio_head;	/* the ratio lines' heading is printed */

/* The ratio NUM/DEN of registry record @rec, with its 2014 figures if any. */
static void ratio_line(const char *accel, const char *flavour,
		       const struct reg_rec *rec)
{
	const char *label = rec->name;
	char num[64], den[64], ref[REG_MAX][32];
	int c, any = 0, nref = reg_ref(rec, "ref2014", flavour, ref, REG_MAX);

	if (!reg_pair(label, num, den, sizeof(num)))
		return;

	for (c = 0; c < ncells(); c++)
		any |= find(accel, "bench", num, cell_get(c, "filter"), cell_get(c, "skbs")) &&
		       find(accel, "bench", den, cell_get(c, "filter"), cell_get(c, "skbs"));
	if (!any)
		return;
	if (!ratio_head++) {
		printf("ratios of the medians above (the paired ratios, where shown below, are\n"
		       "the ones to quote):\n");
		if (!run.has_mratios)
			printf("(no median-ratios.csv beside results.csv: results/mkclaims RUN_DIR makes it)\n");
	}
	printf("%-14s", label);
	for (c = 0; c < ncells(); c++) {
		/* median-ratios.csv: results/mkclaims forms the ratio */
		const struct run_quot *q = run_quot(&run, accel, "bench", label,
						    cell_get(c, "filter"), cell_get(c, "skbs"));
		char buf[32] = "-";

		if (q && q->medians.csv) {
			const char *mark = timed ? "" : significance(q->medians.row);

			snprintf(buf, sizeof(buf), "%.1fx%s", q->medians.v, mark);
			marked |= !!*mark;
		}
		printf(" %10s", buf);
	}
	if (nref == ncells()) {
		printf("   (2014:");
		for (c = 0; c < ncells(); c++)
			printf(" %s", ref[c]);
		printf(")");
	}
	printf("\n");
}

/* Whether @accel has any of the table's four cells for @engine. */
static int measured(const char *accel, const char *engine)
{
	int c, have = 0;

	for (c = 0; c < ncells(); c++)
		have |= !!find(accel, "bench", engine, cell_get(c, "filter"), cell_get(c, "skbs"));
	return have;
}

/*
 * Engine @e's row of a table over the cells: its label, then what @put
 * writes of each typed cell (NULL: the bench plan has none), @width wide.
 */
static void engine_row(const char *accel, size_t e, int width,
		       void (*put)(char *buf, size_t n, const struct run_cell *t))
{
	char buf[48];
	int c;

	printf("%-14s", engines[e].label);
	for (c = 0; c < ncells(); c++) {
		put(buf, sizeof(buf), tcell(accel, "bench", engines[e].engine,
					    cell_get(c, "filter"), cell_get(c, "skbs")));
		printf(" %*s", width, buf);
	}
	printf("\n");
}

static void put_median(char *buf, size_t n, const struct run_cell *t)
{
	if (t)
		snprintf(buf, n, "%.1f", t->median.v);
	else
		snprintf(buf, n, "n/a");
}

static void put_ci(char *buf, size_t n, const struct run_cell *t)
{
	double lo, hi;

	if (ci(t, &lo, &hi))
		snprintf(buf, n, "%.1f..%.1f", lo, hi);
	else
		snprintf(buf, n, "-");
}

/* The 95% CI of each median of the table, when the run has them. */
static void ci_table(const char *accel)
{
	const struct csv_row *level = NULL;
	double lo, hi;
	size_t e;
	int c;

	for (e = 0; e < NENGINES && !level; e++)
		for (c = 0; c < ncells() && !level; c++) {
			const struct run_cell *t = tcell(accel, "bench", engines[e].engine,
							 cell_get(c, "filter"), cell_get(c, "skbs"));

			if (ci(t, &lo, &hi))
				level = t->median.row;
		}
	if (!level)
		return;
	printf("95%% confidence interval of each median (order statistics, %s%% coverage\n"
	       "with %s %s)%s:\n", get(level, "ci_level"),
	       *get(level, "placements") ? get(level, "placements") : get(level, "samples"),
	       *get(level, "placements") ? "placement medians" : "samples",
	       timed ? ",\nwithin boot 1: how precisely that boot measured, not where another boot\n"
		       "or build lands (the paired ratios above are formed over those)" : "");
	header(14);
	for (e = 0; e < NENGINES; e++) {
		int have = measured(accel, engines[e].engine);

		if (have)
			engine_row(accel, e, 14, put_ci);
	}
}

/* The host's native control loop around the boot (hardware timing only). */
static void control_line(const char *accel)
{
	const struct csv_row *b = find(accel, "control", "native", "before", NULL);
	const struct csv_row *a = find(accel, "control", "native", "after", NULL);

	int i;
	long waits = 0;

	for (i = 0; i < run.results.nrows; i++)
		if (!strcmp(get(&run.results.rows[i], "accel"), accel))
			waits += atol(get(&run.results.rows[i], "gate_waits"));
	if (waits)
		printf("quiet gate: the runs waited %ld x 2 s in all for the loop-only probe to come\n"
		       "back within 5%% of this boot's fastest (a busy host; lib.sh, quiet_gate)\n",
		       waits);
	if (!b && !a)
		return;
	printf("host control loop (native, on the guest's host CPU; bench/host/control.c): %s ns\n"
	       "before the boot, %s ns after; when it moves, the machine moved, not the guest\n",
	       b ? get(b, "median") : "-", a ? get(a, "median") : "-");
}

/*
 * The boot-level quiet gate of a pinned accelerator, from each boot's
 * host.txt (run_load_gates): how many boots, how many were booted again,
 * the reference and rule they were judged by, the control loop per boot.
 */
static void gate_block(const char *accel)
{
	const struct run_gate *g = run_gate(&run, accel);

	if (!g)
		return;
	printf("quiet gate (bench/host/quiet.sh; rule PCT,WAIT_S,REDO %s; each boot's host.txt):\n",
	       *g->rule ? g->rule : "not recorded");
	printf("  %d boots, %d booted again, %d kept busy", g->boots, g->redone, g->busy);
	if (g->discarded)
		printf("; %d busy boot%s set aside in %s/busy/\n  (control loop %.3f-%.3f ns)",
		       g->discarded, g->discarded == 1 ? "" : "s", g->dir, g->busy_min,
		       g->busy_max);
	printf("\n");
	if (isnan(g->ref_first))
		printf("  judged against: not recorded (no quiet_ref_ns)\n");
	else
		printf("  judged against the quietest control loop of the run so far: %.3f ns at\n"
		       "  boot 1, %.3f ns at boot %d\n", g->ref_first, g->ref_last,
		       g->ref_last_boot);
	if (g->boots)
		printf("  control loop after each boot: %.3f-%.3f ns (slowest: boot %d)\n",
		       g->control_min, g->control_max, g->control_max_boot);
}

static void table(const char *accel, const char *what)
{
	const struct csv_row *any = NULL;
	const char *flavour;
	char key[80];
	size_t e;
	int i;

	for (i = 0; i < run.results.nrows && !any; i++)
		if (!strcmp(get(&run.results.rows[i], "accel"), accel))
			any = &run.results.rows[i];
	/* a row without a flavour comes from an x86_64 guest (older runs) */
	flavour = *get(any, "flavour") ? get(any, "flavour") : "x86_64";
	printf("--%s-- accel=%s: %s\n",
	       reg_get_or(reg_find(reg_flavours(), flavour, 0), "title", flavour),
	       accel, what);
	if (csv_has(&run.results, "model_calls") && *get(any, "model_calls"))
		printf("unit: %s per call, of one window of %s calls after the samples (model core\n"
		       "%s); smaller is better\n",
		       get(any, "unit"), get(any, "model_calls"), get(any, "model_core"));
	else if (*get(any, "placements"))
		printf("unit: %s per call, median over %s placements (runs with fresh skbs,\n"
		       "program and stack) of %d samples each; smaller is better\n",
		       get(any, "unit"), get(any, "placements"),
		       atoi(get(any, "samples")));
	else
		printf("unit: %s per call, median of %s samples; smaller is better\n",
		       get(any, "unit"), get(any, "samples"));
	printf("cpu: %s; clocksource: %s\n", get(any, "cpu"), get(any, "clocksource"));
	if (*run_accel_mitigations(&run, accel))
		printf("mitigations: %s\n", run_accel_mitigations(&run, accel));
	printf("kernel: %s (Debian linux-source %s), config %s, series %s\n",
	       get(any, "kernel"), get(any, "debian_version"),
	       get(any, "config_hash"), get(any, "series_hash"));
	header(10);
	for (e = 0; e < NENGINES; e++) {
		int have = measured(accel, engines[e].engine);

		snprintf(key, sizeof(key), "missing.%s", get(any, "flavour"));
		if (!have && *reg_get(engines[e].rec, key)) {
			printf("%-14s %s\n", engines[e].label,
			       reg_get(engines[e].rec, key));
			continue;
		}
		if (have)
			engine_row(accel, e, 10, put_median);
	}
	marked = 0;
	ratio_head = 0;
	timed = run_accel_timed(&run, accel);
	for (i = 0; i < reg_ratios()->n; i++)
		ratio_line(accel, get(any, "flavour"), &reg_ratios()->rec[i]);
	if (marked)
		printf("(*: the two engines' 95%% CIs of the median do not overlap, a significant\n"
		       " difference; ~: they overlap, not significant)\n");
	paired_table(accel, get(any, "kind"));
	if (timed)
		modes_note(accel);
	absolute_table(accel);
	ci_table(accel);
	control_line(accel);
	gate_block(accel);
	printf("\n");
}

/* A split's factor COL of decomposition.csv: "0.81 [0.81, 0.81]" or "0.81". */
static void factor_text(char *buf, size_t n, const struct csv *d,
			const struct csv_row *r, const char *col, int paired)
{
	char lo[32], hi[32];

	snprintf(lo, sizeof(lo), "%s_lo", col);
	snprintf(hi, sizeof(hi), "%s_hi", col);
	if (paired)
		snprintf(buf, n, "%.2f [%.2f, %.2f]", atof(csv_get(d, r, col)),
			 atof(csv_get(d, r, lo)), atof(csv_get(d, r, hi)));
	else
		snprintf(buf, n, "%.2f", atof(csv_get(d, r, col)));
}

/* "fprog #1" for a cell record's name: its head. */
static const char *cell_head(const char *cell)
{
	return reg_get_or(reg_find(reg_cells(), cell, 0), "head", cell);
}

/*
 * Why the 2014 result reversed, from @accel's own cells: per engine that
 * reports vm_insns (the VM instructions one call executes), the cost per
 * call and per executed VM instruction on the cache-hit cells; then
 * old/new split into old/new2014 (the 2014 design against the 3.14
 * interpreter today) and new2014/new (the conversion change since 2014),
 * from the paired rounds where the run has them.
 */
static void decomposition(const char *accel)
{
	/* the columns: the cells of the first split record (engines.conf) */
	const struct reg_rec *sp0 = reg_splits()->n ? &reg_splits()->rec[0] : NULL;
	const struct reg_rec *cell[REG_MAX];
	char names[REG_MAX][32];
	const struct csv_row *o;
	char ob[48], db[48];
	int c, i, nc = 0, any = 0;
	size_t e;

	if (!csv_has(&run.results, "vm_insns") || !sp0)
		return;
	nc = reg_words(sp0, "cells", names, REG_MAX);
	for (c = 0; c < nc; c++) {
		cell[c] = reg_find(reg_cells(), names[c], 0);
		if (!cell[c]) {
			fprintf(stderr, "mktable: split %s names cell %s, which engines.conf has no record of\n",
				sp0->name, names[c]);
			exit(1);
		}
	}
	for (e = 0; e < NENGINES; e++)
		for (c = 0; c < nc; c++) {
			o = find(accel, "bench", engines[e].engine, reg_get(cell[c], "filter"),
				 reg_get(cell[c], "skbs"));
			if (o && *get(o, "vm_insns"))
				any = 1;
		}
	if (!any)
		return;
	for (o = NULL, e = 0; e < NENGINES && !o; e++)
		o = find(accel, "bench", engines[e].engine, reg_get(cell[0], "filter"),
			 reg_get(cell[0], "skbs"));
	printf("decomposition, accel=%s, cache-hit (%s per call; vm insns: VM\n"
	       "instructions one call executes: classic for the 3.14 engines, eBPF for 6.1's):\n",
	       accel, o ? get(o, "unit") : "-");
	printf("%-14s", "");
	for (c = 0; c < nc; c++)
		printf(" %28s", reg_get(cell[c], "head"));
	printf("\n%-14s", "");
	for (c = 0; c < nc; c++)
		printf(" %9s %8s %9s", "per call", "vm insns", "per insn");
	printf("\n");
	for (e = 0; e < NENGINES; e++) {
		int have = 0;

		for (c = 0; c < nc; c++) {
			o = find(accel, "bench", engines[e].engine, reg_get(cell[c], "filter"),
				 reg_get(cell[c], "skbs"));
			have |= o && *get(o, "vm_insns");
		}
		if (!have)
			continue;
		printf("%-14s", engines[e].label);
		for (c = 0; c < nc; c++) {
			const struct run_cell *t = tcell(accel, "bench", engines[e].engine,
							 reg_get(cell[c], "filter"),
							 reg_get(cell[c], "skbs"));
			int vm = t && t->vm_insns > 0;

			/* per insn: results.csv's median_per_vm_insn (mkcsv) */
			if (vm && !isnan(t->per_vm_insn))
				printf(" %9.1f %8.0f %9.2f", t->median.v, t->vm_insns,
				       t->per_vm_insn);
			else if (vm)
				printf(" %9.1f %8.0f %9s", t->median.v, t->vm_insns, "-");
			else
				printf(" %9s %8s %9s", "n/a", "n/a", "n/a");
		}
		printf("\n");
	}
	for (i = 0; run.has_splits && i < run.splits.nrows; i++) {
		const struct csv *d = &run.splits;
		const struct csv_row *r = &d->rows[i];
		int paired = !strcmp(csv_get(d, r, "basis"), "paired");
		const char *name = csv_get(d, r, "split");
		const struct reg_rec *sp = reg_find(reg_splits(), name, 0);
		char num[64];

		if (strcmp(csv_get(d, r, "accel"), accel))
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)strcspn(reg_get(sp, "design"), "/"),
			 reg_get(sp, "design"));
		snprintf(num, sizeof(num), "%s", reg_get_or(sp, "design_base", engine_label(num)));
		factor_text(ob, sizeof(ob), d, r, "design", paired);
		factor_text(db, sizeof(db), d, r, "conversion", paired);
		printf("%s: %s = %s %s x %s %s%s:\n"
		       "          the conversion since 2014 makes a call %.2fx dearer (%s vs %s VM\n"
		       "          insns executed), the 2014 design costs %.2fx %s's time\n",
		       cell_head(csv_get(d, r, "cell")), name, reg_get(sp, "design"), ob,
		       reg_get(sp, "conversion"), db, paired ? " (paired, 95% CI)" :
		       " (no paired cells: ratios of the medians above)",
		       atof(csv_get(d, r, "conversion_cost")), csv_get(d, r, "conversion_vm_den"),
		       csv_get(d, r, "conversion_vm_num"), atof(csv_get(d, r, "design_cost")),
		       num);
	}
	printf("\n");
}

/* Whether a row of the run was measured on a flavour compared with @arch. */
static int arch_in_run(const char *arch)
{
	int i;

	for (i = 0; i < run.results.nrows; i++)
		if (!strcmp(reg_ref_arch(get(&run.results.rows[i], "flavour")), arch))
			return 1;
	return 0;
}

/*
 * The 2014 tables of the commit message, one per architecture it gives
 * and the run measured.
 */
static void reference(void)
{
	struct reg *r = reg_engines(), *q = reg_ratios();
	char arches[REG_MAX][40], key[400], v[REG_MAX][32];
	int narch = 0, a, i, k, c;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->rec[i].nkeys; k++) {
			const char *arch = r->rec[i].key[k];

			if (strncmp(arch, "ref2014.", 8))
				continue;
			for (a = 0; a < narch; a++)
				if (!strcmp(arches[a], arch + 8))
					break;
			if (a == narch && narch < REG_MAX && arch_in_run(arch + 8))
				snprintf(arches[narch++], sizeof(arches[0]), "%s", arch + 8);
		}
	for (a = 0; a < narch; a++) {
		snprintf(key, sizeof(key), "ref2014.%.39s", arches[a]);
		printf("--%s-- 2014, commit bd4cf0ed331a (hardware, ns per call)\n",
		       arches[a]);
		header(10);
		for (i = 0; i < r->n + q->n; i++) {
			const struct reg_rec *rec = i < r->n ? &r->rec[i] : &q->rec[i - r->n];

			if (reg_words(rec, key, v, REG_MAX) != ncells())
				continue;
			printf("%-14s", i < r->n ? engine_label(rec->name) : rec->name);
			for (c = 0; c < ncells(); c++)
				printf(" %10s", v[c]);
			printf("\n");
		}
		printf("\n");
	}
}

/*
 * test_bpf's programs beside the harness's filter of the same instructions
 * on its packet (crosscheck.csv, results/mkclaims; filters/README.md).
 */
static void crosscheck_table(const char *accel)
{
	const struct csv *x = &run.crosscheck;
	int i, printed = 0;

	for (i = 0; run.has_crosscheck && i < x->nrows; i++) {
		const struct csv_row *r = &x->rows[i];
		const char *t = csv_get(x, r, "test_bpf"), *h = csv_get(x, r, "harness");
		char diff[32] = "-";

		if (strcmp(csv_get(x, r, "accel"), accel))
			continue;
		if (!printed++)
			printf("cross-check, accel=%s, test_bpf's 100-byte packet, %s per call:\n"
			       "%-28s %10s %10s %8s\n", accel, csv_get(x, r, "unit"), "",
			       "test_bpf", "harness", "diff");
		if (*csv_get(x, r, "diff_pct"))
			snprintf(diff, sizeof(diff), "%+.1f%%", atof(csv_get(x, r, "diff_pct")));
		printf("#%s %-4s vs %s%-10s %10s %10s %8s\n", csv_get(x, r, "test") + 7,
		       csv_get(x, r, "engine"), csv_get(x, r, "filter"), "", *t ? t : "n/a",
		       *h ? h : "n/a", diff);
	}
	if (printed)
		printf("\n");
}

/*
 * perf stat over one run of each engine, fprog #2 cache-hit (the 2014
 * argument was branch misses): the counts of the whole run (the cell's
 * first placement: warm-up, calibration and samples), then per call
 * (results.csv *_per_call over perf_calls: each run calibrates its own
 * calls, so whole-run counts of two engines are not comparable).  A CPU
 * without those counters says so instead of showing zeros.
 */
static const char *perf_get(const struct csv_row *r, const char *col)
{
	return csv_has(&run.results, col) ? get(r, col) : "";
}

static void perf_table(const char *accel)
{
	static const char *const cols[] = {
		"cycles", "instructions", "branches", "branch_misses",
	};
	int printed = 0, per_call = 0, unsupported = 0, uncounted = 0;
	char col[64];
	size_t e, c;

	for (e = 0; e < NENGINES; e++) {
		const struct csv_row *r = find(accel, "bench", engines[e].engine,
					       "fprog2", "1");

		if (!r || !*get(r, "task_clock_ms"))
			continue;
		if (!printed++) {
			printf("perf stat, accel=%s, fprog #2 cache-hit, each engine's whole run (with its calibration):\n",
			       accel);
			printf("%-14s %14s", "", "task-clock ms");
			for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				printf(" %14s", cols[c]);
			printf(" %10s\n", "miss rate");
		}
		printf("%-14s %14s", engines[e].label, get(r, "task_clock_ms"));
		for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
			const char *v = get(r, cols[c]);

			printf(" %14s", *v ? v : "-");
			unsupported |= !strcmp(v, "not supported");
			uncounted |= !strcmp(v, "not counted");
			snprintf(col, sizeof(col), "%s_per_call", cols[c]);
			per_call |= *perf_get(r, "perf_calls") && *perf_get(r, col);
		}
		if (*perf_get(r, "perf_branch_miss_pct"))
			printf(" %9.2f%%\n", atof(perf_get(r, "perf_branch_miss_pct")));
		else
			printf(" %10s\n", "-");
	}
	if (per_call) {
		printf("per call: the run's counts over its calls (perf_calls: warm-up, calibration, samples):\n");
		printf("%-14s %14s %14s %14s %8s %14s %14s\n", "", "calls", "cycles",
		       "instructions", "IPC", "branches", "branch_misses");
		for (e = 0; e < NENGINES; e++) {
			const struct csv_row *r = find(accel, "bench", engines[e].engine,
						       "fprog2", "1");
			if (!r || !*perf_get(r, "perf_calls"))
				continue;
			printf("%-14s %14s", engines[e].label, perf_get(r, "perf_calls"));
			for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
				const char *v;

				snprintf(col, sizeof(col), "%s_per_call", cols[c]);
				v = perf_get(r, col);
				printf(" %14s", *v ? v : "-");
				if (strcmp(cols[c], "instructions"))
					continue;
				if (*perf_get(r, "perf_ipc"))
					printf(" %8.2f", atof(perf_get(r, "perf_ipc")));
				else
					printf(" %8s", "-");
			}
			printf("\n");
		}
	}
	if (unsupported)
		printf("(\"not supported\": this CPU/hypervisor exposes no such hardware counter here)\n");
	if (uncounted)
		printf("(\"not counted\": perf stat had the counter but it never ran: multiplexed out,\n"
		       " or the PMU taken by another user such as the NMI watchdog)\n");
	if (printed)
		printf("\n");
}

/*
 * The model's counters per call (accelerators of kind modeled: results.csv
 * model_* columns, results/mkcsv), one block per cell of the table: the
 * instructions and branches, every predictor record's mispredictions
 * (model_mispredicts_<predictor>), the cache misses and the cycles.
 */
#define MODEL_COLS_MAX	(8 + REG_MAX)

struct model_col {
	char col[64], head[16];
};

static size_t model_cols(struct model_col *cols)
{
	static const char *const fixed[][2] = {
		{ "model_insns", "insns" }, { "model_cond", "cond br" },
		{ "model_ind", "indirect" }, { "model_ret", "returns" },
		{ NULL, NULL },
		{ "model_l1i_miss", "L1I miss" }, { "model_l1d_miss", "L1D miss" },
		{ "model_l2_miss", "L2 miss" }, { "model_cycles", "cycles" },
	};
	struct reg *preds = reg_predictors();
	size_t n = 0, f;
	int p;

	for (f = 0; f < sizeof(fixed) / sizeof(fixed[0]); f++) {
		if (fixed[f][0]) {
			snprintf(cols[n].col, sizeof(cols[n].col), "%s", fixed[f][0]);
			snprintf(cols[n].head, sizeof(cols[n].head), "%s", fixed[f][1]);
			n++;
			continue;
		}
		for (p = 0; p < preds->n && n < MODEL_COLS_MAX; p++, n++) {
			snprintf(cols[n].col, sizeof(cols[n].col), "model_mispredicts_%.40s",
				 preds->rec[p].name);
			snprintf(cols[n].head, sizeof(cols[n].head), "%.8s miss",
				 preds->rec[p].name);
		}
	}
	return n;
}

static void model_table(const char *accel)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	struct model_col cols[MODEL_COLS_MAX];
	size_t e, k, ncols = model_cols(cols);
	struct reg *preds = reg_predictors();
	int c, p;

	if (!csv_has(&run.results, "model_formula") || !*get(any, "model_formula"))
		return;
	printf("model counters per call, accel=%s: core %s, %s; counted in the\n"
	       "instruction and address stream QEMU executed: a MODEL, not hardware counters\n"
	       "(docs/model.md). X miss: every misprediction (conditional, indirect, return)\n"
	       "with predictor X:\n",
	       accel, get(any, "model_core"), get(any, "model_title"));
	for (p = 0; p < preds->n; p++)
		printf("  %-7s %s\n", preds->rec[p].name, reg_get(&preds->rec[p], "title"));
	printf("cycles = %s, mispredicts those of %s\n", get(any, "model_formula"),
	       csv_has(&run.results, "model_predictor") ? get(any, "model_predictor") : "?");
	for (c = 0; c < ncells(); c++) {
		char head[64];

		snprintf(head, sizeof(head), "%s %s", cell_get(c, "head"),
			 cell_get(c, "sub"));
		printf("%-20s", head);
		for (k = 0; k < ncols; k++)
			printf(" %11s", cols[k].head);
		printf("\n");
		for (e = 0; e < NENGINES; e++) {
			const struct csv_row *r = find(accel, "bench", engines[e].engine,
						       cell_get(c, "filter"),
						       cell_get(c, "skbs"));

			if (!r)
				continue;
			printf("%-20s", engines[e].label);
			for (k = 0; k < ncols; k++)
				printf(" %11.2f", csv_has(&run.results, cols[k].col) ?
				       atof(get(r, cols[k].col)) : 0);
			printf("\n");
		}
	}
	printf("\n");
}

/*
 * The range of a figure or ratio over the code layouts (layouts.csv,
 * results/mkclaims): "MIN-MAX", or one figure where both read the same.
 */
static void layout_cell(const char *accel, const char *what, const char *name, int c)
{
	static const char *const keys[] = { "accel", "what", "name", "filter", "skbs", NULL };
	const char *vals[] = { accel, what, name, cell_get(c, "filter"), cell_get(c, "skbs"), NULL };
	const struct csv_row *r = csv_find(&run.layouts, keys, vals);
	const char *fmt = !strcmp(what, "ratio") ? "%.2f" : "%.1f";
	char lo[24] = "", hi[24] = "", buf[56] = "-";

	if (r) {
		snprintf(lo, sizeof(lo), fmt, atof(csv_get(&run.layouts, r, "min")));
		snprintf(hi, sizeof(hi), fmt, atof(csv_get(&run.layouts, r, "max")));
		snprintf(buf, sizeof(buf), "%s%s%s", lo, strcmp(lo, hi) ? "-" : "",
			 strcmp(lo, hi) ? hi : "");
	}
	printf(" %15s", buf);
}

/*
 * "code layouts": each figure and ratio of an accelerator whose kind boots
 * the bench plan on every code-layout variant (the modeled ones), as its
 * range over the kernel as built and the variants.
 */
static void layouts_table(const char *accel)
{
	static const char *const keys[] = { "accel", NULL };
	const char *vals[] = { accel, NULL };
	const struct csv_row *any = run.has_layouts ? csv_find(&run.layouts, keys, vals) : NULL;
	size_t e;
	int i, c;

	if (!any)
		return;
	printf("code layouts, accel=%s: each figure's range, min-max, over %s code layouts\n"
	       "(the kernel as built and %d variants relinked with seeded padding; layouts.csv):\n",
	       accel, csv_get(&run.layouts, any, "layouts"),
	       atoi(csv_get(&run.layouts, any, "layouts")) - 1);
	header(15);
	for (e = 0; e < NENGINES; e++) {
		if (!find(accel, "bench", engines[e].engine, NULL, NULL))
			continue;
		printf("%-14s", engines[e].label);
		for (c = 0; c < ncells(); c++)
			layout_cell(accel, "figure", engines[e].engine, c);
		printf("\n");
	}
	for (i = 0; i < reg_ratios()->n; i++) {
		const char *pair = reg_ratios()->rec[i].name;
		const char *pv[] = { accel, "ratio", pair, NULL };
		static const char *const pk[] = { "accel", "what", "name", NULL };

		if (!csv_find(&run.layouts, pk, pv))
			continue;
		printf("%-14s", pair);
		for (c = 0; c < ncells(); c++)
			layout_cell(accel, "ratio", pair, c);
		printf("\n");
	}
	printf("\n");
}

/*
 * "against": an accelerator's figures beside another's of the same kind
 * and flavour (accels.conf against; against.csv, results/mkclaims), e.g.
 * the mitigations a CPU model gets against mitigations=off: per engine
 * and cell the difference per call and the ratio.
 */
static void against_table(const char *accel)
{
	static const char *const keys[] = { "accel", "engine", "filter", "skbs", NULL };
	const struct csv *a = &run.against;
	const char *any_vals[] = { accel, NULL, NULL, NULL, NULL };
	const struct csv_row *any = run.has_against ? csv_find(a, keys, any_vals) : NULL;
	const char *other;
	size_t e;
	int c;

	if (!any)
		return;
	other = csv_get(a, any, "against");
	printf("accel=%s against accel=%s (%s per call: the difference, and the ratio):\n",
	       accel, other, csv_get(a, any, "unit"));
	printf("  %s: %s\n  %s: %s\n", accel, mitigations_of(accel), other, mitigations_of(other));
	header(15);
	for (e = 0; e < NENGINES; e++) {
		const char *vals[] = { accel, engines[e].engine, NULL, NULL, NULL };

		if (!csv_find(a, keys, vals))
			continue;
		printf("%-14s", engines[e].label);
		for (c = 0; c < ncells(); c++) {
			const struct csv_row *r;
			char buf[48] = "-";

			vals[2] = cell_get(c, "filter");
			vals[3] = cell_get(c, "skbs");
			r = csv_find(a, keys, vals);
			if (r)
				snprintf(buf, sizeof(buf), "%+.1f %.2fx", atof(csv_get(a, r, "delta")),
					 atof(csv_get(a, r, "ratio")));
			printf(" %15s", buf);
		}
		printf("\n");
	}
	printf("\n");
}

/*
 * The model against uml's measured ratios and the 2014 design by era
 * (validation.csv, results/mkclaims): the row of @accel, core @core under
 * predictor @pred (NULL: the core's own), of measured record @measured
 * (NULL: any), in cell @c and pair @pair.
 */
static const struct csv_row *vfind(const char *accel, const char *core, const char *pred,
				   const char *measured, int c, const char *pair)
{
	const struct csv *v = &run.validation;
	int i;

	for (i = 0; run.has_validation && i < v->nrows; i++) {
		const struct csv_row *r = &v->rows[i];

		if (!strcmp(csv_get(v, r, "accel"), accel) &&
		    (!core || !strcmp(csv_get(v, r, "core"), core)) &&
		    (pred ? !strcmp(csv_get(v, r, "predictor"), pred) :
			    !strcmp(csv_get(v, r, "own"), "1")) &&
		    (!measured || !strcmp(csv_get(v, r, "measured"), measured)) &&
		    !strcmp(csv_get(v, r, "cell"), reg_cells()->rec[c].name) &&
		    !strcmp(csv_get(v, r, "pair"), pair))
			return r;
	}
	return NULL;
}

static const char *vget(const struct csv_row *r, const char *col)
{
	return csv_get(&run.validation, r, col);
}

#define VLABEL	30
#define VCELL	18

/* The heading of the two tables: the cells, under a label column. */
static void vheader(void)
{
	int c;

	printf("  %-*s", VLABEL, "");
	for (c = 0; c < ncells(); c++)
		printf(" %*s", VCELL, cell_get(c, "head"));
	printf("\n  %-*s", VLABEL, "");
	for (c = 0; c < ncells(); c++)
		printf(" %*s", VCELL, cell_get(c, "sub"));
	printf("\n");
}

/* One line of the two tables: @label, then @what of each cell's row (or "-"). */
static void vline(const char *label, const char *accel, const char *core, const char *pred,
		  const char *measured, const char *pair, const char *what)
{
	int c;

	printf("  %-*s", VLABEL, label);
	for (c = 0; c < ncells(); c++) {
		const struct csv_row *r = vfind(accel, core, pred, measured, c, pair);
		char buf[48] = "-";

		if (r && !strcmp(what, "uml") && *vget(r, "uml"))
			snprintf(buf, sizeof(buf), "%.2f [%.2f, %.2f]", atof(vget(r, "uml")),
				 atof(vget(r, "uml_lo")), atof(vget(r, "uml_hi")));
		else if (r && !strcmp(what, "ref2014") && *vget(r, "ref2014"))
			snprintf(buf, sizeof(buf), "%s", vget(r, "ref2014"));
		else if (r && !strcmp(what, "model_off") && *vget(r, "model_off_pct"))
			snprintf(buf, sizeof(buf), "%.2f (%+.0f%%)", atof(vget(r, "model")),
				 atof(vget(r, "model_off_pct")));
		else if (r && !strcmp(what, "insns_off") && *vget(r, "insns_off_pct"))
			snprintf(buf, sizeof(buf), "%.2f (%+.0f%%)", atof(vget(r, "insns")),
				 atof(vget(r, "insns_off_pct")));
		else if (r && !strcmp(what, "model"))
			snprintf(buf, sizeof(buf), "%.2f", atof(vget(r, "model")));
		else if (r && !strcmp(what, "range"))
			snprintf(buf, sizeof(buf), "%.2f-%.2f (%s)", atof(vget(r, "model_min")),
				 atof(vget(r, "model_max")), vget(r, "layouts"));
		printf(" %*s", VCELL, buf);
	}
	printf("\n");
}

static const char *const vpairs[] = { "old/new", "old/new2014", "new2014/new" };

/*
 * "model against measured": per measured record of bench/measured.conf
 * whose core @accel models, uml's ratio with its CI, the model's (the
 * core's own predictor) and the instruction count's with how far each is
 * from uml's; a tally of the cells where the model is within 10% and
 * closer than the instructions.
 */
static void validation_table(const char *accel)
{
	struct reg *ms = reg_measured();
	int m, c, within, closer, n;
	size_t p;

	for (m = 0; m < ms->n; m++) {
		const char *name = ms->rec[m].name, *core = reg_get(&ms->rec[m], "core");

		if (!vfind(accel, core, NULL, name, 0, "old/new"))
			continue;
		printf("model against measured, accel=%s: core %s (its own predictor) against\n"
		       "uml on the %s, cpu %s;\n"
		       "run %s.\n"
		       "The MODEL's ratios (geometric mean over the code layouts it booted; their\n"
		       "range and count below it) and the instruction count's, each with how far\n"
		       "it is from uml's (uml: the hardware timing here)\n",
		       accel, core, reg_get(&ms->rec[m], "title"), reg_get(&ms->rec[m], "cpu"),
		       reg_get(&ms->rec[m], "run"));
		vheader();
		within = closer = n = 0;
		for (p = 0; p < sizeof(vpairs) / sizeof(vpairs[0]); p++) {
			char label[64];

			snprintf(label, sizeof(label), "%s uml", vpairs[p]);
			vline(label, accel, core, NULL, name, vpairs[p], "uml");
			snprintf(label, sizeof(label), "%*s model", (int)strlen(vpairs[p]), "");
			vline(label, accel, core, NULL, name, vpairs[p], "model_off");
			snprintf(label, sizeof(label), "%*s  over layouts", (int)strlen(vpairs[p]), "");
			vline(label, accel, core, NULL, name, vpairs[p], "range");
			snprintf(label, sizeof(label), "%*s instructions", (int)strlen(vpairs[p]), "");
			vline(label, accel, core, NULL, name, vpairs[p], "insns_off");
			for (c = 0; c < ncells(); c++) {
				const struct csv_row *r = vfind(accel, core, NULL, name, c, vpairs[p]);

				n += r != NULL;
				within += r && !strcmp(vget(r, "within10"), "1");
				closer += r && !strcmp(vget(r, "closer"), "1");
			}
		}
		printf("  the model within 10%% of uml: %d of %d; closer than the instruction count: %d of %d\n\n",
		       within, n, closer, n);
	}
}

/*
 * "the 2014 design by era": per cell, for old/new2014 (the pair the 2014
 * commit measured: its new was the 2014 design) and old/new, the 2014
 * commit's ratio, the model's on each core @accel models (by the year of
 * its kind of core; the accelerator's own core under every predictor
 * record) and uml's measured ones.
 */
static void era_table(const char *accel)
{
	const struct csv *v = &run.validation;
	const struct csv_row *rows[4 * REG_MAX];
	struct reg *ms = reg_measured();
	int nrows = 0, i, j, m;
	size_t p;

	/* one row per core and predictor, by year (stable) */
	for (i = 0; run.has_validation && i < v->nrows && nrows < 4 * REG_MAX; i++) {
		const struct csv_row *r = &v->rows[i];

		if (strcmp(csv_get(v, r, "accel"), accel))
			continue;
		for (j = 0; j < nrows; j++)
			if (!strcmp(csv_get(v, rows[j], "core"), csv_get(v, r, "core")) &&
			    !strcmp(csv_get(v, rows[j], "predictor"), csv_get(v, r, "predictor")))
				break;
		if (j < nrows)
			continue;
		for (j = nrows++; j > 0 && atoi(csv_get(v, rows[j - 1], "year")) >
					   atoi(csv_get(v, r, "year")); j--)
			rows[j] = rows[j - 1];
		rows[j] = r;
	}
	if (!nrows)
		return;
	printf("the 2014 design against the 3.14 interpreter, by era, accel=%s: the 2014\n"
	       "commit's ratio (its new was the 2014 design), the MODEL's on each core (the year\n"
	       "its kind of core shipped; its own predictor *, the others' beside it; the mean\n"
	       "over the code layouts) and uml's measured today\n", accel);
	vheader();
	for (p = 0; p < 2; p++) {
		const char *pair = vpairs[1 - p];
		int w = (int)strlen(pair);
		char label[96];

		snprintf(label, sizeof(label), "%s 2014 commit", pair);
		vline(label, accel, NULL, NULL, NULL, pair, "ref2014");
		for (j = 0; j < nrows; j++) {
			const char *core = csv_get(v, rows[j], "core");
			const char *pred = csv_get(v, rows[j], "predictor");

			snprintf(label, sizeof(label), "%*s %s %s, %s%s", w, "", core,
				 csv_get(v, rows[j], "year"), pred,
				 !strcmp(csv_get(v, rows[j], "own"), "1") ? " *" : "");
			vline(label, accel, core, pred, NULL, pair, "model");
		}
		for (m = 0; m < ms->n; m++) {
			if (!vfind(accel, NULL, NULL, ms->rec[m].name, 0, pair))
				continue;
			snprintf(label, sizeof(label), "%*s uml %.20s", w, "", ms->rec[m].name);
			vline(label, accel, NULL, NULL, ms->rec[m].name, pair, "uml");
		}
	}
	printf("\n");
}

static void seccomp_cell(const char *accel, const char *engine,
			 const char *filter, const char *unit)
{
	const struct run_cell *t = tcell(accel, "seccomp", engine, filter, NULL);
	char buf[48] = "n/a";

	if (t && !strcmp(unit, "ns"))
		snprintf(buf, sizeof(buf), "%.1f (%.2f s)", t->median.v,
			 t->median.v * 1e7 / 1e9);
	else if (t)
		snprintf(buf, sizeof(buf), "%.1f", t->median.v);
	printf(" %18s", buf);
}

static void seccomp_table(const char *accel)
{
	const struct csv_row *any = NULL, *none = NULL;
	static const char *const filters[2] = { "short", "large" };
	const char *unit;
	size_t e;
	int f, i;

	for (i = 0; i < run.results.nrows; i++) {
		const struct csv_row *r = &run.results.rows[i];

		if (strcmp(get(r, "accel"), accel) || strcmp(get(r, "tag"), "seccomp"))
			continue;
		if (!any)
			any = r;
		if (!none && !strcmp(get(r, "filter"), "none"))
			none = r;
	}
	if (!any)
		return;
	unit = get(any, "unit");
	printf("seccomp, accel=%s: syscall(199, 100) per call, %s%s\n", accel,
	       unit, !strcmp(unit, "ns") ? " (seconds per 10M calls)" : "");
	printf("%-14s %18s %18s\n", "", "short filter", "large filter");
	printf("%-14s", "no filter");
	seccomp_cell(accel, none ? get(none, "engine") : "new", "none", unit);
	printf("\n");
	for (e = 0; e < NENGINES; e++) {
		const char *why = reg_get(engines[e].rec, "seccomp_note");

		if (!find(accel, "seccomp", engines[e].engine, "short", NULL)) {
			if (*why && find(accel, "bench", engines[e].engine, NULL, NULL))
				printf("%-14s %s\n", engines[e].label, why);
			continue;
		}
		printf("%-14s", engines[e].label);
		for (f = 0; f < 2; f++)
			seccomp_cell(accel, engines[e].engine, filters[f], unit);
		printf("\n");
	}
	/* 2014 seconds for 10M syscall(199, 100), short and large filter;
	 * a figure the commit message does not give ("-") stays "-" */
	for (e = 0; e < NENGINES; e++) {
		char label[80], v[2][32], s[2][40];

		if (reg_ref(engines[e].rec, "seccomp2014", get(any, "flavour"), v, 2) != 2)
			continue;
		snprintf(label, sizeof(label), "2014 %s", engines[e].engine);
		for (f = 0; f < 2; f++)
			snprintf(s[f], sizeof(s[f]), atof(v[f]) > 0 ? "%s s" : "%s", v[f]);
		printf("%-14s %18s %18s\n", label, s[0], s[1]);
	}
	printf("\n");
}

/*
 * "mixed traffic" (mixed.csv, results/mkclaims): per core (a timed
 * accelerator: its medians) and figure, each pair's ratio and each
 * engine's mispredictions a call on one packet's skbs and on the mixed
 * skbs, cell by cell; the mixed ratio's range over the code layouts, and
 * a timed accelerator's mixed ratio on the host a measured record names
 * that core for.
 */
static const struct csv_row *mixed_find(const char *accel, const char *core,
					const char *figure, const char *what, int c)
{
	const struct csv *x = &run.mixed;
	int i;

	for (i = 0; run.has_mixed && i < x->nrows; i++) {
		const struct csv_row *r = &x->rows[i];

		if (!strcmp(csv_get(x, r, "accel"), accel) &&
		    !strcmp(csv_get(x, r, "core"), core) &&
		    !strcmp(csv_get(x, r, "figure"), figure) &&
		    (!what || !strcmp(csv_get(x, r, "what"), what)) &&
		    !strcmp(csv_get(x, r, "filter"), cell_get(c, "filter")) &&
		    !strcmp(csv_get(x, r, "skbs"), cell_get(c, "skbs")))
			return r;
	}
	return NULL;
}

#define MCELL	44

static void mixed_line(const char *accel, const char *core, const char *figure,
		       const char *what)
{
	const struct csv *x = &run.mixed;
	char line[512], buf[64];
	size_t len;
	int c, any = 0;

	len = snprintf(line, sizeof(line), "    %-12s", what);
	for (c = 0; c < ncells(); c++) {
		const struct csv_row *r = mixed_find(accel, core, figure, what, c);
		size_t b;

		if (!mixed_find(accel, core, figure, NULL, c))
			continue;
		b = snprintf(buf, sizeof(buf), "-");
		if (r)
			b = snprintf(buf, sizeof(buf), "%.2f -> %.2f",
				     atof(csv_get(x, r, "single")), atof(csv_get(x, r, "mixed")));
		if (r && *csv_get(x, r, "ci_lo"))
			b += snprintf(buf + b, sizeof(buf) - b, " [%.2f, %.2f]",
				      atof(csv_get(x, r, "ci_lo")), atof(csv_get(x, r, "ci_hi")));
		else if (r && atoi(csv_get(x, r, "layouts")) > 1)
			b += snprintf(buf + b, sizeof(buf) - b, " [%.2f-%.2f]",
				      atof(csv_get(x, r, "mixed_min")),
				      atof(csv_get(x, r, "mixed_max")));
		if (r && *csv_get(x, r, "timed_ratio"))
			snprintf(buf + b, sizeof(buf) - b, " %s %.2f (%+.0f%%)",
				 csv_get(x, r, "timed"), atof(csv_get(x, r, "timed_ratio")),
				 atof(csv_get(x, r, "off_pct")));
		len += snprintf(line + len, sizeof(line) - len, " %-*s", MCELL, buf);
		any |= r != NULL;
	}
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	if (any)
		printf("%s\n", line);
}

static void mixed_group(const char *accel, const char *core, const char *figure)
{
	char line[512], head[80];
	size_t len;
	int c, e;

	c = 0;
	while (c < ncells() && !mixed_find(accel, core, figure, NULL, c))
		c++;
	printf("  %s%s%s:\n", *core ? "core " : "", core,
	       !strcmp(figure, "mispredicts") ? ", mispredictions a call" :
	       !strcmp(figure, "cycles") ? ", cycles: ratios" :
	       c < ncells() && !strcmp(csv_get(&run.mixed, mixed_find(accel, core, figure, NULL, c),
					      "basis"), "paired") ?
	       "paired ratios (over the boots or code layouts)" : "ratios of the medians");
	len = snprintf(line, sizeof(line), "    %-12s", "");
	for (c = 0; c < ncells(); c++)
		if (mixed_find(accel, core, figure, NULL, c)) {
			snprintf(head, sizeof(head), "%s %s", cell_get(c, "head"),
				 cell_get(c, "sub"));
			len += snprintf(line + len, sizeof(line) - len, " %-*s", MCELL, head);
		}
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	printf("%s\n", line);
	if (strcmp(figure, "mispredicts"))
		for (e = 0; e < (int)(sizeof(vpairs) / sizeof(vpairs[0])); e++)
			mixed_line(accel, core, figure, vpairs[e]);
	else
		for (e = 0; e < reg_engines()->n; e++)
			mixed_line(accel, core, figure, reg_engines()->rec[e].name);
}

/*
 * "mixed traffic" (mixed.csv, results/mkclaims): per core (a timed
 * accelerator: its medians) and figure, each pair's ratio and each
 * engine's mispredictions a call on one packet's skbs and on the mixed
 * skbs, cell by cell; the mixed figure's range over the code layouts, and
 * a timed accelerator's mixed ratio on the host a measured record names
 * the core for.
 */
static void mixed_table(const char *accel)
{
	const struct csv *x = &run.mixed;
	char seen[16][64], key[64];
	int i, n = 0, k;

	for (i = 0; run.has_mixed && i < x->nrows; i++) {
		const struct csv_row *r = &x->rows[i];

		if (strcmp(csv_get(x, r, "accel"), accel))
			continue;
		snprintf(key, sizeof(key), "%s/%s", csv_get(x, r, "core"), csv_get(x, r, "figure"));
		for (k = 0; k < n && strcmp(seen[k], key); k++)
			;
		if (k < n || n == 16)
			continue;
		snprintf(seen[n++], sizeof(seen[0]), "%s", key);
		if (n == 1)
			printf("mixed traffic, accel=%s\n  (%s):\n"
			       "  one packet's skbs -> as many skbs of every filters/ packet in a fixed\n"
			       "  shuffled order (bench.mix=1); [a, b]: the mixed ratio's 95%% CI;\n"
			       "  [a-b]: its range over the code layouts; a model's core beside a timed\n"
			       "  accelerator's mixed ratio on the host a measured record names it for\n",
			       accel, run_accel_what(&run, accel));
		mixed_group(accel, csv_get(x, r, "core"), csv_get(x, r, "figure"));
	}
	if (n)
		printf("\n");
}

/* The sections after the tables and the 2014 reference, in order, each per accelerator. */
static void (*const sections[])(const char *accel) = {
	decomposition, crosscheck_table, seccomp_table, perf_table, model_table,
	layouts_table, against_table, validation_table, era_table, mixed_table,
};

int main(int argc, char **argv)
{
	char dir[4096];
	size_t i;
	int a;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: mktable RESULTS.csv [RATIOS.csv [ABSOLUTE.csv]]\n");
		return 2;
	}
	run_open(&run, argv[1], argc >= 3 ? argv[2] : NULL, argc == 4 ? argv[3] : NULL);
	/* median-ratios.csv, claims.csv, decomposition.csv (mkclaims), beside it */
	run_dir_of(argv[1], dir, sizeof(dir));
	run_load_claims(&run, dir);
	run_load_gates(&run, dir);
	load_engines();
	if (!run.naccels) {
		fprintf(stderr, "mktable: no rows in %s\n", argv[1]);
		return 1;
	}
	for (a = 0; a < run.naccels; a++)
		table(run.accels[a], run_accel_what(&run, run.accels[a]));
	reference();
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		for (a = 0; a < run.naccels; a++)
			sections[i](run.accels[a]);
	printf("== 2014 claims, re-tested (commit bd4cf0ed331a; ratios t_old/t_new etc., > 1:\n"
	       "   the claim's direction; one word: holds / reversed / no difference shown /\n"
	       "   not measurable)\n");
	for (a = 0; a < run.naccels; a++)
		claims(run.accels[a], run_accel_what(&run, run.accels[a]));
	return 0;
}
