// SPDX-License-Identifier: GPL-2.0
/*
 * mkcsv - turn what the guests wrote into one CSV row per measured cell.
 *
 *   mkcsv RUN_DIR > RUN_DIR/results.csv
 *
 * RUN_DIR/run.txt holds the run's own key=value lines (run_id, kernel,
 * debian_version, config_hash, series_hash).  Each RUN_DIR/<accel>/
 * holds host.txt (accel, unit, kind), the guest's meta.txt (cpu,
 * clocksource, ...), cells.txt (one result line per cell, key=value
 * pairs), optionally test_bpf.txt (lib/test_bpf's dmesg lines) and, for
 * hardware timing, control.txt (the host's native control loop around the
 * boot, bench/host/control.c, in the same line format).
 * Every row carries the accelerator, CPU model, kernel version and config,
 * so no number can be read without what measured it.  The known columns
 * come first, then every other key of a result line, host.txt, meta.txt or
 * run.txt (e.g. image_start, vm_insns), in the order they first appear,
 * then the figures derived from a row's own (derived[]), each where a row
 * has it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cell.h"
#include "../lib/csv.h"
#include "../lib/registry.h"
#include "../lib/stats.h"

#define MAX_KV 160

struct kv {
	int n;
	char key[MAX_KV][32];
	char val[MAX_KV][256];
};

static const char *const columns[] = {
	"run_id", "accel", "kind", "tag", "engine", "filter", "packet", "skbs",
	"samples", "calls_per_sample", "min", "median", "mean", "stddev",
	"unit", "verdict", "jited", "insns", "image_bytes", "cpu",
	"clocksource", "kernel", "debian_version", "config_hash",
	"series_hash", "task_clock_ms", "cycles", "instructions", "branches",
	"branch_misses", "cache_misses", "flavour", "ci_lo", "ci_hi",
	"ci_level", "placements", "gate_waits",
};

/* perf stat events and the columns they fill. */
static const struct {
	const char *event, *column;
} perf_events[] = {
	{ "task-clock", "task_clock_ms" },
	{ "cycles", "cycles" },
	{ "instructions", "instructions" },
	{ "branches", "branches" },
	{ "branch-misses", "branch_misses" },
	{ "cache-misses", "cache_misses" },
};

#define NCOLS (sizeof(columns) / sizeof(columns[0]))

/*
 * Figures formed here from a row's own, once, for every rendering (the
 * last columns): median_per_vm_insn, the cost per executed VM instruction
 * (median / vm_insns, in the row's unit).
 */
static const char *const derived[] = { "median_per_vm_insn" };

#define NDERIVED (sizeof(derived) / sizeof(derived[0]))

static void kv_set(struct kv *kv, const char *key, const char *val)
{
	int i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key))
			break;
	if (i == kv->n) {
		if (kv->n == MAX_KV) {
			fprintf(stderr, "mkcsv: more than %d keys in one record (at %s)\n",
				MAX_KV, key);
			exit(1);
		}
		kv->n++;
	}
	snprintf(kv->key[i], sizeof(kv->key[i]), "%s", key);
	snprintf(kv->val[i], sizeof(kv->val[i]), "%s", val);
}

static const char *kv_get(const struct kv *kv, const char *key)
{
	int i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return NULL;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* A file of key=value lines; the value is the rest of the line. */
static int read_meta(const char *path, struct kv *kv)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		chomp(line);
		if (!eq || line[0] == '#')
			continue;
		*eq = '\0';
		kv_set(kv, line, eq + 1);
	}
	fclose(f);
	return 0;
}

/*
 * The keys of a result line that hold numbers (verdict does not: seccomp's
 * is ALLOW): a value that is none is a garbled or truncated line.
 */
static const char *const numeric_keys[] = {
	"skbs", "samples", "calls_per_sample", "min", "median", "mean",
	"stddev", "ci_lo", "ci_hi", "ci_level", "placement", "placements",
	"gate_waits",
};

/* The first numeric key of @kv whose value is not a finite number, or NULL. */
static const char *bad_number(const struct kv *kv)
{
	size_t i;

	for (i = 0; i < sizeof(numeric_keys) / sizeof(numeric_keys[0]); i++) {
		const char *v = kv_get(kv, numeric_keys[i]);
		char *end;
		double d;

		if (!v)
			continue;
		errno = 0;
		d = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(d))
			return numeric_keys[i];
	}
	return NULL;
}

/* One line of space-separated key=value pairs. */
static int parse_pairs(char *line, struct kv *kv)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok)
			return -1;
		*eq = '\0';
		kv_set(kv, tok, eq + 1);
	}
	return 0;
}

