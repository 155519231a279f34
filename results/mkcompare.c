// SPDX-License-Identifier: GPL-2.0
/*
 * mkcompare: the tables stage of make compare.  RUN/baseline and
 * RUN/patched are the run directories of the two kernels (results.csv made
 * by mktables.sh, the guests' paired.txt per boot); written:
 *
 *   RUN/compare.csv   one row per accelerator, engine and cell
 *   RUN/compare.txt   a table per accelerator, with perf where captured
 *   RUN/summary.txt   one paragraph, the cover letter's text above "---"
 *   RUN/plots/compare-<accel>.dat   the plot's data (plots/compare.gp)
 *
 * A counted accelerator (QEMU -icount) gives each kernel's exact count per
 * call: the difference is the result.  A timed one gives, per paired
 * boot, the median of each engine's paired rounds; the two kernels' boots
 * come in blocks (a code-layout variant seed both kernels were relinked
 * with, else a boot number both were booted with, back to back), each
 * block one log ratio patched/baseline, and the ratio comes with the
 * t-interval over the blocks; the verdicts of one accelerator's table are
 * Holm-adjusted together, each with the change its blocks detect at 80%
 * power (docs/compare.md).
 *
 * usage: mkcompare RUN_DIR
 * Exits 1, naming the engine and cell, when the two kernels' verdicts of a
 * cell differ or a cell of the baseline is missing from the patched run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paired.h"
#include "../lib/registry.h"
#include "../lib/run.h"
#include "../lib/stats.h"

#define SIDES		2
#define PERF_TOP	3
#define ALPHA		0.05
#define POWER		0.80
/*
 * A counted difference below this is noise, not the patch: the timer's
 * +-0.5 per call, or, where a sample has few calls, one guest interrupt
 * (a timer tick or a disk completion) landing inside a sample: about 1540
 * guest instructions (make check's comment-only fixture, 2026-12-06:
 * +0.752 per call at 2048 calls per sample), bounded by IRQ_INSNS.
 */
#define COUNT_NOISE	0.5
#define IRQ_INSNS	2000.0

static const char *const side_name[SIDES] = { "baseline", "patched" };

struct cmp {
	const char *accel;
	/* copies: a timed cell's boots are freed once its figures are formed */
	char engine[PAIRED_NAME_MAX], filter[PAIRED_NAME_MAX], packet[PAIRED_NAME_MAX];
	unsigned int skbs;
	int counted;
	double val[SIDES];	/* counted: the count; timed: geometric mean */
	int boots[SIDES];
	double delta, vm_insns, noise;	/* counted; vm_insns: the baseline's */
	double delta_per_vm;		/* counted: delta / vm_insns (NAN: none) */
	double vm_insns_p;		/* counted: the patched kernel's vm_insns */
	double ratio, lo, hi, p, p_holm;	/* timed (p NAN: no test) */
	int blocks;			/* timed: blocks with both kernels */
	const char *block_kind;		/* timed: what a block is */
	double sd_block, detect;	/* timed: sd of the block log ratios, change detected at POWER (%) */
	const char *verdict;
	char within[32];		/* counted: "within +-X" */
	const struct csv_row *row[SIDES];	/* counted: results.csv rows */
};

static struct run side[SIDES];
static struct cmp *cmps;
static int ncmps;
static const char *dir;

static int counted_accel(const char *accel)
{
	const struct csv_row *r = run_accel_row(&side[0], accel);

	return !strcmp(csv_get(&side[0].results, r, "kind"), "counted");
}

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "mkcompare: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static struct cmp *add_cmp(void)
{
	struct cmp *c;

	cmps = realloc(cmps, (ncmps + 1) * sizeof(*cmps));
	if (!cmps) {
		perror("mkcompare");
		exit(1);
	}
	c = &cmps[ncmps++];
	memset(c, 0, sizeof(*c));
	c->p = NAN;
	c->p_holm = NAN;
	return c;
}

static void cell_name(const struct cmp *c, char *buf, size_t n)
{
	snprintf(buf, n, "%s %s skbs=%u", c->filter, c->packet, c->skbs);
}

