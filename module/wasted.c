// SPDX-License-Identifier: GPL-2.0
/*
 * Wasted-core time, the run-queue wait split, and the time's attribution
 * to the balancer's decisions.
 *
 * Wasted-core time (the invariant of "The Linux Scheduler: a Decade of
 * Wasted Cores", EuroSys'16): the time a CPU was idle while a CFS task that
 * could run on it waited on another CPU's run queue.  "Could run" is the
 * audit's work to give (core/work.h): affinity and cpuset (cpus_ptr), not
 * migration-disabled, not a per-CPU kthread.
 *
 * How it is measured: from change logs.  Each CPU's waiters are kept up
 * to date per event (waiters.c, under its rq lock), and every change (a
 * waiter of some key joined or left, the CPU turned busy or idle, a
 * snapshot after a rescan) is appended to the CPU's log as a 32-byte
 * record with its time (core/wasted_feed.h).  A kernel thread, the
 * sampler, drains every log each wasted_period_us, sorts the records by
 * time and replays them into per-domain counts of waiters
 * (core/wasted_replay.c): the time is charged exactly, at a cost per
 * change that does not grow with the number of CPUs or waiters, but for
 * records lost to a full log (that CPU is void, so unknown time, until its
 * next snapshot) and records published after the replay passed their
 * time (`bound_ms`).
 *
 * The sampler thread runs on the housekeeping CPUs (never on a nohz_full
 * or isolated one) at the lowest real-time priority (sched_set_fifo_low():
 * it samples on time on a busy machine); its own time on a CPU does not
 * change whether the CPU counts as busy, it is nobody's waiter, and its
 * wakeups of idle CPUs are counted (`idle_wakeups`).  When no CPU is busy it sleeps
 * until the next record (a CPU's first change wakes it through irq_work)
 * and samples a period after it: at most one wakeup per period.
 * The log's clock is CLOCK_MONOTONIC (ktime_get_mono_fast_ns()).
 *
 * Attribution: the audit's attempt-return handler calls
 * shadow_wasted_attempt() for every judged balancing attempt, keyed on its
 * destination (env->dst_cpu: under NOHZ another CPU balances on the idle
 * CPU's behalf) and domain.  Wasted time of CPU C at level L (the lowest
 * domain of C that spans a waiter that could run on C) in one sample is
 * charged to the last attempt at (C, L) made during the current wasted
 * stretch, or to `no_attempt` if none was.  A right pick that moved
 * nothing is `right/unmoved` with a cause, learned by an optional
 * kretprobe on can_migrate_task() (and, where the kernel has a
 * cache-aware balancer, can_migrate_llc()).  Stretches (and their
 * wasted_interval trace events) are resolved to the sampling period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/version.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/threads.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/sched/clock.h>
#include <linux/sched/topology.h>
#include <linux/tracepoint.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched/isolation.h>

#include "kstruct.h"
#include "shadow.h"
#include "stats.h"
#include "cgpath.h"
#include "trace.h"
#include "wasted.h"
#include "core/audit_core.h"
#include "core/wasted_why.h"
#include "dbgfs_input.h"
#include "wakeup.h"

/* Kernel API differences, all here (lttng's include/wrapper idea). */
#ifdef IRQ_WORK_INIT_HARD	/* 5.11+: run in hard-IRQ context on PREEMPT_RT too */
#define wasted_kick_init(w, fn) (*(w) = IRQ_WORK_INIT_HARD(fn))
#else
#define wasted_kick_init(w, fn) init_irq_work(w, fn)
#endif

#define WASTED_PERIOD_MIN_US	100
#define WASTED_PERIOD_MAX_US	1000000
#define WASTED_TRACE_MAX_MS	3600000
#define WASTED_TOPO_REFRESH_NS	(200 * NSEC_PER_MSEC)
/* records one sample may copy (the logs hold WASTED_LOG per CPU) */
#define WASTED_STEPS_PER_CPU	WASTED_LOG

/* The CPUs the sampler may run on: housekeeping for timers and scheduling domains. */
static void wasted_housekeeping(struct cpumask *m)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
	cpumask_and(m, housekeeping_cpumask(HK_TYPE_TIMER), housekeeping_cpumask(HK_TYPE_DOMAIN));
#else
	cpumask_and(m, housekeeping_cpumask(HK_FLAG_TIMER), housekeeping_cpumask(HK_FLAG_DOMAIN));
#endif
	if (cpumask_empty(m))
		cpumask_copy(m, cpu_possible_mask);
}

struct wasted_log **shadow_wasted_logs;
unsigned long *shadow_wasted_idle;
atomic_t shadow_wasted_asleep = ATOMIC_INIT(0);
struct task_struct *shadow_wasted_thread;

static unsigned int wasted_period_us = 1000;
module_param(wasted_period_us, uint, 0444);
MODULE_PARM_DESC(wasted_period_us, "wasted-core sampling period in us, 100..1000000; 0 turns wasted-core time off (default 1000)");

static unsigned int wasted_trace_ms = 100;
module_param(wasted_trace_ms, uint, 0444);
MODULE_PARM_DESC(wasted_trace_ms, "emit sched_shadow:wasted_interval for wasted stretches at least this long, 1..3600000 ms (default 100)");

static bool wasted_cause = true;
module_param(wasted_cause, bool, 0444);
MODULE_PARM_DESC(wasted_cause, "probe can_migrate_task() to name why a right pick moved nothing (default 1)");

DEFINE_STATIC_KEY_FALSE(shadow_wasted_on);
pid_t shadow_wasted_tgid;
u32 shadow_wasted_track_gen;	/* bumped when the tracked process changes */

/* Per possible CPU: the attempts destined to it. */
struct wasted_pcpu {
	/* last judged attempt per level with this CPU as destination (packed), and its time */
	u32 rec[WASTED_NR_LEVELS];
	u64 at[WASTED_NR_LEVELS];
	atomic_t seq[WASTED_NR_LEVELS];
	/* can_migrate_task() refusals of the attempt running on this CPU */
	int cmt_dst;
	u16 cmt_examined, cmt_allowed, cmt_pinned, cmt_running, cmt_hot, cmt_llc;
	bool in_cmt;
	bool llc_forbid;
};

static struct wasted_pcpu **wasted_pc;
/*
 * The last judged attempt per (level, group of its destination), keyed by
 * the group's first CPU: should_we_balance() lets only one CPU of a group
 * balance at a level, on the group's behalf.
 */
static u32 *wasted_grp_rec;		/* [WASTED_NR_LEVELS][nr_cpu_ids] */
static u64 *wasted_grp_at;
static struct irq_work wasted_kick_work;	/* wakes the sleeping sampler (hot path) */

/*
 * One CPU's wasted time at one level since it began (an *episode*: pauses
 * of up to WASTED_STRETCH_GAP_NS, at the sampler's resolution, do not end
 * it), and what began it: the placement of a waiter next to the idle CPU
 * (a wakeup mark, wakeup.c), or anything else.  Attempts count from its
 * start on.
 */
enum wasted_begin {
	WASTED_BEGIN_NONE,	/* no episode open */
	WASTED_BEGIN_OTHER,
	WASTED_BEGIN_WAKE,
};

struct wasted_ep {
	u64 start;		/* log clock */
	u8 why, detail;		/* the reason read while the CPU was idle (why_set) */
	bool why_set;
	u64 att_from;		/* the CPU's own attempts count from then on */
	u64 last;		/* end of the last sample with wasted time at this level */
	u8 begin;		/* enum wasted_begin */
	u8 path;		/* WAKE: enum wasted_wake_path */
};

/*
 * A placement's mark matches an episode that began within this window
 * around it: select_task_rq_fair() returns before the enqueue the waiter's
 * record carries (microseconds; milliseconds when the host deschedules a
 * vCPU in between).
 */
#define WASTED_WAKE_BEFORE_NS	(2ULL * NSEC_PER_MSEC)
#define WASTED_WAKE_AFTER_NS	(200ULL * NSEC_PER_USEC)

/* A wasted stretch in progress on one CPU: what the trace event reports. */
#define WASTED_TOP	4
struct wasted_stretch {
	u64 cgid[WASTED_TOP];
	u64 cg_ns[WASTED_TOP];
	u32 key[WASTED_TOP];
	u64 key_ns[WASTED_TOP];
	u32 cgroups;		/* distinct cgroups seen (capped at WASTED_TOP + 1) */
};

/* The sampler's state: written by the sampler thread, under the mutex (readers take it too). */
static struct {
	struct mutex lock;
	u32 gen;		/* shadow_reset_gen the accumulators belong to */
	u32 track_gen;		/* shadow_wasted_track_gen the tracked row belongs to */
	u64 last;		/* the log clock the replay has reached */
	u64 mono_off;		/* CLOCK_MONOTONIC - log clock (0: the log's clock is that) */
	u64 samples, cost_ns, cost_max_ns, sleeps, changes, late_max_ns;
	u64 delta_max_ns;
	u64 reset;		/* log clock of the reset the counters start at */
	u64 topo_ns;		/* when the topology was last read */
	bool topo_bad;		/* more distinct domains than the replay keeps: all void */
	bool paused;		/* enable 0: every CPU out, the counters end at last */
	struct wasted_cpu_acc *acc;
	struct wasted_keys *keys;
	struct wasted_ep (*ep)[WASTED_NR_LEVELS];
	u32 (*tick_seq)[WASTED_NR_LEVELS];
	struct wasted_stretch *st;
	u64 *in_stretch;	/* bitmap: CPUs in a wasted stretch */
	bool *was_idle;
	/* the replay (core/wasted_replay.c) and its feed (core/wasted_feed.c) */
	struct wr_replay *r;
	void *rmem;
	u32 dom_cap;
	size_t bytes;		/* what wasted_alloc() took (info: wasted_bytes) */
	struct wf f;
	struct wasted_topo topo;
	struct wasted_cgs cgs;	/* the rows as the readers print them (wasted_copy()) */
	struct shadow_wake_counts wake_base;	/* the wakeup probe's counts at the reset */
} W;

