/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit_core: judges one find_busiest_group() call (the first call of a
 * balancing attempt is the attempt's verdict), gives every verdict other
 * than right a reason from the documented list (docs/debugfs.md, "lb
 * reasons"), and computes what each alternative load tracker would have
 * picked in its place.
 *
 * Pure C shared by the kernel module (module/audit.c fills the arrays from
 * the published per-CPU snapshots in its kretprobe handler) and the host
 * unit tests (tests/unit/test_audit_core.c).  Includes only <linux/types.h>,
 * allocates nothing, prints nothing, uses no floating point or division.
 */
#ifndef SHADOW_AUDIT_CORE_H
#define SHADOW_AUDIT_CORE_H

#include <linux/types.h>
#include "work.h"
#include "audit_reasons.h"

/*
 * Idle type of the destination CPU, same values as the kernel's
 * enum cpu_idle_type (the glue checks this with BUILD_BUG_ON).
 */
enum audit_idle_type {
	AUDIT_CPU_IDLE = 0,
	AUDIT_CPU_NOT_IDLE = 1,
	AUDIT_CPU_NEWLY_IDLE = 2,
	AUDIT_NR_IDLE_TYPES
};

/* Alternative trackers: each picks the highest sum(metric) / sum(capacity). */
enum audit_tracker {
	AUDIT_TRK_KERNEL,	/* load_avg */
	AUDIT_TRK_SHADOW,	/* shadow */
	AUDIT_TRK_SHADOW_AVG,	/* shadow_avg */
	AUDIT_TRK_WEIGHT,	/* weight */
	AUDIT_TRK_NR,		/* h_nr_running */
	AUDIT_TRK_H_LOAD,	/* sum of task_h_load() of the queued tasks */
	AUDIT_NR_TRACKERS
};

/* What a tracker's pick would have achieved. */
enum audit_outcome {
	AUDIT_PICK_WORK,	/* picked group has work to give */
	AUDIT_PICK_IDLE_WRONG,	/* no work there, another non-local has */
	AUDIT_PICK_NOWORK_NONE,	/* no work there, and no group has any */
	AUDIT_NO_PICK,		/* every candidate's metric was 0 */
	AUDIT_NR_OUTCOMES
};

/*
 * The kernel's group classes (enum group_type).  Their order differs
 * between kernels (6.6 added smt_balance, 7.2 llc_balance), so the glue
 * passes BTF's values as ranks in struct audit_domain; a class the kernel
 * lacks has rank -1.
 */
enum audit_class {
	AUDIT_CLS_HAS_SPARE,
	AUDIT_CLS_FULLY_BUSY,
	AUDIT_CLS_MISFIT,
	AUDIT_CLS_SMT_BALANCE,
	AUDIT_CLS_ASYM,
	AUDIT_CLS_IMBALANCED,
	AUDIT_CLS_LLC_BALANCE,
	AUDIT_CLS_OVERLOADED,
	AUDIT_NR_CLASSES
};

/*
 * Verdicts and reasons: module/core/audit_reasons.h (one table).  right has
 * AUDIT_R_NONE; none has AUDIT_R_NO_WORK; void has the first failing CPU's
 * reason.
 */

/* struct audit_domain.flags: the sched_domain flags the rules read */
#define AUDIT_SD_ASYM_PACKING	0x1u
#define AUDIT_SD_ASYM_CAPACITY	0x2u
#define AUDIT_SD_NUMA		0x4u
#define AUDIT_SD_SHARE_LLC	0x8u	/* SD_SHARE_PKG_RESOURCES / SD_SHARE_LLC */
#define AUDIT_SD_PREFER_SIBLING	0x10u	/* the child domain has SD_PREFER_SIBLING */
#define AUDIT_SD_OVERLAP	0x20u	/* NUMA groups overlap (a CPU may be in two groups) */

/**
 * struct audit_domain - the domain-wide inputs of the kernel's rules
 * @imbalance_pct: sd->imbalance_pct (117, 125, ...); 0 is taken as 117
 * @flags:         AUDIT_SD_*
 * @imb_numa_nr:   sd->imb_numa_nr (NUMA domains; 0 if the kernel lacks it)
 * @eas_balanced:  the energy model is on (rd->pd) and rd->overutilized is 0
 * @rank:          BTF's enum group_type value of each class, -1 = absent
 */
struct audit_domain {
	u32 imbalance_pct;
	u32 flags;
	u32 imb_numa_nr;
	bool eas_balanced;
	s8 rank[AUDIT_NR_CLASSES];
};

/* Fill @d with 6.1's class order and defaults (unit tests, fallbacks). */
void audit_domain_default(struct audit_domain *d);

/**
 * struct audit_gstats - one group as the kernel's update_sg_lb_stats() would
 * see it, recomputed from published state (the lb_verdict event's groups)
 * @load:     sum of root load_avg (cpu_load)
 * @util:     sum of util_avg (cpu_util_cfs without util_est: approximate)
 * @runnable: sum of runnable_avg
 * @capacity: sgc->capacity (or the CPUs' capacities when not given)
 * @avg_load: load * 1024 / capacity, computed for overloaded groups only
 *            (as the kernel does)
 * @misfit_load: load of a lone task on a CPU with reduced capacity
 * @weight:   group_weight
 * @sum_nr_running:   sum of rq->nr_running
 * @sum_h_nr_running: sum of cfs h_nr_running
 * @idle_cpus: CPUs with nr_running == 0
 * @cls:      enum audit_class
 * @work:     enum shadow_work_answer for the destination, over its CPUs
 * @local:    holds the destination
 * @imbalanced: sgc->imbalance
 */
struct audit_gstats {
	u64 load;
	u64 util;
	u64 runnable;
	u64 capacity;
	u64 avg_load;
	u64 misfit_load;
	u32 weight;
	u32 sum_nr_running;
	u32 sum_h_nr_running;
	u32 idle_cpus;
	u8 cls;
	u8 work;
	bool local;
	bool imbalanced;
};

/* audit_result.flags */
#define AUDIT_F_BAD_PICK	0x1u	/* kernel_pick out of range: -1 */
#define AUDIT_F_BAD_IDLE	0x2u	/* unknown idle type: busy */
#define AUDIT_F_BAD_GROUP	0x4u	/* a group's CPU range clipped */
#define AUDIT_F_PICKED_LOCAL	0x8u	/* kernel picked local group */
#define AUDIT_F_BAD_MASK	(AUDIT_F_BAD_PICK | AUDIT_F_BAD_IDLE | \
				 AUDIT_F_BAD_GROUP)

/**
 * struct audit_cpu - one CPU of the domain, as published by the shadow walk
 * @cpu:          CPU id (not used by the judgement, kept for snapshots)
 * @nr_running:   rq->nr_running (all classes)
 * @h_nr_running: runnable CFS tasks
 * @movable:      queued-but-not-running CFS tasks with nr_cpus_allowed > 1,
 *                including CFS tasks preempted by RT/DL; > 0 means the CPU
 *                has work to give
 * @load_avg:     real root cfs_rq avg.load_avg (KERNEL tracker)
 * @runnable_avg: real root cfs_rq avg.runnable_avg
 * @util_avg:     real root cfs_rq avg.util_avg
 * @weight:       real root cfs_rq load.weight, scaled down (WEIGHT tracker)
 * @shadow:       shadow runnable load (SHADOW tracker)
 * @shadow_avg:   shadow walk over avg.load_avg (SHADOW_AVG tracker)
 * @capacity:     CPU capacity, 1024 = a full CPU
 * @h_load:       sum of task_h_load() of its queued tasks (H_LOAD tracker)
 * @valid:        false when the CPU has no published state: its metrics and
 *                @movable are then read as 0; @capacity still counts; the
 *                verdict is void
 * @work:         enum shadow_work_answer: can a waiter go to the destination
 * @void_reason:  enum shadow_void_reason (0 = fresh) of the published state
 */
struct audit_cpu {
	int cpu;
	u32 nr_running;
	u32 h_nr_running;
	u32 movable;
	u64 load_avg;
	u64 runnable_avg;
	u64 util_avg;
	u64 weight;
	u64 shadow;
	u64 shadow_avg;
	u64 capacity;
	u64 h_load;
	bool valid;
	u8 work;
	u8 void_reason;
};

/**
 * struct audit_group - one sched_group, CPUs already restricted to env->cpus
 * @first: index of its first CPU in the audit_cpu array
 * @nr:    number of CPUs (may be 0: never picked, no work)
 * @local: holds the destination CPU; never a tracker candidate
 * @weight: the kernel's group_weight (0: taken as @nr)
 * @capacity: sgc->capacity (0: taken as the sum of the CPUs' capacities)
 * @imbalanced: sgc->imbalance (a child domain failed on affinity)
 */
struct audit_group {
	int first;
	int nr;
	bool local;
	u32 weight;
	u64 capacity;
	bool imbalanced;
};

/**
 * struct audit_result - judgement of one call
 * @idle_type:   destination idle type as passed in
 * @verdict:     enum audit_verdict
 * @reason:      enum audit_reason
 * @kernel_pick: the kernel's pick after range check (-1 = none)
 * @model_pick:  the group the kernel's rules pick from published state
 *               (classify, then compare within the class), -1 = none
 * @nonlocal_work: some non-local group has a CPU with work to give
 * @flags:       AUDIT_F_*
 * @pick:        each tracker's pick (-1 = none)
 * @outcome:     each tracker's enum audit_outcome
 * @agree:       tracker pick equals @kernel_pick (both -1 counts)
 */
struct audit_result {
	int idle_type;
	int verdict;
	int reason;
	int kernel_pick;
	int model_pick;
	bool nonlocal_work;
	u32 flags;
	int pick[AUDIT_NR_TRACKERS];
	int outcome[AUDIT_NR_TRACKERS];
	bool agree[AUDIT_NR_TRACKERS];
};

/* Per-tracker counters; judged = work + wrong + none + no_pick. */
struct audit_tracker_counters {
	u64 judged;
	u64 pick_work;
	u64 pick_wrong;
	u64 pick_none;
	u64 no_pick;
	u64 agree;
};

/*
 * Counters for one domain (kept per CPU by the glue, summed at read time
 * with audit_counters_add()).  verdict[idle][v]: the BUSY column is only
 * ever bumped in the AUDIT_CPU_NOT_IDLE row, and only that column.
 * Tracker counters cover judged (idle and newly idle) calls only.
 * @bad counts calls with an AUDIT_F_BAD_* flag; nothing else is counted for
 * them.  @picked_local counts judged calls where the kernel picked the
 * local group.
 */
struct audit_counters {
	u64 verdict[AUDIT_NR_IDLE_TYPES][AUDIT_NR_VERDICTS];
	struct audit_tracker_counters tracker[AUDIT_NR_TRACKERS];
	u64 bad;
	u64 picked_local;
};

extern const char * const audit_tracker_name[AUDIT_NR_TRACKERS];
extern const char * const audit_outcome_name[AUDIT_NR_OUTCOMES];
extern const char * const audit_idle_name[AUDIT_NR_IDLE_TYPES];
extern const char * const audit_class_name[AUDIT_NR_CLASSES];

void audit_judge(const struct audit_domain *dom,
		 const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick,
		 struct audit_gstats *gs, struct audit_result *res);

/*
 * The rows of debugfs lb_attempts, numbered from the reason table: fills
 * @row_of[verdict][reason] (-1: the table does not allow the pair) and,
 * per row, its verdict and reason (arrays of AUDIT_NR_REASON_ROWS).
 * Returns the number of rows (AUDIT_NR_REASON_ROWS).
 */
int audit_reason_rows(s8 row_of[AUDIT_NR_VERDICTS][AUDIT_NR_REASONS],
		      u8 *row_verdict, u8 *row_reason);

void audit_account(struct audit_counters *c, const struct audit_result *res);
void audit_counters_add(struct audit_counters *dst,
			const struct audit_counters *src);

#endif /* SHADOW_AUDIT_CORE_H */
