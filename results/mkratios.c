// SPDX-License-Identifier: GPL-2.0
/*
 * mkratios - engine ratios from paired, interleaved rounds.
 *
 *   mkratios [-a ACCEL] [-p A/B]... FILE...   ratio rows
 *   mkratios [-a ACCEL] -A FILE...            per-engine absolute rows
 *
 * -s: every non-empty line of FILE must be a "paired ..." line (the
 * tables stage: a garbled paired.txt is an error, not fewer rounds).
 * -c NAME=VALUE (repeatable) adds a column NAME after accel with VALUE on
 * every row (the tables stage: kind, unit, cpu, kernel, config).
 *
 * FILE holds the "paired ..." lines of bench/guest/paired.sh (other lines
 * are ignored; "-" is standard input).  For each cell (filter, packet,
 * skbs) and each pair A/B whose engines both ran in it, every round gives
 * one ratio t_A / t_B of two samples taken back to back on the same skbs;
 * the row is the median of those ratios over all rounds and placements,
 * with the 95% distribution-free CI of that median (order statistics, the
 * rule of the module's medians).  A ratio above 1 means B is faster.
 * halfwidth_pct, half the CI's width in % of the ratio, is the smallest
 * difference the cell could tell apart; verdict is "no difference shown"
 * when the CI contains 1.
 *
 * Pairs: the -p list, else old/new, new/jit, old/jit, oldjit/jit,
 * old/oldjit, new2014/new, old/new2014 (those present in a cell).
 * -A prints each engine's median ns per call and its CI instead: the
 * absolute figures, which drift with the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paired.h"

#define MAX_PAIRS 64
#define EXTRA_MAX 4096

/* the -c columns: ",NAME..." for the header, ",VALUE..." for each row */
static char extra_head[EXTRA_MAX], extra_row[EXTRA_MAX];

static int add_column(const char *s)
{
	const char *eq = strchr(s, '=');
	size_t h = strlen(extra_head), r = strlen(extra_row);
	int quote;

	if (!eq || eq == s || memchr(s, ',', (size_t)(eq - s)))
		return -1;
	quote = strpbrk(eq + 1, ",\"") != NULL;
	if (h + (size_t)(eq - s) + 2 > EXTRA_MAX || r + 2 * strlen(eq) + 4 > EXTRA_MAX)
		return -1;
	snprintf(extra_head + h, EXTRA_MAX - h, ",%.*s", (int)(eq - s), s);
	extra_row[r++] = ',';
	if (quote)
		extra_row[r++] = '"';
	for (s = eq + 1; *s; s++) {
		if (*s == '"')
			extra_row[r++] = '"';
		extra_row[r++] = *s;
	}
	if (quote)
		extra_row[r++] = '"';
	extra_row[r] = '\0';
	return 0;
}

static const char *const default_pairs[] = {
	"old/new", "new/jit", "old/jit", "oldjit/jit", "old/oldjit",
	"new2014/new", "old/new2014",
};

struct pair {
	char a[PAIRED_NAME_MAX], b[PAIRED_NAME_MAX];
	int used;
};

static void usage(void)
{
	fprintf(stderr, "usage: mkratios [-s] [-a ACCEL] [-c NAME=VALUE]... [-A | -p A/B ...] FILE...\n");
	exit(2);
}

static int parse_pair(const char *s, struct pair *p)
{
	const char *slash = strchr(s, '/');
	size_t la;

	if (!slash || slash == s || !slash[1] || strchr(slash + 1, '/'))
		return -1;
	la = (size_t)(slash - s);
	if (la >= PAIRED_NAME_MAX || strlen(slash + 1) >= PAIRED_NAME_MAX)
		return -1;
	memcpy(p->a, s, la);
	p->a[la] = '\0';
	strcpy(p->b, slash + 1);
	p->used = 0;
	return strcmp(p->a, p->b) ? 0 : -1;
}

static void print_ci(const struct paired_stat *st, const char *fmt)
{
	if (st->has_ci) {
		printf(",");
		printf(fmt, st->lo);
		printf(",");
		printf(fmt, st->hi);
		printf(",%.1f", st->level);
	} else {
		printf(",,,");
	}
}

static void ratio_rows(const char *accel, const struct paired_cell *c,
		       struct pair *pairs, int npairs, double *buf)
{
	struct paired_stat st;
	const char *verdict;
	int i, a, b;
	size_t k;