static u64 wasted_period_ns;
atomic64_t shadow_wasted_idle_wakeups = ATOMIC64_INIT(0);
static atomic64_t wasted_moves = ATOMIC64_INIT(0);	/* the sampler's affinity changes */
static cpumask_var_t wasted_hk, wasted_where;	/* housekeeping CPUs; where it may run now */
static bool wasted_where_ok, wasted_where_all;	/* both allocated; wasted_where is all of them */
static char wasted_state[80] = "inactive:not-initialized";
static char wasted_cause_state[80] = "inactive:not-initialized";

/* ---- attempts (audit.c's attempt-return handler) ---- */

#define WASTED_REC_VALID	(1u << 31)

static u32 wasted_cmt_cause(struct wasted_pcpu *pc, int dst)
{
	u32 cause = WASTED_CAUSE_UNKNOWN;

	if (READ_ONCE(wasted_cause_state[0]) != 'a')	/* "active:..." */
		goto out;
	if (pc->cmt_dst != dst || !pc->cmt_examined)
		cause = WASTED_CAUSE_NO_TASK;
	else if (pc->cmt_allowed)
		cause = WASTED_CAUSE_LOAD;
	else if (pc->cmt_llc)
		cause = WASTED_CAUSE_LLC;
	else if (pc->cmt_hot)
		cause = WASTED_CAUSE_HOT;
	else if (pc->cmt_running)
		cause = WASTED_CAUSE_RUNNING;
	else if (pc->cmt_pinned)
		cause = WASTED_CAUSE_PINNED;
out:
	pc->cmt_dst = -1;
	pc->cmt_examined = pc->cmt_allowed = pc->cmt_pinned = 0;
	pc->cmt_running = pc->cmt_hot = pc->cmt_llc = 0;
	return cause;
}

void shadow_wasted_attempt(int dst_cpu, const char *domain, int verdict, int reason,
			   int moved, bool kicked, u64 when)
{
	struct wasted_pcpu *pc, *me;
	u32 cause = WASTED_CAUSE_NONE, rec;
	int lvl, g;
	u64 now;

	if (!static_branch_unlikely(&shadow_wasted_on) || !wasted_pc)
		return;
	me = wasted_pc[raw_smp_processor_id()];
	if (verdict == AUDIT_RIGHT) {
		cause = wasted_cmt_cause(me, dst_cpu);
		if (moved > 0)
			cause = WASTED_CAUSE_MOVED;
		else if (kicked)
			cause = WASTED_CAUSE_KICKED;
	} else {
		wasted_cmt_cause(me, dst_cpu);	/* clear this attempt's notes */
	}
	if (verdict == AUDIT_BUSY)	/* a busy destination wastes nothing */
		return;
	if ((unsigned int)dst_cpu >= nr_cpu_ids || !domain || verdict < 0 || reason < 0)
		return;
	pc = wasted_pc[dst_cpu];
	lvl = wasted_level_of(domain);
	rec = WASTED_REC_VALID | (u32)(verdict & 0xff) << 16 | (u32)(reason & 0xff) << 8 | cause;
	now = when ? when : shadow_wasted_clock();
	WRITE_ONCE(pc->rec[lvl], rec);
	smp_wmb();	/* the record before its time and the count the sampler reads */
	WRITE_ONCE(pc->at[lvl], now);
	smp_wmb();	/* the time before the count */
	atomic_inc(&pc->seq[lvl]);
	g = shadow_wake_group(dst_cpu, lvl);
	if (g >= 0 && g < nr_cpu_ids && wasted_grp_rec) {
		size_t i = (size_t)lvl * nr_cpu_ids + g;

		WRITE_ONCE(wasted_grp_rec[i], rec);
		smp_wmb();	/* the record before its time: a reader that sees the time has it */
		WRITE_ONCE(wasted_grp_at[i], now);
	}
}

/* ---- can_migrate_task() probe: why a right pick moved nothing ---- */

struct wasted_cmt_ri {
	struct task_struct *p;
	int dst;
};

static int wasted_cmt_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wasted_cmt_ri *d = (struct wasted_cmt_ri *)ri->data;
	struct wasted_pcpu *pc = wasted_pc[smp_processor_id()];
	void *env = (void *)regs_get_kernel_argument(regs, 1);

	/* int can_migrate_task(struct task_struct *p, struct lb_env *env) */
	d->p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	d->dst = env ? ks_lb_env_dst_cpu(env) : -1;
	pc->in_cmt = true;
	pc->llc_forbid = false;
	return 0;
}

static int wasted_cmt_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wasted_cmt_ri *d = (struct wasted_cmt_ri *)ri->data;
	struct wasted_pcpu *pc = wasted_pc[smp_processor_id()];
	struct task_struct *p = d->p;
	u64 t0 = shadow_stat_begin(SS_WASTED_CMT);

	pc->in_cmt = false;
	if (!p || (unsigned int)d->dst >= nr_cpu_ids)
		goto out;
	if (pc->cmt_dst != d->dst) {	/* a new attempt (or active balance's) */
		pc->cmt_dst = d->dst;
		pc->cmt_examined = pc->cmt_allowed = pc->cmt_pinned = 0;
		pc->cmt_running = pc->cmt_hot = pc->cmt_llc = 0;
	}
	if (pc->cmt_examined < U16_MAX)
		pc->cmt_examined++;
	if (regs_return_value(regs))
		pc->cmt_allowed++;
	else if (!cpumask_test_cpu(d->dst, p->cpus_ptr) || ks_task_migration_disabled(p))
		pc->cmt_pinned++;
	else if (READ_ONCE(p->on_cpu))
		pc->cmt_running++;
	else if (pc->llc_forbid)
		pc->cmt_llc++;
	else
		pc->cmt_hot++;	/* task_hot(), or NUMA locality (migrate_degrades_locality) */
out:
	shadow_stat_end(SS_WASTED_CMT, t0);
	return 0;
}

static struct kretprobe wasted_cmt_krp = {
	.kp.symbol_name = "can_migrate_task",
	.entry_handler = wasted_cmt_entry,
	.handler = wasted_cmt_return,
	.data_size = sizeof(struct wasted_cmt_ri),
};

#if KS_ENUM_llc_mig__mig_forbid >= 0
/* 7.x cache-aware balancing: can_migrate_llc() said mig_forbid inside can_migrate_task() */
static int wasted_llc_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wasted_pcpu *pc = wasted_pc[smp_processor_id()];

	if (pc->in_cmt && (int)regs_return_value(regs) == KS_ENUM_llc_mig__mig_forbid)
		pc->llc_forbid = true;
	return 0;
}

static struct kretprobe wasted_llc_krp = {
	.kp.symbol_name = "can_migrate_llc",
	.handler = wasted_llc_return,
};
#define WASTED_HAS_LLC 1
#else
#define WASTED_HAS_LLC 0
#endif

static bool wasted_cmt_registered, wasted_llc_registered;

static void wasted_cause_init(void)
{
	int err;

	if (!wasted_cause) {
		strscpy(wasted_cause_state, "inactive:wasted_cause=0", sizeof(wasted_cause_state));
		return;
	}
	wasted_cmt_krp.maxactive = 2 * num_possible_cpus();
	err = register_kretprobe(&wasted_cmt_krp);
	if (err) {
		snprintf(wasted_cause_state, sizeof(wasted_cause_state),
			 "inactive:can_migrate_task-not-probed:%d", err);
		pr_warn("wasted-core: cannot probe can_migrate_task (%d): right/unmoved has cause_unknown\n",
			err);
		return;
	}
	wasted_cmt_registered = true;
#if WASTED_HAS_LLC
	wasted_llc_krp.maxactive = 2 * num_possible_cpus();
	if (!register_kretprobe(&wasted_llc_krp))
		wasted_llc_registered = true;
#endif
	snprintf(wasted_cause_state, sizeof(wasted_cause_state), "active:can_migrate_task%s",
		 wasted_llc_registered ? "+can_migrate_llc" :
		 WASTED_HAS_LLC ? "(can_migrate_llc-not-probed)" : "");
}

static void wasted_cause_exit(void)
{
#if WASTED_HAS_LLC
	if (wasted_llc_registered)
		unregister_kretprobe(&wasted_llc_krp);
#endif
	if (wasted_cmt_registered)
		unregister_kretprobe(&wasted_cmt_krp);
	wasted_llc_registered = wasted_cmt_registered = false;
}

/* ---- the sampler ---- */

void shadow_wasted_kick(void)
{
	if (atomic_cmpxchg(&shadow_wasted_asleep, 1, 0) == 1)
		irq_work_queue(&wasted_kick_work);
}

static void wasted_kick_fn(struct irq_work *work)
{
	struct task_struct *t = READ_ONCE(shadow_wasted_thread);

	if (t)
		wake_up_process(t);
}

/* The LLC flag's value, from BTF (SD_SHARE_PKG_RESOURCES before 6.10), as audit.c reads it */
#if HAS_KS_ENUMV__SD_SHARE_LLC
#define WASTED_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_LLC)
#elif HAS_KS_ENUMV__SD_SHARE_PKG_RESOURCES
#define WASTED_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_PKG_RESOURCES)
#else
#define WASTED_SD_SHARE_LLC 0
#endif

bool shadow_wasted_sd_llc(const struct sched_domain *sd)
{
	return ks_sd_flags(sd) & WASTED_SD_SHARE_LLC;
}

