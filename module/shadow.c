// SPDX-License-Identifier: GPL-2.0
/*
 * The hot path's driver: the tracepoint probes, when to walk, and the
 * per-CPU publication the audit and debugfs read.  The walk itself is in
 * walk.c, the trace events' formatting in trace_feed.c.
 *
 * When to walk (../shared/DESIGN.md, "Facts measured"): pelt_cfs_tp can fire
 * in the middle of an enqueue, before the entity is in the rbtree and
 * before h_nr_running changes; sched_update_nr_running_tp fires after the
 * enqueue/dequeue completes.  So the structure is walked from the
 * nr_running tracepoint and from pelt_cfs_tp of a root cfs_rq (to refresh
 * the PELT values while nothing is enqueued or dequeued), and a walk is
 * published only if every cfs_rq's tasks found equal its h_nr_running;
 * others are counted as discarded.
 *
 * Hot-path rules: no allocation, no sleeping, no lock other than the rq
 * lock the caller holds, bounded work, only the state of the CPU whose rq
 * is locked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/cgroup.h>
#include <linux/rbtree.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/sched/prio.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>
#include <trace/events/sched.h>

#include "kstruct.h"
#include "shadow.h"
#include "stats.h"

#include "trace.h"
#include "walk.h"
#include "trace_feed.h"

struct shadow_cpu **shadow_cpus;
const char *shadow_missing_tp;		/* main.c: missing_tp */
unsigned int shadow_walk_budget = 4096;
u64 shadow_pelt_refresh_ns = 1000 * NSEC_PER_USEC;	/* main.c: pelt_refresh_us */
atomic_t shadow_reset_gen = ATOMIC_INIT(1);
DEFINE_STATIC_KEY_TRUE(shadow_enabled);

/* Walk and publish @rq's CPU; @sc is shadow_cpu_of(@rq), looked up once by the caller. */
static void shadow_update(struct shadow_cpu *sc, struct rq *rq)
{
	enum shadow_walk_result res;
	struct shadow_scalars s;
	unsigned int visited = 0;
	u32 gen;

	if (atomic_cmpxchg_acquire(&sc->busy, 0, 1)) {
		atomic_long_inc(&sc->contended);
		return;
	}
	res = shadow_walk(sc, rq, &s, &visited);
	shadow_stat_walk(visited);	/* stats: entities per walk (static key) */
	if (res == SHADOW_WALK_OK) {
		const struct sched_avg *avg = ks_cfs_rq_avg(ks_rq_cfs(rq));

		s.time_ns = ktime_get_mono_fast_ns();
		s.load_avg = READ_ONCE(avg->load_avg);
		s.runnable_avg = READ_ONCE(avg->runnable_avg);
		s.util_avg = READ_ONCE(avg->util_avg);
		s.weight = shadow_weight_down(ks_cfs_rq_load(ks_rq_cfs(rq))->weight);
		s.capacity = ks_rq_cpu_capacity(rq);
		s.nr_running = ks_rq_nr_running(rq);
		s.valid = true;
		/* perf (issue 6): the PELT clock of this publish, see shadow_probe_pelt_cfs() */
		sc->pelt_pub_lut = READ_ONCE(avg->last_update_time);
	}

	gen = atomic_read(&shadow_reset_gen);
	raw_write_seqcount_begin(&sc->seq);
	if (sc->stats.gen != gen) {
		memset(&sc->stats, 0, sizeof(sc->stats));
		sc->stats.gen = gen;
	}
	switch (res) {
	case SHADOW_WALK_OK:
		sc->stats.published++;
		shadow_divstat_add(&sc->stats.div, s.time_ns, &(struct shadow_divsample) {
			shadow_fp_round(s.shadow_fp), shadow_fp_round(s.shadow_fresh_fp),
			s.h_load, s.load_avg });
		sc->pub.s = s;
		memcpy(sc->pub.nodes, sc->work, s.nr_nodes * sizeof(sc->work[0]));
		break;
	case SHADOW_WALK_INCONSISTENT:
		sc->stats.discarded++;
		break;
	case SHADOW_WALK_OVER_BUDGET:
		sc->stats.over_budget++;
		break;
	}
	raw_write_seqcount_end(&sc->seq);
	atomic_set_release(&sc->busy, 0);
}

/* ---- probes ---- */

