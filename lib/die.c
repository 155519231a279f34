// SPDX-License-Identifier: GPL-2.0
/* The small tools' messages (die.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "die.h"

void vreport(const char *who, const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", who);
	if (what)
		fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(die_prog, NULL, fmt, ap);
	va_end(ap);
	exit(2);
}
