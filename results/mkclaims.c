// SPDX-License-Identifier: GPL-2.0
/*
 * mkclaims - the ratios of a run's medians, the claims of commit
 * bd4cf0ed331a re-tested on it, and the old/new ratio split into the 2014
 * design and the conversion since, as data for every rendering (table.txt,
 * the plots, the cover letter, the README).
 *
 *   mkclaims RUN_DIR
 *
 * Reads RUN_DIR/results.csv and ratios.csv (when there) and the ratio,
 * claim, split and cell records of bench/engines.conf; writes
 * RUN_DIR/median-ratios.csv (one row per accelerator, engine pair and
 * cell: the ratio of the two medians, the one place it is formed),
 * claims.csv (one row per accelerator, claim and cell: the 2014 figure,
 * ours with its CI, the verdict and what it rests on) and
 * decomposition.csv (one row per accelerator, split and cell),
 * layouts.csv (each figure over code layouts), against.csv (an
 * accelerator's figures against another's, accels.conf against) and
 * validation.csv (the model's ratios on each core against uml's measured
 * ones and the instruction count's).  The columns: docs/results.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/layouts.h"
#include "../lib/registry.h"
#include "../lib/run.h"
#include "../lib/stats.h"

static struct run run;

/* One row of claims.csv. */
struct claim {
	const char *accel, *claim;
	char text[160], cell[64], ref[32], basis[400];
	const char *verdict;
	double value, lo, hi;
	int has_value, has_ci;
};

static FILE *out;

/*
 * Over the code layouts (layouts.h): where the run has code-layout runs of
 * an accelerator, each claim row is judged on the kernel as built and on
 * every variant; the range of its figure, the verdicts and how many
 * layouts gave each go into the layout columns, and a verdict that is not
 * the same in every layout becomes "depends on the layout".
 */
static struct layouts lays;

struct over {
	int n;			/* layouts judged (0: none but the build) */
	double lo, hi;		/* the figure's range over them */
	int has_range;
	double logsum;		/* the sum of the figure's logs, where > 0 */
	int npos;		/* how many figures were > 0 */
	char verdicts[128];	/* "reversed 7, holds 2" */
	const char *verdict;
};

/* How many rows of @c's accel, claim and cell were emitted before it. */
static int occurrence(const struct claim *c)
{
	static char (*seen)[256];
	static int nseen;
	char key[256];
	int i, occ = 0;

	snprintf(key, sizeof(key), "%s\037%s\037%s", c->accel, c->claim, c->cell);
	for (i = 0; i < nseen; i++)
		occ += !strcmp(seen[i], key);
	seen = realloc(seen, (nseen + 1) * sizeof(*seen));
	if (!seen) {
		perror("mkclaims");
		exit(1);
	}
	snprintf(seen[nseen++], sizeof(*seen), "%s", key);
	return occ;
}

static void over_add(struct over *o, const char *verdict, const char *value,
		     const char **words, int *count, int *nwords)
{
	int w;

	o->n++;
	if (*value) {
		double v = atof(value);

		o->lo = o->has_range ? fmin(o->lo, v) : v;
		o->hi = o->has_range ? fmax(o->hi, v) : v;
		o->has_range = 1;
		if (v > 0) {
			o->logsum += log(v);
			o->npos++;
		}
	}
	for (w = 0; w < *nwords && strcmp(words[w], verdict); w++)
		;
	if (w == *nwords)
		words[(*nwords)++] = verdict;
	count[w]++;
}

static void over_layouts(const struct claim *c, struct over *o)
{
	const char *words[LAYOUTS_MAX + 1];
	int count[LAYOUTS_MAX + 1] = { 0 }, nwords = 0, occ = occurrence(c), i, w;
	char value[32] = "";
	size_t used = 0;

	memset(o, 0, sizeof(*o));
	o->verdict = c->verdict;
	if (c->has_value)
		snprintf(value, sizeof(value), "%.6g", c->value);
	over_add(o, c->verdict, value, words, count, &nwords);
	for (i = 0; i < lays.n; i++) {
		const struct csv_row *r = layouts_claim(&lays, i, c->accel, c->claim, c->cell, occ);

		if (r)
			over_add(o, csv_get(&lays.claims[i], r, "verdict"),
				 csv_get(&lays.claims[i], r, "value"), words, count, &nwords);
	}
	if (o->n == 1) {
		o->n = 0;
		return;
	}
	for (w = 0; w < nwords && used < sizeof(o->verdicts); w++)
		used += snprintf(o->verdicts + used, sizeof(o->verdicts) - used, "%s%s %d",
				 w ? ", " : "", words[w], count[w]);
	if (nwords > 1)
		o->verdict = "depends on the layout";
}

static const char *res(const struct csv_row *r, const char *col)
{
	return csv_get(&run.results, r, col);
}

static const char *rat(const struct csv_row *r, const char *col)
{
	return csv_get(&run.ratios, r, col);
}

static double median(const struct csv_row *r)
{
	return r ? atof(res(r, "median")) : 0;
}

/* Fields up to a NULL, each followed by a comma. */
static void put_fields(const char *const *f)
{
	while (*f)
		csv_put(out, *f++, 0);
}

static void put_num(double v, int has, int last)
{
	char buf[32] = "";

	if (has)
		snprintf(buf, sizeof(buf), "%.6g", v);
	csv_put(out, buf, last);
}

static void emit(const struct claim *c)
{
	const struct csv_row *any = run_accel_row(&run, c->accel);
	const char *kind = res(any, "kind");
	/* a kind that tests a path (accels.conf test 1) measures nothing */
	int test = kind_flag(kind, "test");
	char why[160], basis[480], n[16] = "";
	double value = c->value;
	struct over o;

	over_layouts(c, &o);
	snprintf(basis, sizeof(basis), "%s", c->basis);
	if (o.n) {
		size_t len = strlen(basis);

		snprintf(n, sizeof(n), "%d", o.n);
		if (o.has_range && o.lo == o.hi)
			snprintf(basis + len, sizeof(basis) - len, "; the same in %d code layouts", o.n);
		else if (o.has_range && o.npos == o.n && c->has_value) {
			/*
			 * The figure of a run over code layouts is their
			 * geometric mean, as uml's over its variants and the
			 * model's in validation.csv; the build's beside it.
			 */
			value = exp(o.logsum / o.npos);
			snprintf(basis + len, sizeof(basis) - len,
				 "; geometric mean over %d code layouts, %.3g to %.3g (as built %.3g)",
				 o.n, o.lo, o.hi, c->value);
		} else if (o.has_range)
			snprintf(basis + len, sizeof(basis) - len, "; %d code layouts: %.3g to %.3g",
				 o.n, o.lo, o.hi);
	}
	snprintf(why, sizeof(why), "kind %s: a test of the path, not a measurement", kind);
	put_fields((const char *const[]){ c->accel, res(any, "kind"), res(any, "flavour"),
				c->claim, c->text, c->cell, *c->ref ? c->ref : "-",
				NULL });
	put_num(value, c->has_value, 0);
	put_num(c->lo, c->has_ci, 0);
	put_num(c->hi, c->has_ci, 0);
	csv_put(out, test ? "not measurable" : o.verdict, 0);
	csv_put(out, test ? why : basis, 0);
	csv_put(out, n, 0);
	put_num(o.lo, o.n && o.has_range, 0);
	put_num(o.hi, o.n && o.has_range, 0);
	csv_put(out, o.verdicts, 0);
	/* the figure read the other way (t_B / t_A: "new takes 2.1x old's time") */
	put_num(1 / value, c->has_value && value > 0, 1);
}

/* The verdict on a ratio A/B (the claim: B faster) and its CI. */
static const char *verdict(double v, int has_ci, double lo, double hi)
{
	if (!has_ci)
		return v > 1.0 ? "holds" : v < 1.0 ? "reversed" : "no difference shown";
	if (lo > 1.0)
		return "holds";
	if (hi < 1.0)
		return "reversed";
	return "no difference shown";
}

static void set_ratio(struct claim *c, const struct csv_row *r)
{
	c->value = atof(rat(r, "ratio"));
	c->has_value = 1;
	c->has_ci = run_ci(&run.ratios, r, &c->lo, &c->hi);
}

static const char *mrat(const struct csv_row *r, const char *col)
{
	return csv_get(&run.mratios, r, col);
}

