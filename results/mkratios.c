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
 * -r HIT,MISS: the run-level standard deviation, in %, of a one-skb cell
 * and of the others (bench/times.conf run_sd, measured with REPEAT runs): what
 * moves every boot of a run alike, which the boots cannot show, added in
 * quadrature to the standard error over boots (docs/statistics.md);
 * column run_sd_pct.
 *
 * Each FILE holds the "paired ..." lines of one boot (bench/guest/
 * paired.sh; other lines are ignored; "-" is standard input).  For each
 * cell (filter, packet, skbs) and each pair A/B whose engines both ran in
 * it, every round gives one ratio t_A / t_B of two samples taken back to
 * back on the same skbs, and a boot gives the median of its rounds'
 * ratios.  The boot is the unit of replication (docs/statistics.md): with
 * two or more FILEs the row's ratio is the geometric mean of the boots'
 * medians with a 95% t-interval on their logs (n_boots - 1 degrees of
 * freedom; ci_over=boots); with one FILE it is that boot's median with the
 * distribution-free 95% CI of its rounds (ci_over=rounds: it holds for
 * that boot only).  boot_min, boot_max: the range of the boots' medians;
 * within_lo, within_hi: the order-statistics CI of every round of every
 * boot pooled, as if rounds were independent (a diagnostic, not a result).
 * A ratio above 1 means B is faster.  halfwidth_pct is half the CI's width
 * in % of the ratio (a true ratio that far from 1 is shown at 50% power);
 * apart80_pct how far another run's ratio of the same kind must lie for a
 * comparison of the two to tell them apart at 80% power (stats_apart_pct);
 * verdict is "no difference shown" when the CI contains 1.  mode_units,
 * mode_factor: the mixture test on the units the CI is over (stats_modes):
 * the units of the smaller of two modes and its median over the other's;
 * 0 and empty for one mode, both empty below STATS_MODE_MIN units.
 *
 * Pairs: the -p list, else the ratio records of bench/engines.conf
 * (those present in a cell).
 * -A prints each engine's ns per call instead, over boots as the ratios
 * are: the absolute figures, which drift with the machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paired.h"
#include "../lib/registry.h"
#include "../lib/stats.h"

#define MAX_PAIRS 64
#define EXTRA_MAX 4096

/* the -c columns: ",NAME..." for the header, ",VALUE..." for each row */
static char extra_head[EXTRA_MAX], extra_row[EXTRA_MAX];
/* -r: the run-level sd (%) of one-skb cells and of the others */
static double run_sd_pct[2];
/* -g: the code-layout variant of each FILE, as an index (NULL: one build) */
static int *layout_of;
static const char *layout_list;

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

struct pair {
	char a[PAIRED_NAME_MAX], b[PAIRED_NAME_MAX];
	int used;
};

static int parse_run_sd(const char *s)
{
	char *end;
	int i;

	for (i = 0; i < 2; i++) {
		run_sd_pct[i] = strtod(s, &end);
		if (end == s || !(run_sd_pct[i] >= 0 && run_sd_pct[i] <= 50))
			return -1;
		if (*end != (i ? '\0' : ','))
			return -1;
		s = end + 1;
	}
	return 0;
}


/*
 * -g LABEL,LABEL,...: one code-layout label per FILE (the seed the kernel
 * of that boot was relinked with); equal labels are one variant.
 */
static int parse_layouts(const char *s, int nboots)
{
	const char *p = s;
	int i, j;

	layout_of = calloc(nboots, sizeof(*layout_of));
	if (!layout_of)
		return -1;
	for (i = 0; i < nboots; i++) {
		size_t len = strcspn(p, ",");

		if (!len)
			return -1;
		layout_of[i] = i;
		for (j = 0; j < i; j++) {
			const char *q = s;
			int k;

			for (k = 0; k < j; k++)
				q += strcspn(q, ",") + 1;
			if (strcspn(q, ",") == len && !strncmp(q, p, len)) {
				layout_of[i] = layout_of[j];
				break;
			}
		}
		p += len;
		if (*p == ',')
			p++;
		else if (i != nboots - 1)
			return -1;
	}
	return *p ? -1 : 0;
}
static void usage(void)
{
	fprintf(stderr, "usage: mkratios [-s] [-a ACCEL] [-c NAME=VALUE]... [-r HIT_PCT,MISS_PCT] [-g LAYOUT,...] [-A | -p A/B ...] BOOT_FILE...\n");
	exit(2);
}

