// SPDX-License-Identifier: GPL-2.0
/*
 * csvget - one field of a results file, for the shell scripts and tests.
 *
 *   csvget [-a] FILE.csv COLUMN [KEY=VALUE...]
 *
 * Prints COLUMN of the first row of FILE.csv (results.csv, ratios.csv,
 * claims.csv, ...) whose columns KEY hold VALUE (-a: of every such row, a
 * line each, in file order); exits 1 when no row matches, 2 on bad
 * arguments.  Reads the file with lib/csv.c (RFC
 * 4180 quoting), so a quoted field with commas is one field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/csv.h"

/* The row after @r whose columns KEYS hold VALUES, or NULL. */
static const struct csv_row *next_row(const struct csv *c, const struct csv_row *r,
				      const char *const *keys, const char *const *values)
{
	struct csv rest = *c;

	rest.rows = (struct csv_row *)r + 1;
	rest.nrows = c->nrows - (int)(r - c->rows) - 1;
	return csv_find(&rest, keys, values);
}

int main(int argc, char **argv)
{
	const char **keys, **values;
	const struct csv_row *r;
	struct csv c;
	int i, n, all = argc > 1 && !strcmp(argv[1], "-a"), found = 0;

	argc -= all;
	argv += all;
	n = argc - 3;
	if (argc < 3) {
		fprintf(stderr, "usage: csvget [-a] FILE.csv COLUMN [KEY=VALUE...]\n");
		return 2;
	}
	keys = calloc(n + 1, sizeof(*keys));
	values = calloc(n + 1, sizeof(*values));
	if (!keys || !values) {
		perror("calloc");
		return 1;
	}
	csv_load(&c, argv[1]);
	for (i = 0; i < n; i++) {
		char *eq = strchr(argv[3 + i], '=');

		if (!eq || eq == argv[3 + i] || !csv_has(&c, (*eq = '\0', argv[3 + i]))) {
			fprintf(stderr, "csvget: '%s' is not KEY=VALUE with a column KEY of %s\n",
				argv[3 + i], argv[1]);
			return 2;
		}
		keys[i] = argv[3 + i];
		values[i] = eq + 1;
	}
	if (!csv_has(&c, argv[2])) {
		fprintf(stderr, "csvget: %s has no column '%s'\n", argv[1], argv[2]);
		return 2;
	}
	for (r = csv_find(&c, keys, values); r; r = all ? next_row(&c, r, keys, values) : NULL) {
		printf("%s\n", csv_get(&c, r, argv[2]));
		found = 1;
	}
	return !found;
}