static void put_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/*
 * The rows, kept until every key is known: the CSV has the columns above,
 * then every other key a cell, an accelerator or the run carries, in the
 * order they first appear (nothing the guest wrote is dropped).
 */
#define MAX_EXTRA	256

struct row {
	struct kv cell;
	const struct kv *acc;
};

static struct row *rows;
static int nrows, caprows;
static struct kv **accs;	/* one per accelerator directory */
static int naccs;
static char extra[MAX_EXTRA][32];
static int nextra;

static int is_column(const char *key)
{
	size_t i;
	int e;

	for (i = 0; i < NCOLS; i++)
		if (!strcmp(columns[i], key))
			return 1;
	for (e = 0; e < nextra; e++)
		if (!strcmp(extra[e], key))
			return 1;
	return 0;
}

static int is_derived(const char *key)
{
	size_t i;

	for (i = 0; i < NDERIVED; i++)
		if (!strcmp(derived[i], key))
			return 1;
	return 0;
}

/* @kv's keys not yet columns: those of derived[] (@derived_only) or the others. */
static void add_columns(const struct kv *kv, int derived_only)
{
	int i;

	for (i = 0; i < kv->n; i++) {
		if (is_column(kv->key[i]) || is_derived(kv->key[i]) != derived_only)
			continue;
		if (nextra == MAX_EXTRA) {
			fprintf(stderr, "mkcsv: more than %d extra keys\n", MAX_EXTRA);
			exit(1);
		}
		snprintf(extra[nextra++], sizeof(extra[0]), "%s", kv->key[i]);
	}
}

static void put_row(const struct kv *cell, const struct kv *acc,
		    const struct kv *run)
{
	(void)run;
	if (nrows == caprows) {
		caprows = caprows ? 2 * caprows : 256;
		rows = realloc(rows, caprows * sizeof(*rows));
		if (!rows) {
			perror("realloc");
			exit(1);
		}
	}
	rows[nrows].cell = *cell;
	rows[nrows++].acc = acc;
}

static const char *column(int c)
{
	return c < (int)NCOLS ? columns[c] : extra[c - NCOLS];
}

/* A row takes each column from the cell, then the accel, then the run. */
static void print_rows(const struct kv *run)
{
	int i, c, ncols;

	for (i = 0; i < nrows; i++)
		add_columns(&rows[i].cell, 0);
	for (i = 0; i < naccs; i++)
		add_columns(accs[i], 0);
	add_columns(run, 0);
	for (i = 0; i < nrows; i++)
		add_columns(&rows[i].cell, 1);
	ncols = NCOLS + nextra;
	for (c = 0; c < ncols; c++)
		printf("%s%s", c ? "," : "", column(c));
	putchar('\n');
	for (i = 0; i < nrows; i++) {
		for (c = 0; c < ncols; c++) {
			const char *v = kv_get(&rows[i].cell, column(c));

			if (!v)
				v = kv_get(rows[i].acc, column(c));
			if (!v)
				v = kv_get(run, column(c));
			if (c)
				putchar(',');
			put_field(v ? v : "");
		}
		putchar('\n');
	}
}

/*
 * The guest ran each timed cell under `perf stat -x,`, into
 * <accel>/perf/<id>.stat, the id of its result line (in runs without one,
 * <tag>-<engine>-<filter>-<packet>-skbs<N>, what ids are).  perf 6.1
 * writes "# started on <date>", a blank line, then one line per event
 * (tools/perf/util/stat-display.c, printout() and abs_printout() in CSV
 * mode): counter value, unit, event, run time, percentage running,
 * metric value, metric unit ("2358152026,,instructions,277465154,100.00,
 * 2.46,insn per cycle").  A counter the CPU does not have reads
 * "<not supported>", one that never ran "<not counted>"; keep that wording
 * rather than a zero.  Returns 1 when the cell has a perf stat file.
 */
