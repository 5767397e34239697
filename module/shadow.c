// SPDX-License-Identifier: GPL-2.0
/*
 * The hot path's driver: the tracepoint probes, when to walk, and the
 * per-CPU publication the audit and debugfs read.  The walk itself is in
 * walk.c (walk_flat.c on the 7.3+ single run queue); the trace events
 * have their own probes (trace_feed.c).
 *
 * When to walk (docs/design.md, "When to walk"): pelt_cfs_tp can fire
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
#include <linux/cpuhotplug.h>
#include <linux/sched/prio.h>
#include <linux/sched/rt.h>
#include <linux/sched/deadline.h>
#include <trace/events/sched.h>

#include "kstruct.h"
#include "shadow.h"
#include "stats.h"

#include "trace.h"
#include "walk.h"
#include "walk_flat.h"
#include "waiters.h"

struct shadow_cpu **shadow_cpus;
const char *shadow_missing_tp;		/* main.c: missing_tp */
unsigned int shadow_walk_budget = SHADOW_WALK_BUDGET_DEFAULT;
bool shadow_exact;			/* main.c: exact */
u64 shadow_pelt_refresh_ns = 1000 * NSEC_PER_USEC;	/* main.c: pelt_refresh_us */
atomic_t shadow_reset_gen = ATOMIC_INIT(1);
atomic_t shadow_enable_gen = ATOMIC_INIT(1);
/* bumped with each of the generations above and on CPU hotplug: one load for the probes */
static atomic_t shadow_epoch = ATOMIC_INIT(1);
DEFINE_STATIC_KEY_TRUE(shadow_enabled);

/*
 * Walk after this many events without one (outside exact mode): with the
 * walk at each PELT period of the root, what bounds how stale `groups`
 * membership and the shadow sums may be (docs/performance.md).
 */
#define SHADOW_WALK_EVENTS	32

/* The unpublished copy of a latch: readers are directed to the other one. */
static __always_inline unsigned int shadow_latch_next(const seqcount_latch_t *l)
{
	return (READ_ONCE(l->seqcount.sequence) + 1) & 1;
}

/* Publish the copy shadow_latch_next() named (writes before, readers after). */
static __always_inline void shadow_latch_flip(seqcount_latch_t *l)
{
	raw_write_seqcount_latch(l);
}

/* Fill and publish @sc's per-event state: bounded (waiters.c). */
static void shadow_publish_evt(struct shadow_cpu *sc, struct rq *rq)
{
	struct shadow_evt *e = &sc->evt[shadow_latch_next(&sc->evt_seq)];
	const struct cfs_rq *cfs = ks_rq_cfs(rq);
	const struct sched_avg *avg = ks_cfs_rq_avg(cfs);

	if (shadow_waiters_note(rq, e))
		sc->switch_refresh = true;
	e->load_avg = READ_ONCE(avg->load_avg);
	e->runnable_avg = READ_ONCE(avg->runnable_avg);
	e->util_avg = READ_ONCE(avg->util_avg);
	e->weight = shadow_weight_down(ks_cfs_rq_load(cfs)->weight);
	e->capacity = ks_rq_cpu_capacity(rq);
	e->walk_failed = sc->walk_failed;
	shadow_latch_flip(&sc->evt_seq);
}

/*
 * Walk @rq's hierarchy and publish it; @sc is shadow_cpu_of(@rq).
 * @from_pelt: started from a root PELT update, which can fire in the middle
 * of an enqueue or dequeue (docs/design.md): an inconsistent walk there is not
 * a failure, it is redone by the nr_running probe at the end of that
 * operation.  Return: true if a walk was published.
 */
