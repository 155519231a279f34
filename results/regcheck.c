// SPDX-License-Identifier: GPL-2.0
/*
 * regcheck - the registries checked whole, before anything uses them.
 *
 *   regcheck [-C TOP]
 *
 * Loads every registry of bench/ (engines.conf, accels.conf, flavours.conf,
 * kernels.conf, cores.conf, args.conf, measured.conf, times.conf:
 * lib/registry.c, so the same paths and the same *_CONF overrides as
 * every tool) and checks that every
 * record has the keys its readers need and no key they do not know, every
 * value has its form, and every name a record gives of another record, or
 * of a file of the clone TOP (default: the directory above REG_DIR),
 * resolves.  Each error is one line "FILE:LINE: what is wrong" (the line
 * of the key, or of the record when a key is missing); exits 1 after the
 * last, 0 silently when there is none.  docs/extending.md lists what is
 * checked; a new key is added to the tables below with its record.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/registry.h"

#ifndef REG_DIR
#define REG_DIR "bench"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* How a key's value is checked. */
enum vt {
	ANY,		/* free text */
	BOOL,		/* 0 or 1 */
	UINT,		/* a decimal number */
	NUM,		/* a decimal fraction */
	ONE_OF,		/* one of the words of .arg */
	COLOUR,		/* #rrggbb */
	FILES,		/* files of the clone, relative to it */
	DIR,		/* a directory of the clone */
	REF,		/* the name of a record of .ref */
	REFS,		/* names of records of .ref */
	PAIR,		/* ENGINE/ENGINE */
	RATIO,		/* the name of a ratio record */
	PLAN,		/* bench.KEY=VALUE words of args.conf */
	TRIPLE,		/* N:N:N: SIZE:WAYS:LINE, TABLES:BITS:LONGEST */
	REF2014,	/* one word per cell record */
	CIS,		/* one RATIO:LO:HI per cell record, LO <= RATIO <= HI */
	TWO,		/* two words */
};

struct key {
	const char *name;	/* "NAME.": a prefix; the rest by .suffix */
	int req;		/* every record has it */
	enum vt vt;
	const char *arg;	/* ONE_OF's words; REF's record type */
	struct reg *(*ref)(void);	/* REF, REFS: the records named */
	enum { NONE, ARCH, FLAVOUR, RATIO_NAME } suffix;
};

struct rtype {
	const char *type;
	struct reg *(*reg)(void);
	const struct key *keys;
	void (*check)(const struct reg *r, const struct reg_rec *rec);
};

static const char *top = REG_DIR "/..";

/* The per-call counters of the model plugin (registry.h). */
static const char model_counters[] = REG_MODEL_COUNTERS " " REG_MODEL_OPTIONAL;
static int nerr;

static void err(const struct reg *r, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", r->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nerr++;
}

/* A value's blank-separated words (reg_words' are cut at 31 characters). */
#define WORD 256

static int words(const struct reg_rec *rec, const char *key, char (*w)[WORD], int max)
{
	const char *s = reg_get(rec, key);
	int n = 0;

	while (*s && n < max) {
		size_t k = strcspn(s, " ");

		snprintf(w[n++], sizeof(w[0]), "%.*s", (int)k, s);
		s += k;
		while (*s == ' ')
			s++;
	}
	return n;
}

static int kidx(const struct reg_rec *rec, const char *key)
{
	int k;

	for (k = 0; k < rec->nkeys; k++)
		if (!strcmp(rec->key[k], key))
			return k;
	return -1;
}

/* The line of @key in @rec, or of the record when it has none. */
static int kline(const struct reg_rec *rec, const char *key)
{
	int k = kidx(rec, key);

	return k < 0 ? rec->line : rec->kline[k];
}

static int has(const struct reg_rec *rec, const char *key)
{
	return kidx(rec, key) >= 0;
}

static int is_uint(const char *s)
{
	if (!*s || strlen(s) > 10)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int is_num(const char *s)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return 0;
	strtod(s, &end);
	return !*end;
}

/* Whether @word is one of the blank-separated @words. */
static int in_words(const char *word, const char *words)
{
	size_t n = strlen(word);

	while (*words) {
		size_t k = strcspn(words, " ");

		if (k == n && !strncmp(word, words, n))
			return 1;
		words += k;
		while (*words == ' ')
			words++;
	}
	return 0;
}

static int exists(const char *rel, int dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	if (dir)
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/.");
	return !access(path, R_OK);
}

/* The architectures of the 2014 tables: each flavour's ref2014_arch, else its name. */
static int ref_arch_known(const char *arch)
{
	struct reg *f = reg_flavours();
	int i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(reg_get_or(&f->rec[i], "ref2014_arch", f->rec[i].name), arch))
			return 1;
	return 0;
}

/* A pair "A/B" of engine records; else an error at @line about @who. */
static void check_pair(const struct reg *r, int line, const char *who,
		       const char *pair)
{
	char num[64], den[64];

	if (!reg_pair(pair, num, den, sizeof(num)))
		err(r, line, "%s: '%s' is not ENGINE/ENGINE", who, pair);
	else if (!reg_find(reg_engines(), num, 0) || !reg_find(reg_engines(), den, 0))
		err(r, line, "%s: %s: no engine record '%s' (%s)", who, pair,
		    reg_find(reg_engines(), num, 0) ? den : num, reg_engines()->path);
}

