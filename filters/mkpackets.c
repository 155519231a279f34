/*
 * mkpackets - generate (and verify) the test frames of the filters/ stage.
 *
 *   mkpackets --list               print the packet names, one per line,
 *                                  in table order
 *   mkpackets --write DIR          write DIR/<name>.pcap and DIR/<name>.hex
 *                                  for every packet in the table
 *   mkpackets --pcap-header FILE   write a record-less Ethernet pcap (used
 *                                  to make tcpdump -dd compile for
 *                                  DLT_EN10MB without any interface)
 *   mkpackets --verify PCAP HEX    check PCAP is a one-record Ethernet pcap,
 *                                  HEX holds exactly the same bytes in the
 *                                  canonical text format, and any IPv4
 *                                  header / TCP / UDP checksum that lies
 *                                  entirely inside the frame is correct
 *
 * Output is deterministic: fixed timestamps, fixed byte order (pcap files
 * are always written little-endian, magic 0xa1b2c3d4), so regenerating
 * produces byte-identical files on any host.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/die.h"

#define MAX_FRAME	2048
#define PCAP_MAGIC	0xa1b2c3d4u
#define PCAP_SNAPLEN	262144u		/* tcpdump 4.99 default; becomes the
					 * accept value of tcpdump -r X -dd */
#define LINKTYPE_ETHERNET 1u
#define TS_BASE		1388534400u	/* 2014-01-01T00:00:00Z */

#define ETH_HLEN	14
#define ETHERTYPE_IPV4	0x0800
#define ETHERTYPE_IPV6	0x86dd
#define ETHERTYPE_ARP	0x0806
#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17

struct frame {
	uint8_t b[MAX_FRAME];
	size_t len;
};

static const uint8_t mac_dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
static const uint8_t mac_src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t ip4_src[4] = { 10, 0, 0, 1 };
static const uint8_t ip4_dst[4] = { 10, 0, 0, 2 };
static const uint8_t ip6_src[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0,
				     0, 0, 0, 0, 0, 0, 0, 1 };
static const uint8_t ip6_dst[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0,
				     0, 0, 0, 0, 0, 0, 0, 2 };

const char die_prog[] = "mkpackets";	/* die()'s prefix (lib/die.h) */

/* ---------- byte helpers ---------- */

static void put8(struct frame *f, unsigned v)
{
	if (f->len >= MAX_FRAME)
		die("frame overflow");
	f->b[f->len++] = (uint8_t)v;
}

static void put16(struct frame *f, unsigned v)
{
	put8(f, (v >> 8) & 0xff);
	put8(f, v & 0xff);
}

static void put32(struct frame *f, uint32_t v)
{
	put16(f, (v >> 16) & 0xffff);
	put16(f, v & 0xffff);
}

static void putn(struct frame *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put8(f, p[i]);
}

static unsigned get16(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

static void set16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* RFC 1071 one's-complement sum, not yet folded/inverted. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += get16(p + i);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static unsigned csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (~sum) & 0xffff;
}

/* ---------- header builders ---------- */

static void eth(struct frame *f, const uint8_t *dst, unsigned ethertype)
{
	f->len = 0;
	putn(f, dst, 6);
	putn(f, mac_src, 6);
	put16(f, ethertype);
}

/* IPv4 header without options; returns offset of the header. */
static size_t ipv4(struct frame *f, unsigned proto, size_t l4len,
		   unsigned id, unsigned frag_off_field)
{
	size_t off = f->len;

	put8(f, 0x45);			/* version 4, IHL 5 */
	put8(f, 0x00);			/* DSCP/ECN */
	put16(f, (unsigned)(20 + l4len));
	put16(f, id);
	put16(f, frag_off_field);	/* flags(3) | fragment offset(13) */
	put8(f, 64);			/* TTL */
	put8(f, proto);
	put16(f, 0);			/* checksum, filled below */
	putn(f, ip4_src, 4);
	putn(f, ip4_dst, 4);
	set16(f->b + off + 10, csum_fold(csum_add(0, f->b + off, 20)));
	return off;
}

static size_t ipv6(struct frame *f, unsigned next, size_t l4len)
{
	size_t off = f->len;

	put32(f, 0x60000000u);		/* version 6, TC 0, flow 0 */
	put16(f, (unsigned)l4len);
	put8(f, next);
	put8(f, 64);			/* hop limit */
	putn(f, ip6_src, 16);
	putn(f, ip6_dst, 16);
	return off;
}

