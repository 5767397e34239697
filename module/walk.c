// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walk: under a CPU's rq lock, find every queued cfs_rq of the
 * CPU and compute for each the shadow hierarchical runnable sum (Tejun
 * Heo's formula), its shadow_avg variant, shadow_fresh (the same sum with
 * every queued task's load_avg projected to the root's PELT clock,
 * core/pelt_math.h), the sum of task_h_load(), the weights and the task
 * counts.  shadow.c decides when to walk and publishes the result.
 *
 * How: one atomic pass copies the queued tasks' entities from
 * rq->cfs_tasks (every queued CFS task, the running one and delayed-dequeue
 * sleepers included, on every layout); then each task's se->parent chain
 * is climbed until a cfs_rq already found, adding the levels above it to
 * a per-CPU table (parents before children, so h_load flows down); then a
 * bottom-up pass over the table makes every level's sums and checks its
 * task count against its h_nr_running.  The same code serves the
 * hierarchical run queues (before 7.3) and the 7.3+ single run queue,
 * where group entities sit in no tree: nothing here reads a tree.
 *
 * Bounded per hook call: a walk runs in steps of at most SHADOW_STEP_COST
 * estimated instructions; a walk that does not fit one step continues at
 * the CPU's next hook calls.  Its snapshot stays valid only while no task
 * was enqueued or dequeued on the CPU (shadow.c checks shadow_cpu.ops
 * before every step): the set of queued tasks, and so the set of queued
 * cfs_rqs, is then the snapshot's, and every entity it names is alive.
 * Values (load_avg, weights) are read when each task or level is
 * reached; shadow.c bounds how long one walk may take.
 *
 * Hot-path rules: no allocation (the table is allocated at load), no
 * sleeping, no lock other than the rq lock the caller holds, only the state
 * of the CPU whose rq is locked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/irq_work.h>
#include <linux/sched/clock.h>

#include "walk.h"

#define SHADOW_WALK_NONE	0xffff

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
 * Safe under the rq lock; logs once per load.  shadow.c walks no more
 * after it (shadow_layout_bad).
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

/* ---- the work area ---- */

static u32 shadow_walk_cap_cfs(unsigned int budget)
{
	/*
	 * Every queued cfs_rq but the root has a task below it: a walk of at
	 * most @budget entities (tasks plus levels) holds at most @budget / 2
	 * levels unless chains are deeper than one level per task; past the
	 * table the walk is over budget (counted).
	 */
	return budget / 2 + 1;
}

static u32 shadow_walk_slots(unsigned int budget)
{
	return roundup_pow_of_two(2 * shadow_walk_cap_cfs(budget));	/* at most half full */
}

/** shadow_walk_bytes() - the work area of one CPU for @budget (docs: memory) */
size_t shadow_walk_bytes(unsigned int budget)
{
	return (size_t)budget * sizeof(struct sched_entity *) +
	       (size_t)shadow_walk_cap_cfs(budget) * sizeof(struct shadow_wcfs) +
	       (size_t)shadow_walk_slots(budget) * (sizeof(u32) + sizeof(u16));
}

/**
 * shadow_walk_alloc() - the work area of one CPU's walk
 * @w:      the CPU's walk state
 * @budget: walk_budget (entities one walk may visit)
 * @node:   NUMA node of the CPU
 *
 * Return: 0, or -ENOMEM (nothing left allocated).
 */
int shadow_walk_alloc(struct shadow_walk *w, unsigned int budget, int node)
{
	u32 slots = shadow_walk_slots(budget);

	memset(w, 0, sizeof(*w));
	w->cap_se = budget;
	w->cap_cfs = shadow_walk_cap_cfs(budget);
	w->hash_mask = slots - 1;
	w->se = kvmalloc_node(sizeof(*w->se) * budget, GFP_KERNEL, node);
	w->wc = kvmalloc_node(sizeof(*w->wc) * w->cap_cfs, GFP_KERNEL, node);
	w->slot_gen = kvzalloc_node(sizeof(*w->slot_gen) * slots, GFP_KERNEL, node);
	w->slot_ent = kvmalloc_node(sizeof(*w->slot_ent) * slots, GFP_KERNEL, node);
	if (!w->se || !w->wc || !w->slot_gen || !w->slot_ent) {
		shadow_walk_free(w);
		return -ENOMEM;
	}
	return 0;
}

