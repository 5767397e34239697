/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict reasons of the load-balancer audit, in one table.
 *
 * AUDIT_REASONS(X) expands X(ID, name, verdicts, doc) once per reason, in
 * the order of enum audit_reason.  Everything else is generated from it:
 * the enum (AUDIT_R_<ID>), audit_reason_name[], the verdicts each reason
 * can carry (audit_reason_verdicts[]), the rows of debugfs lb_attempts
 * (one per verdict and reason, numbered at load time from this table),
 * the `lb_reason.<name>` lines of debugfs info, and the list in
 * docs/debugfs.md ("lb reasons"; `make docs-reasons` rewrites it, the
 * unit tests fail when it differs).  Adding a reason is one line here.
 *
 *   ID        enum suffix
 *   name      as printed everywhere (no spaces)
 *   verdicts  AUDIT_VB_* bits: the verdicts that carry the reason
 *   doc       one line for the docs' list (markdown, no '|')
 *
 * Two runs of the table are indexed by arithmetic in audit_core.c and must
 * stay contiguous and in order (checked by static_assert there): the class
 * reasons, AUDIT_R_CLASS_HAS_SPARE + enum audit_class, and the void
 * reasons, AUDIT_R_VOID_NEVER - 1 + enum shadow_void_reason.
 *
 * Pure C shared by the module and the host tools: no includes needed.
 */
#ifndef SHADOW_AUDIT_REASONS_H
#define SHADOW_AUDIT_REASONS_H

/* Verdict of one attempt; BUSY when the destination could not take work. */
#define AUDIT_VERDICTS(X)						\
	X(RIGHT, "right")						\
	X(WRONG, "wrong")						\
	X(MISSED, "missed")						\
	X(NONE, "none")							\
	X(VOID, "void")		/* a CPU it needs has no fresh, readable state */ \
	X(BUSY, "busy")

#define AUDIT_VERDICT_ENUM(id, name) AUDIT_##id,
enum audit_verdict {
	AUDIT_VERDICTS(AUDIT_VERDICT_ENUM)
	AUDIT_NR_VERDICTS
};
#undef AUDIT_VERDICT_ENUM

#define AUDIT_VB(v)		(1u << (v))
#define AUDIT_VB_RIGHT		AUDIT_VB(AUDIT_RIGHT)
#define AUDIT_VB_WRONG		AUDIT_VB(AUDIT_WRONG)
#define AUDIT_VB_MISSED		AUDIT_VB(AUDIT_MISSED)
#define AUDIT_VB_NONE		AUDIT_VB(AUDIT_NONE)
#define AUDIT_VB_VOID		AUDIT_VB(AUDIT_VOID)
#define AUDIT_VB_BUSY		AUDIT_VB(AUDIT_BUSY)

