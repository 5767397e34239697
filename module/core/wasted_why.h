/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wasted_why: the rules that name why an idle CPU stayed idle when no
 * balancing attempt at that level judged it: the wakeup placement that
 * left it idle (the path select_task_rq_fair() took, inferred from its
 * inputs) and, when nothing placed a task next to it, why no balancing
 * ran (NOHZ idle with no kick, newly idle balancing skipped, the interval
 * not elapsed).  docs/wasted.md states each rule; the module (wasted.c,
 * wakeup.c) reads the inputs, these functions decide.
 *
 * Pure C shared by the module and the host unit tests (tests/unit/
 * test_wasted_why.c): <linux/types.h> only.
 */
#ifndef SHADOW_CORE_WASTED_WHY_H
#define SHADOW_CORE_WASTED_WHY_H

#include <linux/types.h>

/* Verdict field of an attribution key (wasted_core.h): a wakeup placement. */
#define WASTED_V_WAKEUP		14

/*
 * Paths of select_task_rq_fair(), from its inputs: the wake flags, the
 * waker's CPU (where the call runs), the task's previous CPU and the
 * target's LLC (the highest domain of the target with SD_SHARE_LLC).
 */
#define WASTED_WAKE_PATHS(X)						\
	X(FORK, "fork")		/* wake_up_new_task(): the slow path, find_idlest_cpu() */ \
	X(SYNC, "sync")		/* WF_SYNC, target = the waker's CPU (wake_affine_idle()) */ \
	X(AFFINE, "affine")	/* target in the waker's LLC, not in prev's: wake_affine() pulled */ \
	X(PREV, "prev")		/* target in prev's LLC, not in the waker's: kept near prev */ \
	X(SAME_LLC, "same_llc")	/* waker and prev share the target's LLC: select_idle_sibling() alone */ \
	X(OTHER, "other")	/* in neither LLC (energy-aware placement, WF_CURRENT_CPU, ...) */

#define WASTED_WAKE_PATH_ENUM(id, name) WASTED_WAKE_##id,
enum wasted_wake_path {
	WASTED_WAKE_PATHS(WASTED_WAKE_PATH_ENUM)
	WASTED_NR_WAKE_PATHS
};
#undef WASTED_WAKE_PATH_ENUM

extern const char * const wasted_wake_path_name[WASTED_NR_WAKE_PATHS];

/* Where the idle CPU was, seen from the target: its core, its LLC, or beyond. */
enum wasted_rel {
	WASTED_REL_SMT,		/* a domain with SD_SHARE_CPUCAPACITY */
	WASTED_REL_LLC,		/* SD_SHARE_LLC (SD_SHARE_PKG_RESOURCES) */
	WASTED_REL_ABOVE,	/* above the LLC */
	WASTED_NR_RELS
};

extern const char * const wasted_rel_name[WASTED_NR_RELS];

/* Wake flags as the probe hands them to wasted_wake_path() (not the kernel's bits). */
#define WASTED_WF_FORK		0x1
#define WASTED_WF_SYNC		0x2

/*
 * The path of one placement: @flags (WASTED_WF_*), whether the target is
 * the waker's CPU, whether the waker's and the previous CPU are in the
 * target's LLC.
 */
int wasted_wake_path(u32 flags, bool target_is_waker, bool waker_in_llc, bool prev_in_llc);

/* Why no balancing attempt judged the idle CPU at that level (reason field of a no_attempt key). */
#define WASTED_NA_REASONS(X)						\
	X(UNKNOWN, "unknown")		/* none of the rules below holds */ \
	X(NOHZ_NO_KICK, "nohz_no_kick")	/* tick stopped, balance due, no kick pending */ \
	X(NEWIDLE_SKIPPED, "newidle_skipped")	/* went idle with the waiter there; cost rule */ \
	X(NEWIDLE_RATIO, "newidle_ratio")	/* ... newidle throttled by its success ratio */ \
	X(INTERVAL, "interval")		/* the next balance at that level is not due */ \
	X(NO_DOMAIN, "no_domain")	/* no domain of the CPU spans the waiter */ \
	X(TICK_LATE, "tick_late")	/* due, tick running, no balance softirq on the CPU since */ \
	X(BUSY_TICK, "busy_tick")	/* due, tick running, the CPU's last tick found it busy */

