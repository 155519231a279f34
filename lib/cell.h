/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/cell.h - a cell's id, the one way to build it on the host.
 *
 * The guest names each cell <tag>-<engine>-<filter>-<packet>-skbs<N>
 * (bench/guest/lib.sh, cell_prefix) and writes it as the id= of its result
 * line and the name of its perf files.  Runs made before result lines had
 * an id are read with the id rebuilt from the parts.
 */
#ifndef RESULTS_CELL_H
#define RESULTS_CELL_H

#include <stdio.h>

static inline void cell_id(char *buf, size_t n, const char *tag,
			   const char *engine, const char *filter,
			   const char *packet, const char *skbs)
{
	snprintf(buf, n, "%s-%s-%s-%s-skbs%s", tag, engine, filter, packet,
		 skbs);
}

#endif /* RESULTS_CELL_H */
