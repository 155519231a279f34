// SPDX-License-Identifier: GPL-2.0
/* The numeric options of the simulations (opts.h). */
#include <stdio.h>
#include <unistd.h>

#include "opts.h"
#include "stats.h"

int opts_next(int argc, char **argv, const struct num_opt *nums, const char *flags)
{
	char optstring[128];
	const struct num_opt *o;
	size_t n = 0;
	int opt;

	for (o = nums; o->opt && n + 2 < sizeof(optstring); o++) {
		optstring[n++] = (char)o->opt;
		optstring[n++] = ':';
	}
	snprintf(optstring + n, sizeof(optstring) - n, "%s", flags);
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		for (o = nums; o->opt && o->opt != opt; o++)
			;
		if (!o->opt)
			return opt;
		if (stats_arg(optarg, o->min, o->max, o->v))
			return '?';
	}
	return -1;
}
