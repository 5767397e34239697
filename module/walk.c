// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walk (hierarchical run queues): under a CPU's rq lock, walk
 * the root cfs_rq's queued entities (rbtree plus curr) down through group
 * entities and compute for every queued cfs_rq the shadow hierarchical
 * runnable sum (Tejun Heo's formula), its shadow_avg variant and the
 * weights.  shadow.c decides when to walk and publishes the result; the
 * per-event counts and work to give are waiters.c's.
 *
 * Hot-path rules: no allocation, no sleeping, no lock other than the rq
 * lock the caller holds, work bounded by shadow_walk_budget entities and
 * SHADOW_MAX_DEPTH levels, only the state of the CPU whose rq is locked.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/rbtree.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>

#include "walk.h"



static void shadow_frame_init(struct shadow_cpu *sc, struct shadow_frame *f,
			      struct cfs_rq *cfs, struct sched_entity *gse,
			      u32 depth, u32 *nr_nodes)
{
	f->cfs = cfs;
	f->gse = gse;
	f->next = rb_first_cached(ks_cfs_rq_timeline(cfs));
	f->curr_pending = true;
	f->acc_fp = 0;
	f->acc_avg_fp = 0;
	f->task_load = 0;
	f->nr_tasks = 0;
	f->h_tasks = 0;
	f->node = -1;
	if (*nr_nodes < SHADOW_MAX_NODES) {
		struct shadow_node *n = &sc->work[*nr_nodes];
		const struct sched_avg *avg = ks_cfs_rq_avg(cfs);

		f->node = (*nr_nodes)++;
		n->cgid = ks_cfs_rq_cgid(cfs);
		n->depth = depth;
		n->se_weight = gse ? shadow_weight_down(gse->load.weight) : 0;
		n->cfs_weight = shadow_weight_down(ks_cfs_rq_load(cfs)->weight);
		n->load_avg = READ_ONCE(avg->load_avg);
		n->runnable_avg = READ_ONCE(avg->runnable_avg);
		n->util_avg = READ_ONCE(avg->util_avg);
	}
}

/* The next queued entity of a cfs_rq: curr first (it is not in the tree), then the tree. */
static struct sched_entity *shadow_frame_next(struct shadow_frame *f)
{
	struct sched_entity *curr = ks_cfs_rq_curr(f->cfs);

	if (f->curr_pending) {
		f->curr_pending = false;
		if (curr && curr->on_rq)
			return curr;
	}
	while (f->next) {
		struct sched_entity *se = rb_entry(f->next, struct sched_entity, run_node);

		f->next = rb_next(f->next);
		if (se != curr)
			return se;
	}
	return NULL;
}

enum shadow_walk_result shadow_walk(struct shadow_cpu *sc, struct rq *rq,
					   struct shadow_scalars *out, unsigned int *nvisited)
{
	struct shadow_frame *fr = sc->frames;
	unsigned int budget = READ_ONCE(shadow_walk_budget), visited = 0;
	u32 nr_nodes = 0, delayed = 0;
	int d = 0;

	shadow_frame_init(sc, &fr[0], ks_rq_cfs(rq), NULL, 0, &nr_nodes);
	for (;;) {
		struct shadow_frame *f = &fr[d], *parent;
		struct sched_entity *se = shadow_frame_next(f);
		u64 w, cw;

		if (se) {
			if (++visited > budget) {
				*nvisited = visited;
				return SHADOW_WALK_OVER_BUDGET;
			}
			if (!se->my_q) {
				f->nr_tasks++;
				/* asleep, only still queued (6.12+ delayed dequeue) */
				if (ks_se_delayed(se)) {
					delayed++;
					continue;
				}
				f->task_load += READ_ONCE(se->avg.load_avg);
				continue;
			}
			if (d + 1 >= SHADOW_MAX_DEPTH) {
				*nvisited = visited;
				return SHADOW_WALK_OVER_BUDGET;
			}
			d++;
			shadow_frame_init(sc, &fr[d], se->my_q, se, d, &nr_nodes);
			continue;
		}

		/* f's cfs_rq is complete */
		f->h_tasks += f->nr_tasks;
		if (f->h_tasks != ks_cfs_rq_h_nr_running(f->cfs)) {
			*nvisited = visited;
			return SHADOW_WALK_INCONSISTENT;
		}
		f->acc_fp = shadow_fp_add(f->acc_fp, shadow_to_fp(f->task_load));
		f->acc_avg_fp = shadow_fp_add(f->acc_avg_fp, shadow_to_fp(f->task_load));
		if (f->node >= 0) {
			struct shadow_node *n = &sc->work[f->node];

			n->shadow_fp = f->acc_fp;
			n->shadow_avg_fp = f->acc_avg_fp;
			n->task_load = f->task_load;
			n->nr_tasks = f->nr_tasks;
			n->h_tasks = f->h_tasks;
		}
		if (!d)
			break;
		parent = &fr[d - 1];
		w = shadow_weight_down(f->gse->load.weight);
		cw = shadow_weight_down(ks_cfs_rq_load(f->cfs)->weight);
		parent->acc_fp = shadow_fp_add(parent->acc_fp,
					       shadow_group_contrib(f->acc_fp, w, cw));
		parent->acc_avg_fp = shadow_fp_add(parent->acc_avg_fp,
			shadow_group_contrib(shadow_to_fp(READ_ONCE(ks_cfs_rq_avg(f->cfs)->load_avg)),
					     w, cw));
		parent->h_tasks += f->h_tasks;
		d--;
	}

	out->shadow_fp = fr[0].acc_fp;
	out->shadow_avg_fp = fr[0].acc_avg_fp;
	out->h_load = 0;	/* placeholder: the walk branch computes it */
	/* the counts and the work to give come from waiters.c, on every event */
	out->h_nr_running = fr[0].h_tasks - delayed;
	out->nr_nodes = nr_nodes;
	out->truncated = nr_nodes == SHADOW_MAX_NODES && visited > nr_nodes;
	*nvisited = visited;
	return SHADOW_WALK_OK;
}

