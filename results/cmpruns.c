// SPDX-License-Identifier: GPL-2.0
/*
 * cmpruns - compare the medians of two or more runs cell by cell.
 *
 *   cmpruns A.csv B.csv [C.csv ...] PCT
 *
 * A cell is (accel, tag, engine, filter, packet, skbs).  Prints each cell's
 * median in every run and their spread, (max - min) / min; exits 1 when a
 * cell's spread exceeds PCT percent or the cell is missing from a run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "stats.h"

#define MAX_RUNS 32

static const char *const key[] = {
	"accel", "tag", "engine", "filter", "packet", "skbs",
};

#define NKEY (sizeof(key) / sizeof(key[0]))

static int same_cell(const struct csv *a, const struct csv_row *ra,
		     const struct csv *b, const struct csv_row *rb)
{
	size_t k;

	for (k = 0; k < NKEY; k++)
		if (strcmp(csv_get(a, ra, key[k]), csv_get(b, rb, key[k])))
			return 0;
	return 1;
}

static void name(const struct csv *c, const struct csv_row *r, char *buf,
		 size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < NKEY && used < len; k++)
		used += snprintf(buf + used, len - used, "%s%s", k ? "/" : "",
				 csv_get(c, r, key[k]));
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
			name(a, &a->rows[i], buf, sizeof(buf));
			printf("%-48s only in %s\n", buf, what);
			bad++;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct csv run[MAX_RUNS];
	double pct, worst = 0;
	int n = argc - 2, r, i, j, bad = 0;
	char buf[256];

	if (n < 2 || n > MAX_RUNS || (pct = atof(argv[argc - 1])) <= 0) {
		fprintf(stderr, "usage: cmpruns A.csv B.csv [C.csv ...] PCT (2 to %d runs)\n",
			MAX_RUNS);
		return 2;
	}
	for (r = 0; r < n; r++)
		csv_load(&run[r], argv[r + 1]);
	for (i = 0; i < run[0].nrows; i++) {
		const struct csv_row *ra = &run[0].rows[i];
		double vals[MAX_RUNS], d;
		int have = 0;

		name(&run[0], ra, buf, sizeof(buf));
		printf("%-48s", buf);
		for (r = 0; r < n; r++) {
			for (j = 0; j < run[r].nrows; j++) {
				double x;

				if (!same_cell(&run[0], ra, &run[r], &run[r].rows[j]))
					continue;
				x = atof(csv_get(&run[r], &run[r].rows[j], "median"));
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
		printf(" %7.2f%%%s\n", d, d > pct ? "  > limit" : "");
		worst = fmax(worst, d);
		bad += d > pct;
	}
	for (r = 1; r < n; r++)
		bad += missing(&run[0], &run[r], argv[r + 1]) +
		       missing(&run[r], &run[0], argv[1]);
	printf("%d cells compared over %d runs, worst spread (max-min)/min %.2f%% (limit %.2f%%), %d bad\n",
	       run[0].nrows, n, worst, pct, bad);
	return bad ? 1 : 0;
}
