// SPDX-License-Identifier: GPL-2.0
/*
 * Who waits on each CPU, kept up to date per event: the work summary the
 * audit reads (core/work.h) and the waiter keys whose changes wasted-core
 * time logs (wasted.h).  shadow.c calls it under the rq lock.
 *
 * A waiter is a CFS task queued on the CPU, not running there, not a
 * delayed-dequeue sleeper, and not the task that runs next when the
 * current one leaves (pending_next: it waits behind nobody).
 *
 * Per event, the task that came or went is known in the common cases and
 * only it is looked at:
 * - an enqueue of one task (the root's runnable count one up): the task
 *   account_entity_enqueue() put first on rq->cfs_tasks;
 * - a dequeue of the running task (it sleeps): nobody's waiting changes,
 *   but the task that runs next stops waiting: when every waiter has the
 *   same key it is taken out now, else at the switch, where it is named;
 * - a dequeue of a task that is not running (a migration):
 *   sched_migrate_task names it right after, under the same lock;
 * - a switch: the task switched in stops waiting, a preempted one starts.
 * Anything else (several tasks at once, bandwidth throttling, a dequeue
 * nobody names, delayed-dequeue sleepers on the CPU, an RT or DL task
 * switching in or out, a changed tracked process, the sampler asking for
 * a snapshot) rescans rq->cfs_tasks, at most SHADOW_SCAN_CAP entries
 * from its tail, as detach_tasks() does; the queued tasks it did not
 * reach are waiters of unknown affinity: an upper bound, never a silent
 * undercount.  After every change the counts are checked against the
 * root's runnable count; a mismatch rescans.
 *
 * A waiter taken out that the summary cannot find was one it counted as
 * unknown (past a capped scan): an unknown goes instead.  Errors of this
 * kind only ever move certainty into `unknown`, never invent a waiter.
 *
 * Per waiter: pinned when nr_cpus_allowed is 1 (per-CPU kthreads, and a
 * migrate_disable()d task once switched out) or migration_disabled is set
 * (BTF, 5.11+); `any` when its mask is the full one or holds every online
 * CPU; otherwise its mask is recorded (core/work.c).  CFS bandwidth
 * (throttled_lb_pair()): a waiter whose group is throttled on this CPU is
 * no work for anyone (`throttled'; not on 7.3, whose task-based throttle
 * takes throttled tasks off the run queue); one of a group under a
 * bandwidth limit is kept with its group, whose state on the destination
 * the audit reads.  Not modelled: cache hotness (task_hot) and a per-CPU
 * kthread whose affinity was widened during CPU hotplug.
 *
 * Bounds: an identified change looks at one task (its mask only if it is
 * restricted: nr_cpu_ids / 64 words) and a key table of SHADOW_WKEYS
 * entries; a rescan at SHADOW_SCAN_CAP tasks.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>

#include "kstruct.h"
#include "shadow.h"
#include "waiters.h"
#include "wasted.h"

/* The kernel has delayed-dequeue sleepers but no count of them: every change rescans. */
#define SHADOW_DELAYED_UNCOUNTED (HAS_KS_sched_entity__sched_delayed && !HAS_KS_cfs_rq__h_nr_runnable)

/* What a waiter is, from its task_struct. */
struct shadow_wcls {
	u8 kind;		/* enum shadow_waiter_kind */
	u8 throttled;		/* its group is throttled here: no work for anyone */
	u8 trk;			/* a thread of the tracked process */
	u64 tg;			/* its bandwidth-limited group, 0 none */
	u64 cgid;		/* its cpu cgroup (wasted-core time on) */
};

static __always_inline bool shadow_is_cfs(struct task_struct *p)
{
	return !is_idle_task(p) && !rt_task(p) && !dl_task(p);
}

