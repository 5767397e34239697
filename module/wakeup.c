// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup placement audit: where select_task_rq_fair() put a woken (or
 * forked) CFS task, and whether a CPU it may run on was idle meanwhile.
 *
 * select_task_rq_fair() is the one function of the wakeup path that is
 * certain to be a probeable symbol (the scheduler class calls it through
 * a pointer); select_idle_sibling(), wake_affine(), find_idlest_cpu() and
 * select_idle_cpu() are inlined or cloned on Debian's 6.1 and 7.3.  A
 * kretprobe reads its inputs (the task, its previous CPU, the wake flags;
 * the waker's CPU is where it runs) and its result (the target).  When the
 * target is busy (wasted-core time's definition: it runs a task other than
 * its idle task) and a CPU the task may run on is idle, the placement is a
 * *miss*: counted per level of the nearest such idle CPU (the lowest
 * domain of the target that holds one) and path (core/wasted_why.c), and
 * *marked* in every domain of the target that holds one, keyed by
 * (level, first CPU of the span): wasted.c charges an idle CPU's wasted
 * time at that level to the placement when the waiter that made it wasted
 * arrived with the mark (docs/wasted.md, "Attribution").
 *
 * Context and bounds: the handler runs in the waker's context with the
 * task's pi_lock held and interrupts off, not under the target's rq lock.
 * It takes no lock, allocates nothing and does O(levels x nr_cpu_ids / 64)
 * word operations: per domain of the target (at most WASTED_MAX_DOMAINS),
 * its span AND the task's cpus_ptr AND the idle bitmap, one pass over the
 * words.  The idle bitmap (wasted.h) is written by each CPU's switches to
 * and from idle (one atomic bit operation per transition, only while this
 * probe is registered: shadow_wake_on); the domains are
 * the kernel's (RCU), their levels the sampler's table (checked by span
 * weight: a domain that changed since is skipped and counted).
 *
 * Kernels before 5.11 take a global lock in every kretprobe hit (the
 * kretprobe's own raw spinlock for its free instances): the probe is not
 * registered there, and says so in info.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/version.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/bitops.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sched/topology.h>

#include "kstruct.h"
#include "shadow.h"
#include "stats.h"
#include "trace.h"
#include "wasted.h"
#include "wakeup.h"

static bool wasted_wakeup = true;
module_param(wasted_wakeup, bool, 0444);
MODULE_PARM_DESC(wasted_wakeup, "probe select_task_rq_fair() to charge wasted time to wakeup placements (default 1; not on kernels before 5.11)");

/*
 * Wake flags: WF_FORK and WF_TTWU equal SD_BALANCE_FORK and SD_BALANCE_WAKE
 * (the kernel static_asserts it); WF_SYNC is 0x10 in every kernel since 5.8
 * (kernel/sched/sched.h, not in BTF).
 */
#define WAKE_WF_FORK	SD_BALANCE_FORK
#define WAKE_WF_TTWU	SD_BALANCE_WAKE
#define WAKE_WF_SYNC	0x10

/* Each CPU's domains as the sampler read them (written in place; a byte or word read is whole). */
struct wake_topo {
	u8 nlev;
	u8 lvl[WASTED_MAX_DOMAINS];	/* enum wasted_level */
	u8 rel[WASTED_MAX_DOMAINS];	/* enum wasted_rel */
	u32 first[WASTED_MAX_DOMAINS];	/* first CPU of the span: the mark's key */
	u32 weight[WASTED_MAX_DOMAINS];	/* span weight: checked against the live domain */
};

struct wake_ri {
	struct task_struct *p;
	int prev;
	int flags;
};

static struct wake_topo *wake_topo;		/* [nr_cpu_ids] */
static u64 *wake_marks;				/* [WASTED_NR_LEVELS][nr_cpu_ids]: stamp | path + 1 */
static struct shadow_wake_counts __percpu *wake_pc;
static bool wake_registered;
static size_t wake_bytes;			/* what shadow_wake_init() took */
DEFINE_STATIC_KEY_FALSE(shadow_wake_on);	/* the idle bitmap is kept (wasted.h) */
static char wake_state[80] = "inactive:not-initialized";

#define WAKE_MARK_PATH	0xffULL

static __always_inline u64 *wake_mark_slot(u32 level, u32 first)
{
	return &wake_marks[(size_t)level * nr_cpu_ids + first];
}

/* One idle-holding domain of the target: its level, relation, key and idle CPUs. */
struct wake_hit {
	u8 lvl, rel;
	u32 first, n;
	int near;
};

/*
 * A placement of @p (previous CPU @prev, wake flags @flags) on @target by
 * @waker.  Bounded: at most WASTED_MAX_DOMAINS domains, each one pass over
 * nr_cpu_ids / BITS_PER_LONG words.
 */
static void wake_place(struct task_struct *p, int prev, int flags, int waker, int target)
{
	const unsigned long *allowed, *lower = NULL, *llc = NULL;
	unsigned long *idle = shadow_wasted_idle;
	struct wake_hit hit[WASTED_MAX_DOMAINS];
	const struct wake_topo *tt;
	struct shadow_cpu *sc;
	struct sched_domain *sd;
	u32 words = BITS_TO_LONGS(nr_cpu_ids), nh = 0, l, w, total = 0, path;
	struct rq *rq;
	u64 stamp;

	this_cpu_inc(wake_pc->calls);
	if ((unsigned int)target >= nr_cpu_ids || (unsigned int)prev >= nr_cpu_ids || !p)
		return;
	sc = shadow_cpus[target];
	/* an idle target, or one whose state is not known yet, is no miss */
	if (!sc || !READ_ONCE(sc->wq.valid) || test_bit(target, idle))
		return;
	rq = READ_ONCE(sc->rq);
	if (!rq)
		return;
	this_cpu_inc(wake_pc->busy);
	allowed = cpumask_bits(p->cpus_ptr);
	tt = &wake_topo[target];
	rcu_read_lock();
	sd = ks_rq_sd(rq);
	for (l = 0; sd && l < READ_ONCE(tt->nlev) && l < WASTED_MAX_DOMAINS; l++, sd = ks_sd_parent(sd)) {
		const unsigned long *span = cpumask_bits(ks_sd_span(sd));
		u32 n = 0;
		int near = -1;

		if (ks_sd_span_weight(sd) != READ_ONCE(tt->weight[l])) {
			this_cpu_inc(wake_pc->skipped);	/* the domains changed: the table is read again soon */
			rcu_read_unlock();
			return;
		}
		if (shadow_wasted_sd_llc(sd))
			llc = span;
		for (w = 0; w < words; w++) {
			unsigned long b = span[w] & allowed[w] & READ_ONCE(idle[w]);

			if (lower)
				b &= ~lower[w];
			else if (w == target / BITS_PER_LONG)
				b &= ~BIT(target % BITS_PER_LONG);
			if (!b)
				continue;
			if (near < 0)
				near = w * BITS_PER_LONG + __ffs(b);
			n += hweight_long(b);
		}
		if (n) {
			hit[nh].lvl = READ_ONCE(tt->lvl[l]);
			hit[nh].rel = READ_ONCE(tt->rel[l]);
			hit[nh].first = READ_ONCE(tt->first[l]);
			hit[nh].n = n;
			hit[nh].near = near;
			total += n;
			nh++;
		}
		lower = span;
	}
	path = wasted_wake_path((flags & WAKE_WF_FORK ? WASTED_WF_FORK : 0) |
				(flags & WAKE_WF_SYNC ? WASTED_WF_SYNC : 0),
				target == waker,
				llc ? test_bit(waker, llc) : waker == target,
				llc ? test_bit(prev, llc) : prev == target);
	rcu_read_unlock();
	if (!nh)
		return;
	stamp = shadow_wasted_clock();
	for (l = 0; l < nh; l++)
		if (hit[l].lvl < WASTED_NR_LEVELS && hit[l].first < nr_cpu_ids)
			WRITE_ONCE(*wake_mark_slot(hit[l].lvl, hit[l].first),
				   (stamp & ~WAKE_MARK_PATH) | (path + 1));
	if (hit[0].lvl < WASTED_NR_LEVELS) {
		this_cpu_inc(wake_pc->miss[hit[0].lvl][path]);
		this_cpu_add(wake_pc->idle[hit[0].lvl][path], total);
	}
	if (trace_wakeup_miss_enabled())
		trace_wakeup_miss(p->pid, prev, waker, target, wasted_wake_path_name[path],
				  wasted_level_name[min_t(u32, hit[0].lvl, WASTED_LVL_NONE)],
				  wasted_rel_name[min_t(u32, hit[0].rel, WASTED_REL_ABOVE)], total,
				  hit[0].near);
}

static int wake_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wake_ri *d = (struct wake_ri *)ri->data;
	int flags;

	if (!static_branch_likely(&shadow_enabled) || !static_branch_unlikely(&shadow_wasted_on))
		return 1;	/* no return handler */
	/* int select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags) */
	flags = (int)regs_get_kernel_argument(regs, 2);
	if (!(flags & (WAKE_WF_TTWU | WAKE_WF_FORK)))
		return 1;	/* exec balancing moves a running task: not a wakeup */
	d->p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	d->prev = (int)regs_get_kernel_argument(regs, 1);
	d->flags = flags;
	return 0;
}

static int wake_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wake_ri *d = (struct wake_ri *)ri->data;
	u64 t0 = shadow_stat_begin(SS_WAKEUP);

	wake_place(d->p, d->prev, d->flags, smp_processor_id(), (int)regs_return_value(regs));
	shadow_stat_end(SS_WAKEUP, t0);
	return 0;
}

