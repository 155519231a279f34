// SPDX-License-Identifier: GPL-2.0
/* Reading results.csv (RFC 4180 quoting, header line first). */
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

void csv_load(struct csv *csv, const char *path)
{
	static char line[65536];
	char *cells[CSV_MAX_COLS];
	FILE *f = fopen(path, "r");
	int n, i, cap = 0;

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
	while (fgets(line, sizeof(line), f)) {
		n = split_csv(line, cells);
		if (n != csv->ncols) {
			fprintf(stderr, "%s: line %d has %d fields, want %d\n",
				path, csv->nrows + 2, n, csv->ncols);
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
