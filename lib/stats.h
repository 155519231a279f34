/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of the host tools, in one place: medians, the order-
 * statistics 95% confidence interval of a median (the rule the bench module
 * applies to its samples, bench_ci_rank() in bench/module/bpf_bench.c),
 * spreads and ratios.
 */
#ifndef RESULTS_STATS_H
#define RESULTS_STATS_H

#include <stdint.h>

/* Sorts @v (n values) in place. */
void stats_sort(double *v, int n);
/* Median of @v; sorts it. */
double stats_median(double *v, int n);
double stats_mean(const double *v, int n);
/* Sample standard deviation (n - 1); 0 for fewer than 2 values. */
double stats_stddev(const double *v, int n);
/*
 * The largest rank l (1-based) with P(Bin(n, 1/2) <= l - 1) <= 2.5%:
 * [x(l), x(n+1-l)] of the sorted values covers the median with at least
 * 95%.  Exact binomial up to n = 50, l = floor((n - 1.96 sqrt(n)) / 2)
 * above.  0 when n is too small (n < 6); *level_tenths gets the coverage
 * in 0.1% (rounded down), 950 above n = 50.
 */
int stats_ci_rank(int n, int *level_tenths);
/*
 * The median of @v with its 95% CI; sorts @v.  Returns 1 and sets *lo,
 * *hi and *level (percent) when n allows an interval, else 0.
 */
int stats_median_ci(double *v, int n, double *median, double *lo,
		    double *hi, double *level);
/* Run-to-run spread (max - min) / min of @v in percent (100 if min <= 0 < max). */
double stats_spread(const double *v, int n);
/* a / b, or NAN when b is not positive. */
double stats_ratio(double a, double b);

/*
 * Over boots (the unit of replication, docs/statistics.md): at most
 * STATS_MAX_BOOTS summaries of one boot each.
 */
#define STATS_MAX_BOOTS	1024
/* The two-sided 95% quantile of Student's t with @df degrees of freedom. */
double stats_t975(int df);
/*
 * The geometric mean of @v[0..n-1] (all > 0) and its 95% t-interval on the
 * logs, n - 1 degrees of freedom, its standard error widened by @run_sd (a
 * standard deviation on the log scale, added in quadrature: a level of
 * variation above the values, measured beforehand; 0 for none).  Returns 1
 * and sets *lo, *hi when n >= 2; else 0 (*mean still set for n = 1; NAN
 * for no or a non-positive value).
 */
int stats_logmean_ci(const double *v, int n, double run_sd, double *mean,
		     double *lo, double *hi);

/*
 * The mixture test (docs/statistics.md, "Boots apart: the mixture test"):
 * whether the @n values of @x (logs of the units a figure is formed over:
 * the boots' medians or the code-layout variants' means) form two modes.
 * Sorted, the largest gap between neighbours splits them into a lower and
 * an upper side, each of at least one value; they form two modes when
 * that gap exceeds STATS_MODE_K times the spread within the sides (the
 * pooled standard deviation about each side's own mean, n - 2 degrees of
 * freedom, taken as at least STATS_MODE_FLOOR: the figures' resolution).
 * Tested from STATS_MODE_MIN values up: below, a normal sample's gaps
 * pass the bound too often (simboots).  Returns 1 and sets *minor
 * (the values of the smaller side, the upper one on a tie) and *factor
 * (exp of its median less the other side's) for two modes; 0 and *minor
 * = 0 for one; -1 for too few values.
 */
#define STATS_MODE_MIN		10
#define STATS_MODE_K		6.0
#define STATS_MODE_FLOOR	0.001
int stats_modes(const double *x, int n, int *minor, double *factor);

/*
 * Two figures of equal precision compared (this run's and another's of the
 * same kind): the difference, in percent, a two-sided test at 5% tells
 * apart with 80% power, when each has the 95% CI [@lo, @hi] (this one's),
 * formed over @df + 1 units (df 0: a distribution-free CI of one
 * boot, taken as normal):  (t(0.975) + t(0.80)) x sqrt(2) x se on the log
 * scale, se = log(hi / lo) / (2 t(0.975, df)), the comparison's t with
 * 2 df degrees of freedom (z for df 0).  NAN for no interval.
 */
double stats_apart_pct(double lo, double hi, int df);

