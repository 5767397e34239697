/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit_core: judges one find_busiest_group() call (the first call of a
 * balancing attempt is the attempt's verdict), runs the kernel model on it
 * (the whole find_busiest_group() of the kernel's rule set: classification,
 * the busiest pick, every balanced exit and calculate_imbalance()), says
 * whether the model's outcome agrees with the kernel's and why not, gives
 * every verdict other than right a reason from the one table
 * (audit_reasons.h), and computes what each alternative load tracker would
 * have picked in its place.
 *
 * Inputs (docs/debugfs.md, "lb_verdict"): per CPU of the domain, the
 * kernel's own inputs read live at the search's return (and compared with
 * a read at its entry), and the published waiter summary (work to give);
 * per group, the sched_group's own fields; per domain, the sched_domain's
 * and the rule set in force (AUDIT_RULE_*), chosen by the glue.
 *
 * Pure C shared by the kernel module (module/audit.c) and the host tools
 * (tests/unit/test_audit_core.c, the checker's driver in tests/checker/).
 * Includes only <linux/types.h>, allocates nothing, prints nothing, uses no
 * floating point; divisions through div64_u64().
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
/* the child domain has SD_PREFER_SIBLING (rules without AUDIT_RULE_PREFER_SIBLING_BUSIEST) */
#define AUDIT_SD_PREFER_SIBLING	0x10u
#define AUDIT_SD_OVERLAP	0x20u	/* NUMA groups overlap (a CPU may be in two groups) */
#define AUDIT_SD_SHARE_CPUCAPACITY 0x40u	/* SMT siblings' domain (asym_packing: sched_use_asym_prio()) */

/*
 * The rule set: which of the kernels' find_busiest_group() rules are in
 * force.  X(ID, name, doc), bit AUDIT_RULE_<ID>.  The glue chooses them
 * from BTF, from the kernel's own picks (calibration) or from the lb_rules=
 * parameter; `info` says which and how (docs/debugfs.md, "Rule sets").
 */
#define AUDIT_RULES(X)							\
	X(EAS_FIRST, "eas_first",					\
	  "the EAS exit is tried before the misfit force (5.10; misfit first in 6.10+ and Debian's 6.1.192)") \
	X(NUMA_BUSIEST_NR, "numa_busiest_nr",				\
	  "5.10's NUMA rule: the halved imbalance is 0 while the busiest group runs <= 2 tasks (no imb_numa_nr)") \
	X(REDUCED_CAPACITY, "reduced_capacity",				\
	  "symmetric domains: a lone CFS task on a CPU whose capacity RT/IRQ pressure reduced is misfit (sched_reduced_capacity(), 6.0+)") \
	X(FULLY_BUSY_LATER, "fully_busy_later",				\
	  "fully_busy ties: the later group wins unless the current busiest is an SMT group (6.5+)") \
	X(MISFIT_TIE_FIRST, "misfit_tie_first",				\
	  "misfit ties keep the earlier group (v6.9+: `>`; before: the later one, `>=`)") \
	X(SMT_BALANCE, "smt_balance",					\
	  "group_smt_balance, the SMT vs non-SMT has_spare rule and the SMT force exit (6.6+)") \
	X(SIBLING_IMBALANCE, "sibling_imbalance",			\
	  "sibling_imbalance() (cores) for prefer_sibling and one-CPU groups, and as the prefer_sibling force test (6.6+)") \
	X(PREFER_SIBLING_BUSIEST, "prefer_sibling_busiest",		\
	  "prefer_sibling is the busiest group's SD_PREFER_SIBLING (sg->flags: its child domain's), not the domain's child's (6.6+)") \
	X(CAPACITY_FIRST, "capacity_first",				\
	  "SD_ASYM_CPUCAPACITY: the capacity filters of update_sd_pick_busiest() come before the class comparison (7.3; Debian's 6.1.192, 6.12.117)") \
	X(MISFIT_DST_CAPACITY, "misfit_dst_capacity",			\
	  "SD_ASYM_CPUCAPACITY: misfit load counts only where the destination's capacity is greater than the group's max (7.3)") \
	X(H_NR_RUNNABLE, "h_nr_runnable",				\
	  "the task counts are cfs.h_nr_runnable (6.14+), not h_nr_running/h_nr_queued (delayed-dequeue sleepers excluded)") \
	X(EAS_OVERLOAD, "eas_overload",					\
	  "with an energy model a group is overloaded only when one of its CPUs is overutilized (7.2+)") \
	X(LLC_BALANCE, "llc_balance",					\
	  "group_llc_balance exists (7.2+ CONFIG_SCHED_CACHE): not modelled, a known miss") \
	X(CAPACITY_LOCAL, "capacity_local",				\
	  "SD_ASYM_CPUCAPACITY: 5.10's capacity filters, fits_capacity() against the local group (misfit: its max_capacity; after the class comparison: its min_capacity), not against the destination CPU") \
	X(ASYM_SMT, "asym_smt",						\
	  "SD_ASYM_PACKING: asym_smt_can_pull_tasks() when the local or the candidate group is SMT (5.16-6.4)") \
	X(ASYM_CORE_IDLE, "asym_core_idle",				\
	  "SD_ASYM_PACKING: an SMT group with other than one busy CPU is never asym_packing, and dst's priority counts only on SMT domains or from an idle core (sched_group_asym(), sched_use_asym_prio(): 6.5+)")

#define AUDIT_RULE_BIT_ENUM(id, name, doc) AUDIT_RULE_BIT_##id,
enum audit_rule_bit {
	AUDIT_RULES(AUDIT_RULE_BIT_ENUM)
	AUDIT_NR_RULES
};
#undef AUDIT_RULE_BIT_ENUM

#define AUDIT_RULE(id)			(1u << AUDIT_RULE_BIT_##id)
#define AUDIT_RULE_EAS_FIRST		AUDIT_RULE(EAS_FIRST)
#define AUDIT_RULE_NUMA_BUSIEST_NR	AUDIT_RULE(NUMA_BUSIEST_NR)
#define AUDIT_RULE_REDUCED_CAPACITY	AUDIT_RULE(REDUCED_CAPACITY)
#define AUDIT_RULE_FULLY_BUSY_LATER	AUDIT_RULE(FULLY_BUSY_LATER)
#define AUDIT_RULE_MISFIT_TIE_FIRST	AUDIT_RULE(MISFIT_TIE_FIRST)
#define AUDIT_RULE_SMT_BALANCE		AUDIT_RULE(SMT_BALANCE)
#define AUDIT_RULE_SIBLING_IMBALANCE	AUDIT_RULE(SIBLING_IMBALANCE)
#define AUDIT_RULE_PREFER_SIBLING_BUSIEST AUDIT_RULE(PREFER_SIBLING_BUSIEST)
#define AUDIT_RULE_CAPACITY_FIRST	AUDIT_RULE(CAPACITY_FIRST)
#define AUDIT_RULE_MISFIT_DST_CAPACITY	AUDIT_RULE(MISFIT_DST_CAPACITY)
#define AUDIT_RULE_H_NR_RUNNABLE	AUDIT_RULE(H_NR_RUNNABLE)
#define AUDIT_RULE_EAS_OVERLOAD		AUDIT_RULE(EAS_OVERLOAD)
#define AUDIT_RULE_LLC_BALANCE		AUDIT_RULE(LLC_BALANCE)
#define AUDIT_RULE_CAPACITY_LOCAL	AUDIT_RULE(CAPACITY_LOCAL)
#define AUDIT_RULE_ASYM_SMT		AUDIT_RULE(ASYM_SMT)
#define AUDIT_RULE_ASYM_CORE_IDLE	AUDIT_RULE(ASYM_CORE_IDLE)

/*
 * Named rule sets (the unit tests and the checker's variants; the module
 * composes its own from BTF and calibration).
 */
#define AUDIT_RULES_5_10	(AUDIT_RULE_EAS_FIRST | AUDIT_RULE_NUMA_BUSIEST_NR | AUDIT_RULE_CAPACITY_LOCAL)
/* Debian's 6.1.192: misfit before EAS and capacity first are backported */
#define AUDIT_RULES_6_1		(AUDIT_RULE_REDUCED_CAPACITY | AUDIT_RULE_CAPACITY_FIRST | \
				 AUDIT_RULE_ASYM_SMT)
#define AUDIT_RULES_6_6		(AUDIT_RULE_REDUCED_CAPACITY | AUDIT_RULE_FULLY_BUSY_LATER | \
				 AUDIT_RULE_SMT_BALANCE | AUDIT_RULE_SIBLING_IMBALANCE | \
				 AUDIT_RULE_PREFER_SIBLING_BUSIEST | AUDIT_RULE_ASYM_CORE_IDLE)
