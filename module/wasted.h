/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wasted-core time, the wait split and their attribution to balancing
 * decisions (wasted.c, core/wasted_core.c).
 *
 * The hot path's part is here, inline: waiters.c appends each change of a
 * CPU's waiters (a key's count up or down, busy or idle, a snapshot after
 * a rescan) to the CPU's change log (core/wasted_feed.h) under its rq
 * lock.  Nothing runs while the feature is off (wasted_period_us=0): a
 * static key.
 */
#ifndef SHADOW_WASTED_H
#define SHADOW_WASTED_H

#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include <linux/bitops.h>
#include "core/work.h"
#include "core/wasted_core.h"
#include "core/wasted_feed.h"

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
 * enums), the tasks it moved, whether it kicked active balance, and when
 * it read the CPUs (its first search's judgment, shadow_wasted_clock()).
 * Lock-free; any context the kretprobe handler runs in.
 */
void shadow_wasted_attempt(int dst_cpu, const char *domain, int verdict, int reason,
			   int moved, bool kicked, u64 when);

/* The tracked process (debugfs wasted_track, `run`'s command): its tgid, 0 for none. */
extern pid_t shadow_wasted_tgid;
extern u32 shadow_wasted_track_gen;	/* bumped when it changes: the keys are made again */

/* The sampler's thread: its time on a CPU is not busy time, it is nobody's waiter. */
extern struct task_struct *shadow_wasted_thread;
extern atomic64_t shadow_wasted_idle_wakeups;	/* its wakeups of idle CPUs */

/* A reset or an `enable` write: the sampler looks now (process context). */
void shadow_wasted_wake(void);

/* --- hot path: each CPU's change log (waiters.c, under that CPU's rq lock) --- */

extern struct wasted_log **shadow_wasted_logs;

/*
 * CPUs idle now (bit set), as each CPU's switches to and from idle and its
 * snapshots say: the live view the wakeup probe (wakeup.c) reads, where
 * the replay's is the sampler's delayed one.  A CPU whose state was never
 * logged reads busy.  Kept only while the wakeup probe is registered
 * (shadow_wake_on, a static key: with the probe off the switch path has
 * no extra instruction); then one atomic bit operation per idle transition.
 */
extern unsigned long *shadow_wasted_idle;
DECLARE_STATIC_KEY_FALSE(shadow_wake_on);

static __always_inline void shadow_wasted_idle_set(int cpu, bool busy)
{
	if (!static_branch_unlikely(&shadow_wake_on))
		return;
	if (busy)
		clear_bit(cpu, shadow_wasted_idle);
	else
		set_bit(cpu, shadow_wasted_idle);
}

struct sched_domain;
/* The domain level of @sd as the audit names it (sd->name, else the flags); process or probe context. */
int shadow_wasted_sd_level(const struct sched_domain *sd);
/* Does @sd share the LLC (SD_SHARE_LLC, SD_SHARE_PKG_RESOURCES before 6.10)? */
bool shadow_wasted_sd_llc(const struct sched_domain *sd);
extern atomic_t shadow_wasted_asleep;		/* the sampler sleeps: a record wakes it */
void shadow_wasted_kick(void);

/*
 * The log's clock: CLOCK_MONOTONIC (NMI-safe fast accessor), one clock for
 * every CPU, the trace clock `mono` the oracle reads too.
 */
static __always_inline u64 shadow_wasted_clock(void)
{
	return ktime_get_mono_fast_ns();
}

/* The next record of @cpu's log (written in place, then committed). */
static __always_inline struct wasted_rec *shadow_wasted_rec_begin(int cpu, struct wasted_log **lg)
{
	*lg = shadow_wasted_logs[cpu];
	return &(*lg)->ent[(*lg)->head % WASTED_LOG];
}

static __always_inline void shadow_wasted_rec_commit(struct wasted_log *lg)
{
	smp_store_release(&lg->head, lg->head + 1);	/* the record before the count */
	if (unlikely(atomic_read(&shadow_wasted_asleep)))
		shadow_wasted_kick();
}

/* One change of @cpu: @n waiters of a key joined (WF_ADD) or left (WF_DEL). */
static __always_inline void shadow_wasted_rec(int cpu, u8 op, u64 cgid, u8 kind, u8 slot, u8 flags,
					      u32 n)
{
	struct wasted_log *lg;
	struct wasted_rec *r = shadow_wasted_rec_begin(cpu, &lg);

	r->stamp = shadow_wasted_clock();
	r->cgid = cgid;
	r->n = n;
	r->op = op;
	r->kind = kind;
	r->slot = slot;
	r->flags = flags;
	shadow_wasted_rec_commit(lg);
}

/* @cpu turned busy or idle. */
static __always_inline void shadow_wasted_state(int cpu, bool busy)
{
	shadow_wasted_idle_set(cpu, busy);
	shadow_wasted_rec(cpu, WF_STATE, 0, 0, 0, busy ? WF_BUSY : 0, 0);
}

/* A snapshot of @cpu begins (its waiters follow as WF_ADD records). */
static __always_inline void shadow_wasted_snap(int cpu, bool busy)
{
	WRITE_ONCE(shadow_wasted_logs[cpu]->want_snap, 0);
	if (static_branch_unlikely(&shadow_wake_on) && test_bit(cpu, shadow_wasted_idle) == busy)
		shadow_wasted_idle_set(cpu, busy);
	shadow_wasted_rec(cpu, WF_SNAP, 0, 0, 0, busy ? WF_BUSY : 0, 0);
}

/* Did the sampler lose @cpu's records (it asks for a snapshot)? */
static __always_inline bool shadow_wasted_want_snap(int cpu)
{
	return READ_ONCE(shadow_wasted_logs[cpu]->want_snap);
}

/* Mask slot @slot of @cpu holds the window of SHADOW_WORK_MASK_WORDS words from word @base. */
static __always_inline void shadow_wasted_mask(int cpu, int slot, u16 base, const u64 *bits)
{
	struct wasted_log *lg;
	struct wasted_rec *r = shadow_wasted_rec_begin(cpu, &lg);
	u64 t = shadow_wasted_clock();

	r->stamp = t;
	r->op = WF_MASK;
	r->slot = slot;
	r->n = base;
	r->cgid = bits[0];
	r->aux = bits[1];
	shadow_wasted_rec_commit(lg);
	r = shadow_wasted_rec_begin(cpu, &lg);
	r->stamp = t;
	r->op = WF_MASK2;
	r->slot = slot;
	r->cgid = bits[2];
	r->aux = bits[3];
	shadow_wasted_rec_commit(lg);
}

/*
 * The cpu controller's cgroup of @p, as `groups` names cgroups.  Under the
 * rq lock with interrupts off (an RCU read-side section: the css_set
 * cannot be freed under us), hence task_css_check(..., true).
 */
static __always_inline u64 shadow_wasted_cgid(struct task_struct *p)
{
	return cgroup_id(task_css_check(p, cpu_cgrp_id, true)->cgroup);
}

#endif