#define WASTED_NA_ENUM(id, name) WASTED_NA_##id,
enum wasted_na {
	WASTED_NA_REASONS(WASTED_NA_ENUM)
	WASTED_NR_NA
};
#undef WASTED_NA_ENUM

extern const char * const wasted_na_name[WASTED_NR_NA];

/* What an `unknown` saw (cause field of a no_attempt key): a hint, still unknown. */
#define WASTED_NA_DETAILS(X)						\
	X(NONE, "-")							\
	X(TICK_OVERDUE, "tick_overdue")	/* due for over a jiffy, the tick running, a softirq since */ \
	X(KICK_PENDING, "kick_pending")	/* due, tick stopped, a kick to the CPU not yet run */ \
	X(ENDED, "ended")		/* due; the CPU was busy again when read: its tick then not known */ \
	X(UNREAD, "unread")		/* the domain or a field it needs not read */

#define WASTED_NA_DETAIL_ENUM(id, name) WASTED_NAD_##id,
enum wasted_na_detail {
	WASTED_NA_DETAILS(WASTED_NA_DETAIL_ENUM)
	WASTED_NR_NA_DETAILS
};
#undef WASTED_NA_DETAIL_ENUM

extern const char * const wasted_na_detail_name[WASTED_NR_NA_DETAILS];

/*
 * What the sampler read for one idle CPU and one level, at that moment
 * (racy reads of another CPU's rq and sched_domain: "the state then").
 * Times in jiffies; @interval already as get_sd_balance_interval() makes
 * it for an idle CPU (msecs_to_jiffies(balance_interval), clamped).
 */
struct wasted_why_in {
	bool have_sd;		/* the CPU's domain at that level was found */
	bool began_idle;	/* the CPU turned idle with such a waiter there, no attempt since */
	bool ended;		/* the CPU is busy again now: its tick's state is not that of the wasted time */
	bool have_nohz;		/* the kernel has rq->nohz_tick_stopped (CONFIG_NO_HZ_COMMON) */
	bool tick_stopped;
	bool kick_pending;	/* rq->nohz_flags non-zero: a kick to this CPU not yet run */
	bool have_cost;		/* rq->avg_idle and sd->max_newidle_lb_cost read */
	bool newidle_flag;	/* the domain has SD_BALANCE_NEWIDLE */
	bool have_ratio;	/* the kernel has sd->newidle_ratio */
	bool have_blocked;	/* the kernel has rq->last_blocked_load_update_tick */
	bool have_idle_tick;	/* the kernel has rq->idle_balance */
	bool idle_tick;		/* rq->idle_balance: the CPU was idle at its last tick */
	unsigned long now;	/* jiffies */
	unsigned long next_balance;	/* rq->next_balance */
	unsigned long last_balance;	/* sd->last_balance */
	unsigned long interval;
	unsigned long blocked_tick;	/* rq->last_blocked_load_update_tick */
	u64 avg_idle;		/* rq->avg_idle */
	u64 max_cost;		/* the largest max_newidle_lb_cost of the domains up to this one */
	u32 ratio;		/* sd->newidle_ratio (1024: never skipped) */
};

/*
 * The reason (enum wasted_na) for @in, and for `unknown` what was seen in
 * *@detail (enum wasted_na_detail); docs/wasted.md, "Balancing that did
 * not run".
 */
int wasted_why(const struct wasted_why_in *in, int *detail);

#endif /* SHADOW_CORE_WASTED_WHY_H */
