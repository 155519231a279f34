// SPDX-License-Identifier: GPL-2.0
/*
 * A run's cells and ratios typed once (run.h, struct run_cell and struct
 * run_quot): each figure parsed from its file here, and the choice of
 * which figure a cell or a ratio shows made here, so every table, plot
 * and letter prints the same number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static double field(const struct csv *csv, const struct csv_row *r,
		    const char *col)
{
	const char *s = csv && r && csv_has(csv, col) ? csv_get(csv, r, col) : "";
	char *end;
	double v;

	if (!*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

/* Figure @col of row @r of @csv, with the row's CI and what it is over. */
static void fig(struct run_fig *f, const struct csv *csv,
		const struct csv_row *r, const char *col)
{
	f->csv = r ? csv : NULL;
	f->row = r;
	f->v = field(f->csv, r, col);
	f->lo = field(f->csv, r, "ci_lo");
	f->hi = field(f->csv, r, "ci_hi");
	if (isnan(f->lo) || isnan(f->hi))
		f->lo = f->hi = NAN;
	f->over = f->csv && csv_has(csv, "ci_over") ? csv_get(csv, r, "ci_over") : "";
	f->boots = f->csv && csv_has(csv, "boots") && !isnan(field(csv, r, "boots")) ?
		   (int)field(csv, r, "boots") : 1;
}

/* Column @col of row @r, "" where @csv has no such column. */
static const char *opt(const struct csv *csv, const struct csv_row *r, const char *col)
{
	return csv_has(csv, col) ? csv_get(csv, r, col) : "";
}

static void *grow(void *p, int n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p) {
		perror("realloc");
		exit(1);
	}
	return p;
}

/* The median's whiskers: its CI, else min..max, else min..mean+1 sd. */
static void whiskers(struct run_cell *c, const struct csv *res,
		     const struct csv_row *r)
{
	double med = c->median.v;

	c->whisker = RUN_WHISKER_CI;
	c->whisker_lo = c->median.lo;
	c->whisker_hi = c->median.hi;
	if (isnan(c->whisker_lo)) {
		c->whisker = csv_has(res, "max") ? RUN_WHISKER_MINMAX : RUN_WHISKER_SD;
		c->whisker_lo = field(res, r, "min");
		c->whisker_hi = csv_has(res, "max") ? field(res, r, "max") :
				field(res, r, "mean") + field(res, r, "stddev");
	}
	if (isnan(c->whisker_lo) || c->whisker_lo > med)
		c->whisker_lo = med;
	if (isnan(c->whisker_hi) || c->whisker_hi < med)
		c->whisker_hi = med;
}

static struct run_cell *new_cell(struct run *run, const struct csv *csv,
				 const struct csv_row *r, const char *tag)
{
	struct run_cell *c;

	run->cells = grow(run->cells, run->ncells, sizeof(*run->cells));
	c = &run->cells[run->ncells++];
	memset(c, 0, sizeof(*c));
	c->accel = csv_get(csv, r, "accel");
	c->kind = opt(csv, r, "kind");
	c->tag = tag;
	c->engine = csv_get(csv, r, "engine");
	c->filter = csv_get(csv, r, "filter");
	c->packet = opt(csv, r, "packet");
	c->skbs = csv_get(csv, r, "skbs");
	c->unit = opt(csv, r, "unit");
	c->vm_insns = c->per_vm_insn = NAN;
	return c;
}

static void type_cell(struct run *run, const struct csv_row *r)
{
	const struct csv *res = &run->results;
	struct run_cell *c = new_cell(run, res, r, csv_get(res, r, "tag"));


	fig(&c->median, res, r, "median");
	fig(&c->paired, &run->absolute, strcmp(c->tag, "bench") ? NULL :
	    run_absolute(run, c->accel, c->engine, c->filter, c->skbs), "median");
	whiskers(c, res, r);
	c->vm_insns = field(res, r, "vm_insns");
	c->per_vm_insn = field(res, r, "median_per_vm_insn");
}

static struct run_quot *quot_slot(struct run *run, const char *accel,
				  const char *tag, const char *pair,
				  const char *filter, const char *skbs)
{
	struct run_quot *q;
	int i;

	for (i = 0; i < run->nquots; i++) {
		q = &run->quots[i];
		if (!strcmp(q->accel, accel) && !strcmp(q->tag, tag) &&
		    !strcmp(q->pair, pair) && !strcmp(q->filter, filter) &&
		    !strcmp(q->skbs, skbs))
			return q;
	}
	run->quots = grow(run->quots, run->nquots, sizeof(*run->quots));
	q = &run->quots[run->nquots++];
	memset(q, 0, sizeof(*q));
	q->accel = accel;
	q->tag = tag;
	q->pair = pair;
	q->filter = filter;
	q->skbs = skbs;
	q->halfwidth_pct = NAN;
	return q;
}