/* A counted accelerator: every bench cell of the baseline, its difference. */
static void counted(const char *accel)
{
	static const char *const keys[] = { "accel", "tag", "engine", "filter",
					    "packet", "skbs", NULL };
	const struct csv *b = &side[0].results;
	int i;

	for (i = 0; i < b->nrows; i++) {
		const struct csv_row *r = &b->rows[i];
		const char *vals[6];
		struct cmp *c;
		char cell[256];
		double calls;
		int k;

		if (strcmp(csv_get(b, r, "accel"), accel) ||
		    strcmp(csv_get(b, r, "tag"), "bench"))
			continue;
		for (k = 0; keys[k]; k++)
			vals[k] = csv_get(b, r, keys[k]);
		c = add_cmp();
		c->accel = accel;
		c->counted = 1;
		snprintf(c->engine, sizeof(c->engine), "%s", vals[2]);
		snprintf(c->filter, sizeof(c->filter), "%s", vals[3]);
		snprintf(c->packet, sizeof(c->packet), "%s", vals[4]);
		c->skbs = strtoul(vals[5], NULL, 10);
		cell_name(c, cell, sizeof(cell));
		c->row[0] = r;
		c->row[1] = csv_find(&side[1].results, keys, vals);
		if (!c->row[1]) {
			fprintf(stderr, "mkcompare: accel=%s engine %s, cell %s: no result of the patched kernel\n",
				accel, c->engine, cell);
			exit(1);
		}
		if (strcmp(csv_get(b, r, "verdict"), csv_get(&side[1].results, c->row[1], "verdict"))) {
			fprintf(stderr, "mkcompare: accel=%s engine %s, cell %s: the verdicts differ (baseline %s, patched %s)\n",
				accel, c->engine, cell, csv_get(b, r, "verdict"),
				csv_get(&side[1].results, c->row[1], "verdict"));
			exit(1);
		}
		/*
		 * A guest interrupt in a sample only adds instructions: the
		 * sample with the fewest (min) is the clean count.  The noise
		 * bound is that of the side with fewer calls per sample.
		 */
		c->noise = COUNT_NOISE;
		for (k = 0; k < SIDES; k++) {
			const struct csv *res = &side[k].results;

			c->val[k] = atof(csv_get(res, c->row[k], csv_has(res, "min") ? "min" : "median"));
			c->boots[k] = 1;
			calls = csv_has(res, "calls_per_sample") ?
				atof(csv_get(res, c->row[k], "calls_per_sample")) : 0;
			if (calls > 0 && IRQ_INSNS / calls > c->noise)
				c->noise = IRQ_INSNS / calls;
		}
		c->delta = c->val[1] - c->val[0];
		c->vm_insns = atof(csv_get(b, r, "vm_insns"));
		c->vm_insns_p = atof(csv_get(&side[1].results, c->row[1], "vm_insns"));
		/* per the baseline's executed VM instruction: compare.csv's and the text's */
		c->delta_per_vm = c->vm_insns > 0 ? c->delta / c->vm_insns : NAN;
		snprintf(c->within, sizeof(c->within), "within +-%.2f", c->noise);
		/* NULL: within the noise, c->within (cmps moves on realloc) */
		c->verdict = fabs(c->delta) < c->noise ? NULL :
			     c->delta > 0 ? "slower" : "faster";
	}
}

/* One analysed boot: its paired rounds and its code-layout variant. */
struct boot {
	struct paired_data d;
	char layout[32];	/* host.txt layout=, "" without variants */
	int k;			/* the boot's number */
};

/*
 * The paired boots of @accel in side @s's run directory (boot-2, ...):
 * every analysed boot ran the paired plan; boot 1 ran the bench plan and
 * is left out.
 */