static void check_filter(const struct reg *r, int line, const char *who,
			 const char *name)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "filters/%s.dd", name);
	if (!*name || !exists(rel, 0))
		err(r, line, "%s: filter '%s': no %s in %s", who, name, rel, top);
}

/* One bench.KEY=VALUE word of a plan, as bench/host/benchargs.sh takes it. */
static void check_plan_word(const struct reg *r, int line, const char *who,
			    const char *word)
{
	const char *eq = strchr(word, '=');
	const struct reg_rec *a;
	char name[64], items[REG_MAX][64];
	const char *type, *val;
	int n, i;

	if (strncmp(word, "bench.", 6) || !eq || eq - word - 6 >= (int)sizeof(name)) {
		err(r, line, "%s: '%s' is not bench.KEY=VALUE", who, word);
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - word - 6), word + 6);
	val = eq + 1;
	a = reg_find(reg_args(), name, 0);
	if (!a) {
		err(r, line, "%s: '%s': no arg record '%s' (%s)", who, word, name,
		    reg_args()->path);
		return;
	}
	type = reg_get(a, "type");
	if (!strcmp(type, "runner")) {
		err(r, line, "%s: '%s': set by the runner, not a plan option (%s:%d)",
		    who, word, reg_args()->path, a->line);
		return;
	}
	if (!strcmp(type, "bool")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			err(r, line, "%s: '%s': must be 0 or 1", who, word);
		return;
	}
	/* the other types are comma-separated lists (uint: of one) */
	if (*val == ',' || strstr(val, ",,") || (*val && val[strlen(val) - 1] == ',')) {
		err(r, line, "%s: '%s': an empty item in the list", who, word);
		return;
	}
	for (n = 0; *val && n < REG_MAX; n++) {
		size_t k = strcspn(val, ",");

		snprintf(items[n], sizeof(items[n]), "%.*s", (int)k, val);
		val += k + (val[k] == ',');
	}
	if (!n || (!strcmp(type, "uint") && n != 1)) {
		err(r, line, "%s: '%s': a %s value wanted", who, word, type);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(type, "engines")) {
			if (!reg_find(reg_engines(), items[i], 0))
				err(r, line, "%s: '%s': no engine record '%s' (%s)", who, word,
				    items[i], reg_engines()->path);
		} else if (!strcmp(type, "filters")) {
			check_filter(r, line, who, items[i]);
		} else if (!is_uint(items[i]) ||
			   strtoul(items[i], NULL, 10) < strtoul(reg_get(a, "min"), NULL, 10) ||
			   strtoul(items[i], NULL, 10) > strtoul(reg_get(a, "max"), NULL, 10)) {
			err(r, line, "%s: '%s': '%s' is not a number %s..%s (%s:%d)", who,
			    word, items[i], reg_get(a, "min"), reg_get(a, "max"),
			    reg_args()->path, a->line);
		}
	}
}

/* The key of table @keys that @key is (a prefix one: its suffix checked). */
static const struct key *key_of(const struct key *keys, const char *key)
{
	for (; keys->name; keys++) {
		size_t n = strlen(keys->name);

		if (keys->name[n - 1] == '.' ? !strncmp(key, keys->name, n) && key[n] :
		    !strcmp(key, keys->name))
			return keys;
	}
	return NULL;
}

