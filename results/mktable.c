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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "registry.h"

#define MAX_ACCELS 8

static struct csv csv;

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

/*
 * test_bpf's programs and the filter the harness times on its packet:
 * the same instructions (filters/README.md), only the accept value differs.
 */
static const struct {
	const char *test, *filter, *note;
} crosscheck[] = {
	{ "testbpf33", "fprog1", "" },
	{ "testbpf34", "testbpf34wrap", "" },
};


static const char *get(const struct csv_row *r, const char *name)
{
	return csv_get(&csv, r, name);
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
	for (i = 0; i < csv.nrows; i++)
		add_engine(get(&csv.rows[i], "engine"));
}

static const struct csv_row *find(const char *accel, const char *tag,
			      const char *engine, const char *filter,
			      const char *skbs)
{
	int i;

	for (i = 0; i < csv.nrows; i++) {
		const struct csv_row *r = &csv.rows[i];

		if (!strcmp(get(r, "accel"), accel) &&
		    !strcmp(get(r, "tag"), tag) &&
		    !strcmp(get(r, "engine"), engine) &&
		    !strcmp(get(r, "filter"), filter) &&
		    (!skbs || !strcmp(get(r, "skbs"), skbs)))
			return r;
	}
	return NULL;
}

static double median(const struct csv_row *r)
{
	return r ? atof(get(r, "median")) : 0;
}

/* The 95% CI of the median the module computed, if the row has one. */
static int ci(const struct csv_row *r, double *lo, double *hi)
{
	const char *l = r ? get(r, "ci_lo") : "", *h = r ? get(r, "ci_hi") : "";

	if (!*l || !*h)
		return 0;
	*lo = atof(l);
	*hi = atof(h);
	return 1;
}

/*
 * Two engines differ significantly in a cell when their 95% confidence
 * intervals of the median do not overlap ("*"); "~" when they overlap;
 * nothing when either has no interval.  Non-overlap of two 95% intervals
 * is a conservative test (README.md, "Statistics").
 */
static const char *significance(const struct csv_row *a, const struct csv_row *b)
{
	double alo, ahi, blo, bhi;

	if (!ci(a, &alo, &ahi) || !ci(b, &blo, &bhi))
		return "";
	return ahi < blo || bhi < alo ? "*" : "~";
}

static const char *colhead[4][2] = {
	{ "fprog #1", "cache-hit" }, { "fprog #1", "cache-miss" },
	{ "fprog #2", "cache-hit" }, { "fprog #2", "cache-miss" },
};

static const char *colfilter[4] = { "fprog1", "fprog1", "fprog2", "fprog2" };
static const char *colskbs[4] = { "1", "10000", "1", "10000" };

static void header(int width)
{
	int c;

	printf("%-14s", "");
	for (c = 0; c < 4; c++)
		printf(" %*s", width, colhead[c][0]);
	printf("\n%-14s", "");
	for (c = 0; c < 4; c++)
		printf(" %*s", width, colhead[c][1]);
	printf("\n");
}

static int marked;	/* a ratio line of this table carries a mark */

/* The ratio NUM/DEN of registry record @rec, with its 2014 figures if any. */
static void ratio_line(const char *accel, const char *flavour,
		       const struct reg_rec *rec)
{
	const char *label = rec->name, *slash = strchr(label, '/');
	char num[64], den[64], ref[4][32];
	int c, any = 0, nref = reg_ref(rec, "ref2014", flavour, ref, 4);

	if (!slash)
		return;
	snprintf(num, sizeof(num), "%.*s", (int)(slash - label), label);
	snprintf(den, sizeof(den), "%s", slash + 1);

	for (c = 0; c < 4; c++)
		any |= find(accel, "bench", num, colfilter[c], colskbs[c]) &&
		       find(accel, "bench", den, colfilter[c], colskbs[c]);
	if (!any)
		return;
	printf("%-14s", label);
	for (c = 0; c < 4; c++) {
		const struct csv_row *a = find(accel, "bench", num, colfilter[c], colskbs[c]);
		const struct csv_row *b = find(accel, "bench", den, colfilter[c], colskbs[c]);
		char buf[32] = "-";

		if (a && b && median(b) > 0) {
			const char *mark = significance(a, b);

			snprintf(buf, sizeof(buf), "%.1fx%s", median(a) / median(b),
				 mark);
			marked |= !!*mark;
		}
		printf(" %10s", buf);
	}
	if (nref == 4) {
		printf("   (2014:");
		for (c = 0; c < 4; c++)
			printf(" %s", ref[c]);
		printf(")");
	}
	printf("\n");
}

