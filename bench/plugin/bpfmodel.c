// SPDX-License-Identifier: GPL-2.0
/*
 * bpfmodel - a QEMU TCG plugin that models branch predictors and caches
 * for the guest code run between two marker instructions, so that the
 * mechanism claims of commit bd4cf0ed331a (branch misses, jump-threaded
 * dispatch, the cache-miss column) can be tested where there is no PMU.
 *
 * What it sees: every instruction the guest executes (its address, bytes
 * and capstone's disassembly, at translation) and every data access (its
 * virtual address).  A branch's outcome is the address of the next
 * instruction executed: a conditional branch was taken when that is not
 * the fall-through, an indirect branch went there, a return came back
 * there.  Nothing is counted outside a window: a window opens at the
 * start marker and closes at the stop marker, and each closed window
 * appends one line of counters to the output file (out=FILE).
 *
 * Markers, harmless where no model runs:
 *   x86:  nopl 0x314d5042(%rax,%rax,1)   start ("BPM1")
 *         nopl 0x304d5042(%rax,%rax,1)   stop  ("BPM0")
 *   arm:  mov r11, r11 (start), mov r10, r10 (stop), Thumb or ARM state
 *
 * The models (parameters: plugin arguments, from bench/cores.conf), all
 * run side by side on the same stream, each counted:
 *   conditional branches: none (fall-through: every taken one missed),
 *     bimodal (2-bit counters by PC), gshare (2-bit counters by PC xor
 *     global history) and TAGE;
 *   indirect jumps and calls: none (every one missed), a BTB (last target
 *     by PC), a target cache (target by PC hashed with the path of recent
 *     targets and the conditional history, tagged; the BTB's target when
 *     no tag matches) and ITTAGE;
 *   returns: a return stack;
 *   caches: L1I (fetch of each new line), L1D (each access's line), a
 *     unified L2 behind both, set-associative with LRU, virtual addresses;
 *   the overlap of misses: a data miss beyond the L2 leads (l2_lead) when
 *     rob or more instructions ran since the last leading one.
 * With profile=FILE it also writes, per window, a line per instruction
 * executed in it (its executions and capstone's text): the input of the
 * interval model's base cost (bench/plugin/mcabase.c).
 * Direct branches are taken to be predicted (no BTB misses modelled).
 * Predicated ARM instructions that branch (bxeq lr, popne {..., pc},
 * blne) are a conditional branch and, when taken, their kind.
 *
 * The predictors and caches learn from everything the guest executes
 * once a first marker (either) has run, inside a window or not: the code
 * run before a window warms it; only the counters are restricted to
 * windows.  Before the first marker (a guest's boot) nothing is modelled.  A start marker inside an open
 * window does not restart it: the window line counts it as restarts=N.
 * At exit one line "end insn_records=N insn_translations=M" says how many
 * instruction records the translations made and shared (a translated
 * instruction of the same address and bytes shares its record).
 *
 * Usage: -plugin file=bpfmodel.so,out=FILE[,KEY=VALUE...]; keys in
 * parse_arg().  Written for one vCPU (the bench guests have one); with
 * more, the windows of all vCPUs share the model.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum kind {
	K_OTHER,
	K_JMP,		/* direct jump (conditional: cond set) */
	K_JMP_IND,	/* indirect jump */
	K_CALL,		/* direct call */
	K_CALL_IND,	/* indirect call */
	K_RET,		/* return */
	K_START,	/* the markers */
	K_STOP,
};

#define INSN_BYTES	16

/* One translated instruction, shared by every translation of its bytes. */
struct insn {
	uint64_t vaddr;
	uint8_t size, kind, cond;	/* cond: taken only when its condition holds */
	uint8_t bytes[INSN_BYTES];
	char *text;		/* its disassembly, kept for profile= */
	uint64_t count;		/* executions in window epoch - 1 */
	uint64_t taken;		/* of them, went elsewhere than the next insn */
	unsigned long epoch;
	struct insn *next;		/* in its hash chain */
};

struct cache {
	unsigned int sets, ways, line_shift;
	uint64_t *tag;		/* [sets * ways], 0: empty (tags are line + 1) */
	uint64_t *used;		/* last use, for LRU */
	uint64_t tick;
};

/*
 * Tagged geometric-history tables, the structure TAGE (conditional
 * branches; Seznec and Michaud, JILP 2006) and ITTAGE (indirect ones;
 * Seznec, 2011) share: table i of n is indexed and tagged by the PC hashed
 * with the newest len[i] bits of the global history, the lengths a
 * geometric series from GEOM_MIN_HIST to the record's longest.  Each
 * table's history is folded to its index and tag widths incrementally (a
 * circular shift register), so an update costs O(tables).
 */
#define GEOM_MAX_TABLES	16
#define GEOM_MIN_HIST	4
#define GHIST_BITS	4096	/* the global history buffer: > any length */
#define GEOM_TAG_BITS	11

struct folded {
	unsigned int comp, len, width;
};

struct geom {
	unsigned int n, bits, len[GEOM_MAX_TABLES];
	struct folded idx[GEOM_MAX_TABLES], tag0[GEOM_MAX_TABLES];
	struct folded tag1[GEOM_MAX_TABLES];
	unsigned int hit[GEOM_MAX_TABLES];	/* this lookup's index per table */
	uint16_t want[GEOM_MAX_TABLES];		/* and tag */
};

struct tage_entry {
	int8_t ctr;		/* 3-bit signed: taken when >= 0 */
	uint8_t u;		/* 2-bit useful */
	uint16_t tag;
};

