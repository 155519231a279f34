// SPDX-License-Identifier: GPL-2.0
/*
 * pcapdiff - compare the kernel engines' verdicts from the guest with
 * libpcap's own bpf_filter(), for every tcpdump program x linear packet.
 *
 *   pcapdiff PROGRAMS PACKETS RESULTS LABEL
 *	PROGRAMS: filters/diff/programs.dd ("# expr" then -dd lines)
 *	PACKETS:  filters/diff/packets.txt ("<name> <hex>")
 *	RESULTS:  what bpfdiff wrote in the guest ("<prog> <packet>
 *		  <headlen> old=.. new=.. [jit=..] ..."); only headlen 0
 *		  lines are used (libpcap sees a flat buffer)
 *	Prints one PASS:/FAIL: line per engine found in RESULTS and one for
 *	completeness, prefixed "host(LABEL): ", the first mismatches, and
 *	exits 1 on any failure.
 *   pcapdiff --expect PROGRAMS PACKETS
 *	Print the results libpcap implies ("<prog> <packet> 0 old=V new=V
 *	jit=V"), the input format above.
 *   pcapdiff --run PROG.dd PACKET.hex
 *	libpcap's verdict for one program on one frame (filters/tests.sh).
 *   pcapdiff --capture PCAP FILTERS_DIR OUT [--every N] [--max N]
 *		[--max-bytes B] [--shuffle SEED]
 *	A capture (pcap or pcapng) as the frames file the bench guest
 *	replays, libpcap's verdict of every filter on every frame in it
 *	(capture() below; docs/capture.md).
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXINSNS 4096

struct prog {
	char expr[256];
	struct bpf_insn *insns;
	unsigned int len;
};

struct packet {
	char name[64];
	unsigned char *b;
	unsigned int len;
};

/* The engines the guest's lines name, in the order they first appear. */
#define NENGINES 16
static char engines[NENGINES][32];
static int nengines;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "pcapdiff: %s: %s\n", path, what);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory", "malloc");
	return p;
}

static FILE *xopen(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die(strerror(errno), path);
	return f;
}

static struct prog *read_progs(const char *path, unsigned int *count)
{
	FILE *f = xopen(path);
	struct prog *v = NULL;
	unsigned int n = 0, c, jt, jf, k;
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		struct prog *p;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#') {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			p = &v[n++];
			snprintf(p->expr, sizeof(p->expr), "%.255s", line + 2);
			p->insns = xrealloc(NULL, MAXINSNS * sizeof(*p->insns));
			p->len = 0;
			continue;
		}
		if (!n || sscanf(line, "{ 0x%x, %u, %u, 0x%x },", &c, &jt, &jf,
				 &k) != 4)
			die("expected '# expr' or a -dd line", path);
		p = &v[n - 1];
		if (p->len == MAXINSNS)
			die("program too long", path);
		p->insns[p->len].code = (unsigned short)c;
		p->insns[p->len].jt = (unsigned char)jt;
		p->insns[p->len].jf = (unsigned char)jf;
		p->insns[p->len].k = k;
		p->len++;
	}
	fclose(f);
	*count = n;
	return v;
}

static struct packet *read_packets(const char *path, unsigned int *count)
{
	FILE *f = xopen(path);
	struct packet *v = NULL;
	unsigned int n = 0, i, byte;
	static char line[4096];

	while (fgets(line, sizeof(line), f)) {
		char *hex = strchr(line, ' ');
		struct packet *pk;

		line[strcspn(line, "\n")] = '\0';
		if (!hex || strlen(hex + 1) % 2)
			die("expected '<name> <hex>'", path);
		*hex++ = '\0';
		v = xrealloc(v, (n + 1) * sizeof(*v));
		pk = &v[n++];
		snprintf(pk->name, sizeof(pk->name), "%.63s", line);
		pk->len = (unsigned int)strlen(hex) / 2;
		pk->b = xrealloc(NULL, pk->len);
		for (i = 0; i < pk->len; i++) {
			if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
				die("not hex", path);
			pk->b[i] = (unsigned char)byte;
		}
	}
	fclose(f);
	*count = n;
	return v;
}

