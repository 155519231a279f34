// SPDX-License-Identifier: GPL-2.0
/*
 * mkcover - write the cover letter (patch 0/N) of the kernel series, in the
 * form `git format-patch --cover-letter` gives it, from a run's results.
 *
 *   mkcover RUN_DIR TREE_DIR OUT.patch
 *
 * The series is TREE_DIR's commits pristine..HEAD.  The body is fixed text
 * around what the run and the tree say: RUN_DIR/table.txt verbatim, the
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

#include "csv.h"
#include "registry.h"

#define TITLE	"bpf: re-measure bd4cf0ed331a's classic BPF interpreter rework on 6.1"
/* a run has at most one of each accelerator record (registry.h) */
#define MAX_ACCELS	REG_MAX
#define PERF_TOP	5

static struct csv csv;
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

/* key=value from RUN_DIR/run.txt ("" when absent). */
static char runtxt[64][512];
static int nruntxt;

static void load_runtxt(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.txt", dir);
	f = fopen(path, "r");
	if (!f)
		die("cannot read", path);
	while (nruntxt < 64 && fgets(runtxt[nruntxt], sizeof(runtxt[0]), f)) {
		chomp(runtxt[nruntxt]);
		if (strchr(runtxt[nruntxt], '='))
			nruntxt++;
	}
	fclose(f);
}

static const char *run_get(const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = 0; i < nruntxt; i++)
		if (!strncmp(runtxt[i], key, n) && runtxt[i][n] == '=')
			return runtxt[i] + n + 1;
	return "";
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

static void put_file(const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read", path);
	while (fgets(line, sizeof(line), f)) {
		if (breaks_mail(line))
			fputc(' ', out);
		fputs(line, out);
	}
	fclose(f);
}

static const char *accels[MAX_ACCELS];
static const struct csv_row *accel_row[MAX_ACCELS];
static int naccels;

static void add_accel(const struct csv_row *r)
{
	const char *acc = csv_get(&csv, r, "accel");
	int a;

	for (a = 0; a < naccels; a++)
		if (!strcmp(accels[a], acc))
			return;
	if (naccels == MAX_ACCELS)
		die("more accelerators in results.csv than the registry can hold", NULL);
	accel_row[naccels] = r;
	accels[naccels++] = acc;
}

static void find_accels(void)
{
	int i, k;

	/* in the order of the tables: bench/accels.conf's kinds, unknown last */
	for (k = 0; k <= reg_kinds()->n; k++)
		for (i = 0; i < csv.nrows; i++)
			if (kind_rank(csv_get(&csv, &csv.rows[i], "kind")) == k)
				add_accel(&csv.rows[i]);
}

static void machine(void)
{
	int a;

	fprintf(out, "Machine and accelerators (run %s, %s):\n",
		run_get("run_id"), *run_get("date") ? run_get("date") : "date not recorded");
	fprintf(out, "  host cpu: %s\n", *run_get("host_cpu") ? run_get("host_cpu") : "not recorded");
	fprintf(out, "  kernel:   %s (Debian linux-source %s)\n",
		run_get("kernel"), run_get("debian_version"));
	fprintf(out, "  series:   %s\n", run_get("series_hash"));
	for (a = 0; a < naccels; a++) {
		const struct csv_row *r = accel_row[a];

		fprintf(out, "  accel=%s: %s, %s per call; guest cpu: %s; clocksource: %s;\n"
			"    kernel %s (Debian %s), config %s, series %s\n",
			accels[a], csv_get(&csv, r, "kind"), csv_get(&csv, r, "unit"),
			csv_get(&csv, r, "cpu"), csv_get(&csv, r, "clocksource"),
			csv_get(&csv, r, "kernel"), csv_get(&csv, r, "debian_version"),
			csv_get(&csv, r, "config_hash"), csv_get(&csv, r, "series_hash"));
	}
	fputc('\n', out);
}

