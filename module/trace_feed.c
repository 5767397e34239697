// SPDX-License-Identifier: GPL-2.0
/*
 * The trace events' feed: sched_load_cfs_rq and sched_load_se, formatted by
 * probes of this file's own on pelt_cfs_tp and pelt_se_tp.  Each probe is
 * attached only while its event has a consumer (ftrace, perf, a BPF
 * program), so with both events off the feed costs the hot path nothing.
 * This file instantiates the module's trace events (CREATE_TRACE_POINTS).
 *
 * Contexts: pelt_cfs_tp fires under the rq lock; pelt_se_tp also fires
 * without it (migrate_task_rq_fair under p->pi_lock only, task_dead_fair,
 * the select paths, unregister_fair_sched_group from a kworker).  So
 * nothing here relies on the rq lock: published shadow values are read
 * through shadow_read_node() (seqcount, bounded), paths through the
 * lock-free cache in cgpath.c, entity fields with READ_ONCE.  Nothing
 * walks, nothing sleeps, no lock is taken; every tracepoint probe runs
 * with preemption disabled, which the path cache's RCU relies on.
 *
 * The probe on pelt_cfs_tp is attached after shadow.c's, so the tracepoint
 * calls it second: a root update's record carries the walk that update
 * has just published.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/cgroup.h>
#include <linux/build_bug.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "walk.h"
#include "cgpath.h"
#include "trace_feed.h"
#include "stats.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static_assert(SHADOW_TRACE_PATH_LEN == SHADOW_PATH_LEN);

/* The path of a cfs_rq's group for the events (never NULL, never blocks). */
static const char *shadow_trace_path(u64 cgid)
{
	const char *path;

	if (!cgid)	/* CONFIG_SCHED_AUTOGROUP: a task group without a cgroup */
		return "(autogroup)";
	path = shadow_cgpath_lookup(cgid);
	return path ? path : SHADOW_CGPATH_UNRESOLVED;
}

/* The published shadow of the cfs_rq @cgid on @rq's CPU, 0 if none can be read. */
static bool shadow_trace_node(struct rq *rq, u64 cgid, struct shadow_node *n)
{
	if (!rq || !shadow_cpu_of(rq))
		return false;
	return shadow_read_node(ks_rq_cpu(rq), cgid, n);
}

static void shadow_trace_cfs_rq(struct cfs_rq *cfs, struct rq *rq)
{
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);
	u64 cgid = ks_cfs_rq_cgid(cfs);
	struct shadow_node n;
	bool ok = shadow_trace_node(rq, cgid, &n);

	trace_sched_load_cfs_rq(ks_rq_cpu(rq), shadow_trace_path(cgid), cgid,
				READ_ONCE(avg->load_avg), READ_ONCE(avg->runnable_avg),
				READ_ONCE(avg->util_avg),
				ok ? shadow_fp_round(n.shadow_fp) : 0,
				ok ? shadow_fp_round(n.shadow_avg_fp) : 0);
}

static void shadow_trace_se(struct sched_entity *se)
{
	struct cfs_rq *cfs = READ_ONCE(se->cfs_rq);
	struct cfs_rq *my_q = READ_ONCE(se->my_q);
	struct rq *rq = cfs ? ks_cfs_rq_rq(cfs) : NULL;
	int cpu = rq ? ks_rq_cpu(rq) : -1;

	if (my_q) {
		/* a group entity: its own queue's path, its contribution from the last walk */
		u64 cgid = ks_cfs_rq_cgid(my_q);
		struct shadow_node n;
		u64 shadow = 0;

		if (shadow_trace_node(rq, cgid, &n))
			shadow = shadow_fp_round(shadow_group_contrib(n.shadow_fp, n.se_weight,
								      n.cfs_weight));
		trace_sched_load_se(cpu, shadow_trace_path(cgid), cgid, "(null)", -1,
				    READ_ONCE(se->avg.load_avg), READ_ONCE(se->avg.runnable_avg),
				    READ_ONCE(se->avg.util_avg), shadow);
	} else {
		struct task_struct *p = container_of(se, struct task_struct, se);

		/* a task: no queue of its own, Android's "(null)" */
		trace_sched_load_se(cpu, "(null)", 0, p->comm, task_pid_nr(p),
				    READ_ONCE(se->avg.load_avg), READ_ONCE(se->avg.runnable_avg),
				    READ_ONCE(se->avg.util_avg), READ_ONCE(se->avg.load_avg));
	}
}

/* ---- the probes ---- */

static void shadow_probe_trace_cfs(void *data, struct cfs_rq *cfs)
{
	u64 t0;

	if (!static_branch_likely(&shadow_enabled) || !trace_sched_load_cfs_rq_enabled())
		return;
	t0 = shadow_stat_begin(SS_TRACE_CFS);
	shadow_trace_cfs_rq(cfs, ks_cfs_rq_rq(cfs));
	shadow_stat_end(SS_TRACE_CFS, t0);
}

static void shadow_probe_trace_se(void *data, struct sched_entity *se)
{
	u64 t0;

	if (!static_branch_likely(&shadow_enabled) || !trace_sched_load_se_enabled())
		return;
	t0 = shadow_stat_begin(SS_PELT_SE);
	shadow_trace_se(se);
	shadow_stat_end(SS_PELT_SE, t0);
}

static int shadow_reg_trace_cfs(void)
{
	return register_trace_pelt_cfs_tp(shadow_probe_trace_cfs, NULL);
}

static void shadow_unreg_trace_cfs(void)
{
	unregister_trace_pelt_cfs_tp(shadow_probe_trace_cfs, NULL);
}

static int shadow_reg_trace_se(void)
{
	return register_trace_pelt_se_tp(shadow_probe_trace_se, NULL);
}