static int load_boots(int s, const char *accel, struct boot *b, int max)
{
	char path[4096], err[512];
	int n = 0, k;

	for (k = 2; k <= max + 1 && n < max; k++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s/%s/boot-%d/paired.txt", dir, side_name[s], accel, k);
		f = fopen(path, "r");
		if (!f)
			break;
		memset(&b[n], 0, sizeof(b[n]));
		if (paired_read(f, path, &b[n].d, err, sizeof(err))) {
			fprintf(stderr, "mkcompare: %s\n", err);
			exit(1);
		}
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s/%s/boot-%d/host.txt", dir, side_name[s], accel, k);
		run_file_kv(path, "layout", b[n].layout, sizeof(b[n].layout));
		b[n].k = k;
		n++;
	}
	return n;
}

/* The median of engine @name's rounds in @d's cell like @key; 0 if none. */
static double boot_median(const struct paired_data *d, const struct paired_cell *key,
			  const char *name)
{
	const struct paired_cell *c = paired_find(d, key);
	struct paired_stat st;
	double *v;
	size_t i;
	int e;

	if (!c || !c->nrounds)
		return 0;
	e = paired_engine(c, name);
	if (e < 0)
		return 0;
	v = malloc(c->nrounds * sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < c->nrounds; i++)
		v[i] = c->rounds[i].v[e];
	paired_median_ci(v, c->nrounds, &st);
	free(v);
	return st.median;
}

/* @b's block: its layout seed with variants, else its boot number. */
static void block_label(const struct boot *b, int layouts, char *buf, size_t n)
{
	if (layouts)
		snprintf(buf, n, "%s", b->layout);
	else
		snprintf(buf, n, "%d", b->k);
}

/*
 * The blocks of the design: with code-layout variants, one per variant
 * seed both kernels booted; without, one per boot number both have.
 * @id[s][i]: the block of side @s's boot @i (-1: in none).  Returns the
 * number of blocks.
 */
static int make_blocks(struct boot *const b[SIDES], const int nb[SIDES],
		       int id[SIDES][STATS_MAX_BOOTS], const char **kind)
{
	static char label[SIDES][STATS_MAX_BOOTS][32];
	int n = 0, s, i, j, layouts = b[0][0].layout[0] != '\0';

	*kind = layouts ? "layout variants" : "boot pairs";
	for (s = 0; s < SIDES; s++)
		for (i = 0; i < nb[s]; i++) {
			block_label(&b[s][i], layouts, label[s][i], sizeof(label[s][i]));
			id[s][i] = -1;
		}
	/* a block is a label of the baseline's that the patched kernel has too */
	for (i = 0; i < nb[0]; i++) {
		for (j = 0; j < i && strcmp(label[0][j], label[0][i]); j++)
			;
		if (j < i) {
			id[0][i] = id[0][j];
			continue;
		}
		for (j = 0; j < nb[1] && strcmp(label[1][j], label[0][i]); j++)
			;
		if (j < nb[1])
			id[0][i] = n++;
	}
	for (j = 0; j < nb[1]; j++)
		for (i = 0; i < nb[0]; i++)
			if (!strcmp(label[1][j], label[0][i])) {
				id[1][j] = id[0][i];
				break;
			}
	return n;
}

/*
 * A timed accelerator: per block the log ratio patched/baseline of its
 * boots' medians, the t-interval over blocks, then Holm over the table.
 */