/* The first PERF_TOP sample lines ("12.34% ...") of one perf report. */
static void perf_top(const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		die("cannot read", path);
	while (n < PERF_TOP && fgets(line, sizeof(line), f)) {
		char *s = line, *w, *d;
		size_t k;

		while (*s == ' ' || *s == '\t')
			s++;
		k = strcspn(s, " \t\n");
		if (*s == '#' || !k || s[k - 1] != '%' || !isdigit((unsigned char)*s))
			continue;
		/* Collapse runs of blanks. */
		for (w = d = s; *w && *w != '\n'; w++)
			if (!(isspace((unsigned char)*w) && d > s && d[-1] == ' '))
				*d++ = isspace((unsigned char)*w) ? ' ' : *w;
		*d = '\0';
		chomp(s);
		/* perf's empty IPC columns ("-  -") say nothing here. */
		for (d = s + strlen(s); d - s > 2 && !strcmp(d - 2, " -"); d -= 2)
			d[-2] = '\0';
		k = strcspn(s, " ");
		fprintf(out, "    %*.*s%s\n", 7, (int)k, s, s + k);
		n++;
	}
	if (!n)
		fprintf(out, "    (no sample lines in the report)\n");
	fclose(f);
}

/*
 * The cells whose profile the letter summarises, per engine: fprog #2 on
 * one skb (the 2014 commit's biggest gap) and the large seccomp filter.
 * The guest names each report after the id of the cell's result line;
 * a run without ids, or without the cell's row, after what ids are:
 * <tag>-<engine>-<filter>-<packet>-skbs<N>.
 */
static const struct {
	const char *tag, *filter, *packet, *skbs;
} perf_cells[] = {
	{ "bench", "fprog2", "tcp22-payload", "1" },
	{ "seccomp", "large", "nr199", "1" },
};

static int has_column(const char *name)
{
	int i;

	for (i = 0; i < csv.ncols; i++)
		if (!strcmp(csv.colname[i], name))
			return 1;
	return 0;
}

/* The id of cell  of  on . */
static void cell_id(char *buf, size_t n, const char *accel, size_t c,
		    const char *engine)
{
	int i;

	for (i = 0; has_column("id") && i < csv.nrows; i++) {
		const struct csv_row *r = &csv.rows[i];

		if (!strcmp(csv_get(&csv, r, "accel"), accel) &&
		    !strcmp(csv_get(&csv, r, "tag"), perf_cells[c].tag) &&
		    !strcmp(csv_get(&csv, r, "engine"), engine) &&
		    !strcmp(csv_get(&csv, r, "filter"), perf_cells[c].filter) &&
		    !strcmp(csv_get(&csv, r, "packet"), perf_cells[c].packet) &&
		    !strcmp(csv_get(&csv, r, "skbs"), perf_cells[c].skbs) &&
		    *csv_get(&csv, r, "id")) {
			snprintf(buf, n, "%s", csv_get(&csv, r, "id"));
			return;
		}
	}
	snprintf(buf, n, "%s-%s-%s-%s-skbs%s", perf_cells[c].tag, engine,
		 perf_cells[c].filter, perf_cells[c].packet, perf_cells[c].skbs);
}

/* Reports in the order of bench/engines.conf, then other engines of the run. */
static const char *perf_engines[REG_MAX];
static size_t nperf_engines;

static void add_perf_engine(const char *name)
{
	size_t e;

	for (e = 0; e < nperf_engines; e++)
		if (!strcmp(perf_engines[e], name))
			return;
	if (*name && nperf_engines < REG_MAX)
		perf_engines[nperf_engines++] = name;
}

static void find_engines(void)
{
	int i;

	for (i = 0; i < reg_engines()->n; i++)
		add_perf_engine(reg_engines()->rec[i].name);
	for (i = 0; i < csv.nrows; i++)
		add_perf_engine(csv_get(&csv, &csv.rows[i], "engine"));
}