#define AUDIT_REASONS(X)						\
	X(NONE, "-", AUDIT_VB_RIGHT | AUDIT_VB_BUSY,			\
	  "right and busy attempts: no reason")				\
	X(NO_WORK, "no_work", AUDIT_VB_NONE,				\
	  "no non-local group has work for the destination")		\
	/* wrong, the kernel means to move a running task (active balance) */ \
	X(ACTIVE_MISFIT, "active_misfit", AUDIT_VB_WRONG,		\
	  "the pick is a misfit group: its running task is to be pushed by active balance") \
	X(ACTIVE_ASYM, "active_asym", AUDIT_VB_WRONG,			\
	  "the pick is an asym_packing group: its running task is to be pushed by active balance") \
	X(ACTIVE_PREFER_SIBLING, "active_prefer_sibling", AUDIT_VB_WRONG, \
	  "prefer_sibling forced the balance of a group that is not overloaded (see prefer_sibling below): the kernel spreads running tasks") \
	/* wrong, the pick outranks every group with work: its class */ \
	X(CLASS_HAS_SPARE, "has_spare", AUDIT_VB_WRONG,			\
	  "class of the pick: has_spare (fewer idle CPUs, then more tasks)") \
	X(CLASS_FULLY_BUSY, "fully_busy", AUDIT_VB_WRONG,		\
	  "class of the pick: fully_busy (the first one; from 6.5 on the later one unless the earlier is an SMT group)") \
	X(CLASS_MISFIT, "misfit", AUDIT_VB_WRONG,			\
	  "class of the pick: misfit_task (the largest misfit load), when no active misfit push is meant") \
	X(CLASS_SMT_BALANCE, "smt_balance", AUDIT_VB_WRONG,		\
	  "class of the pick: smt_balance (6.6+: an SMT group running more than one task)") \
	X(CLASS_ASYM, "asym", AUDIT_VB_WRONG,				\
	  "class of the pick: asym_packing") \
	X(CLASS_IMBALANCED, "imbalanced", AUDIT_VB_WRONG,		\
	  "class of the pick: imbalanced (a child domain failed on affinity; the first one)") \
	X(CLASS_LLC_BALANCE, "llc_balance", AUDIT_VB_WRONG,		\
	  "class of the pick: llc_balance (7.2+ cache-aware scheduling)") \
	X(CLASS_OVERLOADED, "overloaded", AUDIT_VB_WRONG,		\
	  "class of the pick: overloaded (the highest avg_load)") \
	/* missed: a balanced exit find_busiest_group() takes on purpose */ \
	X(EAS, "eas", AUDIT_VB_MISSED,					\
	  "the energy model is on (rd->pd) and the root domain is not overutilized") \
	X(NO_BUSIEST, "no_busiest", AUDIT_VB_MISSED,			\
	  "no non-local group is a candidate (no CFS task counted in any, or every candidate filtered out)") \
	X(LOCAL_CLASS, "local_class", AUDIT_VB_MISSED,			\
	  "the local group's class ranks above the busiest group's") \
	X(LOCAL_LOAD, "local_load", AUDIT_VB_MISSED,			\
	  "the local group is overloaded and its avg_load is not below the busiest's, the domain average, or within imbalance_pct of the busiest") \
	X(IDLE_CPUS, "idle_cpus", AUDIT_VB_MISSED,			\
	  "busiest not overloaded and local->idle_cpus <= busiest->idle_cpus + 1") \
	X(SINGLE_TASK, "single_task", AUDIT_VB_MISSED,			\
	  "busiest not overloaded and its sum_h_nr_running == 1") \
	X(IMBALANCE_ZERO, "imbalance_zero", AUDIT_VB_MISSED,		\
	  "calculate_imbalance() rounds the imbalance to 0") \
	X(UNEXPLAINED, "unexplained", AUDIT_VB_WRONG | AUDIT_VB_MISSED, \
	  "none of the above: the kernel's rules, as modelled, would not have made this choice (the headline)") \
	/* void: why a needed CPU's state is unusable */		\
	X(VOID_NEVER, "never", AUDIT_VB_VOID,				\
	  "a CPU of the domain never published a walk since load") \
	X(VOID_WALK_FAILED, "walk_failed", AUDIT_VB_VOID,		\
	  "a CPU's last walk was discarded or over budget") \
	X(VOID_DISABLED, "disabled", AUDIT_VB_VOID,			\
	  "`enable` is 0, or a CPU was not walked since it went back to 1") \
	X(VOID_RESET, "reset", AUDIT_VB_VOID,				\
	  "a CPU was not walked since `reset`") \
	X(VOID_HOTPLUG, "hotplug", AUDIT_VB_VOID,			\
	  "a CPU went offline or online and was not walked since") \
	X(VOID_STALE, "stale", AUDIT_VB_VOID,				\
	  "a CPU's walks are overdue: one due for too long and none published") \
	X(VOID_UNREADABLE, "unreadable", AUDIT_VB_VOID,			\
	  "no consistent copy of a CPU's state within the retry bound") \
	X(VOID_WORK_UNKNOWN, "work_unknown", AUDIT_VB_VOID,		\
	  "a non-local CPU holds a waiter whose affinity the bounded summary did not record")