static int read_perf_stat(const char *dir, struct kv *cell)
{
	char path[8192], line[512], id[512];
	const char *tag = kv_get(cell, "tag"), *engine = kv_get(cell, "engine");
	const char *filter = kv_get(cell, "filter"), *packet = kv_get(cell, "packet");
	const char *skbs = kv_get(cell, "skbs");
	size_t i;
	FILE *f;

	if (kv_get(cell, "id"))
		snprintf(id, sizeof(id), "%s", kv_get(cell, "id"));
	else if (tag && engine && filter && packet && skbs)	/* runs before ids */
		cell_id(id, sizeof(id), tag, engine, filter, packet, skbs);
	else
		return 0;
	snprintf(path, sizeof(path), "%s/perf/%s.stat", dir, id);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *val = line, *unit, *event;

		chomp(line);
		unit = strchr(val, ',');
		if (line[0] == '#' || !unit)
			continue;
		*unit++ = '\0';
		event = strchr(unit, ',');
		if (!event)
			continue;
		*event++ = '\0';
		event[strcspn(event, ",:")] = '\0';
		for (i = 0; i < sizeof(perf_events) / sizeof(perf_events[0]); i++) {
			if (strcmp(event, perf_events[i].event))
				continue;
			if (val[0] == '<')
				kv_set(cell, perf_events[i].column,
				       strstr(val, "not supported") ?
				       "not supported" : "not counted");
			else
				kv_set(cell, perf_events[i].column, val);
		}
	}
	fclose(f);
	return 1;
}

static void set_num(struct kv *kv, const char *key, double v);
static void kv_del(struct kv *kv, const char *key);

/*
 * The model plugin's counters of one window (RUN/<accel>/model.txt, one
 * line per window: window=K arch=... insns=... cond=...): what a result
 * line with model_window=K model_calls=N gets, per call, as model_<name>.
 */
#define NMODEL_MAX 32
static char model_counters[NMODEL_MAX][24];
static size_t nmodel, nrequired;

/* Add the counters of the blank-separated list @s to model_counters[]. */
static void model_counters_add(const char *s)
{
	while (*s && nmodel < NMODEL_MAX) {
		size_t k = strcspn(s, " ");

		snprintf(model_counters[nmodel++], sizeof(model_counters[0]), "%.*s", (int)k, s);
		s += k + strspn(s + k, " ");
	}
}

/*
 * model_counters[] from registry.h's lists (once, at start): the nrequired
 * every window line has, then those a line may lack.
 */
static void model_counters_init(void)
{
	model_counters_add(REG_MODEL_COUNTERS);
	nrequired = nmodel;
	model_counters_add(REG_MODEL_OPTIONAL);
}

/* A figure per call (model, perf stat): small ones keep 4 significant digits. */
static void set_model_num(struct kv *kv, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), v != 0 && fabs(v) < 1 ? "%.4g" : "%.3f", v);
	kv_set(kv, key, buf);
}

/*
 * The line of window @w of core @core in @path into @kv (a line without
 * core=, of a plugin that modelled one core, is its first core's: @first);
 * -1 when there is none.
 */
