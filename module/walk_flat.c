// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walk on the single run queue (7.3+, "sched/eevdf: Move to a
 * single runqueue"; selected when the BTF has cfs_rq.h_curr).  There only
 * tasks sit in rq->cfs.tasks_timeline; group entities are accounted in
 * their parent cfs_rq (load, nr_queued, h_nr_queued, PELT) but placed in
 * no tree, and rq->cfs.curr is the picked task.  The hierarchy is rebuilt
 * by climbing se->parent from each queued task into a per-CPU table of the
 * queued cfs_rqs, then the same sums as walk.c are made bottom-up: the
 * shadow of every level (Tejun Heo's formula), shadow_avg, shadow_fresh,
 * task_h_load(), and each level's task count checked against its
 * h_nr_queued.  The nodes are those of walk.c (root first, every parent
 * before its children), so groups, cpus, the trace events and the audit
 * read them unchanged.
 *
 * Hot-path rules: no allocation (the table is allocated at load), no lock
 * but the rq lock the caller holds, no sleeping.  Bounded: every task and
 * every newly found level counts against shadow_walk_budget, a climb stops
 * at SHADOW_MAX_DEPTH levels and the table at SHADOW_FLAT_MAX_CFS queued
 * cfs_rqs (past either the walk is over budget); one hash lookup per task.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/rbtree.h>
#include <linux/hash.h>
#include <linux/slab.h>

#include "walk.h"
#include "walk_flat.h"

#define SHADOW_FLAT_MAX_CFS	128	/* distinct queued cfs_rqs one walk can hold */
#define SHADOW_FLAT_HASH_BITS	8	/* 256 slots: at most half full */
#define SHADOW_FLAT_NONE	0xffff

/* One queued cfs_rq of the walk. */
struct shadow_flat_ent {
	struct cfs_rq *cfs;
	struct sched_entity *gse;	/* the group entity owning cfs, NULL at root */
	u64 acc_fp;			/* shadow of the child groups summed so far */
	u64 acc_avg_fp;
	u64 acc_fresh_fp;
	u64 task_load;
	u64 task_fresh;
	u64 pelt_now;
	u64 load_avg;
	u64 h_load;
	u32 nr_tasks;
	u32 h_tasks;
	u16 parent;			/* index of the parent's entry, always smaller */
	u16 depth;
	s16 node;			/* index in sc->work[], -1 when not recorded */
};

/* Per-CPU work area, used under that CPU's rq lock only. */
struct shadow_flat {
	u32 gen;			/* slots of other generations are empty */
	u32 slot_gen[1 << SHADOW_FLAT_HASH_BITS];
	u16 slot_ent[1 << SHADOW_FLAT_HASH_BITS];
	struct shadow_flat_ent ent[SHADOW_FLAT_MAX_CFS];
};

/**
 * shadow_flat_alloc() - the work area of one CPU's flat walk
 * @node: NUMA node of the CPU
 *
 * Return: the area, or NULL on allocation failure.
 */
struct shadow_flat *shadow_flat_alloc(int node)
{
	return kzalloc_node(sizeof(struct shadow_flat), GFP_KERNEL, node);
}

/** shadow_flat_free() - free what shadow_flat_alloc() returned (NULL is fine) */
void shadow_flat_free(struct shadow_flat *fl)
{
	kfree(fl);
}

static int shadow_flat_find(const struct shadow_flat *fl, const struct cfs_rq *cfs)
{
	u32 h = hash_ptr(cfs, SHADOW_FLAT_HASH_BITS), i;

	for (i = 0; i < (1 << SHADOW_FLAT_HASH_BITS); i++, h = (h + 1) & ((1 << SHADOW_FLAT_HASH_BITS) - 1)) {
		if (fl->slot_gen[h] != fl->gen)
			return -1;
		if (fl->ent[fl->slot_ent[h]].cfs == cfs)
			return fl->slot_ent[h];
	}
	return -1;
}

/* The table is never more than half full, so a free slot exists. */
static void shadow_flat_insert(struct shadow_flat *fl, const struct cfs_rq *cfs, u16 idx)
{
	u32 h = hash_ptr(cfs, SHADOW_FLAT_HASH_BITS);

	while (fl->slot_gen[h] == fl->gen)
		h = (h + 1) & ((1 << SHADOW_FLAT_HASH_BITS) - 1);
	fl->slot_gen[h] = fl->gen;
	fl->slot_ent[h] = idx;
}

/* A new entry for @cfs under @parent (SHADOW_FLAT_NONE for the root). */
static u16 shadow_flat_add(struct shadow_cpu *sc, struct shadow_flat *fl, u32 *n, u32 *nr_nodes,
			   struct cfs_rq *cfs, struct sched_entity *gse, u16 parent, u64 root_lut)
{
	struct shadow_flat_ent *e = &fl->ent[*n];
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);

	memset(e, 0, sizeof(*e));
	e->cfs = cfs;
	e->gse = gse;
	e->parent = parent;
	e->load_avg = READ_ONCE(avg->load_avg);
	e->pelt_now = shadow_cfs_pelt_now(cfs, root_lut);
	if (parent == SHADOW_FLAT_NONE) {
		e->h_load = e->load_avg;
	} else {
		const struct shadow_flat_ent *p = &fl->ent[parent];

		e->depth = p->depth + 1;
		/* update_cfs_rq_h_load(), top-down: the parent entry is complete */
		e->h_load = shadow_h_load_scale(p->h_load, READ_ONCE(gse->avg.load_avg), p->load_avg);
	}
	e->node = -1;
	if (*nr_nodes < SHADOW_MAX_NODES) {
		struct shadow_node *nd = &sc->work[*nr_nodes];

		e->node = (*nr_nodes)++;
		nd->cgid = ks_cfs_rq_cgid(cfs);
		nd->depth = e->depth;
		nd->se_weight = gse ? shadow_weight_down(gse->load.weight) : 0;
		nd->cfs_weight = shadow_weight_down(ks_cfs_rq_load(cfs)->weight);
		nd->load_avg = e->load_avg;
		nd->runnable_avg = READ_ONCE(avg->runnable_avg);
		nd->util_avg = READ_ONCE(avg->util_avg);
		nd->h_load = e->h_load;
	}
	shadow_flat_insert(fl, cfs, *n);
	return (*n)++;
}

