// SPDX-License-Identifier: GPL-2.0
/*
 * The trace events' feed: formats sched_load_cfs_rq and sched_load_se
 * from the probes in shadow.c, only when the event is enabled.  This file
 * instantiates the module's trace events (CREATE_TRACE_POINTS).
 *
 * Contexts: pelt_cfs_tp fires under the rq lock; pelt_se_tp also fires
 * without it (migrate_task_rq_fair under p->pi_lock only, task_dead_fair,
 * the select paths, unregister_fair_sched_group from a kworker).  So
 * nothing here relies on the rq lock: published shadow values are read
 * through shadow_read_node() (seqcount, bounded), paths through the
 * lock-free cache in cgpath.c, entity fields with READ_ONCE.  Nothing
 * walks, nothing sleeps, no lock is taken; every tracepoint probe runs
 * with preemption disabled, which the path cache's RCU relies on.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/cgroup.h>
#include <linux/build_bug.h>

#include "walk.h"
#include "cgpath.h"
#include "trace_feed.h"

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

noinline void shadow_trace_cfs_rq(struct cfs_rq *cfs, struct rq *rq)
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

noinline void shadow_trace_se(struct sched_entity *se)
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

/* An event's first consumer asks for a path table (cgpath.c); it stays until unload. */
int shadow_trace_cfs_rq_reg(void)
{
	shadow_cgpath_want();
	return 0;
}

int shadow_trace_se_reg(void)
{
	shadow_cgpath_want();
	return shadow_se_event_reg();
}

void shadow_trace_se_unreg(void)
{
	shadow_se_event_unreg();
}