/* The row of a typed paired ratio (ratios.csv), or NULL. */
static const struct csv_row *prow(const char *accel, const char *pair,
				  const char *filter, const char *skbs)
{
	const struct run_quot *q = run_quot(&run, accel, "bench", pair, filter, skbs);

	return q ? q->paired.row : NULL;
}

/* The row of a typed ratio of two medians (median-ratios.csv), or NULL. */
static const struct csv_row *mrow(const char *accel, const char *tag, const char *pair,
				  const char *filter, const char *skbs)
{
	const struct run_quot *q = run_quot(&run, accel, tag, pair, filter, skbs);

	return q ? q->medians.row : NULL;
}

static const struct reg_rec *cell_rec(const char *name)
{
	const struct reg_rec *cell = reg_find(reg_cells(), name, 0);

	if (!cell) {
		fprintf(stderr, "mkclaims: no cell record '%s' in engines.conf\n", name);
		exit(1);
	}
	return cell;
}

/*
 * Whether a claim on @accel may be judged from paired row @r; @basis gets
 * what the row's CI is over.  A timed accelerator's claim needs a CI over
 * boots (or code layouts): one boot's interval says how precisely that
 * boot measured, not where the next lands, and a point value says
 * nothing of its spread.
 */
static int judgeable(const char *accel, const struct csv_row *r, char *basis, size_t n)
{
	const char *over = csv_has(&run.ratios, "ci_over") ? rat(r, "ci_over") : "rounds";
	double lo, hi;
	char what[128];

	snprintf(basis, n, "CI %s", run_ci_over(&run.ratios, r, what, sizeof(what)));
	if (!run_accel_timed(&run, accel))
		return 1;
	if (!run_ci(&run.ratios, r, &lo, &hi)) {
		snprintf(basis, n, "timed, no CI");
		return 0;
	}
	if (strcmp(over, "boots") && strcmp(over, "layouts")) {
		snprintf(basis, n, "timed, one boot: its CI is within that boot (BOOTS)");
		return 0;
	}
	return 1;
}

/* kind ratio: the paired ratio PAIR in every cell. */
static void claim_ratio(const char *accel, const char *flavour,
			const struct reg_rec *rec)
{
	const char *pair = reg_get(rec, "pair");
	const struct reg_rec *rr = reg_find(reg_ratios(), pair, 0);
	int c, ncells = reg_cells()->n, nref;
	char ref[REG_MAX][32];

	nref = rr ? reg_ref(rr, "ref2014", flavour, ref, REG_MAX) : 0;
	for (c = 0; c < ncells; c++) {
		const struct reg_rec *cell = &reg_cells()->rec[c];
		struct claim cl = { .accel = accel, .claim = rec->name };
		const struct csv_row *r = prow(accel, pair,
						    reg_get(cell, "filter"),
						    reg_get(cell, "skbs"));

		snprintf(cl.text, sizeof(cl.text), "%s, %s %s", reg_get(rec, "text"),
			 reg_get(cell, "head"), reg_get(cell, "sub"));
		snprintf(cl.cell, sizeof(cl.cell), "%s", cell->name);
		snprintf(cl.ref, sizeof(cl.ref), "%.31s", nref == ncells ? ref[c] : "-");
		if (!r) {
			cl.verdict = "not measurable";
			snprintf(cl.basis, sizeof(cl.basis), "no paired %s cell", pair);
		} else {
			set_ratio(&cl, r);
			cl.verdict = !judgeable(accel, r, cl.basis, sizeof(cl.basis)) ?
				     "not measurable" : verdict(cl.value, cl.has_ci, cl.lo, cl.hi);
		}
		emit(&cl);
	}
}

/* The smallest 2014 ratio (fastest of the ref_num engines) / ref_den. */
static void weakest_ref(char *buf, size_t n, const char *flavour,
			const struct reg_rec *rec)
{
	char num[REG_MAX][32], ref[REG_MAX][32], den[REG_MAX][32];
	int ncells = reg_cells()->n, nnum, e, c;
	const struct reg_rec *d = reg_find(reg_engines(), reg_get(rec, "ref_den"), 0);
	double best = 0;

	snprintf(buf, n, "-");
	nnum = reg_words(rec, "ref_num", num, REG_MAX);
	if (!d || !nnum || reg_ref(d, "ref2014", flavour, den, REG_MAX) != ncells)
		return;
	for (c = 0; c < ncells; c++) {
		double fastest = 0;

		for (e = 0; e < nnum; e++) {
			const struct reg_rec *r = reg_find(reg_engines(), num[e], 0);

			if (!r || reg_ref(r, "ref2014", flavour, ref, REG_MAX) != ncells)
				return;
			if (!fastest || atof(ref[c]) < fastest)
				fastest = atof(ref[c]);
		}
		if (atof(den[c]) > 0 && (!best || fastest / atof(den[c]) < best))
			best = fastest / atof(den[c]);
	}
	if (best)
		snprintf(buf, n, ">=%.1fx", best);
}

/* kind weakest: the smallest paired ratio over PAIRS and the cells. */
static void claim_weakest(const char *accel, const char *flavour,
			  const struct reg_rec *rec)
{
	struct claim cl = { .accel = accel, .claim = rec->name, .verdict = "holds" };
	char pairs[REG_MAX][32];
	const struct csv_row *weak = NULL;
	int npairs = reg_words(rec, "pairs", pairs, REG_MAX), p, c, rows = 0;
	double lo, hi;
	char over[96];

	snprintf(cl.text, sizeof(cl.text), "%s", reg_get(rec, "text"));
	weakest_ref(cl.ref, sizeof(cl.ref), flavour, rec);
	for (p = 0; p < npairs; p++)
		for (c = 0; c < reg_cells()->n; c++) {
			const struct reg_rec *cell = &reg_cells()->rec[c];
			const struct csv_row *r = prow(accel, pairs[p],
							    reg_get(cell, "filter"),
							    reg_get(cell, "skbs"));

			if (!r)
				continue;
			rows++;
			if (!weak || atof(rat(r, "ratio")) < atof(rat(weak, "ratio"))) {
				weak = r;
				snprintf(cl.cell, sizeof(cl.cell), "%s", cell->name);
			}
			if (!run_ci(&run.ratios, r, &lo, &hi) ||
			    !judgeable(accel, r, over, sizeof(over)))
				cl.verdict = "not measurable";
			else if (hi < 1.0)
				cl.verdict = "reversed";
			else if (lo <= 1.0 && strcmp(cl.verdict, "reversed"))
				cl.verdict = "no difference shown";
		}
	if (!weak) {
		cl.verdict = "not measurable";
		snprintf(cl.basis, sizeof(cl.basis), "no paired %s cell", reg_get(rec, "pairs"));
	} else {
		set_ratio(&cl, weak);
		judgeable(accel, weak, over, sizeof(over));
		snprintf(cl.basis, sizeof(cl.basis), "weakest of %d: %s %s skbs=%s, %s",
			 rows, rat(weak, "pair"), rat(weak, "filter"), rat(weak, "skbs"), over);
	}
	emit(&cl);
}

/*
 * The figure of @counter in row @r, divided by its @per column when the
 * record has one (e.g. vm_insns: per executed VM instruction); 0 when
 * either is missing.
 */
static double counter_of(const struct csv_row *r, const char *counter,
			 const char *per)
{
	double v, d;

	if (!r || !csv_has(&run.results, counter) || !*res(r, counter))
		return 0;
	v = atof(res(r, counter));
	if (!*per)
		return v;
	d = csv_has(&run.results, per) ? atof(res(r, per)) : 0;
	return d > 0 ? v / d : 0;
}

/*
 * What a counter claim's figures come from: perf stat, or the model plugin
 * of an accelerator of kind modeled (never shown as hardware).  perf stat
 * counted one run of each engine (the first placement of its cell: the
 * warm-up, calibration and samples, results/mkcsv.c perf_calls).
 */
