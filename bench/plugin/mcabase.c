// SPDX-License-Identifier: GPL-2.0
/*
 * mcabase - the base cost of each model window: the cycles its executed
 * basic blocks take on a core's scheduling model, as llvm-mca computes
 * them, summed with each block's execution count.  The interval model's
 * first term (docs/model.md "The interval model"); its miss and
 * misprediction terms come from the plugin's counters.
 *
 * Input: the plugin's profile= file (a line per instruction a window
 * executed: window=K addr=HEX size=N count=N branch=0|1 taken=N insn=TEXT)
 * and its out= file.  A block is a run of instructions at consecutive addresses
 * with the same execution count, ended by one that can branch.  Each
 * distinct block is one llvm-mca code region, all in one llvm-mca run;
 * a block's cost is the region's total cycles over its iterations (the
 * block in a loop: its throughput, not its latency across blocks).
 * Instructions llvm-mca cannot parse are dropped and counted; one it has no
 * scheduling data for stops the run (llvm-mca fails, its errors kept).
 *
 * Output: each line of core CORE in the out= file gets base=CYCLES (the
 * window's) and base_dropped=N (executions of dropped instructions).
 *
 * An execution of a block that ends in a taken branch costs at least -t
 * cycles: the front end fetches up to one taken branch each -t cycles
 * (the core's key taken).
 *
 * usage: mcabase [-l LLVM_MCA] [-t TAKEN_CYCLES] CORE MCPU PROFILE MODEL
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ITERATIONS	100
/*
 * A rep-prefixed string instruction: QEMU runs (and the profile counts)
 * one execution per element; llvm-mca would cost each as the whole
 * microcoded instruction.  Its own block, REP_CYCLES an element.
 */
#define REP_CYCLES	1.0
#define LINE_MAX_LEN	1024

struct insn {
	unsigned long window;
	unsigned long long addr, count, taken;
	unsigned int size;
	int branch;
	char *text;
};

/* A distinct block: its text, cost per execution and dropped instructions. */
struct block {
	char *text;
	double cycles;
	unsigned int dropped;
};

/*
 * One block executed in a window; taken: of its executions, the ones whose
 * last instruction branched elsewhere than the next.
 */
struct use {
	unsigned long window;
	unsigned long long count, taken;
	size_t block;
};

static struct insn *insns;
static size_t ninsns, cap_insns;
static struct block *blocks;
static size_t nblocks, cap_blocks;
static struct use *uses;
static size_t nuses, cap_uses;
/* -t: the front end's cycles a taken branch, the least such an execution costs */
static double taken_cycles;