/**
 * shadow_walk_flat() - the shadow walk on the single run queue (7.3+)
 * @sc:       @rq's per-CPU state (work area, nodes)
 * @rq:       the run queue, its lock held by the caller
 * @out:      root values of the walk (filled on SHADOW_WALK_OK)
 * @nvisited: tasks visited plus levels added to the table
 *
 * Return: as shadow_walk_tree().
 */
enum shadow_walk_result shadow_walk_flat(struct shadow_cpu *sc, struct rq *rq,
					 struct shadow_scalars *out, unsigned int *nvisited)
{
	struct shadow_flat *fl = sc->flat;
	struct cfs_rq *root = ks_rq_cfs(rq);
	struct sched_entity *curr = ks_cfs_rq_curr(root), *se;
	struct cfs_rq *chain_cfs[SHADOW_MAX_DEPTH];
	struct sched_entity *chain_gse[SHADOW_MAX_DEPTH];
	unsigned int budget = READ_ONCE(shadow_walk_budget), visited = 0;
	struct shadow_walk_sums sums = { 0 };
	enum shadow_walk_result res = SHADOW_WALK_OK;
	struct rb_node *rb = rb_first_cached(ks_cfs_rq_timeline(root));
	bool curr_pending = true;
	u64 root_lut = READ_ONCE(ks_cfs_rq_avg(root)->last_update_time);
	u32 n = 0, nr_nodes = 0;
	int i;

	if (unlikely(!fl))
		return SHADOW_WALK_INCONSISTENT;
	if (unlikely(++fl->gen == 0)) {		/* every 2^32 walks: forget old slots */
		memset(fl->slot_gen, 0, sizeof(fl->slot_gen));
		fl->gen = 1;
	}
	shadow_flat_add(sc, fl, &n, &nr_nodes, root, NULL, SHADOW_FLAT_NONE, root_lut);

