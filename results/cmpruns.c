// SPDX-License-Identifier: GPL-2.0
/*
 * cmpruns - compare two or more runs cell by cell.
 *
 *   cmpruns [-m MISS_PCT] [-c OUT.csv] [-s PART [-l] [-h HEADING]] A.csv B.csv [C.csv ...] PCT
 *
 * The files are all results.csv or all ratios.csv.  In a results.csv a cell
 * is (accel, tag, engine, filter, packet, skbs) and its value the median; in
 * a ratios.csv (it has a "pair" column) a cell is (accel, filter, packet,
 * skbs, pair) and its value the paired ratio.  Prints each cell's value in
 * every run, their median and their spread, (max - min) / min, and for a
 * ratio on which side of 1.00 the runs fall (a verdict that changes from
 * one boot to the next is no verdict); exits 1 when a cell's
 * spread exceeds its limit (PCT, or MISS_PCT for a cell of more than one
 * skb) or the cell is missing from a run.
 *
 * Ratios with confidence intervals (ci_lo, ci_hi) are also checked for
 * calibration, the test of a CI that holds from one run to the next: per
 * cell, how many pairs of runs have overlapping CIs, and how often another
 * run's ratio lies inside this run's CI (an honest 95% CI: about 83% of
 * the time), and the summary line adds both over all cells and the widest
 * CI half-width of the one-skb and of the other cells.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/csv.h"
#include "../lib/stats.h"

#define MAX_RUNS 32
#define MAX_KEY 6

struct layout {
	const char *key[MAX_KEY];
	const char *value;
};

static const struct layout results_layout = {
	{ "accel", "tag", "engine", "filter", "packet", "skbs" }, "median",
};

static const struct layout ratios_layout = {
	{ "accel", "filter", "packet", "skbs", "pair" }, "ratio",
};

static const struct layout *lay;

static int same_cell(const struct csv *a, const struct csv_row *ra,
		     const struct csv *b, const struct csv_row *rb)
{
	size_t k;

	for (k = 0; k < MAX_KEY && lay->key[k]; k++)
		if (strcmp(csv_get(a, ra, lay->key[k]), csv_get(b, rb, lay->key[k])))
			return 0;
	return 1;
}

static void cell_name(const struct csv *c, const struct csv_row *r, char *buf,
		      size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < MAX_KEY && lay->key[k] && used < len; k++)
		used += snprintf(buf + used, len - used, "%s%s", k ? "/" : "",
				 csv_get(c, r, lay->key[k]));
}

/* Cells of A missing from B count as failures; returns their number. */
static int missing(const struct csv *a, const struct csv *b, const char *what)
{
	int i, j, bad = 0;
	char buf[256];

	for (i = 0; i < a->nrows; i++) {
		for (j = 0; j < b->nrows; j++)
			if (same_cell(a, &a->rows[i], b, &b->rows[j]))
				break;
		if (j == b->nrows) {
			cell_name(a, &a->rows[i], buf, sizeof(buf));
			printf("%-48s only in %s\n", buf, what);
			bad++;
		}
	}
	return bad;
}

static void usage(void)
{
	fprintf(stderr, "usage: cmpruns [-m MISS_PCT] A.csv B.csv [C.csv ...] PCT (2 to %d runs)\n",
		MAX_RUNS);
	exit(2);
}

/* Where the runs put a ratio: all above 1.00, all below, or both. */
static const char *side_of_one(const double *v, int n)
{
	int above = 0, below = 0, i;

	for (i = 0; i < n; i++) {
		above += v[i] > 1.0;
		below += v[i] < 1.0;
	}
	if (above == n)
		return "  all > 1";
	if (below == n)
		return "  all < 1";
	return "  straddles 1: no verdict";
}

/* Calibration totals over every cell (ratios with CIs). */
static int pairs_total, pairs_overlap, inside_total, inside_hit;
static double widest[2];	/* CI half-width %: one skb, more */

/* Per cell: CI overlap of each pair of runs, estimates inside CIs. */
static int cell_overlap, cell_inside;

static void calibration(const double *v, const double *lo, const double *hi,
			int n, int miss)
{
	int a, b, overlap = 0, inside = 0;

	for (a = 0; a < n; a++) {
		widest[miss] = fmax(widest[miss], 100 * (hi[a] - lo[a]) / 2 / v[a]);
		for (b = 0; b < n; b++) {
			if (a == b)
				continue;
			inside += lo[a] <= v[b] && v[b] <= hi[a];
			if (b > a)
				overlap += lo[a] <= hi[b] && lo[b] <= hi[a];
		}
	}
	printf("  CIs overlap %d/%d, inside %d/%d", overlap, n * (n - 1) / 2,
	       inside, n * (n - 1));
	cell_overlap = overlap;
	cell_inside = inside;
	pairs_total += n * (n - 1) / 2;
	pairs_overlap += overlap;
	inside_total += n * (n - 1);
	inside_hit += inside;
}