static int model_window(const char *path, const char *w, const char *core,
			int first, struct kv *kv)
{
	char line[2048], key[48];
	FILE *f = fopen(path, "r");
	int found = -1;

	if (!f)
		return -1;
	snprintf(key, sizeof(key), "window=%s ", w);
	while (found && fgets(line, sizeof(line), f)) {
		struct kv one = { 0 };
		const char *c;

		if (strncmp(line, key, strlen(key)) || parse_pairs(line, &one))
			continue;
		c = kv_get(&one, "core");
		if (c ? !strcmp(c, core) : first) {
			*kv = one;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* Index of model counter @name in model_counters[]; nmodel when none. */
static size_t model_index(const char *name)
{
	size_t i;

	for (i = 0; i < nmodel && strcmp(name, model_counters[i]); i++)
		;
	return i;
}

/*
 * The figures of predictor record @p (cores.conf: which counters are its
 * conditional and indirect mispredictions) from the counters per call
 * @per: @fig[0] its conditional mispredictions, [1] its indirect ones, [2]
 * all (with the return stack's, the same under every record) and [3] the
 * cycles, the core's @formula with its term "mispredicts" taken as this
 * predictor's.  -1 on a bad record or formula.
 */
static int predictor_figures(const struct reg_rec *p, const double *per,
			     const char *formula, const char *where, double *fig)
{
	size_t c = model_index(reg_get(p, "cond")), i = model_index(reg_get(p, "ind"));
	char buf[256], *tok, *save = NULL;

	if (c == nmodel || i == nmodel) {
		fprintf(stderr, "mkcsv: predictor %s: cond '%s' or ind '%s' is no model counter\n",
			p->name, reg_get(p, "cond"), reg_get(p, "ind"));
		return -1;
	}
	fig[0] = per[c];
	fig[1] = per[i];
	fig[2] = per[c] + per[i] + per[model_index("ret_miss")];
	fig[3] = 0;
	snprintf(buf, sizeof(buf), "%s", formula);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(tok, ':');
		size_t k;

		if (colon)
			*colon++ = '\0';
		k = model_index(tok);
		if (!colon || (k == nmodel && strcmp(tok, "mispredicts"))) {
			fprintf(stderr, "mkcsv: %s: model_formula: '%s' is not COUNTER:WEIGHT of a model counter or mispredicts\n",
				where, tok);
			return -1;
		}
		if (k < nmodel && isnan(per[k])) {
			fprintf(stderr, "mkcsv: %s: model_formula: the window lines have no %s (bench/plugin/mcabase adds base to the lines of a core with an mcpu)\n",
				where, tok);
			return -1;
		}
		fig[3] += (k == nmodel ? fig[2] : per[k]) * atof(colon);
	}
	return 0;
}

/*
 * The counters of window @w of @core (@first: the plugin's first core) in
 * @path, per call of @calls, into @per; the line refused when a start
 * marker came inside its window.  Non-zero on an error, told.
 */
static int window_counters(const char *path, const char *w, const char *core,
			   int first, double calls, double *per, const char *where)
{
	struct kv win = { 0 };
	const char *restarts;
	size_t i;

	if (model_window(path, w, core, first, &win)) {
		fprintf(stderr, "mkcsv: %s: window %s of core %s is not in %s\n", where, w,
			core, path);
		return 1;
	}
	restarts = kv_get(&win, "restarts");
	if (restarts && atof(restarts) > 0) {
		fprintf(stderr, "mkcsv: %s: window %s had %s start markers inside it\n",
			path, w, restarts);
		return 1;
	}
	for (i = 0; i < nmodel; i++) {
		const char *v = kv_get(&win, model_counters[i]);

		if (!v && i >= nrequired) {
			per[i] = NAN;
			continue;
		}
		if (!v) {
			fprintf(stderr, "mkcsv: %s: window %s has no %s\n", path, w,
				model_counters[i]);
			return 1;
		}
		per[i] = atof(v) / calls;
	}
	return 0;
}

/* Core record @core's predictor record (its key predictor), or NULL, told. */
static const struct reg_rec *core_predictor(const char *core, const char *where)
{
	const struct reg_rec *cr = reg_find(reg_cores(), core, 0);
	const struct reg_rec *p = cr ? reg_find(reg_predictors(), reg_get(cr, "predictor"), 0) : NULL;

	if (!p)
		fprintf(stderr, "mkcsv: %s: core %s: no such core record, or its predictor is no predictor record of cores.conf\n",
			where, core);
	return p;
}

/*
 * The further cores of an accelerator (host.txt model_also, accels.conf):
 * each core C's mispredictions and cycles with its own predictor and
 * formula (cores.conf), model_mispredicts_core_C and model_cycles_core_C.
 */
static int model_also(const char *path, struct kv *cell, const struct kv *acc,
		      const char *w, double calls, const char *where)
{
	const char *also = kv_get(acc, "model_also");
	char list[256], key[96], *tok, *save = NULL;
	double per[NMODEL_MAX], fig[4];

	snprintf(list, sizeof(list), "%s", also ? also : "");
	for (tok = strtok_r(list, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		const struct reg_rec *p = core_predictor(tok, where);
		const char *formula;

		/* the formula the run recorded (host.txt), else the record's */
		snprintf(key, sizeof(key), "model_formula_%s", tok);
		formula = kv_get(acc, key);
		if (!formula)
			formula = reg_get(reg_find(reg_cores(), tok, 0), "cycles");
		if (!p || window_counters(path, w, tok, 0, calls, per, where) ||
		    predictor_figures(p, per, formula, where, fig))
			return 1;
		snprintf(key, sizeof(key), "model_mispredicts_core_%s", tok);
		set_model_num(cell, key, fig[2]);
		snprintf(key, sizeof(key), "model_cycles_core_%s", tok);
		set_num(cell, key, fig[3]);
	}
	return 0;
}

/*
 * An accelerator of kind modeled (host.txt model_formula: the core record's
 * formula "COUNTER:WEIGHT ..."; model_core: the core, whose predictor key
 * names the predictor of its figures): each cell's figures become the
 * modelled cycles per call of its window with that predictor, the icount
 * figure is kept as counted_insns, every counter per call is a
 * model_<name> column, every predictor record P's figures are
 * model_cond_miss_P, model_ind_miss_P, model_mispredicts_P and
 * model_cycles_P, and each further core's are model_*_core_C
 * (model_also).  A cell without its window, or a window with a start
 * marker inside it, is an error: its figure would be in another unit, or
 * of another span.
 */
static int read_model(const char *dir, struct kv *cell, const struct kv *acc,
		      const char *where)
{
	static const char *const fig_col[] = {
		"model_cond_miss_%s", "model_ind_miss_%s", "model_mispredicts_%s",
		"model_cycles_%s",
	};
	const char *formula = kv_get(acc, "model_formula");
	const char *w = kv_get(cell, "model_window"), *n = kv_get(cell, "model_calls");
	const char *core = kv_get(acc, "model_core");
	const struct reg_rec *mine;
	struct reg *preds = reg_predictors();
	char path[8192], buf[256];
	double calls, cycles = 0, per[NMODEL_MAX], fig[4];
	size_t i, k;
	int p;

	if (!formula)
		return 0;
	mine = core_predictor(core ? core : "(none)", where);
	snprintf(path, sizeof(path), "%s/model.txt", dir);
	calls = n ? atof(n) : 0;
	if (!w || calls <= 0) {
		fprintf(stderr, "mkcsv: %s: a cell of a modeled accelerator without model_window and model_calls\n",
			where);
		return 1;
	}
	if (!mine || window_counters(path, w, core, 1, calls, per, where))
		return 1;
	for (i = 0; i < nmodel; i++) {
		if (isnan(per[i]))
			continue;
		snprintf(buf, sizeof(buf), "model_%.23s", model_counters[i]);
		set_model_num(cell, buf, per[i]);
	}
	for (p = 0; p < preds->n; p++) {
		if (predictor_figures(&preds->rec[p], per, formula, where, fig))
			return 1;
		for (k = 0; k < 4; k++) {
			snprintf(buf, sizeof(buf), fig_col[k], preds->rec[p].name);
			if (k == 3)
				set_num(cell, buf, fig[k]);
			else
				set_model_num(cell, buf, fig[k]);
		}
		if (&preds->rec[p] == mine) {
			cycles = fig[3];
			set_model_num(cell, "model_mispredicts", fig[2]);
			kv_set(cell, "model_predictor", mine->name);
		}
	}
	if (model_also(path, cell, acc, w, calls, where))
		return 1;
	kv_set(cell, "counted_insns", kv_get(cell, "median"));
	set_num(cell, "model_cycles", cycles);
	set_num(cell, "min", cycles);
	set_num(cell, "median", cycles);
	set_num(cell, "mean", cycles);
	kv_set(cell, "stddev", "0");
	kv_del(cell, "ci_lo");
	kv_del(cell, "ci_hi");
	kv_del(cell, "ci_level");
	return 0;
}

/*
 * The calls of the engine in the run perf stat counted (the cell's first
 * placement, bench/guest/lib.sh timed_run), which calls_per_sample alone
 * is not: the module calibrates it per run, so two engines' runs differ
 * (results/fixtures/kvm-pmu: old BPF's run made 2x new's calls) and
 * their whole-run counts are not comparable.  A cell of the bench module
 * (bench/module/bpf_bench.c, bench_run_cell) makes a warm-up call per
 * skb, its calibration (bench_calibrate: one run of each power of two
 * below calls_per_sample, then BENCH_CALIB_RUNS = 3 of it: 4 x
 * calls_per_sample - 1 calls when no stall made it repeat a run), its
 * samples x calls_per_sample and the model window (model_calls).  A
 * seccomp cell's run is one seccomp-bench of calls_per_sample calls
 * (bench/guest/seccomp.sh seccomp_perf), whose filtered calls are the
 * check, SECCOMP_WARMUP warm-up calls and the timed ones
 * (bench/guest/seccomp-bench.c, bench()).  0 when the cell does not say.
 */
#define CALIB_RUNS	3
#define SECCOMP_WARMUP	1000

static double perf_run_calls(const struct kv *cell)
{
	const char *tag = kv_get(cell, "tag"), *s = kv_get(cell, "samples");
	const char *n = kv_get(cell, "calls_per_sample"), *skbs = kv_get(cell, "skbs");
	const char *model = kv_get(cell, "model_calls");
	double calls = n ? atof(n) : 0, samples = s ? atof(s) : 0;

	if (calls <= 0 || samples <= 0)
		return 0;
	if (tag && !strcmp(tag, "seccomp"))
		return 1 + SECCOMP_WARMUP + samples * calls;
	return (skbs ? atof(skbs) : 0) + (CALIB_RUNS + 1) * calls - 1 +
	       samples * calls + (model ? atof(model) : 0);
}

/* @num / @den of @cell's columns into @key (times @scale), where both are > 0. */
static void set_quotient(struct kv *cell, const char *key, const char *num,
			 const char *den, double scale)
{
	const char *n = kv_get(cell, num), *d = kv_get(cell, den);

	if (n && d && atof(n) > 0 && atof(d) > 0)
		set_model_num(cell, key, scale * atof(n) / atof(d));
}

/*
 * Where perf stat counted a hardware counter: perf_calls (perf_run_calls)
 * and each counted counter per call, as <column>_per_call, what compares
 * two engines' runs; and from the counts perf_ipc (instructions a cycle)
 * and perf_branch_miss_pct (branch-misses per 100 branches).  The run's setup
 * (the knob process, skb allocation, a JIT's compile) is in the counts
 * too, spread over the calls.
 */
static void perf_per_call(struct kv *cell)
{
	double calls = perf_run_calls(cell);
	char buf[64];
	size_t i;
	int any = 0;

	for (i = 0; calls > 0 && i < sizeof(perf_events) / sizeof(perf_events[0]); i++) {
		const char *v = kv_get(cell, perf_events[i].column);
		char *end;
		double d;

		if (!strcmp(perf_events[i].event, "task-clock") || !v || !*v)
			continue;
		errno = 0;
		d = strtod(v, &end);
		if (*end || errno || !isfinite(d))
			continue;	/* "not supported", "not counted" */
		if (!any++) {
			snprintf(buf, sizeof(buf), "%.0f", calls);
			kv_set(cell, "perf_calls", buf);
		}
		snprintf(buf, sizeof(buf), "%s_per_call", perf_events[i].column);
		set_model_num(cell, buf, d / calls);
	}
	set_quotient(cell, "perf_ipc", "instructions", "cycles", 1);
	set_quotient(cell, "perf_branch_miss_pct", "branch_misses", "branches", 100);
}

/*
 * Placements: with bench.placements=R the guest runs a cell R times (each
 * a new placement of skbs, program and stack, bench/guest/lib.sh) and
 * writes one line per run, with placement=1..R and placements=R.  They
 * become one row: the median of the R medians with its 95% CI over them
 * (the placement is the random part; the module's rule, lib/stats.c),
 * min the smallest sample, mean the mean of the means, stddev that of the
 * medians, samples those of one placement, gate_waits the sum; every other
 * key as the first placement has it.  The same for seccomp cells, one line
 * per timed run.
 */
#define MAX_PLACEMENTS	256

static struct kv group[MAX_PLACEMENTS];
static int ngroup;

static const char *const cell_keys[] = { "tag", "engine", "filter", "packet", "skbs" };

static int same_cell(const struct kv *a, const struct kv *b)
{
	size_t i;

	for (i = 0; i < sizeof(cell_keys) / sizeof(cell_keys[0]); i++) {
		const char *x = kv_get(a, cell_keys[i]), *y = kv_get(b, cell_keys[i]);

		if (!x != !y || (x && strcmp(x, y)))
			return 0;
	}
	return 1;
}

static void set_num(struct kv *kv, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.3f", v);
	kv_set(kv, key, buf);
}

static void kv_del(struct kv *kv, const char *key)
{
	int i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key))
			break;
	if (i == kv->n)
		return;
	for (kv->n--; i < kv->n; i++) {
		memcpy(kv->key[i], kv->key[i + 1], sizeof(kv->key[0]));
		memcpy(kv->val[i], kv->val[i + 1], sizeof(kv->val[0]));
	}
}

/*
 * The cost per executed VM instruction (derived[]), where the cell says how
 * many one call executes: the figure every table of it prints.
 */
static void per_vm_insn(struct kv *cell)
{
	const char *vm = kv_get(cell, "vm_insns"), *m = kv_get(cell, "median");
	char buf[64];

	if (!vm || !m || !(atof(vm) > 0))
		return;
	snprintf(buf, sizeof(buf), "%.6g", atof(m) / atof(vm));
	kv_set(cell, "median_per_vm_insn", buf);
}

static void combine(struct kv *out)
{
	double med[MAX_PLACEMENTS], mean[MAX_PLACEMENTS], m, lo, hi, level;
	double mn = atof(kv_get(&group[0], "min"));
	long waits = 0;
	int i, have_waits = 0;
	char buf[32];

	*out = group[0];
	for (i = 0; i < ngroup; i++) {
		const char *w = kv_get(&group[i], "gate_waits");

		med[i] = atof(kv_get(&group[i], "median"));
		mean[i] = atof(kv_get(&group[i], "mean") ? kv_get(&group[i], "mean") :
			       kv_get(&group[i], "median"));
		if (atof(kv_get(&group[i], "min")) < mn)
			mn = atof(kv_get(&group[i], "min"));
		if (w) {
			waits += atol(w);
			have_waits = 1;
		}
	}
	kv_del(out, "placement");
	kv_del(out, "ci_lo");
	kv_del(out, "ci_hi");
	kv_del(out, "ci_level");
	set_num(out, "min", mn);
	set_num(out, "mean", stats_mean(mean, ngroup));
	set_num(out, "stddev", stats_stddev(med, ngroup));
	if (stats_median_ci(med, ngroup, &m, &lo, &hi, &level)) {
		set_num(out, "ci_lo", lo);
		set_num(out, "ci_hi", hi);
		snprintf(buf, sizeof(buf), "%.1f", level);
		kv_set(out, "ci_level", buf);
	}
	set_num(out, "median", m);
	snprintf(buf, sizeof(buf), "%d", ngroup);
	kv_set(out, "placements", buf);
	if (have_waits) {
		snprintf(buf, sizeof(buf), "%ld", waits);
		kv_set(out, "gate_waits", buf);
	}
}

/* One line of a placement group; 1 when the group is complete in @out. */
static int add_placement(const struct kv *cell, struct kv *out,
			 const char *path, int lineno)
{
	int k = atoi(kv_get(cell, "placement")), r;
	const char *rs = kv_get(cell, "placements");

	r = rs ? atoi(rs) : 0;
	if (r < 1 || r > MAX_PLACEMENTS || k != ngroup + 1 || k > r ||
	    (ngroup && !same_cell(cell, &group[0]))) {
		fprintf(stderr, "mkcsv: %s:%d: placement %d of %d out of order\n",
			path, lineno, k, r);
		ngroup = 0;
		return -1;
	}
	group[ngroup++] = *cell;
	if (ngroup < r)
		return 0;
	combine(out);
	ngroup = 0;
	return 1;
}

/*
 * DIR/NAME: result lines, the guest's cells.txt (@required: it must be
 * there and hold at least one) or the host's control.txt.  A line that is
 * not a result line, a number that is none, a last line without its
 * newline (a truncated file): an error naming the file and the line.
 */
static int emit_cells(const char *dir, const char *name, const struct kv *acc,
		      const struct kv *run, int required)
{
	char path[8192], line[2048], where[8300];
	int lineno = 0, bad = 0, cells = 0, got;
	const char *num, *why;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		if (required)
			fprintf(stderr, "mkcsv: %s: missing (the guest wrote no cells)\n",
				path);
		return required;
	}
	while ((got = csv_read_line(f, line, sizeof(line), &why))) {
		struct kv cell = { 0 };

		lineno++;
		if (got < 0) {
			fprintf(stderr, "mkcsv: %s:%d: %s\n", path, lineno, why);
			bad = 1;
			break;
		}
		if (line[0] == '\n' || line[0] == '#')
			continue;
		if (parse_pairs(line, &cell) || !kv_get(&cell, "median") ||
		    !kv_get(&cell, "engine")) {
			fprintf(stderr, "mkcsv: %s:%d: not a result line\n",
				path, lineno);
			bad = 1;
			continue;
		}
		num = bad_number(&cell);
		if (num) {
			fprintf(stderr, "mkcsv: %s:%d: %s=%.40s is not a number\n",
				path, lineno, num, kv_get(&cell, num));
			bad = 1;
			continue;
		}
		cells++;
		if (ngroup && !kv_get(&cell, "placement")) {
			fprintf(stderr, "mkcsv: %s:%d: placements of a cell missing\n",
				path, lineno);
			ngroup = 0;
			bad = 1;
		}
		if (kv_get(&cell, "placement")) {
			struct kv one;
			int done = add_placement(&cell, &one, path, lineno);

			if (done < 0)
				bad = 1;
			if (done <= 0)
				continue;
			cell = one;
		}
		if (read_perf_stat(dir, &cell))
			perf_per_call(&cell);
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (read_model(dir, &cell, acc, where)) {
			bad = 1;
			continue;
		}
		per_vm_insn(&cell);
		put_row(&cell, acc, run);
	}
	fclose(f);
	if (ngroup) {
		fprintf(stderr, "mkcsv: %s: the last cell lacks placements\n", path);
		ngroup = 0;
		bad = 1;
	}
	if (required && !cells && !bad) {
		fprintf(stderr, "mkcsv: %s: no result lines\n", path);
		bad = 1;
	}
	return bad;
}

