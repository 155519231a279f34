// SPDX-License-Identifier: GPL-2.0
/*
 * modelcheck - programs whose branch and cache behaviour is known, each
 * between the markers of the bpfmodel plugin, to validate the model:
 *
 *   taken      a loop branch taken N times
 *   alternate  a branch taken every other time (and the loop branch)
 *   random     a branch on an LFSR bit (and the loop branch)
 *   indirect   an indirect jump over 4 targets in a fixed cycle
 *   indirect-long  one over 2 targets, 8 times each in turn
 *   period     a loop of PERIOD iterations, run N / PERIOD times
 *   stride-big   loads every 64 bytes over 4x the L1D, PASSES times
 *   stride-small loads over half the L1D PASSES times, after one pass
 *              outside any window (the model learns outside windows)
 *   restart    a start marker inside an open window, then a loop
 *   arm-pred   (ARM only) ARM-state code: returns by bxeq lr, popne
 *              {r4, pc}, ldr pc, [sp], #4 and bx lr; a call by blx r9
 *              and one by blne
 * Outside any window, a function on a page rewritten before each of
 * RETRANSLATE calls (QEMU translates it again each time).
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
#include <string.h>
#include <sys/mman.h>

#define N	20000
#define PASSES	4
#define LINE	64
#define PERIOD	24
#define RETRANSLATE	1000

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

/*
 * The loop of the indirect programs: N times an indirect jump through the
 * table at label 9 (TABLE: TABLE4 rows of target labels), indexed by the
 * iteration count & MASK, to one of TARGETS (labels 10, 11 ...: each
 * counts in %1 by INC or ADD, two different instructions, and goes on at
 * label 2 by NEXT).
 */
#if defined(__x86_64__)
#define INC	" inc %1\n"
#define ADD	" add $1, %1\n"
#define NEXT	" jmp 2f\n"
#define TABLE4(a, b, c, d)	" .quad " a "b, " b "b, " c "b, " d "b\n"
#define INDIRECT_LOOP(mask, table, targets)				\
do {									\
	unsigned long n = N, k = 0, tgt;				\
									\
	asm volatile(START						\
		     "1: mov %1, %2\n and $" mask ", %2\n"		\
		     " lea 9f(%%rip), %%rax\n mov (%%rax,%2,8), %2\n jmp *%2\n" \
		     targets						\
		     "2: dec %0\n jnz 1b\n" STOP			\
		     " .pushsection .data.rel.ro, \"aw\"\n .balign 8\n"	\
		     "9:" table " .popsection\n"			\
		     : "+r"(n), "+r"(k), "=&r"(tgt) : : "rax", "cc", "memory"); \
} while (0)
#else
#define INC	" add %1, %1, #1\n"
#define ADD	" adds %1, %1, #1\n"
#define NEXT	" b 2f\n"
#define TABLE4(a, b, c, d)						\
	" .word " a "f" TBIT ", " b "f" TBIT ", " c "f" TBIT ", " d "f" TBIT "\n"
#define INDIRECT_LOOP(mask, table, targets)				\
do {									\
	unsigned long n = N, k = 0, tgt, tbl;				\
									\
	asm volatile(START						\
		     "1: and %2, %1, #" mask "\n adr %3, 9f\n"		\
		     " ldr %2, [%3, %2, lsl #2]\n bx %2\n"		\
		     " .balign 4\n"					\
		     "9:" table						\
		     targets						\
		     "2: subs %0, %0, #1\n bne 1b\n" STOP		\
		     : "+r"(n), "+r"(k), "=&r"(tgt), "=&r"(tbl) : : "cc", "memory"); \
} while (0)
#endif

static void indirect(void)
{
	INDIRECT_LOOP("3", TABLE4("10", "11", "12", "13"),
		      "10:" INC NEXT "11:" ADD NEXT
		      "12:" INC " nop\n" NEXT "13:" ADD " nop\n" NEXT);
	report("indirect", N, 0);
}

/*
 * An indirect jump over two targets, 8 times the one, 8 times the other:
 * the last 4 targets do not tell the next one at a change, a longer
 * history does.
 */
static void indirect_long(void)
{
	INDIRECT_LOOP("15",
		      TABLE4("10", "10", "10", "10") TABLE4("10", "10", "10", "10")
		      TABLE4("11", "11", "11", "11") TABLE4("11", "11", "11", "11"),
		      "10:" INC NEXT "11:" ADD NEXT);
	report("indirect-long", N, 0);
}

