// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_bench - time classic BPF programs on sk_buffs, one engine at a time.
 *
 * Re-measures what commit bd4cf0ed331a ("net: filter: rework/optimize
 * internal BPF interpreter's instruction set") measured: ns per call of a
 * classic BPF program run on the same skb (cache hit) or cycling through
 * many skbs (cache miss), through an interpreter or the JIT.
 *
 * Driven from /sys/kernel/debug/bpf_bench/.  Every write is parsed and
 * validated completely before it is applied: a rejected write returns an
 * errno, says why in the kernel log and leaves the previous configuration
 * untouched.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/bpf.h>
#include <linux/bpf_classic.h>
#include <linux/compiler.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/preempt.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef BENCH_LINUX_UNALIGNED	/* Kbuild: 6.12 moved them out of asm/ */
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#define BENCH_SKBS_MAX		100000
#define BENCH_SAMPLES_MAX	1000
#define BENCH_SAMPLE_US_MIN	100
#define BENCH_SAMPLE_US_MAX	1000000
#define BENCH_CALLS_MAX		BIT_ULL(30)
#define BENCH_CALIB_RUNS	3	/* runs of the chosen call count in calibration */
#define BENCH_MODEL_CALLS_MAX	1000000
/* 4096 lines of "{ 0x28, 0, 0, 0x0000000c }," are about 120 KB. */
#define BENCH_PROG_TEXT_MAX	(256 * 1024)
#define BENCH_PACKET_TEXT_MAX	(8 * 1024)
#define BENCH_WORD_TEXT_MAX	64
/* mix=1: the frame set's frames, "VERDICT HEX..." a line */
#define BENCH_FRAMES_MAX	16
#define BENCH_FRAMES_TEXT_MAX	(BENCH_FRAMES_MAX * BENCH_PACKET_TEXT_MAX)
#define BENCH_MIX_SEED		2014	/* of the skbs' fixed shuffled order */

struct bench_run;

/* Indices into bench_engines[]. */
enum {
	BENCH_ENGINE_BASELINE,
	BENCH_ENGINE_OLD,
	BENCH_ENGINE_NEW,
	BENCH_ENGINE_JIT,
	BENCH_ENGINE_OLDJIT,
	BENCH_ENGINE_NEW2014,
	BENCH_NR_ENGINES
};

/**
 * struct bench_engine - one way of running a classic BPF program
 * @name: what the engine knob takes and shows
 * @needs: the configuration an engine that is not built in needs
 * @prepare: build what @loop runs from the current program; sets @arg,
 *	@jited, @len and @image_bytes of the run
 * @destroy: undo @prepare (may be NULL)
 * @loop: make @n calls cycling through the run's skbs; returns how many
 *	calls returned something else than the run's @expect (or, in a
 *	mixed run, than their skb's @expects entry)
 * @call: one call of what @prepare built (for the eval knob; NULL for
 *	baseline, which runs no program)
 * @count: one call on @skb through a copy of the engine's virtual machine
 *	that counts the VM instructions it executes (classic ones for old,
 *	eBPF ones for the others; jit counts its program interpreted);
 *	sets *@ret and *@insns, returns 0 or a negative errno (may be NULL)
 *
 * An engine that is not built in has a NULL @loop.
 */
struct bench_engine {
	const char *name;
	const char *needs;
	int (*prepare)(struct bench_run *r);
	void (*destroy)(struct bench_run *r);
	u64 (*loop)(struct bench_run *r, u64 n);
	u32 (*call)(const void *arg, const struct sk_buff *skb);
	int (*count)(const struct bench_run *r, const struct sk_buff *skb,
		     u32 *ret, u64 *insns);
};

/* One run of the configured cell. */
struct bench_run {
	const struct bench_engine *engine;
	struct sk_buff **skbs;
	u32 nr_skbs;
	u32 idx;			/* next skb, wraps at nr_skbs */
	u32 expect;
	const u32 *expects;		/* mix: each skb's verdict, else NULL */
	const void *arg;		/* first argument of every call */
	struct bpf_prog *prog;		/* new, jit */
	struct sock_filter *insns;	/* old */
	struct bench_oldjit *oldjit;	/* oldjit */
	bool fallback;			/* oldjit: not compiled */
	u32 bad_ret;			/* first mismatch of the last loop */
	u32 bad_idx;			/* and the skb it was returned for */
	u32 jited;
	u32 len;
	u32 image_bytes;
	unsigned long image;		/* where the JIT image starts */
};

struct bench_result {
	const char *engine;
	u32 skbs;
	u32 samples;
	u64 calls;
	u64 min_ps;
	u64 median_ps;
	u64 mean_ps;
	u64 stddev_ps;
	u64 ci_lo_ps;			/* 95% CI of the median, when ci_level */
	u64 ci_hi_ps;
	u32 ci_level;			/* its coverage in 0.1%, 0: n too small */
	u32 verdict;
	u32 jited;
	u32 len;
	u32 image_bytes;
	unsigned long image;
	const char *fallback;		/* oldjit: "0" or "1", else NULL */
	u64 vm_insns;			/* summed over vm_insns_skbs skbs */
	u32 vm_insns_skbs;
	bool vm_insns_valid;
	u32 mix_frames;			/* 0: one packet, else the frame set's */
	u32 mix_accepted;		/* skbs whose verdict is not 0 */
	u32 model_calls;		/* 0: no model window */
	u64 model_window;
};

static DEFINE_MUTEX(bench_lock);

/* Everything below is protected by bench_lock. */
static struct {
	struct sock_filter *prog;	/* BPF_MAXINSNS entries, kvmalloc'd */
	u32 prog_len;
	u8 packet[ETH_FRAME_LEN];
	u32 packet_len;
	bool packet_set;		/* 0..13 bytes: eval only */
	u32 headlen;			/* 0: all linear */
	u32 mix;			/* 1: the skbs are the frame set's */
	struct {
		u8 (*data)[ETH_FRAME_LEN];	/* kvmalloc'd, NULL: no set */
		u32 len[BENCH_FRAMES_MAX];
		u32 verdict[BENCH_FRAMES_MAX];
		u32 nr;
	} frames;
	const struct bench_engine *engine;
	u32 skbs;
	u32 samples;
	u32 sample_us;
	u32 expect;
	bool expect_set;
	u32 model_calls;		/* calls of the marked window, 0: none */
	u64 model_windows;		/* marked windows run since load */
	bool result_valid;
	struct bench_result result;
	/* eval: each engine's program, built at the first eval after a prog write */
	struct bench_run eval_run[BENCH_NR_ENGINES];
	int eval_err[BENCH_NR_ENGINES];
	bool eval_built[BENCH_NR_ENGINES];
	struct dentry *dir;
} bench;

/* Numbers are decimal, or hex with a 0x prefix; never octal. */
static int bench_parse_u32(const char *s, u32 *val)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	return kstrtou32(s, hex ? 16 : 10, val);
}

/*
 * The timed loop.  Always inlined into one loop function per engine, with
 * @call a compile-time constant, so every call is a direct call (or
 * inlined, like bpf_prog_run()).  @mixed (a constant too) checks each
 * call against its skb's verdict; a run of one packet keeps a loop that
 * checks one verdict, which loads no verdict a call (its x86-64 code
 * executes as many instructions a call as before mixed runs existed; the
 * ARM code executes one more).
 */
static __always_inline u64
bench_loop_calls(struct bench_run *r, u64 n,
		 u32 (*call)(const void *arg, const struct sk_buff *skb),
		 bool mixed)
{
	struct sk_buff **skbs = r->skbs;
	const u32 *expects = r->expects;
	const void *arg = r->arg;
	u32 nr = r->nr_skbs;
	u32 expect = r->expect;
	u32 i = r->idx;
	u64 bad = 0;

	for (; n; n--) {
		u32 ret = call(arg, skbs[i]);

		if (unlikely(ret != (mixed ? expects[i] : expect))) {
			if (!bad) {
				r->bad_ret = ret;
				r->bad_idx = i;
			}
			bad++;
		}
		if (++i == nr)
			i = 0;
	}
	r->idx = i;
	return bad;
}

static __always_inline u64
bench_loop(struct bench_run *r, u64 n,
	   u32 (*call)(const void *arg, const struct sk_buff *skb))
{
	if (r->expects)
		return bench_loop_calls(r, n, call, true);
	return bench_loop_calls(r, n, call, false);
}

/* baseline: no BPF, what the loop and a call cost by themselves. */
static noinline __noclone u32 bench_baseline_call(const void *arg,
						  const struct sk_buff *skb)
{
	return READ_ONCE(*(const u32 *)arg);
}

static u64 bench_baseline_loop(struct bench_run *r, u64 n)
{
	return bench_loop(r, n, bench_baseline_call);
}

static int bench_baseline_prepare(struct bench_run *r)
{
	if (r->expects) {
		pr_warn("run: baseline runs no program: it has no verdicts to give for mix=1\n");
		return -EINVAL;
	}
	r->arg = &r->expect;
	return 0;
}

#if IS_ENABLED(CONFIG_BPF_JIT)
static int bench_jit_set(int on)
{
	int old = READ_ONCE(bpf_jit_enable);

	WRITE_ONCE(bpf_jit_enable, on);
	return old;
}
#else
static int bench_jit_set(int on)
{
	return 0;
}
#endif

/*
 * Convert a classic program to eBPF with bpf_prog_create(), interpreted
 * or JITed: it JITs when bpf_jit_enable is set, so force that around it.
 * bench_lock serialises us against ourselves; a concurrent sysctl write
 * can still win, which the callers catch by checking prog->jited.
 */
static int bench_prog_create(struct sock_filter *insns, u32 len, bool jit,
			     struct bpf_prog **pp)
{
	struct sock_fprog_kern fprog = { .len = len, .filter = insns };
	int saved, err;

	lockdep_assert_held(&bench_lock);
	saved = bench_jit_set(jit);
	err = bpf_prog_create(pp, &fprog);
	bench_jit_set(saved);
	return err;
}

static int bench_prog_prepare(struct bench_run *r, bool jit)
{
	const char *name = r->engine->name;
	struct bpf_prog *prog;
	int err;

	err = bench_prog_create(bench.prog, bench.prog_len, jit, &prog);
	if (err) {
		/* 6.1 stable fails a requested but failed JIT with -ENOTSUPP. */
		pr_warn("run: %s: bpf_prog_create() failed: %d%s\n", name, err,
			jit && err == -ENOTSUPP ?
			" (the JIT did not compile the program)" : "");
		return err;
	}
	if (prog->jited != jit) {
		pr_warn("run: %s: program came out %s, wanted %s%s\n", name,
			prog->jited ? "JITed" : "not JITed",
			jit ? "JITed" : "interpreted",
			jit ? " (JIT failed or bpf_jit_limit reached?)" : "");
		bpf_prog_destroy(prog);
		return -ENOTSUPP;
	}
	r->prog = prog;
	r->arg = prog;
	r->jited = prog->jited;
	r->len = prog->len;
	r->image_bytes = prog->jited ? prog->jited_len : 0;
	r->image = prog->jited ? (unsigned long)prog->bpf_func : 0;
	return 0;
}

static int bench_new_prepare(struct bench_run *r)
{
	return bench_prog_prepare(r, false);
}

#if IS_ENABLED(CONFIG_BPF_JIT)
static int bench_jit_prepare(struct bench_run *r)
{
	return bench_prog_prepare(r, true);
}
#endif

static void bench_prog_destroy(struct bench_run *r)
{
	bpf_prog_destroy(r->prog);
}

static __always_inline u32 bench_prog_call(const void *arg,
					   const struct sk_buff *skb)
{
	return bpf_prog_run(arg, skb);
}

