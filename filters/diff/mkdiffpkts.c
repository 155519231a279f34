// SPDX-License-Identifier: GPL-2.0
/*
 * mkdiffpkts - the frames of the differential test (filters/diff/).
 *
 *   mkdiffpkts            print packets.txt: "<name> <hex bytes>" per frame
 *
 * Ethernet frames of many protocols (IPv4/IPv6 TCP, UDP, ICMP, ICMPv6 and
 * extension headers, IGMP, GRE, ESP, SCTP, fragments, 802.1Q and QinQ,
 * ARP/RARP, MPLS, PPPoE, LLC/SNAP, STP, LLDP), broadcast and multicast,
 * option-carrying headers, a full 1514-byte frame, truncated copies of
 * several of them and a few deterministic pseudo-random frames.  Lengths
 * and IPv4 header checksums are filled in; L4 checksums are left 0 (no
 * BPF program here looks at them).  Deterministic: the output depends on
 * nothing but this file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_MAX 1514

struct frame {
	uint8_t b[FRAME_MAX];
	size_t n;
	size_t ip4;	/* offset of the IPv4 header + 1, 0: none */
	size_t ip6;	/* offset of the IPv6 header + 1 */
	size_t udp;	/* offset of the UDP header + 1 */
	size_t pppoe;	/* offset of the PPPoE header + 1 */
};

