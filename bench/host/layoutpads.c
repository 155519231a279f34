// SPDX-License-Identifier: GPL-2.0
/*
 * layoutpads - the padding of one code-layout variant of a kernel link.
 *
 *   layoutpads [-m MAX] [-s STEP] SEED < members > pads
 *
 * Reads the members of a kernel's vmlinux.a (`ar t`, one path a line) and
 * prints "BYTES PATH" for each: the padding linked in front of that
 * member's code (bench/host/layout-link.sh).  BYTES is a multiple of STEP
 * (default 16, the functions' alignment) below MAX (default 256), drawn
 * from a hash of SEED and the member's path, so a member gets the same
 * padding in every kernel linked with SEED: the baseline and the patched
 * kernel of make compare differ in layout only by what the patch moves.
 * The first member (the head object) gets none.  A padding in front of
 * every object moves each object's code by the sum of the paddings before
 * it: the offset of each function to the cache lines (mod 64), to the
 * cache sets and pages, and to the functions of other objects all change
 * from one seed to the next; the order of the functions within one object
 * does not (docs/statistics.md, "Code layout").
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FNV-1a over the seed's bytes and the path, then a 64-bit finaliser. */
static uint64_t pad_hash(uint64_t seed, const char *path)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (seed >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	for (; *path; path++) {
		h ^= (unsigned char)*path;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static int number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: layoutpads [-m MAX_BYTES] [-s STEP_BYTES] SEED < members\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long seed, max = 256, step = 16;
	char line[4096];
	int opt, first = 1;

	while ((opt = getopt(argc, argv, "m:s:")) != -1) {
		switch (opt) {
		case 'm':
			if (number(optarg, 1 << 20, &max) || !max)
				usage();
			break;
		case 's':
			if (number(optarg, 4096, &step) || !step)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || number(argv[optind], UINT64_MAX, &seed))
		usage();
	if (max % step) {
		fprintf(stderr, "layoutpads: MAX %llu is not a multiple of STEP %llu\n", max, step);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		size_t n = strlen(line);

		if (!n || line[n - 1] != '\n') {
			fprintf(stderr, "layoutpads: a member path without its newline (or longer than %zu)\n",
				sizeof(line) - 2);
			return 1;
		}
		line[n - 1] = '\0';
		if (!line[0])
			continue;
		printf("%llu %s\n", first ? 0 : pad_hash(seed, line) % (max / step) * step, line);
		first = 0;
	}
	return ferror(stdin) ? 1 : 0;
}
