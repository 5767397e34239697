// SPDX-License-Identifier: GPL-2.0
/*
 * The trace events' feed: formats sched_load_cfs_rq and sched_load_se
 * from the probes in shadow.c, only when the event is enabled.  This file
 * instantiates the module's trace events (CREATE_TRACE_POINTS).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/cgroup.h>

#include "walk.h"
#include "trace_feed.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static void shadow_cfs_rq_path(const struct cfs_rq *cfs, char *buf, size_t len)
{
	struct task_group *tg = ks_cfs_rq_tg(cfs);
	struct cgroup *cgrp = tg ? READ_ONCE(ks_tg_css(tg)->cgroup) : NULL;

	if (!cgrp || cgroup_path(cgrp, buf, len) < 0)
		strscpy(buf, "(autogroup)", len);
}

/* The last published shadow of the cfs_rq with id @cgid on @sc (caller holds the rq lock). */
static const struct shadow_node *shadow_find_node(struct shadow_cpu *sc, u64 cgid)
{
	const struct shadow_walked *wd = shadow_walked_locked(sc);
	u32 i;

	for (i = 0; i < wd->h.nr_nodes; i++)
		if (wd->nodes[i].cgid == cgid)
			return &wd->nodes[i];
	return NULL;
}

noinline void shadow_trace_cfs_rq(struct cfs_rq *cfs, struct rq *rq)
{
	struct shadow_cpu *sc = shadow_cpu_of(rq);
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);
	const struct shadow_node *n = sc ? shadow_find_node(sc, ks_cfs_rq_cgid(cfs)) : NULL;
	char path[SHADOW_TRACE_PATH_LEN];

	shadow_cfs_rq_path(cfs, path, sizeof(path));
	trace_sched_load_cfs_rq(ks_rq_cpu(rq), path, READ_ONCE(avg->load_avg),
				READ_ONCE(avg->runnable_avg), READ_ONCE(avg->util_avg),
				n ? shadow_fp_round(n->shadow_fp) : 0,
				n ? shadow_fp_round(n->shadow_avg_fp) : 0);
}

noinline void shadow_trace_se(struct sched_entity *se)
{
	struct cfs_rq *cfs = se->cfs_rq;
	struct rq *rq = ks_cfs_rq_rq(cfs);
	char path[SHADOW_TRACE_PATH_LEN];
	u64 shadow = READ_ONCE(se->avg.load_avg);

	shadow_cfs_rq_path(cfs, path, sizeof(path));
	if (se->my_q) {
		/* a group entity: its contribution to the parent, from the last walk */
		struct shadow_cpu *sc = shadow_cpu_of(rq);
		const struct shadow_node *n = sc ? shadow_find_node(sc, ks_cfs_rq_cgid(se->my_q)) : NULL;

		shadow = n ? shadow_fp_round(shadow_group_contrib(n->shadow_fp, n->se_weight,
								  n->cfs_weight)) : 0;
		trace_sched_load_se(ks_rq_cpu(rq), path, "(null)", -1, READ_ONCE(se->avg.load_avg),
				    READ_ONCE(se->avg.runnable_avg), READ_ONCE(se->avg.util_avg),
				    shadow);
	} else {
		struct task_struct *p = container_of(se, struct task_struct, se);

		trace_sched_load_se(ks_rq_cpu(rq), path, p->comm, task_pid_nr(p),
				    READ_ONCE(se->avg.load_avg), READ_ONCE(se->avg.runnable_avg),
				    READ_ONCE(se->avg.util_avg), shadow);
	}
}