/* stats: shadow_stat_begin/end are static-key NOPs unless `stats` is on */
static void shadow_probe_nr_running(void *data, struct rq *rq, int change)
{
	struct shadow_cpu *sc;
	u64 t0;

	if (!static_branch_likely(&shadow_enabled))
		return;
	t0 = shadow_stat_begin(SS_NR_RUNNING);
	sc = shadow_cpu_of(rq);
	if (likely(sc))
		shadow_update(sc, rq);
	shadow_stat_end(SS_NR_RUNNING, t0);
}

static void shadow_probe_pelt_cfs(void *data, struct cfs_rq *cfs)
{
	struct rq *rq;
	u64 t0;

	if (!static_branch_likely(&shadow_enabled))
		return;
	t0 = shadow_stat_begin(SS_PELT_CFS);
	rq = ks_cfs_rq_rq(cfs);
	if (trace_sched_load_cfs_rq_enabled())
		shadow_trace_cfs_rq(cfs, rq);
	if (cfs == ks_rq_cfs(rq)) {
		/*
		 * perf (issue 6): a root PELT update only refreshes values, and
		 * every enqueue/dequeue walks anyway (this tracepoint fires
		 * inside them, just before sched_update_nr_running_tp).  So
		 * walk only when the root's PELT clock has moved at least
		 * pelt_refresh_us since this CPU's last publish: a CPU whose
		 * tasks neither sleep nor wake still refreshes once per PELT
		 * period (1024 us), a busy one no longer walks twice per event.
		 */
		struct shadow_cpu *sc = shadow_cpu_of(rq);
		u64 lut = READ_ONCE(ks_cfs_rq_avg(cfs)->last_update_time);

		if (unlikely(!sc))
			goto out;
		if (lut - sc->pelt_pub_lut < READ_ONCE(shadow_pelt_refresh_ns))
			shadow_stat_pelt_skipped();
		else
			shadow_update(sc, rq);
	}
out:
	shadow_stat_end(SS_PELT_CFS, t0);
}

static void shadow_probe_pelt_se(void *data, struct sched_entity *se)
{
	u64 t0;

	if (!static_branch_likely(&shadow_enabled))
		return;
	t0 = shadow_stat_begin(SS_PELT_SE);
	if (trace_sched_load_se_enabled())
		shadow_trace_se(se);
	shadow_stat_end(SS_PELT_SE, t0);
}

/*
 * A CFS task preempted by an RT/DL task is work to give, but no PELT or
 * nr_running tracepoint fires after rq->curr changes: the switch itself
 * must refresh the walk.  sched_switch fires with rq->curr == next, under
 * the rq lock.  Only switches into or out of an RT/DL task walk (PI
 * boosting counts as RT, as it does for the balancer).  The prototype
 * follows the kernel's (BTF: prev_state was added in 5.18), so the call
 * is well-typed even under kernel CFI.  Optional: without it the shadow
 * works, but a CFS task preempted by RT is only seen at the next event.
 */
#if KS_NARGS_btf_trace_sched_switch == 5
static void shadow_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next, unsigned int prev_state)
#else
static void shadow_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next)
#endif
{
	struct rq *rq;
	u64 t0;

	if (!static_branch_likely(&shadow_enabled))
		return;
	t0 = shadow_stat_begin(SS_SWITCH);
	if (likely(prev->prio >= MAX_RT_PRIO && next->prio >= MAX_RT_PRIO))
		goto out;
	rq = ks_cfs_rq_rq(next->se.cfs_rq);
	if (unlikely(!rq || ks_rq_curr(rq) != next))
		goto out;
	if (ks_cfs_rq_h_nr_running(ks_rq_cfs(rq)) || next->prio >= MAX_RT_PRIO) {
		struct shadow_cpu *sc = shadow_cpu_of(rq);

		if (likely(sc))
			shadow_update(sc, rq);
	}
out:
	shadow_stat_end(SS_SWITCH, t0);
}

/* sched_switch is not exported to modules: find it among the kernel's tracepoints. */
static struct tracepoint *shadow_tp_switch;

static void shadow_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		shadow_tp_switch = tp;
}

/* ---- registration ---- */

struct shadow_hook {
	const char *name;
	int (*reg)(void);
	void (*unreg)(void);
	int err;		/* 0 active, >0 never tried, <0 register error */
	bool optional;		/* a failure leaves it inactive instead of failing the load */
	bool on_demand;		/* attached only while its trace event is on (pelt_se_tp) */
};

