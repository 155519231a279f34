// SPDX-License-Identifier: GPL-2.0
/*
 * mkcapture - the tables of a capture-workload run (make bench FILTERS=...
 * PCAP=...; docs/capture.md), from what each accelerator's guest wrote
 * (ACCEL/capture.txt, meta.txt, host.txt), the workload the host made
 * (workload/workload.txt, names, NAME.expr) and run.txt.  Parsed once;
 * the CSVs, the plot data and the table come from the same figures.
 *
 *   mkcapture RUN
 *	RUN/capture.csv         one row per accelerator x filter x engine x
 *	                        cell: the median over rounds of ns (or guest
 *	                        instructions) per packet, its 95% CI, packets
 *	                        per second, accepted counts and libpcap's
 *	RUN/capture-ratios.csv  per accelerator x filter x cell x ratio of
 *	                        engines.conf: the median of the per-round
 *	                        ratios (the engines of one round run one
 *	                        after the other on the same batch) and its CI
 *	RUN/plots/capture-ACCEL-CELL.{dat,gp}  each round's packets per
 *	                        second (guest instructions per packet on a
 *	                        counted accelerator) per filter and engine,
 *	                        for plots/capture.gp; RUN/plots/index.txt
 *	                        lists them (plots/render.sh --index draws)
 *	stdout                  the table
 * Exits 1 when an engine's accepted count differs from libpcap's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/csv.h"
#include "../lib/registry.h"
#include "../lib/stats.h"

#define MAXF	64
#define MAXE	8
#define MAXR	1000
#define NCELL	2

static const char *const cells[NCELL] = { "stream", "warm" };

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fputs("mkcapture: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

struct kvs {
	int n;
	char key[256][64];
	char val[256][256];
};

static void kv_load(struct kvs *kv, const char *path, int must)
{
	char line[1024], *eq;
	FILE *f = fopen(path, "r");

	kv->n = 0;
	if (!f) {
		if (must)
			fail("cannot read %s", path);
		return;
	}
	while (fgets(line, sizeof(line), f) && kv->n < 256) {
		line[strcspn(line, "\n")] = '\0';
		eq = strchr(line, '=');
		if (!eq || eq == line)
			continue;
		*eq = '\0';
		snprintf(kv->key[kv->n], sizeof(kv->key[0]), "%.63s", line);
		snprintf(kv->val[kv->n], sizeof(kv->val[0]), "%.255s", eq + 1);
		kv->n++;
	}
	fclose(f);
}

static const char *kv_get(const struct kvs *kv, const char *key)
{
	int i;

	for (i = kv->n - 1; i >= 0; i--)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return "";
}

/* " key=value" of a guest line, the value up to a blank */
static int word(const char *line, const char *key, char *out, size_t n)
{
	size_t k = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			p += k + 1;
			k = strcspn(p, " \n");
			snprintf(out, n, "%.*s", (int)(k < n ? k : n - 1), p);
			return 1;
		}
		p += k;
	}
	*out = '\0';
	return 0;
}

struct fig {
	int n;
	double v[MAXR];		/* per round: per-packet cost */
	double median, lo, hi, level;
	int ci;
};

struct accel {
	char name[64];
	struct kvs host, meta;
	int has[MAXF][MAXE];
	struct fig fig[MAXF][MAXE][NCELL];
	unsigned long long accepted[MAXF][MAXE];
	char info[MAXF][MAXE][64];
	char refused[MAXF][MAXE][32];	/* errno of the engine's refusal */
	char frefused[MAXF][32];	/* every checker refused the filter */
	char engines[MAXE][32];
	int ne;
	char params[256];
	char load[256];		/* the load path's line */
};

static char filters[MAXF][32], exprs[MAXF][512];
static int nf;

static int filter_idx(const char *name)
{
	int i;

	for (i = 0; i < nf; i++)
		if (!strcmp(filters[i], name))
			return i;
	return -1;
}

