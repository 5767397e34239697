// SPDX-License-Identifier: GPL-2.0
/*
 * Work to give, per event: what the
 * audit needs on every enqueue, dequeue and relevant switch, from work
 * that does not grow with the run queue.  shadow.c calls it under the rq
 * lock and publishes the result; the full hierarchy walk (walk.c) runs
 * far less often.
 *
 * A waiter is a CFS task queued on the CPU, not running there and not a
 * delayed-dequeue sleeper.  rq->cfs_tasks lists every queued CFS task
 * (the running one included), most recently picked first; the scan reads
 * at most SHADOW_SCAN_CAP entries from its tail, as detach_tasks() does
 * (sysctl_sched_nr_migrate caps the kernel at 32 by default), and counts
 * the queued tasks it did not reach as waiters of unknown affinity: an
 * upper bound, never a silent undercount.
 *
 * Per waiter: pinned when nr_cpus_allowed is 1 (this covers per-CPU
 * kthreads, which are bound to their CPU, and a migrate_disable()d task
 * once it has been switched out, which the kernel restricts to its CPU)
 * or migration_disabled is set (BTF, 5.11+); `any` when its mask is the
 * full one (weight nr_cpu_ids) or holds every online CPU; otherwise its
 * mask is recorded (core/work.c).  CFS bandwidth (throttled_lb_pair()): a
 * waiter whose group is throttled on this CPU (its cfs_rq's throttle_count,
 * BTF) is no work for anyone (`throttled'; not on 7.3, whose task-based
 * throttle takes throttled tasks off the run queue and checks only the
 * destination); one of a group under a bandwidth limit is kept with its
 * group, whose state on the destination the audit reads (core/work.h).
 * Not modelled: cache hotness (task_hot) and a per-CPU kthread whose
 * affinity was widened during CPU hotplug.
 *
 * Bound: SHADOW_SCAN_CAP list entries, each one task_struct and its mask
 * (a mask test of nr_cpu_ids / 64 words only for a restricted waiter).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>

#include "kstruct.h"
#include "waiters.h"
#include "wasted.h"

/*
 * Is rq->curr about to give up the CPU?  True when it is the idle task (a
 * task was just woken there) or a task leaving the run queue (going to
 * sleep: the probes run at the end of its dequeue, before schedule()
 * picks the next one).  With delayed dequeue (6.12+) a task going to
 * sleep stays on_rq with its entity marked delayed, and when the delayed
 * entity is finally dequeued the task is still on_rq (it is blocked only
 * afterwards): a CFS task whose entity is delayed or no longer queued is
 * leaving all the same.  An RT or DL task never has its entity queued: it
 * really holds the CPU.
 */
static bool shadow_curr_leaving(struct task_struct *running)
{
	if (is_idle_task(running) || !READ_ONCE(running->on_rq) || ks_se_delayed(&running->se))
		return true;
	return !rt_task(running) && !dl_task(running) && !READ_ONCE(running->se.on_rq);
}

/*
 * Is the running CFS task @curr (queued: se.on_rq) in a group that is
 * throttled on this CPU?  Before the task-based throttle, throttle_cfs_rq()
 * runs while the task that used up the quota is still rq->curr (from
 * put_prev_entity()'s check_cfs_rq_runtime(), in the CPU's own switch):
 * its sub_nr_running() fires the nr_running tracepoint with curr about to
 * give up the CPU and staying on rq->cfs_tasks, a throttled waiter like the
 * group's others.
 */
