// SPDX-License-Identifier: GPL-2.0
/* The host tools' statistics (stats.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Two-sided 95% quantiles of Student's t, df = 1..30. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double stats_t975(int df)
{
	const double z = 1.959964;
	double d = df;

	if (df < 1)
		return NAN;
	if (df <= (int)(sizeof(t975) / sizeof(*t975)))
		return t975[df - 1];
	/* Cornish-Fisher expansion: within 0.001 of the exact value above 30 */
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

int stats_logmean_ci(const double *v, int n, double run_sd, double *mean,
		     double *lo, double *hi)
{
	double l[STATS_MAX_BOOTS], m, h;
	int i;

	*mean = NAN;
	if (n < 1 || n > STATS_MAX_BOOTS)
		return 0;
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return 0;
		l[i] = log(v[i]);
	}
	m = stats_mean(l, n);
	*mean = exp(m);
	if (n < 2)
		return 0;
	h = stats_stddev(l, n);
	h = stats_t975(n - 1) * sqrt(h * h / n + run_sd * run_sd);
	*lo = exp(m - h);
	*hi = exp(m + h);
	return 1;
}

void stats_over_boots(double *v, const size_t *n, const int *group, int nboots,
		      double run_sd, struct stats_boots *o)
{
	double med[STATS_MAX_BOOTS], gsum[STATS_MAX_BOOTS], gmean[STATS_MAX_BOOTS];
	double m, lo, hi, level, ss = 0;
	int gid[STATS_MAX_BOOTS], gn[STATS_MAX_BOOTS], g[STATS_MAX_BOOTS];
	size_t at = 0;
	int i, j, ci, df = 0;

	memset(o, 0, sizeof(*o));
	o->sd_layout = NAN;
	o->sd_boot = NAN;
	o->mode_factor = NAN;
	o->apart80 = NAN;
	for (i = 0; i < nboots && i < STATS_MAX_BOOTS; i++) {
		if (!n[i])
			continue;
		ci = stats_median_ci(v + at, (int)n[i], &m, &lo, &hi, &level);
		at += n[i];
		if (!o->boots || m < o->boot_min)
			o->boot_min = m;
		if (!o->boots || m > o->boot_max)
			o->boot_max = m;
		if (!o->boots) {
			o->value = m;
			o->has_ci = ci;
			o->lo = ci ? lo : 0;
			o->hi = ci ? hi : 0;
			o->level = ci ? level : 0;
		}
		/* the boot's variant: a group index in order of appearance */
		for (j = 0; j < o->layouts && gid[j] != (group ? group[i] : 0); j++)
			;
		if (j == o->layouts) {
			gid[o->layouts++] = group ? group[i] : 0;
			gsum[j] = 0;
			gn[j] = 0;
		}
		g[o->boots] = j;
		gsum[j] += m > 0 ? log(m) : NAN;
		gn[j]++;
		med[o->boots++] = m;
	}
	o->values = at;
	if (!o->boots)
		return;
	o->has_within = stats_median_ci(v, (int)at, &m, &o->within_lo,
					&o->within_hi, &level);
	for (j = 0; j < o->layouts; j++)
		gmean[j] = gsum[j] / gn[j];
	for (i = 0; i < o->boots; i++) {
		double d = log(med[i]) - gmean[g[i]];

		ss += d * d;
	}
	df = o->boots - o->layouts;
	if (df > 0)
		o->sd_boot = sqrt(ss / df);
	if (o->layouts > 1) {
		/* the variants are the unit: their means' t-interval */
		for (j = 0; j < o->layouts; j++)
			gmean[j] = exp(gmean[j]);
		o->has_ci = stats_logmean_ci(gmean, o->layouts, run_sd, &o->value,
					     &o->lo, &o->hi);
		for (j = 0; j < o->layouts; j++)
			gmean[j] = log(gmean[j]);
		o->sd_layout = stats_stddev(gmean, o->layouts);
		o->run_sd = run_sd;
		o->level = 95.0;
	} else if (o->boots > 1) {
		o->has_ci = stats_logmean_ci(med, o->boots, run_sd, &o->value,
					     &o->lo, &o->hi);
		o->run_sd = run_sd;
		o->level = 95.0;
	}
	/* the units the CI is over: the variants' means, else the boots' medians */
	o->units = o->layouts > 1 ? o->layouts : o->boots;
	for (j = 0; j < o->units; j++)
		gmean[j] = o->layouts > 1 ? gmean[j] : med[j] > 0 ? log(med[j]) : NAN;
	for (j = 0; j < o->units && !isnan(gmean[j]); j++)
		;
	if (j == o->units)
		o->mode_tested = stats_modes(gmean, o->units, &o->mode_units,
						 &o->mode_factor) >= 0;
	if (o->has_ci)
		o->apart80 = stats_apart_pct(o->lo, o->hi, o->units > 1 ? o->units - 1 : 0);
}

/*
 * The continued fraction of I_x(a, b) (the modified Lentz method), which
 * converges fast for x < (a + 1) / (a + b + 2).
 */