static void timed(const char *accel)
{
	static struct boot b[SIDES][STATS_MAX_BOOTS];
	static int id[SIDES][STATS_MAX_BOOTS];
	static double sum[SIDES][STATS_MAX_BOOTS], d[STATS_MAX_BOOTS];
	static int cnt[SIDES][STATS_MAX_BOOTS];
	struct boot *bp[SIDES] = { b[0], b[1] };
	int nb[SIDES], s, first = ncmps, i, k, e, nblocks;
	double *p, *adj;
	const char *kind;
	size_t ci;

	for (s = 0; s < SIDES; s++)
		nb[s] = load_boots(s, accel, b[s], STATS_MAX_BOOTS - 1);
	if (!nb[0] || !nb[1])
		die("accel=%s: no paired boots (boot-2, ...) of the %s kernel", accel,
		    nb[0] ? "patched" : "baseline");
	nblocks = make_blocks(bp, nb, id, &kind);
	for (ci = 0; ci < b[0][0].d.ncells; ci++) {
		const struct paired_cell *key = &b[0][0].d.cells[ci];

		for (e = 0; e < key->nengines; e++) {
			struct cmp *c = add_cmp();
			struct stats_blocked o;
			double v[SIDES][STATS_MAX_BOOTS];
			int n[SIDES], nd = 0;

			c->accel = accel;
			snprintf(c->engine, sizeof(c->engine), "%s", key->engine[e]);
			snprintf(c->filter, sizeof(c->filter), "%s", key->filter);
			snprintf(c->packet, sizeof(c->packet), "%s", key->packet);
			c->skbs = key->skbs;
			c->block_kind = kind;
			memset(sum, 0, sizeof(sum));
			memset(cnt, 0, sizeof(cnt));
			for (s = 0; s < SIDES; s++) {
				n[s] = 0;
				for (k = 0; k < nb[s]; k++) {
					double m = boot_median(&b[s][k].d, key, c->engine);

					if (!(m > 0))
						continue;
					v[s][n[s]++] = m;
					if (id[s][k] >= 0) {
						sum[s][id[s][k]] += log(m);
						cnt[s][id[s][k]]++;
					}
				}
				c->boots[s] = n[s];
				stats_logmean_ci(v[s], n[s], 0, &c->val[s], &c->lo, &c->hi);
			}
			for (i = 0; i < nblocks; i++)
				if (cnt[0][i] && cnt[1][i])
					d[nd++] = sum[1][i] / cnt[1][i] - sum[0][i] / cnt[0][i];
			c->blocks = nd;
			c->ratio = stats_ratio(c->val[1], c->val[0]);
			c->lo = NAN;
			c->hi = NAN;
			c->detect = NAN;
			c->verdict = "too few blocks (2 at least)";
			if (stats_blocked_log(d, nd, &o)) {
				c->ratio = o.ratio;
				c->lo = o.lo;
				c->hi = o.hi;
				c->p = o.p;
				c->sd_block = o.sd;
			}
		}
	}
	for (s = 0; s < SIDES; s++)
		for (k = 0; k < nb[s]; k++)
			paired_free(&b[s][k].d);
	p = malloc(sizeof(*p) * (ncmps - first + 1));
	adj = malloc(sizeof(*adj) * (ncmps - first + 1));
	if (!p || !adj)
		abort();
	for (i = first; i < ncmps; i++)
		p[i - first] = cmps[i].p;
	stats_holm(p, ncmps - first, adj);
	for (i = first; i < ncmps; i++) {
		struct cmp *c = &cmps[i];

		c->p_holm = adj[i - first];
		if (isnan(c->p_holm))
			continue;
		/* the power at Holm's first step: ALPHA over the table's tests */
		c->detect = stats_detectable_pct(c->sd_block, c->blocks,
						 ALPHA / (ncmps - first), POWER);
		c->verdict = c->p_holm >= ALPHA ? "no difference shown" :
			     c->ratio > 1 ? "slower" : "faster";
		/* a kind that tests a path (accels.conf test 1) measures nothing */
		if (kind_flag(csv_get(&side[0].results, run_accel_row(&side[0], accel), "kind"), "test"))
			c->verdict = "not measurable";
	}
	free(p);
	free(adj);
}

/* @c's verdict: counted within the noise, its "within +-X". */
static const char *verdict_of(const struct cmp *c)
{
	return c->verdict ? c->verdict : c->within;
}

