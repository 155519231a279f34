/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - what lib/test_bpf.c's classic test vectors need to compile in
 * a host program (mkvectors.c).  The vectors themselves, the struct bpf_test
 * they fill, the fill helpers and populate_skb()'s skb fields are cut from
 * the tree at build time (cut.awk, cutdefs.awk); classic BPF's constants
 * and BPF_STMT()/BPF_JUMP() come from the tree's uapi headers
 * (-I TREE/include/uapi).  No eBPF instruction macro is needed: the
 * entries that are not CLASSIC are left out by cut.awk.
 */
#ifndef TESTBPF_COMPAT_H
#define TESTBPF_COMPAT_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <endian.h>
#include <linux/types.h>
#include <linux/filter.h>
#include <linux/if_ether.h>

/*
 * The kernel defines one of __LITTLE_ENDIAN and __BIG_ENDIAN, for the byte
 * order it runs in (test_bpf's NLATTR frames differ by it); glibc's
 * <endian.h> defines both.  The vectors are for a little-endian guest:
 * every flavour (x86_64, um, i386, arm) is one.
 */
#undef __BIG_ENDIAN
#undef __LITTLE_ENDIAN
#define __LITTLE_ENDIAN	1234

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define htons(x)		htobe16(x)
#define ntohs(x)		be16toh(x)
#define BIT(n)			(1UL << (n))
#define GFP_KERNEL		0
#define kmalloc_array(n, size, gfp)	calloc((n), (size))
#define kfree(p)		free(p)

/* struct bpf_test has a union member of eBPF insns (uapi/linux/bpf.h) */
struct bpf_insn {
	u8 code;
	u8 dst_reg:4;
	u8 src_reg:4;
	int16_t off;
	int32_t imm;
};

/* include/linux/filter.h */
#define __BPF_STMT(CODE, K)	((struct sock_filter) BPF_STMT(CODE, K))
#define __BPF_JUMP(CODE, K, JT, JF) \
	((struct sock_filter) BPF_JUMP(CODE, K, JT, JF))

/* include/linux/prandom.h (its functions are cut from the tree) */
struct rnd_state {
	u32 s1, s2, s3, s4;
};

/* The skb fields populate_skb() sets; its assignments are cut verbatim. */
struct fake_dev {
	int ifindex;
	unsigned short type;
};

struct fake_skb {
	u16 protocol;		/* network order, as in struct sk_buff */
	u8 pkt_type;
	u32 mark;
	u32 hash;
	u16 queue_mapping;
	u16 vlan_tci;
	u8 vlan_present;
	u16 vlan_proto;		/* network order */
	struct fake_dev *dev;
};

static struct fake_dev dev;

#endif
