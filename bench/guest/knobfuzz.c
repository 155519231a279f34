// SPDX-License-Identifier: GPL-2.0
/*
 * knobfuzz - fuzz every knob of /sys/kernel/debug/bpf_bench/ (in the guest)
 *
 *   knobfuzz [-s SEED] [-n WRITES] [-j PROCS] [-c CYCLES] [-m MODULE.ko]
 *	      [-f FILTERS] [-X]
 *   knobfuzz -T
 *
 * -X fuzzes with a wrong model (skbs takes only 0): it must find
 * mismatches.  -T tests the model on the host (PASS:/FAIL: lines).
 *
 * Writes random bytes, empty, over-long and NUL-containing values, numbers
 * out of range, signs, spaces, partial programs and one-byte-at-a-time
 * writes to every knob, interleaved with run / run_rounds and reads of
 * eval and result, and reads every written knob back.  A model of the
 * module's parsers (bench/module/bpf_bench.c: strim, kstrtou32, hex2bin,
 * the tcpdump -dd syntax, the kernel's ctype) says for every write which
 * errno it must fail with or what the knob must read afterwards.  Every
 * write is either applied whole (the read-back is what a valid write of
 * that value shows) or refused with an errno and leaves the previous
 * value: anything else is a mismatch.
 *
 * Phases:
 *   serial      60% of WRITES in this process
 *   concurrent  40% of WRITES over PROCS processes at once, the knobs
 *		 shared out between them (so that each still knows what its
 *		 knobs must read), one of them running run / run_rounds all the
 *		 time and interrupted by signals (EINTR)
 *   reload      CYCLES module unload/reload cycles (delete_module,
 *		 finit_module of MODULE.ko): unloading must fail while a
 *		 knob is held open or a run is in flight and succeed after,
 *		 with PROCS processes opening and writing knobs meanwhile; a
 *		 reloaded module has its defaults
 *
 * Prints "knobfuzz: writes=N refused=N mismatches=N errno_mismatches=N
 * reads=N runs=N reloads=N ..." as its last line; exit status 0 only if
 * mismatches and errno_mismatches are both 0 and WRITES writes were made.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/registry.h"

#define KNOBS		"/sys/kernel/debug/bpf_bench"
#define MODNAME		"bpf_bench"
#define MAXINSNS	4096
#define UNUSED		__attribute__((unused))
#define FRAME_MAX	1514
#define ETH_HLEN	14
#define MAXKNOBS	64
#define MAXPROCS	8
#define MAXCORPUS	64
#define READMAX		(512 * 1024)

#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

enum kind {
	K_U32, K_EXPECT, K_ENGINE, K_ROUND_ENGINES, K_PACKET, K_PROG,
	K_RUN, K_RUN_ROUNDS, K_RO, K_UNKNOWN,
};

struct knob {
	char name[64];
	enum kind kind;
	uint32_t min, max;
	size_t max_len;
	int writable;
	int owner;		/* concurrent phase: the process that writes it */
	int nonzero_enotsupp;	/* probed: the build refuses all but 0 */
};

/* What the module defines (bpf_bench.c's bench_knobs[]). */
static const struct knob defs[] = {
	{ "prog", K_PROG, 0, 0, 256 * 1024, 1, 0, 0 },
	{ "packet", K_PACKET, 0, 0, 8 * 1024, 1, 0, 0 },
	{ "headlen", K_U32, 0, FRAME_MAX, 64, 1, 0, 0 },
	{ "mix", K_U32, 0, 1, 64, 1, 0, 0 },
	{ "engine", K_ENGINE, 0, 0, 64, 1, 0, 0 },
	{ "skbs", K_U32, 1, 100000, 64, 1, 0, 0 },
	{ "samples", K_U32, 1, 1000, 64, 1, 0, 0 },
	{ "sample_us", K_U32, 100, 1000000, 64, 1, 0, 0 },
	{ "model_calls", K_U32, 0, 1000000, 64, 1, 0, 0 },
	{ "expect", K_EXPECT, 0, UINT32_MAX, 64, 1, 0, 0 },
	{ "run", K_RUN, 0, 0, 64, 1, 0, 0 },
	{ "round_engines", K_ROUND_ENGINES, 0, 0, 256, 1, 0, 0 },
	{ "rounds", K_U32, 1, 1000, 64, 1, 0, 0 },
	{ "run_rounds", K_RUN_ROUNDS, 0, 0, 64, 1, 0, 0 },
};

/*
 * Every engine the module knows, built in or not (its bench_engines[]):
 * the engine records of the registry (the guest's /bench/engines.conf; on
 * the host the clone's, or ENGINES_CONF), which list the same engines.
 */
static const char *all_engines[REG_MAX];
static size_t nr_all_engines;

static void load_engines(void)
{
	const struct reg *r = reg_engines();
	int i;

	for (i = 0; i < r->n; i++)
		all_engines[nr_all_engines++] = r->rec[i].name;
	if (!nr_all_engines) {
		fprintf(stderr, "knobfuzz: the registry has no engine records\n");
		exit(2);
	}
}

/* Mark engine @name built (the self-tests' module). */
static void set_built(const char *name);

/* Counters, one slot per process, in shared memory. */
struct counts {
	unsigned long long writes, refused, mismatches, errno_mismatches;
	unsigned long long reads, runs, runs_ok, interrupted, unchecked;
	unsigned long long reloads, busy_refusals;
	unsigned long long unload_waits;	/* unloads that had to stop the others */

};

static struct counts *shared;	/* [MAXPROCS + 1] */
static struct counts *cnt;	/* this process's slot */
static struct knob knobs[MAXKNOBS];
static int nknobs;
static char built[REG_MAX];	/* from the engines knob */
static char *progs[MAXCORPUS], *packets[MAXCORPUS];
static int nprogs, npackets;
static uint64_t rng;
static int me;			/* 0: serial / parent; 1..: children */
static volatile sig_atomic_t got_signal;
static int shared_knobs;		/* concurrent: others change what eval & co show */
static char *fault_page;	/* a mapped page followed by an unmapped one */
static long pagesz;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "knobfuzz: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t rndn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* The kernel's ctype (lib/ctype.c): Latin-1, 0xa0 is a space. */
static int kspace(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == ' ' || c == 0xa0;
}

static int kalnum(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'))
		return 1;
	return c >= 0xc0 && c != 0xd7 && c != 0xf7;
}

static char *kskip(char *s)
{
	while (kspace((unsigned char)*s))
		s++;
	return s;
}

/* strim(): trailing, then leading spaces. */
static char *kstrim(char *s)
{
	size_t n = strlen(s);

	while (n && kspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return kskip(s);
}

/* kstrtou32() */
static int kstrtou32_m(const char *s, unsigned int base, uint32_t *res)
{
	unsigned long long v = 0;
	int ovf = 0, n = 0;

	if (*s == '+')
		s++;
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++, n++) {
		unsigned int c = (unsigned char)*s, lc = c | 0x20, d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			d = lc - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			ovf = 1;
		v = v * base + d;
	}
	if (!n)
		return -EINVAL;
	if (ovf)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = (uint32_t)v;
	return 0;
}

/* bench_parse_u32(): decimal, or hex with 0x; never octal. */
static int parse_u32_m(const char *s, uint32_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	return kstrtou32_m(s, hex ? 16 : 10, v);
}

/*
 * A knob's store, modelled: 0 and the read-back in @canon, a positive
 * errno, or -1 for "accepted or EINVAL" (a program only the kernel's
 * checkers can judge).
 */