/* TCP/UDP checksum over the pseudo header of the IP header at ipoff. */
static unsigned l4_csum(const uint8_t *b, size_t ipoff, size_t l4off,
			size_t l4len, unsigned proto)
{
	uint32_t sum = 0;
	uint8_t ph[4];

	if ((b[ipoff] >> 4) == 4)
		sum = csum_add(sum, b + ipoff + 12, 8);
	else
		sum = csum_add(sum, b + ipoff + 8, 32);
	set16(ph, (unsigned)(l4len >> 16));
	set16(ph + 2, (unsigned)(l4len & 0xffff));
	sum = csum_add(sum, ph, 4);
	sum += proto;
	return csum_fold(csum_add(sum, b + l4off, l4len));
}

static void tcp(struct frame *f, size_t ipoff, unsigned sport, unsigned dport,
		uint32_t seq, uint32_t ack, unsigned flags,
		const uint8_t *payload, size_t plen)
{
	size_t off = f->len;

	put16(f, sport);
	put16(f, dport);
	put32(f, seq);
	put32(f, ack);
	put8(f, 5 << 4);		/* data offset 5 words, no options */
	put8(f, flags);
	put16(f, 65535);		/* window */
	put16(f, 0);			/* checksum */
	put16(f, 0);			/* urgent pointer */
	putn(f, payload, plen);
	set16(f->b + off + 16,
	      l4_csum(f->b, ipoff, off, f->len - off, IPPROTO_TCP_));
}

static void udp(struct frame *f, size_t ipoff, unsigned sport, unsigned dport,
		const uint8_t *payload, size_t plen)
{
	size_t off = f->len;
	unsigned c;

	put16(f, sport);
	put16(f, dport);
	put16(f, (unsigned)(8 + plen));
	put16(f, 0);
	putn(f, payload, plen);
	c = l4_csum(f->b, ipoff, off, f->len - off, IPPROTO_UDP_);
	set16(f->b + off + 6, c ? c : 0xffff);
}

#define TCP_FIN	0x01
#define TCP_SYN	0x02
#define TCP_PSH	0x08
#define TCP_ACK	0x10

/* Deterministic 48-byte application payload. */
static const uint8_t payload48[48] =
	"SSH-2.0-OpenSSH_6.6 bpf-repro payload 48 bytes\r\n";

/* ---------- the packet table ---------- */

/*
 * A TCP segment carrying the first @plen bytes of payload48, over IPv4
 * (identification @id, DF set) or, if @ethertype is ETHERTYPE_IPV6, IPv6.
 */
static void tcp_frame(struct frame *f, unsigned ethertype, unsigned id,
		      unsigned sport, unsigned dport, uint32_t seq,
		      uint32_t ack, unsigned flags, size_t plen)
{
	size_t ip;

	eth(f, mac_dst, ethertype);
	if (ethertype == ETHERTYPE_IPV4)
		ip = ipv4(f, IPPROTO_TCP_, 20 + plen, id, 0x4000);
	else
		ip = ipv6(f, IPPROTO_TCP_, 20 + plen);
	tcp(f, ip, sport, dport, seq, ack, flags, payload48, plen);
}

static void b_tcp22_payload(struct frame *f)
{
	tcp_frame(f, ETHERTYPE_IPV4, 0x1001, 40000, 22, 1000001, 2000001,
		  TCP_PSH | TCP_ACK, sizeof(payload48));
}

static void b_tcp22_ack(struct frame *f)
{
	tcp_frame(f, ETHERTYPE_IPV4, 0x1002, 40000, 22, 1000049, 2000001,
		  TCP_ACK, 0);
}

static void b_tcp80(struct frame *f)
{
	tcp_frame(f, ETHERTYPE_IPV4, 0x1003, 80, 80, 3000001, 4000001,
		  TCP_PSH | TCP_ACK, sizeof(payload48));
}