static __always_inline enum shadow_waiter_kind shadow_waiter_kind_of(struct task_struct *p)
{
	enum shadow_waiter_kind kind = shadow_waiter_classify(READ_ONCE(p->nr_cpus_allowed),
							      nr_cpu_ids,
							      ks_task_migration_disabled(p));

	if (kind == SHADOW_WAITER_RESTRICTED && cpumask_subset(cpu_online_mask, p->cpus_ptr))
		kind = SHADOW_WAITER_ANY;
	return kind;
}

static __always_inline void shadow_classify(struct task_struct *p, struct shadow_wcls *c)
{
	c->kind = shadow_waiter_kind_of(p);
	c->throttled = 0;
	c->tg = 0;
	if (KS_BANDWIDTH_READABLE && c->kind != SHADOW_WAITER_PINNED) {
		struct cfs_rq *gcfs = READ_ONCE(p->se.cfs_rq);
		struct task_group *tg = gcfs ? ks_cfs_rq_tg(gcfs) : NULL;

		if (!KS_TASK_BASED_THROTTLE && gcfs && ks_cfs_rq_throttled(gcfs))
			c->throttled = 1;
		else if (tg && ks_tg_bandwidth_limited(tg))
			c->tg = (u64)(unsigned long)tg;
	}
	if (static_branch_unlikely(&shadow_wasted_on)) {
		pid_t t = READ_ONCE(shadow_wasted_tgid);

		c->cgid = shadow_wasted_cgid(p);
		c->trk = t && p->tgid == t;
	}
}

/*
 * Would @a and @b be counted as the same waiter (one css_set, so one
 * cgroup and one bandwidth group; both free to run on every CPU; both of
 * the tracked process or neither)?  A preemption between two such tasks
 * changes nobody's waiting: one joins, the other leaves, with one key.
 */
static __always_inline bool shadow_same_waiter(struct task_struct *a, struct task_struct *b)
{
	pid_t t = READ_ONCE(shadow_wasted_tgid);

	return rcu_access_pointer(a->cgroups) == rcu_access_pointer(b->cgroups) &&
	       READ_ONCE(a->nr_cpus_allowed) == nr_cpu_ids &&
	       READ_ONCE(b->nr_cpus_allowed) == nr_cpu_ids &&
	       !ks_task_migration_disabled(a) && !ks_task_migration_disabled(b) &&
	       (!t || (a->tgid == t) == (b->tgid == t));
}

/*
 * Is rq->curr about to give up the CPU?  True when it is the idle task (a
 * task was just woken there) or a task leaving the run queue (going to
 * sleep: the probes run at the end of its dequeue, before schedule()
 * picks the next one).  With delayed dequeue (6.12+) a task going to
 * sleep stays on_rq with its entity marked delayed; an RT or DL task
 * never has its entity queued: it really holds the CPU.
 */
static bool shadow_curr_leaving(struct task_struct *curr)
{
	if (is_idle_task(curr) || !READ_ONCE(curr->on_rq) || ks_se_delayed(&curr->se))
		return true;
	return !rt_task(curr) && !dl_task(curr) && !READ_ONCE(curr->se.on_rq);
}

/* Is rq->curr a queued CFS task (counted in the root's runnable count, not a waiter)? */
static __always_inline bool shadow_curr_in(struct task_struct *curr)
{
	return shadow_is_cfs(curr) && READ_ONCE(curr->on_rq) && READ_ONCE(curr->se.on_rq) &&
	       !ks_se_delayed(&curr->se);
}

/*
 * Is the running CFS task @curr in a group throttled on this CPU?  Before
 * the task-based throttle, throttle_cfs_rq() runs while the task that used
 * up the quota is still rq->curr: it stays queued, a throttled waiter.
 */
static bool shadow_curr_throttled(struct task_struct *curr)
{
	struct cfs_rq *gcfs;

	if (!KS_BANDWIDTH_READABLE || KS_TASK_BASED_THROTTLE)
		return false;
	gcfs = READ_ONCE(curr->se.cfs_rq);
	return gcfs && ks_cfs_rq_throttled(gcfs);
}

