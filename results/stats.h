/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of the host tools, in one place: medians, the order-
 * statistics 95% confidence interval of a median (the rule the bench module
 * applies to its samples, bench_ci_rank() in bench/module/bpf_bench.c),
 * spreads and ratios.
 */
#ifndef RESULTS_STATS_H
#define RESULTS_STATS_H

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

#endif
