/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit_core: judges one find_busiest_group() call and computes what each
 * alternative load tracker would have picked in its place.
 *
 * Pure C shared by the kernel module (module/audit.c fills the arrays from
 * the published per-CPU snapshots in its kretprobe handler) and the host
 * unit tests (tests/unit/test_audit_core.c).  Includes only <linux/types.h>,
 * allocates nothing, prints nothing, uses no floating point or division.
 */
#ifndef SHADOW_AUDIT_CORE_H
#define SHADOW_AUDIT_CORE_H

#include <linux/types.h>

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

/* Verdict of one call; BUSY when the destination could not take work. */
enum audit_verdict {
	AUDIT_RIGHT,
	AUDIT_WRONG,
	AUDIT_MISSED,
	AUDIT_NONE,
	AUDIT_BUSY,
	AUDIT_NR_VERDICTS
};

/* Alternative trackers: each picks the highest sum(metric) / sum(capacity). */
enum audit_tracker {
	AUDIT_TRK_KERNEL,	/* load_avg */
	AUDIT_TRK_SHADOW,	/* shadow */
	AUDIT_TRK_SHADOW_AVG,	/* shadow_avg */
	AUDIT_TRK_WEIGHT,	/* weight */
	AUDIT_TRK_NR,		/* h_nr_running */
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
 * @valid:        false when the CPU has no published state: its metrics and
 *                @movable are then read as 0; @capacity still counts
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
	bool valid;
};

/**
 * struct audit_group - one sched_group, CPUs already restricted to env->cpus
 * @first: index of its first CPU in the audit_cpu array
 * @nr:    number of CPUs (may be 0: never picked, no work)
 * @local: holds the destination CPU; never a tracker candidate
 */
struct audit_group {
	int first;
	int nr;
	bool local;
};

/**
 * struct audit_result - judgement of one call
 * @idle_type:   destination idle type as passed in
 * @verdict:     enum audit_verdict
 * @kernel_pick: the kernel's pick after range check (-1 = none)
 * @nonlocal_work: some non-local group has a CPU with work to give
 * @flags:       AUDIT_F_*
 * @pick:        each tracker's pick (-1 = none)
 * @outcome:     each tracker's enum audit_outcome
 * @agree:       tracker pick equals @kernel_pick (both -1 counts)
 */
struct audit_result {
	int idle_type;
	int verdict;
	int kernel_pick;
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

extern const char * const audit_verdict_name[AUDIT_NR_VERDICTS];
extern const char * const audit_tracker_name[AUDIT_NR_TRACKERS];
extern const char * const audit_outcome_name[AUDIT_NR_OUTCOMES];
extern const char * const audit_idle_name[AUDIT_NR_IDLE_TYPES];

void audit_judge(const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick, struct audit_result *res);
void audit_account(struct audit_counters *c, const struct audit_result *res);
void audit_counters_add(struct audit_counters *dst,
			const struct audit_counters *src);

#endif /* SHADOW_AUDIT_CORE_H */
