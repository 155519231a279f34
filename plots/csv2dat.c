// SPDX-License-Identifier: GPL-2.0
/*
 * csv2dat - cut a run's results.csv into the data and parameter files the
 * gnuplot scripts of plots/ draw.
 *
 *   csv2dat RESULTS.csv OUTDIR [RATIOS.csv]
 *
 * With RATIOS.csv (the run's paired ratios, results/mkratios) every ratio
 * bar is the paired ratio the tables show, its whiskers the 95% CI (over
 * boots where the accelerator had several), on a log scale: 0.5x and 2x
 * equally far from 1x.  A cell without a paired row falls back to the
 * ratio of the two medians (median-ratios.csv beside RESULTS.csv,
 * results/mkclaims), and the plot's title says so.  A ratio's .dat holds
 * the figure as its CSV has it: its bar's label is that figure in the
 * table's rounding, not a rounded figure rounded again.
 *
 * For each plot it writes OUTDIR/<stem>.dat (one gnuplot data block per
 * series) and OUTDIR/<stem>.gp (title, axis labels, series names and
 * colours as gnuplot assignments), and prints "<script> <stem>" on stdout,
 * <script> being the plots/<script>.gp that draws it:
 *
 *   bars   <unit>-<accel>          median per call of every bench cell,
 *                                  one bar per engine, whiskers = spread
 *   bars   ratios-<accel>          old/new and new/jit per cell beside 2014
 *   bars   ratios-all              old/new of every accelerator beside 2014
 *   sweep  sweep-<accel>-<filter>  per-call cost against distinct skbs
 *   bars   seccomp-<accel>         ns (insns) per filtered syscall, one bar
 *                                  per engine, no-filter cost as a line
 *
 * Each accelerator gets its own plots, titled with its name and what it
 * measures; the one plot mixing accelerators (ratios-all) says so.
 * Notes (e.g. "no sweep") go to stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/csv.h"
#include "../lib/registry.h"
#include "../lib/run.h"

#define MAX_ENGINES	32
#define MAX_SKBS	32
#define BENCH_PACKET	"tcp22-payload"

static struct run run;
static const char *outdir;

/*
 * Engines in drawing order: those of bench/engines.conf with their plot
 * labels and colours, then any other the run has, named as it is.
 */
static struct engine {
	const char *name, *label, *colour;
} engines[MAX_ENGINES];

static int nengines;
static const char *const spare_colours[] = { "#9467bd", "#8c564b", "#e377c2" };

/* The columns: the cell records of engines.conf, in order. */
#define MAX_CELLS REG_MAX

static int ncells(void)
{
	return reg_cells()->n;
}

static const char *cell_get(int c, const char *key)
{
	return reg_get(&reg_cells()->rec[c], key);
}

/* An x tic: "fprog #1\ncache-hit (1 skb)" */
static const char *cell_tic(int c)
{
	static char buf[160];
	const char *skbs = cell_get(c, "skbs");

	snprintf(buf, sizeof(buf), "%s\\n%s (%s skb%s)", cell_get(c, "head"),
		 cell_get(c, "sub"), skbs, strcmp(skbs, "1") ? "s" : "");
	return buf;
}


struct accel {
	const char *name, *kind, *unit;
	const struct csv_row *any;
};

/* run.accels with what the plots say of each */
static struct accel *accels;
static int naccels;

static const char *get(const struct csv_row *r, const char *col)
{
	return csv_get(&run.results, r, col);
}


static void die(const char *what)
{
	perror(what);
	exit(1);
}

static FILE *out_open(const char *stem, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", outdir, stem, ext);
	f = fopen(path, "w");
	if (!f)
		die(path);
	return f;
}

static void out_close(FILE *f)
{
	if (ferror(f) || fclose(f))
		die("write");
}

/* A gnuplot string literal: double quotes, backslash and quote escaped. */
static void gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void gp_assign(FILE *f, const char *var, const char *val)
{
	fprintf(f, "%s = ", var);
	gp_str(f, val);
	fputc('\n', f);
}

/*
 * A typed bench cell the bench plan measured on the bench packet (the
 * sweep has other skbs counts), or NULL.
 */
