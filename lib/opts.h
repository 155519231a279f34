/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numeric options of the simulations (simboots, simcompare,
 * layoutcov): a table of option letters, each with its range and the
 * number it sets, read by one getopt(3) loop.
 */
#ifndef LIB_OPTS_H
#define LIB_OPTS_H

struct num_opt {
	int opt;		/* the letter: -OPT NUMBER; 0 ends a table */
	double min, max;	/* NUMBER's range */
	double *v;		/* what it sets */
};

/*
 * The next option of @argv: each of @nums (at most 60) takes a number in
 * its range into its *v (stats_arg) and is not returned; each letter of
 * @flags takes no argument and is returned, as getopt does.  -1 at the
 * end of the options; '?' for any other option, a missing argument or a
 * number out of its range.
 */
int opts_next(int argc, char **argv, const struct num_opt *nums, const char *flags);

#endif