static void check_value(const struct reg *r, const char *type,
			const struct reg_rec *rec, int k, const struct key *ks)
{
	const char *key = rec->key[k], *val = rec->val[k];
	const char *suf = key + strlen(ks->name);
	char w[REG_MAX][WORD];
	char who[160];
	int line = rec->kline[k], n, i, bad = 0;

	snprintf(who, sizeof(who), "%s %s: %s", type, rec->name, key);
	if (ks->suffix == ARCH && !ref_arch_known(suf))
		err(r, line, "%s: no flavour compared with the 2014 table of '%s' (%s: ref2014_arch, else its name)",
		    who, suf, reg_flavours()->path);
	if (ks->suffix == FLAVOUR && !reg_find(reg_flavours(), suf, 0))
		err(r, line, "%s: no flavour record '%s' (%s)", who, suf,
		    reg_flavours()->path);
	if (ks->suffix == RATIO_NAME && !reg_find(reg_ratios(), suf, 0))
		err(r, line, "%s: no ratio record '%s' (%s)", who, suf, reg_ratios()->path);
	n = words(rec, key, w, REG_MAX);
	switch (ks->vt) {
	case ANY:
		break;
	case BOOL:
		if (strcmp(val, "0") && strcmp(val, "1"))
			err(r, line, "%s: '%s' is not 0 or 1", who, val);
		break;
	case UINT:
		if (!is_uint(val))
			err(r, line, "%s: '%s' is not a number", who, val);
		break;
	case NUM:
		if (!is_num(val))
			err(r, line, "%s: '%s' is not a number", who, val);
		break;
	case ONE_OF:
		if (!in_words(val, ks->arg))
			err(r, line, "%s: '%s' is not one of: %s", who, val, ks->arg);
		break;
	case COLOUR:
		for (i = 1; i < 7 && isxdigit((unsigned char)val[i]); i++)
			;
		if (val[0] != '#' || i != 7 || val[7])
			err(r, line, "%s: '%s' is not #rrggbb", who, val);
		break;
	case FILES:
	case DIR:
		for (i = 0; i < n; i++)
			if (!exists(w[i], ks->vt == DIR))
				err(r, line, "%s: no %s %s in %s", who,
				    ks->vt == DIR ? "directory" : "file", w[i], top);
		break;
	case REF:
	case REFS:
		if (ks->vt == REF && n != 1)
			err(r, line, "%s: one %s name wanted, not '%s'", who, ks->arg, val);
		for (i = 0; i < n; i++)
			if (!reg_find(ks->ref(), w[i], 0))
				err(r, line, "%s: no %s record '%s' (%s)", who, ks->arg, w[i],
				    ks->ref()->path);
		break;
	case PAIR:
		if (n != 1)
			err(r, line, "%s: one ENGINE/ENGINE wanted, not '%s'", who, val);
		else
			check_pair(r, line, who, val);
		break;
	case RATIO:
		if (n != 1)
			err(r, line, "%s: one ratio name wanted, not '%s'", who, val);
		for (i = 0; i < n; i++)
			if (!reg_find(reg_ratios(), w[i], 0))
				err(r, line, "%s: no ratio record '%s' (%s)", who, w[i],
				    reg_ratios()->path);
		break;
	case PLAN:
		for (i = 0; i < n; i++)
			check_plan_word(r, line, who, w[i]);
		break;
	case TRIPLE:
		for (i = 0; i < 3 && !bad; i++) {
			size_t len = strcspn(val, ":");

			bad = !len || strspn(val, "0123456789") != len ||
			      (i < 2 ? val[len] != ':' : val[len] != '\0');
			val += len + 1;
		}
		if (bad)
			err(r, line, "%s: '%s' is not N:N:N (a cache's SIZE:WAYS:LINE, a TAGE's TABLES:BITS:LONGEST)",
			    who, rec->val[k]);
		break;
	case REF2014:
		if (n != reg_cells()->n)
			err(r, line, "%s: %d words, not one per cell record (%d, %s)", who,
			    n, reg_cells()->n, reg_cells()->path);
		break;
	case TWO:
		if (n != 2)
			err(r, line, "%s: %d words, not 2", who, n);
		break;
	case CIS:
		if (n != reg_cells()->n)
			err(r, line, "%s: %d words, not one per cell record (%d, %s)", who,
			    n, reg_cells()->n, reg_cells()->path);
		for (i = 0; i < n; i++) {
			double v, lo, hi;
			char end;

			if (sscanf(w[i], "%lf:%lf:%lf%c", &v, &lo, &hi, &end) != 3 ||
			    !(lo > 0 && lo <= v && v <= hi))
				err(r, line, "%s: '%s' is not RATIO:LO:HI with 0 < LO <= RATIO <= HI",
				    who, w[i]);
		}
		break;
	}
}

/* Every record of @t: its keys known and once each, the required there. */
static void check_type(const struct rtype *t)
{
	struct reg *r = t->reg();
	const struct key *ks;
	int i, k, j;

	for (i = 0; i < r->n; i++) {
		const struct reg_rec *rec = &r->rec[i];

		for (ks = t->keys; ks->name; ks++)
			if (ks->req && !has(rec, ks->name))
				err(r, rec->line, "%s %s: no %s (every %s record has one)",
				    t->type, rec->name, ks->name, t->type);
		for (k = 0; k < rec->nkeys; k++) {
			for (j = 0; j < k && strcmp(rec->key[j], rec->key[k]); j++)
				;
			if (j < k) {
				err(r, rec->kline[k], "%s %s: %s given twice (first at line %d)",
				    t->type, rec->name, rec->key[k], rec->kline[j]);
				continue;
			}
			ks = key_of(t->keys, rec->key[k]);
			if (!ks)
				err(r, rec->kline[k], "%s %s: unknown key '%s' (the file's top comment lists the keys)",
				    t->type, rec->name, rec->key[k]);
			else
				check_value(r, t->type, rec, k, ks);
		}
		if (t->check)
			t->check(r, rec);
	}
}

static const char *get(const struct reg_rec *rec, const char *key)
{
	return reg_get(rec, key);
}

/*
 * layout_builds: the flavours an accelerator's code-layout variants are
 * relinked from, in turn: each relinks and has its own flavour's arch,
 * the first is its own flavour, and the accelerator has layouts.
 */
static void layout_builds_check(const struct reg *r, const struct reg_rec *rec,
				const struct reg_rec *fl)
{
	char w[8][WORD];
	int n = words(rec, "layout_builds", w, 8), i;

	if (n && !has(rec, "layouts"))
		err(r, kline(rec, "layout_builds"), "accel %s: layout_builds without layouts",
		    rec->name);
	if (n && fl && strcmp(w[0], fl->name))
		err(r, kline(rec, "layout_builds"),
		    "accel %s: layout_builds starts with %s, not its own flavour %s",
		    rec->name, w[0], fl->name);
	for (i = 0; i < n && fl; i++) {
		const struct reg_rec *b = reg_find(reg_flavours(), w[i], 0);

		if (b && (strcmp(get(b, "relink"), "1") || strcmp(get(b, "arch"), get(fl, "arch"))))
			err(r, kline(rec, "layout_builds"),
			    "accel %s: layout_builds %s: not a flavour of arch %s that relinks (%s:%d)",
			    rec->name, w[i], get(fl, "arch"), reg_flavours()->path, b->line);
	}
}

