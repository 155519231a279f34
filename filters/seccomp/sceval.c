/*
 * sceval.c - a small userspace classic-BPF evaluator for seccomp programs.
 *
 * Reads a raw struct sock_filter array (as written by seccomp_export_bpf())
 * and runs it over a struct seccomp_data built from the command line, the
 * way kernel/seccomp.c would (after seccomp_check_filter() has vetted it).
 * It is the independent reference the host tests compare the committed
 * verdicts, libseccomp's output and the host kernel against.
 *
 *   sceval [--trace] [--arch A] FILE.bpf NR [ARG0 .. ARG5]
 *        print "<ACTION> insns=<executed instructions>", e.g.
 *        "ALLOW insns=113", "ERRNO(1) insns=11", "KILL_PROCESS insns=5"
 *   sceval --check FILE.bpf
 *        validate (the checks of bpf_check_classic + seccomp_check_filter)
 *        and print "ok insns=<program length>"
 *   sceval --dd FILE.bpf
 *        print the program as `tcpdump -dd` text: { 0x.., jt, jf, 0x........ },
 *   sceval --cache [--arch NAME] FILE.bpf [NR_LIMIT]
 *        emulate the 6.1 action cache (seccomp_is_const_allow): print, one
 *        per line, every syscall nr < NR_LIMIT (default: the arch's
 *        NR_syscalls in 6.1) whose verdict a kernel of that native arch
 *        would cache as "always ALLOW", so the filter would never run for it.
 *   sceval --arches
 *        print the known archs: "NAME AUDIT_ARCH NR_syscalls BITS" lines
 *
 * The seccomp_data.arch A is an arch NAME -- x86_64 (the default), i386
 * or arm (EABI, little endian) -- or a number (AUDIT_ARCH_* value).  On a
 * 32-bit arch the arguments are 32-bit registers: an ARG above 0xffffffff
 * is refused, as no call of that arch can pass one.  Numbers accept C
 * syntax (0x.., 0..); instruction_pointer is 0.  Exit 0 on success, 1 on a
 * bad program, 2 on usage errors.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define MAXINSNS 4096		/* BPF_MAXINSNS */
#define MAX_ERRNO 4095

static struct sock_filter prog[MAXINSNS + 1];
static unsigned int plen;
static int trace;		/* --trace: print executed insns to stderr */

static void die(int code, const char *fmt, const char *arg)
{
	fprintf(stderr, "sceval: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(code);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		die(2, "bad number: %s", s);
	return v;
}

/*
 * The archs of the benchmark's filters and what 6.1 makes of them: the
 * AUDIT_ARCH_* a call of that arch carries in seccomp_data.arch, and
 * NR_syscalls, the bound of the action cache's bitmap
 * (seccomp_cache_prepare_bitmap(): SECCOMP_ARCH_NATIVE_NR of
 * arch/<arch>/include/asm/seccomp.h).  x86_64 and i386: __NR_syscalls of
 * syscall_64.tbl / syscall_32.tbl (last entry 450).  arm: 452, the last
 * entry 450 + 1 rounded up to a multiple of 4 by arch/arm/tools/syscallnr.sh
 * (the syscall table's padding).  No x32 (nr | 0x40000000) on any of them:
 * the x86_64 filters kill x32 calls, the 32-bit ones have no such bit.
 */
static const struct arch {
	const char *name;
	uint32_t audit_arch;
	unsigned int nr_syscalls;
	unsigned int bits;
} arches[] = {
	{ "x86_64", AUDIT_ARCH_X86_64, 451, 64 },
	{ "i386", AUDIT_ARCH_I386, 451, 32 },
	{ "arm", AUDIT_ARCH_ARM, 452, 32 },
};
#define NARCHES (sizeof(arches) / sizeof(arches[0]))

/* An arch by name, or by AUDIT_ARCH number (an unknown number: 64-bit,
 * NR_syscalls of x86_64). */
static struct arch parse_arch(const char *s)
{
	struct arch a = arches[0];
	unsigned int i;

	for (i = 0; i < NARCHES; i++)
		if (!strcmp(s, arches[i].name))
			return arches[i];
	if (s[0] < '0' || s[0] > '9')
		die(2, "unknown arch %s (x86_64, i386, arm or a number)", s);
	a.name = s;
	a.audit_arch = (uint32_t)num(s);
	for (i = 0; i < NARCHES; i++)
		if (arches[i].audit_arch == a.audit_arch)
			return arches[i];
	return a;
}

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		die(2, "cannot open %s", path);
	n = fread(prog, 1, sizeof(prog), f);
	if (ferror(f))
		die(2, "cannot read %s", path);
	fclose(f);
	if (n % sizeof(struct sock_filter))
		die(1, "%s: size is not a multiple of 8", path);
	plen = n / sizeof(struct sock_filter);
	if (plen == 0 || plen > MAXINSNS)
		die(1, "%s: length not in 1..4096", path);
}

static const char not_allowed[] = "instruction not allowed in a seccomp filter";

