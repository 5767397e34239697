// SPDX-License-Identifier: GPL-2.0
/*
 * audit_core: the verdict on one find_busiest_group() call and the picks
 * of the alternative trackers (see "Vocabulary" in DESIGN.md).
 *
 * The kretprobe glue describes the domain as arrays of groups and CPUs
 * and calls audit_judge(); audit_account() folds the result into plain
 * u64 counters that the glue keeps per CPU and per domain.  One pass over
 * the groups and their CPUs, no recursion, no allocation, no division.
 *
 * The trackers are a deliberately simple model, not a copy of the
 * kernel's update_sd_pick_busiest(): no group_type classification, just
 * the highest sum(metric) / sum(capacity) among non-local groups.  So the
 * KERNEL tracker's agreement rate says how much of the kernel's choice
 * that model explains, and the other trackers are compared on equal terms.
 */
#include <linux/types.h>
#include "audit_core.h"

const char * const audit_verdict_name[AUDIT_NR_VERDICTS] = {
	[AUDIT_RIGHT]	= "right",
	[AUDIT_WRONG]	= "wrong",
	[AUDIT_MISSED]	= "missed",
	[AUDIT_NONE]	= "none",
	[AUDIT_BUSY]	= "busy",
};

const char * const audit_tracker_name[AUDIT_NR_TRACKERS] = {
	[AUDIT_TRK_KERNEL]	= "kernel",
	[AUDIT_TRK_SHADOW]	= "shadow",
	[AUDIT_TRK_SHADOW_AVG]	= "shadow_avg",
	[AUDIT_TRK_WEIGHT]	= "weight",
	[AUDIT_TRK_NR]		= "nr",
};

const char * const audit_outcome_name[AUDIT_NR_OUTCOMES] = {
	[AUDIT_PICK_WORK]	 = "work",
	[AUDIT_PICK_IDLE_WRONG]	 = "wrong",
	[AUDIT_PICK_NOWORK_NONE] = "none",
	[AUDIT_NO_PICK]		 = "nopick",
};

const char * const audit_idle_name[AUDIT_NR_IDLE_TYPES] = {
	[AUDIT_CPU_IDLE]	= "idle",
	[AUDIT_CPU_NOT_IDLE]	= "busy",
	[AUDIT_CPU_NEWLY_IDLE]	= "newidle",
};

#define AUDIT_U64_MAX	(~(u64)0)

/* Sums saturate instead of wrapping: a huge group must not look idle. */
static inline u64 audit_add_sat(u64 a, u64 b)
{
	return a + b < a ? AUDIT_U64_MAX : a + b;
}

/* Full 128-bit product of two u64 from 32x32 partial products. */
static void audit_mul_128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;
	u64 mid = (p0 >> 32) + (u32)p1 + (u32)p2;	/* < 3 * 2^32 */

	*lo = (mid << 32) | (u32)p0;
	*hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

/*
 * na / da > nb / db, exactly, for any u64 operands (the products are
 * compared in 128 bits), so there is no magnitude bound beyond the sums
 * themselves fitting in u64 (they saturate otherwise).
 */
static bool audit_ratio_gt(u64 na, u64 da, u64 nb, u64 db)
{
	u64 lh, ll, rh, rl;

	audit_mul_128(na, db, &lh, &ll);
	audit_mul_128(nb, da, &rh, &rl);
	return lh > rh || (lh == rh && ll > rl);
}

static u64 audit_cpu_metric(const struct audit_cpu *c, int trk)
{
	switch (trk) {
	case AUDIT_TRK_KERNEL:
		return c->load_avg;
	case AUDIT_TRK_SHADOW:
		return c->shadow;
	case AUDIT_TRK_SHADOW_AVG:
		return c->shadow_avg;
	case AUDIT_TRK_WEIGHT:
		return c->weight;
	case AUDIT_TRK_NR:
		return c->h_nr_running;
	}
	return 0;
}