static int shadow_reg_nr_running(void)
{
	return register_trace_sched_update_nr_running_tp(shadow_probe_nr_running, NULL);
}

static void shadow_unreg_nr_running(void)
{
	unregister_trace_sched_update_nr_running_tp(shadow_probe_nr_running, NULL);
}

static int shadow_reg_pelt_cfs(void)
{
	return register_trace_pelt_cfs_tp(shadow_probe_pelt_cfs, NULL);
}

static void shadow_unreg_pelt_cfs(void)
{
	unregister_trace_pelt_cfs_tp(shadow_probe_pelt_cfs, NULL);
}

static int shadow_reg_pelt_se(void)
{
	return register_trace_pelt_se_tp(shadow_probe_pelt_se, NULL);
}

static void shadow_unreg_pelt_se(void)
{
	unregister_trace_pelt_se_tp(shadow_probe_pelt_se, NULL);
}

static int shadow_reg_switch(void)
{
	for_each_kernel_tracepoint(shadow_find_tp, NULL);
	if (!shadow_tp_switch)
		return -ENOENT;
	return tracepoint_probe_register(shadow_tp_switch, shadow_probe_switch, NULL);
}

static void shadow_unreg_switch(void)
{
	tracepoint_probe_unregister(shadow_tp_switch, shadow_probe_switch, NULL);
}

static struct shadow_hook shadow_hooks[] = {
	{ "pelt_cfs_tp", shadow_reg_pelt_cfs, shadow_unreg_pelt_cfs, 1 },
	{ "pelt_se_tp", shadow_reg_pelt_se, shadow_unreg_pelt_se, 1, false, true },
	{ "sched_update_nr_running_tp", shadow_reg_nr_running, shadow_unreg_nr_running, 1 },
	{ "sched_switch", shadow_reg_switch, shadow_unreg_switch, 1, true },
};

#define SHADOW_HOOK_PELT_SE	1

/*
 * perf (issue 6): pelt_se_tp on demand.  The sched_load_se event's
 * reg/unreg callbacks (trace.h) run with the tracepoint core's mutex held,
 * so they cannot attach a probe themselves: they record what is wanted and
 * queue shadow_se_work, which attaches or detaches pelt_se_tp under
 * shadow_se_lock.  `ready` is true between registration and exit only;
 * exit clears it before it unregisters the other hooks (which takes the
 * tracepoint mutex, so a callback that saw `ready` has queued its work by
 * then) and then cancels the work.
 */
static bool shadow_se_want;	/* sched_load_se has a consumer */
static bool shadow_se_ready;
static bool shadow_se_attached;
static DEFINE_MUTEX(shadow_se_lock);

/* Attach or detach pelt_se_tp as sched_load_se wants (shadow_se_lock held). */
static void shadow_se_sync(void)
{
	struct shadow_hook *h = &shadow_hooks[SHADOW_HOOK_PELT_SE];
	bool want = READ_ONCE(shadow_se_want);
	int err;

	if (!shadow_se_ready || h->err)
		return;
	if (want && !shadow_se_attached) {
		err = h->reg();
		if (err)
			pr_warn("cannot attach to tracepoint %s (%d): sched_load_se stays empty\n",
				h->name, err);
		else
			shadow_se_attached = true;
	} else if (!want && shadow_se_attached) {
		h->unreg();
		shadow_se_attached = false;
	}
}

static void shadow_se_work_fn(struct work_struct *work)
{
	mutex_lock(&shadow_se_lock);
	shadow_se_sync();
	mutex_unlock(&shadow_se_lock);
}
static DECLARE_WORK(shadow_se_work, shadow_se_work_fn);

int shadow_se_event_reg(void)
{
	WRITE_ONCE(shadow_se_want, true);
	if (READ_ONCE(shadow_se_ready))
		schedule_work(&shadow_se_work);
	return 0;
}

void shadow_se_event_unreg(void)
{
	WRITE_ONCE(shadow_se_want, false);
	if (READ_ONCE(shadow_se_ready))
		schedule_work(&shadow_se_work);
}

int shadow_nr_hooks(void)
{
	return ARRAY_SIZE(shadow_hooks);
}

