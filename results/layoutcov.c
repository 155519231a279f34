// SPDX-License-Identifier: GPL-2.0
/*
 * layoutcov - the coverage of the CI over code-layout variants on real
 * variants: from a pool of measured variants, draw many sets of L without
 * replacement, form the 95% t-interval over each set (as mkratios does,
 * without run_sd) and count how often it covers the mean of the whole
 * pool.  The test of the t-interval on the distribution the layouts
 * really have (discrete line offsets, a slow mode), not on a normal one.
 *
 *   layoutcov [-L LAYOUTS] [-r DRAWS] [-S SEED] < "KEY RATIO" lines
 *   layoutcov -m [-L LAYOUTS] < "KEY RATIO" lines
 *
 * Each input line is one variant's figure of one cell and pair (KEY, e.g.
 * fprog1/1/old/new, and a ratio > 0; results/layoutcov.sh makes them from
 * saved runs).  Prints per KEY, in input order:
 *   KEY variants=96 coverage=0.968 halfwidth_pct=4.3
 * Sampling without replacement from a finite pool covers a little more
 * than 95% even for a normal population (finite population correction
 * sqrt((N - L) / (N - 1)): 0.87 for 24 of 96).
 *
 * -m: the mixture test (stats_modes) on each set of LAYOUTS consecutive
 * values of a KEY (one run's variants: layoutcov.sh writes them run by
 * run) instead:
 *   KEY set=1 variants=24 mode_units=7 mode_factor=1.3104
 * (mode_units=0: one mode; "-": fewer than STATS_MODE_MIN values).
 * Defaults: 24 layouts, 2000 draws, seed 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/opts.h"
#include "../lib/stats.h"

#define MAX_KEYS	256
#define MAX_VALUES	4096
#define KEY_MAX		96

struct pool {
	char key[KEY_MAX];
	int n;
	double v[MAX_VALUES];	/* logs */
};

static struct pool pools[MAX_KEYS];
static int npools;

static struct pool *pool_of(const char *key)
{
	int i;

	for (i = 0; i < npools; i++)
		if (!strcmp(pools[i].key, key))
			return &pools[i];
	if (npools == MAX_KEYS)
		return NULL;
	snprintf(pools[npools].key, KEY_MAX, "%s", key);
	return &pools[npools++];
}

/* Draw @l of @p's values without replacement into @x (a partial shuffle). */
static void draw(const struct pool *p, int l, int *idx, double *x)
{
	int i, j, t;

	for (i = 0; i < p->n; i++)
		idx[i] = i;
	for (i = 0; i < l; i++) {
		j = i + (int)(stats_uniform() * (p->n - i));
		t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		x[i] = p->v[idx[i]];
	}
}

/*
 * -m: the mixture test (stats_modes) on each set of @l consecutive values
 * of a key: one run's variants, as layoutcov.sh writes them run by run.
 */
static int mixture_sets(int l)
{
	double factor;
	int k, s, minor;

	for (k = 0; k < npools; k++) {
		const struct pool *p = &pools[k];

		for (s = 0; s + l <= p->n; s += l) {
			printf("%s set=%d variants=%d ", p->key, s / l + 1, l);
			if (stats_modes(p->v + s, l, &minor, &factor) < 0)
				printf("mode_units=- (fewer than %d)\n", STATS_MODE_MIN);
			else if (minor)
				printf("mode_units=%d mode_factor=%.4f\n", minor, factor);
			else
				printf("mode_units=0\n");
		}
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: layoutcov [-m] [-L LAYOUTS >= 2] [-r DRAWS] [-S SEED] < \"KEY RATIO\" lines\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double layouts = 24, draws = 2000, seed = 1, value;
	static int idx[MAX_VALUES];
	static double x[MAX_VALUES];
	char line[256], key[KEY_MAX];
	const struct num_opt nums[] = {
		{ 'L', 2, MAX_VALUES, &layouts },
		{ 'r', 1, 1e6, &draws },
		{ 'S', 1, 1e18, &seed },
		{ 0 }
	};
	int opt, lineno = 0, r, k, modes = 0;

	while ((opt = opts_next(argc, argv, nums, "m")) != -1) {
		if (opt != 'm')
			usage();
		modes = 1;
	}
	if (optind != argc || (modes && layouts > STATS_MAX_BOOTS))
		usage();
	while (fgets(line, sizeof(line), stdin)) {
		struct pool *p;

		lineno++;
		if (sscanf(line, "%95s %lf", key, &value) != 2 || !(value > 0)) {
			fprintf(stderr, "layoutcov: line %d: not \"KEY RATIO\" with a ratio > 0\n", lineno);
			return 1;
		}
		p = pool_of(key);
		if (!p || p->n == MAX_VALUES) {
			fprintf(stderr, "layoutcov: line %d: more than %d keys or %d values of one\n",
				lineno, MAX_KEYS, MAX_VALUES);
			return 1;
		}
		p->v[p->n++] = log(value);
	}
	if (modes)
		return mixture_sets((int)layouts);
	stats_rng_seed((uint64_t)seed);
	for (k = 0; k < npools; k++) {
		const struct pool *p = &pools[k];
		double truth, hw = 0, t = stats_t975((int)layouts - 1);
		int covered = 0;

		if (p->n < (int)layouts) {
			printf("%s variants=%d (fewer than %d)\n", p->key, p->n, (int)layouts);
			continue;
		}
		truth = stats_mean(p->v, p->n);
		for (r = 0; r < (int)draws; r++) {
			double m, h;

			draw(p, (int)layouts, idx, x);
			m = stats_mean(x, (int)layouts);
			h = t * stats_stddev(x, (int)layouts) / sqrt(layouts);
			/* (a rounding error is no miss: one value, no spread) */
			covered += fabs(m - truth) <= h + 1e-12;
			hw += h;
		}
		printf("%s variants=%d coverage=%.3f halfwidth_pct=%.1f\n", p->key, p->n,
		       covered / draws, 100 * (exp(hw / draws) - 1));
	}
	return 0;
}