/* The root's runnable count (queued minus delayed sleepers where the kernel counts them). */
static __always_inline u32 shadow_runnable(struct cfs_rq *cfs)
{
	int r = ks_cfs_rq_h_nr_runnable(cfs);

	return r >= 0 ? (u32)r : ks_cfs_rq_h_nr_running(cfs);
}

static __always_inline u32 shadow_wq_waiters(const struct shadow_waiters *q)
{
	return shadow_work_total(&q->work) + q->work.pinned;
}

/* ---- keys (wasted-core time's view; only while it is on) ---- */

/* Does @cpu keep a change log (wasted-core time on, and the CPU present at load)? */
static __always_inline bool shadow_wq_logs(int cpu)
{
	return static_branch_unlikely(&shadow_wasted_on) && shadow_wasted_logs[cpu];
}

static __always_inline u8 shadow_slot_kind(int slot)
{
	if (slot >= 0)
		return WR_RESTR;
	return slot == SHADOW_SLOT_ANY ? WR_ANY : slot == SHADOW_SLOT_PINNED ? WR_PINNED :
	       WR_UNKNOWN;
}

/* The key slot of (@cgid, @kind, @slot, @trk), added if @add; -1 if none. */
static int shadow_key_find(struct shadow_waiters *q, u64 cgid, u8 kind, u8 slot, u8 trk, bool add)
{
	u32 i;

	for (i = 0; i < q->nkeys; i++) {
		struct shadow_wkey *k = &q->keys[i];

		if (k->cgid == cgid && k->kind == kind && k->slot == slot && k->trk == trk)
			return i;
	}
	if (!add)
		return -1;
	if (q->nkeys >= SHADOW_WKEYS - 1) {	/* the last slot: cgroup and kind unknown */
		if (cgid || kind != WR_UNKNOWN || slot || trk)
			return shadow_key_find(q, 0, WR_UNKNOWN, 0, 0, true);
		if (q->nkeys == SHADOW_WKEYS)
			return -1;
	}
	i = q->nkeys++;
	q->keys[i].cgid = cgid;
	q->keys[i].kind = kind;
	q->keys[i].slot = slot;
	q->keys[i].trk = trk;
	q->keys[i].n = 0;
	return i;
}

static void shadow_key_log(int cpu, u8 op, const struct shadow_wkey *k, u32 n)
{
	shadow_wasted_rec(cpu, op, k->cgid, k->kind, k->slot, k->trk ? WF_TRK : 0, n);
}

/* @n waiters of a key joined (@n > 0) or left. */
static bool shadow_key_change(struct shadow_waiters *q, int cpu, u64 cgid, u8 kind, u8 slot,
			      u8 trk, s32 n)
{
	struct shadow_wkey *k0 = &q->keys[0];
	int i;

	/* the common case, inline: one key, this one */
	if (q->nkeys == 1 && k0->cgid == cgid && k0->kind == kind && k0->slot == slot &&
	    k0->trk == trk && (n > 0 || k0->n > 1)) {
		k0->n += n;
		shadow_key_log(cpu, n > 0 ? WF_ADD : WF_DEL, k0, n > 0 ? n : -n);
		return true;
	}
	i = shadow_key_find(q, cgid, kind, slot, trk, n > 0);

	if (n < 0 && (i < 0 || !q->keys[i].n))		/* it was one of the unknown */
		i = shadow_key_find(q, 0, WR_UNKNOWN, 0, 0, false);
	if (i < 0 || (n < 0 && q->keys[i].n < (u32)-n))
		return false;
	q->keys[i].n += n;
	shadow_key_log(cpu, n > 0 ? WF_ADD : WF_DEL, &q->keys[i], n > 0 ? n : -n);
	if (!q->keys[i].n)
		q->keys[i] = q->keys[--q->nkeys];
	return true;
}

