// SPDX-License-Identifier: GPL-2.0
/*
 * Reading bench/engines.conf, bench/accels.conf, bench/flavours.conf,
 * bench/kernels.conf, bench/cores.conf and bench/args.conf.  Their paths
 * are compiled in (REG_DIR, the clone's bench/) and may be overridden with
 * ENGINES_CONF, ACCELS_CONF, FLAVOURS_CONF, KERNELS_CONF, CORES_CONF and
 * ARGS_CONF (the names bench/host/accels.sh reads them by).  Each file is
 * read whole: a record type it does not have is an error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#ifndef REG_DIR
#define REG_DIR "bench"
#endif

#define FILE_TYPES 5

/*
 * Each registry file: the variable that overrides its path, its name in
 * REG_DIR, the record types it holds and a registry for each, loaded once.
 */
enum { F_ENGINES, F_ACCELS, F_FLAVOURS, F_KERNELS, F_CORES, F_ARGS, F_MEASURED, F_TIMES };
static struct reg_file {
	const char *env, *file;
	const char *types[FILE_TYPES];
	struct reg regs[FILE_TYPES];
	int loaded;
} files[] = {
	[F_ENGINES] = { "ENGINES_CONF", "engines.conf", { "engine", "ratio", "cell", "claim", "split" } },
	[F_ACCELS] = { "ACCELS_CONF", "accels.conf", { "kind", "accel" } },
	[F_FLAVOURS] = { "FLAVOURS_CONF", "flavours.conf", { "flavour" } },
	[F_KERNELS] = { "KERNELS_CONF", "kernels.conf", { "kernel" } },
	[F_CORES] = { "CORES_CONF", "cores.conf", { "core", "predictor" } },
	[F_ARGS] = { "ARGS_CONF", "args.conf", { "arg" } },
	[F_MEASURED] = { "MEASURED_CONF", "measured.conf", { "measured" } },
	[F_TIMES] = { "TIMES_CONF", "times.conf", { "accel", "flavour", "host", "job" } },
};

static void die(const char *path, int lineno, const char *what)
{
	fprintf(stderr, "%s:%d: %s\n", path, lineno, what);
	exit(1);
}

/* Squeeze blanks: words separated by single spaces, none at the ends. */
static void squeeze(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (isspace((unsigned char)*r)) {
			while (isspace((unsigned char)*r))
				r++;
			if (w != s && *r)
				*w++ = ' ';
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/*
 * Load PATH: each unindented "TYPE NAME" line starts a record, kept in the
 * registry of TYPE in @types (a type not there is an error); the indented
 * "KEY VALUE..." lines after it are its keys.  Each record and key keeps
 * its line number, each registry the path.
 */
static void load(const char *path, const char *const *types,
		 struct reg **regs, int ntypes)
{
	char line[1024];
	struct reg_rec *cur = NULL;
	int lineno = 0, indented, t;
	FILE *f = fopen(path, "r");
	char *keep = strdup(path);

	if (!f || !keep) {
		perror(path);
		exit(1);
	}
	for (t = 0; t < ntypes; t++)
		regs[t]->path = keep;
	while (fgets(line, sizeof(line), f)) {
		char *key, *val;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			die(path, lineno, "line too long");
		indented = isspace((unsigned char)*line);
		squeeze(line);
		if (!*line || *line == '#')
			continue;
		key = line;
		val = strchr(line, ' ');
		if (val)
			*val++ = '\0';
		else
			val = line + strlen(line);
		if (!indented) {
			if (!*val || strchr(val, ' '))
				die(path, lineno, "a record needs one name");
			for (t = 0; t < ntypes && strcmp(key, types[t]); t++)
				;
			if (t == ntypes) {
				char what[128];

				snprintf(what, sizeof(what), "no record type '%.60s' in this file", key);
				die(path, lineno, what);
			}
			if (reg_find(regs[t], val, 0))
				die(path, lineno, "record named twice");
			cur = reg_find(regs[t], val, 1);
			if (!cur)
				die(path, lineno, "too many records");
			cur->known = 1;
			cur->line = lineno;
			continue;
		}
		if (!cur)
			die(path, lineno, "a key before any record");
		if (cur->nkeys == REG_MAX_KEYS)
			die(path, lineno, "too many keys in a record");
		if (strlen(key) >= sizeof(cur->key[0]) ||
		    strlen(val) >= sizeof(cur->val[0]))
			die(path, lineno, "key or value too long");
		cur->kline[cur->nkeys] = lineno;
		strcpy(cur->key[cur->nkeys], key);
		strcpy(cur->val[cur->nkeys++], val);
	}
	fclose(f);
}

static const char *conf(const char *env, const char *file)
{
	static char buf[2][4096];
	static int i;
	const char *p = getenv(env);

	if (p && *p)
		return p;
	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", REG_DIR, file);
	return buf[i];
}

/* The registry of record type @type (its index) of file @file. */
static struct reg *reg_of(int file, int type)
{
	struct reg_file *f = &files[file];
	struct reg *regs[FILE_TYPES];
	int n;

	if (!f->loaded++) {
		for (n = 0; n < FILE_TYPES && f->types[n]; n++)
			regs[n] = &f->regs[n];
		load(conf(f->env, f->file), f->types, regs, n);
	}
	return &f->regs[type];
}

struct reg *reg_engines(void)
{
	return reg_of(F_ENGINES, 0);
}

struct reg *reg_ratios(void)
{
	return reg_of(F_ENGINES, 1);
}

struct reg *reg_cells(void)
{
	return reg_of(F_ENGINES, 2);
}

struct reg *reg_claims(void)
{
	return reg_of(F_ENGINES, 3);
}

struct reg *reg_splits(void)
{
	return reg_of(F_ENGINES, 4);
}

struct reg *reg_kinds(void)
{
	return reg_of(F_ACCELS, 0);
}

struct reg *reg_accels(void)
{
	return reg_of(F_ACCELS, 1);
}

struct reg *reg_flavours(void)
{
	return reg_of(F_FLAVOURS, 0);
}

struct reg *reg_kernels(void)
{
	return reg_of(F_KERNELS, 0);
}

struct reg *reg_cores(void)
{
	return reg_of(F_CORES, 0);
}

struct reg *reg_predictors(void)
{
	return reg_of(F_CORES, 1);
}

struct reg *reg_args(void)
{
	return reg_of(F_ARGS, 0);
}

struct reg *reg_measured(void)
{
	return reg_of(F_MEASURED, 0);
}

struct reg *reg_time_accels(void)
{
	return reg_of(F_TIMES, 0);
}

struct reg *reg_time_flavours(void)
{
	return reg_of(F_TIMES, 1);
}

struct reg *reg_time_hosts(void)
{
	return reg_of(F_TIMES, 2);
}

struct reg *reg_time_jobs(void)
{
	return reg_of(F_TIMES, 3);
}

struct reg_rec *reg_kernel_of(const char *version)
{
	struct reg *k = reg_kernels();
	int i;

	for (i = 0; i < k->n; i++) {
		size_t n = strlen(k->rec[i].name);

		if (!strncmp(version, k->rec[i].name, n) &&
		    !isdigit((unsigned char)version[n]))
			return &k->rec[i];
	}
	return NULL;
}

struct reg_rec *reg_kernel_default(void)
{
	struct reg *k = reg_kernels();
	int i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(reg_get(&k->rec[i], "default"), "1"))
			return &k->rec[i];
	return NULL;
}

const char *reg_clone_path(const char *rel)
{
	static char buf[4096];
	const char *c = conf("KERNELS_CONF", "kernels.conf");
	const char *slash = strrchr(c, '/');

	snprintf(buf, sizeof(buf), "%.*s/../%s", slash ? (int)(slash - c) : 1,
		 slash ? c : ".", rel);
	return buf;
}

struct reg_rec *reg_find(struct reg *r, const char *name, int add)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->rec[i].name, name))
			return &r->rec[i];
	if (!add || r->n == REG_MAX)
		return NULL;
	if (!(r->n & (r->n - 1))) {
		/* grown at 1, 2, 4, ... records */
		struct reg_rec *more = realloc(r->rec, (r->n ? 2 * r->n : 1) *
					       sizeof(*more));

		if (!more) {
			perror("registry");
			exit(1);
		}
		r->rec = more;
	}
	memset(&r->rec[r->n], 0, sizeof(r->rec[0]));
	snprintf(r->rec[r->n].name, sizeof(r->rec[0].name), "%s", name);
	return &r->rec[r->n++];
}