int shadow_wasted_sd_level(const struct sched_domain *sd)
{
	const char *name = ks_sd_name(sd);
	int flags;

	if (name)
		return wasted_level_of(name);
	flags = ks_sd_flags(sd);
	if (flags & SD_SHARE_CPUCAPACITY)
		return WASTED_LVL_SMT;
	if (flags & SD_NUMA)
		return WASTED_LVL_NUMA;
	if (flags & WASTED_SD_SHARE_LLC)
		return WASTED_LVL_MC;
	return WASTED_LVL_PKG;
}

/* Each online CPU's domains, lowest first. */
static void wasted_topo_read(void)
{
	struct wasted_topo *t = &W.topo;
	u32 c, l, k;

	rcu_read_lock();
	for (c = 0; c < t->nr_cpus; c++) {
		struct shadow_cpu *sc = shadow_cpus[c];
		struct rq *rq = sc ? READ_ONCE(sc->rq) : NULL;
		struct sched_domain *sd = rq && cpu_online(c) ? ks_rq_sd(rq) : NULL;

		for (l = 0; sd && l < WASTED_MAX_DOMAINS; l++, sd = ks_sd_parent(sd)) {
			const unsigned long *bits = cpumask_bits(ks_sd_span(sd));
			u64 *span = wasted_topo_span(t, c, l);

			t->slot[c * WASTED_MAX_DOMAINS + l] = shadow_wasted_sd_level(sd);
			for (k = 0; k < t->words; k++)
				span[k] = bits[k];
		}
		t->nlev[c] = l;
	}
	rcu_read_unlock();
}

static void wasted_clear(u64 now)
{
	u32 n = nr_cpu_ids;

	memset(W.acc, 0, n * sizeof(*W.acc));
	memset(W.keys, 0, n * sizeof(*W.keys));
	memset(W.ep, 0, n * sizeof(*W.ep));
	memset(W.st, 0, n * sizeof(*W.st));
	memset(W.in_stretch, 0, BITS_TO_LONGS(n) * sizeof(unsigned long));
	wr_zero(W.r, now);
	W.samples = W.cost_ns = W.cost_max_ns = W.sleeps = W.changes = W.late_max_ns = 0;
	W.delta_max_ns = 0;
	atomic64_set(&shadow_wasted_idle_wakeups, 0);
	atomic64_set(&wasted_moves, 0);
	shadow_wake_sum(&W.wake_base);
	W.reset = now;
}

static void wasted_stretch_note(struct wasted_stretch *st, u64 cgid, u32 key, u64 ns)
{
	u32 k;

	if (cgid) {
		for (k = 0; k < WASTED_TOP && st->cg_ns[k]; k++)
			if (st->cgid[k] == cgid)
				break;
		if (k == WASTED_TOP) {
			st->cgroups = WASTED_TOP + 1;
		} else {
			if (!st->cg_ns[k]) {
				st->cgid[k] = cgid;
				st->cgroups++;
			}
			st->cg_ns[k] += ns;
		}
	}
	for (k = 0; k < WASTED_TOP && st->key_ns[k]; k++)
		if (st->key[k] == key)
			break;
	if (k < WASTED_TOP) {
		st->key[k] = key;
		st->key_ns[k] += ns;
	}
}

static void wasted_key_names(u32 key, const char **verdict, const char **reason,
			     const char **cause)
{
	u32 v = WASTED_KEY_VERDICT(key), r = WASTED_KEY_REASON(key), c = WASTED_KEY_CAUSE(key);

	*cause = c < WASTED_NR_CAUSES ? wasted_cause_name[c] : "?";
	if (v == WASTED_V_NO_ATTEMPT) {
		*verdict = "no_attempt";
		*reason = r < WASTED_NR_NA ? wasted_na_name[r] : "?";
		*cause = c < WASTED_NR_NA_DETAILS ? wasted_na_detail_name[c] : "?";
		return;
	}
	if (v == WASTED_V_WAKEUP) {
		*verdict = "wakeup";
		*reason = r < WASTED_NR_WAKE_PATHS ? wasted_wake_path_name[r] : "?";
		*cause = c < WASTED_NR_RELS ? wasted_rel_name[c] : "?";
		return;
	}
	*verdict = v < AUDIT_NR_VERDICTS ? audit_verdict_name[v] : "?";
	if (v == AUDIT_RIGHT)
		*reason = c == WASTED_CAUSE_MOVED ? "moved" : "unmoved";
	else
		*reason = r < AUDIT_NR_REASONS ? audit_reason_name[r] : "?";
	if (c == WASTED_CAUSE_MOVED)
		*cause = "-";
}

/* The event of a stretch of @len that ended at @end (log clock). */
static void wasted_trace(int cpu, u64 end, u64 len, const struct wasted_stretch *st, u32 level)
{
	const char *verdict = "-", *reason = "-", *cause = "-", *path;
	u64 cg = 0, best = 0;
	u32 k, key = 0;
	bool have_key = false;

	for (k = 0; k < WASTED_TOP; k++)
		if (st->cg_ns[k] > best) {
			best = st->cg_ns[k];
			cg = st->cgid[k];
		}
	path = best ? shadow_cgpath_lookup(cg) : "-";
	best = 0;
	for (k = 0; k < WASTED_TOP; k++)
		if (st->key_ns[k] > best) {
			best = st->key_ns[k];
			key = st->key[k];
			have_key = true;
		}
	if (have_key) {
		wasted_key_names(key, &verdict, &reason, &cause);
		level = WASTED_KEY_LEVEL(key);
	}
	trace_wasted_interval(cpu, end - len + W.mono_off, len,
			      wasted_level_name[level < WASTED_NR_LEVELS ? level : WASTED_LVL_OTHER],
			      cg, path ? path : SHADOW_CGPATH_UNRESOLVED, st->cgroups, verdict, reason,
			      cause);
}

/*
 * Why no attempt judged idle CPU @c at level @lvl: the kernel's state now
 * (rq and domain fields through BTF; racy reads of another CPU's, in
 * process context), decided by core/wasted_why.c's rules.
 */
static int wasted_why_now(u32 c, u32 lvl, bool began_idle, bool ended, int *detail)
{
	struct wasted_why_in in = { .began_idle = began_idle, .ended = ended, .have_cost = true };
	struct shadow_cpu *sc = shadow_cpus[c];
	struct rq *rq = sc ? READ_ONCE(sc->rq) : NULL;
	struct sched_domain *sd;
	bool ok, ok2;

	*detail = WASTED_NAD_UNREAD;
	if (!rq)
		return WASTED_NA_UNKNOWN;
	in.now = jiffies;
	rcu_read_lock();
	for (sd = ks_rq_sd(rq); sd; sd = ks_sd_parent(sd)) {
		/* newly idle balancing stops at the first domain whose cost exceeds avg_idle */
		u64 cost = ks_sd_max_newidle_lb_cost(sd, &ok);

		in.have_cost &= ok;
		if (cost > in.max_cost)
			in.max_cost = cost;
		if (shadow_wasted_sd_level(sd) == lvl)
			break;
	}
	if (sd) {
		unsigned long ms = ks_sd_balance_interval(sd, &ok);
		unsigned long max = max(1UL, (unsigned long)HZ * num_online_cpus() / 10);

		in.last_balance = ks_sd_last_balance(sd, &ok2);
		in.next_balance = ks_rq_next_balance(rq, &in.have_sd);
		in.have_sd &= ok && ok2;
		/* get_sd_balance_interval() for an idle CPU: max_load_balance_interval caps it */
		in.interval = clamp(msecs_to_jiffies(ms), 1UL, max);
		in.newidle_flag = ks_sd_flags(sd) & SD_BALANCE_NEWIDLE;
		in.ratio = ks_sd_newidle_ratio(sd, &in.have_ratio);
	}
	in.blocked_tick = ks_rq_blocked_tick(rq, &in.have_blocked);
	in.idle_tick = ks_rq_idle_balance(rq, &in.have_idle_tick);
	in.avg_idle = ks_rq_avg_idle(rq, &ok);
	in.have_cost &= ok;
	in.tick_stopped = ks_rq_tick_stopped(rq, &in.have_nohz);
	/* NOHZ_BALANCE_KICK is bit 0 of nohz_flags in every kernel since 4.17 (not in BTF) */
	in.kick_pending = ks_rq_nohz_flags(rq, &ok) & 1;
	rcu_read_unlock();
	return wasted_why(&in, detail);
}

/*
 * The last attempt of @c's group at @lvl, when it is later than *@at (the
 * CPU's own): the group's first idle CPU balances for every CPU of it.
 */
static void wasted_group_attempt(u32 c, u32 lvl, u32 *rec, u64 *at)
{
	int g = shadow_wake_group(c, lvl);
	u64 gat;
	u32 grec;
	size_t i;

	if (g < 0 || g >= nr_cpu_ids)
		return;
	i = (size_t)lvl * nr_cpu_ids + g;
	gat = READ_ONCE(wasted_grp_at[i]);
	smp_rmb();	/* the time before the record (the writer's order reversed) */
	grec = READ_ONCE(wasted_grp_rec[i]);
	if ((grec & WASTED_REC_VALID) && (!(*rec & WASTED_REC_VALID) || gat > *at)) {
		*rec = grec;
		*at = gat;
	}
}

/*
 * A new episode of @c's wasted time at @lvl, in the sample (@lo, @now]:
 * when it began (@s: exact from the replay when @exact, else the CPU's
 * last turn to idle or the sample's start), and what began it.
 */