#define AUDIT_RULES_6_12	(AUDIT_RULES_6_6 | AUDIT_RULE_MISFIT_TIE_FIRST | AUDIT_RULE_CAPACITY_FIRST)
#define AUDIT_RULES_7_2		(AUDIT_RULES_6_12 | AUDIT_RULE_H_NR_RUNNABLE | \
				 AUDIT_RULE_EAS_OVERLOAD | AUDIT_RULE_LLC_BALANCE)
#define AUDIT_RULES_7_3		(AUDIT_RULES_7_2 | AUDIT_RULE_MISFIT_DST_CAPACITY)

/*
 * The rules only audit_model_run() reads (not audit_group_stats()): the
 * kernel's own outcome can tell each of them apart from its opposite.
 */
#define AUDIT_RULES_FLIPPABLE	(AUDIT_RULE_EAS_FIRST | AUDIT_RULE_NUMA_BUSIEST_NR | \
				 AUDIT_RULE_FULLY_BUSY_LATER | AUDIT_RULE_MISFIT_TIE_FIRST | \
				 AUDIT_RULE_SIBLING_IMBALANCE | AUDIT_RULE_PREFER_SIBLING_BUSIEST | \
				 AUDIT_RULE_CAPACITY_FIRST)

extern const char * const audit_rule_name[AUDIT_NR_RULES];
extern const char * const audit_rule_doc[AUDIT_NR_RULES];