static FILE *open_out(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

static void put_num(FILE *f, double v, const char *fmt, int last)
{
	char buf[64] = "";

	if (!isnan(v))
		snprintf(buf, sizeof(buf), fmt, v);
	csv_put(f, buf, last);
}

static void write_csv(void)
{
	FILE *f = open_out("compare.csv");
	int i;

	fprintf(f, "accel,kind,engine,filter,packet,skbs,baseline,patched,boots_baseline,boots_patched,"
		"delta,vm_insns,ratio,ci_lo,ci_hi,ci_level,p,p_holm,verdict,kernel,debian_version,"
		"series_hash,tree_base,patched_head,cpu,config_hash,blocks,block_kind,sd_block_pct,"
		"detectable_pct,vm_insns_patched,delta_per_vm_insn\n");
	for (i = 0; i < ncmps; i++) {
		const struct cmp *c = &cmps[i];
		const struct csv_row *r = run_accel_row(&side[0], c->accel);
		char skbs[16];

		snprintf(skbs, sizeof(skbs), "%u", c->skbs);
		csv_put(f, c->accel, 0);
		csv_put(f, csv_get(&side[0].results, r, "kind"), 0);
		csv_put(f, c->engine, 0);
		csv_put(f, c->filter, 0);
		csv_put(f, c->packet, 0);
		csv_put(f, skbs, 0);
		put_num(f, c->val[0], "%.3f", 0);
		put_num(f, c->val[1], "%.3f", 0);
		put_num(f, c->boots[0], "%.0f", 0);
		put_num(f, c->boots[1], "%.0f", 0);
		put_num(f, c->counted ? c->delta : NAN, "%.3f", 0);
		put_num(f, c->counted && c->vm_insns > 0 ? c->vm_insns : NAN, "%.0f", 0);
		put_num(f, c->ratio, "%.4f", 0);
		put_num(f, c->lo, "%.4f", 0);
		put_num(f, c->hi, "%.4f", 0);
		put_num(f, isnan(c->lo) ? NAN : 95, "%.0f", 0);
		put_num(f, c->p, "%.4g", 0);
		put_num(f, c->p_holm, "%.4g", 0);
		csv_put(f, verdict_of(c), 0);
		csv_put(f, run_info(&side[0], "kernel"), 0);
		csv_put(f, run_info(&side[0], "debian_version"), 0);
		csv_put(f, run_info(&side[0], "series_hash"), 0);
		csv_put(f, run_info(&side[0], "tree_head"), 0);
		csv_put(f, run_info(&side[1], "tree_head"), 0);
		csv_put(f, csv_get(&side[0].results, r, "cpu"), 0);
		csv_put(f, csv_get(&side[0].results, r, "config_hash"), 0);
		put_num(f, c->counted ? NAN : c->blocks, "%.0f", 0);
		csv_put(f, c->counted ? "" : c->block_kind, 0);
		put_num(f, c->counted || isnan(c->lo) ? NAN : 100 * c->sd_block, "%.2f", 0);
		put_num(f, c->counted ? NAN : c->detect, "%.1f", 0);
		put_num(f, c->counted && c->vm_insns_p > 0 ? c->vm_insns_p : NAN, "%.0f", 0);
		put_num(f, c->counted ? c->delta_per_vm : NAN, "%.6g", 1);
	}
	fclose(f);
}

/* Verdict counts of @accel's rows. */
static void tally(const char *accel, int *slower, int *faster, int *same, int *untested)
{
	int i;

	*slower = *faster = *same = *untested = 0;
	for (i = 0; i < ncmps; i++) {
		const char *v = verdict_of(&cmps[i]);

		if (strcmp(cmps[i].accel, accel))
			continue;
		if (!strcmp(v, "slower"))
			(*slower)++;
		else if (!strcmp(v, "faster"))
			(*faster)++;
		else if (!strncmp(v, "too few", 7))
			(*untested)++;
		else
			(*same)++;
	}
}

/*
 * The perf reports of @c's cell on both kernels, one line each, under a
 * heading the first time (*@any).
 */
static void perf_lines(FILE *f, const struct cmp *c, int *any)
{
	char id[256], path[4096], line[SIDES][512], skbs[16];
	int s;

	/* the loop alone has no program to profile */
	if (!strcmp(reg_get_or(reg_find(reg_engines(), c->engine, 0), "checker", ""), "none"))
		return;
	snprintf(skbs, sizeof(skbs), "%u", c->skbs);
	for (s = 0; s < SIDES; s++) {
		const struct csv_row *r = run_result(&side[s], c->accel, "bench", c->engine,
						     c->filter, skbs);

		if (!r)
			return;
		run_cell_id(&side[s], r, id, sizeof(id));
		snprintf(path, sizeof(path), "%s/%s/%s/perf/%s.report", dir, side_name[s],
			 c->accel, id);
		if (!run_perf_top(path, PERF_TOP, line[s], sizeof(line[s])))
			return;
	}
	if (!(*any)++)
		fprintf(f, "  perf report (cpu-clock samples, top %d symbols), %s %s skbs=%u:\n",
			PERF_TOP, c->filter, c->packet, c->skbs);
	for (s = 0; s < SIDES; s++)
		fprintf(f, "    %-14s %-8s %s\n", s ? "" : engine_label(c->engine), side_name[s],
			line[s]);
}

static void write_text(void)
{
	FILE *f = open_out("compare.txt");
	int a, i, slower, faster, same, untested;

	fprintf(f, "make compare: baseline %.12s, patched %.12s (%s patch(es)); kernel %s, Debian linux-source %s, series %s\n\n",
		run_info(&side[0], "tree_head"), run_info(&side[1], "tree_head"),
		run_info(&side[1], "patches"), run_info(&side[0], "kernel"),
		run_info(&side[0], "debian_version"), run_info(&side[0], "series_hash"));
	for (a = 0; a < side[0].naccels; a++) {
		const char *accel = side[0].accels[a];
		const struct csv_row *r = run_accel_row(&side[0], accel);
		int counted = counted_accel(accel);
		int any_perf = 0, cell0 = -1;

		fprintf(f, "accel=%s: %s; cpu %s, config %s\n", accel, run_accel_what(&side[0], accel),
			csv_get(&side[0].results, r, "cpu"), csv_get(&side[0].results, r, "config_hash"));
		if (*run_accel_mitigations(&side[0], accel))
			fprintf(f, "  mitigations: %s\n", run_accel_mitigations(&side[0], accel));
		if (counted)
			fprintf(f, "  %-14s %-32s %10s %10s %9s %9s %13s  %s\n", "engine", "cell",
				"baseline", "patched", "delta", "vm insns", "delta/vm insn", "verdict");
		else
			fprintf(f, "  %-14s %-32s %10s %10s %7s %17s %7s %7s  %s\n", "engine", "cell",
				"baseline", "patched", "ratio", "95% CI", "p(Holm)", "detects", "verdict");
		for (i = 0; i < ncmps; i++) {
			const struct cmp *c = &cmps[i];
			char cell[256], per[32] = "", ci[40] = "", ph[16] = "", det[16] = "";
			char vm[32] = "";

			if (strcmp(c->accel, accel))
				continue;
			cell_name(c, cell, sizeof(cell));
			if (c->counted) {
				if (!isnan(c->delta_per_vm))
					snprintf(per, sizeof(per), "%.2f x %.0f", c->delta_per_vm,
						 c->vm_insns);
				/* a patch to the conversion changes them: both sides */
				if (c->vm_insns > 0 && c->vm_insns_p != c->vm_insns)
					snprintf(vm, sizeof(vm), "%.0f->%.0f", c->vm_insns, c->vm_insns_p);
				else if (c->vm_insns > 0)
					snprintf(vm, sizeof(vm), "%.0f", c->vm_insns);
				fprintf(f, "  %-14s %-32s %10.1f %10.1f %+9.1f %9s %13s  %s\n",
					engine_label(c->engine), cell, c->val[0], c->val[1], c->delta,
					vm, per, verdict_of(c));
				continue;
			}
			if (!isnan(c->lo))
				snprintf(ci, sizeof(ci), "[%.3f, %.3f]", c->lo, c->hi);
			if (!isnan(c->p_holm))
				snprintf(ph, sizeof(ph), "%.3f", c->p_holm);
			if (!isnan(c->detect))
				snprintf(det, sizeof(det), "%.1f%%", c->detect);
			fprintf(f, "  %-14s %-32s %10.2f %10.2f %7.3f %17s %7s %7s  %s\n",
				engine_label(c->engine), cell, c->val[0], c->val[1], c->ratio, ci, ph,
				det, verdict_of(c));
		}
		tally(accel, &slower, &faster, &same, &untested);
		if (counted) {
			fprintf(f, "  (%s per call, one boot of each kernel: counted, the sample with the fewest\n"
				"  (a guest interrupt only adds); the delta is exact up to the guest timer's\n"
				"  +-%.1f, or one guest interrupt in a sample, %.0f / calls per sample of the side\n"
				"  with fewer: \"within +-X\"; vm insns: the eBPF instructions the interpreter\n"
				"  executed, baseline->patched where they differ; delta/vm insn: per baseline one)\n",
				csv_get(&side[0].results, r, "unit"), COUNT_NOISE, IRQ_INSNS);
		} else {
			int nb = 0, np = 0, nk = 0;
			const char *kind = "blocks";

			for (i = 0; i < ncmps; i++)
				if (!strcmp(cmps[i].accel, accel)) {
					nb = cmps[i].boots[0];
					np = cmps[i].boots[1];
					nk = cmps[i].blocks;
					kind = cmps[i].block_kind;
				}
			fprintf(f, "  (%s per call: geometric mean over the paired boots, %d of the baseline and\n"
				"  %d of the patched kernel, interleaved; each boot's figure is the median of its\n"
				"  paired rounds.  Blocked design: %d blocks (%s: both kernels booted back\n"
				"  to back with the same seed), each giving the log ratio patched/baseline of its\n"
				"  boots; ratio and 95%% CI from the t-interval over the blocks (unadjusted).  The\n"
				"  verdicts are Holm-adjusted over the %d comparisons of this table: a difference\n"
				"  is shown where the adjusted p < %.2f.  detects: the change this many blocks\n"
				"  detect with %.0f%% power at Holm's first step, %.2f / %d, from the cell's block\n"
				"  spread.)\n",
				csv_get(&side[0].results, r, "unit"), nb, np, nk, kind,
				slower + faster + same, ALPHA, 100 * POWER, ALPHA, slower + faster + same);
		}
		/* perf: the accelerator's first cell, every engine */
		for (i = 0; i < ncmps; i++) {
			const struct cmp *c0;

			if (strcmp(cmps[i].accel, accel))
				continue;
			if (cell0 < 0)
				cell0 = i;
			c0 = &cmps[cell0];
			if (strcmp(cmps[i].filter, c0->filter) ||
			    strcmp(cmps[i].packet, c0->packet) || cmps[i].skbs != c0->skbs)
				continue;
			perf_lines(f, &cmps[i], &any_perf);
		}
		fputc('\n', f);
	}
	fclose(f);
}

/* The change of @c in percent of the baseline. */
static double change_pct(const struct cmp *c)
{
	if (c->counted)
		return c->val[0] > 0 ? 100 * c->delta / c->val[0] : NAN;
	return 100 * (c->ratio - 1);
}

/*
 * One line per engine of @accel: its change in percent over its cells
 * (the range) and its verdicts, the summary a reviewer reads first.
 */
static void engine_lines(FILE *f, const char *accel)
{
	int i, j;

	for (i = 0; i < ncmps; i++) {
		const struct cmp *c = &cmps[i];
		double lo = INFINITY, hi = -INFINITY;
		int n = 0, slower = 0, faster = 0;

		if (strcmp(c->accel, accel))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(cmps[j].accel, accel) && !strcmp(cmps[j].engine, c->engine))
				break;
		if (j < i)
			continue;	/* the engine's line is written */
		for (j = i; j < ncmps; j++) {
			const struct cmp *d = &cmps[j];
			double pct = change_pct(d);

			if (strcmp(d->accel, accel) || strcmp(d->engine, c->engine) || isnan(pct))
				continue;
			n++;
			lo = pct < lo ? pct : lo;
			hi = pct > hi ? pct : hi;
			slower += !strcmp(verdict_of(d), "slower");
			faster += !strcmp(verdict_of(d), "faster");
		}
		if (!n)
			continue;
		fprintf(f, "    %-14s %+7.1f%% .. %+6.1f%% over %d cells: ", engine_label(c->engine),
			lo, hi, n);
		if (slower || faster)
			fprintf(f, "%d slower, %d faster\n", slower, faster);
		else
			fprintf(f, "%s\n", c->counted ? "within the counted noise" : "no difference shown");
	}
}