/* the output being written (MODEL.tmp): removed when mcabase dies */
static char out_tmp[4096];

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	if (out_tmp[0])
		unlink(out_tmp);

	va_start(ap, fmt);
	fprintf(stderr, "mcabase: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 1024;
	p = realloc(p, *cap * size);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/* The value of KEY= in @line (a pointer into it), or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p = line;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=')
			return p + n + 1;
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return NULL;
}

static void read_profile(const char *path)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(path, "r");
	unsigned long lineno = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct insn *in;
		const char *t;
		char tail;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		insns = grow(insns, &cap_insns, ninsns, sizeof(*insns));
		in = &insns[ninsns];
		t = strstr(line, " insn=");
		if (!t || sscanf(line, "window=%lu addr=%llx size=%u count=%llu branch=%d taken=%llu%c",
				 &in->window, &in->addr, &in->size, &in->count,
				 &in->branch, &in->taken, &tail) != 7 || tail != ' ' || !in->size ||
		    in->taken > in->count) {
			die("%s:%lu: not a profile line (window=K addr=HEX size=N count=N branch=B taken=N insn=TEXT)",
			    path, lineno);
		}
		in->text = xstrdup(t + 6);
		ninsns++;
	}
	fclose(f);
}

static int by_window_addr(const void *a, const void *b)
{
	const struct insn *x = a, *y = b;

	if (x->window != y->window)
		return x->window < y->window ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * capstone's AT&T text as llvm-mc takes it: a direct branch's absolute
 * target becomes ".+0" (where it goes costs nothing here), the notrack and
 * bnd prefixes go.
 */
static void sanitize(const char *in, char *out, size_t n)
{
	const char *sp;

	while (!strncmp(in, "notrack ", 8) || !strncmp(in, "bnd ", 4))
		in = strchr(in, ' ') + 1;
	sp = strchr(in, ' ');
	if (sp && (in[0] == 'j' || !strncmp(in, "call", 4)) && !strncmp(sp + 1, "0x", 2))
		snprintf(out, n, "%.*s .+0", (int)(sp - in), in);
	else
		snprintf(out, n, "%s", in);
}

#define BLOCK_HASH	(1u << 16)
static size_t block_hash[BLOCK_HASH];	/* index + 1 of a chain's first */
static size_t *block_next;		/* index + 1 of the next in its chain */
static size_t cap_next;

/* The index of the block of text @text, added when new. */
static size_t block_of(const char *text)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	const char *s;
	size_t i;

	for (s = text; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h %= BLOCK_HASH;
	for (i = block_hash[h]; i; i = block_next[i - 1])
		if (!strcmp(blocks[i - 1].text, text))
			return i - 1;
	blocks = grow(blocks, &cap_blocks, nblocks, sizeof(*blocks));
	block_next = grow(block_next, &cap_next, nblocks, sizeof(*block_next));
	blocks[nblocks].text = xstrdup(text);
	blocks[nblocks].cycles = 0;
	blocks[nblocks].dropped = 0;
	block_next[nblocks] = block_hash[h];
	block_hash[h] = nblocks + 1;
	return nblocks++;
}

/* A rep-prefixed string instruction (rep, repe, repne, repz, repnz; not rep ret). */
static int is_rep(const char *text)
{
	const char *op = strchr(text, ' ');

	return !strncmp(text, "rep", 3) && op && strncmp(op + 1, "ret", 3);
}

/* Cut each window's instructions into blocks. */
static void make_blocks(void)
{
	size_t i = 0, len = 0, cap = 0;
	char *text = NULL, one[LINE_MAX_LEN];

	qsort(insns, ninsns, sizeof(*insns), by_window_addr);
	while (i < ninsns) {
		size_t j = i;

		len = 0;
		for (;;) {
			size_t k;

			sanitize(insns[j].text, one, sizeof(one));
			k = strlen(one);
			while (len + k + 2 > cap) {
				cap = cap ? 2 * cap : 4096;
				text = realloc(text, cap);
				if (!text)
					die("out of memory");
			}
			memcpy(text + len, one, k);
			len += k;
			text[len++] = '\n';
			text[len] = '\0';
			if (insns[j].branch || j + 1 == ninsns || is_rep(insns[j].text) ||
			    is_rep(insns[j + 1].text) ||
			    insns[j + 1].window != insns[j].window ||
			    insns[j + 1].addr != insns[j].addr + insns[j].size ||
			    insns[j + 1].count != insns[j].count)
				break;
			j++;
		}
		uses = grow(uses, &cap_uses, nuses, sizeof(*uses));
		uses[nuses].window = insns[i].window;
		uses[nuses].count = insns[i].count;
		uses[nuses].taken = insns[j].taken;
		uses[nuses].block = block_of(text);
		nuses++;
		i = j + 1;
	}
	free(text);
}

/*
 * Run llvm-mca once over every block (one code region each) for @mcpu and
 * @triple; each block's cycles per execution and dropped instructions.
 */
static void run_mca(const char *mca, const char *mcpu, const char *triple)
{
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char src[4096], err[4096], cmd[12288], line[LINE_MAX_LEN];
	size_t *block_at = NULL, cap = 0, nlines = 0, b = 0, i;
	unsigned long it = 0, cyc;
	FILE *f, *p;
	int fd;

	snprintf(src, sizeof(src), "%s/mcabase-XXXXXX.s", tmpdir);
	snprintf(err, sizeof(err), "%s/mcabase-XXXXXX.err", tmpdir);
	fd = mkstemps(src, 2);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		die("cannot create %s: %s", src, strerror(errno));
	/* block_at[l]: the block of line l + 1 of the source, for its errors */
	for (i = 0; i < nblocks; i++) {
		const char *s = blocks[i].text;

		if (is_rep(s)) {
			blocks[i].cycles = REP_CYCLES;
			continue;
		}
		fprintf(f, "# LLVM-MCA-BEGIN b%zu\n", i);
		block_at = grow(block_at, &cap, nlines + 1, sizeof(*block_at));
		block_at[nlines++] = nblocks;
		while (*s) {
			size_t k = strcspn(s, "\n");

			fprintf(f, "%.*s\n", (int)k, s);
			block_at = grow(block_at, &cap, nlines, sizeof(*block_at));
			block_at[nlines++] = i;
			s += k + (s[k] == '\n');
		}
		fprintf(f, "# LLVM-MCA-END\n");
		block_at = grow(block_at, &cap, nlines + 1, sizeof(*block_at));
		block_at[nlines++] = nblocks;
	}
	if (fclose(f))
		die("cannot write %s: %s", src, strerror(errno));
	fd = mkstemps(err, 4);
	if (fd < 0)
		die("cannot create %s: %s", err, strerror(errno));
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "'%s' -mtriple=%s '-mcpu=%s' -iterations=%d -skip-unsupported-instructions=parse-failure -instruction-info=0 -resource-pressure=0 '%s' 2> '%s'",
		 mca, triple, mcpu, ITERATIONS, src, err);
	p = popen(cmd, "r");
	if (!p)
		die("cannot run %s: %s", mca, strerror(errno));
	while (fgets(line, sizeof(line), p)) {
		size_t r;

		if (sscanf(line, "[%*u] Code Region - b%zu", &r) == 1 && r < nblocks) {
			b = r;
			it = 0;
		} else if (sscanf(line, "Iterations: %lu", &it) == 1) {
			continue;
		} else if (sscanf(line, "Total Cycles: %lu", &cyc) == 1 && it) {
			blocks[b].cycles = (double)cyc / it;
		}
	}
	if (pclose(p)) {
		unlink(src);
		die("%s -mcpu=%s failed: not installed (Debian: apt-get install llvm-19), or an instruction without scheduling data; its errors in %s",
		    mca, mcpu, err);
	}
	/* each dropped line is reported more than once: count it once */
	f = fopen(err, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long l;
		size_t n = strlen(src);

		if (!strncmp(line, src, n) && sscanf(line + n, ":%lu:", &l) == 1 &&
		    l >= 1 && l <= nlines && block_at[l - 1] < nblocks &&
		    strstr(line, "error:")) {
			blocks[block_at[l - 1]].dropped++;
			block_at[l - 1] = nblocks;
		}
	}
	if (f)
		fclose(f);
	unlink(src);
	unlink(err);
	free(block_at);
}