/* Best candidate so far for one tracker. */
struct audit_best {
	int idx;
	bool has_work;
	u64 sum;
	u64 cap;
};

/**
 * audit_judge() - judge one find_busiest_group() call
 * @groups:      the domain's groups, CPUs already restricted to env->cpus
 * @nr_groups:   number of entries in @groups
 * @cpus:        CPU records the groups index into
 * @nr_cpus:     number of entries in @cpus
 * @idle_type:   destination idle type (enum audit_idle_type values)
 * @kernel_pick: index of the group the kernel returned, -1 for NULL
 * @res:         filled in completely
 *
 * The verdict is AUDIT_BUSY for a busy destination.  Otherwise, in this
 * order: NONE if no non-local group has work (whatever was picked), MISSED
 * if nothing was picked, RIGHT if the picked group has work, else WRONG.
 * A pick of the local group (should not happen) is judged by the same
 * rules and flagged AUDIT_F_PICKED_LOCAL; since NONE comes first, a local
 * pick only gets RIGHT or WRONG when some non-local group has work.
 *
 * Tracker picks and outcomes are computed for every call, busy ones
 * included; audit_account() only counts them for judged calls.
 *
 * Bad input never makes this read outside the arrays: an out-of-range
 * @kernel_pick is judged as -1 (AUDIT_F_BAD_PICK), an unknown @idle_type as
 * busy (AUDIT_F_BAD_IDLE), and a group range outside @cpus is clipped
 * (AUDIT_F_BAD_GROUP).  A capacity sum of 0 is taken as 1.
 *
 * Cost: O(nr_groups + nr_cpus).
 */
void audit_judge(const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick, struct audit_result *res)
{
	struct audit_best best[AUDIT_NR_TRACKERS];
	bool kernel_pick_work = false;
	int g, t;

	if (nr_groups < 0)
		nr_groups = 0;
	if (nr_cpus < 0)
		nr_cpus = 0;

	res->idle_type = idle_type;
	res->flags = 0;
	res->nonlocal_work = false;
	res->kernel_pick = kernel_pick;
	if (kernel_pick < -1 || kernel_pick >= nr_groups) {
		res->kernel_pick = -1;
		res->flags |= AUDIT_F_BAD_PICK;
	}
	if (idle_type < 0 || idle_type >= AUDIT_NR_IDLE_TYPES)
		res->flags |= AUDIT_F_BAD_IDLE;

	for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
		best[t].idx = -1;
		best[t].has_work = false;
		best[t].sum = 0;
		best[t].cap = 1;
	}

	for (g = 0; g < nr_groups; g++) {
		const struct audit_group *grp = &groups[g];
		u64 sum[AUDIT_NR_TRACKERS] = { 0 };
		u64 cap = 0;
		bool has_work = false;
		int first = grp->first, nr = grp->nr, i;

		if (first < 0 || nr < 0 || first > nr_cpus ||
		    nr > nr_cpus - first) {
			res->flags |= AUDIT_F_BAD_GROUP;
			if (first < 0 || nr < 0 || first >= nr_cpus)
				nr = 0;
			else
				nr = nr_cpus - first;
		}

		for (i = first; i < first + nr; i++) {
			const struct audit_cpu *c = &cpus[i];

			cap = audit_add_sat(cap, c->capacity);
			if (!c->valid)
				continue;
			if (c->movable)
				has_work = true;
			for (t = 0; t < AUDIT_NR_TRACKERS; t++)
				sum[t] = audit_add_sat(sum[t],
						       audit_cpu_metric(c, t));
		}
		if (!cap)
			cap = 1;

		if (g == res->kernel_pick)
			kernel_pick_work = has_work;

		if (grp->local || !nr)
			continue;
		if (has_work)
			res->nonlocal_work = true;

		/* Strictly greater: ties go to the lowest index. */
		for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
			if (!sum[t])
				continue;
			if (best[t].idx >= 0 &&
			    !audit_ratio_gt(sum[t], cap,
					    best[t].sum, best[t].cap))
				continue;
			best[t].idx = g;
			best[t].has_work = has_work;
			best[t].sum = sum[t];
			best[t].cap = cap;
		}
	}

	if (res->kernel_pick >= 0 && groups[res->kernel_pick].local)
		res->flags |= AUDIT_F_PICKED_LOCAL;

	if (idle_type == AUDIT_CPU_NOT_IDLE || (res->flags & AUDIT_F_BAD_IDLE))
		res->verdict = AUDIT_BUSY;
	else if (!res->nonlocal_work)
		res->verdict = AUDIT_NONE;
	else if (res->kernel_pick < 0)
		res->verdict = AUDIT_MISSED;
	else if (kernel_pick_work)
		res->verdict = AUDIT_RIGHT;
	else
		res->verdict = AUDIT_WRONG;

	for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
		res->pick[t] = best[t].idx;
		res->agree[t] = best[t].idx == res->kernel_pick;
		if (best[t].idx < 0)
			res->outcome[t] = AUDIT_NO_PICK;
		else if (best[t].has_work)
			res->outcome[t] = AUDIT_PICK_WORK;
		else if (res->nonlocal_work)
			res->outcome[t] = AUDIT_PICK_IDLE_WRONG;
		else
			res->outcome[t] = AUDIT_PICK_NOWORK_NONE;
	}
}