static void wasted_ep_open(u32 c, u32 lvl, struct wasted_ep *ep, u64 lo, u64 now, u64 s,
			   bool exact)
{
	u64 idle_at = W.r->cpu[c].idle_at, m, from, to;
	u32 path;

	ep->begin = WASTED_BEGIN_OTHER;
	ep->start = s ? s : lo;
	ep->att_from = ep->start;
	ep->why_set = false;
	if (exact) {
		/*
		 * The CPU went idle with the waiter there: newly idle balancing's
		 * chance, no placement's.  Its newly idle attempt ran before the
		 * switch to idle, while the CPU was busy (an attempt with a busy
		 * destination is not recorded, so any since it turned busy is that one).
		 */
		if (s == idle_at) {
			if (W.r->cpu[c].busy_at < s)
				ep->att_from = W.r->cpu[c].busy_at;
			return;
		}
		from = s;
		to = s;
	} else {
		from = ep->start;
		to = now;
	}
	if (!shadow_wake_mark(c, lvl, &m, &path))
		return;
	if (m + WASTED_WAKE_BEFORE_NS >= from && m <= to + WASTED_WAKE_AFTER_NS && m >= idle_at) {
		ep->begin = WASTED_BEGIN_WAKE;
		ep->path = path;
	}
}

/*
 * One CPU's attribution of @ns of wasted time at level @lvl in the sample
 * (@lo, @now]: the last attempt at (@c, @lvl) made since the episode
 * began; else the placement that began it; else why no attempt was made.
 */
static u32 wasted_charge(int c, u32 lvl, u64 ns, u64 lo, u64 now)
{
	struct wasted_pcpu *pc = wasted_pc[c];
	struct wasted_ep *ep;
	u32 s, rec, key, attempts;
	u64 at, since, idle_at;
	bool exact;

	if (lvl >= WASTED_LVL_NONE) {
		key = wasted_key(WASTED_LVL_NONE, WASTED_V_NO_ATTEMPT, WASTED_NA_NO_DOMAIN, 0);
		wasted_keys_add(&W.keys[c], key, ns, 0);
		return key;
	}
	ep = &W.ep[c][lvl];
	/*
	 * A new episode: the first waste at this level, waste again after a
	 * pause longer than the stretch's gap, or the CPU's turn to idle since
	 * the episode began (newly idle balancing's own chance).  Nothing else
	 * ends one: the waiters that make it wasted come and go (a preemption
	 * between two of them drops the count to 0 for an instant), and the
	 * attempts made since it began keep their time.  Its start: exact from
	 * the replay while the CPU is idle (when the waste at this level last
	 * began), else the turn to idle, else the sample's start.
	 */
	idle_at = W.r->cpu[c].idle_at;
	if (ep->begin == WASTED_BEGIN_NONE || lo > ep->last + WASTED_STRETCH_GAP_NS ||
	    idle_at > ep->start) {
		since = wr_level_since(W.r, c, lvl);
		exact = since && since <= now;
		if (!exact)
			since = idle_at > ep->start ? idle_at : 0;
		wasted_ep_open(c, lvl, ep, lo, now, since, exact);
	}
	ep->last = now;
	s = atomic_read(&pc->seq[lvl]);
	smp_rmb();	/* the count before the time and the record (the writer's order reversed) */
	at = READ_ONCE(pc->at[lvl]);
	smp_rmb();	/* the time before the record: no record newer than the time read */
	rec = READ_ONCE(pc->rec[lvl]);
	attempts = s - W.tick_seq[c][lvl];
	W.tick_seq[c][lvl] = s;	/* the next charge of this sample counts none of them again */
	if ((rec & WASTED_REC_VALID) && at >= ep->att_from && at < ep->start)
		at = ep->start;		/* the newly idle attempt of the turn to idle that began it */
	if (!(rec & WASTED_REC_VALID) || at < ep->start)
		wasted_group_attempt(c, lvl, &rec, &at);
	if ((rec & WASTED_REC_VALID) && at >= ep->start) {
		key = wasted_key(lvl, (rec >> 16) & 0xff, (rec >> 8) & 0xff, rec & 0xff);
	} else if (ep->begin == WASTED_BEGIN_WAKE) {
		key = wasted_key(lvl, WASTED_V_WAKEUP, ep->path, shadow_wake_rel(c, lvl));
	} else {
		const struct wr_cpu *rc = &W.r->cpu[c];
		/* it went idle during the episode with the waiter within reach, no attempt since */
		bool began_idle = rc->idle_at >= ep->start && rc->idle_lvl <= lvl &&
				  (!(rec & WASTED_REC_VALID) || rc->idle_at >= at);
		int why, detail;

		/*
		 * Read while the CPU is idle; busy again by the sample's end, the
		 * reason its episode had while idle, or (all of it within this
		 * sample) the rules without the tick's, whose state then is gone.
		 */
		if (rc->state == WR_IDLE) {
			why = wasted_why_now(c, lvl, began_idle, false, &detail);
			ep->why = why;
			ep->detail = detail;
			ep->why_set = true;
		} else if (ep->why_set) {
			why = ep->why;
			detail = ep->detail;
		} else {
			why = wasted_why_now(c, lvl, began_idle, true, &detail);
		}
		key = wasted_key(lvl, WASTED_V_NO_ATTEMPT, why, detail);
	}
	wasted_keys_add(&W.keys[c], key, ns, attempts);
	return key;
}

/* @ns of class @cls (level @lvl) for CPU @c's totals and stretch; a stretch that ended is traced. */
static void wasted_account(u32 c, u8 cls, u8 lvl, u64 ns, u64 lo, u64 end)
{
	struct wasted_out o = { .cls = cls, .level = lvl };
	struct wasted_cpu_acc *a = &W.acc[c];
	struct wasted_stretch *st = &W.st[c];
	bool first = cls == WASTED_C_WASTE && !a->in_stretch;
	u64 ended_len, gap;

	if (!ns)
		return;
	if (wasted_cpu_add(a, &o, ns, &ended_len, &gap)) {
		__clear_bit(c, (unsigned long *)W.in_stretch);
		if (ended_len >= (u64)wasted_trace_ms * NSEC_PER_MSEC && trace_wasted_interval_enabled())
			wasted_trace(c, end - gap, ended_len, st, WASTED_LVL_NONE);
	}
	if (cls == WASTED_C_WASTE) {
		u64 cg = 0;
		u32 key;

		__set_bit(c, (unsigned long *)W.in_stretch);
		if (first)
			memset(st, 0, sizeof(*st));
		key = wasted_charge(c, lvl, ns, lo, end);
		if (trace_wasted_interval_enabled()) {
			cg = wr_cause_cgid(W.r, c);
			if (first && cg)	/* ask for the path now: the event at its end finds it */
				shadow_cgpath_lookup(cg);
		}
		wasted_stretch_note(st, cg, key, ns);
	}
}

/*
 * Each CPU's pieces of this sample into its totals: the others first, the
 * wasted time last (a stretch is resolved to the sample).  @late: the
 * largest lateness of a record this sample, added to the bound of every
 * CPU that was idle.
 */
static void wasted_post(u64 end, u64 late)
{
	u64 lo = min(W.last, end);	/* the sample's start */
	u32 c, l;

	for (c = 0; c < W.topo.nr_cpus; c++) {
		struct wr_pieces *p = &W.r->cpu[c].p;
		u64 waste = 0;

		for (l = 0; l < WASTED_NR_LEVELS; l++)
			waste += p->level[l];
		if (late && (p->none || p->unknown || waste))
			W.acc[c].bound_ns += late;
		wasted_account(c, WASTED_C_OFF, WASTED_LVL_NONE, p->off, lo, end);
		wasted_account(c, WASTED_C_VOID, WASTED_LVL_NONE, p->vd, lo, end);
		wasted_account(c, WASTED_C_BUSY, WASTED_LVL_NONE, p->busy, lo, end);
		wasted_account(c, WASTED_C_NONE, WASTED_LVL_NONE, p->none, lo, end);
		wasted_account(c, WASTED_C_UNKNOWN, WASTED_LVL_NONE, p->unknown, lo, end);
		for (l = 0; waste && l < WASTED_NR_LEVELS; l++)
			wasted_account(c, WASTED_C_WASTE, l, p->level[l], lo, end);
		memset(p, 0, sizeof(*p));
		for (l = 0; wasted_pc[c] && l < WASTED_NR_LEVELS; l++)
			W.tick_seq[c][l] = atomic_read(&wasted_pc[c]->seq[l]);
	}
}

static void wasted_advance(u64 end);

/*
 * Paused (enable 0): the counters end at the pause (the records up to it
 * replayed first); every CPU is out until resumed.
 */
static void wasted_pause(void)
{
	u64 at;
	u32 c;

	if (W.paused)
		return;
	smp_rmb();	/* the key's state before the pause's time (shadow_enable_changed()'s smp_wmb()) */
	at = READ_ONCE(shadow_enable_ns);
	if (at > W.last)
		wasted_advance(at);
	wr_close_all(W.r, W.last);
	wasted_post(W.last, 0);
	for (c = 0; c < W.topo.nr_cpus; c++) {
		wr_set_state(W.r, W.last, c, WR_OFF);
		W.f.cpu[c].known = false;
	}
	wasted_post(W.last, 0);
	W.paused = true;
}

/* Copy @c's records since the last sample, up to @now; false when some were lost. */
static bool wasted_copy_log(u32 c, u64 now)
{
	struct wasted_log *lg = shadow_wasted_logs[c];
	struct wf_cpu *fc = &W.f.cpu[c];
	u32 h = smp_load_acquire(&lg->head);	/* pairs with shadow_wasted_rec_commit() */
	u32 first = fc->tail, kept = W.f.n, i;

	if (h - first > WASTED_LOG)
		return false;
	for (i = first; i != h && W.f.n < W.f.cap; i++) {
		const struct wasted_rec *e = &lg->ent[i % WASTED_LOG];

		if (READ_ONCE(e->stamp) > now)
			break;	/* written after this sample's time: the next one */
		W.f.steps[W.f.n].rec = *e;
		W.f.steps[W.f.n++].cpu = c;
	}
	smp_rmb();	/* the copies before the count that says whether they were overwritten */
	if (READ_ONCE(lg->head) - first > WASTED_LOG) {
		W.f.n = kept;
		return false;
	}
	fc->tail = i;
	return true;
}

