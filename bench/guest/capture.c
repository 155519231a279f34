// SPDX-License-Identifier: GPL-2.0
/*
 * capture - a user's filters on a user's capture, every engine, in the
 * guest: the frames file pcapdiff --capture made on the host (the
 * capture's frames, each with libpcap's verdict for every filter;
 * docs/capture.md) is read in batches, each batch written to the bench
 * module's capture knob once, each filter's verdicts to capture_verdicts,
 * and every engine runs over it (capture_run), every call checked against
 * libpcap's verdict.
 *
 *   capture [-e ENGINES] [-r ROUNDS] [-p PASSES] [-w WINDOW] [-b MIB]
 *           [-f FRAME] FRAMES OUT
 *	ENGINES  comma-separated (default: every engine built in but baseline)
 *	ROUNDS   rounds (default 7: the fewest whose median has a 95% CI of
 *	         two rounds apart): each round runs every filter x engine
 *	         over the whole capture, the engines in an order rotated by
 *	         one each round, as the paired cells do
 *	PASSES, WINDOW  the warm cell: windows of WINDOW frames (default 64),
 *	         each run PASSES times (default 4) after one untimed pass; the
 *	         stream cell runs each frame once a round
 *	MIB      frames a batch holds, in MiB (default 16, at most 63; at
 *	         most 65536 frames)
 *	FRAME    a test of the check itself: the verdict the frame of this
 *	         capture index must get is flipped, so the run must fail on it
 *	FRAMES   the frames file (it holds the filters' programs too)
 *	OUT      the directory capture.txt goes into (docs/capture.md: its
 *	         lines)
 * Exits 1 on a verdict that differs from libpcap's (naming the filter,
 * engine and capture frame), 2 on bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KNOBS		"/sys/kernel/debug/bpf_bench/"
#define CAP_MAGIC	"BPFCAP01"
#define CAP_NAME	32
#define CAP_FILTERS	64
#define BATCH_MAGIC	0x42465042u	/* the module's BENCH_CAPTURE_MAGIC */
#define BATCH_FRAMES	65536
#define MAX_ENGINES	8
#define STREAM_CALLS	65536	/* calls a stream cell makes at least */

static void die(int code, const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "[guest] capture: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(code);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		die(2, "out of memory (%s%s)", "", "");
	return p;
}

/* read exactly n bytes; 0 at a clean end before the first byte */
static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got ? -1 : 0;
		got += (size_t)r;
	}
	return 1;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* One write of len bytes to knob; 0 or the errno. */
static int knob_write(const char *knob, const void *buf, size_t len)
{
	char path[128];
	ssize_t r;
	int fd, err = 0;

	snprintf(path, sizeof(path), KNOBS "%s", knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	r = write(fd, buf, len);
	if (r < 0)
		err = errno;
	else if ((size_t)r != len)
		err = EIO;
	close(fd);
	return err;
}

static int knob_read(const char *knob, char *buf, size_t size)
{
	char path[128];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), KNOBS "%s", knob);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	r = read(fd, buf, size - 1);
	close(fd);
	if (r < 0)
		return errno;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* MemAvailable of /proc/meminfo, KiB (0: not known) */
