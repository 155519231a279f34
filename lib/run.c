// SPDX-License-Identifier: GPL-2.0
/* Loading a run's results once (run.h). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "registry.h"
#include "run.h"

static void add_accel(struct run *run, const char *accel)
{
	int a;

	for (a = 0; a < run->naccels; a++)
		if (!strcmp(run->accels[a], accel))
			return;
	run->accels = realloc(run->accels, (run->naccels + 1) * sizeof(*run->accels));
	if (!run->accels) {
		perror("realloc");
		exit(1);
	}
	run->accels[run->naccels++] = accel;
}

void run_open(struct run *run, const char *results, const char *ratios,
	      const char *absolute)
{
	int i, k;

	memset(run, 0, sizeof(*run));
	csv_load(&run->results, results);
	if (ratios) {
		csv_load(&run->ratios, ratios);
		run->has_ratios = 1;
	}
	if (absolute) {
		csv_load(&run->absolute, absolute);
		run->has_absolute = csv_has(&run->absolute, "ci_over");
	}
	/* kinds in the order of bench/accels.conf, unknown kinds last */
	for (k = 0; k <= reg_kinds()->n; k++)
		for (i = 0; i < run->results.nrows; i++)
			if (kind_rank(csv_get(&run->results, &run->results.rows[i], "kind")) == k)
				add_accel(run, csv_get(&run->results, &run->results.rows[i],
						       "accel"));
	run_type_cells(run);
}

static const char *in_dir(char *buf, size_t n, const char *dir,
			  const char *file)
{
	snprintf(buf, n, "%s/%s", dir, file);
	return access(buf, R_OK) ? NULL : buf;
}

static void load_info(struct run *run, const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strchr(line, '='))
			continue;
		run->info = realloc(run->info, (run->ninfo + 1) * sizeof(*run->info));
		if (!run->info || !(run->info[run->ninfo++] = strdup(line))) {
			perror("run.txt");
			exit(1);
		}
	}
	if (f)
		fclose(f);
}

const char *run_info(const struct run *run, const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = 0; i < run->ninfo; i++)
		if (!strncmp(run->info[i], key, n) && run->info[i][n] == '=')
			return run->info[i] + n + 1;
	return "";
}

void run_file_kv(const char *path, const char *key, char *buf, size_t n)
{
	struct run one = { 0 };
	size_t len;
	int i;

	load_info(&one, path);
	len = strlen(run_info(&one, key));
	if (len >= n)
		len = n - 1;
	memcpy(buf, run_info(&one, key), len);
	buf[len] = '\0';
	for (i = 0; i < one.ninfo; i++)
		free(one.info[i]);
	free(one.info);
}

void run_load_dir(struct run *run, const char *dir)
{
	char r[4096], p[4096], a[4096];

	snprintf(r, sizeof(r), "%s/results.csv", dir);
	run_open(run, r, in_dir(p, sizeof(p), dir, "ratios.csv"),
		 in_dir(a, sizeof(a), dir, "absolute.csv"));
	run_load_claims(run, dir);
	if (in_dir(p, sizeof(p), dir, "run.txt"))
		load_info(run, p);
	run_load_gates(run, dir);
}

void run_load_claims(struct run *run, const char *dir)
{
	const struct {
		const char *name;
		struct csv *csv;
		int *has;
	} files[] = {
		{ "claims.csv", &run->claims, &run->has_claims },
		{ "decomposition.csv", &run->splits, &run->has_splits },
		{ "median-ratios.csv", &run->mratios, &run->has_mratios },
		{ "layouts.csv", &run->layouts, &run->has_layouts },
		{ "against.csv", &run->against, &run->has_against },
		{ "validation.csv", &run->validation, &run->has_validation },
		{ "mixed.csv", &run->mixed, &run->has_mixed },
		{ "crosscheck.csv", &run->crosscheck, &run->has_crosscheck },
	};
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (in_dir(path, sizeof(path), dir, files[i].name)) {
			csv_load(files[i].csv, path);
			*files[i].has = 1;
		}
	}
	run_type_cells(run);
}

const char *run_dir_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, n, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	return buf;
}

const struct csv_row *run_result(const struct run *run, const char *accel,
				 const char *tag, const char *engine,
				 const char *filter, const char *skbs)
{
	static const char *const keys[] = { "accel", "tag", "engine", "filter",
					    "skbs", NULL };
	const char *values[] = { accel, tag, engine, filter, skbs };

	return csv_find(&run->results, keys, values);
}

const struct csv_row *run_absolute(const struct run *run, const char *accel,
				   const char *engine, const char *filter,
				   const char *skbs)
{
	static const char *const keys[] = { "accel", "engine", "filter", "skbs",
					    "ci_over", NULL };
	const char *values[] = { accel, engine, filter, skbs, "layouts" };
	const struct csv_row *r;

	/* over code-layout variants, else over the boots of one build */
	r = csv_find(run->has_absolute ? &run->absolute : NULL, keys, values);
	if (r)
		return r;
	values[4] = "boots";
	return csv_find(run->has_absolute ? &run->absolute : NULL, keys, values);
}

