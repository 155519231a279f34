// SPDX-License-Identifier: GPL-2.0
/*
 * mkcover - write the cover letter (patch 0/N) of the kernel series, in the
 * form `git format-patch --cover-letter` gives it, from a run's results.
 *
 *   mkcover RUN_DIR TREE_DIR OUT.patch
 *   mkcover -r RUN_DIR        the results part only, for README.md
 *
 * The series is TREE_DIR's commits pristine..HEAD.  The body is fixed text
 * around what the run and the tree say: the finding and one table per
 * architecture rendered from the run's CSV files (results.csv, ratios.csv,
 * claims.csv, decomposition.csv; table.txt is pointed to, not pasted), the
 * machine and accelerators from RUN_DIR/run.txt and RUN_DIR/results.csv,
 * the top symbols of RUN_DIR/<accel>/perf/<cell>.report for a few cells,
 * then `git shortlog` and `git diff --stat` of the series.  Nothing in it
 * is a number typed by hand.  SOURCE_DATE_EPOCH, when set, gives the Date.
 */
#include <ctype.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "../lib/csv.h"
#include "../lib/registry.h"
#include "../lib/run.h"

#define TITLE	"bpf: re-measure bd4cf0ed331a's classic BPF interpreter rework on 6.1"
#define PERF_TOP	3

static struct run run;
static FILE *out;
static const char *outpath;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "mkcover: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	if (out) {
		fclose(out);
		remove(outpath);
	}
	exit(1);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory", NULL);
	return d;
}

/* ARG in single quotes for sh -c, quotes in it as '\''. */
static char *sh_quote(const char *arg)
{
	size_t n = 3, i = 0;
	const char *s;
	char *q;

	for (s = arg; *s; s++)
		n += *s == '\'' ? 4 : 1;
	q = malloc(n);
	if (!q)
		die("out of memory", NULL);
	q[i++] = '\'';
	for (s = arg; *s; s++) {
		if (*s == '\'') {
			memcpy(q + i, "'\\''", 4);
			i += 4;
		} else {
			q[i++] = *s;
		}
	}
	q[i++] = '\'';
	q[i] = '\0';
	return q;
}