static struct kretprobe wake_krp = {
	.kp.symbol_name = "select_task_rq_fair",
	.entry_handler = wake_entry,
	.handler = wake_return,
	.data_size = sizeof(struct wake_ri),
};

/* ---- the sampler's side (process context) ---- */

void shadow_wake_topo_read(void)
{
	u32 c, l;

	if (!wake_topo)
		return;
	rcu_read_lock();
	for (c = 0; c < nr_cpu_ids; c++) {
		struct wake_topo *t = &wake_topo[c];
		struct shadow_cpu *sc = shadow_cpus[c];
		struct rq *rq = sc ? READ_ONCE(sc->rq) : NULL;
		struct sched_domain *sd = rq && cpu_online(c) ? ks_rq_sd(rq) : NULL;

		for (l = 0; sd && l < WASTED_MAX_DOMAINS; l++, sd = ks_sd_parent(sd)) {
			int flags = ks_sd_flags(sd);

			WRITE_ONCE(t->weight[l], ks_sd_span_weight(sd));
			WRITE_ONCE(t->lvl[l], shadow_wasted_sd_level(sd));
			WRITE_ONCE(t->rel[l], flags & SD_SHARE_CPUCAPACITY ? WASTED_REL_SMT :
					      shadow_wasted_sd_llc(sd) ? WASTED_REL_LLC :
					      WASTED_REL_ABOVE);
			WRITE_ONCE(t->first[l], cpumask_first(ks_sd_span(sd)));
		}
		WRITE_ONCE(t->nlev, l);
	}
	rcu_read_unlock();
}