static void counter_basis(char *buf, size_t n, const char *accel,
			  const char *what, const struct reg_rec *rec,
			  const char *counter)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	const char *per = reg_get(rec, "per");

	if (!strcmp(res(any, "kind"), "modeled"))
		snprintf(buf, n, "model %s: %s%s%s, %s, no CI (deterministic)",
			 res(any, "model_core"), counter, *per ? " per " : "", per, what);
	else if (!strcmp(per, "perf_calls"))
		snprintf(buf, n, "perf stat %s: %s per call (perf_calls) over one run of each engine, no CI",
			 what, counter);
	else
		snprintf(buf, n, "perf stat %s: %s%s%s over one run of each engine, no CI",
			 what, counter, *per ? " per " : "", per);
}

/*
 * Why a perf stat counter claim on rows @o and @d (engines @num and @den)
 * has no figure, from what mkcsv wrote of @counter: "not supported" (or
 * no perf stat of either engine: the run had none) is no PMU; "not
 * counted" a counter perf stat had but never ran (multiplexed out, or
 * taken by another user of the PMU); an engine without a perf stat file;
 * counts without @per.
 */
static void counter_missing(char *buf, size_t n, const struct csv_row *o,
			    const struct csv_row *d, const char *num,
			    const char *den, const char *counter, const char *per)
{
	const char *vo, *vd;

	if (!csv_has(&run.results, counter)) {
		snprintf(buf, n, "no PMU");
		return;
	}
	if (!o || !d) {
		snprintf(buf, n, "no perf stat of both engines");
		return;
	}
	vo = res(o, counter);
	vd = res(d, counter);
	if (!strcmp(vo, "not supported") || !strcmp(vd, "not supported") || (!*vo && !*vd))
		snprintf(buf, n, "no PMU");
	else if (!strcmp(vo, "not counted") || !strcmp(vd, "not counted"))
		snprintf(buf, n, "perf stat: %s <not counted> for %s", counter,
			 strcmp(vo, "not counted") ? den : strcmp(vd, "not counted") ? num :
			 "both engines");
	else if (!*vo || !*vd)
		snprintf(buf, n, "no perf stat of %s", *vo ? den : num);
	else if (*per && (!csv_has(&run.results, per) || !*res(o, per) || !*res(d, per)))
		snprintf(buf, n, "no %s of both engines", per);
	else
		snprintf(buf, n, "%s: %s / %s", counter, vo, vd);
}

/* The verdict on A/B = @v of a counter claim (the claim: B has fewer). */
static const char *counter_verdict(const struct reg_rec *rec, double v)
{
	return v >= atof(reg_get_or(rec, "holds_at", "1")) ? "holds" :
	       v < 1 ? "reversed" : "no difference shown";
}

/*
 * One cell of a counter claim: @counter of engines @num and @den (@pair)
 * in @cell, the verdict, figure and basis into @cl.
 */
static void judge_counter(struct claim *cl, const char *accel,
			  const struct reg_rec *rec, const char *counter,
			  const char *pair, const char *num, const char *den,
			  const struct reg_rec *cell)
{
	const char *per = reg_get(rec, "per");
	double floor = atof(reg_get_or(rec, "floor", "0")), bo, bn;
	int modeled = !strcmp(res(run_accel_row(&run, accel), "kind"), "modeled");
	const struct csv_row *o, *n;
	char what[96];

	o = run_result(&run, accel, "bench", num, reg_get(cell, "filter"), reg_get(cell, "skbs"));
	n = run_result(&run, accel, "bench", den, reg_get(cell, "filter"), reg_get(cell, "skbs"));
	bo = counter_of(o, counter, per);
	bn = counter_of(n, counter, per);
	snprintf(what, sizeof(what), "%.31s, %.30s %.30s", pair,
		 reg_get(cell, "head"), reg_get(cell, "sub"));
	counter_basis(cl->basis, sizeof(cl->basis), accel, what, rec, counter);
	if (o && n && *reg_get(rec, "floor") && bo <= floor && bn <= floor) {
		cl->verdict = "no difference shown";
		snprintf(cl->basis + strlen(cl->basis), sizeof(cl->basis) - strlen(cl->basis),
			 "; both <= %g", floor);
	} else if (o && n && modeled && bn <= 0) {
		/* a model counts 0 where nothing happens: B has none */
		cl->verdict = "holds";
		snprintf(cl->basis + strlen(cl->basis), sizeof(cl->basis) - strlen(cl->basis),
			 "; %s: 0", den);
	} else if (bo <= 0 || bn <= 0) {
		cl->verdict = "not measurable";
		if (modeled)
			snprintf(cl->basis, sizeof(cl->basis), "%s", o && n ? "no PMU" :
				 "no perf stat of both engines");
		else
			counter_missing(cl->basis, sizeof(cl->basis), o, n, num, den,
					counter, per);
	} else {
		/* the medians' ratio as median-ratios.csv has it */
		const struct csv_row *m = strcmp(counter, "median") || *per ? NULL :
			mrow(accel, "bench", pair, reg_get(cell, "filter"),
					 reg_get(cell, "skbs"));

		cl->value = m ? atof(mrat(m, "ratio")) : bo / bn;
		cl->has_value = 1;
		cl->verdict = counter_verdict(rec, cl->value);
	}
}

/*
 * A counter claim with "predictors 1" on a modeled accelerator: judged
 * under each predictor record (cores.conf) on COUNTER_<predictor>; one
 * verdict where all agree, else "depends on the predictor"; the figure
 * is that of the core's own predictor (results.csv model_predictor), the
 * basis lists every predictor's figure and verdict.
 */
static void judge_predictors(struct claim *cl, const char *accel,
			     const struct reg_rec *rec, const char *pair,
			     const char *num, const char *den,
			     const struct reg_rec *cell)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	const char *mine = csv_has(&run.results, "model_predictor") ?
			   res(any, "model_predictor") : "";
	struct reg *preds = reg_predictors();
	char list[256] = "", counter[96];
	size_t used = 0;
	int p, agree = 1;

	for (p = 0; p < preds->n; p++) {
		const char *name = preds->rec[p].name;
		struct claim t = *cl;

		t.has_value = 0;
		t.value = 0;

		snprintf(counter, sizeof(counter), "%s_%s", reg_get(rec, "counter"), name);
		judge_counter(&t, accel, rec, counter, pair, num, den, cell);
		if (!p || !strcmp(name, mine)) {
			cl->value = t.value;
			cl->has_value = t.has_value;
			snprintf(cl->basis, sizeof(cl->basis), "%s", t.basis);
		}
		if (p && strcmp(t.verdict, cl->verdict))
			agree = 0;
		if (!p)
			cl->verdict = t.verdict;
		if (used < sizeof(list))
			used += t.has_value ?
				snprintf(list + used, sizeof(list) - used, "%s%s %.3g %s",
					 p ? ", " : "", name, t.value, t.verdict) :
				snprintf(list + used, sizeof(list) - used, "%s%s %s",
					 p ? ", " : "", name, t.verdict);
	}
	if (!agree)
		cl->verdict = "depends on the predictor";
	snprintf(cl->basis + strlen(cl->basis), sizeof(cl->basis) - strlen(cl->basis),
		 "; by predictor: %s", list);
}

/*
 * kind counter: a per-call counter (a perf stat one, or a model_* column)
 * of a pair's engines, in each of the cells (cell or cells), optionally
 * per executed VM instruction (per vm_insns).  Both engines at or under
 * floor: no difference shown.  The 2014 figure: ref_ratio's ref2014.
 */
static void claim_counter_pair(const char *accel, const char *flavour,
			       const struct reg_rec *rec, const char *pair)
{
	char cells[REG_MAX][32], num[64], den[64], ref[REG_MAX][32];
	int ncl = reg_words(rec, *reg_get(rec, "cells") ? "cells" : "cell", cells, REG_MAX);
	const struct reg_rec *rr = reg_find(reg_ratios(), reg_get(rec, "ref_ratio"), 0);
	int nref = rr ? reg_ref(rr, "ref2014", flavour, ref, REG_MAX) : 0;
	int c, by_predictor = !strcmp(reg_get(rec, "predictors"), "1") &&
			      !strcmp(res(run_accel_row(&run, accel), "kind"), "modeled");

	if (!reg_pair(pair, num, den, sizeof(num))) {
		fprintf(stderr, "mkclaims: claim %s: pair '%s' is not A/B\n", rec->name,
			pair);
		exit(1);
	}
	for (c = 0; c < ncl; c++) {
		struct claim cl = { .accel = accel, .claim = rec->name };
		const struct reg_rec *cell = cell_rec(cells[c]);
		int idx = (int)(cell - reg_cells()->rec);

		if (ncl > 1)
			snprintf(cl.text, sizeof(cl.text), "%s, %s %s", reg_get(rec, "text"),
				 reg_get(cell, "head"), reg_get(cell, "sub"));
		else
			snprintf(cl.text, sizeof(cl.text), "%s", reg_get(rec, "text"));
		snprintf(cl.cell, sizeof(cl.cell), "%s", cell->name);
		if (nref == reg_cells()->n)
			snprintf(cl.ref, sizeof(cl.ref), "%.31s", ref[idx]);
		if (by_predictor)
			judge_predictors(&cl, accel, rec, pair, num, den, cell);
		else
			judge_counter(&cl, accel, rec, reg_get(rec, "counter"), pair, num,
				      den, cell);
		emit(&cl);
	}
}

