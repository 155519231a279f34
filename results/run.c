// SPDX-License-Identifier: GPL-2.0
/* Loading a run's results once (run.h). */
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
}

void run_load_claims(struct run *run, const char *dir)
{
	char path[4096];

	if (in_dir(path, sizeof(path), dir, "claims.csv")) {
		csv_load(&run->claims, path);
		run->has_claims = 1;
	}
	if (in_dir(path, sizeof(path), dir, "decomposition.csv")) {
		csv_load(&run->splits, path);
		run->has_splits = 1;
	}
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

const struct csv_row *run_ratio(const struct run *run, const char *accel,
				const char *pair, const char *filter,
				const char *skbs)
{
	static const char *const keys[] = { "accel", "pair", "filter", "skbs", NULL };
	const char *values[] = { accel, pair, filter, skbs };

	return csv_find(run->has_ratios ? &run->ratios : NULL, keys, values);
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

	if (!strcmp(over, "layouts"))
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