static int model_u32(const struct knob *k, char *buf, char *canon)
{
	char *s = kstrim(buf);
	uint32_t v;

	if (parse_u32_m(s, &v) || v < k->min || v > k->max)
		return EINVAL;
	if (v && k->nonzero_enotsupp)
		return EOPNOTSUPP;
	sprintf(canon, "%u\n", v);
	return 0;
}

static int engine_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < nr_all_engines; i++)
		if (!strcmp(name, all_engines[i]))
			return built[i] ? (int)i : -EOPNOTSUPP;
	return -EINVAL;
}

static void set_built(const char *name)
{
	size_t i;

	for (i = 0; i < nr_all_engines; i++)
		if (!strcmp(name, all_engines[i]))
			built[i] = 1;
}

static int model_engine(const struct knob *k UNUSED, char *buf, char *canon)
{
	int e = engine_lookup(kstrim(buf));

	if (e < 0)
		return -e;
	sprintf(canon, "%s\n", all_engines[e]);
	return 0;
}

static int model_round_engines(const struct knob *k UNUSED, char *buf, char *canon)
{
	int idx[REG_MAX], n = 0, e, j;
	char *p = kstrim(buf), *tok;

	while (p) {
		tok = strsep(&p, ",");
		tok = kstrim(tok);
		if (!*tok)
			return EINVAL;
		e = engine_lookup(tok);
		if (e < 0)
			return -e;
		for (j = 0; j < n; j++)
			if (idx[j] == e)
				return EINVAL;
		idx[n++] = e;
	}
	if (n < 2)
		return EINVAL;
	canon[0] = '\0';
	for (j = 0; j < n; j++) {
		if (j)
			strcat(canon, ",");
		strcat(canon, all_engines[idx[j]]);
	}
	strcat(canon, "\n");
	return 0;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The read-back of a frame: "%*ph", 16 bytes a line. */
static void show_bytes(const unsigned char *b, size_t len, char *out)
{
	size_t i;

	*out = '\0';
	for (i = 0; i < len; i++)
		out += sprintf(out, "%02x%s", b[i],
			       i % 16 == 15 || i == len - 1 ? "\n" : " ");
}

static int model_packet(const struct knob *k UNUSED, char *buf, char *canon)
{
	unsigned char pkt[FRAME_MAX];
	char *p = buf, *tok;
	size_t len = 0, n, i;

	for (;;) {
		tok = kskip(p);
		if (!*tok)
			break;
		for (p = tok; *p && !kspace((unsigned char)*p); p++)
			;
		if ((p - tok) & 1)
			return EINVAL;
		n = (size_t)(p - tok) / 2;
		if (n > FRAME_MAX - len)
			return E2BIG;
		for (i = 0; i < n; i++) {
			int hi = hexval((unsigned char)tok[2 * i]);
			int lo = hexval((unsigned char)tok[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return EINVAL;
			pkt[len + i] = (unsigned char)(hi << 4 | lo);
		}
		len += n;
	}
	/* 0..13 bytes are taken too: eval runs test_bpf's short frames */
	show_bytes(pkt, len, canon);
	return 0;
}

/* One "{ code, jt, jf, k }," line (bench_parse_insn()). */
static int model_insn(char *p, char *canon)
{
	static const uint32_t limit[4] = { 0xffff, 0xff, 0xff, 0xffffffff };
	uint32_t v[4];
	char *tok, c;
	int i;

	if (*p++ != '{')
		return EINVAL;
	for (i = 0; i < 4; i++) {
		tok = kskip(p);
		for (p = tok; kalnum((unsigned char)*p); p++)
			;
		if (p == tok)
			return EINVAL;
		c = *p;
		*p = '\0';
		if (parse_u32_m(tok, &v[i]))
			return EINVAL;
		*p = c;
		if (v[i] > limit[i])
			return EINVAL;
		p = kskip(p);
		if (*p++ != (i < 3 ? ',' : '}'))
			return EINVAL;
	}
	p = kskip(p);
	if (*p == ',')
		p = kskip(p + 1);
	if (*p)
		return EINVAL;
	sprintf(canon, "{ 0x%x, %u, %u, 0x%08x },\n", v[0], v[1], v[2], v[3]);
	return 0;
}

static int model_prog(const struct knob *k UNUSED, char *buf, char *canon)
{
	char *line, *p, *out = canon;
	int len = 0, err;

	*canon = '\0';
	while (buf) {
		line = strsep(&buf, "\n");
		p = kskip(line);
		if (!*p)
			continue;
		if (len == MAXINSNS)
			return E2BIG;
		err = model_insn(p, out);
		if (err)
			return err;
		out += strlen(out);
		len++;
	}
	return len ? -1 : EINVAL;
}

static int model_run(const struct knob *k UNUSED, char *buf, char *canon UNUSED)
{
	uint32_t v;

	return parse_u32_m(kstrim(buf), &v) || v != 1 ? EINVAL : 0;
}

/* What a write of each kind of knob does (model) and what the fuzz writes (gen). */
struct payload;
static void gen_u32(const struct knob *k, struct payload *p);
static void gen_engine(const struct knob *k, struct payload *p);
static void gen_packet(const struct knob *k, struct payload *p);
static void gen_prog(const struct knob *k, struct payload *p);
static void gen_run(const struct knob *k, struct payload *p);

static const struct {
	int (*model)(const struct knob *k, char *buf, char *canon);
	void (*gen)(const struct knob *k, struct payload *p);
} kind_ops[] = {
	[K_U32] = { model_u32, gen_u32 },
	[K_EXPECT] = { model_u32, gen_u32 },
	[K_ENGINE] = { model_engine, gen_engine },
	[K_ROUND_ENGINES] = { model_round_engines, gen_engine },
	[K_PACKET] = { model_packet, gen_packet },
	[K_PROG] = { model_prog, gen_prog },
	[K_RUN] = { model_run, gen_run },
	[K_RUN_ROUNDS] = { model_run, gen_run },
	[K_RO] = { NULL, NULL },
	[K_UNKNOWN] = { NULL, NULL },
};

/*
 * The whole write (bench_knob_write()), at file offset @pos: the errno
 * (0: stored, -1: stored or EINVAL) and the read-back in @canon.
 */
static int model_write(const struct knob *k, const char *data, size_t len,
		       long long pos, char *canon)
{
	char *buf;
	int r;

	*canon = '\0';
	if (k->kind == K_RO)
		return EPERM;
	if (pos)
		return EINVAL;
	if (!len)
		return EINVAL;
	if (len > k->max_len)
		return E2BIG;
	if (memchr(data, '\0', len))
		return EINVAL;
	buf = xmalloc(len + 1);
	memcpy(buf, data, len);
	buf[len] = '\0';
	r = kind_ops[k->kind].model ? kind_ops[k->kind].model(k, buf, canon) : -1;
	free(buf);
	return r;
}

/* Knob I/O. */

static void knob_path(char *out, const char *name)
{
	snprintf(out, 256, KNOBS "/%.64s", name);
}

/* The knob's text (read at offset 0 to the end), or -errno. */
static ssize_t read_knob(const char *name, char *buf, size_t size)
{
	char path[256];
	ssize_t n = 0, r;
	int fd, tries = 0;

	knob_path(path, name);
again:
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = 0;
	while ((size_t)n < size - 1) {
		r = read(fd, buf + n, size - 1 - (size_t)n);
		if (r < 0) {
			r = -errno;
			close(fd);
			/* a signal (the concurrent runner) interrupts the lock */
			if (r == -EINTR && ++tries < 100)
				goto again;
			return r;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	cnt->reads++;
	return n;
}

enum method { M_WRITE, M_BYTES, M_READ_THEN_WRITE, M_PWRITE, M_FAULT };

static int wr_errno(ssize_t r, size_t len)
{
	return r < 0 ? errno : (size_t)r == len ? 0 : EIO;
}

/*
 * One byte at a time: only a piece written at offset 0 is a value; once
 * one is stored, every later piece is a continued write and must be
 * refused.  Checks each piece against the model; returns 0 and the stored
 * value's read-back in @canon if a piece was stored, else EINVAL.
 */
static int write_bytes(const struct knob *k, int fd, const char *data,
		       size_t len, char *canon, int *want)
{
	char canon1[256];
	long long pos = 0;
	int w, err, stored = 0;
	ssize_t r;
	size_t i;

	for (i = 0; i < len; i++) {
		w = model_write(k, data + i, 1, pos, canon1);
		r = write(fd, data + i, 1);
		cnt->writes++;
		err = wr_errno(r, 1);
		if (err)
			cnt->refused++;
		if (!err && w > 0) {
			cnt->mismatches++;
			printf("MISMATCH: %s: byte %zu (0x%02x) of a one-byte-at-a-time write taken, model errno %d\n",
			       k->name, i, (unsigned char)data[i], w);
		} else if (err && w == 0 && err != EINTR && err != ENOMEM) {
			cnt->mismatches++;
			printf("MISMATCH: %s: byte %zu (0x%02x) of a one-byte-at-a-time write refused (errno %d), model takes it\n",
			       k->name, i, (unsigned char)data[i], err);
		} else if (err && w > 0 && err != w && err != EINTR) {
			cnt->errno_mismatches++;
			printf("ERRNO: %s: byte %zu of a one-byte-at-a-time write: errno %d, model %d\n",
			       k->name, i, err, w);
		}
		if (!err) {
			pos++;
			stored = 1;
			strcpy(canon, canon1);
		}
	}
	*want = stored ? 0 : EINVAL;
	return stored ? 0 : EINVAL;
}

/*
 * Write @data the way @m says: the errno of the write (0: all of it
 * taken), the model's errno in *@want (0: taken, -1: taken or EINVAL) and
 * the model's read-back in @canon.
 */
static int do_write(const struct knob *k, const char *data, size_t len,
		    enum method m, char *canon, int *want)
{
	char path[256], tmp[4];
	long long pos = 0;
	int fd, err = 0;
	ssize_t r;

	knob_path(path, k->name);
	fd = open(path, m == M_READ_THEN_WRITE ? O_RDWR : O_WRONLY);
	if (fd < 0)
		return errno;
	canon[0] = '\0';
	switch (m) {
	case M_WRITE:
	case M_READ_THEN_WRITE:
		if (m == M_READ_THEN_WRITE) {
			r = read(fd, tmp, 1);
			pos = r > 0 ? r : 0;
		}
		*want = model_write(k, data, len, pos, canon);
		r = write(fd, data, len);
		cnt->writes++;
		err = wr_errno(r, len);
		break;
	case M_BYTES:
		err = write_bytes(k, fd, data, len, canon, want);
		break;
	case M_PWRITE:
		/* seq_file knobs are not pwrite()able */
		*want = ESPIPE;
		r = pwrite(fd, data, len, 0);
		cnt->writes++;
		err = wr_errno(r, len);
		break;
	case M_FAULT: {
		/*
		 * The value runs 16 bytes into an unmapped page: past the
		 * size checks, copy_from_user() fails and nothing is taken.
		 */
		size_t in = len > (size_t)pagesz ? (size_t)pagesz : len;
		char *p = fault_page + pagesz - in;

		memcpy(p, data, in);
		*want = k->kind == K_RO ? EPERM :
			in + 16 > k->max_len ? E2BIG : EFAULT;
		r = write(fd, p, in + 16);
		cnt->writes++;
		err = wr_errno(r, in + 16);
		break;
	}
	}
	close(fd);
	return err;
}

/* Payloads. */

struct payload {
	char *b;
	size_t len;
};

static void put(struct payload *p, const void *s, size_t n)
{
	p->b = realloc(p->b, p->len + n + 1);
	if (!p->b)
		die("out of memory");
	memcpy(p->b + p->len, s, n);
	p->len += n;
	p->b[p->len] = '\0';
}

static void puts_(struct payload *p, const char *s)
{
	put(p, s, strlen(s));
}

static const char *const spaces[] = {
	" ", "\t", "\n", "\r", "\v", "\f", "\xa0", "  ", "\r\n", "\t \n",
};

static void put_space(struct payload *p)
{
	puts_(p, spaces[rndn(sizeof(spaces) / sizeof(spaces[0]))]);
}

static void put_random(struct payload *p, size_t n)
{
	static const char alphabet[] = "0123456789abcdefxX{},+- \t\n";
	unsigned char c;

	while (n--) {
		if (rndn(3))
			c = (unsigned char)alphabet[rndn(sizeof(alphabet) - 1)];
		else
			c = (unsigned char)rnd();
		put(p, &c, 1);
	}
}

static void put_number(struct payload *p, unsigned long long v)
{
	char s[64];

	switch (rndn(6)) {
	case 0:
		snprintf(s, sizeof(s), "0x%llx", v);
		break;
	case 1:
		snprintf(s, sizeof(s), "0X%llX", v);
		break;
	case 2:
		snprintf(s, sizeof(s), "%0*llu", (int)(1 + rndn(12)), v);
		break;
	case 3:
		snprintf(s, sizeof(s), "+%llu", v);
		break;
	default:
		snprintf(s, sizeof(s), "%llu", v);
		break;
	}
	puts_(p, s);
}

static void gen_u32(const struct knob *k, struct payload *p)
{
	static const char *const odd[] = {
		"-1", "-0", "+-1", "++1", "--1", "0x", "0x1g", "1e3", "0b1",
		"1.5", "1,2", "1 2", "1\t2", "0x-1", "- 1", "0o7", "x12",
		"18446744073709551616", "99999999999999999999999", "4294967296",
		"4294967295", "0xffffffff", "0x100000000", "1\n\n", "\n1",
	};
	unsigned long long span = (unsigned long long)k->max - k->min + 1;

	switch (rndn(12)) {
	case 0:
		puts_(p, odd[rndn(sizeof(odd) / sizeof(odd[0]))]);
		break;
	case 1:
		put_number(p, k->min ? k->min - 1ULL : (unsigned long long)k->max + 1);
		break;
	case 2:
		put_number(p, (unsigned long long)k->max + 1 + rndn(1000));
		break;
	case 3:
		put_random(p, 1 + rndn(40));
		break;
	case 4:
		put_number(p, rndn(2) ? k->min : k->max);
		break;
	case 5:
		put_space(p);
		put_number(p, k->min + rndn(span));
		put_space(p);
		break;
	case 6: {
		/* exactly the longest accepted write, and one more byte */
		size_t n = k->max_len + rndn(2);

		while (p->len < n - 1)
			puts_(p, " ");
		puts_(p, "7");
		break;
	}
	case 7:
		put_number(p, k->min + rndn(span));
		put(p, "\0", 1);
		if (rndn(2))
			puts_(p, "1");
		break;
	default:
		/* small values: a run stays short */
		put_number(p, k->min + rndn(span > 50 ? 50 : span));
		break;
	}
}

/* An engine name, or (K_ROUND_ENGINES) a comma list of them. */
static void gen_engine(const struct knob *k, struct payload *p)
{
	static const char *const odd[] = {
		"OLD", "ol", "old,", "new2", "jit jit", "", ",", "base line",
		"baseline\n\n", "nosuch", "old,old", ",old", "old,,new",
	};
	size_t n, i, j, pick[REG_MAX] = { 0 }, t;

	if (!rndn(5)) {
		puts_(p, odd[rndn(sizeof(odd) / sizeof(odd[0]))]);
		return;
	}
	if (!rndn(8)) {
		put_random(p, 1 + rndn(30));
		return;
	}
	if (k->kind != K_ROUND_ENGINES) {
		if (rndn(3) == 0)
			put_space(p);
		puts_(p, all_engines[rndn(nr_all_engines)]);
		if (rndn(3) == 0)
			put_space(p);
		return;
	}
	for (i = 0; i < nr_all_engines; i++)
		pick[i] = i;
	for (i = nr_all_engines - 1; i; i--) {
		j = rndn(i + 1);
		t = pick[i];
		pick[i] = pick[j];
		pick[j] = t;
	}
	n = 1 + rndn(nr_all_engines);
	for (i = 0; i < n; i++) {
		if (i)
			puts_(p, ",");
		if (!rndn(6))
			put_space(p);
		/* now and then an engine twice */
		puts_(p, all_engines[!rndn(20) && i ? pick[0] : pick[i]]);
		if (!rndn(6))
			put_space(p);
	}
}

static void gen_packet(const struct knob *k UNUSED, struct payload *p)
{
	const char *src = npackets ? packets[rndn(npackets)] : "";
	size_t n, i;
	char h[4];

	switch (rndn(10)) {
	case 0: /* random length of random bytes, maybe over the maximum */
		n = rndn(2) ? rndn(40) : 1400 + rndn(200);
		for (i = 0; i < n; i++) {
			snprintf(h, sizeof(h), "%02x", (unsigned int)rndn(256));
			puts_(p, h);
			if (!rndn(4))
				put_space(p);
		}
		break;
	case 1: /* partial: a corpus frame cut anywhere */
		put(p, src, rndn(strlen(src) + 1));
		break;
	case 2: /* exactly 13, 14, 1514, 1515 bytes */
		n = (size_t[]){ 13, 14, FRAME_MAX, FRAME_MAX + 1 }[rndn(4)];
		for (i = 0; i < n; i++) {
			snprintf(h, sizeof(h), "%02X", (unsigned int)rndn(256));
			puts_(p, h);
		}
		break;
	case 3: /* one bad digit */
		puts_(p, src);
		if (p->len)
			p->b[rndn(p->len)] = "gGzx-+ \n\0"[rndn(9)];
		break;
	case 4: /* over the knob's text size */
		while (p->len <= 8 * 1024)
			puts_(p, "   ");
		puts_(p, "00112233445566778899aabbccdd");
		break;
	case 5:
		put_random(p, 1 + rndn(100));
		break;
	default: /* a corpus frame, maybe spaced out */
		for (i = 0; src[i]; i += 2) {
			put(p, src + i, src[i + 1] ? 2 : 1);
			if (!rndn(5))
				put_space(p);
		}
		break;
	}
}

static void gen_insn_line(struct payload *p)
{
	static const uint16_t codes[] = {
		0x06, 0x16, 0x00, 0x01, 0x04, 0x0c, 0x14, 0x24, 0x28, 0x20,
		0x30, 0x15, 0x05, 0x87, 0x07, 0xb1, 0x02, 0x60, 0x48, 0x50,
	};
	char s[128];

	snprintf(s, sizeof(s), "{ 0x%x, %u, %u, 0x%08x },\n",
		 codes[rndn(sizeof(codes) / sizeof(codes[0]))],
		 (unsigned int)rndn(2), (unsigned int)rndn(2),
		 (unsigned int)(rndn(2) ? rndn(64) : rnd()));
	puts_(p, s);
}

static void gen_prog(const struct knob *k UNUSED, struct payload *p)
{
	const char *src = nprogs ? progs[rndn(nprogs)] : "{ 0x6, 0, 0, 0x1 },\n";
	size_t n, i;

	switch (rndn(14)) {
	case 0: /* partial: a corpus program cut at any byte */
		put(p, src, rndn(strlen(src) + 1));
		break;
	case 1: { /* partial: cut at a line end */
		const char *e = src;

		for (n = rndn(20); n && strchr(e, '\n'); n--)
			e = strchr(e, '\n') + 1;
		put(p, src, (size_t)(e - src));
		break;
	}
	case 2: /* random lines of instructions */
		for (n = 1 + rndn(8); n; n--)
			gen_insn_line(p);
		puts_(p, "{ 0x6, 0, 0, 0x00000000 },\n");
		break;
	case 3: { /* a field out of range */
		static const char *const bad[] = {
			"{ 0x10000, 0, 0, 0 },", "{ 0x6, 256, 0, 0 },",
			"{ 0x6, 0, 0x100, 0 },", "{ 0x6, 0, 0, 0x100000000 },",
			"{ 0x6, 0, 0, 4294967296 },", "{ 0x6, -1, 0, 0 },",
			"{ 0x6, 0, 0 },", "{ 0x6, 0, 0, 0, 0 },", "0x6, 0, 0, 0",
			"{ 0x6 0 0 0 }", "{ 0x6, 0, 0, 0 }, x", "{ 0x6, 0, 0, 0 },,",
			"{0x6,0,0,1}", "  {  0x06 ,  00 , 0 , 1  }  ,  ",
			"{ 06, 0, 0, 010 },", "{ 0x6, 0, 0, 1 }\r",
			"{ 0x6, 0, 0, 0xg }", "{ 0x6, 0, 0, \xc0 },",
		};

		puts_(p, bad[rndn(sizeof(bad) / sizeof(bad[0]))]);
		if (rndn(2))
			puts_(p, "\n{ 0x6, 0, 0, 0x1 },\n");
		break;
	}
	case 4: /* 4096 or 4097 instructions */
		n = MAXINSNS - 1 + rndn(3);
		for (i = 0; i + 1 < n; i++)
			puts_(p, "{ 0x4, 0, 0, 0x00000001 },\n");
		puts_(p, "{ 0x16, 0, 0, 0x00000000 },\n");
		break;
	case 5: /* over the knob's text size */
		while (p->len <= 256 * 1024)
			puts_(p, "{ 0x6, 0, 0, 0x00000001 },            \n");
		break;
	case 6: /* only blank lines */
		for (n = 1 + rndn(5); n; n--)
			put_space(p);
		break;
	case 7:
		put_random(p, 1 + rndn(200));
		break;
	case 8: /* a corpus program with a NUL or a bad byte inside */
		puts_(p, src);
		if (p->len)
			p->b[rndn(p->len)] = "\0}{,x\n"[rndn(6)];
		break;
	default:
		puts_(p, src);
		break;
	}
}

static void gen_run(const struct knob *k UNUSED, struct payload *p)
{
	static const char *const v[] = {
		"1", "1", "1", " 1\n", "0x1", "01", "+1", "1\n",
		"2", "0", "-1", "1 1", "one", "",
	};

	puts_(p, v[rndn(sizeof(v) / sizeof(v[0]))]);
}

static void gen_payload(const struct knob *k, struct payload *p)
{
	p->len = 0;
	put(p, "", 0);
	switch (rndn(40)) {
	case 0: /* empty */
		return;
	case 1: /* over-long, plausible content */
		while (p->len <= k->max_len)
			puts_(p, "0000000000000001");
		return;
	case 2: /* random bytes */
		put_random(p, 1 + rndn(64));
		return;
	}
	if (kind_ops[k->kind].gen)
		kind_ops[k->kind].gen(k, p);
	else if (rndn(2))
		put_number(p, rndn(2) ? rndn(100) : rnd());
	else
		put_random(p, 1 + rndn(40));
}

/* One write and its check. */

static char *before, *after, *canon;

static void mismatch(const struct knob *k, const char *what,
		     const struct payload *p)
{
	size_t i, n = p->len < 48 ? p->len : 48;

	cnt->mismatches++;
	printf("MISMATCH: %s: %s; value (%zu bytes):", k->name, what, p->len);
	for (i = 0; i < n; i++)
		printf(" %02x", (unsigned char)p->b[i]);
	printf("%s\n  before: %.80s\n  after:  %.80s\n  model:  %.80s\n",
	       n < p->len ? " ..." : "", before, after, canon);
}

static void fuzz_write(const struct knob *k, const struct payload *p,
		       enum method m)
{
	int want = 0, err;

	if (read_knob(k->name, before, READMAX) < 0)
		before[0] = '\0';
	err = do_write(k, p->b, p->len, m, canon, &want);
	if (err && m != M_BYTES)
		cnt->refused++;
	if (err == EINTR)
		cnt->interrupted++;
	/* eval, image: a read may fail (no prog yet); both reads alike */
	if (read_knob(k->name, after, READMAX) < 0)
		after[0] = '\0';
	/* eval, result, image and unknown knobs show what the others change */
	if (shared_knobs && (k->kind == K_RO || k->kind == K_UNKNOWN))
		return;
	if (err) {
		if (strcmp(before, after))
			mismatch(k, "refused write changed the value", p);
		if (k->kind == K_UNKNOWN || err == EINTR || err == ENOMEM)
			return;
		if (want == 0) {
			mismatch(k, "valid write refused", p);
		} else if ((want > 0 && err != want) ||
			   (want == -1 && err != EINVAL)) {
			cnt->errno_mismatches++;
			printf("ERRNO: %s: errno %d, model %d (%zu bytes, method %d)\n",
			       k->name, err, want, p->len, m);
		}
		return;
	}
	if (k->kind == K_UNKNOWN) {
		cnt->unchecked++;
		return;
	}
	if (want > 0)
		mismatch(k, "invalid write taken", p);
	else if (strcmp(after, canon))
		mismatch(k, "taken write reads back otherwise", p);
}

/* run / run_rounds, on a configuration cheap enough to finish quickly. */

static int set_value(const char *name, const char *v);

/*
 * model_calls takes a non-zero value only where the module has the model's
 * markers (x86, ARM; not UML): ask once, and put 0 back.
 */
static void probe_model_calls(void)
{
	int i;

	for (i = 0; i < nknobs; i++) {
		if (strcmp(knobs[i].name, "model_calls"))
			continue;
		knobs[i].nonzero_enotsupp = set_value("model_calls", "1") == EOPNOTSUPP;
		set_value("model_calls", "0");
	}
}

static int set_value(const char *name, const char *v)
{
	char path[256];
	ssize_t r;
	int fd, err;

	knob_path(path, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	r = write(fd, v, strlen(v));
	err = r < 0 ? errno : 0;
	close(fd);
	cnt->writes++;
	if (err)
		cnt->refused++;
	return err;
}

static void keep_cheap(const char *name, uint32_t limit, const char *v)
{
	char buf[64];

	if (read_knob(name, buf, sizeof(buf)) > 0 &&
	    strtoul(buf, NULL, 10) <= limit)
		return;
	set_value(name, v);
}

/* The value engine ENGINE gives in the eval line, if it gave one. */
static int eval_value(const char *engine, unsigned long long *v)
{
	char line[512], key[80], *p;
	ssize_t n = read_knob("eval", line, sizeof(line));

	if (n <= 0)
		return -1;
	snprintf(key, sizeof(key), "%s=", engine);
	for (p = line; (p = strstr(p, key)); p++) {
		if (p != line && p[-1] != ' ')
			continue;
		if (p[strlen(key)] == '-')
			return -1;
		*v = strtoull(p + strlen(key), NULL, 10);
		return 0;
	}
	return -1;
}

static void fuzz_run(const struct knob *k, int owns_config)
{
	const char *rk = k->kind == K_RUN ? "result" : "rounds_result";
	struct payload p = { 0 };
	char eng[64], v[32];
	unsigned long long val;
	int want, err;

	if (owns_config) {
		keep_cheap("skbs", 16, "4");
		keep_cheap("samples", 3, "2");
		keep_cheap("sample_us", 2000, "200");
		keep_cheap("rounds", 3, "2");
		keep_cheap("model_calls", 16, "4");
		/* mostly a run that succeeds: expect what eval says */
		if (rndn(4) && read_knob("engine", eng, sizeof(eng)) > 0) {
			eng[strcspn(eng, "\n")] = '\0';
			if (!eval_value(strcmp(eng, "baseline") ? eng : "new", &val)) {
				snprintf(v, sizeof(v), "%llu", val);
				set_value("expect", v);
			}
		}
	}
	gen_run(NULL, &p);
	if (read_knob(rk, before, READMAX) < 0)
		before[0] = '\0';
	want = model_write(k, p.b, p.len, 0, canon);
	err = set_value(k->name, p.b);
	cnt->runs++;
	if (!err)
		cnt->runs_ok++;
	if (err == EINTR)
		cnt->interrupted++;
	if (read_knob(rk, after, READMAX) < 0)
		after[0] = '\0';
	if (want > 0) {
		/* not a 1: refused before anything runs */
		if (!err)
			mismatch(k, "a run write other than 1 taken", &p);
		/*
		 * EINTR: a signal came while the write waited for bench_lock
		 * (a run in flight in another process), before any parsing.
		 */
		else if (err != want && err != EINTR && err != ENOMEM) {
			cnt->errno_mismatches++;
			printf("ERRNO: %s: a run write other than 1: errno %d, model %d\n",
			       k->name, err, want);
		}
		if (strcmp(before, after))
			mismatch(k, "a refused run write changed the result", &p);
	} else if (err == EINTR) {
		/* interrupted waiting for the lock (kept) or running (empty) */
		if (after[0] && strcmp(before, after))
			mismatch(k, "an interrupted run left a new result", &p);
	} else if (err && after[0]) {
		mismatch(k, "a failed run left a result", &p);
	} else if (!err && strncmp(after, k->kind == K_RUN ? "engine=" : "engines=",
				   k->kind == K_RUN ? 7 : 8)) {
		mismatch(k, "a successful run left no result", &p);
	}
	free(p.b);
}

/* Knob table. */

static void discover(void)
{
	DIR *d = opendir(KNOBS);
	struct dirent *de;
	struct stat st;
	char path[256];
	size_t i;

	if (!d)
		die(KNOBS ": %s (is bpf_bench loaded?)", strerror(errno));
	nknobs = 0;
	while ((de = readdir(d)) && nknobs < MAXKNOBS) {
		struct knob *k = &knobs[nknobs];

		if (de->d_name[0] == '.')
			continue;
		knob_path(path, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%.63s", de->d_name);
		k->writable = !!(st.st_mode & 0200);
		k->kind = k->writable ? K_UNKNOWN : K_RO;
		k->max_len = 4096;
		for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
			if (!strcmp(defs[i].name, k->name))
				*k = defs[i];
		nknobs++;
	}
	closedir(d);
}

static void read_engines(void)
{
	char buf[512], *line, *p = buf;
	size_t i;

	memset(built, 0, sizeof(built));
	if (read_knob("engines", buf, sizeof(buf)) < 0)
		die("cannot read the engines knob");
	while ((line = strsep(&p, "\n")))
		for (i = 0; i < nr_all_engines; i++)
			if (!strcmp(line, all_engines[i]))
				built[i] = 1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = xmalloc((size_t)n + 1);
	n = (long)fread(b, 1, (size_t)n, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

static void load_corpus(const char *dir)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	size_t n;

	d = opendir(dir);
	if (d) {
		while ((de = readdir(d)) && nprogs < MAXCORPUS) {
			n = strlen(de->d_name);
			if (n < 4 || strcmp(de->d_name + n - 3, ".dd"))
				continue;
			snprintf(path, sizeof(path), "%.200s/%.200s", dir, de->d_name);
			progs[nprogs] = slurp(path);
			if (progs[nprogs])
				nprogs++;
		}
		closedir(d);
	}
	snprintf(path, sizeof(path), "%.200s/packets", dir);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)) && npackets < MAXCORPUS) {
			char *b, *q;

			n = strlen(de->d_name);
			if (n < 5 || strcmp(de->d_name + n - 4, ".hex"))
				continue;
			snprintf(path, sizeof(path), "%.200s/packets/%.200s",
				 dir, de->d_name);
			b = slurp(path);
			if (!b)
				continue;
			/* the hex digits alone */
			for (q = b, n = 0; *q; q++)
				if (hexval((unsigned char)*q) >= 0)
					b[n++] = *q;
			b[n] = '\0';
			packets[npackets++] = b;
		}
		closedir(d);
	}
}

static enum method pick_method(const struct knob *k, size_t len)
{
	uint64_t r = rndn(100);

	if (k->kind == K_RUN || k->kind == K_RUN_ROUNDS)
		return M_WRITE;
	if (r < 6 && len && len <= 24)
		return M_BYTES;
	if (r < 10)
		return M_READ_THEN_WRITE;
	if (r < 13)
		return M_PWRITE;
	if (r < 16)
		return M_FAULT;
	return M_WRITE;
}

/* @n writes to the knobs @proc owns (proc -1: all of them). */
static void fuzz_loop(unsigned long long n, int proc, int runner)
{
	struct payload p = { 0 };
	unsigned long long start = cnt->writes;
	const struct knob *k;
	char tmp[4096];

	while (cnt->writes - start < n) {
		k = &knobs[rndn(nknobs)];
		if (proc >= 0 && k->owner != proc)
			continue;
		if (k->kind == K_RUN || k->kind == K_RUN_ROUNDS) {
			if (proc < 0 || runner)
				fuzz_run(k, 1);
			continue;
		}
		gen_payload(k, &p);
		fuzz_write(k, &p, pick_method(k, p.len));
		if (!rndn(20)) {
			read_knob("eval", tmp, sizeof(tmp));
			read_knob("result", tmp, sizeof(tmp));
		}
		if (!rndn(200))
			read_knob("image", tmp, sizeof(tmp));
	}
	free(p.b);
}

/* Concurrent phase. */

static void on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
}

static void concurrent(unsigned long long n, int procs, uint64_t seed)
{
	pid_t pids[MAXPROCS];
	struct sigaction sa;
	int i, st, j, status = 0;
	struct timespec ts = { 0, 3 * 1000 * 1000 };

	/*
	 * Process 0 owns the run knobs and the configuration a run's cost
	 * depends on; the other knobs are shared out round-robin.
	 */
	for (i = 0, j = 0; i < nknobs; i++) {
		const char *nm = knobs[i].name;

		if (!strcmp(nm, "run") || !strcmp(nm, "run_rounds") ||
		    !strcmp(nm, "skbs") || !strcmp(nm, "samples") ||
		    !strcmp(nm, "sample_us") || !strcmp(nm, "rounds") ||
		    !strcmp(nm, "model_calls") || !strcmp(nm, "expect"))
			knobs[i].owner = 0;
		else
			knobs[i].owner = 1 + j++ % (procs - 1);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[i]) {
			shared_knobs = 1;
			me = 1 + i;
			cnt = &shared[me];
			rng = seed * 7919 + (uint64_t)i * 104729 + 1;
			fuzz_loop(n / (unsigned long long)procs, i, i == 0);
			_exit(0);
		}
	}
	/* interrupt the runner now and then: runs and lock waits end EINTR */
	for (;;) {
		pid_t w = waitpid(-1, &st, WNOHANG);

		if (w > 0) {
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				status = 1;
			for (i = 0; i < procs; i++)
				if (pids[i] == w)
					pids[i] = 0;
			for (i = 0; i < procs && !pids[i]; i++)
				;
			if (i == procs)
				break;
			continue;
		}
		if (pids[0] && !rndn(8))
			kill(pids[0], SIGUSR1);
		nanosleep(&ts, NULL);
	}
	if (status) {
		cnt->mismatches++;
		printf("MISMATCH: a concurrent fuzzing process died\n");
	}
}

/* Reload phase. */

static int unload(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) ? errno : 0;
}

static int load(const char *ko)
{
	int fd = open(ko, O_RDONLY), err = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	close(fd);
	return err;
}

static void check_defaults(void)
{
	static const char *const want[][2] = {
		{ "skbs", "10000\n" }, { "samples", "21\n" },
		{ "sample_us", "20000\n" }, { "engine", "baseline\n" },
		{ "headlen", "0\n" }, { "prog", "" }, { "packet", "" },
		{ "expect", "" }, { "rounds", "30\n" },
		{ "round_engines", "" }, { "result", "" },
		{ "rounds_result", "" }, { "mix", "0\n" }, { "frames", "" },
	};
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (read_knob(want[i][0], buf, sizeof(buf)) < 0 ||
		    strcmp(buf, want[i][1])) {
			cnt->mismatches++;
			printf("MISMATCH: reloaded module: %s reads '%s', want '%s'\n",
			       want[i][0], buf, want[i][1]);
		}
	}
}