/**
 * struct audit_domain - the domain-wide inputs of the kernel's rules
 * @imbalance_pct: sd->imbalance_pct (117, 125, ...); 0 is taken as 117
 * @flags:         AUDIT_SD_*
 * @imb_numa_nr:   sd->imb_numa_nr (NUMA domains; 0 if the kernel lacks it)
 * @eas_balanced:  the energy model is on (rd->pd) and rd->overutilized is 0
 * @eas_present:   the energy model is on (rd->pd), overutilized or not
 * @rank:          BTF's enum group_type value of each class, -1 = absent
 * @rules:         AUDIT_RULE_* in force
 * @dst_capacity:  capacity_of(dst_cpu) (SD_ASYM_CPUCAPACITY rules; 0 = 1024)
 * @dst_core_idle: every SMT sibling of dst is idle (or SMT is off)
 */
struct audit_domain {
	u32 imbalance_pct;
	u32 flags;
	u32 imb_numa_nr;
	bool eas_balanced;
	bool eas_present;
	s8 rank[AUDIT_NR_CLASSES];
	u32 rules;
	u64 dst_capacity;
	bool dst_core_idle;
};

/* Fill @d with 6.1's class order, AUDIT_RULES_6_1 and defaults (unit tests, fallbacks). */
void audit_domain_default(struct audit_domain *d);

/*
 * The domain inputs derived from what the glue reads raw (the module and
 * the checker's driver call the same code):
 */

/* BTF's name of each class's enumerator of enum group_type ("group_has_spare", ...) */
extern const char * const audit_class_btf_name[AUDIT_NR_CLASSES];