static const struct run_cell *find(const char *accel, const char *engine,
				   const char *filter, const char *skbs)
{
	const struct run_cell *t = run_cell_on(&run, accel, "bench", engine, filter,
					       BENCH_PACKET, skbs);

	return t && t->median.csv ? t : NULL;
}

static int engine_index(const char *name)
{
	static int spare;
	const struct reg_rec *rec;
	int e;

	for (e = 0; e < nengines; e++)
		if (!strcmp(engines[e].name, name))
			return e;
	if (nengines == MAX_ENGINES)
		return -1;
	rec = reg_find(reg_engines(), name, 0);
	engines[nengines].name = name;
	engines[nengines].label = engine_plot_label(name);
	engines[nengines].colour = *reg_get(rec, "colour") ? reg_get(rec, "colour") :
		spare_colours[spare++ % 3];
	return nengines++;
}

/*
 * What the whiskers of @accel's medians show (lib/cells.c decides per
 * cell): the CI where any cell has one.
 */
static enum run_whisker accel_whisker(const char *accel)
{
	enum run_whisker w = RUN_WHISKER_SD;
	int i;

	for (i = 0; i < run.ncells; i++) {
		const struct run_cell *t = &run.cells[i];

		if (strcmp(t->accel, accel) || !t->median.csv)
			continue;
		if (t->whisker == RUN_WHISKER_CI)
			return RUN_WHISKER_CI;
		w = t->whisker;
	}
	return w;
}

/* What the whiskers of @accel's plot show. */
static const char *spread_what(const char *accel, int line)
{
	static const char *const what[][2] = {
		[RUN_WHISKER_CI] = { "bar = median, whiskers = 95% CI of the median (order statistics)",
				     "point = median, whiskers = 95% CI of the median (order statistics)" },
		[RUN_WHISKER_MINMAX] = { "bar = median, whiskers = min..max sample",
					 "point = median, whiskers = min..max sample" },
		[RUN_WHISKER_SD] = { "bar = median, whiskers = min sample..mean+1 stddev (no CI: fewer than 6 samples)",
				     "point = median, whiskers = min sample..mean+1 stddev (no CI: fewer than 6 samples)" },
	};

	return what[accel_whisker(accel)][!!line];
}

/* "accel=tcg: EMULATED (QEMU TCG), not hardware timing" and the like. */
static void describe(const struct accel *a, char *buf, size_t len)
{
	const struct reg_rec *k = reg_find(reg_kinds(), a->kind, 0);

	snprintf(buf, len, "accel=%s: %s", a->name, reg_get_or(k, "plot", a->kind));
}

static void ylabel(const struct accel *a, char *buf, size_t len)
{
	if (!strcmp(a->unit, "insns"))
		snprintf(buf, len, "guest instructions (insns) per call, accel=%s", a->name);
	else if (!strcmp(a->kind, "emulated"))
		snprintf(buf, len, "EMULATED %s per call, accel=%s (not hardware time)",
			 a->unit, a->name);
	else
		snprintf(buf, len, "%s per call, accel=%s", a->unit, a->name);
}

/* Second title line: who measured it. */
static void machine(const struct accel *a, char *buf, size_t len)
{
	if (csv_has(&run.results, "placements") && *get(a->any, "placements"))
		snprintf(buf, len, "guest cpu: %s; kernel %s; median over %s placements of %d samples x %s calls",
			 get(a->any, "cpu"), get(a->any, "kernel"),
			 get(a->any, "placements"),
			 atoi(get(a->any, "samples")),
			 get(a->any, "calls_per_sample"));
	else
		snprintf(buf, len, "guest cpu: %s; kernel %s; median of %s samples x %s calls",
			 get(a->any, "cpu"), get(a->any, "kernel"),
			 get(a->any, "samples"), get(a->any, "calls_per_sample"));
}

static void xtics(FILE *gp)
{
	int c;

	fprintf(gp, "set xtics (");
	for (c = 0; c < ncells(); c++)
		fprintf(gp, "%s\"%s\" %d", c ? ", " : "", cell_tic(c), c + 1);
	fprintf(gp, ")\nset xrange [0.5:%d.5]\n", ncells());
}