/* Children that open, write, read and close knobs until killed. */
static void hammer(int procs, pid_t *pids, uint64_t seed)
{
	int i;

	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[i]) {
			struct payload p = { 0 };
			char tmp[4096];

			me = 1 + i;
			cnt = &shared[me];
			rng = seed * 31 + (uint64_t)i + 7;
			signal(SIGTERM, SIG_DFL);
			for (;;) {
				const struct knob *k = &knobs[rndn(nknobs)];
				int want;

				if (k->kind == K_RUN || k->kind == K_RUN_ROUNDS)
					continue;
				gen_payload(k, &p);
				if (do_write(k, p.b, p.len, M_WRITE, canon, &want))
					cnt->refused++;
				read_knob(k->name, tmp, sizeof(tmp));
			}
		}
	}
}

static void stop(int procs, pid_t *pids)
{
	int i, st;

	for (i = 0; i < procs; i++) {
		kill(pids[i], SIGTERM);
		waitpid(pids[i], &st, 0);
	}
}

/*
 * Unload, retrying while the hammering children hold a knob open; after
 *  tries (0: none) they are stopped (*@stopped) and it is tried again.
 */
static int unload_retry(int tries, int procs, pid_t *pids, int *stopped)
{
	struct timespec ts = { 0, 1000 * 1000 };
	int i, err = 0;

	for (i = 0; i < 2000 + tries; i++) {
		if (i == tries && tries && !*stopped) {
			stop(procs, pids);
			*stopped = 1;
			cnt->unload_waits++;
		}
		err = unload();
		if (err != EAGAIN && err != EBUSY)
			return err;
		nanosleep(&ts, NULL);
	}
	return err;
}

