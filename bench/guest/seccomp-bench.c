/*
 * seccomp-bench.c - the seccomp benchmark of commit bd4cf0ed331a, for the
 * guest (build with: gcc -O2 -static -o seccomp-bench seccomp-bench.c).
 *
 *   seccomp-bench FILTER.bpf|none NR ARG COUNT
 *       install FILTER.bpf (a raw struct sock_filter array, see
 *       filters/seccomp/) on this process, then time COUNT calls of
 *       syscall(NR, ARG, 0, 0, 0, 0, 0) with CLOCK_MONOTONIC and print
 *         filter=<name> nr=N calls=COUNT seconds=S.SSSSSS ns_per_call=X.XXX
 *       <name> is the file's basename without ".bpf" ("none": no filter,
 *       the bare syscall cost).  Before the filter goes on, the call is made
 *       once unfiltered; the filtered calls must return the same value (the
 *       filter must ALLOW the call), else nothing is printed and the exit
 *       status is 1.  1000 untimed warm-up calls precede the timed ones.
 *
 *   seccomp-bench --verdict FILTER.bpf NR ARG
 *       fork; the child makes the call once unfiltered, installs the
 *       filter, makes it again; print what the filter did:
 *         ALLOW ret=R [errno=E]  same outcome as the unfiltered call
 *         ERRNO E                -1 with an errno the unfiltered call did
 *                                not give (an ERRNO(E) equal to the
 *                                syscall's own errno reads as ALLOW)
 *         KILLED sig=N           the child died by signal N at the call
 *         TRAPPED                SIGSYS with si_code SYS_SECCOMP at the call
 *       The call really runs (twice): only use harmless (NR, ARG) pairs.
 *
 *   seccomp-bench --prove-uncached FILTER.bpf NR ARG_ALLOW ARG_DENY COUNT
 *       show that the filter runs on every call of NR, i.e. that the
 *       kernel's per-syscall-number action cache (6.1 kernel/seccomp.c,
 *       seccomp_cache_check_allow) does not short-circuit it.  A child
 *       installs the filter, makes COUNT calls with ARG_ALLOW (each must be
 *       allowed: same result as unfiltered), then one call with ARG_DENY
 *       (must be denied: ERRNO, TRAP or kill), then -- if still alive --
 *       ARG_ALLOW and ARG_DENY once more.  The cache is keyed by syscall
 *       number only and only ever caches ALLOW, so a denial of NR after
 *       COUNT allowed calls of NR proves the filter is evaluated per call.
 *       Prints "PROVEN ..." (exit 0) or "NOT PROVEN ..." (exit 1).
 *
 * Exit status 2: usage or setup errors (bad file, seccomp() refused, ...).
 * The filter is installed with PR_SET_NO_NEW_PRIVS + seccomp(2)
 * (SECCOMP_SET_MODE_FILTER), falling back to prctl(PR_SET_SECCOMP) on
 * kernels without seccomp(2).  Children disable core dumps first, since a
 * KILL action dumps core.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1		/* si_code of a SECCOMP_RET_TRAP SIGSYS */
#endif

#define MAXINSNS 4096
#define WARMUP 1000

static struct sock_filter insns[MAXINSNS + 1];
static struct sock_fprog fprog;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "seccomp-bench: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		die("bad number: %s", s);
	return v;
}

/* Read a raw sock_filter array; same sanity rules as the kernel's length check. */
static void load_filter(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		die("cannot open %s", path);
	n = fread(insns, 1, sizeof(insns), f);
	if (ferror(f))
		die("cannot read %s", path);
	fclose(f);
	if (n == 0 || n % sizeof(struct sock_filter) || n > MAXINSNS * sizeof(struct sock_filter))
		die("%s: not a sock_filter array of 1..4096 insns", path);
	fprog.len = n / sizeof(struct sock_filter);
	fprog.filter = insns;
}

static int install_filter(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

static inline long call(long nr, unsigned long arg)
{
	return syscall(nr, arg, 0UL, 0UL, 0UL, 0UL, 0UL);
}

static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);	/* also stops piped core_pattern */
}

static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *filter_name(const char *path)
{
	static char name[256];
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 4 && !strcmp(b + len - 4, ".bpf"))
		len -= 4;
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, b, len);
	name[len] = '\0';
	return name;
}

/* ---- bench mode --------------------------------------------------------- */