static void series_names(FILE *gp, int n, const char *const *names,
			 const char *const *colours)
{
	int i;

	fprintf(gp, "nser = %d\narray names[%d]\narray colours[%d]\n", n, n, n);
	for (i = 0; i < n; i++) {
		fprintf(gp, "names[%d] = ", i + 1);
		gp_str(gp, names[i]);
		fprintf(gp, "\ncolours[%d] = ", i + 1);
		gp_str(gp, colours[i]);
		fputc('\n', gp);
	}
}

/* Bar I of N in cell C (0-based), centred on tic C + 1. */
static double bar_x(int c, int i, int n)
{
	double w = 0.8 / n;

	return c + 1 - 0.4 + w * (i + 0.5);
}

/* One bar of a bars plot: x, median, whisker ends (lib/cells.c), width. */
static void bar_line(FILE *dat, const struct run_cell *t, int c, int i, int n)
{
	fprintf(dat, "%.4f %.3f %.3f %.3f %.4f\n", bar_x(c, i, n), t->median.v,
		t->whisker_lo, t->whisker_hi, 0.8 / n);
}

/* The parameter file of plot @stem, naming its data file. */
static FILE *gp_open(const char *stem)
{
	FILE *gp = out_open(stem, "gp");

	gp_assign(gp, "dat", stem);
	fprintf(gp, "dat = dat . \".dat\"\n");
	return gp;
}

/* The cell of @engine in column @col of a bench bars plot, or NULL. */
static const struct run_cell *bench_at(const struct accel *a, const char *engine, int col)
{
	return find(a->name, engine, cell_get(col, "filter"), cell_get(col, "skbs"));
}

/* The cell of @engine in column @col of a seccomp plot (short, large), or NULL. */
static const struct run_cell *seccomp_at(const struct accel *a, const char *engine, int col)
{
	static const char *const filters[2] = { "short", "large" };
	const struct run_cell *r = run_cell(&run, a->name, "seccomp", engine, filters[col], NULL);

	return r && r->median.csv ? r : NULL;
}

/*
 * STEM.dat of a bars plot: a block per engine @present (N of them), a bar
 * per column of @ncol that has a cell (@at), the block ended by @end.
 */
static void bars_dat(const char *stem, const struct accel *a, const int *present, int n,
		     int ncol,
		     const struct run_cell *(*at)(const struct accel *, const char *, int),
		     const char *end)
{
	FILE *dat = out_open(stem, "dat");
	int e, c, i;

	fprintf(dat, "# %s: x median lo hi width\n", stem);
	for (e = 0, i = 0; e < nengines; e++) {
		if (!present[e])
			continue;
		fprintf(dat, "# %s\n", engines[e].name);
		for (c = 0; c < ncol; c++) {
			const struct run_cell *r = at(a, engines[e].name, c);

			if (r)
				bar_line(dat, r, c, i, n);
		}
		fputs(end, dat);
		i++;
	}
	out_close(dat);
}

/* (1) and (2): per-call cost of each cell, one bar per engine. */
static void bars(const struct accel *a)
{
	const char *names[MAX_ENGINES], *colours[MAX_ENGINES];
	int present[MAX_ENGINES], n = 0, e, c;
	char stem[128], buf[512];
	FILE *gp;

	for (e = 0; e < nengines; e++) {
		present[e] = 0;
		for (c = 0; c < ncells(); c++)
			present[e] |= !!find(a->name, engines[e].name,
					     cell_get(c, "filter"), cell_get(c, "skbs"));
		if (present[e]) {
			names[n] = engines[e].label;
			colours[n++] = engines[e].colour;
		}
	}
	if (!n) {
		fprintf(stderr, "csv2dat: accel=%s has no bench cells: no %s plot\n",
			a->name, a->unit);
		return;
	}
	snprintf(stem, sizeof(stem), "%s-%s", a->unit, a->name);
	bars_dat(stem, a, present, n, ncells(), bench_at, "\n\n");

	gp = gp_open(stem);
	describe(a, buf, sizeof(buf));
	{
		char t[2048], m[512];

		machine(a, m, sizeof(m));
		snprintf(t, sizeof(t), "Classic BPF %s per call, %s\n%s\n%s",
			 a->unit, buf, m, spread_what(a->name, 0));
		gp_assign(gp, "ttl", t);
	}
	ylabel(a, buf, sizeof(buf));
	gp_assign(gp, "ylab", buf);
	gp_assign(gp, "xlab", "bench cell: filter, skb working set (packet tcp22-payload)");
	gp_assign(gp, "fmt", "%.1f");
	fprintf(gp, "whiskers = 1\nrefline = 0\nrefy = 0\nreflabel = \"\"\n");
	series_names(gp, n, names, colours);
	xtics(gp);
	out_close(gp);
	printf("bars %s\n", stem);
}