/* new and jit: the same loop, only the program differs. */
static u64 bench_prog_loop(struct bench_run *r, u64 n)
{
	return bench_loop(r, n, bench_prog_call);
}

#if IS_ENABLED(CONFIG_BPF_CLASSIC_INTERP)
/* old: the revived 3.14 interpreter runs a checked copy of the insns. */
static int bench_old_prepare(struct bench_run *r)
{
	struct sock_filter *insns;
	int err;

	insns = kmemdup(bench.prog, bench.prog_len * sizeof(*insns),
			GFP_KERNEL);
	if (!insns)
		return -ENOMEM;
	err = sk_chk_filter(insns, bench.prog_len);
	if (err) {
		pr_warn("run: old: sk_chk_filter() failed: %d\n", err);
		kfree(insns);
		return err;
	}
	r->insns = insns;
	r->arg = insns;
	r->len = bench.prog_len;
	return 0;
}

static void bench_old_destroy(struct bench_run *r)
{
	kfree(r->insns);
}

static __always_inline u32 bench_old_call(const void *arg,
					  const struct sk_buff *skb)
{
	return sk_run_filter(skb, arg);
}

static u64 bench_old_loop(struct bench_run *r, u64 n)
{
	return bench_loop(r, n, bench_old_call);
}

static int bench_old_count(const struct bench_run *r,
			   const struct sk_buff *skb, u32 *ret, u64 *insns)
{
	preempt_disable();
	*ret = sk_run_filter_count(skb, r->insns, insns);
	preempt_enable();
	return 0;
}
#endif

#if IS_ENABLED(CONFIG_BPF_CONVERT_2014)
/*
 * new2014: the 6.1 interpreter on the program as the v3.15 conversion
 * emitted it, with LD_ABS and LD_IND executed inside the interpreter.
 */
static int bench_new2014_prepare(struct bench_run *r)
{
	struct sock_fprog_kern fprog = {
		.len = bench.prog_len,
		.filter = bench.prog,
	};
	struct bpf_prog *prog;
	int err;

	err = bpf_prog_create_2014(&prog, &fprog);
	if (err) {
		pr_warn("run: new2014: bpf_prog_create_2014() failed: %d\n",
			err);
		return err;
	}
	r->prog = prog;
	r->arg = prog;
	r->len = prog->len;
	return 0;
}

/* new, new2014: the counting copy of the interpreter the program runs on. */
static int bench_prog_count(const struct bench_run *r,
			    const struct sk_buff *skb, u32 *ret, u64 *insns)
{
	int err;

	preempt_disable();
	err = bpf_prog_run_count(r->prog, skb, ret, insns);
	preempt_enable();
	return err;
}

#if IS_ENABLED(CONFIG_BPF_JIT)
/* jit: the JIT compiles the very program new interprets; count that one. */
static int bench_jit_count(const struct bench_run *r,
			   const struct sk_buff *skb, u32 *ret, u64 *insns)
{
	struct bpf_prog *prog;
	int err;

	err = bench_prog_create(bench.prog, bench.prog_len, false, &prog);
	if (err)
		return err;
	if (prog->jited) {
		err = -ENOTSUPP;
	} else {
		preempt_disable();
		err = bpf_prog_run_count(prog, skb, ret, insns);
		preempt_enable();
	}
	bpf_prog_destroy(prog);
	return err;
}
#endif
#endif

#if IS_ENABLED(CONFIG_BPF_CLASSIC_JIT)
/*
 * oldjit: the revived 3.14 x86-64 JIT.  Laid out like 3.14's struct
 * sk_filter, and called like its SK_RUN_FILTER(): bpf_func(skb, insns),
 * where bpf_func is sk_run_filter() for a program the JIT did not compile.
 */
struct bench_oldjit {
	struct bpf_classic_jit jit;
	struct sock_filter insns[];
};

