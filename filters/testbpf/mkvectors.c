// SPDX-License-Identifier: GPL-2.0
/*
 * mkvectors - lib/test_bpf.c's CLASSIC tests as a plain text vector file.
 *
 * Compiled against tests.inc, which the Makefile cuts from the tree at build
 * time (cut.awk, cutdefs.awk: test_bpf.c's struct bpf_test, its CLASSIC
 * tests[] entries, the fill helpers they use, populate_skb()'s skb fields;
 * the prandom functions maxinsns3 needs), so the vectors are the tree's and
 * nothing of them is stored in the repository.
 *
 *   mkvectors > vectors.txt     (summary on stderr)
 *
 * Each test is replayed as test_bpf does it (test_bpf(), generate_filter(),
 * run_one(), generate_test_data()):
 *   - the program is u.insns up to its last non-zero instruction
 *     (filter_length()), or what .fill_helper builds;
 *   - FLAG_EXPECTED_FAIL: bpf_prog_create() must fail with
 *     .expected_errcode; no subtest runs (one record "fail", on an empty
 *     frame, for engines whose checker accepts the program anyway);
 *   - subtests: test[0], then test[1..] until a {0, 0} one;
 *   - the frame: the first data_size bytes of .data (FLAG_NO_DATA: none,
 *     test_bpf passes no skb at all); FLAG_SKB_FRAG: those bytes linear
 *     and MAX_DATA bytes of .frag_data in one page fragment;
 *   - data_size >= MAX_DATA: test_bpf cannot build that skb (populate_skb()
 *     fails), the subtest is skipped and listed.
 *
 * Output:
 *   meta KEY=VALUE...      the skb fields populate_skb() sets (skb_meta knob)
 *   test INDEX FLAGS LEN DESCR
 *   { code, jt, jf, k },   LEN lines, tcpdump -dd text
 *   sub N LEN HEADLEN HEX WANT   HEX "-" for an empty frame; HEADLEN 0: all
 *                          linear; WANT a u32, or err=ERRNO (checker)
 *   end
 */
#include <stdio.h>
#include <string.h>

#include "compat.h"
#include "tests.inc"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void populate_meta(struct fake_skb *skb)
{
#include "populate.inc"
}

static unsigned int filter_length(const struct bpf_test *t)
{
	const struct sock_filter *fp = t->u.insns;
	int len;

	if (t->fill_helper)
		return t->u.ptr.len;
	for (len = MAX_INSNS - 1; len > 0; --len)
		if (fp[len].code != 0 || fp[len].k != 0)
			break;
	return len + 1;
}

static void flags_of(const struct bpf_test *t, char *buf, size_t n)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} f[] = {
		{ CLASSIC, "CLASSIC" },
		{ FLAG_NO_DATA, "NO_DATA" },
		{ FLAG_EXPECTED_FAIL, "EXPECTED_FAIL" },
		{ FLAG_SKB_FRAG, "SKB_FRAG" },
		{ FLAG_VERIFIER_ZEXT, "VERIFIER_ZEXT" },
		{ FLAG_LARGE_MEM, "LARGE_MEM" },
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < NELEM(f); i++)
		if (t->aux & f[i].bit) {
			if (buf[0])
				strncat(buf, ",", n - strlen(buf) - 1);
			strncat(buf, f[i].name, n - strlen(buf) - 1);
		}
	if (t->fill_helper) {
		strncat(buf, ",FILL", n - strlen(buf) - 1);
	}
}

