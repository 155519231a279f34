// SPDX-License-Identifier: GPL-2.0
/*
 * knob - write one value to a debugfs knob in a single write(2) and report
 * the errno by name, so guest scripts and tests can assert on it.
 *
 *   knob FILE VALUE     write VALUE (no trailing newline added)
 *   knob FILE -         write all of standard input in one write(2)
 *   knob FILE VALUE FILE VALUE...
 *                       the pairs in order, stopping at the first that
 *                       fails (one process for a whole cell: a fork is
 *                       expensive in a User-mode Linux or TCG guest)
 *
 * Exit status 0 on success; on failure prints "errno=NAME" on stdout
 * ("FILE: errno=NAME" when given more than one pair) and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	int err;
	const char *name;
} names[] = {
	{ EINVAL, "EINVAL" }, { E2BIG, "E2BIG" }, { ENOMEM, "ENOMEM" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTSUP, "ENOTSUP" },
	{ EBADE, "EBADE" }, { EPROTO, "EPROTO" }, { ERANGE, "ERANGE" },
	{ EBUSY, "EBUSY" }, { ENOENT, "ENOENT" }, { EACCES, "EACCES" },
	{ EPERM, "EPERM" }, { ENODATA, "ENODATA" }, { ETIME, "ETIME" },
	{ EFAULT, "EFAULT" }, { ENOSPC, "ENOSPC" }, { EAGAIN, "EAGAIN" },
	{ 524, "ENOTSUPP" },
};

static const char *errno_name(int err)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static char *read_all(size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	while (buf) {
		if (n == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger)
				break;
			buf = bigger;
		}
		r = read(0, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (r == 0) {
			*len = n;
			return buf;
		}
		n += (size_t)r;
	}
	perror("knob: reading stdin");
	exit(2);
}

/* write_knob: one VALUE ("-": standard input) to FILE in one write(2). */
static int write_knob(const char *file, const char *arg, const char *who)
{
	const char *val = arg;
	size_t len;
	ssize_t w;
	int fd;

	if (!strcmp(arg, "-"))
		val = read_all(&len);
	else
		len = strlen(val);
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		printf("%serrno=%s\n", who, errno_name(errno));
		return 1;
	}
	w = write(fd, val, len);
	if (w < 0) {
		printf("%serrno=%s\n", who, errno_name(errno));
		close(fd);
		return 1;
	}
	if ((size_t)w != len) {
		printf("%serrno=SHORT\n", who);
		close(fd);
		return 1;
	}
	return close(fd) ? 1 : 0;
}

int main(int argc, char **argv)
{
	char who[512] = "";
	int i;

	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: knob FILE VALUE|- [FILE VALUE]...\n");
		return 2;
	}
	for (i = 1; i < argc; i += 2) {
		/* more than one pair: a failure names its file */
		if (argc > 3)
			snprintf(who, sizeof(who), "%s: ", argv[i]);
		if (write_knob(argv[i], argv[i + 1], who))
			return 1;
	}
	return 0;
}
