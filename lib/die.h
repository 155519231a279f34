/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The messages of the small tools: die() prints "PROG: MESSAGE" on stderr
 * and exits 2.  PROG is die_prog, which each program that links lib/die.c
 * defines (const char die_prog[] = "bpfdiff";).
 */
#ifndef LIB_DIE_H
#define LIB_DIE_H

#include <stdarg.h>

extern const char die_prog[];

void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* Print "@who: @what: MESSAGE" (no "@what: " if NULL) on stderr. */
void vreport(const char *who, const char *what, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