struct ittage_entry {
	uint64_t target;
	uint8_t conf;		/* 2-bit confidence */
	uint8_t u;		/* 1-bit useful */
	uint16_t tag;
};

struct counters {
	uint64_t insns, cond, cond_taken, cond_miss, cond_miss_bimodal;
	uint64_t cond_miss_tage, ind, ind_miss, ind_miss_btb, ind_miss_ittage;
	uint64_t ret, ret_miss, restarts;
	uint64_t l1i_acc, l1i_miss, l1d_acc, l1d_miss, l2_acc, l2_miss;
	uint64_t l2_lead;
};

/* One modelled core: its parameters, predictor and cache state, counters. */
struct core_model {
	char name[32];
	/* parameters */
	unsigned int gshare_bits, hist_bits, bimodal_bits, btb_bits;
	unsigned int ind_bits, path_len, ras_size;
	unsigned int rob;	/* reorder buffer: instructions in flight */
	/* predictor state */
	uint8_t *gshare, *bimodal;
	uint64_t *btb, *ind_target, *ind_tag, *ras;
	uint64_t ghist, phist;
	unsigned int ras_top, ras_n;
	/* TAGE and ITTAGE: the global history (outcomes, indirect targets) */
	uint8_t gbuf[GHIST_BITS];
	unsigned int gpos;
	struct geom tage, ittage;
	uint8_t *tage_base;
	struct tage_entry *tage_t[GEOM_MAX_TABLES];
	uint64_t *ittage_base;
	struct ittage_entry *ittage_t[GEOM_MAX_TABLES];
	uint64_t branches, rng;
	struct cache l1i, l1d, l2;
	struct counters c;
	uint64_t fetch_line;
	uint64_t lead_seq;	/* plug.seq of the last leading L2 miss, + 1 */
};

#define MAX_CORES	4

/*
 * The cores modelled side by side on the same stream (a core=NAME argument
 * starts each), and cm, the one the model functions below work on: the
 * callbacks run each in turn.
 */
static struct core_model cores[MAX_CORES];
static int ncores;
static struct core_model *cm;

static const struct core_model core_defaults = {
	.gshare_bits = 14, .hist_bits = 14, .bimodal_bits = 12,
	.btb_bits = 12, .ind_bits = 12, .path_len = 4, .ras_size = 32,
	.rob = 224,
	.tage = { .n = 7, .bits = 10, .len = { 640 } },
	.ittage = { .n = 5, .bits = 9, .len = { 320 } },
};

/* What every core shares: the window, the instruction records, the output. */
static struct {
	/* the window; learning: a marker has run, the model follows the code */
	int active, learning;
	unsigned long window;
	struct insn *last;		/* a branch waiting for its outcome */
	/* the translated instructions, by address and bytes */
	struct insn **insns;
	uint64_t insn_records, insn_translations;
	FILE *out;
	/* profile=: the instructions a window executed, and the output */
	FILE *prof;
	struct insn **seen;
	size_t nseen, seen_cap;
	uint64_t seq;		/* instructions executed since the first marker */
	const char *arch;
} plug;

#define INSN_HASH_BITS	18

static void die(const char *what)
{
	fprintf(stderr, "bpfmodel: %s\n", what);
	exit(1);
}

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/* "SIZE:WAYS:LINE" in bytes, e.g. 32768:8:64 */
static void cache_init(struct cache *c, const char *spec, const char *name)
{
	unsigned long size, ways, line;
	char msg[128];

	if (sscanf(spec, "%lu:%lu:%lu", &size, &ways, &line) != 3 || !ways ||
	    !line || (line & (line - 1)) || size % (ways * line) ||
	    !size) {
		snprintf(msg, sizeof(msg), "%s=%s: want SIZE:WAYS:LINE, a power-of-2 line", name, spec);
		die(msg);
	}
	c->sets = size / (ways * line);
	c->ways = ways;
	for (c->line_shift = 0; (1ul << c->line_shift) < line; c->line_shift++)
		;
	free(c->tag);
	free(c->used);
	c->tag = zalloc((size_t)c->sets * c->ways, sizeof(*c->tag));
	c->used = zalloc((size_t)c->sets * c->ways, sizeof(*c->used));
}

/* Look @addr's line up; fill it on a miss (LRU victim).  1: a miss. */
static int cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift, tag = line + 1;
	unsigned int set = line % c->sets, w, victim = 0;
	uint64_t *t = &c->tag[(size_t)set * c->ways];
	uint64_t *u = &c->used[(size_t)set * c->ways];

	c->tick++;
	for (w = 0; w < c->ways; w++) {
		if (t[w] == tag) {
			u[w] = c->tick;
			return 0;
		}
		if (u[w] < u[victim])
			victim = w;
	}
	t[victim] = tag;
	u[victim] = c->tick;
	return 1;
}

/*
 * An access through L1 @c; its misses go to the L2; counted in a window.
 * 1: it missed the L2 too.
 */
static int mem_access(struct cache *c, uint64_t addr, uint64_t *acc,
		      uint64_t *miss)
{
	int l1 = cache_access(c, addr), l2 = l1 && cache_access(&cm->l2, addr);

	if (!plug.active)
		return l2;
	(*acc)++;
	*miss += l1;
	cm->c.l2_acc += l1;
	cm->c.l2_miss += l2;
	return l2;
}

static unsigned int mask(unsigned int bits)
{
	return (1u << bits) - 1;
}

/* 2-bit counter: predict, then train; 1: mispredicted */
static int counter(uint8_t *ctr, int taken)
{
	int miss = (*ctr >= 2) != taken;

	if (taken && *ctr < 3)
		(*ctr)++;
	else if (!taken && *ctr > 0)
		(*ctr)--;
	return miss;
}