static int bench_oldjit_prepare(struct bench_run *r)
{
	struct bench_oldjit *o;
	int err;

	o = kmalloc(struct_size(o, insns, bench.prog_len), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	memcpy(o->insns, bench.prog, bench.prog_len * sizeof(o->insns[0]));
	err = sk_chk_filter(o->insns, bench.prog_len);
	if (err) {
		pr_warn("run: oldjit: sk_chk_filter() failed: %d\n", err);
		goto err;
	}
	err = bpf_classic_jit_compile(o->insns, bench.prog_len, &o->jit);
	if (err == -EOPNOTSUPP) {
		/* 3.14 ran such a program on the interpreter: so do we */
		pr_info("run: oldjit: the 3.14 JIT did not compile the program, running it on sk_run_filter() as 3.14 did\n");
		r->fallback = true;
	} else if (err) {
		pr_warn("run: oldjit: bpf_classic_jit_compile() failed: %d\n",
			err);
		goto err;
	}
	r->oldjit = o;
	r->arg = o;
	r->len = bench.prog_len;
	r->jited = !r->fallback;
	r->image_bytes = o->jit.len;
	r->image = r->fallback ? 0 : (unsigned long)o->jit.bpf_func;
	return 0;
err:
	kfree(o);
	return err;
}

static void bench_oldjit_destroy(struct bench_run *r)
{
	bpf_classic_jit_free(&r->oldjit->jit);
	kfree(r->oldjit);
}

static __always_inline u32 bench_oldjit_call(const void *arg,
					     const struct sk_buff *skb)
{
	const struct bench_oldjit *o = arg;

	return o->jit.bpf_func(skb, o->insns);
}

static u64 bench_oldjit_loop(struct bench_run *r, u64 n)
{
	return bench_loop(r, n, bench_oldjit_call);
}

/* The JIT runs the very classic program old interprets: count that. */
static int bench_oldjit_count(const struct bench_run *r,
			      const struct sk_buff *skb, u32 *ret, u64 *insns)
{
	preempt_disable();
	*ret = sk_run_filter_count(skb, r->oldjit->insns, insns);
	preempt_enable();
	return 0;
}
#endif

static const struct bench_engine bench_engines[] = {
	[BENCH_ENGINE_BASELINE] = {
		.name = "baseline",
		.prepare = bench_baseline_prepare,
		.loop = bench_baseline_loop,
	},
	[BENCH_ENGINE_OLD] = {
		.name = "old",
		.needs = "CONFIG_BPF_CLASSIC_INTERP=y",
#if IS_ENABLED(CONFIG_BPF_CLASSIC_INTERP)
		.prepare = bench_old_prepare,
		.destroy = bench_old_destroy,
		.loop = bench_old_loop,
		.call = bench_old_call,
		.count = bench_old_count,
#endif
	},
	[BENCH_ENGINE_NEW] = {
		.name = "new",
		.needs = "CONFIG_BPF_JIT_ALWAYS_ON unset",
#if !IS_ENABLED(CONFIG_BPF_JIT_ALWAYS_ON)
		.prepare = bench_new_prepare,
		.destroy = bench_prog_destroy,
		.loop = bench_prog_loop,
		.call = bench_prog_call,
#if IS_ENABLED(CONFIG_BPF_CONVERT_2014)
		.count = bench_prog_count,
#endif
#endif
	},
	[BENCH_ENGINE_JIT] = {
		.name = "jit",
		.needs = "CONFIG_BPF_JIT=y",
#if IS_ENABLED(CONFIG_BPF_JIT)
		.prepare = bench_jit_prepare,
		.destroy = bench_prog_destroy,
		.loop = bench_prog_loop,
		.call = bench_prog_call,
#if IS_ENABLED(CONFIG_BPF_CONVERT_2014)
		.count = bench_jit_count,
#endif
#endif
	},
	[BENCH_ENGINE_NEW2014] = {
		.name = "new2014",
		.needs = "CONFIG_BPF_CONVERT_2014=y",
#if IS_ENABLED(CONFIG_BPF_CONVERT_2014)
		.prepare = bench_new2014_prepare,
		.destroy = bench_prog_destroy,
		.loop = bench_prog_loop,
		.call = bench_prog_call,
		.count = bench_prog_count,
#endif
	},
	[BENCH_ENGINE_OLDJIT] = {
		.name = "oldjit",
		.needs = "CONFIG_BPF_CLASSIC_JIT=y",
#if IS_ENABLED(CONFIG_BPF_CLASSIC_JIT)
		.prepare = bench_oldjit_prepare,
		.destroy = bench_oldjit_destroy,
		.loop = bench_oldjit_loop,
		.call = bench_oldjit_call,
		.count = bench_oldjit_count,
#endif
	},
};

static_assert(ARRAY_SIZE(bench_engines) == BENCH_NR_ENGINES);

/*
 * skb_meta: the skb fields bench_build_skb() sets besides the frame, as
 * lib/test_bpf's populate_skb() sets them for its classic tests: one write
 * of KEY=VALUE pairs replaces them all (a key not given takes its default).
 */
enum {
	BENCH_META_PROTOCOL,
	BENCH_META_PKT_TYPE,
	BENCH_META_MARK,
	BENCH_META_HASH,
	BENCH_META_QUEUE_MAPPING,
	BENCH_META_VLAN_TCI,
	BENCH_META_VLAN_PRESENT,
	BENCH_META_VLAN_PROTO,
	BENCH_META_IFINDEX,
	BENCH_META_DEV_TYPE,
	BENCH_NR_META
};

#define BENCH_META_DEV	(BIT(BENCH_META_IFINDEX) | BIT(BENCH_META_DEV_TYPE))
#define BENCH_META_TEXT_MAX	512

static const struct {
	const char *name;
	u32 max;
	bool hex;
} bench_meta_keys[BENCH_NR_META] = {
	[BENCH_META_PROTOCOL]		= { "protocol", U16_MAX, true },
	[BENCH_META_PKT_TYPE]		= { "pkt_type", 7 },
	[BENCH_META_MARK]		= { "mark", U32_MAX, true },
	[BENCH_META_HASH]		= { "hash", U32_MAX, true },
	[BENCH_META_QUEUE_MAPPING]	= { "queue_mapping", U16_MAX },
	[BENCH_META_VLAN_TCI]		= { "vlan_tci", U16_MAX, true },
	[BENCH_META_VLAN_PRESENT]	= { "vlan_present", 1 },
	[BENCH_META_VLAN_PROTO]		= { "vlan_proto", U16_MAX, true },
	[BENCH_META_IFINDEX]		= { "ifindex", INT_MAX },
	[BENCH_META_DEV_TYPE]		= { "dev_type", U16_MAX },
};

/* Protected by bench_lock; bench_dev is what skb->dev points to. */
static struct {
	u32 set;			/* BIT(key) of every key given */
	u32 val[BENCH_NR_META];
} bench_meta;

static struct net_device bench_dev;

/* The skb_meta fields, on an skb bench_build_skb() made. */
static void bench_apply_skb_meta(struct sk_buff *skb)
{
	const u32 *v = bench_meta.val;

	lockdep_assert_held(&bench_lock);
	if (bench_meta.set & BIT(BENCH_META_PROTOCOL))
		skb->protocol = htons(v[BENCH_META_PROTOCOL]);
	if (bench_meta.set & BIT(BENCH_META_PKT_TYPE))
		skb->pkt_type = v[BENCH_META_PKT_TYPE];
	skb->mark = v[BENCH_META_MARK];
	skb->hash = v[BENCH_META_HASH];
	skb->queue_mapping = v[BENCH_META_QUEUE_MAPPING];
	skb->vlan_tci = v[BENCH_META_VLAN_TCI];
	skb->vlan_proto = htons(v[BENCH_META_VLAN_PROTO]);
#ifdef BENCH_SKB_VLAN_PRESENT	/* Kbuild: the tree's skbuff has the bit */
	skb->vlan_present = v[BENCH_META_VLAN_PRESENT];
#else
	/*
	 * Since 6.2 a tag is present when vlan_all (protocol and TCI) is not
	 * 0: no tag clears both, a tag without a protocol gets 802.1Q's.
	 */
	if (!v[BENCH_META_VLAN_PRESENT])
		skb->vlan_all = 0;
	else if (!skb->vlan_proto)
		skb->vlan_proto = htons(ETH_P_8021Q);
#endif
	if (bench_meta.set & BENCH_META_DEV)
		skb->dev = &bench_dev;
}

/*
 * A frame as AF_PACKET filters see it: data at the Ethernet header, with
 * the skb_meta fields.  With @headlen (0 < @headlen < @len) only the first
 * @headlen bytes are in the linear area and the rest is in one page
 * fragment, as a driver that receives into pages builds it.
 */
static struct sk_buff *bench_build_skb(const u8 *frame, u32 len, u32 headlen)
{
	u32 lin = headlen && headlen < len ? headlen : len;
	struct sk_buff *skb;
	struct page *page;
	u16 proto;

	skb = alloc_skb(NET_SKB_PAD + NET_IP_ALIGN + lin, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
	skb_put_data(skb, frame, lin);
	if (lin < len) {
		page = alloc_page(GFP_KERNEL);
		if (!page) {
			kfree_skb(skb);
			return NULL;
		}
		memcpy(page_address(page), frame + lin, len - lin);
		skb_add_rx_frag(skb, 0, page, 0, len - lin, PAGE_SIZE);
	}
	skb_reset_mac_header(skb);
	/* A frame shorter than the Ethernet header (eval only): as test_bpf */
	skb_set_network_header(skb, min_t(u32, len, ETH_HLEN));
	if (len >= ETH_HLEN) {
		proto = get_unaligned_be16(frame + 12);
		skb->protocol = htons(proto >= ETH_P_802_3_MIN ? proto :
				      ETH_P_802_2);
	}
	skb->pkt_type = PACKET_HOST;
	bench_apply_skb_meta(skb);
	return skb;
}

static void bench_free_skbs(struct sk_buff **skbs, u32 nr)
{
	u32 i;

	if (!skbs)
		return;
	for (i = 0; i < nr; i++) {
		consume_skb(skbs[i]);
		cond_resched();
	}
	kvfree(skbs);
}

/* What the first mismatched call of the last loop should have returned. */
static u32 bench_bad_want(const struct bench_run *r)
{
	return r->expects ? r->expects[r->bad_idx] : r->expect;
}

/* @n calls with preemption off: elapsed ns, or -EBADE on a bad verdict. */
static int bench_timed(struct bench_run *r, u64 n, u64 *ns)
{
	u64 t0, t1, bad;

	preempt_disable();
	t0 = ktime_get_ns();
	bad = r->engine->loop(r, n);
	t1 = ktime_get_ns();
	preempt_enable();

	if (bad) {
		pr_warn("run: %s returned %u (0x%x) for skb %u, expected %u (0x%x); %llu of %llu calls mismatched\n",
			r->engine->name, r->bad_ret, r->bad_ret, r->bad_idx,
			bench_bad_want(r), bench_bad_want(r), bad, n);
		return -EBADE;
	}
	*ns = t1 - t0;
	return 0;
}

/*
 * The model's window markers (bench/plugin/bpfmodel.c, docs/model.md): a
 * QEMU plugin counts branches, mispredictions and cache misses of the guest
 * code between the two, and nothing outside; its predictors and caches
 * learn from the first marker on.  On hardware they are no-ops:
 * x86's 8-byte nopl with "BPM1"/"BPM0" as its displacement, ARM's
 * mov r11, r11 / mov r10, r10 (ARM or Thumb).
 */
#if defined(CONFIG_X86)
#define BENCH_MODEL_MARKERS	1
/* nopl 0x314d5042(%rax,%rax,1) and nopl 0x304d5042(%rax,%rax,1) */
static __always_inline void bench_model_start(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00, 0x42, 0x50, 0x4d, 0x31" ::: "memory");
}

static __always_inline void bench_model_stop(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00, 0x42, 0x50, 0x4d, 0x30" ::: "memory");
}
#elif defined(CONFIG_ARM)
#define BENCH_MODEL_MARKERS	1
static __always_inline void bench_model_start(void)
{
	asm volatile("mov r11, r11" ::: "memory");
}

static __always_inline void bench_model_stop(void)
{
	asm volatile("mov r10, r10" ::: "memory");
}
#else
#define BENCH_MODEL_MARKERS	0
static __always_inline void bench_model_start(void) { }
static __always_inline void bench_model_stop(void) { }
#endif

/*
 * One marked window of @n calls with interrupts off, so that no tick is
 * counted with it; its index (from 0 since load) goes into the result, for
 * the host to pair with the plugin's line of the same index.
 */
static int bench_model_window(struct bench_run *r, u32 n, u64 *window)
{
	unsigned long flags;
	u64 bad;

	preempt_disable();
	local_irq_save(flags);
	bench_model_start();
	bad = r->engine->loop(r, n);
	bench_model_stop();
	local_irq_restore(flags);
	preempt_enable();
	*window = bench.model_windows++;
	if (bad) {
		pr_warn("run: model window: %s returned %u (0x%x) for skb %u, expected %u\n",
			r->engine->name, r->bad_ret, r->bad_ret, r->bad_idx,
			bench_bad_want(r));
		return -EBADE;
	}
	return 0;
}

/*
 * Calibrate: the first power of two of calls, *@calls, whose run lasts at
 * least sample_us in each of BENCH_CALIB_RUNS runs.  One run alone can be
 * fooled: a host stall or an interrupt storm in the middle makes a short
 * run look long and every sample after it far too short to time (seen
 * under UML: 128 calls, 25 us samples, at sample_us=2000); a stall only
 * adds time, so the shortest of a few runs is the honest one.  @what names
 * the knob that asked, for the log.
 */
static int bench_calibrate(struct bench_run *r, const char *what, u64 *calls)
{
	u64 target = (u64)bench.sample_us * NSEC_PER_USEC;
	u64 n, ns, again;
	int err, i;

	for (n = 1; ; n <<= 1) {
		cond_resched();
		if (signal_pending(current))
			return -EINTR;
		err = bench_timed(r, n, &ns);
		for (i = 1; !err && ns >= target && i < BENCH_CALIB_RUNS; i++) {
			err = bench_timed(r, n, &again);
			ns = min(ns, again);
		}
		if (err)
			return err;
		if (ns >= target)
			break;
		if (n >= BENCH_CALLS_MAX) {
			pr_warn("%s: %s: %llu calls took %llu ns, less than sample_us=%u; lower sample_us\n",
				what, r->engine->name, n, ns, bench.sample_us);
			return -ERANGE;
		}
	}
	*calls = n;
	return 0;
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * 95% confidence interval of the median from order statistics: the
 * largest rank l (1-based) with P(Bin(n, 1/2) <= l - 1) <= 2.5%, so that
 * [x(l), x(n+1-l)] covers the median with probability 1 - 2 P(X <= l - 1)
 * >= 95%, whatever the distribution of the samples.  Exact binomial sums
 * up to n = 50 (exact in a u64), the normal approximation
 * l = floor((n - 1.96 sqrt(n)) / 2) above.  Returns 0 when n is too small
 * for any such interval (n < 6); sets *level to the coverage in 0.1%.
 */
static u32 bench_ci_rank(u32 n, u32 *level)
{
	u64 limit, cum = 0, c = 1;	/* c = C(n, l) */
	u32 l;

	*level = 950;
	if (n > 50)
		return (u32)div_u64(100ULL * n - int_sqrt64(38416ULL * n), 200);
	limit = div_u64(BIT_ULL(n), 40);	/* 2.5% of 2^n */
	for (l = 0; l < n / 2; l++) {
		if (cum + c > limit)
			break;
		cum += c;
		c = div_u64(c * (n - l), l + 1);
	}
	/* cum = P(X <= l - 1) * 2^n */
	if (l)
		*level = 1000 - (u32)div64_u64(2000 * cum + BIT_ULL(n) - 1,
					       BIT_ULL(n));
	return l;
}

/*
 * min, median, mean, sample standard deviation and the median's 95%
 * confidence interval, in ps; sorts @ps.
 */
static void bench_stats(u64 *ps, u32 cnt, struct bench_result *res)
{
	u64 sum = 0, sq = 0, d;
	u32 i, l;

	sort(ps, cnt, sizeof(*ps), bench_cmp_u64, NULL);
	for (i = 0; i < cnt; i++)
		sum += ps[i];
	res->min_ps = ps[0];
	res->median_ps = cnt & 1 ? ps[cnt / 2] :
			 (ps[cnt / 2 - 1] + ps[cnt / 2]) / 2;
	res->mean_ps = div_u64(sum, cnt);
	for (i = 0; i < cnt; i++) {
		d = ps[i] > res->mean_ps ? ps[i] - res->mean_ps :
					   res->mean_ps - ps[i];
		d = min_t(u64, d, U32_MAX);
		if (check_add_overflow(sq, d * d, &sq))
			sq = U64_MAX;
	}
	res->stddev_ps = cnt > 1 ? int_sqrt64(div_u64(sq, cnt - 1)) : 0;
	l = bench_ci_rank(cnt, &res->ci_level);
	if (!l)
		res->ci_level = 0;
	res->ci_lo_ps = l ? ps[l - 1] : 0;
	res->ci_hi_ps = l ? ps[cnt - l] : 0;
}

/*
 * A timed run (run, run_rounds) needs a packet with the whole Ethernet
 * header, as AF_PACKET filters always see one; eval takes 0..13 bytes too.
 */
static int bench_timed_packet(const char *what)
{
	if (!bench.packet_set) {
		pr_warn("%s: set packet first\n", what);
		return -EINVAL;
	}
	if (bench.packet_len < ETH_HLEN) {
		pr_warn("%s: packet of %u bytes, a timed run needs %d..%d (eval takes 0..%d)\n",
			what, bench.packet_len, ETH_HLEN, ETH_FRAME_LEN,
			ETH_FRAME_LEN);
		return -EINVAL;
	}
	return 0;
}

/*
 * mix=1: skb i gets frame @pick[i] of the frame set, every frame equally
 * often (but for @nr mod the set's size) in an order shuffled once with a
 * fixed seed, the same in every boot and on every architecture, so that a
 * branch on the frame's contents follows no period shorter than the run.
 */
static void bench_mix_order(u32 *pick, u32 nr, u32 frames)
{
	struct rnd_state st;
	u32 i, j;

	prandom_seed_state(&st, BENCH_MIX_SEED);
	for (i = 0; i < nr; i++)
		pick[i] = i % frames;
	for (i = nr - 1; i > 0; i--) {
		j = prandom_u32_state(&st) % (i + 1);
		swap(pick[i], pick[j]);
	}
}

/* One skb's VM instructions into *@n, its verdict checked against @want. */
static int bench_count_skb(struct bench_run *r, u32 i, u32 want, u64 *n)
{
	const struct bench_engine *e = r->engine;
	u32 ret;
	int err;

	*n = 0;
	err = e->count(r, r->skbs[i], &ret, n);
	if (err) {
		pr_warn("run: %s: counting VM instructions failed: %d\n",
			e->name, err);
		return err;
	}
	if (ret != want) {
		pr_warn("run: %s: the counting VM returned %u (0x%x) for skb %u, expected %u (0x%x)\n",
			e->name, ret, ret, i, want, want);
		return -EBADE;
	}
	return 0;
}

/*
 * VM instructions of the calls, summed into *@insns over *@skbs skbs: the
 * engine's counting VM on the run's first skb (all of them are copies of
 * one packet), or in a mixed run on the first skb of each frame of the
 * set (bench_mix_order), weighed by the skbs that frame has: the same sum
 * as over every skb, at the cost of the set.  Each verdict must be the
 * expected one too.
 */
static int bench_count(struct bench_run *r, u64 *insns, u32 *skbs)
{
	u32 first[BENCH_FRAMES_MAX], weight[BENCH_FRAMES_MAX] = { }, *pick, f, i;
	u64 n;
	int err = 0;

	*insns = 0;
	*skbs = r->expects ? r->nr_skbs : 1;
	if (!r->engine->count)
		return 0;
	if (!r->expects) {
		err = bench_count_skb(r, 0, r->expect, &n);
		*insns = n;
		return err;
	}
	pick = kvcalloc(r->nr_skbs, sizeof(*pick), GFP_KERNEL);
	if (!pick)
		return -ENOMEM;
	bench_mix_order(pick, r->nr_skbs, bench.frames.nr);
	for (i = 0; i < r->nr_skbs; i++)
		if (!weight[pick[i]]++)
			first[pick[i]] = i;
	for (f = 0; f < bench.frames.nr && !err; f++) {
		err = bench_count_skb(r, first[f], r->expects[first[f]], &n);
		*insns += n * weight[f];
	}
	kvfree(pick);
	return err;
}

/*
 * The @nr skbs of a timed run (@what: run or run_rounds) in *@skbsp:
 * copies of the packet, every call to return expect; or with mix=1 the
 * frame set's frames in bench_mix_order(), each skb's verdict in
 * *@expectsp (else NULL).  On an error nothing stays allocated.
 */
static int bench_build_run_skbs(const char *what, u32 nr,
				struct sk_buff ***skbsp, u32 **expectsp)
{
	struct sk_buff **skbs;
	u32 *expects = NULL, i, f;
	int err;

	*skbsp = NULL;
	*expectsp = NULL;
	if (bench.mix && bench.frames.nr < 2) {
		pr_warn("%s: mix=1 needs a set of 2..%d frames: set frames first\n",
			what, BENCH_FRAMES_MAX);
		return -EINVAL;
	}
	if (bench.mix && nr < bench.frames.nr) {
		pr_warn("%s: mix=1 with skbs=%u: fewer skbs than the set's %u frames\n",
			what, nr, bench.frames.nr);
		return -EINVAL;
	}
	if (!bench.mix && !bench.expect_set) {
		pr_warn("%s: set expect first\n", what);
		return -EINVAL;
	}
	if (!bench.mix) {
		err = bench_timed_packet(what);
		if (err)
			return err;
	}

	skbs = kvcalloc(nr, sizeof(*skbs), GFP_KERNEL);
	if (bench.mix)
		expects = kvcalloc(nr, sizeof(*expects), GFP_KERNEL);
	if (!skbs || (bench.mix && !expects)) {
		pr_warn("%s: out of memory\n", what);
		err = -ENOMEM;
		goto err;
	}
	if (expects)
		bench_mix_order(expects, nr, bench.frames.nr);
	for (i = 0; i < nr; i++) {
		if (expects) {
			f = expects[i];
			skbs[i] = bench_build_skb(bench.frames.data[f],
						  bench.frames.len[f],
						  bench.headlen);
			expects[i] = bench.frames.verdict[f];
		} else {
			skbs[i] = bench_build_skb(bench.packet,
						  bench.packet_len,
						  bench.headlen);
		}
		if (!skbs[i]) {
			pr_warn("%s: out of memory at skb %u of %u\n",
				what, i, nr);
			err = -ENOMEM;
			goto err;
		}
		cond_resched();
		if (signal_pending(current)) {
			pr_warn("%s: interrupted\n", what);
			err = -EINTR;
			goto err;
		}
	}
	*skbsp = skbs;
	*expectsp = expects;
	return 0;
err:
	bench_free_skbs(skbs, nr);
	kvfree(expects);
	return err;
}

static int bench_run_cell(void)
{
	const struct bench_engine *e = bench.engine;
	struct bench_run r = {
		.engine = e,
		.nr_skbs = bench.skbs,
		.expect = bench.expect,
	};
	bool prepared = false;
	u64 *ps = NULL, n, ns, vm_insns = 0;
	u32 *expects, vm_skbs, i;
	int err;

	lockdep_assert_held(&bench_lock);
	bench.result_valid = false;

	if (!bench.prog_len) {
		pr_warn("run: set prog first\n");
		return -EINVAL;
	}
	err = bench_build_run_skbs("run", r.nr_skbs, &r.skbs, &expects);
	if (err)
		return err;
	r.expects = expects;

	ps = kcalloc(bench.samples, sizeof(*ps), GFP_KERNEL);
	if (!ps) {
		err = -ENOMEM;
		goto out;
	}

	err = e->prepare(&r);
	if (err)
		goto out;
	prepared = true;

	/*
	 * A model plugin learns from its first marker on: a stop marker
	 * with no window open, before the warm-up and the samples, lets them
	 * warm the model's window (a no-op elsewhere).
	 */
	if (bench.model_calls)
		bench_model_stop();

	/* Warm-up: every skb once, every verdict checked. */
	err = bench_timed(&r, r.nr_skbs, &ns);
	if (err)
		goto out;

	err = bench_count(&r, &vm_insns, &vm_skbs);
	if (err)
		goto out;

	/* Calibrate: the first power of two of calls lasting >= sample_us. */
	err = bench_calibrate(&r, "run", &n);
	if (err)
		goto out;

	for (i = 0; i < bench.samples; i++) {
		cond_resched();
		if (signal_pending(current)) {
			err = -EINTR;
			goto out;
		}
		err = bench_timed(&r, n, &ns);
		if (err)
			goto out;
		ps[i] = div64_u64(ns * 1000, n);
	}

	/* after the samples: predictors and caches are warm */
	if (bench.model_calls) {
		err = bench_model_window(&r, bench.model_calls,
					 &bench.result.model_window);
		if (err)
			goto out;
	}

	bench_stats(ps, bench.samples, &bench.result);
	bench.result.model_calls = bench.model_calls;
	bench.result.engine = e->name;
	bench.result.skbs = r.nr_skbs;
	bench.result.samples = bench.samples;
	bench.result.calls = n;
	bench.result.verdict = r.expect;
	bench.result.jited = r.jited;
	bench.result.len = r.len;
	bench.result.image_bytes = r.image_bytes;
	bench.result.image = r.image;
	bench.result.fallback = e == &bench_engines[BENCH_ENGINE_OLDJIT] ?
				(r.fallback ? "1" : "0") : NULL;
	bench.result.vm_insns = vm_insns;
	bench.result.vm_insns_skbs = vm_skbs;
	bench.result.vm_insns_valid = !!e->count;
	bench.result.mix_frames = expects ? bench.frames.nr : 0;
	bench.result.mix_accepted = 0;
	for (i = 0; expects && i < r.nr_skbs; i++)
		bench.result.mix_accepted += !!expects[i];
	bench.result_valid = true;
out:
	if (err == -EINTR)
		pr_warn("run: interrupted\n");
	if (prepared && e->destroy)
		e->destroy(&r);
	bench_free_skbs(r.skbs, r.nr_skbs);
	kvfree(expects);
	kfree(ps);
	return err;
}

/* Forget the programs eval built: the program changed or we unload. */
static void bench_eval_reset(void)
{
	const struct bench_engine *e;
	size_t i;

	lockdep_assert_held(&bench_lock);
	for (i = 0; i < ARRAY_SIZE(bench_engines); i++) {
		e = &bench_engines[i];
		if (bench.eval_built[i] && !bench.eval_err[i] && e->destroy)
			e->destroy(&bench.eval_run[i]);
		bench.eval_built[i] = false;
	}
}

/* The debugfs knobs. */

/**
 * struct bench_knob - one file under /sys/kernel/debug/bpf_bench/
 * @name: file name
 * @mode: file mode
 * @max_len: longest write accepted
 * @show: print the current value (NULL: write-only)
 * @store: parse, validate and only then apply a write; the buffer is
 *	NUL-terminated and may be modified (NULL: read-only)
 * @store_bin: as @store, for a knob whose value is binary: @count bytes,
 *	NUL bytes included (used instead of @store)
 * @val: the value of a number knob
 * @min: smallest value of a number knob
 * @max: largest value of a number knob
 */
struct bench_knob {
	const char *name;
	umode_t mode;
	size_t max_len;
	int (*show)(const struct bench_knob *k, struct seq_file *m);
	int (*store)(const struct bench_knob *k, char *buf);
	int (*store_bin)(const struct bench_knob *k, const u8 *buf,
			 size_t count);
	u32 *val;
	u32 min;
	u32 max;
};

#define BENCH_INSN_FORM "{ code, jt, jf, k },"

/* One line of tcpdump -dd output: "{ 0x28, 0, 0, 0x0000000c }," */
static int bench_parse_insn(char *p, u32 line, struct sock_filter *insn)
{
	static const char * const field[4] = { "code", "jt", "jf", "k" };
	static const u32 limit[4] = { U16_MAX, U8_MAX, U8_MAX, U32_MAX };
	u32 v[4];
	char *tok, c;
	int i, err;

	if (*p++ != '{')
		goto syntax;
	for (i = 0; i < 4; i++) {
		tok = skip_spaces(p);
		for (p = tok; isalnum(*p); p++)
			;
		if (p == tok)
			goto syntax;
		c = *p;
		*p = '\0';
		err = bench_parse_u32(tok, &v[i]);
		if (err) {
			pr_warn("prog: line %u: %s '%.16s' is not a decimal or 0x hex u32\n",
				line, field[i], tok);
			return -EINVAL;
		}
		*p = c;
		if (v[i] > limit[i]) {
			pr_warn("prog: line %u: %s %u is out of range 0..%u\n",
				line, field[i], v[i], limit[i]);
			return -EINVAL;
		}
		p = skip_spaces(p);
		if (*p++ != (i < 3 ? ',' : '}'))
			goto syntax;
	}
	p = skip_spaces(p);
	if (*p == ',')
		p = skip_spaces(p + 1);
	if (*p)
		goto syntax;

	insn->code = v[0];
	insn->jt = v[1];
	insn->jf = v[2];
	insn->k = v[3];
	return 0;

syntax:
	pr_warn("prog: line %u: expected '" BENCH_INSN_FORM "'\n", line);
	return -EINVAL;
}

/* eval's program for engine new is the one the prog check built. */
static void bench_eval_adopt_new(struct bpf_prog *prog)
{
	struct bench_run *r = &bench.eval_run[BENCH_ENGINE_NEW];

	lockdep_assert_held(&bench_lock);
	if (!bench_engines[BENCH_ENGINE_NEW].loop) {
		bpf_prog_destroy(prog);
		return;
	}
	*r = (struct bench_run){
		.engine = &bench_engines[BENCH_ENGINE_NEW],
		.prog = prog,
		.arg = prog,
		.len = prog->len,
	};
	bench.eval_err[BENCH_ENGINE_NEW] = 0;
	bench.eval_built[BENCH_ENGINE_NEW] = true;
}

/*
 * 0 if at least one built-in engine's checker accepts the program, else
 * -EINVAL (or -ENOMEM).  6.1's checker is bpf_prog_create(), the one of
 * new and jit; 3.14's is sk_chk_filter(), which rewrites its input, so
 * it checks a copy.  The interpreted program 6.1 built, which is what
 * engine new runs, is handed back in *@newp (else NULL) for eval: every
 * program freed costs a deferred vfree(), slow under UML.
 */
static int bench_check_prog(struct sock_filter *insns, u32 len,
			    struct bpf_prog **newp)
{
	int err_new = -EOPNOTSUPP, err_old = -EOPNOTSUPP;
	struct bpf_prog *prog;

	*newp = NULL;

	if (bench_engines[BENCH_ENGINE_NEW].loop ||
	    bench_engines[BENCH_ENGINE_JIT].loop) {
		err_new = bench_prog_create(insns, len,
					    IS_ENABLED(CONFIG_BPF_JIT_ALWAYS_ON),
					    &prog);
		if (!err_new) {
			/* What engine new runs: eval keeps it. */
			if (!IS_ENABLED(CONFIG_BPF_JIT_ALWAYS_ON) && !prog->jited)
				*newp = prog;
			else
				bpf_prog_destroy(prog);
			return 0;
		}
		if (err_new == -ENOMEM)
			return err_new;
	}
#if IS_ENABLED(CONFIG_BPF_CLASSIC_INTERP)
	{
		struct sock_filter *copy;

		copy = kmemdup(insns, len * sizeof(*insns), GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
		err_old = sk_chk_filter(copy, len);
		kfree(copy);
		if (!err_old)
			return 0;
		if (err_old == -ENOMEM)
			return err_old;
	}
#endif
	pr_warn("prog: %u instructions rejected by every engine's classic checker: 6.1 bpf_prog_create() = %d, 3.14 sk_chk_filter() = %d (-%d: not built in)\n",
		len, err_new, err_old, EOPNOTSUPP);
	return -EINVAL;
}

/* The next line of @*buf that is not blank, its number in *@line; NULL at the end. */
static char *bench_next_line(char **buf, u32 *line)
{
	char *p;

	while (*buf) {
		p = skip_spaces(strsep(buf, "\n"));
		++*line;
		if (*p)
			return p;
	}
	return NULL;
}

static int bench_store_prog(const struct bench_knob *k, char *buf)
{
	struct sock_filter *insns;
	struct bpf_prog *newp;
	u32 line = 0, len = 0;
	char *p;
	int err;

	insns = kvmalloc_array(BPF_MAXINSNS, sizeof(*insns), GFP_KERNEL);
	if (!insns)
		return -ENOMEM;

	while ((p = bench_next_line(&buf, &line))) {
		if (len == BPF_MAXINSNS) {
			pr_warn("prog: line %u: more than %u instructions\n",
				line, BPF_MAXINSNS);
			err = -E2BIG;
			goto err;
		}
		err = bench_parse_insn(p, line, &insns[len]);
		if (err)
			goto err;
		len++;
	}
	if (!len) {
		pr_warn("prog: no instructions, expected lines of '" BENCH_INSN_FORM "'\n");
		err = -EINVAL;
		goto err;
	}

	/*
	 * The kernel's classic checkers, as the engines will run them: the
	 * program is taken if at least one built-in engine accepts it (3.14
	 * takes shifts by K >= 32, which 6.1 rejects; 6.1 takes ancillary
	 * loads 3.14 did not know).  A run on an engine that rejects it
	 * fails with that checker's errno.
	 */
	err = bench_check_prog(insns, len, &newp);
	if (err)
		goto err;

	bench_eval_reset();
	if (newp)
		bench_eval_adopt_new(newp);
	kvfree(bench.prog);
	bench.prog = insns;
	bench.prog_len = len;
	return 0;
err:
	kvfree(insns);
	return err;
}

static int bench_show_prog(const struct bench_knob *k, struct seq_file *m)
{
	const struct sock_filter *f;
	u32 i;

	for (i = 0; i < bench.prog_len; i++) {
		f = &bench.prog[i];
		seq_printf(m, "{ 0x%x, %u, %u, 0x%08x },\n",
			   f->code, f->jt, f->jf, f->k);
	}
	return 0;
}

/*
 * A frame as hex bytes, whitespace-separated or contiguous, from @p into
 * @frame (ETH_FRAME_LEN bytes), its length in *@len; @what names the knob
 * (and the line) for the log.
 */
static int bench_parse_frame(const char *what, char *p, u8 *frame, u32 *len)
{
	char *tok;
	u32 n;

	*len = 0;
	for (;;) {
		tok = skip_spaces(p);
		if (!*tok)
			return 0;
		for (p = tok; *p && !isspace(*p); p++)
			;
		if ((p - tok) & 1) {
			pr_warn("%s: odd number of hex digits in '%.*s' at byte %u\n",
				what, (int)min_t(long, p - tok, 16), tok, *len);
			return -EINVAL;
		}
		n = (p - tok) / 2;
		if (n > ETH_FRAME_LEN - *len) {
			pr_warn("%s: longer than %d bytes\n", what, ETH_FRAME_LEN);
			return -E2BIG;
		}
		if (hex2bin(frame + *len, tok, n)) {
			pr_warn("%s: '%.*s' at byte %u is not hex\n",
				what, (int)min_t(long, p - tok, 16), tok, *len);
			return -EINVAL;
		}
		*len += n;
	}
}

static int bench_store_packet(const struct bench_knob *k, char *buf)
{
	u32 len;
	u8 *pkt;
	int err;

	pkt = kmalloc(ETH_FRAME_LEN, GFP_KERNEL);
	if (!pkt)
		return -ENOMEM;
	err = bench_parse_frame("packet", buf, pkt, &len);
	if (!err) {
		/* 0..13 bytes (no pair at all: an empty frame) are for eval only */
		memcpy(bench.packet, pkt, len);
		bench.packet_len = len;
		bench.packet_set = true;
	}
	kfree(pkt);
	return err;
}

/*
 * frames: the frame set of mix=1, one frame a line, "VERDICT HEX...": the
 * value the program must return for it, then the frame as packet takes
 * it, 14..1514 bytes.  A write replaces the whole set; one of white space
 * only empties it.
 */
static int bench_store_frames(const struct bench_knob *k, char *buf)
{
	u32 len[BENCH_FRAMES_MAX] = { }, verdict[BENCH_FRAMES_MAX] = { };
	u32 nr = 0, line = 0;
	u8 (*data)[ETH_FRAME_LEN];
	char what[32], *p, *word;
	int err;

	data = kvmalloc_array(BENCH_FRAMES_MAX, sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	while ((p = bench_next_line(&buf, &line))) {
		snprintf(what, sizeof(what), "frames: line %u", line);
		if (nr == BENCH_FRAMES_MAX) {
			pr_warn("%s: more than %d frames\n", what,
				BENCH_FRAMES_MAX);
			err = -E2BIG;
			goto err;
		}
		word = strsep(&p, " \t");
		if (bench_parse_u32(word, &verdict[nr]) || !p) {
			pr_warn("%s: expected 'VERDICT HEX...', VERDICT a decimal or 0x hex u32, not '%.16s'\n",
				what, word);
			err = -EINVAL;
			goto err;
		}
		err = bench_parse_frame(what, p, data[nr], &len[nr]);
		if (err)
			goto err;
		if (len[nr] < ETH_HLEN) {
			pr_warn("%s: a frame of %u bytes, a timed run needs %d..%d\n",
				what, len[nr], ETH_HLEN, ETH_FRAME_LEN);
			err = -EINVAL;
			goto err;
		}
		nr++;
	}
	kvfree(bench.frames.data);
	bench.frames.data = nr ? data : NULL;
	if (!nr)
		kvfree(data);
	memcpy(bench.frames.len, len, sizeof(len));
	memcpy(bench.frames.verdict, verdict, sizeof(verdict));
	bench.frames.nr = nr;
	return 0;
err:
	kvfree(data);
	return err;
}

static int bench_show_frames(const struct bench_knob *k, struct seq_file *m)
{
	u32 i, off, n;

	for (i = 0; i < bench.frames.nr; i++) {
		seq_printf(m, "%u", bench.frames.verdict[i]);
		for (off = 0; off < bench.frames.len[i]; off += n) {
			n = min_t(u32, bench.frames.len[i] - off, 16);
			seq_printf(m, " %*ph", n, bench.frames.data[i] + off);
		}
		seq_putc(m, '\n');
	}
	return 0;
}

static int bench_show_packet(const struct bench_knob *k, struct seq_file *m)
{
	u32 i, n;

	for (i = 0; i < bench.packet_len; i += n) {
		n = min_t(u32, bench.packet_len - i, 16);
		seq_printf(m, "%*ph\n", n, bench.packet + i);
	}
	return 0;
}

static int bench_store_skb_meta(const struct bench_knob *k, char *buf)
{
	u32 set = 0, val[BENCH_NR_META] = { };
	char *p = buf, *tok, *eq;
	size_t i;

	while ((tok = strsep(&p, " \t\n"))) {
		if (!*tok)
			continue;
		eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		for (i = 0; i < BENCH_NR_META; i++)
			if (!strcmp(tok, bench_meta_keys[i].name))
				break;
		if (!eq || i == BENCH_NR_META) {
			pr_warn("skb_meta: '%.32s' is not KEY=VALUE with a KEY of: protocol pkt_type mark hash queue_mapping vlan_tci vlan_present vlan_proto ifindex dev_type\n",
				tok);
			return -EINVAL;
		}
		if (set & BIT(i)) {
			pr_warn("skb_meta: %s given twice\n", tok);
			return -EINVAL;
		}
		if (bench_parse_u32(eq + 1, &val[i]) ||
		    val[i] > bench_meta_keys[i].max) {
			pr_warn("skb_meta: %s: '%.32s' is not a decimal or 0x hex number in 0..%u\n",
				tok, eq + 1, bench_meta_keys[i].max);
			return -EINVAL;
		}
		set |= BIT(i);
	}
	bench_meta.set = set;
	memcpy(bench_meta.val, val, sizeof(val));
	bench_dev.ifindex = val[BENCH_META_IFINDEX];
	bench_dev.type = val[BENCH_META_DEV_TYPE];
	return 0;
}

static int bench_show_skb_meta(const struct bench_knob *k, struct seq_file *m)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < BENCH_NR_META; i++) {
		if (!(bench_meta.set & BIT(i)))
			continue;
		seq_printf(m, bench_meta_keys[i].hex ? "%s%s=0x%x" : "%s%s=%u",
			   sep, bench_meta_keys[i].name, bench_meta.val[i]);
		sep = " ";
	}
	if (*sep)
		seq_putc(m, '\n');
	return 0;
}

static int bench_store_engine(const struct bench_knob *k, char *buf)
{
	const struct bench_engine *e;
	const char *name = strim(buf);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bench_engines); i++) {
		e = &bench_engines[i];
		if (strcmp(name, e->name))
			continue;
		if (!e->loop) {
			pr_warn("engine: '%s' is not built in (needs %s)\n",
				name, e->needs);
			return -EOPNOTSUPP;
		}
		bench.engine = e;
		return 0;
	}
	pr_warn("engine: unknown engine '%.32s', see the engines file\n",
		name);
	return -EINVAL;
}

static int bench_show_engine(const struct bench_knob *k, struct seq_file *m)
{
	seq_printf(m, "%s\n", bench.engine->name);
	return 0;
}

static int bench_show_engines(const struct bench_knob *k, struct seq_file *m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bench_engines); i++)
		if (bench_engines[i].loop)
			seq_printf(m, "%s\n", bench_engines[i].name);
	return 0;
}

