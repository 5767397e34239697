/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-accounting of the module's hooks: per-CPU call counts, local_clock()
 * time of one call in 64 (so the clock costs almost nothing; `stats=2`
 * times every call, for the maximum), a log2 histogram and the longest of
 * those times, and the number of entities each walk visited.  Off by default: the `stats` module parameter flips a static key,
 * so with it off every hook pays one patched-out jump (a NOP).  Counters are
 * per CPU and updated with this_cpu ops (one non-locked instruction each on
 * x86, safe against interrupts); debugfs `stats` sums them (stats.c).
 */
#ifndef SHADOW_STATS_H
#define SHADOW_STATS_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/jump_label.h>
#include <linux/sched/clock.h>

enum shadow_stat_hook {
	SS_PELT_CFS,
	SS_PELT_SE,
	SS_TRACE_CFS,		/* trace_feed.c's pelt_cfs_tp probe (sched_load_cfs_rq on) */
	SS_NR_RUNNING,
	SS_SWITCH,
	SS_WAKEUP,		/* wakeup.c's select_task_rq_fair() return probe */
	SS_LB_ENTRY,
	SS_LB_RETURN,
	SS_LB_ATTEMPT,		/* the audit's attempt-return handler */
	SS_WASTED_CMT,		/* wasted.c's can_migrate_task() return probe */
	SS_NR_HOOKS,
};

#define SS_HIST		16	/* log2 buckets */
#define SS_SAMPLE_MASK	63	/* time one call in 64 of the tracepoint probes */

struct shadow_stat_row {
	u64 calls;		/* every call (walk row: every walk) */
	u64 sampled;		/* timed calls (walk row: every walk) */
	u64 sum;		/* ns of the timed calls (walk row: entities) */
	u64 max;		/* the longest timed call, ns (walk row: entities) */
	u64 hist[SS_HIST];
};

struct shadow_stat_pcpu {
	struct shadow_stat_row hook[SS_NR_HOOKS];
	struct shadow_stat_row walk;	/* entities visited per walk */
	u64 pelt_skipped;		/* root PELT refreshes not walked (pelt_refresh_us) */
	u64 steps;			/* walk steps (hook calls that ran walk work) */
};

DECLARE_PER_CPU(struct shadow_stat_pcpu, shadow_stat_pcpu);
DECLARE_STATIC_KEY_FALSE(shadow_stats_on);
DECLARE_STATIC_KEY_FALSE(shadow_stats_every);	/* stats=2: time every call */

void __shadow_stat_end(int hook, u64 t0);
void __shadow_stat_walk(unsigned int visited);
int shadow_stats_init(void);
void shadow_stats_exit(void);
void shadow_stats_reset(void);
void shadow_stats_debugfs_init(struct dentry *dir);

/* Count the call; return the start time for one call in 64, else 0. */
static __always_inline u64 shadow_stat_begin(int hook)
{
	if (!static_branch_unlikely(&shadow_stats_on))
		return 0;
	/* the audit handlers run a few times per balance interval: time every call */
	if ((this_cpu_inc_return(shadow_stat_pcpu.hook[hook].calls) & SS_SAMPLE_MASK) &&
	    hook < SS_LB_ENTRY && !static_branch_unlikely(&shadow_stats_every))
		return 0;
	return local_clock();
}

static __always_inline void shadow_stat_end(int hook, u64 t0)
{
	if (t0)
		__shadow_stat_end(hook, t0);
}

static __always_inline void shadow_stat_pelt_skipped(void)
{
	if (static_branch_unlikely(&shadow_stats_on))
		this_cpu_inc(shadow_stat_pcpu.pelt_skipped);
}

static __always_inline void shadow_stat_step(void)
{
	if (static_branch_unlikely(&shadow_stats_on))
		this_cpu_inc(shadow_stat_pcpu.steps);
}

static __always_inline void shadow_stat_walk(unsigned int visited)
{
	if (static_branch_unlikely(&shadow_stats_on))
		__shadow_stat_walk(visited);
}

#endif