/* kind counter over each of its pairs (pair or pairs) */
static void claim_counter(const char *accel, const char *flavour,
			  const struct reg_rec *rec)
{
	char pairs[REG_MAX][32];
	int np = reg_words(rec, *reg_get(rec, "pairs") ? "pairs" : "pair", pairs, REG_MAX), p;

	for (p = 0; p < np; p++)
		claim_counter_pair(accel, flavour, rec, pairs[p]);
}

/*
 * kind cost: for each of the engines, counter in cell "to" over cell
 * "from" (the cache-miss column's extra cost per call: 10000 skbs over 1);
 * the 2014 figure from the engine's ref2014 in the same cells.
 */
static void claim_cost(const char *accel, const char *flavour,
		       const struct reg_rec *rec)
{
	const struct reg_rec *from = cell_rec(reg_get(rec, "from"));
	const struct reg_rec *to = cell_rec(reg_get(rec, "to"));
	const char *counter = reg_get(rec, "counter");
	int fi = (int)(from - reg_cells()->rec), ti = (int)(to - reg_cells()->rec);
	char engines[REG_MAX][32], ref[REG_MAX][32], what[96];
	int ne = reg_words(rec, "engines", engines, REG_MAX), e;

	for (e = 0; e < ne; e++) {
		struct claim cl = { .accel = accel, .claim = rec->name };
		const struct reg_rec *er = reg_find(reg_engines(), engines[e], 0);
		const struct csv_row *a, *b;
		double va, vb;

		snprintf(cl.text, sizeof(cl.text), "%s, %s", reg_get(rec, "text"),
			 engine_label(engines[e]));
		snprintf(cl.cell, sizeof(cl.cell), "%.20s/%.20s %.20s", to->name, from->name,
			 engines[e]);
		if (er && reg_ref(er, "ref2014", flavour, ref, REG_MAX) == reg_cells()->n &&
		    atof(ref[fi]) > 0)
			snprintf(cl.ref, sizeof(cl.ref), "%.2fx", atof(ref[ti]) / atof(ref[fi]));
		a = run_result(&run, accel, "bench", engines[e], reg_get(from, "filter"),
			       reg_get(from, "skbs"));
		b = run_result(&run, accel, "bench", engines[e], reg_get(to, "filter"),
			       reg_get(to, "skbs"));
		va = counter_of(a, counter, "");
		vb = counter_of(b, counter, "");
		if (va <= 0 || vb <= 0) {
			cl.verdict = "not measurable";
			snprintf(cl.basis, sizeof(cl.basis), "no %s of both cells", counter);
		} else {
			cl.value = vb / va;
			cl.has_value = 1;
			cl.verdict = counter_verdict(rec, cl.value);
			snprintf(what, sizeof(what), "%s %s over %s %s: +%.1f a call",
				 reg_get(to, "head"), reg_get(to, "sub"), reg_get(from, "head"),
				 reg_get(from, "sub"), vb - va);
			counter_basis(cl.basis, sizeof(cl.basis), accel, what, rec, reg_get(rec, "counter"));
		}
		emit(&cl);
	}
}

/* kind seccomp: the pair's seccomp medians on one filter. */
static void claim_seccomp(const char *accel, const char *flavour,
			  const struct reg_rec *rec)
{
	struct claim cl = { .accel = accel, .claim = rec->name };
	const char *filter = reg_get(rec, "filter"), *pair = reg_get(rec, "pair");
	int idx = atoi(reg_get(rec, "index")), nodiff = 0, counted;
	const struct reg_rec *ro, *rn;
	const struct csv_row *o, *n, *m;
	char num[64], den[64], vo[2][32], vn[2][32];

	if (!reg_pair(pair, num, den, sizeof(num)) || idx < 0 || idx > 1) {
		fprintf(stderr, "mkclaims: claim %s: pair '%s' or index '%s' is bad\n",
			rec->name, pair, reg_get(rec, "index"));
		exit(1);
	}
	ro = reg_find(reg_engines(), num, 0);
	rn = reg_find(reg_engines(), den, 0);
	if (ro && rn && reg_ref(ro, "seccomp2014", flavour, vo, 2) == 2 &&
	    reg_ref(rn, "seccomp2014", flavour, vn, 2) == 2 &&
	    atof(vo[idx]) > 0 && atof(vn[idx]) > 0) {
		snprintf(cl.ref, sizeof(cl.ref), "%.2fx", atof(vo[idx]) / atof(vn[idx]));
		nodiff = atof(vo[idx]) == atof(vn[idx]);
	}
	snprintf(cl.text, sizeof(cl.text), "seccomp %s filter \"%s\"", filter,
		 nodiff ? "no difference" : reg_get(rec, "text"));
	snprintf(cl.cell, sizeof(cl.cell), "seccomp-%s", filter);
	o = run_result(&run, accel, "seccomp", num, filter, NULL);
	n = run_result(&run, accel, "seccomp", den, filter, NULL);
	m = mrow(accel, "seccomp", pair, filter, NULL);
	counted = !strcmp(res(run_accel_row(&run, accel), "kind"), "counted");
	if (!o || !n || !m) {
		cl.verdict = "not measurable";
		snprintf(cl.basis, sizeof(cl.basis), "no seccomp %s cells", pair);
		emit(&cl);
		return;
	}
	cl.value = atof(mrat(m, "ratio"));
	cl.has_value = 1;
	cl.has_ci = run_ci(&run.mratios, m, &cl.lo, &cl.hi);
	if (!cl.has_ci && !counted) {
		cl.verdict = "not measurable";
		snprintf(cl.basis, sizeof(cl.basis), "no CI: too few seccomp runs");
		emit(&cl);
		return;
	}
	cl.verdict = verdict(cl.value, cl.has_ci, cl.lo, cl.hi);
	if (nodiff) {
		/* counted figures are exact: there only an equal count holds */
		int same = cl.has_ci ? !strcmp(cl.verdict, "no difference shown") :
			   cl.value > 0.9995 && cl.value < 1.0005;

		cl.verdict = same ? "holds" : cl.value > 1.0 ?
			     "does not hold (new faster)" : "does not hold (old faster)";
	}
	snprintf(cl.basis, sizeof(cl.basis), "%s, %s", pair, cl.has_ci ?
		 "CI from the two medians' CIs" : "counted: exact, no CI needed");
	emit(&cl);
}

static void claims(const char *accel)
{
	const char *flavour = res(run_accel_row(&run, accel), "flavour");
	int i;

	if (!*flavour)
		flavour = "x86_64";
	for (i = 0; i < reg_claims()->n; i++) {
		const struct reg_rec *rec = &reg_claims()->rec[i];
		const char *kind = reg_get(rec, "kind");
		char kinds[REG_MAX][32];
		int nk = reg_words(rec, "kinds", kinds, REG_MAX), k;

		/* kinds: the accelerator kinds the claim is judged on (default all) */
		for (k = 0; k < nk && strcmp(kinds[k], res(run_accel_row(&run, accel), "kind")); k++)
			;
		if (nk && k == nk)
			continue;
		if (!strcmp(kind, "ratio"))
			claim_ratio(accel, flavour, rec);
		else if (!strcmp(kind, "weakest"))
			claim_weakest(accel, flavour, rec);
		else if (!strcmp(kind, "counter"))
			claim_counter(accel, flavour, rec);
		else if (!strcmp(kind, "cost"))
			claim_cost(accel, flavour, rec);
		else if (!strcmp(kind, "seccomp"))
			claim_seccomp(accel, flavour, rec);
		else {
			fprintf(stderr, "mkclaims: claim %s: unknown kind '%s'\n",
				rec->name, kind);
			exit(1);
		}
	}
}