/* On @err (a parser's non-zero): "mkratios: " and @fmt about @arg, exit 2. */
static __attribute__((format(printf, 2, 0)))
void refuse_if(int err, const char *fmt, const char *arg)
{
	if (!err)
		return;
	fputs("mkratios: ", stderr);
	fprintf(stderr, fmt, arg);
	exit(2);
}

static int parse_pair(const char *s, struct pair *p)
{
	if (!reg_pair(s, p->a, p->b, PAIRED_NAME_MAX))
		return -1;
	p->used = 0;
	return strcmp(p->a, p->b) ? 0 : -1;
}

static void print_ci(int has_ci, double lo, double hi, double level,
		     const char *fmt)
{
	if (has_ci) {
		printf(",");
		printf(fmt, lo);
		printf(",");
		printf(fmt, hi);
		printf(",%.1f", level);
	} else {
		printf(",,,");
	}
}

/*
 * The figures of cell @key over the boots (stats_over_boots): per round
 * v_a / v_b, or v_a alone when @b is NULL.  @pool has room for every
 * round of every boot, @n for a count per boot.
 */
static void row_figures(const struct paired_data *boots, int nboots,
			const struct paired_cell *key, const char *a,
			const char *b, double *pool, size_t *n,
			struct stats_boots *rs)
{
	size_t k, at = 0;
	int i, ia, ib;

	for (i = 0; i < nboots; i++) {
		const struct paired_cell *c = paired_find(&boots[i], key);

		n[i] = 0;
		if (!c)
			continue;
		ia = paired_engine(c, a);
		ib = b ? paired_engine(c, b) : -1;
		if (ia < 0 || (b && ib < 0))
			continue;
		for (k = 0; k < c->nrounds; k++)
			pool[at++] = b ? c->rounds[k].v[ia] / c->rounds[k].v[ib] :
					 c->rounds[k].v[ia];
		n[i] = c->nrounds;
	}
	/*
	 * run_sd is a ratio's run-level spread; an engine's absolute ns move
	 * far more between runs (the machine's speed), which no fixed sd
	 * covers: its CI is for this run only (mktable says so)
	 */
	stats_over_boots(pool, n, layout_of, nboots, b ? run_sd_pct[key->skbs != 1] / 100 : 0, rs);
}

/* The columns every row ends with: boots, what the CI is over, diagnostics. */
static void print_tail(const struct stats_boots *rs, const char *fmt)
{
	printf(",%d,%s,%.2f,", rs->boots,
	       rs->layouts > 1 ? "layouts" : rs->boots > 1 ? "boots" : "rounds",
	       100 * rs->run_sd);
	printf(fmt, rs->boot_min);
	printf(",");
	printf(fmt, rs->boot_max);
	if (rs->has_within) {
		printf(",");
		printf(fmt, rs->within_lo);
		printf(",");
		printf(fmt, rs->within_hi);
	} else {
		printf(",,");
	}
	printf(",%d,", rs->layouts);
	if (!isnan(rs->sd_layout))
		printf("%.2f", 100 * rs->sd_layout);
	printf(",");
	if (!isnan(rs->sd_boot))
		printf("%.2f", 100 * rs->sd_boot);
	/* the mixture test: not run (too few units), one mode, or two */
	printf(",");
	if (rs->mode_tested)
		printf("%d", rs->mode_units);
	printf(",");
	if (rs->mode_units)
		printf("%.4f", rs->mode_factor);
}