static void shadow_unreg_trace_se(void)
{
	unregister_trace_pelt_se_tp(shadow_probe_trace_se, NULL);
}

/* ---- attached on demand ---- */

struct shadow_feed {
	const char *hook;	/* `info` key: hook.<hook> */
	const char *standby;	/* its state while its event has no consumer */
	const char *tp;		/* the kernel tracepoint (missing_tp= names it) */
	int (*reg)(void);
	void (*unreg)(void);
	bool want;		/* the event has a consumer */
	bool attached;
	int err;		/* the last attach error, 0 if none */
};

static struct shadow_feed shadow_feeds[] = {
	{ "pelt_se_tp", "standby:sched_load_se-off", "pelt_se_tp",
	  shadow_reg_trace_se, shadow_unreg_trace_se },
	{ "pelt_cfs_tp.trace", "standby:sched_load_cfs_rq-off", "pelt_cfs_tp",
	  shadow_reg_trace_cfs, shadow_unreg_trace_cfs },
};

#define SHADOW_FEED_SE	0
#define SHADOW_FEED_CFS	1

/*
 * The events' reg/unreg callbacks (trace.h) run with the tracepoint core's
 * mutex held, so they cannot attach a probe themselves: they record what
 * is wanted and queue shadow_feed_work, which attaches or detaches under
 * shadow_feed_lock.  `ready` is true between shadow_trace_feed_start() and
 * shadow_trace_feed_stop() only.  While an event has a consumer, it holds
 * a reference on this module, so no callback runs once exit has begun
 * other than one queued by the last consumer's unreg, which stop cancels.
 */
static bool shadow_feed_ready;
static DEFINE_MUTEX(shadow_feed_lock);

/* Attach or detach each probe as its event wants (shadow_feed_lock held). */
static void shadow_feed_sync(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(shadow_feeds); i++) {
		struct shadow_feed *f = &shadow_feeds[i];
		bool want = READ_ONCE(f->want) && shadow_feed_ready;

		if (want && !f->attached) {
			err = f->reg();
			f->err = err;
			if (err)
				pr_warn("cannot attach to tracepoint %s (%d): its trace event stays empty\n",
					f->tp, err);
			else
				f->attached = true;
		} else if (!want && f->attached) {
			f->unreg();
			f->attached = false;
		}
	}
}

static void shadow_feed_work_fn(struct work_struct *work)
{
	mutex_lock(&shadow_feed_lock);
	shadow_feed_sync();
	mutex_unlock(&shadow_feed_lock);
}
static DECLARE_WORK(shadow_feed_work, shadow_feed_work_fn);

static void shadow_feed_want(int i, bool want)
{
	WRITE_ONCE(shadow_feeds[i].want, want);
	if (READ_ONCE(shadow_feed_ready))
		schedule_work(&shadow_feed_work);
}

/* An event's first consumer also asks for a path table (cgpath.c); it stays until unload. */
int shadow_trace_cfs_rq_reg(void)
{
	shadow_cgpath_want();
	shadow_feed_want(SHADOW_FEED_CFS, true);
	return 0;
}

void shadow_trace_cfs_rq_unreg(void)
{
	shadow_feed_want(SHADOW_FEED_CFS, false);
}

int shadow_trace_se_reg(void)
{
	shadow_cgpath_want();
	shadow_feed_want(SHADOW_FEED_SE, true);
	return 0;
}

void shadow_trace_se_unreg(void)
{
	shadow_feed_want(SHADOW_FEED_SE, false);
}

/* True for a tracepoint name missing_tp= may give that this file attaches to. */
bool shadow_trace_feed_knows(const char *tp)
{
	return !strcmp(tp, "pelt_se_tp");
}

/**
 * shadow_trace_feed_start() - let the events attach their probes
 *
 * After shadow_probes_register(), so shadow.c's pelt_cfs_tp probe runs
 * first.  missing_tp=pelt_se_tp refuses the load here, as a kernel without
 * that tracepoint would (the module's documented requirement).
 * Return: 0 or -ENOENT.
 */
int shadow_trace_feed_start(void)
{
	if (shadow_missing_tp && shadow_trace_feed_knows(shadow_missing_tp)) {
		pr_err("not loading: cannot attach to tracepoint %s (%d)\n", shadow_missing_tp, -ENOENT);
		return -ENOENT;
	}
	mutex_lock(&shadow_feed_lock);
	shadow_feed_ready = true;
	shadow_feed_sync();	/* an event may have had a consumer already */
	mutex_unlock(&shadow_feed_lock);
	return 0;
}

/** shadow_trace_feed_stop() - detach the feed's probes; no work left queued */
void shadow_trace_feed_stop(void)
{
	mutex_lock(&shadow_feed_lock);
	WRITE_ONCE(shadow_feed_ready, false);
	shadow_feed_sync();	/* detaches all: nothing is wanted once not ready */
	mutex_unlock(&shadow_feed_lock);
	cancel_work_sync(&shadow_feed_work);
	tracepoint_synchronize_unregister();
}

/* `info`: hook.pelt_se_tp and hook.pelt_cfs_tp.trace, "active" or "standby:<event>-off". */
void shadow_trace_feed_info(struct seq_file *m)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(shadow_feeds); i++) {
		const struct shadow_feed *f = &shadow_feeds[i];

		if (READ_ONCE(f->attached))
			seq_printf(m, "hook.%s active\n", f->hook);
		else if (READ_ONCE(f->want) && f->err)
			seq_printf(m, "hook.%s inactive:register-failed\n", f->hook);
		else
			seq_printf(m, "hook.%s %s\n", f->hook, f->standby);
	}
}
