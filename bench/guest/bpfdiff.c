// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdiff - differential test of the classic BPF engines of bpf_bench.ko:
 * old (the revived 3.14 interpreter), new (6.1 eBPF interpreter) and jit.
 *
 *   bpfdiff run PROGS PACKETS OUT [HEADLEN...]
 *	For every program of PROGS (a "# name" line, then tcpdump -dd lines;
 *	or "random:SEED:COUNT" for generated ones) and every frame of
 *	PACKETS ("<name> <hex>" lines), read the module's eval knob with the
 *	frame all linear and, for every HEADLEN shorter than the frame, with
 *	only HEADLEN bytes linear.  Writes a summary to stdout and to OUT one
 *	line per (program, packet, headlen) that is not "agree" and, for a
 *	PROGS file, one per (program, packet) with headlen 0 (the host
 *	compares those with libpcap).
 *   bpfdiff fuzz SEED SECONDS PACKETS [PAIRS]
 *	Generated, mutated and raw random programs, each on 8 random and
 *	mutated frames with 1-3 random headlens, for SECONDS; with PAIRS,
 *	until PAIRS (program, packet, headlen) pairs are compared (SECONDS
 *	is then the limit, and fewer pairs fail).
 *   bpfdiff replay HEADLEN HEX PROGRAM
 *	One pair: the frame HEX with HEADLEN bytes linear (0: all), PROGRAM
 *	"{code,jt,jf,k},..." (or -dd lines); prints "replay FRAME HEADLEN
 *	<eval line> agree|documented #..|UNEXPLAINED".  Every UNEXPLAINED
 *	report ends with this command ("replay:") for its pair.
 *   bpfdiff cases FILE
 *	replay for every "NAME HEADLEN HEX PROGRAM" line of FILE
 *	(filters/diff/cases.txt), then the summary.
 *   bpfdiff fuzzcase SEED ITERATION PACKETS
 *	On the host: the pairs fuzz iteration ITERATION of SEED compares
 *	(program fuzzSEED-ITERATION), as lines of a cases file.
 *   bpfdiff gen SEED COUNT
 *	Print the generated programs (the ones "random:SEED:COUNT" runs).
 *   bpfdiff selftest SEED COUNT
 *	On the host: every generated program passes the modelled 3.14 checker
 *	(and some fail the 6.1 one).
 *   bpfdiff model PROGS PACKETS
 *	On the host: the modelled old and new results for every program and
 *	linear packet, in the format of run's OUT (compared with libpcap).
 *
 * Every result is checked against a model of both checkers and both
 * interpreters written from the 3.14 and 6.1 sources (see
 * docs/classic-vs-ebpf-differences.md).  A pair is
 *   agree        old, new and jit return the same and the model says so
 *   documented   old and new differ exactly as the model of a documented
 *		  difference says (row numbers of the doc are counted)
 *   unexplained  anything else (the engines disagree otherwise, or agree
 *		  on something the model did not predict)
 * The model does not know the values of cpu, pay_offset and random loads;
 * it tracks where they go (run()), so one that is overwritten before it
 * reaches the result or a decision leaves the result known.
 * Exit status 0 only if nothing is unexplained.
 *
 * Talks to /sys/kernel/debug/bpf_bench/ with an lseek() to 0 and one
 * write() per value (the knobs take a value in one write at offset 0) and
 * one pread() at offset 0 per eval (which re-runs it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "../../lib/die.h"
#include "../../lib/registry.h"

#define KNOBS		"/sys/kernel/debug/bpf_bench/"
#define MAXINSNS	4096
#define FRAME_MAX	1514
#define MAX_ENGINES	16
/* fuzz: frames per program (fewer programs built and freed) */
#define FUZZ_PACKETS	8

/* Classic BPF, as in linux/filter.h. */
#define BPF_LD		0x00
#define BPF_LDX		0x01
#define BPF_ST		0x02
#define BPF_STX		0x03
#define BPF_ALU		0x04
#define BPF_JMP		0x05
#define BPF_RET		0x06
#define BPF_MISC	0x07
#define BPF_W		0x00
#define BPF_H		0x08
#define BPF_B		0x10
#define BPF_IMM		0x00
#define BPF_ABS		0x20
#define BPF_IND		0x40
#define BPF_MEM		0x60
#define BPF_LEN		0x80
#define BPF_MSH		0xa0
#define BPF_ADD		0x00
#define BPF_SUB		0x10
#define BPF_MUL		0x20
#define BPF_DIV		0x30
#define BPF_OR		0x40
#define BPF_AND		0x50
#define BPF_LSH		0x60
#define BPF_RSH		0x70
#define BPF_NEG		0x80
#define BPF_MOD		0x90
#define BPF_XOR		0xa0
#define BPF_JA		0x00
#define BPF_JEQ		0x10
#define BPF_JGT		0x20
#define BPF_JGE		0x30
#define BPF_JSET	0x40
#define BPF_K		0x00
#define BPF_X		0x08
#define BPF_A		0x10
#define BPF_TAX		0x00
#define BPF_TXA		0x80

#define SKF_AD_OFF	(-0x1000)
#define SKF_NET_OFF	(-0x100000)
#define SKF_LL_OFF	(-0x200000)
#define AD(x)		((uint32_t)SKF_AD_OFF + (x))
enum {
	AD_PROTOCOL = 0, AD_PKTTYPE = 4, AD_IFINDEX = 8, AD_NLATTR = 12,
	AD_NLATTR_NEST = 16, AD_MARK = 20, AD_QUEUE = 24, AD_HATYPE = 28,
	AD_RXHASH = 32, AD_CPU = 36, AD_ALU_XOR_X = 40, AD_VLAN_TAG = 44,
	AD_VLAN_TAG_PRESENT = 48, AD_PAY_OFFSET = 52, AD_RANDOM = 56,
	AD_VLAN_TPID = 60,
};

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct prog {
	char name[64];
	struct insn *insns;
	unsigned int len;
};

struct packet {
	char name[64];
	uint8_t *b;
	unsigned int len;
};

/* The documented differences the model can tell apart (doc row numbers). */
enum {
	D1_SHIFT_K = 1 << 0,	/* #1/#2 lsh/rsh #k >= 32: 6.1 checker rejects */
	D3_RANDOM = 1 << 1,	/* #3 ld rand: 3.14 checker rejects */
	D4_VLAN_TPID = 1 << 2,	/* #4 ld vlanp: 3.14 checker rejects */
	D6_IFINDEX = 1 << 3,	/* #6 ifindex, no device */
	D7_HATYPE = 1 << 4,	/* #7 hatype, no device */
	D8_NLA_NONLIN = 1 << 5,	/* #8 nlattr on a non-linear skb */
	D9_NLA_BOUNDS = 1 << 6,	/* #9 nlattr offset past the end */
	D10_NLA_NEST = 1 << 7,	/* #10 nest longer than the packet */
	D13_NEG_PAGED = 1 << 8,	/* #13 SKF_NET/LL_OFF load beyond headlen */
	D17_XSHIFT = 1 << 9,	/* #17 lsh/rsh x, x & 0xff >= 32, on a JIT that
				 * counts the low byte (arm) */
	D_NR = 10,
};
static const char *const dname[D_NR] = {
	"#1", "#3", "#4", "#6", "#7", "#8", "#9", "#10", "#13", "#17",
};

/* A value of an engine: a u32 return value or a negative errno. */
struct val {
	int err;		/* 0 or -errno (checker rejected) */
	uint32_t ret;
	int unknown;		/* model only: not predictable (cpu, rand...) */
};

static int fd_prog = -1, fd_packet = -1, fd_headlen = -1, fd_eval = -1;
static FILE *outf;
static int quiet_disagree;	/* print at most this many details */
static int out_all_linear;	/* OUT gets every headlen 0 pair, not only the
				 * ones that are not "agree" */

static struct {
	unsigned long long pairs, agree, documented, unexplained, progs;
	unsigned long long rejected_all, doc_rows[D_NR];
} st;

const char die_prog[] = "bpfdiff";	/* die()'s prefix (lib/die.h) */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* --- random numbers (splitmix64: fixed, portable) ---------------------- */

static uint64_t rng;

static uint32_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint32_t rndn(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* --- the model: checkers ------------------------------------------------ */

/*
 * OLD: 3.14, NEW: 6.1; NEW2014 (semantics only): 6.1, except that packet
 * loads at negative offsets read the linear area only, as v3.15's
 * load_pointer() did (engine new2014).
 */
enum { OLD, NEW, NEW2014 };

/*
 * Or'ed into a semantics: shifts by X count the low byte of X, as ARM's
 * LSL/LSR by register do (32..255 shift every bit out), instead of X & 31
 * (x86, and the interpreters).  An engine has it on a flavour whose
 * registry record says "xshift.FLAVOUR byte" (the 6.1 arm32 JIT, doc #17).
 */
#define XSHIFT_BYTE 0x100

static int code_ok(unsigned int c)
{
	switch (c) {
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND: case BPF_LD | BPF_B | BPF_IND:
	case BPF_LD | BPF_W | BPF_LEN: case BPF_LD | BPF_IMM:
	case BPF_LD | BPF_MEM: case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_B | BPF_MSH: case BPF_LDX | BPF_IMM:
	case BPF_LDX | BPF_MEM: case BPF_ST: case BPF_STX:
	case BPF_ALU | BPF_NEG:
	case BPF_JMP | BPF_JA:
	case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
	case BPF_RET | BPF_K: case BPF_RET | BPF_A:
		return 1;
	}
	if ((c & 0x07) == BPF_ALU && (c & ~0xf8u) == BPF_ALU) {
		switch (c & 0xf0) {
		case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_DIV:
		case BPF_OR: case BPF_AND: case BPF_LSH: case BPF_RSH:
		case BPF_MOD: case BPF_XOR:
			return 1;
		}
	}
	if ((c & 0x07) == BPF_JMP && (c & ~0xf8u) == BPF_JMP) {
		switch (c & 0xf0) {
		case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET:
			return 1;
		}
	}
	return 0;
}

static int is_cond_jump(unsigned int c)
{
	return (c & 0x07) == BPF_JMP && (c & 0xf0) != BPF_JA;
}

static int anc_ok(uint32_t anc, int mode, unsigned int *flags)
{
	if (anc & 3)
		return 0;
	if (anc <= AD_PAY_OFFSET)
		return 1;
	if (anc == AD_RANDOM) {
		*flags |= D3_RANDOM;
		return mode == NEW;
	}
	if (anc == AD_VLAN_TPID) {
		*flags |= D4_VLAN_TPID;
		return mode == NEW;
	}
	return 0;
}

/* sk_chk_filter() (OLD) or bpf_check_classic() (NEW): 0 or -EINVAL. */
static int check(const struct insn *f, unsigned int n, int mode,
		 unsigned int *flags)
{
	uint16_t masks[MAXINSNS], valid = 0;
	unsigned int pc;

	if (n == 0 || n > MAXINSNS)
		return -EINVAL;
	for (pc = 0; pc < n; pc++) {
		unsigned int c = f[pc].code;
		uint32_t k = f[pc].k;

		if (c > 0xff || !code_ok(c))
			return -EINVAL;
		if ((c == (BPF_ALU | BPF_DIV | BPF_K) ||
		     c == (BPF_ALU | BPF_MOD | BPF_K)) && k == 0)
			return -EINVAL;
		if (c == (BPF_ALU | BPF_LSH | BPF_K) ||
		    c == (BPF_ALU | BPF_RSH | BPF_K)) {
			if (k >= 32) {
				*flags |= D1_SHIFT_K;
				if (mode == NEW)
					return -EINVAL;
			}
		}
		if ((c == (BPF_LD | BPF_MEM) || c == (BPF_LDX | BPF_MEM) ||
		     c == BPF_ST || c == BPF_STX) && k >= 16)
			return -EINVAL;
		if (c == (BPF_JMP | BPF_JA) && k >= n - pc - 1)
			return -EINVAL;
		if (is_cond_jump(c) &&
		    (pc + 1 + f[pc].jt >= n || pc + 1 + f[pc].jf >= n))
			return -EINVAL;
		if ((c & 0xe7) == (BPF_LD | BPF_ABS) &&
		    k >= (uint32_t)SKF_AD_OFF &&
		    !anc_ok(k - (uint32_t)SKF_AD_OFF, mode, flags))
			return -EINVAL;
	}
	if (f[n - 1].code != (BPF_RET | BPF_K) &&
	    f[n - 1].code != (BPF_RET | BPF_A))
		return -EINVAL;

	/* Scratch cells read only after a write on every path. */
	memset(masks, 0xff, n * sizeof(masks[0]));
	for (pc = 0; pc < n; pc++) {
		unsigned int c = f[pc].code;

		valid &= masks[pc];
		if (c == BPF_ST || c == BPF_STX) {
			valid |= 1u << f[pc].k;
		} else if (c == (BPF_LD | BPF_MEM) || c == (BPF_LDX | BPF_MEM)) {
			if (!(valid & (1u << f[pc].k)))
				return -EINVAL;
		} else if (c == (BPF_JMP | BPF_JA)) {
			masks[pc + 1 + f[pc].k] &= valid;
			valid = 0xffff;
		} else if (is_cond_jump(c)) {
			masks[pc + 1 + f[pc].jt] &= valid;
			masks[pc + 1 + f[pc].jf] &= valid;
			valid = 0xffff;
		}
	}
	return 0;
}

/* --- the model: interpreters --------------------------------------------- */

/* The skb bpf_bench builds: data at the Ethernet header, network header at
 * 14, mac header at 0, no device, no VLAN tag, mark/queue/hash 0. */
struct skb {
	const uint8_t *d;
	uint32_t len, lin;
	uint32_t proto;
};

/* 0 and *v, or -1: the load fails (the program ends with 0). */
static int load(const struct skb *s, int32_t off, unsigned int size,
		int mode, uint32_t *v, unsigned int *flags)
{
	int64_t o;
	unsigned int i;

	if (off >= 0) {
		o = off;
	} else if (off >= SKF_NET_OFF) {
		o = (int64_t)off - SKF_NET_OFF + 14;
	} else if (off >= SKF_LL_OFF) {
		o = (int64_t)off - SKF_LL_OFF;
	} else {
		return -1;
	}
	if (o + size > s->len)
		return -1;
	/* 3.14 reads SKF_NET_OFF/SKF_LL_OFF only in the linear area. */
	if (off < 0 && o + size > s->lin) {
		*flags |= D13_NEG_PAGED;
		if (mode != NEW)
			return -1;
	}
	*v = 0;
	for (i = 0; i < size; i++)
		*v = *v << 8 | s->d[o + i];
	return 0;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* nla_find() over [start, start + len): offset found or 0. */
static uint32_t nla_find(const struct skb *s, uint32_t start, int64_t len,
			 uint32_t type)
{
	while (len >= 4) {
		uint16_t l = le16(s->d + start), t = le16(s->d + start + 2);

		if (l < 4 || l > len)
			break;
		if ((t & 0x3fff) == type)
			return start;
		len -= (l + 3) & ~3u;
		start += (l + 3) & ~3u;
	}
	return 0;
}

/* SKF_AD_NLATTR(_NEST): 0 and *a, or -1 (3.14: the program ends). */
static int nlattr(const struct skb *s, uint32_t *a, uint32_t x, int nest,
		  int mode, unsigned int *flags)
{
	unsigned int bit = 0;

	if (s->lin < s->len)
		bit = D8_NLA_NONLIN;
	else if (s->len < 4 || *a > s->len - 4)
		bit = D9_NLA_BOUNDS;
	else if (nest && le16(s->d + *a) > s->len - *a)
		bit = D10_NLA_NEST;
	if (bit) {
		*flags |= bit;
		*a = 0;
		return mode == OLD ? -1 : 0;
	}
	if (nest)
		*a = nla_find(s, *a + 4, (int64_t)le16(s->d + *a) - 4, x);
	else
		*a = nla_find(s, *a, (int64_t)s->len - *a, x);
	return 0;
}

/*
 * What the model does not know: the value of cpu, pay_offset and random
 * loads.  run() tracks which of A, X and M[] hold such a value (a taint
 * bit each): a result is VALUE_UNKNOWN only if a tainted A is returned,
 * and PATH_UNKNOWN if a tainted value decides a jump, a load offset, a
 * divisor or an nlattr search (the run after that point is not
 * predicted).  A tainted value that is overwritten before it is used
 * changes nothing.
 */
enum { KNOWN, VALUE_UNKNOWN, PATH_UNKNOWN };

/*
 * lsh/rsh by  (K, or X when  says so): the count masked to 5 bits,
 * or with  a register count's low byte (0 past 31).  A count the two
 * disagree on is flagged #17 (when X is known:  0).
 */
static uint32_t shift(uint32_t a, uint32_t src, unsigned int code, int xbyte,
		      unsigned int tainted, unsigned int *flags)
{
	unsigned int n = src & 31;

	if (code & BPF_X) {
		if (!tainted && (src & 0xff) >= 32)
			*flags |= D17_XSHIFT;
		if (xbyte) {
			n = src & 0xff;
			if (n >= 32)
				return 0;
		}
	}
	return (code & 0xf0) == BPF_LSH ? a << n : a >> n;
}

/*
 * An ld or ldx of mode IMM, MEM or LEN: its value into *@r, its taint
 * into *@t (a scratch word's, @tm bit @k), returns 1; 0 for the other
 * modes.
 */
static int load_reg(unsigned int code, uint32_t k, const struct skb *s,
		    const uint32_t *M, unsigned int tm, uint32_t *r, unsigned int *t)
{
	switch (code & 0xe0) {
	case BPF_IMM:
		*r = k;
		*t = 0;
		return 1;
	case BPF_MEM:
		*r = M[k];
		*t = tm >> k & 1;
		return 1;
	case BPF_LEN:
		*r = s->len;
		*t = 0;
		return 1;
	}
	return 0;
}

/* Run a checked program; *unknown as above. */
static uint32_t run(const struct insn *f, const struct skb *s, int mode,
		    unsigned int *flags, int *unknown)
{
	uint32_t A = 0, X = 0, M[16] = { 0 }, v;
	unsigned int pc = 0, size, ta = 0, tx = 0, tm = 0, ts;
	int xbyte = mode & XSHIFT_BYTE;

	mode &= ~XSHIFT_BYTE;

	for (;; pc++) {
		const struct insn *i = &f[pc];
		uint32_t k = i->k, src = (i->code & BPF_X) ? X : k;
		int32_t off;

		ts = (i->code & BPF_X) ? tx : 0;
		switch (i->code & 0x07) {
		case BPF_LD:
			size = (i->code & 0x18) == BPF_W ? 4 :
			       (i->code & 0x18) == BPF_H ? 2 : 1;
			if (load_reg(i->code, k, s, M, tm, &A, &ta))
				continue;
			switch (i->code & 0xe0) {
			case BPF_ABS:
				if (k >= (uint32_t)SKF_AD_OFF)
					goto anc;
				off = (int32_t)k;
				break;
			default: /* IND */
				if (tx)
					goto lost;
				off = (int32_t)(X + k);
				break;
			}
			if (load(s, off, size, mode, &A, flags))
				return 0;
			ta = 0;
			continue;
		case BPF_LDX:
			if (load_reg(i->code, k, s, M, tm, &X, &tx))
				continue;
			/* MSH */
			if (load(s, (int32_t)k, 1, mode, &v, flags))
				return 0;
			X = (v & 0xf) << 2;
			tx = 0;
			continue;
		case BPF_ST:
			M[k] = A;
			tm = (tm & ~(1u << k)) | ta << k;
			continue;
		case BPF_STX:
			M[k] = X;
			tm = (tm & ~(1u << k)) | tx << k;
			continue;
		case BPF_ALU:
			switch (i->code & 0xf0) {
			case BPF_ADD: A += src; break;
			case BPF_SUB: A -= src; break;
			case BPF_MUL: A *= src; break;
			case BPF_DIV:
			case BPF_MOD:
				/* by 0 ends the program with 0 */
				if (ts)
					goto lost;
				if (!src)
					return 0;
				A = (i->code & 0xf0) == BPF_DIV ? A / src : A % src;
				break;
			case BPF_OR: A |= src; break;
			case BPF_AND: A &= src; break;
			case BPF_XOR: A ^= src; break;
			case BPF_LSH:
			case BPF_RSH:
				A = shift(A, src, i->code, xbyte, ts, flags);
				break;
			default: A = -A; break;
			}
			ta |= ts;
			continue;
		case BPF_JMP:
			switch (i->code & 0xf0) {
			case BPF_JA:
				pc += k;
				continue;
			case BPF_JEQ: v = A == src; break;
			case BPF_JGT: v = A > src; break;
			case BPF_JGE: v = A >= src; break;
			default: v = (A & src) != 0; break;
			}
			if ((ta || ts) && i->jt != i->jf)
				goto lost;
			pc += v ? i->jt : i->jf;
			continue;
		case BPF_RET:
			if ((i->code & 0x18) != BPF_A)
				return k;
			if (ta)
				*unknown = VALUE_UNKNOWN;
			return A;
		default: /* MISC */
			if (i->code & BPF_TXA) {
				A = X;
				ta = tx;
			} else {
				X = A;
				tx = ta;
			}
			continue;
		}
anc:
		switch (k - (uint32_t)SKF_AD_OFF) {
		case AD_PROTOCOL:
			A = s->proto;
			break;
		case AD_PKTTYPE: case AD_MARK: case AD_QUEUE: case AD_RXHASH:
		case AD_VLAN_TAG: case AD_VLAN_TAG_PRESENT: case AD_VLAN_TPID:
			A = 0;
			break;
		case AD_IFINDEX: case AD_HATYPE:
			/* no device: 3.14 ends with 0, 6.1 ends with A */
			*flags |= k == AD(AD_IFINDEX) ? D6_IFINDEX : D7_HATYPE;
			if (mode == OLD)
				return 0;
			if (ta)
				*unknown = VALUE_UNKNOWN;
			return A;
		case AD_NLATTR: case AD_NLATTR_NEST:
			/* on a non-linear skb neither A nor X matters */
			if ((ta || tx) && s->lin == s->len)
				goto lost;
			if (nlattr(s, &A, X, k == AD(AD_NLATTR_NEST), mode,
				   flags))
				return 0;
			break;
		case AD_ALU_XOR_X:
			A ^= X;
			ta |= tx;
			continue;
		default: /* cpu, pay_offset, random */
			A = 0;
			ta = 1;
			continue;
		}
		ta = 0;
	}
lost:
	*unknown = PATH_UNKNOWN;
	return 0;
}

/* What an engine of @mode must show for @p on @s. */
static struct val model(const struct prog *p, const struct skb *s, int mode,
			unsigned int *flags)
{
	struct val v = { 0, 0, 0 };

	v.err = check(p->insns, p->len, mode, flags);
	if (!v.err)
		v.ret = run(p->insns, s, mode, flags, &v.unknown);
	return v;
}


/* An engine that checks as @checker and runs as @semantics would show. */
static struct val model2(const struct prog *p, const struct skb *s,
			 int checker, int semantics, unsigned int *flags)
{
	struct val v = { 0, 0, 0 };

	v.err = check(p->insns, p->len, checker, flags);
	if (!v.err)
		v.ret = run(p->insns, s, semantics, flags, &v.unknown);
	return v;
}

/*
 * The documented differences where old ends with 0 and new goes on that
 * @p could hit on @s, by its instructions alone: what may explain old and
 * new differing after the model lost the path (PATH_UNKNOWN).
 */
static unsigned int lost_rows(const struct prog *p, const struct skb *s)
{
	unsigned int pc, rows = 0, paged = s->lin < s->len;

	for (pc = 0; pc < p->len; pc++) {
		unsigned int c = p->insns[pc].code;
		uint32_t k = p->insns[pc].k;

		if ((c & 0xe7) == (BPF_LD | BPF_ABS) && k >= (uint32_t)SKF_AD_OFF) {
			k -= (uint32_t)SKF_AD_OFF;
			if (k == AD_IFINDEX)
				rows |= D6_IFINDEX;
			else if (k == AD_HATYPE)
				rows |= D7_HATYPE;
			else if (k == AD_NLATTR || k == AD_NLATTR_NEST)
				rows |= paged ? D8_NLA_NONLIN :
					D9_NLA_BOUNDS | (k == AD_NLATTR ? 0 :
							 D10_NLA_NEST);
		} else if (paged && ((c & 0xe7) == (BPF_LD | BPF_IND) ||
				     ((c & 0xe7) == (BPF_LD | BPF_ABS) &&
				      k >= (uint32_t)SKF_LL_OFF) ||
				     (c == (BPF_LDX | BPF_B | BPF_MSH) &&
				      k >= (uint32_t)SKF_LL_OFF))) {
			rows |= D13_NEG_PAGED;
		}
	}
	return rows;
}

/* --- the kernel side ---------------------------------------------------- */

/* The knobs are seq_files, which refuse pwrite(): seek, then write. */
static int knob_write(int fd, const char *buf, size_t n)
{
	ssize_t w;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -errno;
	w = write(fd, buf, n);

	if (w == (ssize_t)n)
		return 0;
	return w < 0 ? -errno : -EIO;
}

static char progbuf[MAXINSNS * 40 + 1];

static int set_prog(const struct prog *p)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < p->len; i++)
		n += (size_t)snprintf(progbuf + n, sizeof(progbuf) - n,
				      "{ 0x%x, %u, %u, 0x%08x },\n",
				      p->insns[i].code, p->insns[i].jt,
				      p->insns[i].jf, p->insns[i].k);
	return knob_write(fd_prog, progbuf, n);
}

static int set_packet(const struct packet *pk)
{
	static char buf[FRAME_MAX * 2 + 1];
	unsigned int i;

	for (i = 0; i < pk->len; i++)
		snprintf(buf + 2 * i, 3, "%02x", pk->b[i]);
	return knob_write(fd_packet, buf, 2 * pk->len);
}

static int set_headlen(unsigned int h)
{
	char buf[16];

	return knob_write(fd_headlen, buf,
			  (size_t)snprintf(buf, sizeof(buf), "%u", h));
}

/*
 * The engines eval prints, in its order, each with the classic checker and
 * the runtime semantics it runs, from the registry (bench/engines.conf, in
 * the guest /bench/engines.conf): OLD for 3.14, NEW for 6.1.  An engine the
 * registry does not know is taken for a 6.1 one (checked, not dropped).
 */
struct engine {
	char name[32];
	int checker, semantics;
	int quirks;		/* XSHIFT_BYTE on this flavour, or 0 */
};

static struct engine engines[MAX_ENGINES];
static int nengines;

/*
 * What an engine does otherwise on the guest's flavour (BENCH_FLAVOUR, from
 * the kernel command line): "xshift.FLAVOUR byte" in its record.
 */
static int quirks(const struct reg_rec *rec)
{
	const char *fl = getenv("BENCH_FLAVOUR");
	char key[64];

	if (!rec || !fl)
		return 0;
	snprintf(key, sizeof(key), "xshift.%s", fl);
	return strcmp(reg_get_or(rec, key, "mod32"), "byte") ? 0 : XSHIFT_BYTE;
}

static int version_mode(const struct reg_rec *rec, const char *key)
{
	const char *v = reg_get_or(rec, key, "6.1");

	if (!strcmp(v, "3.14"))
		return OLD;
	return strcmp(v, "2014") ? NEW : NEW2014;
}

static int engine_index(const char *name)
{
	const struct reg_rec *rec;
	int e;

	for (e = 0; e < nengines; e++)
		if (!strcmp(engines[e].name, name))
			return e;
	if (nengines == MAX_ENGINES || strlen(name) >= sizeof(engines[0].name))
		die("eval printed more than %d engines, or a long name: '%s'",
		    MAX_ENGINES, name);
	rec = reg_find(reg_engines(), name, 0);
	snprintf(engines[nengines].name, sizeof(engines[0].name), "%s", name);
	engines[nengines].checker = version_mode(rec, "checker");
	engines[nengines].semantics = version_mode(rec, "semantics");
	engines[nengines].quirks = quirks(rec);
	return nengines++;
}

/* The first engine that runs like @mode checks and runs (-1: none). */
static int reference_engine(int mode)
{
	int e;

	for (e = 0; e < nengines; e++)
		if (engines[e].checker == mode && engines[e].semantics == mode)
			return e;
	return -1;
}

/* Read eval: each engine's value, indexed as engines[]. */
static int eval(struct val v[MAX_ENGINES], char *line, size_t size)
{
	ssize_t n = pread(fd_eval, line, size - 1, 0);
	char *p, *save = NULL;
	int e;

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	line[n] = '\0';
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	memset(v, 0, MAX_ENGINES * sizeof(*v));
	{
		static char copy[1024];

		snprintf(copy, sizeof(copy), "%s", line);
		for (p = strtok_r(copy, " ", &save); p;
		     p = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(p, '=');
			long long x;

			if (!eq)
				die("eval printed '%s'", line);
			*eq = '\0';
			e = engine_index(p);
			x = strtoll(eq + 1, NULL, 10);
			if (x < 0)
				v[e].err = (int)x;
			else
				v[e].ret = (uint32_t)x;
		}
	}
	return 0;
}

static int same(const struct val *a, const struct val *b)
{
	return a->err == b->err && (a->err || a->ret == b->ret);
}

static void fmt_val(char *buf, size_t n, const struct val *v)
{
	if (v->err)
		snprintf(buf, n, "%d", v->err);
	else if (v->unknown)
		snprintf(buf, n, "?");
	else
		snprintf(buf, n, "%u", v->ret);
}

/*
 * What replays one pair: the program, the frame in hex and the headlen,
 * and the bpfdiff command that runs it again (in the guest, or as a line
 * of a cases file: filters/diff/README.md).
 */
static void report_case(const struct prog *p, const struct packet *pk,
			unsigned int headlen)
{
	unsigned int i;

	printf("  program:\n");
	for (i = 0; i < p->len; i++)
		printf("  { 0x%x, %u, %u, 0x%08x },\n", p->insns[i].code,
		       p->insns[i].jt, p->insns[i].jf, p->insns[i].k);
	printf("  packet %s (%u bytes), headlen %u: ", pk->name, pk->len,
	       headlen);
	for (i = 0; i < pk->len; i++)
		printf("%02x", pk->b[i]);
	printf("\n  replay: /bench/bpfdiff replay %u ", headlen);
	for (i = 0; i < pk->len; i++)
		printf("%02x", pk->b[i]);
	printf(" '");
	for (i = 0; i < p->len; i++)
		printf("%s{0x%x,%u,%u,0x%x}", i ? "," : "", p->insns[i].code,
		       p->insns[i].jt, p->insns[i].jf, p->insns[i].k);
	printf("'\n");
}

/* The documented rows (D*) and the eval line classify() saw last. */
static unsigned int last_flags;
static char last_line[1024];

/* Compare one pair; returns 0 agree, 1 documented, 2 unexplained. */
static int classify(const struct prog *p, const struct packet *pk,
		    unsigned int headlen, const struct val kv[MAX_ENGINES],
		    const char *line)
{
	struct skb s = { pk->b, pk->len, pk->len, 0 };
	static char whybuf[96];
	unsigned int fo = 0, fn = 0, fq = 0, f;
	struct val mo, mn, vo, vn;
	const char *why = NULL;
	int cls, e, d, ro, rn;
	char a[16], b[16];

	if (headlen && headlen < pk->len)
		s.lin = headlen;
	s.proto = (uint32_t)pk->b[12] << 8 | pk->b[13];
	if (s.proto < 0x600)
		s.proto = 0x0004;	/* ETH_P_802_2 */
	mo = model(p, &s, OLD, &fo);
	mn = model(p, &s, NEW, &fn);
	/* #17 counts only where an engine showed it (fq, below) */
	f = (fo | fn) & ~D17_XSHIFT;
	ro = reference_engine(OLD);
	rn = reference_engine(NEW);
	vo = ro >= 0 ? kv[ro] : mo;
	vn = rn >= 0 ? kv[rn] : mn;

	/*
	 * Engines that check and run like the first one of their version
	 * (new and jit: the same converted program) agree with it; one that
	 * mixes versions is held to the model of its checker and semantics.
	 */
	for (e = 0; e < nengines && !why; e++) {
		int r = engines[e].checker == engines[e].semantics ?
			reference_engine(engines[e].checker) : -1;

		/* random: every engine draws its own number */
		if (r >= 0 && r != e && engines[e].quirks &&
		    !same(&kv[r], &kv[e])) {
			/* its own way (doc #17): as modelled with it */
			unsigned int fm = 0;
			struct val m = model2(p, &s, engines[e].checker,
					      engines[e].semantics |
					      engines[e].quirks, &fm);

			if (!m.unknown && same(&kv[e], &m) &&
			    (fm & D17_XSHIFT)) {
				fq |= D17_XSHIFT;
				continue;
			}
		}
		if (r >= 0 && r != e && !same(&kv[r], &kv[e]) &&
		    !(mn.unknown && (f & D3_RANDOM) && kv[r].err == kv[e].err)) {
			snprintf(whybuf, sizeof(whybuf), "%s and %s differ",
				 engines[r].name, engines[e].name);
			why = whybuf;
		} else if (r < 0) {
			unsigned int fm = 0;
			struct val m = model2(p, &s, engines[e].checker,
					      engines[e].semantics, &fm);

			if (m.unknown ? kv[e].err != m.err : !same(&kv[e], &m)) {
				snprintf(whybuf, sizeof(whybuf), "%s not as modelled",
					 engines[e].name);
				why = whybuf;
			}
		}
	}
	if (why) {
		/* an engine differs from its kind */
	} else if (mo.unknown || mn.unknown) {
		/*
		 * A value the model does not know (cpu, pay_offset; random,
		 * where new and jit draw different numbers): a side the model
		 * knows must be as modelled; if both are unknown, old and new
		 * ran the same path on the same values and agree, unless the
		 * path was lost and old ended with 0 where a documented
		 * difference may have ended it (lost_rows()).
		 */
		if (vo.err != mo.err || vn.err != mn.err) {
			why = "checker result not as modelled";
		} else if ((!mo.unknown && !same(&vo, &mo)) ||
			   (!mn.unknown && !same(&vn, &mn))) {
			why = "not as modelled";
		} else if (mo.unknown && mn.unknown && !(f & D3_RANDOM) &&
			 !same(&vo, &vn)) {
			unsigned int g = lost_rows(p, &s);

			if ((mo.unknown == PATH_UNKNOWN ||
			     mn.unknown == PATH_UNKNOWN) && !vo.err &&
			    !vo.ret && g)
				f |= g;
			else
				why = "old and new differ on an unmodelled load";
		}
	} else if (!same(&vo, &mo) || !same(&vn, &mn)) {
		why = "not as modelled";
	}
	f |= fq;
	if (why)
		cls = 2;
	else if (same(&vo, &vn) && !(f & D3_RANDOM) && !fq)
		cls = 0;
	else
		cls = 1;

	st.pairs++;
	if (cls == 0) {
		st.agree++;
	} else if (cls == 1) {
		st.documented++;
		for (d = 0; d < D_NR; d++)
			if (f & (1u << d))
				st.doc_rows[d]++;
	} else {
		st.unexplained++;
	}
	if (outf && (cls || (out_all_linear && !headlen))) {
		fprintf(outf, "%s %s %u %s", p->name, pk->name, headlen, line);
		if (cls == 1) {
			const char *sep = " doc:";

			for (d = 0; d < D_NR; d++) {
				if (f & (1u << d)) {
					fprintf(outf, "%s%s", sep, dname[d]);
					sep = ",";
				}
			}
		}
		fputs(cls == 2 ? " UNEXPLAINED\n" : "\n", outf);
	}
	if (cls == 2 && quiet_disagree-- > 0) {
		fmt_val(a, sizeof(a), &mo);
		fmt_val(b, sizeof(b), &mn);
		printf("UNEXPLAINED: %s on %s headlen %u: %s; got '%s', model old=%s new=%s\n",
		       p->name, pk->name, headlen, why, line, a, b);
		report_case(p, pk, headlen);
	}
	last_flags = f;
	snprintf(last_line, sizeof(last_line), "%s", line);
	return cls;
}

/* A program rejected by every engine: the prog write must fail. */
static void rejected(const struct prog *p, int err)
{
	unsigned int fo = 0, fn = 0;
	int mo = check(p->insns, p->len, OLD, &fo);
	int mn = check(p->insns, p->len, NEW, &fn);

	st.rejected_all++;
	if (outf)
		fprintf(outf, "%s - - prog=%d\n", p->name, err);
	if (err != -EINVAL || !mo || !mn) {
		st.unexplained++;
		if (quiet_disagree-- > 0)
			printf("UNEXPLAINED: %s: prog write failed %d, model old=%d new=%d\n",
			       p->name, err, mo, mn);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Sleep until the kernel's deferred work is done (see one_program()): until
 * a 1 ms sleep is about as short as the shortest one seen (timer slack and
 * HZ differ between guests), at most 10000 times.
 */
static void drain(void)
{
	static double best = 1.0;
	struct timespec ms = { 0, 1000000 };
	double t;
	int i;

	for (i = 0; i < 10000; i++) {
		t = now();
		nanosleep(&ms, NULL);
		t = now() - t;
		if (t < best)
			best = t;
		if (t < 2 * best + 0.001)
			return;
	}
}

static int headlens[16];
static unsigned int nheadlens;

static void one_program(const struct prog *p, const struct packet *pk,
			unsigned int npk)
{
	struct val kv[MAX_ENGINES];
	char line[1024];
	unsigned int i, h, fo = 0, fn = 0;
	int err;

	st.progs++;
	/*
	 * Every prog write frees the previous programs through bpf_prog_free(),
	 * which defers to a workqueue.  On one CPU without preemption (UML)
	 * the kworker only runs when we sleep, and under UML each free of an
	 * interpreted program is slow (VM_FLUSH_RESET_PERMS: a TLB flush
	 * walking a large kernel range page by page, one host syscall per
	 * page).  Let the backlog drain: sleep until a 1 ms sleep takes about
	 * 1 ms, i.e. nothing else wanted the CPU.  Otherwise the frees pile up
	 * and grind on long after we stopped (or exhaust vm.max_map_count).
	 */
	if (!(st.progs % 8))
		drain();
	err = set_prog(p);
	if (err) {
		rejected(p, err);
		return;
	}
	if (check(p->insns, p->len, OLD, &fo) &&
	    check(p->insns, p->len, NEW, &fn)) {
		/* accepted although the model says both reject */
		st.unexplained++;
		if (quiet_disagree-- > 0)
			printf("UNEXPLAINED: %s: accepted, the model says every checker rejects it\n",
			       p->name);
		return;
	}
	for (i = 0; i < npk; i++) {
		if (set_packet(&pk[i]))
			die("writing packet %s failed", pk[i].name);
		for (h = 0; h < nheadlens; h++) {
			unsigned int hl = (unsigned int)headlens[h];

			if (hl && hl >= pk[i].len)
				continue;
			if (set_headlen(hl))
				die("writing headlen %u failed", hl);
			err = eval(kv, line, sizeof(line));
			if (err)
				die("reading eval failed: %s", strerror(-err));
			classify(p, &pk[i], hl, kv, line);
		}
	}
}

/* --- corpus files ---------------------------------------------------------- */

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 20, n = 0, r;
	char *buf;

	if (!f)
		die("%s: %s", path, strerror(errno));
	buf = xmalloc(cap + 1);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			buf = realloc(buf, (cap *= 2) + 1);
			if (!buf)
				die("out of memory");
		}
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static struct prog *read_progs(const char *path, unsigned int *count)
{
	char *text = read_file(path), *line, *save = NULL;
	struct prog *v = NULL;
	unsigned int n = 0, lineno = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct prog *p;
		unsigned int c, jt, jf, k;

		lineno++;
		if (line[0] == '#') {
			v = realloc(v, (n + 1) * sizeof(*v));
			if (!v)
				die("out of memory");
			p = &v[n++];
			snprintf(p->name, sizeof(p->name), "t%03u", n);
			p->insns = xmalloc(MAXINSNS * sizeof(*p->insns));
			p->len = 0;
			continue;
		}
		if (!n || sscanf(line, "{ 0x%x, %u, %u, 0x%x },", &c, &jt, &jf,
				 &k) != 4)
			die("%s: line %u: expected '# expr' or a -dd line",
			    path, lineno);
		p = &v[n - 1];
		if (p->len == MAXINSNS)
			die("%s: program too long", path);
		p->insns[p->len].code = (uint16_t)c;
		p->insns[p->len].jt = (uint8_t)jt;
		p->insns[p->len].jf = (uint8_t)jf;
		p->insns[p->len].k = k;
		p->len++;
	}
	free(text);
	*count = n;
	return v;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* @hex (FRAME_MAX bytes at most, 14 at least) into @pk; -1 if it is not. */
static int parse_frame(struct packet *pk, const char *name, const char *hex)
{
	size_t i, len = strlen(hex);

	if (len % 2 || len < 28 || len > 2 * FRAME_MAX)
		return -1;
	snprintf(pk->name, sizeof(pk->name), "%s", name);
	pk->len = (unsigned int)(len / 2);
	pk->b = xmalloc(pk->len);
	for (i = 0; i < pk->len; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		pk->b[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static struct packet *read_packets(const char *path, unsigned int *count)
{
	char *text = read_file(path), *line, *save = NULL;
	struct packet *v = NULL;
	unsigned int n = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *hex = strchr(line, ' ');
		struct packet *pk;

		if (line[0] == '#')
			continue;
		if (!hex)
			die("%s: '%.20s': expected '<name> <hex>'", path, line);
		*hex++ = '\0';
		v = realloc(v, (n + 1) * sizeof(*v));
		if (!v)
			die("out of memory");
		pk = &v[n++];
		if (parse_frame(pk, line, hex))
			die("%s: %s: not 14..%d bytes in hex", path, line,
			    FRAME_MAX);
	}
	free(text);
	*count = n;
	return v;
}

/* --- the program generator ------------------------------------------------ */

static const uint32_t interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 12, 14, 15, 16, 20, 23, 31, 32, 33, 54, 63, 64,
	100, 255, 256, 0x600, 0x800, 0x86dd, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0x80000001, 0xfffffff0, 0xfffffffe, 0xffffffff,
};
#define NINTERESTING (sizeof(interesting) / sizeof(interesting[0]))

static uint32_t rnd_val(void)
{
	return rndn(3) ? interesting[rndn(NINTERESTING)] : rnd();
}

static uint32_t rnd_abs_off(void)
{
	uint32_t k;

	switch (rndn(16)) {
	case 0:
		return (uint32_t)SKF_NET_OFF + rndn(80);
	case 1:
		return (uint32_t)SKF_LL_OFF + rndn(80);
	case 2:
		return rndn(1600);
	case 3:
		k = interesting[rndn(NINTERESTING)];
		/* not an ancillary load: those come from gen_anc[] */
		return k >= (uint32_t)SKF_AD_OFF ? k - 0x1000 : k;
	default:
		return rndn(90);
	}
}

static const uint32_t gen_anc[] = {
	AD_IFINDEX, AD_HATYPE, AD_PROTOCOL, AD_PKTTYPE, AD_NLATTR,
	AD_NLATTR_NEST, AD_MARK, AD_QUEUE, AD_RXHASH, AD_ALU_XOR_X, AD_VLAN_TAG,
	AD_VLAN_TAG_PRESENT,
};
#define NGEN_ANC (sizeof(gen_anc) / sizeof(gen_anc[0]))

static struct insn mk(unsigned int code, unsigned int jt, unsigned int jf,
		      uint32_t k)
{
	struct insn i = { (uint16_t)code, (uint8_t)jt, (uint8_t)jf, k };

	return i;
}

/*
 * A program the 3.14 checker accepts: valid codes, forward jumps in
 * range, scratch cells read only if written before the first jump,
 * no division by a constant 0, a return at the end.  Shifts by K >= 32
 * (which 6.1 rejects) in about one program in 30.
 */
static void gen_prog(struct prog *p, uint64_t seed)
{
	static const unsigned int alu[] = {
		BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
		BPF_XOR, BPF_LSH, BPF_RSH,
	};
	static const unsigned int jmp[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };
	static const unsigned int sz[] = { BPF_W, BPF_H, BPF_B };
	unsigned int n = 0, body, len, written = 0, i, max, op, big_shift;

	rng = seed;
	body = 1 + rndn(40);
	big_shift = rndn(30) == 0;
	/* Cells written before any jump may be read anywhere. */
	for (i = rndn(4); i; i--) {
		unsigned int c = rndn(16);

		p->insns[n++] = mk(BPF_LD | BPF_IMM, 0, 0, rnd_val());
		p->insns[n++] = mk(rndn(2) ? BPF_ST : BPF_STX, 0, 0, c);
		written |= 1u << c;
	}
	len = n + body + 1;
	while (n < len - 1) {
		max = len - 2 - n;	/* insns a jump may skip */
		if (max > 255)
			max = 255;
		switch (rndn(24)) {
		case 0: case 1: case 2:
			p->insns[n++] = mk(BPF_LD | sz[rndn(3)] | BPF_ABS, 0, 0,
					   rnd_abs_off());
			break;
		case 3: case 4:
			p->insns[n++] = mk(BPF_LD | sz[rndn(3)] | BPF_IND, 0, 0,
					   rndn(4) ? rndn(64) :
					   rndn(2) ? -rndn(20) : rnd_abs_off());
			break;
		case 5:
			p->insns[n++] = mk(rndn(2) ? BPF_LD | BPF_W | BPF_LEN :
					   BPF_LDX | BPF_W | BPF_LEN, 0, 0, 0);
			break;
		case 6:
			p->insns[n++] = mk(BPF_LD | BPF_IMM, 0, 0, rnd_val());
			break;
		case 7:
			p->insns[n++] = mk(BPF_LDX | BPF_IMM, 0, 0,
					   rndn(2) ? rndn(40) : rnd_val());
			break;
		case 8:
			p->insns[n++] = mk(BPF_LDX | BPF_B | BPF_MSH, 0, 0,
					   rndn(4) ? 14 + rndn(8) : rnd_abs_off());
			break;
		case 9:
			if (!written) {
				p->insns[n++] = mk(BPF_MISC | BPF_TAX, 0, 0, 0);
				break;
			}
			do
				i = rndn(16);
			while (!(written & (1u << i)));
			p->insns[n++] = mk(rndn(2) ? BPF_LD | BPF_MEM :
					   BPF_LDX | BPF_MEM, 0, 0, i);
			break;
		case 10:
			p->insns[n++] = mk(rndn(2) ? BPF_ST : BPF_STX, 0, 0,
					   rndn(16));
			break;
		case 11: case 12: case 13:
			op = alu[rndn(10)];
			i = rnd_val();
			if (op == BPF_LSH || op == BPF_RSH)
				i = big_shift && !rndn(3) ? 32 + rndn(32) :
				    rndn(32);
			if ((op == BPF_DIV || op == BPF_MOD) && !i)
				i = 1 + rndn(16);
			p->insns[n++] = mk(BPF_ALU | op | BPF_K, 0, 0, i);
			break;
		case 14: case 15:
			p->insns[n++] = mk(BPF_ALU | alu[rndn(10)] | BPF_X, 0,
					   0, 0);
			break;
		case 16:
			p->insns[n++] = mk(BPF_ALU | BPF_NEG, 0, 0, 0);
			break;
		case 17:
			p->insns[n++] = mk(BPF_MISC | (rndn(2) ? BPF_TAX :
						       BPF_TXA), 0, 0, 0);
			break;
		case 18: case 19: case 20:
			p->insns[n++] = mk(BPF_JMP | jmp[rndn(4)] |
					   (rndn(3) ? BPF_K : BPF_X),
					   rndn(max + 1), rndn(max + 1),
					   rnd_val());
			break;
		case 21:
			p->insns[n++] = mk(BPF_JMP | BPF_JA, 0, 0,
					   rndn(max + 1));
			break;
		case 22:
			p->insns[n++] = mk(rndn(2) ? BPF_RET | BPF_A :
					   BPF_RET | BPF_K, 0, 0, rnd_val());
			break;
		default:
			/* ifindex and hatype (gen_anc[0..1]) end the 3.14 run:
			 * keep them rare */
			i = rndn(8) ? 2 + rndn(NGEN_ANC - 2) : rndn(2);
			p->insns[n++] = mk(BPF_LD | sz[rndn(3)] | BPF_ABS, 0, 0,
					   AD(gen_anc[i]));
			break;
		}
	}
	p->insns[n++] = mk(rndn(2) ? BPF_RET | BPF_A : BPF_RET | BPF_K, 0, 0,
			   rndn(2) ? rnd_val() : 0xffff);
	p->len = n;
}

/* Fuzz: a generated program, one field changed, or raw random insns. */
static void fuzz_prog(struct prog *p, uint64_t seed)
{
	unsigned int i, kind;

	gen_prog(p, seed);
	kind = rndn(10);
	if (kind < 6)
		return;
	if (kind < 9) {
		struct insn *f = &p->insns[rndn(p->len)];

		switch (rndn(4)) {
		case 0: f->code = (uint16_t)rndn(256); break;
		case 1: f->jt = (uint8_t)rnd(); break;
		case 2: f->jf = (uint8_t)rndn(4); break;
		default: f->k = rndn(2) ? rnd() : AD(rndn(70)); break;
		}
		return;
	}
	p->len = 1 + rndn(12);
	for (i = 0; i < p->len; i++)
		p->insns[i] = mk(rndn(256), rndn(4), rndn(4),
				 rndn(2) ? rnd() : rndn(64));
	if (rndn(2))
		p->insns[p->len - 1] = mk(BPF_RET | BPF_A, 0, 0, 0);
}

static void fuzz_packet(struct packet *dst, const struct packet *pk,
			unsigned int npk)
{
	unsigned int i, n;

	if (rndn(3)) {
		const struct packet *src = &pk[rndn(npk)];

		memcpy(dst->b, src->b, src->len);
		dst->len = src->len;
		for (n = rndn(4); n; n--)
			dst->b[rndn(dst->len)] = (uint8_t)rnd();
		if (!rndn(4) && dst->len > 14)
			dst->len = 14 + rndn(dst->len - 14);
	} else {
		dst->len = 14 + rndn(rndn(2) ? 100 : FRAME_MAX - 13);
		for (i = 0; i < dst->len; i++)
			dst->b[i] = (uint8_t)rnd();
	}
	snprintf(dst->name, sizeof(dst->name), "fuzz%u", dst->len);
}

static void print_prog(const struct prog *p)
{
	unsigned int i;

	printf("# %s\n", p->name);
	for (i = 0; i < p->len; i++)
		printf("{ 0x%x, %u, %u, 0x%08x },\n", p->insns[i].code,
		       p->insns[i].jt, p->insns[i].jf, p->insns[i].k);
}

/* --- replaying single pairs ------------------------------------------------ */

/*
 * A program as text: its numbers in fours (code, jt, jf, k), whatever
 * separates them, as -dd lines ("{ 0x28, 0, 0, 0x0000000c },") or as the
 * replay line's "{0x28,0,0,0xc},{0x6,0,0,0x1}"; lines starting with '#'
 * are skipped.  -1 if that is not a program.
 */
static int parse_prog(struct prog *p, const char *name, const char *text)
{
	unsigned long f[4];
	unsigned int n = 0;
	const char *s = text;
	char *end;

	snprintf(p->name, sizeof(p->name), "%s", name);
	p->len = 0;
	while (*s) {
		if (*s == '#' && (s == text || s[-1] == '\n')) {
			s += strcspn(s, "\n");
			continue;
		}
		if (*s < '0' || *s > '9') {
			s++;
			continue;
		}
		errno = 0;
		f[n] = strtoul(s, &end, 0);
		if (errno || f[n] > (n == 3 ? 0xffffffffUL : n ? 255UL : 0xffffUL))
			return -1;
		s = end;
		if (++n < 4)
			continue;
		if (p->len == MAXINSNS)
			return -1;
		p->insns[p->len++] = mk((unsigned int)f[0], (unsigned int)f[1],
					(unsigned int)f[2], (uint32_t)f[3]);
		n = 0;
	}
	return n || !p->len ? -1 : 0;
}

/* Run one pair on the module and classify it: one line
 * "NAME HEADLEN <eval line> agree|documented #..|UNEXPLAINED". */
static void replay(const char *name, unsigned int headlen, const char *hex,
		   const char *progtext)
{
	static struct prog p;
	struct packet pk;
	unsigned long long unexplained = st.unexplained, agree = st.agree;
	unsigned long long pairs = st.pairs;
	char frame[32];
	int d;

	if (!p.insns)
		p.insns = xmalloc(MAXINSNS * sizeof(*p.insns));
	if (parse_prog(&p, name, progtext))
		die("%s: not a program: '%.40s'", name, progtext);
	if (parse_frame(&pk, "", hex))
		die("%s: not a frame of 14..%d bytes in hex", name, FRAME_MAX);
	snprintf(frame, sizeof(frame), "frame%u", pk.len);
	snprintf(pk.name, sizeof(pk.name), "%s", frame);
	if (headlen >= pk.len)
		headlen = 0;
	headlens[0] = (int)headlen;
	nheadlens = 1;
	last_line[0] = '\0';
	one_program(&p, &pk, 1);
	printf("%s %s %u %s", name, pk.name, headlen,
	       last_line[0] ? last_line : "prog rejected");
	if (st.unexplained != unexplained) {
		printf(" UNEXPLAINED\n");
	} else if (st.pairs == pairs || st.agree != agree) {
		printf(" agree\n");
	} else {
		printf(" documented");
		for (d = 0; d < D_NR; d++)
			if (last_flags & (1u << d))
				printf(" %s", dname[d]);
		printf("\n");
	}
	free(pk.b);
}

/*
 * A cases file: "NAME HEADLEN HEX PROGRAM" per line (PROGRAM as the replay
 * line prints it, the rest of the line); '#' lines are comments.
 */
static void replay_cases(const char *path)
{
	char *text = read_file(path), *line, *save = NULL;
	char name[64], hex[2 * FRAME_MAX + 1];
	unsigned int headlen, lineno = 0;
	int at;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %u %3028s %n", name, &headlen, hex,
			   &at) != 3 || !line[at])
			die("%s: line %u: expected 'NAME HEADLEN HEX PROGRAM'",
			    path, lineno);
		replay(name, headlen, hex, line + at);
	}
	free(text);
}

