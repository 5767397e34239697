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
 * How it is measured: from change logs.  At the end of every scan of a
 * CPU's waiters (waiters.c, under its rq lock) shadow_wasted_log()
 * appends the CPU's waiting state (busy or idle, the work summary, the
 * waiters' cgroups) to the CPU's own log when it changed, with its time.
 * One soft hrtimer (HRTIMER_MODE_*_PINNED_SOFT: the work runs in softirq,
 * never in hard-IRQ context) drains every log each wasted_period_us
 * (jittered by +-1/8), replays the changes in time order and classifies
 * every CPU and waiter in each piece between two changes
 * (core/wasted_core.c): the time is charged exactly, but for changes lost
 * to a full log (void, so unknown time) and changes published after their
 * time was accounted (`bound_ms`).
 *
 * Where the timer runs: on a CPU that is busy.  When a sample finds its
 * own CPU idle (the timer woke it) it hands the timer to a busy CPU by an
 * IPI (`idle_wakeups` counts those wakeups: each is one interrupt of an
 * idle CPU).  When every CPU is idle nothing can wait, so nothing can be
 * wasted: the timer stops, and the next published event (waiters.c,
 * shadow_wasted_ids_begin()) restarts it on its CPU.
 *
 * Attribution: the audit's attempt-return handler calls
 * shadow_wasted_attempt() for every judged balancing attempt, keyed on its
 * destination (env->dst_cpu: under NOHZ another CPU balances on the idle
 * CPU's behalf) and domain.  A slice of wasted time of CPU C whose nearest
 * waiter is at level L is charged to the last attempt at (C, L) made
 * during the current wasted stretch, or to `no_attempt` if none was.  A
 * right pick that moved nothing is `right/unmoved` with a cause, learned
 * by an optional kretprobe on can_migrate_task() (and, where the kernel
 * has a cache-aware balancer, can_migrate_llc()).
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
#include <linux/sort.h>
#include <linux/tracepoint.h>

#include "kstruct.h"
#include "shadow.h"
#include "stats.h"
#include "cgpath.h"
#include "trace.h"
#include "wasted.h"
#include "core/audit_core.h"
#include "dbgfs_input.h"

/* Kernel API differences, all here (lttng's include/wrapper idea). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define wasted_timer_setup(t, fn) hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_SOFT)
#else
#define wasted_timer_setup(t, fn) do {						\
		hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_SOFT);	\
		(t)->function = fn;						\
	} while (0)
#endif
#ifdef INIT_CSD			/* 5.11+ */
#define wasted_csd_init(c, fn) INIT_CSD(c, fn, NULL)
#else
#define wasted_csd_init(c, fn) do { (c)->func = fn; (c)->info = NULL; } while (0)
#endif
#ifdef IRQ_WORK_INIT_HARD	/* 5.11+: run in hard-IRQ context on PREEMPT_RT too */
#define wasted_kick_init(w, fn) (*(w) = IRQ_WORK_INIT_HARD(fn))
#else
#define wasted_kick_init(w, fn) init_irq_work(w, fn)
#endif

#define WASTED_PERIOD_MIN_US	100
#define WASTED_PERIOD_MAX_US	1000000
#define WASTED_TRACE_MAX_MS	3600000
#define WASTED_TOPO_REFRESH_NS	(200 * NSEC_PER_MSEC)
#define WASTED_STALL_NS		(2 * NSEC_PER_SEC)
/*
 * Each CPU's change log: the last WASTED_LOG changes of its waiting state
 * (struct wasted_state, 240 bytes), written under its rq lock, read by the
 * sampler.  A sample replays at most WASTED_STEPS changes; the rest wait
 * for the next sample (or, past the log's size, are lost: unknown time).
 */
#define WASTED_LOG		64
#define WASTED_STEPS		1024

struct wasted_log {
	u32 head;		/* changes written; entry i is ent[i % WASTED_LOG] */
	struct wasted_state ent[WASTED_LOG];
};

struct wasted_step {
	u64 stamp;
	u32 cpu;
	u32 idx;		/* its log index */
};

static struct wasted_log **wasted_logs;

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
static u32 wasted_track_gen;	/* bumped when the tracked process changes */

/* The sampler's owner: the CPU whose timer is armed, or one of these. */
#define WASTED_STOPPED	(-1)	/* every CPU was idle: the next event starts it */
#define WASTED_OFF	(-2)	/* not loaded, off, or unloading */
atomic_t shadow_wasted_owner = ATOMIC_INIT(WASTED_OFF);

/* Per possible CPU: its timer and kick, and the attempts destined to it. */
struct wasted_pcpu {
	struct hrtimer timer;
	struct irq_work kick;		/* a stopped sampler restarts here (hot path) */
	call_single_data_t handoff;	/* the sampler moves here from an idle CPU */
	/* last judged attempt per level with this CPU as destination (packed) */
	u32 rec[WASTED_NR_LEVELS];
	atomic_t seq[WASTED_NR_LEVELS];
	/* can_migrate_task() refusals of the attempt running on this CPU */
	int cmt_dst;
	u16 cmt_examined, cmt_allowed, cmt_pinned, cmt_running, cmt_hot, cmt_llc;
	bool in_cmt;
	bool llc_forbid;
};

static struct wasted_pcpu **wasted_pc;

/* A wasted stretch in progress on one CPU: what the trace event reports. */
#define WASTED_TOP	4
struct wasted_stretch {
	u64 cgid[WASTED_TOP];
	u64 cg_ns[WASTED_TOP];
	u32 key[WASTED_TOP];
	u64 key_ns[WASTED_TOP];
	u32 cgroups;		/* distinct cgroups seen (capped at WASTED_TOP + 1) */
};

/* The sampler's state: written by the sampler only, under lock. */
static struct {
	spinlock_t lock;
	u32 gen;		/* shadow_reset_gen the accumulators belong to */
	u32 track_gen;		/* wasted_track_gen the tracked row belongs to */
	u64 last_ns;		/* the previous sample, 0: none since (re)start */
	u64 resume_ns;		/* set when a stopped sampler is kicked */
	bool idle_stop;		/* stopped with every CPU idle: those states hold until resume_ns */
	u64 stop_ns;		/* the sample that stopped the sampler (counted up to there) */
	u64 samples, cost_ns, cost_max_ns, idle_wakeups, handoffs, starts, stops, steps_total;
	u64 delta_max_ns;
	u64 reset_ns;		/* ktime of the reset the counters start at */
	u64 topo_ns;		/* when the topology was last read */
	u32 rnd;
	struct wasted_cpu_acc *acc;
	struct wasted_keys *keys;
	u32 (*stretch_seq)[WASTED_NR_LEVELS];
	u32 (*tick_seq)[WASTED_NR_LEVELS];
	struct wasted_stretch *st;
	struct wasted_cgs *cgs;
	/* each CPU's state as replayed from its change log */
	struct wasted_state *cur;
	struct wasted_cg_acc *(*slot)[WASTED_IDS_MAX];	/* its waiters' cgroup rows */
	struct wasted_cg_acc *last_slot;	/* the last row looked up (cleared with the rows) */
	u32 *nslot;
	u32 *unscanned;			/* its queued tasks the scan did not reach */
	bool *known;		/* cur[c] holds: its log was read without a gap */
	u32 *tail;		/* the next log entry to read */
	bool *was_idle;
	/* scratch: the changes of one sample, in time order */
	struct wasted_step *steps;
	u32 nsteps;
	struct wasted_in *in;
	struct wasted_out *out;
	struct wasted_scratch scr;
	struct wasted_topo topo;
} W;

static atomic64_t wasted_last_tick_ns = ATOMIC64_INIT(0);
static u64 wasted_period_ns;
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
			   int moved, bool kicked)
{
	struct wasted_pcpu *pc, *me;
	u32 cause = WASTED_CAUSE_NONE, rec;
	int lvl, owner;

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
	WRITE_ONCE(pc->rec[lvl], rec);
	smp_wmb();	/* the record before the count the sampler compares */
	atomic_inc(&pc->seq[lvl]);

	/* a sampler whose timer was lost (its CPU went offline mid-handoff) */
	owner = atomic_read(&shadow_wasted_owner);
	if (unlikely(owner >= 0 && ktime_get_mono_fast_ns() -
		     atomic64_read(&wasted_last_tick_ns) > WASTED_STALL_NS &&
		     !cpu_online(owner)))
		atomic_cmpxchg(&shadow_wasted_owner, owner, WASTED_STOPPED);
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

/* ---- the hot path's helper (waiters.c, under the rq lock) ---- */

/* The last entry of @kind; *@uniform: all of that kind have one cgroup (and tracking). */
static int wasted_ids_find(const struct shadow_wasted_ids *ids, u8 kind, bool *uniform)
{
	int i, last = -1;
	u64 cg = 0;
	u8 trk = 0;

	*uniform = true;
	for (i = 0; i < ids->nr; i++) {
		if ((ids->kind[i] & ~WASTED_W_TRACKED) != kind)
			continue;
		if (last >= 0 && (ids->cgid[i] != cg || (ids->kind[i] & WASTED_W_TRACKED) != trk))
			*uniform = false;
		cg = ids->cgid[i];
		trk = ids->kind[i] & WASTED_W_TRACKED;
		last = i;
	}
	return last;
}

bool shadow_wasted_ids_drop(struct shadow_wasted_ids *ids, u32 dany, u32 dpinned,
			    u32 dunknown, u32 dres, u32 nres_after, bool empty)
{
	bool uniform;
	int i;
	u8 kind;

	if (empty) {
		ids->nr = 0;	/* the summary was cleared: the lone waiter runs */
		return true;
	}
	if (dany)
		kind = WASTED_W_ANY;
	else if (dpinned)
		kind = WASTED_W_PINNED;
	else if (dunknown)
		kind = WASTED_W_UNKNOWN;
	else if (dres)
		kind = WASTED_W_R0 + min_t(u32, nres_after, WASTED_W_R3);
	else
		return false;	/* nothing dropped that the ids know: refresh at the switch */
	i = wasted_ids_find(ids, kind, &uniform);
	if (i < 0)	/* an unscanned (unknown) waiter: none of the noted ones */
		return kind != WASTED_W_UNKNOWN || !ids->nr;
	ids->nr--;
	ids->kind[i] = ids->kind[ids->nr];
	ids->cgid[i] = ids->cgid[ids->nr];
	return uniform && kind != WASTED_W_UNKNOWN;
}

/* ---- the sampler ---- */

/* Start the timer on this CPU (a stopped sampler kicked, or a handoff). */
static void wasted_kick_fn(struct irq_work *work)
{
	/* @work is NULL when called from wasted_handoff_fn() */
	int me = smp_processor_id();
	struct wasted_pcpu *pc = wasted_pc[me];

	if (atomic_read(&shadow_wasted_owner) != me)
		return;
	hrtimer_start(&pc->timer, ns_to_ktime(wasted_period_ns), HRTIMER_MODE_REL_PINNED_SOFT);
}

/* The IPI of a handoff from an idle CPU: start the timer here. */
static void wasted_handoff_fn(void *info)
{
	wasted_kick_fn(NULL);
}

static void wasted_nop(void *info)
{
}

void shadow_wasted_kick(void)
{
	int me = raw_smp_processor_id();

	if (atomic_cmpxchg(&shadow_wasted_owner, WASTED_STOPPED, me) != WASTED_STOPPED)
		return;
	WRITE_ONCE(W.resume_ns, ktime_get_mono_fast_ns());
	irq_work_queue(&wasted_pc[me]->kick);
}

/* The LLC flag's value, from BTF (SD_SHARE_PKG_RESOURCES before 6.10), as audit.c reads it */
#if HAS_KS_ENUMV__SD_SHARE_LLC
#define WASTED_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_LLC)
#elif HAS_KS_ENUMV__SD_SHARE_PKG_RESOURCES
#define WASTED_SD_SHARE_LLC ((int)KS_ENUMV__SD_SHARE_PKG_RESOURCES)
#else
#define WASTED_SD_SHARE_LLC 0
#endif

/* The domain level of @sd as the audit names it (sd->name, else the flags). */
static int wasted_sd_level(const struct sched_domain *sd)
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

/* Each online CPU's domains, lowest first (RCU: the sampler runs in softirq). */
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

			t->slot[c * WASTED_MAX_DOMAINS + l] = wasted_sd_level(sd);
			for (k = 0; k < t->words; k++)
				span[k] = bits[k];
		}
		t->nlev[c] = l;
	}
	rcu_read_unlock();
}