/* Run `git -C TREE ARGS`; its whole stdout, or NULL if it failed. */
static char *git(const char *tree, const char *args)
{
	char *qt = sh_quote(tree), *cmd, *buf = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[4096];
	FILE *p;
	int st;

	n = strlen(qt) + strlen(args) + 32;
	cmd = malloc(n);
	if (!cmd)
		die("out of memory", NULL);
	snprintf(cmd, n, "git -C %s %s 2>/dev/null", qt, args);
	fflush(NULL);
	p = popen(cmd, "r");
	if (!p)
		die("cannot run", cmd);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0) {
		if (len + n + 1 > cap) {
			cap = 2 * (len + n + 1);
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory", NULL);
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	st = pclose(p);
	free(cmd);
	free(qt);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		free(buf);
		return NULL;
	}
	if (!buf)
		buf = xstrdup("");
	else
		buf[len] = '\0';
	return buf;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* A header's display name: RFC 2047 if not ASCII, quoted if it has specials. */
static void put_name(const char *name)
{
	const unsigned char *s;
	int eight = 0, special = 0;

	for (s = (const unsigned char *)name; *s; s++) {
		eight |= *s >= 0x80;
		special |= !!strchr("()<>[]:;@\\,.\"", *s);
	}
	if (eight) {
		fputs("=?UTF-8?q?", out);
		for (s = (const unsigned char *)name; *s; s++) {
			if (isalnum(*s))
				fputc(*s, out);
			else if (*s == ' ')
				fputc('_', out);
			else
				fprintf(out, "=%02X", *s);
		}
		fputs("?=", out);
	} else if (special) {
		fputc('"', out);
		for (s = (const unsigned char *)name; *s; s++) {
			if (*s == '"' || *s == '\\')
				fputc('\\', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(name, out);
	}
}

/* "Name <email>" of whoever sends the series, as format-patch finds it. */
static void from_header(const char *tree)
{
	char *id = git(tree, "var GIT_COMMITTER_IDENT"), *lt, *gt, *email;

	if (!id || !strchr(id, '<')) {
		free(id);
		id = git(tree, "log -1 --format=%an%x20%x3c%ae%x3e HEAD");
	}
	if (!id || !(lt = strchr(id, '<')) || !(gt = strchr(lt, '>')))
		die("no author identity (set git user.name and user.email)", tree);
	gt[1] = '\0';
	email = xstrdup(lt);
	while (lt > id && lt[-1] == ' ')
		lt--;
	*lt = '\0';
	fputs("From: ", out);
	put_name(id);
	fprintf(out, " %s\n", email);
	free(email);
	free(id);
}

static void date_header(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	char buf[64];

	strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", gmtime(&t));
	fprintf(out, "Date: %s\n", buf);
}

/*
 * Would git mailinfo take this body line for the start of a patch (or an
 * mbox reader for a new message)?  Such a line gets a leading space.
 */
static int breaks_mail(const char *l)
{
	if (!strncmp(l, "diff -", 6) || !strncmp(l, "Index: ", 7) ||
	    !strncmp(l, "From ", 5))
		return 1;
	if (strncmp(l, "---", 3))
		return 0;
	if (l[3] == ' ' && l[4] && !isspace((unsigned char)l[4]))
		return 1;
	for (l += 3; *l; l++)
		if (!isspace((unsigned char)*l))
			return 0;
	return 1;
}

static void put_text(const char *text)
{
	const char *l = text, *nl;

	while (*l) {
		nl = strchr(l, '\n');
		if (breaks_mail(l))
			fputc(' ', out);
		fwrite(l, 1, nl ? (size_t)(nl - l) : strlen(l), out);
		fputc('\n', out);
		if (!nl)
			break;
		l = nl + 1;
	}
}

/* A ratio "lo-hi" or one figure when they agree to two decimals. */
static void range_text(char *buf, size_t n, double lo, double hi)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%.2f", lo);
	snprintf(b, sizeof(b), "%.2f", hi);
	snprintf(buf, n, strcmp(a, b) ? "%s-%sx" : "%sx", a, b);
}

/* Whether decomposition row @r is of a kind that tests a path (test 1). */
static int row_tests(const struct csv *d, const struct csv_row *r)
{
	return kind_flag(csv_get(d, r, "kind"), "test");
}

/* Accelerators of @kind with a claims.csv row: "uml" or "icount, icount-arm". */
static void kind_accels(char *buf, size_t n, const char *kind)
{
	size_t len = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < run.naccels && len < n; a++) {
		const struct csv_row *r = run_accel_row(&run, run.accels[a]);

		if (strcmp(csv_get(&run.results, r, "kind"), kind))
			continue;
		len += snprintf(buf + len, n - len, "%s%s", len ? ", " : "", run.accels[a]);
	}
}

/*
 * The finding, in words made from claims.csv and decomposition.csv: the
 * first claim record's verdicts over every accelerator and cell, how far
 * apart the engines are per kind of figure, and the split of the ratio.
 */
static void finding_text(void);

/* TEXT filled to 72 columns; "\n\n" keeps a paragraph break. */
static void put_wrapped(const char *text)
{
	const char *s = text;
	int col = 0;

	while (*s) {
		size_t w;

		if (s[0] == '\n' && s[1] == '\n') {
			fputs(col ? "\n\n" : "\n", out);
			col = 0;
			s += 2;
			continue;
		}
		if (*s == ' ' || *s == '\n') {
			s++;
			continue;
		}
		w = strcspn(s, " \n");
		if (col && col + 1 + (int)w > 72) {
			fputc('\n', out);
			col = 0;
		}
		if (col++)
			fputc(' ', out);
		fwrite(s, 1, w, out);
		col += (int)w;
		s += w;
	}
	if (col)
		fputc('\n', out);
}

static void finding(void)
{
	FILE *real = out;
	char *text = NULL;
	size_t len = 0;

	out = open_memstream(&text, &len);
	if (!out)
		die("out of memory", NULL);
	finding_text();
	fclose(out);
	out = real;
	put_wrapped(text);
	free(text);
}

/*
 * No figure for the head claim: say whether the run re-tests any claim
 * with a figure, or why the head one has none.
 */
static void finding_unmeasured(const struct reg_rec *head)
{
	const struct csv *c = &run.claims;
	const char *why = "";
	int others = 0, i;

	for (i = 0; head && run.has_claims && i < c->nrows; i++) {
		const struct csv_row *r = &c->rows[i];

		if (strcmp(csv_get(c, r, "claim"), head->name))
			others += !!*csv_get(c, r, "value");
		else if (!*why)
			why = csv_get(c, r, "basis");
	}
	if (!others)
		fprintf(out, "This run re-tests none of the 2014 commit's claims (no claims.csv\n"
			"rows with a figure): see its tables.\n\n");
	else
		fprintf(out, "This run has no figure for \"%s\" (claims.csv basis: %s);\n"
			"the claims it re-tests with one are below.\n\n",
			reg_get(head, "text"), *why ? why : "none");
}

/* [*@lo, *@hi] widened to take @v (*@lo 0: empty). */
static void widen(double v, double *lo, double *hi)
{
	if (!*lo || v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* The head claim's magnitude per kind of figure: the inverse of num/den. */
static void finding_magnitudes(const struct reg_rec *head)
{
	const struct csv *c = &run.claims;
	char num[64] = "", den[64] = "", buf[64], list[256];
	int i, k;

	sscanf(reg_get(head, "pair"), "%63[^/]/%63s", num, den);
	for (k = 0; k < reg_kinds()->n; k++) {
		const char *kind = reg_kinds()->rec[k].name;
		double lo = 0, hi = 0;

		if (kind_flag(kind, "test"))
			continue;	/* a test of a path: no magnitude */
		for (i = 0; i < c->nrows; i++) {
			const struct csv_row *r = &c->rows[i];
			double v = atof(csv_get(c, r, "inverse"));

			if (!strcmp(csv_get(c, r, "claim"), head->name) &&
			    !strcmp(csv_get(c, r, "kind"), kind) && v > 0)
				widen(v, &lo, &hi);
		}
		if (!lo)
			continue;
		range_text(buf, sizeof(buf), lo, hi);
		kind_accels(list, sizeof(list), kind);
		fprintf(out, " %s per call of %s: %s %s's (%s: %s).",
			strcmp(kind, "counted") ? "Time" : "Guest instructions",
			engine_label(den), buf, engine_label(num), kind, list);
	}
}

/* Why: the decomposition of the accelerators that measure (not test). */
static void finding_why(void)
{
	const struct csv *d = &run.splits;
	double clo = 0, chi = 0, dlo = 0, dhi = 0, cv, dv;
	const struct reg_rec *sp;
	char buf[64];
	int i, k;

	for (i = 0, k = 0; run.has_splits && i < d->nrows; i++)
		k += !row_tests(d, &d->rows[i]);
	if (!k) {
		fprintf(out, "\n\n");
		return;
	}
	sp = reg_find(reg_splits(), csv_get(d, &d->rows[0], "split"), 0);
	for (i = 0; i < d->nrows; i++) {
		if (row_tests(d, &d->rows[i]))
			continue;
		cv = atof(csv_get(d, &d->rows[i], "conversion_cost"));
		dv = atof(csv_get(d, &d->rows[i], "design_cost"));
		widen(cv, &clo, &chi);
		widen(dv, &dlo, &dhi);
	}
	range_text(buf, sizeof(buf), clo, chi);
	fprintf(out, " Why: the conversion of classic programs since 2014 makes a call %s dearer (",
		buf);
	for (i = 0, k = 0; i < d->nrows; i++) {
		const struct csv_row *r = &d->rows[i];
		int j, seen = 0;

		for (j = 0; j < i; j++)
			seen |= !strcmp(csv_get(d, &d->rows[j], "cell"), csv_get(d, r, "cell"));
		if (seen || row_tests(d, r) || !*csv_get(d, r, "conversion_vm_den"))
			continue;
		fprintf(out, "%s%s executes %s eBPF instructions where 2014's ran %s",
			k++ ? "; " : "",
			reg_get_or(reg_find(reg_cells(), csv_get(d, r, "cell"), 0), "head",
				   csv_get(d, r, "cell")),
			csv_get(d, r, "conversion_vm_den"), csv_get(d, r, "conversion_vm_num"));
	}
	range_text(buf, sizeof(buf), dlo, dhi);
	fprintf(out, "), and the 2014 design itself costs %s %s's time (%s = %s x %s; decomposition.csv).\n\n",
		buf, reg_get_or(sp, "design_base", "the baseline"), sp ? sp->name : "-",
		reg_get(sp, "design"), reg_get(sp, "conversion"));
}

static void finding_text(void)
{
	const struct reg_rec *head = reg_claims()->n ? &reg_claims()->rec[0] : NULL;
	const struct csv *c = &run.claims;
	static const char *const words[] = { "holds", "reversed", "no difference shown",
					     "not measurable" };
	int count[4] = { 0 }, total = 0, nacc = 0, i, w;
	const char *last = "";

	for (i = 0; head && run.has_claims && i < c->nrows; i++) {
		const struct csv_row *r = &c->rows[i];

		if (strcmp(csv_get(c, r, "claim"), head->name) ||
		    !*csv_get(c, r, "value"))
			continue;
		total++;
		nacc += !!strcmp(last, csv_get(c, r, "accel"));
		last = csv_get(c, r, "accel");
		for (w = 0; w < 4; w++)
			count[w] += !strcmp(csv_get(c, r, "verdict"), words[w]);
	}
	if (!total) {
		finding_unmeasured(head);
		return;
	}
	fprintf(out, "On Debian's linux-source %s (Linux %s) ", run_info(&run, "debian_version"),
		run_info(&run, "kernel"));
	if (count[1] == total)
		fprintf(out, "the 2014 result is reversed: \"%s\"\n"
			"is reversed in all %d cells on %d accelerator%s.",
			reg_get(head, "text"), total, nacc, nacc > 1 ? "s" : "");
	else if (count[0] == total)
		fprintf(out, "the 2014 result holds: \"%s\" holds\n"
			"in all %d cells on %d accelerator%s.",
			reg_get(head, "text"), total, nacc, nacc > 1 ? "s" : "");
	else {
		static const char *const says[] = { "holds in", "is reversed in",
						    "shows no difference in",
						    "is not measurable (claims.csv basis) in" };
		const char *sep = "";

		fprintf(out, "the 2014 result is %s: \"%s\"",
			count[3] == total ? "not measured here" : "mixed", reg_get(head, "text"));
		for (w = 0; w < 4; w++) {
			if (!count[w])
				continue;
			fprintf(out, "%s %s %d", sep, says[w], count[w]);
			sep = ",";
		}
		fprintf(out, " of %d cells.", total);
	}
	finding_magnitudes(head);
	finding_why();
}

/* The typed paired ratio @pair of cell @k (lib/cells.c), or NULL. */
static const struct run_quot *paired_quot(const char *accel, const char *pair, int k)
{
	const struct run_quot *q = run_quot(&run, accel, "bench", pair,
					    reg_get(&reg_cells()->rec[k], "filter"),
					    reg_get(&reg_cells()->rec[k], "skbs"));

	return q && q->paired.csv ? q : NULL;
}

/* The typed cell of @engine in cell record @k (lib/cells.c), or NULL. */
static const struct run_cell *cell_of(const char *accel, const char *engine, int k)
{
	return run_cell(&run, accel, "bench", engine, reg_get(&reg_cells()->rec[k], "filter"),
			reg_get(&reg_cells()->rec[k], "skbs"));
}

/* " 0.49±2%" of a paired ratio, "-" without one. */
static void ratio_cell(char *buf, size_t n, const struct run_quot *q)
{
	if (!q)
		snprintf(buf, n, "-");
	else if (q->halfwidth_pct >= 0.5)
		snprintf(buf, n, "%.2f±%.0f%%", q->paired.v, q->halfwidth_pct);
	else
		snprintf(buf, n, "%.2f", q->paired.v);
}

/* @s right-aligned in @width columns (UTF-8: a column per character). */
static void put_cell(const char *s, int width)
{
	int cols = 0;
	const char *p;

	for (p = s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	fprintf(out, " %*s%s", width > cols ? width - cols : 0, "", s);
}

static void cells_header(void)
{
	int c, k;

	for (c = 0; c < 2; c++) {
		fprintf(out, "%-14s", "");
		for (k = 0; k < reg_cells()->n; k++)
			fprintf(out, " %11s", reg_get(&reg_cells()->rec[k], c ? "sub" : "head"));
		fputc('\n', out);
	}
}

/*
 * A line per kind of figure that tests a path (accels.conf test 1) the run
 * has: its accelerators and what their figures are not.
 */
static void test_kinds_note(void)
{
	char list[256];
	int k;

	for (k = 0; k < reg_kinds()->n; k++) {
		const struct reg_rec *rec = &reg_kinds()->rec[k];

		if (!kind_flag(rec->name, "test"))
			continue;
		kind_accels(list, sizeof(list), rec->name);
		if (*list)
			fprintf(out, "%s: %s; no claim is judged from them.\n",
				list, reg_get(rec, "plot"));
	}
}

/*
 * One table per accelerator in the 2014 layout: per engine its median
 * (over boots where the run has them), then the paired ratios with the
 * half-width of their 95% CI and the 2014 ratios.
 */
static void accel_table(const char *accel)
{
	const struct csv_row *any = run_accel_row(&run, accel);
	const char *flavour = csv_get(&run.results, any, "flavour");
	const char *kind;
	const struct run_fig *ab = NULL;
	char buf[128], ref[REG_MAX][32];
	int e, k, i;

	/* each cell shows its figure: over boots where the run has one */
	for (k = 0; k < reg_cells()->n && !ab; k++)
		for (e = 0; e < reg_engines()->n && !ab; e++) {
			const struct run_cell *t = cell_of(accel, reg_engines()->rec[e].name, k);

			ab = t && t->paired.csv ? &t->paired : NULL;
		}
	kind = csv_get(&run.results, any, "kind");
	fprintf(out, "accel=%s (%s, %s per call, %s", accel, *flavour ? flavour : "-",
		csv_get(&run.results, any, "unit"),
		kind_flag(kind, "test") ? reg_get(reg_find(reg_kinds(), kind, 0), "plot") : kind);
	if (ab)
		fprintf(out, ", medians %s", run_ci_over(ab->csv, ab->row, buf, sizeof(buf)));
	fprintf(out, "):\n");
	if (*run_accel_mitigations(&run, accel))
		fprintf(out, "mitigations: %s\n", run_accel_mitigations(&run, accel));
	cells_header();
	for (e = 0; e < reg_engines()->n; e++) {
		const struct reg_rec *eng = &reg_engines()->rec[e];
		int have = 0;

		if (!strcmp(reg_get(eng, "checker"), "none"))
			continue;
		for (k = 0; k < reg_cells()->n; k++)
			have |= !!cell_of(accel, eng->name, k);
		if (!have)
			continue;
		fprintf(out, "%-14s", engine_label(eng->name));
		for (k = 0; k < reg_cells()->n; k++) {
			const struct run_cell *t = cell_of(accel, eng->name, k);

			snprintf(buf, sizeof(buf), "%.1f", t ? t->figure->v : 0);
			fprintf(out, " %11s", t ? buf : "-");
		}
		fputc('\n', out);
	}
	for (i = 0; i < reg_ratios()->n; i++) {
		const struct reg_rec *rr = &reg_ratios()->rec[i];
		int have = 0, nref = reg_ref(rr, "ref2014", flavour, ref, REG_MAX);

		for (k = 0; k < reg_cells()->n; k++)
			have |= !!paired_quot(accel, rr->name, k);
		if (!have && nref != reg_cells()->n)
			continue;
		fprintf(out, "%-14s", rr->name);
		for (k = 0; k < reg_cells()->n; k++) {
			ratio_cell(buf, sizeof(buf), paired_quot(accel, rr->name, k));
			put_cell(buf, 11);
		}
		if (nref == reg_cells()->n) {
			fprintf(out, "  2014:");
			for (k = 0; k < nref; k++)
				fprintf(out, " %s", ref[k]);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* The claims, one line per claim record and accelerator. */
static void claims(void)
{
	int unmeasured;
	const struct csv *c = &run.claims;
	int a, i, j;

	if (!run.has_claims)
		return;
	fprintf(out, "The 2014 claims re-tested (claims.csv; ratio > 1: the claim's direction):\n");
	unmeasured = 0;
	for (a = 0; a < run.naccels; a++) {
		fprintf(out, "  accel=%s:\n", run.accels[a]);
		for (i = 0; i < reg_claims()->n; i++) {
			const char *name = reg_claims()->rec[i].name;
			const char *verdict = NULL, *text = NULL, *basis = "";

			double lo = 0, hi = 0;
			int n = 0, same = 1;
			char vals[64] = "-";

			for (j = 0; j < c->nrows; j++) {
				const struct csv_row *r = &c->rows[j];
				double v = atof(csv_get(c, r, "value"));

				if (strcmp(csv_get(c, r, "accel"), run.accels[a]) ||
				    strcmp(csv_get(c, r, "claim"), name))
					continue;
				if (!n++) {
					verdict = csv_get(c, r, "verdict");
					text = csv_get(c, r, "text");
					basis = csv_get(c, r, "basis");
				}
				same &= !strcmp(verdict, csv_get(c, r, "verdict"));
				if (*csv_get(c, r, "value"))
					widen(v, &lo, &hi);
			}
			if (!n)
				continue;
			if (lo)
				range_text(vals, sizeof(vals), lo, hi);
			if (n > 1)
				text = reg_get(&reg_claims()->rec[i], "text");
			fprintf(out, "    %-46s %-12s %s", text, vals, same ? verdict : "mixed");
			/* a claim over pairs has a row per pair and cell */
			if (n > 1)
				fprintf(out, " (%s%d %s)", same ? "all " : "", n,
					*reg_get(&reg_claims()->rec[i], "pairs") ? "pairs and cells" :
					"cells");
			fputc('\n', out);
			unmeasured |= !lo && *basis;
		}
	}
	if (unmeasured)
		fprintf(out, "(why a claim is not measurable: the basis column of claims.csv)\n");
	fputc('\n', out);
}

static void machine(void)
{
	int a;

	fprintf(out, "Machine: host cpu %s; kernel %s (Debian linux-source %s), series %s.\n",
		*run_info(&run, "host_cpu") ? run_info(&run, "host_cpu") : "not recorded",
		run_info(&run, "kernel"), run_info(&run, "debian_version"), run_info(&run, "series_hash"));
	for (a = 0; a < run.naccels; a++) {
		const struct csv_row *r = run_accel_row(&run, run.accels[a]);

		fprintf(out, "  accel=%s: %s; guest cpu %s; config %s\n", run.accels[a],
			csv_get(&run.results, r, "kind"), csv_get(&run.results, r, "cpu"),
			csv_get(&run.results, r, "config_hash"));
	}
	fputc('\n', out);
}

/*
 * Where the time goes, for the first accelerator with perf reports: one
 * line per engine of the perf cell (the cell record named perf_cell in the
 * first claim of kind counter, else the first cell), its top symbols.
 */
static void perf(const char *dir)
{
	const struct reg_rec *cell = &reg_cells()->rec[0];
	char path[8192], line[512], id[256];
	int a, e, i, any = 0;

	for (i = 0; i < reg_claims()->n; i++)
		if (!strcmp(reg_get(&reg_claims()->rec[i], "kind"), "counter"))
			cell = reg_find(reg_cells(), reg_get(&reg_claims()->rec[i], "cell"), 0);
	for (a = 0; a < run.naccels && !any; a++) {
		for (e = 0; e < reg_engines()->n; e++) {
			const char *eng = reg_engines()->rec[e].name;
			const struct csv_row *r = run_result(&run, run.accels[a], "bench", eng,
							     reg_get(cell, "filter"),
							     reg_get(cell, "skbs"));

			if (!r || !strcmp(reg_get(&reg_engines()->rec[e], "checker"), "none"))
				continue;
			run_cell_id(&run, r, id, sizeof(id));
			snprintf(path, sizeof(path), "%s/%s/perf/%s.report", dir, run.accels[a], id);
			if (!run_perf_top(path, PERF_TOP, line, sizeof(line)))
				continue;
			if (!any++)
				fprintf(out, "perf report, accel=%s, %s %s (cpu-clock samples, top %d symbols;\n"
					"all reports: RUN/<accel>/perf/):\n", run.accels[a],
					reg_get(cell, "head"), reg_get(cell, "sub"), PERF_TOP);
			fprintf(out, "  %-14s %s\n", engine_label(eng), line);
		}
	}
	if (!any)
		fprintf(out, "perf: not captured in this run (no RUN/<accel>/perf/*.report).\n");
	fputc('\n', out);
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The run's results in brief: its tables and claims (cover and README). */
static void results_brief(void)
{
	int a;

	for (a = 0; a < run.naccels; a++)
		accel_table(run.accels[a]);
	claims();
}

/* mkcover -r: the reference-run block of README.md (results/mkreadme.sh). */
static void readme_block(void)
{
	const char *repeat = run_info(&run, "repeat"), *args = run_info(&run, "bench_args");

	fprintf(out, "Reference run `%s`: `make bench ACCEL=\"%s\"", run_info(&run, "run_id"),
		run_info(&run, "accels"));
	if (*repeat && strcmp(repeat, "1"))
		fprintf(out, " REPEAT=%s", repeat);
	if (*args)
		fprintf(out, " BENCH_ARGS=\"%s\"", args);
	fprintf(out, "` on %s, host CPU %s, series %s.\n\n", run_info(&run, "date"),
		run_info(&run, "host_cpu"), run_info(&run, "series_hash"));
	finding();
	fprintf(out, "```\n");
	results_brief();
	fprintf(out, "```\n\n");
}

static void load(const char *dir)
{
	char path[4096];

	if (!is_dir(dir))
		die("no run directory", dir);
	snprintf(path, sizeof(path), "%s/run.txt", dir);
	if (access(path, R_OK))
		die("cannot read", path);
	/* results.csv of a run marked incomplete is refused by csv_load() */
	run_load_dir(&run, dir);
}

int main(int argc, char **argv)
{
	const char *dir, *tree;
	char *s, *shortlog, *stat, *version;
	long n;

	if (argc == 3 && !strcmp(argv[1], "-r")) {
		load(argv[2]);
		out = stdout;
		readme_block();
		return ferror(stdout) || fflush(stdout) ? 1 : 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: mkcover RUN_DIR TREE_DIR OUT.patch | mkcover -r RUN_DIR\n");
		return 2;
	}
	dir = argv[1];
	tree = argv[2];
	load(dir);

	s = git(tree, "rev-list --count pristine..HEAD");
	if (!s)
		die("no series pristine..HEAD in", tree);
	n = strtol(s, NULL, 10);
	free(s);
	if (n <= 0)
		die("no commits in pristine..HEAD of", tree);
	shortlog = git(tree, "shortlog pristine..HEAD");
	stat = git(tree, "diff --stat pristine..HEAD");
	version = git(tree, "--version");
	if (!shortlog || !stat || !version)
		die("git shortlog/diff --stat failed in", tree);

	outpath = argv[3];
	out = fopen(outpath, "w");
	if (!out)
		die("cannot write", outpath);

	fprintf(out, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n");
	from_header(tree);
	date_header();
	fprintf(out, "Subject: [PATCH 0/%ld] %s\n", n, TITLE);
	fprintf(out, "MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=UTF-8\n"
		"Content-Transfer-Encoding: 8bit\n\n");

	finding();
	fprintf(out,
		"Commit bd4cf0ed331a (\"net: filter: rework/optimize internal BPF\n"
		"interpreter's instruction set\", 2014) replaced the classic BPF\n"
		"interpreter with the eBPF one and timed two tcpdump filters on one skb\n"
		"and on 10000.  This series revives the 3.14 classic interpreter (and its\n"
		"x86-64 and ARM JITs) for a bench module only, beside 6.1's interpreter\n"
		"and JIT, to re-measure those figures; it is not meant to bring them\n"
		"back.\n\n"
		"How to read the figures: hardware timing (kvm, uml) gives ns; QEMU\n"
		"-icount counts guest instructions, exactly; QEMU TCG times are emulated.\n"
		"A ratio t_A/t_B > 1 means B is faster; it is paired (engines in\n"
		"interleaved rounds on the same skbs), with the half-width of its 95%%\n"
		"CI (over boots on a timed accelerator, docs/statistics.md) after '±'.\n");
	test_kinds_note();
	fprintf(out, "\nResults of run %s (full tables: results/%s/table.txt):\n\n",
		run_info(&run, "run_id"), run_info(&run, "run_id"));
	results_brief();
	perf(dir);
	machine();
	put_text(shortlog);
	chomp(stat);
	put_text(stat);
	fputc('\n', out);
	chomp(version);
	fprintf(out, "-- \n%s\n\n",
		strncmp(version, "git version ", 12) ? version : version + 12);
	if (ferror(out) || fclose(out)) {
		out = NULL;
		remove(outpath);
		die("write error", outpath);
	}
	return 0;
}
