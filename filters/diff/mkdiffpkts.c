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

/* Ethernet to @dst, from mac2 if @dst is mac1 (a reply), else from mac1. */
static void eth(struct frame *f, const uint8_t *dst, unsigned int type)
{
	memset(f, 0, sizeof(*f));
	putn(f, dst, 6);
	putn(f, dst == mac1 ? mac2 : mac1, 6);
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

/* The network layer of a frame: IPv4 (v4()) or IPv6 (v6()). */
struct net {
	unsigned int type;		/* ethertype: 0x0800 or 0x86dd */
	uint32_t src4, dst4;
	const uint8_t *src6, *dst6;
	unsigned int ttl;		/* TTL or hop limit */
	unsigned int frag;		/* IPv4 flags and fragment offset */
};

static struct net v4(uint32_t src, uint32_t dst, unsigned int ttl,
		     unsigned int frag)
{
	return (struct net){ .type = 0x0800, .src4 = src, .dst4 = dst,
			     .ttl = ttl, .frag = frag };
}

static struct net v6(const uint8_t *src, const uint8_t *dst,
		     unsigned int hops)
{
	return (struct net){ .type = 0x86dd, .src6 = src, .dst6 = dst,
			     .ttl = hops };
}

/* Ethernet to @dst, then the IP header of @n, carrying @proto. */
static void eth_ip(struct frame *f, const uint8_t *dst, struct net n,
		   unsigned int proto)
{
	eth(f, dst, n.type);
	if (n.type == 0x0800)
		ipv4(f, n.src4, n.dst4, proto, n.ttl, n.frag, 0);
	else
		ipv6(f, n.src6, n.dst6, proto, n.ttl);
}

/*
 * The frames most of the corpus is made of, one call each: Ethernet to
 * @dst, the IP header of @n, a TCP, UDP or ICMP/ICMPv6 (code 0) header and
 * @len bytes of fill(@seed), printed as @name.
 */
static void tcp_frame(struct frame *f, const char *name, const uint8_t *dst,
		      struct net n, unsigned int sport, unsigned int dport,
		      unsigned int flags, unsigned int optwords, size_t len,
		      unsigned int seed)
{
	eth_ip(f, dst, n, 6);
	tcp(f, sport, dport, flags, optwords);
	fill(f, len, seed);
	out(name, f);
}

static void udp_frame(struct frame *f, const char *name, const uint8_t *dst,
		      struct net n, unsigned int sport, unsigned int dport,
		      size_t len, unsigned int seed)
{
	eth_ip(f, dst, n, 17);
	udp(f, sport, dport);
	fill(f, len, seed);
	out(name, f);
}

static void icmp_frame(struct frame *f, const char *name, const uint8_t *dst,
		       struct net n, unsigned int type, uint32_t rest,
		       size_t len, unsigned int seed)
{
	eth_ip(f, dst, n, n.type == 0x0800 ? 1 : 58);
	icmp(f, type, 0, rest);
	fill(f, len, seed);
	out(name, f);
}

/* IPv4 TCP: SSH, HTTP, TLS, flags, options, a full frame, port 0. */
static void ipv4_tcp_frames(void)
{
	struct frame f;
	static const char get[] = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
	const struct net to_h2 = v4(h1, h2, 64, 0x4000), to_h1 = v4(h2, h1, 64, 0x4000);

	tcp_frame(&f, "tcp22-syn", mac2, to_h2, 40000, 22, 0x02, 1, 0, 0);
	trunc_of("tcp22-syn", &f, 20);
	trunc_of("tcp22-syn", &f, 34);
	trunc_of("tcp22-syn", &f, 40);
	trunc_of("tcp22-syn", &f, 50);
	tcp_frame(&f, "tcp22-synack", mac1, to_h1, 22, 40000, 0x12, 1, 0, 0);
	tcp_frame(&f, "tcp22-data", mac2, to_h2, 40000, 22, 0x18, 0, 48, 1);

	eth_ip(&f, mac2, v4(h1, ip(93, 184, 216, 34), 64, 0x4000), 6);
	tcp(&f, 40001, 80, 0x18, 0);
	putn(&f, get, sizeof(get) - 1);
	out("tcp80-get", &f);

	eth_ip(&f, mac2, v4(ip(192, 168, 1, 1), ip(8, 8, 8, 8), 128, 0x4000), 6);
	tcp(&f, 50000, 443, 0x18, 3);
	put8(&f, 0x16);
	put16(&f, 0x0301);
	fill(&f, 40, 3);
	out("tcp443-tls", &f);

	tcp_frame(&f, "tcp8080-fin", mac2, v4(h1, h2, 64, 0), 8080, 40000, 0x11, 0, 0, 0);
	tcp_frame(&f, "tcp-rst", mac2, v4(h1, h2, 255, 0), 1023, 65535, 0x04, 0, 0, 0);
	tcp_frame(&f, "tcp-urg", mac2, v4(h1, h2, 64, 0), 1024, 8000, 0x38, 0, 5, 9);

	eth(&f, mac2, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 1);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 20, 4);
	out("tcp22-ipopts", &f);

	eth_ip(&f, mac2, to_h2, 6);
	tcp(&f, 80, 40002, 0x10, 0);
	fill(&f, FRAME_MAX - f.n, 5);
	out("tcp80-1514", &f);

	tcp_frame(&f, "tcp-port0", mac2, v4(h1, h2, 64, 0), 0, 0, 0x00, 0, 0, 0);
}