/* Append @busy, @w, @ids at now to @lg (the caller holds the CPU's rq lock). */
static void wasted_log_append(struct wasted_log *lg, u32 h, bool busy, const struct shadow_work *w,
			      const struct shadow_wasted_ids *ids)
{
	struct wasted_state *st = &lg->ent[h % WASTED_LOG];

	st->stamp = ktime_get_mono_fast_ns();
	st->busy = busy;
	if (w != &st->work)
		st->work = *w;
	if (ids != &st->ids)
		st->ids = *ids;
	smp_store_release(&lg->head, h + 1);	/* the entry before the count */
}

/**
 * shadow_wasted_log() - append a CPU's waiting state to its change log
 * @rq: the run queue whose lock the caller holds (every writer of this
 *      CPU's log does: they are serialized)
 * @e:  the per-event state just filled (waiters.c)
 *
 * Busy means running a task: the CPU is idle from the switch to its idle
 * task to the switch away from it, as sched_switch says (a task woken
 * there is not running yet; a task that just went to sleep still runs
 * the newidle balance before the switch); wasted_probe_switch() logs
 * those switches.  Only a change is logged (same busy flag, counts, masks
 * and waiters as the last entry: nothing).  Bounded: one comparison and
 * one 240-byte entry; one clock read per change.
 *
 * Return: false (kept for waiters.c's refresh flag).
 */