/* A restricted entry newly taken: its window goes to the log before any key names it. */
static void shadow_slot_log(struct shadow_waiters *q, int cpu, int slot)
{
	const struct shadow_work *w = &q->work;

	q->gen++;
	if (shadow_wq_logs(cpu))
		shadow_wasted_mask(cpu, slot, w->base[slot], w->restricted[slot]);
}

/* ---- one waiter in or out ---- */

/* Return: false when the summary cannot hold it consistently (rescan). */
static bool shadow_waiter_add(struct shadow_waiters *q, int cpu, struct task_struct *p,
			      const struct shadow_wcls *c)
{
	u32 ntg = q->work.nr_tg;
	int slot;

	if (c->throttled)
		return false;	/* a throttled group's task does not enqueue at the root */
	if (c->kind == SHADOW_WAITER_ANY && !c->tg) {	/* the common case, inline */
		q->work.any++;
		slot = SHADOW_SLOT_ANY;
	} else {
		slot = shadow_work_note(&q->work, c->kind, (const u64 *)cpumask_bits(p->cpus_ptr),
					BITS_TO_LONGS(nr_cpu_ids), c->tg);
	}
	if (q->work.nr_tg != ntg)
		q->gen++;
	if (slot >= 0 && (slot & SHADOW_SLOT_NEW)) {
		slot &= ~SHADOW_SLOT_NEW;
		shadow_slot_log(q, cpu, slot);
	}
	if (shadow_wq_logs(cpu))
		return shadow_key_change(q, cpu, c->cgid, shadow_slot_kind(slot),
					 slot >= 0 ? slot : 0, c->trk, 1);
	return true;
}

static bool shadow_waiter_del(struct shadow_waiters *q, int cpu, struct task_struct *p,
			      const struct shadow_wcls *c)
{
	int slot;

	if (c->throttled)
		return false;
	slot = shadow_work_unnote(&q->work, c->kind, (const u64 *)cpumask_bits(p->cpus_ptr),
				  BITS_TO_LONGS(nr_cpu_ids), c->tg);
	if (slot < SHADOW_SLOT_UNKNOWN)
		return false;
	if (q->work.nr_tg && shadow_work_tg_gc(&q->work))
		q->gen++;	/* a group no waiter names: never published again */
	if (shadow_wq_logs(cpu))
		return shadow_key_change(q, cpu, c->cgid, shadow_slot_kind(slot),
					 slot >= 0 ? slot : 0, c->trk, -1);
	return true;
}

/*
 * One waiter of @q left and which one is not known: take one out if every
 * waiter is of one class and key (whichever it was, the same goes).
 * Return: false when they differ (the caller finds out which).
 */
static bool shadow_one_left(struct shadow_waiters *q, int cpu)
{
	struct shadow_work *w = &q->work;
	u32 n = shadow_wq_waiters(q);

	if (!n || (shadow_wq_logs(cpu) && q->nkeys != 1))
		return false;
	if (w->any == n) {
		w->any--;
	} else if (w->pinned == n) {
		w->pinned--;
	} else if (w->unknown == n) {
		w->unknown--;
	} else {
		u32 i, *c = NULL;

		/* all in one restricted window, or one bandwidth group's any */
		for (i = 0; i < w->nr_restricted && i < SHADOW_WORK_RESTRICTED; i++)
			if (w->rcount[i] == n)
				c = &w->rcount[i];
		for (i = 0; i < w->nr_tg && i < SHADOW_WORK_TGS; i++)
			if (w->tg_any[i] == n)
				c = &w->tg_any[i];
		if (!c)
			return false;	/* several classes (or groups, or masks) */
		(*c)--;
		while (w->nr_restricted && !w->rcount[w->nr_restricted - 1])
			w->nr_restricted--;
		if (w->nr_tg && shadow_work_tg_gc(w))
			q->gen++;
	}
	if (shadow_wq_logs(cpu)) {
		q->keys[0].n--;
		shadow_key_log(cpu, WF_DEL, &q->keys[0], 1);
		if (!q->keys[0].n)
			q->nkeys = 0;
	}
	return true;
}

