// SPDX-License-Identifier: GPL-2.0
/* A run's code-layout runs, RUN/layouts/SEED/ (layouts.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layouts.h"

static int is_seed(const struct dirent *e)
{
	return e->d_name[0] && strspn(e->d_name, "0123456789") == strlen(e->d_name);
}

int layouts_load(struct layouts *l, const char *run_dir)
{
	static const char *const files[] = { "results.csv", "median-ratios.csv", "claims.csv" };
	char dir[4096], path[4200];
	struct dirent **ents;
	int n, i, f;

	l->n = 0;
	snprintf(dir, sizeof(dir), "%s/layouts", run_dir);
	n = scandir(dir, &ents, is_seed, versionsort);
	if (n < 0)
		return 0;
	if (n > LAYOUTS_MAX) {
		fprintf(stderr, "%s: %d code-layout runs, more than %d\n", dir, n, LAYOUTS_MAX);
		exit(1);
	}
	for (i = 0; i < n; i++) {
		struct csv *csvs[] = { &l->results[i], &l->mratios[i], &l->claims[i] };

		snprintf(l->seed[i], sizeof(l->seed[i]), "%.31s", ents[i]->d_name);
		for (f = 0; f < 3; f++) {
			if (snprintf(path, sizeof(path), "%s/%s/%s", dir, l->seed[i], files[f]) >=
			    (int)sizeof(path)) {
				fprintf(stderr, "%s: path too long\n", dir);
				exit(1);
			}
			csv_load(csvs[f], path);
		}
		free(ents[i]);
	}
	free(ents);
	l->n = n;
	return n;
}

const struct csv_row *layouts_claim(const struct layouts *l, int i,
				    const char *accel, const char *claim,
				    const char *cell, int occ)
{
	const struct csv *c = &l->claims[i];
	int r;

	for (r = 0; r < c->nrows; r++)
		if (!strcmp(csv_get(c, &c->rows[r], "accel"), accel) &&
		    !strcmp(csv_get(c, &c->rows[r], "claim"), claim) &&
		    !strcmp(csv_get(c, &c->rows[r], "cell"), cell) && !occ--)
			return &c->rows[r];
	return NULL;
}