static const uint8_t mac1[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t mac2[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static void die(const char *what)
{
	fprintf(stderr, "mkdiffpkts: %s\n", what);
	exit(1);
}

static void put8(struct frame *f, unsigned int v)
{
	if (f->n >= FRAME_MAX)
		die("frame longer than 1514 bytes");
	f->b[f->n++] = (uint8_t)v;
}

static void put16(struct frame *f, unsigned int v)
{
	put8(f, v >> 8);
	put8(f, v);
}

static void put32(struct frame *f, uint32_t v)
{
	put16(f, v >> 16);
	put16(f, v & 0xffff);
}

static void putn(struct frame *f, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n--)
		put8(f, *s++);
}

static void fill(struct frame *f, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		put8(f, (seed + i * 7) & 0xff);
}

static void set16(struct frame *f, size_t off, unsigned int v)
{
	f->b[off] = (uint8_t)(v >> 8);
	f->b[off + 1] = (uint8_t)v;
}

static void eth(struct frame *f, const uint8_t *dst, const uint8_t *src,
		unsigned int type)
{
	memset(f, 0, sizeof(*f));
	putn(f, dst, 6);
	putn(f, src, 6);
	put16(f, type);
}

static void vlan(struct frame *f, unsigned int tci, unsigned int type)
{
	put16(f, tci);
	put16(f, type);
}

static uint32_t ip(unsigned int a, unsigned int b, unsigned int c,
		   unsigned int d)
{
	return (uint32_t)a << 24 | b << 16 | c << 8 | d;
}

/* IPv4 header; @optwords 32-bit words of options (router alert first). */
static void ipv4(struct frame *f, uint32_t src, uint32_t dst,
		 unsigned int proto, unsigned int ttl, unsigned int frag,
		 unsigned int optwords)
{
	unsigned int i;

	f->ip4 = f->n + 1;
	put8(f, 0x40 | (5 + optwords));
	put8(f, 0);
	put16(f, 0);		/* total length, set by finish() */
	put16(f, 0x1c46);
	put16(f, frag);
	put8(f, ttl);
	put8(f, proto);
	put16(f, 0);		/* checksum, set by finish() */
	put32(f, src);
	put32(f, dst);
	for (i = 0; i < optwords; i++)
		put32(f, i ? 0x01010101 : 0x94040000);
}

static const uint8_t fd00_1[16] = { 0xfd, [15] = 1 };
static const uint8_t fd00_2[16] = { 0xfd, [15] = 2 };
static const uint8_t fe80_1[16] = { 0xfe, 0x80, [15] = 1 };
static const uint8_t google6[16] = { 0x20, 0x01, 0x48, 0x60, 0x48, 0x60,
				     [14] = 0x88, [15] = 0x88 };
static const uint8_t ff02_sn[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff,
				     [15] = 2 };
static const uint8_t ff02_16[16] = { 0xff, 0x02, [15] = 0x16 };

static void ipv6(struct frame *f, const uint8_t *src, const uint8_t *dst,
		 unsigned int next, unsigned int hops)
{
	f->ip6 = f->n + 1;
	put32(f, 0x60000000);
	put16(f, 0);		/* payload length, set by finish() */
	put8(f, next);
	put8(f, hops);
	putn(f, src, 16);
	putn(f, dst, 16);
}

/* A generic 8-byte IPv6 extension header. */
static void ext6(struct frame *f, unsigned int next, unsigned int b2)
{
	put8(f, next);
	put8(f, 0);
	put8(f, b2);
	put8(f, 0);
	put32(f, b2 == 0x05 ? 0x02000000 : 0x00000001);
}

/* TCP; @optwords words of options (MSS first). */
static void tcp(struct frame *f, unsigned int sport, unsigned int dport,
		unsigned int flags, unsigned int optwords)
{
	unsigned int i;

	put16(f, sport);
	put16(f, dport);
	put32(f, 0x12345678);
	put32(f, flags & 0x10 ? 0x9abcdef0 : 0);
	put8(f, (5 + optwords) << 4);
	put8(f, flags);
	put16(f, 64240);
	put16(f, 0);
	put16(f, flags & 0x20 ? 7 : 0);
	for (i = 0; i < optwords; i++)
		put32(f, i ? 0x01010402 : 0x020405b4);
}

static void udp(struct frame *f, unsigned int sport, unsigned int dport)
{
	f->udp = f->n + 1;
	put16(f, sport);
	put16(f, dport);
	put16(f, 0);		/* length, set by finish() */
	put16(f, 0);
}

static void icmp(struct frame *f, unsigned int type, unsigned int code,
		 uint32_t rest)
{
	put8(f, type);
	put8(f, code);
	put16(f, 0);
	put32(f, rest);
}

static uint16_t csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Fill in the lengths and the IPv4 header checksum. */
static void finish(struct frame *f)
{
	size_t o;

	if (f->ip4) {
		o = f->ip4 - 1;
		set16(f, o + 2, f->n - o);
		set16(f, o + 10, 0);
		set16(f, o + 10, csum(f->b + o, (f->b[o] & 0xf) * 4));
	}
	if (f->ip6) {
		o = f->ip6 - 1;
		set16(f, o + 4, f->n - o - 40);
	}
	if (f->udp) {
		o = f->udp - 1;
		set16(f, o + 4, f->n - o);
	}
	if (f->pppoe) {
		o = f->pppoe - 1;
		set16(f, o + 4, f->n - o - 6);
	}
}

static void emit(const char *name, const struct frame *f, size_t len)
{
	size_t i;

	if (len > f->n)
		die("truncation longer than the frame");
	if (len < 14)
		die("frame shorter than an Ethernet header");
	printf("%s ", name);
	for (i = 0; i < len; i++)
		printf("%02x", f->b[i]);
	putchar('\n');
}

static void out(const char *name, struct frame *f)
{
	finish(f);
	emit(name, f, f->n);
}

/* Also print the first @len bytes as NAME-tLEN (a truncated capture). */
static void trunc_of(const char *name, const struct frame *f, size_t len)
{
	char n[64];

	snprintf(n, sizeof(n), "%s-t%zu", name, len);
	emit(n, f, len);
}

static const uint32_t h1 = 0x0a000001, h2 = 0x0a000002;

/* IPv4 TCP: SSH, HTTP, TLS, flags, options, a full frame, port 0. */
static void ipv4_tcp_frames(void)
{
	struct frame f;
	static const char get[] = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 0);
	tcp(&f, 40000, 22, 0x02, 1);
	out("tcp22-syn", &f);
	trunc_of("tcp22-syn", &f, 20);
	trunc_of("tcp22-syn", &f, 34);
	trunc_of("tcp22-syn", &f, 40);
	trunc_of("tcp22-syn", &f, 50);

	eth(&f, mac1, mac2, 0x0800);
	ipv4(&f, h2, h1, 6, 64, 0x4000, 0);
	tcp(&f, 22, 40000, 0x12, 1);
	out("tcp22-synack", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 0);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 48, 1);
	out("tcp22-data", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, ip(93, 184, 216, 34), 6, 64, 0x4000, 0);
	tcp(&f, 40001, 80, 0x18, 0);
	putn(&f, get, sizeof(get) - 1);
	out("tcp80-get", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, ip(192, 168, 1, 1), ip(8, 8, 8, 8), 6, 128, 0x4000, 0);
	tcp(&f, 50000, 443, 0x18, 3);
	put8(&f, 0x16);
	put16(&f, 0x0301);
	fill(&f, 40, 3);
	out("tcp443-tls", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 8080, 40000, 0x11, 0);
	out("tcp8080-fin", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 255, 0, 0);
	tcp(&f, 1023, 65535, 0x04, 0);
	out("tcp-rst", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 1024, 8000, 0x38, 0);
	fill(&f, 5, 9);
	out("tcp-urg", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 1);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 20, 4);
	out("tcp22-ipopts", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 0);
	tcp(&f, 80, 40002, 0x10, 0);
	fill(&f, FRAME_MAX - f.n, 5);
	out("tcp80-1514", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 0, 0, 0x00, 0);
	out("tcp-port0", &f);
}