int run_accel_timed(const struct run *run, const char *accel)
{
	const struct csv_row *r = run_accel_row(run, accel);
	const char *kind = r ? csv_get(&run->results, r, "kind") : "";

	return !strcmp(reg_get_or(reg_find(reg_kinds(), kind, 0), "timed", "0"), "1");
}

const char *run_ci_over(const struct csv *csv, const struct csv_row *r,
			char *buf, size_t n)
{
	const char *over = csv_has(csv, "ci_over") ? csv_get(csv, r, "ci_over") : "rounds";

	const char *builds = csv_has(csv, "layout_builds") ? csv_get(csv, r, "layout_builds") : "";

	if (!strcmp(over, "layouts") && strchr(builds, '+'))
		snprintf(buf, n, "over %s boots of %s code layouts relinked from %s in turn",
			 csv_get(csv, r, "boots"), csv_get(csv, r, "layouts"), builds);
	else if (!strcmp(over, "layouts"))
		snprintf(buf, n, "over %s boots of %s code layouts", csv_get(csv, r, "boots"),
			 csv_get(csv, r, "layouts"));
	else if (!strcmp(over, "boots"))
		snprintf(buf, n, "over %s boots of one build", csv_get(csv, r, "boots"));
	else
		snprintf(buf, n, "within one boot");
	return buf;
}

const struct csv_row *run_accel_row(const struct run *run, const char *accel)
{
	static const char *const keys[] = { "accel", NULL };
	const char *values[] = { accel };

	return csv_find(&run->results, keys, values);
}

const char *run_accel_mitigations(const struct run *run, const char *accel)
{
	const struct csv_row *any = run_accel_row(run, accel);

	if (!any || !csv_has(&run->results, "mitigations"))
		return "";
	return csv_get(&run->results, any, "mitigations");
}

const char *run_accel_what(const struct run *run, const char *accel)
{
	const struct csv_row *r = run_accel_row(run, accel);
	const char *kind = csv_get(&run->results, r, "kind");
	int k = kind_rank(kind);

	return k < reg_kinds()->n ? reg_get_or(&reg_kinds()->rec[k], "what", kind) :
	       kind;
}

int run_ci(const struct csv *csv, const struct csv_row *r, double *lo,
	   double *hi)
{
	const char *l = r ? csv_get(csv, r, "ci_lo") : "";
	const char *h = r ? csv_get(csv, r, "ci_hi") : "";

	if (!*l || !*h)
		return 0;
	*lo = atof(l);
	*hi = atof(h);
	return 1;
}

void run_cell_id(const struct run *run, const struct csv_row *r, char *buf,
		 size_t n)
{
	const struct csv *c = &run->results;

	if (csv_has(c, "id") && *csv_get(c, r, "id"))
		snprintf(buf, n, "%s", csv_get(c, r, "id"));
	else
		cell_id(buf, n, csv_get(c, r, "tag"), csv_get(c, r, "engine"),
			csv_get(c, r, "filter"), csv_get(c, r, "packet"),
			csv_get(c, r, "skbs"));
}

/* One perf report's top symbols, on one line (run.h). */
int run_perf_top(const char *path, int top, char *buf, size_t n)
{
	char line[4096];
	size_t len = 0;
	FILE *f = fopen(path, "r");
	int k = 0;

	if (!f)
		return 0;
	buf[0] = '\0';
	while (k < top && len < n && fgets(line, sizeof(line), f)) {
		char pct[32], *sym;

		/* "12.34%  [k] sym ..." or, sorted by more keys, "... [k] sym ..." */
		if (sscanf(line, " %31[0-9.]%%", pct) != 1 || !strchr(line, '%') ||
		    !((sym = strstr(line, "[k] ")) || (sym = strstr(line, "[.] "))))
			continue;
		sym += 4;
		while (*sym == ' ')
			sym++;
		/* "[bpf jit image: ...]" -> "[bpf jit image]"; else the first word */
		sym[strcspn(sym, sym[0] == '[' ? ":]" : " \n")] = '\0';
		if (sym[0] == '[')
			strcat(sym, "]");
		len += snprintf(buf + len, n - len, "%s%s%% %s", k ? ", " : "", pct, sym);
		k++;
	}
	fclose(f);
	return k;
}

/*
 * @key's value among @one's lines into @buf ("" when missing): at a line's
 * start or after a blank, up to the next blank (host.txt lines of the quiet
 * gate carry several KEY=VALUE words: "redone=1 busy=1").
 */
static const char *info_word(const struct run *one, const char *key,
			     char *buf, size_t n)
{
	size_t k = strlen(key);
	const char *p;
	int i;

	buf[0] = '\0';
	for (i = 0; i < one->ninfo; i++) {
		for (p = one->info[i]; p; p = strchr(p, ' ')) {
			while (*p == ' ')
				p++;
			if (!strncmp(p, key, k) && p[k] == '=') {
				snprintf(buf, n, "%.*s", (int)strcspn(p + k + 1, " "), p + k + 1);
				return buf;
			}
		}
	}
	return buf;
}