/*
 * A ratio's figure in one cell: the paired one (basis "paired") where the
 * run has it, else the ratio of the two medians (median-ratios.csv).
 */
static int factor(const char *accel, const char *pair, const struct reg_rec *cell,
		  double *v, double *lo, double *hi, int *paired)
{
	const char *f = reg_get(cell, "filter"), *s = reg_get(cell, "skbs");
	const struct csv_row *r = prow(accel, pair, f, s), *m;

	*paired = 0;
	if (r) {
		*v = atof(rat(r, "ratio"));
		*paired = run_ci(&run.ratios, r, lo, hi);
		return 1;
	}
	m = mrow(accel, "bench", pair, f, s);
	if (!m || !(atof(mrat(m, "ratio")) > 0))
		return 0;
	*v = atof(mrat(m, "ratio"));
	return 1;
}

/* decomposition.csv: each split record's ratio as design x conversion. */
static void splits(const char *accel)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	char cells[REG_MAX][32], cnum[64], cden[64], buf[32];
	int i, c, ncells;

	for (i = 0; i < reg_splits()->n; i++) {
		const struct reg_rec *rec = &reg_splits()->rec[i];
		const char *design = reg_get(rec, "design"), *conv = reg_get(rec, "conversion");

		if (!reg_pair(conv, cnum, cden, sizeof(cnum))) {
			fprintf(stderr, "mkclaims: split %s: conversion '%s' is not A/B\n",
				rec->name, conv);
			exit(1);
		}
		ncells = reg_words(rec, "cells", cells, REG_MAX);
		for (c = 0; c < ncells; c++) {
			const struct reg_rec *cell = cell_rec(cells[c]);
			const char *f = reg_get(cell, "filter"), *s = reg_get(cell, "skbs");
			const struct csv_row *vn = run_result(&run, accel, "bench", cnum, f, s);
			const struct csv_row *vd = run_result(&run, accel, "bench", cden, f, s);
			double w = 0, wlo = 0, whi = 0, d, dlo = 0, dhi = 0, k, klo = 0, khi = 0;
			int wp, dp, kp, hw;

			if (!factor(accel, design, cell, &d, &dlo, &dhi, &dp) ||
			    !factor(accel, conv, cell, &k, &klo, &khi, &kp))
				continue;
			hw = factor(accel, rec->name, cell, &w, &wlo, &whi, &wp);
			put_fields((const char *const[]){ accel, res(any, "kind"),
						res(any, "flavour"), rec->name,
						cell->name, f, s, res(any, "unit"),
						NULL });
			put_num(w, hw, 0);
			put_num(wlo, wp, 0);
			put_num(whi, wp, 0);
			put_num(d, 1, 0);
			put_num(dlo, dp, 0);
			put_num(dhi, dp, 0);
			put_num(k, 1, 0);
			put_num(klo, kp, 0);
			put_num(khi, kp, 0);
			snprintf(buf, sizeof(buf), "%s", vn ? res(vn, "vm_insns") : "");
			csv_put(out, csv_has(&run.results, "vm_insns") ? buf : "", 0);
			snprintf(buf, sizeof(buf), "%s", vd ? res(vd, "vm_insns") : "");
			csv_put(out, csv_has(&run.results, "vm_insns") ? buf : "", 0);
			csv_put(out, dp && kp ? "paired" : "medians", 0);
			/* each factor read as a cost: how many times dearer */
			put_num(1 / d, d > 0, 0);
			put_num(1 / k, k > 0, 1);
		}
	}
}

/*
 * The engine pairs whose medians are divided: every ratio record, then the
 * pairs the claim and split records name (bench/engines.conf), once each.
 */
static char pairs[4 * REG_MAX][64];
static int npairs;

static void add_pair(const char *pair)
{
	char num[64], den[64];
	int p;

	if (!reg_pair(pair, num, den, sizeof(num)))
		return;
	for (p = 0; p < npairs; p++)
		if (!strcmp(pairs[p], pair))
			return;
	if (npairs < (int)(sizeof(pairs) / sizeof(pairs[0])))
		snprintf(pairs[npairs++], sizeof(pairs[0]), "%s", pair);
}

static void find_pairs(void)
{
	static const char *const keys[] = { "pair", "pairs" };
	char w[REG_MAX][32];
	int i, k, j, n;

	for (i = 0; i < reg_ratios()->n; i++)
		add_pair(reg_ratios()->rec[i].name);
	for (i = 0; i < reg_claims()->n; i++)
		for (k = 0; k < 2; k++)
			for (j = 0, n = reg_words(&reg_claims()->rec[i], keys[k], w, REG_MAX);
			     j < n; j++)
				add_pair(w[j]);
	for (i = 0; i < reg_splits()->n; i++) {
		add_pair(reg_splits()->rec[i].name);
		add_pair(reg_get(&reg_splits()->rec[i], "design"));
		add_pair(reg_get(&reg_splits()->rec[i], "conversion"));
	}
}

/*
 * One row of median-ratios.csv: median(@a) / median(@b) of @pair, where
 * both rows are there and @b's median is above 0; ci_lo, ci_hi the
 * interval the two medians' 95% CIs allow (lo_a / hi_b, hi_a / lo_b) where
 * both have one; cis whether those CIs are "apart" or "overlap".
 */
static void median_ratio(const char *accel, const char *tag, const char *pair,
			 const struct csv_row *a, const struct csv_row *b)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	double alo = 0, ahi = 0, blo = 0, bhi = 0;
	int ca, cb, ci;

	if (!a || !b || !(median(b) > 0))
		return;
	ca = run_ci(&run.results, a, &alo, &ahi);
	cb = run_ci(&run.results, b, &blo, &bhi);
	ci = ca && cb && blo > 0;
	put_fields((const char *const[]){ accel, res(any, "kind"), res(any, "flavour"),
				res(any, "unit"), tag, res(a, "filter"), res(a, "skbs"),
				pair, NULL });
	put_num(median(a) / median(b), 1, 0);
	put_num(ci ? alo / bhi : 0, ci, 0);
	put_num(ci ? ahi / blo : 0, ci, 0);
	csv_put(out, !ca || !cb ? "" : ahi < blo || bhi < alo ? "apart" : "overlap", 1);
}

/*
 * median-ratios.csv: each pair in each table cell (the cell records), and
 * in each seccomp filter and mixed-traffic cell both of its engines ran.
 */
static void median_ratios(const char *accel)
{
	static const char *const tags[] = { "seccomp", "mix" };
	char num[64], den[64];
	int p, c, i, t;

	for (p = 0; p < npairs; p++) {
		reg_pair(pairs[p], num, den, sizeof(num));
		for (c = 0; c < reg_cells()->n; c++) {
			const struct reg_rec *cell = &reg_cells()->rec[c];
			const char *f = reg_get(cell, "filter"), *s = reg_get(cell, "skbs");

			median_ratio(accel, "bench", pairs[p],
				     run_result(&run, accel, "bench", num, f, s),
				     run_result(&run, accel, "bench", den, f, s));
		}
		for (t = 0; t < (int)(sizeof(tags) / sizeof(tags[0])); t++)
			for (i = 0; i < run.results.nrows; i++) {
				const struct csv_row *r = &run.results.rows[i];

				if (!strcmp(res(r, "accel"), accel) &&
				    !strcmp(res(r, "tag"), tags[t]) &&
				    !strcmp(res(r, "engine"), num))
					median_ratio(accel, tags[t], pairs[p], r,
						     run_result(&run, accel, tags[t], den,
								res(r, "filter"),
								res(r, "skbs")));
			}
	}
}

/*
 * layouts.csv: each figure (results.csv's bench cells) and each ratio of
 * two medians (median-ratios.csv) of an accelerator with code-layout runs,
 * on the kernel as built and its median, minimum and maximum over every
 * layout.
 */