/* Every CPU's records up to @end, replayed in time order, and every CPU's time charged to @end. */
static void wasted_advance(u64 end)
{
	struct wr_replay *r = W.r;
	u64 late;
	u32 c;

	if (end < W.last)
		end = W.last;
	if (!W.topo_ns || end - W.topo_ns > WASTED_TOPO_REFRESH_NS) {
		wasted_topo_read();
		shadow_wake_topo_read();
		if (!wr_topology_same(r, &W.topo))
			W.topo_bad = wr_topology(r, &W.topo, W.last) != 0;
		W.topo_ns = end;
	}
	W.f.n = 0;
	for (c = 0; c < W.topo.nr_cpus; c++) {
		struct wf_cpu *fc = &W.f.cpu[c];

		if (!shadow_wasted_logs[c]) {	/* came after the load: not known */
			if (r->cpu[c].state != (cpu_online(c) ? WR_VOID : WR_OFF))
				wr_set_state(r, W.last, c, cpu_online(c) ? WR_VOID : WR_OFF);
			continue;
		}
		if (!cpu_online(c) || W.topo_bad) {
			if (r->cpu[c].state != (W.topo_bad && cpu_online(c) ? WR_VOID : WR_OFF))
				wr_set_state(r, W.last, c, W.topo_bad && cpu_online(c) ? WR_VOID : WR_OFF);
			fc->known = false;
			fc->tail = READ_ONCE(shadow_wasted_logs[c]->head);
			continue;
		}
		if (!fc->known && r->cpu[c].state == WR_OFF)
			wr_set_state(r, W.last, c, WR_VOID);	/* online: unknown until its snapshot */
		if (!wasted_copy_log(c, end)) {
			wf_lost(&W.f, r, W.last, c);
			fc->tail = READ_ONCE(shadow_wasted_logs[c]->head);
			WRITE_ONCE(shadow_wasted_logs[c]->want_snap, 1);
			shadow_refresh_cpu(c);	/* its next event rescans: a snapshot */
		}
	}
	W.changes += W.f.n;
	wf_replay(&W.f, r, W.last, &late);
	if (late > W.late_max_ns)
		W.late_max_ns = late;
	wr_sample_close(r, end, W.in_stretch);
	wasted_post(end, late);
	W.last = end;
}

/*
 * One sample at @now (log clock): every CPU's records since the last one,
 * replayed in time order, and every CPU's time charged.  A reset since
 * the last sample starts the counters at the reset's own time: the
 * records up to it are replayed first, then everything is zeroed.
 * Return: true when a CPU is busy (else the sampler may sleep until the
 * next record).
 */
static bool wasted_sample(u64 now)
{
	u32 gen = atomic_read(&shadow_reset_gen);

	if (now < W.last)
		now = W.last;
	if (!static_key_enabled(&shadow_enabled)) {
		wasted_pause();
		return false;
	}
	if (W.paused) {		/* resumed: what happened meanwhile is not known */
		W.paused = false;
		W.last = now;
	}
	if (W.samples && now - W.last > W.delta_max_ns)
		W.delta_max_ns = now - W.last;
	if (W.gen != gen) {
		u64 at;

		smp_rmb();	/* the generation before its time (shadow_reset()'s smp_wmb()) */
		at = READ_ONCE(shadow_reset_ns);
		if (at > W.last && at < now)
			wasted_advance(at);
		wasted_clear(W.last);
		W.gen = gen;
	}
	if (W.track_gen != READ_ONCE(shadow_wasted_track_gen)) {
		struct wasted_cg_acc *t = &W.r->tracked.a;

		wr_cgs_flush(W.r, W.last);
		t->wasted_ns = t->wait_ns = t->wait_idle_ns = t->wait_busy_ns = 0;
		t->wait_unknown_ns = 0;
		W.track_gen = READ_ONCE(shadow_wasted_track_gen);
	}
	wasted_advance(now);
	W.samples++;
	return W.r->busy_count > 0;
}

/* Are records waiting in any log (a last look before sleeping)? */
static bool wasted_pending(void)
{
	u32 c;

	for (c = 0; c < W.topo.nr_cpus; c++)
		if (shadow_wasted_logs[c] &&
		    READ_ONCE(shadow_wasted_logs[c]->head) != W.f.cpu[c].tail)
			return true;
	return false;
}

/*
 * Where the sampler runs next (W.lock held, after a sample): on a busy
 * housekeeping CPU, so that its timer and its wakeups interrupt a CPU
 * that runs anyway, never an idle one (an idle CPU woken every period
 * would also balance on going idle again: the module would make the
 * balancing it audits).  Return: true if its affinity must change to
 * wasted_where: it runs on a CPU idle at this sample (it counts as what
 * it ran before) and a busy one exists, or none does and it is not on
 * every housekeeping CPU already.
 */
static bool wasted_pick_where(void)
{
	int c, me = raw_smp_processor_id();

	if (!wasted_where_ok || !W.r->cpu)
		return false;
	cpumask_clear(wasted_where);
	for_each_cpu(c, wasted_hk) {
		if (c >= W.topo.nr_cpus)
			break;
		if (W.r->cpu[c].state == WR_BUSY)
			__cpumask_set_cpu(c, wasted_where);
	}
	if (cpumask_test_cpu(me, wasted_where))
		return false;
	if (cpumask_empty(wasted_where)) {
		if (wasted_where_all)
			return false;
		cpumask_copy(wasted_where, wasted_hk);
	}
	return true;
}

static int wasted_thread_fn(void *data)
{
	while (!kthread_should_stop()) {
		u64 t0 = local_clock(), cost;
		ktime_t period = ns_to_ktime(wasted_period_ns);
		bool busy, move;

		mutex_lock(&W.lock);
		busy = wasted_sample(shadow_wasted_clock());
		move = busy && wasted_pick_where();
		cost = local_clock() - t0;
		W.cost_ns += cost;
		if (cost > W.cost_max_ns)
			W.cost_max_ns = cost;
		mutex_unlock(&W.lock);
		if (move && !set_cpus_allowed_ptr(current, wasted_where)) {
			wasted_where_all = cpumask_equal(wasted_where, wasted_hk);
			atomic64_inc(&wasted_moves);
		}
		if (!busy) {
			/* nothing runs, nothing can wait: sleep until a record comes */
			set_current_state(TASK_INTERRUPTIBLE);
			atomic_set(&shadow_wasted_asleep, 1);
			smp_mb__after_atomic();	/* the flag before the last look at the logs */
			if (wasted_pending() || kthread_should_stop()) {
				atomic_set(&shadow_wasted_asleep, 0);
				__set_current_state(TASK_RUNNING);
				continue;
			}
			W.sleeps++;
			schedule();
			atomic_set(&shadow_wasted_asleep, 0);
			/*
			 * Woken by a CPU's first record: sample a period later,
			 * as the timer would.  Sampling at once would run in the
			 * idle slot before the task that woke (idle still: asleep
			 * again), a wakeup per idle-to-busy change of any CPU.
			 */
			set_current_state(TASK_INTERRUPTIBLE);
			if (kthread_should_stop()) {
				__set_current_state(TASK_RUNNING);
				break;
			}
			schedule_hrtimeout_range(&period, wasted_period_ns / 8, HRTIMER_MODE_REL);
			continue;
		}
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout_range(&period, wasted_period_ns / 8, HRTIMER_MODE_REL);
	}
	return 0;
}

void shadow_wasted_wake(void)
{
	struct task_struct *t = READ_ONCE(shadow_wasted_thread);

	if (t)
		wake_up_process(t);
}

/* ---- init / exit ---- */

static void wasted_free(void)
{
	int cpu;

	if (wasted_where_ok) {
		wasted_where_ok = false;
		free_cpumask_var(wasted_where);
		free_cpumask_var(wasted_hk);
	}

	if (wasted_pc) {
		for_each_possible_cpu(cpu)
			kfree(wasted_pc[cpu]);
		kfree(wasted_pc);
		wasted_pc = NULL;
	}
	kvfree(W.acc);
	kvfree(W.keys);
	kvfree(W.ep);
	kvfree(W.tick_seq);
	kvfree(W.st);
	kvfree(W.in_stretch);
	kvfree(W.was_idle);
	if (shadow_wasted_logs) {
		for_each_possible_cpu(cpu)
			kvfree(shadow_wasted_logs[cpu]);
		kfree(shadow_wasted_logs);
		shadow_wasted_logs = NULL;
	}
	bitmap_free(shadow_wasted_idle);
	shadow_wasted_idle = NULL;
	shadow_wake_free();
	kvfree(wasted_grp_rec);
	kvfree(wasted_grp_at);
	wasted_grp_rec = NULL;
	wasted_grp_at = NULL;
	kvfree(W.r);
	kvfree(W.rmem);
	kvfree(W.f.cpu);
	kvfree(W.f.steps);
	kvfree(W.f.sort);
	kvfree(W.f.tmp);
	kvfree(W.topo.nlev);
	kvfree(W.topo.slot);
	kvfree(W.topo.span);
	memset(&W, 0, sizeof(W));
}