static int engine_idx(struct accel *a, const char *name)
{
	int i;

	for (i = 0; i < a->ne; i++)
		if (!strcmp(a->engines[i], name))
			return i;
	if (a->ne == MAXE)
		fail("%s: more than %d engines", a->name, MAXE);
	snprintf(a->engines[a->ne], sizeof(a->engines[0]), "%s", name);
	return a->ne++;
}

static void load_accel(struct accel *a, const char *run)
{
	char path[4096], line[1024], f[64], e[64], c[16], v[64];
	int fi, ei, ci;
	FILE *in;

	snprintf(path, sizeof(path), "%.3000s/%.63s/host.txt", run, a->name);
	kv_load(&a->host, path, 1);
	snprintf(path, sizeof(path), "%.3000s/%.63s/meta.txt", run, a->name);
	kv_load(&a->meta, path, 1);
	snprintf(path, sizeof(path), "%.3000s/%.63s/capture.txt", run, a->name);
	in = fopen(path, "r");
	if (!in)
		fail("no %s (the capture plan's output)", path);
	while (fgets(line, sizeof(line), in)) {
		if (!strncmp(line, "params ", 7)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(a->params, sizeof(a->params), "%.255s", line + 7);
			continue;
		}
		if (!strncmp(line, "load ", 5)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(a->load, sizeof(a->load), "%.255s", line + 5);
			continue;
		}
		if (!strncmp(line, "mismatch ", 9))
			fail("%s: %s", a->name, line);
		word(line, "filter", f, sizeof(f));
		fi = filter_idx(f);
		if (fi < 0)
			fail("%s: filter '%s' is not in workload/names", path, f);
		if (!strncmp(line, "refused ", 8)) {
			word(line, "errno", v, sizeof(v));
			if (word(line, "engine", e, sizeof(e)))
				snprintf(a->refused[fi][engine_idx(a, e)], 32, "%.31s", v);
			else
				snprintf(a->frefused[fi], 32, "%.31s", v);
			continue;
		}
		word(line, "engine", e, sizeof(e));
		ei = engine_idx(a, e);
		if (!strncmp(line, "accepted ", 9)) {
			const char *j = strstr(line, "jited=");

			word(line, "accepted", v, sizeof(v));
			a->accepted[fi][ei] = strtoull(v, NULL, 10);
			snprintf(a->info[fi][ei], sizeof(a->info[0][0]), "%s", j ? j : "");
			a->info[fi][ei][strcspn(a->info[fi][ei], "\n")] = '\0';
			continue;
		}
		if (strncmp(line, "capture ", 8))
			continue;
		word(line, "cell", c, sizeof(c));
		for (ci = 0; ci < NCELL && strcmp(cells[ci], c); ci++)
			;
		if (ci == NCELL)
			fail("%s: unknown cell '%s'", path, c);
		{
			struct fig *g = &a->fig[fi][ei][ci];
			double calls, ns;

			word(line, "calls", v, sizeof(v));
			calls = strtod(v, NULL);
			word(line, "ns", v, sizeof(v));
			ns = strtod(v, NULL);
			if (calls <= 0 || g->n == MAXR)
				fail("%s: a round without calls, or too many", path);
			g->v[g->n++] = ns / calls;
			a->has[fi][ei] = 1;
		}
	}
	fclose(in);
	for (fi = 0; fi < nf; fi++)
		for (ei = 0; ei < a->ne; ei++)
			for (ci = 0; ci < NCELL; ci++) {
				struct fig *g = &a->fig[fi][ei][ci];
				double s[MAXR];

				if (!g->n)
					continue;
				memcpy(s, g->v, g->n * sizeof(s[0]));
				g->ci = stats_median_ci(s, g->n, &g->median,
							&g->lo, &g->hi, &g->level);
				if (!g->ci)
					g->median = stats_median(s, g->n);
			}
}

/* The CPU: the host's where the guest runs natively (UML), else the guest's. */
static const char *cpu(const struct accel *a)
{
	return *kv_get(&a->host, "cpu") ? kv_get(&a->host, "cpu") : kv_get(&a->meta, "cpu");
}

