/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paired engine comparisons: the raw "paired ..." lines of a guest's
 * paired_cell (bench/guest/paired.sh) grouped by cell, and the median of
 * per-round values with its distribution-free 95% confidence interval.
 */
#ifndef RESULTS_PAIRED_H
#define RESULTS_PAIRED_H

#include <stddef.h>
#include <stdio.h>

#define PAIRED_MAX_ENGINES	16
#define PAIRED_NAME_MAX		64

/* One round: one sample (ns per call) of every engine of its cell. */
struct paired_round {
	unsigned int placement, round;
	double v[PAIRED_MAX_ENGINES];	/* in the cell's engine order */
};

/* One (filter, packet, skbs) cell over all its placements and rounds. */
struct paired_cell {
	char filter[PAIRED_NAME_MAX], packet[PAIRED_NAME_MAX];
	unsigned int skbs;
	int nengines;
	char engine[PAIRED_MAX_ENGINES][PAIRED_NAME_MAX];
	size_t nrounds, cap;
	struct paired_round *rounds;
};

struct paired_data {
	size_t ncells;
	struct paired_cell *cells;
	int strict;		/* 1: a non-empty line that is no paired line is an error */
};

/*
 * Add the "paired " lines of @f (named @name in messages) to @d; other
 * lines are ignored (an error with @d->strict).  Returns 0, or -1 with a
 * message "NAME:LINE: why" in @err on a malformed paired line, a duplicate
 * round or a round whose engines differ from its cell's first round, or a
 * last line without its newline (a truncated file).
 */
int paired_read(FILE *f, const char *name, struct paired_data *d,
		char *err, size_t errlen);
void paired_free(struct paired_data *d);
/* The cell of @d with @key's filter, packet and skbs, or NULL. */
const struct paired_cell *paired_find(const struct paired_data *d,
				      const struct paired_cell *key);
/* Index of engine @name in @c, or -1. */
int paired_engine(const struct paired_cell *c, const char *name);

struct paired_stat {
	size_t n;
	double median;
	int has_ci;		/* 0: n too small for a 95% interval */
	double lo, hi, level;
};

/* Median and its 95% CI of @v[0..n-1] (n >= 1), by lib/stats.c; sorts @v. */
void paired_median_ci(double *v, size_t n, struct paired_stat *st);

#endif
