// SPDX-License-Identifier: GPL-2.0
/*
 * mktrend - one accelerator's figures on several kernels, beside the 2014
 * table: for each cell of engines.conf and each engine, the 2014 figure
 * of the accelerator's architecture, then per run (one column each, headed
 * by its kernel version) the median per call and the VM instructions one
 * call executes, and the last run's median over the first's; then the
 * change split into VM instructions and cost per VM instruction (cache-hit
 * cells), and the paired ratios with their CIs per run where the runs have
 * them.
 *
 * usage: mktrend [-p PLOT_DIR] ACCEL RUN_DIR...   (make trend RUNS="A B")
 *        mktrend [-p PLOT_DIR] -r RUN_DIR
 *
 * The runs are tables-stage outputs (results.csv); each must have ACCEL.
 * -r: RUN_DIR against the default kernel's reference run (bench/kernels.conf
 * "reference"), for every counted accelerator both have; nothing for a run
 * of the default kernel (the tables stage appends this to table.txt).
 * -p: no table; the plot of each trend (PLOT_DIR/trend-<accel>.dat and .gp,
 * for plots/bars.gp: last/first per cell and engine) and its index line.
 * A counted accelerator's figures are exact, so the change between two
 * kernels is the change in the code that runs, not noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/registry.h"
#include "../lib/run.h"

#define MAX_RUNS 8

static const char *plot_dir;

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "mktrend: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
	exit(1);
}

static const char *kernel_of(const struct run *run, const char *accel)
{
	const char *k = run_info(run, "kernel");

	return *k ? k : csv_get(&run->results, run_accel_row(run, accel), "kernel");
}

/* The typed cell the bench plan measured (lib/cells.c), or NULL. */
static const struct run_cell *cell(const struct run *run, const char *accel,
				   const char *engine, const struct reg_rec *c)
{
	const struct run_cell *t = run_cell(run, accel, "bench", engine,
					    reg_get(c, "filter"), reg_get(c, "skbs"));

	return t && t->median.csv ? t : NULL;
}

/* The typed paired ratio @pair of cell record @c, or NULL. */
static const struct run_fig *paired(const struct run *run, const char *accel,
				    const char *pair, const struct reg_rec *c)
{
	const struct run_quot *q = run_quot(run, accel, "bench", pair, reg_get(c, "filter"),
					    reg_get(c, "skbs"));

	return q && q->paired.csv ? &q->paired : NULL;
}

/* A typed cell's figure, 0 where it is missing (NAN). */
static double or0(double v)
{
	return isnan(v) ? 0 : v;
}

/*
 * One engine's change in one cell from the first run to the last, formed
 * here once for the table and the plot: the medians, their quotient
 * (0: a run lacks the cell), and per call = VM instructions x cost per VM
 * instruction on each (0: not known).
 */
struct change {
	double first, last, ratio;
	double va, vb, pa, pb, per_insn_ratio;
};

static struct change change_of(struct run *runs, int n, const char *accel,
			       const char *engine, const struct reg_rec *c)
{
	const struct run_cell *a = cell(&runs[0], accel, engine, c);
	const struct run_cell *b = cell(&runs[n - 1], accel, engine, c);
	struct change ch = {
		.first = a ? or0(a->median.v) : 0, .last = b ? or0(b->median.v) : 0,
		.va = a ? or0(a->vm_insns) : 0, .vb = b ? or0(b->vm_insns) : 0,
		.pa = a ? or0(a->per_vm_insn) : 0, .pb = b ? or0(b->per_vm_insn) : 0,
	};

	if (n > 1 && ch.first > 0 && ch.last > 0)
		ch.ratio = ch.last / ch.first;
	if (ch.pa > 0 && ch.pb > 0)
		ch.per_insn_ratio = ch.pb / ch.pa;
	return ch;
}

static int has_engine(struct run *runs, int n, const char *accel,
		      const char *engine, const struct reg_rec *c)
{
	int i;

	for (i = 0; i < n; i++)
		if (cell(&runs[i], accel, engine, c))
			return 1;
	return 0;
}