static bool shadow_walk_publish(struct shadow_cpu *sc, struct rq *rq, bool from_pelt)
{
	unsigned int next = shadow_latch_next(&sc->walk_seq);
	struct shadow_walked *wd = &sc->walked[next];
	u32 gen = atomic_read(&shadow_reset_gen), epoch = atomic_read(&shadow_epoch);
	enum shadow_walk_result res;
	struct shadow_scalars s;
	unsigned int visited = 0;
	bool restart;

	sc->work = wd->nodes;	/* the walk writes the unpublished copy in place */
	/* the layout BTF shows (7.3+ single run queue or one tree per cfs_rq) */
	res = KS_FLAT_RUNQUEUE ? shadow_walk_flat(sc, rq, &s, &visited) :
				 shadow_walk_tree(sc, rq, &s, &visited);
	shadow_stat_walk(visited);	/* stats: entities per walk (static key) */
	sc->dirty = 0;

	raw_write_seqcount_begin(&sc->stats_seq);
	if (sc->stats.gen != gen) {
		memset(&sc->stats, 0, sizeof(sc->stats));
		sc->stats.gen = gen;
	}
	switch (res) {
	case SHADOW_WALK_OK:
		break;
	case SHADOW_WALK_INCONSISTENT:
		if (from_pelt) {	/* not a failure: redone at the end of the operation */
			sc->stats.deferred++;
			sc->walk_pending = true;
			raw_write_seqcount_end(&sc->stats_seq);
			return false;
		}
		sc->stats.discarded++;
		goto failed;
	case SHADOW_WALK_OVER_BUDGET:
		sc->stats.over_budget++;
		goto failed;
	}
	/*
	 * Time-weighted means: the time since the last publish is charged to
	 * the values it held, unless they were not known to hold (a failed
	 * walk, enable=0, hotplug, reset since): then the series restarts here.
	 */
	restart = sc->walk_failed || sc->epoch != epoch;
	wd->h.time_ns = ktime_get_mono_fast_ns();
	if (restart)
		sc->stats.div.last_ns = 0;
	sc->stats.published++;
	shadow_divstat_add(&sc->stats.div, wd->h.time_ns, &(struct shadow_divsample) {
		shadow_fp_round(s.shadow_fp), shadow_fp_round(s.shadow_fresh_fp), s.h_load,
		READ_ONCE(ks_cfs_rq_avg(ks_rq_cfs(rq))->load_avg) });
	raw_write_seqcount_end(&sc->stats_seq);

	wd->h.shadow_fp = s.shadow_fp;
	wd->h.shadow_avg_fp = s.shadow_avg_fp;
	wd->h.shadow_fresh_fp = s.shadow_fresh_fp;
	wd->h.h_load = s.h_load;
	wd->h.nr_nodes = s.nr_nodes;
	wd->h.truncated = s.truncated;
	wd->h.valid = true;
	wd->h.enable_gen = atomic_read(&shadow_enable_gen);
	wd->h.reset_gen = gen;
	wd->h.hp_gen = atomic_read(&sc->hp_gen);
	shadow_latch_flip(&sc->walk_seq);
	sc->epoch = epoch;
	sc->walk_failed = false;
	sc->walk_pending = false;
	/* perf: the PELT clock of this walk, see shadow_probe_pelt_cfs() */
	sc->pelt_pub_lut = READ_ONCE(ks_cfs_rq_avg(ks_rq_cfs(rq))->last_update_time);
	return true;

failed:
	/*
	 * Not retried before the next period or 32 events: a hierarchy over
	 * the budget must not turn every event into a walk.
	 */
	raw_write_seqcount_end(&sc->stats_seq);
	sc->walk_failed = true;
	sc->walk_pending = false;
	sc->epoch = epoch;
	sc->pelt_pub_lut = READ_ONCE(ks_cfs_rq_avg(ks_rq_cfs(rq))->last_update_time);
	return false;
}

/*
 * An event that may change who waits (enqueue, dequeue, a switch that
 * matters): the per-event state always, the walk when it is due.
 */
static void shadow_event(struct shadow_cpu *sc, struct rq *rq)
{
	sc->rq = rq;
	if (unlikely(READ_ONCE(shadow_exact) || sc->walk_pending ||
		     ++sc->dirty >= SHADOW_WALK_EVENTS ||
		     sc->epoch != atomic_read(&shadow_epoch)))
		shadow_walk_publish(sc, rq, false);
	shadow_publish_evt(sc, rq);
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
		shadow_event(sc, rq);
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
	if (cfs == ks_rq_cfs(rq)) {
		/*
		 * A root PELT update only changes values, not who is queued:
		 * walk when the root's PELT clock has moved pelt_refresh_us
		 * since this CPU's last walk (once per PELT period by
		 * default), so a CPU whose tasks neither sleep nor wake still
		 * has fresh shadow sums.  Every enqueue/dequeue publishes the
		 * per-event state anyway (this tracepoint fires inside them).
		 */
		struct shadow_cpu *sc = shadow_cpu_of(rq);
		u64 lut = READ_ONCE(ks_cfs_rq_avg(cfs)->last_update_time);

		if (unlikely(!sc))
			goto out;
		if (lut - sc->pelt_pub_lut < READ_ONCE(shadow_pelt_refresh_ns)) {
			shadow_stat_pelt_skipped();
		} else if (shadow_walk_publish(sc, rq, true)) {
			sc->rq = rq;
			shadow_publish_evt(sc, rq);
		}
	}
out:
	shadow_stat_end(SS_PELT_CFS, t0);
}

