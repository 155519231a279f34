// SPDX-License-Identifier: GPL-2.0
/*
 * simcompare - the size and power of make compare's timed verdicts
 * (results/mkcompare.c: blocks, the t-interval over them, Holm over a
 * table) on synthetic tables whose truth is known.
 *
 *   simcompare [-r RUNS] [-c CELLS] [-L BLOCKS] [-b BOOTS] [-l LAYOUT_SD]
 *              [-D FAST] [-s BOOT_SD] [-m SLOW_P] [-M SLOW] [-e EFFECT]
 *              [-S SEED]
 *
 * A run is one table of CELLS comparisons (engine x cell).  Each has
 * BLOCKS blocks (code-layout variant seeds); in a block each kernel has
 * BOOTS boots.  A boot's figure is its kernel's layout factor in that
 * block times exp(N(0, BOOT_SD)), times SLOW with probability SLOW_P (a
 * boot in the discrete slow mode seen under uml: one engine 1.7x slower
 * in some boots).  The two kernels' layouts of one seed are drawn
 * independently (a patch that moves code moves it against every seed):
 * exp(N(0, LAYOUT_SD)), or with -D a discrete layout effect, a quarter of
 * the layouts FAST times faster (the classic interpreter's 64-byte line
 * offset, docs/statistics.md).  The patched kernel of the first cell is
 * EFFECT times slower (default 1: the null).  Prints
 *
 *   runs=2000 cells=12 blocks=8 fwer=0.041 power_first=0.050 detect_pct=...
 *
 * fwer: the share of runs with any "slower" or "faster" verdict among the
 * cells without an effect (Holm, 0.05); power_first: the share in which
 * the first cell's verdict is a difference; detect_pct: the median of its detects
 * column (the change it detects with 80% power at Holm's first step).
 * Defaults: 2000 runs, 12 cells, 8 blocks, 1 boot, LAYOUT_SD 0.13,
 * BOOT_SD 0.03, no slow mode, EFFECT 1, SEED 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/opts.h"
#include "../lib/stats.h"

#define ALPHA	0.05
#define POWER	0.80
#define MAX_CELLS	256

struct sim {
	double runs, cells, blocks, boots, layout_sd, fast, boot_sd;
	double slow_p, slow, effect;
};

/* One kernel's layout factor (log) for one seed. */
static double layout_log(const struct sim *m)
{
	if (m->fast > 0)
		return stats_uniform() < 0.25 ? -log(m->fast) : 0;
	return m->layout_sd * stats_normal();
}

/* The mean log of one kernel's boots in one block. */
static double block_side(const struct sim *m, double effect)
{
	double lay = layout_log(m), sum = 0;
	int b;

	for (b = 0; b < (int)m->boots; b++) {
		double x = lay + log(effect) + m->boot_sd * stats_normal();

		if (stats_uniform() < m->slow_p)
			x += log(m->slow);
		sum += x;
	}
	return sum / m->boots;
}

static void usage(void)
{
	fprintf(stderr, "usage: simcompare [-r RUNS] [-c CELLS] [-L BLOCKS >= 2] [-b BOOTS] [-l LAYOUT_SD] [-D FAST] [-s BOOT_SD] [-m SLOW_P] [-M SLOW] [-e EFFECT] [-S SEED]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sim m = { 2000, 12, 8, 1, 0.13, 0, 0.03, 0, 1.7, 1 };
	double seed = 1, p[MAX_CELLS], adj[MAX_CELLS], d[STATS_MAX_BOOTS], *det;
	const struct num_opt nums[] = {
		{ 'r', 1, 1e6, &m.runs },
		{ 'c', 1, MAX_CELLS, &m.cells },
		{ 'L', 2, STATS_MAX_BOOTS, &m.blocks },
		{ 'b', 1, 64, &m.boots },
		{ 'l', 0, 10, &m.layout_sd },
		{ 'D', 1, 10, &m.fast },
		{ 's', 0, 10, &m.boot_sd },
		{ 'm', 0, 1, &m.slow_p },
		{ 'M', 1, 10, &m.slow },
		{ 'e', 1e-3, 1e3, &m.effect },
		{ 'S', 1, 1e18, &seed },
		{ 0 }
	};
	int r, c, j, false_runs = 0, found = 0;

	/* every option takes a number: any other is an error */
	if (opts_next(argc, argv, nums, "") != -1 || optind != argc)
		usage();
	stats_rng_seed((uint64_t)seed);
	det = malloc((size_t)m.runs * sizeof(*det));
	if (!det) {
		fprintf(stderr, "simcompare: out of memory\n");
		return 1;
	}
	for (r = 0; r < (int)m.runs; r++) {
		int any = 0;

		for (c = 0; c < (int)m.cells; c++) {
			struct stats_blocked o;

			for (j = 0; j < (int)m.blocks; j++)
				d[j] = block_side(&m, c ? 1 : m.effect) - block_side(&m, 1);
			stats_blocked_log(d, (int)m.blocks, &o);
			p[c] = o.p;
			if (!c)
				det[r] = stats_detectable_pct(o.sd, o.blocks, ALPHA / m.cells, POWER);
		}
		stats_holm(p, (int)m.cells, adj);
		/* the first cell carries the effect, if any: the others are null */
		for (c = m.effect == 1 ? 0 : 1; c < (int)m.cells; c++)
			any |= adj[c] < ALPHA;
		false_runs += any;
		found += adj[0] < ALPHA;
	}
	printf("runs=%d cells=%d blocks=%d boots=%d fwer=%.3f power_first=%.3f detect_pct=%.1f\n",
	       (int)m.runs, (int)m.cells, (int)m.blocks, (int)m.boots, false_runs / m.runs,
	       found / m.runs, stats_median(det, (int)m.runs));
	free(det);
	return 0;
}