static uint64_t hash_pc(uint64_t pc)
{
	return pc ^ (pc >> 13) ^ (pc >> 29);
}

/* A deterministic pseudo-random number (xorshift), for allocation. */
static unsigned int rnd(void)
{
	cm->rng ^= cm->rng << 13;
	cm->rng ^= cm->rng >> 7;
	cm->rng ^= cm->rng << 17;
	return (unsigned int)cm->rng;
}

/* Global history bit @i back (0: the newest). */
static unsigned int ghist_bit(unsigned int i)
{
	return cm->gbuf[(cm->gpos + GHIST_BITS - i) % GHIST_BITS];
}

static void fold_init(struct folded *f, unsigned int len, unsigned int width)
{
	f->comp = 0;
	f->len = len;
	f->width = width;
}

/* The newest bit was just pushed: fold it in, fold the one leaving out. */
static void fold_update(struct folded *f)
{
	f->comp = (f->comp << 1) | ghist_bit(0);
	f->comp ^= ghist_bit(f->len) << (f->len % f->width);
	f->comp ^= f->comp >> f->width;
	f->comp &= mask(f->width);
}

/*
 * The geometric series of history lengths, from GEOM_MIN_HIST to the
 * longest (len[0] as the record gave it), and the folds of each table.
 */
static void geom_init(struct geom *g)
{
	double r = (double)g->len[0] / GEOM_MIN_HIST;
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		if (g->n > 1)
			g->len[i] = (unsigned int)(GEOM_MIN_HIST *
						   pow(r, (double)i / (g->n - 1)) + 0.5);
		fold_init(&g->idx[i], g->len[i], g->bits);
		fold_init(&g->tag0[i], g->len[i], GEOM_TAG_BITS);
		fold_init(&g->tag1[i], g->len[i], GEOM_TAG_BITS - 1);
	}
}

/*
 * Each table's index and tag for branch @pc, into g->hit and g->want.  The
 * index also hashes the path (the recent indirect targets), as TAGE's
 * does its path history: a folded history alone maps a periodic pattern
 * and its mirror image to one index.
 */
static void geom_lookup(struct geom *g, uint64_t pc)
{
	uint64_t h = hash_pc(pc);
	unsigned int i, path = (cm->phist * 0x9e3779b97f4a7c15ull) >> (64 - g->bits);

	for (i = 0; i < g->n; i++) {
		g->hit[i] = (h ^ (h >> (g->bits - (i % g->bits))) ^ g->idx[i].comp ^
			     path ^ (i * 0x9e37u)) & mask(g->bits);
		g->want[i] = (h ^ g->tag0[i].comp ^ (g->tag1[i].comp << 1)) &
			     mask(GEOM_TAG_BITS);
	}
}

/* Push @nbits of @v, newest last, into the global history. */
static void ghist_push(unsigned int v, unsigned int nbits)
{
	unsigned int b, i;

	for (b = 0; b < nbits; b++) {
		cm->gpos = (cm->gpos + 1) % GHIST_BITS;
		cm->gbuf[cm->gpos] = (v >> (nbits - 1 - b)) & 1;
		for (i = 0; i < cm->tage.n; i++) {
			fold_update(&cm->tage.idx[i]);
			fold_update(&cm->tage.tag0[i]);
			fold_update(&cm->tage.tag1[i]);
		}
		for (i = 0; i < cm->ittage.n; i++) {
			fold_update(&cm->ittage.idx[i]);
			fold_update(&cm->ittage.tag0[i]);
			fold_update(&cm->ittage.tag1[i]);
		}
	}
}

/* Every 2^18 branches the useful bits age (halved), as in TAGE. */
static void geom_age(void)
{
	unsigned int i, j;

	if (++cm->branches & mask(18))
		return;
	for (i = 0; i < cm->tage.n; i++)
		for (j = 0; j < (1u << cm->tage.bits); j++)
			cm->tage_t[i][j].u >>= 1;
	for (i = 0; i < cm->ittage.n; i++)
		for (j = 0; j < (1u << cm->ittage.bits); j++)
			cm->ittage_t[i][j].u = 0;
}

/*
 * The longest-history table below table @j whose entry at this lookup's
 * index (g->hit) has the tag wanted (g->want), @tag(i) reading table i's
 * entry there; -1 for none.  From @j = g->n, the provider; from the
 * provider, the alternate.  Inlined with @tag known: it runs at every
 * conditional and indirect branch of the guest (a call through @tag made
 * a modeled boot 8% slower).
 */
static inline __attribute__((always_inline))
int geom_match_below(const struct geom *g, uint16_t (*tag)(unsigned int i), int j)
{
	for (j--; j >= 0; j--)
		if (tag(j) == g->want[j])
			return j;
	return -1;
}

static inline uint16_t tage_tag(unsigned int i)
{
	return cm->tage_t[i][cm->tage.hit[i]].tag;
}

static inline uint16_t ittage_tag(unsigned int i)
{
	return cm->ittage_t[i][cm->ittage.hit[i]].tag;
}

/*
 * TAGE: the provider is the longest-history table whose tag matches, the
 * alternate the next one (or the base's 2-bit counter); a provider just
 * allocated (weak, not yet useful) defers to the alternate.  Its counter
 * trains, its useful bits when it and the alternate disagreed; a
 * misprediction allocates one entry in a longer table whose useful bits
 * are 0 (or ages those of all longer ones).  1: mispredicted.
 */