static int bench_store_u32(const struct bench_knob *k, char *buf)
{
	const char *s = strim(buf);
	u32 v;

	if (bench_parse_u32(s, &v)) {
		pr_warn("%s: '%.32s' is not a decimal or 0x hex u32\n",
			k->name, s);
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		pr_warn("%s: %u is out of range %u..%u\n",
			k->name, v, k->min, k->max);
		return -EINVAL;
	}
	*k->val = v;
	return 0;
}

/* model_calls: only where the markers exist (x86, ARM) */
static int bench_store_model_calls(const struct bench_knob *k, char *buf)
{
	u32 v;

	if (!BENCH_MODEL_MARKERS && !bench_parse_u32(strim(buf), &v) && v) {
		pr_warn("%s: no model markers on this architecture (x86 and ARM have them)\n",
			k->name);
		return -EOPNOTSUPP;
	}
	return bench_store_u32(k, buf);
}

static int bench_show_u32(const struct bench_knob *k, struct seq_file *m)
{
	seq_printf(m, "%u\n", *k->val);
	return 0;
}

static int bench_store_expect(const struct bench_knob *k, char *buf)
{
	int err = bench_store_u32(k, buf);

	if (!err)
		bench.expect_set = true;
	return err;
}

static int bench_show_expect(const struct bench_knob *k, struct seq_file *m)
{
	return bench.expect_set ? bench_show_u32(k, m) : 0;
}