/*
 * DIR/status, where the guest's /init left it: its plan must have ended
 * "ok" (a directory without one, a fixture's, is taken as it is).
 */
static int guest_status(const char *dir)
{
	char path[8192], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (!strcmp(line, "status=ok"))
		return 0;
	fprintf(stderr, "mkcsv: %s:1: the guest's plan did not end ok ('%s')\n",
		path, line);
	return 1;
}

/*
 * lib/test_bpf prints "test_bpf: #33 tcpdump port 22 jited:0 735 741 748 PASS":
 * one ns/call figure per data size, the last one for the 100-byte packet.
 */
static int emit_test_bpf(const char *path, const struct kv *acc,
			 const struct kv *run)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int bad = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct kv cell = { 0 };
		char *p = strstr(line, "test_bpf: #"), *j, *end;
		char id[16], last[32] = "";
		int jited;

		if (!p)
			continue;
		j = strstr(p, "jited:");
		if (!j || sscanf(p, "test_bpf: #%15[0-9]", id) != 1 ||
		    sscanf(j, "jited:%d", &jited) != 1 || !strstr(j, "PASS")) {
			fprintf(stderr, "mkcsv: %s: unparsed: %s", path, line);
			bad = 1;
			continue;
		}
		/* the figure just before PASS */
		end = strstr(j, "PASS");
		while (end > j && isspace((unsigned char)end[-1]))
			end--;
		p = end;
		while (p > j && isdigit((unsigned char)p[-1]))
			p--;
		if (p == end || end - p >= (long)sizeof(last)) {
			bad = 1;
			continue;
		}
		memcpy(last, p, end - p);
		last[end - p] = '\0';
		kv_set(&cell, "tag", "test_bpf");
		kv_set(&cell, "engine", jited ? "jit" : "new");
		snprintf(line, sizeof(line), "testbpf%s", id);
		kv_set(&cell, "filter", line);
		kv_set(&cell, "packet", "testbpf100");
		kv_set(&cell, "skbs", "1");
		kv_set(&cell, "samples", "1");
		kv_set(&cell, "min", last);
		kv_set(&cell, "median", last);
		kv_set(&cell, "mean", last);
		kv_set(&cell, "stddev", "");
		kv_set(&cell, "jited", jited ? "1" : "0");
		put_row(&cell, acc, run);
	}
	fclose(f);
	return bad;
}