/*
 * A loop of PERIOD iterations, again and again: its branch falls through
 * once in PERIOD, further back than a 16-bit history sees.
 */
static void period(void)
{
	unsigned long outer = N / PERIOD, inner;

#if defined(__x86_64__)
	asm volatile(START
		     "1: mov %2, %1\n"
		     "2: dec %1\n jnz 2b\n"
		     " dec %0\n jnz 1b\n" STOP
		     : "+r"(outer), "=&r"(inner) : "i"(PERIOD) : "cc");
#else
	asm volatile(START
		     "1: mov %1, %2\n"
		     "2: subs %1, %1, #1\n bne 2b\n"
		     " subs %0, %0, #1\n bne 1b\n" STOP
		     : "+r"(outer), "=&r"(inner) : "i"(PERIOD) : "cc");
#endif
	report("period", N, 0);
}

/* A second start marker inside an open window, then the taken loop. */
static void restart(void)
{
	unsigned long n = N;

#if defined(__x86_64__)
	asm volatile(START START "1: dec %0\n jnz 1b\n" STOP : "+r"(n) : : "cc");
#else
	asm volatile(START START "1: subs %0, %0, #1\n bne 1b\n" STOP : "+r"(n) : : "cc");
#endif
	report("restart", N, 0);
}

/*
 * Calls a function on an executable page, rewriting the page before each
 * call: QEMU drops the page's translations on the write and translates
 * the function again, the same bytes at the same address.
 */
static int retranslate(void)
{
#if defined(__x86_64__)
	static const uint8_t code[] = { 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3 };	/* mov $1, %eax; ret */
#elif defined(__thumb__)
	static const uint8_t code[] = { 0x01, 0x20, 0x70, 0x47 };	/* movs r0, #1; bx lr */
#else
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x1e, 0xff, 0x2f, 0xe1 };	/* mov r0, #1; bx lr */
#endif
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t entry = (uintptr_t)page;
	int i, sum = 0;

	if (page == MAP_FAILED)
		return -1;
#ifdef __thumb__
	entry |= 1;
#endif
	for (i = 0; i < RETRANSLATE; i++) {
		memcpy(page, code, sizeof(code));
		__builtin___clear_cache((char *)page, (char *)page + sizeof(code));
		sum += ((int (*)(void))entry)();
	}
	munmap(page, 4096);
	return sum == RETRANSLATE ? 0 : -1;
}

#if defined(__arm__)
/*
 * ARM-state code (the kernel is Thumb-2, both BPF JITs emit ARM state):
 * per iteration a return by bxeq lr or bx lr, one by popne {r4, pc} or
 * pop {r4, pc}, an indirect call (blx r9) returning by ldr pc, [sp], #4,
 * and, every other iteration, a predicated call (blne) returning by bx lr.
 */
void mc_arm_pred(unsigned long n);
asm(".pushsection .text\n .arm\n .balign 4\n"
    " .global mc_arm_pred\n .type mc_arm_pred, %function\n"
    "mc_arm_pred:\n push {r4-r11, lr}\n mov r5, r0\n adr r9, 20f\n"
    " mov r11, r11\n"
    "1: and r0, r5, #1\n bl 10f\n bl 15f\n blx r9\n cmp r0, #0\n blne 25f\n"
    " subs r5, r5, #1\n bne 1b\n"
    " mov r10, r10\n pop {r4-r11, pc}\n"
    "10: cmp r0, #0\n bxeq lr\n bx lr\n"
    "15: push {r4, lr}\n cmp r0, #0\n popne {r4, pc}\n pop {r4, pc}\n"
    "20: str lr, [sp, #-4]!\n ldr pc, [sp], #4\n"
    "25: bx lr\n"
    " .size mc_arm_pred, . - mc_arm_pred\n"
#ifdef __thumb__
    " .thumb\n"
#endif
    " .popsection\n");
#endif

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
	indirect_long();
	period();
	walk(buf, 4 * l1d, PASSES, 1);
	report("stride-big", PASSES, PASSES * 4 * l1d / LINE);
	/* the model learns outside windows too: warm up outside one */
	walk(buf, l1d / 2, 1, 0);
	walk(buf, l1d / 2, PASSES, 1);
	report("stride-small", PASSES, PASSES * l1d / 2 / LINE);
	restart();
#if defined(__arm__)
	mc_arm_pred(N);
	report("arm-pred", N, 0);
#endif
	if (retranslate()) {
		fprintf(stderr, "modelcheck: the rewritten function did not run\n");
		return 1;
	}
	return 0;
}
