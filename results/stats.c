// SPDX-License-Identifier: GPL-2.0
/* The host tools' statistics (stats.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double stats_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	stats_sort(v, n);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_mean(const double *v, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : NAN;
}

double stats_stddev(const double *v, int n)
{
	double m = stats_mean(v, n), ss = 0;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (n - 1));
}

int stats_ci_rank(int n, int *level_tenths)
{
	uint64_t limit, cum = 0, c = 1;	/* c = C(n, l) */
	int l;

	*level_tenths = 950;
	if (n > 50)
		return (int)((100.0 * n - floor(sqrt(38416.0 * n))) / 200);
	if (n < 1)
		return 0;
	limit = (1ULL << n) / 40;	/* 2.5% of 2^n */
	for (l = 0; l < n / 2; l++) {
		if (cum + c > limit)
			break;
		cum += c;
		c = c * (uint64_t)(n - l) / (uint64_t)(l + 1);
	}
	/* cum = P(X <= l - 1) * 2^n */
	if (l)
		*level_tenths = 1000 - (int)((2000 * cum + (1ULL << n) - 1) >> n);
	return l;
}

int stats_median_ci(double *v, int n, double *median, double *lo,
		    double *hi, double *level)
{
	int tenths, l;

	*median = stats_median(v, n);
	l = stats_ci_rank(n, &tenths);
	if (!l)
		return 0;
	*lo = v[l - 1];
	*hi = v[n - l];
	*level = tenths / 10.0;
	return 1;
}

double stats_spread(const double *v, int n)
{
	double mn, mx;
	int i;

	if (n <= 0)
		return 0;
	mn = mx = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < mn)
			mn = v[i];
		if (v[i] > mx)
			mx = v[i];
	}
	return mn > 0 ? 100.0 * (mx - mn) / mn : mx > 0 ? 100 : 0;
}

double stats_ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}