static void check_accel(const struct reg *r, const struct reg_rec *rec)
{
	const struct reg_rec *fl = reg_find(reg_flavours(), get(rec, "flavour"), 0);
	const struct reg_rec *in, *kr;
	const char *boot = get(rec, "boot"), *kind = get(rec, "kind");
	const char *aut = get(rec, "auto");
	size_t bw = strcspn(boot, " ");
	char q[4][WORD];
	int nested = bw == 6 && !strncmp(boot, "nested", 6), i;

	if (*boot && !(bw == 4 && !strncmp(boot, "qemu", 4)) && strcmp(boot, "uml") && !nested)
		err(r, kline(rec, "boot"), "accel %s: boot '%s' is not qemu ARGS, uml or nested ARGS",
		    rec->name, boot);
	if (fl && bw == 4 && !strncmp(boot, "qemu", 4) &&
	    (!*get(fl, "qemu") || !strcmp(get(fl, "qemu"), "-")))
		err(r, kline(rec, "boot"), "accel %s: boots under QEMU, but flavour %s has no qemu (%s:%d)",
		    rec->name, fl->name, reg_flavours()->path, fl->line);
	if (nested != has(rec, "nests"))
		err(r, kline(rec, nested ? "boot" : "nests"),
		    "accel %s: a nested boot and a nests key go together", rec->name);
	in = reg_find(reg_accels(), get(rec, "nests"), 0);
	if (in && strncmp(get(in, "boot"), "qemu", 4))
		err(r, kline(rec, "nests"), "accel %s: nests %s, whose boot is not qemu ARGS (%s:%d)",
		    rec->name, in->name, r->path, in->line);
	if (*aut && strcmp(aut, "probe") && strcmp(aut, "always")) {
		if (strncmp(aut, "unless:", 7))
			err(r, kline(rec, "auto"), "accel %s: auto '%s' is not probe, always or unless:ACCEL",
			    rec->name, aut);
		else if (!reg_find(reg_accels(), aut + 7, 0))
			err(r, kline(rec, "auto"), "accel %s: auto %s: no accel record '%s' (%s)",
			    rec->name, aut, aut + 7, r->path);
	}
	/* of an unknown kind, only that is told */
	if (reg_find(reg_kinds(), kind, 0) && has(rec, "model") != !strcmp(kind, "modeled"))
		err(r, kline(rec, has(rec, "model") ? "model" : "kind"),
		    "accel %s: a model key and kind modeled go together", rec->name);
	if (reg_find(reg_kinds(), kind, 0) && has(rec, "check_plan") && strcmp(kind, "counted"))
		err(r, kline(rec, "check_plan"), "accel %s: check_plan on kind %s, not counted",
		    rec->name, kind);
	if (fl && has(rec, "layouts") && strcmp(get(fl, "relink"), "1"))
		err(r, kline(rec, "layouts"), "accel %s: layouts, but flavour %s does not relink (%s:%d)",
		    rec->name, fl->name, reg_flavours()->path, fl->line);
	layout_builds_check(r, rec, fl);
	in = reg_find(reg_accels(), get(rec, "against"), 0);
	if (in && (strcmp(get(in, "kind"), kind) || strcmp(get(in, "flavour"), get(rec, "flavour"))))
		err(r, kline(rec, "against"), "accel %s: against %s, of another kind or flavour (%s:%d)",
		    rec->name, in->name, r->path, in->line);
	kr = reg_find(reg_kinds(), kind, 0);
	if (kr && has(rec, "layouts") && !strcmp(get(kr, "variants"), "none"))
		err(r, kline(rec, "layouts"), "accel %s: layouts, but kind %s has variants none (%s:%d)",
		    rec->name, kind, r->path, kr->line);
	if (has(rec, "quiet")) {
		int n = words(rec, "quiet", q, 4);

		for (i = 0; i < n && is_uint(q[i]); i++)
			;
		if (n != 3 || i != 3)
			err(r, kline(rec, "quiet"), "accel %s: quiet '%s' is not PCT WAIT_S REDO",
			    rec->name, get(rec, "quiet"));
		if (strcmp(get(rec, "pin"), "1"))
			err(r, kline(rec, "quiet"), "accel %s: a quiet gate without pin 1",
			    rec->name);
	}
}

/* times.conf: an accelerator's measured times, its run_sd HIT_PCT,MISS_PCT. */
static void check_time_accel(const struct reg *r, const struct reg_rec *rec)
{
	if (!reg_find(reg_accels(), rec->name, 0))
		err(r, rec->line, "accel %s: no such accelerator in accels.conf", rec->name);
	if (has(rec, "run_sd")) {
		char a[64], b[64];
		const char *v = get(rec, "run_sd"), *comma = strchr(v, ',');

		snprintf(a, sizeof(a), "%.*s", comma ? (int)(comma - v) : 0, v);
		snprintf(b, sizeof(b), "%s", comma ? comma + 1 : "");
		if (!is_num(a) || !is_num(b))
			err(r, kline(rec, "run_sd"), "accel %s: run_sd '%s' is not HIT_PCT,MISS_PCT",
			    rec->name, v);
	}
}

