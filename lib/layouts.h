/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's code-layout runs: where an accelerator's kind boots the bench
 * plan on each code-layout variant (accels.conf kind key "variants bench":
 * the modeled accelerators), results/mktables.sh makes one run directory
 * per variant, RUN/layouts/SEED/ (run.txt and a link to the variant's
 * boot), and its results.csv, median-ratios.csv and claims.csv.  Loaded
 * once here; mkclaims forms every figure's and claim's range over the
 * layouts (the kernel as built and the variants) from them, into
 * layouts.csv and claims.csv's layout columns (docs/results.md).
 */
#ifndef RESULTS_LAYOUTS_H
#define RESULTS_LAYOUTS_H

#include "csv.h"

#define LAYOUTS_MAX 64

struct layouts {
	int n;				/* variants loaded */
	char seed[LAYOUTS_MAX][32];	/* their layout seeds (directory names) */
	struct csv results[LAYOUTS_MAX], mratios[LAYOUTS_MAX], claims[LAYOUTS_MAX];
};

/* RUN_DIR/layouts/SEED/ in seed order; returns how many (0: none). */
int layouts_load(struct layouts *l, const char *run_dir);
/*
 * Row @occ (0: the first) of the rows of variant @i's claims.csv whose
 * accel, claim and cell are these, or NULL.
 */
const struct csv_row *layouts_claim(const struct layouts *l, int i,
				    const char *accel, const char *claim,
				    const char *cell, int occ);

#endif
