/*
 * mkseccomp.c - build the seccomp filters of the bd4cf0ed331a benchmark
 * with libseccomp and export them as classic BPF.
 *
 *   mkseccomp OUTDIR      write OUTDIR/<name>.bpf (raw struct sock_filter
 *                         array, host byte order, as seccomp_export_bpf()
 *                         writes it), OUTDIR/<name>.dd (tcpdump -dd text)
 *                         and OUTDIR/<name>.pfc (libseccomp's pseudo code)
 *                         for every filter
 *   mkseccomp --list      print the filter names
 *
 * The filters are for the architecture this program is built for (its
 * libseccomp's native arch) and only for it: a call of any other arch is
 * KILL_PROCESS (SCMP_FLTATR_ACT_BADARCH).  The 2014 benchmark ran on
 * x86_64, i386 and arm32, so mkseccomp is built three times (Makefile):
 *
 *   native arch        AUDIT_ARCH   names                    built with
 *   x86_64             X86_64       short-x86_64, ...        gcc
 *   x86 (i386)         I386         short-i386, large-i386   i686-linux-gnu-gcc -static
 *   arm (EABI)         ARM          short-arm, large-arm     arm-linux-gnueabihf-gcc -static
 *
 * each linked against Debian's libseccomp of that arch and run natively or
 * under qemu-user.  A rule's raw syscall number is a number of the native
 * arch and reaches the filter untranslated (libseccomp translates numbers
 * by name only for a non-native arch of a filter), which is how
 * 05-sim-long_jumps' raw numbers mean the same on every arch.
 *
 * The filters (see README.md for the paths the benchmarked call takes):
 *
 *   short  default ALLOW, 2 rules:
 *            getppid (by name)              -> TRAP
 *            199, a0 == 0                   -> ERRNO(EPERM)
 *          syscall(199, 100) is allowed, but only after the filter has
 *          loaded and compared a0.  199 is fremovexattr on x86_64,
 *          getuid32 on i386 and arm EABI.
 *
 *   large  default KILL_PROCESS; the rules of libseccomp's
 *          tests/05-sim-long_jumps.c (202 rules), by number as there:
 *            1                                             -> ALLOW
 *            1000, a0 == i && a1 != 0 && a2 < SSIZE_MAX    -> ALLOW (i = 0..99)
 *            nr (100..199), a0 != 0                        -> ALLOW
 *            4                                             -> ALLOW
 *          plus, by name, the syscalls the benchmark process itself makes
 *          after installing the filter (a static glibc): write,
 *          clock_gettime and clock_gettime64 (vDSO fallbacks; the one an
 *          arch lacks is left out), exit_group -> ALLOW.  A harness
 *          syscall that is 1 or 4 already has its rule (write is 1 on
 *          x86_64, 4 on i386 and arm).
 *          199 is given the lowest priority so its test is the last
 *          syscall test of the program: syscall(199, 100) walks past every
 *          other syscall's test before a0 is compared.
 *
 * libseccomp's API level is pinned (seccomp_api_set) instead of probed
 * from the running kernel, so the output is the same on any build host and
 * under qemu-user (which has no seccomp(2)).  Nothing is loaded into any
 * kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

/* tests/05-sim-long_jumps.c's raw numbers (native arch) */
#define NR_05_FIRST		1
#define NR_05_LAST		4
#define NR_FAKE			1000	/* not a syscall: ENOSYS if allowed */
#define NR_CHAIN_LO		100	/* 100 .. 199: a0 != 0 */
#define NR_CHAIN_HI		199
/* the benchmarked call: syscall(199, 100) */
#define NR_BENCH		199

/*
 * The libseccomp API level the filters are built at: 6, what 2.5.4 reports
 * on a 6.1 or later kernel (all its actions and flags available).  Level 3
 * would do for KILL_PROCESS; the exported programs are the same.
 */
#define API_LEVEL		6

/* priorities: everything at 1, the benchmarked syscall at 0 (= last) */
#define PRIO_OTHER	1
#define PRIO_BENCH	0

/* The architectures, by libseccomp's native arch. */
static const struct target {
	uint32_t arch;		/* SCMP_ARCH_* = AUDIT_ARCH_* */
	const char *suffix;	/* of the filter names */
} targets[] = {
	{ SCMP_ARCH_X86_64, "-x86_64" },
	{ SCMP_ARCH_X86, "-i386" },
	{ SCMP_ARCH_ARM, "-arm" },
};

/* What seccomp-bench calls once its filter is on (bench, --verdict, ...). */
static const char *const harness[] = {
	"write", "clock_gettime", "clock_gettime64", "exit_group",
};

static void fail(const char *what, int rc)
{
	fprintf(stderr, "mkseccomp: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
	exit(1);
}

#define TRY(call) do { int rc_ = (call); if (rc_) fail(#call, rc_); } while (0)

static const struct target *target(void)
{
	uint32_t native = seccomp_arch_native();
	size_t i;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (targets[i].arch == native)
			return &targets[i];
	fprintf(stderr, "mkseccomp: libseccomp's native arch 0x%08x is none of x86_64, "
		"x86, arm: build mkseccomp for one of them (see the Makefile)\n", native);
	exit(1);
}

static int nr_of(const char *name)
{
	return seccomp_syscall_resolve_name(name);	/* native arch */
}

static scmp_filter_ctx new_ctx(uint32_t def_action)
{
	scmp_filter_ctx ctx;

	TRY(seccomp_api_set(API_LEVEL));
	ctx = seccomp_init(def_action);	/* the native arch only */
	if (!ctx)
		fail("seccomp_init", EINVAL);
	TRY(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS));
	/* level 1: linear list ordered by priority (as libseccomp in 2014) */
	TRY(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 1));
	return ctx;
}