static void min_max(double v, double *lo, double *hi)
{
	if (isnan(*lo) || v < *lo)
		*lo = v;
	if (isnan(*hi) || v > *hi)
		*hi = v;
}

/* One boot's host.txt @path (boot @k; @discarded: of ACCEL/busy/) into @g. */
static void gate_boot(struct run_gate *g, const char *path, int k, int discarded)
{
	struct run one = { 0 };
	char v[64];
	double c;
	int i;

	load_info(&one, path);
	if (*info_word(&one, "control_ns", v, sizeof(v))) {
		c = atof(v);
		if (discarded) {
			g->discarded++;
			min_max(c, &g->busy_min, &g->busy_max);
		} else {
			g->boots++;
			if (isnan(g->control_max) || c > g->control_max)
				g->control_max_boot = k;
			min_max(c, &g->control_min, &g->control_max);
			g->redone += atoi(info_word(&one, "redone", v, sizeof(v))) > 0;
			g->busy += !strcmp(info_word(&one, "busy", v, sizeof(v)), "1");
			if (*info_word(&one, "quiet_ref_ns", v, sizeof(v))) {
				if (isnan(g->ref_first))
					g->ref_first = atof(v);
				g->ref_last = atof(v);
				g->ref_last_boot = k;
			}
			/* boot 1 is only recorded (its REDO 0): the paired boots' rule */
			if (*info_word(&one, "quiet_rule", v, sizeof(v)) && (k > 1 || !*g->rule))
				snprintf(g->rule, sizeof(g->rule), "%.31s", v);
		}
	}
	for (i = 0; i < one.ninfo; i++)
		free(one.info[i]);
	free(one.info);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * The boot numbers of DIR's entries named boot-K (@busy: boot-K.N, the
 * numbers K * 1000 + N), sorted, into a malloc'ed *@out; returns how many.
 */
static int boot_dirs(const char *dir, int busy, int **out)
{
	struct dirent **ents;
	int n, i, k, r, m = 0;
	char end;

	*out = NULL;
	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		int ok = busy ? sscanf(ents[i]->d_name, "boot-%d.%d%c", &k, &r, &end) == 2 :
				sscanf(ents[i]->d_name, "boot-%d%c", &k, &end) == 1;

		if (ok && k > 0 && k < 1000000 && (!busy || (r >= 0 && r < 1000))) {
			*out = realloc(*out, (m + 1) * sizeof(**out));
			if (!*out) {
				perror("realloc");
				exit(1);
			}
			(*out)[m++] = busy ? k * 1000 + r : k;
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (m)
		qsort(*out, m, sizeof(**out), cmp_int);
	return m;
}

void run_load_gates(struct run *run, const char *dir)
{
	struct dirent **ents;
	struct run_gate g;
	char path[4096], sub[2048];
	int n, i, j, nb, *ks;

	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		memset(&g, 0, sizeof(g));
		g.ref_first = g.ref_last = NAN;
		g.control_min = g.control_max = NAN;
		g.busy_min = g.busy_max = NAN;
		snprintf(path, sizeof(path), "%s/%s/host.txt", dir, name);
		if (name[0] == '.' || access(path, R_OK))
			goto next;
		run_file_kv(path, "accel", g.accel, sizeof(g.accel));
		if (!*g.accel)
			snprintf(g.accel, sizeof(g.accel), "%.63s", name);
		snprintf(g.dir, sizeof(g.dir), "%.63s", name);
		gate_boot(&g, path, 1, 0);
		snprintf(sub, sizeof(sub), "%s/%s", dir, name);
		nb = boot_dirs(sub, 0, &ks);
		for (j = 0; j < nb; j++) {
			snprintf(path, sizeof(path), "%s/boot-%d/host.txt", sub, ks[j]);
			gate_boot(&g, path, ks[j], 0);
		}
		free(ks);
		snprintf(sub, sizeof(sub), "%s/%s/busy", dir, name);
		nb = boot_dirs(sub, 1, &ks);
		for (j = 0; j < nb; j++) {
			snprintf(path, sizeof(path), "%s/boot-%d.%d/host.txt", sub,
				 ks[j] / 1000, ks[j] % 1000);
			gate_boot(&g, path, ks[j] / 1000, 1);
		}
		free(ks);
		if (!g.boots && !g.discarded)
			goto next;
		run->gates = realloc(run->gates, (run->ngates + 1) * sizeof(*run->gates));
		if (!run->gates) {
			perror("realloc");
			exit(1);
		}
		run->gates[run->ngates++] = g;
next:
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

const struct run_gate *run_gate(const struct run *run, const char *accel)
{
	int i;

	for (i = 0; i < run->ngates; i++)
		if (!strcmp(run->gates[i].accel, accel))
			return &run->gates[i];
	return NULL;
}