/* The depth of @level in @cpu's domains, -1 if none. */
static int wake_depth(u32 cpu, u32 level)
{
	const struct wake_topo *t;
	u32 l;

	if (!wake_topo || cpu >= nr_cpu_ids)
		return -1;
	t = &wake_topo[cpu];
	for (l = 0; l < t->nlev && l < WASTED_MAX_DOMAINS; l++)
		if (t->lvl[l] == level)
			return l;
	return -1;
}

bool shadow_wake_mark(u32 cpu, u32 level, u64 *stamp, u32 *path)
{
	int l = wake_depth(cpu, level);
	u64 m;

	if (l < 0 || !wake_marks || level >= WASTED_NR_LEVELS ||
	    wake_topo[cpu].first[l] >= nr_cpu_ids)
		return false;
	m = READ_ONCE(*wake_mark_slot(level, wake_topo[cpu].first[l]));
	if (!m)
		return false;
	*stamp = m & ~WAKE_MARK_PATH;
	*path = (u32)(m & WAKE_MARK_PATH) - 1;
	return *path < WASTED_NR_WAKE_PATHS;
}

int shadow_wake_group(u32 cpu, u32 level)
{
	int l = wake_depth(cpu, level);

	if (l < 0)
		return -1;
	return l ? (int)READ_ONCE(wake_topo[cpu].first[l - 1]) : (int)cpu;
}