static void expect_busy(const char *why)
{
	int err = unload();

	if (err == EAGAIN || err == EBUSY) {
		cnt->busy_refusals++;
		return;
	}
	cnt->mismatches++;
	printf("MISMATCH: delete_module %s: %s\n", why,
	       err ? strerror(err) : "succeeded");
	if (!err)
		die("the module is gone while in use; stopping");
}

static void reload(const char *ko, int cycles, int procs, uint64_t seed)
{
	pid_t pids[MAXPROCS], runner;
	char path[256], buf[64];
	struct stat st;
	int c, fd, err, s, stopped;

	for (c = 0; c < cycles; c++) {
		/* a knob held open: no unload, and the fd still works */
		knob_path(path, "skbs");
		fd = open(path, O_RDWR);
		if (fd < 0)
			die("%s: %s", path, strerror(errno));
		expect_busy("with a knob held open");
		if (write(fd, "5", 1) != 1 ||
		    read_knob("skbs", buf, sizeof(buf)) < 0 || strcmp(buf, "5\n")) {
			cnt->mismatches++;
			printf("MISMATCH: the held-open skbs knob did not take 5 (%s)\n",
			       buf);
		}
		cnt->writes++;
		/* a run in flight: no unload */
		if (c == 0) {
			set_value("prog", "{ 0x6, 0, 0, 0x00000001 },\n");
			set_value("packet", "0011223344550011223344550800");
			set_value("expect", "1");
			set_value("mix", "0");	/* the fuzz may have left mixed traffic on */
			set_value("engine", "baseline");
			set_value("skbs", "1");
			set_value("samples", "5");
			set_value("sample_us", "100000");
			runner = fork();
			if (!runner) {
				_exit(set_value("run", "1") ? 1 : 0);
			}
			usleep(100 * 1000);
			expect_busy("while a run is in flight");
			waitpid(runner, &s, 0);
			if (!WIFEXITED(s) || WEXITSTATUS(s)) {
				cnt->mismatches++;
				printf("MISMATCH: the run in flight failed\n");
			}
		}
		hammer(procs, pids, seed + (uint64_t)c);
		stopped = 0;
		usleep(50 * 1000);
		expect_busy("with a knob held open and others in use");
		close(fd);
		err = unload_retry(3000, procs, pids, &stopped);
		if (err) {
			if (!stopped)
				stop(procs, pids);
			die("delete_module after closing the knob: %s", strerror(err));
		}
		if (stat(KNOBS, &st) == 0) {
			cnt->mismatches++;
			printf("MISMATCH: " KNOBS " is still there after the unload\n");
		}
		/* the others keep trying on the missing module for a moment */
		usleep(20 * 1000);
		if (c % 2 == 0 && !stopped) {
			stop(procs, pids);
			stopped = 1;
		}
		err = load(ko);
		if (err) {
			if (!stopped)
				stop(procs, pids);
			die("finit_module %s: %s", ko, strerror(err));
		}
		if (!stopped) {
			/* and race the load */
			usleep(20 * 1000);
			stop(procs, pids);
		} else {
			/* nobody wrote since the load: the defaults */
			check_defaults();
		}
		cnt->reloads++;
		discover();
	}
	/* leave it loaded with its defaults for whoever comes next */
	stopped = 1;
	err = unload_retry(0, 0, pids, &stopped);
	if (!err)
		err = load(ko);
	if (err)
		die("final reload: %s", strerror(err));
	check_defaults();
}