/* The kernel's verdicts, [prog][packet][engine]; -1: no line. */
static long long *results;
static int seen_engine[NENGINES];
static int *prog_rejected;	/* "tNNN - - prog=ERR": every checker rejected it */

static void read_results(const char *path, const struct packet *pk,
			 unsigned int np, unsigned int npk)
{
	FILE *f = xopen(path);
	char line[512], prog[64], pkt[64], *p;
	unsigned int i, j, idx, headlen;
	int e, used;

	results = xrealloc(NULL, (size_t)np * npk * NENGINES * sizeof(*results));
	for (i = 0; i < np * npk * NENGINES; i++)
		results[i] = -1;
	prog_rejected = xrealloc(NULL, np * sizeof(*prog_rejected));
	memset(prog_rejected, 0, np * sizeof(*prog_rejected));
	while (fgets(line, sizeof(line), f)) {
		used = 0;
		if (sscanf(line, "t%u - - prog=%n", &idx, &used) == 1 &&
		    used > 0 && idx >= 1 && idx <= np) {
			prog_rejected[idx - 1] = 1;
			continue;
		}
		if (sscanf(line, "%63s %63s %u %n", prog, pkt, &headlen,
			   &used) != 3 || headlen)
			continue;
		if (prog[0] != 't' || sscanf(prog + 1, "%u", &idx) != 1 ||
		    idx < 1 || idx > np)
			continue;
		for (j = 0; j < npk && strcmp(pk[j].name, pkt); j++)
			;
		if (j == npk)
			continue;
		for (p = strtok(line + used, " \t\n"); p; p = strtok(NULL, " \t\n")) {
			char *eq = strchr(p, '=');
			long long v;

			if (!eq || eq == p || (size_t)(eq - p) >= sizeof(engines[0]))
				continue;
			*eq = '\0';
			for (e = 0; e < nengines && strcmp(engines[e], p); e++)
				;
			if (e == nengines) {
				if (nengines == NENGINES)
					die("more than 16 engines", path);
				snprintf(engines[nengines++], sizeof(engines[0]), "%s", p);
			}
			v = strtoll(eq + 1, NULL, 10);
			/* a checker's errno stays negative: never a verdict */
			results[((size_t)(idx - 1) * npk + j) * NENGINES + e] =
				v < 0 ? -2 : v;
			seen_engine[e] = 1;
		}
	}
	fclose(f);
}

/* Linux's classic BPF has forward jumps only; libpcap compiles "protochain"
 * with backward ones (its bpf_filter() sign-extends the JA offset). */
static int has_backward_jump(const struct prog *p)
{
	unsigned int pc;

	for (pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_JMP | BPF_JA) &&
		    p->insns[pc].k >= p->len - pc - 1)
			return 1;
	return 0;
}

/* libpcap's bpf_filter() makes a shift by X >= 32 give 0; Linux's interpreters
 * and x86 JITs shift by X & 31, the arm32 JIT by X's low byte (doc #17): a
 * program with a shift by X is held to bpfdiff's model of each engine, not
 * to libpcap. */
static int has_shift_x(const struct prog *p)
{
	unsigned int pc;

	for (pc = 0; pc < p->len; pc++)
		if (p->insns[pc].code == (BPF_ALU | BPF_LSH | BPF_X) ||
		    p->insns[pc].code == (BPF_ALU | BPF_RSH | BPF_X))
			return 1;
	return 0;
}

/*
 * --run PROG.dd PACKET.hex: libpcap's verdict for one program (plain -dd
 * lines, filters/NAME.dd) on one frame (hex bytes, filters/packets/NAME.hex), the
 * reference the filters/ tests hold the verdicts to.  Programs
 * bpf_validate() refuses exit 2, like malformed input.
 */