/** shadow_walk_free() - free what shadow_walk_alloc() took (a zeroed @w is fine) */
void shadow_walk_free(struct shadow_walk *w)
{
	kvfree(w->se);
	kvfree(w->wc);
	kvfree(w->slot_gen);
	kvfree(w->slot_ent);
	w->se = NULL;
	w->wc = NULL;
	w->slot_gen = NULL;
	w->slot_ent = NULL;
}

/* ---- the table of queued cfs_rqs ---- */

static int shadow_walk_find(const struct shadow_walk *w, const struct cfs_rq *cfs)
{
	u32 h = hash_ptr(cfs, 32) & w->hash_mask, i;

	for (i = 0; i <= w->hash_mask; i++, h = (h + 1) & w->hash_mask) {
		if (w->slot_gen[h] != w->gen)
			return -1;
		if (w->wc[w->slot_ent[h]].cfs == cfs)
			return w->slot_ent[h];
	}
	return -1;
}

/* The table is never more than half full, so a free slot exists. */
static void shadow_walk_insert(struct shadow_walk *w, const struct cfs_rq *cfs, u16 idx)
{
	u32 h = hash_ptr(cfs, 32) & w->hash_mask;

	while (w->slot_gen[h] == w->gen)
		h = (h + 1) & w->hash_mask;
	w->slot_gen[h] = w->gen;
	w->slot_ent[h] = idx;
}

/* A new entry for @cfs under @parent (SHADOW_WALK_NONE for the root). */
static u16 shadow_walk_add(struct shadow_cpu *sc, struct cfs_rq *cfs, struct sched_entity *gse,
			   u16 parent)
{
	struct shadow_walk *w = &sc->walk;
	struct shadow_wcfs *e = &w->wc[w->nr_cfs];
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);

	memset(e, 0, sizeof(*e));
	e->cfs = cfs;
	e->gse = gse;
	e->parent = parent;
	e->load_avg = READ_ONCE(avg->load_avg);
	if (parent == SHADOW_WALK_NONE) {
		e->h_load = e->load_avg;	/* the root's h_load is its load_avg */
	} else {
		const struct shadow_wcfs *p = &w->wc[parent];

		e->depth = p->depth + 1;
		/* update_cfs_rq_h_load(), top-down: the parent entry is complete */
		e->h_load = shadow_h_load_scale(p->h_load, READ_ONCE(gse->avg.load_avg), p->load_avg);
	}
	e->node = -1;
	if (w->nr_nodes < SHADOW_MAX_NODES) {
		struct shadow_node *nd = &sc->work[w->nr_nodes];

		e->node = w->nr_nodes++;
		nd->cgid = ks_cfs_rq_cgid(cfs);
		nd->depth = e->depth;
		nd->se_weight = gse ? shadow_weight_down(gse->load.weight) : 0;
		nd->cfs_weight = shadow_weight_down(ks_cfs_rq_load(cfs)->weight);
		nd->load_avg = e->load_avg;
		nd->runnable_avg = READ_ONCE(avg->runnable_avg);
		nd->util_avg = READ_ONCE(avg->util_avg);
		nd->h_load = e->h_load;
	}
	shadow_walk_insert(w, cfs, w->nr_cfs);
	return w->nr_cfs++;
}

bool shadow_walk_begin(struct shadow_cpu *sc, struct rq *rq, u32 ops, u32 epoch, bool safe)
{
	struct shadow_walk *w = &sc->walk;
	struct list_head *head = ks_rq_cfs_tasks(rq), *pos;
	struct cfs_rq *root = ks_rq_cfs(rq);
	u32 n = 0;

	for (pos = READ_ONCE(head->next); pos != head; pos = READ_ONCE(pos->next)) {
		if (unlikely(n == w->cap_se))
			return false;
		w->se[n++] = list_entry(pos, struct sched_entity, group_node);
	}
	w->nr_se = n;
	w->pos = 0;
	w->nr_cfs = 0;
	w->nr_nodes = 0;
	w->visited = 0;
	w->delayed = 0;
	w->steps = 0;
	w->h_load = 0;
	w->ops = ops;
	w->epoch = epoch;
	w->safe = safe;
	w->root_lut = READ_ONCE(ks_cfs_rq_avg(root)->last_update_time);
	w->queued = ks_cfs_rq_h_nr_running(root);
	w->runnable = ks_cfs_rq_h_nr_runnable(root);
	if (unlikely(++w->gen == 0)) {		/* every 2^32 walks: forget old slots */
		memset(w->slot_gen, 0, sizeof(*w->slot_gen) * (w->hash_mask + 1));
		w->gen = 1;
	}
	w->last = shadow_walk_add(sc, root, NULL, SHADOW_WALK_NONE);
	w->phase = SHADOW_WALK_TASKS;
	return true;
}