/* For `info`: "active", "standby:<why>" (on demand, not needed now) or "inactive:<reason>". */
const char *shadow_hook_state(int i, const char **name)
{
	*name = shadow_hooks[i].name;
	if (!shadow_hooks[i].err) {
		if (shadow_hooks[i].on_demand && !READ_ONCE(shadow_se_attached))
			return "standby:sched_load_se-off";
		return "active";
	}
	return shadow_hooks[i].err > 0 ? "inactive:not-registered" : "inactive:register-failed";
}

/**
 * shadow_probes_register() - attach the three tracepoint probes
 *
 * All or nothing for the required ones; an optional one that fails stays
 * inactive (shown in `info`).
 * Return: 0 or the first registration error (everything undone).
 */
int shadow_probes_register(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(shadow_hooks); i++) {
		/* missing_tp= simulates a kernel without this tracepoint (tests) */
		if (shadow_missing_tp && !strcmp(shadow_missing_tp, shadow_hooks[i].name))
			err = -ENOENT;
		else if (shadow_hooks[i].on_demand)
			err = 0;	/* attached by shadow_se_sync() when wanted */
		else
			err = shadow_hooks[i].reg();
		shadow_hooks[i].err = err;
		if (err && shadow_hooks[i].optional) {
			pr_warn("tracepoint %s not attached (%d): RT/DL preemption of CFS tasks is seen late\n",
				shadow_hooks[i].name, err);
			continue;
		}
		if (err) {
			pr_err("not loading: cannot attach to tracepoint %s (%d)\n", shadow_hooks[i].name, err);
			goto out_unregister;
		}
	}
	mutex_lock(&shadow_se_lock);
	shadow_se_ready = true;
	shadow_se_sync();	/* sched_load_se may have been enabled already */
	mutex_unlock(&shadow_se_lock);
	return 0;

out_unregister:
	while (--i >= 0) {
		if (!shadow_hooks[i].err && !shadow_hooks[i].on_demand)
			shadow_hooks[i].unreg();
		shadow_hooks[i].err = 1;
	}
	tracepoint_synchronize_unregister();
	return err;
}

/** shadow_probes_unregister() - detach the probes and wait until none runs */
void shadow_probes_unregister(void)
{
	int i;

	mutex_lock(&shadow_se_lock);
	WRITE_ONCE(shadow_se_ready, false);
	if (shadow_se_attached) {
		shadow_hooks[SHADOW_HOOK_PELT_SE].unreg();
		shadow_se_attached = false;
	}
	mutex_unlock(&shadow_se_lock);
	for (i = ARRAY_SIZE(shadow_hooks) - 1; i >= 0; i--) {
		if (!shadow_hooks[i].err) {
			if (!shadow_hooks[i].on_demand)
				shadow_hooks[i].unreg();
			shadow_hooks[i].err = 1;
		}
	}
	/* a reg/unreg callback that saw `ready` finished before the unreg above took the tracepoint mutex */
	cancel_work_sync(&shadow_se_work);
	tracepoint_synchronize_unregister();
	shadow_walk_exit();	/* walk.c: a pending layout warning */
}

/* ---- state and readers ---- */

/** shadow_state_alloc() - per-CPU state for every possible CPU */
int shadow_state_alloc(void)
{
	int cpu;

	shadow_cpus = kcalloc(nr_cpu_ids, sizeof(*shadow_cpus), GFP_KERNEL);
	if (!shadow_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct shadow_cpu *sc = kzalloc_node(sizeof(*sc), GFP_KERNEL, cpu_to_node(cpu));

		if (!sc)
			goto out_free;
		sc->frames = kcalloc_node(SHADOW_MAX_DEPTH, sizeof(*sc->frames), GFP_KERNEL,
					  cpu_to_node(cpu));
		if (!sc->frames) {
			kfree(sc);
			goto out_free;
		}
		if (KS_FLAT_RUNQUEUE) {	/* walk_flat.c's table (walk.h) */
			sc->flat = shadow_flat_alloc(cpu_to_node(cpu));
			if (!sc->flat) {
				kfree(sc->frames);
				kfree(sc);
				goto out_free;
			}
		}
		seqcount_init(&sc->seq);
		sc->stats.gen = atomic_read(&shadow_reset_gen);
		shadow_cpus[cpu] = sc;
	}
	return 0;

out_free:
	shadow_state_free();
	return -ENOMEM;
}