/*
 * The current task left and the CPU runs one of its waiters next: take it
 * out now if every waiter is of one kind and key (whichever the kernel
 * picks, the same goes), else leave it to the switch, which names it.
 * Return: false in that case: until the switch the state of before stays
 * published (its waiters then were waiting).
 */
static bool shadow_next_runs(struct shadow_waiters *q, int cpu)
{
	if (q->pending_next || !shadow_wq_waiters(q))
		return true;
	if (!shadow_one_left(q, cpu))
		return false;
	q->pending_next = 1;
	return true;
}

/* ---- rescan ---- */

static bool shadow_waiters_rescan(struct shadow_cpu *sc, struct rq *rq)
{
	struct shadow_waiters *q = &sc->wq;
	struct task_struct *curr = ks_rq_curr(rq);
	struct cfs_rq *cfs = ks_rq_cfs(rq);
	struct list_head *head = ks_rq_cfs_tasks(rq), *pos;
	struct shadow_work *w = &q->work;
	u32 queued = ks_cfs_rq_h_nr_running(cfs), visited = 0, delayed = 0, i;
	int runnable = ks_cfs_rq_h_nr_runnable(cfs), cpu = ks_rq_cpu(rq);
	bool curr_in = shadow_curr_in(curr), seen_curr = false, complete = true;
	bool curr_thr = curr_in && shadow_curr_throttled(curr);
	bool wasted = shadow_wq_logs(cpu);
	struct shadow_wcls c;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	shadow_work_begin(w);
	for (i = 0; i < SHADOW_WORK_RESTRICTED; i++)
		w->rcount[i] = 0;
	q->gen++;
	q->nkeys = 0;
	q->pending_next = 0;
	q->pending_del = 0;
	q->rescan = 0;
	q->uncounted = 0;
	if (curr != shadow_wasted_thread)
		q->before_sampler = NULL;
	if (wasted) {
		if (curr != shadow_wasted_thread)
			q->busy = !is_idle_task(curr);
		shadow_wasted_snap(cpu, q->busy);
		q->track_gen = READ_ONCE(shadow_wasted_track_gen);
	}
	for (pos = READ_ONCE(head->prev); pos != head; pos = READ_ONCE(pos->prev)) {
		struct sched_entity *se = list_entry(pos, struct sched_entity, group_node);
		struct task_struct *p = container_of(se, struct task_struct, se);
		int slot;

		if (visited == SHADOW_SCAN_CAP) {
			complete = false;
			break;
		}
		visited++;
		if (p == curr) {
			seen_curr = true;
			/* throttled while running: it stays queued and waits */
			w->throttled += curr_thr;
			continue;
		}
		if (ks_se_delayed(se)) {
			delayed++;
			continue;
		}
		if (p == q->before_sampler && curr == shadow_wasted_thread) {
			q->uncounted = 1;	/* preempted by the sampler: running, as far as waiting goes */
			continue;
		}
		shadow_classify(p, &c);
		if (c.throttled) {
			w->throttled++;
			continue;
		}
		slot = shadow_work_note(w, c.kind, (const u64 *)cpumask_bits(p->cpus_ptr),
					BITS_TO_LONGS(nr_cpu_ids), c.tg);
		if (slot >= 0)
			slot &= ~SHADOW_SLOT_NEW;
		if (wasted) {
			int k = shadow_key_find(q, c.cgid, shadow_slot_kind(slot), slot >= 0 ? slot : 0,
						c.trk, true);

			if (k >= 0)
				q->keys[k].n++;
		}
	}
	if (!q->uncounted)
		q->before_sampler = NULL;	/* no longer queued here (or past the scan) */
	if (!complete) {
		/* queued tasks not reached: waiters of unknown affinity */
		u32 rest = queued > visited ? queued - visited : 0;

		if (curr_in && !seen_curr && rest)
			rest--;
		if (runnable >= 0) {	/* the kernel counts delayed ones: drop those not seen */
			u32 all_delayed = queued > (u32)runnable ? queued - runnable : 0;

			rest -= min(rest, all_delayed > delayed ? all_delayed - delayed : 0);
		}
		w->unknown += rest;
		if (wasted && rest) {
			int k = shadow_key_find(q, 0, WR_UNKNOWN, 0, 0, true);

			if (k >= 0)
				q->keys[k].n += rest;
		}
	}
	/*
	 * A complete scan counts for itself: the kernel's h_nr_runnable can be
	 * one low here (7.3's final dequeue of a delayed task fires this
	 * tracepoint before clear_delayed() gives back the count it took).
	 * Past the scan's cap, the kernel's count where it has one.
	 */
	if (complete || runnable < 0)
		q->qseen = queued - min(queued, delayed);
	else
		q->qseen = (u32)runnable;
	if (wasted) {
		for (i = 0; i < w->nr_restricted && i < SHADOW_WORK_RESTRICTED; i++)
			if (w->rcount[i])
				shadow_wasted_mask(cpu, i, w->base[i], w->restricted[i]);
		for (i = 0; i < q->nkeys; i++)
			shadow_key_log(cpu, WF_ADD, &q->keys[i], q->keys[i].n);
	}
	q->valid = 1;
	/* the CPU runs one of its waiters next: that one waits behind nobody */
	if (curr_thr || shadow_curr_leaving(curr))
		return shadow_next_runs(q, cpu);
	return true;
}