/* times.conf: a flavour's measured times. */
static void check_time_flavour(const struct reg *r, const struct reg_rec *rec)
{
	if (!reg_find(reg_flavours(), rec->name, 0))
		err(r, rec->line, "flavour %s: no such flavour in flavours.conf", rec->name);
}

static void check_flavour(const struct reg *r, const struct reg_rec *rec)
{
	const char *sa = reg_get_or(rec, "seccomp_arch", "x86_64");
	static const char *const files[] = { "short-%s.bpf", "large-%s.bpf", "verdicts-%s.txt" };
	const char *cross = get(rec, "cross");
	char rel[160], name[96];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(name, sizeof(name), files[i], sa);
		snprintf(rel, sizeof(rel), "filters/seccomp/%s", name);
		if (!exists(rel, 0)) {
			err(r, kline(rec, "seccomp_arch"), "flavour %s: seccomp_arch %s: no %s in %s",
			    rec->name, sa, rel, top);
			break;
		}
	}
	if (*cross && strcmp(cross, "-") && cross[strlen(cross) - 1] != '-')
		err(r, kline(rec, "cross"), "flavour %s: cross '%s' is not a prefix ending in - (or -)",
		    rec->name, cross);
}

static void check_kernel(const struct reg *r, const struct reg_rec *rec)
{
	char w[REG_MAX][WORD];
	int n = words(rec, "check", w, REG_MAX), i;

	for (i = 0; i < n; i++) {
		const struct reg_rec *a = reg_find(reg_accels(), w[i], 0);

		if (a && strcmp(get(a, "kind"), "counted"))
			err(r, kline(rec, "check"), "kernel %s: check %s: kind %s, not counted (%s:%d)",
			    rec->name, w[i], get(a, "kind"), reg_accels()->path, a->line);
	}
	n = words(rec, "sanitize", w, REG_MAX);
	for (i = 0; i < n; i++) {
		const struct reg_rec *a = reg_find(reg_accels(), w[i], 0);

		if (a && strcmp(get(a, "debug"), "1"))
			err(r, kline(rec, "sanitize"), "kernel %s: sanitize %s: not a debug accelerator (%s:%d)",
			    rec->name, w[i], reg_accels()->path, a->line);
	}
}

/* One default tree (kernels.conf default 1): what make uses without KERNEL=. */
static void check_default_kernel(void)
{
	struct reg *r = reg_kernels();
	int i, d = 0;

	for (i = 0; i < r->n; i++)
		if (!strcmp(get(&r->rec[i], "default"), "1") && d++)
			err(r, kline(&r->rec[i], "default"), "kernel %s: a second default 1",
			    r->rec[i].name);
	if (!d)
		err(r, r->n ? r->rec[0].line : 1, "no kernel record has default 1");
}


static void check_core(const struct reg *r, const struct reg_rec *rec)
{
	char w[REG_MAX][WORD];
	char c[64];
	int n = words(rec, "cycles", w, REG_MAX), i;

	for (i = 0; i < n; i++) {
		const char *colon = strchr(w[i], ':');

		snprintf(c, sizeof(c), "%.*s", colon ? (int)(colon - w[i]) : 0, w[i]);
		if (!colon || (!in_words(c, model_counters) && strcmp(c, "mispredicts")) ||
		    !is_num(colon + 1))
			err(r, kline(rec, "cycles"), "core %s: cycles '%s' is not COUNTER:WEIGHT of mispredicts or a model counter (%s)",
			    rec->name, w[i], model_counters);
	}
	if (has(rec, "hist_bits") && has(rec, "gshare_bits") &&
	    atoi(get(rec, "hist_bits")) > atoi(get(rec, "gshare_bits")))
		err(r, kline(rec, "hist_bits"), "core %s: hist_bits above gshare_bits", rec->name);
	if (has(rec, "taken") && (!is_num(get(rec, "taken")) || atof(get(rec, "taken")) < 0 ||
					 atof(get(rec, "taken")) > 100))
		err(r, kline(rec, "taken"), "core %s: taken '%s' is not the cycles of a taken branch (0..100)",
		    rec->name, get(rec, "taken"));
	for (i = 0; i < n; i++)
		if (!strncmp(w[i], "base:", 5) && !has(rec, "mcpu"))
			err(r, kline(rec, "cycles"), "core %s: cycles has a base term but the core has no mcpu (llvm-mca computes base)",
			    rec->name);
}

static void check_arg(const struct reg *r, const struct reg_rec *rec)
{
	const char *type = get(rec, "type");

	if (strcmp(type, "uint") && strcmp(type, "uints"))
		return;
	if (!has(rec, "min") || !has(rec, "max"))
		err(r, rec->line, "arg %s: a %s needs min and max", rec->name, type);
	else if (strtoul(get(rec, "min"), NULL, 10) > strtoul(get(rec, "max"), NULL, 10))
		err(r, kline(rec, "min"), "arg %s: min above max", rec->name);
}

