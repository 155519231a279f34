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
 * The filters (see README.md for the paths the benchmarked call takes):
 *
 *   short  default ALLOW, 2 rules:
 *            getppid (110)                -> TRAP
 *            fremovexattr (199), a0 == 0  -> ERRNO(EPERM)
 *          syscall(199, 100) is allowed, but only after the filter has
 *          loaded and compared a0.
 *
 *   large  default KILL_PROCESS; the rules of libseccomp's
 *          tests/05-sim-long_jumps.c (202 rules) plus the two syscalls the
 *          benchmark process itself needs after installing the filter:
 *            write (1)                                     -> ALLOW
 *            1000, a0 == i && a1 != 0 && a2 < SSIZE_MAX    -> ALLOW (i = 0..99)
 *            nr (100..199), a0 != 0                        -> ALLOW
 *            stat (4)                                      -> ALLOW
 *            clock_gettime (228), exit_group (231)         -> ALLOW (harness)
 *          fremovexattr (199) is given the lowest priority so its test is
 *          the last syscall test of the program: syscall(199, 100) walks
 *          past every other syscall's test before a0 is compared.
 *
 * Both filters are for x86_64 only and kill a foreign arch or x32 call
 * (SCMP_FLTATR_ACT_BADARCH = KILL_PROCESS).  Syscalls are given by number
 * (as in the libseccomp test) so the output does not depend on libseccomp's
 * syscall tables.  libseccomp may query the running kernel for supported
 * actions while building; nothing is loaded into it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

#define NR_write		1
#define NR_stat			4
#define NR_getppid		110
#define NR_fremovexattr		199
#define NR_clock_gettime	228
#define NR_exit_group		231
#define NR_FAKE			1000	/* not a syscall: ENOSYS if allowed */

/* priorities: everything at 1, the benchmarked syscall at 0 (= last) */
#define PRIO_OTHER	1
#define PRIO_BENCH	0

static void fail(const char *what, int rc)
{
	fprintf(stderr, "mkseccomp: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
	exit(1);
}

#define TRY(call) do { int rc_ = (call); if (rc_) fail(#call, rc_); } while (0)

static scmp_filter_ctx new_ctx(uint32_t def_action)
{
	scmp_filter_ctx ctx = seccomp_init(def_action);

	if (!ctx)
		fail("seccomp_init", EINVAL);
	/* x86_64 only, whatever machine builds the filters */
	if (seccomp_arch_native() != SCMP_ARCH_X86_64) {
		TRY(seccomp_arch_add(ctx, SCMP_ARCH_X86_64));
		TRY(seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE));
	}
	TRY(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS));
	/* level 1: linear list ordered by priority (as libseccomp in 2014) */
	TRY(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 1));
	return ctx;
}

static scmp_filter_ctx build_short(void)
{
	scmp_filter_ctx ctx = new_ctx(SCMP_ACT_ALLOW);

	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_TRAP, NR_getppid, 0));
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ERRNO(EPERM), NR_fremovexattr, 1,
				   SCMP_A0(SCMP_CMP_EQ, 0)));
	TRY(seccomp_syscall_priority(ctx, NR_getppid, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_fremovexattr, PRIO_BENCH));
	return ctx;
}

static scmp_filter_ctx build_large(void)
{
	scmp_filter_ctx ctx = new_ctx(SCMP_ACT_KILL_PROCESS);
	int i;

	/* tests/05-sim-long_jumps.c */
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_write, 0));
	/* one syscall, many argument chains */
	for (i = 0; i < 100; i++)
		TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_FAKE, 3,
					   SCMP_A0(SCMP_CMP_EQ, i),
					   SCMP_A1(SCMP_CMP_NE, 0),
					   SCMP_A2(SCMP_CMP_LT, SSIZE_MAX)));
	/* many syscalls, one argument chain each */
	for (i = 100; i < 200; i++)
		TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, i, 1,
					   SCMP_A0(SCMP_CMP_NE, 0)));
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_stat, 0));

	/* what seccomp-bench does after seccomp(): vDSO fallback and exit */
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_clock_gettime, 0));
	TRY(seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, NR_exit_group, 0));

	TRY(seccomp_syscall_priority(ctx, NR_write, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_stat, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_clock_gettime, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_exit_group, PRIO_OTHER));
	TRY(seccomp_syscall_priority(ctx, NR_FAKE, PRIO_OTHER));
	for (i = 100; i < 200; i++)
		TRY(seccomp_syscall_priority(ctx, i,
				i == NR_fremovexattr ? PRIO_BENCH : PRIO_OTHER));
	return ctx;
}

static const struct {
	const char *name;
	scmp_filter_ctx (*build)(void);
} filters[] = {
	{ "short", build_short },
	{ "large", build_large },
};

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
			printf("%s\n", filters[i].name);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mkseccomp OUTDIR | mkseccomp --list\n");
		return 2;
	}
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		scmp_filter_ctx ctx = filters[i].build();
		int fd;

		fd = open_out(argv[1], filters[i].name, "bpf");
		TRY(seccomp_export_bpf(ctx, fd));
		if (close(fd))
			fail("close .bpf", errno);
		fd = open_out(argv[1], filters[i].name, "pfc");
		TRY(seccomp_export_pfc(ctx, fd));
		if (close(fd))
			fail("close .pfc", errno);
		seccomp_release(ctx);
		write_dd(argv[1], filters[i].name);
	}
	return 0;
}
