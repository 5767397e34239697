/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed accessors for the private scheduler structures sched_shadow reads.
 *
 * struct rq, cfs_rq, task_group, lb_env, sched_domain, sched_group and
 * sched_group_capacity are private to kernel/sched and change between
 * versions (and between distribution builds of one version).  Their offsets
 * come only from generated/kstruct_gen.h, which userspace/btfgen writes from
 * the target kernel's BTF; module/kstruct.fields lists every field.  The
 * rest of the module goes through the accessors below and never computes
 * an address by hand.
 *
 * Public structures (sched_entity, sched_avg, task_struct) are used
 * directly; KS_LAYOUT_CHECKS compares their BTF offsets and the sizes of
 * the private fields with what this build's headers say, at build time
 * (static_assert, unless SHADOW_BTF_CHECK=load) and again at load time.
 */
#ifndef SHADOW_KSTRUCT_H
#define SHADOW_KSTRUCT_H

#include <linux/sched.h>
#include <linux/version.h>
#include <linux/cgroup.h>
#include <linux/rbtree.h>
#include <linux/compiler.h>
#include <linux/sched/topology.h>
#include "generated/kstruct_gen.h"

struct rq;
struct cfs_rq;
struct task_group;
struct lb_env;
struct sched_domain;
struct sched_group;
struct sched_group_capacity;

#define KS_ADDR(type, p, s, f) ((type *)((char *)(p) + KS_##s##__##f##_OFF))

/* --- struct rq --- */
static __always_inline int ks_rq_cpu(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(const int, rq, rq, cpu));
}

static __always_inline unsigned int ks_rq_nr_running(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(const unsigned int, rq, rq, nr_running));
}

static __always_inline struct cfs_rq *ks_rq_cfs(const struct rq *rq)
{
	return KS_ADDR(struct cfs_rq, rq, rq, cfs);
}

static __always_inline struct task_struct *ks_rq_curr(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(struct task_struct *const, rq, rq, curr));
}

static __always_inline unsigned long ks_rq_cpu_capacity(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(const unsigned long, rq, rq, cpu_capacity));
}

/* The CFS tasks queued on @rq (sched_entity.group_node), the running one included. */
static __always_inline struct list_head *ks_rq_cfs_tasks(struct rq *rq)
{
	return KS_ADDR(struct list_head, rq, rq, cfs_tasks);
}

/* --- struct cfs_rq --- */
static __always_inline const struct load_weight *ks_cfs_rq_load(const struct cfs_rq *cfs)
{
	return KS_ADDR(const struct load_weight, cfs, cfs_rq, load);
}

static __always_inline unsigned int ks_cfs_rq_h_nr_running(const struct cfs_rq *cfs)
{
	return READ_ONCE(*KS_ADDR(const unsigned int, cfs, cfs_rq, h_nr_running));
}

static __always_inline struct sched_entity *ks_cfs_rq_curr(const struct cfs_rq *cfs)
{
	return READ_ONCE(*KS_ADDR(struct sched_entity *const, cfs, cfs_rq, curr));
}

static __always_inline const struct sched_avg *ks_cfs_rq_avg(const struct cfs_rq *cfs)
{
	return KS_ADDR(const struct sched_avg, cfs, cfs_rq, avg);
}

static __always_inline struct rq *ks_cfs_rq_rq(const struct cfs_rq *cfs)
{
	return READ_ONCE(*KS_ADDR(struct rq *const, cfs, cfs_rq, rq));
}

/*
 * How far this cfs_rq's PELT clock is behind rq_clock_pelt(): the time its
 * hierarchy spent throttled (cfs_rq_clock_pelt()).  0 without
 * CONFIG_CFS_BANDWIDTH, where every cfs_rq runs on the rq's clock.
 */
static __always_inline u64 ks_cfs_rq_throttled_pelt_time(const struct cfs_rq *cfs)
{
#if HAS_KS_cfs_rq__throttled_clock_pelt_time
	return READ_ONCE(*KS_ADDR(const u64, cfs, cfs_rq, throttled_clock_pelt_time));
#else
	return 0;
#endif
}

/* 7.3+ single run queue: the entity on the running path at this level. */
#define KS_FLAT_RUNQUEUE HAS_KS_cfs_rq__h_curr

static __always_inline struct task_group *ks_cfs_rq_tg(const struct cfs_rq *cfs)
{
	return READ_ONCE(*KS_ADDR(struct task_group *const, cfs, cfs_rq, tg));
}