static double ibeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, step;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 300; m++) {
		/* the even term, then the odd one */
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = fabs(c) < tiny ? tiny : c;
		f *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = fabs(c) < tiny ? tiny : c;
		step = d * c;
		f *= step;
		if (fabs(step - 1) < 1e-14)
			break;
	}
	return f;
}

double stats_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * ibeta_cf(a, b, x) / a;
	return 1 - front * ibeta_cf(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_ibeta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_q2(double alpha, double df)
{
	double lo = 0, hi = 1;
	int i;

	if (!(alpha > 0 && alpha < 1) || !(df > 0))
		return NAN;
	while (stats_t_p2(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_p2(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void stats_holm(const double *p, int n, double *adj)
{
	int *idx = malloc(sizeof(*idx) * (n > 0 ? n : 1));
	double run = 0;
	int i, j, m;

	if (!idx)
		abort();
	for (i = 0, m = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	/* the p-values in ascending order (insertion sort: tables are small) */
	for (i = 1; i < m; i++) {
		int k = idx[i];

		for (j = i; j > 0 && p[idx[j - 1]] > p[k]; j--)
			idx[j] = idx[j - 1];
		idx[j] = k;
	}
	for (i = 0; i < m; i++) {
		double q = (m - i) * p[idx[i]];

		if (q > run)
			run = q;
		adj[idx[i]] = run < 1 ? run : 1;
	}
	free(idx);
}

int stats_blocked_log(const double *d, int n, struct stats_blocked *o)
{
	double m, se, h;

	memset(o, 0, sizeof(*o));
	o->blocks = n;
	o->ratio = n > 0 ? exp(stats_mean(d, n)) : NAN;
	if (n < 2)
		return 0;
	m = stats_mean(d, n);
	o->sd = stats_stddev(d, n);
	se = o->sd / sqrt(n);
	if (se == 0) {
		o->t = m == 0 ? 0 : m > 0 ? INFINITY : -INFINITY;
		o->p = m == 0 ? 1 : 0;
		o->lo = o->hi = o->ratio;
		return 1;
	}
	o->t = m / se;
	o->p = stats_t_p2(o->t, n - 1);
	h = stats_t975(n - 1) * se;
	o->lo = exp(m - h);
	o->hi = exp(m + h);
	return 1;
}

double stats_detectable_pct(double sd, int n, double alpha, double power)
{
	double d;

	if (n < 2 || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	/* t(power), one-sided: the two-sided quantile of 2 (1 - power) */
	d = (stats_t_q2(alpha, n - 1) + stats_t_q2(2 * (1 - power), n - 1)) * sd / sqrt(n);
	return 100 * (exp(d) - 1);
}

int stats_modes(const double *x, int n, int *minor, double *factor)
{
	double v[STATS_MAX_BOOTS], gap = -1, ml = 0, mu = 0, ss = 0, s;
	int i, nl, nu;

	*minor = 0;
	*factor = NAN;
	if (n < STATS_MODE_MIN || n > STATS_MAX_BOOTS)
		return -1;
	memcpy(v, x, n * sizeof(*v));
	stats_sort(v, n);
	/* the largest gap between neighbours: v[0..nl-1] below it */
	for (nl = 1, i = 0; i < n - 1; i++) {
		if (v[i + 1] - v[i] > gap) {
			gap = v[i + 1] - v[i];
			nl = i + 1;
		}
	}
	nu = n - nl;
	ml = stats_mean(v, nl);
	mu = stats_mean(v + nl, nu);
	for (i = 0; i < n; i++)
		ss += (v[i] - (i < nl ? ml : mu)) * (v[i] - (i < nl ? ml : mu));
	s = sqrt(ss / (n - 2));
	if (s < STATS_MODE_FLOOR)
		s = STATS_MODE_FLOOR;
	if (!(gap > STATS_MODE_K * s))
		return 0;
	/* the smaller side (the upper one on a tie) against the other */
	ml = stats_median(v, nl);
	mu = stats_median(v + nl, nu);
	*minor = nu <= nl ? nu : nl;
	*factor = exp(nu <= nl ? mu - ml : ml - mu);
	return 1;
}

double stats_apart_pct(double lo, double hi, int df)
{
	double se, d;

	if (!(lo > 0 && hi >= lo) || df < 0)
		return NAN;
	if (!df) {
		se = log(hi / lo) / (2 * 1.959964);
		d = (1.959964 + 0.841621) * sqrt(2) * se;
	} else {
		se = log(hi / lo) / (2 * stats_t975(df));
		d = (stats_t_q2(0.05, 2 * df) + stats_t_q2(0.4, 2 * df)) * sqrt(2) * se;
	}
	return 100 * (exp(d) - 1);
}

static uint64_t rng_state = 1;

void stats_rng_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1;
}

double stats_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}

double stats_normal(void)
{
	return sqrt(-2 * log(stats_uniform())) * cos(2 * M_PI * stats_uniform());
}

int stats_arg(const char *s, double min, double max, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return *end || end == s || !(*v >= min && *v <= max) ? -1 : 0;
}
