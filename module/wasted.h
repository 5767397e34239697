/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wasted-core time, the wait split and their attribution to balancing
 * decisions (wasted.c, core/wasted_core.c).
 *
 * The hot path's part is here, inline: while waiters.c scans a CPU's
 * queued tasks under its rq lock it notes each waiter's cgroup id next to
 * the work summary (struct shadow_wasted_ids in struct shadow_evt), and
 * says when which task runs next decides which cgroups wait (then the
 * summary is refreshed at the switch, as for mixed affinities).  Nothing
 * runs while the feature is off (wasted_period_us=0): a static key.
 */
#ifndef SHADOW_WASTED_H
#define SHADOW_WASTED_H

#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include "core/work.h"
#include "core/wasted_core.h"

struct seq_file;
struct dentry;

DECLARE_STATIC_KEY_FALSE(shadow_wasted_on);

int shadow_wasted_init(void);
void shadow_wasted_exit(void);
void shadow_wasted_info(struct seq_file *m);
void shadow_wasted_debugfs_init(struct dentry *dir);

/*
 * The audit's attempt-return handler (audit.c), once per judged balancing
 * attempt: its destination, domain name, verdict and reason (audit_core's
 * enums), the tasks it moved and whether it kicked active balance.
 * Lock-free; any context the kretprobe handler runs in.
 */
void shadow_wasted_attempt(int dst_cpu, const char *domain, int verdict, int reason,
			   int moved, bool kicked);

/* The tracked process (debugfs wasted_track, `run`'s command): its tgid, 0 for none. */
extern pid_t shadow_wasted_tgid;

/* The sampler is stopped (every CPU was idle): start it from here. */
void shadow_wasted_kick(void);
extern atomic_t shadow_wasted_owner;

/* --- hot path (waiters.c, under the rq lock) --- */

/*
 * The cpu controller's cgroup of @p, as `groups` names cgroups.  Under the
 * rq lock with interrupts off (an RCU read-side section: the css_set
 * cannot be freed under us), hence task_css_check(..., true).
 */
static __always_inline u64 shadow_wasted_cgid(struct task_struct *p)
{
	return cgroup_id(task_css_check(p, cpu_cgrp_id, true)->cgroup);
}

/* Start a CPU's ids (with shadow_work_begin()); kicks a stopped sampler. */
static __always_inline void shadow_wasted_ids_begin(struct shadow_wasted_ids *ids)
{
	if (!static_branch_unlikely(&shadow_wasted_on))
		return;
	ids->valid = 1;
	ids->nr = 0;
	if (unlikely(atomic_read(&shadow_wasted_owner) == -1))	/* WASTED_STOPPED */
		shadow_wasted_kick();
}

/* The summary's counts before a waiter is noted: what changes names how it was noted. */
struct shadow_wasted_before {
	u32 any, pinned, unknown, nres, tg_any;
};

static __always_inline u32 shadow_wasted_tg_any(const struct shadow_work *w)
{
	u32 i, n = w->nr_tg < SHADOW_WORK_TGS ? w->nr_tg : SHADOW_WORK_TGS, t = 0;

	for (i = 0; i < n; i++)
		t += w->tg_any[i];
	return t;
}

static __always_inline struct shadow_wasted_before shadow_wasted_before(const struct shadow_work *w)
{
	struct shadow_wasted_before b = { 0 };

	if (static_branch_unlikely(&shadow_wasted_on)) {
		b.any = w->any;
		b.pinned = w->pinned;
		b.unknown = w->unknown;
		b.nres = w->nr_restricted;
		b.tg_any = shadow_wasted_tg_any(w);
	}
	return b;
}

/*
 * One waiter @p, just noted in the summary @w (@b: its counts before):
 * its cgroup id, and how the summary recorded it, from what changed (an
 * `any` of a bandwidth-limited group is an `any` here: wasted-core time
 * does not read other CPUs' throttle state).
 */
static __always_inline void shadow_wasted_ids_note(struct shadow_wasted_ids *ids,
						   const struct shadow_work *w,
						   const struct shadow_wasted_before *b,
						   struct task_struct *p)
{
	u8 k;

	if (!static_branch_unlikely(&shadow_wasted_on) || ids->nr >= WASTED_IDS_MAX)
		return;
	if (w->any != b->any)
		k = WASTED_W_ANY;
	else if (w->pinned != b->pinned)
		k = WASTED_W_PINNED;
	else if (w->nr_restricted != b->nres && b->nres < SHADOW_WORK_RESTRICTED)
		k = WASTED_W_R0 + b->nres;
	else if (w->unknown != b->unknown)
		k = WASTED_W_UNKNOWN;
	else if (shadow_wasted_tg_any(w) != b->tg_any)
		k = WASTED_W_ANY;
	else
		return;		/* not noted as a waiter (throttled): not waiting */
	if (unlikely(READ_ONCE(shadow_wasted_tgid)) && p->tgid == READ_ONCE(shadow_wasted_tgid))
		k |= WASTED_W_TRACKED;
	ids->kind[ids->nr] = k;
	ids->cgid[ids->nr] = shadow_wasted_cgid(p);
	ids->nr++;
}

/*
 * The end of a CPU's scan (waiters.c): append the CPU's waiting state to
 * its change log when it differs from the last entry.  Under @rq's lock.
 * Returns false (the switches to and from idle are logged by wasted.c's
 * own sched_switch probe).
 */
struct shadow_evt;
bool shadow_wasted_log(struct rq *rq, const struct shadow_evt *e);

bool shadow_wasted_ids_drop(struct shadow_wasted_ids *ids, u32 dany, u32 dpinned,
			    u32 dunknown, u32 dres, u32 nres_after, bool empty);

/*
 * shadow_work_drop_next() for a CPU whose current task leaves: also drop
 * the waiter that runs next from @ids.  Return: false when the summary
 * (or, now, which cgroups wait) depends on which task the kernel picks.
 */
static __always_inline bool shadow_wasted_drop_next(struct shadow_work *w,
						    struct shadow_wasted_ids *ids)
{
	struct shadow_wasted_before b = shadow_wasted_before(w);
	bool exact = shadow_work_drop_next(w);

	if (!static_branch_unlikely(&shadow_wasted_on))
		return exact;
	return shadow_wasted_ids_drop(ids, b.any - w->any + b.tg_any - shadow_wasted_tg_any(w),
				      b.pinned - w->pinned, b.unknown - w->unknown,
				      b.nres - w->nr_restricted, w->nr_restricted,
				      !shadow_work_total(w) && !w->pinned) && exact;
}

/*
 * The current task stays and waiters were noted: true when a preemption
 * would change which cgroups wait (a waiter of another cgroup than
 * @curr's, or waiters of several): refresh at the next switch.
 */
static __always_inline bool shadow_wasted_ids_mixed(const struct shadow_wasted_ids *ids,
						    struct task_struct *curr)
{
	pid_t tgid = READ_ONCE(shadow_wasted_tgid);
	bool trk;
	u64 c;
	u32 i;

	if (!static_branch_unlikely(&shadow_wasted_on) || !ids->nr)
		return false;
	c = shadow_wasted_cgid(curr);
	trk = tgid && curr->tgid == tgid;
	for (i = 0; i < ids->nr; i++)
		if (ids->cgid[i] != c || !!(ids->kind[i] & WASTED_W_TRACKED) != trk)
			return true;
	return false;
}

#endif