/* IPv4 UDP: DNS, DHCP, NTP, SNMP, syslog, mDNS, empty, broadcast. */
static void ipv4_udp_frames(void)
{
	struct frame f;

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, ip(8, 8, 8, 8), 17, 64, 0, 0);
	udp(&f, 33333, 53);
	fill(&f, 29, 11);
	out("udp53-query", &f);
	trunc_of("udp53-query", &f, 42);

	eth(&f, mac1, mac2, 0x0800);
	ipv4(&f, ip(8, 8, 8, 8), h1, 17, 57, 0, 0);
	udp(&f, 53, 33333);
	fill(&f, 45, 12);
	out("udp53-resp", &f);

	eth(&f, bcast, mac1, 0x0800);
	ipv4(&f, 0, 0xffffffff, 17, 64, 0, 0);
	udp(&f, 68, 67);
	fill(&f, 240, 13);
	out("udp-dhcp", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, ip(192, 168, 1, 1), h2, 17, 64, 0, 0);
	udp(&f, 123, 123);
	fill(&f, 48, 14);
	out("udp123", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, ip(172, 16, 5, 4), h2, 17, 64, 0, 0);
	udp(&f, 40003, 161);
	fill(&f, 30, 15);
	out("udp161", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 514, 514);
	fill(&f, 60, 16);
	out("udp514", &f);

	{
		static const uint8_t m[6] = { 0x01, 0, 0x5e, 0, 0, 0xfb };

		eth(&f, m, mac1, 0x0800);
		ipv4(&f, h1, ip(224, 0, 0, 251), 17, 255, 0, 0);
		udp(&f, 5353, 5353);
		fill(&f, 20, 17);
		out("udp5353-mdns", &f);
	}

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 7, 7);
	out("udp-empty", &f);

	eth(&f, bcast, mac1, 0x0800);
	ipv4(&f, h1, ip(10, 0, 0, 255), 17, 64, 0, 0);
	udp(&f, 137, 137);
	fill(&f, 50, 18);
	out("udp-bcast", &f);
}

/*
 * IPv4 other than TCP and UDP (ICMP, IGMP, GRE, ESP, SCTP, an unknown
 * protocol), fragments and a header longer than the frame.
 */
static void ipv4_other_frames(void)
{
	struct frame f;

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 1, 64, 0, 0);
	icmp(&f, 8, 0, 0x12340001);
	fill(&f, 56, 19);
	out("icmp-echo", &f);
	trunc_of("icmp-echo", &f, 36);

	eth(&f, mac1, mac2, 0x0800);
	ipv4(&f, h2, h1, 1, 64, 0, 0);
	icmp(&f, 0, 0, 0x12340001);
	fill(&f, 56, 19);
	out("icmp-echoreply", &f);

	eth(&f, mac1, mac2, 0x0800);
	ipv4(&f, h2, h1, 1, 64, 0, 0);
	icmp(&f, 3, 3, 0);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	f.ip4 = 15;	/* lengths of the outer header only */
	udp(&f, 33333, 53);
	f.udp = 0;
	out("icmp-unreach", &f);

	eth(&f, mac1, mac2, 0x0800);
	ipv4(&f, ip(192, 168, 1, 254), h1, 1, 64, 0, 0);
	icmp(&f, 11, 0, 0);
	fill(&f, 28, 20);
	out("icmp-timxceed", &f);

	{
		static const uint8_t m[6] = { 0x01, 0, 0x5e, 0, 0, 0x01 };

		eth(&f, m, mac1, 0x0800);
		ipv4(&f, h1, ip(224, 0, 0, 1), 2, 1, 0, 1);
		put32(&f, 0x11640000);
		put32(&f, 0);
		out("igmp-query", &f);
	}

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 47, 64, 0, 0);
	put32(&f, 0x00000800);
	ipv4(&f, ip(192, 168, 0, 1), ip(192, 168, 0, 2), 1, 64, 0, 0);
	f.ip4 = 15;
	icmp(&f, 8, 0, 0x00010001);
	out("gre-ipv4", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 50, 64, 0, 0);
	put32(&f, 0x00001000);
	put32(&f, 1);
	fill(&f, 64, 21);
	out("esp", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 132, 64, 0, 0);
	put16(&f, 5000);
	put16(&f, 22);
	put32(&f, 0xdeadbeef);
	put32(&f, 0);
	fill(&f, 20, 22);
	out("sctp", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 255, 64, 0, 0);
	fill(&f, 30, 23);
	out("ipproto255", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x2000, 0);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 100, 24);
	out("ipv4-frag-first", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x20b9, 0);
	put16(&f, 40000);
	put16(&f, 22);
	fill(&f, 60, 25);
	out("ipv4-frag-mid", &f);

	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 17, 1, 0x00b9, 0);
	fill(&f, 24, 26);
	out("ipv4-frag-last", &f);

	/* IHL 15: the transport header would start past the bytes present */
	eth(&f, mac2, mac1, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	f.b[14] = 0x4f;
	tcp(&f, 40000, 22, 0x02, 0);
	out("ipv4-ihl15", &f);
}