int reg_pair(const char *name, char *num, char *den, size_t n)
{
	const char *slash = strchr(name, '/');

	if (!slash || slash == name || !slash[1] || strchr(slash + 1, '/') ||
	    (size_t)(slash - name) >= n || strlen(slash + 1) >= n)
		return 0;
	snprintf(num, n, "%.*s", (int)(slash - name), name);
	snprintf(den, n, "%s", slash + 1);
	return 1;
}

const char *reg_get_or(const struct reg_rec *rec, const char *key,
		       const char *def)
{
	int i;

	for (i = 0; rec && i < rec->nkeys; i++)
		if (!strcmp(rec->key[i], key))
			return rec->val[i];
	return def;
}

const char *reg_get(const struct reg_rec *rec, const char *key)
{
	return reg_get_or(rec, key, "");
}

int reg_words(const struct reg_rec *rec, const char *key, char words[][32],
	      int max)
{
	const char *s = reg_get(rec, key);
	int n = 0;

	while (*s && n < max) {
		size_t k = strcspn(s, " ");

		snprintf(words[n++], 32, "%.*s", (int)k, s);
		s += k;
		while (*s == ' ')
			s++;
	}
	return n;
}

const char *engine_label(const char *name)
{
	struct reg_rec *e = reg_find(reg_engines(), name, 0);

	return reg_get_or(e, "label", name);
}

const char *engine_plot_label(const char *name)
{
	struct reg_rec *e = reg_find(reg_engines(), name, 0);

	return reg_get_or(e, "plot_label", engine_label(name));
}

int kind_rank(const char *kind)
{
	struct reg *k = reg_kinds();
	int i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->rec[i].name, kind))
			return i;
	return k->n;
}

int kind_flag(const char *kind, const char *flag)
{
	return !strcmp(reg_get_or(reg_find(reg_kinds(), kind, 0), flag, "0"), "1");
}

/*
 * The architecture whose 2014 figures a flavour is compared with: its
 * record's ref2014_arch (um: x86_64, the host it runs on), else its name.
 */
const char *reg_ref_arch(const char *flavour)
{
	const struct reg_rec *f;

	if (!flavour || !*flavour)
		return "x86_64";	/* a run from before flavours were recorded */
	f = reg_find(reg_flavours(), flavour, 0);
	return f && *reg_get(f, "ref2014_arch") ?
	       reg_get(f, "ref2014_arch") : flavour;
}

int reg_ref(const struct reg_rec *rec, const char *what, const char *flavour,
	    char words[][32], int max)
{
	char key[128];

	snprintf(key, sizeof(key), "%s.%s", what, reg_ref_arch(flavour));
	return reg_words(rec, key, words, max);
}