/* ---- events ---- */

/* Do the counts add up to the root's runnable count (throttled ones are not in it)? */
static __always_inline bool shadow_wq_consistent(const struct shadow_waiters *q,
						 struct task_struct *curr, u32 runnable)
{
	return shadow_wq_waiters(q) + q->pending_next + q->uncounted + shadow_curr_in(curr) ==
	       runnable;
}

bool shadow_waiters_event(struct shadow_cpu *sc, struct rq *rq, int change)
{
	struct shadow_waiters *q = &sc->wq;
	struct cfs_rq *cfs = ks_rq_cfs(rq);
	struct task_struct *curr = ks_rq_curr(rq);
	u32 queued = ks_cfs_rq_h_nr_running(cfs), runnable = shadow_runnable(cfs);
	int cpu = ks_rq_cpu(rq);
	bool settled = true;

	if (unlikely(!q->valid || q->rescan || q->pending_del || SHADOW_DELAYED_UNCOUNTED ||
		     runnable != queued))
		goto rescan;
	if (shadow_wq_logs(cpu) &&
	    unlikely(shadow_wasted_want_snap(cpu) ||
		     q->track_gen != READ_ONCE(shadow_wasted_track_gen)))
		goto rescan;
	/*
	 * A task expected to run next that is running now: the switch went by
	 * unseen (no sched_switch hook).  pending_next is only set where
	 * every candidate has the same key, so it does not matter which ran.
	 * An RT or DL task running instead (the task that left became one,
	 * sched_setscheduler() on itself): the task expected next waits
	 * behind it, and may be pulled: count it again.
	 */
	if (unlikely(q->pending_next) && !shadow_curr_leaving(curr)) {
		if (!shadow_curr_in(curr))
			goto rescan;
		q->pending_next = 0;
	}
	if (runnable == q->qseen && (change == 1 || change == -1)) {
		/*
		 * An RT, DL or stop task came or went: no CFS task did.  If it
		 * was the running one going to sleep (the stopper when its work
		 * is done) and no other such task is queued, a CFS waiter runs
		 * next, under this same rq lock: it waits behind nobody.  (The
		 * sampler leaving gives the CPU back to the task it preempted.)
		 */
		if (change == 1 || q->uncounted || is_idle_task(curr) ||
		    !shadow_curr_leaving(curr) || ks_rq_nr_running(rq) != queued)
			return true;
		settled = shadow_next_runs(q, cpu);
	} else if (change == 1 && runnable == q->qseen + 1 && !q->pending_next) {
		/* account_entity_enqueue() put it first; nothing moved since */
		struct list_head *first = READ_ONCE(ks_rq_cfs_tasks(rq)->next);
		struct task_struct *p;
		struct shadow_wcls c;

		if (first == ks_rq_cfs_tasks(rq))
			goto rescan;
		p = container_of(list_entry(first, struct sched_entity, group_node),
				 struct task_struct, se);
		if (p == curr || !READ_ONCE(p->se.on_rq) || ks_se_delayed(&p->se) ||
		    p == shadow_wasted_thread)
			goto rescan;
		if (is_idle_task(curr) && !shadow_wq_waiters(q)) {
			q->pending_next = 1;	/* woken on an idle CPU: it runs next */
		} else {
			shadow_classify(p, &c);
			if (!shadow_waiter_add(q, cpu, p, &c))
				goto rescan;
			if (shadow_curr_leaving(curr))
				settled = shadow_next_runs(q, cpu);
		}
	} else if (change == -1 && runnable + 1 == q->qseen && !q->pending_next) {
		if (!shadow_curr_leaving(curr) || is_idle_task(curr)) {
			/*
			 * A task that was not running left.  If every waiter is of
			 * one key, one of them went, whichever; else
			 * sched_migrate_task names it next, and until then the
			 * state of before the dequeue stays published.
			 */
			q->qseen = runnable;
			if (!q->uncounted && shadow_one_left(q, cpu))
				goto check;
			q->pending_del = 1;
			return false;
		}
		/* the running task left: the next one stops waiting */
		settled = shadow_next_runs(q, cpu);
	} else {
		goto rescan;
	}
	q->qseen = runnable;
check:
	if (likely(shadow_wq_consistent(q, curr, runnable)))
		return settled;
rescan:
	return shadow_waiters_rescan(sc, rq);
}