#define AUDIT_REASON_ENUM(id, name, verdicts, doc) AUDIT_R_##id,
enum audit_reason {
	AUDIT_REASONS(AUDIT_REASON_ENUM)
	AUDIT_NR_REASONS
};
#undef AUDIT_REASON_ENUM

/* bits set in a verdict mask (AUDIT_NR_VERDICTS <= 8) */
#define AUDIT_VB_COUNT(m)	((((m) >> 0) & 1) + (((m) >> 1) & 1) + (((m) >> 2) & 1) + \
				 (((m) >> 3) & 1) + (((m) >> 4) & 1) + (((m) >> 5) & 1) + \
				 (((m) >> 6) & 1) + (((m) >> 7) & 1))

/* Rows of lb_attempts: one per (verdict, reason) pair the table allows. */
#define AUDIT_REASON_ROWS(id, name, verdicts, doc) + AUDIT_VB_COUNT(verdicts)
#define AUDIT_NR_REASON_ROWS	(0 AUDIT_REASONS(AUDIT_REASON_ROWS))

extern const char * const audit_verdict_name[AUDIT_NR_VERDICTS];
extern const char * const audit_reason_name[AUDIT_NR_REASONS];
extern const unsigned int audit_reason_verdicts[AUDIT_NR_REASONS];
extern const char * const audit_reason_doc[AUDIT_NR_REASONS];

/*
 * The order of the rows of lb_attempts: every verdict in this order, and
 * within a verdict its reasons in table order.
 */
#define AUDIT_VERDICT_ROW_ORDER { AUDIT_RIGHT, AUDIT_BUSY, AUDIT_NONE, AUDIT_VOID, \
				  AUDIT_WRONG, AUDIT_MISSED }

/*
 * Agreement of the kernel model with the kernel (docs/debugfs.md, "Model
 * and agreement"): the model's outcome equals the kernel's (the same
 * group, or both balanced), or the cause of the difference.
 */
#define AUDIT_CAUSES(X)							\
	X(AGREE, "agree", "the model's outcome is the kernel's")	\
	X(STALE, "stale", "a CPU's inputs changed while the kernel computed (the entry and return reads differ)") \
	X(KNOWN, "known", "a rule the model does not have (named in lb_verdict's known=)") \
	X(UNKNOWN, "unknown", "none of the above")

#define AUDIT_CAUSE_ENUM(id, name, doc) AUDIT_CAUSE_##id,
enum audit_cause {
	AUDIT_CAUSES(AUDIT_CAUSE_ENUM)
	AUDIT_NR_CAUSES
};
#undef AUDIT_CAUSE_ENUM

/* The rules the model knows it lacks: a disagreement where one may apply is `known`. */
#define AUDIT_KNOWN_RULES(X)						\
	X(NONE, "-", "no known gap")					\
	X(LLC_BALANCE, "llc_balance", "7.2+ cache-aware balancing (group_llc_balance): the kernel's LLC preference state is not read; counted when the domain spans LLCs and a queued task of the kernel's pick prefers another LLC") \
	X(ASYM_PACKING, "asym_packing", "SD_ASYM_PACKING domains: the CPU priorities (arch_asym_cpu_priority) are not read") \
	X(EAS_OVERUTILIZED, "eas_overutilized", "the energy model is on: cpu_overutilized() (uclamp, per-CPU fits) is not modelled")

#define AUDIT_KNOWN_ENUM(id, name, doc) AUDIT_KNOWN_##id,
enum audit_known_rule {
	AUDIT_KNOWN_RULES(AUDIT_KNOWN_ENUM)
	AUDIT_NR_KNOWN_RULES
};
#undef AUDIT_KNOWN_ENUM

extern const char * const audit_cause_name[AUDIT_NR_CAUSES];
extern const char * const audit_known_name[AUDIT_NR_KNOWN_RULES];

#endif /* SHADOW_AUDIT_REASONS_H */
