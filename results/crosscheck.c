// SPDX-License-Identifier: GPL-2.0
/*
 * crosscheck - compare the harness with lib/test_bpf's own timer.
 *
 *   crosscheck RESULTS.csv ENGINE TEST FILTER PCT
 *
 * Finds test_bpf's figure for TEST (e.g. testbpf33) under ENGINE and the
 * harness's "crosscheck" cell for FILTER on the same packet under ENGINE,
 * in every accelerator of the run, prints both, and exits 1 when either
 * is missing or they differ by more than PCT percent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/csv.h"
#include "../lib/run.h"

int main(int argc, char **argv)
{
	struct run run;
	const struct csv *cp = &run.results;
	double pct;
	int i, compared = 0, bad = 0;

	if (argc != 6 || (pct = atof(argv[5])) <= 0) {
		fprintf(stderr, "usage: crosscheck RESULTS.csv ENGINE TEST FILTER PCT\n");
		return 2;
	}
	run_open(&run, argv[1], NULL, NULL);
	for (i = 0; i < cp->nrows; i++) {
		const struct csv_row *t = &cp->rows[i], *h;
		const char *accel = csv_get(cp, t, "accel");
		double x, y, d;

		if (strcmp(csv_get(cp, t, "tag"), "test_bpf") ||
		    strcmp(csv_get(cp, t, "engine"), argv[2]) ||
		    strcmp(csv_get(cp, t, "filter"), argv[3]))
			continue;
		h = run_result(&run, accel, "crosscheck", argv[2], argv[4], NULL);
		if (!h) {
			printf("%s: no harness cell for %s %s\n", accel, argv[2], argv[4]);
			bad++;
			continue;
		}
		x = atof(csv_get(cp, t, "median"));
		y = atof(csv_get(cp, h, "median"));
		d = x > 0 ? 100.0 * fabs(y - x) / x : 100;
		printf("%s: %s %s test_bpf %.3f, harness %s %.3f %s: %+.2f%%\n",
		       accel, argv[2], argv[3], x, argv[4], y,
		       csv_get(cp, t, "unit"), 100.0 * (y - x) / (x > 0 ? x : 1));
		compared++;
		bad += d > pct;
	}
	if (!compared) {
		printf("no test_bpf figure for %s %s\n", argv[2], argv[3]);
		return 1;
	}
	return bad ? 1 : 0;
}