/*
 * --- struct sched_entity (public, but sched_delayed only exists on 6.12+:
 * whether it does is decided by the BTF, not by a version number) ---
 * A delayed entity went to sleep but stays queued until its lag is spent
 * (EEVDF's DELAY_DEQUEUE): it is counted in the cfs_rq's h_nr_running
 * (h_nr_queued) yet it is not runnable.
 */
static __always_inline bool ks_se_delayed(const struct sched_entity *se)
{
#if HAS_KS_sched_entity__sched_delayed
	return READ_ONCE(*KS_ADDR(const unsigned char, se, sched_entity, sched_delayed));
#else
	return false;
#endif
}

/*
 * Runnable (not delayed) tasks of @cfs's hierarchy where the kernel counts
 * them (6.14+ h_nr_runnable), else -1: the caller counts delayed ones itself.
 */
static __always_inline int ks_cfs_rq_h_nr_runnable(const struct cfs_rq *cfs)
{
#if HAS_KS_cfs_rq__h_nr_runnable
	return READ_ONCE(*KS_ADDR(const unsigned int, cfs, cfs_rq, h_nr_runnable));
#else
	return -1;
#endif
}

/* --- struct task_struct (public; migration_disabled needs CONFIG_SMP, 5.11+) --- */
static __always_inline bool ks_task_migration_disabled(const struct task_struct *p)
{
#if HAS_KS_task_struct__migration_disabled
	return READ_ONCE(*KS_ADDR(const unsigned short, p, task_struct, migration_disabled));
#else
	return false;
#endif
}

/* --- struct task_group --- */
static __always_inline struct cgroup_subsys_state *ks_tg_css(const struct task_group *tg)
{
	return KS_ADDR(struct cgroup_subsys_state, tg, task_group, css);
}

/* The cgroup id of the task group owning @cfs (1 for the root). */
static __always_inline u64 ks_cfs_rq_cgid(const struct cfs_rq *cfs)
{
	struct task_group *tg = ks_cfs_rq_tg(cfs);
	struct cgroup *cgrp = tg ? READ_ONCE(ks_tg_css(tg)->cgroup) : NULL;

	return cgrp ? cgroup_id(cgrp) : 0;
}

/* --- struct lb_env --- */
static __always_inline struct sched_domain *ks_lb_env_sd(const struct lb_env *env)
{
	return READ_ONCE(*KS_ADDR(struct sched_domain *const, env, lb_env, sd));
}

static __always_inline int ks_lb_env_dst_cpu(const struct lb_env *env)
{
	return READ_ONCE(*KS_ADDR(const int, env, lb_env, dst_cpu));
}

static __always_inline int ks_lb_env_idle(const struct lb_env *env)
{
	return READ_ONCE(*KS_ADDR(const int, env, lb_env, idle));
}

static __always_inline struct cpumask *ks_lb_env_cpus(const struct lb_env *env)
{
	return READ_ONCE(*KS_ADDR(struct cpumask *const, env, lb_env, cpus));
}

/* --- struct sched_domain --- */
static __always_inline struct sched_group *ks_sd_groups(const struct sched_domain *sd)
{
	return READ_ONCE(*KS_ADDR(struct sched_group *const, sd, sched_domain, groups));
}

static __always_inline int ks_sd_flags(const struct sched_domain *sd)
{
	return READ_ONCE(*KS_ADDR(const int, sd, sched_domain, flags));
}

/* NULL when the kernel has no sd->name (CONFIG_SCHED_DEBUG off before 6.15) */
static __always_inline const char *ks_sd_name(const struct sched_domain *sd)
{
#if HAS_KS_sched_domain__name
	return READ_ONCE(*KS_ADDR(const char *const, sd, sched_domain, name));
#else
	return NULL;
#endif
}

static __always_inline unsigned int ks_sd_imbalance_pct(const struct sched_domain *sd)
{
	return READ_ONCE(*KS_ADDR(const unsigned int, sd, sched_domain, imbalance_pct));
}

static __always_inline struct sched_domain *ks_sd_child(const struct sched_domain *sd)
{
	return READ_ONCE(*KS_ADDR(struct sched_domain *const, sd, sched_domain, child));
}

/* 0 on kernels without sd->imb_numa_nr (before 5.18) */
static __always_inline unsigned int ks_sd_imb_numa_nr(const struct sched_domain *sd)
{
#if HAS_KS_sched_domain__imb_numa_nr
	return READ_ONCE(*KS_ADDR(const unsigned int, sd, sched_domain, imb_numa_nr));
#else
	return 0;
#endif
}

static __always_inline struct rq *ks_lb_env_dst_rq(const struct lb_env *env)
{
	return READ_ONCE(*KS_ADDR(struct rq *const, env, lb_env, dst_rq));
}

struct root_domain;