static const char *label(const char *engine)
{
	return reg_get_or(reg_find(reg_engines(), engine, 0), "label", engine);
}

/* The per-round ratios of engines num/den: their median and CI. */
static int ratio(const struct accel *a, int fi, int ci, int num, int den,
		 struct fig *r)
{
	const struct fig *x = &a->fig[fi][num][ci], *y = &a->fig[fi][den][ci];
	double s[MAXR];
	int i;

	if (!x->n || x->n != y->n)
		return 0;
	r->n = x->n;
	for (i = 0; i < x->n; i++)
		s[i] = r->v[i] = stats_ratio(x->v[i], y->v[i]);
	r->ci = stats_median_ci(s, r->n, &r->median, &r->lo, &r->hi, &r->level);
	if (!r->ci)
		r->median = stats_median(s, r->n);
	return 1;
}

static void fig_text(char *buf, size_t n, const struct fig *g, const char *fmt)
{
	char m[20], lo[20], hi[20];

	snprintf(m, sizeof(m), fmt, g->median);
	if (!g->ci) {
		snprintf(buf, n, "%s", m);
		return;
	}
	snprintf(lo, sizeof(lo), fmt, g->lo);
	snprintf(hi, sizeof(hi), fmt, g->hi);
	snprintf(buf, n, "%s [%s, %s]", m, lo, hi);
}

/*
 * The plots' data: per accelerator and cell, one gnuplot data block per
 * engine of "X Y" points, X the filter (0, 1, ...) shifted by the engine,
 * Y each round's packets per second (a counted accelerator: guest
 * instructions per packet), and the parameters plots/capture.gp reads.
 */
static void plots(const char *run, const char *pcap, struct accel *acc, int na)
{
	static const char *const colours[MAXE] = {
		"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
		"#8c564b", "#e377c2", "#7f7f7f",
	};
	char path[4096];
	FILE *index, *dat, *par;
	int i, ci, fi, ei, r;

	snprintf(path, sizeof(path), "%.3000s/plots", run);
	if (mkdir(path, 0755) && errno != EEXIST)
		fail("cannot create %s", path);
	snprintf(path, sizeof(path), "%.3000s/plots/index.txt", run);
	index = fopen(path, "w");
	if (!index)
		fail("cannot write %s", path);
	for (i = 0; i < na; i++) {
		const struct accel *a = &acc[i];
		int ns = !strcmp(kv_get(&a->host, "unit"), "ns");
		const char *kind = kv_get(&a->host, "kind");

		for (ci = 0; ci < NCELL; ci++) {
			snprintf(path, sizeof(path), "%.3000s/plots/capture-%.63s-%s.dat",
				 run, a->name, cells[ci]);
			dat = fopen(path, "w");
			snprintf(path, sizeof(path), "%.3000s/plots/capture-%.63s-%s.gp",
				 run, a->name, cells[ci]);
			par = fopen(path, "w");
			if (!dat || !par)
				fail("cannot write %s", path);
			for (ei = 0; ei < a->ne; ei++) {
				fprintf(dat, "# %s\n", a->engines[ei]);
				for (fi = 0; fi < nf; fi++)
					for (r = 0; r < a->fig[fi][ei][ci].n; r++)
						fprintf(dat, "%.3f %.3f\n",
							fi + (ei - (a->ne - 1) / 2.0) * 0.8 / a->ne,
							ns ? 1e9 / a->fig[fi][ei][ci].v[r] :
							a->fig[fi][ei][ci].v[r]);
				fprintf(dat, "\n\n");
			}
			fprintf(par, "dat = 'capture-%s-%s.dat'\n", a->name, cells[ci]);
			fprintf(par, "ttl = '%s, accel=%s, %s cell: %s'\n",
				strrchr(pcap, '/') ? strrchr(pcap, '/') + 1 : pcap, a->name, cells[ci],
				reg_get_or(reg_find(reg_kinds(), kind, 0), "plot", kind));
			fprintf(par, "ylab = '%s'\n", ns ?
				"packets per second (1e9 / ns per packet), one point a round" :
				"guest instructions per packet, one point a round");
			fprintf(par, "nser = %d\narray names[%d]\narray colours[%d]\n",
				a->ne, a->ne, a->ne);
			for (ei = 0; ei < a->ne; ei++)
				fprintf(par, "names[%d] = '%s'\ncolours[%d] = '%s'\n", ei + 1,
					reg_get_or(reg_find(reg_engines(), a->engines[ei], 0),
						   "plot_label", a->engines[ei]),
					ei + 1, colours[ei]);
			fprintf(par, "set xtics (");
			for (fi = 0; fi < nf; fi++)
				fprintf(par, "%s'%s' %d", fi ? ", " : "", filters[fi], fi);
			fprintf(par, ")\n");
			if (fclose(dat) || fclose(par))
				fail("cannot write %s", path);
			fprintf(index, "capture capture-%s-%s\n", a->name, cells[ci]);
		}
	}
	if (fclose(index))
		fail("cannot write the plots' index in %s", run);
}