bool shadow_wasted_log(struct rq *rq, const struct shadow_evt *e)
{
	int cpu = ks_rq_cpu(rq);
	struct wasted_log *lg;
	bool busy;
	u32 h;

	if (!static_branch_unlikely(&shadow_wasted_on) || (unsigned int)cpu >= nr_cpu_ids)
		return false;
	lg = wasted_logs[cpu];
	if (unlikely(!lg))
		return false;
	busy = !is_idle_task(ks_rq_curr(rq));
	h = lg->head;
	if (!h || !wasted_state_same(&lg->ent[(h - 1) % WASTED_LOG], busy, &e->work, &e->ids))
		wasted_log_append(lg, h, busy, &e->work, &e->ids);
	return false;
}

/*
 * sched_switch, on the CPU that switches, under its rq lock: a switch to
 * or from the idle task turns the CPU idle or busy; the waiters are the
 * last entry's.  Every other switch returns at the first test.
 */
#if KS_NARGS_btf_trace_sched_switch == 5
static void wasted_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next, unsigned int prev_state)
#else
static void wasted_probe_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next)
#endif
{
	struct wasted_log *lg;
	u32 h;

	if (likely(is_idle_task(prev) == is_idle_task(next)))
		return;
	lg = wasted_logs[raw_smp_processor_id()];
	h = lg->head;
	if (!h)
		return;		/* nothing logged yet: the next event logs the state */
	if (lg->ent[(h - 1) % WASTED_LOG].busy == !is_idle_task(next))
		return;
	/* the last entry's waiters, now busy (or idle): copy it forward */
	lg->ent[h % WASTED_LOG].work = lg->ent[(h - 1) % WASTED_LOG].work;
	lg->ent[h % WASTED_LOG].ids = lg->ent[(h - 1) % WASTED_LOG].ids;
	wasted_log_append(lg, h, !is_idle_task(next), &lg->ent[h % WASTED_LOG].work,
			  &lg->ent[h % WASTED_LOG].ids);
}

static struct tracepoint *wasted_tp_switch;
static bool wasted_switch_registered;

static void wasted_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		wasted_tp_switch = tp;
}

/* Copy log entry @idx of @cpu; false if the writer may have overwritten it meanwhile. */
static bool wasted_log_copy(int cpu, u32 idx, struct wasted_state *out)
{
	struct wasted_log *lg = wasted_logs[cpu];
	u32 h;

	*out = lg->ent[idx % WASTED_LOG];
	smp_rmb();	/* the copy before the count that says whether it was overwritten */
	h = READ_ONCE(lg->head);
	/* the writer fills entry h (index h % WASTED_LOG) before counting it */
	return idx + WASTED_LOG > h;
}

/* Has @cpu's last logged state nr_running > 0?  (all-idle re-check) */
static bool wasted_log_busy(int cpu)
{
	struct wasted_log *lg = wasted_logs[cpu];
	struct wasted_state st;
	u32 h = smp_load_acquire(&lg->head);	/* pairs with the writer's release */

	return h && wasted_log_copy(cpu, h - 1, &st) && st.busy;
}