static int wasted_alloc(void)
{
	u32 n = nr_cpu_ids, words = DIV_ROUND_UP(n, 64), cap = num_present_cpus() * WASTED_STEPS_PER_CPU;
	int cpu, l;

	wasted_pc = kcalloc(n, sizeof(*wasted_pc), GFP_KERNEL);
	if (!wasted_pc)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct wasted_pcpu *pc = kzalloc_node(sizeof(*pc), GFP_KERNEL, cpu_to_node(cpu));

		if (!pc)
			return -ENOMEM;
		pc->cmt_dst = -1;
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			atomic_set(&pc->seq[l], 0);
		wasted_pc[cpu] = pc;
	}
	mutex_init(&W.lock);
	W.acc = kvcalloc(n, sizeof(*W.acc), GFP_KERNEL);
	W.keys = kvcalloc(n, sizeof(*W.keys), GFP_KERNEL);
	W.ep = kvcalloc(n, sizeof(*W.ep), GFP_KERNEL);
	W.tick_seq = kvcalloc(n, sizeof(*W.tick_seq), GFP_KERNEL);
	W.st = kvcalloc(n, sizeof(*W.st), GFP_KERNEL);
	W.in_stretch = kvcalloc(words, sizeof(u64), GFP_KERNEL);
	shadow_wasted_logs = kcalloc(n, sizeof(*shadow_wasted_logs), GFP_KERNEL);
	shadow_wasted_idle = bitmap_zalloc(n, GFP_KERNEL);
	wasted_grp_rec = kvcalloc((size_t)WASTED_NR_LEVELS * n, sizeof(u32), GFP_KERNEL);
	wasted_grp_at = kvcalloc((size_t)WASTED_NR_LEVELS * n, sizeof(u64), GFP_KERNEL);
	if (!shadow_wasted_logs || !shadow_wasted_idle || !wasted_grp_rec || !wasted_grp_at)
		return -ENOMEM;
	/* the CPUs present now (a CPU that comes later has no log: its state reads void) */
	for_each_present_cpu(cpu) {
		shadow_wasted_logs[cpu] = kvzalloc_node(sizeof(struct wasted_log), GFP_KERNEL,
							cpu_to_node(cpu));
		if (!shadow_wasted_logs[cpu])
			return -ENOMEM;
	}
	W.dom_cap = 4 * n + 8;
	W.r = kvzalloc(sizeof(*W.r), GFP_KERNEL);
	W.rmem = kvzalloc(wr_bytes(n, W.dom_cap), GFP_KERNEL);
	W.f.cpu = kvcalloc(n, sizeof(*W.f.cpu), GFP_KERNEL);
	W.f.steps = kvcalloc(cap, sizeof(*W.f.steps), GFP_KERNEL);
	W.f.sort = kvcalloc(cap, sizeof(*W.f.sort), GFP_KERNEL);
	W.f.tmp = kvcalloc(cap, sizeof(*W.f.tmp), GFP_KERNEL);
	W.topo.nlev = kvcalloc(n, 1, GFP_KERNEL);
	W.topo.slot = kvcalloc(n, WASTED_MAX_DOMAINS, GFP_KERNEL);
	W.topo.span = kvcalloc((size_t)n * WASTED_MAX_DOMAINS * words, sizeof(u64), GFP_KERNEL);
	if (!W.acc || !W.keys || !W.ep || !W.tick_seq || !W.st || !W.in_stretch ||
	    !W.r || !W.rmem || !W.f.cpu || !W.f.steps || !W.f.sort || !W.f.tmp ||
	    !W.topo.nlev || !W.topo.slot || !W.topo.span)
		return -ENOMEM;
	W.bytes = (size_t)num_possible_cpus() * sizeof(struct wasted_pcpu) +
		  (size_t)n * (sizeof(*W.acc) + sizeof(*W.keys) + sizeof(*W.ep) +
			       sizeof(*W.tick_seq) + sizeof(*W.st) + sizeof(*W.f.cpu) +
			       1 + WASTED_MAX_DOMAINS + (size_t)WASTED_MAX_DOMAINS * words * sizeof(u64)) +
		  words * sizeof(u64) + (size_t)num_present_cpus() * sizeof(struct wasted_log) +
		  BITS_TO_LONGS(n) * sizeof(long) +
		  (size_t)WASTED_NR_LEVELS * n * (sizeof(*wasted_grp_rec) + sizeof(*wasted_grp_at)) +
		  sizeof(*W.r) + wr_bytes(n, W.dom_cap) +
		  (size_t)cap * (sizeof(*W.f.steps) + sizeof(*W.f.sort) + sizeof(*W.f.tmp));
	W.topo.nr_cpus = n;
	W.topo.words = words;
	wasted_topo_read();
	W.last = shadow_wasted_clock();
	if (wr_init(W.r, W.rmem, n, W.dom_cap, &W.topo, W.last))
		W.topo_bad = true;
	wf_init(&W.f, n, W.f.cpu, W.f.steps, W.f.sort, W.f.tmp, cap);
	W.topo_ns = W.last;
	W.reset = W.last;
	W.gen = atomic_read(&shadow_reset_gen);
	W.track_gen = READ_ONCE(shadow_wasted_track_gen);
	return 0;
}

/**
 * shadow_wasted_init() - check the parameters, allocate, start the sampler (before the probes)
 *
 * Return: 0, -EINVAL for a bad parameter (the load is refused), -ENOMEM.
 */
int shadow_wasted_init(void)
{
	struct task_struct *t;
	int err;

	if (wasted_period_us && (wasted_period_us < WASTED_PERIOD_MIN_US ||
				 wasted_period_us > WASTED_PERIOD_MAX_US)) {
		pr_err("not loading: wasted_period_us=%u is outside 0 (off) or %u..%u\n",
		       wasted_period_us, WASTED_PERIOD_MIN_US, WASTED_PERIOD_MAX_US);
		return -EINVAL;
	}
	if (wasted_trace_ms < 1 || wasted_trace_ms > WASTED_TRACE_MAX_MS) {
		pr_err("not loading: wasted_trace_ms=%u is outside 1..%u\n", wasted_trace_ms,
		       WASTED_TRACE_MAX_MS);
		return -EINVAL;
	}
	if (!wasted_period_us) {
		strscpy(wasted_state, "inactive:wasted_period_us=0", sizeof(wasted_state));
		strscpy(wasted_cause_state, "inactive:wasted_period_us=0", sizeof(wasted_cause_state));
		return 0;
	}
	err = wasted_alloc();
	if (err) {
		wasted_free();
		return err;
	}
	wasted_period_ns = (u64)wasted_period_us * NSEC_PER_USEC;
	wasted_kick_init(&wasted_kick_work, wasted_kick_fn);
	t = kthread_create(wasted_thread_fn, NULL, "sched_shadow_wasted");
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
		snprintf(wasted_state, sizeof(wasted_state), "inactive:no-sampler-thread:%d", err);
		strscpy(wasted_cause_state, "inactive:wasted-off", sizeof(wasted_cause_state));
		pr_warn("wasted-core time off: cannot start the sampler thread (%d)\n", err);
		wasted_free();
		return 0;
	}
	/* housekeeping CPUs only: never a nohz_full or isolated one */
	if (zalloc_cpumask_var(&wasted_hk, GFP_KERNEL)) {
		wasted_housekeeping(wasted_hk);
		set_cpus_allowed_ptr(t, wasted_hk);
		if (zalloc_cpumask_var(&wasted_where, GFP_KERNEL)) {
			wasted_where_ok = true;	/* it follows the busy CPUs */
			wasted_where_all = true;
		} else {
			free_cpumask_var(wasted_hk);
		}
	}
	/* the lowest real-time priority: it samples on time without outranking real work */
	sched_set_fifo_low(t);
	WRITE_ONCE(shadow_wasted_thread, t);
	wasted_cause_init();
	shadow_wake_init();
	snprintf(wasted_state, sizeof(wasted_state), "active:change-logs:period_us=%u",
		 wasted_period_us);
	static_branch_enable(&shadow_wasted_on);
	wake_up_process(t);
	return 0;
}

/** shadow_wasted_exit() - stop the sampler and free (after the probes and the audit are gone) */
void shadow_wasted_exit(void)
{
	struct task_struct *t = shadow_wasted_thread;

	if (!wasted_pc)
		return;
	static_branch_disable(&shadow_wasted_on);
	shadow_wake_exit();
	wasted_cause_exit();
	atomic_set(&shadow_wasted_asleep, 0);
	irq_work_sync(&wasted_kick_work);
	if (t)
		kthread_stop(t);
	WRITE_ONCE(shadow_wasted_thread, NULL);
	irq_work_sync(&wasted_kick_work);
	wasted_free();
}

/* ---- readers ---- */

/* A copy of the accumulators, taken under the sampler's lock. */
struct wasted_copy {
	u32 n;
	bool stale;		/* a reset since the last sample: everything reads 0 */
	u64 samples, cost_ns, cost_max_ns, idle_wakeups, sleeps, delta_max_ns, changes, lost;
	u64 late_max_ns;
	struct wr_overflow ovf;
	u64 since_ns, until_ns;
	struct wasted_cpu_acc *acc;
	struct wasted_keys *keys;
	struct wasted_cgs *cgs;
	struct shadow_wake_counts *wake;	/* the wakeup probe's, since the reset */
};

static void wasted_copy_free(struct wasted_copy *cp)
{
	kvfree(cp->acc);
	kvfree(cp->keys);
	kvfree(cp->cgs);
	kvfree(cp->wake);
}

/* The wakeup probe's counts since the reset (@now - @base). */
static void wasted_wake_since(struct shadow_wake_counts *now, const struct shadow_wake_counts *base)
{
	u32 l, p;

	now->calls -= base->calls;
	now->busy -= base->busy;
	now->skipped -= base->skipped;
	for (l = 0; l < WASTED_NR_LEVELS; l++)
		for (p = 0; p < WASTED_NR_WAKE_PATHS; p++) {
			now->miss[l][p] -= base->miss[l][p];
			now->idle[l][p] -= base->idle[l][p];
		}
}