static unsigned long long mem_available(void)
{
	unsigned long long kib = 0;
	char l[128];
	FILE *m = fopen("/proc/meminfo", "r");

	while (m && fgets(l, sizeof(l), m))
		if (sscanf(l, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (m)
		fclose(m);
	return kib;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static const char *errname(int err)
{
	static char buf[16];

	switch (err) {
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBADE: return "EBADE";
	case 524: return "ENOTSUPP";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/* "key=value ..." -> value of key, as an unsigned number */
static unsigned long long kv(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[n] == '=')
			return strtoull(p + n + 1, NULL, 10);
		p += n;
	}
	return 0;
}

struct filter {
	char name[CAP_NAME + 1];
	char *dd;			/* its program, as the prog knob takes it */
	size_t dd_len;
	int refused;			/* the prog knob's errno: skipped */
	int engine_refused[MAX_ENGINES];	/* capture_run's errno */
	unsigned long long accepted[MAX_ENGINES];
	unsigned long long stream_ns[MAX_ENGINES], stream_calls[MAX_ENGINES];
	unsigned long long warm_ns[MAX_ENGINES], warm_calls[MAX_ENGINES];
	char info[MAX_ENGINES][64];	/* jited=.. insns=.. [fallback=..] */
};

static char engines[MAX_ENGINES][16];
static int nengines;

static void parse_engines(char *list)
{
	char *tok;

	for (tok = strtok(list, ",\n"); tok; tok = strtok(NULL, ",\n")) {
		if (!strcmp(tok, "baseline") || !*tok)
			continue;
		if (nengines == MAX_ENGINES || strlen(tok) >= sizeof(engines[0]))
			die(2, "too many engines, or a long name: %s%s", tok, "");
		strcpy(engines[nengines++], tok);
	}
	if (!nengines)
		die(2, "no engine to run%s%s", "", "");
}

static char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(2, "%s: %s", path, strerror(errno));
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
		if (!buf)
			die(2, "out of memory (%s%s)", path, "");
	}
	close(fd);
	*len = n;
	return buf;
}

/* A batch as read from the frames file: nr records, their start in raw. */
struct batch {
	unsigned char *raw;
	size_t used;
	uint32_t nr;
	size_t *off;			/* each record's offset in raw */
	unsigned char *out;		/* the module's batch for one filter */
};

/*
 * Fill b from fd: records until MIB or BATCH_FRAMES or the file's nr
 * frames; *left counts the frames still to read.
 */
static void read_batch(int fd, struct batch *b, size_t cap, uint32_t nf,
		       uint32_t *left)
{
	size_t head = 8 + 4 * (size_t)nf, need;
	unsigned char h[8 + 4 * CAP_FILTERS];
	uint32_t len;

	b->nr = 0;
	b->used = 0;
	while (*left && b->nr < BATCH_FRAMES) {
		if (read_full(fd, h, head) != 1)
			die(2, "the frames file ends early%s%s", "", "");
		len = le32(h);
		need = head + ((len + 3) & ~3u);
		if (!len || len > 262144)
			die(2, "a frame of a bad length in the frames file%s%s", "", "");
		if (b->used + need > cap) {
			if (!b->nr)
				die(2, "a frame larger than a batch%s%s", "", "");
			/* keep it for the next batch */
			lseek(fd, -(off_t)head, SEEK_CUR);
			break;
		}
		memcpy(b->raw + b->used, h, head);
		if (read_full(fd, b->raw + b->used + head, need - head) != 1)
			die(2, "the frames file ends in a frame%s%s", "", "");
		b->off[b->nr++] = b->used;
		b->used += need;
		(*left)--;
	}
}

/* Frame i's verdict of filter f (frame flip's flipped). */
static uint32_t verdict(const struct batch *b, uint32_t i, uint32_t f,
			long long flip)
{
	const unsigned char *r = b->raw + b->off[i];
	uint32_t v = le32(r + 8 + 4 * f);

	if (flip >= 0 && le32(r + 4) == (uint32_t)flip)
		v = v ? 0 : 1;
	return v;
}

/*
 * The module's batch for filter f: its frames and verdicts (the capture
 * knob), or with @frames 0 the verdicts alone (capture_verdicts: the
 * frames written for an earlier filter stay).
 */
static size_t make_out(struct batch *b, uint32_t nf, uint32_t f,
		       long long flip, int frames)
{
	size_t head = 8 + 4 * (size_t)nf, o = 8;
	uint32_t i, len, v, magic = BATCH_MAGIC;

	if (!frames) {
		for (i = 0; i < b->nr; i++) {
			v = verdict(b, i, f, flip);
			memcpy(b->out + 4 * (size_t)i, &v, 4);
		}
		return 4 * (size_t)b->nr;
	}
	memcpy(b->out, &magic, 4);
	memcpy(b->out + 4, &b->nr, 4);
	for (i = 0; i < b->nr; i++) {
		const unsigned char *r = b->raw + b->off[i];

		len = le32(r);
		v = verdict(b, i, f, flip);
		memcpy(b->out + o, &len, 4);
		memcpy(b->out + o + 4, &v, 4);
		memcpy(b->out + o + 8, r + head, (len + 3) & ~3u);
		o += 8 + ((len + 3) & ~3u);
	}
	return o;
}

int main(int argc, char **argv)
{
	unsigned int rounds = 7, passes = 4, window = 64, mib = 16;
	long long flip = -1;
	char engine_list[256] = "", line[512], cmd[64];
	unsigned char hdr[24];
	struct filter *fl;
	struct batch b;
	uint32_t nfr, nf, left, f;
	size_t cap, len;
	off_t data;
	FILE *out;
	int opt, fd, err;
	unsigned int round, nb, spasses;
	unsigned long long t0, load_ns = 0, load_frames = 0, mem0, mem_min;
	uint32_t batch_max = 0;
	int loaded;

	while ((opt = getopt(argc, argv, "e:r:p:w:b:f:")) != -1) {
		switch (opt) {
		case 'e': snprintf(engine_list, sizeof(engine_list), "%s", optarg); break;
		case 'r': rounds = (unsigned int)atoi(optarg); break;
		case 'p': passes = (unsigned int)atoi(optarg); break;
		case 'w': window = (unsigned int)atoi(optarg); break;
		case 'b': mib = (unsigned int)atoi(optarg); break;
		case 'f': flip = atoll(optarg); break;
		default: die(2, "usage: capture [-e ENGINES] [-r ROUNDS] [-p PASSES] [-w WINDOW] [-b MIB] [-f FRAME] FRAMES OUT%s%s", "", "");
		}
	}
	if (argc - optind != 2 || !rounds || rounds > 1000 || !passes ||
	    passes > 1000 || !window || !mib || mib > 63)
		die(2, "usage: capture [-e ENGINES] [-r ROUNDS 1..1000] [-p PASSES 1..1000] [-w WINDOW] [-b MIB 1..63] [-f FRAME] FRAMES OUT%s%s", "", "");
	if (!*engine_list) {
		/* every engine built in, one a line */
		size_t n;
		char *all = read_file(KNOBS "engines", &n);

		all[n ? n - 1 : 0] = '\0';
		snprintf(engine_list, sizeof(engine_list), "%s", all);
		free(all);
	}
	parse_engines(engine_list);

	fd = open(argv[optind], O_RDONLY);
	if (fd < 0)
		die(2, "%s: %s", argv[optind], strerror(errno));
	if (read_full(fd, hdr, sizeof(hdr)) != 1 || memcmp(hdr, CAP_MAGIC, 8))
		die(2, "%s: not a frames file (pcapdiff --capture)%s", argv[optind], "");
	nfr = le32(hdr + 8);
	nf = le32(hdr + 12);
	if (!nfr || !nf || nf > CAP_FILTERS)
		die(2, "%s: no frame, or no or too many filters%s", argv[optind], "");
	fl = calloc(nf, sizeof(*fl));
	if (!fl)
		die(2, "out of memory%s%s", "", "");
	for (f = 0; f < nf; f++) {
		if (read_full(fd, fl[f].name, CAP_NAME) != 1)
			die(2, "%s: ends in its names%s", argv[optind], "");
		fl[f].name[CAP_NAME] = '\0';
	}
	for (f = 0; f < nf; f++) {
		unsigned char n[4];

		if (read_full(fd, n, 4) != 1 || !le32(n) || le32(n) > (1u << 20))
			die(2, "%s: ends in its programs%s", argv[optind], "");
		fl[f].dd_len = le32(n);
		fl[f].dd = xmalloc((fl[f].dd_len + 3) & ~3u);
		if (read_full(fd, fl[f].dd, (fl[f].dd_len + 3) & ~3u) != 1)
			die(2, "%s: ends in its programs%s", argv[optind], "");
	}
	data = lseek(fd, 0, SEEK_CUR);
	/*
	 * The stream cell: each frame once a pass, in capture order; a
	 * capture of fewer than STREAM_CALLS frames is passed over that
	 * often in a row (after one untimed pass), so that a round lasts
	 * long enough to time.
	 */
	spasses = nfr >= STREAM_CALLS ? 1 : (STREAM_CALLS + nfr - 1) / nfr;
	cap = (size_t)mib << 20;
	b.raw = xmalloc(cap);
	b.off = xmalloc(BATCH_FRAMES * sizeof(*b.off));
	b.out = xmalloc(cap + 8);
	snprintf(line, sizeof(line), "%s/capture.txt", argv[optind + 1]);
	out = fopen(line, "w");
	if (!out)
		die(2, "%s: %s", line, strerror(errno));

	mem0 = mem_min = mem_available();
	for (round = 0; round < rounds; round++) {
		lseek(fd, data, SEEK_SET);
		left = nfr;
		for (nb = 1; left; nb++) {
			read_batch(fd, &b, cap, nf, &left);
			loaded = 0;
			fprintf(stderr, "[guest] capture: round %u/%u, batch %u (%u frames, %u of %u left)\n",
				round + 1, rounds, nb, b.nr, left, nfr);
			for (f = 0; f < nf; f++) {
				struct filter *F = &fl[f];
				int i, e;

				if (F->refused)
					continue;
				err = knob_write("prog", F->dd, F->dd_len);
				if (err) {
					F->refused = err;
					fprintf(out, "refused filter=%s errno=%s\n", F->name, errname(err));
					fprintf(stderr, "[guest] capture: filter %s: every engine's checker refuses it (%s): skipped\n",
						F->name, errname(err));
					continue;
				}
				/* the frames once a batch, then each filter's verdicts */
				len = make_out(&b, nf, f, flip, !loaded);
				t0 = now_ns();
				err = knob_write(loaded ? "capture_verdicts" : "capture", b.out, len);
				if (err)
					die(1, "the module refuses a batch: %s%s", errname(err), "");
				if (!loaded) {
					/* the load path: skbs built a second */
					load_ns += now_ns() - t0;
					load_frames += b.nr;
					if (mem_available() && mem_available() < mem_min)
						mem_min = mem_available();
					if (b.nr > batch_max)
						batch_max = b.nr;
				}
				loaded = 1;
				for (i = 0; i < nengines; i++) {
					e = (int)((round + (unsigned int)i) % (unsigned int)nengines);
					if (F->engine_refused[e])
						continue;
					snprintf(cmd, sizeof(cmd), "%s %u 0", engines[e], spasses);
					err = knob_write("capture_run", cmd, strlen(cmd));
					if (!err) {
						knob_read("capture_result", line, sizeof(line));
						F->stream_ns[e] += kv(line, "ns");
						F->stream_calls[e] += kv(line, "calls");
						if (!round)
							F->accepted[e] += kv(line, "accepted");
						snprintf(F->info[e], sizeof(F->info[e]), "%s",
							 strstr(line, "jited=") ? strstr(line, "jited=") : "");
						snprintf(cmd, sizeof(cmd), "%s %u %u", engines[e], passes, window);
						err = knob_write("capture_run", cmd, strlen(cmd));
					}
					if (!err) {
						knob_read("capture_result", line, sizeof(line));
						F->warm_ns[e] += kv(line, "ns");
						F->warm_calls[e] += kv(line, "calls");
						continue;
					}
					if (err == EBADE) {
						unsigned long long k;

						knob_read("capture_result", line, sizeof(line));
						k = kv(line, "frame");
						fprintf(out, "mismatch filter=%s engine=%s frame=%u returned=%llu libpcap=%llu\n",
							F->name, engines[e],
							k < b.nr ? le32(b.raw + b.off[k] + 4) : 0,
							kv(line, "returned"), kv(line, "expected"));
						fclose(out);
						fprintf(stderr, "[guest] capture: MISMATCH: filter %s, engine %s, capture frame %u: the engine returned %llu, libpcap %llu\n",
							F->name, engines[e],
							k < b.nr ? le32(b.raw + b.off[k] + 4) : 0,
							kv(line, "returned"), kv(line, "expected"));
						return 1;
					}
					F->engine_refused[e] = err;
					fprintf(out, "refused filter=%s engine=%s errno=%s\n",
						F->name, engines[e], errname(err));
					fprintf(stderr, "[guest] capture: filter %s: engine %s refuses it (%s); the other engines go on\n",
						F->name, engines[e], errname(err));
				}
			}
		}
		for (f = 0; f < nf; f++) {
			struct filter *F = &fl[f];
			int e;

			for (e = 0; e < nengines && !F->refused; e++) {
				if (F->engine_refused[e])
					continue;
				fprintf(out, "capture filter=%s engine=%s cell=stream round=%u frames=%u calls=%llu ns=%llu\n",
					F->name, engines[e], round, nfr,
					F->stream_calls[e], F->stream_ns[e]);
				fprintf(out, "capture filter=%s engine=%s cell=warm round=%u frames=%u calls=%llu ns=%llu\n",
					F->name, engines[e], round, nfr,
					F->warm_calls[e], F->warm_ns[e]);
				F->stream_ns[e] = F->stream_calls[e] = 0;
				F->warm_ns[e] = F->warm_calls[e] = 0;
			}
		}
	}
	for (f = 0; f < nf; f++) {
		int e;

		for (e = 0; e < nengines && !fl[f].refused; e++)
			if (!fl[f].engine_refused[e])
				fprintf(out, "accepted filter=%s engine=%s frames=%u accepted=%llu %s\n",
					fl[f].name, engines[e], nfr,
					fl[f].accepted[e], fl[f].info[e]);
	}
	fprintf(out, "params rounds=%u stream_passes=%u passes=%u window=%u batch_mib=%u engines=",
		rounds, spasses, passes, window, mib);
	for (opt = 0; opt < nengines; opt++)
		fprintf(out, "%s%s", opt ? "," : "", engines[opt]);
	fputc('\n', out);
	/* what the load path costs: the frames' skbs built a second, and the
	 * guest memory a batch takes (MemAvailable before the first and its
	 * least after a batch was written) */
	fprintf(out, "load frames=%llu ns=%llu frames_per_s=%.0f mem_available_kib=%llu mem_least_kib=%llu batch_frames=%u\n",
		load_frames, load_ns, load_ns ? load_frames * 1e9 / load_ns : 0.0,
		mem0, mem_min, batch_max);
	if (fclose(out))
		die(2, "capture.txt: %s%s", strerror(errno), "");
	return 0;
}
