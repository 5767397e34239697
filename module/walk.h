/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot path's internal interface: the per-CPU shadow walk (walk.c) that
 * shadow.c runs under the rq lock, in steps of bounded cost, and
 * publishes; and the lookup of a rq's per-CPU state shared by the probes
 * and the trace feed.
 */
#ifndef SHADOW_WALK_H
#define SHADOW_WALK_H

#include "kstruct.h"
#include "shadow.h"
#include "core/pelt_math.h"

/*
 * The bound on walk work per hook call: a step stops once SHADOW_STEP_NS
 * of local_clock() time has passed since it began (checked every few
 * tasks), then the walk continues at a later hook call of the same CPU.
 * Under the bench's icount clock one ns is one guest instruction: with the
 * per-event part (at most SHADOW_SCAN_CAP waiters), the last check's
 * overshoot and the publication, no hook call exceeds ~20,000
 * instructions whatever the queue (docs/performance.md); on hardware the
 * step is ~12 us with cold caches and less with warm ones.
 */
#define SHADOW_STEP_NS		12000
#define SHADOW_STEP_CHECK_TASKS	4	/* tasks between two clock reads */
#define SHADOW_STEP_CHECK_SUMS	8	/* cfs_rqs between two clock reads */
/*
 * Work a step does before it looks at the clock (a task, a cfs_rq added or
 * summed: one unit each, ~100-250 instructions): progress on a slow clock
 * (an emulator's guest time runs far ahead of its instructions), within
 * the same bound on a fast one.
 */
#define SHADOW_STEP_MIN_UNITS	48
/*
 * A walk's first step begins with the copy of the queued tasks' entities
 * (shadow_walk_begin(): a few instructions per task): that many tasks
 * count as one unit of the floor above, so a long copy is followed by the
 * clock check instead of 48 more units (1,000 tasks in one cgroup: 21,290
 * instructions in one call with the floor after the copy).
 */
#define SHADOW_STEP_COPY_PER_UNIT	16
/*
 * The snapshot is one atomic copy of the queued tasks (a few instructions
 * each): walk_budget's ceiling keeps it well inside one step.
 */
#define SHADOW_SNAP_MAX		1536

/* One queued cfs_rq found by a walk. */
struct shadow_wcfs {
	struct cfs_rq *cfs;
	struct sched_entity *gse;	/* the group entity owning cfs, NULL at root */
	u64 acc_fp;			/* shadow of the child groups summed so far */
	u64 acc_avg_fp;
	u64 acc_fresh_fp;
	u64 task_load;			/* load_avg of the tasks queued here */
	u64 task_fresh;			/* the same, projected to the walk's PELT clock */
	u64 load_avg;			/* this cfs_rq's avg.load_avg, read once */
	u64 h_load;			/* as update_cfs_rq_h_load() computes it */
	u32 nr_tasks;
	u32 h_tasks;
	u16 parent;			/* index of the parent's entry, always smaller */
	u16 depth;
	s16 node;			/* index in sc->work[], -1 when not recorded */
};

enum shadow_walk_result {
	SHADOW_WALK_OK,			/* done: the scalars filled, the nodes written */
	SHADOW_WALK_MORE,		/* continues at a later hook call */
	SHADOW_WALK_INCONSISTENT,	/* a level's tasks found != its h_nr_running */
	SHADOW_WALK_OVER_BUDGET,
};

/* What a walk summed: shadow_walk_fill() makes the root values of it. */
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

/**
 * shadow_walk_begin() - start a walk: snapshot the queued tasks of @rq
 * @sc: @rq's per-CPU state
 * @rq: the run queue, its lock held by the caller
 * @ops: sc->ops now (the snapshot is valid while it stays so)
 * @epoch: shadow_epoch now
 * @safe: called where no enqueue or dequeue is half done (see shadow_walk_event())
 *
 * One atomic pass over rq->cfs_tasks, at most sc->walk.cap_se entries
 * (SHADOW_COST_SNAP each).  Return: false when the queue holds more tasks
 * than the snapshot can (the walk is over budget).
 */
bool shadow_walk_begin(struct shadow_cpu *sc, struct rq *rq, u32 ops, u32 epoch, bool safe);

/**
 * shadow_walk_event() - an enqueue or dequeue while a walk is in progress
 * @sc:     @rq's per-CPU state, a walk in progress
 * @rq:     the run queue, its lock held (end of the enqueue or dequeue)
 * @change: sched_update_nr_running_tp's count change
 *
 * One CFS task enqueued while the walk is still summing tasks: it is the
 * head of rq->cfs_tasks, appended to the snapshot (O(1)).  An RT or DL
 * task (the root's h_nr_running did not move): nothing to do.  Anything
 * else (a dequeue: which task left is not known in O(1)), or a snapshot
 * taken inside an enqueue or dequeue: the walk is no longer valid.
 * Return: true if the snapshot still describes the queue.
 */
bool shadow_walk_event(struct shadow_cpu *sc, struct rq *rq, int change);

/**
 * shadow_walk_continue() - run one step of the walk in progress
 * @sc:       @rq's per-CPU state, a walk in progress
 * @rq:       the run queue, its lock held by the caller
 * @deadline: local_clock() time the step should end by (it does at least
 *            one task or cfs_rq, so every step makes progress)
 * @out:      root values (filled on SHADOW_WALK_OK)
 *
 * The caller has checked that the snapshot is still valid (ops, epoch).
 * On any result but SHADOW_WALK_MORE the walk is no longer in progress.
 * Both run-queue layouts: every queued task's parent chain is climbed to
 * the root, so the queued cfs_rqs are found the same way whether they sit
 * in per-cfs_rq trees (before 7.3) or only in accounting (7.3+).
 */
enum shadow_walk_result shadow_walk_continue(struct shadow_cpu *sc, struct rq *rq, u64 deadline,
					     struct shadow_scalars *out);

/*
 * May the walk in progress continue at a later hook call?  It was started
 * from a snapshot that enqueues, dequeues and switches into a delayed
 * sleeper keep valid or void (shadow_cpu.ops); on kernels with delayed
 * dequeue a sleeper waking up again changes no count the hooks see,
 * except h_nr_runnable where BTF has it (6.14+): without it a walk must
 * end in the hook call that started it.
 */
static inline bool shadow_walk_still_valid(const struct shadow_cpu *sc, struct rq *rq)
{
#if HAS_KS_sched_entity__sched_delayed
	return ks_cfs_rq_h_nr_runnable(ks_rq_cfs(rq)) >= 0 &&
	       (u32)ks_cfs_rq_h_nr_runnable(ks_rq_cfs(rq)) == sc->walk.runnable;
#else
	return true;
#endif
}

static inline bool shadow_walk_active(const struct shadow_cpu *sc)
{
	return sc->walk.phase != SHADOW_WALK_IDLE;
}

static inline void shadow_walk_abort(struct shadow_cpu *sc)
{
	sc->walk.phase = SHADOW_WALK_IDLE;
}

/* The walk's work area, sized from walk_budget; shadow.c allocates one per CPU. */
int shadow_walk_alloc(struct shadow_walk *w, unsigned int budget, int node);
void shadow_walk_free(struct shadow_walk *w);
size_t shadow_walk_bytes(unsigned int budget);

/* "hierarchical" or "flat": the run-queue layout BTF shows (informative). */
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
	return READ_ONCE(shadow_cpus[cpu]);
}

#endif