static int tage_branch(uint64_t pc, int taken)
{
	struct geom *g = &cm->tage;
	struct tage_entry *prov = NULL, *e;
	unsigned int b = hash_pc(pc) & mask(cm->bimodal_bits), i;
	int p, a, alt, pred, provpred;

	geom_lookup(g, pc);
	p = geom_match_below(g, tage_tag, (int)g->n);
	a = geom_match_below(g, tage_tag, p);
	if (p >= 0)
		prov = &cm->tage_t[p][g->hit[p]];
	provpred = prov && prov->ctr >= 0;
	alt = a >= 0 ? cm->tage_t[a][g->hit[a]].ctr >= 0 : cm->tage_base[b] >= 2;
	pred = prov && !((prov->ctr == 0 || prov->ctr == -1) && !prov->u) ?
	       provpred : alt;
	if (prov) {
		if (provpred != alt)
			prov->u = provpred == taken ? (prov->u < 3 ? prov->u + 1 : 3) :
				  (prov->u ? prov->u - 1 : 0);
		if (taken && prov->ctr < 3)
			prov->ctr++;
		else if (!taken && prov->ctr > -4)
			prov->ctr--;
	} else {
		counter(&cm->tage_base[b], taken);
	}
	if (pred != taken && p < (int)g->n - 1) {
		unsigned int start = p + 1 + (rnd() & 1), done = 0;

		if (start >= g->n)
			start = p + 1;
		for (i = start; i < g->n && !done; i++) {
			e = &cm->tage_t[i][g->hit[i]];
			if (!e->u) {
				e->tag = g->want[i];
				e->ctr = taken ? 0 : -1;
				done = 1;
			}
		}
		for (i = p + 1; i < g->n && !done; i++)
			if (cm->tage_t[i][g->hit[i]].u)
				cm->tage_t[i][g->hit[i]].u--;
	}
	geom_age();
	return pred != taken;
}

/*
 * ITTAGE: as TAGE, with targets.  The base is a last-target table by PC;
 * a provider whose confidence is 0 defers to the alternate.  A right
 * provider gains confidence, a wrong one loses it and is replaced at 0.
 * 1: mispredicted.
 */
static int ittage_branch(uint64_t pc, uint64_t target)
{
	struct geom *g = &cm->ittage;
	struct ittage_entry *prov = NULL, *e;
	unsigned int b = hash_pc(pc) & mask(cm->btb_bits), i;
	uint64_t alt = cm->ittage_base[b], pred;
	int p, a;

	geom_lookup(g, pc);
	p = geom_match_below(g, ittage_tag, (int)g->n);
	a = geom_match_below(g, ittage_tag, p);
	if (p >= 0)
		prov = &cm->ittage_t[p][g->hit[p]];
	if (a >= 0)
		alt = cm->ittage_t[a][g->hit[a]].target;
	pred = prov && (prov->conf || alt == 0) ? prov->target : alt;
	if (prov) {
		if (prov->target != alt)
			prov->u = prov->target == target;
		if (prov->target == target) {
			if (prov->conf < 3)
				prov->conf++;
		} else if (prov->conf) {
			prov->conf--;
		} else {
			prov->target = target;
		}
	}
	cm->ittage_base[b] = target;
	if (pred != target && p < (int)g->n - 1) {
		int done = 0;

		for (i = p + 1; i < g->n && !done; i++) {
			e = &cm->ittage_t[i][g->hit[i]];
			if (!e->u) {
				e->tag = g->want[i];
				e->target = target;
				e->conf = 0;
				done = 1;
			}
		}
		for (i = p + 1; i < g->n && !done; i++)
			cm->ittage_t[i][g->hit[i]].u = 0;
	}
	geom_age();
	return pred != target;
}

static void branch_cond(uint64_t pc, int taken)
{
	unsigned int g = (hash_pc(pc) ^ cm->ghist) & mask(cm->gshare_bits);
	unsigned int b = hash_pc(pc) & mask(cm->bimodal_bits);
	int gshare = counter(&cm->gshare[g], taken);
	int bimodal = counter(&cm->bimodal[b], taken);
	int tage = tage_branch(pc, taken);

	cm->ghist = ((cm->ghist << 1) | !!taken) & mask(cm->hist_bits);
	ghist_push(!!taken, 1);
	if (!plug.active)
		return;
	cm->c.cond++;
	cm->c.cond_taken += !!taken;
	cm->c.cond_miss += gshare;
	cm->c.cond_miss_bimodal += bimodal;
	cm->c.cond_miss_tage += tage;
}

static void branch_indirect(uint64_t pc, uint64_t target)
{
	unsigned int b = hash_pc(pc) & mask(cm->btb_bits);
	uint64_t key = hash_pc(pc) ^ cm->phist ^ (cm->ghist << 7);
	/* multiplicative hashing: index and tag from different bits */
	unsigned int i = (key * 0x9e3779b97f4a7c15ull) >> (64 - cm->ind_bits);
	uint64_t tag = ((key * 0xc2b2ae3d27d4eb4full) >> 40) | 1, pred;
	int ittage = ittage_branch(pc, target);

	pred = cm->ind_tag[i] == tag ? cm->ind_target[i] : cm->btb[b];
	if (plug.active) {
		cm->c.ind++;
		cm->c.ind_miss += pred != target;
		cm->c.ind_miss_btb += cm->btb[b] != target;
		cm->c.ind_miss_ittage += ittage;
	}
	cm->btb[b] = target;
	cm->ind_tag[i] = tag;
	cm->ind_target[i] = target;
	/* the path: the last path_len targets, a few bits each */
	cm->phist = ((cm->phist << 6) ^ hash_pc(target)) &
		  ((1ull << (6 * cm->path_len)) - 1);
	/* and two bits of each target in TAGE's and ITTAGE's history */
	ghist_push((unsigned int)(hash_pc(target >> 2) & 3), 2);
}

