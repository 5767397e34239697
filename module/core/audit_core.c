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
 * Two models live here.  The *kernel model* follows find_busiest_group()
 * of 6.1 (group_classify(), update_sd_pick_busiest(), the balanced exits
 * and calculate_imbalance()) on the published per-CPU values; it picks
 * model_pick and gives every non-right verdict its reason.  The
 * *trackers* are deliberately simpler ratio models: no classification,
 * just the highest sum(metric) / sum(capacity) among non-local groups, so
 * that the metrics are compared on equal terms (README "Reading the
 * audit" says why; the KERNEL tracker is load_avg under that ratio model,
 * not the kernel's rule).
 */
#include <linux/types.h>
#include <linux/math64.h>
#include "audit_core.h"

#define AUDIT_VERDICT_NAME(id, name) [AUDIT_##id] = name,
const char * const audit_verdict_name[AUDIT_NR_VERDICTS] = {
	AUDIT_VERDICTS(AUDIT_VERDICT_NAME)
};

#define AUDIT_REASON_NAME(id, name, verdicts, doc) [AUDIT_R_##id] = name,
const char * const audit_reason_name[AUDIT_NR_REASONS] = {
	AUDIT_REASONS(AUDIT_REASON_NAME)
};

#define AUDIT_REASON_VERDICTS(id, name, verdicts, doc) [AUDIT_R_##id] = (verdicts),
const unsigned int audit_reason_verdicts[AUDIT_NR_REASONS] = {
	AUDIT_REASONS(AUDIT_REASON_VERDICTS)
};

#define AUDIT_REASON_DOC(id, name, verdicts, doc) [AUDIT_R_##id] = doc,
const char * const audit_reason_doc[AUDIT_NR_REASONS] = {
	AUDIT_REASONS(AUDIT_REASON_DOC)
};

/* the two runs of the table that are indexed by arithmetic */
_Static_assert(AUDIT_R_CLASS_OVERLOADED - AUDIT_R_CLASS_HAS_SPARE ==
	       AUDIT_CLS_OVERLOADED - AUDIT_CLS_HAS_SPARE &&
	       AUDIT_R_CLASS_FULLY_BUSY - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_FULLY_BUSY &&
	       AUDIT_R_CLASS_MISFIT - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_MISFIT &&
	       AUDIT_R_CLASS_SMT_BALANCE - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_SMT_BALANCE &&
	       AUDIT_R_CLASS_ASYM - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_ASYM &&
	       AUDIT_R_CLASS_IMBALANCED - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_IMBALANCED &&
	       AUDIT_R_CLASS_LLC_BALANCE - AUDIT_R_CLASS_HAS_SPARE == AUDIT_CLS_LLC_BALANCE,
	       "class reasons out of step with enum audit_class");
_Static_assert(AUDIT_R_VOID_UNREADABLE - AUDIT_R_VOID_NEVER == 6 &&
	       AUDIT_R_VOID_WORK_UNKNOWN == AUDIT_R_VOID_UNREADABLE + 1,
	       "void reasons out of step");

int audit_reason_rows(s8 row_of[AUDIT_NR_VERDICTS][AUDIT_NR_REASONS],
		      u8 *row_verdict, u8 *row_reason)
{
	static const int order[] = AUDIT_VERDICT_ROW_ORDER;
	int i, v, r, n = 0;

	for (v = 0; v < AUDIT_NR_VERDICTS; v++)
		for (r = 0; r < AUDIT_NR_REASONS; r++)
			row_of[v][r] = -1;
	for (i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++) {
		v = order[i];
		for (r = 0; r < AUDIT_NR_REASONS; r++) {
			if (!(audit_reason_verdicts[r] & AUDIT_VB(v)) || n >= (int)AUDIT_NR_REASON_ROWS)
				continue;
			row_of[v][r] = n;
			row_verdict[n] = v;
			row_reason[n] = r;
			n++;
		}
	}
	return n;
}

const char * const audit_class_name[AUDIT_NR_CLASSES] = {
	[AUDIT_CLS_HAS_SPARE]	= "has_spare",
	[AUDIT_CLS_FULLY_BUSY]	= "fully_busy",
	[AUDIT_CLS_MISFIT]	= "misfit",
	[AUDIT_CLS_SMT_BALANCE]	= "smt_balance",
	[AUDIT_CLS_ASYM]	= "asym",
	[AUDIT_CLS_IMBALANCED]	= "imbalanced",
	[AUDIT_CLS_LLC_BALANCE]	= "llc_balance",
	[AUDIT_CLS_OVERLOADED]	= "overloaded",
};

const char * const audit_tracker_name[AUDIT_NR_TRACKERS] = {
	[AUDIT_TRK_KERNEL]	= "kernel",
	[AUDIT_TRK_SHADOW]	= "shadow",
	[AUDIT_TRK_SHADOW_AVG]	= "shadow_avg",
	[AUDIT_TRK_WEIGHT]	= "weight",
	[AUDIT_TRK_NR]		= "nr",
	[AUDIT_TRK_H_LOAD]	= "h_load",
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
	case AUDIT_TRK_H_LOAD:
		return c->h_load;
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

#define AUDIT_CAP_SCALE		1024ULL	/* SCHED_CAPACITY_SCALE */
#define AUDIT_NUMA_IMB_MIN	2	/* NUMA_IMBALANCE_MIN */

void audit_domain_default(struct audit_domain *d)
{
	static const s8 rank61[AUDIT_NR_CLASSES] = {
		[AUDIT_CLS_HAS_SPARE] = 0, [AUDIT_CLS_FULLY_BUSY] = 1,
		[AUDIT_CLS_MISFIT] = 2, [AUDIT_CLS_SMT_BALANCE] = -1,
		[AUDIT_CLS_ASYM] = 3, [AUDIT_CLS_IMBALANCED] = 4,
		[AUDIT_CLS_LLC_BALANCE] = -1, [AUDIT_CLS_OVERLOADED] = 5,
	};
	int i;

	d->imbalance_pct = 117;
	d->flags = 0;
	d->imb_numa_nr = 0;
	d->eas_balanced = false;
	for (i = 0; i < AUDIT_NR_CLASSES; i++)
		d->rank[i] = rank61[i];
}

static int audit_rank(const struct audit_domain *d, int cls)
{
	return d->rank[cls];
}

/* group_has_capacity() and group_is_overloaded() of kernel/sched/fair.c */
static bool audit_has_capacity(u32 pct, const struct audit_gstats *g)
{
	if (g->sum_nr_running < g->weight)
		return true;
	if (g->capacity * pct < g->runnable * 100)
		return false;
	return g->capacity * 100 > g->util * pct;
}

static bool audit_is_overloaded(u32 pct, const struct audit_gstats *g)
{
	if (g->sum_nr_running <= g->weight)
		return false;
	return g->capacity * 100 < g->util * pct || g->capacity * pct < g->runnable * 100;
}

/*
 * group_classify().  Approximations (docs/debugfs.md): asym_packing is
 * assumed whenever the domain packs asymmetrically and the group has CFS
 * tasks (the CPU priorities are not read); smt_balance and llc_balance
 * are never recomputed (a pick the kernel made for them reads as
 * unexplained).
 */
static int audit_classify(const struct audit_domain *d, u32 pct, int idle,
			  const struct audit_gstats *g)
{
	if (audit_is_overloaded(pct, g))
		return AUDIT_CLS_OVERLOADED;
	if (g->imbalanced)
		return AUDIT_CLS_IMBALANCED;
	if (!g->local && (d->flags & AUDIT_SD_ASYM_PACKING) &&
	    idle != AUDIT_CPU_NOT_IDLE && g->sum_h_nr_running)
		return AUDIT_CLS_ASYM;
	if (g->misfit_load)
		return AUDIT_CLS_MISFIT;
	if (!audit_has_capacity(pct, g))
		return AUDIT_CLS_FULLY_BUSY;
	return AUDIT_CLS_HAS_SPARE;
}

/*
 * update_sd_pick_busiest(): would candidate @a replace the current busiest
 * @b?  The asymmetric-capacity exits are not modelled (no max/min
 * capacity published); classes compared by BTF rank.
 */
static bool audit_beats(const struct audit_domain *d, const struct audit_gstats *a,
			const struct audit_gstats *b)
{
	int ra = audit_rank(d, a->cls), rb = audit_rank(d, b->cls);

	if (!a->sum_h_nr_running)
		return false;
	if (ra != rb)
		return ra > rb;
	switch (a->cls) {
	case AUDIT_CLS_OVERLOADED:
	case AUDIT_CLS_FULLY_BUSY:	/* avg_load is 0 unless overloaded: the first stays */
		return a->avg_load > b->avg_load;
	case AUDIT_CLS_MISFIT:
		return a->misfit_load >= b->misfit_load;
	case AUDIT_CLS_HAS_SPARE:
		if (a->idle_cpus > b->idle_cpus)
			return false;
		if (a->idle_cpus == b->idle_cpus && a->sum_nr_running <= b->sum_nr_running)
			return false;
		return true;
	default:			/* imbalanced, asym, smt/llc_balance: the first stays */
		return false;
	}
}

/* Would the kernel, visiting groups in order, keep @p over @w? */
static bool audit_outranks(const struct audit_domain *d, const struct audit_gstats *gs,
			   int p, int w)
{
	if (p == w)
		return true;
	return p < w ? !audit_beats(d, &gs[w], &gs[p]) : audit_beats(d, &gs[p], &gs[w]);
}

static u64 audit_div(u64 a, u64 b)
{
	return b ? div64_u64(a, b) : 0;
}

/* calculate_imbalance() of 6.1 for busiest @b and local @l; u64 wraps like unsigned long. */
static u64 audit_imbalance(const struct audit_domain *d, const struct audit_gstats *gs,
			   int nr_groups, const struct audit_gstats *l,
			   const struct audit_gstats *b)
{
	u64 total_load = 0, total_cap = 0, sds_avg, l_avg, x, y, imb;
	bool prefer_sibling = d->flags & AUDIT_SD_PREFER_SIBLING;
	int g;

	if (b->cls == AUDIT_CLS_MISFIT)
		return (d->flags & AUDIT_SD_ASYM_CAPACITY) ? 1 : b->misfit_load;
	if (b->cls == AUDIT_CLS_ASYM)
		return b->sum_h_nr_running;
	if (b->cls == AUDIT_CLS_IMBALANCED)
		return 1;
	if (l->cls == AUDIT_CLS_HAS_SPARE) {
		if (audit_rank(d, b->cls) > audit_rank(d, AUDIT_CLS_FULLY_BUSY) &&
		    !(d->flags & AUDIT_SD_SHARE_LLC)) {
			imb = (l->capacity > l->util ? l->capacity : l->util) - l->util;
			return imb ? imb : 1;	/* the destination is idle here */
		}
		if (b->weight == 1 || prefer_sibling)
			imb = b->sum_nr_running > l->sum_nr_running ?
			      b->sum_nr_running - l->sum_nr_running : 0;
		else
			imb = l->idle_cpus > b->idle_cpus ? l->idle_cpus - b->idle_cpus : 0;
		if ((d->flags & AUDIT_SD_NUMA) && l->sum_nr_running + 1 <= d->imb_numa_nr &&
		    imb <= AUDIT_NUMA_IMB_MIN)
			imb = 0;
		return imb >> 1;
	}
	for (g = 0; g < nr_groups; g++) {
		total_load += gs[g].load;
		total_cap += gs[g].capacity;
	}
	sds_avg = audit_div(total_load * AUDIT_CAP_SCALE, total_cap);
	l_avg = l->avg_load;
	if (audit_rank(d, l->cls) < audit_rank(d, AUDIT_CLS_OVERLOADED)) {
		l_avg = audit_div(l->load * AUDIT_CAP_SCALE, l->capacity);
		if (l_avg >= b->avg_load || l_avg >= sds_avg)
			return 0;
	}
	x = (b->avg_load - sds_avg) * b->capacity;
	y = (sds_avg - l_avg) * l->capacity;
	return div64_u64(x < y ? x : y, AUDIT_CAP_SCALE);
}

/* The balanced exits of find_busiest_group() for busiest @b; AUDIT_R_NONE = it balances. */
static int audit_balanced_reason(const struct audit_domain *d, const struct audit_gstats *gs,
				 int nr_groups, int idle, const struct audit_gstats *l,
				 const struct audit_gstats *b)
{
	u64 total_load = 0, total_cap = 0, sds_avg;
	int g;

	if (b->cls == AUDIT_CLS_MISFIT)
		goto force;
	if (d->eas_balanced)
		return AUDIT_R_EAS;
	if (b->cls == AUDIT_CLS_ASYM || b->cls == AUDIT_CLS_IMBALANCED)
		goto force;
	if (audit_rank(d, l->cls) > audit_rank(d, b->cls))
		return AUDIT_R_LOCAL_CLASS;
	if (l->cls == AUDIT_CLS_OVERLOADED) {
		for (g = 0; g < nr_groups; g++) {
			total_load += gs[g].load;
			total_cap += gs[g].capacity;
		}
		sds_avg = audit_div(total_load * AUDIT_CAP_SCALE, total_cap);
		if (l->avg_load >= b->avg_load || l->avg_load >= sds_avg ||
		    100 * b->avg_load <= (u64)d->imbalance_pct * l->avg_load)
			return AUDIT_R_LOCAL_LOAD;
	}
	if ((d->flags & AUDIT_SD_PREFER_SIBLING) && l->cls == AUDIT_CLS_HAS_SPARE &&
	    b->sum_nr_running > l->sum_nr_running + 1)
		goto force;
	if (b->cls != AUDIT_CLS_OVERLOADED && idle != AUDIT_CPU_NOT_IDLE) {
		if (b->weight > 1 && l->idle_cpus <= b->idle_cpus + 1)
			return AUDIT_R_IDLE_CPUS;
		if (b->sum_h_nr_running == 1)
			return AUDIT_R_SINGLE_TASK;
	}
force:
	return audit_imbalance(d, gs, nr_groups, l, b) ? AUDIT_R_NONE : AUDIT_R_IMBALANCE_ZERO;
}

/* The reason of a judged wrong or missed verdict (docs/debugfs.md "lb reasons"). */
static int audit_reason(const struct audit_domain *d, const struct audit_gstats *gs,
			int nr_groups, int idle, const struct audit_result *res)
{
	int g, local = -1, p = res->kernel_pick, r;

	for (g = 0; g < nr_groups; g++)
		if (gs[g].local) {
			local = g;
			break;
		}
	if (res->verdict == AUDIT_WRONG) {
		for (g = 0; g < nr_groups; g++)
			if (!gs[g].local && gs[g].work == SHADOW_WORK_YES &&
			    !audit_outranks(d, gs, p, g))
				return AUDIT_R_UNEXPLAINED;
		if (gs[p].cls == AUDIT_CLS_MISFIT)
			return AUDIT_R_ACTIVE_MISFIT;
		if (gs[p].cls == AUDIT_CLS_ASYM)
			return AUDIT_R_ACTIVE_ASYM;
		/* prefer_sibling forces the balance of a group that is not
		 * overloaded (find_busiest_group() would otherwise stop at the
		 * idle-CPU rules): the kernel spreads running tasks */
		if (local >= 0 && (d->flags & AUDIT_SD_PREFER_SIBLING) &&
		    gs[local].cls == AUDIT_CLS_HAS_SPARE &&
		    audit_rank(d, gs[p].cls) <= audit_rank(d, AUDIT_CLS_FULLY_BUSY) &&
		    gs[p].sum_nr_running > gs[local].sum_nr_running + 1)
			return AUDIT_R_ACTIVE_PREFER_SIBLING;
		return AUDIT_R_CLASS_HAS_SPARE + gs[p].cls;
	}
	/* missed */
	if (local < 0 || res->model_pick < 0)
		return AUDIT_R_UNEXPLAINED;
	r = audit_balanced_reason(d, gs, nr_groups, idle, &gs[local], &gs[res->model_pick]);
	return r == AUDIT_R_NONE ? AUDIT_R_UNEXPLAINED : r;
}

/**
 * audit_judge() - judge one find_busiest_group() call
 * @dom:         domain-wide inputs of the kernel's rules
 * @groups:      the domain's groups in the kernel's visiting order (from
 *               sd->groups), CPUs already restricted to env->cpus
 * @nr_groups:   number of entries in @groups (and @gs)
 * @cpus:        CPU records the groups index into
 * @nr_cpus:     number of entries in @cpus
 * @idle_type:   destination idle type (enum audit_idle_type values)
 * @kernel_pick: index of the group the kernel returned, -1 for NULL
 * @gs:          [@nr_groups] filled with each group's recomputed statistics
 * @res:         filled in completely
 *
 * The verdict is AUDIT_BUSY for a busy destination.  Otherwise, in this
 * order: VOID if a CPU of the domain has no fresh readable state; RIGHT if
 * the picked group has a CPU whose waiters can go to the destination
 * (work YES); VOID (work_unknown) if a non-local CPU's answer is unknown;
 * NONE if no non-local group has work; MISSED if nothing was picked; else
 * WRONG.  A pick of the local group (should not happen) is judged by the
 * same rules and flagged AUDIT_F_PICKED_LOCAL.  Wrong and missed verdicts
 * get their reason from the kernel model (audit_reason()).
 *
 * Tracker picks and outcomes are computed for every call, busy ones
 * included; the glue only counts them for judged calls.
 *
 * Bad input never makes this read outside the arrays: an out-of-range
 * @kernel_pick is judged as -1 (AUDIT_F_BAD_PICK), an unknown @idle_type as
 * busy (AUDIT_F_BAD_IDLE), and a group range outside @cpus is clipped
 * (AUDIT_F_BAD_GROUP).  A capacity sum of 0 is taken as 1.
 *
 * Cost: O(nr_groups^2 + nr_cpus) (the wrong reason compares the pick with
 * every group that has work).
 */
void audit_judge(const struct audit_domain *dom,
		 const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick,
		 struct audit_gstats *gs, struct audit_result *res)
{
	struct audit_best best[AUDIT_NR_TRACKERS];
	bool unknown_work = false;
	int g, t, void_reason = 0, model = -1;
	u32 pct = dom->imbalance_pct ? dom->imbalance_pct : 117;

	if (nr_groups < 0)
		nr_groups = 0;
	if (nr_cpus < 0)
		nr_cpus = 0;

	res->idle_type = idle_type;
	res->flags = 0;
	res->nonlocal_work = false;
	res->kernel_pick = kernel_pick;
	res->reason = AUDIT_R_NONE;
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
		struct audit_gstats *st = &gs[g];
		u64 sum[AUDIT_NR_TRACKERS] = { 0 };
		u64 cap = 0;
		bool has_work;
		int first = grp->first, nr = grp->nr, i;

		if (first < 0 || nr < 0 || first > nr_cpus ||
		    nr > nr_cpus - first) {
			res->flags |= AUDIT_F_BAD_GROUP;
			if (first < 0 || nr < 0 || first >= nr_cpus)
				nr = 0;
			else
				nr = nr_cpus - first;
		}

		*st = (struct audit_gstats){ .local = grp->local, .imbalanced = grp->imbalanced,
					     .work = SHADOW_WORK_NO };
		for (i = first; i < first + nr; i++) {
			const struct audit_cpu *c = &cpus[i];

			cap = audit_add_sat(cap, c->capacity);
			if (!c->valid || c->void_reason) {
				if (!void_reason)
					void_reason = c->void_reason ? c->void_reason : 1;
				continue;
			}
			if (c->work == SHADOW_WORK_YES)
				st->work = SHADOW_WORK_YES;
			else if (c->work == SHADOW_WORK_UNKNOWN && st->work == SHADOW_WORK_NO)
				st->work = SHADOW_WORK_UNKNOWN;
			st->load = audit_add_sat(st->load, c->load_avg);
			st->util = audit_add_sat(st->util, c->util_avg);
			st->runnable = audit_add_sat(st->runnable, c->runnable_avg);
			st->sum_nr_running += c->nr_running;
			st->sum_h_nr_running += c->h_nr_running;
			if (!c->nr_running) {
				st->idle_cpus++;
				continue;
			}
			/* sched_reduced_capacity(): a lone CFS task on a CPU that
			 * RT/IRQ pressure leaves < 100/pct of its capacity
			 * (capacity_orig taken as 1024: symmetric CPUs) */
			if (!grp->local && !(dom->flags & AUDIT_SD_ASYM_CAPACITY) &&
			    idle_type != AUDIT_CPU_NOT_IDLE && c->h_nr_running == 1 &&
			    c->capacity * pct < AUDIT_CAP_SCALE * 100 &&
			    st->misfit_load < c->load_avg)
				st->misfit_load = c->load_avg;
		}
		for (i = first; i < first + nr; i++) {
			if (!cpus[i].valid || cpus[i].void_reason)
				continue;
			for (t = 0; t < AUDIT_NR_TRACKERS; t++)
				sum[t] = audit_add_sat(sum[t], audit_cpu_metric(&cpus[i], t));
		}
		if (!cap)
			cap = 1;
		st->weight = grp->weight ? grp->weight : (u32)nr;
		st->capacity = grp->capacity ? grp->capacity : cap;
		st->cls = audit_classify(dom, pct, idle_type, st);
		if (st->cls == AUDIT_CLS_OVERLOADED)
			st->avg_load = audit_div(st->load * AUDIT_CAP_SCALE, st->capacity);
		has_work = st->work == SHADOW_WORK_YES;

		if (grp->local || !nr)
			continue;
		if (has_work)
			res->nonlocal_work = true;
		if (st->work == SHADOW_WORK_UNKNOWN)
			unknown_work = true;

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

	/* the kernel model's pick: update_sd_pick_busiest() in visiting order */
	for (g = 0; g < nr_groups; g++) {
		if (gs[g].local || !gs[g].sum_h_nr_running)
			continue;
		if (model < 0 || audit_beats(dom, &gs[g], &gs[model]))
			model = g;
	}
	res->model_pick = model;

	if (res->kernel_pick >= 0 && groups[res->kernel_pick].local)
		res->flags |= AUDIT_F_PICKED_LOCAL;

	if (idle_type == AUDIT_CPU_NOT_IDLE || (res->flags & AUDIT_F_BAD_IDLE)) {
		res->verdict = AUDIT_BUSY;
	} else if (void_reason) {
		res->verdict = AUDIT_VOID;
		res->reason = AUDIT_R_VOID_NEVER + void_reason - 1;
		if (res->reason > AUDIT_R_VOID_UNREADABLE)
			res->reason = AUDIT_R_VOID_UNREADABLE;
	} else if (res->kernel_pick >= 0 && gs[res->kernel_pick].work == SHADOW_WORK_YES &&
		   (res->nonlocal_work || !gs[res->kernel_pick].local)) {
		res->verdict = AUDIT_RIGHT;
	} else if (unknown_work) {
		res->verdict = AUDIT_VOID;
		res->reason = AUDIT_R_VOID_WORK_UNKNOWN;
	} else if (!res->nonlocal_work) {
		res->verdict = AUDIT_NONE;
		res->reason = AUDIT_R_NO_WORK;
	} else {
		res->verdict = res->kernel_pick < 0 ? AUDIT_MISSED : AUDIT_WRONG;
		res->reason = audit_reason(dom, gs, nr_groups, idle_type, res);
	}

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