/* Every CPU's time up to the replay's and every row brought up to it (readers, under the mutex). */
static void wasted_flush(void)
{
	if (W.paused || !W.r)
		return;
	wr_close_all(W.r, W.last);
	wasted_post(W.last, 0);
	wr_cgs_flush(W.r, W.last);
}

static int wasted_copy(struct wasted_copy *cp)
{
	u32 n = W.topo.nr_cpus, i;

	memset(cp, 0, sizeof(*cp));
	cp->acc = kvcalloc(n, sizeof(*cp->acc), GFP_KERNEL);
	cp->keys = kvcalloc(n, sizeof(*cp->keys), GFP_KERNEL);
	cp->cgs = kvzalloc(sizeof(*cp->cgs), GFP_KERNEL);
	cp->wake = kvzalloc(sizeof(*cp->wake), GFP_KERNEL);
	if (!cp->acc || !cp->keys || !cp->cgs || !cp->wake) {
		wasted_copy_free(cp);
		return -ENOMEM;
	}
	cp->n = n;
	mutex_lock(&W.lock);
	if (W.gen != (u32)atomic_read(&shadow_reset_gen)) {
		cp->stale = true;
	} else {
		wasted_flush();
		memcpy(cp->acc, W.acc, n * sizeof(*cp->acc));
		memcpy(cp->keys, W.keys, n * sizeof(*cp->keys));
		for (i = 0; i < WR_CGS && i < WASTED_CGS; i++)
			cp->cgs->slot[i] = W.r->cg[i].a;
		cp->cgs->other = W.r->other.a;
		cp->cgs->tracked = W.r->tracked.a;
		cp->cgs->unscanned_ns = W.r->unscanned.a.wait_ns;
		cp->cgs->nr = W.r->nr_cg;
		cp->samples = W.samples;
		cp->cost_ns = W.cost_ns;
		cp->cost_max_ns = W.cost_max_ns;
		cp->idle_wakeups = atomic64_read(&shadow_wasted_idle_wakeups);
		cp->sleeps = W.sleeps;
		cp->delta_max_ns = W.delta_max_ns;
		cp->changes = W.changes;
		cp->lost = W.f.st.lost;
		cp->late_max_ns = W.late_max_ns;
		cp->ovf = W.r->ovf;
		cp->since_ns = W.reset + W.mono_off;
		cp->until_ns = W.last + W.mono_off;
		shadow_wake_sum(cp->wake);
		wasted_wake_since(cp->wake, &W.wake_base);
	}
	mutex_unlock(&W.lock);
	return 0;
}

/* ns as milliseconds with three decimals */
static void wasted_ms(struct seq_file *m, u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;

	seq_printf(m, " %llu.%03llu", us / 1000, us % 1000);
}

/* Is the key one of the kernel's deliberate policies (not a mistake, not a lack of data)? */
static bool wasted_key_policy(u32 key)
{
	u32 v = WASTED_KEY_VERDICT(key), r = WASTED_KEY_REASON(key), c = WASTED_KEY_CAUSE(key);

	if (v == AUDIT_WRONG || v == AUDIT_MISSED)
		return r != AUDIT_R_UNEXPLAINED;
	if (v == AUDIT_RIGHT)
		return c == WASTED_CAUSE_HOT || c == WASTED_CAUSE_LLC || c == WASTED_CAUSE_LOAD;
	return false;
}

static int wasted_cpus_show(struct seq_file *m, void *v)
{
	struct wasted_copy cp;
	u32 c, l;
	int err = wasted_copy(&cp);

	if (err)
		return err;
	seq_puts(m, "# sched_shadow wasted v1\n");
	seq_puts(m, "cpu online sampled_ms idle_ms wasted_ms unknown_ms intervals longest_ms bound_ms");
	for (l = 0; l < WASTED_NR_LEVELS; l++)
		seq_printf(m, " %s", wasted_level_name[l]);
	seq_puts(m, " since_ns until_ns\n");
	for (c = 0; c < cp.n; c++) {
		const struct wasted_cpu_acc *a = &cp.acc[c];

		if (!cpu_possible(c))
			continue;
		seq_printf(m, "%u %d", c, cpu_online(c) ? 1 : 0);
		wasted_ms(m, a->sampled_ns);
		wasted_ms(m, a->idle_ns);
		wasted_ms(m, a->wasted_ns);
		wasted_ms(m, a->unknown_ns);
		seq_printf(m, " %llu", a->intervals);
		wasted_ms(m, a->longest_ns);
		wasted_ms(m, a->bound_ns);
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			wasted_ms(m, a->level_ns[l]);
		/* the window these counters cover, CLOCK_MONOTONIC (0 0: nothing sampled yet) */
		seq_printf(m, " %llu %llu\n", cp.since_ns, cp.until_ns);
	}
	wasted_copy_free(&cp);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wasted_cpus);

static void wasted_cg_row(struct seq_file *m, const struct wasted_cg_acc *a, const char *id,
			  const char *path)
{
	seq_printf(m, "%s", id);
	wasted_ms(m, a->wasted_ns);
	wasted_ms(m, a->wait_ns);
	wasted_ms(m, a->wait_idle_ns);
	wasted_ms(m, a->wait_busy_ns);
	wasted_ms(m, a->wait_unknown_ns);
	seq_putc(m, ' ');
	seq_escape(m, path, " \t\n\\");
	seq_putc(m, '\n');
}

static int wasted_cgroups_show(struct seq_file *m, void *v)
{
	struct wasted_copy cp;
	char *path, id[24];
	u32 i;
	int err = wasted_copy(&cp);

	if (err)
		return err;
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path) {
		wasted_copy_free(&cp);
		return -ENOMEM;
	}
	seq_puts(m, "# sched_shadow wasted_cgroups v1\n"
		 "cgid wasted_ms wait_ms wait_idle_ms wait_busy_ms wait_unknown_ms path\n");
	for (i = 0; i < WASTED_CGS; i++) {
		const struct wasted_cg_acc *a = &cp.cgs->slot[i];

		if (!a->used || (!a->wasted_ns && !a->wait_ns))
			continue;
		if (!shadow_cgid_path(a->cgid, path, PATH_MAX))
			strscpy(path, "(removed)", PATH_MAX);
		snprintf(id, sizeof(id), "%llu", a->cgid);
		wasted_cg_row(m, a, id, path);
	}
	if (cp.cgs->other.wasted_ns || cp.cgs->other.wait_ns)
		wasted_cg_row(m, &cp.cgs->other, "-", "(other)");
	if (READ_ONCE(shadow_wasted_tgid) || cp.cgs->tracked.wait_ns || cp.cgs->tracked.wasted_ns) {
		snprintf(id, sizeof(id), "pid:%d", READ_ONCE(shadow_wasted_tgid));
		wasted_cg_row(m, &cp.cgs->tracked, id, "(tracked)");
	}
	if (cp.cgs->unscanned_ns) {
		struct wasted_cg_acc u = { .wait_ns = cp.cgs->unscanned_ns,
					   .wait_unknown_ns = cp.cgs->unscanned_ns };

		wasted_cg_row(m, &u, "-", "(unscanned)");
	}
	kfree(path);
	wasted_copy_free(&cp);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wasted_cgroups);

static void wasted_attrib_row(struct seq_file *m, const char *cpu, u32 key, u64 ns, u64 attempts)
{
	const char *verdict, *reason, *cause;

	wasted_key_names(key, &verdict, &reason, &cause);
	seq_printf(m, "%s %s %s %s %s", cpu, wasted_level_name[min_t(u32, WASTED_KEY_LEVEL(key),
			WASTED_LVL_OTHER + 1)], verdict, reason, cause);
	wasted_ms(m, ns);
	seq_printf(m, " %llu %d\n", attempts, wasted_key_policy(key) ? 1 : 0);
}

/* Every CPU's attribution rows summed by key (past WASTED_KEYS_ALL distinct keys: other). */
#define WASTED_KEYS_ALL		(4 * WASTED_KEYS)

struct wasted_keys_all {
	u32 nr;
	struct wasted_key_slot k[WASTED_KEYS_ALL];
};

static int wasted_sum_keys(const struct wasted_copy *cp, struct wasted_keys_all *sum, u64 *other_ns)
{
	u32 c, i, k;

	memset(sum, 0, sizeof(*sum));
	*other_ns = 0;
	for (c = 0; c < cp->n; c++) {
		const struct wasted_keys *t = &cp->keys[c];

		*other_ns += t->other_ns;
		for (i = 0; i < t->nr && i < WASTED_KEYS; i++) {
			for (k = 0; k < sum->nr; k++)
				if (sum->k[k].key == t->k[i].key)
					break;
			if (k == sum->nr) {
				if (sum->nr == WASTED_KEYS_ALL) {
					*other_ns += t->k[i].ns;
					continue;
				}
				sum->k[sum->nr++].key = t->k[i].key;
			}
			sum->k[k].ns += t->k[i].ns;
			sum->k[k].attempts += t->k[i].attempts;
		}
	}
	return 0;
}