static int bench(const char *path, long nr, unsigned long arg, unsigned long long count)
{
	int filtered = strcmp(path, "none") != 0;
	unsigned long long i, bad = 0;
	long base, r;
	int base_err, err;
	double t0, t1;
	char out[256];
	int len;

	if (filtered)
		load_filter(path);
	if (count == 0)
		die("COUNT must be > 0%s", "");
	no_core();	/* a KILL verdict would dump core in the guest's cwd */
	errno = 0;
	base = call(nr, arg);
	base_err = errno;
	if (filtered && install_filter())
		die("installing the filter failed: %s", strerror(errno));

	/* The filter must allow this call, else we would time a denial. */
	errno = 0;
	r = call(nr, arg);
	err = errno;
	if (r != base || (r == -1 && err != base_err)) {
		fprintf(stderr, "seccomp-bench: the filter does not allow syscall(%ld, %lu): "
			"ret=%ld errno=%d, unfiltered ret=%ld errno=%d\n",
			nr, arg, r, err, base, base_err);
		_exit(1);
	}
	for (i = 0; i < WARMUP; i++)
		bad += call(nr, arg) != base;

	t0 = now();
	for (i = 0; i < count; i++)
		bad += call(nr, arg) != base;
	t1 = now();

	if (t0 < 0 || t1 < 0) {
		fprintf(stderr, "seccomp-bench: clock_gettime failed\n");
		_exit(2);
	}
	if (bad) {
		fprintf(stderr, "seccomp-bench: %llu calls returned something else than %ld\n",
			bad, base);
		_exit(1);
	}
	/* No stdio on stdout under the filter: one write(2), then exit_group. */
	len = snprintf(out, sizeof(out),
		       "filter=%s nr=%ld calls=%llu seconds=%.6f ns_per_call=%.3f\n",
		       filtered ? filter_name(path) : "none", nr, count, t1 - t0,
		       (t1 - t0) * 1e9 / (double)count);
	if (len <= 0 || write(STDOUT_FILENO, out, (size_t)len) != len)
		_exit(2);
	_exit(0);
}

/* ---- verdict / prove-uncached: child reports through shared memory ------ */

enum { ST_START, ST_BASELINE, ST_INSTALLED, ST_CALL, ST_DONE };

struct outcome {
	long ret;
	int err;
	int done;		/* the call returned */
};

struct shared {
	volatile int stage;
	volatile int trapped;	/* SIGSYS from seccomp seen ... */
	volatile int trap_stage;	/* ... at this stage */
	volatile int trap_nr;
	volatile int install_errno;
	long base_ret[2];
	int base_err[2];
	/* verdict: call[0]; prove: [0] allowed loop, [1] deny, [2] allow, [3] deny */
	struct outcome call[4];
	unsigned long long allowed_done, allowed_bad;
	long bad_ret;
	int bad_err;
};

static struct shared *sh;

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == SYS_SECCOMP) {
		sh->trapped = 1;
		sh->trap_stage = sh->stage;
		sh->trap_nr = si->si_syscall;
	}
}

static void child_setup(void)
{
	struct sigaction sa;

	no_core();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSYS, &sa, NULL);
}

static void record(struct outcome *o, long nr, unsigned long arg)
{
	errno = 0;
	o->ret = call(nr, arg);
	o->err = errno;
	o->done = 1;
}

static int same(const struct outcome *o, long base_ret, int base_err)
{
	return o->ret == base_ret && (o->ret != -1 || o->err == base_err);
}

static pid_t start_child(void)
{
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memset(sh, 0, sizeof(*sh));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		child_setup();
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	return status;
}

static void child_install(void)
{
	if (install_filter()) {
		sh->install_errno = errno ? errno : EINVAL;
		_exit(3);
	}
	sh->stage = ST_INSTALLED;
}

/* Describe outcome o of a filtered call against its unfiltered baseline. */
static void describe(char *buf, size_t size, const struct outcome *o,
		     long base_ret, int base_err)
{
	if (same(o, base_ret, base_err) || o->ret != -1) {
		if (o->ret == -1)
			snprintf(buf, size, "ALLOW ret=-1 errno=%d", o->err);
		else
			snprintf(buf, size, "ALLOW ret=%ld", o->ret);
	} else {
		snprintf(buf, size, "ERRNO %d", o->err);
	}
}

static int verdict(const char *path, long nr, unsigned long arg)
{
	char what[128];
	pid_t pid;
	int status;

	load_filter(path);
	pid = start_child();
	if (pid == 0) {
		record(&sh->call[0], nr, arg);	/* unfiltered baseline */
		sh->base_ret[0] = sh->call[0].ret;
		sh->base_err[0] = sh->call[0].err;
		sh->call[0].done = 0;
		sh->stage = ST_BASELINE;
		child_install();
		sh->stage = ST_CALL;
		record(&sh->call[0], nr, arg);
		sh->stage = ST_DONE;
		_exit(0);
	}
	status = reap(pid);
	if (sh->install_errno)
		die("installing the filter failed in the child: %s",
		    strerror(sh->install_errno));
	if (sh->stage < ST_CALL) {
		fprintf(stderr, "seccomp-bench: child ended before the call (status 0x%x)\n",
			status);
		return 2;
	}
	if (sh->trapped && sh->trap_stage == ST_CALL) {
		printf("TRAPPED\n");
	} else if (sh->call[0].done) {
		describe(what, sizeof(what), &sh->call[0], sh->base_ret[0], sh->base_err[0]);
		printf("%s\n", what);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fprintf(stderr, "seccomp-bench: note: child then ended with status "
				"0x%x (its exit was not allowed?)\n", status);
	} else if (WIFSIGNALED(status)) {
		printf("KILLED sig=%d\n", WTERMSIG(status));
	} else {
		fprintf(stderr, "seccomp-bench: child exited (status 0x%x) during the call\n",
			status);
		return 2;
	}
	return 0;
}