static scmp_filter_ctx build_short(void)
{
	scmp_filter_ctx ctx = new_ctx(SCMP_ACT_ALLOW);
	int getppid = nr_of("getppid");

	if (getppid < 0)
		fail("no getppid in libseccomp's table", EINVAL);
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_TRAP, getppid, 0));
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ERRNO(EPERM), NR_BENCH, 1,
				   SCMP_A0(SCMP_CMP_EQ, 0)));
	TRY(seccomp_syscall_priority(ctx, getppid, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_BENCH, PRIO_BENCH));
	return ctx;
}

/* The harness syscalls that need a rule of their own: < 0 = none. */
static int harness_nr(size_t i)
{
	int nr = nr_of(harness[i]);

	if (nr < 0 || nr == NR_05_FIRST || nr == NR_05_LAST)
		return -1;	/* not on this arch, or a 05 rule allows it */
	return nr;
}

static scmp_filter_ctx build_large(void)
{
	scmp_filter_ctx ctx = new_ctx(SCMP_ACT_KILL_PROCESS);
	size_t h;
	int i;

	/* tests/05-sim-long_jumps.c */
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_05_FIRST, 0));
	/* one syscall, many argument chains */
	for (i = 0; i < 100; i++)
		TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_FAKE, 3,
					   SCMP_A0(SCMP_CMP_EQ, i),
					   SCMP_A1(SCMP_CMP_NE, 0),
					   SCMP_A2(SCMP_CMP_LT, SSIZE_MAX)));
	/* many syscalls, one argument chain each */
	for (i = NR_CHAIN_LO; i <= NR_CHAIN_HI; i++)
		TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, i, 1,
					   SCMP_A0(SCMP_CMP_NE, 0)));
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_05_LAST, 0));

	/* what seccomp-bench does after seccomp(): vDSO fallbacks and exit */
	for (h = 0; h < sizeof(harness) / sizeof(harness[0]); h++)
		if (harness_nr(h) >= 0)
			TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, harness_nr(h), 0));

	TRY(seccomp_syscall_priority(ctx, NR_05_FIRST, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_05_LAST, PRIO_OTHER));
	for (h = 0; h < sizeof(harness) / sizeof(harness[0]); h++)
		if (harness_nr(h) >= 0)
			TRY(seccomp_syscall_priority(ctx, harness_nr(h), PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_FAKE, PRIO_OTHER));
	for (i = NR_CHAIN_LO; i <= NR_CHAIN_HI; i++)
		TRY(seccomp_syscall_priority(ctx, i,
				i == NR_BENCH ? PRIO_BENCH : PRIO_OTHER));
	return ctx;
}

static const struct {
	const char *name;
	scmp_filter_ctx (*build)(void);
} filters[] = {
	{ "short", build_short },
	{ "large", build_large },
};

/* NAME + the target's suffix: short-x86_64, short-i386, ... */
static const char *full_name(const char *name)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s%s", name, target()->suffix);
	return buf;
}
static int open_out(const char *dir, const char *name, const char *ext)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext) >= (int)sizeof(path))
		fail("output path too long", ENAMETOOLONG);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* <name>.dd from <name>.bpf: the bytes the benchmark will load. */
static void write_dd(const char *dir, const char *name)
{
	char path[4096];
	unsigned char insn[8];
	FILE *in, *out;
	size_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.bpf", dir, name);
	in = fopen(path, "rb");
	if (!in) {
		perror(path);
		exit(1);
	}
	fd = open_out(dir, name, "dd");
	out = fdopen(fd, "w");
	if (!out)
		fail("fdopen", errno);
	while ((n = fread(insn, 1, sizeof(insn), in)) == sizeof(insn)) {
		unsigned short code;
		unsigned int k;

		memcpy(&code, insn, 2);
		memcpy(&k, insn + 4, 4);
		fprintf(out, "{ 0x%x, %u, %u, 0x%08x },\n", code, insn[2], insn[3], k);
	}
	if (n != 0 || ferror(in))
		fail("short read of the exported program", EIO);
	fclose(in);
	if (fclose(out))
		fail("writing .dd", errno);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
			printf("%s\n", full_name(filters[i].name));
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mkseccomp OUTDIR | mkseccomp --list\n");
		return 2;
	}
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		scmp_filter_ctx ctx = filters[i].build();
		const char *name = full_name(filters[i].name);
		int fd;

		fd = open_out(argv[1], name, "bpf");
		TRY(seccomp_export_bpf(ctx, fd));
		if (close(fd))
			fail("close .bpf", errno);
		fd = open_out(argv[1], name, "pfc");
		TRY(seccomp_export_pfc(ctx, fd));
		if (close(fd))
			fail("close .pfc", errno);
		seccomp_release(ctx);
		write_dd(argv[1], name);
	}
	return 0;
}