/*
 * -T: the model against the cases bench/module/README.md's errors table
 * and plan-check.sh's bad writes name, on the host; PASS:/FAIL: lines.
 */
/*  for a test name: non-printable bytes as \xNN */
static const char *escaped(const char *s, size_t n)
{
	static char buf[512];
	size_t i, o = 0;

	for (i = 0; i < n && o < sizeof(buf) - 8; i++)
		o += (size_t)sprintf(buf + o, s[i] > 32 && s[i] < 127 && s[i] != '\\' ?
				     "%c" : "\\x%02x", (unsigned char)s[i]);
	buf[o] = '\0';
	return buf;
}

static int selftest(void)
{
	static const struct {
		const char *knob, *in;
		size_t len;	/* 0: strlen(in) */
		int pos, want;
		const char *canon;
	} t[] = {
		{ "skbs", "7", 0, 0, 0, "7\n" },
		{ "skbs", " 0x10\n", 0, 0, 0, "16\n" },
		{ "skbs", "+5", 0, 0, 0, "5\n" },
		{ "skbs", "010", 0, 0, 0, "10\n" },
		{ "skbs", "\xa0" "5\t", 0, 0, 0, "5\n" },
		{ "skbs", "0", 0, 0, EINVAL, "" },
		{ "skbs", "100001", 0, 0, EINVAL, "" },
		{ "skbs", "-1", 0, 0, EINVAL, "" },
		{ "skbs", "abc", 0, 0, EINVAL, "" },
		{ "skbs", "1 2", 0, 0, EINVAL, "" },
		{ "skbs", "", 0, 0, EINVAL, "" },
		{ "skbs", "5\0", 2, 0, EINVAL, "" },
		{ "skbs", "7", 0, 1, EINVAL, "" },
		{ "skbs", "00000000000000000000000000000000000000000000000000000000000000007", 0, 0, E2BIG, "" },
		{ "skbs", "0000000000000000000000000000000000000000000000000000000000000007", 0, 0, 0, "7\n" },
		{ "sample_us", "99", 0, 0, EINVAL, "" },
		{ "expect", "4294967295", 0, 0, 0, "4294967295\n" },
		{ "expect", "4294967296", 0, 0, EINVAL, "" },
		{ "expect", "0x", 0, 0, EINVAL, "" },
		{ "expect", "x12", 0, 0, EINVAL, "" },
		{ "engine", " old\n", 0, 0, 0, "old\n" },
		{ "engine", "OLD", 0, 0, EINVAL, "" },
		{ "engine", "jit", 0, 0, EOPNOTSUPP, "" },
		{ "round_engines", "old, new", 0, 0, 0, "old,new\n" },
		{ "round_engines", "old", 0, 0, EINVAL, "" },
		{ "round_engines", "old,,new", 0, 0, EINVAL, "" },
		{ "round_engines", "old,old", 0, 0, EINVAL, "" },
		{ "round_engines", "old,jit", 0, 0, EOPNOTSUPP, "" },
		{ "round_engines", "old,nosuch,jit", 0, 0, EINVAL, "" },
		{ "packet", "00 11 22 33 44", 0, 0, 0, "00 11 22 33 44\n" },
		{ "packet", "0", 0, 0, EINVAL, "" },
		{ "packet", "zz", 0, 0, EINVAL, "" },
		{ "packet", "000102030405060708090a0b0c0d0e0f 10", 0, 0, 0,
		  "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n10\n" },
		{ "prog", "{ 0x6, 0, 0, 1 },", 0, 0, -1, "{ 0x6, 0, 0, 0x00000001 },\n" },
		{ "prog", " {0x16,0,0,0}\r\n\n", 0, 0, -1, "{ 0x16, 0, 0, 0x00000000 },\n" },
		{ "prog", "garbage", 0, 0, EINVAL, "" },
		{ "prog", "{ 0x6, 256, 0, 0 },", 0, 0, EINVAL, "" },
		{ "prog", "{ 0x6, 0, 0, 0x100000000 },", 0, 0, EINVAL, "" },
		{ "prog", "{ 0x6, 0, 0, 0 }, x", 0, 0, EINVAL, "" },
		{ "prog", "\n \n", 0, 0, EINVAL, "" },
		{ "run", "1", 0, 0, 0, "" },
		{ "run", " 0x1\n", 0, 0, 0, "" },
		{ "run", "2", 0, 0, EINVAL, "" },
		{ "eval", "1", 0, 0, EPERM, "" },
		{ "eval", "1", 0, 1, EPERM, "" },
	};
	struct knob ro = { "eval", K_RO, 0, 0, 0, 0, 0, 0 };
	char *out = xmalloc(READMAX), *big;
	size_t i, j, n;
	int pass = 0, failed = 0, w;
	const struct knob *k;

	memset(built, 0, sizeof(built));
	set_built("baseline");
	set_built("old");
	set_built("new");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		k = &ro;
		for (j = 0; j < sizeof(defs) / sizeof(defs[0]); j++)
			if (!strcmp(defs[j].name, t[i].knob))
				k = &defs[j];
		n = t[i].len ? t[i].len : strlen(t[i].in);
		w = model_write(k, t[i].in, n, t[i].pos, out);
		if (w == t[i].want && (w > 0 || !strcmp(out, t[i].canon))) {
			printf("PASS: knobfuzz: model: %s <- '%s'%s\n", t[i].knob,
			       escaped(t[i].in, n), t[i].pos ? " at offset 1" : "");
			pass++;
		} else {
			printf("FAIL: knobfuzz: model: %s <- '%s': %d '%s', want %d '%s'\n",
			       t[i].knob, escaped(t[i].in, n), w, out, t[i].want,
			       t[i].canon);
			failed++;
		}
	}
	/* 4097 instructions, and a packet over 1514 bytes */
	big = xmalloc(300 * 1024);
	for (n = 0, i = 0; i < MAXINSNS + 1; i++)
		n += (size_t)sprintf(big + n, "{ 0x6, 0, 0, 0x00000001 },\n");
	w = model_write(&defs[0], big, strlen(big), 0, out);
	printf("%s: knobfuzz: model: prog of %d insns fails E2BIG (%d)\n",
	       w == E2BIG ? "PASS" : "FAIL", MAXINSNS + 1, w);
	w == E2BIG ? pass++ : failed++;
	for (i = 0; i < 2 * (FRAME_MAX + 1); i++)
		big[i] = 'a';
	big[i] = '\0';
	w = model_write(&defs[1], big, strlen(big), 0, out);
	printf("%s: knobfuzz: model: a packet of %d bytes fails E2BIG (%d)\n",
	       w == E2BIG ? "PASS" : "FAIL", FRAME_MAX + 1, w);
	w == E2BIG ? pass++ : failed++;
	free(out);
	free(big);
	printf("%d passed, %d failed\n", pass, failed);
	return failed != 0;
}