/* Fuzz iteration @it of @seed: its program, FUZZ_PACKETS frames, headlens. */
static void fuzz_case(uint64_t seed, unsigned long long it, struct prog *p,
		      struct packet *fp, const struct packet *pk,
		      unsigned int npk)
{
	unsigned int i;

	fuzz_prog(p, seed * 1000003 + it);
	snprintf(p->name, sizeof(p->name), "fuzz%llu-%llu",
		 (unsigned long long)seed, it);
	rng = seed ^ (it * 0x2545f4914f6cdd1dULL);
	nheadlens = 0;
	for (i = 1 + rndn(3); i; i--)
		headlens[nheadlens++] = (int)rndn(120);
	for (i = 0; i < FUZZ_PACKETS; i++)
		fuzz_packet(&fp[i], pk, npk);
}

/* The pairs of fuzz iteration @it as lines of a cases file. */
static void print_fuzz_case(const struct prog *p, const struct packet *fp)
{
	unsigned int i, h, j, hl;

	for (i = 0; i < FUZZ_PACKETS; i++) {
		for (h = 0; h < nheadlens; h++) {
			hl = (unsigned int)headlens[h];
			if (hl && hl >= fp[i].len)
				continue;
			printf("%s:%s %u ", p->name, fp[i].name, hl);
			for (j = 0; j < fp[i].len; j++)
				printf("%02x", fp[i].b[j]);
			printf(" ");
			for (j = 0; j < p->len; j++)
				printf("%s{0x%x,%u,%u,0x%x}", j ? "," : "",
				       p->insns[j].code, p->insns[j].jt,
				       p->insns[j].jf, p->insns[j].k);
			printf("\n");
		}
	}
}

