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
 * The models (parameters: plugin arguments, from bench/cores.conf):
 *   conditional branches: bimodal (2-bit counters by PC) and gshare
 *     (2-bit counters by PC xor global history), both counted;
 *   indirect jumps and calls: a BTB (last target by PC) and a history
 *     predictor (target by PC hashed with the path of recent targets and
 *     the conditional history, tagged; the BTB's target when no tag
 *     matches), both counted;
 *   returns: a return stack;
 *   caches: L1I (fetch of each new line), L1D (each access's line), a
 *     unified L2 behind both, set-associative with LRU, virtual addresses.
 * Direct branches are taken to be predicted (no BTB misses modelled).
 *
 * Usage: -plugin file=bpfmodel.so,out=FILE[,KEY=VALUE...]; keys in
 * parse_arg().  Written for one vCPU (the bench guests have one); with
 * more, the windows of all vCPUs share the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum kind {
	K_OTHER,
	K_COND,		/* conditional direct branch */
	K_JMP,		/* unconditional direct jump */
	K_JMP_IND,	/* indirect jump */
	K_CALL,		/* direct call */
	K_CALL_IND,	/* indirect call */
	K_RET,		/* return */
	K_START,	/* the markers */
	K_STOP,
};

struct insn {
	uint64_t vaddr;
	uint8_t size, kind;
};

struct cache {
	unsigned int sets, ways, line_shift;
	uint64_t *tag;		/* [sets * ways], 0: empty (tags are line + 1) */
	uint64_t *used;		/* last use, for LRU */
	uint64_t tick, acc, miss;
};

struct counters {
	uint64_t insns, cond, cond_miss, cond_miss_bimodal;
	uint64_t ind, ind_miss, ind_miss_btb, ret, ret_miss;
};

static struct {
	/* parameters */
	unsigned int gshare_bits, hist_bits, bimodal_bits, btb_bits;
	unsigned int ind_bits, path_len, ras_size;
	/* predictor state */
	uint8_t *gshare, *bimodal;
	uint64_t *btb, *ind_target, *ind_tag, *ras;
	uint64_t ghist, phist;
	unsigned int ras_top, ras_n;
	struct cache l1i, l1d, l2;
	/* the window */
	int active;
	unsigned long window;
	struct counters c;
	uint64_t l1i_acc, l1i_miss, l1d_acc, l1d_miss, l2_acc, l2_miss;
	uint64_t fetch_line;
	const struct insn *last;	/* a branch waiting for its outcome */
	FILE *out;
	const char *arch;
} m = {
	.gshare_bits = 14, .hist_bits = 14, .bimodal_bits = 12,
	.btb_bits = 12, .ind_bits = 12, .path_len = 4, .ras_size = 32,
};

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

/* An access through L1 @c; its misses go to the L2. */
static void mem_access(struct cache *c, uint64_t addr, uint64_t *acc,
		       uint64_t *miss)
{
	(*acc)++;
	if (!cache_access(c, addr))
		return;
	(*miss)++;
	m.l2_acc++;
	if (cache_access(&m.l2, addr))
		m.l2_miss++;
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

static void branch_cond(uint64_t pc, int taken)
{
	unsigned int g = (hash_pc(pc) ^ m.ghist) & mask(m.gshare_bits);
	unsigned int b = hash_pc(pc) & mask(m.bimodal_bits);

	m.c.cond++;
	m.c.cond_miss += counter(&m.gshare[g], taken);
	m.c.cond_miss_bimodal += counter(&m.bimodal[b], taken);
	m.ghist = ((m.ghist << 1) | !!taken) & mask(m.hist_bits);
}

static void branch_indirect(uint64_t pc, uint64_t target)
{
	unsigned int b = hash_pc(pc) & mask(m.btb_bits);
	uint64_t key = hash_pc(pc) ^ m.phist ^ (m.ghist << 7);
	/* multiplicative hashing: index and tag from different bits */
	unsigned int i = (key * 0x9e3779b97f4a7c15ull) >> (64 - m.ind_bits);
	uint64_t tag = ((key * 0xc2b2ae3d27d4eb4full) >> 40) | 1, pred;

	m.c.ind++;
	pred = m.ind_tag[i] == tag ? m.ind_target[i] : m.btb[b];
	m.c.ind_miss += pred != target;
	m.c.ind_miss_btb += m.btb[b] != target;
	m.btb[b] = target;
	m.ind_tag[i] = tag;
	m.ind_target[i] = target;
	/* the path: the last path_len targets, a few bits each */
	m.phist = ((m.phist << 6) ^ hash_pc(target)) &
		  ((1ull << (6 * m.path_len)) - 1);
}

static void ras_push(uint64_t ret)
{
	m.ras_top = (m.ras_top + 1) % m.ras_size;
	m.ras[m.ras_top] = ret;
	if (m.ras_n < m.ras_size)
		m.ras_n++;
}

static void branch_ret(uint64_t target)
{
	uint64_t pred = 0;

	if (m.ras_n) {
		pred = m.ras[m.ras_top];
		m.ras_top = (m.ras_top + m.ras_size - 1) % m.ras_size;
		m.ras_n--;
	}
	m.c.ret++;
	m.c.ret_miss += pred != target;
}

/* The branch @b resolved: the next instruction is at @next. */
static void resolve(const struct insn *b, uint64_t next)
{
	uint64_t fall = b->vaddr + b->size;

	switch (b->kind) {
	case K_COND:
		branch_cond(b->vaddr, next != fall);
		break;
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

static void window_close(void)
{
	if (!m.out)
		return;
	fprintf(m.out,
		"window=%lu arch=%s insns=%llu cond=%llu cond_miss=%llu cond_miss_bimodal=%llu ind=%llu ind_miss=%llu ind_miss_btb=%llu ret=%llu ret_miss=%llu l1i_acc=%llu l1i_miss=%llu l1d_acc=%llu l1d_miss=%llu l2_acc=%llu l2_miss=%llu\n",
		m.window, m.arch,
		(unsigned long long)m.c.insns, (unsigned long long)m.c.cond,
		(unsigned long long)m.c.cond_miss,
		(unsigned long long)m.c.cond_miss_bimodal,
		(unsigned long long)m.c.ind, (unsigned long long)m.c.ind_miss,
		(unsigned long long)m.c.ind_miss_btb,
		(unsigned long long)m.c.ret, (unsigned long long)m.c.ret_miss,
		(unsigned long long)m.l1i_acc, (unsigned long long)m.l1i_miss,
		(unsigned long long)m.l1d_acc, (unsigned long long)m.l1d_miss,
		(unsigned long long)m.l2_acc, (unsigned long long)m.l2_miss);
	fflush(m.out);
	m.window++;
}

static void on_exec(unsigned int vcpu, void *udata)
{
	const struct insn *in = udata;
	uint64_t line;

	(void)vcpu;
	if (m.last) {
		resolve(m.last, in->vaddr);
		m.last = NULL;
	}
	if (in->kind == K_START) {
		/* a window counts from a clean slate of counters, the
		 * predictor and cache state carry over (warm)
		 */
		memset(&m.c, 0, sizeof(m.c));
		m.l1i_acc = m.l1i_miss = m.l1d_acc = m.l1d_miss = 0;
		m.l2_acc = m.l2_miss = 0;
		m.fetch_line = 0;
		m.active = 1;
		return;
	}
	if (in->kind == K_STOP) {
		if (m.active)
			window_close();
		m.active = 0;
		return;
	}
	if (!m.active)
		return;
	m.c.insns++;
	line = (in->vaddr >> m.l1i.line_shift) + 1;
	if (line != m.fetch_line) {
		m.fetch_line = line;
		mem_access(&m.l1i, in->vaddr, &m.l1i_acc, &m.l1i_miss);
	}
	if (in->kind != K_OTHER)
		m.last = in;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	(void)vcpu;
	(void)info;
	(void)udata;
	if (m.active)
		mem_access(&m.l1d, vaddr, &m.l1d_acc, &m.l1d_miss);
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

static int x86_kind(const char *d)
{
	const char *op;

	/* prefixes capstone prints before the mnemonic */
	while (word_is(d, "bnd") || word_is(d, "notrack") || word_is(d, "rep") ||
	       word_is(d, "repz") || word_is(d, "repne") || word_is(d, "ds") ||
	       word_is(d, "cs"))
		d = operand(d);
	op = operand(d);
	if (word_is(d, "ret") || word_is(d, "retq") || word_is(d, "retl"))
		return K_RET;
	if (word_is(d, "call") || word_is(d, "callq") || word_is(d, "calll"))
		return *op == '*' || (*op != '0' && *op != '$') ? K_CALL_IND : K_CALL;
	if (word_is(d, "jmp") || word_is(d, "jmpq") || word_is(d, "jmpl"))
		return *op == '*' || (*op != '0' && *op != '$') ? K_JMP_IND : K_JMP;
	if (d[0] == 'j' || !strncmp(d, "loop", 4))
		return K_COND;
	return K_OTHER;
}

static int arm_cond_suffix(const char *s)
{
	static const char *const cc[] = {
		"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
		"hi", "ls", "ge", "lt", "gt", "le",
	};
	size_t i;

	for (i = 0; i < sizeof(cc) / sizeof(cc[0]); i++)
		if (!strncmp(s, cc[i], 2) && (!s[2] || s[2] == ' ' || s[2] == '.'))
			return 1;
	return 0;
}

static int arm_kind(const char *d)
{
	const char *op = operand(d);

	if (word_is(d, "cbz") || word_is(d, "cbnz"))
		return K_COND;
	if (word_is(d, "b"))
		return K_JMP;
	if (d[0] == 'b' && arm_cond_suffix(d + 1))
		return K_COND;
	if (word_is(d, "bl"))
		return K_CALL;
	if (word_is(d, "blx"))
		return *op == 'r' || *op == 'l' || *op == 'i' ? K_CALL_IND : K_CALL;
	if (word_is(d, "bx"))
		return !strncmp(op, "lr", 2) ? K_RET : K_JMP_IND;
	if ((word_is(d, "pop") || word_is(d, "ldm") || word_is(d, "ldmia")) &&
	    strstr(op, "pc"))
		return K_RET;
	if (word_is(d, "mov") && !strncmp(op, "pc, lr", 6))
		return K_RET;
	/* a switch's table jump: Thumb-2 tbb/tbh, ARM ldr pc / add pc */
	if (word_is(d, "tbb") || word_is(d, "tbh"))
		return K_JMP_IND;
	if ((word_is(d, "ldr") || word_is(d, "add")) && !strncmp(op, "pc,", 3))
		return K_JMP_IND;
	if (word_is(d, "mov") && !strncmp(op, "pc, r", 5))
		return K_JMP_IND;
	return K_OTHER;
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

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	int x86 = !strncmp(m.arch, "x86", 3) || !strcmp(m.arch, "i386");

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
		struct insn *in = zalloc(1, sizeof(*in));
		char *d;

		in->vaddr = qemu_plugin_insn_vaddr(qi);
		in->size = qemu_plugin_insn_size(qi);
		in->kind = marker(qemu_plugin_insn_data(qi), in->size);
		if (in->kind == K_OTHER) {
			d = qemu_plugin_insn_disas(qi);
			if (d) {
				in->kind = x86 ? x86_kind(d) : arm_kind(d);
				free(d);
			}
		}
		qemu_plugin_register_vcpu_insn_exec_cb(qi, on_exec,
						       QEMU_PLUGIN_CB_NO_REGS, in);
		qemu_plugin_register_vcpu_mem_cb(qi, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (m.out)
		fclose(m.out);
	m.out = NULL;
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
	if (!strcmp(key, "out")) {
		m.out = fopen(v, "a");
		if (!m.out) {
			snprintf(msg, sizeof(msg), "out=%s: %s", v, strerror(errno));
			die(msg);
		}
	} else if (!strcmp(key, "l1i")) {
		cache_init(&m.l1i, v, key);
	} else if (!strcmp(key, "l1d")) {
		cache_init(&m.l1d, v, key);
	} else if (!strcmp(key, "l2")) {
		cache_init(&m.l2, v, key);
	} else if (!strcmp(key, "gshare_bits")) {
		m.gshare_bits = bits_arg(key, v);
	} else if (!strcmp(key, "hist_bits")) {
		m.hist_bits = bits_arg(key, v);
	} else if (!strcmp(key, "bimodal_bits")) {
		m.bimodal_bits = bits_arg(key, v);
	} else if (!strcmp(key, "btb_bits")) {
		m.btb_bits = bits_arg(key, v);
	} else if (!strcmp(key, "ind_bits")) {
		m.ind_bits = bits_arg(key, v);
	} else if (!strcmp(key, "path_len")) {
		m.path_len = uint_arg(key, v, 10);
	} else if (!strcmp(key, "ras")) {
		m.ras_size = uint_arg(key, v, 1024);
	} else {
		snprintf(msg, sizeof(msg), "unknown argument '%s'", key);
		die(msg);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	m.arch = info && info->target_name ? info->target_name : "unknown";
	cache_init(&m.l1i, "32768:8:64", "l1i");
	cache_init(&m.l1d, "32768:8:64", "l1d");
	cache_init(&m.l2, "1048576:16:64", "l2");
	for (i = 0; i < argc; i++)
		parse_arg(argv[i]);
	if (!m.out)
		die("no out=FILE given");
	if (m.hist_bits > m.gshare_bits)
		m.hist_bits = m.gshare_bits;
	m.gshare = zalloc(1u << m.gshare_bits, 1);
	m.bimodal = zalloc(1u << m.bimodal_bits, 1);
	m.btb = zalloc(1u << m.btb_bits, sizeof(*m.btb));
	m.ind_target = zalloc(1u << m.ind_bits, sizeof(*m.ind_target));
	m.ind_tag = zalloc(1u << m.ind_bits, sizeof(*m.ind_tag));
	m.ras = zalloc(m.ras_size, sizeof(*m.ras));
	/* weakly taken: a loop branch is learnt on its first iterations */
	memset(m.gshare, 2, 1u << m.gshare_bits);
	memset(m.bimodal, 2, 1u << m.bimodal_bits);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