static void b_udp53(struct frame *f)
{
	/* DNS query: id 0x1234, RD, 1 question, example.com IN A */
	static const uint8_t dns[] = {
		0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0,
		0x00, 0x01, 0x00, 0x01,
	};
	size_t ip;

	eth(f, mac_dst, ETHERTYPE_IPV4);
	ip = ipv4(f, IPPROTO_UDP_, 8 + sizeof(dns), 0x1004, 0x0000);
	udp(f, ip, 33333, 53, dns, sizeof(dns));
}

static void b_udp22(struct frame *f)
{
	size_t ip;

	eth(f, mac_dst, ETHERTYPE_IPV4);
	ip = ipv4(f, IPPROTO_UDP_, 8 + 16, 0x1005, 0x0000);
	udp(f, ip, 40000, 22, payload48, 16);
}

static void b_ipv6_tcp22(struct frame *f)
{
	tcp_frame(f, ETHERTYPE_IPV6, 0, 40000, 22, 5000001, 6000001,
		  TCP_PSH | TCP_ACK, sizeof(payload48));
}

static void b_ipv4_frag22(struct frame *f)
{
	/*
	 * Second fragment (offset 1480 bytes = 185 units, MF clear) of a
	 * TCP segment to port 22.  Its data starts with bytes that *look*
	 * like a TCP header with ports 40000 -> 22, so a filter only rejects
	 * it if it honours the fragment offset (tcpdump's jset #0x1fff).
	 */
	uint8_t data[48];
	size_t ip;

	memcpy(data, payload48, sizeof(data));
	set16(data, 40000);
	set16(data + 2, 22);
	eth(f, mac_dst, ETHERTYPE_IPV4);
	ip = ipv4(f, IPPROTO_TCP_, sizeof(data), 0x1006, 185);
	(void)ip;
	putn(f, data, sizeof(data));
}

static void b_arp(struct frame *f)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6] = { 0 };

	eth(f, bcast, ETHERTYPE_ARP);
	put16(f, 1);			/* hardware type Ethernet */
	put16(f, ETHERTYPE_IPV4);	/* protocol type */
	put8(f, 6);
	put8(f, 4);
	put16(f, 1);			/* request */
	putn(f, mac_src, 6);
	putn(f, ip4_src, 4);
	putn(f, zero, 6);
	putn(f, ip4_dst, 4);
}

static void b_testbpf100(struct frame *f)
{
	/*
	 * The skb of lib/test_bpf.c "tcpdump port 22" / "tcpdump complex"
	 * at data_size 100: these 38 bytes, then zeroes up to 100 bytes.
	 * Bytes are kept verbatim (IP total length says 100, so the IP
	 * packet is truncated by the 100-byte frame, as in the kernel test).
	 */
	static const uint8_t head[38] = {
		0x10, 0xbf, 0x48, 0xd6, 0x43, 0xd6, 0x3c, 0x07,
		0x54, 0x43, 0xe5, 0x76, 0x08, 0x00, 0x45, 0x10,
		0x00, 0x64, 0x75, 0xb5, 0x40, 0x00, 0x40, 0x06,
		0xad, 0x2e, 0x0a, 0x01, 0x01, 0x95, 0x0a, 0x01,
		0x02, 0x0a, 0xc2, 0x24, 0x00, 0x16,
	};

	f->len = 0;
	putn(f, head, sizeof(head));
	while (f->len < 100)
		put8(f, 0);
}

static const struct packet {
	const char *name;
	void (*build)(struct frame *);
} packets[] = {
	{ "tcp22-payload", b_tcp22_payload },
	{ "tcp22-ack",     b_tcp22_ack },
	{ "tcp80",         b_tcp80 },
	{ "udp53",         b_udp53 },
	{ "udp22",         b_udp22 },
	{ "ipv6-tcp22",    b_ipv6_tcp22 },
	{ "ipv4-frag22",   b_ipv4_frag22 },
	{ "arp",           b_arp },
	{ "testbpf100",    b_testbpf100 },
};

#define NPACKETS (sizeof(packets) / sizeof(packets[0]))

/* ---------- output ---------- */

static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void le16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static uint32_t rd_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void pcap_global_header(uint8_t h[24])
{
	le32(h, PCAP_MAGIC);
	le16(h + 4, 2);
	le16(h + 6, 4);
	le32(h + 8, 0);			/* thiszone */
	le32(h + 12, 0);		/* sigfigs */
	le32(h + 16, PCAP_SNAPLEN);
	le32(h + 20, LINKTYPE_ETHERNET);
}