/* Whether @accel has any of the table's four cells for @engine. */
static int measured(const char *accel, const char *engine)
{
	int c, have = 0;

	for (c = 0; c < 4; c++)
		have |= !!find(accel, "bench", engine, colfilter[c], colskbs[c]);
	return have;
}

/* The 95% CI of each median of the table, when the run has them. */
static void ci_table(const char *accel)
{
	const struct csv_row *level = NULL;
	double lo, hi;
	size_t e;
	int c;

	for (e = 0; e < NENGINES && !level; e++)
		for (c = 0; c < 4 && !level; c++) {
			const struct csv_row *r = find(accel, "bench", engines[e].engine,
						   colfilter[c], colskbs[c]);

			if (ci(r, &lo, &hi))
				level = r;
		}
	if (!level)
		return;
	printf("95%% confidence interval of each median (order statistics, %s%% coverage\n"
	       "with %s %s):\n", get(level, "ci_level"),
	       *get(level, "placements") ? get(level, "placements") : get(level, "samples"),
	       *get(level, "placements") ? "placement medians" : "samples");
	header(14);
	for (e = 0; e < NENGINES; e++) {
		int have = measured(accel, engines[e].engine);

		if (!have)
			continue;
		printf("%-14s", engines[e].label);
		for (c = 0; c < 4; c++) {
			const struct csv_row *r = find(accel, "bench", engines[e].engine,
						   colfilter[c], colskbs[c]);
			char buf[40] = "-";

			if (ci(r, &lo, &hi))
				snprintf(buf, sizeof(buf), "%.1f..%.1f", lo, hi);
			printf(" %14s", buf);
		}
		printf("\n");
	}
}

/* The host's native control loop around the boot (hardware timing only). */
static void control_line(const char *accel)
{
	const struct csv_row *b = find(accel, "control", "native", "before", NULL);
	const struct csv_row *a = find(accel, "control", "native", "after", NULL);

	int i;
	long waits = 0;

	for (i = 0; i < csv.nrows; i++)
		if (!strcmp(get(&csv.rows[i], "accel"), accel))
			waits += atol(get(&csv.rows[i], "gate_waits"));
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

static void table(const char *accel, const char *what)
{
	const struct csv_row *any = NULL;
	const char *flavour;
	char key[80];
	size_t e;
	int c, i;

	for (i = 0; i < csv.nrows && !any; i++)
		if (!strcmp(get(&csv.rows[i], "accel"), accel))
			any = &csv.rows[i];
	/* a row without a flavour comes from an x86_64 guest (older runs) */
	flavour = *get(any, "flavour") ? get(any, "flavour") : "x86_64";
	printf("--%s-- accel=%s: %s\n",
	       reg_get_or(reg_find(reg_flavours(), flavour, 0), "title", flavour),
	       accel, what);
	if (*get(any, "placements"))
		printf("unit: %s per call, median over %s placements (runs with fresh skbs,\n"
		       "program and stack) of %d samples each; smaller is better\n",
		       get(any, "unit"), get(any, "placements"),
		       atoi(get(any, "samples")));
	else
		printf("unit: %s per call, median of %s samples; smaller is better\n",
		       get(any, "unit"), get(any, "samples"));
	printf("cpu: %s; clocksource: %s\n", get(any, "cpu"), get(any, "clocksource"));
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
		if (!have)
			continue;
		printf("%-14s", engines[e].label);
		for (c = 0; c < 4; c++) {
			const struct csv_row *r = find(accel, "bench", engines[e].engine,
						   colfilter[c], colskbs[c]);
			char buf[32] = "n/a";

			if (r)
				snprintf(buf, sizeof(buf), "%.1f", median(r));
			printf(" %10s", buf);
		}
		printf("\n");
	}
	marked = 0;
	for (i = 0; i < reg_ratios()->n; i++)
		ratio_line(accel, get(any, "flavour"), &reg_ratios()->rec[i]);
	if (marked)
		printf("(*: the two engines' 95%% CIs of the median do not overlap, a significant\n"
		       " difference; ~: they overlap, not significant)\n");
	ci_table(accel);
	control_line(accel);
	printf("\n");
}

