// SPDX-License-Identifier: GPL-2.0
/*
 * cmpruns - compare the medians of two runs cell by cell.
 *
 *   cmpruns A.csv B.csv PCT
 *
 * A cell is (accel, tag, engine, filter, packet, skbs).  Prints each cell's
 * relative difference; exits 1 when a cell differs by more than PCT
 * percent or is missing from either run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

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
	struct csv a, b;
	double pct, worst = 0;
	int i, j, bad = 0;
	char buf[256];

	if (argc != 4 || (pct = atof(argv[3])) <= 0) {
		fprintf(stderr, "usage: cmpruns A.csv B.csv PCT\n");
		return 2;
	}
	csv_load(&a, argv[1]);
	csv_load(&b, argv[2]);
	for (i = 0; i < a.nrows; i++) {
		for (j = 0; j < b.nrows; j++) {
			double x, y, d;

			if (!same_cell(&a, &a.rows[i], &b, &b.rows[j]))
				continue;
			x = atof(csv_get(&a, &a.rows[i], "median"));
			y = atof(csv_get(&b, &b.rows[j], "median"));
			d = x > 0 ? 100.0 * fabs(y - x) / x : (y > 0 ? 100 : 0);
			name(&a, &a.rows[i], buf, sizeof(buf));
			printf("%-48s %12.3f %12.3f %7.2f%%%s\n", buf, x, y, d,
			       d > pct ? "  > limit" : "");
			if (d > worst)
				worst = d;
			bad += d > pct;
			break;
		}
	}
	bad += missing(&a, &b, argv[1]) + missing(&b, &a, argv[2]);
	printf("%d cells compared, worst difference %.2f%% (limit %.2f%%), %d bad\n",
	       a.nrows, worst, pct, bad);
	return bad ? 1 : 0;
}