	for (;;) {
		struct shadow_flat_ent *e;
		struct cfs_rq *cfs;
		struct sched_entity *g;
		int idx, k = 0;
		u64 load;

		/* curr first (it is not in the tree), then the tree */
		se = NULL;
		if (curr_pending) {
			curr_pending = false;
			if (curr && curr->on_rq)
				se = curr;
		}
		while (!se && rb) {
			se = rb_entry(rb, struct sched_entity, run_node);
			rb = rb_next(rb);
			if (se == curr)
				se = NULL;
		}
		if (!se)
			break;
		if (++visited > budget) {
			res = SHADOW_WALK_OVER_BUDGET;
			goto out;
		}
		if (unlikely(se->my_q)) {
			shadow_walk_layout_bad("a group entity in the task tree");
			res = SHADOW_WALK_INCONSISTENT;
			goto out;
		}

		/* the task's cfs_rq, and the levels above it not seen yet */
		cfs = se->cfs_rq;
		g = se->parent;
		while ((idx = shadow_flat_find(fl, cfs)) < 0) {
			if (unlikely(!g || g->my_q != cfs)) {
				shadow_walk_layout_bad("a task's parent chain does not reach this rq's root");
				res = SHADOW_WALK_INCONSISTENT;
				goto out;
			}
			if (k >= SHADOW_MAX_DEPTH - 1 || ++visited > budget) {
				res = SHADOW_WALK_OVER_BUDGET;
				goto out;
			}
			chain_cfs[k] = cfs;
			chain_gse[k] = g;
			k++;
			cfs = g->cfs_rq;
			g = g->parent;
		}
		/* add them top-down: parents get smaller indices, h_load flows down */
		while (k--) {
			if (n >= SHADOW_FLAT_MAX_CFS || fl->ent[idx].depth + 1 >= SHADOW_MAX_DEPTH) {
				res = SHADOW_WALK_OVER_BUDGET;
				goto out;
			}
			idx = shadow_flat_add(sc, fl, &n, &nr_nodes, chain_cfs[k], chain_gse[k],
					      idx, root_lut);
		}

		e = &fl->ent[idx];
		e->nr_tasks++;
		/* asleep, only still queued (delayed dequeue) */
		if (ks_se_delayed(se)) {
			sums.delayed++;
			continue;
		}
		load = READ_ONCE(se->avg.load_avg);
		e->task_load += load;
		e->task_fresh += shadow_task_fresh_load(se, e->pelt_now);
		/* task_h_load(): se load_avg * cfs_rq h_load / (cfs_rq load_avg + 1) */
		sums.h_load += shadow_h_load_scale(e->h_load, load, e->load_avg);
	}

	/* bottom-up: every child has a larger index than its parent */
	for (i = n - 1; i >= 0; i--) {
		struct shadow_flat_ent *e = &fl->ent[i], *pe;
		u64 w, cw;

		e->h_tasks += e->nr_tasks;
		if (e->h_tasks != ks_cfs_rq_h_nr_running(e->cfs)) {
			res = SHADOW_WALK_INCONSISTENT;
			goto out;
		}
		e->acc_fp = shadow_fp_add(e->acc_fp, shadow_to_fp(e->task_load));
		e->acc_avg_fp = shadow_fp_add(e->acc_avg_fp, shadow_to_fp(e->task_load));
		e->acc_fresh_fp = shadow_fp_add(e->acc_fresh_fp, shadow_to_fp(e->task_fresh));
		if (e->node >= 0) {
			struct shadow_node *nd = &sc->work[e->node];

			nd->shadow_fp = e->acc_fp;
			nd->shadow_avg_fp = e->acc_avg_fp;
			nd->shadow_fresh_fp = e->acc_fresh_fp;
			nd->task_load = e->task_load;
			nd->nr_tasks = e->nr_tasks;
			nd->h_tasks = e->h_tasks;
		}
		if (!i)
			break;
		pe = &fl->ent[e->parent];
		w = shadow_weight_down(e->gse->load.weight);
		cw = shadow_weight_down(ks_cfs_rq_load(e->cfs)->weight);
		pe->acc_fp = shadow_fp_add(pe->acc_fp, shadow_group_contrib(e->acc_fp, w, cw));
		pe->acc_avg_fp = shadow_fp_add(pe->acc_avg_fp,
					       shadow_group_contrib(shadow_to_fp(e->load_avg), w, cw));
		pe->acc_fresh_fp = shadow_fp_add(pe->acc_fresh_fp,
						 shadow_group_contrib(e->acc_fresh_fp, w, cw));
		pe->h_tasks += e->h_tasks;
	}

	sums.shadow_fp = fl->ent[0].acc_fp;
	sums.shadow_avg_fp = fl->ent[0].acc_avg_fp;
	sums.shadow_fresh_fp = fl->ent[0].acc_fresh_fp;
	sums.h_tasks = fl->ent[0].h_tasks;
	sums.nr_nodes = nr_nodes;
	sums.nr_cfs = n;
	sums.visited = visited;
	shadow_walk_fill(out, &sums);
out:
	*nvisited = visited;
	return res;
}