static void ras_push(uint64_t ret)
{
	cm->ras_top = (cm->ras_top + 1) % cm->ras_size;
	cm->ras[cm->ras_top] = ret;
	if (cm->ras_n < cm->ras_size)
		cm->ras_n++;
}

static void branch_ret(uint64_t target)
{
	uint64_t pred = 0;

	if (cm->ras_n) {
		pred = cm->ras[cm->ras_top];
		cm->ras_top = (cm->ras_top + cm->ras_size - 1) % cm->ras_size;
		cm->ras_n--;
	}
	if (!plug.active)
		return;
	cm->c.ret++;
	cm->c.ret_miss += pred != target;
}

/*
 * The branch @b resolved: the next instruction is at @next.  A
 * conditional one (a jcc, or a predicated ARM branch, return or call) is
 * first a conditional branch; when taken, it is also its kind.
 */
static void resolve(const struct insn *b, uint64_t next)
{
	uint64_t fall = b->vaddr + b->size;

	if (b->cond) {
		branch_cond(b->vaddr, next != fall);
		if (next == fall)
			return;
	}
	switch (b->kind) {
	case K_JMP_IND:
		branch_indirect(b->vaddr, next);
		break;
	case K_CALL_IND:
		branch_indirect(b->vaddr, next);
		ras_push(fall);
		break;
	case K_CALL:
		ras_push(fall);
		break;
	case K_RET:
		branch_ret(next);
		break;
	}
}

/*
 * profile=: a line per instruction the window executed (address, size,
 * executions, whether it can branch, how often it went elsewhere than
 * the next instruction, capstone's disassembly), the input of the
 * interval model's base cost (bench/plugin/mcabase.c).
 */
static void profile_write(void)
{
	size_t i;

	for (i = 0; plug.prof && i < plug.nseen; i++) {
		const struct insn *in = plug.seen[i];

		fprintf(plug.prof, "window=%lu addr=%llx size=%u count=%llu branch=%d taken=%llu insn=%s\n",
			plug.window, (unsigned long long)in->vaddr, in->size,
			(unsigned long long)in->count, in->kind != K_OTHER || in->cond,
			(unsigned long long)in->taken,
			in->text ? in->text : "?");
	}
	if (plug.prof)
		fflush(plug.prof);
	plug.nseen = 0;
}

/* Count @in in the window's profile. */
static void profile_count(struct insn *in)
{
	if (in->epoch != plug.window + 1) {
		if (plug.nseen == plug.seen_cap) {
			plug.seen_cap = plug.seen_cap ? 2 * plug.seen_cap : 4096;
			plug.seen = realloc(plug.seen, plug.seen_cap * sizeof(*plug.seen));
			if (!plug.seen)
				die("out of memory");
		}
		plug.seen[plug.nseen++] = in;
		in->epoch = plug.window + 1;
		in->count = 0;
		in->taken = 0;
	}
	in->count++;
}

/* The window closed: one line of counters per core. */
static void window_close(void)
{
	int i;

	for (i = 0; plug.out && i < ncores; i++) {
		const struct counters *c = &cores[i].c;

		fprintf(plug.out,
			"window=%lu core=%s arch=%s insns=%llu cond=%llu cond_taken=%llu cond_miss=%llu cond_miss_bimodal=%llu cond_miss_tage=%llu ind=%llu ind_miss=%llu ind_miss_btb=%llu ind_miss_ittage=%llu ret=%llu ret_miss=%llu l1i_acc=%llu l1i_miss=%llu l1d_acc=%llu l1d_miss=%llu l2_acc=%llu l2_miss=%llu l2_lead=%llu restarts=%llu\n",
			plug.window, cores[i].name, plug.arch,
			(unsigned long long)c->insns, (unsigned long long)c->cond,
			(unsigned long long)c->cond_taken,
			(unsigned long long)c->cond_miss,
			(unsigned long long)c->cond_miss_bimodal,
			(unsigned long long)c->cond_miss_tage,
			(unsigned long long)c->ind, (unsigned long long)c->ind_miss,
			(unsigned long long)c->ind_miss_btb,
			(unsigned long long)c->ind_miss_ittage,
			(unsigned long long)c->ret, (unsigned long long)c->ret_miss,
			(unsigned long long)c->l1i_acc, (unsigned long long)c->l1i_miss,
			(unsigned long long)c->l1d_acc, (unsigned long long)c->l1d_miss,
			(unsigned long long)c->l2_acc, (unsigned long long)c->l2_miss,
			(unsigned long long)c->l2_lead,
			(unsigned long long)c->restarts);
	}
	profile_write();
	if (plug.out)
		fflush(plug.out);
	plug.window++;
}

/* Instruction @in of a window (or of the learning before one) on core cm. */
static void core_exec(const struct insn *in, const struct insn *last)
{
	uint64_t line;

	if (last)
		resolve(last, in->vaddr);
	cm->c.insns += plug.active;
	line = (in->vaddr >> cm->l1i.line_shift) + 1;
	if (line != cm->fetch_line) {
		cm->fetch_line = line;
		mem_access(&cm->l1i, in->vaddr, &cm->c.l1i_acc, &cm->c.l1i_miss);
	}
}