static void ipv6_frames(void)
{
	struct frame f;
	static const uint8_t m6[6] = { 0x33, 0x33, 0xff, 0, 0, 0x02 };
	static const uint8_t m16[6] = { 0x33, 0x33, 0, 0, 0, 0x16 };

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 6, 64);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 48, 30);
	out("ip6-tcp22", &f);
	trunc_of("ip6-tcp22", &f, 54);
	trunc_of("ip6-tcp22", &f, 60);
	trunc_of("ip6-tcp22", &f, 70);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_2, google6, 6, 64);
	tcp(&f, 50001, 443, 0x02, 2);
	out("ip6-tcp443-syn", &f);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, google6, 17, 64);
	udp(&f, 33334, 53);
	fill(&f, 30, 31);
	out("ip6-udp53", &f);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 58, 64);
	icmp(&f, 128, 0, 0x00070001);
	fill(&f, 32, 32);
	out("ip6-icmp6-echo", &f);

	eth(&f, mac1, mac2, 0x86dd);
	ipv6(&f, fd00_2, fd00_1, 58, 64);
	icmp(&f, 129, 0, 0x00070001);
	fill(&f, 32, 32);
	out("ip6-icmp6-echoreply", &f);

	eth(&f, m6, mac1, 0x86dd);
	ipv6(&f, fe80_1, ff02_sn, 58, 255);
	icmp(&f, 135, 0, 0);
	putn(&f, fd00_2, 16);
	out("ip6-ns", &f);

	eth(&f, mac1, mac2, 0x86dd);
	ipv6(&f, fd00_2, fe80_1, 58, 255);
	icmp(&f, 136, 0, 0x60000000);
	putn(&f, fd00_2, 16);
	out("ip6-na", &f);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 0, 64);
	ext6(&f, 6, 0x05);
	tcp(&f, 40000, 22, 0x10, 0);
	out("ip6-hbh-tcp22", &f);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 44, 64);
	ext6(&f, 17, 0);
	udp(&f, 40004, 53);
	fill(&f, 16, 33);
	out("ip6-frag-udp", &f);

	eth(&f, mac2, mac1, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 43, 64);
	ext6(&f, 6, 0);
	tcp(&f, 40000, 80, 0x02, 0);
	out("ip6-route-tcp80", &f);

	eth(&f, m16, mac1, 0x86dd);
	ipv6(&f, fe80_1, ff02_16, 0, 1);
	ext6(&f, 58, 0x05);
	icmp(&f, 143, 0, 1);
	putn(&f, ff02_sn, 16);
	out("ip6-mld", &f);
}

static void vlan_frames(void)
{
	struct frame f;

	eth(&f, mac2, mac1, 0x8100);
	vlan(&f, 100, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 0);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 16, 40);
	out("vlan100-tcp22", &f);
	trunc_of("vlan100-tcp22", &f, 18);
	trunc_of("vlan100-tcp22", &f, 30);

	eth(&f, mac2, mac1, 0x8100);
	vlan(&f, 200, 0x0800);
	ipv4(&f, h1, ip(8, 8, 8, 8), 17, 64, 0, 0);
	udp(&f, 33335, 53);
	fill(&f, 25, 41);
	out("vlan200-udp53", &f);

	eth(&f, mac2, mac1, 0x8100);
	vlan(&f, 0x2064, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 6, 64);
	tcp(&f, 40000, 22, 0x02, 0);
	out("vlan100-ip6-tcp22", &f);

	eth(&f, mac2, mac1, 0x88a8);
	vlan(&f, 100, 0x8100);
	vlan(&f, 200, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 22, 0x10, 0);
	out("qinq-100-200-tcp22", &f);

	eth(&f, mac2, mac1, 0x8100);
	vlan(&f, 100, 0x8100);
	vlan(&f, 200, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 17, 64);
	udp(&f, 53, 53);
	fill(&f, 12, 42);
	out("vlan100-vlan200-ip6-udp", &f);

	eth(&f, bcast, mac1, 0x8100);
	vlan(&f, 100, 0x0806);
	put32(&f, 0x00010800);
	put32(&f, 0x06040001);
	putn(&f, mac1, 6);
	put32(&f, h1);
	fill(&f, 6, 0);
	put32(&f, h2);
	out("vlan100-arp", &f);

	eth(&f, mac2, mac1, 0x8100);
	vlan(&f, 0xa000, 0x0800);
	ipv4(&f, h1, h2, 1, 64, 0, 0);
	icmp(&f, 8, 0, 0x00020001);
	out("vlan0-prio-icmp", &f);
}

