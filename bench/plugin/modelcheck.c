// SPDX-License-Identifier: GPL-2.0
/*
 * modelcheck - programs whose branch and cache behaviour is known, each
 * between the markers of the bpfmodel plugin, to validate the model:
 *
 *   taken      a loop branch taken N times
 *   alternate  a branch taken every other time (and the loop branch)
 *   random     a branch on an LFSR bit (and the loop branch)
 *   indirect   an indirect jump over 4 targets in a fixed cycle
 *   stride-big   loads every 64 bytes over 4x the L1D, PASSES times
 *   stride-small-warmup  one pass over half the L1D
 *   stride-small the same PASSES times, now warm
 *
 * usage: modelcheck L1D_BYTES
 * Prints one line per window, in the order the plugin writes them:
 * "window=K name=NAME n=ITERATIONS accesses=LOADS".  The loops are inline
 * assembly (x86-64 and 32-bit ARM, Thumb or ARM state), so that their
 * branches are the ones named above and nothing else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N	20000
#define PASSES	4
#define LINE	64

#if defined(__x86_64__)
#define START	".byte 0x0f,0x1f,0x84,0x00,0x42,0x50,0x4d,0x31\n"
#define STOP	".byte 0x0f,0x1f,0x84,0x00,0x42,0x50,0x4d,0x30\n"
#elif defined(__arm__)
#define START	"mov r11, r11\n"
#define STOP	"mov r10, r10\n"
/* the state bit of a branch target: Thumb code has bit 0 set */
#ifdef __thumb__
#define TBIT	" + 1"
#else
#define TBIT	""
#endif
#else
#error "modelcheck: x86-64 or 32-bit ARM"
#endif

static int windows;

static void report(const char *name, unsigned long n, unsigned long acc)
{
	printf("window=%d name=%s n=%lu accesses=%lu\n", windows++, name, n, acc);
}

static void taken(void)
{
	unsigned long n = N;

#if defined(__x86_64__)
	asm volatile(START "1: dec %0\n jnz 1b\n" STOP : "+r"(n) : : "cc");
#else
	asm volatile(START "1: subs %0, %0, #1\n bne 1b\n" STOP : "+r"(n) : : "cc");
#endif
	report("taken", N, 0);
}

static void alternate(void)
{
	unsigned long n = N, x = 0;

#if defined(__x86_64__)
	asm volatile(START
		     "1: test $1, %0\n jz 2f\n inc %1\n"
		     "2: dec %0\n jnz 1b\n" STOP
		     : "+r"(n), "+r"(x) : : "cc");
#else
	asm volatile(START
		     "1: tst %0, #1\n beq 2f\n add %1, %1, #1\n"
		     "2: subs %0, %0, #1\n bne 1b\n" STOP
		     : "+r"(n), "+r"(x) : : "cc");
#endif
	report("alternate", N, 0);
}

static void random_branch(void)
{
	unsigned long n = N, lfsr = 0xace1, x = 0, t = 0;

	/* 16-bit Galois LFSR, taps 0xb400: branch on the bit shifted out */
#if defined(__x86_64__)
	asm volatile(START
		     "1: mov %1, %3\n shr $1, %1\n and $1, %3\n jz 2f\n"
		     " xor $0xb400, %1\n inc %2\n"
		     "2: dec %0\n jnz 1b\n" STOP
		     : "+r"(n), "+r"(lfsr), "+r"(x), "+r"(t) : : "cc");
#else
	asm volatile(START
		     "1: and %3, %1, #1\n lsr %1, %1, #1\n cmp %3, #0\n beq 2f\n"
		     " eor %1, %1, #0xb400\n add %2, %2, #1\n"
		     "2: subs %0, %0, #1\n bne 1b\n" STOP
		     : "+r"(n), "+r"(lfsr), "+r"(x), "+r"(t) : : "cc");
#endif
	report("random", N, 0);
}

