// SPDX-License-Identifier: GPL-2.0
/*
 * knob - write one value to a debugfs knob in a single write(2) and report
 * the errno by name, so guest scripts and tests can assert on it.
 *
 *   knob FILE VALUE     write VALUE (no trailing newline added)
 *   knob FILE -         write all of standard input in one write(2)
 *
 * Exit status 0 on success; on failure prints "errno=NAME" on stdout and
 * exits 1.
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

int main(int argc, char **argv)
{
	const char *val;
	size_t len;
	ssize_t w;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: knob FILE VALUE|-\n");
		return 2;
	}
	if (!strcmp(argv[2], "-")) {
		val = read_all(&len);
	} else {
		val = argv[2];
		len = strlen(val);
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("errno=%s\n", errno_name(errno));
		return 1;
	}
	w = write(fd, val, len);
	if (w < 0) {
		printf("errno=%s\n", errno_name(errno));
		return 1;
	}
	if ((size_t)w != len) {
		printf("errno=SHORT\n");
		return 1;
	}
	return close(fd) ? 1 : 0;
}