int main(int argc, char **argv)
{
	static struct accel acc[16];
	struct kvs run, wl;
	char path[4096], line[1024], *tok, accels[512];
	FILE *csv, *rcsv, *in;
	int na = 0, i, fi, ei, ci, bad = 0;

	if (argc != 2)
		fail("usage: mkcapture RUN");
	snprintf(path, sizeof(path), "%s/run.txt", argv[1]);
	kv_load(&run, path, 1);
	snprintf(path, sizeof(path), "%s/workload/workload.txt", argv[1]);
	kv_load(&wl, path, 1);
	snprintf(path, sizeof(path), "%s/workload/names", argv[1]);
	in = fopen(path, "r");
	if (!in)
		fail("cannot read %s", path);
	while (nf < MAXF && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		snprintf(filters[nf], sizeof(filters[0]), "%.31s", line);
		nf++;
	}
	fclose(in);
	for (fi = 0; fi < nf; fi++) {
		snprintf(path, sizeof(path), "%s/workload/%s.expr", argv[1], filters[fi]);
		in = fopen(path, "r");
		if (!in || !fgets(exprs[fi], sizeof(exprs[0]), in))
			fail("cannot read %s", path);
		exprs[fi][strcspn(exprs[fi], "\n")] = '\0';
		fclose(in);
	}
	snprintf(accels, sizeof(accels), "%s", kv_get(&run, "accels"));
	for (tok = strtok(accels, " "); tok && na < 16; tok = strtok(NULL, " ")) {
		snprintf(acc[na].name, sizeof(acc[na].name), "%s", tok);
		load_accel(&acc[na++], argv[1]);
	}
	if (!na)
		fail("%s/run.txt names no accelerator", argv[1]);

	snprintf(path, sizeof(path), "%s/capture.csv", argv[1]);
	csv = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/capture-ratios.csv", argv[1]);
	rcsv = fopen(path, "w");
	if (!csv || !rcsv)
		fail("cannot write into %s", argv[1]);
	fprintf(csv, "run_id,accel,kind,unit,filter,engine,cell,rounds,frames,median,ci_lo,ci_hi,ci_level,min,max,pps,accepted,libpcap_accepted,kernel,debian_version,config_hash,cpu,host_cpu_id,pcap_sha256,every\n");
	fprintf(rcsv, "run_id,accel,kind,filter,cell,ratio,rounds,median,ci_lo,ci_hi,ci_level\n");

	/* the capture's figures: every frame's where a guest got them all */
	{
		const char *p = *kv_get(&wl, "all.frames") ? "all" : "sample";
		char k[5][32];

		snprintf(k[0], sizeof(k[0]), "%s.bytes", p);
		snprintf(k[1], sizeof(k[1]), "%s.truncated", p);
		snprintf(k[2], sizeof(k[2]), "%s.vlan", p);
		snprintf(k[3], sizeof(k[3]), "%s.over_1514", p);
		snprintf(k[4], sizeof(k[4]), "%s.capture_frames", p);
		printf("your filters on your capture: %s\n", kv_get(&wl, "pcap"));
		printf("capture: sha256 %.16s, %s frames\n"
		       "%s: %s bytes, %s truncated (replayed as captured), %s VLAN-tagged\n"
		       "(the tag in the data), %s over 1514 bytes\n",
		       kv_get(&wl, "pcap_sha256"), kv_get(&wl, k[4]),
		       strcmp(p, "all") ? "the sample the guests got" : "every frame",
		       kv_get(&wl, k[0]), kv_get(&wl, k[1]), kv_get(&wl, k[2]),
		       kv_get(&wl, k[3]));
	}
	printf("kernel: %s (Debian %s %s), series %s\n\n", kv_get(&run, "kernel"),
	       kv_get(&run, "debian_package"), kv_get(&run, "debian_version"),
	       kv_get(&run, "series_hash"));

	for (i = 0; i < na; i++) {
		struct accel *a = &acc[i];
		const char *input = kv_get(&a->host, "capture_input");
		const char *kind = kv_get(&a->host, "kind");
		const char *unit = kv_get(&a->host, "unit");
		char pre[16], key[128];
		const char *fmt = !strcmp(unit, "ns") ? "%.1f" : "%.0f";

		snprintf(pre, sizeof(pre), "%s.", *input ? input : "all");
		printf("--%s-- accel=%s: %s\n",
		       reg_get_or(reg_find(reg_flavours(), kv_get(&a->host, "flavour"), 0),
				  "title", kv_get(&a->host, "flavour")),
		       a->name,
		       reg_get_or(reg_find(reg_kinds(), kind, 0), "what", kind));
		snprintf(key, sizeof(key), "%sframes", pre);
		printf("frames: %s", kv_get(&wl, key));
		snprintf(key, sizeof(key), "%severy", pre);
		if (strcmp(kv_get(&wl, key), "1"))
			printf(" (every %sth frame of the capture: the guest holds them in memory)",
			       kv_get(&wl, key));
		printf("; %s\n", a->params);
		if (*a->load) {
			char fps[32], m0[32], m1[32], bf[32];

			word(a->load, "frames_per_s", fps, sizeof(fps));
			word(a->load, "mem_available_kib", m0, sizeof(m0));
			word(a->load, "mem_least_kib", m1, sizeof(m1));
			word(a->load, "batch_frames", bf, sizeof(bf));
			printf("load: %s frames %s into skbs; a batch of %s frames took %.0f KiB of guest memory\n",
			       fps, !strcmp(unit, "ns") ? "a second" : "per 1e9 guest instructions",
			       bf, strtod(m0, NULL) - strtod(m1, NULL));
		}
		printf("unit: %s per packet, median over the rounds of one boot [95%% CI over those\n"
		       "rounds: another boot, another code layout need not fall in it]; smaller is better\n", unit);
		printf("cpu: %s; clocksource: %s; config %s\n", cpu(a),
		       kv_get(&a->meta, "clocksource"), kv_get(&a->host, "config_hash"));
		for (fi = 0; fi < nf; fi++) {
			unsigned long long want;

			snprintf(key, sizeof(key), "%saccepted_%s", pre, filters[fi]);
			want = strtoull(kv_get(&wl, key), NULL, 10);
			printf("\nfilter %s: %s\n", filters[fi], exprs[fi]);
			if (*a->frefused[fi]) {
				printf("  every engine's checker refuses it (%s)\n", a->frefused[fi]);
				continue;
			}
			printf("  %-14s %24s %24s %10s %10s\n", "", "stream", "warm",
			       "accepted", "libpcap");
			for (ei = 0; ei < a->ne; ei++) {
				char t[NCELL][64];

				if (*a->refused[fi][ei]) {
					printf("  %-14s its checker refuses the program (%s)\n",
					       label(a->engines[ei]), a->refused[fi][ei]);
					continue;
				}
				if (!a->has[fi][ei])
					continue;
				for (ci = 0; ci < NCELL; ci++) {
					struct fig *g = &a->fig[fi][ei][ci];

					fig_text(t[ci], sizeof(t[ci]), g, fmt);
					fprintf(csv, "%s,%s,%s,%s,%s,%s,%s,%d,%s,%.3f,",
						kv_get(&run, "run_id"), a->name, kind, unit,
						filters[fi], a->engines[ei], cells[ci], g->n,
						kv_get(&wl, (snprintf(key, sizeof(key), "%sframes", pre), key)),
						g->median);
					if (g->ci)
						fprintf(csv, "%.3f,%.3f,%.1f,", g->lo, g->hi, g->level);
					else
						fprintf(csv, ",,,");
					{
						double s[MAXR];

						memcpy(s, g->v, g->n * sizeof(s[0]));
						stats_sort(s, g->n);
						fprintf(csv, "%.3f,%.3f,%.0f,%llu,%llu,%s,%s,%s,",
							s[0], s[g->n - 1],
							!strcmp(unit, "ns") ? 1e9 / g->median : 0.0,
							a->accepted[fi][ei], want,
							kv_get(&a->meta, "kernel"),
							kv_get(&run, "debian_version"),
							kv_get(&a->host, "config_hash"));
					}
					csv_put(csv, cpu(a), 0);
					fprintf(csv, "%s,%s,%s\n", kv_get(&a->host, "host_cpu_id"),
						kv_get(&wl, "pcap_sha256"),
						kv_get(&wl, (snprintf(key, sizeof(key), "%severy", pre), key)));
				}
				printf("  %-14s %24s %24s %10llu %10llu%s\n", label(a->engines[ei]),
				       t[0], t[1], a->accepted[fi][ei], want,
				       a->accepted[fi][ei] == want ? "" : "  MISMATCH");
				bad |= a->accepted[fi][ei] != want;
			}
			for (ci = 0; ci < NCELL; ci++) {
				struct reg *rr = reg_ratios();
				int k, shown = 0;

				for (k = 0; k < rr->n; k++) {
					char num[32], den[32], t[64];
					int x = -1, y = -1, j;
					struct fig r;

					if (!reg_pair(rr->rec[k].name, num, den, sizeof(num)))
						continue;
					for (j = 0; j < a->ne; j++) {
						if (!strcmp(a->engines[j], num))
							x = j;
						if (!strcmp(a->engines[j], den))
							y = j;
					}
					if (x < 0 || y < 0 || !ratio(a, fi, ci, x, y, &r))
						continue;
					fig_text(t, sizeof(t), &r, "%.2f");
					printf("%s%s %s", shown++ ? ", " : (ci ? "  warm:   " : "  stream: "),
					       rr->rec[k].name, t);
					fprintf(rcsv, "%s,%s,%s,%s,%s,%s,%d,%.4f,", kv_get(&run, "run_id"),
						a->name, kind, filters[fi], cells[ci], rr->rec[k].name,
						r.n, r.median);
					if (r.ci)
						fprintf(rcsv, "%.4f,%.4f,%.1f\n", r.lo, r.hi, r.level);
					else
						fprintf(rcsv, ",,\n");
				}
				if (shown)
					printf("\n");
			}
		}
		printf("  (ratios t_A/t_B: the median of the per-round ratios, the engines run back to back\n"
		       "  on the same batch, [95%% CI over the rounds of this one boot]; > 1: B is faster;\n"
		       "  accepted: the frames the engine accepted, every call checked against libpcap's\n"
		       "  verdict, so a count that differs means frames lost or counted twice)\n\n");
	}
	plots(argv[1], kv_get(&wl, "pcap"), acc, na);
	if (fclose(csv) || fclose(rcsv))
		fail("cannot write into %s", argv[1]);
	if (bad)
		fprintf(stderr, "mkcapture: an engine's accepted count differs from libpcap's (MISMATCH above)\n");
	return bad;
}
