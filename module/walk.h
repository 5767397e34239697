/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot path's internal interface: the per-CPU hierarchical walk
 * (walk.c) that shadow.c runs under the rq lock and publishes, and the
 * lookup of a rq's per-CPU state shared by the probes and the trace feed.
 */
#ifndef SHADOW_WALK_H
#define SHADOW_WALK_H

#include "kstruct.h"
#include "shadow.h"

/* One level of the walk's explicit stack (sc->frames[SHADOW_MAX_DEPTH]). */
struct shadow_frame {
	struct cfs_rq *cfs;
	struct sched_entity *gse;	/* group entity owning cfs, NULL at root */
	struct rb_node *next;		/* next rbtree node to visit */
	u64 acc_fp;			/* shadow of the children summed so far */
	u64 acc_avg_fp;
	u64 task_load;
	u32 nr_tasks;
	u32 h_tasks;
	int node;			/* index in work[], -1 when not recorded */
	bool curr_pending;		/* cfs_rq->curr not looked at yet */
};

enum shadow_walk_result {
	SHADOW_WALK_OK,
	SHADOW_WALK_INCONSISTENT,
	SHADOW_WALK_OVER_BUDGET,
};

/**
 * shadow_walk() - walk @rq's queued entities and compute the shadow
 * @sc:       @rq's per-CPU state (work area and frames)
 * @rq:       the run queue, its lock held by the caller
 * @out:      root values of the walk (filled on SHADOW_WALK_OK)
 * @nvisited: entities visited
 *
 * Fills sc->work[0..out->nr_nodes) on success.  Bounded by
 * shadow_walk_budget entities and SHADOW_MAX_DEPTH levels.
 */
enum shadow_walk_result shadow_walk(struct shadow_cpu *sc, struct rq *rq,
				    struct shadow_scalars *out, unsigned int *nvisited);

/*
 * The last published walk of @sc, for the holder of that CPU's rq lock
 * only (the writers are serialized by it; other readers use the latch).
 */
static inline const struct shadow_walked *shadow_walked_locked(const struct shadow_cpu *sc)
{
	return &sc->walked[READ_ONCE(sc->walk_seq.seqcount.sequence) & 1];
}

static inline struct shadow_cpu *shadow_cpu_of(struct rq *rq)
{
	int cpu = ks_rq_cpu(rq);

	if (unlikely((unsigned int)cpu >= nr_cpu_ids))
		return NULL;
	/* the generated layout must describe this rq: cheap and catches a bad build */
	if (unlikely(ks_cfs_rq_rq(ks_rq_cfs(rq)) != rq))
		return NULL;
	return shadow_cpus[cpu];
}

#endif