static void type_quots(struct run *run)
{
	const struct csv *p = &run->ratios, *m = &run->mratios;
	struct run_quot *q;
	int i;

	for (i = 0; run->has_ratios && i < p->nrows; i++) {
		const struct csv_row *r = &p->rows[i];

		q = quot_slot(run, csv_get(p, r, "accel"), "bench", csv_get(p, r, "pair"),
			      csv_get(p, r, "filter"), csv_get(p, r, "skbs"));
		if (q->paired.csv)
			continue;	/* the first row of a cell, as a lookup finds it */
		fig(&q->paired, p, r, "ratio");
		q->halfwidth_pct = field(p, r, "halfwidth_pct");
	}
	for (i = 0; run->has_mratios && i < m->nrows; i++) {
		const struct csv_row *r = &m->rows[i];

		q = quot_slot(run, csv_get(m, r, "accel"), csv_get(m, r, "tag"),
			      csv_get(m, r, "pair"), csv_get(m, r, "filter"),
			      csv_get(m, r, "skbs"));
		if (!q->medians.csv)
			fig(&q->medians, m, r, "ratio");
	}
	for (i = 0; i < run->nquots; i++) {
		q = &run->quots[i];
		q->figure = q->paired.csv ? &q->paired : &q->medians;
	}
}

void run_type_cells(struct run *run)
{
	int i;

	free(run->cells);
	free(run->quots);
	run->cells = NULL;
	run->quots = NULL;
	run->ncells = run->nquots = 0;
	for (i = 0; i < run->results.nrows; i++)
		type_cell(run, &run->results.rows[i]);
	/*
	 * an engine the paired rounds timed over boots and the bench plan
	 * did not
	 */
	for (i = 0; run->has_absolute && i < run->absolute.nrows; i++) {
		const struct csv *a = &run->absolute;
		const struct csv_row *r = &a->rows[i], *ab;
		const char *accel = csv_get(a, r, "accel"), *engine = csv_get(a, r, "engine");
		const char *filter = csv_get(a, r, "filter"), *skbs = csv_get(a, r, "skbs");
		struct run_cell *c;

		ab = run_absolute(run, accel, engine, filter, skbs);
		if (ab != r || run_cell(run, accel, "bench", engine, filter, skbs))
			continue;
		c = new_cell(run, a, r, "bench");
		fig(&c->median, NULL, NULL, "median");
		fig(&c->paired, a, ab, "median");
		c->whisker_lo = c->whisker_hi = NAN;
	}
	/* the array has stopped moving: point each cell at its figure */
	for (i = 0; i < run->ncells; i++)
		run->cells[i].figure = run->cells[i].paired.csv ? &run->cells[i].paired :
				       &run->cells[i].median;
	type_quots(run);
}

static int match(const char *want, const char *have)
{
	return !want || !strcmp(want, have);
}

const struct run_cell *run_cell_on(const struct run *run, const char *accel,
				   const char *tag, const char *engine,
				   const char *filter, const char *packet,
				   const char *skbs)
{
	int i;

	for (i = 0; i < run->ncells; i++) {
		const struct run_cell *c = &run->cells[i];

		if (!strcmp(c->accel, accel) && !strcmp(c->tag, tag) &&
		    !strcmp(c->engine, engine) && match(filter, c->filter) &&
		    match(packet, c->packet) && match(skbs, c->skbs))
			return c;
	}
	return NULL;
}

const struct run_cell *run_cell(const struct run *run, const char *accel,
				const char *tag, const char *engine,
				const char *filter, const char *skbs)
{
	return run_cell_on(run, accel, tag, engine, filter, NULL, skbs);
}

const struct run_quot *run_quot(const struct run *run, const char *accel,
				const char *tag, const char *pair,
				const char *filter, const char *skbs)
{
	int i;

	for (i = 0; i < run->nquots; i++) {
		const struct run_quot *q = &run->quots[i];

		if (!strcmp(q->accel, accel) && !strcmp(q->tag, tag) &&
		    !strcmp(q->pair, pair) && match(filter, q->filter) &&
		    match(skbs, q->skbs))
			return q;
	}
	return NULL;
}
