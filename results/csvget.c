// SPDX-License-Identifier: GPL-2.0
/*
 * csvget - one field of a results file, for the shell scripts and tests.
 *
 *   csvget FILE.csv COLUMN [KEY=VALUE...]
 *
 * Prints COLUMN of the first row of FILE.csv (results.csv, ratios.csv,
 * claims.csv, ...) whose columns KEY hold VALUE; exits 1 when no row
 * matches, 2 on bad arguments.  Reads the file with results/csv.c (RFC
 * 4180 quoting), so a quoted field with commas is one field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

int main(int argc, char **argv)
{
	const char **keys, **values;
	const struct csv_row *r;
	struct csv c;
	int i, n = argc - 3;

	if (argc < 3) {
		fprintf(stderr, "usage: csvget FILE.csv COLUMN [KEY=VALUE...]\n");
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
	r = csv_find(&c, keys, values);
	if (!r)
		return 1;
	printf("%s\n", csv_get(&c, r, argv[2]));
	return 0;
}