/* The 2014 tables of the commit message, one per architecture it gives. */
static void reference(void)
{
	struct reg *r = reg_engines(), *q = reg_ratios();
	char arches[8][40], key[400], v[4][32];
	int narch = 0, a, i, k, c;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->rec[i].nkeys; k++) {
			const char *arch = r->rec[i].key[k];

			if (strncmp(arch, "ref2014.", 8))
				continue;
			for (a = 0; a < narch; a++)
				if (!strcmp(arches[a], arch + 8))
					break;
			if (a == narch && narch < 8)
				snprintf(arches[narch++], sizeof(arches[0]), "%s", arch + 8);
		}
	for (a = 0; a < narch; a++) {
		snprintf(key, sizeof(key), "ref2014.%s", arches[a]);
		printf("--%s-- 2014, commit bd4cf0ed331a (hardware, ns per call)\n",
		       arches[a]);
		header(10);
		for (i = 0; i < r->n + q->n; i++) {
			const struct reg_rec *rec = i < r->n ? &r->rec[i] : &q->rec[i - r->n];

			if (reg_words(rec, key, v, 4) != 4)
				continue;
			printf("%-14s", i < r->n ? engine_label(rec->name) : rec->name);
			for (c = 0; c < 4; c++)
				printf(" %10s", v[c]);
			printf("\n");
		}
		printf("\n");
	}
}

static void crosscheck_table(const char *accel)
{
	size_t i, e;
	int printed = 0;

	for (i = 0; i < sizeof(crosscheck) / sizeof(crosscheck[0]); i++) {
		for (e = 0; e < NENGINES; e++) {
			const char *eng = engines[e].engine;
			const struct csv_row *t = find(accel, "test_bpf", eng,
						   crosscheck[i].test, NULL);
			const struct csv_row *h = find(accel, "crosscheck", eng,
						   crosscheck[i].filter, NULL);
			char diff[32] = "-";

			if (!t && !h)
				continue;
			if (!printed++)
				printf("cross-check, accel=%s, test_bpf's 100-byte packet, %s per call:\n"
				       "%-28s %10s %10s %8s\n", accel,
				       get(t ? t : h, "unit"), "", "test_bpf", "harness",
				       "diff");
			if (t && h && median(t) > 0)
				snprintf(diff, sizeof(diff), "%+.1f%%",
					 100.0 * (median(h) - median(t)) / median(t));
			printf("#%s %-4s vs %s%-10s %10s %10s %8s%s\n",
			       crosscheck[i].test + 7, eng, crosscheck[i].filter, "",
			       t ? get(t, "median") : "n/a",
			       h ? get(h, "median") : "n/a", diff,
			       crosscheck[i].note);
		}
	}
	if (printed)
		printf("\n");
}

/*
 * perf stat over each timed run: the 2014 argument was branch misses.
 * A CPU without those counters says so instead of showing zeros.
 */
