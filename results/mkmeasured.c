// SPDX-License-Identifier: GPL-2.0
/*
 * mkmeasured - a record of bench/measured.conf from a run's measured
 * ratios, so that a host a later run adds is held against the model with
 * the run's own figures, not figures copied by hand.
 *
 *   mkmeasured RUN_DIR ACCEL NAME CORE
 *
 * Prints "measured NAME" with its title, cpu (run.txt host_cpu_id, "not
 * recorded" before runs recorded it), core CORE, flavour (the kernel flavour
 * ACCEL booted: which architecture's model it is held against), run (the run id and what
 * the CIs are over) and one ratio.PAIR line per pair of
 * bench/measured.conf's kind (old/new, old/new2014, new2014/new): RATIO:LO:HI
 * of ACCEL's ratios.csv row in each cell record, in their order.  Exits 1
 * when the run lacks a pair in a cell or CORE is no core record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/registry.h"
#include "../lib/run.h"

static const char *const pairs[] = { "old/new", "old/new2014", "new2014/new" };

/* The row of the paired ratio @pair in cell record @cell, or NULL. */
static const struct csv_row *paired_row(const struct run *run, const char *accel,
					const char *pair, const struct reg_rec *cell)
{
	const struct run_quot *q = run_quot(run, accel, "bench", pair, reg_get(cell, "filter"),
					    reg_get(cell, "skbs"));

	return q ? q->paired.row : NULL;
}

int main(int argc, char **argv)
{
	char rpath[4096], over[96];
	const char *accel, *name, *core;
	const struct csv_row *first = NULL;
	struct run run;
	size_t p;
	int c;

	if (argc != 5) {
		fprintf(stderr, "usage: mkmeasured RUN_DIR ACCEL NAME CORE\n");
		return 2;
	}
	accel = argv[2];
	name = argv[3];
	core = argv[4];
	if (!reg_find(reg_cores(), core, 0)) {
		fprintf(stderr, "mkmeasured: no core record '%s' (%s)\n", core, reg_cores()->path);
		return 1;
	}
	snprintf(rpath, sizeof(rpath), "%s/ratios.csv", argv[1]);
	run_load_dir(&run, argv[1]);
	for (p = 0; p < sizeof(pairs) / sizeof(pairs[0]) && !first; p++)
		first = paired_row(&run, accel, pairs[p], &reg_cells()->rec[0]);
	if (!first) {
		fprintf(stderr, "mkmeasured: %s: no ratio of accel %s\n", rpath, accel);
		return 1;
	}
	run_ci_over(&run.ratios, first, over, sizeof(over));
	printf("measured %s\n", name);
	printf("\ttitle\t\t%s host (%s, %s)\n", *run_info(&run, "host_cpu") ?
	       run_info(&run, "host_cpu") : "a", accel, over);
	printf("\tcpu\t\t%s\n", *run_info(&run, "host_cpu_id") ? run_info(&run, "host_cpu_id") :
	       "not recorded");
	printf("\tcore\t\t%s\n", core);
	printf("\tflavour\t\t%s\n", csv_get(&run.ratios, first, "flavour"));
	printf("\trun\t\t%s: %s, %s\n", run_info(&run, "run_id"), accel, over);
	for (p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		printf("\tratio.%s\t", pairs[p]);
		for (c = 0; c < reg_cells()->n; c++) {
			const struct reg_rec *cell = &reg_cells()->rec[c];
			const struct csv_row *r = paired_row(&run, accel, pairs[p], cell);
			double lo, hi;

			if (!r || !run_ci(&run.ratios, r, &lo, &hi)) {
				fprintf(stderr, "mkmeasured: %s: no %s ratio with a CI in cell %s\n",
					rpath, pairs[p], cell->name);
				return 1;
			}
			printf("%s%s:%.4f:%.4f", c ? " " : "",
			       csv_get(&run.ratios, r, "ratio"), lo, hi);
		}
		printf("\n");
	}
	return 0;
}