/**
 * audit_ranks_from_enum() - class ranks from BTF's enum group_type
 * @rank:   out, [AUDIT_NR_CLASSES]: each class's enumerator value, -1 when
 *          the enum has no such enumerator
 * @names:  [@n] the enum's enumerator names (any order)
 * @values: [@n] their values
 * @n:      number of enumerators
 *
 * Return: 0; or the number of enumerators that name no class the model
 * knows (a class of a newer kernel: its groups would be misjudged); or -1
 * when a value is outside 0..AUDIT_NR_CLASSES-1 or two classes share one.
 */
int audit_ranks_from_enum(s8 *rank, const char *const *names, const s64 *values, int n);

/**
 * audit_eas_state() - the EAS exit's inputs from the root domain
 * @d:            sets @d->eas_present and @d->eas_balanced
 * @pd:           rd->pd is set (an energy model: sched_energy_enabled())
 * @overutilized: rd->overutilized as read (an int with SG_OVERUTILIZED up
 *                to 6.9, a bool since): nonzero is overutilized
 */
void audit_eas_state(struct audit_domain *d, bool pd, u32 overutilized);

/**
 * audit_dst_core_idle() - env->dst_core_idle of update_sd_lb_stats()
 * @smt_active:   sched_smt_active()
 * @dst:          the destination CPU
 * @sibling:      [@n] the CPUs of cpu_smt_mask(@dst) (@dst may be one)
 * @sibling_idle: [@n] idle_cpu() of each
 * @n:            number of entries
 *
 * Return: !@smt_active || is_core_idle(@dst): every sibling but @dst idle.
 */
bool audit_dst_core_idle(bool smt_active, int dst, const int *sibling, const bool *sibling_idle,
			 int n);

/**
 * struct audit_gstats - one group as the kernel's update_sg_lb_stats() would
 * see it, recomputed from published state (the lb_verdict event's groups)
 * @load:     sum of root load_avg (cpu_load)
 * @util:     sum of cpu_util_cfs(): min(max(util_avg, util_est), capacity_orig)
 * @runnable: sum of runnable_avg
 * @capacity: sgc->capacity (or the CPUs' capacities when not given)
 * @avg_load: load * 1024 / capacity, computed for overloaded groups only
 *            (as the kernel does)
 * @misfit_load: group_misfit_task_load (rq->misfit_task_load on asymmetric
 *            capacity domains, else the load of a lone CFS task on a CPU of
 *            reduced capacity)
 * @weight:   group_weight
 * @sum_nr_running:   sum of rq->nr_running
 * @sum_h_nr_running: sum of cfs h_nr_running
 * @idle_cpus: CPUs with nr_running == 0
 * @cls:      enum audit_class
 * @work:     enum shadow_work_answer for the destination, over its CPUs
 * @local:    holds the destination
 * @imbalanced: sgc->imbalance
 * @smt:      the group's CPUs are SMT siblings (sg->flags SD_SHARE_CPUCAPACITY)
 * @prefer_sibling: sg->flags has SD_PREFER_SIBLING
 * @cores:    sg->cores (0 = weight)
 * @stale:    a CPU of the group changed between the entry and return reads
 * @min_capacity, @max_capacity: the group's (asymmetric capacity rules)
 * @llc_pref: its CPUs' llc_pref (7.2+ update_llc_busiest(): nr_pref_dst_llc)
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
	bool smt;
	bool prefer_sibling;
	u32 cores;
	bool stale;
	u64 min_capacity;
	u64 max_capacity;
	u32 llc_pref;
};

/* audit_result.flags */
#define AUDIT_F_BAD_PICK	0x1u	/* kernel_pick out of range: -1 */
#define AUDIT_F_BAD_IDLE	0x2u	/* unknown idle type: busy */
#define AUDIT_F_BAD_GROUP	0x4u	/* a group's CPU range clipped */
#define AUDIT_F_PICKED_LOCAL	0x8u	/* kernel picked local group */
#define AUDIT_F_BAD_MASK	(AUDIT_F_BAD_PICK | AUDIT_F_BAD_IDLE | \
				 AUDIT_F_BAD_GROUP)