static void layout_row(const char *accel, const char *unit, const char *what,
		       const char *name, const char *filter, const char *skbs,
		       const char *built, const struct csv *csvs,
		       const char *const *keys, const char *const *values)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	double v[LAYOUTS_MAX + 1], lo, hi;
	char buf[32];
	int n = 0, i;

	if (!*built)
		return;
	v[n++] = atof(built);
	for (i = 0; i < lays.n; i++) {
		const struct csv_row *r = csv_find(&csvs[i], keys, values);
		const char *col = csv_has(&csvs[i], "median") ? "median" : "ratio";

		if (r && *csv_get(&csvs[i], r, col))
			v[n++] = atof(csv_get(&csvs[i], r, col));
	}
	if (n == 1)
		return;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	put_fields((const char *const[]){ accel, res(any, "kind"), res(any, "flavour"),
				unit, what, name, filter, skbs, NULL });
	snprintf(buf, sizeof(buf), "%d", n);
	csv_put(out, buf, 0);
	csv_put(out, built, 0);
	put_num(stats_median(v, n), 1, 0);
	put_num(lo, 1, 0);
	put_num(hi, 1, 1);
}

static void layout_rows(const char *accel)
{
	static const char *const rkeys[] = { "accel", "tag", "engine", "filter", "skbs", NULL };
	static const char *const mkeys[] = { "accel", "tag", "pair", "filter", "skbs", NULL };
	const struct csv *m = &run.mratios;
	int i;

	for (i = 0; i < run.results.nrows; i++) {
		const struct csv_row *r = &run.results.rows[i];
		const char *vals[] = { accel, "bench", res(r, "engine"), res(r, "filter"),
				       res(r, "skbs"), NULL };

		if (!strcmp(res(r, "accel"), accel) && !strcmp(res(r, "tag"), "bench"))
			layout_row(accel, res(r, "unit"), "figure", vals[2], vals[3], vals[4],
				   res(r, "median"), lays.results, rkeys, vals);
	}
	for (i = 0; i < m->nrows; i++) {
		const struct csv_row *r = &m->rows[i];
		const char *vals[] = { accel, "bench", csv_get(m, r, "pair"),
				       csv_get(m, r, "filter"), csv_get(m, r, "skbs"), NULL };

		if (!strcmp(csv_get(m, r, "accel"), accel) && !strcmp(csv_get(m, r, "tag"), "bench"))
			layout_row(accel, "ratio", "ratio", vals[2], vals[3], vals[4],
				   csv_get(m, r, "ratio"), lays.mratios, mkeys, vals);
	}
}

/*
 * against.csv: an accelerator whose record names another (accels.conf
 * against: the same flavour and kind, another CPU or command line), each
 * of its bench figures beside that accelerator's in the same cell, their
 * difference and ratio (e.g. the mitigations a CPU gets against
 * mitigations=off), where the run has both.
 */
static void against_rows(const char *accel)
{
	const struct reg_rec *rec = reg_find(reg_accels(), accel, 0);
	const char *other = rec ? reg_get(rec, "against") : "";
	int i;

	if (!*other || !run_accel_row(&run, other))
		return;
	for (i = 0; i < run.results.nrows; i++) {
		const struct csv_row *r = &run.results.rows[i], *o;
		double a, b;

		if (strcmp(res(r, "accel"), accel) || strcmp(res(r, "tag"), "bench"))
			continue;
		o = run_result(&run, other, "bench", res(r, "engine"), res(r, "filter"),
			       res(r, "skbs"));
		if (!o || !*res(r, "median") || !*res(o, "median"))
			continue;
		a = atof(res(r, "median"));
		b = atof(res(o, "median"));
		put_fields((const char *const[]){ accel, other, res(r, "kind"),
					res(r, "unit"), res(r, "engine"),
					res(r, "filter"), res(r, "skbs"),
					res(r, "median"), res(o, "median"), NULL });
		put_num(a - b, 1, 0);
		put_num(b > 0 ? a / b : 0, b > 0, 1);
	}
}

/*
 * validation.csv: the modelled cycles of each core a modeled accelerator
 * of flavour x86_64 models (model under every predictor record,
 * model_also under its own predictor) against uml's ratios
 * measured on the host that core stands for (bench/measured.conf), and
 * against the instruction count (icount's, counted_insns): per core,
 * cell and pair (old/new, old/new2014, new2014/new), the model's ratio,
 * the instructions', the 2014 commit's, and, where a measured record
 * names the core, uml's with its CI, how far each is from it and whether
 * the model is within 10% of it and closer than the instructions.  The
 * model's ratio is its geometric mean over the code layouts the run
 * booted (the kernel as built's alone beside it), as uml's is over its.
 */
static const char *const val_pairs[] = { "old/new", "old/new2014", "new2014/new" };

/* A results.csv cell: its tag, filter and skbs. */
struct cell_key {
	const char *tag, *filter, *skbs;
};

static struct cell_key bench_cell(const struct reg_rec *cell)
{
	return (struct cell_key){ "bench", reg_get(cell, "filter"), reg_get(cell, "skbs") };
}

/*
 * Column @col of engine @engine in cell @k of @accel in results @r (the
 * run's, or a code-layout run's); -1 when missing.
 */
static double col_value(const struct csv *r, const char *accel, const char *col,
			const char *engine, struct cell_key k)
{
	static const char *const keys[] = { "accel", "tag", "engine", "filter", "skbs", NULL };
	const char *vals[] = { accel, k.tag, engine, k.filter, k.skbs, NULL };
	const struct csv_row *row;

	if (!csv_has(r, col))
		return -1;
	row = csv_find(r, keys, vals);
	return row && *csv_get(r, row, col) ? atof(csv_get(r, row, col)) : -1;
}

/* The ratio num/den of column @col (as col_value); 0 when missing. */
static double col_ratio(const struct csv *r, const char *accel, const char *col,
			const char *pair, struct cell_key k)
{
	char num[64], den[64];
	double o, n;

	if (!reg_pair(pair, num, den, sizeof(num)))
		return 0;
	o = col_value(r, accel, col, num, k);
	n = col_value(r, accel, col, den, k);
	return o < 0 || n <= 0 ? 0 : o / n;
}

/*
 * Over the code layouts (the kernel as built and each variant run,
 * layouts.h): the ratio @pair of column @col (geometric mean) or, for an
 * engine's name, its value (arithmetic mean: a count a call may be 0),
 * its smallest and largest, and how many layouts had it.
 */
static int layout_figure(const char *accel, const char *col, const char *what,
			 struct cell_key k, double *mean, double *lo, double *hi)
{
	int ratio = strchr(what, '/') != NULL, i, n = 0;
	double v, sum = 0;

	*mean = *lo = *hi = 0;
	for (i = -1; i < lays.n; i++) {
		const struct csv *r = i < 0 ? &run.results : &lays.results[i];

		v = ratio ? col_ratio(r, accel, col, what, k) : col_value(r, accel, col, what, k);
		if (ratio ? v <= 0 : v < 0)
			continue;
		sum += ratio ? log(v) : v;
		*lo = n ? fmin(*lo, v) : v;
		*hi = n ? fmax(*hi, v) : v;
		n++;
	}
	if (n)
		*mean = ratio ? exp(sum / n) : sum / n;
	return n;
}

static int layout_ratios(const char *accel, const char *col, const char *pair,
			 const struct reg_rec *cell, double *mean, double *lo, double *hi)
{
	return layout_figure(accel, col, pair, bench_cell(cell), mean, lo, hi);
}

/*
 * A measured record (bench/measured.conf) is held against a model of the
 * architecture its flavour is compared as (um: x86_64, reg_ref_arch) and
 * of the same configuration base (flavours.conf base: tinyconfig and the
 * harness's fragments, not Debian's own configuration).
 */
static int measured_arch(const struct reg_rec *mr, const char *flavour)
{
	const struct reg_rec *mf = reg_find(reg_flavours(), reg_get(mr, "flavour"), 0);
	const struct reg_rec *f = reg_find(reg_flavours(), flavour, 0);

	return mf && f && !strcmp(reg_get(mf, "base"), reg_get(f, "base")) &&
	       !strcmp(reg_ref_arch(mf->name), reg_ref_arch(flavour));
}