/**
 * audit_account() - fold one judgement into a counters struct
 * @c:   counters (one per domain, per CPU, in the glue)
 * @res: result of audit_judge()
 *
 * Calls flagged with bad input only bump @c->bad.  Busy calls bump only
 * verdict[AUDIT_CPU_NOT_IDLE][AUDIT_BUSY]; judged calls bump their verdict
 * and every tracker's counters.
 */
void audit_account(struct audit_counters *c, const struct audit_result *res)
{
	int t;

	if (res->flags & AUDIT_F_BAD_MASK) {
		c->bad++;
		return;
	}
	c->verdict[res->idle_type][res->verdict]++;
	if (res->verdict == AUDIT_BUSY)
		return;
	if (res->flags & AUDIT_F_PICKED_LOCAL)
		c->picked_local++;

	for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
		struct audit_tracker_counters *tc = &c->tracker[t];

		tc->judged++;
		switch (res->outcome[t]) {
		case AUDIT_PICK_WORK:
			tc->pick_work++;
			break;
		case AUDIT_PICK_IDLE_WRONG:
			tc->pick_wrong++;
			break;
		case AUDIT_PICK_NOWORK_NONE:
			tc->pick_none++;
			break;
		default:
			tc->no_pick++;
			break;
		}
		if (res->agree[t])
			tc->agree++;
	}
}

/**
 * audit_counters_add() - add @src into @dst, field by field
 * @dst: accumulator (e.g. the sum over CPUs at debugfs read time)
 * @src: one CPU's counters
 */
void audit_counters_add(struct audit_counters *dst,
			const struct audit_counters *src)
{
	int i, v;

	for (i = 0; i < AUDIT_NR_IDLE_TYPES; i++)
		for (v = 0; v < AUDIT_NR_VERDICTS; v++)
			dst->verdict[i][v] += src->verdict[i][v];
	for (i = 0; i < AUDIT_NR_TRACKERS; i++) {
		dst->tracker[i].judged += src->tracker[i].judged;
		dst->tracker[i].pick_work += src->tracker[i].pick_work;
		dst->tracker[i].pick_wrong += src->tracker[i].pick_wrong;
		dst->tracker[i].pick_none += src->tracker[i].pick_none;
		dst->tracker[i].no_pick += src->tracker[i].no_pick;
		dst->tracker[i].agree += src->tracker[i].agree;
	}
	dst->bad += src->bad;
	dst->picked_local += src->picked_local;
}