static void arp(struct frame *f, const uint8_t *dst, unsigned int type,
		unsigned int op, uint32_t sip, uint32_t tip)
{
	eth(f, dst, mac1, type);
	put32(f, 0x00010800);
	put16(f, 0x0604);
	put16(f, op);
	putn(f, mac1, 6);
	put32(f, sip);
	if (op == 1)
		fill(f, 6, 0);
	else
		putn(f, mac2, 6);
	put32(f, tip);
}

static void other_frames(void)
{
	struct frame f;
	static const uint8_t lldp[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e };
	static const uint8_t stp[6] = { 0x01, 0x80, 0xc2, 0, 0, 0 };
	unsigned int i, x;

	arp(&f, bcast, 0x0806, 1, h1, h2);
	out("arp-request", &f);
	trunc_of("arp-request", &f, 28);
	arp(&f, mac2, 0x0806, 2, h2, h1);
	out("arp-reply", &f);
	arp(&f, bcast, 0x8035, 3, 0, 0);
	out("rarp", &f);

	eth(&f, lldp, mac1, 0x88cc);
	put16(&f, 0x0207);
	put8(&f, 4);
	putn(&f, mac1, 6);
	put32(&f, 0x00000000);
	out("lldp", &f);

	eth(&f, stp, mac1, 38);
	put8(&f, 0x42);
	put8(&f, 0x42);
	put8(&f, 0x03);
	fill(&f, 35, 50);
	out("stp", &f);

	eth(&f, mac2, mac1, 0);
	put32(&f, 0xaaaa0300);
	put32(&f, 0x00000800);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 53, 53);
	fill(&f, 8, 51);
	finish(&f);
	set16(&f, 12, f.n - 14);
	emit("llc-snap-ipv4", &f, f.n);

	eth(&f, mac2, mac1, 0x8847);
	put32(&f, (100u << 12) | 0x100 | 64);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 40005, 53);
	fill(&f, 10, 52);
	out("mpls100-ipv4", &f);

	eth(&f, mac2, mac1, 0x8847);
	put32(&f, (100u << 12) | 64);
	put32(&f, (200u << 12) | 0x100 | 64);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 22, 0x10, 0);
	out("mpls100-200-ipv4", &f);

	eth(&f, mac2, mac1, 0x8864);
	f.pppoe = f.n + 1;
	put16(&f, 0x1100);
	put16(&f, 0x0042);
	put16(&f, 0);
	put16(&f, 0x0021);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 80, 0x10, 0);
	out("pppoes-ipv4", &f);

	eth(&f, bcast, mac1, 0x8863);
	f.pppoe = f.n + 1;
	put16(&f, 0x1109);
	put16(&f, 0);
	put16(&f, 0);
	put32(&f, 0x01010000);
	out("pppoed-padi", &f);

	eth(&f, mac2, mac1, 0x0800);
	emit("eth-only-ipv4", &f, 14);

	/* Pseudo-random bytes (a fixed LCG), one with an IPv4 ethertype. */
	for (i = 0, x = 12345; i < 3; i++) {
		static const size_t lens[3] = { 15, 64, 300 };
		static const char *const names[3] = {
			"random15", "random64", "random300-ipv4"
		};
		size_t j;

		memset(&f, 0, sizeof(f));
		for (j = 0; j < lens[i]; j++) {
			x = x * 1103515245u + 12345u;
			put8(&f, x >> 16);
		}
		if (i == 2) {
			set16(&f, 12, 0x0800);
			f.b[14] = 0x45;
		}
		emit(names[i], &f, f.n);
	}
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		die("usage: mkdiffpkts > packets.txt");
	ipv4_tcp_frames();
	ipv4_udp_frames();
	ipv4_other_frames();
	ipv6_frames();
	vlan_frames();
	other_frames();
	if (fflush(stdout) || ferror(stdout))
		die("write error");
	return 0;
}