static void figures(struct run *runs, int n, const char *accel,
		    const char *flavour)
{
	struct reg *eng = reg_engines(), *cells = reg_cells();
	int i, c, e;

	printf("%-22s %8s", "", "2014");
	for (i = 0; i < n; i++)
		printf("  %16.16s", kernel_of(&runs[i], accel));
	printf("  %9s\n", n > 1 ? "last/first" : "");
	printf("%-22s %8s", "", "ns");
	for (i = 0; i < n; i++)
		printf("  %16s", "median (vm insns)");
	printf("\n");
	for (c = 0; c < cells->n; c++) {
		const struct reg_rec *cr = &cells->rec[c];

		printf("%s %s\n", reg_get(cr, "head"), reg_get(cr, "sub"));
		for (e = 0; e < eng->n; e++) {
			const char *name = eng->rec[e].name;
			char ref[REG_MAX][32];
			struct change ch = change_of(runs, n, accel, name, cr);

			if (!has_engine(runs, n, accel, name, cr))
				continue;
			printf("  %-20s", engine_label(name));
			/* the 2014 figures are per cell, in the cells' order */
			if (reg_ref(&eng->rec[e], "ref2014", flavour, ref, REG_MAX) == cells->n)
				printf(" %8s", ref[c]);
			else
				printf(" %8s", "-");
			for (i = 0; i < n; i++) {
				const struct run_cell *r = cell(&runs[i], accel, name, cr);
				char vm[24] = "";

				if (!r) {
					printf("  %16s", "-");
					continue;
				}
				if (or0(r->vm_insns) > 0)
					snprintf(vm, sizeof(vm), "(%s)",
						 csv_get(&runs[i].results, r->median.row, "vm_insns"));
				printf("  %10.1f %5s", or0(r->median.v), vm);
			}
			if (ch.ratio > 0)
				printf("  %9.2f", ch.ratio);
			printf("\n");
		}
	}
}

/*
 * The change from the first run to the last, per engine and cache-hit cell
 * (skbs 1): per call = VM instructions x cost per VM instruction, so a
 * change in what the conversion emits shows apart from one in what the
 * engine pays per instruction.
 */
static void decomposition(struct run *runs, int n, const char *accel)
{
	struct reg *eng = reg_engines(), *cells = reg_cells();
	const char *unit = csv_get(&runs[0].results, run_accel_row(&runs[0], accel), "unit");
	int c, e, same = 1, any = 0;

	if (n < 2)
		return;
	printf("%s -> %s, cache-hit: per call = VM insns x %s per VM insn\n",
	       kernel_of(&runs[0], accel), kernel_of(&runs[n - 1], accel), unit);
	for (e = 0; e < eng->n; e++) {
		const char *name = eng->rec[e].name;
		int shown = 0;

		for (c = 0; c < cells->n; c++) {
			const struct reg_rec *cr = &cells->rec[c];
			struct change ch = change_of(runs, n, accel, name, cr);

			if (strcmp(reg_get(cr, "skbs"), "1") || ch.va <= 0 || ch.vb <= 0 ||
			    ch.per_insn_ratio <= 0)
				continue;
			any = 1;
			same &= ch.va == ch.vb;
			printf("  %-14s %-7s %3g -> %3g VM insns x %6.2f -> %6.2f per insn (%.2fx)\n",
			       shown++ ? "" : engine_label(name), reg_get(cr, "filter"),
			       ch.va, ch.vb, ch.pa, ch.pb, ch.per_insn_ratio);
		}
	}
	if (any)
		printf("  %s\n", same ?
		       "executed VM insns per call: the same on both kernels; a change per call is the engine's cost per VM insn" :
		       "executed VM insns per call differ (above): the conversion or the program emitted changed");
}

