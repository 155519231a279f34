// SPDX-License-Identifier: GPL-2.0
/*
 * cmpruns - compare two or more runs cell by cell.
 *
 *   cmpruns [-m MISS_PCT] A.csv B.csv [C.csv ...] PCT
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
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "stats.h"

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

int main(int argc, char **argv)
{
	struct csv run[MAX_RUNS];
	double pct, miss_pct = -1, worst = 0;
	int n, r, i, j, opt, bad = 0;
	char buf[256];

	while ((opt = getopt(argc, argv, "m:")) != -1) {
		if (opt != 'm' || (miss_pct = atof(optarg)) <= 0)
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
	for (i = 0; i < run[0].nrows; i++) {
		const struct csv_row *ra = &run[0].rows[i];
		double vals[MAX_RUNS], d, limit;
		int have = 0;

		limit = strcmp(csv_get(&run[0], ra, "skbs"), "1") ? miss_pct : pct;
		cell_name(&run[0], ra, buf, sizeof(buf));
		printf("%-48s", buf);
		for (r = 0; r < n; r++) {
			for (j = 0; j < run[r].nrows; j++) {
				double x;

				if (!same_cell(&run[0], ra, &run[r], &run[r].rows[j]))
					continue;
				x = atof(csv_get(&run[r], &run[r].rows[j], lay->value));
				printf(" %10.3f", x);
				vals[have++] = x;
				break;
			}
			if (j == run[r].nrows)
				printf(" %10s", "-");
		}
		if (have < n) {
			printf("  missing\n");
			continue;	/* counted by missing() */
		}
		d = stats_spread(vals, have);
		printf("  median %10.3f", stats_median(vals, have));
		printf(" %7.2f%%%s%s\n", d, d > limit ? "  > limit" : "",
		       lay == &ratios_layout ? side_of_one(vals, have) : "");
		worst = fmax(worst, d);
		bad += d > limit;
	}
	for (r = 1; r < n; r++)
		bad += missing(&run[0], &run[r], argv[r + 1]) +
		       missing(&run[r], &run[0], argv[1]);
	if (miss_pct != pct)
		printf("%d cells compared over %d runs, worst spread (max-min)/min %.2f%% (limit %.2f%%, %.2f%% for more than one skb), %d bad\n",
		       run[0].nrows, n, worst, pct, miss_pct, bad);
	else
		printf("%d cells compared over %d runs, worst spread (max-min)/min %.2f%% (limit %.2f%%), %d bad\n",
		       run[0].nrows, n, worst, pct, bad);
	return bad ? 1 : 0;
}