static void write_summary(void)
{
	FILE *f = open_out("summary.txt");
	int a, slower, faster, same, untested;

	fprintf(f, "Measured with make compare of the bd4cf0ed331a benchmark harness, on Debian's\n"
		"linux-source %s (kernel %s) with the harness's series, baseline\n"
		"against this series:\n\n",
		run_info(&side[0], "debian_version"), run_info(&side[0], "kernel"));
	for (a = 0; a < side[0].naccels; a++) {
		const char *accel = side[0].accels[a];

		const char *kind = csv_get(&side[0].results, run_accel_row(&side[0], accel), "kind");
		const struct reg_rec *k = reg_find(reg_kinds(), kind, 0);

		tally(accel, &slower, &faster, &same, &untested);
		if (kind_flag(kind, "test")) {
			fprintf(f, "  accel=%s, %s:\n    %d cells, not measurable\n", accel,
				reg_get_or(k, "plot", kind), slower + faster + same + untested);
			continue;
		}
		fprintf(f, "  accel=%s, %s:\n    %d cells slower, %d faster, %d %s%s\n", accel,
			reg_get_or(k, "plot", kind), slower, faster, same,
			counted_accel(accel) ? "within the counted noise" : "with no difference shown (Holm)",
			untested ? ", some untested (too few blocks)" : "");
		engine_lines(f, accel);
	}
	fprintf(f, "\nThe tables and perf reports are below the --- line.\n");
	fclose(f);
}