static int bench_store_run(const struct bench_knob *k, char *buf)
{
	const char *s = strim(buf);
	u32 v;

	if (bench_parse_u32(s, &v) || v != 1) {
		pr_warn("run: write 1 to run, not '%.32s'\n", s);
		return -EINVAL;
	}
	return bench_run_cell();
}

/* @v thousandths with three decimals: ps as ns, a mean of counts */
static void bench_show_milli(struct seq_file *m, const char *key, u64 v)
{
	u32 rem;
	u64 whole = div_u64_rem(v, 1000, &rem);

	seq_printf(m, " %s=%llu.%03u", key, whole, rem);
}

static int bench_show_result(const struct bench_knob *k, struct seq_file *m)
{
	const struct bench_result *res = &bench.result;

	if (!bench.result_valid)
		return 0;
	seq_printf(m, "engine=%s skbs=%u samples=%u calls_per_sample=%llu",
		   res->engine, res->skbs, res->samples, res->calls);
	bench_show_milli(m, "min", res->min_ps);
	bench_show_milli(m, "median", res->median_ps);
	bench_show_milli(m, "mean", res->mean_ps);
	bench_show_milli(m, "stddev", res->stddev_ps);
	if (res->ci_level) {
		bench_show_milli(m, "ci_lo", res->ci_lo_ps);
		bench_show_milli(m, "ci_hi", res->ci_hi_ps);
		seq_printf(m, " ci_level=%u.%u", res->ci_level / 10,
			   res->ci_level % 10);
	}
	/* No cheap way to name the current clocksource from a module. */
	if (res->mix_frames)
		seq_printf(m, " verdict=mix frames=%u accepted=%u",
			   res->mix_frames, res->mix_accepted);
	else
		seq_printf(m, " verdict=%u", res->verdict);
	seq_printf(m, " jited=%u insns=%u image_bytes=%u",
		   res->jited, res->len, res->image_bytes);
	/*
	 * Programs from bpf_prog_create() get no kallsyms entry: perf shows
	 * their samples as bare addresses, which this range lets the guest
	 * name.
	 */
	if (res->image_bytes)
		seq_printf(m, " image_start=0x%016lx image_end=0x%016lx",
			   res->image, res->image + res->image_bytes);
	/* oldjit: 1 if the program ran on sk_run_filter(), as 3.14 fell back */
	if (res->fallback)
		seq_printf(m, " fallback=%s", res->fallback);
	if (res->vm_insns_valid && res->vm_insns_skbs == 1)
		seq_printf(m, " vm_insns=%llu", res->vm_insns);
	else if (res->vm_insns_valid)	/* mixed: the mean over the skbs */
		bench_show_milli(m, "vm_insns",
				 div_u64(res->vm_insns * 1000 +
					 res->vm_insns_skbs / 2,
					 res->vm_insns_skbs));
	if (res->model_calls)
		seq_printf(m, " model_window=%llu model_calls=%u",
			   res->model_window, res->model_calls);
	seq_puts(m, " clock=ktime\n");
	return 0;
}

