// SPDX-License-Identifier: GPL-2.0
/*
 * control - how steady is this host CPU?  A native control loop, timed like
 * a bench cell, run on the host right before and after each boot of a
 * hardware-timing guest, on the CPU the guest is pinned to.
 *
 *   control LABEL > cells line
 *
 * The loop is a small byte-code dispatcher over a fixed 12-byte frame (a
 * switch per step, data-dependent branches, no allocation): the kind of
 * work the guest cells do, in a host process with nothing of the guest in
 * it.  It prints one line in the guest's cells.txt format
 * (tag=control engine=native filter=LABEL), so mkcsv puts it into
 * results.csv beside the cells and cmpruns shows its run-to-run spread
 * beside theirs: when the control moves by 30% between boots, no guest
 * figure can be steadier than that.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/stats.h"

#define SAMPLES		11
#define SAMPLE_NS	20000000.0	/* 20 ms, the guest's sample_us */

enum op { OP_LOAD, OP_SHIFT, OP_XOR, OP_JEQ, OP_ADD, OP_RET };

struct step {
	uint8_t op, arg, to;
};

/* A fixed program: mix the frame's bytes, branch on them, return. */
static const struct step program[] = {
	{ OP_LOAD, 0, 0 }, { OP_SHIFT, 3, 0 }, { OP_XOR, 1, 0 },
	{ OP_JEQ, 7, 6 }, { OP_LOAD, 4, 0 }, { OP_ADD, 5, 0 },
	{ OP_XOR, 9, 0 }, { OP_SHIFT, 1, 0 }, { OP_ADD, 11, 0 },
	{ OP_JEQ, 0, 11 }, { OP_XOR, 2, 0 }, { OP_RET, 0, 0 },
};

static const uint8_t frame[12] = {
	0x45, 0x00, 0x00, 0x54, 0x12, 0x34, 0x40, 0x00, 0x40, 0x06, 0x00, 0x16,
};

static __attribute__((noinline)) uint32_t run(const uint8_t *f)
{
	uint32_t acc = 0;
	const struct step *s;

	for (s = program; ; s++) {
		switch (s->op) {
		case OP_LOAD:
			acc = f[s->arg];
			break;
		case OP_SHIFT:
			acc = (acc << s->arg) | (acc >> (32 - s->arg));
			break;
		case OP_XOR:
			acc ^= f[s->arg];
			break;
		case OP_ADD:
			acc += f[s->arg];
			break;
		case OP_JEQ:
			if ((acc & 0xff) == f[s->arg])
				s = program + s->to - 1;
			break;
		default:
			return acc;
		}
	}
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static volatile uint32_t sink;

static double timed(unsigned long n)
{
	double t0 = now_ns();
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += run(frame);
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	double ns[SAMPLES], med, lo = 0, hi = 0, level = 0, mean, sd;
	unsigned long n;
	char ci[96] = "";
	int i;

	if (argc != 2 || strpbrk(argv[1], " =\n")) {
		fprintf(stderr, "usage: control LABEL (no blanks or '=')\n");
		return 2;
	}
	for (n = 1; timed(n) < SAMPLE_NS && n < (1UL << 40); n <<= 1)
		;
	for (i = 0; i < SAMPLES; i++)
		ns[i] = timed(n) / n;
	mean = stats_mean(ns, SAMPLES);
	sd = stats_stddev(ns, SAMPLES);
	/* the median's 95% CI, by the rule of the module (lib/stats.c) */
	if (stats_median_ci(ns, SAMPLES, &med, &lo, &hi, &level))
		snprintf(ci, sizeof(ci), " ci_lo=%.3f ci_hi=%.3f ci_level=%.1f",
			 lo, hi, level);
	printf("tag=control filter=%s packet=none engine=native skbs=1 samples=%d calls_per_sample=%lu min=%.3f median=%.3f mean=%.3f stddev=%.3f%s verdict=0 jited=0 insns=%zu image_bytes=0 clock=monotonic\n",
	       argv[1], SAMPLES, n, ns[0], med, mean, sd, ci,
	       sizeof(program) / sizeof(program[0]));
	return 0;
}