static __always_inline struct root_domain *ks_rq_rd(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(struct root_domain *const, rq, rq, rd));
}

/* rd->pd is set: an energy model (EAS) is on for this root domain */
static __always_inline bool ks_rd_pd(const struct root_domain *rd)
{
#if HAS_KS_root_domain__pd
	return READ_ONCE(*KS_ADDR(void *const, rd, root_domain, pd));
#else
	return false;
#endif
}

/* rd->overutilized as read: an int (SG_OVERUTILIZED) up to 6.9, a bool since */
static __always_inline u32 ks_rd_overutilized(const struct root_domain *rd)
{
#if HAS_KS_root_domain__overutilized
	/* BTF gives the size (both checked at load) */
	if (KS_root_domain__overutilized_SIZE == 1)
		return READ_ONCE(*KS_ADDR(const u8, rd, root_domain, overutilized));
	return READ_ONCE(*KS_ADDR(const int, rd, root_domain, overutilized));
#else
	return 0;
#endif
}
static __always_inline unsigned int ks_sd_span_weight(const struct sched_domain *sd)
{
	return READ_ONCE(*KS_ADDR(const unsigned int, sd, sched_domain, span_weight));
}

/* wasted.c: the CPU's lowest domain (RCU), its parent and span */
static __always_inline struct sched_domain *ks_rq_sd(const struct rq *rq)
{
	return rcu_dereference(*KS_ADDR(struct sched_domain __rcu *const, rq, rq, sd));
}

static __always_inline struct sched_domain *ks_sd_parent(const struct sched_domain *sd)
{
	return rcu_dereference(*KS_ADDR(struct sched_domain __rcu *const, sd, sched_domain, parent));
}

/* the headers' own helper: where the span lives changed in 7.x (past the struct) */
static __always_inline const struct cpumask *ks_sd_span(const struct sched_domain *sd)
{
	return sched_domain_span((struct sched_domain *)sd);
}

/*
 * wasted.c: the state that says why no balancing ran (docs/wasted.md).
 * Each field is optional: when the kernel lacks it, or it has another
 * size than the one read here, the accessor says so (*ok = false) and the
 * rule that needs it is off.  Racy reads of another CPU's fields, in
 * process context: "the state at that moment".
 */
#define KS_WHY_READ(type, p, s, f, ok)						\
	({ *(ok) = true; READ_ONCE(*KS_ADDR(const type, p, s, f)); })

static __always_inline bool ks_rq_tick_stopped(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__nohz_tick_stopped && KS_rq__nohz_tick_stopped_SIZE == 4
	return KS_WHY_READ(unsigned int, rq, rq, nohz_tick_stopped, ok) != 0;
#else
	*ok = false;
	return false;
#endif
}