static void perf_table(const char *accel)
{
	static const char *const cols[] = {
		"cycles", "instructions", "branches", "branch_misses",
	};
	size_t e, c;
	int printed = 0;

	for (e = 0; e < NENGINES; e++) {
		const struct csv_row *r = find(accel, "bench", engines[e].engine,
					       "fprog2", "1");

		if (!r || !*get(r, "task_clock_ms"))
			continue;
		if (!printed++) {
			printf("perf stat, accel=%s, fprog #2 cache-hit, whole timed run (all samples):\n",
			       accel);
			printf("%-14s %14s", "", "task-clock ms");
			for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				printf(" %14s", cols[c]);
			printf(" %10s\n", "miss rate");
		}
		printf("%-14s %14s", engines[e].label, get(r, "task_clock_ms"));
		for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			printf(" %14s", *get(r, cols[c]) ? get(r, cols[c]) : "-");
		if (atof(get(r, "branches")) > 0)
			printf(" %9.2f%%\n", 100.0 * atof(get(r, "branch_misses")) /
			       atof(get(r, "branches")));
		else
			printf(" %10s\n", "-");
	}
	if (printed)
		printf("(\"not supported\": this CPU/hypervisor exposes no such hardware counter here)\n\n");
}

static void seccomp_cell(const char *accel, const char *engine,
			 const char *filter, const char *unit)
{
	const struct csv_row *r = find(accel, "seccomp", engine, filter, NULL);
	char buf[48] = "n/a";

	if (r && !strcmp(unit, "ns"))
		snprintf(buf, sizeof(buf), "%.1f (%.2f s)", median(r),
			 median(r) * 1e7 / 1e9);
	else if (r)
		snprintf(buf, sizeof(buf), "%.1f", median(r));
	printf(" %18s", buf);
}

static void seccomp_table(const char *accel)
{
	const struct csv_row *any = NULL, *none = NULL;
	static const char *const filters[2] = { "short", "large" };
	const char *unit;
	size_t e;
	int f, i;

	for (i = 0; i < csv.nrows; i++) {
		const struct csv_row *r = &csv.rows[i];

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
		if (!find(accel, "seccomp", engines[e].engine, "short", NULL))
			continue;
		printf("%-14s", engines[e].label);
		for (f = 0; f < 2; f++)
			seccomp_cell(accel, engines[e].engine, filters[f], unit);
		printf("\n");
	}
	/* 2014 seconds for 10M syscall(199, 100), short and large filter */
	for (e = 0; e < NENGINES; e++) {
		char label[80], v[2][32], s[2][40];

		if (reg_ref(engines[e].rec, "seccomp2014", get(any, "flavour"), v, 2) != 2)
			continue;
		snprintf(label, sizeof(label), "2014 %s", engines[e].engine);
		snprintf(s[0], sizeof(s[0]), "%s s", v[0]);
		snprintf(s[1], sizeof(s[1]), "%s s", v[1]);
		printf("%-14s %18s %18s\n", label, s[0], s[1]);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *accels[MAX_ACCELS];
	struct reg *kinds;
	int naccels = 0, i, a, k;

	if (argc != 2) {
		fprintf(stderr, "usage: mktable RESULTS.csv\n");
		return 2;
	}
	csv_load(&csv, argv[1]);
	load_engines();
	kinds = reg_kinds();
	/* Kinds in the order of bench/accels.conf, unknown kinds last. */
	for (k = 0; k <= kinds->n; k++) {
		for (i = 0; i < csv.nrows; i++) {
			const char *acc = get(&csv.rows[i], "accel");
			const char *kind = get(&csv.rows[i], "kind");

			if (kind_rank(kind) != k)
				continue;
			for (a = 0; a < naccels; a++)
				if (!strcmp(accels[a], acc))
					break;
			if (a == naccels && naccels < MAX_ACCELS) {
				accels[naccels++] = acc;
				table(acc, k < kinds->n ?
				      reg_get_or(&kinds->rec[k], "what", kind) : kind);
			}
		}
	}
	if (!naccels) {
		fprintf(stderr, "mktable: no rows in %s\n", argv[1]);
		return 1;
	}
	reference();
	for (a = 0; a < naccels; a++)
		crosscheck_table(accels[a]);
	for (a = 0; a < naccels; a++)
		seccomp_table(accels[a]);
	for (a = 0; a < naccels; a++)
		perf_table(accels[a]);
	return 0;
}