	for (i = 0; i < npairs; i++) {
		a = paired_engine(c, pairs[i].a);
		b = paired_engine(c, pairs[i].b);
		if (a < 0 || b < 0)
			continue;
		pairs[i].used = 1;
		for (k = 0; k < c->nrounds; k++)
			buf[k] = c->rounds[k].v[a] / c->rounds[k].v[b];
		paired_median_ci(buf, c->nrounds, &st);
		printf("%s%s,%s,%s,%u,%s/%s,%.4f", accel, extra_row, c->filter, c->packet,
		       c->skbs, pairs[i].a, pairs[i].b, st.median);
		print_ci(&st, "%.4f");
		if (!st.has_ci)
			verdict = "no CI (fewer than 6 rounds)";
		else if (st.lo <= 1.0 && st.hi >= 1.0)
			verdict = "no difference shown";
		else
			verdict = st.median > 1.0 ? "faster" : "slower";
		printf(",%zu", c->nrounds);
		if (st.has_ci)
			printf(",%.2f", 100.0 * (st.hi - st.lo) / 2 / st.median);
		else
			printf(",");
		printf(",%s\n", verdict);
	}
}

static void abs_rows(const char *accel, const struct paired_cell *c,
		     double *buf)
{
	struct paired_stat st;
	size_t k;
	int e;

	for (e = 0; e < c->nengines; e++) {
		for (k = 0; k < c->nrounds; k++)
			buf[k] = c->rounds[k].v[e];
		paired_median_ci(buf, c->nrounds, &st);
		printf("%s%s,%s,%s,%u,%s,%.3f", accel, extra_row, c->filter, c->packet,
		       c->skbs, c->engine[e], st.median);
		print_ci(&st, "%.3f");
		printf(",%zu\n", c->nrounds);
	}
}

int main(int argc, char **argv)
{
	struct pair pairs[MAX_PAIRS];
	const char *accel = "unknown";
	struct paired_data d = { 0 };
	int npairs = 0, absolute = 0, explicit, opt, i, ret = 0;
	size_t k, most = 0;
	char err[512];
	double *buf;
	FILE *f;

	while ((opt = getopt(argc, argv, "a:Ac:p:s")) != -1) {
		switch (opt) {
		case 'a':
			accel = optarg;
			break;
		case 'c':
			if (add_column(optarg)) {
				fprintf(stderr, "mkratios: column '%s' is not NAME=VALUE\n",
					optarg);
				return 2;
			}
			break;
		case 'A':
			absolute = 1;
			break;
		case 's':
			d.strict = 1;
			break;
		case 'p':
			if (npairs == MAX_PAIRS) {
				fprintf(stderr, "mkratios: more than %d pairs\n",
					MAX_PAIRS);
				return 2;
			}
			if (parse_pair(optarg, &pairs[npairs])) {
				fprintf(stderr, "mkratios: pair '%s' is not ENGINE/OTHER_ENGINE\n",
					optarg);
				return 2;
			}
			npairs++;
			break;
		default:
			usage();
		}
	}
	if (optind == argc || (absolute && npairs))
		usage();
	explicit = npairs > 0;
	if (!npairs && !absolute) {
		for (i = 0; i < (int)(sizeof(default_pairs) / sizeof(*default_pairs)); i++)
			if (parse_pair(default_pairs[i], &pairs[npairs++]))
				return 2;
	}

	for (i = optind; i < argc; i++) {
		f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		if (paired_read(f, argv[i], &d, err, sizeof(err))) {
			fprintf(stderr, "mkratios: %s\n", err);
			return 1;
		}
		if (f != stdin)
			fclose(f);
	}
	if (!d.ncells) {
		fprintf(stderr, "mkratios: no paired rounds in %s%s\n", argv[optind],
			argc - optind > 1 ? " ..." : "");
		return 1;
	}
	for (k = 0; k < d.ncells; k++)
		if (d.cells[k].nrounds > most)
			most = d.cells[k].nrounds;
	buf = malloc(most * sizeof(*buf));
	if (!buf) {
		fprintf(stderr, "mkratios: out of memory\n");
		return 1;
	}

	if (absolute)
		printf("accel%s,filter,packet,skbs,engine,median,ci_lo,ci_hi,ci_level,samples\n",
		       extra_head);
	else
		printf("accel%s,filter,packet,skbs,pair,ratio,ci_lo,ci_hi,ci_level,rounds,halfwidth_pct,verdict\n",
		       extra_head);
	for (k = 0; k < d.ncells; k++) {
		if (absolute)
			abs_rows(accel, &d.cells[k], buf);
		else
			ratio_rows(accel, &d.cells[k], pairs, npairs, buf);
	}
	/* a pair asked for by name that no cell ran is an error */
	for (i = 0; explicit && i < npairs; i++) {
		if (!pairs[i].used) {
			fprintf(stderr, "mkratios: no cell ran both %s and %s\n",
				pairs[i].a, pairs[i].b);
			ret = 1;
		}
	}
	free(buf);
	paired_free(&d);
	return ret;
}