/*
 * eval's (and image's) program for engine @i, built at the first use after
 * a prog write; bench.eval_err[@i] says whether that worked.
 */
static struct bench_run *bench_eval_prepare(size_t i)
{
	struct bench_run *r = &bench.eval_run[i];

	lockdep_assert_held(&bench_lock);
	if (!bench.eval_built[i]) {
		*r = (struct bench_run){ .engine = &bench_engines[i] };
		bench.eval_err[i] = bench_engines[i].prepare(r);
		/* Out of memory is not the program's fault: retry. */
		bench.eval_built[i] = bench.eval_err[i] != -ENOMEM;
	}
	return r;
}

/*
 * eval: one skb of the current packet (with headlen), the current program
 * run once on every built-in engine but baseline.  An engine whose checker
 * rejects the program shows the checker's negative errno.  The engines'
 * programs are built at the first eval after a prog write and kept, so
 * that a differential test over many packets does not rebuild them.
 */
static int bench_show_eval(const struct bench_knob *k, struct seq_file *m)
{
	const struct bench_engine *e;
	struct bench_run *r;
	struct sk_buff *skb;
	const char *sep = "";
	size_t i;
	u32 ret;

	if (!bench.prog_len) {
		pr_warn("eval: set prog first\n");
		return -EINVAL;
	}
	if (!bench.packet_set) {
		pr_warn("eval: set packet first\n");
		return -EINVAL;
	}
	skb = bench_build_skb(bench.packet, bench.packet_len, bench.headlen);
	if (!skb)
		return -ENOMEM;

	for (i = 0; i < ARRAY_SIZE(bench_engines); i++) {
		e = &bench_engines[i];
		if (!e->call)
			continue;
		r = bench_eval_prepare(i);
		if (bench.eval_err[i]) {
			seq_printf(m, "%s%s=%d", sep, e->name, bench.eval_err[i]);
		} else {
			preempt_disable();
			ret = e->call(r->arg, skb);
			preempt_enable();
			seq_printf(m, "%s%s=%u", sep, e->name, ret);
		}
		sep = " ";
	}
	seq_putc(m, '\n');
	consume_skb(skb);
	return 0;
}

/*
 * Paired mode: several engines measured on the same skbs in interleaved
 * rounds.  Absolute ns/call on a shared machine drift by tens of percent
 * within minutes; one sample of every engine per round, taken back to
 * back, sees the same machine, so the per-round ratios between engines
 * hold where the absolute figures do not.  The raw per-round samples are
 * the result; the statistics are made on the host.
 */
#define BENCH_ROUNDS_MAX		1000
#define BENCH_ROUND_ENGINES_TEXT_MAX	256

/* Everything in here is protected by bench_lock. */
static struct {
	u8 engines[BENCH_NR_ENGINES];	/* indices into bench_engines[] */
	u32 nr_engines;			/* 0: round_engines not set */
	u32 rounds;
	/* the last successful run_rounds */
	bool valid;
	u32 res_engines[BENCH_NR_ENGINES];
	u32 res_nr_engines;
	u32 res_rounds;
	u32 res_skbs;
	u32 res_verdict;
	bool res_mix;			/* mix=1: the frame set's verdicts */
	u64 calls[BENCH_NR_ENGINES];
	u32 jited[BENCH_NR_ENGINES];
	u32 len[BENCH_NR_ENGINES];
	u64 *ps;			/* [round * res_nr_engines + engine] */
} bench_paired = {
	.rounds = 30,
};

/* The index of engine @name in bench_engines[] (for knob @what), or a negative errno. */
static int bench_engine_lookup(const char *what, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bench_engines); i++) {
		if (strcmp(name, bench_engines[i].name))
			continue;
		if (!bench_engines[i].loop) {
			pr_warn("%s: '%s' is not built in (needs %s)\n",
				what, name, bench_engines[i].needs);
			return -EOPNOTSUPP;
		}
		return i;
	}
	pr_warn("%s: unknown engine '%.32s', see the engines file\n",
		what, name);
	return -EINVAL;
}

/* "old,new": 2..all built-in engines, each once, in measuring order. */
static int bench_store_round_engines(const struct bench_knob *k, char *buf)
{
	u8 idx[BENCH_NR_ENGINES];
	char *p = strim(buf), *tok;
	u32 n = 0, j;
	int e;

	while (p) {
		tok = strim(strsep(&p, ","));
		if (!*tok) {
			pr_warn("round_engines: empty engine name; expected a comma-separated list like 'old,new'\n");
			return -EINVAL;
		}
		e = bench_engine_lookup("round_engines", tok);
		if (e < 0)
			return e;
		for (j = 0; j < n; j++) {
			if (idx[j] == e) {
				pr_warn("round_engines: '%s' listed twice\n",
					tok);
				return -EINVAL;
			}
		}
		/* n distinct engines never exceed the table */
		idx[n++] = e;
	}
	if (n < 2) {
		pr_warn("round_engines: %u engine given, a round compares 2..%zu\n",
			n, ARRAY_SIZE(bench_engines));
		return -EINVAL;
	}
	memcpy(bench_paired.engines, idx, n);
	bench_paired.nr_engines = n;
	return 0;
}

static int bench_show_round_engines(const struct bench_knob *k,
				    struct seq_file *m)
{
	u32 j;

	for (j = 0; j < bench_paired.nr_engines; j++)
		seq_printf(m, "%s%s", j ? "," : "",
			   bench_engines[bench_paired.engines[j]].name);
	if (bench_paired.nr_engines)
		seq_putc(m, '\n');
	return 0;
}

/*
 * One run of the paired cell: the skbs built once, every listed engine
 * prepared on them, warmed up and calibrated, then @rounds rounds of one
 * timed sample per engine.  Round r starts at engine r mod k and goes on
 * in list order, so every engine is measured equally often right after
 * each other one's sample and in each position of the round.
 */
static int bench_run_rounds(void)
{
	u32 k = bench_paired.nr_engines, rounds = bench_paired.rounds;
	u32 nr_skbs = bench.skbs, i, j, e, prepared = 0, round;
	struct sk_buff **skbs = NULL;
	struct bench_run *runs = NULL;
	u64 calls[BENCH_NR_ENGINES];
	u64 *ps = NULL, ns;
	u32 *expects = NULL;
	int err;

	lockdep_assert_held(&bench_lock);
	bench_paired.valid = false;
	kvfree(bench_paired.ps);
	bench_paired.ps = NULL;

	if (!k) {
		pr_warn("run_rounds: set round_engines first\n");
		return -EINVAL;
	}
	if (!bench.prog_len) {
		pr_warn("run_rounds: set prog first\n");
		return -EINVAL;
	}
	err = bench_build_run_skbs("run_rounds", nr_skbs, &skbs, &expects);
	if (err)
		return err;

	runs = kcalloc(k, sizeof(*runs), GFP_KERNEL);
	ps = kvcalloc(array_size(rounds, k), sizeof(*ps), GFP_KERNEL);
	if (!runs || !ps) {
		pr_warn("run_rounds: out of memory\n");
		err = -ENOMEM;
		goto out;
	}

	for (j = 0; j < k; j++) {
		runs[j] = (struct bench_run){
			.engine = &bench_engines[bench_paired.engines[j]],
			.skbs = skbs,
			.nr_skbs = nr_skbs,
			.expect = bench.expect,
			.expects = expects,
		};
		err = runs[j].engine->prepare(&runs[j]);
		if (err)
			goto out;
		prepared++;
	}
	for (j = 0; j < k; j++) {
		/* warm-up: every skb once, every verdict checked */
		err = bench_timed(&runs[j], runs[j].nr_skbs, &ns);
		if (!err)
			err = bench_calibrate(&runs[j], "run_rounds", &calls[j]);
		if (err)
			goto out;
	}

	for (round = 0; round < rounds; round++) {
		for (i = 0; i < k; i++) {
			e = (round + i) % k;
			cond_resched();
			if (signal_pending(current)) {
				err = -EINTR;
				goto out;
			}
			err = bench_timed(&runs[e], calls[e], &ns);
			if (err)
				goto out;
			ps[round * k + e] = div64_u64(ns * 1000, calls[e]);
		}
	}

	bench_paired.ps = ps;
	ps = NULL;
	for (j = 0; j < k; j++) {
		bench_paired.res_engines[j] = bench_paired.engines[j];
		bench_paired.calls[j] = calls[j];
		bench_paired.jited[j] = runs[j].jited;
		bench_paired.len[j] = runs[j].len;
	}
	bench_paired.res_nr_engines = k;
	bench_paired.res_rounds = rounds;
	bench_paired.res_skbs = nr_skbs;
	bench_paired.res_verdict = bench.expect;
	bench_paired.res_mix = !!expects;
	bench_paired.valid = true;
out:
	if (err == -EINTR)
		pr_warn("run_rounds: interrupted\n");
	while (prepared--)
		if (runs[prepared].engine->destroy)
			runs[prepared].engine->destroy(&runs[prepared]);
	bench_free_skbs(skbs, nr_skbs);
	kvfree(expects);
	kvfree(ps);
	kfree(runs);
	return err;
}