/*
 * One ratio bar: its figure as the CSV has it (v NAN: no bar), the CI of
 * its whiskers (lo = hi = v without one) and its label, the figure as
 * table.txt prints it.
 */
struct rbar {
	double v, lo, hi;
	char label[32];
};

/*
 * The ratio @num_e/@den_e of @accel in cell @c into @b: the paired one of
 * ratios.csv (returns 2; labelled "%.2fx", the paired table's two
 * decimals) or the ratio of the two medians of median-ratios.csv (returns
 * 1; "%.1fx", as the ratio lines under the medians); 0: none.
 */
static int ratio(const char *accel, const char *num_e, const char *den_e,
		 int c, struct rbar *b)
{
	const char *f = cell_get(c, "filter"), *s = cell_get(c, "skbs");
	const struct run_quot *q;
	char pair[160];

	b->v = NAN;
	snprintf(pair, sizeof(pair), "%s/%s", num_e, den_e);
	q = run_quot(&run, accel, "bench", pair, f, s);
	if (!q || !q->figure->csv)
		return 0;
	b->v = b->lo = b->hi = q->figure->v;
	if (q->figure == &q->medians) {
		/* whiskers only on a paired ratio: the bar says which it is */
		snprintf(b->label, sizeof(b->label), "%.1fx", b->v);
		return 1;
	}
	if (!isnan(q->paired.lo)) {
		b->lo = q->paired.lo;
		b->hi = q->paired.hi;
	}
	snprintf(b->label, sizeof(b->label), "%.2fx", b->v);
	return 2;
}

/*
 * Ratio bars: series S of NS, bars B[S][C]; each line x, the figure, its
 * CI, the bar's width and its label (plots/bars.gp: labelcol).
 */
static void ratio_dat(const char *stem, int ns, struct rbar b[][MAX_CELLS])
{
	FILE *dat = out_open(stem, "dat");
	int s, c;

	fprintf(dat, "# %s: x ratio lo hi width label\n", stem);
	for (s = 0; s < ns; s++) {
		for (c = 0; c < ncells(); c++)
			if (!isnan(b[s][c].v))
				fprintf(dat, "%.4f %.10g %.10g %.10g %.4f %s\n",
					bar_x(c, s, ns), b[s][c].v, b[s][c].lo,
					b[s][c].hi, 0.8 / ns, b[s][c].label);
		/* An empty block would end the file early for gnuplot. */
		fprintf(dat, "NaN NaN NaN NaN NaN -\n\n\n");
	}
	out_close(dat);
}

/* @paired: the bars are paired ratios with CIs: whiskers, log scale. */
static void ratio_gp(const char *stem, const char *ttl, const char *ylab,
		     int ns, const char *const *names, const char *const *colours,
		     int paired)
{
	FILE *gp = gp_open(stem);

	gp_assign(gp, "ttl", ttl);
	gp_assign(gp, "ylab", ylab);
	gp_assign(gp, "xlab", "bench cell: filter, skb working set (packet tcp22-payload)");
	/* each bar's label as ratio_dat wrote it (the table's rounding) */
	fprintf(gp, "labelcol = 6\n");
	fprintf(gp, "whiskers = %d\nrefline = 1\nrefy = 1\nreflabel = \"1x\"\n", paired);
	if (paired)
		fprintf(gp, "logy = 1\n");
	series_names(gp, ns, names, colours);
	xtics(gp);
	out_close(gp);
	printf("bars %s\n", stem);
}

