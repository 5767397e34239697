// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walk (hierarchical run queues): under a CPU's rq lock, walk
 * the root cfs_rq's queued entities (rbtree plus curr) down through group
 * entities and compute for every queued cfs_rq the shadow hierarchical
 * runnable sum (Tejun Heo's formula), its shadow_avg variant, shadow_fresh
 * (the same sum with every queued task's load_avg projected to its cfs_rq's
 * PELT clock, core/pelt_math.h), the sum of task_h_load(), the weights and
 * the tasks with work to give.  shadow.c decides when to walk and publishes
 * the result.  On the 7.3+ single run queue walk_flat.c does the same
 * (shadow.c picks one by the layout BTF shows).
 *
 * Hot-path rules: no allocation, no sleeping, no lock other than the rq
 * lock the caller holds, work bounded by shadow_walk_budget entities and
 * SHADOW_MAX_DEPTH levels, only the state of the CPU whose rq is locked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/rbtree.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>
#include <linux/irq_work.h>

#include "walk.h"

/*
 * A run queue layout the walk does not understand: every walk is
 * discarded (never a wrong number published) and one line says why.  The
 * rq lock is held and printk is not safe there (printk_deferred is not
 * exported), so the line is printed from an irq_work.
 */
bool shadow_layout_bad;
static const char *shadow_layout_why;
static atomic_t shadow_layout_warned = ATOMIC_INIT(0);

static void shadow_layout_warn_fn(struct irq_work *w)
{
	pr_warn("run queue layout (%s) not as expected: %s; walks discarded, shadow off\n",
		shadow_walk_layout(), READ_ONCE(shadow_layout_why));
}
static DEFINE_IRQ_WORK(shadow_layout_iw, shadow_layout_warn_fn);

/**
 * shadow_walk_layout_bad() - report a layout the walk does not understand
 * @why: what the walk found (a string constant)
 *
 * Safe under the rq lock; logs once per load.
 */
void shadow_walk_layout_bad(const char *why)
{
	WRITE_ONCE(shadow_layout_bad, true);
	if (atomic_cmpxchg(&shadow_layout_warned, 0, 1) == 0) {
		WRITE_ONCE(shadow_layout_why, why);
		irq_work_queue(&shadow_layout_iw);
	}
}

/** shadow_walk_exit() - wait for the layout warning (probes must be off) */
void shadow_walk_exit(void)
{
	irq_work_sync(&shadow_layout_iw);
}

static void shadow_frame_init(struct shadow_cpu *sc, struct shadow_frame *f,
			      struct shadow_frame *parent, struct cfs_rq *cfs,
			      struct sched_entity *gse, u32 depth, u32 *nr_nodes)
{
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);

	f->cfs = cfs;
	f->gse = gse;
	f->next = rb_first_cached(ks_cfs_rq_timeline(cfs));
	f->curr_pending = true;
	f->acc_fp = 0;
	f->acc_avg_fp = 0;
	f->acc_fresh_fp = 0;
	f->task_load = 0;
	f->task_fresh = 0;
	f->task_h_load = 0;
	f->nr_tasks = 0;
	f->h_tasks = 0;
	f->node = -1;
	f->load_avg = READ_ONCE(avg->load_avg);
	if (parent) {
		/* update_cfs_rq_h_load(): parent h_load * gse load_avg / (parent load_avg + 1) */
		f->h_load = shadow_h_load_scale(parent->h_load, READ_ONCE(gse->avg.load_avg),
						parent->load_avg);
		f->root_lut = parent->root_lut;
	} else {
		f->h_load = f->load_avg;	/* the root's h_load is its load_avg */
		f->root_lut = READ_ONCE(avg->last_update_time);
	}
	f->pelt_now = shadow_cfs_pelt_now(cfs, f->root_lut);
	if (*nr_nodes < SHADOW_MAX_NODES) {
		struct shadow_node *n = &sc->work[*nr_nodes];

		f->node = (*nr_nodes)++;
		n->cgid = ks_cfs_rq_cgid(cfs);
		n->depth = depth;
		n->se_weight = gse ? shadow_weight_down(gse->load.weight) : 0;
		n->cfs_weight = shadow_weight_down(ks_cfs_rq_load(cfs)->weight);
		n->load_avg = f->load_avg;
		n->runnable_avg = READ_ONCE(avg->runnable_avg);
		n->util_avg = READ_ONCE(avg->util_avg);
		n->h_load = f->h_load;
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

/**
 * shadow_walk_fill() - the root values of a consistent walk, either layout
 * @out:     the scalars to fill
 * @w:       what the walk summed
 */
void shadow_walk_fill(struct shadow_scalars *out, const struct shadow_walk_sums *w)
{
	/* the counts and the work to give come from waiters.c, on every event */
	out->shadow_fp = w->shadow_fp;
	out->shadow_avg_fp = w->shadow_avg_fp;
	out->shadow_fresh_fp = w->shadow_fresh_fp;
	out->h_load = w->h_load;
	out->h_nr_running = w->h_tasks - w->delayed;
	out->nr_nodes = w->nr_nodes;
	out->truncated = w->nr_cfs > w->nr_nodes;
}

enum shadow_walk_result shadow_walk_tree(struct shadow_cpu *sc, struct rq *rq,
					 struct shadow_scalars *out, unsigned int *nvisited)
{
	struct shadow_frame *fr = sc->frames;
	unsigned int budget = READ_ONCE(shadow_walk_budget), visited = 0;
	struct shadow_walk_sums sums = { 0 };
	u32 nr_nodes = 0, nr_cfs = 1;
	int d = 0;

	shadow_frame_init(sc, &fr[0], NULL, ks_rq_cfs(rq), NULL, 0, &nr_nodes);
	for (;;) {
		struct shadow_frame *f = &fr[d], *parent;
		struct sched_entity *se = shadow_frame_next(f);
		u64 w, cw;

		if (se) {
			if (++visited > budget) {
				*nvisited = visited;
				return SHADOW_WALK_OVER_BUDGET;
			}
			/*
			 * An entity in this tree accounted elsewhere: not the
			 * hierarchical layout this walk was built for.
			 */
			if (unlikely(se->cfs_rq != f->cfs)) {
				shadow_walk_layout_bad("an entity in a tree it is not accounted to");
				*nvisited = visited;
				return SHADOW_WALK_INCONSISTENT;
			}
			if (!se->my_q) {
				u64 load;

				f->nr_tasks++;
				/* asleep, only still queued (6.12+ delayed dequeue) */
				if (ks_se_delayed(se)) {
					sums.delayed++;
					continue;
				}
				load = READ_ONCE(se->avg.load_avg);
				f->task_load += load;
				f->task_fresh += shadow_task_fresh_load(se, f->pelt_now);
				/* task_h_load(): se load_avg * cfs_rq h_load / (cfs_rq load_avg + 1) */
				f->task_h_load += shadow_h_load_scale(f->h_load, load, f->load_avg);
				continue;
			}
			if (d + 1 >= SHADOW_MAX_DEPTH) {
				*nvisited = visited;
				return SHADOW_WALK_OVER_BUDGET;
			}
			d++;
			nr_cfs++;
			shadow_frame_init(sc, &fr[d], f, se->my_q, se, d, &nr_nodes);
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
		f->acc_fresh_fp = shadow_fp_add(f->acc_fresh_fp, shadow_to_fp(f->task_fresh));
		sums.h_load += f->task_h_load;
		if (f->node >= 0) {
			struct shadow_node *n = &sc->work[f->node];

			n->shadow_fp = f->acc_fp;
			n->shadow_avg_fp = f->acc_avg_fp;
			n->shadow_fresh_fp = f->acc_fresh_fp;
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
			shadow_group_contrib(shadow_to_fp(f->load_avg), w, cw));
		parent->acc_fresh_fp = shadow_fp_add(parent->acc_fresh_fp,
						     shadow_group_contrib(f->acc_fresh_fp, w, cw));
		parent->h_tasks += f->h_tasks;
		d--;
	}

	sums.shadow_fp = fr[0].acc_fp;
	sums.shadow_avg_fp = fr[0].acc_avg_fp;
	sums.shadow_fresh_fp = fr[0].acc_fresh_fp;
	sums.h_tasks = fr[0].h_tasks;
	sums.nr_nodes = nr_nodes;
	sums.nr_cfs = nr_cfs;
	sums.visited = visited;
	shadow_walk_fill(out, &sums);
	*nvisited = visited;
	return SHADOW_WALK_OK;
}