/* --- main ------------------------------------------------------------------ */

/* The module's knobs; BPFDIFF_KNOBS names another directory (host tests). */
static int open_knob(const char *name, int flags)
{
	const char *dir = getenv("BPFDIFF_KNOBS");
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : KNOBS, name);
	return open(path, flags);
}

static void open_knobs(void)
{
	fd_prog = open_knob("prog", O_WRONLY);
	fd_packet = open_knob("packet", O_WRONLY);
	fd_headlen = open_knob("headlen", O_WRONLY);
	fd_eval = open_knob("eval", O_RDONLY);
	if (fd_prog < 0 || fd_packet < 0 || fd_headlen < 0 || fd_eval < 0)
		die("cannot open the knobs in " KNOBS ": %s", strerror(errno));
}

static void summary(const char *what, double secs)
{
	int d;

	printf("%s: %llu programs (%llu rejected by every checker), %llu (program, packet, headlen) pairs compared: %llu agree, %llu documented differences",
	       what, st.progs, st.rejected_all, st.pairs, st.agree,
	       st.documented);
	for (d = 0; d < D_NR; d++)
		if (st.doc_rows[d])
			printf(" %s:%llu", dname[d], st.doc_rows[d]);
	printf(", %llu unexplained; engines:", st.unexplained);
	for (d = 0; d < nengines; d++)
		printf(" %s", engines[d].name);
	printf("; %.1f s\n", secs);
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s)
		die("'%s' is not a number", s);
	return v;
}