/* IPv4 UDP: DNS, DHCP, NTP, SNMP, syslog, mDNS, empty, broadcast. */
static void ipv4_udp_frames(void)
{
	struct frame f;
	static const uint8_t m[6] = { 0x01, 0, 0x5e, 0, 0, 0xfb };
	const uint32_t dns = ip(8, 8, 8, 8);

	udp_frame(&f, "udp53-query", mac2, v4(h1, dns, 64, 0), 33333, 53, 29, 11);
	trunc_of("udp53-query", &f, 42);
	udp_frame(&f, "udp53-resp", mac1, v4(dns, h1, 57, 0), 53, 33333, 45, 12);
	udp_frame(&f, "udp-dhcp", bcast, v4(0, 0xffffffff, 64, 0), 68, 67, 240, 13);
	udp_frame(&f, "udp123", mac2, v4(ip(192, 168, 1, 1), h2, 64, 0),
		  123, 123, 48, 14);
	udp_frame(&f, "udp161", mac2, v4(ip(172, 16, 5, 4), h2, 64, 0),
		  40003, 161, 30, 15);
	udp_frame(&f, "udp514", mac2, v4(h1, h2, 64, 0), 514, 514, 60, 16);
	udp_frame(&f, "udp5353-mdns", m, v4(h1, ip(224, 0, 0, 251), 255, 0),
		  5353, 5353, 20, 17);
	udp_frame(&f, "udp-empty", mac2, v4(h1, h2, 64, 0), 7, 7, 0, 0);
	udp_frame(&f, "udp-bcast", bcast, v4(h1, ip(10, 0, 0, 255), 64, 0),
		  137, 137, 50, 18);
}

/*
 * IPv4 other than TCP and UDP (ICMP, IGMP, GRE, ESP, SCTP, an unknown
 * protocol), fragments and a header longer than the frame.
 */