static void wasted_clear(u64 now)
{
	u32 n = nr_cpu_ids;

	memset(W.acc, 0, n * sizeof(*W.acc));
	memset(W.keys, 0, n * sizeof(*W.keys));
	memset(W.st, 0, n * sizeof(*W.st));
	memset(W.cgs, 0, sizeof(*W.cgs));
	W.last_slot = NULL;
	W.samples = W.cost_ns = W.cost_max_ns = W.idle_wakeups = W.handoffs = W.steps_total = 0;
	W.starts = W.stops = W.delta_max_ns = 0;
	W.reset_ns = now;
}

static void wasted_stretch_note(struct wasted_stretch *st, const struct wasted_out *o,
				u32 key, u64 ns)
{
	u32 i, k;

	for (i = 0; i < W.scr.nr_cg; i++) {
		if (!(o->cgs & ((u64)1 << i)))
			continue;
		for (k = 0; k < WASTED_TOP && st->cg_ns[k]; k++)
			if (st->cgid[k] == W.scr.cg[i].cgid)
				break;
		if (k == WASTED_TOP) {
			st->cgroups = WASTED_TOP + 1;
			continue;
		}
		if (!st->cg_ns[k]) {
			st->cgid[k] = W.scr.cg[i].cgid;
			st->cgroups++;
		}
		st->cg_ns[k] += ns;
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
		*reason = "-";
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

/* The event of a stretch of @len that ended at @end. */
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
	trace_wasted_interval(cpu, end - len, len,
			      wasted_level_name[level < WASTED_NR_LEVELS ? level : WASTED_LVL_OTHER],
			      cg, path ? path : SHADOW_CGPATH_UNRESOLVED, st->cgroups, verdict, reason,
			      cause);
}

/* One CPU's attribution of @ns of wasted time at its nearest level. */
static u32 wasted_charge(int c, const struct wasted_out *o, u64 ns, bool first)
{
	struct wasted_pcpu *pc = wasted_pc[c];
	u32 lvl = o->level, s, rec, key, attempts;

	if (lvl >= WASTED_LVL_NONE)
		return wasted_key(WASTED_LVL_NONE, WASTED_V_NO_ATTEMPT, 0, 0);
	if (first)	/* attempts since the previous sample belong to this stretch */
		memcpy(W.stretch_seq[c], W.tick_seq[c], sizeof(W.stretch_seq[c]));
	s = atomic_read(&pc->seq[lvl]);
	smp_rmb();	/* the count before the record (the writer's smp_wmb() in between) */
	rec = READ_ONCE(pc->rec[lvl]);
	attempts = s - W.tick_seq[c][lvl];
	W.tick_seq[c][lvl] = s;	/* the next piece of this sample counts none of them again */
	if (s == W.stretch_seq[c][lvl] || !(rec & WASTED_REC_VALID))
		key = wasted_key(lvl, WASTED_V_NO_ATTEMPT, 0, 0);
	else
		key = wasted_key(lvl, (rec >> 16) & 0xff, (rec >> 8) & 0xff, rec & 0xff);
	wasted_keys_add(&W.keys[c], key, ns, attempts);
	return key;
}

/* The sampler's view of @cpu from its replayed state. */
static void wasted_in_of(u32 c)
{
	struct wasted_in *in = &W.in[c];

	in->w = &W.cur[c].work;
	in->ids = &W.cur[c].ids;
	if (!cpu_online(c) || !wasted_logs[c])
		in->state = WASTED_IN_OFF;
	else if (!W.known[c] || !W.cur[c].ids.valid)
		in->state = WASTED_IN_VOID;
	else
		in->state = W.cur[c].busy ? WASTED_IN_BUSY : WASTED_IN_IDLE;
}

/* Each waiter's cgroup row of @c's replayed state, looked up once per change (the fast path's). */
static void wasted_slots_of(u32 c)
{
	const struct wasted_state *st = &W.cur[c];
	u32 i, n = st->ids.valid ? min_t(u32, st->ids.nr, WASTED_IDS_MAX) : 0, unk = 0;

	for (i = 0; i < n; i++) {
		/* most waiters share a cgroup with the previous one looked up */
		if (W.last_slot && W.last_slot->cgid == st->ids.cgid[i] && W.last_slot->used)
			W.slot[c][i] = W.last_slot;
		else
			W.slot[c][i] = W.last_slot = wasted_cg_get(W.cgs, st->ids.cgid[i]);
		if ((st->ids.kind[i] & ~WASTED_W_TRACKED) == WASTED_W_UNKNOWN)
			unk++;
	}
	W.nslot[c] = n;
	W.unscanned[c] = st->work.unknown > unk ? st->work.unknown - unk : 0;
}

/* One CPU's classified piece: its totals, its stretch, its attribution. */
static void wasted_piece_cpu(u32 c, const struct wasted_out *o, u64 a, u64 b)
{
	struct wasted_stretch *st = &W.st[c];
	bool first = o->cls == WASTED_C_WASTE && !W.acc[c].in_stretch;
	u64 ns = b - a, ended_len, gap;

	if (o->cls != WASTED_C_BUSY && o->cls != WASTED_C_OFF)
		W.was_idle[c] = true;
	if (wasted_cpu_add(&W.acc[c], o, ns, &ended_len, &gap) &&
	    ended_len >= (u64)wasted_trace_ms * NSEC_PER_MSEC && trace_wasted_interval_enabled())
		wasted_trace(c, b - gap, ended_len, st, WASTED_LVL_NONE);
	if (o->cls == WASTED_C_WASTE) {
		u32 key;

		if (first) {
			memset(st, 0, sizeof(*st));
			/* ask for the path now: the event at its end finds it */
			if (trace_wasted_interval_enabled() && W.scr.nr_cg)
				shadow_cgpath_lookup(W.scr.cg[0].cgid);
		}
		key = wasted_charge(c, o, ns, first);
		wasted_stretch_note(st, o, key, ns);
	}
}

/*
 * One piece [@a, @b) in which no CPU's state changed: every CPU
 * classified, and @b - @a charged to what it was.  With no CPU idle (or
 * of unknown state) nothing is wasted and every wait is capacity (or
 * unknown for a waiter whose mask was not kept): the waiters' cgroup rows
 * are charged directly, without classifying.
 */
static void wasted_piece(u64 a, u64 b, u32 n)
{
	static const struct wasted_out busy = { .cls = WASTED_C_BUSY, .level = WASTED_LVL_NONE };
	static const struct wasted_out off = { .cls = WASTED_C_OFF, .level = WASTED_LVL_NONE };
	u64 ns = b - a;
	u32 c, i;

	for (c = 0; c < n; c++)
		if (W.in[c].state == WASTED_IN_IDLE || W.in[c].state == WASTED_IN_VOID)
			break;
	if (c == n) {
		for (c = 0; c < n; c++) {
			const struct wasted_state *st = &W.cur[c];

			if (W.in[c].state == WASTED_IN_OFF) {
				wasted_piece_cpu(c, &off, a, b);
				continue;
			}
			wasted_piece_cpu(c, &busy, a, b);
			for (i = 0; i < W.nslot[c]; i++) {
				u8 k = st->ids.kind[i];
				bool unk = (k & ~WASTED_W_TRACKED) == WASTED_W_UNKNOWN;
				struct wasted_cg_acc *g = W.slot[c][i];

				g->wait_ns += ns;
				if (unk)
					g->wait_unknown_ns += ns;
				else
					g->wait_busy_ns += ns;
				if (k & WASTED_W_TRACKED) {
					W.cgs->tracked.wait_ns += ns;
					if (unk)
						W.cgs->tracked.wait_unknown_ns += ns;
					else
						W.cgs->tracked.wait_busy_ns += ns;
				}
			}
			W.cgs->unscanned_ns += ns * W.unscanned[c];
		}
		return;
	}
	wasted_classify(&W.topo, W.in, n, &W.scr, W.out);
	for (c = 0; c < n; c++)
		wasted_piece_cpu(c, &W.out[c], a, b);
	wasted_cgs_add(W.cgs, &W.scr, W.out, n, ns);
}

static int wasted_step_cmp(const void *a, const void *b)
{
	const struct wasted_step *x = a, *y = b;

	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * One sample at @now: replay every CPU's logged changes since the last
 * sample in time order, classifying each piece between two changes with
 * the states the CPUs really had.  Return: true when no CPU is busy;
 * *@me_idle when the sampler's CPU @me is idle, *@busy a busy CPU to hand
 * the timer to.
 *
 * What this cannot know: changes lost because a CPU logged more than
 * WASTED_LOG of them between two samples (its state is void, so idle
 * CPUs read unknown, until the first entry after the gap), and changes
 * published after the sample covered their time (a writer delayed between
 * its clock read and its count: applied at the start of the next sample;
 * the delay is added to the bound of every CPU idle then).
 */
static bool wasted_sample(u64 now, int me, bool *me_idle, int *busy)
{
	u32 n = W.topo.nr_cpus, c, l, i, gen = atomic_read(&shadow_reset_gen);
	u64 t0, t, late = 0, end = now;
	bool any_busy = false, restart = false;

	*me_idle = false;
	*busy = -1;
	if (W.gen != gen) {
		wasted_clear(now);
		W.gen = gen;
		W.last_ns = 0;
		W.idle_stop = false;
	}
	if (W.track_gen != READ_ONCE(wasted_track_gen)) {
		memset(&W.cgs->tracked, 0, sizeof(W.cgs->tracked));
		W.track_gen = READ_ONCE(wasted_track_gen);
	}
	if (!W.last_ns) {
		u64 resume = READ_ONCE(W.resume_ns);

		if (W.idle_stop && resume && resume <= now) {
			W.last_ns = resume;	/* every CPU idle until the kick: known */
		} else {
			/* (re)started: the states before now are not known, begin here */
			restart = true;
			W.last_ns = now;
		}
		W.idle_stop = false;
	}
	t0 = W.last_ns;
	if (now - t0 > W.delta_max_ns)
		W.delta_max_ns = now - t0;
	if (!W.topo_ns || now - W.topo_ns > WASTED_TOPO_REFRESH_NS) {
		wasted_topo_read();
		W.topo_ns = now;
	}

	/* the changes since the last sample, every CPU's, in time order */
	W.nsteps = 0;
	for (c = 0; c < n; c++) {
		struct wasted_log *lg = wasted_logs[c];
		u32 h, from;

		W.was_idle[c] = false;
		if (!lg || !cpu_online(c))
			continue;
		h = smp_load_acquire(&lg->head);	/* pairs with shadow_wasted_log() */
		if (restart || !W.known[c]) {
			/* start from the last entry: the state the CPU is in now */
			W.known[c] = h && wasted_log_copy(c, h - 1, &W.cur[c]);
			W.tail[c] = h;
			if (W.known[c])
				wasted_slots_of(c);
			continue;
		}
		from = W.tail[c];
		if (h - from > WASTED_LOG) {	/* lost: void until the gap is behind */
			W.known[c] = false;
			W.tail[c] = h;
			continue;
		}
		for (i = from; i != h && W.nsteps < WASTED_STEPS; i++) {
			struct wasted_step *sp = &W.steps[W.nsteps++];

			sp->stamp = READ_ONCE(wasted_logs[c]->ent[i % WASTED_LOG].stamp);
			sp->cpu = c;
			sp->idx = i;
		}
	}
	/* each CPU's steps are in time order already: sort only when CPUs interleave */
	for (i = 1; i < W.nsteps && wasted_step_cmp(&W.steps[i - 1], &W.steps[i]) <= 0; i++)
		;
	if (i < W.nsteps)
		sort(W.steps, W.nsteps, sizeof(*W.steps), wasted_step_cmp, NULL);
	if (W.nsteps == WASTED_STEPS)	/* more to replay: account up to the last one read */
		end = max(t0, min(now, W.steps[W.nsteps - 1].stamp));

	for (c = 0; c < n; c++)
		wasted_in_of(c);
	t = t0;
	for (i = 0; i < W.nsteps; i++) {
		struct wasted_step *sp = &W.steps[i];
		u64 at = sp->stamp;

		if (at > end)
			break;
		if (at < t) {	/* published after its time was accounted */
			if (t - at > late)
				late = t - at;
			at = t;
		}
		if (at > t) {
			wasted_piece(t, at, n);
			t = at;
		}
		c = sp->cpu;
		if (!wasted_log_copy(c, sp->idx, &W.cur[c]))
			W.known[c] = false;	/* overwritten while we read: void from here */
		else
			wasted_slots_of(c);
		W.tail[c] = sp->idx + 1;
		wasted_in_of(c);
	}
	if (end > t)
		wasted_piece(t, end, n);

	for (c = 0; c < n; c++) {
		if (late && W.was_idle[c])
			W.acc[c].bound_ns += late;
		for (l = 0; wasted_pc[c] && l < WASTED_NR_LEVELS; l++)
			W.tick_seq[c][l] = atomic_read(&wasted_pc[c]->seq[l]);
		if (W.in[c].state == WASTED_IN_BUSY) {
			any_busy = true;
			if ((int)c != me && (*busy < 0 || c == (u32)me + 1))
				*busy = c;
		}
		if ((int)c == me && W.in[c].state == WASTED_IN_IDLE)
			*me_idle = true;
	}
	W.last_ns = end;
	W.samples++;
	W.steps_total += W.nsteps;
	return !any_busy;
}

/* The next period, jittered by up to +-1/8 (xorshift: no lock, no division). */
static u64 wasted_next_period(void)
{
	u32 x = W.rnd ? W.rnd : 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	W.rnd = x;
	return wasted_period_ns - wasted_period_ns / 8 + (((u64)x * (wasted_period_ns / 4)) >> 32);
}

static enum hrtimer_restart wasted_tick(struct hrtimer *timer)
{
	int me = smp_processor_id(), owner = atomic_read(&shadow_wasted_owner), busy;
	u64 t0 = local_clock(), now, cost;
	bool all_idle, me_idle;

	if (owner != me) {
		/* the owner went offline and its timer moved here: take over */
		if (owner < 0 || cpu_online(owner) ||
		    atomic_cmpxchg(&shadow_wasted_owner, owner, me) != owner)
			return HRTIMER_NORESTART;
	}
	if (!static_key_enabled(&shadow_enabled)) {
		if (atomic_cmpxchg(&shadow_wasted_owner, me, WASTED_STOPPED) == me) {
			spin_lock(&W.lock);
			/*
			 * Paused (enable 0): the counters end at the last sample.
			 * A kick while paused (last_ns 0: nothing sampled since)
			 * keeps that end; taking 0 made the window's end unknown.
			 */
			if (W.last_ns)
				W.stop_ns = W.last_ns;
			W.last_ns = 0;
			W.idle_stop = false;
			W.stops++;
			spin_unlock(&W.lock);
		}
		return HRTIMER_NORESTART;
	}
	now = ktime_get_mono_fast_ns();
	spin_lock(&W.lock);
	all_idle = wasted_sample(now, me, &me_idle, &busy);
	cost = local_clock() - t0;
	W.cost_ns += cost;
	if (cost > W.cost_max_ns)
		W.cost_max_ns = cost;
	if (me_idle)
		W.idle_wakeups++;
	if (all_idle) {
		/* nothing can wait: stop; the next event restarts the sampler */
		W.stops++;
		W.stop_ns = W.last_ns;
		W.last_ns = 0;
		W.resume_ns = 0;
		W.idle_stop = true;
	}
	spin_unlock(&W.lock);
	atomic64_set(&wasted_last_tick_ns, now);

	if (all_idle) {
		if (atomic_cmpxchg(&shadow_wasted_owner, me, WASTED_STOPPED) != me)
			return HRTIMER_NORESTART;
		/* an event between the sample and the stop saw the owner set: look again */
		for (busy = 0; busy < (int)nr_cpu_ids; busy++) {
			if (cpu_online(busy) && wasted_logs[busy] && wasted_log_busy(busy))
				break;
		}
		if (busy == (int)nr_cpu_ids ||
		    atomic_cmpxchg(&shadow_wasted_owner, WASTED_STOPPED, me) != WASTED_STOPPED)
			return HRTIMER_NORESTART;
		WRITE_ONCE(W.resume_ns, now);
	} else if (me_idle && busy >= 0) {
		/* hand the timer to a busy CPU: an idle one must not be woken again */
		if (atomic_cmpxchg(&shadow_wasted_owner, me, busy) != me)
			return HRTIMER_NORESTART;
		if (!smp_call_function_single_async(busy, &wasted_pc[busy]->handoff)) {
			W.handoffs++;
			return HRTIMER_NORESTART;
		}
		/* its previous handoff is still in flight: keep the timer here */
		atomic_cmpxchg(&shadow_wasted_owner, busy, me);
	}
	hrtimer_forward_now(timer, ns_to_ktime(wasted_next_period()));
	return HRTIMER_RESTART;
}

/* ---- init / exit ---- */

static void wasted_free(void)
{
	int cpu;

	if (wasted_pc) {
		for_each_possible_cpu(cpu)
			kfree(wasted_pc[cpu]);
		kfree(wasted_pc);
		wasted_pc = NULL;
	}
	kvfree(W.acc);
	kvfree(W.keys);
	kvfree(W.stretch_seq);
	kvfree(W.tick_seq);
	kvfree(W.st);
	kvfree(W.cgs);
	if (wasted_logs) {
		for_each_possible_cpu(cpu)
			kvfree(wasted_logs[cpu]);
		kfree(wasted_logs);
		wasted_logs = NULL;
	}
	kvfree(W.cur);
	kvfree(W.slot);
	kvfree(W.nslot);
	kvfree(W.unscanned);
	kvfree(W.known);
	kvfree(W.tail);
	kvfree(W.was_idle);
	kvfree(W.steps);
	kvfree(W.in);
	kvfree(W.out);
	kvfree(W.scr.idle);
	kvfree(W.scr.rsrc);
	kvfree(W.topo.nlev);
	kvfree(W.topo.slot);
	kvfree(W.topo.span);
	memset(&W, 0, sizeof(W));
}

static int wasted_alloc(void)
{
	u32 n = nr_cpu_ids, words = DIV_ROUND_UP(n, 64);
	int cpu, l;

	wasted_pc = kcalloc(n, sizeof(*wasted_pc), GFP_KERNEL);
	if (!wasted_pc)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct wasted_pcpu *pc = kzalloc_node(sizeof(*pc), GFP_KERNEL, cpu_to_node(cpu));

		if (!pc)
			return -ENOMEM;
		wasted_timer_setup(&pc->timer, wasted_tick);
		wasted_kick_init(&pc->kick, wasted_kick_fn);
		wasted_csd_init(&pc->handoff, wasted_handoff_fn);
		pc->cmt_dst = -1;
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			atomic_set(&pc->seq[l], 0);
		wasted_pc[cpu] = pc;
	}
	spin_lock_init(&W.lock);
	W.acc = kvcalloc(n, sizeof(*W.acc), GFP_KERNEL);
	W.keys = kvcalloc(n, sizeof(*W.keys), GFP_KERNEL);
	W.stretch_seq = kvcalloc(n, sizeof(*W.stretch_seq), GFP_KERNEL);
	W.tick_seq = kvcalloc(n, sizeof(*W.tick_seq), GFP_KERNEL);
	W.st = kvcalloc(n, sizeof(*W.st), GFP_KERNEL);
	W.cgs = kvzalloc(sizeof(*W.cgs), GFP_KERNEL);
	wasted_logs = kcalloc(n, sizeof(*wasted_logs), GFP_KERNEL);
	if (!wasted_logs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		wasted_logs[cpu] = kvzalloc_node(sizeof(struct wasted_log), GFP_KERNEL,
						 cpu_to_node(cpu));
		if (!wasted_logs[cpu])
			return -ENOMEM;
	}
	W.cur = kvcalloc(n, sizeof(*W.cur), GFP_KERNEL);
	W.slot = kvcalloc(n, sizeof(*W.slot), GFP_KERNEL);
	W.nslot = kvcalloc(n, sizeof(*W.nslot), GFP_KERNEL);
	W.unscanned = kvcalloc(n, sizeof(*W.unscanned), GFP_KERNEL);
	W.known = kvcalloc(n, sizeof(*W.known), GFP_KERNEL);
	W.tail = kvcalloc(n, sizeof(*W.tail), GFP_KERNEL);
	W.was_idle = kvcalloc(n, sizeof(*W.was_idle), GFP_KERNEL);
	W.steps = kvcalloc(WASTED_STEPS, sizeof(*W.steps), GFP_KERNEL);
	W.in = kvcalloc(n, sizeof(*W.in), GFP_KERNEL);
	W.out = kvcalloc(n, sizeof(*W.out), GFP_KERNEL);
	/*
	 * the scratch's bitmaps in one block: idle, void, any_src, unk_src,
	 * yes, then the tick cgroups' and the tracked process's destinations
	 */
	W.scr.idle = kvcalloc((5 + WASTED_TICK_CGS + 1) * (size_t)words, sizeof(u64), GFP_KERNEL);
	W.scr.rsrc = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	W.topo.nlev = kvcalloc(n, 1, GFP_KERNEL);
	W.topo.slot = kvcalloc(n, WASTED_MAX_DOMAINS, GFP_KERNEL);
	W.topo.span = kvcalloc((size_t)n * WASTED_MAX_DOMAINS * words, sizeof(u64), GFP_KERNEL);
	if (!W.acc || !W.keys || !W.stretch_seq || !W.tick_seq || !W.st || !W.cgs || !W.cur ||
	    !W.slot || !W.nslot || !W.unscanned || !W.known || !W.tail || !W.was_idle || !W.steps || !W.in || !W.out || !W.scr.idle || !W.scr.rsrc || !W.topo.nlev || !W.topo.slot ||
	    !W.topo.span)
		return -ENOMEM;
	W.scr.words = words;
	W.scr.voidm = W.scr.idle + words;
	W.scr.any_src = W.scr.idle + 2 * words;
	W.scr.unk_src = W.scr.idle + 3 * words;
	W.scr.yes = W.scr.idle + 4 * words;
	W.scr.dest = W.scr.idle + 5 * words;
	W.topo.nr_cpus = n;
	W.topo.words = words;
	W.gen = atomic_read(&shadow_reset_gen);
	return 0;
}

/**
 * shadow_wasted_init() - check the parameters, allocate, arm (before the probes)
 *
 * Return: 0, -EINVAL for a bad parameter (the load is refused), -ENOMEM.
 */
int shadow_wasted_init(void)
{
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
	for_each_kernel_tracepoint(wasted_find_tp, NULL);
	err = wasted_tp_switch ? tracepoint_probe_register(wasted_tp_switch, wasted_probe_switch,
							   NULL) : -ENOENT;
	if (err) {
		/* the rest of the module works without it: say why in info */
		snprintf(wasted_state, sizeof(wasted_state), "inactive:sched_switch-not-attached:%d", err);
		strscpy(wasted_cause_state, "inactive:wasted-off", sizeof(wasted_cause_state));
		pr_warn("wasted-core time off: cannot attach to sched_switch (%d)\n", err);
		wasted_free();
		return 0;
	}
	wasted_switch_registered = true;
	wasted_cause_init();
	snprintf(wasted_state, sizeof(wasted_state), "active:change-logs:period_us=%u",
		 wasted_period_us);
	atomic_set(&shadow_wasted_owner, WASTED_STOPPED);
	static_branch_enable(&shadow_wasted_on);
	return 0;
}

/** shadow_wasted_exit() - stop the sampler and free (after the probes and the audit are gone) */
void shadow_wasted_exit(void)
{
	int cpu;

	if (!wasted_pc)
		return;
	atomic_set(&shadow_wasted_owner, WASTED_OFF);
	static_branch_disable(&shadow_wasted_on);
	if (wasted_switch_registered) {
		tracepoint_probe_unregister(wasted_tp_switch, wasted_probe_switch, NULL);
		tracepoint_synchronize_unregister();
		wasted_switch_registered = false;
	}
	wasted_cause_exit();
	/* a kick or handoff that saw the old owner has armed its timer by now */
	synchronize_rcu();
	/* a handoff IPI still queued runs before this one returns */
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, wasted_nop, NULL, 1);
	cpus_read_unlock();
	for_each_possible_cpu(cpu)
		irq_work_sync(&wasted_pc[cpu]->kick);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&wasted_pc[cpu]->timer);
	for_each_possible_cpu(cpu)
		irq_work_sync(&wasted_pc[cpu]->kick);
	wasted_free();
}