static __always_inline unsigned int ks_rq_nohz_flags(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__nohz_flags && KS_rq__nohz_flags_SIZE == 4
	return (unsigned int)KS_WHY_READ(int, rq, rq, nohz_flags, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline unsigned long ks_rq_next_balance(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__next_balance && KS_rq__next_balance_SIZE == 8
	return KS_WHY_READ(unsigned long, rq, rq, next_balance, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline unsigned long ks_rq_blocked_tick(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__last_blocked_load_update_tick && KS_rq__last_blocked_load_update_tick_SIZE == 8
	return KS_WHY_READ(unsigned long, rq, rq, last_blocked_load_update_tick, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline bool ks_rq_idle_balance(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__idle_balance && KS_rq__idle_balance_SIZE == 1
	return KS_WHY_READ(unsigned char, rq, rq, idle_balance, ok) != 0;
#else
	*ok = false;
	return false;
#endif
}

static __always_inline u64 ks_rq_avg_idle(const struct rq *rq, bool *ok)
{
#if HAS_KS_rq__avg_idle && KS_rq__avg_idle_SIZE == 8
	return KS_WHY_READ(u64, rq, rq, avg_idle, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline unsigned long ks_sd_last_balance(const struct sched_domain *sd, bool *ok)
{
#if HAS_KS_sched_domain__last_balance && KS_sched_domain__last_balance_SIZE == 8
	return KS_WHY_READ(unsigned long, sd, sched_domain, last_balance, ok);
#else
	*ok = false;
	return 0;
#endif
}

/* milliseconds */
static __always_inline unsigned int ks_sd_balance_interval(const struct sched_domain *sd, bool *ok)
{
#if HAS_KS_sched_domain__balance_interval && KS_sched_domain__balance_interval_SIZE == 4
	return KS_WHY_READ(unsigned int, sd, sched_domain, balance_interval, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline u64 ks_sd_max_newidle_lb_cost(const struct sched_domain *sd, bool *ok)
{
#if HAS_KS_sched_domain__max_newidle_lb_cost && KS_sched_domain__max_newidle_lb_cost_SIZE == 8
	return KS_WHY_READ(u64, sd, sched_domain, max_newidle_lb_cost, ok);
#else
	*ok = false;
	return 0;
#endif
}

static __always_inline unsigned int ks_sd_newidle_ratio(const struct sched_domain *sd, bool *ok)
{
#if HAS_KS_sched_domain__newidle_ratio && KS_sched_domain__newidle_ratio_SIZE == 4
	return KS_WHY_READ(unsigned int, sd, sched_domain, newidle_ratio, ok);
#else
	*ok = false;
	return 0;
#endif
}

/* --- struct sched_group / sched_group_capacity --- */
static __always_inline struct sched_group *ks_sg_next(const struct sched_group *sg)
{
	return READ_ONCE(*KS_ADDR(struct sched_group *const, sg, sched_group, next));
}

static __always_inline unsigned int ks_sg_group_weight(const struct sched_group *sg)
{
	return READ_ONCE(*KS_ADDR(const unsigned int, sg, sched_group, group_weight));
}

static __always_inline const struct cpumask *ks_sg_span(const struct sched_group *sg)
{
	return KS_ADDR(const struct cpumask, sg, sched_group, cpumask);
}

static __always_inline struct sched_group_capacity *ks_sg_sgc(const struct sched_group *sg)
{
	return READ_ONCE(*KS_ADDR(struct sched_group_capacity *const, sg, sched_group, sgc));
}

static __always_inline unsigned long ks_sgc_capacity(const struct sched_group_capacity *sgc)
{
	return READ_ONCE(*KS_ADDR(const unsigned long, sgc, sched_group_capacity, capacity));
}


/* --- the kernel model's live inputs (audit.c) --- */
static __always_inline unsigned long ks_rq_misfit_task_load(const struct rq *rq)
{
	return READ_ONCE(*KS_ADDR(const unsigned long, rq, rq, misfit_task_load));
}
/*
 * idle_cpu() (not exported): the idle task current, nothing queued, and no
 * wakeup pending (ttwu_pending, 5.8+).
 */
static __always_inline bool ks_rq_idle_cpu(const struct rq *rq)
{
	if (ks_rq_curr(rq) != READ_ONCE(*KS_ADDR(struct task_struct *const, rq, rq, idle)))
		return false;
	if (ks_rq_nr_running(rq))
		return false;
#if HAS_KS_rq__ttwu_pending
	if (READ_ONCE(*KS_ADDR(const unsigned int, rq, rq, ttwu_pending)))
		return false;
#endif
	return true;
}
/*
 * The CPU has work: a queued task or a wakeup pending (ttwu_pending, 5.8+),
 * the test should_we_balance() makes before a newly idle CPU balances or
 * searches again (5.19+), and idle_cpu()'s without the current task.
 */
static __always_inline bool ks_rq_has_work(const struct rq *rq)
{
	if (ks_rq_nr_running(rq))
		return true;
#if HAS_KS_rq__ttwu_pending
	if (READ_ONCE(*KS_ADDR(const unsigned int, rq, rq, ttwu_pending)))
		return true;
#endif
	return false;
}
/* The CPU's original capacity: rq->cpu_capacity_orig up to 6.6, else 1024 (see docs). */
static __always_inline unsigned long ks_rq_capacity_orig(const struct rq *rq)
{
#if HAS_KS_rq__cpu_capacity_orig
	return READ_ONCE(*KS_ADDR(const unsigned long, rq, rq, cpu_capacity_orig));
#else
	return SCHED_CAPACITY_SCALE;
#endif
}
/* cfs_rq avg.util_est (6.1: util_est.enqueued, the first u32 of struct util_est) */
static __always_inline unsigned int ks_cfs_rq_util_est(const struct cfs_rq *cfs)
{
	return READ_ONCE(*(const unsigned int *)((const char *)ks_cfs_rq_avg(cfs) +
						 KS_sched_avg__util_est_OFF));
}
/* sg->flags: the group's child domain's flags (5.16+; 0 before) */
static __always_inline int ks_sg_flags(const struct sched_group *sg)
{
#if HAS_KS_sched_group__flags
	return READ_ONCE(*KS_ADDR(const int, sg, sched_group, flags));
#else
	return 0;
#endif
}
/* sg->cores (6.6+; 0 before) */
static __always_inline unsigned int ks_sg_cores(const struct sched_group *sg)
{
#if HAS_KS_sched_group__cores
	return READ_ONCE(*KS_ADDR(const unsigned int, sg, sched_group, cores));
#else
	return 0;
#endif
}
static __always_inline unsigned long ks_sgc_min_capacity(const struct sched_group_capacity *sgc)
{
#if HAS_KS_sched_group_capacity__min_capacity
	return READ_ONCE(*KS_ADDR(const unsigned long, sgc, sched_group_capacity, min_capacity));
#else
	return 0;
#endif
}
static __always_inline unsigned long ks_sgc_max_capacity(const struct sched_group_capacity *sgc)
{
#if HAS_KS_sched_group_capacity__max_capacity
	return READ_ONCE(*KS_ADDR(const unsigned long, sgc, sched_group_capacity, max_capacity));
#else
	return 0;
#endif
}
/*
 * 7.2+ cache-aware balancing: queued tasks of @rq with a preferred LLC (the
 * sum of rq->sd->llc_counts[], at most 64 entries read); 0 elsewhere.
 * Called under RCU (rq->sd is RCU-protected).
 */
static __always_inline u32 ks_rq_llc_pref(const struct rq *rq)
{
#if HAS_KS_rq__sd && HAS_KS_sched_domain__llc_counts && HAS_KS_sched_domain__llc_max
	const struct sched_domain *sd = READ_ONCE(*KS_ADDR(struct sched_domain *const, rq, rq, sd));
	const unsigned int *cnt;
	unsigned int i, n;
	u32 sum = 0;

	if (!sd)
		return 0;
	cnt = READ_ONCE(*KS_ADDR(const unsigned int *const, sd, sched_domain, llc_counts));
	n = READ_ONCE(*KS_ADDR(const unsigned int, sd, sched_domain, llc_max));
	if (!cnt)
		return 0;
	for (i = 0; i < n && i < 64; i++)
		sum += READ_ONCE(cnt[i]);
	return sum;
#else
	return 0;
#endif
}
#define KS_MODEL_LLC_READABLE (HAS_KS_rq__sd && HAS_KS_sched_domain__llc_counts && \
			       HAS_KS_sched_domain__llc_max)


/* --- CFS bandwidth (waiters.c, audit.c): see kstruct.fields --- */
#define KS_BANDWIDTH_READABLE (HAS_KS_cfs_rq__throttle_count && HAS_KS_task_group__cfs_rq && \
			       HAS_KS_task_group__cfs_bandwidth__hierarchical_quota)
/* 7.3+: throttled tasks leave the run queue; only the destination is checked */
#define KS_TASK_BASED_THROTTLE HAS_KS_task_struct__throttled

/* the cfs_rq is in a throttled hierarchy (throttled_hierarchy()) */
static __always_inline bool ks_cfs_rq_throttled(const struct cfs_rq *cfs)
{
#if KS_BANDWIDTH_READABLE
	return READ_ONCE(*KS_ADDR(const int, cfs, cfs_rq, throttle_count)) > 0;
#else
	return false;
#endif
}
/* the group or an ancestor has a bandwidth limit (hierarchical_quota != RUNTIME_INF) */
static __always_inline bool ks_tg_bandwidth_limited(const struct task_group *tg)
{
#if KS_BANDWIDTH_READABLE
	return READ_ONCE(*KS_ADDR(const s64, tg, task_group,
				  cfs_bandwidth__hierarchical_quota)) != -1;
#else
	return false;
#endif
}
/* the group's cfs_rq on @cpu: tg->cfs_rq[cpu], or per_cpu_ptr(tg->cfs_rq, cpu) on 7.3 */
static __always_inline struct cfs_rq *ks_tg_cfs_rq(const struct task_group *tg, int cpu)
{
#if KS_BANDWIDTH_READABLE && KS_task_group__cfs_rq_PTRS == 2
	struct cfs_rq **arr = READ_ONCE(*KS_ADDR(struct cfs_rq **const, tg, task_group, cfs_rq));

	return arr ? READ_ONCE(arr[cpu]) : NULL;
#elif KS_BANDWIDTH_READABLE
	/* a per-CPU pointer (named address space on 7.x: no cast from a plain one) */
	void __percpu *base = READ_ONCE(*KS_ADDR(void __percpu *const, tg, task_group, cfs_rq));

	return base ? (struct cfs_rq *)per_cpu_ptr(base, cpu) : NULL;
#else
	return NULL;
#endif
}

#if HAS_KS_cfs_rq__throttled_clock_pelt_time
#define KS_THROTTLED_PELT_SIZE_OK (KS_cfs_rq__throttled_clock_pelt_time_SIZE == sizeof(u64))
#else
#define KS_THROTTLED_PELT_SIZE_OK 1
#endif

/* sg_imbalanced(): a child domain failed on affinity (0 when the kernel lacks it) */
static __always_inline int ks_sgc_imbalance(const struct sched_group_capacity *sgc)
{
#if HAS_KS_sched_group_capacity__imbalance
	return READ_ONCE(*KS_ADDR(const int, sgc, sched_group_capacity, imbalance));
#else
	return 0;
#endif
}

/* the optional fields: 1 when absent, else their size */
#define KS_OPT_SIZE_OK(f, sz)	(!HAS_KS_##f || KS_##f##_SIZE == (sz))
#if !HAS_KS_sched_domain__name
#define KS_sched_domain__name_SIZE 0
#endif
#if !HAS_KS_sched_domain__imb_numa_nr
#define KS_sched_domain__imb_numa_nr_SIZE 0
#endif
#if !HAS_KS_sched_group_capacity__imbalance
#define KS_sched_group_capacity__imbalance_SIZE 0
#endif
#if !HAS_KS_root_domain__pd
#define KS_root_domain__pd_SIZE 0
#endif
#if !HAS_KS_root_domain__overutilized
#define KS_root_domain__overutilized_SIZE 0
#endif
#if !HAS_KS_rq__ttwu_pending
#define KS_rq__ttwu_pending_SIZE 0
#endif
#if !HAS_KS_rq__cpu_capacity_orig
#define KS_rq__cpu_capacity_orig_SIZE 0
#endif
#if !HAS_KS_sched_group__flags
#define KS_sched_group__flags_SIZE 0
#endif
#if !HAS_KS_sched_group__cores
#define KS_sched_group__cores_SIZE 0
#endif
#if !HAS_KS_sched_group_capacity__min_capacity
#define KS_sched_group_capacity__min_capacity_SIZE 0
#endif
#if !HAS_KS_sched_group_capacity__max_capacity
#define KS_sched_group_capacity__max_capacity_SIZE 0
#endif
#if !HAS_KS_rq__sd
#define KS_rq__sd_SIZE 0
#endif
#if !HAS_KS_sched_domain__llc_counts
#define KS_sched_domain__llc_counts_SIZE 0
#endif
#if !HAS_KS_sched_domain__llc_max
#define KS_sched_domain__llc_max_SIZE 0
#endif
#if !HAS_KS_cfs_rq__throttle_count
#define KS_cfs_rq__throttle_count_SIZE 0
#endif
#if !HAS_KS_task_group__cfs_rq
#define KS_task_group__cfs_rq_SIZE 0
#define KS_task_group__cfs_rq_PTRS 2
#endif
#if !HAS_KS_task_group__cfs_bandwidth__hierarchical_quota
#define KS_task_group__cfs_bandwidth__hierarchical_quota_SIZE 0
#endif
#if HAS_KS_task_struct__migration_disabled && LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0) && defined(CONFIG_SMP)
#define KS_MIGRATION_DISABLED_SIZE_OK							\
	(KS_task_struct__migration_disabled_SIZE == sizeof(unsigned short) &&			\
	 KS_task_struct__migration_disabled_OFF == offsetof(struct task_struct, migration_disabled))
#elif HAS_KS_task_struct__migration_disabled
/* BTF has the field, the headers do not (a module built against one kernel's
 * headers and another's BTF): the layouts disagree, the load is refused */
#define KS_MIGRATION_DISABLED_SIZE_OK 0
#else
#define KS_MIGRATION_DISABLED_SIZE_OK 1
#endif
#if HAS_KS_cfs_rq__h_nr_runnable
#define KS_H_NR_RUNNABLE_SIZE_OK (KS_cfs_rq__h_nr_runnable_SIZE == sizeof(unsigned int))
#else
#define KS_H_NR_RUNNABLE_SIZE_OK 1
#endif

#if HAS_KS_sched_entity__sched_delayed
#define KS_SE_DELAYED_SIZE_OK (KS_sched_entity__sched_delayed_SIZE == 1)
#else
#define KS_SE_DELAYED_SIZE_OK 1
#endif

/*
 * Every assumption the accessors make about the layout, as
 * X(condition, description).  Evaluated by static_assert at build time
 * (SHADOW_BTF_CHECK=build) and always at load time (kstruct_check_layout()).
 */
#define KS_LAYOUT_CHECKS(X)							\
	X(KS_sched_entity__load_OFF == offsetof(struct sched_entity, load),	\
	  "sched_entity.load offset")						\
	X(KS_sched_entity__run_node_OFF == offsetof(struct sched_entity, run_node), \
	  "sched_entity.run_node offset")					\
	X(KS_sched_entity__on_rq_OFF == offsetof(struct sched_entity, on_rq),	\
	  "sched_entity.on_rq offset")						\
	X(KS_sched_entity__depth_OFF == offsetof(struct sched_entity, depth),	\
	  "sched_entity.depth offset")						\
	X(KS_sched_entity__cfs_rq_OFF == offsetof(struct sched_entity, cfs_rq),	\
	  "sched_entity.cfs_rq offset")						\
	X(KS_sched_entity__my_q_OFF == offsetof(struct sched_entity, my_q),	\
	  "sched_entity.my_q offset")						\
	X(KS_sched_entity__parent_OFF == offsetof(struct sched_entity, parent),	\
	  "sched_entity.parent offset")					\
	X(KS_sched_entity__avg_OFF == offsetof(struct sched_entity, avg),	\
	  "sched_entity.avg offset")						\
	X(KS_sched_avg__last_update_time_OFF ==				\
	  offsetof(struct sched_avg, last_update_time),			\
	  "sched_avg.last_update_time offset")					\
	X(KS_sched_avg__load_sum_OFF == offsetof(struct sched_avg, load_sum),	\
	  "sched_avg.load_sum offset")						\
	X(KS_sched_avg__period_contrib_OFF == offsetof(struct sched_avg, period_contrib), \
	  "sched_avg.period_contrib offset")					\
	X(KS_sched_entity__group_node_OFF == offsetof(struct sched_entity, group_node), \
	  "sched_entity.group_node offset")					\
	X(KS_sched_avg__load_avg_OFF == offsetof(struct sched_avg, load_avg),	\
	  "sched_avg.load_avg offset")						\
	X(KS_sched_avg__runnable_avg_OFF == offsetof(struct sched_avg, runnable_avg), \
	  "sched_avg.runnable_avg offset")					\
	X(KS_sched_avg__util_avg_OFF == offsetof(struct sched_avg, util_avg),	\
	  "sched_avg.util_avg offset")						\
	X(KS_task_struct__se_OFF == offsetof(struct task_struct, se),		\
	  "task_struct.se offset")						\
	X(KS_task_struct__nr_cpus_allowed_OFF ==				\
	  offsetof(struct task_struct, nr_cpus_allowed),			\
	  "task_struct.nr_cpus_allowed offset")					\
	X(KS_rq__cpu_SIZE == sizeof(int), "rq.cpu size")			\
	X(KS_rq__nr_running_SIZE == sizeof(unsigned int), "rq.nr_running size") \
	X(KS_rq__curr_SIZE == sizeof(void *), "rq.curr size")			\
	X(KS_rq__cpu_capacity_SIZE == sizeof(unsigned long), "rq.cpu_capacity size") \
	X(KS_rq__cfs_tasks_SIZE == sizeof(struct list_head), "rq.cfs_tasks size") \
	X(KS_MIGRATION_DISABLED_SIZE_OK, "task_struct.migration_disabled offset/size") \
	X(KS_H_NR_RUNNABLE_SIZE_OK, "cfs_rq.h_nr_runnable size")		\
	X(KS_cfs_rq__load_SIZE == sizeof(struct load_weight), "cfs_rq.load size") \
	X(KS_cfs_rq__h_nr_running_SIZE == sizeof(unsigned int),		\
	  "cfs_rq.h_nr_running size")						\
	X(KS_cfs_rq__curr_SIZE == sizeof(void *), "cfs_rq.curr size")		\
	X(KS_cfs_rq__avg_SIZE == sizeof(struct sched_avg), "cfs_rq.avg size")	\
	X(KS_cfs_rq__rq_SIZE == sizeof(void *), "cfs_rq.rq size")		\
	X(KS_cfs_rq__tg_SIZE == sizeof(void *), "cfs_rq.tg size")		\
	X(KS_task_group__css_SIZE == sizeof(struct cgroup_subsys_state),	\
	  "task_group.css size")						\
	X(KS_lb_env__sd_SIZE == sizeof(void *), "lb_env.sd size")		\
	X(KS_lb_env__dst_cpu_SIZE == sizeof(int), "lb_env.dst_cpu size")	\
	X(KS_lb_env__idle_SIZE == sizeof(int), "lb_env.idle size")		\
	X(KS_lb_env__cpus_SIZE == sizeof(void *), "lb_env.cpus size")		\
	X(KS_sched_domain__groups_SIZE == sizeof(void *), "sched_domain.groups size") \
	X(KS_sched_domain__flags_SIZE == sizeof(int), "sched_domain.flags size") \
	X(KS_OPT_SIZE_OK(sched_domain__name, sizeof(void *)), "sched_domain.name size") \
	X(KS_sched_domain__imbalance_pct_SIZE == sizeof(unsigned int),	\
	  "sched_domain.imbalance_pct size")					\
	X(KS_sched_domain__child_SIZE == sizeof(void *), "sched_domain.child size") \
	X(KS_sched_domain__parent_SIZE == sizeof(void *), "sched_domain.parent size") \
	X(KS_rq__sd_SIZE == sizeof(void *), "rq.sd size")			\
	X(KS_sched_domain__span_weight_OFF == offsetof(struct sched_domain, span_weight), \
	  "sched_domain.span_weight offset (sched_domain_span())")		\
	X(KS_OPT_SIZE_OK(sched_domain__imb_numa_nr, sizeof(int)),		\
	  "sched_domain.imb_numa_nr size")					\
	X(KS_OPT_SIZE_OK(sched_group_capacity__imbalance, sizeof(int)),	\
	  "sched_group_capacity.imbalance size")				\
	X(KS_lb_env__dst_rq_SIZE == sizeof(void *), "lb_env.dst_rq size")	\
	X(KS_rq__rd_SIZE == sizeof(void *), "rq.rd size")			\
	X(KS_OPT_SIZE_OK(root_domain__pd, sizeof(void *)), "root_domain.pd size") \
	X(KS_OPT_SIZE_OK(root_domain__overutilized, sizeof(int)) ||		\
	  KS_OPT_SIZE_OK(root_domain__overutilized, 1),			\
	  "root_domain.overutilized size")					\
	X(KS_sched_domain__span_weight_SIZE == sizeof(unsigned int),		\
	  "sched_domain.span_weight size")					\
	X(KS_sched_group__next_SIZE == sizeof(void *), "sched_group.next size")	\
	X(KS_sched_group__group_weight_SIZE == sizeof(unsigned int),		\
	  "sched_group.group_weight size")					\
	X(KS_sched_group__sgc_SIZE == sizeof(void *), "sched_group.sgc size")	\
	X(KS_sched_group_capacity__capacity_SIZE == sizeof(unsigned long),	\
	  "sched_group_capacity.capacity size")					\
	X(KS_SE_DELAYED_SIZE_OK, "sched_entity.sched_delayed size")		\
	X(KS_sched_avg__util_est_OFF == offsetof(struct sched_avg, util_est),	\
	  "sched_avg.util_est offset")						\
	X(KS_rq__misfit_task_load_SIZE == sizeof(unsigned long), "rq.misfit_task_load size") \
	X(KS_rq__idle_SIZE == sizeof(void *), "rq.idle size")			\
	X(KS_OPT_SIZE_OK(rq__ttwu_pending, sizeof(int)), "rq.ttwu_pending size") \
	X(KS_OPT_SIZE_OK(rq__cpu_capacity_orig, sizeof(long)), "rq.cpu_capacity_orig size") \
	X(KS_OPT_SIZE_OK(sched_group__flags, sizeof(int)), "sched_group.flags size") \
	X(KS_OPT_SIZE_OK(sched_group__cores, sizeof(int)), "sched_group.cores size") \
	X(KS_OPT_SIZE_OK(sched_group_capacity__min_capacity, sizeof(long)),	\
	  "sched_group_capacity.min_capacity size")				\
	X(KS_OPT_SIZE_OK(sched_group_capacity__max_capacity, sizeof(long)),	\
	  "sched_group_capacity.max_capacity size")				\
	X(KS_OPT_SIZE_OK(rq__sd, sizeof(void *)), "rq.sd size")		\
	X(KS_OPT_SIZE_OK(sched_domain__llc_counts, sizeof(void *)), "sched_domain.llc_counts size") \
	X(KS_OPT_SIZE_OK(sched_domain__llc_max, sizeof(int)), "sched_domain.llc_max size") \
	X(KS_OPT_SIZE_OK(cfs_rq__throttle_count, sizeof(int)), "cfs_rq.throttle_count size") \
	X(KS_OPT_SIZE_OK(task_group__cfs_rq, sizeof(void *)) &&			\
	  (KS_task_group__cfs_rq_PTRS == 1 || KS_task_group__cfs_rq_PTRS == 2),	\
	  "task_group.cfs_rq size and kind")					\
	X(KS_OPT_SIZE_OK(task_group__cfs_bandwidth__hierarchical_quota, sizeof(s64)), \
	  "task_group.cfs_bandwidth.hierarchical_quota size")			\
	X(KS_THROTTLED_PELT_SIZE_OK, "cfs_rq.throttled_clock_pelt_time size")

/* Returns NULL when every check holds, else the description of the first failure. */
const char *kstruct_check_layout(void);

#endif