/*
 * The BPF_OP of an ALU or JMP instruction of class @cls, or -1 if its code
 * is none of classic BPF's: an op up to @last, on K or X, but @k_only (NEG,
 * JA) on K only.
 */
static int op_of(const struct sock_filter *f, unsigned int cls,
		 unsigned int last, unsigned int k_only)
{
	unsigned int op = BPF_OP(f->code), src = BPF_SRC(f->code);

	if (f->code != (cls | op | src) || op > last ||
	    (op == k_only && src == BPF_X))
		return -1;
	return op;
}

static const char *check_alu(const struct sock_filter *f)
{
	int op = op_of(f, BPF_ALU, BPF_XOR, BPF_NEG);

	if (op < 0)
		return not_allowed;
	if (BPF_SRC(f->code) == BPF_X)
		return NULL;
	if ((op == BPF_DIV || op == BPF_MOD) && f->k == 0)
		return "division by constant zero";
	if ((op == BPF_LSH || op == BPF_RSH) && f->k >= 32)
		return "shift by 32 or more";
	return NULL;
}

/* A jump of an instruction followed by @left more. */
static const char *check_jmp(const struct sock_filter *f, unsigned int left)
{
	int op = op_of(f, BPF_JMP, BPF_JSET, BPF_JA);

	if (op < 0)
		return not_allowed;
	if (op == BPF_JA)
		return f->k >= left ? "JA out of range" : NULL;
	if (f->jt > left || f->jf > left)
		return "conditional jump out of range";
	return NULL;
}

/* The loads, stores, register moves and returns. */
static const char *check_ld_st(const struct sock_filter *f)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		if (f->k >= sizeof(struct seccomp_data) || f->k & 3)
			return "LD W ABS outside seccomp_data or unaligned";
		return NULL;
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
		return NULL;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		if (f->k >= BPF_MEMWORDS)
			return "scratch memory index out of range";
		return NULL;
	default:
		return not_allowed;
	}
}

/* The checks of bpf_check_classic() and seccomp_check_filter(). */
static const char *check(void)
{
	unsigned int pc;
	const char *why;

	for (pc = 0; pc < plen; pc++) {
		const struct sock_filter *f = &prog[pc];

		switch (BPF_CLASS(f->code)) {
		case BPF_ALU:
			why = check_alu(f);
			break;
		case BPF_JMP:
			why = check_jmp(f, plen - pc - 1);
			break;
		default:
			why = check_ld_st(f);
		}
		if (why)
			return why;
	}
	if (BPF_CLASS(prog[plen - 1].code) != BPF_RET)
		return "last instruction is not RET";
	return NULL;
}

/* Run the program; returns the 32-bit seccomp return value. */
static uint32_t run(const struct seccomp_data *sd, unsigned long *executed)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	const unsigned char *data = (const unsigned char *)sd;
	unsigned int pc = 0;
	unsigned long n = 0;

	for (;;) {
		const struct sock_filter *f = &prog[pc++];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;
		int cond;

		n++;
		if (trace)
			fprintf(stderr, "%4u: { 0x%x, %u, %u, 0x%08x }\n",
				pc - 1, f->code, f->jt, f->jf, f->k);
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&a, data + f->k, 4);	/* host order, as the kernel */
			continue;
		case BPF_LD | BPF_W | BPF_LEN:
			a = sizeof(*sd);
			continue;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = sizeof(*sd);
			continue;
		case BPF_LD | BPF_IMM:  a = f->k; continue;
		case BPF_LDX | BPF_IMM: x = f->k; continue;
		case BPF_LD | BPF_MEM:  a = mem[f->k]; continue;
		case BPF_LDX | BPF_MEM: x = mem[f->k]; continue;
		case BPF_ST:  mem[f->k] = a; continue;
		case BPF_STX: mem[f->k] = x; continue;
		case BPF_MISC | BPF_TAX: x = a; continue;
		case BPF_MISC | BPF_TXA: a = x; continue;
		case BPF_RET | BPF_K:
			*executed = n;
			return f->k;
		case BPF_RET | BPF_A:
			*executed = n;
			return a;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			continue;
		case BPF_ALU | BPF_NEG:
			a = -a;
			continue;
		}
		switch (BPF_CLASS(f->code)) {
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += src; break;
			case BPF_SUB: a -= src; break;
			case BPF_MUL: a *= src; break;
			case BPF_DIV: a = src ? a / src : 0; break;
			case BPF_MOD: a = src ? a % src : 0; break;
			case BPF_AND: a &= src; break;
			case BPF_OR:  a |= src; break;
			case BPF_XOR: a ^= src; break;
			case BPF_LSH: a = src < 32 ? a << src : 0; break;
			case BPF_RSH: a = src < 32 ? a >> src : 0; break;
			}
			/* the kernel returns 0 on a runtime division by X == 0 */
			if ((BPF_OP(f->code) == BPF_DIV || BPF_OP(f->code) == BPF_MOD) && !src) {
				*executed = n;
				return 0;
			}
			continue;
		case BPF_JMP:
			switch (BPF_OP(f->code)) {
			case BPF_JEQ:  cond = a == src; break;
			case BPF_JGT:  cond = a > src; break;
			case BPF_JGE:  cond = a >= src; break;
			default:       cond = (a & src) != 0; break; /* JSET */
			}
			pc += cond ? f->jt : f->jf;
			continue;
		}
		die(1, "unexpected instruction (run --check): %s", "");
	}
}