int main(int argc, char **argv)
{
	unsigned long long writes = 2000, serial;
	const char *ko = "/bench/modules/bpf_bench.ko";
	const char *filters = "/bench/filters";
	int procs = 4, cycles = 4, opt, i;
	int corrupt = 0;
	uint64_t seed = 1;
	struct counts tot = { 0 };
	int status;

	load_engines();
	while ((opt = getopt(argc, argv, "s:n:j:c:m:f:TX")) != -1) {
		switch (opt) {
		case 'T':
			cnt = &tot;
			return selftest();
		case 'X':
			corrupt = 1;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			writes = strtoull(optarg, NULL, 0);
			break;
		case 'j':
			procs = atoi(optarg);
			break;
		case 'c':
			cycles = atoi(optarg);
			break;
		case 'm':
			ko = optarg;
			break;
		case 'f':
			filters = optarg;
			break;
		default:
			fprintf(stderr, "usage: knobfuzz [-s SEED] [-n WRITES] [-j PROCS] [-c CYCLES] [-m MODULE.ko] [-f FILTERS] [-X] | -T\n");
			return 2;
		}
	}
	if (procs < 2 || procs > MAXPROCS)
		die("-j: 2..%d processes", MAXPROCS);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pagesz = sysconf(_SC_PAGESIZE);
	shared = mmap(NULL, sizeof(*shared) * (MAXPROCS + 1),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fault_page = mmap(NULL, 2 * pagesz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || fault_page == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	munmap(fault_page + pagesz, pagesz);
	memset(shared, 0, sizeof(*shared) * (MAXPROCS + 1));
	cnt = &shared[0];
	before = xmalloc(READMAX);
	after = xmalloc(READMAX);
	canon = xmalloc(READMAX);
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;

	discover();
	probe_model_calls();
	read_engines();
	load_corpus(filters);
	/*
	 * -X: a wrong model (skbs takes only 0), to show that a module that
	 * does not do what the model says is caught.
	 */
	for (i = 0; corrupt && i < nknobs; i++)
		if (!strcmp(knobs[i].name, "skbs"))
			knobs[i].min = knobs[i].max = 0;

	serial = writes * 6 / 10;
	fuzz_loop(serial, -1, 1);
	printf("knobfuzz: serial: %llu writes, %llu mismatches\n",
	       shared[0].writes, shared[0].mismatches);
	concurrent(writes - serial, procs, seed);
	printf("knobfuzz: concurrent: %d processes done\n", procs);
	if (cycles)
		reload(ko, cycles, procs, seed);

	for (i = 0; i <= MAXPROCS; i++) {
		tot.writes += shared[i].writes;
		tot.refused += shared[i].refused;
		tot.mismatches += shared[i].mismatches;
		tot.errno_mismatches += shared[i].errno_mismatches;
		tot.reads += shared[i].reads;
		tot.runs += shared[i].runs;
		tot.runs_ok += shared[i].runs_ok;
		tot.interrupted += shared[i].interrupted;
		tot.unchecked += shared[i].unchecked;
		tot.reloads += shared[i].reloads;
		tot.busy_refusals += shared[i].busy_refusals;
		tot.unload_waits += shared[i].unload_waits;
	}
	status = tot.mismatches || tot.errno_mismatches || tot.writes < writes;
	printf("knobfuzz: writes=%llu refused=%llu mismatches=%llu errno_mismatches=%llu reads=%llu runs=%llu runs_ok=%llu interrupted=%llu unchecked=%llu reloads=%llu busy_refusals=%llu unload_waits=%llu knobs=%d\n",
	       tot.writes, tot.refused, tot.mismatches, tot.errno_mismatches,
	       tot.reads, tot.runs, tot.runs_ok, tot.interrupted, tot.unchecked,
	       tot.reloads, tot.busy_refusals, tot.unload_waits, nknobs);
	return status;
}