bool shadow_walk_event(struct shadow_cpu *sc, struct rq *rq, int change)
{
	struct shadow_walk *w = &sc->walk;
	struct cfs_rq *root = ks_rq_cfs(rq);
	u32 queued = ks_cfs_rq_h_nr_running(root);
	struct list_head *first;

	/*
	 * A snapshot taken inside an enqueue or dequeue (pelt_cfs_tp) may hold
	 * a count from either side of it: only a clean one can follow a change.
	 */
	if (!w->safe)
		return false;
	if (queued == w->queued)
		return true;		/* an RT or DL task: the CFS queue is the same */
	if (change != 1 || queued != w->queued + 1 || w->phase != SHADOW_WALK_TASKS ||
	    w->nr_se >= w->cap_se)
		return false;
	/* account_entity_enqueue() put it first; nothing moved since */
	first = READ_ONCE(ks_rq_cfs_tasks(rq)->next);
	if (first == ks_rq_cfs_tasks(rq))
		return false;
	w->se[w->nr_se++] = list_entry(first, struct sched_entity, group_node);
	w->queued = queued;
	w->runnable = ks_cfs_rq_h_nr_runnable(root);
	return true;
}

/*
 * The table entry of a snapshot task's cfs_rq, adding the levels above it
 * that are not in the table yet.  Return: the entry, -1 for a task that is
 * not part of the root's hierarchy now (a level above it is not queued: a
 * throttled group, or an enqueue or dequeue in progress), -2 over budget,
 * -3 inconsistent (shadow_walk_layout_bad() says when the layout itself is
 * not understood).
 */
static int shadow_walk_level(struct shadow_cpu *sc, struct rq *rq, struct sched_entity *se,
			     unsigned int *done)
{
	struct shadow_walk *w = &sc->walk;
	struct cfs_rq *chain_cfs[SHADOW_MAX_DEPTH];
	struct sched_entity *chain_gse[SHADOW_MAX_DEPTH];
	struct cfs_rq *cfs = READ_ONCE(se->cfs_rq);
	struct sched_entity *g = READ_ONCE(se->parent);
	int idx, k = 0;

	/* tasks of one cfs_rq often come in a row: no lookup for those */
	if (cfs == w->wc[w->last].cfs)
		return w->last;
	while ((idx = shadow_walk_find(w, cfs)) < 0) {
		if (unlikely(!g || READ_ONCE(g->my_q) != cfs)) {
			shadow_walk_layout_bad("a task's parent chain does not reach this rq's root");
			return -3;
		}
		if (unlikely(ks_cfs_rq_rq(cfs) != rq))
			return -3;
		/*
		 * A level not queued: throttled (CFS bandwidth before the
		 * task-based throttle keeps such tasks on rq->cfs_tasks) or an
		 * enqueue half done; its tasks are not the root's.  The 7.3+
		 * single run queue takes throttled tasks off the queue and its
		 * group entities' on_rq is not relied on: the counts decide.
		 */
		if (!KS_FLAT_RUNQUEUE && !READ_ONCE(g->on_rq))
			return -1;
		/* entities: every snapshot task plus the levels found so far */
		if (k >= SHADOW_MAX_DEPTH - 1 || w->nr_se + w->nr_cfs + k > w->cap_se)
			return -2;
		chain_cfs[k] = cfs;
		chain_gse[k] = g;
		k++;
		cfs = READ_ONCE(g->cfs_rq);
		g = READ_ONCE(g->parent);
	}
	if (w->nr_cfs + k > w->cap_cfs || w->wc[idx].depth + k >= SHADOW_MAX_DEPTH)
		return -2;
	/* add them top-down: parents get smaller indices, h_load flows down */
	while (k--) {
		idx = shadow_walk_add(sc, chain_cfs[k], chain_gse[k], idx);
		w->visited++;
		(*done)++;
	}
	w->last = idx;
	return idx;
}