static void print_action(uint32_t ret)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS: printf("KILL_PROCESS"); break;
	case SECCOMP_RET_KILL_THREAD:  printf("KILL_THREAD"); break;
	case SECCOMP_RET_TRAP:         printf("TRAP"); break;
	case SECCOMP_RET_ERRNO:
		printf("ERRNO(%u)", data > MAX_ERRNO ? MAX_ERRNO : data);
		break;
	case SECCOMP_RET_USER_NOTIF:   printf("USER_NOTIF"); break;
	case SECCOMP_RET_TRACE:        printf("TRACE(%u)", data); break;
	case SECCOMP_RET_LOG:          printf("LOG"); break;
	case SECCOMP_RET_ALLOW:        printf("ALLOW"); break;
	default:                       printf("UNKNOWN(0x%08x)", ret); break;
	}
}

/*
 * Port of seccomp_is_const_allow() (kernel/seccomp.c, 6.1): follow the
 * program with only nr and arch known; any other load, ALU op other than
 * AND K, or X-register jump makes the result "not constant".
 */
static int const_allow(uint32_t nr, uint32_t arch)
{
	uint32_t a = 0;
	unsigned int pc;

	for (pc = 0; pc < plen; pc++) {
		const struct sock_filter *f = &prog[pc];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k == offsetof(struct seccomp_data, nr))
				a = nr;
			else if (f->k == offsetof(struct seccomp_data, arch))
				a = arch;
			else
				return 0;
			break;
		case BPF_RET | BPF_K:
			return f->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & f->k) ? f->jt : f->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		default:
			return 0;
		}
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: sceval [--trace] [--arch A] FILE.bpf NR [ARG0 .. ARG5]\n"
		"       sceval --check FILE.bpf\n"
		"       sceval --dd FILE.bpf\n"
		"       sceval --cache [--arch NAME] FILE.bpf [NR_LIMIT]\n"
		"       sceval --arches\n");
	exit(2);
}

static void must_be_valid(const char *path)
{
	const char *why = check();

	if (why)
		die(1, "invalid program: %s", why);
	(void)path;
}

int main(int argc, char **argv)
{
	struct seccomp_data sd;
	unsigned long executed = 0;
	struct arch arch = arches[0];
	unsigned int i;
	int argi = 1;

	if (argc == 2 && !strcmp(argv[1], "--arches")) {
		for (i = 0; i < NARCHES; i++)
			printf("%s 0x%08x %u %u\n", arches[i].name, arches[i].audit_arch,
			       arches[i].nr_syscalls, arches[i].bits);
		return 0;
	}
	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "--check") && argc == 3) {
		load(argv[2]);
		must_be_valid(argv[2]);
		printf("ok insns=%u\n", plen);
		return 0;
	}
	if (!strcmp(argv[1], "--dd") && argc == 3) {
		load(argv[2]);
		for (i = 0; i < plen; i++)
			printf("{ 0x%x, %u, %u, 0x%08x },\n", prog[i].code,
			       prog[i].jt, prog[i].jf, prog[i].k);
		return 0;
	}
	if (!strcmp(argv[1], "--cache")) {
		uint64_t limit;

		argi = 2;
		if (argi < argc && !strcmp(argv[argi], "--arch")) {
			if (argi + 1 >= argc)
				usage();
			arch = parse_arch(argv[argi + 1]);
			argi += 2;
		}
		if (argc - argi != 1 && argc - argi != 2)
			usage();
		limit = argc - argi == 2 ? num(argv[argi + 1]) : arch.nr_syscalls;
		load(argv[argi]);
		must_be_valid(argv[argi]);
		for (i = 0; i < limit; i++)
			if (const_allow(i, arch.audit_arch))
				printf("%u\n", i);
		return 0;
	}
	if (!strcmp(argv[argi], "--trace")) {
		trace = 1;
		argi++;
	}
	if (argi < argc && !strcmp(argv[argi], "--arch")) {
		if (argc - argi < 4)
			usage();
		arch = parse_arch(argv[argi + 1]);
		argi += 2;
	}
	if (argc - argi < 2 || argc - argi > 8 || argv[argi][0] == '-')
		usage();
	load(argv[argi]);
	must_be_valid(argv[argi]);
	memset(&sd, 0, sizeof(sd));
	sd.nr = (int)num(argv[argi + 1]);
	sd.arch = arch.audit_arch;
	for (i = 0; (int)i < argc - argi - 2; i++) {
		sd.args[i] = num(argv[argi + 2 + i]);
		if (arch.bits == 32 && sd.args[i] > UINT32_MAX)
			die(2, "%s: a 32-bit arch's arguments are 32 bits", argv[argi + 2 + i]);
	}
	print_action(run(&sd, &executed));
	printf(" insns=%lu\n", executed);
	return 0;
}
