/* SPDX-License-Identifier: GPL-2.0 */
/* The shadow walk on the 7.3+ single run queue (walk_flat.c). */
#ifndef SHADOW_WALK_FLAT_H
#define SHADOW_WALK_FLAT_H

#include "walk.h"

struct shadow_flat;

/*
 * shadow_walk_flat() - shadow_walk_tree() for the single run queue: same
 * arguments, same result, same nodes, rebuilt from each queued task's
 * se->parent chain.
 */
enum shadow_walk_result shadow_walk_flat(struct shadow_cpu *sc, struct rq *rq,
					 struct shadow_scalars *out, unsigned int *nvisited);

/* its per-CPU work area (shadow.c allocates one per CPU on the flat layout) */
struct shadow_flat *shadow_flat_alloc(int node);
void shadow_flat_free(struct shadow_flat *fl);

#endif