static void check_engine(const struct reg *r, const struct reg_rec *rec)
{
	if (strlen(get(rec, "label")) > 14)
		err(r, kline(rec, "label"), "engine %s: label '%s' longer than 14 characters",
		    rec->name, get(rec, "label"));
}

static void check_ratio(const struct reg *r, const struct reg_rec *rec)
{
	char who[96];

	snprintf(who, sizeof(who), "ratio %s", rec->name);
	check_pair(r, rec->line, who, rec->name);
}

static void check_cell(const struct reg *r, const struct reg_rec *rec)
{
	char who[96];

	snprintf(who, sizeof(who), "cell %s", rec->name);
	if (has(rec, "filter"))
		check_filter(r, kline(rec, "filter"), who, get(rec, "filter"));
}

/* The keys of each claim kind beyond kind, text and kinds: "+": required. */
static const struct {
	const char *kind, *keys;
} claim_kinds[] = {
	{ "ratio", "+pair" },
	{ "weakest", "+pairs ref_num ref_den" },
	{ "counter", "+counter pair pairs cell cells per holds_at floor ref_ratio predictors" },
	{ "cost", "+counter +from +to +engines holds_at" },
	{ "seccomp", "+filter +pair +index" },
};

static void check_claim(const struct reg *r, const struct reg_rec *rec)
{
	const char *kind = get(rec, "kind"), *keys = NULL;
	char w[REG_MAX][WORD];
	char plus[64];
	size_t i;
	int k, n;

	for (i = 0; i < ARRAY_SIZE(claim_kinds); i++)
		if (!strcmp(kind, claim_kinds[i].kind))
			keys = claim_kinds[i].keys;
	if (!keys)
		return;		/* told by its kind key */
	for (k = 0; k < rec->nkeys; k++) {
		const char *key = rec->key[k];

		snprintf(plus, sizeof(plus), "+%s", key);
		if (strcmp(key, "kind") && strcmp(key, "text") && strcmp(key, "kinds") &&
		    !in_words(key, keys) && !in_words(plus, keys))
			err(r, rec->kline[k], "claim %s: %s is no key of kind %s (%s)", rec->name,
			    key, kind, keys);
	}
	for (i = 0; keys[i]; ) {
		size_t len = strcspn(keys + i, " ");

		if (keys[i] == '+') {
			snprintf(plus, sizeof(plus), "%.*s", (int)len - 1, keys + i + 1);
			if (!has(rec, plus))
				err(r, rec->line, "claim %s: no %s (kind %s has one)", rec->name,
				    plus, kind);
		}
		i += len + (keys[i + len] == ' ');
	}
	if (!strcmp(kind, "counter")) {
		if (has(rec, "pair") == has(rec, "pairs"))
			err(r, rec->line, "claim %s: pair or pairs (one of them)", rec->name);
		if (has(rec, "cell") == has(rec, "cells"))
			err(r, rec->line, "claim %s: cell or cells (one of them)", rec->name);
	}
	if (!strcmp(kind, "weakest") && has(rec, "ref_num") != has(rec, "ref_den"))
		err(r, rec->line, "claim %s: ref_num and ref_den go together", rec->name);
	if (!strcmp(kind, "ratio") || !strcmp(kind, "weakest")) {
		/* a paired ratio of ratios.csv: mkratios forms the ratio records */
		const char *key = !strcmp(kind, "ratio") ? "pair" : "pairs";

		n = words(rec, key, w, REG_MAX);
		for (k = 0; k < n; k++)
			if (!reg_find(reg_ratios(), w[k], 0))
				err(r, kline(rec, key), "claim %s: %s %s: no ratio record '%s' (%s)",
				    rec->name, key, w[k], w[k], reg_ratios()->path);
	} else {
		const char *key = has(rec, "pairs") ? "pairs" : "pair";
		char who[160];

		snprintf(who, sizeof(who), "claim %s: %s", rec->name, key);
		n = words(rec, key, w, REG_MAX);
		for (k = 0; k < n; k++)
			check_pair(r, kline(rec, key), who, w[k]);
	}
	if (!strcmp(kind, "seccomp") && has(rec, "filter")) {
		struct reg *f = reg_flavours();
		char rel[160];

		for (k = 0; k < f->n; k++) {
			const char *sa = reg_get_or(&f->rec[k], "seccomp_arch", "x86_64");

			/* an arch without its filters is told by its flavour */
			snprintf(rel, sizeof(rel), "filters/seccomp/verdicts-%s.txt", sa);
			if (!exists(rel, 0))
				continue;
			snprintf(rel, sizeof(rel), "filters/seccomp/%s-%s.bpf", get(rec, "filter"), sa);
			if (!exists(rel, 0)) {
				err(r, kline(rec, "filter"), "claim %s: filter %s: no %s in %s",
				    rec->name, get(rec, "filter"), rel, top);
				break;
			}
		}
	}
}

