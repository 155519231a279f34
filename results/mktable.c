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

#define MAX_ACCELS 8

static struct csv csv;

/* Engines in row order, with the names the 2014 table used. */
static const struct {
	const char *engine, *label;
} engines[] = {
	{ "old", "old BPF" },
	{ "new", "new BPF" },
	{ "oldjit", "old BPF jit" },
	{ "jit", "new BPF jit" },
	{ "baseline", "loop only" },
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

/* x86_64 figures from the commit message, ns per call. */
static const struct {
	const char *label;
	const char *v[4];
} ref2014[] = {
	{ "old BPF", { "90", "101", "192", "202" } },
	{ "new BPF", { "31", "71", "47", "97" } },
	{ "old BPF jit", { "12", "34", "17", "44" } },
	{ "new BPF jit", { "TBD", "TBD", "TBD", "TBD" } },
};

static const char *const ratio2014[4] = { "2.9x", "1.4x", "4.1x", "2.1x" };

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

static const struct {
	const char *kind, *what;
} kinds[] = {
	{ "hardware", "hardware timing" },
	{ "counted", "guest instructions per call (QEMU -icount shift=0: counted, not timed; deterministic)" },
	{ "emulated", "EMULATED timing under QEMU TCG: NOT hardware timing, only relative engine order is meaningful" },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static const char *get(const struct csv_row *r, const char *name)
{
	return csv_get(&csv, r, name);
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

static void ratio_line(const char *accel, const char *label, const char *num,
		       const char *den, const char *const *ref)
{
	int c, any = 0;

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
	if (ref) {
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
	size_t e;
	int c, i;

	for (i = 0; i < csv.nrows && !any; i++)
		if (!strcmp(get(&csv.rows[i], "accel"), accel))
			any = &csv.rows[i];
	printf("--%s-- accel=%s: %s\n",
	       !strcmp(get(any, "flavour"), "um") ? "um (User-mode Linux on an x86_64 host)" :
	       "x86_64", accel, what);
	if (*get(any, "placements"))
		printf("unit: %s per call, median over %s placements (runs with fresh skbs,\n"
		       "program and stack) of %d samples each; smaller is better\n",
		       get(any, "unit"), get(any, "placements"),
		       atoi(get(any, "samples")) / atoi(get(any, "placements")));
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

		if (!have && !strcmp(engines[e].engine, "jit") &&
		    !strcmp(get(any, "flavour"), "um")) {
			printf("%-14s n/a (no JIT on um)\n", engines[e].label);
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
	ratio_line(accel, "old/new", "old", "new", ratio2014);
	ratio_line(accel, "new/jit", "new", "jit", NULL);
	if (marked)
		printf("(*: the two engines' 95%% CIs of the median do not overlap, a significant\n"
		       " difference; ~: they overlap, not significant)\n");
	ci_table(accel);
	control_line(accel);
	printf("\n");
}

static void reference(void)
{
	size_t i;
	int c;

	printf("--x86_64-- 2014, commit bd4cf0ed331a (hardware, ns per call)\n");
	header(10);
	for (i = 0; i < sizeof(ref2014) / sizeof(ref2014[0]); i++) {
		printf("%-14s", ref2014[i].label);
		for (c = 0; c < 4; c++)
			printf(" %10s", ref2014[i].v[c]);
		printf("\n");
	}
	printf("%-14s", "old/new");
	for (c = 0; c < 4; c++)
		printf(" %10s", ratio2014[c]);
	printf("\n\n");
}

static void crosscheck_table(const char *accel)
{
	size_t i;
	int printed = 0;
	const char *eng[2] = { "new", "jit" };
	int e;

	for (i = 0; i < sizeof(crosscheck) / sizeof(crosscheck[0]); i++) {
		for (e = 0; e < 2; e++) {
			const struct csv_row *t = find(accel, "test_bpf", eng[e],
						   crosscheck[i].test, NULL);
			const struct csv_row *h = find(accel, "crosscheck", eng[e],
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
			       crosscheck[i].test + 7, eng[e], crosscheck[i].filter, "",
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

/* 2014 x86_64 seconds for 10M syscall(199, 100), short and large filter. */
static const struct {
	const char *engine, *v[2];
} seccomp2014[] = {
	{ "old", { "2.7 s", "8.6 s" } },
	{ "new", { "2.58 s", "5.7 s" } },
};

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
	const struct csv_row *any = find(accel, "seccomp", "new", "short", NULL);
	static const char *const filters[2] = { "short", "large" };
	const char *unit;
	size_t e, i;
	int f;

	if (!any)
		return;
	unit = get(any, "unit");
	printf("seccomp, accel=%s: syscall(199, 100) per call, %s%s\n", accel,
	       unit, !strcmp(unit, "ns") ? " (seconds per 10M calls)" : "");
	printf("%-14s %18s %18s\n", "", "short filter", "large filter");
	printf("%-14s", "no filter");
	seccomp_cell(accel, "new", "none", unit);
	printf("\n");
	for (e = 0; e < NENGINES; e++) {
		if (!find(accel, "seccomp", engines[e].engine, "short", NULL))
			continue;
		printf("%-14s", engines[e].label);
		for (f = 0; f < 2; f++)
			seccomp_cell(accel, engines[e].engine, filters[f], unit);
		printf("\n");
	}
	for (i = 0; i < sizeof(seccomp2014) / sizeof(seccomp2014[0]); i++) {
		char label[32];

		snprintf(label, sizeof(label), "2014 %s", seccomp2014[i].engine);
		printf("%-14s %18s %18s\n", label, seccomp2014[i].v[0],
		       seccomp2014[i].v[1]);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *accels[MAX_ACCELS];
	int naccels = 0, i, a;
	size_t k;

	if (argc != 2) {
		fprintf(stderr, "usage: mktable RESULTS.csv\n");
		return 2;
	}
	csv_load(&csv, argv[1]);
	for (k = 0; k < NKINDS; k++) {
		for (i = 0; i < csv.nrows; i++) {
			const char *acc = get(&csv.rows[i], "accel");

			if (strcmp(get(&csv.rows[i], "kind"), kinds[k].kind))
				continue;
			for (a = 0; a < naccels; a++)
				if (!strcmp(accels[a], acc))
					break;
			if (a == naccels && naccels < MAX_ACCELS) {
				accels[naccels++] = acc;
				table(acc, kinds[k].what);
			}
		}
	}
	if (!naccels) {
		fprintf(stderr, "mktable: no rows of a known kind in %s\n", argv[1]);
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