static int wasted_attrib_show(struct seq_file *m, void *v)
{
	struct wasted_keys_all *sum;
	struct wasted_copy cp;
	char id[16];
	u64 other;
	u32 c, i;
	int err = wasted_copy(&cp);

	if (err)
		return err;
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		wasted_copy_free(&cp);
		return -ENOMEM;
	}
	seq_puts(m, "# sched_shadow wasted_attrib v1\n"
		 "cpu domain verdict reason cause wasted_ms attempts policy\n");
	for (c = 0; c < cp.n; c++) {
		const struct wasted_keys *t = &cp.keys[c];

		snprintf(id, sizeof(id), "%u", c);
		for (i = 0; i < t->nr && i < WASTED_KEYS; i++)
			wasted_attrib_row(m, id, t->k[i].key, t->k[i].ns, t->k[i].attempts);
		if (t->other_ns) {
			seq_printf(m, "%s - other - -", id);
			wasted_ms(m, t->other_ns);
			seq_printf(m, " %u 0\n", t->other_attempts);
		}
	}
	wasted_sum_keys(&cp, sum, &other);
	for (i = 0; i < sum->nr; i++)
		wasted_attrib_row(m, "all", sum->k[i].key, sum->k[i].ns, sum->k[i].attempts);
	if (other) {
		seq_puts(m, "all - other - -");
		wasted_ms(m, other);
		seq_puts(m, " 0 0\n");
	}
	kfree(sum);
	wasted_copy_free(&cp);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wasted_attrib);

/*
 * The wakeup placements that left a CPU idle, per level of the nearest such
 * CPU and path: how many, the idle CPUs they could have had (summed), and
 * the wasted time charged to them (every CPU's wakeup rows of wasted_attrib).
 */
static int wasted_wakeup_show(struct seq_file *m, void *v)
{
	struct wasted_keys_all *sum;
	struct wasted_copy cp;
	u64 other;
	u32 l, p, i;
	int err = wasted_copy(&cp);

	if (err)
		return err;
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		wasted_copy_free(&cp);
		return -ENOMEM;
	}
	wasted_sum_keys(&cp, sum, &other);
	seq_puts(m, "# sched_shadow wasted_wakeup v1\n"
		 "level rel path misses idle_cpus wasted_ms since_ns until_ns\n");
	for (l = 0; l < WASTED_LVL_NONE; l++) {
		int rel = shadow_wake_level_rel(l);

		for (p = 0; p < WASTED_NR_WAKE_PATHS; p++) {
			u64 ns = 0;

			for (i = 0; i < sum->nr; i++) {
				u32 k = sum->k[i].key;

				if (WASTED_KEY_VERDICT(k) == WASTED_V_WAKEUP && WASTED_KEY_LEVEL(k) == l &&
				    WASTED_KEY_REASON(k) == p)
					ns += sum->k[i].ns;
			}
			if (!cp.wake->miss[l][p] && !ns)
				continue;
			seq_printf(m, "%s %s %s %llu %llu", wasted_level_name[l],
				   rel >= 0 ? wasted_rel_name[rel] : "-", wasted_wake_path_name[p],
				   cp.wake->miss[l][p], cp.wake->idle[l][p]);
			wasted_ms(m, ns);
			seq_printf(m, " %llu %llu\n", cp.since_ns, cp.until_ns);
		}
	}
	kfree(sum);
	wasted_copy_free(&cp);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(wasted_wakeup);

static ssize_t wasted_track_read(struct file *file, char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(shadow_wasted_tgid));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* A process id (its threads are tracked) or 0; the tracked row restarts from 0. */
static ssize_t wasted_track_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	u64 v;
	int err = shadow_debugfs_write_uint(ubuf, count, PID_MAX_LIMIT, &v);

	if (err)
		return err;
	WRITE_ONCE(shadow_wasted_tgid, (pid_t)v);
	if (v)	/* a new process: its row starts from 0; 0 stops, keeping the numbers */
		WRITE_ONCE(shadow_wasted_track_gen, READ_ONCE(shadow_wasted_track_gen) + 1);
	return count;
}

static const struct file_operations wasted_track_fops = {
	.owner = THIS_MODULE,
	.read = wasted_track_read,
	.write = wasted_track_write,
	.llseek = default_llseek,
};

/** shadow_wasted_debugfs_init() - wasted, wasted_cgroups, wasted_attrib, wasted_track (when active) */
void shadow_wasted_debugfs_init(struct dentry *dir)
{
	if (!wasted_pc)
		return;
	debugfs_create_file("wasted_track", 0600, dir, NULL, &wasted_track_fops);
	debugfs_create_file("wasted", 0400, dir, NULL, &wasted_cpus_fops);
	debugfs_create_file("wasted_cgroups", 0400, dir, NULL, &wasted_cgroups_fops);
	debugfs_create_file("wasted_attrib", 0400, dir, NULL, &wasted_attrib_fops);
	debugfs_create_file("wasted_wakeup", 0400, dir, NULL, &wasted_wakeup_fops);
}

/** shadow_wasted_info() - the feature's rows of debugfs `info`, with the policies that wasted time */
void shadow_wasted_info(struct seq_file *m)
{
	struct wasted_keys_all *sum;
	struct wasted_copy cp;
	u64 wasted = 0, unknown = 0, bound = 0, other, best = 0;
	u32 c, i, top = 0;

	seq_printf(m, "feature.wasted %s\n", wasted_state);
	seq_printf(m, "feature.wasted_cause %s\n", wasted_cause_state);
	if (!wasted_pc) {
		seq_puts(m, "feature.wasted_wakeup inactive:wasted-off\n");
		return;
	}
	shadow_wake_info(m);
	seq_printf(m, "wasted_period_us %u\nwasted_trace_ms %u\n", wasted_period_us, wasted_trace_ms);
	seq_printf(m, "wasted_bytes %zu\nwasted_log_bytes_per_cpu %zu\n", W.bytes,
		   sizeof(struct wasted_log));
	if (shadow_wasted_thread && !atomic_read(&shadow_wasted_asleep))
		seq_printf(m, "wasted_sampler thread:cpu%d\n", task_cpu(shadow_wasted_thread));
	else
		seq_puts(m, "wasted_sampler sleeping:all-idle\n");
	if (wasted_copy(&cp))
		return;
	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		wasted_copy_free(&cp);
		return;
	}
	for (c = 0; c < cp.n; c++) {
		wasted += cp.acc[c].wasted_ns;
		unknown += cp.acc[c].unknown_ns;
		bound += cp.acc[c].bound_ns;
	}
	seq_printf(m, "wasted_samples %llu\n", cp.samples);
	seq_printf(m, "wasted_sample_ns_mean %llu\nwasted_sample_ns_max %llu\n",
		   cp.samples ? div64_u64(cp.cost_ns, cp.samples) : 0, cp.cost_max_ns);
	seq_printf(m, "wasted_sample_gap_max_us %llu\n", cp.delta_max_ns / NSEC_PER_USEC);
	seq_printf(m, "wasted_idle_wakeups %llu\nwasted_sleeps %llu\nwasted_sampler_moves %lld\n",
		   cp.idle_wakeups, cp.sleeps, (long long)atomic64_read(&wasted_moves));
	seq_printf(m, "wasted_changes %llu\n", cp.changes);
	seq_printf(m, "wasted_wakeup_calls %llu\nwasted_wakeup_busy %llu\nwasted_wakeup_skipped %llu\n",
		   cp.wake->calls, cp.wake->busy, cp.wake->skipped);
	seq_printf(m, "wasted_changes_ns_mean %llu\n", cp.changes ? div64_u64(cp.cost_ns, cp.changes) : 0);
	seq_printf(m, "wasted_lost %llu\nwasted_late_max_us %llu\n", cp.lost,
		   cp.late_max_ns / NSEC_PER_USEC);
	seq_printf(m, "wasted_overflow keys:%llu,masks:%llu,covers:%llu\n", cp.ovf.keys,
		   cp.ovf.masks, cp.ovf.covers);
	/* the window the counters cover (CLOCK_MONOTONIC ns): what an independent check integrates over */
	seq_printf(m, "wasted_since_ns %llu\nwasted_until_ns %llu\n", cp.since_ns, cp.until_ns);
	seq_puts(m, "wasted_ms");
	wasted_ms(m, wasted);
	seq_puts(m, "\nwasted_unknown_ms");
	wasted_ms(m, unknown);
	seq_puts(m, "\nwasted_bound_ms");
	wasted_ms(m, bound);
	seq_putc(m, '\n');
	/* policy that wasted time: every deliberate reason that carried wasted time */
	wasted_sum_keys(&cp, sum, &other);
	for (i = 0; i < sum->nr; i++) {
		const char *verdict, *reason, *cause;
		u32 key = sum->k[i].key;

		if (!wasted_key_policy(key) || !sum->k[i].ns)
			continue;
		wasted_key_names(key, &verdict, &reason, &cause);
		seq_printf(m, "wasted_policy.%s.%s/%s%s%s", wasted_level_name[min_t(u32,
			   WASTED_KEY_LEVEL(key), WASTED_LVL_NONE)], verdict, reason,
			   WASTED_KEY_CAUSE(key) > WASTED_CAUSE_MOVED ? ":" : "",
			   WASTED_KEY_CAUSE(key) > WASTED_CAUSE_MOVED ? cause : "");
		wasted_ms(m, sum->k[i].ns);
		seq_putc(m, '\n');
		if (sum->k[i].ns > best) {
			best = sum->k[i].ns;
			top = key;
		}
	}
	/* the headline: the policy that wasted the most time */
	if (best) {
		const char *verdict, *reason, *cause;

		wasted_key_names(top, &verdict, &reason, &cause);
		seq_printf(m, "wasted_policy_top %s.%s/%s%s%s\nwasted_policy_top_ms",
			   wasted_level_name[min_t(u32, WASTED_KEY_LEVEL(top), WASTED_LVL_NONE)],
			   verdict, reason, WASTED_KEY_CAUSE(top) > WASTED_CAUSE_MOVED ? ":" : "",
			   WASTED_KEY_CAUSE(top) > WASTED_CAUSE_MOVED ? cause : "");
		wasted_ms(m, best);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "wasted_policy_top -\nwasted_policy_top_ms 0.000\n");
	}
	kfree(sum);
	wasted_copy_free(&cp);
}