/* The generated program of gen, selftest, run random:, fuzz and fuzzcase. */
static struct prog gp;
static double t0;

static int mode_gen(int argc, char **argv)
{
	(void)argc;
	uint64_t seed = parse_u64(argv[2]), count = parse_u64(argv[3]);
	unsigned int i;

	for (i = 0; i < count; i++) {
		gen_prog(&gp, seed * 1000003 + i);
		snprintf(gp.name, sizeof(gp.name), "r%llu-%u",
			 (unsigned long long)seed, i);
		print_prog(&gp);
	}
	return 0;
}

static int mode_selftest(int argc, char **argv)
{
	(void)argc;
	uint64_t seed = parse_u64(argv[2]), count = parse_u64(argv[3]);
	unsigned long long bad = 0, new_rejects = 0;
	unsigned int i, fl;

	for (i = 0; i < count; i++) {
		gen_prog(&gp, seed * 1000003 + i);
		fl = 0;
		if (check(gp.insns, gp.len, OLD, &fl))
			bad++;
		else if (check(gp.insns, gp.len, NEW, &fl))
			new_rejects++;
	}
	printf("selftest: %llu generated programs, %llu rejected by the 3.14 rules, %llu by the 6.1 rules only\n",
	       (unsigned long long)count, bad, new_rejects);
	return bad || !new_rejects ? 1 : 0;
}

