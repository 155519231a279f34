// SPDX-License-Identifier: GPL-2.0
/*
 * mktrend - one accelerator's figures on several kernels, beside the 2014
 * table: for each cell of engines.conf and each engine, the 2014 figure
 * of the accelerator's architecture, then per run (one column each, headed
 * by its kernel version) the median per call and the VM instructions one
 * call executes, and the last run's median over the first's.
 *
 * usage: mktrend ACCEL RUN_DIR...   (make trend RUNS="results/A results/B")
 *
 * The runs are tables-stage outputs (results.csv); each must have ACCEL.
 * A counted accelerator's figures are exact, so the change between two
 * kernels is the change in the code that runs, not noise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "run.h"

#define MAX_RUNS 8

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "mktrend: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
	exit(1);
}

int main(int argc, char **argv)
{
	struct run runs[MAX_RUNS];
	const char *accel, *flavour, *unit;
	const struct csv_row *any;
	struct reg *eng = reg_engines(), *cells = reg_cells();
	int n, i, c, e;

	if (argc < 3 || argc - 2 > MAX_RUNS) {
		fprintf(stderr, "usage: mktrend ACCEL RUN_DIR... (1 to %d runs)\n", MAX_RUNS);
		return 2;
	}
	accel = argv[1];
	n = argc - 2;
	memset(runs, 0, sizeof(runs));
	for (i = 0; i < n; i++) {
		run_load_dir(&runs[i], argv[i + 2]);
		if (!run_accel_row(&runs[i], accel))
			die("no results of this accelerator in", argv[i + 2]);
	}
	any = run_accel_row(&runs[0], accel);
	flavour = csv_get(&runs[0].results, any, "flavour");
	unit = csv_get(&runs[0].results, any, "unit");

	printf("trend, accel=%s, flavour %s: %s\n2014: ns per call on hardware (the %s table); the runs: %s per call\n",
	       accel, flavour, run_accel_what(&runs[0], accel),
	       reg_ref_arch(flavour), unit);
	printf("%-22s %8s", "", "2014");
	for (i = 0; i < n; i++)
		printf("  %16.16s", *run_info(&runs[i], "kernel") ?
		       run_info(&runs[i], "kernel") :
		       csv_get(&runs[i].results, run_accel_row(&runs[i], accel), "kernel"));
	printf("  %9s\n", n > 1 ? "last/first" : "");
	printf("%-22s %8s", "", "ns");
	for (i = 0; i < n; i++)
		printf("  %16s", "median (vm insns)");
	printf("\n");
	for (c = 0; c < cells->n; c++) {
		const char *filter = reg_get(&cells->rec[c], "filter");
		const char *skbs = reg_get(&cells->rec[c], "skbs");

		printf("%s %s\n", reg_get(&cells->rec[c], "head"),
		       reg_get(&cells->rec[c], "sub"));
		for (e = 0; e < eng->n; e++) {
			const char *name = eng->rec[e].name;
			char ref[REG_MAX][32];
			double first = 0, last = 0;
			int have = 0;

			for (i = 0; i < n; i++)
				have |= !!run_result(&runs[i], accel, "bench", name, filter, skbs);
			if (!have)
				continue;
			printf("  %-20s", engine_label(name));
			/* the 2014 figures are per cell, in the cells' order */
			if (reg_ref(&eng->rec[e], "ref2014", flavour, ref, REG_MAX) == cells->n)
				printf(" %8s", ref[c]);
			else
				printf(" %8s", "-");
			for (i = 0; i < n; i++) {
				const struct csv_row *r = run_result(&runs[i], accel, "bench",
								     name, filter, skbs);
				const struct csv *cv = &runs[i].results;
				char vm[24] = "";

				if (!r) {
					printf("  %16s", "-");
					continue;
				}
				if (csv_has(cv, "vm_insns") && *csv_get(cv, r, "vm_insns"))
					snprintf(vm, sizeof(vm), "(%s)", csv_get(cv, r, "vm_insns"));
				printf("  %10.1f %5s", atof(csv_get(cv, r, "median")), vm);
				if (i == 0)
					first = atof(csv_get(cv, r, "median"));
				if (i == n - 1)
					last = atof(csv_get(cv, r, "median"));
			}
			if (n > 1 && first > 0 && last > 0)
				printf("  %9.2f", last / first);
			printf("\n");
		}
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