static void ratio_rows(const char *accel, const struct paired_data *boots,
		       int nboots, const struct paired_cell *key,
		       struct pair *pairs, int npairs, double *pool,
		       size_t *n)
{
	struct stats_boots rs;
	const char *verdict;
	int i;

	for (i = 0; i < npairs; i++) {
		row_figures(boots, nboots, key, pairs[i].a, pairs[i].b, pool,
			    n, &rs);
		if (!rs.boots)
			continue;
		pairs[i].used = 1;
		printf("%s%s,%s,%s,%u,%s/%s,%.4f", accel, extra_row, key->filter,
		       key->packet, key->skbs, pairs[i].a, pairs[i].b, rs.value);
		print_ci(rs.has_ci, rs.lo, rs.hi, rs.level, "%.4f");
		if (!rs.has_ci)
			verdict = rs.boots > 1 ? "no CI" : "no CI (fewer than 6 rounds)";
		else if (rs.lo <= 1.0 && rs.hi >= 1.0)
			verdict = "no difference shown";
		else
			verdict = rs.value > 1.0 ? "faster" : "slower";
		printf(",%zu", rs.values);
		if (rs.has_ci)
			printf(",%.2f", 100.0 * (rs.hi - rs.lo) / 2 / rs.value);
		else
			printf(",");
		printf(",%s", verdict);
		print_tail(&rs, "%.4f");
		printf(",");
		if (!isnan(rs.apart80))
			printf("%.2f", rs.apart80);
		printf("\n");
	}
}

static void abs_rows(const char *accel, const struct paired_data *boots,
		     int nboots, const struct paired_cell *key, double *pool,
		     size_t *n)
{
	struct stats_boots rs;
	int e;

	for (e = 0; e < key->nengines; e++) {
		row_figures(boots, nboots, key, key->engine[e], NULL, pool, n,
			    &rs);
		printf("%s%s,%s,%s,%u,%s,%.3f", accel, extra_row, key->filter,
		       key->packet, key->skbs, key->engine[e], rs.value);
		print_ci(rs.has_ci, rs.lo, rs.hi, rs.level, "%.3f");
		printf(",%zu", rs.values);
		print_tail(&rs, "%.3f");
		printf("\n");
	}
}

/* Each cell of @boots once, in the order the boots first name them. */
static int cell_keys(const struct paired_data *boots, int nboots,
		     struct paired_data *keys)
{
	struct paired_cell *c;
	size_t k;
	int i;

	for (i = 0; i < nboots; i++) {
		for (k = 0; k < boots[i].ncells; k++) {
			if (paired_find(keys, &boots[i].cells[k]))
				continue;
			c = realloc(keys->cells, (keys->ncells + 1) * sizeof(*c));
			if (!c)
				return -1;
			keys->cells = c;
			c[keys->ncells] = boots[i].cells[k];
			c[keys->ncells].rounds = NULL;
			c[keys->ncells].nrounds = c[keys->ncells].cap = 0;
			keys->ncells++;
		}
	}
	return 0;
}

/*
 * The paired rounds of each of the @nboots files @names ("-": stdin); the
 * rounds of all in *@total.  NULL on an error, told.
 */
static struct paired_data *read_boots(char **names, int nboots, int strict,
				      size_t *total)
{
	struct paired_data *boots = calloc(nboots, sizeof(*boots));
	char err[512];
	size_t k;
	FILE *f;
	int i;

	if (!boots) {
		fprintf(stderr, "mkratios: out of memory\n");
		return NULL;
	}
	for (i = 0; i < nboots; i++) {
		const char *name = names[i];

		f = strcmp(name, "-") ? fopen(name, "r") : stdin;
		if (!f) {
			perror(name);
			return NULL;
		}
		boots[i].strict = strict;
		if (paired_read(f, name, &boots[i], err, sizeof(err))) {
			fprintf(stderr, "mkratios: %s\n", err);
			return NULL;
		}
		if (f != stdin)
			fclose(f);
		if (!boots[i].ncells) {
			fprintf(stderr, "mkratios: no paired rounds in %s\n", name);
			return NULL;
		}
		for (k = 0; k < boots[i].ncells; k++)
			*total += boots[i].cells[k].nrounds;
	}
	return boots;
}