static void check_split(const struct reg *r, const struct reg_rec *rec)
{
	char a[64], b[64], c[64], d[64], e[64], f[64];

	if (!reg_find(reg_ratios(), rec->name, 0))
		err(r, rec->line, "split %s: no ratio record '%s' (%s)", rec->name, rec->name,
		    reg_ratios()->path);
	if (!reg_pair(rec->name, a, f, sizeof(a)) ||
	    !reg_pair(get(rec, "design"), b, c, sizeof(b)) ||
	    !reg_pair(get(rec, "conversion"), d, e, sizeof(d)))
		return;		/* told by the pairs' own checks */
	if (strcmp(a, b) || strcmp(c, d) || strcmp(e, f))
		err(r, kline(rec, "design"), "split %s: design %s x conversion %s is not A/B x B/C of %s",
		    rec->name, get(rec, "design"), get(rec, "conversion"), rec->name);
}

/* Key table entries: plain, one of some words, a reference, a prefix key. */
#define K(n, r, v)		{ .name = n, .req = r, .vt = v }
#define ONE(n, r, a)		{ .name = n, .req = r, .vt = ONE_OF, .arg = a }
#define RF(n, r, v, t, f)	{ .name = n, .req = r, .vt = v, .arg = t, .ref = f }
#define SUF(n, v, a, s)		{ .name = n, .vt = v, .arg = a, .suffix = s }
#define END			{ .name = NULL }

static const struct key kind_keys[] = {
	K("what", 1, ANY), K("plot", 1, ANY), K("timed", 0, BOOL), K("test", 0, BOOL),
	ONE("variants", 0, "paired bench none"),
	END
};

static const struct key accel_keys[] = {
	RF("flavour", 1, REF, "flavour", reg_flavours),
	K("unit", 1, ANY),
	RF("kind", 1, REF, "kind", reg_kinds),
	K("boot", 1, ANY),
	K("plan_args", 0, PLAN), K("check_plan", 0, PLAN), K("check_args", 0, PLAN),
	RF("nests", 0, REF, "accel", reg_accels),
	RF("against", 0, REF, "accel", reg_accels),
	RF("model", 0, REF, "core", reg_cores),
	RF("model_also", 0, REFS, "core", reg_cores),
	RF("layout_builds", 0, REFS, "flavour", reg_flavours),
	K("auto", 0, ANY), K("needs", 0, ANY), K("cmdline", 0, ANY),
	K("quiet", 0, ANY),
	ONE("out", 0, "console disk"),
	K("pin", 0, BOOL), K("debug", 0, BOOL), K("check", 0, BOOL),
	K("probe_s", 0, UINT), K("boots", 0, UINT), K("layouts", 0, UINT),
	K("mem", 0, UINT), K("silent_s", 0, UINT),
	END
};

static const struct key flavour_keys[] = {
	K("arch", 1, ANY), K("base", 1, ANY), K("fragment", 1, FILES),
	K("targets", 1, ANY), K("image", 1, ANY), K("cross", 1, ANY),
	K("qemu", 1, ANY),
	K("guest_cc", 0, ANY), K("title", 0, ANY), K("ref2014_arch", 0, ANY),
	K("debarch", 0, ANY), K("packages", 0, ANY), K("console", 0, ANY),
	K("qemu_drive", 0, ANY), K("cmdline", 0, ANY), K("disasm", 0, ANY),
	K("seccomp_arch", 0, ANY),
	ONE("default", 0, "0 1 check"),
	K("perf", 0, BOOL), K("host_cpu", 0, BOOL), K("relink", 0, BOOL),
	END
};

/* bench/times.conf */
static const struct key time_accel_keys[] = {
	K("guest_s", 0, UINT), K("boot_s", 0, UINT), K("check_s", 0, UINT),
	K("run_sd", 0, ANY),
	END
};

static const struct key time_flavour_keys[] = {
	K("build_s", 0, UINT), K("relink_s", 0, UINT),
	END
};

/* the host the times were measured on: host_speed_probe scales them */
static const struct key time_host_keys[] = {
	K("cpuid", 1, ANY), K("control_ns", 1, NUM), K("date", 0, ANY),
	END
};

/* a kind of make check pool job: its seconds (bench/host/run-check.sh job_s) */
static const struct key time_job_keys[] = {
	K("check_s", 1, UINT),
	END
};

static const struct key kernel_keys[] = {
	K("package", 1, ANY), K("series", 1, DIR), K("title", 1, ANY),
	ONE("default", 0, "1"), K("reference", 0, DIR),
	RF("check", 0, REFS, "accel", reg_accels),
	RF("sanitize", 0, REFS, "accel", reg_accels),
	END
};

static const struct key core_keys[] = {
	K("arch", 1, ANY), K("title", 1, ANY), K("cycles", 1, ANY),
	K("l1i", 0, TRIPLE), K("l1d", 0, TRIPLE), K("l2", 0, TRIPLE),
	K("gshare_bits", 0, UINT), K("hist_bits", 0, UINT), K("bimodal_bits", 0, UINT),
	K("btb_bits", 0, UINT), K("ind_bits", 0, UINT), K("path_len", 0, UINT),
	K("ras", 0, UINT), K("tage", 0, TRIPLE), K("ittage", 0, TRIPLE),
	K("rob", 0, UINT), K("mcpu", 0, ANY), K("taken", 0, ANY),
	RF("predictor", 1, REF, "predictor", reg_predictors), K("year", 0, UINT),
	END
};