/**
 * struct audit_cpu - one CPU of the domain (each group's CPUs restricted to
 * env->cpus; with overlapping NUMA groups a CPU has one entry per group)
 *
 * The kernel model's inputs, read live by the glue at the search's return
 * (the kernel's own lockless reads, microseconds later):
 * @cpu:          CPU id
 * @nr_running:   rq->nr_running (all classes)
 * @h_nr_running: the CFS count the kernel sums: cfs.h_nr_running (h_nr_queued
 *                6.12-6.13), cfs.h_nr_runnable under AUDIT_RULE_H_NR_RUNNABLE
 * @load_avg:     cpu_load(): root cfs_rq avg.load_avg (also the KERNEL tracker)
 * @runnable_avg: root cfs_rq avg.runnable_avg
 * @util_avg:     root cfs_rq avg.util_avg
 * @util_est:     root cfs_rq avg.util_est(.enqueued) (0 without UTIL_EST)
 * @capacity:     rq->cpu_capacity, 1024 = a full CPU
 * @capacity_orig: the CPU's original capacity (rq->cpu_capacity_orig, or
 *                arch_scale_cpu_capacity(); 0 = 1024)
 * @misfit_task_load: rq->misfit_task_load (SD_ASYM_CPUCAPACITY domains)
 * @idle:         idle_cpu(): nothing running, the idle task current and no
 *                wakeup pending
 * @stale:        these inputs differ from the read at the search's entry
 *                (the kernel read them somewhere in between)
 * @llc_pref:     queued tasks preferring another LLC (7.2+ llc_counts; the
 *                known llc_balance gap only)
 *
 * The verdict's inputs, from the CPU's published state (shadow walk):
 * @movable:      queued-but-not-running CFS tasks other CPUs may pull
 * @work:         enum shadow_work_answer for the destination: shadow_work_for()
 *                of the published waiter summary (core/work.h)
 * @weight:       root cfs_rq load.weight, scaled down (WEIGHT tracker)
 * @shadow:       shadow runnable load (SHADOW tracker)
 * @shadow_avg:   shadow walk over avg.load_avg (SHADOW_AVG tracker)
 * @h_load:       sum of task_h_load() of its queued tasks (H_LOAD tracker)
 * @valid:        false when the CPU has no published state: its published
 *                values and @movable are then read as 0; the verdict is void
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
	u64 util_est;
	u64 weight;
	u64 shadow;
	u64 shadow_avg;
	u64 capacity;
	u64 capacity_orig;
	u64 misfit_task_load;
	u64 h_load;
	u32 llc_pref;
	bool idle;
	bool stale;
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
 * @flags:  sg->flags as AUDIT_SG_* (its child domain's flags; 0 before 5.16)
 * @cores:  sg->cores (6.6+; 0 = @weight)
 * @min_capacity, @max_capacity: sgc->min/max_capacity (asymmetric rules)
 * @stale:  sgc->capacity changed between the entry and return reads
 * @assume: AUDIT_GA_*: what audit_explain() assumes of the group in place
 *          of the rules the model does not have (0 outside it)
 */
struct audit_group {
	int first;
	int nr;
	bool local;
	u32 weight;
	u64 capacity;
	bool imbalanced;
	u32 flags;
	u32 cores;
	u64 min_capacity;
	u64 max_capacity;
	bool stale;
	u8 assume;
};

/* struct audit_group.flags */
#define AUDIT_SG_SMT		0x1u	/* SD_SHARE_CPUCAPACITY: SMT siblings */
#define AUDIT_SG_PREFER_SIBLING	0x2u	/* SD_PREFER_SIBLING */

/*
 * struct audit_group.assume: the inputs of the rules the model leaves out,
 * as audit_explain() flips them (docs/debugfs.md, "Model and agreement").
 * Without them the model takes: dst's asym_packing priority above every
 * group's, every CPU overutilized, no group llc_balance.
 */