static void on_exec(unsigned int vcpu, void *udata)
{
	struct insn *in = udata, *last = plug.last;
	int i;

	(void)vcpu;
	if (in->kind == K_START || in->kind == K_STOP)
		plug.learning = 1;
	if (!plug.learning)
		return;
	plug.last = NULL;
	/* the profiled branch before this insn went elsewhere than the next one */
	if (last && plug.active && plug.prof && last->epoch == plug.window + 1 &&
	    in->vaddr != last->vaddr + last->size)
		last->taken++;
	if (in->kind == K_START) {
		/*
		 * A window counts from a clean slate of counters; the
		 * predictor and cache state carry over (warm).  A start inside
		 * an open window is counted, not obeyed.
		 */
		for (i = 0; i < ncores; i++) {
			cm = &cores[i];
			if (last)
				resolve(last, in->vaddr);
			if (plug.active) {
				cm->c.restarts++;
				continue;
			}
			memset(&cm->c, 0, sizeof(cm->c));
			cm->fetch_line = 0;
		}
		plug.active = 1;
		return;
	}
	if (in->kind == K_STOP) {
		for (i = 0; i < ncores; i++) {
			cm = &cores[i];
			if (last)
				resolve(last, in->vaddr);
		}
		if (plug.active)
			window_close();
		plug.active = 0;
		return;
	}
	for (i = 0; i < ncores; i++) {
		cm = &cores[i];
		core_exec(in, last);
	}
	plug.seq++;
	if (plug.active && plug.prof)
		profile_count(in);
	if (in->kind != K_OTHER || in->cond)
		plug.last = in;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	int i;

	(void)vcpu;
	(void)info;
	(void)udata;
	for (i = 0; plug.learning && i < ncores; i++) {
		cm = &cores[i];
		if (!mem_access(&cm->l1d, vaddr, &cm->c.l1d_acc, &cm->c.l1d_miss))
			continue;
		/*
		 * A data miss to memory leads when the previous leading one
		 * is no longer in the reorder buffer (rob instructions back);
		 * the misses after it within the buffer overlap with it.
		 */
		if (cm->lead_seq && plug.seq < cm->lead_seq - 1 + cm->rob)
			continue;
		cm->lead_seq = plug.seq + 1;
		cm->c.l2_lead += plug.active;
	}
}

static int word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && (!s[n] || s[n] == ' ' || s[n] == '.');
}

/* The operand text after the mnemonic, or "". */
static const char *operand(const char *d)
{
	d += strcspn(d, " \t");
	return d + strspn(d, " \t");
}

static void x86_kind(const char *d, struct insn *in)
{
	const char *op;

	/* prefixes capstone prints before the mnemonic */
	while (word_is(d, "bnd") || word_is(d, "notrack") || word_is(d, "rep") ||
	       word_is(d, "repz") || word_is(d, "repne") || word_is(d, "ds") ||
	       word_is(d, "cs"))
		d = operand(d);
	op = operand(d);
	if (word_is(d, "ret") || word_is(d, "retq") || word_is(d, "retl"))
		in->kind = K_RET;
	else if (word_is(d, "call") || word_is(d, "callq") || word_is(d, "calll"))
		in->kind = *op == '*' || (*op != '0' && *op != '$') ? K_CALL_IND : K_CALL;
	else if (word_is(d, "jmp") || word_is(d, "jmpq") || word_is(d, "jmpl"))
		in->kind = *op == '*' || (*op != '0' && *op != '$') ? K_JMP_IND : K_JMP;
	else if (d[0] == 'j' || !strncmp(d, "loop", 4))
		in->kind = K_JMP;
	in->cond = in->kind == K_JMP && !word_is(d, "jmp") && !word_is(d, "jmpq") &&
		   !word_is(d, "jmpl");
}

static int arm_cond_code(const char *s)
{
	static const char *const cc[] = {
		"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le",
	};
	size_t i;

	for (i = 0; i < sizeof(cc) / sizeof(cc[0]); i++)
		if (!strcmp(s, cc[i]))
			return 1;
	return 0;
}

/*
 * The mnemonic of @d without its condition and width suffixes into @base
 * ("bxeq" -> "bx", "popne" -> "pop", "bne.w" -> "b"); 1 when it had a
 * condition.  Only the mnemonics that can branch are split.
 */
static int arm_mnemonic(const char *d, char *base, size_t n)
{
	static const char *const branching[] = {
		"b", "bl", "blx", "bx", "cbz", "cbnz", "pop", "ldm", "ldmia",
		"ldmfd", "ldr", "add", "mov", "tbb", "tbh",
	};
	char w[16];
	size_t len = strcspn(d, " \t."), i;

	snprintf(w, sizeof(w), "%.*s", (int)(len < sizeof(w) ? len : sizeof(w) - 1), d);
	snprintf(base, n, "%s", w);
	for (i = 0; i < sizeof(branching) / sizeof(branching[0]); i++)
		if (!strcmp(w, branching[i]))
			return 0;
	len = strlen(w);
	if (len < 3 || !arm_cond_code(w + len - 2))
		return 0;
	w[len - 2] = '\0';
	for (i = 0; i < sizeof(branching) / sizeof(branching[0]); i++)
		if (!strcmp(w, branching[i])) {
			snprintf(base, n, "%s", w);
			return 1;
		}
	return 0;
}

/* A register operand (not #imm nor an address): capstone's r0-r12, sb, sl, fp, ip, lr */
static int arm_reg(const char *op)
{
	return *op && *op != '#' && (*op < '0' || *op > '9');
}