static void ipv4_other_frames(void)
{
	struct frame f;
	static const uint8_t m[6] = { 0x01, 0, 0x5e, 0, 0, 0x01 };
	const struct net to_h2 = v4(h1, h2, 64, 0), to_h1 = v4(h2, h1, 64, 0);

	icmp_frame(&f, "icmp-echo", mac2, to_h2, 8, 0x12340001, 56, 19);
	trunc_of("icmp-echo", &f, 36);
	icmp_frame(&f, "icmp-echoreply", mac1, to_h1, 0, 0x12340001, 56, 19);

	eth_ip(&f, mac1, to_h1, 1);
	icmp(&f, 3, 3, 0);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	f.ip4 = 15;	/* lengths of the outer header only */
	udp(&f, 33333, 53);
	f.udp = 0;
	out("icmp-unreach", &f);

	icmp_frame(&f, "icmp-timxceed", mac1, v4(ip(192, 168, 1, 254), h1, 64, 0),
		   11, 0, 28, 20);

	eth(&f, m, 0x0800);
	ipv4(&f, h1, ip(224, 0, 0, 1), 2, 1, 0, 1);
	put32(&f, 0x11640000);
	put32(&f, 0);
	out("igmp-query", &f);

	eth_ip(&f, mac2, to_h2, 47);
	put32(&f, 0x00000800);
	ipv4(&f, ip(192, 168, 0, 1), ip(192, 168, 0, 2), 1, 64, 0, 0);
	f.ip4 = 15;
	icmp(&f, 8, 0, 0x00010001);
	out("gre-ipv4", &f);

	eth_ip(&f, mac2, to_h2, 50);
	put32(&f, 0x00001000);
	put32(&f, 1);
	fill(&f, 64, 21);
	out("esp", &f);

	eth_ip(&f, mac2, to_h2, 132);
	put16(&f, 5000);
	put16(&f, 22);
	put32(&f, 0xdeadbeef);
	put32(&f, 0);
	fill(&f, 20, 22);
	out("sctp", &f);

	eth_ip(&f, mac2, to_h2, 255);
	fill(&f, 30, 23);
	out("ipproto255", &f);

	tcp_frame(&f, "ipv4-frag-first", mac2, v4(h1, h2, 64, 0x2000),
		  40000, 22, 0x18, 0, 100, 24);

	eth_ip(&f, mac2, v4(h1, h2, 64, 0x20b9), 6);
	put16(&f, 40000);
	put16(&f, 22);
	fill(&f, 60, 25);
	out("ipv4-frag-mid", &f);

	eth_ip(&f, mac2, v4(h1, h2, 1, 0x00b9), 17);
	fill(&f, 24, 26);
	out("ipv4-frag-last", &f);

	/* IHL 15: the transport header would start past the bytes present */
	eth_ip(&f, mac2, to_h2, 6);
	f.b[14] = 0x4f;
	tcp(&f, 40000, 22, 0x02, 0);
	out("ipv4-ihl15", &f);
}

static void ipv6_frames(void)
{
	struct frame f;
	static const uint8_t m6[6] = { 0x33, 0x33, 0xff, 0, 0, 0x02 };
	static const uint8_t m16[6] = { 0x33, 0x33, 0, 0, 0, 0x16 };
	const struct net to_h2 = v6(fd00_1, fd00_2, 64);

	tcp_frame(&f, "ip6-tcp22", mac2, to_h2, 40000, 22, 0x18, 0, 48, 30);
	trunc_of("ip6-tcp22", &f, 54);
	trunc_of("ip6-tcp22", &f, 60);
	trunc_of("ip6-tcp22", &f, 70);
	tcp_frame(&f, "ip6-tcp443-syn", mac2, v6(fd00_2, google6, 64),
		  50001, 443, 0x02, 2, 0, 0);
	udp_frame(&f, "ip6-udp53", mac2, v6(fd00_1, google6, 64), 33334, 53, 30, 31);
	icmp_frame(&f, "ip6-icmp6-echo", mac2, to_h2, 128, 0x00070001, 32, 32);
	icmp_frame(&f, "ip6-icmp6-echoreply", mac1, v6(fd00_2, fd00_1, 64),
		   129, 0x00070001, 32, 32);

	eth_ip(&f, m6, v6(fe80_1, ff02_sn, 255), 58);
	icmp(&f, 135, 0, 0);
	putn(&f, fd00_2, 16);
	out("ip6-ns", &f);

	eth_ip(&f, mac1, v6(fd00_2, fe80_1, 255), 58);
	icmp(&f, 136, 0, 0x60000000);
	putn(&f, fd00_2, 16);
	out("ip6-na", &f);

	eth_ip(&f, mac2, to_h2, 0);
	ext6(&f, 6, 0x05);
	tcp(&f, 40000, 22, 0x10, 0);
	out("ip6-hbh-tcp22", &f);

	eth_ip(&f, mac2, to_h2, 44);
	ext6(&f, 17, 0);
	udp(&f, 40004, 53);
	fill(&f, 16, 33);
	out("ip6-frag-udp", &f);

	eth_ip(&f, mac2, to_h2, 43);
	ext6(&f, 6, 0);
	tcp(&f, 40000, 80, 0x02, 0);
	out("ip6-route-tcp80", &f);

	eth_ip(&f, m16, v6(fe80_1, ff02_16, 1), 0);
	ext6(&f, 58, 0x05);
	icmp(&f, 143, 0, 1);
	putn(&f, ff02_sn, 16);
	out("ip6-mld", &f);
}