/** shadow_state_free() - free what shadow_state_alloc() took (probes must be off) */
void shadow_state_free(void)
{
	int cpu;

	if (!shadow_cpus)
		return;
	for_each_possible_cpu(cpu) {
		if (shadow_cpus[cpu]) {
			kfree(shadow_cpus[cpu]->frames);
			shadow_flat_free(shadow_cpus[cpu]->flat);
			kfree(shadow_cpus[cpu]);
		}
	}
	kfree(shadow_cpus);
	shadow_cpus = NULL;
}

#define SHADOW_READ_TRIES 1000

/*
 * Copy one CPU's published state under its seqcount: the root values
 * always, the nodes and the statistics when asked for.  Lock-free; gives
 * up after a bounded number of attempts.
 */
static bool shadow_read(int cpu, struct shadow_scalars *s, struct shadow_node *nodes,
			struct shadow_stats *stats)
{
	struct shadow_cpu *sc = shadow_cpus[cpu];
	int tries;

	for (tries = 0; tries < SHADOW_READ_TRIES; tries++) {
		unsigned int seq = raw_read_seqcount(&sc->seq);

		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();
		*s = sc->pub.s;
		if (s->nr_nodes > SHADOW_MAX_NODES)
			s->nr_nodes = SHADOW_MAX_NODES;
		if (nodes)
			memcpy(nodes, sc->pub.nodes, s->nr_nodes * sizeof(*nodes));
		if (stats)
			*stats = sc->stats;
		if (!read_seqcount_retry(&sc->seq, seq))
			return true;
	}
	return false;
}

/**
 * shadow_read_cpu() - a consistent copy of one CPU's published state
 * @cpu:   the CPU
 * @snap:  out: the last published walk, root values and nodes
 *
 * Return: true if the copy is consistent.
 */
bool shadow_read_cpu(int cpu, struct shadow_snap *snap)
{
	return shadow_read(cpu, &snap->s, snap->nodes, NULL);
}

/** shadow_read_stats() - root values and counters since reset (zeroed if a reset is pending) */
bool shadow_read_stats(int cpu, struct shadow_scalars *s, struct shadow_stats *stats)
{
	u32 gen = atomic_read(&shadow_reset_gen);

	if (!shadow_read(cpu, s, NULL, stats))
		return false;
	if (stats->gen != gen) {
		memset(stats, 0, sizeof(*stats));
		stats->gen = gen;
	}
	return true;
}

/** shadow_read_scalars() - the root values of one CPU's last published walk */
bool shadow_read_scalars(int cpu, struct shadow_scalars *s)
{
	return shadow_read(cpu, s, NULL, NULL);
}

#define SHADOW_READ_NODE_TRIES 4

/**
 * shadow_read_node() - one cfs_rq of a CPU's last published walk
 * @cpu:  the CPU
 * @cgid: the cgroup id of the cfs_rq
 * @out:  out: its node
 *
 * For the trace events, in any context: with @cpu's rq lock held (the
 * first copy is consistent: the writer holds that lock) or without it
 * (pelt_se_tp from migrate_task_rq_fair, task_dead_fair,
 * unregister_fair_sched_group: a writer may be publishing on @cpu).
 * Lock-free and bounded: SHADOW_READ_NODE_TRIES copies at most, each a
 * scan of at most SHADOW_MAX_NODES nodes.
 * Return: true if @cgid was found in a consistent copy.
 */
bool shadow_read_node(int cpu, u64 cgid, struct shadow_node *out)
{
	struct shadow_cpu *sc = shadow_cpus[cpu];
	int tries;

	for (tries = 0; tries < SHADOW_READ_NODE_TRIES; tries++) {
		unsigned int seq = raw_read_seqcount(&sc->seq);
		bool found = false;
		u32 i, nr;

		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();
		nr = min_t(u32, READ_ONCE(sc->pub.s.nr_nodes), SHADOW_MAX_NODES);
		for (i = 0; i < nr; i++) {
			if (READ_ONCE(sc->pub.nodes[i].cgid) == cgid) {
				*out = sc->pub.nodes[i];
				found = true;
				break;
			}
		}
		if (!read_seqcount_retry(&sc->seq, seq))
			return found;
	}
	return false;
}

/** shadow_reset() - clear every CPU's counters (each writer clears its own on its next walk) */
void shadow_reset(void)
{
	atomic_inc(&shadow_reset_gen);
}