/* The flavour of @a's rows ("" in runs without one). */
static const char *flavour_of(const struct accel *a)
{
	return csv_has(&run.results, "flavour") ? get(a->any, "flavour") : "";
}

/* The architecture whose 2014 figures reg_ref() gives for @flavour. */
static const char *ref_arch(const struct reg_rec *rec, const char *flavour)
{
	(void)rec;
	return reg_ref_arch(flavour);
}

/*
 * The 2014 figures of ratio @rec for @flavour as bars ("2.9x" is 2.9,
 * labelled as the commit message and the table give it), without a CI.
 */
static int ratio_ref(const struct reg_rec *rec, const char *flavour,
		     struct rbar b[MAX_CELLS])
{
	char w[MAX_CELLS][32];
	int c;

	if (reg_ref(rec, "ref2014", flavour, w, MAX_CELLS) != ncells())
		return 0;
	for (c = 0; c < ncells(); c++) {
		b[c].v = b[c].lo = b[c].hi = atof(w[c]);
		snprintf(b[c].label, sizeof(b[c].label), "%s", w[c]);
	}
	return 1;
}

/* What @accel's paired CIs are over: " over N boots", " within one boot". */
static const char *ratio_over(const char *accel)
{
	static char buf[64];
	int i;

	for (i = 0; run.has_ratios && i < run.ratios.nrows; i++) {
		const struct csv_row *r = &run.ratios.rows[i];

		if (strcmp(csv_get(&run.ratios, r, "accel"), accel))
			continue;
		buf[0] = ' ';
		run_ci_over(&run.ratios, r, buf + 1, sizeof(buf) - 1);
		return buf;
	}
	return " within one boot";
}

/* (3) the ratios of bench/engines.conf of one accelerator beside 2014's. */
static void ratios(const struct accel *a)
{
	static char labels[2 * REG_MAX][160];
	const struct reg *rr = reg_ratios();
	const char *names[2 * REG_MAX], *colours[2 * REG_MAX];
	static struct rbar b[2 * REG_MAX][MAX_CELLS];
	char stem[128], d[512], t[2048], num_e[64], den_e[64];
	int c, p, n = 0, any, kind, paired = 0, medians = 0;

	for (p = 0; p < rr->n; p++) {
		const struct reg_rec *rec = &rr->rec[p];

		if (!reg_pair(rec->name, num_e, den_e, sizeof(num_e)))
			continue;
		for (c = 0, any = 0; c < ncells(); c++) {
			kind = ratio(a->name, num_e, den_e, c, &b[n][c]);
			any |= !!kind;
			paired |= kind == 2;
			medians |= kind == 1;
		}
		if (!any)
			continue;
		snprintf(labels[n], sizeof(labels[n]), "%s, accel=%s", rec->name, a->name);
		names[n] = labels[n];
		colours[n] = reg_get_or(rec, "colour", "#d62728");
		n++;
		if (ratio_ref(rec, flavour_of(a), b[n])) {
			/* 2014's ratio right beside ours, without a CI. */
			snprintf(labels[n], sizeof(labels[n]),
				 "%s, 2014 %s hardware (bd4cf0ed331a)", rec->name,
				 ref_arch(rec, flavour_of(a)));
			names[n] = labels[n];
			colours[n++] = "#bbbbbb";
		}
	}
	if (!n) {
		fprintf(stderr, "csv2dat: accel=%s has neither old+new nor new+jit cells: no ratio plot\n",
			a->name);
		return;
	}
	snprintf(stem, sizeof(stem), "ratios-%s", a->name);
	describe(a, d, sizeof(d));
	if (paired)
		snprintf(t, sizeof(t), "Paired speed-up ratios t_A/t_B per call (%s), whiskers = 95%% CI%s, log scale%s, %s\n"
			 "2014 new/jit: TBD in the commit message, so no 2014 bar; a missing series or bar = engine not measured",
			 a->unit, ratio_over(a->name),
			 medians ? "; bars without a paired row: ratio of medians" : "", d);
	else
		snprintf(t, sizeof(t), "Speed-up ratios of median %s per call, %s\n"
			 "2014 new/jit: TBD in the commit message, so no 2014 bar; a missing series or bar = engine not measured",
			 a->unit, d);
	snprintf(d, sizeof(d), "%s %s per call (A/B = how many times cheaper B is), accel=%s",
		 paired ? "paired ratio of" : "ratio of median", a->unit, a->name);
	ratio_dat(stem, n, b);
	ratio_gp(stem, t, d, n, names, colours, paired);
}