static void print_hex(const u8 *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

int main(void)
{
	unsigned int nsub = 0, nfail = 0, nnodata = 0, nfrag = 0, nfill = 0;
	unsigned int nshort = 0, nskipped = 0;
	struct fake_skb skb;
	size_t i;

	memset(&skb, 0, sizeof(skb));
	populate_meta(&skb);
	/*
	 * Up to 6.1 populate_skb() sets vlan_present; since 6.2 the field is
	 * gone and a tag is present when its protocol or TCI is not 0.
	 */
	skb.vlan_present |= skb.vlan_tci || skb.vlan_proto;
	printf("# lib/test_bpf.c's CLASSIC tests, cut from the tree and printed by filters/testbpf/mkvectors\n");
	printf("meta protocol=0x%04x pkt_type=%u mark=0x%08x hash=0x%08x queue_mapping=%u vlan_tci=0x%04x vlan_present=%u vlan_proto=0x%04x ifindex=%d dev_type=%u\n",
	       ntohs(skb.protocol), skb.pkt_type, skb.mark, skb.hash,
	       skb.queue_mapping, skb.vlan_tci, skb.vlan_present,
	       ntohs(skb.vlan_proto), skb.dev ? skb.dev->ifindex : 0,
	       skb.dev ? skb.dev->type : 0);

	for (i = 0; i < NELEM(tests); i++) {
		struct bpf_test *t = &tests[i];
		const struct sock_filter *insns;
		unsigned int len, k;
		char flags[128];
		int s;

		if (t->fill_helper) {
			if (t->fill_helper(t) < 0) {
				fprintf(stderr, "mkvectors: #%d %s: fill_helper failed\n",
					test_index[i], t->descr);
				return 1;
			}
			nfill++;
		}
		len = filter_length(t);
		insns = t->fill_helper ? t->u.ptr.insns : t->u.insns;
		flags_of(t, flags, sizeof(flags));
		printf("test %d %s %u %s\n", test_index[i], flags, len, t->descr);
		for (k = 0; k < len; k++)
			printf("{ 0x%x, %u, %u, 0x%08x },\n", insns[k].code,
			       insns[k].jt, insns[k].jf, insns[k].k);

		if (t->aux & FLAG_EXPECTED_FAIL) {
			printf("sub fail 0 0 - err=%d\n", t->expected_errcode);
			nfail++;
			goto next;
		}
		for (s = 0; s < MAX_SUBTESTS; s++) {
			int size = t->test[s].data_size;
			unsigned int flen, headlen = 0;

			if (s > 0 && size == 0 && t->test[s].result == 0)
				break;
			if (t->aux & FLAG_NO_DATA) {
				size = 0;
				nnodata++;
			} else if (size < 0 || size >= MAX_DATA ||
				   (t->aux & FLAG_LARGE_MEM) ||
				   ((t->aux & FLAG_SKB_FRAG) && !size)) {
				fprintf(stderr, "mkvectors: skipped #%d %s subtest %d: data_size %d (test_bpf builds skbs of 0..%d bytes)\n",
					test_index[i], t->descr, s, size,
					MAX_DATA - 1);
				nskipped++;
				continue;
			}
			flen = size;
			if (t->aux & FLAG_SKB_FRAG) {
				flen += MAX_DATA;
				headlen = size;
				nfrag++;
			}
			if (flen < ETH_HLEN)
				nshort++;
			printf("sub %d %u %u ", s, flen, headlen);
			if (!flen)
				printf("-");
			print_hex(t->data, size);
			if (t->aux & FLAG_SKB_FRAG)
				print_hex(t->frag_data, MAX_DATA);
			printf(" %u\n", t->test[s].result);
			nsub++;
		}
next:
		printf("end\n");
		if (t->fill_helper)
			free(t->u.ptr.insns);
	}
	fprintf(stderr, "mkvectors: %zu CLASSIC tests of %d in test_bpf's tests[] (%zu not CLASSIC, skipped: eBPF programs); %u subtests (%u with a frame under %d bytes, %u FLAG_NO_DATA on an empty frame, %u FLAG_SKB_FRAG), %u FLAG_EXPECTED_FAIL checker tests, %u programs from a fill_helper; %u subtests skipped\n",
		NELEM(tests), tests_total, tests_total - NELEM(tests), nsub,
		nshort, ETH_HLEN, nnodata, nfrag, nfail, nfill, nskipped);
	return 0;
}