static FILE *xopen(const char *path, const char *mode)
{
	FILE *fp = fopen(path, mode);

	if (!fp)
		die("%s: %s", path, strerror(errno));
	return fp;
}

static void xclose(FILE *fp, const char *path)
{
	if (ferror(fp) || fclose(fp) != 0)
		die("%s: write error", path);
}

static void write_pcap(const char *path, const struct frame *f, unsigned idx)
{
	uint8_t h[24], r[16];
	FILE *fp = xopen(path, "wb");

	pcap_global_header(h);
	fwrite(h, 1, sizeof(h), fp);
	if (f) {
		le32(r, TS_BASE + idx);
		le32(r + 4, 0);
		le32(r + 8, (uint32_t)f->len);
		le32(r + 12, (uint32_t)f->len);
		fwrite(r, 1, sizeof(r), fp);
		fwrite(f->b, 1, f->len, fp);
	}
	xclose(fp, path);
}

static void write_hex(const char *path, const struct frame *f)
{
	FILE *fp = xopen(path, "w");
	size_t i;

	for (i = 0; i < f->len; i++)
		fprintf(fp, "%02x%c", f->b[i],
			(i % 16 == 15 || i + 1 == f->len) ? '\n' : ' ');
	xclose(fp, path);
}

static int cmd_write(const char *dir)
{
	char path[4096];
	struct frame f;
	unsigned i;

	for (i = 0; i < NPACKETS; i++) {
		memset(&f, 0, sizeof(f));
		packets[i].build(&f);
		snprintf(path, sizeof(path), "%s/%s.pcap", dir, packets[i].name);
		write_pcap(path, &f, i);
		snprintf(path, sizeof(path), "%s/%s.hex", dir, packets[i].name);
		write_hex(path, &f);
	}
	return 0;
}

/* ---------- verification ---------- */

static int nfail;

static void bad(const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("mkpackets --verify", what, fmt, ap);
	va_end(ap);
	nfail++;
}

static size_t slurp(const char *path, uint8_t *buf, size_t max)
{
	FILE *fp = xopen(path, "rb");
	size_t n = fread(buf, 1, max, fp);

	if (ferror(fp))
		die("%s: read error", path);
	if (n == max && fgetc(fp) != EOF)
		die("%s: larger than %zu bytes", path, max);
	fclose(fp);
	return n;
}

/* Parse the canonical hex text: lowercase 2-digit bytes, single spaces,
 * 16 bytes per line, every line newline-terminated. */
static size_t parse_hex(const char *path, const char *s, size_t n,
			uint8_t *out, size_t max)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i = 0, nb = 0;

	while (i < n) {
		const char *h, *l;

		if (i + 3 > n)
			die("%s: truncated at offset %zu", path, i);
		h = memchr(hexd, s[i], 16);
		l = memchr(hexd, s[i + 1], 16);
		if (!s[i] || !s[i + 1] || !h || !l) {
			bad(path, "not a lowercase hex byte at offset %zu", i);
			return nb;
		}
		if (nb >= max)
			die("%s: too many bytes", path);
		out[nb++] = (uint8_t)((h - hexd) << 4 | (l - hexd));
		if (s[i + 2] != ((nb % 16 == 0 || i + 3 == n) ? '\n' : ' ')) {
			bad(path, "bad separator after byte %zu", nb);
			return nb;
		}
		i += 3;
	}
	return nb;
}