static const struct key measured_keys[] = {
	K("title", 1, ANY), K("cpu", 1, ANY), K("run", 1, ANY),
	RF("core", 1, REF, "core", reg_cores),
	RF("flavour", 1, REF, "flavour", reg_flavours),
	SUF("ratio.", CIS, NULL, RATIO_NAME),
	END
};

static const struct key predictor_keys[] = {
	K("title", 1, ANY), ONE("cond", 1, model_counters), ONE("ind", 1, model_counters),
	END
};

static const struct key arg_keys[] = {
	ONE("type", 1, "uint uints bool engines filters runner"),
	K("what", 1, ANY), K("min", 0, UINT), K("max", 0, UINT),
	END
};

static const struct key engine_keys[] = {
	K("label", 1, ANY), K("colour", 1, COLOUR),
	ONE("checker", 1, "3.14 6.1 none"),
	ONE("semantics", 1, "3.14 6.1 2014 none"),
	K("plot_label", 0, ANY), K("seccomp_note", 0, ANY), K("fallback", 0, ANY),
	K("always", 0, BOOL), K("jited", 0, BOOL), K("crosscheck", 0, BOOL),
	ONE("seccomp", 0, "classic interp jit"),
	SUF("missing.", ANY, NULL, FLAVOUR),
	SUF("xshift.", ONE_OF, "byte mod32", FLAVOUR),
	SUF("fallback.", ANY, NULL, FLAVOUR),
	SUF("ref2014.", REF2014, NULL, ARCH),
	SUF("seccomp2014.", TWO, NULL, ARCH),
	END
};

static const struct key ratio_keys[] = {
	K("colour", 1, COLOUR), K("all", 0, BOOL),
	SUF("ref2014.", REF2014, NULL, ARCH),
	END
};

static const struct key cell_keys[] = {
	K("filter", 1, ANY), K("skbs", 1, UINT), K("head", 1, ANY), K("sub", 1, ANY),
	END
};

/* A claim's keys; which belong to its kind: claim_kinds. */
static const struct key claim_keys[] = {
	ONE("kind", 1, "ratio weakest counter cost seccomp"),
	K("text", 1, ANY), RF("kinds", 0, REFS, "kind", reg_kinds),
	K("pair", 0, ANY), K("pairs", 0, ANY),
	RF("ref_num", 0, REFS, "engine", reg_engines),
	RF("ref_den", 0, REF, "engine", reg_engines),
	RF("engines", 0, REFS, "engine", reg_engines),
	RF("cell", 0, REF, "cell", reg_cells), RF("cells", 0, REFS, "cell", reg_cells),
	RF("from", 0, REF, "cell", reg_cells), RF("to", 0, REF, "cell", reg_cells),
	K("ref_ratio", 0, RATIO),
	K("counter", 0, ANY), ONE("per", 0, "vm_insns perf_calls"),
	K("predictors", 0, BOOL),
	K("holds_at", 0, NUM), K("floor", 0, NUM),
	K("filter", 0, ANY), ONE("index", 0, "0 1"),
	END
};

static const struct key split_keys[] = {
	K("design", 1, PAIR), K("conversion", 1, PAIR),
	RF("cells", 1, REFS, "cell", reg_cells), K("design_base", 0, ANY),
	END
};

static const struct rtype types[] = {
	{ "kind", reg_kinds, kind_keys, NULL },
	{ "accel", reg_accels, accel_keys, check_accel },
	{ "flavour", reg_flavours, flavour_keys, check_flavour },
	{ "kernel", reg_kernels, kernel_keys, check_kernel },
	{ "core", reg_cores, core_keys, check_core },
	{ "predictor", reg_predictors, predictor_keys, NULL },
	{ "measured", reg_measured, measured_keys, NULL },
	{ "accel", reg_time_accels, time_accel_keys, check_time_accel },
	{ "flavour", reg_time_flavours, time_flavour_keys, check_time_flavour },
	{ "host", reg_time_hosts, time_host_keys, NULL },
	{ "job", reg_time_jobs, time_job_keys, NULL },
	{ "arg", reg_args, arg_keys, check_arg },
	{ "engine", reg_engines, engine_keys, check_engine },
	{ "ratio", reg_ratios, ratio_keys, check_ratio },
	{ "cell", reg_cells, cell_keys, check_cell },
	{ "claim", reg_claims, claim_keys, check_claim },
	{ "split", reg_splits, split_keys, check_split },
};

int main(int argc, char **argv)
{
	static char topbuf[PATH_MAX];
	size_t t;
	int opt;

	while ((opt = getopt(argc, argv, "C:")) != -1) {
		if (opt != 'C') {
			fprintf(stderr, "usage: regcheck [-C TOP]\n");
			return 2;
		}
		top = optarg;
	}
	if (optind != argc) {
		fprintf(stderr, "usage: regcheck [-C TOP]\n");
		return 2;
	}
	if (realpath(top, topbuf))
		top = topbuf;
	/* every file read first: a syntax error is told before any reference */
	for (t = 0; t < ARRAY_SIZE(types); t++)
		types[t].reg();
	for (t = 0; t < ARRAY_SIZE(types); t++)
		check_type(&types[t]);
	check_default_kernel();
	return nerr ? 1 : 0;
}