static int mode_model(int argc, char **argv)
{
	(void)argc;
	unsigned int np, npk, i, j, fl;
	struct prog *progs = read_progs(argv[2], &np);
	struct packet *pk = read_packets(argv[3], &npk);
	struct val mo, mn;
	struct skb s;

	for (i = 0; i < np; i++) {
		fl = 0;
		if (check(progs[i].insns, progs[i].len, OLD, &fl) &&
		    check(progs[i].insns, progs[i].len, NEW, &fl)) {
			printf("%s - - prog=%d\n", progs[i].name, -EINVAL);
			continue;
		}
		for (j = 0; j < npk; j++) {
			s.d = pk[j].b;
			s.len = s.lin = pk[j].len;
			s.proto = 0;
			fl = 0;
			mo = model(&progs[i], &s, OLD, &fl);
			mn = model(&progs[i], &s, NEW, &fl);
			printf("%s %s 0 old=%lld new=%lld\n",
			       progs[i].name, pk[j].name,
			       mo.err ? (long long)mo.err : mo.ret,
			       mn.err ? (long long)mn.err : mn.ret);
		}
	}
	return 0;
}

/*
 * BPFDIFF_DISTURB=N: before the run, hold N kernel allocations of another
 * pattern than the module's: N datagrams of 1..1999 bytes queued on
 * AF_UNIX socket pairs (an skb each, heads from kmalloc and the small
 * head cache), every third pair closed again.  The same programs on the
 * same frames must give the same values: a value that changes with the
 * heap is a read outside what the engine may read (plan-diff.sh).
 */