static void verify_l3(const char *what, const uint8_t *b, size_t len)
{
	unsigned et, proto, fragoff;
	size_t ip = ETH_HLEN, ihl, totlen, l4, l4len;

	if (len < ETH_HLEN) {
		bad(what, "frame shorter than an Ethernet header");
		return;
	}
	et = get16(b + 12);
	if (et == ETHERTYPE_IPV4) {
		if (len < ip + 20) {
			bad(what, "IPv4 header truncated");
			return;
		}
		ihl = (size_t)(b[ip] & 0xf) * 4;
		if ((b[ip] >> 4) != 4 || ihl < 20 || len < ip + ihl) {
			bad(what, "bad IPv4 version/IHL");
			return;
		}
		if (csum_fold(csum_add(0, b + ip, ihl)) != 0)
			bad(what, "IPv4 header checksum wrong");
		totlen = get16(b + ip + 2);
		proto = b[ip + 9];
		fragoff = get16(b + ip + 6) & 0x1fff;
		if (totlen > len - ip)
			return;		/* truncated (testbpf100): no L4 check */
		if (totlen < ihl) {
			bad(what, "IPv4 total length < header length");
			return;
		}
		if (fragoff != 0 || (get16(b + ip + 6) & 0x2000))
			return;		/* fragment: L4 checksum not local */
		l4 = ip + ihl;
		l4len = totlen - ihl;
	} else if (et == ETHERTYPE_IPV6) {
		if (len < ip + 40 || (b[ip] >> 4) != 6) {
			bad(what, "bad IPv6 header");
			return;
		}
		l4len = get16(b + ip + 4);
		proto = b[ip + 6];
		l4 = ip + 40;
		if (l4 + l4len > len)
			return;
	} else {
		return;
	}
	if (proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_) {
		size_t hdr = proto == IPPROTO_TCP_ ? 20 : 8;

		if (l4len < hdr) {
			bad(what, "L4 header truncated");
			return;
		}
		if (proto == IPPROTO_UDP_ && get16(b + l4 + 4) != l4len)
			bad(what, "UDP length field wrong");
		if (l4_csum(b, ip, l4, l4len, proto) != 0)
			bad(what, "%s checksum wrong",
			    proto == IPPROTO_TCP_ ? "TCP" : "UDP");
	}
}

static int cmd_verify(const char *pcap, const char *hex)
{
	static uint8_t pbuf[24 + 16 + MAX_FRAME + 1];
	static char hbuf[MAX_FRAME * 3 + 1];
	static uint8_t hbytes[MAX_FRAME];
	size_t pn, hn, nb;
	uint32_t incl, orig;

	pn = slurp(pcap, pbuf, sizeof(pbuf));
	if (pn < 24 + 16)
		die("%s: too short for a pcap with one record", pcap);
	if (rd_le32(pbuf) != PCAP_MAGIC)
		bad(pcap, "magic %#x, want %#x (little-endian)",
		    rd_le32(pbuf), PCAP_MAGIC);
	if (pbuf[4] != 2 || pbuf[5] != 0 || pbuf[6] != 4 || pbuf[7] != 0)
		bad(pcap, "version is not 2.4");
	if (rd_le32(pbuf + 16) != PCAP_SNAPLEN)
		bad(pcap, "snaplen %u, want %u", rd_le32(pbuf + 16),
		    PCAP_SNAPLEN);
	if (rd_le32(pbuf + 20) != LINKTYPE_ETHERNET)
		bad(pcap, "linktype %u, want 1", rd_le32(pbuf + 20));
	incl = rd_le32(pbuf + 24 + 8);
	orig = rd_le32(pbuf + 24 + 12);
	if (incl != orig)
		bad(pcap, "caplen %u != len %u", incl, orig);
	if (incl > MAX_FRAME || pn != 24 + 16 + (size_t)incl)
		die("%s: file size %zu does not match one record of %u bytes",
		    pcap, pn, incl);

	hn = slurp(hex, (uint8_t *)hbuf, sizeof(hbuf) - 1);
	hbuf[hn] = '\0';
	nb = parse_hex(hex, hbuf, hn, hbytes, sizeof(hbytes));
	if (nb != incl)
		bad(hex, "%zu bytes, pcap record has %u", nb, incl);
	else if (memcmp(hbytes, pbuf + 40, nb) != 0)
		bad(hex, "bytes differ from %s", pcap);

	verify_l3(pcap, pbuf + 40, incl);
	if (nfail)
		return 1;
	printf("%s: ok, %u bytes\n", pcap, incl);
	return 0;
}

static void usage(void)
{
	fputs("usage: mkpackets --list\n"
	      "       mkpackets --write DIR\n"
	      "       mkpackets --pcap-header FILE\n"
	      "       mkpackets --verify PCAP HEX\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NPACKETS; i++)
			printf("%s\n", packets[i].name);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return cmd_write(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--pcap-header")) {
		write_pcap(argv[2], NULL, 0);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--verify"))
		return cmd_verify(argv[2], argv[3]);
	usage();
	return 2;
}
