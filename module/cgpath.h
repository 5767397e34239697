/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cgroup id -> escaped path for the trace events (cgpath.c): a cache
 * filled in process context, read lock-free from the probes.
 */
#ifndef SHADOW_CGPATH_H
#define SHADOW_CGPATH_H

#include <linux/types.h>

struct seq_file;

/* Marker of a cgroup id not in the cache (yet): the event never waits for it. */
#define SHADOW_CGPATH_UNRESOLVED	"(unresolved)"

const char *shadow_cgpath_lookup(u64 cgid);
void shadow_cgpath_want(void);
void shadow_cgpath_start(void);
void shadow_cgpath_stop(void);
void shadow_cgpath_info(struct seq_file *m);

#endif