/* PART in cell name S, followed by "/" or the end of the name. */
static int has_part(const char *s, const char *part)
{
	size_t k = strlen(part);

	for (; (s = strstr(s, part)); s++)
		if (s[k] == '\0' || s[k] == '/')
			return 1;
	return 0;
}

/* -c: one CSV row per cell. */
static void put_row(FILE *f, const char *cell, const char *skbs, const double *v,
		    int n, double d, double limit, const char *side, int have_ci)
{
	char buf[1024], num[32];
	size_t used = 0;
	int r;

	csv_put(f, cell, 0);
	csv_put(f, skbs, 0);
	snprintf(num, sizeof(num), "%d", n);
	csv_put(f, num, 0);
	buf[0] = '\0';
	for (r = 0; r < n && used < sizeof(buf); r++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%.4f", r ? " " : "", v[r]);
	csv_put(f, buf, 0);
	fprintf(f, "%.4f,%.2f,%.2f,%d,", stats_median((double *)v, n), d, limit, d > limit);
	csv_put(f, side + 2 * (*side == ' '), 0);
	if (have_ci)
		fprintf(f, "%d,%d,%d,%d\n", cell_overlap, n * (n - 1) / 2, cell_inside,
			n * (n - 1));
	else
		fprintf(f, ",,,\n");
}

/*
 * Cell @ra of the first run in each of the @n runs: prints each value (or
 * "-"), fills @vals and, where every run has them (@cis), @lo and @hi.
 * The number of runs that have the cell; *@have_ci of them with a CI.
 */
static int cell_values(const struct csv *run, int n, const struct csv_row *ra,
		       int cis, double *vals, double *lo, double *hi, int *have_ci)
{
	int r, j, have = 0;

	*have_ci = 0;
	for (r = 0; r < n; r++) {
		for (j = 0; j < run[r].nrows; j++) {
			const struct csv_row *rb = &run[r].rows[j];
			double x;

			if (!same_cell(&run[0], ra, &run[r], rb))
				continue;
			x = atof(csv_get(&run[r], rb, lay->value));
			printf(" %10.3f", x);
			if (cis && *csv_get(&run[r], rb, "ci_lo")) {
				lo[have] = atof(csv_get(&run[r], rb, "ci_lo"));
				hi[have] = atof(csv_get(&run[r], rb, "ci_hi"));
				(*have_ci)++;
			}
			vals[have++] = x;
			break;
		}
		if (j == run[r].nrows)
			printf(" %10s", "-");
	}
	return have;
}

/* The summary lines after the cells. */
static void summary(int n, int nrows, double worst, double pct, double miss_pct,
		    int bad)
{
	if (pairs_total)
		printf("CI calibration over %d runs: the CIs of %d of %d (cell, pair of runs) overlap; another run's ratio inside this run's CI %d of %d times (%.0f%%; an honest 95%% CI: about 83%%); widest CI half-width %.2f%% one skb, %.2f%% more skbs\n",
		       n, pairs_overlap, pairs_total, inside_hit, inside_total,
		       100.0 * inside_hit / inside_total, widest[0], widest[1]);
	if (miss_pct != pct)
		printf("%d cells compared over %d runs, worst spread (max-min)/min %.2f%% (limit %.2f%%, %.2f%% for more than one skb), %d bad\n",
		       nrows, n, worst, pct, miss_pct, bad);
	else
		printf("%d cells compared over %d runs, worst spread (max-min)/min %.2f%% (limit %.2f%%), %d bad\n",
		       nrows, n, worst, pct, bad);
}

int main(int argc, char **argv)
{
	struct csv run[MAX_RUNS];
	double pct, miss_pct = -1, worst = 0;
	int n, r, i, opt, bad = 0, cis;
	char buf[256], *cells_text = NULL, *sel_text = NULL, *over_text = NULL;
	size_t cells_len = 0, sel_len = 0, over_len = 0;
	const char *csv_out = NULL, *pattern = NULL, *heading = NULL;
	int last = 0;
	FILE *cf = NULL, *real = stdout, *cells = NULL, *sel = NULL, *over = NULL;

	while ((opt = getopt(argc, argv, "m:c:s:lh:")) != -1) {
		if (opt == 'c')
			csv_out = optarg;
		else if (opt == 's')
			pattern = optarg;
		else if (opt == 'l')
			last = 1;
		else if (opt == 'h')
			heading = optarg;
		else if (opt != 'm' || (miss_pct = atof(optarg)) <= 0)
			usage();
	}
	argv += optind - 1;
	argc -= optind - 1;
	n = argc - 2;
	if (n < 2 || n > MAX_RUNS || (pct = atof(argv[argc - 1])) <= 0)
		usage();
	if (miss_pct < 0)
		miss_pct = pct;
	for (r = 0; r < n; r++) {
		csv_load(&run[r], argv[r + 1]);
		if (csv_has(&run[r], "pair") != csv_has(&run[0], "pair")) {
			fprintf(stderr, "cmpruns: %s and %s are not the same kind of file (results.csv, ratios.csv)\n",
				argv[1], argv[r + 1]);
			return 2;
		}
	}
	lay = csv_has(&run[0], "pair") ? &ratios_layout : &results_layout;
	if (csv_out) {
		cf = fopen(csv_out, "w");
		if (!cf) {
			perror(csv_out);
			return 2;
		}
		fprintf(cf, "cell,skbs,runs,values,median,spread_pct,limit_pct,over_limit,side,overlap,overlap_of,inside,inside_of\n");
	}
	/* -s: the cell lines go to a buffer, the ones shown to another */
	if (pattern) {
		cells = open_memstream(&cells_text, &cells_len);
		sel = open_memstream(&sel_text, &sel_len);
		over = open_memstream(&over_text, &over_len);
		if (!cells || !sel || !over) {
			perror("open_memstream");
			return 2;
		}
	}
	cis = lay == &ratios_layout;
	for (r = 0; r < n; r++)
		cis &= csv_has(&run[r], "ci_lo") && csv_has(&run[r], "ci_hi");
	for (i = 0; i < run[0].nrows; i++) {
		const struct csv_row *ra = &run[0].rows[i];
		double vals[MAX_RUNS], ord[MAX_RUNS], lo[MAX_RUNS], hi[MAX_RUNS], d, limit;
		int have, have_ci;

		limit = strcmp(csv_get(&run[0], ra, "skbs"), "1") ? miss_pct : pct;
		cell_name(&run[0], ra, buf, sizeof(buf));
		if (cells) {
			/* each cell line alone in the buffer, then kept or not */
			fflush(cells);
			rewind(cells);
			cells_len = 0;
			stdout = cells;
		}
		printf("%-48s", buf);
		have = cell_values(run, n, ra, cis, vals, lo, hi, &have_ci);
		if (have < n) {
			printf("  missing\n");
			if (cells) {
				fflush(cells);
				fprintf(over, "  %.*s", (int)cells_len, cells_text);
				stdout = real;
			}
			continue;	/* counted by missing() */
		}
		memcpy(ord, vals, sizeof(ord));
		d = stats_spread(vals, have);
		printf("  median %10.3f", stats_median(vals, have));
		printf(" %7.2f%%%s%s", d, d > limit ? "  > limit" : "",
		       lay == &ratios_layout ? side_of_one(vals, have) : "");
		if (have_ci == n)
			calibration(vals, lo, hi, n, !!strcmp(csv_get(&run[0], ra, "skbs"), "1"));
		printf("\n");
		if (cf)
			put_row(cf, buf, csv_get(&run[0], ra, "skbs"), ord, have, d, limit,
				lay == &ratios_layout ? side_of_one(vals, have) : "", have_ci == n);
		if (cells) {
			fflush(cells);
			stdout = real;
			if (has_part(buf, pattern))
				fprintf(sel, "  %.*s", (int)cells_len, cells_text);
			else if (d > limit)
				fprintf(over, "  %.*s", (int)cells_len, cells_text);
		}
		worst = fmax(worst, d);
		bad += d > limit;
	}
	if (cf && (ferror(cf) || fclose(cf))) {
		perror(csv_out);
		return 2;
	}
	for (r = 1; r < n; r++)
		bad += missing(&run[0], &run[r], argv[r + 1]) +
		       missing(&run[r], &run[0], argv[1]);
	summary(n, run[0].nrows, worst, pct, miss_pct, bad);
	if (pattern) {
		fclose(sel);
		fclose(over);
		if (!last)
			fputs(sel_text, stdout);
		fputs(over_text, stdout);
		if (last && *sel_text) {
			if (heading)
				printf("%s\n", heading);
			fputs(sel_text, stdout);
		}
	}
	return bad ? 1 : 0;
}