/* The window's base cycles and dropped executions. */
static int window_base(unsigned long w, double *base, unsigned long long *dropped)
{
	double c;
	size_t i;
	int seen = 0;

	*base = 0;
	*dropped = 0;
	for (i = 0; i < nuses; i++) {
		if (uses[i].window != w)
			continue;
		seen = 1;
		c = blocks[uses[i].block].cycles;
		*base += (uses[i].count - uses[i].taken) * c +
			 uses[i].taken * (c > taken_cycles ? c : taken_cycles);
		*dropped += uses[i].count * blocks[uses[i].block].dropped;
	}
	return seen;
}

/* The triple of the plugin's arch= (QEMU's target name). */
static const char *triple_of(const char *arch)
{
	if (!strncmp(arch, "x86_64 ", 7))
		return "x86_64-unknown-linux-gnu";
	if (!strncmp(arch, "i386 ", 5))
		return "i386-unknown-linux-gnu";
	return NULL;
}

/* Each line of @core in @model gets its window's base= and base_dropped=. */
static void write_model(const char *model, const char *core, const char *mca,
			const char *mcpu)
{
	char line[LINE_MAX_LEN * 2], key[96];
	FILE *in = fopen(model, "r"), *out;
	int ran = 0, lines = 0;

	if (!in)
		die("%s: %s", model, strerror(errno));
	snprintf(out_tmp, sizeof(out_tmp), "%s.tmp", model);
	out = fopen(out_tmp, "w");
	if (!out)
		die("%s: %s", out_tmp, strerror(errno));
	snprintf(key, sizeof(key), " core=%s ", core);
	while (fgets(line, sizeof(line), in)) {
		const char *arch = field(line, "arch");
		unsigned long long dropped;
		unsigned long w;
		double base;

		if (strncmp(line, "window=", 7) || !strstr(line, key)) {
			fputs(line, out);
			continue;
		}
		if (field(line, "base"))
			die("%s: core %s's lines have a base= already", model, core);
		if (!ran) {
			if (!arch || !triple_of(arch))
				die("%s: core %s: no x86_64 or i386 arch= (llvm-mca runs for those)",
				    model, core);
			run_mca(mca, mcpu, triple_of(arch));
			ran = 1;
		}
		w = strtoul(line + 7, NULL, 10);
		if (!window_base(w, &base, &dropped)) {
			die("the profile has no instruction of window %lu of %s", w, model);
		}
		line[strcspn(line, "\n")] = '\0';
		fprintf(out, "%s base=%.1f base_dropped=%llu\n", line, base, dropped);
		lines++;
	}
	fclose(in);
	if (!lines)
		die("%s: no window line of core %s", model, core);
	if (fclose(out) || rename(out_tmp, model))
		die("cannot write %s: %s", model, strerror(errno));
	out_tmp[0] = '\0';
}

int main(int argc, char **argv)
{
	const char *mca = "llvm-mca-19";
	char *end;
	int a = 1;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "-l")) {
			mca = argv[a + 1];
		} else if (!strcmp(argv[a], "-t")) {
			taken_cycles = strtod(argv[a + 1], &end);
			if (*end || end == argv[a + 1] || taken_cycles < 0 || taken_cycles > 100)
				die("-t %s: want the cycles of a taken branch, 0..100", argv[a + 1]);
		} else {
			break;
		}
	}
	if (argc - a != 4) {
		fprintf(stderr, "usage: mcabase [-l LLVM_MCA] [-t TAKEN_CYCLES] CORE MCPU PROFILE MODEL\n");
		return 2;
	}
	read_profile(argv[a + 2]);
	make_blocks();
	write_model(argv[a + 3], argv[a], mca, argv[a + 1]);
	return 0;
}