/* The paired ratios with their CIs, per run, where the runs have them. */
static void ratios(struct run *runs, int n, const char *accel)
{
	struct reg *rat = reg_ratios(), *cells = reg_cells();
	int i, c, p, head = 0;

	for (p = 0; p < rat->n; p++) {
		for (c = 0; c < cells->n; c++) {
			const struct reg_rec *cr = &cells->rec[c];
			int have = 0;

			for (i = 0; i < n; i++)
				have |= !!paired(&runs[i], accel, rat->rec[p].name, cr);
			if (!have)
				continue;
			if (!head++)
				printf("paired ratios t_A/t_B with their 95%% CIs, per kernel:\n");
			printf("  %-14s %s %-10s", rat->rec[p].name, reg_get(cr, "head"),
			       reg_get(cr, "sub"));
			for (i = 0; i < n; i++) {
				const struct run_fig *r = paired(&runs[i], accel, rat->rec[p].name, cr);

				if (!r)
					printf("  %22s", "-");
				else if (!isnan(r->lo))
					printf("  %6.2f [%5.2f, %5.2f]", r->v, r->lo, r->hi);
				else
					printf("  %6.2f %15s", r->v, "");
			}
			printf("\n");
		}
	}
}

/* PLOT_DIR/trend-ACCEL.{dat,gp}: last/first per cell (x) and engine (bar). */
static void plot(struct run *runs, int n, const char *accel)
{
	struct reg *eng = reg_engines(), *cells = reg_cells();
	char path[4096];
	FILE *dat, *gp;
	int c, e, k, nser = 0, ser[REG_MAX];
	double w;

	for (e = 0; e < eng->n; e++)
		for (c = 0; c < cells->n; c++)
			if (cell(&runs[0], accel, eng->rec[e].name, &cells->rec[c]) &&
			    cell(&runs[n - 1], accel, eng->rec[e].name, &cells->rec[c])) {
				ser[nser++] = e;
				break;
			}
	if (n < 2 || !nser)
		return;
	w = 0.8 / nser;
	snprintf(path, sizeof(path), "%s/trend-%s.dat", plot_dir, accel);
	dat = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/trend-%s.gp", plot_dir, accel);
	gp = fopen(path, "w");
	if (!dat || !gp)
		die("cannot write in", plot_dir);
	fprintf(dat, "# trend-%s: x last/first - - width\n", accel);
	for (k = 0; k < nser; k++) {
		fprintf(dat, "# %s\n", eng->rec[ser[k]].name);
		for (c = 0; c < cells->n; c++) {
			struct change ch = change_of(runs, n, accel, eng->rec[ser[k]].name,
						     &cells->rec[c]);

			if (ch.ratio > 0)
				fprintf(dat, "%.4f %.4f 0 0 %.4f\n",
					c + 1 - 0.4 + w * (k + 0.5), ch.ratio, w);
		}
		fprintf(dat, "\n\n");
	}
	fprintf(gp, "dat = \"trend-%s.dat\"\n", accel);
	fprintf(gp, "ttl = \"accel=%s: %s on %s over %s, per cell and engine\\n%s\"\n",
		accel, csv_get(&runs[0].results, run_accel_row(&runs[0], accel), "unit"),
		kernel_of(&runs[n - 1], accel), kernel_of(&runs[0], accel),
		run_accel_what(&runs[0], accel));
	fprintf(gp, "ylab = \"%s / %s, per call\"\n", kernel_of(&runs[n - 1], accel),
		kernel_of(&runs[0], accel));
	fprintf(gp, "xlab = \"bench cell: filter, skb working set\"\n");
	fprintf(gp, "fmt = \"%%.2f\"\nwhiskers = 0\nrefline = 1\nrefy = 1\n");
	fprintf(gp, "reflabel = \"\"\n");
	fprintf(gp, "nser = %d\narray names[%d]\narray colours[%d]\n", nser, nser, nser);
	for (k = 0; k < nser; k++) {
		fprintf(gp, "names[%d] = \"%s\"\n", k + 1,
			engine_plot_label(eng->rec[ser[k]].name));
		fprintf(gp, "colours[%d] = \"%s\"\n", k + 1,
			reg_get_or(&eng->rec[ser[k]], "colour", "#7f7f7f"));
	}
	fprintf(gp, "set xtics (");
	for (c = 0; c < cells->n; c++)
		fprintf(gp, "%s\"%s\\n%s\" %d", c ? ", " : "", reg_get(&cells->rec[c], "head"),
			reg_get(&cells->rec[c], "sub"), c + 1);
	fprintf(gp, ")\nset xrange [0.5:%d.5]\n", cells->n);
	if (fclose(dat) || fclose(gp))
		die("cannot write in", plot_dir);
	printf("bars trend-%s\n", accel);
}

