/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who waits on each CPU (waiters.c): the work summary the audit reads and
 * the waiter keys wasted-core time logs, kept up to date per event from
 * the task that came or went, rescanned from rq->cfs_tasks only when that
 * task is not known.
 */
#ifndef SHADOW_WAITERS_H
#define SHADOW_WAITERS_H

#include <linux/types.h>
#include "core/work.h"

/*
 * Queued CFS tasks a rescan looks at, from the tail of rq->cfs_tasks (the
 * least recently run, where detach_tasks() starts); the ones past it are
 * counted as waiters of unknown affinity (and cgroup).
 */
#define SHADOW_SCAN_CAP		8

/* Waiter keys kept per CPU; the last slot is the overflow key (cgroup and kind unknown). */
#define SHADOW_WKEYS		8

/* One key: this many waiters of one cgroup, kind and tracked flag (wasted-core time's). */
struct shadow_wkey {
	u64 cgid;		/* 0: unknown */
	u32 n;
	u8 kind;		/* enum wr_kind */
	u8 slot;		/* WR_RESTR: the summary's restricted entry */
	u8 trk;
};

/*
 * One CPU's waiters as its publisher keeps them (under its rq lock only).
 * A waiter is a queued CFS task that is not running, not a delayed-dequeue
 * sleeper, and not the one task that runs next (@pending_next).
 */
struct shadow_waiters {
	struct shadow_work work;	/* the summary (copied to the published state) */
	u32 gen;		/* bumped when work's masks or groups change */
	u32 qseen;		/* the root's runnable count this describes */
	u32 track_gen;		/* the tracked process the keys were made for */
	u8 valid;		/* a rescan was made since load or reset */
	u8 rescan;		/* the next hook call rescans (a change that named no task) */
	u8 pending_del;		/* a dequeue that named no task: sched_migrate_task may name it */
	u8 pending_next;	/* one queued task runs next and is not counted */
	u8 uncounted;		/* the task the sampler preempted: running, as far as waiting goes */
	u8 busy;		/* the change log's busy flag */
	u8 nkeys;
	struct shadow_wkey keys[SHADOW_WKEYS];
	/*
	 * The task the sampler's thread preempted (compared, never read
	 * through, unless found queued here): while the sampler runs it
	 * counts as running.  Cleared when it leaves the run queue.
	 */
	struct task_struct *before_sampler;
};

struct rq;
struct shadow_cpu;
struct shadow_evt;

#include <linux/sched.h>
#include <linux/sched/prio.h>

extern struct task_struct *shadow_wasted_thread;	/* wasted.c: the sampler */

/*
 * The common switch, inline in the probe: the task expected to run next
 * (its waiting already taken out) runs after one that went to sleep, and
 * the CPU stays busy.  Return: true when that is all (nothing to log or
 * publish); false: shadow_waiters_switch() looks.
 */
static __always_inline bool shadow_waiters_switch_fast(struct shadow_waiters *q,
							struct task_struct *prev,
							struct task_struct *next)
{
	if (!q->pending_next || !q->valid || q->rescan || q->pending_del ||
	    prev->prio < MAX_RT_PRIO || next->prio < MAX_RT_PRIO ||
	    is_idle_task(prev) || is_idle_task(next) || READ_ONCE(prev->on_rq) ||
	    next == shadow_wasted_thread || prev == shadow_wasted_thread)
		return false;
	q->pending_next = 0;
	return true;
}

/*
 * An enqueue or dequeue of @change tasks completed on @rq: bring @sc's
 * waiters up to date.  Return: false when they are not yet (a dequeue
 * sched_migrate_task will name): the caller leaves the last state published.
 */
bool shadow_waiters_event(struct shadow_cpu *sc, struct rq *rq, int change);

/*
 * @rq (locked, curr == @next) switched from @prev to @next.  Return: true
 * when the waiters changed (the caller publishes).
 */
bool shadow_waiters_switch(struct shadow_cpu *sc, struct rq *rq, struct task_struct *prev,
			   struct task_struct *next);

/* sched_migrate_task of queued @p from @sc's CPU (its rq lock held). Return: changed. */
bool shadow_waiters_migrate(struct shadow_cpu *sc, struct rq *rq, struct task_struct *p);

/* Copy the summary into the state about to be published. */
void shadow_waiters_publish(struct shadow_cpu *sc, struct rq *rq, struct shadow_evt *e);

/* Forget everything (reset, enable): the next hook call rescans. */
void shadow_waiters_invalidate(struct shadow_cpu *sc);

#endif