#define AUDIT_GA_NOT_ASYM	0x1u	/* dst is not preferred to the group: never asym_packing */
#define AUDIT_GA_NOT_OU		0x2u	/* no CPU of the group is overutilized (EAS: never overloaded) */
#define AUDIT_GA_LLC		0x4u	/* the group is llc_balance */

/* The kernel model's inputs of one CPU as one read saw them (the search's entry). */
struct audit_live {
	u64 load, util, util_est, runnable, capacity, capacity_orig, misfit;
	u32 nr, h_nr, llc_pref;
	bool idle, have;
};

/**
 * struct audit_model - the kernel model's outcome for one search
 * @pick:      the group it returns (index), -1 = balanced (NULL)
 * @exit:      why it balanced: an AUDIT_R_* missed reason (AUDIT_R_EAS,
 *             AUDIT_R_NO_BUSIEST, AUDIT_R_LOCAL_CLASS, AUDIT_R_LOCAL_LOAD,
 *             AUDIT_R_IDLE_CPUS, AUDIT_R_SINGLE_TASK, AUDIT_R_IMBALANCE_ZERO);
 *             AUDIT_R_NONE when it picked
 * @busiest:   update_sd_pick_busiest()'s group before the exits (-1: none)
 * @forced:    the rule that forced the balance (an AUDIT_R_* wrong reason:
 *             AUDIT_R_ACTIVE_MISFIT, AUDIT_R_ACTIVE_ASYM,
 *             AUDIT_R_ACTIVE_PREFER_SIBLING, or the class reason of the
 *             busiest group when no force applied); AUDIT_R_NONE if balanced
 * @imbalance: calculate_imbalance()'s env->imbalance (0 if it did not run)
 * @local:     the local group's index (-1: none in the domain)
 */
struct audit_model {
	int pick;
	int exit;
	int busiest;
	int forced;
	u64 imbalance;
	int local;
};

/**
 * audit_model_run() - the kernel's find_busiest_group() on recomputed stats
 * @d:         domain inputs and rule set
 * @gs:        [@nr_groups] group statistics (audit_group_stats())
 * @nr_groups: number of groups
 * @idle:      enum audit_idle_type of the destination
 * @m:         filled in completely
 *
 * Pure function of its inputs: the checker's driver calls it directly.
 */
void audit_model_run(const struct audit_domain *d, const struct audit_gstats *gs,
		     int nr_groups, int idle, struct audit_model *m);

/**
 * audit_model_flips() - the evidence the kernel's outcome gives on each rule
 * @d, @gs, @nr_groups, @idle: as for audit_model_run()
 * @base:        the model's outcome under @d->rules
 * @kernel_pick: the kernel's outcome (group index, -1 NULL)
 * @flip:        rules to test (a subset of AUDIT_RULES_FLIPPABLE)
 * @differs:     out: rules whose opposite changes the outcome here
 * @flip_agrees: out: of those, the ones whose opposite gives the kernel's outcome
 *
 * One extra model run per rule in @flip (O(nr_groups) each).
 */
void audit_model_flips(const struct audit_domain *d, const struct audit_gstats *gs,
		       int nr_groups, int idle, const struct audit_model *base,
		       int kernel_pick, u32 flip, u32 *differs, u32 *flip_agrees);

/**
 * struct audit_result - judgement of one call
 * @idle_type:   destination idle type as passed in
 * @verdict:     enum audit_verdict
 * @reason:      enum audit_reason
 * @kernel_pick: the kernel's pick after range check (-1 = none)
 * @model_pick:  the kernel model's outcome: the group it returns, -1 =
 *               balanced (@model.exit says which exit)
 * @model:       the kernel model's full outcome
 * @cause:       enum audit_cause: AGREE when @model_pick == @kernel_pick
 * @known:       enum audit_known_rule when @cause is KNOWN, else NONE
 * @either_picked: the kernel or the model picked a group
 * @nonlocal_work: some non-local group has a CPU with work to give
 * @flags:       AUDIT_F_*
 * @pick:        each tracker's pick (-1 = none)
 * @outcome:     each tracker's enum audit_outcome
 * @agree:       tracker pick equals @kernel_pick (both -1 counts)
 * @runs:        model runs audit_explain() made (0 when it did not run)
 */
