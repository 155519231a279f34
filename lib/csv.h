/* SPDX-License-Identifier: GPL-2.0 */
/* A results.csv loaded in memory: rows of fields looked up by column name. */
#ifndef RESULTS_CSV_H
#define RESULTS_CSV_H

#include <stdio.h>

#define CSV_MAX_COLS 256

struct csv_row {
	char *f[CSV_MAX_COLS];
};

struct csv {
	int ncols, nrows;
	char *colname[CSV_MAX_COLS];
	struct csv_row *rows;
};

/*
 * Load PATH; exits with a message "PATH:LINE: why" on a malformed file (a
 * truncated line, a row whose fields do not match the header, a numeric
 * column that holds no number), and refuses the results of a run marked
 * incomplete (an INCOMPLETE file beside PATH).
 */
void csv_load(struct csv *csv, const char *path);
/*
 * The next line of @f into @buf (@n bytes), its newline kept: 1; 0 at the
 * end of the file; -1 with *@why set when the line has no newline (a
 * truncated file) or does not fit.
 */
int csv_read_line(FILE *f, char *buf, size_t n, const char **why);
/* Field NAME of row R ("" when empty); exits if the column is unknown. */
const char *csv_get(const struct csv *csv, const struct csv_row *r,
		    const char *name);
/* 1 when the file has a column NAME. */
int csv_has(const struct csv *csv, const char *name);
/*
 * The first row whose column KEYS[k] holds VALUES[k] for every k (KEYS
 * ends with NULL; a NULL value matches any), or NULL; a NULL @csv has no
 * rows.
 */
const struct csv_row *csv_find(const struct csv *csv, const char *const *keys,
			       const char *const *values);
/* One field to F, RFC 4180 quoted when needed, then ',' or (@last) '\n'. */
void csv_put(FILE *f, const char *field, int last);

#endif