int main(int argc, char **argv)
{
	struct kv run = { 0 };
	char path[4096];
	struct dirent **ents;
	int n, i, bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: mkcsv RUN_DIR\n");
		return 2;
	}
	model_counters_init();
	snprintf(path, sizeof(path), "%s/run.txt", argv[1]);
	if (read_meta(path, &run)) {
		fprintf(stderr, "mkcsv: cannot read %s\n", path);
		return 1;
	}
	n = scandir(argv[1], &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		struct kv *acc = calloc(1, sizeof(*acc));

		accs = realloc(accs, (naccs + 1) * sizeof(*accs));
		if (!acc || !accs) {
			perror("mkcsv");
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s/host.txt", argv[1],
			 ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !read_meta(path, acc)) {
			snprintf(path, sizeof(path), "%s/%s/meta.txt", argv[1],
				 ents[i]->d_name);
			read_meta(path, acc);
			/* what the host knows (e.g. the real CPU under UML) wins */
			snprintf(path, sizeof(path), "%s/%s/host.txt", argv[1],
				 ents[i]->d_name);
			read_meta(path, acc);
			snprintf(path, sizeof(path), "%s/%s", argv[1],
				 ents[i]->d_name);
			bad |= guest_status(path);
			if (kv_get(acc, "kind") && !strcmp(kv_get(acc, "kind"), "modeled") &&
			    !kv_get(acc, "model_formula")) {
				fprintf(stderr, "mkcsv: %s/host.txt: kind modeled but no model_formula\n",
					path);
				bad = 1;
			}
			bad |= emit_cells(path, "cells.txt", acc, &run, 1);
			bad |= emit_cells(path, "control.txt", acc, &run, 0);
			snprintf(path, sizeof(path), "%s/%s/test_bpf.txt",
				 argv[1], ents[i]->d_name);
			bad |= emit_test_bpf(path, acc, &run);
			accs[naccs++] = acc;
		} else {
			free(acc);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (!naccs) {
		fprintf(stderr, "mkcsv: no <accel>/host.txt under %s\n", argv[1]);
		return 1;
	}
	/* a run with a bad file gives no CSV at all, rather than part of one */
	if (bad)
		return 1;
	print_rows(&run);
	return 0;
}
