// SPDX-License-Identifier: GPL-2.0
/*
 * mkcaps - captures for the tests and the scale measurements of the
 * capture workload, from frames given as hex (filters/diff/packets.txt's
 * "<name> <hex>" lines): none of them is traffic of real programs (the
 * default capture is, filters/user/README.md).
 *
 *   mkcaps [--pcapng] [--frames N] [--snap S] [--vlan K] [--linktype L]
 *          [--pad P] PACKETS OUT
 *	--pcapng   write pcapng (one section, one Ethernet interface,
 *	           enhanced packet blocks) instead of pcap
 *	--frames N N frames, cycling through PACKETS' frames (default: each
 *	           once); frame i > the list's length also gets i in the
 *	           IPv4 identification field of an IPv4 frame, so that the
 *	           copies differ (its header checksum is left as it was)
 *	--snap S   caplen = min(len, S): frames longer than S truncated
 *	--vlan K   every K-th frame (from the first) gets an 802.1Q tag
 *	           (TCI 0x0064) after its MAC addresses
 *	--linktype L  the capture's link type (default 1, Ethernet; the
 *	           tests' refusal of another)
 *	--pad P    frames shorter than P bytes (at most 65535) padded with
 *	           zeros to P, as Ethernet pads a short frame: the scale
 *	           measurements' captures of 1 GB
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frame {
	unsigned char *b;
	unsigned int len;
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "mkcaps: %s: %s\n", path, what);
	exit(2);
}

static void put32(FILE *f, unsigned int v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	if (fwrite(b, 1, 4, f) != 4)
		die(strerror(errno), "write");
}

static void put16(FILE *f, unsigned int v)
{
	fputc(v & 0xff, f);
	fputc(v >> 8 & 0xff, f);
}

static struct frame *read_frames(const char *path, unsigned int *n)
{
	static char line[8192];
	struct frame *v = NULL;
	unsigned int i, byte;
	FILE *f = fopen(path, "r");

	if (!f)
		die(strerror(errno), path);
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		char *hex = strchr(line, ' ');
		struct frame *fr;

		line[strcspn(line, "\n")] = '\0';
		if (!hex || strlen(hex + 1) % 2 || strlen(hex + 1) < 28)
			die("expected '<name> <hex of at least 14 bytes>'", path);
		hex++;
		v = realloc(v, (*n + 1) * sizeof(*v));
		if (!v)
			die("out of memory", path);
		fr = &v[(*n)++];
		fr->len = (unsigned int)strlen(hex) / 2;
		fr->b = malloc(fr->len + 4);
		if (!fr->b)
			die("out of memory", path);
		for (i = 0; i < fr->len; i++) {
			if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
				die("not hex", path);
			fr->b[i] = (unsigned char)byte;
		}
	}
	fclose(f);
	if (!*n)
		die("no frame", path);
	return v;
}

int main(int argc, char **argv)
{
	unsigned long frames = 0, snap = 0, vlan = 0, linktype = 1, pad_to = 0, i;
	unsigned char buf[65536 + 4];
	unsigned int nfr, len, caplen, pad;
	struct frame *fr;
	int ng = 0, a;
	FILE *out;

	for (a = 1; a < argc - 2; a++) {
		if (!strcmp(argv[a], "--pcapng")) {
			ng = 1;
			continue;
		}
		if (a + 1 >= argc - 2)
			die("an option without its value", argv[a]);
		if (!strcmp(argv[a], "--frames"))
			frames = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--snap"))
			snap = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--vlan"))
			vlan = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--linktype"))
			linktype = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--pad"))
			pad_to = strtoul(argv[++a], NULL, 10);
		else
			die("unknown option", argv[a]);
	}
	if (pad_to > 65535)
		die("at most 65535", "--pad");
	if (argc < 3)
		die("usage: mkcaps [--pcapng] [--frames N] [--snap S] [--vlan K] [--linktype L] [--pad P] PACKETS OUT", "mkcaps");
	fr = read_frames(argv[argc - 2], &nfr);
	if (!frames)
		frames = nfr;
	out = fopen(argv[argc - 1], "w");
	if (!out)
		die(strerror(errno), argv[argc - 1]);
	if (ng) {
		/* section header block, then one interface description block */
		put32(out, 0x0a0d0d0a);
		put32(out, 28);
		put32(out, 0x1a2b3c4d);
		put16(out, 1);
		put16(out, 0);
		put32(out, 0xffffffff);
		put32(out, 0xffffffff);
		put32(out, 28);
		put32(out, 1);
		put32(out, 20);
		put16(out, (unsigned int)linktype);
		put16(out, 0);
		put32(out, 262144);
		put32(out, 20);
	} else {
		put32(out, 0xa1b2c3d4);
		put16(out, 2);
		put16(out, 4);
		put32(out, 0);
		put32(out, 0);
		put32(out, 262144);
		put32(out, (unsigned int)linktype);
	}
	for (i = 0; i < frames; i++) {
		const struct frame *f = &fr[i % nfr];
		unsigned long long us = 1388534400ULL * 1000000 + i;

		len = f->len;
		memcpy(buf, f->b, len);
		if (vlan && i % vlan == 0) {
			memmove(buf + 16, buf + 12, len - 12);
			buf[12] = 0x81, buf[13] = 0x00, buf[14] = 0x00, buf[15] = 0x64;
			len += 4;
		}
		if (len < pad_to) {
			memset(buf + len, 0, pad_to - len);
			len = (unsigned int)pad_to;
		}
		/* copies differ: the IPv4 identification field holds i */
		if (i >= nfr && len >= 20 && buf[12] == 0x08 && buf[13] == 0x00) {
			buf[18] = (unsigned char)(i >> 8);
			buf[19] = (unsigned char)i;
		}
		caplen = snap && len > snap ? (unsigned int)snap : len;
		if (ng) {
			pad = (4 - caplen % 4) % 4;
			put32(out, 6);
			put32(out, 32 + caplen + pad);
			put32(out, 0);
			put32(out, (unsigned int)(us >> 32));
			put32(out, (unsigned int)us);
			put32(out, caplen);
			put32(out, len);
			fwrite(buf, 1, caplen, out);
			while (pad--)
				fputc(0, out);
			put32(out, 32 + caplen + (4 - caplen % 4) % 4);
		} else {
			put32(out, (unsigned int)(us / 1000000));
			put32(out, (unsigned int)(us % 1000000));
			put32(out, caplen);
			put32(out, len);
			fwrite(buf, 1, caplen, out);
		}
	}
	if (fclose(out))
		die(strerror(errno), argv[argc - 1]);
	return 0;
}
