// SPDX-License-Identifier: GPL-2.0
/*
 * simboots - the coverage of the over-boots estimator (stats_over_boots)
 * on synthetic runs whose true ratio is known.
 *
 *   simboots [-r RUNS] [-b BOOTS] [-n ROUNDS] [-s BOOT_SD] [-w ROUND_SD]
 *            [-u RUN_SD] [-U ASSUMED_RUN_SD] [-t TRUE_RATIO] [-S SEED]
 *            [-L LAYOUTS [-l LAYOUT_SD] [-g]]
 *
 * Each simulated run draws a factor exp(N(0, RUN_SD)) (what moves a whole
 * run alike: the machine's state over minutes) and has BOOTS boots; a
 * boot draws a factor exp(N(0, BOOT_SD)) (what a boot fixes: the guest's
 * placement, the host's pages), and each of its ROUNDS rounds a ratio
 * TRUE_RATIO * run factor * boot factor * exp(N(0, ROUND_SD)).  The
 * estimator is told ASSUMED_RUN_SD (mkratios -r).  Prints how often the 95% CI over boots, and the
 * CI of every round pooled (as if rounds were independent), contain
 * TRUE_RATIO:
 *   runs=1000 boots=8 rounds=60 over_boots=0.951 pooled=0.081 halfwidth_pct=6.12 modes=0.0000
 * (halfwidth_pct: the median half-width of the CIs over boots; modes: the
 * share of runs whose units the mixture test, stats_modes, finds in two
 * modes).
 *
 * -m: each boot is in a slow mode with probability SLOW_P, its ratio SLOW
 * times the others' (default 1.7: the discrete slow mode seen under uml,
 * one engine 1.7x slower in some boots); the coverage is still against
 * TRUE_RATIO, the ratio of a boot outside it.
 * Defaults: 1000 runs, 8 boots, 60 rounds, BOOT_SD 0.08, ROUND_SD 0.03,
 * RUN_SD and ASSUMED_RUN_SD 0, TRUE_RATIO 0.48, SEED 1.
 *
 * -L: the boots of a run are spread round-robin over LAYOUTS code-layout
 * variants, each drawing a factor exp(N(0, LAYOUT_SD)) shared by its boots
 * (what a relink moves; default LAYOUT_SD 0).  The estimator groups the
 * boots by variant; -g hides the grouping from it (every boot its own
 * unit, as if the variants were boots), and -L 1 is one build: every boot
 * of the run shares one layout draw.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/opts.h"
#include "../lib/stats.h"

int main(int argc, char **argv)
{
	double runs = 1000, boots = 8, rounds = 60, boot_sd = 0.08;
	double round_sd = 0.03, truth = 0.48, seed = 1, *v, *hw, f, g;
	double run_sd = 0, assumed = 0, layouts = 0, layout_sd = 0, lf[STATS_MAX_BOOTS];
	int group[STATS_MAX_BOOTS], grouped = 1, nl;
	struct stats_boots o;
	size_t n[STATS_MAX_BOOTS];
	double slow_p = 0, slow = 1.7;
	const struct num_opt nums[] = {
		{ 'r', 1, 1e6, &runs },
		{ 'b', 2, STATS_MAX_BOOTS, &boots },
		{ 'n', 1, 1e5, &rounds },
		{ 's', 0, 10, &boot_sd },
		{ 'w', 0, 10, &round_sd },
		{ 'u', 0, 10, &run_sd },
		{ 'U', 0, 10, &assumed },
		{ 't', 1e-6, 1e6, &truth },
		{ 'S', 1, 1e18, &seed },
		{ 'L', 1, STATS_MAX_BOOTS, &layouts },
		{ 'l', 0, 10, &layout_sd },
		{ 'm', 0, 1, &slow_p },
		{ 'M', 1e-3, 1e3, &slow },
		{ 0 }
	};
	int r, b, k, opt, covered = 0, pooled = 0, modes = 0;

	while ((opt = opts_next(argc, argv, nums, "g")) != -1) {
		if (opt != 'g') {
			fprintf(stderr, "usage: simboots [-r RUNS] [-b BOOTS >= 2] [-n ROUNDS] [-s BOOT_SD] [-w ROUND_SD] [-u RUN_SD] [-U ASSUMED_RUN_SD] [-t TRUE_RATIO] [-S SEED] [-L LAYOUTS [-l LAYOUT_SD] [-g]] [-m SLOW_P [-M SLOW]]\n");
			return 2;
		}
		grouped = 0;
	}
	stats_rng_seed((uint64_t)seed);
	v = malloc((size_t)(boots * rounds) * sizeof(*v));
	hw = malloc((size_t)runs * sizeof(*hw));
	if (!v || !hw) {
		fprintf(stderr, "simboots: out of memory\n");
		return 1;
	}
	for (r = 0; r < (int)runs; r++) {
		g = truth * exp(run_sd * stats_normal());
		nl = layouts > 0 ? (int)layouts : 1;
		for (b = 0; b < nl; b++)
			lf[b] = layouts > 0 ? exp(layout_sd * stats_normal()) : 1;
		for (b = 0; b < (int)boots; b++) {
			group[b] = grouped ? b % nl : b;
			f = g * lf[b % nl] * exp(boot_sd * stats_normal());
			if (slow_p > 0 && stats_uniform() < slow_p)
				f *= slow;
			for (k = 0; k < (int)rounds; k++)
				v[b * (int)rounds + k] = f * exp(round_sd * stats_normal());
			n[b] = (size_t)rounds;
		}
		stats_over_boots(v, n, layouts > 0 ? group : NULL, (int)boots, assumed, &o);
		covered += o.has_ci && o.lo <= truth && truth <= o.hi;
		modes += o.mode_units > 0;
		pooled += o.has_within && o.within_lo <= truth && truth <= o.within_hi;
		hw[r] = o.has_ci ? 100 * (o.hi - o.lo) / 2 / o.value : INFINITY;
	}
	printf("runs=%d boots=%d rounds=%d over_boots=%.3f pooled=%.3f halfwidth_pct=%.2f modes=%.4f\n",
	       (int)runs, (int)boots, (int)rounds, covered / runs, pooled / runs,
	       stats_median(hw, (int)runs), modes / runs);
	free(v);
	free(hw);
	return 0;
}