static enum shadow_walk_result shadow_walk_tasks(struct shadow_cpu *sc, struct rq *rq, u64 deadline,
					       unsigned int *done)
{
	struct shadow_walk *w = &sc->walk;

	while (w->pos < w->nr_se) {
		struct sched_entity *se = w->se[w->pos];
		struct shadow_wcfs *e;
		unsigned long load;
		int idx;

		if (*done >= SHADOW_STEP_MIN_UNITS && !(w->pos % SHADOW_STEP_CHECK_TASKS) &&
		    local_clock() >= deadline)
			return SHADOW_WALK_MORE;
		(*done)++;
		w->pos++;
		idx = shadow_walk_level(sc, rq, se, done);
		if (idx == -1)
			continue;
		if (idx == -2)
			return SHADOW_WALK_OVER_BUDGET;
		if (idx < 0)
			return SHADOW_WALK_INCONSISTENT;
		w->visited++;
		e = &w->wc[idx];
		e->nr_tasks++;
		/* asleep, only still queued (6.12+ delayed dequeue) */
		if (ks_se_delayed(se)) {
			w->delayed++;
			continue;
		}
		load = READ_ONCE(se->avg.load_avg);
		e->task_load += load;
		e->task_fresh += shadow_task_fresh_load(se, shadow_cfs_pelt_now(e->cfs, w->root_lut));
		/* task_h_load(): se load_avg * cfs_rq h_load / (cfs_rq load_avg + 1) */
		w->h_load += shadow_h_load_scale(e->h_load, load, e->load_avg);
	}
	w->phase = SHADOW_WALK_SUMS;
	w->pos = w->nr_cfs;
	return SHADOW_WALK_MORE;
}

/* Bottom-up: every child has a larger index than its parent. */
static enum shadow_walk_result shadow_walk_sums(struct shadow_cpu *sc, u64 deadline,
					      unsigned int *done)
{
	struct shadow_walk *w = &sc->walk;

	while (w->pos > 0) {
		struct shadow_wcfs *e, *pe;
		u64 wt, cw;

		if (*done >= SHADOW_STEP_MIN_UNITS && !(w->pos % SHADOW_STEP_CHECK_SUMS) &&
		    local_clock() >= deadline)
			return SHADOW_WALK_MORE;
		(*done)++;
		e = &w->wc[--w->pos];
		e->h_tasks += e->nr_tasks;
		if (e->h_tasks != ks_cfs_rq_h_nr_running(e->cfs))
			return SHADOW_WALK_INCONSISTENT;
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
		if (!w->pos)
			break;
		pe = &w->wc[e->parent];
		wt = shadow_weight_down(READ_ONCE(e->gse->load.weight));
		cw = shadow_weight_down(ks_cfs_rq_load(e->cfs)->weight);
		pe->acc_fp = shadow_fp_add(pe->acc_fp, shadow_group_contrib(e->acc_fp, wt, cw));
		pe->acc_avg_fp = shadow_fp_add(pe->acc_avg_fp,
					       shadow_group_contrib(shadow_to_fp(e->load_avg), wt, cw));
		pe->acc_fresh_fp = shadow_fp_add(pe->acc_fresh_fp,
						 shadow_group_contrib(e->acc_fresh_fp, wt, cw));
		pe->h_tasks += e->h_tasks;
	}
	return SHADOW_WALK_OK;
}

enum shadow_walk_result shadow_walk_continue(struct shadow_cpu *sc, struct rq *rq, u64 deadline,
					     struct shadow_scalars *out)
{
	struct shadow_walk *w = &sc->walk;
	enum shadow_walk_result res = SHADOW_WALK_MORE;
	struct shadow_walk_sums sums;
	/* the first step's copy is work done (SHADOW_STEP_COPY_PER_UNIT) */
	unsigned int done = w->steps ? 0 : w->nr_se / SHADOW_STEP_COPY_PER_UNIT;

	w->steps++;
	if (w->phase == SHADOW_WALK_TASKS)
		res = shadow_walk_tasks(sc, rq, deadline, &done);
	if (res == SHADOW_WALK_MORE && w->phase == SHADOW_WALK_SUMS)
		res = shadow_walk_sums(sc, deadline, &done);
	if (res == SHADOW_WALK_MORE)
		return res;
	w->phase = SHADOW_WALK_IDLE;
	if (res != SHADOW_WALK_OK)
		return res;
	sums = (struct shadow_walk_sums) {
		.shadow_fp = w->wc[0].acc_fp,
		.shadow_avg_fp = w->wc[0].acc_avg_fp,
		.shadow_fresh_fp = w->wc[0].acc_fresh_fp,
		.h_load = w->h_load,
		.h_tasks = w->wc[0].h_tasks,
		.delayed = w->delayed,
		.nr_nodes = w->nr_nodes,
		.nr_cfs = w->nr_cfs,
		.visited = w->visited,
	};
	shadow_walk_fill(out, &sums);
	return SHADOW_WALK_OK;
}

/**
 * shadow_walk_fill() - the root values of a consistent walk
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