static void disturb_heap(void)
{
	const char *s = getenv("BPFDIFF_DISTURB");
	unsigned long n = s ? strtoul(s, NULL, 10) : 0, i;
	static char buf[2000];
	int sv[2];

	for (i = 0; i < n; i++) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			die("BPFDIFF_DISTURB: socketpair: %s", strerror(errno));
		memset(buf, (int)(i & 0xff), sizeof(buf));
		if (send(sv[0], buf, 1 + i * 37 % (sizeof(buf) - 1), MSG_DONTWAIT) < 0)
			die("BPFDIFF_DISTURB: send: %s", strerror(errno));
		if (i % 3 == 2) {
			close(sv[0]);
			close(sv[1]);
		}
	}
}

static int mode_run(int argc, char **argv)
{
	unsigned long long seed = 0, count = 0;
	unsigned int np, npk, i;
	struct packet *pk;
	struct prog *progs;

	for (i = 5; i < (unsigned int)argc; i++) {
		if (nheadlens == 15)
			die("too many headlens");
		headlens[nheadlens++] = (int)parse_u64(argv[i]);
	}
	headlens[nheadlens++] = 0;
	pk = read_packets(argv[3], &npk);
	disturb_heap();
	outf = fopen(argv[4], "w");
	if (!outf)
		die("%s: %s", argv[4], strerror(errno));
	open_knobs();
	if (sscanf(argv[2], "random:%llu:%llu", &seed, &count) == 2) {
		for (i = 0; i < count; i++) {
			gen_prog(&gp, seed * 1000003 + i);
			snprintf(gp.name, sizeof(gp.name), "r%llu-%u", seed, i);
			one_program(&gp, pk, npk);
		}
	} else {
		progs = read_progs(argv[2], &np);
		out_all_linear = 1;
		for (i = 0; i < np; i++)
			one_program(&progs[i], pk, npk);
	}
	drain();
	if (fclose(outf))
		die("%s: write error", argv[4]);
	outf = NULL;
	summary(argv[2], now() - t0);
	return st.unexplained || !st.pairs ? 1 : 0;
}