static int prove_uncached(const char *path, long nr, unsigned long a_allow,
			  unsigned long a_deny, unsigned long long count)
{
	unsigned long long i;
	char what[128];
	const char *deny;
	pid_t pid;
	int status;

	load_filter(path);
	pid = start_child();
	if (pid == 0) {
		struct outcome o;

		record(&o, nr, a_allow);
		sh->base_ret[0] = o.ret;
		sh->base_err[0] = o.err;
		record(&o, nr, a_deny);
		sh->base_ret[1] = o.ret;
		sh->base_err[1] = o.err;
		sh->stage = ST_BASELINE;
		child_install();
		for (i = 0; i < count; i++) {
			record(&o, nr, a_allow);
			if (!same(&o, sh->base_ret[0], sh->base_err[0]) && !sh->allowed_bad++) {
				sh->bad_ret = o.ret;
				sh->bad_err = o.err;
			}
		}
		sh->allowed_done = count;
		sh->stage = ST_CALL;
		record(&sh->call[1], nr, a_deny);	/* may not return */
		sh->stage = ST_CALL + 10;		/* past the deny call */
		record(&sh->call[2], nr, a_allow);
		sh->stage = ST_CALL + 20;
		record(&sh->call[3], nr, a_deny);
		sh->stage = ST_DONE + 20;
		_exit(0);
	}
	status = reap(pid);
	if (sh->install_errno)
		die("installing the filter failed in the child: %s",
		    strerror(sh->install_errno));
	if (sh->stage < ST_CALL || sh->allowed_done != count || sh->allowed_bad) {
		printf("NOT PROVEN: nr=%ld arg=%lu: %llu of %llu calls not allowed "
		       "(first: ret=%ld errno=%d; unfiltered ret=%ld errno=%d), child status 0x%x\n",
		       nr, a_allow, sh->allowed_bad + (count - sh->allowed_done), count,
		       sh->bad_ret, sh->bad_err, sh->base_ret[0], sh->base_err[0], status);
		return 1;
	}
	/* Outcome of the first call with ARG_DENY, after COUNT allowed calls. */
	if (sh->trapped && sh->trap_stage == ST_CALL) {
		deny = "TRAPPED";
	} else if (sh->stage == ST_CALL && WIFSIGNALED(status) &&
		   WTERMSIG(status) == SIGSYS) {
		snprintf(what, sizeof(what), "KILLED sig=%d", WTERMSIG(status));
		deny = what;
	} else if (sh->call[1].done && !same(&sh->call[1], sh->base_ret[1], sh->base_err[1]) &&
		   sh->call[1].ret == -1) {
		snprintf(what, sizeof(what), "ERRNO %d", sh->call[1].err);
		deny = what;
	} else {
		printf("NOT PROVEN: nr=%ld arg=%lu was not denied after %llu allowed calls "
		       "(ret=%ld errno=%d, unfiltered ret=%ld errno=%d, child status 0x%x)\n",
		       nr, a_deny, count, sh->call[1].ret, sh->call[1].err,
		       sh->base_ret[1], sh->base_err[1], status);
		return 1;
	}
	/* If the child survived the denial, the verdicts must flip back and forth. */
	if (sh->call[1].done && !sh->trapped) {
		if (!sh->call[2].done || !same(&sh->call[2], sh->base_ret[0], sh->base_err[0]) ||
		    !sh->call[3].done || same(&sh->call[3], sh->base_ret[1], sh->base_err[1])) {
			printf("NOT PROVEN: nr=%ld: verdicts did not alternate allow/deny/allow/deny\n",
			       nr);
			return 1;
		}
	}
	printf("PROVEN filter=%s nr=%ld: %llu calls with a0=%lu ALLOWed, then a0=%lu -> %s: "
	       "the verdict for nr %ld is computed per call, not cached\n",
	       filter_name(path), nr, count, a_allow, a_deny, deny, nr);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: seccomp-bench FILTER.bpf|none NR ARG COUNT\n"
		"       seccomp-bench --verdict FILTER.bpf NR ARG\n"
		"       seccomp-bench --prove-uncached FILTER.bpf NR ARG_ALLOW ARG_DENY COUNT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--verdict"))
		return verdict(argv[2], (long)num(argv[3]), num(argv[4]));
	if (argc == 7 && !strcmp(argv[1], "--prove-uncached"))
		return prove_uncached(argv[2], (long)num(argv[3]), num(argv[4]),
				      num(argv[5]), num(argv[6]));
	if (argc == 5 && argv[1][0] != '-')
		return bench(argv[1], (long)num(argv[2]), num(argv[3]), num(argv[4]));
	usage();
	return 2;
}
