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

/* One id -> path map per read (process context): want, resolve once, look up. */
struct shadow_cgmap;
struct shadow_cgmap *shadow_cgmap_alloc(unsigned int max);
bool shadow_cgmap_want(struct shadow_cgmap *m, u64 cgid);
int shadow_cgmap_resolve(struct shadow_cgmap *m);
const char *shadow_cgmap_path(struct shadow_cgmap *m, u64 cgid);
void shadow_cgmap_free(struct shadow_cgmap *m);

#endif