/* FUZZ_PACKETS frames of FRAME_MAX bytes for fuzz_case(). */
static struct packet *fuzz_packets(void)
{
	static struct packet fp[FUZZ_PACKETS];
	unsigned int i;

	for (i = 0; i < FUZZ_PACKETS; i++)
		fp[i].b = xmalloc(FRAME_MAX);
	return fp;
}

static int mode_fuzz(int argc, char **argv)
{
	uint64_t seed = parse_u64(argv[2]);
	double secs = (double)parse_u64(argv[3]);
	unsigned long long want = argc == 6 ? parse_u64(argv[5]) : 0;
	unsigned int npk;
	struct packet *pk = read_packets(argv[4], &npk), *fp = fuzz_packets();
	unsigned long long it;

	open_knobs();
	for (it = 0; now() - t0 < secs && (!want || st.pairs < want); it++) {
		fuzz_case(seed, it, &gp, fp, pk, npk);
		one_program(&gp, fp, FUZZ_PACKETS);
	}
	drain();
	summary("fuzz", now() - t0);
	return st.unexplained || !st.pairs || st.pairs < want ? 1 : 0;
}

static int mode_replay(int argc, char **argv)
{
	(void)argc;
	open_knobs();
	replay("replay", (unsigned int)parse_u64(argv[2]), argv[3], argv[4]);
	return st.unexplained ? 1 : 0;
}