static void arm_kind(const char *d, struct insn *in)
{
	const char *op = operand(d);
	char b[16];

	in->cond = arm_mnemonic(d, b, sizeof(b)) || !strcmp(b, "cbz") ||
		   !strcmp(b, "cbnz");
	if (!strcmp(b, "cbz") || !strcmp(b, "cbnz") || !strcmp(b, "b"))
		in->kind = K_JMP;
	else if (!strcmp(b, "bl"))
		in->kind = K_CALL;
	else if (!strcmp(b, "blx"))
		in->kind = arm_reg(op) ? K_CALL_IND : K_CALL;
	else if (!strcmp(b, "bx"))
		in->kind = !strncmp(op, "lr", 2) ? K_RET : K_JMP_IND;
	else if ((!strcmp(b, "pop") || !strncmp(b, "ldm", 3)) && strstr(op, "pc"))
		in->kind = K_RET;
	/* ldr pc, [sp], #4: the one-register pop */
	else if (!strcmp(b, "ldr") && !strncmp(op, "pc, [sp]", 8))
		in->kind = K_RET;
	else if (!strcmp(b, "mov") && !strncmp(op, "pc, lr", 6))
		in->kind = K_RET;
	/* a switch's table jump: Thumb-2 tbb/tbh, ARM ldr pc / add pc */
	else if (!strcmp(b, "tbb") || !strcmp(b, "tbh"))
		in->kind = K_JMP_IND;
	else if ((!strcmp(b, "ldr") || !strcmp(b, "add")) && !strncmp(op, "pc,", 3))
		in->kind = K_JMP_IND;
	else if (!strcmp(b, "mov") && !strncmp(op, "pc, ", 4))
		in->kind = K_JMP_IND;
	if (in->kind == K_OTHER)
		in->cond = 0;
}

static int marker(const uint8_t *b, size_t n)
{
	static const uint8_t x86_nop[4] = { 0x0f, 0x1f, 0x84, 0x00 };

	if (n == 8 && !memcmp(b, x86_nop, 4) && b[4] == 'B' && b[5] == 'P' &&
	    b[6] == 'M' && (b[7] == '1' || b[7] == '0'))
		return b[7] == '1' ? K_START : K_STOP;
	/* Thumb mov r11, r11 / mov r10, r10; ARM state e1a0b00b / e1a0a00a */
	if (n == 2 && b[1] == 0x46 && (b[0] == 0xdb || b[0] == 0xd2))
		return b[0] == 0xdb ? K_START : K_STOP;
	if (n == 4 && b[3] == 0xe1 && b[2] == 0xa0 &&
	    ((b[1] == 0xb0 && b[0] == 0x0b) || (b[1] == 0xa0 && b[0] == 0x0a)))
		return b[1] == 0xb0 ? K_START : K_STOP;
	return K_OTHER;
}

/*
 * The record of the instruction at @vaddr with @bytes: the one made when
 * it was first translated (QEMU translates a block again after a flush,
 * and tells a plugin of no block it frees), else a new one.
 */
static struct insn *insn_record(struct qemu_plugin_insn *qi, int x86)
{
	uint64_t vaddr = qemu_plugin_insn_vaddr(qi);
	size_t size = qemu_plugin_insn_size(qi);
	const uint8_t *data = qemu_plugin_insn_data(qi);
	uint64_t h = vaddr;
	struct insn **slot, *in;
	size_t i, n = size < INSN_BYTES ? size : INSN_BYTES;
	char *d;

	plug.insn_translations++;
	for (i = 0; i < n; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	slot = &plug.insns[(h * 0x9e3779b97f4a7c15ull) >> (64 - INSN_HASH_BITS)];
	for (in = *slot; in; in = in->next)
		if (in->vaddr == vaddr && in->size == size && !memcmp(in->bytes, data, n))
			return in;
	in = zalloc(1, sizeof(*in));
	in->vaddr = vaddr;
	in->size = size;
	memcpy(in->bytes, data, n);
	in->kind = marker(data, size);
	if (in->kind == K_OTHER) {
		d = qemu_plugin_insn_disas(qi);
		if (d) {
			if (x86)
				x86_kind(d, in);
			else
				arm_kind(d, in);
			if (plug.prof)
				in->text = d;
			else
				free(d);
		}
	}
	in->next = *slot;
	*slot = in;
	plug.insn_records++;
	return in;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	int x86 = !strncmp(plug.arch, "x86", 3) || !strcmp(plug.arch, "i386");

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);

		qemu_plugin_register_vcpu_insn_exec_cb(qi, on_exec, QEMU_PLUGIN_CB_NO_REGS,
						       insn_record(qi, x86));
		qemu_plugin_register_vcpu_mem_cb(qi, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (!plug.out)
		return;
	fprintf(plug.out, "end insn_records=%llu insn_translations=%llu\n",
		(unsigned long long)plug.insn_records,
		(unsigned long long)plug.insn_translations);
	fclose(plug.out);
	plug.out = NULL;
	if (plug.prof)
		fclose(plug.prof);
	plug.prof = NULL;
}

static unsigned int uint_arg(const char *key, const char *v, unsigned long max)
{
	char *end, msg[96];
	unsigned long x;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *end || end == v || x < 1 || x > max) {
		snprintf(msg, sizeof(msg), "%s=%s: want 1..%lu", key, v, max);
		die(msg);
	}
	return x;
}

/* log2 of a table size */
static unsigned int bits_arg(const char *key, const char *v)
{
	return uint_arg(key, v, 24);
}

/* "TABLES:BITS:LONGEST" of a tagged geometric predictor */
static void geom_arg(struct geom *g, const char *key, const char *v)
{
	unsigned int n, bits, longest;
	char end, msg[160];

	if (sscanf(v, "%u:%u:%u%c", &n, &bits, &longest, &end) != 3 || n < 1 ||
	    n > GEOM_MAX_TABLES || bits < 4 || bits > 20 ||
	    longest < GEOM_MIN_HIST || longest >= GHIST_BITS) {
		snprintf(msg, sizeof(msg),
			 "%s=%s: want TABLES:BITS:LONGEST, 1..%d tables of 2^4..2^20 entries, the longest history %d..%d",
			 key, v, GEOM_MAX_TABLES, GEOM_MIN_HIST, GHIST_BITS - 1);
		die(msg);
	}
	g->n = n;
	g->bits = bits;
	g->len[0] = longest;
}