/* A figure formed over boots (stats_over_boots). */
struct stats_boots {
	int boots;		/* boots with at least one value */
	int layouts;		/* code-layout variants among them (groups) */
	double sd_layout;	/* log sd of the variants' means (NAN: < 2) */
	double sd_boot;		/* pooled log sd of boots within a variant (NAN: none) */
	size_t values;		/* values of every boot */
	int has_ci, has_within;
	double value, lo, hi, level;	/* the result and its CI (level %) */
	double boot_min, boot_max;	/* the range of the boots' medians */
	double run_sd;			/* the run-level sd the CI includes */
	double within_lo, within_hi;	/* every value pooled (a diagnostic) */
	int units;		/* what the CI is over: variants, else boots */
	int mode_tested;	/* units >= STATS_MODE_MIN: the mixture test ran */
	int mode_units;		/* units of the smaller mode (0: one mode) */
	double mode_factor;	/* its median over the other mode's (NAN: none) */
	/*
	 * In percent, how far another run's figure of the same kind must lie
	 * from this one for a comparison of the two to tell them apart at 80%
	 * power, two-sided 5% (stats_apart_pct; NAN without a CI)
	 */
	double apart80;
};
/*
 * The estimator of every timed figure: @v holds the values of boot 0
 * (n[0] of them), then of boot 1, ... (nboots boots, at most
 * STATS_MAX_BOOTS).  Each boot is summarised by its median; with two or
 * more boots the result is their geometric mean with the 95% t-interval on
 * the logs (stats_logmean_ci, widened by @run_sd: what moves a whole run,
 * which one run's boots cannot show), with one boot its median and the
 * order-statistics CI of its values.  within_* is the order-statistics CI
 * of all values pooled, as if every value were independent.  Sorts @v.
 *
 * @group (NULL: every boot a group of its own) names each boot's code-layout
 * variant (a kernel relinked with other padding, bench/host/layout-link.sh).
 * Boots of one variant share its layout, so they are not independent
 * samples of what a rebuild moves: the boots of a variant are averaged
 * (mean of their log medians) and the CI is the t-interval over the
 * variants' means, layouts - 1 degrees of freedom (a nested design with
 * the variant as the unit; docs/statistics.md, "Code layout").
 *
 * On the units the CI is over (the variants' means, else the boots'
 * medians: *units of them) it runs the mixture test (stats_modes: mode_*,
 * from STATS_MODE_MIN units up) and forms apart80 (stats_apart_pct).
 */
void stats_over_boots(double *v, const size_t *n, const int *group, int nboots,
		      double run_sd, struct stats_boots *o);

/*
 * Two kernels compared (make compare, results/mkcompare.c): the t
 * distribution, the blocked design, and Holm over a table.
 */
/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_ibeta(double a, double b, double x);
/* P(|T| >= |t|) for Student's t with @df (> 0, not only whole) degrees of freedom. */
double stats_t_p2(double t, double df);
/* The t with stats_t_p2(t, df) = @alpha (0 < alpha < 1). */
double stats_t_q2(double alpha, double df);
/*
 * Two kernels compared as the blocked design make compare runs: a block is
 * one code-layout variant seed (or, without variants, one boot number) of
 * both kernels, booted back to back, and gives one log ratio patched /
 * baseline (the mean log of its patched boots less that of its baseline
 * boots).  The ratio is exp of the blocks' mean, its 95% CI the
 * t-interval over the blocks (blocks - 1 degrees of freedom), p that of
 * "the mean log ratio is 0".  With no spread between blocks, p is 1 for a
 * zero mean and 0 otherwise, and the CI is the ratio itself.  Returns 0
 * for fewer than 2 blocks.
 */
struct stats_blocked {
	int blocks;
	double ratio, lo, hi;	/* exp(mean log ratio), its 95% CI */
	double sd;		/* the sd of the blocks' log ratios */
	double t, p;		/* t = mean / (sd / sqrt(blocks)), two-sided p */
};
int stats_blocked_log(const double *d, int n, struct stats_blocked *o);
/*
 * The smallest change, in percent, that a blocked comparison of @n blocks
 * whose log ratios spread with sd @sd detects with probability @power at
 * two-sided level @alpha (the t-test's power, by the usual approximation
 * (t(1 - alpha/2) + t(power)) sd / sqrt(n) on the log scale, n - 1
 * degrees of freedom); NAN for n < 2.
 */
double stats_detectable_pct(double sd, int n, double alpha, double power);

/*
 * Holm's step-down adjustment of  p-values for testing them together:
 * @adj[i] is the smallest family-wise level at which test i is rejected
 * (NAN for a NAN p, which does not count as a test).
 */
void stats_holm(const double *p, int n, double *adj);

/*
 * The simulations (simboots, simcompare): xorshift64* random numbers from
 * a seed, so a simulation repeats exactly, and their options' parser.
 */
void stats_rng_seed(uint64_t seed);
/* uniform in (0, 1) */
double stats_uniform(void);
/* standard normal (Box-Muller) */
double stats_normal(void);
/* @s as a number in [@min, @max] into *@v: 0, or -1 when it is not one. */
int stats_arg(const char *s, double min, double max, double *v);

#endif