/* sched_migrate_task: the task a dequeue did not name. */
bool shadow_waiters_migrate(struct shadow_cpu *sc, struct rq *rq, struct task_struct *p)
{
	struct shadow_waiters *q = &sc->wq;
	struct shadow_wcls c;

	if (!q->pending_del)
		return false;
	q->pending_del = 0;
	if (p == q->before_sampler) {	/* it was counted as running, not waiting */
		q->before_sampler = NULL;
		q->uncounted = 0;
		return shadow_wq_consistent(q, ks_rq_curr(rq), shadow_runnable(ks_rq_cfs(rq))) ||
		       shadow_waiters_rescan(sc, rq);
	}
	shadow_classify(p, &c);
	if (!shadow_waiter_del(q, ks_rq_cpu(rq), p, &c) ||
	    !shadow_wq_consistent(q, ks_rq_curr(rq), shadow_runnable(ks_rq_cfs(rq))))
		return shadow_waiters_rescan(sc, rq);
	return true;
}

bool shadow_waiters_switch(struct shadow_cpu *sc, struct rq *rq, struct task_struct *prev,
			   struct task_struct *next)
{
	struct shadow_waiters *q = &sc->wq;
	int cpu = ks_rq_cpu(rq);
	bool wasted = shadow_wq_logs(cpu);
	struct shadow_wcls c;