int main(int argc, char **argv)
{
	struct pair pairs[MAX_PAIRS];
	const char *accel = "unknown";
	struct paired_data *boots, keys = { 0 };
	int npairs = 0, absolute = 0, strict = 0, explicit, opt, i, nboots;
	int ret = 0;
	size_t k, total = 0;
	double *pool;
	size_t *nb;

	while ((opt = getopt(argc, argv, "a:Ac:g:p:r:s")) != -1) {
		switch (opt) {
		case 'r':
			refuse_if(parse_run_sd(optarg),
				  "-r '%s' is not HIT_PCT,MISS_PCT (0..50 each)\n", optarg);
			break;
		case 'a':
			accel = optarg;
			break;
		case 'g':
			layout_list = optarg;
			break;
		case 'c':
			refuse_if(add_column(optarg), "column '%s' is not NAME=VALUE\n", optarg);
			break;
		case 'A':
			absolute = 1;
			break;
		case 's':
			strict = 1;
			break;
		case 'p':
			if (npairs == MAX_PAIRS) {
				fprintf(stderr, "mkratios: more than %d pairs\n",
					MAX_PAIRS);
				return 2;
			}
			refuse_if(parse_pair(optarg, &pairs[npairs++]),
				  "pair '%s' is not ENGINE/OTHER_ENGINE\n", optarg);
			break;
		default:
			usage();
		}
	}
	if (optind == argc || (absolute && npairs))
		usage();
	nboots = argc - optind;
	if (nboots > STATS_MAX_BOOTS) {
		fprintf(stderr, "mkratios: %d boots, at most %d\n", nboots,
			STATS_MAX_BOOTS);
		return 2;
	}
	if (layout_list && parse_layouts(layout_list, nboots)) {
		fprintf(stderr, "mkratios: -g '%s' is not one layout label per file (%d, comma-separated)\n",
			layout_list, nboots);
		return 2;
	}
	explicit = npairs > 0;
	if (!npairs && !absolute) {
		for (i = 0; i < reg_ratios()->n && npairs < MAX_PAIRS; i++)
			refuse_if(parse_pair(reg_ratios()->rec[i].name, &pairs[npairs++]),
				  "ratio record '%s' is not ENGINE/OTHER_ENGINE\n",
				  reg_ratios()->rec[i].name);
	}

	boots = read_boots(argv + optind, nboots, strict, &total);
	if (!boots)
		return 1;
	pool = malloc((total + 1) * sizeof(*pool));
	nb = calloc(nboots, sizeof(*nb));
	if (!pool || !nb || cell_keys(boots, nboots, &keys)) {
		fprintf(stderr, "mkratios: out of memory\n");
		return 1;
	}

	if (absolute)
		printf("accel%s,filter,packet,skbs,engine,median,ci_lo,ci_hi,ci_level,samples",
		       extra_head);
	else
		printf("accel%s,filter,packet,skbs,pair,ratio,ci_lo,ci_hi,ci_level,rounds,halfwidth_pct,verdict",
		       extra_head);
	printf(",boots,ci_over,run_sd_pct,boot_min,boot_max,within_lo,within_hi,layouts,sd_layout_pct,sd_boot_pct,mode_units,mode_factor%s\n", absolute ? "" : ",apart80_pct");
	for (k = 0; k < keys.ncells; k++) {
		if (absolute)
			abs_rows(accel, boots, nboots, &keys.cells[k], pool, nb);
		else
			ratio_rows(accel, boots, nboots, &keys.cells[k], pairs,
				   npairs, pool, nb);
	}
	/* a pair asked for by name that no cell ran is an error */
	for (i = 0; explicit && i < npairs; i++) {
		if (!pairs[i].used) {
			fprintf(stderr, "mkratios: no cell ran both %s and %s\n",
				pairs[i].a, pairs[i].b);
			ret = 1;
		}
	}
	free(pool);
	free(nb);
	free(keys.cells);
	for (i = 0; i < nboots; i++)
		paired_free(&boots[i]);
	free(boots);
	return ret;
}