/* The plot's data: one line per cell, the engines in columns. */
static void write_plot_data(void)
{
	char path[4096];
	int a, i;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	for (a = 0; a < side[0].naccels; a++) {
		const char *accel = side[0].accels[a];
		FILE *f;

		snprintf(path, sizeof(path), "plots/compare-%s.dat", accel);
		f = open_out(path);
		fprintf(f, "# accel=%s: %s\n# label value lo hi (counted: patched - baseline; timed: patched/baseline)\n",
			accel, run_accel_what(&side[0], accel));
		for (i = 0; i < ncmps; i++) {
			const struct cmp *c = &cmps[i];

			if (strcmp(c->accel, accel))
				continue;
			if (c->counted)
				fprintf(f, "\"%s %s %u\" %.3f %.3f %.3f\n", c->engine, c->filter, c->skbs,
					c->delta, c->delta, c->delta);
			else
				fprintf(f, "\"%s %s %u\" %.4f %.4f %.4f\n", c->engine, c->filter, c->skbs,
					c->ratio, isnan(c->lo) ? c->ratio : c->lo,
					isnan(c->hi) ? c->ratio : c->hi);
		}
		fclose(f);
		snprintf(path, sizeof(path), "plots/compare-%s.gp", accel);
		f = open_out(path);
		fprintf(f, "dat = 'compare-%s.dat'\nttl = 'make compare, accel=%s: %s'\n", accel,
			accel, run_accel_what(&side[0], accel));
		if (counted_accel(accel))
			fprintf(f, "ylab = 'patched - baseline, per call (exact)'\nrefy = 0\n");
		else
			fprintf(f, "ylab = 'patched / baseline (95%% CI over boots)'\nrefy = 1\n");
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	char path[4096];
	int s, a;

	if (argc != 2) {
		fprintf(stderr, "usage: mkcompare RUN_DIR (with RUN_DIR/baseline and RUN_DIR/patched)\n");
		return 2;
	}
	dir = argv[1];
	for (s = 0; s < SIDES; s++) {
		snprintf(path, sizeof(path), "%s/%s", dir, side_name[s]);
		run_load_dir(&side[s], path);
	}
	for (a = 0; a < side[0].naccels; a++) {
		const char *accel = side[0].accels[a];

		if (counted_accel(accel))
			counted(accel);
		else
			timed(accel);
	}
	write_csv();
	write_text();
	write_summary();
	write_plot_data();
	return 0;
}