	if (wasted) {
		/* the sampler's thread keeps the CPU's state: idle if it woke an idle CPU */
		u8 busy = next == shadow_wasted_thread ? q->busy : !is_idle_task(next);

		if (unlikely(next == shadow_wasted_thread && is_idle_task(prev)))
			atomic64_inc(&shadow_wasted_idle_wakeups);
		if (busy != q->busy) {
			q->busy = busy;
			shadow_wasted_state(cpu, busy);
		}
	}
	if (next == shadow_wasted_thread && next) {
		/*
		 * The sampler is invisible: while it runs, a task it preempted
		 * counts as running, not waiting (and an idle CPU stays idle).
		 */
		q->before_sampler = NULL;
		q->uncounted = 0;
		if (!q->valid || q->rescan || q->pending_del || !shadow_is_cfs(prev) ||
		    !READ_ONCE(prev->on_rq) || !READ_ONCE(prev->se.on_rq))
			goto rescan;
		q->before_sampler = prev;
		q->uncounted = 1;
		return false;
	}
	if (prev == shadow_wasted_thread && prev) {
		struct task_struct *was = q->before_sampler;

		q->before_sampler = NULL;
		q->uncounted = 0;
		if (was == next && q->valid && !q->rescan && !q->pending_del)
			return false;	/* back to what it preempted: nothing changed */
		goto rescan;
	}
	if (unlikely(!q->valid || q->rescan || q->pending_del || prev->prio < MAX_RT_PRIO ||
		     next->prio < MAX_RT_PRIO || ks_se_delayed(&prev->se)))
		goto rescan;
	if (q->pending_next) {
		/* the task expected to run next runs (the CPU idles instead: look again) */
		if (!shadow_is_cfs(next))
			goto rescan;
		q->pending_next = 0;
		if (!READ_ONCE(prev->on_rq))
			return false;	/* the summary published holds already */
	} else if (shadow_is_cfs(next)) {
		/* a preemption between two waiters of one key: nothing changes */
		if (shadow_is_cfs(prev) && READ_ONCE(prev->on_rq) && READ_ONCE(prev->se.on_rq) &&
		    shadow_same_waiter(prev, next))
			return false;
		/* it was a waiter */
		shadow_classify(next, &c);
		if (!shadow_waiter_del(q, cpu, next, &c))
			goto rescan;
	} else if (!shadow_wq_waiters(q) && !(shadow_is_cfs(prev) && READ_ONCE(prev->se.on_rq))) {
		return false;	/* to idle, nothing waits: the common idle switch */
	}
	if (shadow_is_cfs(prev) && READ_ONCE(prev->on_rq) && READ_ONCE(prev->se.on_rq)) {
		/* preempted: it waits now */
		shadow_classify(prev, &c);
		if (!shadow_waiter_add(q, cpu, prev, &c))
			goto rescan;
	}
	if (shadow_wq_consistent(q, next, shadow_runnable(ks_rq_cfs(rq))))
		return true;
rescan:
	return shadow_waiters_rescan(sc, rq);
}

void shadow_waiters_publish(struct shadow_cpu *sc, struct rq *rq, struct shadow_evt *e)
{
	const struct shadow_waiters *q = &sc->wq;
	const struct shadow_work *w = &q->work;

	e->work.any = w->any;
	e->work.nr_restricted = w->nr_restricted;
	e->work.unknown = w->unknown;
	e->work.pinned = w->pinned;
	e->work.throttled = w->throttled;
	e->work.nr_tg = w->nr_tg;
	if (e->work_gen != q->gen) {	/* masks or groups changed since this copy had them */
		e->work = *w;
		e->work_gen = q->gen;
	} else {
		u32 i;

		for (i = 0; i < w->nr_tg && i < SHADOW_WORK_TGS; i++)
			e->work.tg_any[i] = w->tg_any[i];
		for (i = 0; i < w->nr_restricted && i < SHADOW_WORK_RESTRICTED; i++)
			e->work.rcount[i] = w->rcount[i];
	}
	e->movable = shadow_work_total(w);
	e->h_nr_running = q->qseen;
	e->nr_running = ks_rq_nr_running(rq);
}

void shadow_waiters_invalidate(struct shadow_cpu *sc)
{
	WRITE_ONCE(sc->wq.rescan, 1);
}