static int bench_store_run_rounds(const struct bench_knob *k, char *buf)
{
	const char *s = strim(buf);
	u32 v;

	if (bench_parse_u32(s, &v) || v != 1) {
		pr_warn("run_rounds: write 1 to run, not '%.32s'\n", s);
		return -EINVAL;
	}
	return bench_run_rounds();
}

static void bench_paired_list_u64(struct seq_file *m, const char *key,
				  const u64 *v, u32 n)
{
	u32 j;

	for (j = 0; j < n; j++)
		seq_printf(m, "%s%llu", j ? "," : key, v[j]);
}

static void bench_paired_list_u32(struct seq_file *m, const char *key,
				  const u32 *v, u32 n)
{
	u32 j;

	for (j = 0; j < n; j++)
		seq_printf(m, "%s%u", j ? "," : key, v[j]);
}

/*
 * A header line, then one line per round with each engine's ns per call
 * (three decimals, from integer ps), engines in round_engines order:
 *   engines=old,new skbs=1 rounds=30 order=rotate verdict=65535
 *	calls=1048576,262144 jited=0,0 insns=24,144
 *   round=0 old=23.456 new=70.123
 */
static int bench_show_rounds_result(const struct bench_knob *k,
				    struct seq_file *m)
{
	u32 n = bench_paired.res_nr_engines, r, j;
	const u64 *ps = bench_paired.ps;
	u64 ns;
	u32 rem;

	if (!bench_paired.valid)
		return 0;
	for (j = 0; j < n; j++)
		seq_printf(m, "%s%s", j ? "," : "engines=",
			   bench_engines[bench_paired.res_engines[j]].name);
	seq_printf(m, " skbs=%u rounds=%u order=rotate",
		   bench_paired.res_skbs, bench_paired.res_rounds);
	if (bench_paired.res_mix)
		seq_puts(m, " verdict=mix");
	else
		seq_printf(m, " verdict=%u", bench_paired.res_verdict);
	bench_paired_list_u64(m, " calls=", bench_paired.calls, n);
	bench_paired_list_u32(m, " jited=", bench_paired.jited, n);
	bench_paired_list_u32(m, " insns=", bench_paired.len, n);
	seq_putc(m, '\n');
	for (r = 0; r < bench_paired.res_rounds; r++) {
		seq_printf(m, "round=%u", r);
		for (j = 0; j < n; j++) {
			ns = div_u64_rem(ps[r * n + j], 1000, &rem);
			seq_printf(m, " %s=%llu.%03u",
				   bench_engines[bench_paired.res_engines[j]].name,
				   ns, rem);
		}
		seq_putc(m, '\n');
	}
	return 0;
}

/* End of paired mode. */

/*
 * image: the JIT image the current engine runs for the current program,
 * as hex bytes, 16 a line; empty for a program that is not JITed (engines
 * old and new, or an oldjit fallback).  The program is eval's.
 */
static int bench_show_image(const struct bench_knob *k, struct seq_file *m)
{
	size_t i = bench.engine - bench_engines;
	const struct bench_run *r;
	const u8 *image;
	u32 off, n;

	if (!bench.prog_len) {
		pr_warn("image: set prog first\n");
		return -EINVAL;
	}
	if (!bench.engine->call) {
		pr_warn("image: engine %s runs no program\n", bench.engine->name);
		return -EINVAL;
	}
	r = bench_eval_prepare(i);
	if (bench.eval_err[i])
		return bench.eval_err[i];
	image = (const u8 *)r->image;
	for (off = 0; off < r->image_bytes; off += n) {
		n = min_t(u32, r->image_bytes - off, 16);
		seq_printf(m, "%*ph\n", n, image + off);
	}
	return 0;
}

/*
 * capture: a batch of a capture's frames, each with the verdict the
 * program must return for it (libpcap's, computed on the host), written
 * in binary in ONE write: u32 BENCH_CAPTURE_MAGIC, u32 nr (0..
 * BENCH_CAPTURE_FRAMES_MAX; 0 empties the batch), then nr records of u32
 * len (1..BENCH_CAPTURE_FRAME_MAX), u32 verdict and len bytes of the frame
 * from its Ethernet header, padded with zeros to a multiple of 4; native
 * byte order, at most BENCH_CAPTURE_BYTES_MAX in all.  Each frame becomes
 * one skb (with headlen and skb_meta, as a run's) when the batch is
 * written; capture_run runs an engine over them in batch order.
 */
#define BENCH_CAPTURE_MAGIC		0x42465042	/* "BPFB" */
#define BENCH_CAPTURE_FRAMES_MAX	65536
#define BENCH_CAPTURE_FRAME_MAX		262144	/* tcpdump's largest snaplen */
#define BENCH_CAPTURE_BYTES_MAX		(64 << 20)
#define BENCH_CAPTURE_PASSES_MAX	1000
#define BENCH_CAPTURE_CHUNK		4096	/* calls under one preempt_disable() */

static struct {
	struct sk_buff **skbs;
	u32 *verdicts;
	u32 nr;
	u64 bytes;
	u32 accepted;			/* frames whose verdict is not 0 */
	/* the last capture_run: valid, or a mismatch */
	bool valid;
	bool mismatch;
	const char *engine;
	u32 passes;
	u32 window;
	u64 calls;
	u64 ns;
	u32 jited;
	u32 len;
	const char *fallback;		/* oldjit: "0" or "1", else NULL */
	u32 bad_frame;
	u32 bad_ret;
	u32 bad_want;
} bench_capture;

static void bench_capture_free(void)
{
	bench_free_skbs(bench_capture.skbs, bench_capture.nr);
	kvfree(bench_capture.verdicts);
	bench_capture.skbs = NULL;
	bench_capture.verdicts = NULL;
	bench_capture.nr = 0;
	bench_capture.bytes = 0;
	bench_capture.accepted = 0;
}

static u32 bench_capture_u32(const u8 *p)
{
	return get_unaligned((const u32 *)p);
}

/* The batch's records checked whole before anything is allocated. */
static int bench_capture_check(const u8 *buf, size_t count, u32 *nrp)
{
	size_t off = 8;
	u32 nr, i, len;

	if (count < 8 || bench_capture_u32(buf) != BENCH_CAPTURE_MAGIC) {
		pr_warn("capture: not a batch: it starts with the u32 0x%x, then the frame count (bench/guest/capture.c writes it)\n",
			BENCH_CAPTURE_MAGIC);
		return -EINVAL;
	}
	nr = bench_capture_u32(buf + 4);
	if (nr > BENCH_CAPTURE_FRAMES_MAX) {
		pr_warn("capture: %u frames, at most %d a batch\n", nr,
			BENCH_CAPTURE_FRAMES_MAX);
		return -E2BIG;
	}
	for (i = 0; i < nr; i++) {
		if (count - off < 8) {
			pr_warn("capture: frame %u of %u: the batch ends in its header\n",
				i, nr);
			return -EINVAL;
		}
		len = bench_capture_u32(buf + off);
		if (!len || len > BENCH_CAPTURE_FRAME_MAX) {
			pr_warn("capture: frame %u: length %u, not 1..%d\n",
				i, len, BENCH_CAPTURE_FRAME_MAX);
			return -EINVAL;
		}
		off += 8;
		if (count - off < ALIGN(len, 4)) {
			pr_warn("capture: frame %u: %u bytes (padded to 4) past the batch's end\n",
				i, len);
			return -EINVAL;
		}
		off += ALIGN(len, 4);
	}
	if (off != count) {
		pr_warn("capture: %zu bytes after the last of %u frames\n",
			count - off, nr);
		return -EINVAL;
	}
	*nrp = nr;
	return 0;
}

static int bench_store_capture(const struct bench_knob *k, const u8 *buf,
			       size_t count)
{
	struct sk_buff **skbs = NULL;
	u32 *verdicts = NULL, nr, i = 0, len, accepted = 0;
	size_t off = 8;
	u64 bytes = 0;
	int err;

	err = bench_capture_check(buf, count, &nr);
	if (err)
		return err;
	if (nr) {
		skbs = kvcalloc(nr, sizeof(*skbs), GFP_KERNEL);
		verdicts = kvcalloc(nr, sizeof(*verdicts), GFP_KERNEL);
		if (!skbs || !verdicts) {
			err = -ENOMEM;
			goto err;
		}
	}
	for (i = 0; i < nr; i++) {
		len = bench_capture_u32(buf + off);
		verdicts[i] = bench_capture_u32(buf + off + 4);
		skbs[i] = bench_build_skb(buf + off + 8, len, bench.headlen);
		if (!skbs[i]) {
			err = -ENOMEM;
			goto err;
		}
		accepted += !!verdicts[i];
		bytes += len;
		off += 8 + ALIGN(len, 4);
		cond_resched();
		if (signal_pending(current)) {
			err = -EINTR;
			goto err;
		}
	}
	bench_capture_free();
	bench_capture.skbs = skbs;
	bench_capture.verdicts = verdicts;
	bench_capture.nr = nr;
	bench_capture.bytes = bytes;
	bench_capture.accepted = accepted;
	bench_capture.valid = false;
	bench_capture.mismatch = false;
	return 0;
err:
	pr_warn("capture: %s at frame %u of %u: the batch before stays\n",
		err == -EINTR ? "interrupted" : "out of memory", i, nr);
	bench_free_skbs(skbs, skbs ? i : 0);
	kvfree(verdicts);
	return err;
}

/*
 * capture_verdicts: the batch's verdicts replaced (another filter on the
 * same frames), binary in ONE write: one u32 a frame, native byte order.
 */
static int bench_store_capture_verdicts(const struct bench_knob *k,
					const u8 *buf, size_t count)
{
	u32 i, accepted = 0;

	if (!bench_capture.nr) {
		pr_warn("capture_verdicts: write a batch of frames to capture first\n");
		return -EINVAL;
	}
	if (count != (size_t)bench_capture.nr * sizeof(u32)) {
		pr_warn("capture_verdicts: %zu bytes, the batch's %u frames take %zu\n",
			count, bench_capture.nr,
			(size_t)bench_capture.nr * sizeof(u32));
		return -EINVAL;
	}
	for (i = 0; i < bench_capture.nr; i++) {
		bench_capture.verdicts[i] = bench_capture_u32(buf + 4 * i);
		accepted += !!bench_capture.verdicts[i];
	}
	bench_capture.accepted = accepted;
	bench_capture.valid = false;
	bench_capture.mismatch = false;
	return 0;
}

static int bench_show_capture(const struct bench_knob *k, struct seq_file *m)
{
	seq_printf(m, "frames=%u bytes=%llu accepted=%u\n", bench_capture.nr,
		   bench_capture.bytes, bench_capture.accepted);
	return 0;
}

/*
 * One engine over the batch: in windows of @window frames, each window
 * @passes times in a row (with @passes > 1 after one untimed pass over
 * it), every call checked against its frame's verdict.  Sets *@calls and
 * *@ns, the timed calls and their ns; a mismatch fills bench_capture's
 * bad_* fields and returns -EBADE.
 */