static void vlan_frames(void)
{
	struct frame f;

	eth(&f, mac2, 0x8100);
	vlan(&f, 100, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0x4000, 0);
	tcp(&f, 40000, 22, 0x18, 0);
	fill(&f, 16, 40);
	out("vlan100-tcp22", &f);
	trunc_of("vlan100-tcp22", &f, 18);
	trunc_of("vlan100-tcp22", &f, 30);

	eth(&f, mac2, 0x8100);
	vlan(&f, 200, 0x0800);
	ipv4(&f, h1, ip(8, 8, 8, 8), 17, 64, 0, 0);
	udp(&f, 33335, 53);
	fill(&f, 25, 41);
	out("vlan200-udp53", &f);

	eth(&f, mac2, 0x8100);
	vlan(&f, 0x2064, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 6, 64);
	tcp(&f, 40000, 22, 0x02, 0);
	out("vlan100-ip6-tcp22", &f);

	eth(&f, mac2, 0x88a8);
	vlan(&f, 100, 0x8100);
	vlan(&f, 200, 0x0800);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 22, 0x10, 0);
	out("qinq-100-200-tcp22", &f);

	eth(&f, mac2, 0x8100);
	vlan(&f, 100, 0x8100);
	vlan(&f, 200, 0x86dd);
	ipv6(&f, fd00_1, fd00_2, 17, 64);
	udp(&f, 53, 53);
	fill(&f, 12, 42);
	out("vlan100-vlan200-ip6-udp", &f);

	eth(&f, bcast, 0x8100);
	vlan(&f, 100, 0x0806);
	put32(&f, 0x00010800);
	put32(&f, 0x06040001);
	putn(&f, mac1, 6);
	put32(&f, h1);
	fill(&f, 6, 0);
	put32(&f, h2);
	out("vlan100-arp", &f);

	eth(&f, mac2, 0x8100);
	vlan(&f, 0xa000, 0x0800);
	ipv4(&f, h1, h2, 1, 64, 0, 0);
	icmp(&f, 8, 0, 0x00020001);
	out("vlan0-prio-icmp", &f);
}

static void arp(struct frame *f, const uint8_t *dst, unsigned int type,
		unsigned int op, uint32_t sip, uint32_t tip)
{
	eth(f, dst, type);
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

/* Ethernet to @dst, then a PPPoE header (version 1, type 1, @code). */
static void pppoe(struct frame *f, const uint8_t *dst, unsigned int type,
		  unsigned int code, unsigned int session)
{
	eth(f, dst, type);
	f->pppoe = f->n + 1;
	put16(f, 0x1100 | code);
	put16(f, session);
	put16(f, 0);		/* length, set by finish() */
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

	eth(&f, lldp, 0x88cc);
	put16(&f, 0x0207);
	put8(&f, 4);
	putn(&f, mac1, 6);
	put32(&f, 0x00000000);
	out("lldp", &f);

	eth(&f, stp, 38);
	put8(&f, 0x42);
	put8(&f, 0x42);
	put8(&f, 0x03);
	fill(&f, 35, 50);
	out("stp", &f);

	eth(&f, mac2, 0);
	put32(&f, 0xaaaa0300);
	put32(&f, 0x00000800);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 53, 53);
	fill(&f, 8, 51);
	finish(&f);
	set16(&f, 12, f.n - 14);
	emit("llc-snap-ipv4", &f, f.n);

	eth(&f, mac2, 0x8847);
	put32(&f, (100u << 12) | 0x100 | 64);
	ipv4(&f, h1, h2, 17, 64, 0, 0);
	udp(&f, 40005, 53);
	fill(&f, 10, 52);
	out("mpls100-ipv4", &f);

	eth(&f, mac2, 0x8847);
	put32(&f, (100u << 12) | 64);
	put32(&f, (200u << 12) | 0x100 | 64);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 22, 0x10, 0);
	out("mpls100-200-ipv4", &f);

	pppoe(&f, mac2, 0x8864, 0x00, 0x0042);
	put16(&f, 0x0021);
	ipv4(&f, h1, h2, 6, 64, 0, 0);
	tcp(&f, 40000, 80, 0x10, 0);
	out("pppoes-ipv4", &f);

	pppoe(&f, bcast, 0x8863, 0x09, 0);
	put32(&f, 0x01010000);
	out("pppoed-padi", &f);

	eth(&f, mac2, 0x0800);
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