static void validation_core(const char *accel, const char *core, const char *pred,
			    const char *col)
{
	const struct reg_rec *cr = reg_find(reg_cores(), core, 0);
	const struct reg_rec *oldnew = reg_find(reg_ratios(), "old/new", 0);
	struct reg *ms = reg_measured();
	char ref[REG_MAX][32], w[REG_MAX][32], key[48];
	const char *flavour = res(run_accel_row(&run, accel), "flavour");
	int nref = oldnew ? reg_ref(oldnew, "ref2014", flavour, ref, REG_MAX) : 0;
	int own = cr && !strcmp(reg_get(cr, "predictor"), pred);
	size_t p;
	int c, m;

	for (p = 0; p < sizeof(val_pairs) / sizeof(val_pairs[0]); p++)
		for (c = 0; c < reg_cells()->n; c++) {
			const struct reg_rec *cell = &reg_cells()->rec[c];
			double built = col_ratio(&run.results, accel, col, val_pairs[p],
						 bench_cell(cell));
			double insns = col_ratio(&run.results, accel, "counted_insns", val_pairs[p],
						 bench_cell(cell));
			const struct reg_rec *mr = NULL;
			double uml = 0, lo = 0, hi = 0, model, mlo, mhi;
			int nlay;

			if (built <= 0)
				continue;
			nlay = layout_ratios(accel, col, val_pairs[p], cell, &model, &mlo, &mhi);
			snprintf(key, sizeof(key), "ratio.%s", val_pairs[p]);
			for (m = 0; m < ms->n && own && !mr; m++)
				if (!strcmp(reg_get(&ms->rec[m], "core"), core) &&
				    measured_arch(&ms->rec[m], flavour) &&
				    reg_words(&ms->rec[m], key, w, REG_MAX) == reg_cells()->n &&
				    sscanf(w[c], "%lf:%lf:%lf", &uml, &lo, &hi) == 3)
					mr = &ms->rec[m];
			put_fields((const char *const[]){ accel, core, pred,
						own ? "1" : "0",
						cr ? reg_get(cr, "year") : "", cell->name,
						val_pairs[p],
						p < 2 && nref == reg_cells()->n ? ref[c] : "",
						NULL });
			put_num(built, 1, 0);
			snprintf(key, sizeof(key), "%d", nlay);
			csv_put(out, key, 0);
			put_num(model, 1, 0);
			put_num(mlo, 1, 0);
			put_num(mhi, 1, 0);
			put_num(insns, insns > 0, 0);
			csv_put(out, mr ? mr->name : "", 0);
			put_num(uml, mr != NULL, 0);
			put_num(lo, mr != NULL, 0);
			put_num(hi, mr != NULL, 0);
			put_num(100 * (model / uml - 1), mr != NULL, 0);
			put_num(100 * (insns / uml - 1), mr && insns > 0, 0);
			csv_put(out, !mr ? "" : fabs(model / uml - 1) <= 0.10 ? "1" : "0", 0);
			csv_put(out, !mr || insns <= 0 ? "" :
				fabs(log(model / uml)) < fabs(log(insns / uml)) ? "1" : "0", 1);
		}
}

/*
 * The accelerator's own core under every predictor record (its
 * model_cycles_P), each further core under its own predictor.
 */
static void validation_rows(const char *accel)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	struct reg *preds = reg_predictors(), *ms = reg_measured();
	char also[4][32], col[96];
	const struct reg_rec *cr;
	int n, i;

	for (i = 0; i < ms->n && !measured_arch(&ms->rec[i], res(any, "flavour")); i++)
		;
	/* only where a measured record's machine runs this architecture */
	if (strcmp(res(any, "kind"), "modeled") || i == ms->n ||
	    !csv_has(&run.results, "model_core"))
		return;
	for (i = 0; i < preds->n; i++) {
		snprintf(col, sizeof(col), "model_cycles_%.40s", preds->rec[i].name);
		validation_core(accel, res(any, "model_core"), preds->rec[i].name, col);
	}
	if (!csv_has(&run.results, "model_also"))
		return;
	n = sscanf(res(any, "model_also"), "%31s %31s %31s %31s", also[0], also[1], also[2],
		   also[3]);
	for (i = 0; i < n; i++) {
		cr = reg_find(reg_cores(), also[i], 0);
		snprintf(col, sizeof(col), "model_cycles_core_%.31s", also[i]);
		validation_core(accel, also[i], cr ? reg_get(cr, "predictor") : "", col);
	}
}

/*
 * mixed.csv: the mixed-traffic cells (tag mix, bench.mix=1: 10000 skbs of
 * every filters/ packet in a fixed shuffled order, each call checked
 * against its frame's verdict; bench/guest/plan-bench.sh) beside the same
 * filter's cell of one packet and as many skbs (tag bench).  Per figure,
 * filter and pair (val_pairs) the ratio on each, and per figure and engine
 * its value a call, over the code layouts the run booted (a ratio's
 * geometric mean, a value's mean, the smallest and largest).  The
 * figures: a timed accelerator's median; a modeled one's cycles and
 * mispredictions on each core it models, its own core under its own
 * predictor, model_also's under theirs.  A model row of the core a
 * measured record (bench/measured.conf) names carries, where the run has
 * them, the mixed ratio of a timed accelerator on that record's host
 * (its host_cpu_id the record's cpu) and its CI.
 */
static const char *mixed_timed_on(const char *core, const char *flavour)
{
	struct reg *ms = reg_measured();
	int a, m;

	for (a = 0; a < run.naccels; a++) {
		const struct csv_row *any = run_accel_row(&run, run.accels[a]);
		const struct reg_rec *k = reg_find(reg_kinds(), res(any, "kind"), 0);

		if (!k || strcmp(reg_get_or(k, "timed", "0"), "1") ||
		    !csv_has(&run.results, "host_cpu_id"))
			continue;
		for (m = 0; m < ms->n; m++)
			if (!strcmp(reg_get(&ms->rec[m], "core"), core) &&
			    measured_arch(&ms->rec[m], flavour) &&
			    !strcmp(reg_get(&ms->rec[m], "cpu"), res(any, "host_cpu_id")))
				return run.accels[a];
	}
	return NULL;
}

/*
 * The mixed-traffic rounds' paired ratios (mix-ratios.csv, from each
 * boot's paired-mix.txt: over the boots or code layouts, as ratios.csv's).
 */
static struct csv mixratios;
static int has_mixratios;

/*
 * @accel's ratio @pair in the mixed cell of @filter and @skbs: with
 * @paired its paired ratio where it ran the mixed rounds, else the ratio
 * of its two medians; with its CI in *@lo, *@hi where there is one
 * (returns 2), 1 without, 0 when there is no ratio; *@over (may be NULL)
 * the layouts (or boots) a paired ratio is over, else 0.
 */
static int mixed_ratio(const char *accel, const char *pair, const char *filter,
		       const char *skbs, int paired, double *v, double *lo, double *hi,
		       int *over)
{
	static const char *const keys[] = { "accel", "pair", "filter", "skbs", NULL };
	const char *vals[] = { accel, pair, filter, skbs, NULL };
	const struct csv_row *r = csv_find(paired && has_mixratios ? &mixratios : NULL, keys,
					   vals);
	const struct csv *c = &mixratios;

	if (over)
		*over = !r ? 0 : atoi(csv_get(c, r, csv_has(c, "layouts") &&
						     *csv_get(c, r, "layouts") ? "layouts" : "boots"));
	if (!r) {
		r = mrow(accel, "mix", pair, filter, skbs);
		c = &run.mratios;
	}
	if (!r)
		return 0;
	*v = atof(csv_get(c, r, "ratio"));
	return 1 + run_ci(c, r, lo, hi);
}