/* A program of plain -dd lines (filters/NAME.dd) into *p; exits 2 on
 * anything else or on no instruction. */
static void read_dd_file(const char *path, struct prog *p)
{
	unsigned int code, jt, jf;
	char line[256], end;
	unsigned long k;
	FILE *f = xopen(path);

	p->insns = xrealloc(NULL, MAXINSNS * sizeof(*p->insns));
	p->len = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " { %x , %u , %u , %lx } %c", &code, &jt, &jf,
			   &k, &end) != 5 || end != ',' || code > 0xffff ||
		    jt > 255 || jf > 255 || k > 0xffffffffUL ||
		    p->len == MAXINSNS)
			die("not a tcpdump -dd line", path);
		p->insns[p->len].code = (unsigned short)code;
		p->insns[p->len].jt = (unsigned char)jt;
		p->insns[p->len].jf = (unsigned char)jf;
		p->insns[p->len++].k = (unsigned int)k;
	}
	fclose(f);
	if (!p->len)
		die("bpf_validate() refuses the program: no instruction", path);
}

static int run_one(const char *dd, const char *hex)
{
	static unsigned char frame[65536];
	unsigned int len = 0, byte;
	struct prog p;
	FILE *f;

	read_dd_file(dd, &p);
	f = xopen(hex);
	while (fscanf(f, "%2x", &byte) == 1) {
		if (len == sizeof(frame))
			die("frame too long", hex);
		frame[len++] = (unsigned char)byte;
	}
	if (!feof(f))
		die("not hex bytes", hex);
	fclose(f);
	if (!bpf_validate(p.insns, (int)p.len))
		die("bpf_validate() refuses the program", dd);
	printf("%u\n", bpf_filter(p.insns, frame, len, len));
	return 0;
}

/*
 * --capture PCAP FILTERS_DIR OUT [--every N] [--max N] [--max-bytes B]
 * [--shuffle SEED]:
 * the capture's frames as the bench guest replays them (bench/guest/
 * capture.c), each with libpcap's verdict for every filter of
 * FILTERS_DIR (its "names" file, one NAME a line, and NAME.dd); the
 * format is docs/capture.md's.  A frame is replayed as the caplen bytes
 * the capture holds: libpcap's verdict is bpf_filter() on those bytes
 * with wirelen = caplen, the skb's len.  --max, --max-bytes: every Nth
 * frame, N the smallest that keeps at most that many frames and about
 * that many bytes.  Prints the workload's key=value
 * lines (frames, bytes, truncated, vlan, accepted per filter).
 */
#define CAP_MAGIC	"BPFCAP01"
#define CAP_NAME	32
#define CAP_FILTERS	64

struct capframe {
	unsigned char *b;
	unsigned int caplen, len, index;
};

static void put_u32(FILE *f, unsigned int v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	if (fwrite(b, 1, 4, f) != 4)
		die(strerror(errno), "write");
}

/* The program of NAME.dd in DIR (plain -dd lines). */
/* The program of NAME.dd in DIR. */
static struct prog *read_dd(const char *dir, const char *name)
{
	static struct prog p;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.dd", dir, name);
	read_dd_file(path, &p);
	snprintf(p.expr, sizeof(p.expr), "%s", name);
	return &p;
}

static unsigned long long cap_rand_state;

/* A fixed 64-bit LCG (Knuth's MMIX constants): the same order everywhere. */
static unsigned int cap_rand(unsigned int n)
{
	cap_rand_state = cap_rand_state * 6364136223846793005ULL +
			 1442695040888963407ULL;
	return (unsigned int)((cap_rand_state >> 33) % n);
}

