// SPDX-License-Identifier: GPL-2.0
/* Paired engine comparisons: parsing and order statistics (paired.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "paired.h"
#include "../lib/stats.h"

#define LINE_MAX_LEN	4096

static int errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_name(const char *s)
{
	if (!*s || strlen(s) >= PAIRED_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return 0;
	return 1;
}

static int parse_uint(const char *s, unsigned int *v)
{
	unsigned long x;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x > 0xffffffffUL)
		return -1;
	*v = (unsigned int)x;
	return 0;
}

/* A sample: a finite decimal number > 0. */
static int parse_value(const char *s, double *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !isfinite(*v) || *v <= 0)
		return -1;
	return 0;
}

int paired_engine(const struct paired_cell *c, const char *name)
{
	int i;

	for (i = 0; i < c->nengines; i++)
		if (!strcmp(c->engine[i], name))
			return i;
	return -1;
}

const struct paired_cell *paired_find(const struct paired_data *d,
				      const struct paired_cell *key)
{
	size_t i;

	for (i = 0; i < d->ncells; i++) {
		const struct paired_cell *c = &d->cells[i];

		if (c->skbs == key->skbs && !strcmp(c->filter, key->filter) &&
		    !strcmp(c->packet, key->packet))
			return c;
	}
	return NULL;
}

static struct paired_cell *find_cell(struct paired_data *d, const char *filter,
				     const char *packet, unsigned int skbs)
{
	struct paired_cell *c;
	size_t i;

	for (i = 0; i < d->ncells; i++) {
		c = &d->cells[i];
		if (c->skbs == skbs && !strcmp(c->filter, filter) &&
		    !strcmp(c->packet, packet))
			return c;
	}
	c = realloc(d->cells, (d->ncells + 1) * sizeof(*d->cells));
	if (!c)
		return NULL;
	d->cells = c;
	c = &d->cells[d->ncells++];
	memset(c, 0, sizeof(*c));
	strcpy(c->filter, filter);
	strcpy(c->packet, packet);
	c->skbs = skbs;
	return c;
}

/* One "paired ..." line, without its "paired " prefix. */
static int parse_line(char *s, struct paired_data *d, char *err, size_t len)
{
	static const char *const need[] = { "filter", "packet", "skbs",
					    "placement" };
	char *tok, *val, *fields[4] = { NULL };
	char *ename[PAIRED_MAX_ENGINES];
	double ev[PAIRED_MAX_ENGINES];
	int has_round = 0, header = 0, ne = 0, i, j, e;
	unsigned int round = 0, skbs, placement;
	struct paired_round *r;
	struct paired_cell *c;
	size_t k;

	for (tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
		val = strchr(tok, '=');
		if (!val || val == tok || !val[1])
			return errf(err, len, "'%.40s' is not key=value", tok);
		*val++ = '\0';
		for (i = 0; i < 4; i++)
			if (!strcmp(tok, need[i]))
				break;
		if (i < 4) {
			if (fields[i])
				return errf(err, len, "%s given twice", tok);
			fields[i] = val;
		} else if (!strcmp(tok, "round")) {
			if (has_round || parse_uint(val, &round))
				return errf(err, len, "bad round '%.40s'", val);
			has_round = 1;
		} else if (!strcmp(tok, "engines")) {
			header = 1;
		} else if (!header) {
			/* a round line: engine=ns */
			if (!is_name(tok))
				return errf(err, len, "bad engine name '%.40s'",
					    tok);
			for (j = 0; j < ne; j++)
				if (!strcmp(ename[j], tok))
					return errf(err, len, "engine %s given twice",
						    tok);
			if (ne == PAIRED_MAX_ENGINES)
				return errf(err, len, "more than %d engines",
					    PAIRED_MAX_ENGINES);
			if (parse_value(val, &ev[ne]))
				return errf(err, len, "%s=%.40s is not a number > 0",
					    tok, val);
			ename[ne++] = tok;
		}
	}
	for (i = 0; i < 4; i++)
		if (!fields[i])
			return errf(err, len, "no %s=", need[i]);
	if (!is_name(fields[0]) || !is_name(fields[1]))
		return errf(err, len, "bad filter or packet name");
	if (parse_uint(fields[2], &skbs) || !skbs)
		return errf(err, len, "bad skbs '%.40s'", fields[2]);
	if (parse_uint(fields[3], &placement))
		return errf(err, len, "bad placement '%.40s'", fields[3]);
	if (header) {
		if (has_round)
			return errf(err, len, "a header line (engines=) with round=");
		return 0;
	}
	if (!has_round)
		return errf(err, len, "neither round= nor engines=");
	if (ne < 2)
		return errf(err, len, "round %u: %d engine(s), need 2 or more",
			    round, ne);

	c = find_cell(d, fields[0], fields[1], skbs);
	if (!c)
		return errf(err, len, "out of memory");
	if (!c->nengines) {
		for (j = 0; j < ne; j++)
			strcpy(c->engine[j], ename[j]);
		c->nengines = ne;
	}
	if (ne != c->nengines)
		return errf(err, len, "round %u: %d engines, the cell's first round had %d",
			    round, ne, c->nengines);
	for (k = 0; k < c->nrounds; k++)
		if (c->rounds[k].placement == placement &&
		    c->rounds[k].round == round)
			return errf(err, len, "placement %u round %u given twice",
				    placement, round);
	if (c->nrounds == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		r = realloc(c->rounds, c->cap * sizeof(*r));
		if (!r)
			return errf(err, len, "out of memory");
		c->rounds = r;
	}
	r = &c->rounds[c->nrounds];
	r->placement = placement;
	r->round = round;
	for (j = 0; j < ne; j++) {
		e = paired_engine(c, ename[j]);
		if (e < 0)
			return errf(err, len, "round %u: engine %s not in the cell's first round",
				    round, ename[j]);
		r->v[e] = ev[j];
	}
	c->nrounds++;
	return 0;
}

int paired_read(FILE *f, const char *name, struct paired_data *d,
		char *err, size_t errlen)
{
	char line[LINE_MAX_LEN], why[256];
	unsigned long lineno = 0;
	size_t n;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(f))
			return errf(err, errlen, "%s:%lu: line too long",
				    name, lineno);
		else
			return errf(err, errlen, "%s:%lu: truncated (no newline at the end of the file)",
				    name, lineno);
		if (strncmp(line, "paired ", 7)) {
			if (d->strict && n)
				return errf(err, errlen, "%s:%lu: not a paired line: %.40s",
					    name, lineno, line);
			continue;
		}
		if (parse_line(line + 7, d, why, sizeof(why)))
			return errf(err, errlen, "%s:%lu: %s", name, lineno, why);
	}
	if (ferror(f))
		return errf(err, errlen, "%s: read error", name);
	return 0;
}

void paired_free(struct paired_data *d)
{
	size_t i;

	for (i = 0; i < d->ncells; i++)
		free(d->cells[i].rounds);
	free(d->cells);
	d->cells = NULL;
	d->ncells = 0;
}

void paired_median_ci(double *v, size_t n, struct paired_stat *st)
{
	st->n = n;
	st->has_ci = stats_median_ci(v, (int)n, &st->median, &st->lo,
				     &st->hi, &st->level);
	if (!st->has_ci)
		st->lo = st->hi = st->level = 0;
}