static void mixed_row(const char *accel, const char *core, const char *figure,
		      const char *col, const char *what, const struct reg_rec *cell,
		      const char *timed)
{
	const char *filter = reg_get(cell, "filter"), *skbs = reg_get(cell, "skbs");
	struct cell_key mix = { "mix", filter, skbs }, one = { "bench", filter, skbs };
	const struct csv_row *any = run_accel_row(&run, accel), *paired = NULL;
	double single, mixed, lo, hi, slo, shi, v, clo = 0, chi = 0, u = 0, ulo = 0, uhi = 0;
	int n, m, both = 0, has_ci = 0, has_u = 0;
	char buf[16];

	n = layout_figure(accel, col, what, mix, &mixed, &lo, &hi);
	if (!n || !layout_figure(accel, col, what, one, &single, &slo, &shi))
		return;
	if (strchr(what, '/') && !strcmp(col, "median")) {
		/* a timed accelerator: its paired ratios where it has both */
		paired = prow(accel, what, filter, skbs);
		m = mixed_ratio(accel, what, filter, skbs, !!paired, &v, &clo, &chi, &both);
		has_ci = m == 2;
		if (both) {
			single = atof(rat(paired, "ratio"));
			mixed = lo = hi = v;
			n = both;
		}
	}
	if (timed && strchr(what, '/'))
		has_u = mixed_ratio(timed, what, filter, skbs, 1, &u, &ulo, &uhi, NULL);
	put_fields((const char *const[]){ accel, res(any, "kind"), res(any, "unit"), core,
				figure, filter, skbs, what, NULL });
	put_num(single, 1, 0);
	put_num(mixed, 1, 0);
	snprintf(buf, sizeof(buf), "%d", n);
	csv_put(out, buf, 0);
	put_num(lo, 1, 0);
	put_num(hi, 1, 0);
	put_num(clo, has_ci, 0);
	put_num(chi, has_ci, 0);
	csv_put(out, has_u ? timed : "", 0);
	put_num(u, has_u, 0);
	put_num(ulo, has_u == 2, 0);
	put_num(uhi, has_u == 2, 0);
	put_num(100 * (mixed / u - 1), has_u && u > 0, 0);
	csv_put(out, strcmp(col, "median") ? "model" : both ? "paired" : "medians", 1);
}

/* One core's (or a timed accelerator's) rows: every cell, pair and engine. */
static void mixed_core(const char *accel, const char *core, const char *figure,
		       const char *col, const char *miss_col, const char *timed)
{
	int c, p, e;

	for (c = 0; c < reg_cells()->n; c++) {
		const struct reg_rec *cell = &reg_cells()->rec[c];

		for (p = 0; p < (int)(sizeof(val_pairs) / sizeof(val_pairs[0])); p++)
			mixed_row(accel, core, figure, col, val_pairs[p], cell, timed);
		for (e = 0; miss_col && e < reg_engines()->n; e++)
			mixed_row(accel, core, "mispredicts", miss_col,
				  reg_engines()->rec[e].name, cell, NULL);
	}
}

static void mixed_rows(const char *accel)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	const char *flavour = res(any, "flavour");
	char also[4][32], col[96], miss[96];
	int n, i;

	if (strcmp(res(any, "kind"), "modeled")) {
		mixed_core(accel, "", "median", "median", NULL, NULL);
		return;
	}
	if (!csv_has(&run.results, "model_core"))
		return;
	mixed_core(accel, res(any, "model_core"), "cycles", "model_cycles", "model_mispredicts",
		   mixed_timed_on(res(any, "model_core"), flavour));
	n = csv_has(&run.results, "model_also") ?
	    sscanf(res(any, "model_also"), "%31s %31s %31s %31s", also[0], also[1], also[2],
		   also[3]) : 0;
	for (i = 0; i < n; i++) {
		snprintf(col, sizeof(col), "model_cycles_core_%.31s", also[i]);
		snprintf(miss, sizeof(miss), "model_mispredicts_core_%.31s", also[i]);
		mixed_core(accel, also[i], "cycles", col, miss, mixed_timed_on(also[i], flavour));
	}
}

/*
 * crosscheck.csv: lib/test_bpf's own timing of its programs (tag
 * test_bpf) beside the harness's of the filter with the same instructions
 * on test_bpf's packet (tag crosscheck; filters/README.md), per engine:
 * both medians and how far the harness's is from test_bpf's, in %.
 */
static const struct {
	const char *test, *filter;
} crosscheck_pairs[] = {
	{ "testbpf33", "fprog1" },
	{ "testbpf34", "testbpf34wrap" },
};

static const struct csv_row *tagged(const char *accel, const char *tag,
				    const char *engine, const char *filter)
{
	static const char *const keys[] = { "accel", "tag", "engine", "filter", NULL };
	const char *vals[] = { accel, tag, engine, filter, NULL };

	return csv_find(&run.results, keys, vals);
}

static void crosscheck_rows(const char *accel)
{
	size_t i;
	int e;

	for (i = 0; i < sizeof(crosscheck_pairs) / sizeof(crosscheck_pairs[0]); i++)
		for (e = 0; e < reg_engines()->n; e++) {
			const char *eng = reg_engines()->rec[e].name;
			const struct csv_row *t = tagged(accel, "test_bpf", eng,
							 crosscheck_pairs[i].test);
			const struct csv_row *h = tagged(accel, "crosscheck", eng,
							 crosscheck_pairs[i].filter);

			if (!t && !h)
				continue;
			put_fields((const char *const[]){ accel, eng, crosscheck_pairs[i].test,
						crosscheck_pairs[i].filter,
						res(t ? t : h, "unit"),
						t ? res(t, "median") : "",
						h ? res(h, "median") : "", NULL });
			put_num(100 * (median(h) - median(t)) / median(t),
				t && h && median(t) > 0, 1);
		}
}

static void write_file(const char *dir, const char *name, const char *header,
		       void (*rows)(const char *accel))
{
	char path[4096], tmp[4200];
	int a;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		perror(tmp);
		exit(1);
	}
	fprintf(out, "%s\n", header);
	for (a = 0; a < run.naccels; a++)
		rows(run.accels[a]);
	if (ferror(out) || fclose(out) || rename(tmp, path)) {
		perror(path);
		remove(tmp);
		exit(1);
	}
}

/* What mkclaims writes after median-ratios.csv, which they read, in order. */
static const struct {
	const char *name, *header;
	void (*rows)(const char *accel);
} outputs[] = {
	{ "claims.csv",
	  "accel,kind,flavour,claim,text,cell,ref2014,value,ci_lo,ci_hi,verdict,basis,"
	  "layouts,layout_min,layout_max,layout_verdicts,inverse", claims },
	{ "decomposition.csv",
	  "accel,kind,flavour,split,cell,filter,skbs,unit,whole,whole_lo,whole_hi,"
	  "design,design_lo,design_hi,conversion,conversion_lo,conversion_hi,"
	  "conversion_vm_num,conversion_vm_den,basis,design_cost,conversion_cost", splits },
	{ "layouts.csv",
	  "accel,kind,flavour,unit,what,name,filter,skbs,layouts,built,median,min,max",
	  layout_rows },
	{ "against.csv",
	  "accel,against,kind,unit,engine,filter,skbs,figure,against_figure,delta,ratio",
	  against_rows },
	{ "validation.csv",
	  "accel,core,predictor,own,year,cell,pair,ref2014,built,layouts,model,model_min,"
	  "model_max,insns,measured,uml,uml_lo,uml_hi,model_off_pct,insns_off_pct,within10,"
	  "closer", validation_rows },
	{ "crosscheck.csv", "accel,engine,test,filter,unit,test_bpf,harness,diff_pct",
	  crosscheck_rows },
	{ "mixed.csv",
	  "accel,kind,unit,core,figure,filter,skbs,what,single,mixed,layouts,mixed_min,"
	  "mixed_max,ci_lo,ci_hi,timed,timed_ratio,timed_lo,timed_hi,off_pct,basis",
	  mixed_rows },
};

int main(int argc, char **argv)
{
	char path[4096], ratios[4096];
	FILE *f;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: mkclaims RUN_DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/results.csv", argv[1]);
	snprintf(ratios, sizeof(ratios), "%s/ratios.csv", argv[1]);
	f = fopen(ratios, "r");
	if (f)
		fclose(f);
	run_open(&run, path, f ? ratios : NULL, NULL);
	layouts_load(&lays, argv[1]);
	snprintf(path, sizeof(path), "%s/mix-ratios.csv", argv[1]);
	f = fopen(path, "r");
	if (f) {
		fclose(f);
		csv_load(&mixratios, path);
		has_mixratios = 1;
	}
	/* the ratios of the medians first: the claims and splits read them */
	find_pairs();
	write_file(argv[1], "median-ratios.csv",
		   "accel,kind,flavour,unit,tag,filter,skbs,pair,ratio,ci_lo,ci_hi,cis",
		   median_ratios);
	snprintf(path, sizeof(path), "%s/median-ratios.csv", argv[1]);
	csv_load(&run.mratios, path);
	run.has_mratios = 1;
	run_type_cells(&run);
	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		write_file(argv[1], outputs[i].name, outputs[i].header, outputs[i].rows);
	return 0;
}