u32 shadow_wake_rel(u32 cpu, u32 level)
{
	int l = wake_depth(cpu, level);

	return l < 0 ? WASTED_REL_ABOVE : wake_topo[cpu].rel[l];
}

int shadow_wake_level_rel(u32 level)
{
	u32 c;

	for (c = 0; wake_topo && c < nr_cpu_ids; c++)
		if (wake_depth(c, level) >= 0)
			return shadow_wake_rel(c, level);
	return -1;
}

void shadow_wake_sum(struct shadow_wake_counts *out)
{
	int cpu;
	u32 l, p;

	memset(out, 0, sizeof(*out));
	if (!wake_pc)
		return;
	for_each_possible_cpu(cpu) {
		const struct shadow_wake_counts *c = per_cpu_ptr(wake_pc, cpu);

		out->calls += READ_ONCE(c->calls);
		out->busy += READ_ONCE(c->busy);
		out->skipped += READ_ONCE(c->skipped);
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			for (p = 0; p < WASTED_NR_WAKE_PATHS; p++) {
				out->miss[l][p] += READ_ONCE(c->miss[l][p]);
				out->idle[l][p] += READ_ONCE(c->idle[l][p]);
			}
	}
}

void shadow_wake_info(struct seq_file *m)
{
	seq_printf(m, "feature.wasted_wakeup %s\n", wake_state);
	if (wake_registered)
		seq_printf(m, "wasted_wakeup_nmissed %d\nwasted_wakeup_bytes %zu\n", wake_krp.nmissed,
			   wake_bytes);
}

void shadow_wake_free(void)
{
	free_percpu(wake_pc);
	wake_pc = NULL;
	kvfree(wake_marks);
	wake_marks = NULL;
	kvfree(wake_topo);
	wake_topo = NULL;
}

/** shadow_wake_init() - the domain table, and the select_task_rq_fair() probe (wasted-core time is on) */
void shadow_wake_init(void)
{
	int err;

	/* the table is wasted.c's too (the group of an attempt's destination) */
	wake_topo = kvcalloc(nr_cpu_ids, sizeof(*wake_topo), GFP_KERNEL);
	if (!wake_topo) {
		strscpy(wake_state, "inactive:no-memory", sizeof(wake_state));
		return;
	}
	shadow_wake_topo_read();
	if (!wasted_wakeup) {
		strscpy(wake_state, "inactive:wasted_wakeup=0", sizeof(wake_state));
		return;
	}
	if (LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)) {
		/* 5.10: pre_handler_kretprobe() takes the kretprobe's raw spinlock on every hit */
		strscpy(wake_state, "inactive:kretprobe-takes-a-global-lock-before-5.11",
			sizeof(wake_state));
		return;
	}
	wake_marks = kvcalloc((size_t)WASTED_NR_LEVELS * nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	wake_pc = alloc_percpu(struct shadow_wake_counts);
	if (!wake_marks || !wake_pc) {
		strscpy(wake_state, "inactive:no-memory", sizeof(wake_state));
		return;
	}
	/* the handler runs with interrupts off: one instance per CPU, twice for safety */
	wake_krp.maxactive = 2 * num_possible_cpus();
	err = register_kretprobe(&wake_krp);
	if (err) {
		snprintf(wake_state, sizeof(wake_state), "inactive:select_task_rq_fair-not-probed:%d",
			 err);
		pr_warn("wasted-core: cannot probe select_task_rq_fair (%d): no wakeup rows\n", err);
		return;
	}
	wake_registered = true;
	wake_bytes = (size_t)nr_cpu_ids * sizeof(*wake_topo) +
		     (size_t)WASTED_NR_LEVELS * nr_cpu_ids * sizeof(u64) +
		     (size_t)num_possible_cpus() * sizeof(struct shadow_wake_counts);
	/* from here on each CPU's turns to and from idle keep the bitmap */
	static_branch_enable(&shadow_wake_on);
	strscpy(wake_state, "active:select_task_rq_fair", sizeof(wake_state));
}

/** shadow_wake_exit() - unregister the probe (it has returned everywhere; the sampler frees) */
void shadow_wake_exit(void)
{
	if (wake_registered)
		unregister_kretprobe(&wake_krp);
	static_branch_disable(&shadow_wake_on);
	wake_registered = false;
}