static int capture(int argc, char **argv)
{
	const char *pcap = argv[2], *dir = argv[3], *out = argv[4];
	unsigned long long every = 1, max = 0, max_bytes = 0, seed = 0, bytes = 0;
	unsigned long long all_bytes = 0;
	unsigned long long accepted[CAP_FILTERS] = { 0 };
	unsigned int nf = 0, nfr = 0, total = 0, i, j, pad;
	unsigned int truncated = 0, vlan = 0, jumbo = 0, empty = 0, maxlen = 0;
	char names[CAP_FILTERS][CAP_NAME], errbuf[PCAP_ERRBUF_SIZE], line[256];
	struct bpf_insn *insns[CAP_FILTERS];
	struct capframe *fr = NULL;
	const struct prog *prog;
	struct pcap_pkthdr *h;
	const unsigned char *d;
	int shuffle = 0, dlt, rc;
	pcap_t *pc;
	FILE *f;

	for (i = 5; i < (unsigned int)argc; i += 2) {
		char *end;
		unsigned long long v;

		if (i + 1 >= (unsigned int)argc)
			die("an option without its value", argv[i]);
		v = strtoull(argv[i + 1], &end, 10);
		if (*end || !*argv[i + 1])
			die("not a number", argv[i + 1]);
		if (!strcmp(argv[i], "--every") && v)
			every = v;
		else if (!strcmp(argv[i], "--max") && v)
			max = v;
		else if (!strcmp(argv[i], "--max-bytes") && v)
			max_bytes = v;
		else if (!strcmp(argv[i], "--shuffle"))
			shuffle = 1, seed = v;
		else
			die("unknown option or a zero value", argv[i]);
	}
	snprintf(line, sizeof(line), "%s/names", dir);
	f = xopen(line);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		if (nf == CAP_FILTERS || strlen(line) >= CAP_NAME)
			die("more than 64 filters, or a name of 32 characters or more", dir);
		snprintf(names[nf], CAP_NAME, "%s", line);
		prog = read_dd(dir, names[nf]);
		insns[nf] = prog->insns;
		if (!bpf_validate(prog->insns, (int)prog->len))
			die("bpf_validate() refuses the program", names[nf]);
		nf++;
	}
	fclose(f);
	if (!nf)
		die("no filter in names", dir);

	/* Every frame kept, in memory (shuffle needs them all; --max needs
	 * the count before choosing every Nth). */
	pc = pcap_open_offline(pcap, errbuf);
	if (!pc) {
		fprintf(stderr, "pcapdiff: %s\n", errbuf);
		exit(2);
	}
	dlt = pcap_datalink(pc);
	if (dlt != DLT_EN10MB) {
		fprintf(stderr, "pcapdiff: %s: link type %s (%d); only Ethernet (EN10MB) captures are replayed\n",
			pcap, pcap_datalink_val_to_name(dlt) ?
			pcap_datalink_val_to_name(dlt) : "unknown", dlt);
		exit(2);
	}
	while ((rc = pcap_next_ex(pc, &h, &d)) == 1) {
		struct capframe *c;

		if (!h->caplen) {
			empty++;
			total++;
			continue;
		}
		fr = xrealloc(fr, (size_t)(nfr + 1) * sizeof(*fr));
		c = &fr[nfr++];
		c->caplen = h->caplen;
		c->len = h->len;
		c->index = total++;
		c->b = xrealloc(NULL, h->caplen);
		memcpy(c->b, d, h->caplen);
		all_bytes += h->caplen;
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "pcapdiff: %s: %s\n", pcap, pcap_geterr(pc));
		exit(2);
	}
	pcap_close(pc);
	if (max && nfr > max)
		every = (nfr + max - 1) / max;
	if (max_bytes && all_bytes > max_bytes &&
	    (all_bytes + max_bytes - 1) / max_bytes > every)
		every = (all_bytes + max_bytes - 1) / max_bytes;
	if (every > 1) {
		for (i = j = 0; i < nfr; i++) {
			if (i % every)
				free(fr[i].b);
			else
				fr[j++] = fr[i];
		}
		nfr = j;
	}
	if (!nfr)
		die("no frame to replay", pcap);
	if (shuffle) {
		cap_rand_state = seed;
		for (i = nfr - 1; i > 0; i--) {
			struct capframe t;

			j = cap_rand(i + 1);
			t = fr[i], fr[i] = fr[j], fr[j] = t;
		}
	}

	f = fopen(out, "w");
	if (!f)
		die(strerror(errno), out);
	fwrite(CAP_MAGIC, 1, 8, f);
	put_u32(f, nfr);
	put_u32(f, nf);
	put_u32(f, 0);
	put_u32(f, 0);
	for (i = 0; i < nf; i++) {
		char n[CAP_NAME] = { 0 };

		memcpy(n, names[i], strlen(names[i]));
		fwrite(n, 1, CAP_NAME, f);
	}
	/* each filter's program, as the module's prog knob takes it */
	for (i = 0; i < nf; i++) {
		char path[4096];
		unsigned char *dd;
		size_t n;
		FILE *p;

		snprintf(path, sizeof(path), "%s/%s.dd", dir, names[i]);
		p = xopen(path);
		dd = xrealloc(NULL, 1 << 20);
		n = fread(dd, 1, 1 << 20, p);
		fclose(p);
		put_u32(f, (unsigned int)n);
		fwrite(dd, 1, n, f);
		for (pad = (4 - n % 4) % 4; pad; pad--)
			fputc(0, f);
		free(dd);
	}
	for (i = 0; i < nfr; i++) {
		const struct capframe *c = &fr[i];
		unsigned short et = c->caplen >= 14 ?
			(unsigned short)(c->b[12] << 8 | c->b[13]) : 0;

		put_u32(f, c->caplen);
		put_u32(f, c->index);
		for (j = 0; j < nf; j++) {
			unsigned int v = bpf_filter(insns[j], c->b, c->caplen,
						    c->caplen);

			accepted[j] += v != 0;
			put_u32(f, v);
		}
		if (fwrite(c->b, 1, c->caplen, f) != c->caplen)
			die(strerror(errno), out);
		for (pad = (4 - c->caplen % 4) % 4; pad; pad--)
			fputc(0, f);
		bytes += c->caplen;
		truncated += c->caplen < c->len;
		vlan += et == 0x8100 || et == 0x88a8 || et == 0x9100;
		jumbo += c->caplen > 1514;
		if (c->caplen > maxlen)
			maxlen = c->caplen;
		free(c->b);
	}
	/* whole 4 KiB blocks: a block device (UML's ubd) shows no tail */
	for (pad = (unsigned int)((4096 - ftell(f) % 4096) % 4096); pad; pad--)
		fputc(0, f);
	if (fclose(f))
		die(strerror(errno), out);
	if (shuffle)
		printf("shuffle_seed=%llu\n", seed);
	printf("capture_frames=%u\nframes=%u\nevery=%llu\nshuffle=%s\nbytes=%llu\n"
	       "max_len=%u\ntruncated=%u\nvlan=%u\nover_1514=%u\nempty=%u\n"
	       "linktype=EN10MB\n",
	       total, nfr, every, shuffle ? "yes" : "no", bytes, maxlen,
	       truncated, vlan, jumbo, empty);
	for (j = 0; j < nf; j++)
		printf("accepted_%s=%llu\n", names[j], accepted[j]);
	free(fr);
	return 0;
}