static int mode_cases(int argc, char **argv)
{
	(void)argc;
	open_knobs();
	replay_cases(argv[2]);
	drain();
	summary(argv[2], now() - t0);
	return st.unexplained || !st.pairs ? 1 : 0;
}

static int mode_fuzzcase(int argc, char **argv)
{
	(void)argc;
	uint64_t seed = parse_u64(argv[2]), it = parse_u64(argv[3]);
	unsigned int npk;
	struct packet *pk = read_packets(argv[4], &npk), *fp = fuzz_packets();

	fuzz_case(seed, it, &gp, fp, pk, npk);
	print_fuzz_case(&gp, fp);
	return 0;
}

/* The modes, by name, with the argument counts each takes (argv[0] too). */
static const struct {
	const char *name;
	int min_argc, max_argc;
	int (*run)(int argc, char **argv);
} modes[] = {
	{ "gen", 4, 4, mode_gen },
	{ "selftest", 4, 4, mode_selftest },
	{ "model", 4, 4, mode_model },
	{ "run", 5, 1 << 30, mode_run },	/* headlens: mode_run says how many */
	{ "fuzz", 5, 6, mode_fuzz },
	{ "replay", 5, 5, mode_replay },
	{ "cases", 3, 3, mode_cases },
	{ "fuzzcase", 5, 5, mode_fuzzcase },
};

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	quiet_disagree = 20;
	gp.insns = xmalloc(MAXINSNS * sizeof(*gp.insns));
	t0 = now();

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(mode, modes[i].name) && argc >= modes[i].min_argc &&
		    argc <= modes[i].max_argc)
			return modes[i].run(argc, argv);
	fprintf(stderr, "usage: bpfdiff run PROGS|random:SEED:COUNT PACKETS OUT [HEADLEN...]\n"
			"       bpfdiff fuzz SEED SECONDS PACKETS [PAIRS]\n"
			"       bpfdiff gen|selftest SEED COUNT\n"
			"       bpfdiff model PROGS PACKETS\n"
			"       bpfdiff replay HEADLEN HEX PROGRAM\n"
			"       bpfdiff cases FILE\n"
			"       bpfdiff fuzzcase SEED ITERATION PACKETS\n");
	return 2;
}