/*
 * Switches that change who waits without a PELT or nr_running event:
 * - a CFS task preempted by an RT/DL task is work to give, and one the RT
 *   task leaves again is not (PI boosting counts as RT, as it does for
 *   the balancer);
 * - 6.12+ delayed dequeue: a task that sleeps through a delayed dequeue
 *   fires no nr_running tracepoint, this switch is the only signal;
 * - the last event left a summary that depends on the pick (waiters.c).
 * sched_switch fires on the CPU itself with rq->curr == next, under the
 * rq lock.  The prototype follows the kernel's (BTF: prev_state was added
 * in 5.18), so the call is well-typed even under kernel CFI.  Optional:
 * without it such changes are seen at the next event.
 */
#if KS_NARGS_btf_trace_sched_switch == 5
static void shadow_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next, unsigned int prev_state)
#else
static void shadow_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next)
#endif
{
	struct shadow_cpu *sc;
	struct rq *rq;
	u64 t0;

	if (!static_branch_likely(&shadow_enabled))
		return;
	t0 = shadow_stat_begin(SS_SWITCH);
	sc = shadow_cpus[raw_smp_processor_id()];
	if (likely(prev->prio >= MAX_RT_PRIO && next->prio >= MAX_RT_PRIO &&
		   !sc->switch_refresh && !ks_se_delayed(&prev->se)))
		goto out;
	sc->switch_refresh = false;
	rq = sc->rq;
	if (likely(rq && ks_rq_curr(rq) == next))
		shadow_event(sc, rq);
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
	{ "sched_update_nr_running_tp", shadow_reg_nr_running, shadow_unreg_nr_running, 1 },
	{ "sched_switch", shadow_reg_switch, shadow_unreg_switch, 1, true },
};

int shadow_nr_hooks(void)
{
	return ARRAY_SIZE(shadow_hooks);
}

/* For `info`: "active" or "inactive:<reason>" (the trace feed's hooks: trace_feed.c). */
const char *shadow_hook_state(int i, const char **name)
{
	*name = shadow_hooks[i].name;
	if (!shadow_hooks[i].err)
		return "active";
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
	return 0;

out_unregister:
	while (--i >= 0) {
		if (!shadow_hooks[i].err)
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

	for (i = ARRAY_SIZE(shadow_hooks) - 1; i >= 0; i--) {
		if (!shadow_hooks[i].err) {
			shadow_hooks[i].unreg();
			shadow_hooks[i].err = 1;
		}
	}
	tracepoint_synchronize_unregister();
	shadow_walk_exit();	/* walk.c: a pending layout warning */
}

/* ---- state and readers ---- */

/*
 * CPU hotplug (freshness): a CPU that went offline or came back
 * is void until its next walk.  The callbacks run on that CPU in process
 * context; they only bump counters the probes compare.
 */
static enum cpuhp_state shadow_hp_state;

static int shadow_cpu_hotplug(unsigned int cpu)
{
	struct shadow_cpu *sc = shadow_cpus[cpu];

	if (sc)
		atomic_inc(&sc->hp_gen);
	atomic_inc(&shadow_epoch);
	return 0;
}

static int shadow_hotplug_register(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "sched_shadow:online",
					    shadow_cpu_hotplug, shadow_cpu_hotplug);

	if (ret < 0)
		return ret;
	shadow_hp_state = ret;
	return 0;
}

static void shadow_hotplug_unregister(void)
{
	if (shadow_hp_state > 0)
		cpuhp_remove_state_nocalls(shadow_hp_state);
	shadow_hp_state = 0;
}

/* Nothing to do: being queued on the CPU is the point (see shadow_refresh_all()). */
static void shadow_refresh_fn(struct work_struct *work)
{
}

