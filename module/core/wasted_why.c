// SPDX-License-Identifier: GPL-2.0
/*
 * wasted_why: the wakeup placement's path and the reasons no balancing
 * ran (wasted_why.h; each rule in docs/wasted.md).
 */
#include <linux/types.h>
#include "wasted_why.h"

#define WASTED_NAME(id, name) [WASTED_WAKE_##id] = name,
const char * const wasted_wake_path_name[WASTED_NR_WAKE_PATHS] = {
	WASTED_WAKE_PATHS(WASTED_NAME)
};
#undef WASTED_NAME

#define WASTED_NAME(id, name) [WASTED_NA_##id] = name,
const char * const wasted_na_name[WASTED_NR_NA] = {
	WASTED_NA_REASONS(WASTED_NAME)
};
#undef WASTED_NAME

#define WASTED_NAME(id, name) [WASTED_NAD_##id] = name,
const char * const wasted_na_detail_name[WASTED_NR_NA_DETAILS] = {
	WASTED_NA_DETAILS(WASTED_NAME)
};
#undef WASTED_NAME

const char * const wasted_rel_name[WASTED_NR_RELS] = {
	[WASTED_REL_SMT]	= "smt",
	[WASTED_REL_LLC]	= "llc",
	[WASTED_REL_ABOVE]	= "above_llc",
};

int wasted_wake_path(u32 flags, bool target_is_waker, bool waker_in_llc, bool prev_in_llc)
{
	if (flags & WASTED_WF_FORK)
		return WASTED_WAKE_FORK;
	if ((flags & WASTED_WF_SYNC) && target_is_waker)
		return WASTED_WAKE_SYNC;
	if (waker_in_llc && prev_in_llc)
		return WASTED_WAKE_SAME_LLC;
	if (waker_in_llc)
		return WASTED_WAKE_AFFINE;
	if (prev_in_llc)
		return WASTED_WAKE_PREV;
	return WASTED_WAKE_OTHER;
}

/* time_after_eq() of jiffies values */
static inline bool wasted_after_eq(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

/* The CPU went idle with the waiter there and newly idle balancing did not reach this level. */
static int wasted_newidle(const struct wasted_why_in *in)
{
	if (!in->began_idle)
		return -1;
	if (!in->newidle_flag || (in->have_cost && in->avg_idle < in->max_cost))
		return WASTED_NA_NEWIDLE_SKIPPED;
	if (in->have_ratio && in->ratio < 1024)
		return WASTED_NA_NEWIDLE_RATIO;
	return -1;
}

int wasted_why(const struct wasted_why_in *in, int *detail)
{
	unsigned long due;
	int r;

	*detail = WASTED_NAD_NONE;
	if (!in->have_sd) {
		*detail = WASTED_NAD_UNREAD;
		return WASTED_NA_UNKNOWN;
	}
	/*
	 * The idle CPU's balance at this level runs (in its own softirq, or
	 * in the NOHZ balancer's on its behalf) once jiffies reach both
	 * rq->next_balance and sd->last_balance + interval.
	 */
	due = in->last_balance + in->interval;
	if (wasted_after_eq(in->next_balance, due))
		due = in->next_balance;
	if (!wasted_after_eq(in->now, due)) {
		/* not due yet: newly idle balancing was the chance, if the CPU went idle with the waiter there */
		r = wasted_newidle(in);
		return r >= 0 ? r : WASTED_NA_INTERVAL;
	}
	if (!in->ended && in->have_nohz && in->tick_stopped) {
		if (!in->kick_pending)
			return WASTED_NA_NOHZ_NO_KICK;
		*detail = WASTED_NAD_KICK_PENDING;
		return WASTED_NA_UNKNOWN;
	}
	/*
	 * Due, the tick running: the CPU went idle with the waiter there and
	 * has not balanced since (newly idle balancing decided), or its next
	 * tick raises the balance.
	 */
	r = wasted_newidle(in);
	if (r >= 0)
		return r;
	if (in->now - due <= 1)
		return WASTED_NA_INTERVAL;
	/*
	 * Every run of the balance softirq on the CPU updates its blocked
	 * load first (stamped in jiffies), and each tick at or after
	 * rq->next_balance raises it: no update since it became due, the
	 * CPU idle with its tick running, is a tick that did not come.
	 */
	if (!in->ended && in->have_blocked && !wasted_after_eq(in->blocked_tick, due))
		return WASTED_NA_TICK_LATE;
	/*
	 * The softirq ran since, and the CPU's last tick found it running a
	 * task: that tick's balance used the busy interval (x busy_factor),
	 * and no tick has come since the CPU turned idle.
	 */
	if (!in->ended && in->have_idle_tick && !in->idle_tick)
		return WASTED_NA_BUSY_TICK;
	*detail = in->ended ? WASTED_NAD_ENDED : WASTED_NAD_TICK_OVERDUE;
	return WASTED_NA_UNKNOWN;
}