/* (3) old/new of every accelerator in one plot, beside 2014's. */
static void ratios_all(void)
{
	static const char *const palette[] = {
		"#1f77b4", "#2ca02c", "#9467bd", "#d62728",
		"#8c564b", "#e377c2", "#17becf", "#bcbd22",
	};
	char (*labels)[128] = calloc(naccels + 1, sizeof(*labels));
	const char **names = calloc(naccels + 1, sizeof(*names));
	const char **colours = calloc(naccels + 1, sizeof(*colours));
	struct rbar (*b)[MAX_CELLS] = calloc(naccels + 1, sizeof(*b));
	const struct reg_rec *rec = NULL;
	char t[2048], num_e[64], den_e[64];
	int a, c, n = 0, emulated = 0, kind, paired = 0;

	if (!labels || !names || !colours || !b)
		die("calloc");
	/* the ratio marked "all" in bench/engines.conf */
	for (a = 0; a < reg_ratios()->n && !rec; a++)
		if (!strcmp(reg_get(&reg_ratios()->rec[a], "all"), "1"))
			rec = &reg_ratios()->rec[a];
	if (!rec || !reg_pair(rec->name, num_e, den_e, sizeof(num_e)))
		return;
	for (a = 0; a < naccels; a++) {
		int any = 0;

		for (c = 0; c < ncells(); c++) {
			kind = ratio(accels[a].name, num_e, den_e, c, &b[n][c]);
			any |= !!kind;
			paired |= kind == 2;
		}
		if (!any)
			continue;
		emulated |= !strcmp(accels[a].kind, "emulated");
		if (!strcmp(accels[a].kind, "emulated"))
			snprintf(labels[n], sizeof(labels[n]), "accel=%s (EMULATED %s, not hardware)",
				 accels[a].name, accels[a].unit);
		else
			snprintf(labels[n], sizeof(labels[n]), "accel=%s (%s, %s)",
				 accels[a].name, accels[a].kind, accels[a].unit);
		names[n] = labels[n];
		colours[n++] = palette[a % (sizeof(palette) / sizeof(*palette))];
	}
	if (n < 2) {
		fprintf(stderr, "csv2dat: fewer than 2 accelerators with old and new cells: no ratios-all plot\n");
		return;
	}
	if (ratio_ref(rec, "x86_64", b[n])) {
		names[n] = "2014 x86_64 hardware (bd4cf0ed331a)";
		colours[n++] = "#bbbbbb";
	}
	snprintf(t, sizeof(t), "old/new speed-up per cell, every accelerator beside 2014\n"
		 "MIXES accelerators: hardware ns, counted insns%s - compare ratios only",
		 emulated ? " and EMULATED (QEMU TCG) ns, not hardware timing" : "");
	ratio_dat("ratios-all", n, b);
	ratio_gp("ratios-all", t, paired ?
		 "old/new paired ratio per call, 95% CI whiskers (each accelerator's own unit)" :
		 "old/new ratio of median per-call cost (each accelerator's own unit)",
		 n, names, colours, paired);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* (4) per-call cost against the number of distinct skbs, one filter. */
static void sweep(const struct accel *a, const char *filter)
{
	const char *names[MAX_ENGINES], *colours[MAX_ENGINES];
	long skbs[MAX_SKBS];
	int nskbs = 0, n = 0, e, i, k;
	char stem[128], buf[512], t[2048], m[512];
	FILE *dat, *gp;

	for (i = 0; i < run.results.nrows; i++) {
		const struct csv_row *r = &run.results.rows[i];
		long s;

		if (strcmp(get(r, "accel"), a->name) || strcmp(get(r, "tag"), "bench") ||
		    strcmp(get(r, "filter"), filter) ||
		    strcmp(get(r, "packet"), BENCH_PACKET))
			continue;
		s = atol(get(r, "skbs"));
		for (k = 0; k < nskbs; k++)
			if (skbs[k] == s)
				break;
		if (k == nskbs && nskbs < MAX_SKBS && s > 0)
			skbs[nskbs++] = s;
	}
	if (!nskbs) {
		fprintf(stderr, "csv2dat: accel=%s has no %s cells: no sweep plot\n",
			a->name, filter);
		return;
	}
	qsort(skbs, nskbs, sizeof(skbs[0]), cmp_long);
	if (nskbs == 1)
		fprintf(stderr, "csv2dat: accel=%s %s: no working-set sweep in this run (skbs %ld only): drawing points\n",
			a->name, filter, skbs[0]);
	else if (nskbs == 2)
		fprintf(stderr, "csv2dat: accel=%s %s: no working-set sweep in this run (skbs %ld and %ld only): drawing 2-point lines\n",
			a->name, filter, skbs[0], skbs[1]);

	snprintf(stem, sizeof(stem), "sweep-%s-%s", a->name, filter);
	dat = out_open(stem, "dat");
	fprintf(dat, "# %s: skbs median lo hi\n", stem);
	for (e = 0; e < nengines; e++) {
		int rows = 0;

		for (k = 0; k < nskbs; k++) {
			const struct run_cell *r;

			snprintf(buf, sizeof(buf), "%ld", skbs[k]);
			r = find(a->name, engines[e].name, filter, buf);
			if (!r)
				continue;
			if (!rows++)
				fprintf(dat, "# %s\n", engines[e].name);
			fprintf(dat, "%ld %.3f %.3f %.3f\n", skbs[k], r->median.v,
				r->whisker_lo, r->whisker_hi);
		}
		if (rows) {
			fprintf(dat, "\n\n");
			names[n] = engines[e].label;
			colours[n++] = engines[e].colour;
		}
	}
	out_close(dat);

	gp = gp_open(stem);
	describe(a, buf, sizeof(buf));
	machine(a, m, sizeof(m));
	snprintf(t, sizeof(t), "Working-set sweep, %s: %s per call vs distinct skbs, %s\n%s\n%s%s",
		 filter, a->unit, buf, m, spread_what(a->name, 1),
		 nskbs <= 2 ? "\nNO SWEEP in this run: only the table's skbs values" : "");
	gp_assign(gp, "ttl", t);
	ylabel(a, buf, sizeof(buf));
	gp_assign(gp, "ylab", buf);
	gp_assign(gp, "xlab", "distinct skbs cycled through (working set, log scale)");
	fprintf(gp, "xmin = %ld\nxmax = %ld\n", skbs[0], skbs[nskbs - 1]);
	series_names(gp, n, names, colours);
	out_close(gp);
	printf("sweep %s\n", stem);
}

/*
 * (5) seccomp: the per-syscall cost of syscall(199, 100) under the short
 * and the large filter, one bar per engine the filter was attached with,
 * and the cost without a filter as a dashed line.
 */
static void seccomp_bars(const struct accel *a)
{
	const char *names[MAX_ENGINES], *colours[MAX_ENGINES];
	const struct run_cell *nf = NULL, *r;
	const struct csv_row *none;
	int present[MAX_ENGINES], n = 0, e, i;
	char stem[128], d[512], t[2048], m[512];
	FILE *gp;

	for (e = 0; e < nengines; e++)
		present[e] = 0;
	for (i = 0; i < run.ncells; i++) {
		r = &run.cells[i];
		if (strcmp(r->accel, a->name) || strcmp(r->tag, "seccomp") || !r->median.csv)
			continue;
		if (!strcmp(r->filter, "none")) {
			nf = r;
			continue;
		}
		e = engine_index(r->engine);
		if (e >= 0)
			present[e] = 1;
	}
	for (e = 0; e < nengines; e++)
		if (present[e]) {
			names[n] = engines[e].label;
			colours[n++] = engines[e].colour;
		}
	if (!n) {
		fprintf(stderr, "csv2dat: accel=%s has no seccomp cells: no seccomp plot\n",
			a->name);
		return;
	}
	none = nf ? nf->median.row : NULL;
	snprintf(stem, sizeof(stem), "seccomp-%s", a->name);
	bars_dat(stem, a, present, n, 2, seccomp_at, "NaN NaN NaN NaN NaN\n\n\n");

	gp = gp_open(stem);
	describe(a, d, sizeof(d));
	snprintf(m, sizeof(m), "guest cpu: %s; kernel %s",
		 get(a->any, "cpu"), get(a->any, "kernel"));
	snprintf(t, sizeof(t), "seccomp: %s per syscall(199, 100), %s\n%s\n"
		 "median of %s runs x %s calls, whiskers = min..mean+1 stddev of the runs",
		 a->unit, d, m, !none ? "?" : csv_has(&run.results, "placements") && *get(none, "placements") ?
		 get(none, "placements") : get(none, "samples"),
		 none ? get(none, "calls_per_sample") : "?");
	gp_assign(gp, "ttl", t);
	snprintf(d, sizeof(d), "%s per syscall, accel=%s%s", a->unit, a->name,
		 !strcmp(a->kind, "emulated") ? " (EMULATED)" : "");
	gp_assign(gp, "ylab", d);
	gp_assign(gp, "xlab", "seccomp filter (libseccomp; the engine it was attached with)");
	gp_assign(gp, "fmt", "%.0f");
	fprintf(gp, "whiskers = 1\nrefline = %d\nrefy = %.3f\n", !!nf,
		nf ? nf->median.v : 0.0);
	snprintf(d, sizeof(d), "no filter: %.0f %s", nf ? nf->median.v : 0.0,
		 a->unit);
	gp_assign(gp, "reflabel", d);
	series_names(gp, n, names, colours);
	fprintf(gp, "set xtics (\"short filter (2 rules)\" 1, \"large filter (~200 rules)\" 2)\n"
		"set xrange [0.5:2.5]\n");
	out_close(gp);
	printf("bars %s\n", stem);
}

static void find_accels(void)
{
	int a;

	accels = calloc(run.naccels + 1, sizeof(*accels));
	if (!accels)
		die("calloc");
	for (a = 0; a < run.naccels; a++) {
		const struct csv_row *r = run_accel_row(&run, run.accels[a]);

		accels[a].name = run.accels[a];
		accels[a].kind = get(r, "kind");
		accels[a].unit = get(r, "unit");
		accels[a].any = r;
	}
	naccels = run.naccels;
}

int main(int argc, char **argv)
{
	char dir[4096];
	int a, c, i, k;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: csv2dat RESULTS.csv OUTDIR [RATIOS.csv]\n");
		return 2;
	}
	outdir = argv[2];
	run_open(&run, argv[1], argc == 4 ? argv[3] : NULL, NULL);
	/* median-ratios.csv (results/mkclaims), beside RESULTS.csv */
	run_load_claims(&run, run_dir_of(argv[1], dir, sizeof(dir)));
	if (!run.has_mratios)
		fprintf(stderr, "csv2dat: no median-ratios.csv beside %s (results/mkclaims RUN_DIR makes it): no ratio of medians drawn\n",
			argv[1]);
	for (i = 0; i < reg_engines()->n; i++)
		engine_index(reg_engines()->rec[i].name);
	for (i = 0; i < run.results.nrows; i++)
		if (!strcmp(get(&run.results.rows[i], "tag"), "bench") &&
		    engine_index(get(&run.results.rows[i], "engine")) < 0) {
			fprintf(stderr, "csv2dat: more than %d engines\n", MAX_ENGINES);
			return 1;
		}
	find_accels();
	if (!naccels) {
		fprintf(stderr, "csv2dat: no rows in %s\n", argv[1]);
		return 1;
	}
	for (a = 0; a < naccels; a++) {
		bars(&accels[a]);
		ratios(&accels[a]);
		/* each filter of the cells once, in cell order */
		for (c = 0; c < ncells(); c++) {
			for (k = 0; k < c; k++)
				if (!strcmp(cell_get(k, "filter"), cell_get(c, "filter")))
					break;
			if (k == c)
				sweep(&accels[a], cell_get(c, "filter"));
		}
		seccomp_bars(&accels[a]);
	}
	ratios_all();
	return 0;
}