struct audit_result {
	int idle_type;
	int verdict;
	int reason;
	int kernel_pick;
	int model_pick;
	struct audit_model model;
	int cause;
	int known;
	bool either_picked;
	bool nonlocal_work;
	u32 flags;
	int pick[AUDIT_NR_TRACKERS];
	int outcome[AUDIT_NR_TRACKERS];
	bool agree[AUDIT_NR_TRACKERS];
	u32 runs;
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

/*
 * The statistics update_sg_lb_stats() computes for group @g from its CPUs
 * (group_load, group_util, ..., group_type, avg_load), under @d's rules.
 * @idle is the destination's idle type; @local the local group's
 * statistics (NULL: none yet; asym_packing's SMT rules read them).  Also
 * fills @st->work from the CPUs' published answers for the destination.
 * Returns the first void reason met (0: every CPU fresh).
 */
int audit_group_stats(const struct audit_domain *d, const struct audit_group *g,
		      const struct audit_cpu *cpus, int nr_cpus, int idle,
		      const struct audit_gstats *local, struct audit_gstats *st);

void audit_judge(const struct audit_domain *dom,
		 const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick,
		 struct audit_gstats *gs, struct audit_result *res);

/* The most model runs audit_explain() makes for @nr_groups groups. */
#define AUDIT_EXPLAIN_RUNS(nr_groups)	((nr_groups) + 2)

/**
 * audit_explain() - why the model's outcome is not the kernel's
 * @dom, @groups, @nr_groups, @cpus, @nr_cpus: as given to audit_judge()
 *             (changed during the call, restored before it returns)
 * @entry:     [@nr_cpus] the search's entry read of each CPU entry (NULL:
 *             none); read for the entries marked stale
 * @entry_sgc: [@nr_groups] each group's sgc->capacity at the entry (NULL:
 *             none); read for the groups marked stale
 * @gs:        audit_judge()'s statistics (used as scratch, restored)
 * @res:       audit_judge()'s result: @res->cause, @res->known and
 *             @res->runs are set
 *
 * A disagreement is `stale` only when the model on the entry read, or on
 * a mix of the two reads, gives the kernel's outcome; `known` only when
 * the model with a missing rule's input flipped does; else `unknown`.  At
 * most AUDIT_EXPLAIN_RUNS(@nr_groups) model runs, in this order, stopping
 * at the first that gives the kernel's outcome (docs/debugfs.md, "Model
 * and agreement"):
 * 1. every stale input from the entry read; then, when more than one group
 *    has stale inputs, each such group's from the entry read and the rest
 *    from the return read;
 * 2. llc_balance (the rule llc_balance in force, the domain spanning LLCs):
 *    the kernel's pick is llc_balance (if it has llc_pref); with no pick,
 *    each non-local group with llc_pref in turn;
 * 3. asym_packing (SD_ASYM_PACKING): only the kernel's pick asym_packing;
 *    no group asym_packing;
 * 4. eas_overutilized (eas_overload, an energy model): the overutilized
 *    groups are {pick, local}, {pick}, {local}, none; with no pick, none,
 *    {local}, then for each group that is overloaded otherwise, {it,
 *    local} and {it}.
 * Each run recomputes the statistics of the groups it changes, and the
 * model: O(changed CPUs + @nr_groups).  Busy destinations and agreement:
 * nothing to do.
 */
void audit_explain(const struct audit_domain *dom, struct audit_group *groups, int nr_groups,
		   struct audit_cpu *cpus, int nr_cpus, struct audit_live *entry, u64 *entry_sgc,
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
