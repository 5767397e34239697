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
#include "core/pelt_math.h"

/* One level of the walk's explicit stack (sc->frames[SHADOW_MAX_DEPTH]). */
struct shadow_frame {
	struct cfs_rq *cfs;
	struct sched_entity *gse;	/* group entity owning cfs, NULL at root */
	struct rb_node *next;		/* next rbtree node to visit */
	u64 acc_fp;			/* shadow of the children summed so far */
	u64 acc_avg_fp;
	u64 acc_fresh_fp;
	u64 task_load;
	u64 task_fresh;			/* the tasks' load_avg projected to pelt_now */
	u64 root_lut;			/* the root cfs_rq's avg.last_update_time */
	u64 pelt_now;			/* this cfs_rq's PELT clock at that instant */
	u64 load_avg;			/* this cfs_rq's avg.load_avg, read once */
	u64 h_load;			/* as update_cfs_rq_h_load() computes it */
	u64 task_h_load;		/* sum of task_h_load() of the tasks queued here */
	u32 nr_tasks;
	u32 h_tasks;
	int node;			/* index in work[], -1 when not recorded */
	bool curr_pending;		/* cfs_rq->curr not looked at yet */
};

/* What a walk summed, either layout; shadow_walk_fill() makes the root values of it. */
struct shadow_walk_sums {
	u64 shadow_fp;
	u64 shadow_avg_fp;
	u64 shadow_fresh_fp;
	u64 h_load;		/* sum of task_h_load() */
	u32 h_tasks;		/* tasks found, delayed ones included */
	u32 delayed;
	u32 nr_nodes;		/* recorded for `groups` (at most SHADOW_MAX_NODES) */
	u32 nr_cfs;		/* queued cfs_rqs found, root included */
	u32 visited;
};

enum shadow_walk_result {
	SHADOW_WALK_OK,
	SHADOW_WALK_INCONSISTENT,
	SHADOW_WALK_OVER_BUDGET,
};

/**
 * shadow_walk_tree() - walk @rq's queued entities and compute the shadow
 * @sc:       @rq's per-CPU state (work area and frames)
 * @rq:       the run queue, its lock held by the caller
 * @out:      root values of the walk (filled on SHADOW_WALK_OK)
 * @nvisited: entities visited
 *
 * The hierarchical layout (every kernel before 7.3): each cfs_rq's tree
 * holds its queued entities.  Fills sc->work[0..out->nr_nodes) on success.
 * Bounded by shadow_walk_budget entities and SHADOW_MAX_DEPTH levels.
 * walk_flat.h has the same walk for the single run queue.
 */
enum shadow_walk_result shadow_walk_tree(struct shadow_cpu *sc, struct rq *rq,
					 struct shadow_scalars *out, unsigned int *nvisited);

/* "hierarchical" or "flat": the run-queue layout the walk was built for (BTF). */
static inline const char *shadow_walk_layout(void)
{
	return KS_FLAT_RUNQUEUE ? "flat" : "hierarchical";
}

/*
 * The PELT clock of @cfs when the root cfs_rq last updated at @root_lut:
 * cfs_rq_clock_pelt() is rq_clock_pelt() minus the time the hierarchy spent
 * throttled, and the root is never throttled.
 */
static inline u64 shadow_cfs_pelt_now(const struct cfs_rq *cfs, u64 root_lut)
{
	return root_lut - ks_cfs_rq_throttled_pelt_time(cfs);
}

/*
 * A queued task's load_avg as the kernel would compute it at @now (its
 * cfs_rq's PELT clock): read-only, O(1), see core/pelt_math.h.
 */
static inline unsigned long shadow_task_fresh_load(const struct sched_entity *se, u64 now)
{
	struct shadow_pelt_load sa = {
		.last_update_time = READ_ONCE(se->avg.last_update_time),
		.load_sum = READ_ONCE(se->avg.load_sum),
		.period_contrib = READ_ONCE(se->avg.period_contrib),
		.load_avg = READ_ONCE(se->avg.load_avg),
	};

	return shadow_pelt_project_load(&sa, now, shadow_weight_down(READ_ONCE(se->load.weight)));
}

void shadow_walk_layout_bad(const char *why);
void shadow_walk_exit(void);
extern bool shadow_layout_bad;	/* set once a walk met a layout it does not understand */
void shadow_walk_fill(struct shadow_scalars *out, const struct shadow_walk_sums *w);

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