static int bench_capture_loop(struct bench_run *r, u32 passes, u32 window,
			      u64 *calls, u64 *ns)
{
	u32 start, w;
	u64 left, n, t;
	int err;

	*calls = 0;
	*ns = 0;
	for (start = 0; start < bench_capture.nr; start += w) {
		w = min(window, bench_capture.nr - start);
		r->skbs = bench_capture.skbs + start;
		r->expects = bench_capture.verdicts + start;
		r->nr_skbs = w;
		r->idx = 0;
		err = passes > 1 ? bench_timed(r, w, &t) : 0;
		for (left = (u64)w * passes; !err && left; left -= n) {
			n = min_t(u64, left, BENCH_CAPTURE_CHUNK);
			err = bench_timed(r, n, &t);
			if (err)
				break;
			*ns += t;
			*calls += n;
			cond_resched();
			if (signal_pending(current))
				err = -EINTR;
		}
		if (err == -EBADE) {
			bench_capture.mismatch = true;
			bench_capture.bad_frame = start + r->bad_idx;
			bench_capture.bad_ret = r->bad_ret;
			bench_capture.bad_want = r->expects[r->bad_idx];
			pr_warn("capture_run: %s returned %u for frame %u of the batch, its verdict is %u\n",
				r->engine->name, r->bad_ret,
				bench_capture.bad_frame, bench_capture.bad_want);
		}
		if (err)
			return err;
	}
	return 0;
}

/* "ENGINE PASSES WINDOW": PASSES 1..1000, WINDOW 0 (the batch) or 1.. */
static int bench_store_capture_run(const struct bench_knob *k, char *buf)
{
	char *p = strim(buf), *word[3];
	const struct bench_engine *e;
	struct bench_run r = { };
	u32 passes, window, i;
	u64 calls, ns;
	int idx, err;

	for (i = 0; i < 3; i++) {
		word[i] = strsep(&p, " \t");
		while (p && (*p == ' ' || *p == '\t'))
			p++;
		if (!word[i] || !*word[i])
			break;
	}
	if (i < 3 || p) {
		pr_warn("capture_run: write 'ENGINE PASSES WINDOW' (e.g. 'old 1 0'), not '%.48s'\n",
			buf);
		return -EINVAL;
	}
	idx = bench_engine_lookup("capture_run", word[0]);
	if (idx < 0)
		return idx;
	if (idx == BENCH_ENGINE_BASELINE) {
		pr_warn("capture_run: baseline runs no program: it has no verdicts to give\n");
		return -EINVAL;
	}
	if (bench_parse_u32(word[1], &passes) || !passes ||
	    passes > BENCH_CAPTURE_PASSES_MAX) {
		pr_warn("capture_run: PASSES '%.16s' is not 1..%d\n", word[1],
			BENCH_CAPTURE_PASSES_MAX);
		return -EINVAL;
	}
	if (bench_parse_u32(word[2], &window)) {
		pr_warn("capture_run: WINDOW '%.16s' is not a number (0: the whole batch)\n",
			word[2]);
		return -EINVAL;
	}
	if (!bench.prog_len) {
		pr_warn("capture_run: set prog first\n");
		return -EINVAL;
	}
	if (!bench_capture.nr) {
		pr_warn("capture_run: write a batch of frames to capture first\n");
		return -EINVAL;
	}
	if (!window || window > bench_capture.nr)
		window = bench_capture.nr;

	bench_capture.valid = false;
	bench_capture.mismatch = false;
	e = &bench_engines[idx];
	r.engine = e;
	r.expects = bench_capture.verdicts;
	err = e->prepare(&r);
	if (err)
		return err;
	err = bench_capture_loop(&r, passes, window, &calls, &ns);
	if (!err) {
		bench_capture.valid = true;
		bench_capture.engine = e->name;
		bench_capture.passes = passes;
		bench_capture.window = window;
		bench_capture.calls = calls;
		bench_capture.ns = ns;
		bench_capture.jited = r.jited;
		bench_capture.len = r.len;
		bench_capture.fallback = idx == BENCH_ENGINE_OLDJIT ?
					 (r.fallback ? "1" : "0") : NULL;
	} else if (bench_capture.mismatch) {
		bench_capture.engine = e->name;
	}
	if (e->destroy)
		e->destroy(&r);
	return err;
}

static int bench_show_capture_result(const struct bench_knob *k,
				     struct seq_file *m)
{
	if (bench_capture.mismatch) {
		seq_printf(m, "engine=%s mismatch=1 frame=%u returned=%u expected=%u\n",
			   bench_capture.engine, bench_capture.bad_frame,
			   bench_capture.bad_ret, bench_capture.bad_want);
		return 0;
	}
	if (!bench_capture.valid)
		return 0;
	seq_printf(m, "engine=%s frames=%u passes=%u window=%u calls=%llu ns=%llu accepted=%u jited=%u insns=%u",
		   bench_capture.engine, bench_capture.nr, bench_capture.passes,
		   bench_capture.window, bench_capture.calls, bench_capture.ns,
		   bench_capture.accepted, bench_capture.jited,
		   bench_capture.len);
	if (bench_capture.fallback)
		seq_printf(m, " fallback=%s", bench_capture.fallback);
	seq_puts(m, "\n");
	return 0;
}

static const struct bench_knob bench_knobs[] = {
	{
		.name = "prog", .mode = 0600,
		.max_len = BENCH_PROG_TEXT_MAX,
		.show = bench_show_prog, .store = bench_store_prog,
	}, {
		.name = "packet", .mode = 0600,
		.max_len = BENCH_PACKET_TEXT_MAX,
		.show = bench_show_packet, .store = bench_store_packet,
	}, {
		.name = "frames", .mode = 0600,
		.max_len = BENCH_FRAMES_TEXT_MAX,
		.show = bench_show_frames, .store = bench_store_frames,
	}, {
		.name = "mix", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench.mix, .min = 0, .max = 1,
	}, {
		.name = "headlen", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench.headlen, .min = 0, .max = ETH_FRAME_LEN,
	}, {
		.name = "skb_meta", .mode = 0600,
		.max_len = BENCH_META_TEXT_MAX,
		.show = bench_show_skb_meta, .store = bench_store_skb_meta,
	}, {
		.name = "engine", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_engine, .store = bench_store_engine,
	}, {
		.name = "engines", .mode = 0400,
		.show = bench_show_engines,
	}, {
		.name = "skbs", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench.skbs, .min = 1, .max = BENCH_SKBS_MAX,
	}, {
		.name = "samples", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench.samples, .min = 1, .max = BENCH_SAMPLES_MAX,
	}, {
		.name = "sample_us", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench.sample_us,
		.min = BENCH_SAMPLE_US_MIN, .max = BENCH_SAMPLE_US_MAX,
	}, {
		.name = "model_calls", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_model_calls,
		.val = &bench.model_calls, .min = 0,
		.max = BENCH_MODEL_CALLS_MAX,
	}, {
		.name = "expect", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_expect, .store = bench_store_expect,
		.val = &bench.expect, .min = 0, .max = U32_MAX,
	}, {
		.name = "run", .mode = 0200,
		.max_len = BENCH_WORD_TEXT_MAX,
		.store = bench_store_run,
	}, {
		.name = "result", .mode = 0400,
		.show = bench_show_result,
	}, {
		.name = "eval", .mode = 0400,
		.show = bench_show_eval,
	}, {
		.name = "round_engines", .mode = 0600,
		.max_len = BENCH_ROUND_ENGINES_TEXT_MAX,
		.show = bench_show_round_engines,
		.store = bench_store_round_engines,
	}, {
		.name = "rounds", .mode = 0600,
		.max_len = BENCH_WORD_TEXT_MAX,
		.show = bench_show_u32, .store = bench_store_u32,
		.val = &bench_paired.rounds, .min = 1, .max = BENCH_ROUNDS_MAX,
	}, {
		.name = "run_rounds", .mode = 0200,
		.max_len = BENCH_WORD_TEXT_MAX,
		.store = bench_store_run_rounds,
	}, {
		.name = "rounds_result", .mode = 0400,
		.show = bench_show_rounds_result,
	}, {
		.name = "image", .mode = 0400,
		.show = bench_show_image,
	}, {
		.name = "capture", .mode = 0600,
		.max_len = BENCH_CAPTURE_BYTES_MAX,
		.show = bench_show_capture, .store_bin = bench_store_capture,
	}, {
		.name = "capture_verdicts", .mode = 0200,
		.max_len = BENCH_CAPTURE_FRAMES_MAX * sizeof(u32),
		.store_bin = bench_store_capture_verdicts,
	}, {
		.name = "capture_run", .mode = 0200,
		.max_len = BENCH_WORD_TEXT_MAX,
		.store = bench_store_capture_run,
	}, {
		.name = "capture_result", .mode = 0400,
		.show = bench_show_capture_result,
	},
};

static int bench_knob_show(struct seq_file *m, void *v)
{
	const struct bench_knob *k = m->private;
	int err;

	if (!k->show)
		return 0;
	err = mutex_lock_interruptible(&bench_lock);
	if (err)
		return err;
	err = k->show(k, m);
	mutex_unlock(&bench_lock);
	return err;
}

static int bench_knob_open(struct inode *inode, struct file *file)
{
	return single_open(file, bench_knob_show, inode->i_private);
}

/*
 * A value arrives whole, in one write at offset 0: a continued write
 * would apply a prefix of it first, so it is refused.
 */
static ssize_t bench_knob_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	const struct bench_knob *k = file_inode(file)->i_private;
	char *buf;
	int err;

	if (!k->store && !k->store_bin) {
		pr_warn("%s: read-only\n", k->name);
		return -EPERM;
	}
	if (*ppos) {
		pr_warn("%s: continued write at offset %lld refused: write the whole value in one write() at offset 0\n",
			k->name, *ppos);
		return -EINVAL;
	}
	if (!count) {
		pr_warn("%s: empty write\n", k->name);
		return -EINVAL;
	}
	if (count > k->max_len) {
		pr_warn("%s: %zu bytes written, at most %zu accepted\n",
			k->name, count, k->max_len);
		return -E2BIG;
	}

	buf = kvmalloc(count + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		err = -EFAULT;
		goto out;
	}
	buf[count] = '\0';
	if (!k->store_bin && strlen(buf) != count) {
		pr_warn("%s: NUL byte in the value\n", k->name);
		err = -EINVAL;
		goto out;
	}

	err = mutex_lock_interruptible(&bench_lock);
	if (err)
		goto out;
	err = k->store_bin ? k->store_bin(k, buf, count) : k->store(k, buf);
	mutex_unlock(&bench_lock);
	if (!err)
		*ppos += count;
out:
	kvfree(buf);
	return err ? err : count;
}

static const struct file_operations bench_knob_fops = {
	.owner = THIS_MODULE,
	.open = bench_knob_open,
	.read = seq_read,
	.write = bench_knob_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init bench_init(void)
{
	struct dentry *dir;
	size_t i;

	bench.engine = &bench_engines[0];
	bench.skbs = 10000;
	bench.samples = 21;
	bench.sample_us = 20000;

	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (i = 0; i < ARRAY_SIZE(bench_knobs); i++)
		debugfs_create_file(bench_knobs[i].name, bench_knobs[i].mode,
				    dir, (void *)&bench_knobs[i],
				    &bench_knob_fops);
	bench.dir = dir;
	return 0;
}

static void __exit bench_exit(void)
{
	debugfs_remove_recursive(bench.dir);
	mutex_lock(&bench_lock);
	bench_eval_reset();
	mutex_unlock(&bench_lock);
	kvfree(bench.prog);
	kvfree(bench.frames.data);
	kvfree(bench_paired.ps);
	bench_capture_free();
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_DESCRIPTION("Classic BPF interpreter and JIT benchmark on sk_buffs");
MODULE_LICENSE("GPL");