static void perf(const char *run)
{
	char cell[256], path[8192];
	size_t c, e;
	int a, any = 0;

	for (a = 0; a < naccels; a++) {
		for (c = 0; c < sizeof(perf_cells) / sizeof(perf_cells[0]); c++) {
			for (e = 0; e < nperf_engines; e++) {
				cell_id(cell, sizeof(cell), accels[a], c, perf_engines[e]);
				snprintf(path, sizeof(path), "%s/%s/perf/%s.report",
					 run, accels[a], cell);
				if (access(path, R_OK))
					continue;
				if (!any++)
					fprintf(out, "Where the time goes (perf report --sort symbol, cpu-clock samples, top %d):\n",
						PERF_TOP);
				fprintf(out, "  accel=%s, %s:\n", accels[a], cell);
				perf_top(path);
			}
		}
	}
	if (!any)
		fprintf(out, "perf: not captured in this run (no RUN_DIR/<accel>/perf/*.report).\n");
	fputc('\n', out);
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int main(int argc, char **argv)
{
	const char *run, *tree;
	char path[4096], *s, *shortlog, *stat, *version;
	long n;

	if (argc != 4) {
		fprintf(stderr, "usage: mkcover RUN_DIR TREE_DIR OUT.patch\n");
		return 2;
	}
	run = argv[1];
	tree = argv[2];
	if (!is_dir(run))
		die("no run directory", run);
	/* results.csv of a run marked incomplete is refused by csv_load() */
	load_runtxt(run);
	snprintf(path, sizeof(path), "%s/results.csv", run);
	csv_load(&csv, path);
	find_accels();
	find_engines();
	snprintf(path, sizeof(path), "%s/table.txt", run);

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

	fprintf(out,
		"Commit bd4cf0ed331a (\"net: filter: rework/optimize internal BPF\n"
		"interpreter's instruction set\", 2014) replaced the classic BPF\n"
		"interpreter by the internal BPF one and gave, for two tcpdump filters\n"
		"on x86_64, the cost per call of the old and the new interpreter with\n"
		"the packet in cache and out of it.  This series re-measures those\n"
		"figures on Debian's linux-source %s (Linux %s).\n\n",
		run_get("debian_version"), run_get("kernel"));
	fprintf(out,
		"To do so it revives the 3.14 classic BPF interpreter, as a baseline\n"
		"for the measurement only, next to the 6.1 eBPF interpreter and the\n"
		"6.1 x86-64 JIT.  It is not meant to bring the old interpreter back.\n\n"
		"Only hardware accelerators (kvm, uml) give times to set beside the\n"
		"2014 ones; QEMU -icount counts guest instructions, and QEMU TCG\n"
		"times are emulated, not hardware timing: from those, only ratios\n"
		"and the order of the engines mean something.\n\n");
	fprintf(out,
		"The commit also timed seccomp: 10M syscall() calls under libseccomp's\n"
		"'short' (2 rules) and 'large' (~200 rules, 05-sim-long_jumps) filters.\n"
		"One patch of the series lets seccomp attach a filter on the revived\n"
		"classic interpreter (sysctl kernel.seccomp_classic_interp, read at\n"
		"attach time), so the seccomp tables set old, new and JIT side by side\n"
		"for a syscall(199, 100) the 6.1 action cache cannot skip.\n\n"
		"Each figure is a median with its 95%% confidence interval (order\n"
		"statistics over the samples, or over 11 placements of each cell on\n"
		"hardware); a ratio marked '*' means the two engines' intervals do not\n"
		"overlap, '~' that they do.\n\n"
		"The ratios to quote are the paired ones: all engines measured in\n"
		"interleaved rounds on the same skbs, each round giving one time\n"
		"ratio, so that a shared machine's changing speed cancels in each\n"
		"round.  A boot fixes what moves a ratio from one boot to the next\n"
		"(memory placement, the host's pages), so the boot is the sample:\n"
		"each boot gives the median of its rounds' ratios, and a timed\n"
		"accelerator's ratio is the geometric mean over its boots with a\n"
		"95%% t-interval over them, widened by the run-to-run variation\n"
		"measured for that accelerator (\"no difference shown\" when it\n"
		"contains 1.00); the tables say how many boots.  The\n"
		"tables end with the claims of the 2014 commit message re-tested,\n"
		"one line per claim and accelerator: the 2014 figure, ours, and\n"
		"holds / reversed / no difference shown / not measurable.\n\n");
	fprintf(out,
		"Results of run %s (results/%s/table.txt): median per call, in ns\n"
		"where timed and in guest instructions under QEMU -icount, with the\n"
		"2014 figures of the commit message below ours:\n\n",
		run_get("run_id"), run_get("run_id"));
	put_file(path);
	fputc('\n', out);
	machine();
	perf(run);
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