static void trend(struct run *runs, int n, const char *accel)
{
	const char *flavour;

	if (plot_dir) {
		plot(runs, n, accel);
		return;
	}
	flavour = csv_get(&runs[0].results, run_accel_row(&runs[0], accel), "flavour");
	printf("trend, accel=%s, flavour %s: %s\n2014: ns per call on hardware (the %s table); the runs: %s per call\n",
	       accel, flavour, run_accel_what(&runs[0], accel), reg_ref_arch(flavour),
	       csv_get(&runs[0].results, run_accel_row(&runs[0], accel), "unit"));
	figures(runs, n, accel, flavour);
	decomposition(runs, n, accel);
	ratios(runs, n, accel);
}

/* -r: RUN beside the default kernel's reference run. */
static int against_reference(const char *dir)
{
	struct run runs[2];
	struct reg_rec *mine, *def = reg_kernel_default();
	const char *ref;
	int a, shown = 0;

	memset(runs, 0, sizeof(runs));
	run_load_dir(&runs[1], dir);
	mine = reg_kernel_of(run_info(&runs[1], "kernel"));
	if (!def || !mine || mine == def || !*reg_get(def, "reference"))
		return 0;
	ref = reg_clone_path(reg_get(def, "reference"));
	if (access(ref, R_OK))
		die("no reference run", ref);
	run_load_dir(&runs[0], ref);
	for (a = 0; a < runs[1].naccels; a++) {
		const char *accel = runs[1].accels[a];
		const struct csv_row *r = run_accel_row(&runs[1], accel);

		if (strcmp(csv_get(&runs[1].results, r, "kind"), "counted") ||
		    !run_accel_row(&runs[0], accel))
			continue;
		if (!plot_dir && !shown++)
			printf("== beside %s: the reference run %s of bench/kernels.conf (%s, run %s)\n",
			       def->name, reg_get(def, "reference"),
			       run_info(&runs[0], "kernel"), run_info(&runs[0], "run_id"));
		trend(runs, 2, accel);
		if (!plot_dir)
			printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct run runs[MAX_RUNS];
	int opt, ref = 0, n, i;

	while ((opt = getopt(argc, argv, "p:r")) != -1) {
		switch (opt) {
		case 'p':
			plot_dir = optarg;
			break;
		case 'r':
			ref = 1;
			break;
		default:
			return 2;
		}
	}
	argv += optind;
	argc -= optind;
	if (ref && argc == 1)
		return against_reference(argv[0]) || ferror(stdout) || fflush(stdout);
	if (ref || argc < 2 || argc - 1 > MAX_RUNS) {
		fprintf(stderr, "usage: mktrend [-p PLOT_DIR] ACCEL RUN_DIR... (1 to %d runs)\n"
			"       mktrend [-p PLOT_DIR] -r RUN_DIR\n", MAX_RUNS);
		return 2;
	}
	n = argc - 1;
	memset(runs, 0, sizeof(runs));
	for (i = 0; i < n; i++) {
		run_load_dir(&runs[i], argv[i + 1]);
		if (!run_accel_row(&runs[i], argv[0]))
			die("no results of this accelerator in", argv[i + 1]);
	}
	trend(runs, n, argv[0]);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