int main(int argc, char **argv)
{
	struct prog *progs;
	struct packet *pk;
	unsigned int np, npk, i, j, want, rejected = 0, backward = 0;
	unsigned long long missing = 0, bad[NENGINES] = { 0 }, shift_known = 0;
	unsigned long long pairs, bad_reject = 0;
	int e, shown = 0, failed = 0;

	if (argc == 4 && !strcmp(argv[1], "--run"))
		return run_one(argv[2], argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "--capture"))
		return capture(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "--expect")) {
		progs = read_progs(argv[2], &np);
		pk = read_packets(argv[3], &npk);
		for (i = 0; i < np; i++) {
			if (has_backward_jump(&progs[i])) {
				printf("t%03u - - prog=-22\n", i + 1);
				continue;
			}
			for (j = 0; j < npk; j++) {
				want = bpf_filter(progs[i].insns, pk[j].b,
						  pk[j].len, pk[j].len);
				printf("t%03u %s 0 old=%u new=%u jit=%u\n",
				       i + 1, pk[j].name, want, want, want);
			}
		}
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: pcapdiff PROGRAMS PACKETS RESULTS LABEL\n"
				"       pcapdiff --expect PROGRAMS PACKETS\n"
				"       pcapdiff --capture PCAP FILTERS_DIR OUT [--every N] [--max N] [--max-bytes B] [--shuffle SEED]\n");
		return 2;
	}
	progs = read_progs(argv[1], &np);
	pk = read_packets(argv[2], &npk);
	read_results(argv[3], pk, np, npk);
	pairs = (unsigned long long)np * npk;

	for (i = 0; i < np; i++) {
		int back = has_backward_jump(&progs[i]);
		int shx = has_shift_x(&progs[i]);

		backward += back;
		if (prog_rejected[i]) {
			rejected++;
			if (!back) {
				bad_reject++;
				if (shown++ < 10)
					printf("    t%03u '%s': every engine rejects it, libpcap runs it\n",
					       i + 1, progs[i].expr);
			}
			continue;
		}
		if (back) {
			bad_reject++;
			if (shown++ < 10)
				printf("    t%03u '%s': has a backward jump, but the kernel took it\n",
				       i + 1, progs[i].expr);
		}
		for (j = 0; j < npk; j++) {
			const long long *r = &results[((size_t)i * npk + j) *
						      NENGINES];

			want = bpf_filter(progs[i].insns, pk[j].b, pk[j].len,
					  pk[j].len);
			for (e = 0; e < nengines && r[e] == -1; e++)
				;
			if (e == nengines) {
				missing++;
				continue;
			}
			for (e = 0; e < NENGINES; e++) {
				if (!seen_engine[e] || r[e] == (long long)want)
					continue;
				if (shx && r[e] >= 0) {
					shift_known++;
					continue;
				}
				bad[e]++;
				if (shown++ < 10)
					printf("    t%03u '%s' on %s: libpcap %u, %s %lld\n",
					       i + 1, progs[i].expr, pk[j].name,
					       want, engines[e], r[e]);
			}
		}
	}
	for (e = 0; e < NENGINES; e++) {
		if (!seen_engine[e])
			continue;
		printf("%s: host(%s): libpcap bpf_filter() and engine %s agree on %u tcpdump programs x %u linear packets (%llu pairs compared, %llu differ)\n",
		       bad[e] ? "FAIL" : "PASS", argv[4], engines[e],
		       np - rejected, npk,
		       (unsigned long long)(np - rejected) * npk - missing,
		       bad[e]);
		failed |= bad[e] != 0;
	}
	printf("%s: host(%s): known libpcap/Linux differences only: %llu (program, packet, engine) results of programs shifting by X (libpcap: 0 for X >= 32; Linux: X & 31, the arm32 JIT: X's low byte; bpfdiff checks those); %u programs rejected by every engine, all with backward jumps (ip/ip6 protochain; %u have them)\n",
	       bad_reject ? "FAIL" : "PASS", argv[4], shift_known, rejected,
	       backward);
	if (!nengines)
		missing = pairs;
	printf("%s: host(%s): the guest reported every tcpdump program x linear packet (%llu of %llu missing)\n",
	       missing ? "FAIL" : "PASS", argv[4], missing, pairs);
	return failed || missing || bad_reject ? 1 : 0;
}
