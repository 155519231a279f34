// SPDX-License-Identifier: GPL-2.0
/*
 * Reading bench/engines.conf, bench/accels.conf, bench/flavours.conf and
 * bench/kernels.conf.  Their paths are compiled in (REG_DIR, the clone's
 * bench/) and may be overridden with ENGINES_CONF, ACCELS_CONF,
 * FLAVOURS_CONF and KERNELS_CONF.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#ifndef REG_DIR
#define REG_DIR "bench"
#endif

static struct reg engines, ratios, cells, claims, splits, kinds, flavours,
	kernels;
static int loaded_engines, loaded_accels, loaded_flavours, loaded_kernels;

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
 * registry of TYPE in @types (other types are skipped as a whole); the
 * indented "KEY VALUE..." lines after it are its keys.
 */
static void load(const char *path, const char *const *types,
		 struct reg **regs, int ntypes)
{
	char line[512];
	struct reg_rec *cur = NULL;
	int lineno = 0, skipping = 0, indented, t;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *key, *val;

		lineno++;
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
			cur = NULL;
			skipping = 1;
			for (t = 0; t < ntypes; t++) {
				if (strcmp(key, types[t]))
					continue;
				if (reg_find(regs[t], val, 0))
					die(path, lineno, "record named twice");
				cur = reg_find(regs[t], val, 1);
				if (!cur)
					die(path, lineno, "too many records");
				cur->known = 1;
				skipping = 0;
			}
			continue;
		}
		if (skipping)
			continue;
		if (!cur)
			die(path, lineno, "a key before any record");
		if (cur->nkeys == REG_MAX_KEYS)
			die(path, lineno, "too many keys in a record");
		if (strlen(key) >= sizeof(cur->key[0]) ||
		    strlen(val) >= sizeof(cur->val[0]))
			die(path, lineno, "key or value too long");
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

static void load_engines(void)
{
	static const char *const types[] = { "engine", "ratio", "cell", "claim",
					    "split" };
	struct reg *regs[] = { &engines, &ratios, &cells, &claims, &splits };

	if (loaded_engines++)
		return;
	load(conf("ENGINES_CONF", "engines.conf"), types, regs, 5);
}

static void load_accels(void)
{
	static const char *const types[] = { "kind" };
	struct reg *regs[] = { &kinds };

	if (loaded_accels++)
		return;
	load(conf("ACCELS_CONF", "accels.conf"), types, regs, 1);
}

struct reg *reg_engines(void)
{
	load_engines();
	return &engines;
}

struct reg *reg_ratios(void)
{
	load_engines();
	return &ratios;
}

struct reg *reg_cells(void)
{
	load_engines();
	return &cells;
}

struct reg *reg_claims(void)
{
	load_engines();
	return &claims;
}

struct reg *reg_splits(void)
{
	load_engines();
	return &splits;
}

struct reg *reg_kinds(void)
{
	load_accels();
	return &kinds;
}

struct reg *reg_flavours(void)
{
	static const char *const types[] = { "flavour" };
	struct reg *regs[] = { &flavours };

	if (!loaded_flavours++)
		load(conf("FLAVOURS_CONF", "flavours.conf"), types, regs, 1);
	return &flavours;
}

struct reg *reg_kernels(void)
{
	static const char *const types[] = { "kernel" };
	struct reg *regs[] = { &kernels };

	if (!loaded_kernels++)
		load(conf("KERNELS_CONF", "kernels.conf"), types, regs, 1);
	return &kernels;
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
	memset(&r->rec[r->n], 0, sizeof(r->rec[0]));
	snprintf(r->rec[r->n].name, sizeof(r->rec[0].name), "%s", name);
	return &r->rec[r->n++];
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