static void parse_arg(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[32], msg[160];
	const char *v;

	if (!eq || (size_t)(eq - arg) >= sizeof(key)) {
		snprintf(msg, sizeof(msg), "argument '%s': want KEY=VALUE", arg);
		die(msg);
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	v = eq + 1;
	if (!strcmp(key, "core") || (!ncores && strcmp(key, "out") && strcmp(key, "profile"))) {
		if (ncores == MAX_CORES) {
			snprintf(msg, sizeof(msg), "core=%s: at most %d cores", v, MAX_CORES);
			die(msg);
		}
		cm = &cores[ncores++];
		*cm = core_defaults;
		snprintf(cm->name, sizeof(cm->name), "%s", strcmp(key, "core") ? "model" : v);
		cache_init(&cm->l1i, "32768:8:64", "l1i");
		cache_init(&cm->l1d, "32768:8:64", "l1d");
		cache_init(&cm->l2, "1048576:16:64", "l2");
		if (!strcmp(key, "core"))
			return;
	}
	if (!strcmp(key, "out")) {
		plug.out = fopen(v, "a");
		if (!plug.out) {
			snprintf(msg, sizeof(msg), "out=%s: %s", v, strerror(errno));
			die(msg);
		}
	} else if (!strcmp(key, "profile")) {
		plug.prof = fopen(v, "a");
		if (!plug.prof) {
			snprintf(msg, sizeof(msg), "profile=%s: %s", v, strerror(errno));
			die(msg);
		}
	} else if (!strcmp(key, "l1i")) {
		cache_init(&cm->l1i, v, key);
	} else if (!strcmp(key, "l1d")) {
		cache_init(&cm->l1d, v, key);
	} else if (!strcmp(key, "l2")) {
		cache_init(&cm->l2, v, key);
	} else if (!strcmp(key, "gshare_bits")) {
		cm->gshare_bits = bits_arg(key, v);
	} else if (!strcmp(key, "hist_bits")) {
		cm->hist_bits = bits_arg(key, v);
	} else if (!strcmp(key, "bimodal_bits")) {
		cm->bimodal_bits = bits_arg(key, v);
	} else if (!strcmp(key, "btb_bits")) {
		cm->btb_bits = bits_arg(key, v);
	} else if (!strcmp(key, "ind_bits")) {
		cm->ind_bits = bits_arg(key, v);
	} else if (!strcmp(key, "path_len")) {
		cm->path_len = uint_arg(key, v, 10);
	} else if (!strcmp(key, "ras")) {
		cm->ras_size = uint_arg(key, v, 1024);
	} else if (!strcmp(key, "rob")) {
		cm->rob = uint_arg(key, v, 4096);
	} else if (!strcmp(key, "tage")) {
		geom_arg(&cm->tage, key, v);
	} else if (!strcmp(key, "ittage")) {
		geom_arg(&cm->ittage, key, v);
	} else {
		snprintf(msg, sizeof(msg), "unknown argument '%s'", key);
		die(msg);
	}
}

/* The tables of core cm, its parameters parsed. */
static void core_init(void)
{
	unsigned int i;

	if (cm->hist_bits > cm->gshare_bits)
		cm->hist_bits = cm->gshare_bits;
	cm->gshare = zalloc(1u << cm->gshare_bits, 1);
	cm->bimodal = zalloc(1u << cm->bimodal_bits, 1);
	cm->btb = zalloc(1u << cm->btb_bits, sizeof(*cm->btb));
	cm->ind_target = zalloc(1u << cm->ind_bits, sizeof(*cm->ind_target));
	cm->ind_tag = zalloc(1u << cm->ind_bits, sizeof(*cm->ind_tag));
	cm->ras = zalloc(cm->ras_size, sizeof(*cm->ras));
	cm->tage_base = zalloc(1u << cm->bimodal_bits, 1);
	cm->ittage_base = zalloc(1u << cm->btb_bits, sizeof(*cm->ittage_base));
	geom_init(&cm->tage);
	geom_init(&cm->ittage);
	for (i = 0; i < cm->tage.n; i++)
		cm->tage_t[i] = zalloc(1u << cm->tage.bits, sizeof(*cm->tage_t[i]));
	for (i = 0; i < cm->ittage.n; i++)
		cm->ittage_t[i] = zalloc(1u << cm->ittage.bits, sizeof(*cm->ittage_t[i]));
	cm->rng = 0x2545f4914f6cdd1dull;
	/* weakly taken: a loop branch is learnt on its first iterations */
	memset(cm->gshare, 2, 1u << cm->gshare_bits);
	memset(cm->bimodal, 2, 1u << cm->bimodal_bits);
	memset(cm->tage_base, 2, 1u << cm->bimodal_bits);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int a;

	plug.arch = info && info->target_name ? info->target_name : "unknown";
	for (a = 0; a < argc; a++)
		parse_arg(argv[a]);
	if (!plug.out)
		die("no out=FILE given");
	if (!ncores)
		parse_arg("core=model");
	for (a = 0; a < ncores; a++) {
		cm = &cores[a];
		core_init();
	}
	plug.insns = zalloc(1u << INSN_HASH_BITS, sizeof(*plug.insns));
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