static bool shadow_curr_throttled(struct task_struct *curr)
{
	struct cfs_rq *gcfs;

	if (!KS_BANDWIDTH_READABLE || KS_TASK_BASED_THROTTLE)
		return false;
	gcfs = READ_ONCE(curr->se.cfs_rq);
	return gcfs && ks_cfs_rq_throttled(gcfs);
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

/**
 * shadow_waiters_note() - counts and work to give of one CPU, bounded
 * @rq: the run queue, its lock held by the caller
 * @e:  out: nr_running, h_nr_running, movable and the work summary
 *
 * Return: true when the published summary depends on which task the
 * kernel runs next on @rq (mixed affinities around a switch): the caller
 * refreshes it at the next switch, when that is known.
 */
bool shadow_waiters_note(struct rq *rq, struct shadow_evt *e)
{
	struct task_struct *curr = ks_rq_curr(rq);
	struct cfs_rq *cfs = ks_rq_cfs(rq);
	struct list_head *head = ks_rq_cfs_tasks(rq), *pos;
	struct shadow_work *w = &e->work;
	u32 queued = ks_cfs_rq_h_nr_running(cfs), visited = 0, delayed = 0, seen_curr = 0;
	int runnable = ks_cfs_rq_h_nr_runnable(cfs);
	bool curr_in = READ_ONCE(curr->se.on_rq) && !ks_se_delayed(&curr->se);
	bool curr_thr = curr_in && !rt_task(curr) && !dl_task(curr) && shadow_curr_throttled(curr);
	bool complete = true, refresh = false;
	struct shadow_wasted_before wb;
	unsigned int kinds = 0;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	shadow_work_begin(w);
	shadow_wasted_ids_begin(&e->ids);	/* wasted.h: who waits, by cgroup */
	for (pos = READ_ONCE(head->prev); pos != head; pos = READ_ONCE(pos->prev)) {
		struct sched_entity *se = list_entry(pos, struct sched_entity, group_node);
		struct task_struct *p = container_of(se, struct task_struct, se);
		enum shadow_waiter_kind kind;

		if (visited == SHADOW_SCAN_CAP) {
			complete = false;
			break;
		}
		visited++;
		if (p == curr) {
			seen_curr = 1;
			/* throttled while running: it stays queued and waits */
			w->throttled += curr_thr;
			continue;
		}
		if (ks_se_delayed(se)) {
			delayed++;
			continue;
		}
		kind = shadow_waiter_kind_of(p);
		kinds |= 1u << kind;
		wb = shadow_wasted_before(w);	/* wasted.h: how the summary notes it */
		if (KS_BANDWIDTH_READABLE && kind != SHADOW_WAITER_PINNED) {
			struct cfs_rq *gcfs = READ_ONCE(se->cfs_rq);
			struct task_group *tg = gcfs ? ks_cfs_rq_tg(gcfs) : NULL;

			if (!KS_TASK_BASED_THROTTLE && gcfs && ks_cfs_rq_throttled(gcfs)) {
				w->throttled++;
				continue;
			}
			if (tg && ks_tg_bandwidth_limited(tg)) {
				shadow_work_note_tg(w, kind, (const u64 *)cpumask_bits(p->cpus_ptr),
						    BITS_TO_LONGS(nr_cpu_ids), (u64)(unsigned long)tg);
				shadow_wasted_ids_note(&e->ids, w, &wb, p);
				continue;
			}
		}
		if (kind == SHADOW_WAITER_ANY)		/* the common cases inline */
			w->any++;
		else if (kind == SHADOW_WAITER_PINNED)
			w->pinned++;
		else
			shadow_work_note(w, kind, (const u64 *)cpumask_bits(p->cpus_ptr),
					 BITS_TO_LONGS(nr_cpu_ids));
		shadow_wasted_ids_note(&e->ids, w, &wb, p);
	}
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
	}
	/*
	 * A complete scan counts for itself: the kernel's h_nr_runnable can be
	 * one low here (7.3's final dequeue of a delayed task fires this
	 * tracepoint before clear_delayed() gives back the count it took, so
	 * a CPU read one task short until its next event).  Past the scan's
	 * cap, the kernel's count where it has one.
	 */
	if (complete || runnable < 0)
		e->h_nr_running = queued - min(queued, delayed);
	else
		e->h_nr_running = (u32)runnable;
	if (curr_thr || shadow_curr_leaving(curr)) {
		/* the CPU runs one of its waiters next: that one waits behind nobody */
		if (shadow_work_total(w) + w->pinned + w->throttled)
			refresh = !shadow_wasted_drop_next(w, &e->ids);	/* + wasted.h's ids */
	} else if (curr_in && kinds) {
		/*
		 * A wakeup may preempt curr, which then waits instead: the
		 * summary holds either way if curr and every waiter are of one
		 * kind, and it is not the per-task `restricted'.
		 */
		kinds |= 1u << shadow_waiter_kind_of(curr);
		refresh = (kinds & (kinds - 1)) || (kinds & (1u << SHADOW_WAITER_RESTRICTED)) ||
			  shadow_wasted_ids_mixed(&e->ids, curr);	/* cgroups differ */
	}
	e->movable = shadow_work_total(w);
	e->nr_running = ks_rq_nr_running(rq);
	refresh |= shadow_wasted_log(rq, e);	/* wasted.c: the CPU's change log */
	return refresh;
}