static void indirect(void)
{
	unsigned long n = N, k = 0;

#if defined(__x86_64__)
	unsigned long tgt;

	asm volatile(START
		     "1: mov %1, %2\n and $3, %2\n"
		     " lea 9f(%%rip), %%rax\n mov (%%rax,%2,8), %2\n jmp *%2\n"
		     "10: inc %1\n jmp 2f\n"
		     "11: add $1, %1\n jmp 2f\n"
		     "12: inc %1\n nop\n jmp 2f\n"
		     "13: add $1, %1\n nop\n jmp 2f\n"
		     "2: dec %0\n jnz 1b\n" STOP
		     " .pushsection .data.rel.ro, \"aw\"\n .balign 8\n"
		     "9: .quad 10b, 11b, 12b, 13b\n .popsection\n"
		     : "+r"(n), "+r"(k), "=&r"(tgt) : : "rax", "cc", "memory");
#else
	unsigned long tgt, tbl;

	asm volatile(START
		     "1: and %2, %1, #3\n adr %3, 9f\n ldr %2, [%3, %2, lsl #2]\n bx %2\n"
		     " .balign 4\n"
		     "9: .word 10f" TBIT ", 11f" TBIT ", 12f" TBIT ", 13f" TBIT "\n"
		     "10: add %1, %1, #1\n b 2f\n"
		     "11: adds %1, %1, #1\n b 2f\n"
		     "12: add %1, %1, #1\n nop\n b 2f\n"
		     "13: adds %1, %1, #1\n nop\n b 2f\n"
		     "2: subs %0, %0, #1\n bne 1b\n" STOP
		     : "+r"(n), "+r"(k), "=&r"(tgt), "=&r"(tbl) : : "cc", "memory");
#endif
	report("indirect", N, 0);
}

/* Loads every LINE bytes of buf[0, size), passes times. */
static void walk(volatile const uint8_t *buf, unsigned long size,
		 unsigned long passes, int marked)
{
	unsigned long p, i, sum = 0;

	for (p = 0; p < passes; p++) {
		i = 0;
		if (marked && !p)
			asm volatile(START);
#if defined(__x86_64__)
		asm volatile("1: movzbl (%2,%1), %%eax\n add %%rax, %0\n"
			     " add %3, %1\n cmp %4, %1\n jb 1b\n"
			     : "+r"(sum), "+r"(i) : "r"(buf), "i"(LINE), "r"(size)
			     : "rax", "cc", "memory");
#else
		asm volatile("1: ldrb r12, [%2, %1]\n add %0, %0, r12\n"
			     " add %1, %1, %3\n cmp %1, %4\n blo 1b\n"
			     : "+r"(sum), "+r"(i) : "r"(buf), "i"(LINE), "r"(size)
			     : "r12", "cc", "memory");
#endif
	}
	if (marked)
		asm volatile(STOP);
}

int main(int argc, char **argv)
{
	unsigned long l1d = argc == 2 ? strtoul(argv[1], NULL, 0) : 0;
	uint8_t *buf;

	if (l1d < 4096 || l1d > (64ul << 20)) {
		fprintf(stderr, "usage: modelcheck L1D_BYTES (4 KiB .. 64 MiB)\n");
		return 2;
	}
	buf = aligned_alloc(4096, 4 * l1d);
	if (!buf)
		return 1;
	for (unsigned long i = 0; i < 4 * l1d; i++)
		buf[i] = (uint8_t)i;
	setvbuf(stdout, NULL, _IOLBF, 0);
	taken();
	alternate();
	random_branch();
	indirect();
	walk(buf, 4 * l1d, PASSES, 1);
	report("stride-big", PASSES, PASSES * 4 * l1d / LINE);
	/* the model's caches learn only inside windows: warm up in one */
	walk(buf, l1d / 2, 1, 1);
	report("stride-small-warmup", 1, l1d / 2 / LINE);
	walk(buf, l1d / 2, PASSES, 1);
	report("stride-small", PASSES, PASSES * l1d / 2 / LINE);
	return 0;
}
