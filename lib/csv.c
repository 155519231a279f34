// SPDX-License-Identifier: GPL-2.0
/* Reading results.csv (RFC 4180 quoting, header line first). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* Split one CSV line in place; returns the number of fields. */
static int split_csv(char *s, char **out)
{
	int n = 0;

	while (n < CSV_MAX_COLS) {
		if (*s == '"') {
			char *r = s + 1, *w = s;

			out[n++] = w;
			while (*r) {
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			*w = '\0';
			if (*r != ',')
				return n;
			s = r + 1;
			continue;
		}
		out[n++] = s;
		while (*s && *s != ',' && *s != '\n')
			s++;
		if (*s != ',') {
			*s = '\0';
			return n;
		}
		*s++ = '\0';
	}
	return n;
}

/*
 * The columns that hold numbers, in results.csv, ratios.csv and mkclaims'
 * files: each field is empty or a finite number (the perf counters may
 * also read "not supported" and are not in here).
 */
static const char *const numeric[] = {
	"skbs", "samples", "calls_per_sample", "min", "median", "mean",
	"stddev", "ci_lo", "ci_hi", "ci_level", "placements", "gate_waits",
	"ratio", "rounds", "halfwidth_pct", "value", "design", "design_lo",
	"design_hi", "conversion", "conversion_lo", "conversion_hi",
	"mode_units", "mode_factor", "apart80_pct", "median_per_vm_insn",
};

static int is_numeric(const char *col)
{
	size_t i;

	for (i = 0; i < sizeof(numeric) / sizeof(numeric[0]); i++)
		if (!strcmp(numeric[i], col))
			return 1;
	return 0;
}

static int is_number(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return 1;
	errno = 0;
	v = strtod(s, &end);
	return !errno && !*end && isfinite(v);
}

/*
 * A results.csv (or ratios.csv) beside an INCOMPLETE marker belongs to a
 * run that did not get to the end (bench/host/run-bench.sh): refused.
 */
static void refuse_incomplete(const char *path)
{
	char dir[4096], mark[4200], why[512] = "";
	const char *slash = strrchr(path, '/');
	FILE *f;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(mark, sizeof(mark), "%s/INCOMPLETE", dir);
	f = fopen(mark, "r");
	if (!f)
		return;
	if (!fgets(why, sizeof(why), f))
		why[0] = '\0';
	fclose(f);
	why[strcspn(why, "\n")] = '\0';
	fprintf(stderr, "%s: the run is marked incomplete (%s: %s): not a result\n",
		path, mark, why);
	exit(1);
}

int csv_read_line(FILE *f, char *buf, size_t n, const char **why)
{
	size_t len;

	if (!fgets(buf, n, f))
		return 0;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		return 1;
	*why = feof(f) ? "truncated (no newline at the end of the file)" : "line too long";
	return -1;
}

void csv_load(struct csv *csv, const char *path)
{
	static char line[65536];
	char *cells[CSV_MAX_COLS];
	FILE *f;
	int n, i, cap = 0, lineno = 1, got;
	const char *why;

	refuse_incomplete(path);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(1);
	}
	memset(csv, 0, sizeof(*csv));
	if (!fgets(line, sizeof(line), f)) {
		fprintf(stderr, "%s is empty\n", path);
		exit(1);
	}
	csv->ncols = split_csv(line, cells);
	for (i = 0; i < csv->ncols; i++)
		csv->colname[i] = strdup(cells[i]);
	while ((got = csv_read_line(f, line, sizeof(line), &why))) {
		lineno++;
		if (got < 0) {
			fprintf(stderr, "%s:%d: %s\n", path, lineno, why);
			exit(1);
		}
		n = split_csv(line, cells);
		if (n != csv->ncols) {
			fprintf(stderr, "%s:%d: %d fields, the header has %d (truncated or garbled)\n",
				path, lineno, n, csv->ncols);
			exit(1);
		}
		for (i = 0; i < n; i++) {
			if (!is_numeric(csv->colname[i]) || is_number(cells[i]))
				continue;
			fprintf(stderr, "%s:%d: %s '%.40s' is not a number\n",
				path, lineno, csv->colname[i], cells[i]);
			exit(1);
		}
		if (csv->nrows == cap) {
			cap = cap ? 2 * cap : 256;
			csv->rows = realloc(csv->rows, cap * sizeof(*csv->rows));
			if (!csv->rows) {
				perror("realloc");
				exit(1);
			}
		}
		for (i = 0; i < n; i++)
			csv->rows[csv->nrows].f[i] = strdup(cells[i]);
		csv->nrows++;
	}
	fclose(f);
}

const char *csv_get(const struct csv *csv, const struct csv_row *r,
		    const char *name)
{
	int i;

	for (i = 0; i < csv->ncols; i++)
		if (!strcmp(csv->colname[i], name))
			return r && r->f[i] ? r->f[i] : "";
	fprintf(stderr, "no column '%s'\n", name);
	exit(1);
}

int csv_has(const struct csv *csv, const char *name)
{
	int i;

	for (i = 0; i < csv->ncols; i++)
		if (!strcmp(csv->colname[i], name))
			return 1;
	return 0;
}

const struct csv_row *csv_find(const struct csv *csv, const char *const *keys,
			       const char *const *values)
{
	int i, k;

	for (i = 0; csv && i < csv->nrows; i++) {
		for (k = 0; keys[k]; k++)
			if (values[k] &&
			    strcmp(csv_get(csv, &csv->rows[i], keys[k]), values[k]))
				break;
		if (!keys[k])
			return &csv->rows[i];
	}
	return NULL;
}

void csv_put(FILE *f, const char *field, int last)
{
	const char *s;

	if (!strpbrk(field, ",\"\n")) {
		fputs(field, f);
	} else {
		fputc('"', f);
		for (s = field; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fputc(last ? '\n' : ',', f);
}