/* ---- readers ---- */

/* A copy of the accumulators, taken under the sampler's lock. */
struct wasted_copy {
	u32 n;
	bool stale;		/* a reset since the last sample: everything reads 0 */
	u64 samples, cost_ns, cost_max_ns, idle_wakeups, handoffs, stops, delta_max_ns, steps;
	u64 since_ns, until_ns;
	struct wasted_cpu_acc *acc;
	struct wasted_keys *keys;
	struct wasted_cgs *cgs;
};

static void wasted_copy_free(struct wasted_copy *cp)
{
	kvfree(cp->acc);
	kvfree(cp->keys);
	kvfree(cp->cgs);
}

static int wasted_copy(struct wasted_copy *cp)
{
	u32 n = W.topo.nr_cpus;

	memset(cp, 0, sizeof(*cp));
	cp->acc = kvcalloc(n, sizeof(*cp->acc), GFP_KERNEL);
	cp->keys = kvcalloc(n, sizeof(*cp->keys), GFP_KERNEL);
	cp->cgs = kvzalloc(sizeof(*cp->cgs), GFP_KERNEL);
	if (!cp->acc || !cp->keys || !cp->cgs) {
		wasted_copy_free(cp);
		return -ENOMEM;
	}
	cp->n = n;
	spin_lock_bh(&W.lock);
	if (W.gen != (u32)atomic_read(&shadow_reset_gen)) {
		cp->stale = true;
	} else {
		memcpy(cp->acc, W.acc, n * sizeof(*cp->acc));
		memcpy(cp->keys, W.keys, n * sizeof(*cp->keys));
		memcpy(cp->cgs, W.cgs, sizeof(*cp->cgs));
		cp->samples = W.samples;
		cp->cost_ns = W.cost_ns;
		cp->cost_max_ns = W.cost_max_ns;
		cp->idle_wakeups = W.idle_wakeups;
		cp->handoffs = W.handoffs;
		cp->stops = W.stops;
		cp->delta_max_ns = W.delta_max_ns;
		cp->steps = W.steps_total;
		cp->since_ns = W.reset_ns;
		cp->until_ns = W.last_ns ? W.last_ns : W.stop_ns;
	}
	spin_unlock_bh(&W.lock);
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

/* Every CPU's attribution rows summed by key (at most WASTED_KEYS * nr_cpu_ids keys). */
static int wasted_sum_keys(const struct wasted_copy *cp, struct wasted_keys *sum, u64 *other_ns)
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
				if (sum->nr == WASTED_KEYS) {
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
	struct wasted_keys *sum;
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
		WRITE_ONCE(wasted_track_gen, READ_ONCE(wasted_track_gen) + 1);
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
}

/** shadow_wasted_info() - the feature's rows of debugfs `info`, with the policies that wasted time */
void shadow_wasted_info(struct seq_file *m)
{
	struct wasted_keys *sum;
	struct wasted_copy cp;
	u64 wasted = 0, unknown = 0, bound = 0, other, best = 0;
	int owner = atomic_read(&shadow_wasted_owner);
	u32 c, i, top = 0;

	seq_printf(m, "feature.wasted %s\n", wasted_state);
	seq_printf(m, "feature.wasted_cause %s\n", wasted_cause_state);
	if (!wasted_pc)
		return;
	seq_printf(m, "wasted_period_us %u\nwasted_trace_ms %u\n", wasted_period_us, wasted_trace_ms);
	if (owner >= 0)
		seq_printf(m, "wasted_sampler cpu%d\n", owner);
	else
		seq_printf(m, "wasted_sampler %s\n", owner == WASTED_STOPPED ? "stopped:all-idle" : "off");
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
	seq_printf(m, "wasted_idle_wakeups %llu\nwasted_handoffs %llu\nwasted_stops %llu\n",
		   cp.idle_wakeups, cp.handoffs, cp.stops);
	seq_printf(m, "wasted_changes %llu\n", cp.steps);
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