/**
 * shadow_refresh_all() - make every online CPU publish fresh state now
 *
 * Load, `reset` and `enable 1` void every CPU until its next walk, and an
 * idle CPU may see no scheduler event for a long time: its rows, and every
 * verdict that needs it, would stay void.  A no-op work item queued on each
 * online CPU wakes a kworker there; its enqueue and dequeue fire
 * sched_update_nr_running_tp, which walks (the epoch changed) and
 * publishes.  Process context only (it waits for the items).
 */
void shadow_refresh_all(void)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		queue_work_on(cpu, system_wq, &shadow_cpus[cpu]->refresh);
	for_each_online_cpu(cpu)
		flush_work(&shadow_cpus[cpu]->refresh);
	cpus_read_unlock();
}

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
		INIT_WORK(&sc->refresh, shadow_refresh_fn);
		seqcount_latch_init(&sc->evt_seq);
		seqcount_latch_init(&sc->walk_seq);
		seqcount_init(&sc->stats_seq);
		sc->stats.gen = atomic_read(&shadow_reset_gen);
		sc->epoch = 0;	/* never equal to shadow_epoch: the first event walks */
		shadow_cpus[cpu] = sc;
	}
	if (shadow_hotplug_register()) {
		pr_err("not loading: cannot register the CPU hotplug callbacks\n");
		goto out_free;
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
	shadow_hotplug_unregister();
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

/*
 * Tries per latch or seqcount: a reader retries only when the writer
 * flipped the copy it was reading, so a few suffice; past the bound the
 * CPU reads as unreadable (a void reason), never as "no work".
 */
#define SHADOW_READ_TRIES 64

static const char *const shadow_void_names[SHADOW_NR_VOID_REASONS] = {
	[SHADOW_FRESH] = "fresh",
	[SHADOW_VOID_NEVER] = "never",
	[SHADOW_VOID_WALK_FAILED] = "walk_failed",
	[SHADOW_VOID_DISABLED] = "disabled",
	[SHADOW_VOID_RESET] = "reset",
	[SHADOW_VOID_HOTPLUG] = "hotplug",
	[SHADOW_VOID_STALE] = "stale",
	[SHADOW_VOID_UNREADABLE] = "unreadable",
};

/** shadow_void_name() - the name of an enum shadow_void_reason (debugfs, docs/debugfs.md) */
const char *shadow_void_name(unsigned int reason)
{
	return reason < SHADOW_NR_VOID_REASONS ? shadow_void_names[reason] : "?";
}

static bool shadow_read_evt(struct shadow_cpu *sc, struct shadow_evt *e)
{
	int tries;

	for (tries = 0; tries < SHADOW_READ_TRIES; tries++) {
		unsigned int seq = raw_read_seqcount_latch(&sc->evt_seq);

		*e = sc->evt[seq & 1];
		if (!read_seqcount_retry(&sc->evt_seq.seqcount, seq))
			return true;
	}
	return false;
}

/* The walk's scalars; its nodes too when @nodes is not NULL (then wd->nr_nodes of them). */
static bool shadow_read_walked(struct shadow_cpu *sc, struct shadow_walk_hdr *wd,
			       struct shadow_node *nodes)
{
	int tries;

	for (tries = 0; tries < SHADOW_READ_TRIES; tries++) {
		unsigned int seq = raw_read_seqcount_latch(&sc->walk_seq);
		const struct shadow_walked *src = &sc->walked[seq & 1];

		*wd = src->h;
		if (wd->nr_nodes > SHADOW_MAX_NODES)
			wd->nr_nodes = SHADOW_MAX_NODES;
		if (nodes)
			memcpy(nodes, src->nodes, wd->nr_nodes * sizeof(*nodes));
		if (!read_seqcount_retry(&sc->walk_seq.seqcount, seq))
			return true;
	}
	return false;
}

static bool shadow_read_counters(struct shadow_cpu *sc, struct shadow_stats *stats)
{
	int tries;

	for (tries = 0; tries < SHADOW_READ_TRIES; tries++) {
		unsigned int seq = raw_read_seqcount(&sc->stats_seq);

		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();
		*stats = sc->stats;
		if (!read_seqcount_retry(&sc->stats_seq, seq))
			return true;
	}
	return false;
}

/* Why @cpu's published state cannot be used, or SHADOW_FRESH. */
static enum shadow_void_reason shadow_void_of(int cpu, struct shadow_cpu *sc,
					      const struct shadow_walk_hdr *wd,
					      const struct shadow_evt *e)
{
	if (!static_key_enabled(&shadow_enabled))
		return SHADOW_VOID_DISABLED;
	if (!cpu_online(cpu))
		return SHADOW_VOID_HOTPLUG;
	if (e->walk_failed)
		return SHADOW_VOID_WALK_FAILED;
	if (!wd->valid)
		return SHADOW_VOID_NEVER;
	if (wd->hp_gen != (u32)atomic_read(&sc->hp_gen))
		return SHADOW_VOID_HOTPLUG;
	if (wd->enable_gen != (u32)atomic_read(&shadow_enable_gen))
		return SHADOW_VOID_DISABLED;
	if (wd->reset_gen != (u32)atomic_read(&shadow_reset_gen))
		return SHADOW_VOID_RESET;
	return SHADOW_FRESH;
}

/*
 * One CPU's published state: the per-event part and the last walk (two
 * latches, each read consistently; the two may be one event apart), the
 * nodes and the counters when asked for.  Lock-free and bounded.  On
 * failure @s says SHADOW_VOID_UNREADABLE and valid is false.
 */
static bool shadow_read(int cpu, struct shadow_scalars *s, struct shadow_node *nodes,
			struct shadow_stats *stats)
{
	struct shadow_cpu *sc = shadow_cpus[cpu];
	struct shadow_walk_hdr wd;
	struct shadow_evt e;

	memset(s, 0, sizeof(*s));
	if (!shadow_read_evt(sc, &e) || !shadow_read_walked(sc, &wd, nodes) ||
	    (stats && !shadow_read_counters(sc, stats))) {
		s->void_reason = SHADOW_VOID_UNREADABLE;
		return false;
	}
	s->time_ns = wd.time_ns;
	s->load_avg = e.load_avg;
	s->runnable_avg = e.runnable_avg;
	s->util_avg = e.util_avg;
	s->weight = e.weight;
	s->capacity = e.capacity;
	s->shadow_fp = wd.shadow_fp;
	s->shadow_avg_fp = wd.shadow_avg_fp;
	s->shadow_fresh_fp = wd.shadow_fresh_fp;
	s->h_load = wd.h_load;
	s->nr_running = e.nr_running;
	s->h_nr_running = e.h_nr_running;
	s->movable = e.movable;
	s->work = e.work;
	s->nr_nodes = wd.nr_nodes;
	s->valid = wd.valid;
	s->truncated = wd.truncated;
	s->void_reason = shadow_void_of(cpu, sc, &wd, &e);
	return true;
}

/**
 * shadow_read_cpu() - a consistent copy of one CPU's published state
 * @cpu:   the CPU
 * @snap:  out: the published values, the last walk's nodes
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

/** shadow_read_scalars() - one CPU's published values (no nodes) */
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
		unsigned int seq = raw_read_seqcount_latch(&sc->walk_seq);
		const struct shadow_walked *src = &sc->walked[seq & 1];
		bool found = false;
		u32 i, nr;

		nr = min_t(u32, READ_ONCE(src->h.nr_nodes), SHADOW_MAX_NODES);
		for (i = 0; i < nr; i++) {
			if (READ_ONCE(src->nodes[i].cgid) == cgid) {
				*out = src->nodes[i];
				found = true;
				break;
			}
		}
		if (!read_seqcount_retry(&sc->walk_seq.seqcount, seq))
			return found;
	}
	return false;
}

/** shadow_reset() - clear every CPU's counters (each writer clears its own on its next walk) */
void shadow_reset(void)
{
	atomic_inc(&shadow_reset_gen);
	atomic_inc(&shadow_epoch);	/* every CPU walks at its next event */
}

/**
 * shadow_enable_changed() - debugfs `enable` was written: every CPU is void
 * (SHADOW_VOID_DISABLED) until its next walk, which restarts its time-weighted
 * means.  Called before the probes are switched on and after they are off.
 */
void shadow_enable_changed(void)
{
	atomic_inc(&shadow_enable_gen);
	atomic_inc(&shadow_epoch);
}
