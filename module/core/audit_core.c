// SPDX-License-Identifier: GPL-2.0
/*
 * audit_core: the verdict on one find_busiest_group() call and the picks
 * of the alternative trackers (see "Vocabulary" in docs/design.md).
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
 * that the metrics are compared on equal terms (docs/interpreting.md, "The
 * trackers", says why; the KERNEL tracker is load_avg under that ratio model,
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

#define AUDIT_RULE_NAME(id, name, doc) [AUDIT_RULE_BIT_##id] = name,
const char * const audit_rule_name[AUDIT_NR_RULES] = {
	AUDIT_RULES(AUDIT_RULE_NAME)
};

#define AUDIT_RULE_DOC(id, name, doc) [AUDIT_RULE_BIT_##id] = doc,
const char * const audit_rule_doc[AUDIT_NR_RULES] = {
	AUDIT_RULES(AUDIT_RULE_DOC)
};

#define AUDIT_CAUSE_NAME(id, name, doc) [AUDIT_CAUSE_##id] = name,
const char * const audit_cause_name[AUDIT_NR_CAUSES] = {
	AUDIT_CAUSES(AUDIT_CAUSE_NAME)
};

#define AUDIT_KNOWN_NAME(id, name, doc) [AUDIT_KNOWN_##id] = name,
const char * const audit_known_name[AUDIT_NR_KNOWN_RULES] = {
	AUDIT_KNOWN_RULES(AUDIT_KNOWN_NAME)
};

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
	d->eas_present = false;
	d->rules = AUDIT_RULES_6_1;
	d->dst_capacity = AUDIT_CAP_SCALE;
	d->dst_core_idle = true;
	for (i = 0; i < AUDIT_NR_CLASSES; i++)
		d->rank[i] = rank61[i];
}

const char * const audit_class_btf_name[AUDIT_NR_CLASSES] = {
	[AUDIT_CLS_HAS_SPARE]	= "group_has_spare",
	[AUDIT_CLS_FULLY_BUSY]	= "group_fully_busy",
	[AUDIT_CLS_MISFIT]	= "group_misfit_task",
	[AUDIT_CLS_SMT_BALANCE]	= "group_smt_balance",
	[AUDIT_CLS_ASYM]	= "group_asym_packing",
	[AUDIT_CLS_IMBALANCED]	= "group_imbalanced",
	[AUDIT_CLS_LLC_BALANCE]	= "group_llc_balance",
	[AUDIT_CLS_OVERLOADED]	= "group_overloaded",
};

static bool audit_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int audit_ranks_from_enum(s8 *rank, const char *const *names, const s64 *values, int n)
{
	int c, i, unknown = 0;
	u32 seen = 0;

	for (c = 0; c < AUDIT_NR_CLASSES; c++)
		rank[c] = -1;
	for (i = 0; i < n; i++) {
		for (c = 0; c < AUDIT_NR_CLASSES; c++)
			if (names[i] && audit_streq(names[i], audit_class_btf_name[c]))
				break;
		if (c == AUDIT_NR_CLASSES) {
			unknown++;
			continue;
		}
		if (values[i] < 0 || values[i] >= AUDIT_NR_CLASSES || (seen & (1u << values[i])))
			return -1;
		seen |= 1u << values[i];
		rank[c] = (s8)values[i];
	}
	return unknown;
}

void audit_eas_state(struct audit_domain *d, bool pd, u32 overutilized)
{
	d->eas_present = pd;
	d->eas_balanced = pd && !overutilized;
}

bool audit_dst_core_idle(bool smt_active, int dst, const int *sibling, const bool *sibling_idle,
			 int n)
{
	int i;

	if (!smt_active)
		return true;
	for (i = 0; i < n; i++)
		if (sibling[i] != dst && !sibling_idle[i])
			return false;
	return true;
}

static int audit_rank(const struct audit_domain *d, int cls)
{
	return d->rank[cls];
}

static u64 audit_div(u64 a, u64 b)
{
	return b ? div64_u64(a, b) : 0;
}

/* capacity_greater(): @a is more than about 5 % above @b */
static bool audit_cap_greater(u64 a, u64 b)
{
	return a * 1024 > b * 1078;
}

/* fits_capacity() of 5.10: @cap is below about 80 % of @max */
static bool audit_fits_capacity(u64 cap, u64 max)
{
	return cap * 1280 < max * 1024;
}

/* cpu_util_cfs(): min(max(util_avg, util_est), capacity_orig) */
static u64 audit_cpu_util(const struct audit_cpu *c)
{
	u64 u = c->util_avg > c->util_est ? c->util_avg : c->util_est;
	u64 orig = c->capacity_orig ? c->capacity_orig : AUDIT_CAP_SCALE;

	return u < orig ? u : orig;
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
 * group_is_overloaded(): with an energy model (7.2+), only a group with an
 * overutilized CPU; the model takes every CPU as overutilized unless
 * audit_explain() says otherwise (AUDIT_GA_NOT_OU).
 */
static bool audit_overloaded(const struct audit_domain *d, u32 pct, u8 assume,
			     const struct audit_gstats *g)
{
	if ((d->rules & AUDIT_RULE_EAS_OVERLOAD) && d->eas_present && (assume & AUDIT_GA_NOT_OU))
		return false;
	return audit_is_overloaded(pct, g);
}

/*
 * update_sg_lb_stats()'s asym_packing mark for non-local group @g (@l the
 * local group's statistics, NULL if none), with the CPU priorities not
 * read: dst is taken as preferred to every group (sched_asym_prefer(dst,
 * sg->asym_prefer_cpu) true) unless audit_explain() says otherwise.
 */
static bool audit_asym(const struct audit_domain *d, int idle, u8 assume,
		       const struct audit_gstats *g, const struct audit_gstats *l)
{
	int busy, lbusy;

	if (!(d->flags & AUDIT_SD_ASYM_PACKING) || g->local || idle == AUDIT_CPU_NOT_IDLE ||
	    !g->sum_h_nr_running || (assume & AUDIT_GA_NOT_ASYM))
		return false;
	busy = (int)(g->weight - g->idle_cpus);
	if (d->rules & AUDIT_RULE_ASYM_CORE_IDLE) {
		/* sched_group_asym(): priorities mean nothing for an SMT core with more than one busy */
		if (g->smt && busy != 1)
			return false;
		/* sched_use_asym_prio(): !sched_smt_active() || SMT domain || is_core_idle(dst) */
		return (d->flags & AUDIT_SD_SHARE_CPUCAPACITY) || d->dst_core_idle;
	}
	if ((d->rules & AUDIT_RULE_ASYM_SMT) && ((l && l->smt) || g->smt)) {
		/* asym_smt_can_pull_tasks() */
		if (!l || !l->smt)
			return true;	/* busy >= 2, or dst's priority */
		if (g->smt) {
			lbusy = (int)(l->weight - l->idle_cpus);
			return busy - lbusy == 1;
		}
		return !l->sum_nr_running;
	}
	return true;
}

/*
 * group_classify() in the order of the kernel's rule set.  The
 * asym_packing, smt_balance and llc_balance marks are made here from what
 * update_sg_lb_stats() tests (audit_asym(); llc_balance only where
 * audit_explain() assumes it: the kernel's LLC preferences are not read).
 */
static int audit_classify(const struct audit_domain *d, u32 pct, int idle, u8 assume,
			  const struct audit_gstats *g, const struct audit_gstats *l)
{
	if (audit_overloaded(d, pct, assume, g))
		return AUDIT_CLS_OVERLOADED;
	if ((assume & AUDIT_GA_LLC) && !g->local && audit_rank(d, AUDIT_CLS_LLC_BALANCE) >= 0)
		return AUDIT_CLS_LLC_BALANCE;
	if (g->imbalanced)
		return AUDIT_CLS_IMBALANCED;
	if (audit_asym(d, idle, assume, g, l))
		return AUDIT_CLS_ASYM;
	if ((d->rules & AUDIT_RULE_SMT_BALANCE) && audit_rank(d, AUDIT_CLS_SMT_BALANCE) >= 0 &&
	    !g->local && idle != AUDIT_CPU_NOT_IDLE && g->smt && g->sum_h_nr_running > 1)
		return AUDIT_CLS_SMT_BALANCE;
	if (g->misfit_load)
		return AUDIT_CLS_MISFIT;
	if (!audit_has_capacity(pct, g))
		return AUDIT_CLS_FULLY_BUSY;
	return AUDIT_CLS_HAS_SPARE;
}

int audit_group_stats(const struct audit_domain *d, const struct audit_group *grp,
		      const struct audit_cpu *cpus, int nr_cpus, int idle,
		      const struct audit_gstats *local, struct audit_gstats *st)
{
	u32 pct = d->imbalance_pct ? d->imbalance_pct : 117;
	int i, void_reason = 0, first = grp->first, nr = grp->nr;
	u64 cap = 0;

	if (first < 0 || nr < 0 || first >= nr_cpus)
		nr = 0;
	else if (nr > nr_cpus - first)
		nr = nr_cpus - first;
	*st = (struct audit_gstats){ .local = grp->local, .imbalanced = grp->imbalanced,
				     .work = SHADOW_WORK_NO, .smt = grp->flags & AUDIT_SG_SMT,
				     .prefer_sibling = grp->flags & AUDIT_SG_PREFER_SIBLING,
				     .cores = grp->cores, .stale = grp->stale,
				     .min_capacity = grp->min_capacity,
				     .max_capacity = grp->max_capacity };
	for (i = first; i < first + nr; i++) {
		const struct audit_cpu *c = &cpus[i];
		u64 orig = c->capacity_orig ? c->capacity_orig : AUDIT_CAP_SCALE;

		cap = audit_add_sat(cap, c->capacity);
		st->stale |= c->stale;
		if (!c->valid || c->void_reason) {
			if (!void_reason)
				void_reason = c->void_reason ? c->void_reason : 1;
		} else if (c->work == SHADOW_WORK_YES) {
			st->work = SHADOW_WORK_YES;
		} else if (c->work == SHADOW_WORK_UNKNOWN && st->work == SHADOW_WORK_NO) {
			st->work = SHADOW_WORK_UNKNOWN;
		}
		/* update_sg_lb_stats(): the kernel's inputs, read live */
		st->load = audit_add_sat(st->load, c->load_avg);
		st->util = audit_add_sat(st->util, audit_cpu_util(c));
		st->runnable = audit_add_sat(st->runnable, c->runnable_avg);
		st->sum_nr_running += c->nr_running;
		st->sum_h_nr_running += c->h_nr_running;
		st->llc_pref += c->llc_pref;
		if (!c->nr_running && c->idle) {
			st->idle_cpus++;
			continue;
		}
		if (grp->local)
			continue;
		if (d->flags & AUDIT_SD_ASYM_CAPACITY) {
			if (c->misfit_task_load && st->misfit_load < c->misfit_task_load &&
			    (!(d->rules & AUDIT_RULE_MISFIT_DST_CAPACITY) ||
			     audit_cap_greater(d->dst_capacity ? d->dst_capacity : AUDIT_CAP_SCALE,
					       grp->max_capacity)))
				st->misfit_load = c->misfit_task_load;
		} else if (idle != AUDIT_CPU_NOT_IDLE && (d->rules & AUDIT_RULE_REDUCED_CAPACITY) &&
			   c->h_nr_running == 1 && c->capacity * pct < orig * 100 &&
			   st->misfit_load < c->load_avg) {
			/* sched_reduced_capacity(): check_cpu_capacity() */
			st->misfit_load = c->load_avg;
		}
	}
	if (!cap)
		cap = 1;
	st->weight = grp->weight ? grp->weight : (u32)nr;
	st->capacity = grp->capacity ? grp->capacity : cap;
	st->cls = audit_classify(d, pct, idle, grp->assume, st, local);
	if (st->cls == AUDIT_CLS_OVERLOADED)
		st->avg_load = audit_div(st->load * AUDIT_CAP_SCALE, st->capacity);
	return void_reason;
}

/* smt_vs_nonsmt_groups() */
static bool audit_smt_vs_nonsmt(const struct audit_gstats *a, const struct audit_gstats *b)
{
	return a && b && a->smt != b->smt;
}

/*
 * update_sd_pick_busiest(): would candidate @a replace the current busiest
 * @b (NULL: none yet, the kernel's init_sd_lb_stats() values)?  @l is the
 * local group's statistics (NULL: none).
 */
static bool audit_beats(const struct audit_domain *d, const struct audit_gstats *a,
			const struct audit_gstats *b, const struct audit_gstats *l)
{
	static const struct audit_gstats none = { .cls = AUDIT_CLS_HAS_SPARE, .idle_cpus = ~0u };
	const struct audit_gstats *bb = b ? b : &none;
	u64 dst_cap = d->dst_capacity ? d->dst_capacity : AUDIT_CAP_SCALE;
	bool asym_cap = d->flags & AUDIT_SD_ASYM_CAPACITY;
	bool cap_local = d->rules & AUDIT_RULE_CAPACITY_LOCAL;
	bool cap_filter = asym_cap && audit_rank(d, a->cls) <= audit_rank(d, AUDIT_CLS_FULLY_BUSY) &&
			  (cap_local ? l && audit_fits_capacity(l->min_capacity, a->min_capacity) :
			   audit_cap_greater(a->min_capacity, dst_cap));
	int ra = audit_rank(d, a->cls), rb = audit_rank(d, bb->cls);

	if (!a->sum_h_nr_running)
		return false;
	/*
	 * misfit tasks we cannot help: 5.10 compares the group's max_capacity
	 * with the local group's (group_smaller_max_cpu_capacity()), 6.1+ the
	 * destination CPU's capacity and whether its core is idle
	 */
	if (cap_local && a->cls == AUDIT_CLS_MISFIT &&
	    (!l || !audit_fits_capacity(a->max_capacity, l->max_capacity) ||
	     l->cls != AUDIT_CLS_HAS_SPARE))
		return false;
	if (!cap_local && asym_cap && a->cls == AUDIT_CLS_MISFIT &&
	    (!d->dst_core_idle || !audit_cap_greater(dst_cap, a->max_capacity) ||
	     !l || l->cls != AUDIT_CLS_HAS_SPARE))
		return false;
	if ((d->rules & AUDIT_RULE_CAPACITY_FIRST) && cap_filter)
		return false;
	if (ra != rb)
		return ra > rb;
	switch (a->cls) {
	case AUDIT_CLS_OVERLOADED:
		if (a->avg_load <= bb->avg_load)
			return false;
		break;
	case AUDIT_CLS_MISFIT:
		if (d->rules & AUDIT_RULE_MISFIT_TIE_FIRST ? a->misfit_load <= bb->misfit_load :
		    a->misfit_load < bb->misfit_load)
			return false;
		break;
	case AUDIT_CLS_SMT_BALANCE:
	case AUDIT_CLS_FULLY_BUSY:
		/* smt_balance with an idle CPU on either side compares as has_spare */
		if (a->cls == AUDIT_CLS_SMT_BALANCE && (a->idle_cpus || bb->idle_cpus))
			goto has_spare;
		/* avg_load is 0 unless overloaded: a tie */
		if (a->avg_load < bb->avg_load)
			return false;
		if (a->avg_load == bb->avg_load &&
		    (!(d->rules & AUDIT_RULE_FULLY_BUSY_LATER) || (b && b->smt)))
			return false;
		break;
	case AUDIT_CLS_HAS_SPARE:
		if ((d->rules & AUDIT_RULE_SMT_BALANCE) && audit_smt_vs_nonsmt(b, a))
			return !(a->smt && a->sum_h_nr_running <= 1);
has_spare:
		if (a->idle_cpus > bb->idle_cpus)
			return false;
		if (a->idle_cpus == bb->idle_cpus && a->sum_nr_running <= bb->sum_nr_running)
			return false;
		break;
	case AUDIT_CLS_LLC_BALANCE:
		/* update_llc_busiest(): more tasks preferring dst's LLC */
		return a->llc_pref > bb->llc_pref;
	default:	/* imbalanced: the first; asym: priorities not read, the first */
		return false;
	}
	if (!(d->rules & AUDIT_RULE_CAPACITY_FIRST) && cap_filter)
		return false;
	return true;
}

/* sibling_imbalance() (6.6+) */
static u64 audit_sibling_imbalance(int idle, const struct audit_gstats *b,
				   const struct audit_gstats *l)
{
	u64 nb = b->cores ? b->cores : b->weight, nl = l->cores ? l->cores : l->weight, imb;

	if (idle == AUDIT_CPU_NOT_IDLE || !b->sum_nr_running)
		return 0;
	if (nb == nl)
		return b->sum_nr_running > l->sum_nr_running ?
		       b->sum_nr_running - l->sum_nr_running : 0;
	imb = nl * b->sum_nr_running;
	imb = imb > nb * l->sum_nr_running ? imb - nb * l->sum_nr_running : 0;
	imb = audit_div(2 * imb + nl + nb, nl + nb);
	if (imb <= 1 && !l->sum_nr_running && b->sum_nr_running > 1)
		imb = 2;
	return imb;
}

/* calculate_imbalance() for busiest @b and local @l; u64 wraps like unsigned long. */
static u64 audit_imbalance(const struct audit_domain *d, const struct audit_gstats *gs,
			   int nr_groups, int idle, bool prefer_sibling,
			   const struct audit_gstats *l, const struct audit_gstats *b)
{
	u64 total_load = 0, total_cap = 0, sds_avg, l_avg, x, y, imb;
	int g;

	if (b->cls == AUDIT_CLS_MISFIT)
		return (d->flags & AUDIT_SD_ASYM_CAPACITY) ? 1 : b->misfit_load;
	if (b->cls == AUDIT_CLS_ASYM)
		return b->sum_h_nr_running;
	if (b->cls == AUDIT_CLS_SMT_BALANCE || b->cls == AUDIT_CLS_LLC_BALANCE ||
	    b->cls == AUDIT_CLS_IMBALANCED)
		return 1;
	if (l->cls == AUDIT_CLS_HAS_SPARE) {
		if (audit_rank(d, b->cls) > audit_rank(d, AUDIT_CLS_FULLY_BUSY) &&
		    !(d->flags & AUDIT_SD_SHARE_LLC)) {
			imb = (l->capacity > l->util ? l->capacity : l->util) - l->util;
			return !imb && idle != AUDIT_CPU_NOT_IDLE ? 1 : imb;
		}
		if (d->rules & AUDIT_RULE_NUMA_BUSIEST_NR) {
			/* 5.10: halve first, then the NUMA rule on the busiest's tasks */
			if (b->weight == 1 || prefer_sibling)
				imb = (b->sum_nr_running > l->sum_nr_running ?
				       b->sum_nr_running - l->sum_nr_running : 0) >> 1;
			else	/* unsigned int difference: wraps when local has fewer idle CPUs */
				imb = (u32)(l->idle_cpus - b->idle_cpus) >> 1;
			if ((d->flags & AUDIT_SD_NUMA) && b->sum_nr_running <= AUDIT_NUMA_IMB_MIN)
				imb = 0;
			return imb;
		}
		if ((b->weight == 1 || prefer_sibling) && (d->rules & AUDIT_RULE_SIBLING_IMBALANCE))
			imb = audit_sibling_imbalance(idle, b, l);
		else if (b->weight == 1 || prefer_sibling)
			imb = b->sum_nr_running > l->sum_nr_running ?
			      b->sum_nr_running - l->sum_nr_running : 0;
		else
			/*
			 * max_t(long, 0, local->idle_cpus - busiest->idle_cpus):
			 * an unsigned int difference, so fewer idle CPUs in the
			 * local group wrap to ~4e9, not 0 (reachable when the
			 * busiest is overloaded in an SD_SHARE_LLC domain)
			 */
			imb = (u32)(l->idle_cpus - b->idle_cpus);
		/*
		 * adjust_numa_imbalance(int imbalance, local nr + 1, imb_numa_nr):
		 * the long goes through an int (a wrapped value is negative there)
		 */
		if (d->flags & AUDIT_SD_NUMA) {
			s64 i = (s32)(u32)imb;

			if (l->sum_nr_running + 1 <= d->imb_numa_nr && i <= AUDIT_NUMA_IMB_MIN)
				i = 0;
			imb = (u64)i;
		}
		/* env->imbalance >>= 1 on a long */
		return (u64)((s64)imb >> 1);
	}
	for (g = 0; g < nr_groups; g++) {
		total_load += gs[g].load;
		total_cap += gs[g].capacity;
	}
	/*
	 * sds->avg_load is computed here, or by find_busiest_group() for an
	 * overloaded local group; otherwise (a class ranked above overloaded
	 * in BTF's enum) it stays 0
	 */
	sds_avg = 0;
	l_avg = l->avg_load;
	if (audit_rank(d, l->cls) < audit_rank(d, AUDIT_CLS_OVERLOADED)) {
		l_avg = audit_div(l->load * AUDIT_CAP_SCALE, l->capacity);
		if (l_avg >= b->avg_load)
			return 0;
		sds_avg = audit_div(total_load * AUDIT_CAP_SCALE, total_cap);
		if (l_avg >= sds_avg)
			return 0;
	} else if (l->cls == AUDIT_CLS_OVERLOADED) {
		sds_avg = audit_div(total_load * AUDIT_CAP_SCALE, total_cap);
	}
	x = (b->avg_load - sds_avg) * b->capacity;
	y = (sds_avg - l_avg) * l->capacity;
	return div64_u64(x < y ? x : y, AUDIT_CAP_SCALE);
}

/* The first local group's index, -1 if none. */
static int audit_local_of(const struct audit_group *groups, int nr_groups)
{
	int g;

	for (g = 0; g < nr_groups; g++)
		if (groups[g].local)
			return g;
	return -1;
}

void audit_model_run(const struct audit_domain *d, const struct audit_gstats *gs,
		     int nr_groups, int idle, struct audit_model *m)
{
	static const struct audit_gstats no_local = { .cls = AUDIT_CLS_HAS_SPARE, .local = true };
	const struct audit_gstats *l, *b;
	bool prefer_sibling;
	int g, forced;

	m->pick = -1;
	m->exit = AUDIT_R_NONE;
	m->busiest = -1;
	m->forced = AUDIT_R_NONE;
	m->imbalance = 0;
	m->local = -1;
	for (g = 0; g < nr_groups; g++)
		if (gs[g].local && m->local < 0)
			m->local = g;
	l = m->local >= 0 ? &gs[m->local] : &no_local;
	/* update_sd_lb_stats(): update_sd_pick_busiest() in visiting order */
	for (g = 0; g < nr_groups; g++) {
		if (gs[g].local)
			continue;
		if (audit_beats(d, &gs[g], m->busiest >= 0 ? &gs[m->busiest] : NULL,
				m->local >= 0 ? l : NULL))
			m->busiest = g;
	}
	b = m->busiest >= 0 ? &gs[m->busiest] : NULL;
	if (d->rules & AUDIT_RULE_PREFER_SIBLING_BUSIEST)
		prefer_sibling = b && b->prefer_sibling;
	else
		prefer_sibling = d->flags & AUDIT_SD_PREFER_SIBLING;

	/* find_busiest_group() */
	if ((d->rules & AUDIT_RULE_EAS_FIRST) && d->eas_balanced)
		goto balanced_eas;
	if (!b) {
		m->exit = AUDIT_R_NO_BUSIEST;
		return;
	}
	forced = AUDIT_R_CLASS_HAS_SPARE + b->cls;
	if (b->cls == AUDIT_CLS_MISFIT) {
		forced = AUDIT_R_ACTIVE_MISFIT;
		goto force;
	}
	if (d->eas_balanced)
		goto balanced_eas;
	if (b->cls == AUDIT_CLS_ASYM) {
		forced = AUDIT_R_ACTIVE_ASYM;
		goto force;
	}
	if (b->cls == AUDIT_CLS_IMBALANCED)
		goto force;
	if (audit_rank(d, l->cls) > audit_rank(d, b->cls)) {
		m->exit = AUDIT_R_LOCAL_CLASS;
		return;
	}
	if (l->cls == AUDIT_CLS_OVERLOADED) {
		u64 total_load = 0, total_cap = 0, sds_avg;

		for (g = 0; g < nr_groups; g++) {
			total_load += gs[g].load;
			total_cap += gs[g].capacity;
		}
		sds_avg = audit_div(total_load * AUDIT_CAP_SCALE, total_cap);
		if (l->avg_load >= b->avg_load || l->avg_load >= sds_avg ||
		    100 * b->avg_load <= (u64)(d->imbalance_pct ? d->imbalance_pct : 117) * l->avg_load) {
			m->exit = AUDIT_R_LOCAL_LOAD;
			return;
		}
	}
	/* 7.2+: an llc_balance busiest is always moved to a sibling domain */
	if (prefer_sibling && l->cls == AUDIT_CLS_HAS_SPARE &&
	    (b->cls == AUDIT_CLS_LLC_BALANCE ||
	     ((d->rules & AUDIT_RULE_SIBLING_IMBALANCE) ? audit_sibling_imbalance(idle, b, l) > 1 :
	      b->sum_nr_running > l->sum_nr_running + 1))) {
		if (b->cls != AUDIT_CLS_OVERLOADED)
			forced = AUDIT_R_ACTIVE_PREFER_SIBLING;
		goto force;
	}
	if (b->cls != AUDIT_CLS_OVERLOADED) {
		if (idle == AUDIT_CPU_NOT_IDLE) {
			m->exit = AUDIT_R_IDLE_CPUS;	/* a busy destination: never judged */
			return;
		}
		if ((d->rules & AUDIT_RULE_SMT_BALANCE) && b->cls == AUDIT_CLS_SMT_BALANCE &&
		    audit_smt_vs_nonsmt(m->local >= 0 ? l : NULL, b))
			goto force;
		if (b->weight > 1 && l->idle_cpus <= b->idle_cpus + 1) {
			m->exit = AUDIT_R_IDLE_CPUS;
			return;
		}
		if (b->sum_h_nr_running == 1) {
			m->exit = AUDIT_R_SINGLE_TASK;
			return;
		}
	}
force:
	m->imbalance = audit_imbalance(d, gs, nr_groups, idle, prefer_sibling, l, b);
	if (!m->imbalance) {
		m->exit = AUDIT_R_IMBALANCE_ZERO;
		return;
	}
	m->pick = m->busiest;
	m->forced = forced;
	return;
balanced_eas:
	m->exit = AUDIT_R_EAS;
}
void audit_model_flips(const struct audit_domain *d, const struct audit_gstats *gs,
		       int nr_groups, int idle, const struct audit_model *base,
		       int kernel_pick, u32 flip, u32 *differs, u32 *flip_agrees)
{
	struct audit_domain d2 = *d;
	struct audit_model m;
	int b;

	*differs = 0;
	*flip_agrees = 0;
	flip &= AUDIT_RULES_FLIPPABLE;
	for (b = 0; b < AUDIT_NR_RULES; b++) {
		if (!(flip & (1u << b)))
			continue;
		d2.rules = d->rules ^ (1u << b);
		audit_model_run(&d2, gs, nr_groups, idle, &m);
		if (m.pick == base->pick)
			continue;
		*differs |= 1u << b;
		if (m.pick == kernel_pick)
			*flip_agrees |= 1u << b;
	}
}

/**
 * audit_judge() - judge one find_busiest_group() call
 * @dom:         domain-wide inputs of the kernel's rules, rule set included
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
 * The kernel model (audit_model_run()) runs on every call, busy ones
 * included; @res->model_pick is its outcome and @res->cause says whether
 * it agrees with @kernel_pick (the same group, or both NULL) and if not,
 * why (audit_cause()).
 *
 * The verdict is AUDIT_BUSY for a busy destination.  Otherwise, in this
 * order: VOID if a CPU of the domain has no fresh readable published state;
 * RIGHT if the picked group has a CPU whose waiters can go to the
 * destination (work YES); VOID (work_unknown) if a non-local CPU's answer
 * is unknown; NONE if no non-local group has work; MISSED if nothing was
 * picked; else WRONG.  A pick of the local group (should not happen) is
 * judged by the same rules and flagged AUDIT_F_PICKED_LOCAL.
 *
 * Reasons: a wrong or missed verdict the model reproduces (cause AGREE)
 * gets the model's own: for wrong, the rule that forced the balance
 * (active_misfit, active_asym, active_prefer_sibling) or else the pick's
 * class; for missed, the balanced exit that fired.  One the model does not
 * reproduce is `unexplained` (its cause says why).
 *
 * Tracker picks and outcomes are computed for every call; the glue only
 * counts them for judged calls.
 *
 * Bad input never makes this read outside the arrays: an out-of-range
 * @kernel_pick is judged as -1 (AUDIT_F_BAD_PICK), an unknown @idle_type as
 * busy (AUDIT_F_BAD_IDLE), and a group range outside @cpus is clipped
 * (AUDIT_F_BAD_GROUP).  A capacity sum of 0 is taken as 1.
 *
 * Cost: O(nr_groups + nr_cpus).
 */
void audit_judge(const struct audit_domain *dom,
		 const struct audit_group *groups, int nr_groups,
		 const struct audit_cpu *cpus, int nr_cpus,
		 int idle_type, int kernel_pick,
		 struct audit_gstats *gs, struct audit_result *res)
{
	struct audit_best best[AUDIT_NR_TRACKERS];
	bool unknown_work = false;
	int g, t, void_reason = 0, model_idle, lg, lvr = 0;

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
	model_idle = res->flags & AUDIT_F_BAD_IDLE ? AUDIT_CPU_NOT_IDLE : idle_type;

	for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
		best[t].idx = -1;
		best[t].has_work = false;
		best[t].sum = 0;
		best[t].cap = 1;
	}

	/* the local group first: asym_packing's SMT rules read its statistics */
	lg = audit_local_of(groups, nr_groups);
	if (lg >= 0)
		lvr = audit_group_stats(dom, &groups[lg], cpus, nr_cpus, model_idle, NULL, &gs[lg]);
	for (g = 0; g < nr_groups; g++) {
		const struct audit_group *grp = &groups[g];
		struct audit_gstats *st = &gs[g];
		u64 sum[AUDIT_NR_TRACKERS] = { 0 };
		u64 cap = 0;
		int first = grp->first, nr = grp->nr, i, vr;

		if (first < 0 || nr < 0 || first > nr_cpus || nr > nr_cpus - first) {
			res->flags |= AUDIT_F_BAD_GROUP;
			if (first < 0 || nr < 0 || first >= nr_cpus)
				nr = 0;
			else
				nr = nr_cpus - first;
		}
		vr = g == lg ? lvr : audit_group_stats(dom, grp, cpus, nr_cpus, model_idle,
						       lg >= 0 ? &gs[lg] : NULL, st);
		if (vr && !void_reason)
			void_reason = vr;
		for (i = first; i < first + nr; i++) {
			cap = audit_add_sat(cap, cpus[i].capacity);
			if (!cpus[i].valid || cpus[i].void_reason)
				continue;
			for (t = 0; t < AUDIT_NR_TRACKERS; t++)
				sum[t] = audit_add_sat(sum[t], audit_cpu_metric(&cpus[i], t));
		}
		if (!cap)
			cap = 1;
		if (grp->local || !nr)
			continue;
		if (st->work == SHADOW_WORK_YES)
			res->nonlocal_work = true;
		if (st->work == SHADOW_WORK_UNKNOWN)
			unknown_work = true;

		/* Strictly greater: ties go to the lowest index. */
		for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
			if (!sum[t])
				continue;
			if (best[t].idx >= 0 &&
			    !audit_ratio_gt(sum[t], cap, best[t].sum, best[t].cap))
				continue;
			best[t].idx = g;
			best[t].has_work = st->work == SHADOW_WORK_YES;
			best[t].sum = sum[t];
			best[t].cap = cap;
		}
	}

	/* the kernel model's full outcome, and whether it is the kernel's */
	audit_model_run(dom, gs, nr_groups, model_idle, &res->model);
	res->model_pick = res->model.pick;
	res->either_picked = res->model_pick >= 0 || res->kernel_pick >= 0;
	res->known = AUDIT_KNOWN_NONE;
	res->runs = 0;
	/* a disagreement is unknown until audit_explain() finds why */
	res->cause = res->model_pick == res->kernel_pick ? AUDIT_CAUSE_AGREE : AUDIT_CAUSE_UNKNOWN;

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
	} else if (res->cause != AUDIT_CAUSE_AGREE) {
		res->verdict = res->kernel_pick < 0 ? AUDIT_MISSED : AUDIT_WRONG;
		res->reason = AUDIT_R_UNEXPLAINED;
	} else if (res->kernel_pick < 0) {
		res->verdict = AUDIT_MISSED;
		res->reason = res->model.exit;
	} else {
		res->verdict = AUDIT_WRONG;
		res->reason = res->model.forced;
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

/* ---- audit_explain() ---- */

/* Exchange the model inputs of CPU entry @c with the entry read @e (its own inverse). */
static void audit_swap_live(struct audit_cpu *c, struct audit_live *e)
{
	struct audit_live r = {
		.load = c->load_avg, .util = c->util_avg, .util_est = c->util_est,
		.runnable = c->runnable_avg, .capacity = c->capacity,
		.capacity_orig = c->capacity_orig, .misfit = c->misfit_task_load,
		.nr = c->nr_running, .h_nr = c->h_nr_running, .llc_pref = c->llc_pref,
		.idle = c->idle, .have = true,
	};

	c->load_avg = e->load;
	c->util_avg = e->util;
	c->util_est = e->util_est;
	c->runnable_avg = e->runnable;
	c->capacity = e->capacity;
	c->capacity_orig = e->capacity_orig;
	c->misfit_task_load = e->misfit;
	c->nr_running = e->nr;
	c->h_nr_running = e->h_nr;
	c->llc_pref = e->llc_pref;
	c->idle = e->idle;
	*e = r;
}

/* The state of one explanation. */
struct audit_ex {
	const struct audit_domain *d;
	struct audit_group *groups;
	struct audit_cpu *cpus;
	struct audit_live *entry;
	u64 *entry_sgc;
	struct audit_gstats *gs;
	int ng, nc, idle, lg, kp;
	u32 runs, budget;
};

/* Group @g's CPU range, clipped like audit_group_stats() does. */
static void audit_ex_range(const struct audit_ex *x, int g, int *first, int *nr)
{
	*first = x->groups[g].first;
	*nr = x->groups[g].nr;
	if (*first < 0 || *nr < 0 || *first >= x->nc)
		*nr = 0;
	else if (*nr > x->nc - *first)
		*nr = x->nc - *first;
}

/* Recompute group @g's statistics (all groups' if @g is the local one and asym_packing reads it). */
static void audit_ex_restat(struct audit_ex *x, int g)
{
	const struct audit_gstats *l = x->lg >= 0 ? &x->gs[x->lg] : NULL;
	int h;

	if (g != x->lg) {
		audit_group_stats(x->d, &x->groups[g], x->cpus, x->nc, x->idle, l, &x->gs[g]);
		return;
	}
	audit_group_stats(x->d, &x->groups[g], x->cpus, x->nc, x->idle, NULL, &x->gs[g]);
	if ((x->d->flags & AUDIT_SD_ASYM_PACKING) && (x->d->rules & AUDIT_RULE_ASYM_SMT))
		for (h = 0; h < x->ng; h++)
			if (h != g)
				audit_group_stats(x->d, &x->groups[h], x->cpus, x->nc, x->idle, l,
						  &x->gs[h]);
}

/* One model run on the statistics as they are: does it give the kernel's outcome? */
static bool audit_ex_run(struct audit_ex *x)
{
	struct audit_model m;

	x->runs++;
	audit_model_run(x->d, x->gs, x->ng, x->idle, &m);
	return m.pick == x->kp;
}

static bool audit_ex_room(const struct audit_ex *x)
{
	return x->runs < x->budget;
}

/* Group @g has inputs the entry read saw otherwise (and has them). */
static bool audit_ex_stale(const struct audit_ex *x, int g)
{
	int i, first, nr;

	if (x->groups[g].stale && x->entry_sgc)
		return true;
	if (!x->entry)
		return false;
	audit_ex_range(x, g, &first, &nr);
	for (i = first; i < first + nr; i++)
		if (x->cpus[i].stale && x->entry[i].have)
			return true;
	return false;
}

/* Swap group @g's stale inputs with the entry read (its own inverse); no restat. */
static void audit_ex_swap(struct audit_ex *x, int g)
{
	int i, first, nr;
	u64 t;

	if (x->groups[g].stale && x->entry_sgc) {
		t = x->groups[g].capacity;
		x->groups[g].capacity = x->entry_sgc[g];
		x->entry_sgc[g] = t;
	}
	if (!x->entry)
		return;
	audit_ex_range(x, g, &first, &nr);
	for (i = first; i < first + nr; i++)
		if (x->cpus[i].stale && x->entry[i].have)
			audit_swap_live(&x->cpus[i], &x->entry[i]);
}

/*
 * The model with the stale inputs of the groups in @only (-1: every stale
 * group) from the entry read: the kernel's outcome?
 */
static bool audit_ex_stale_run(struct audit_ex *x, int only)
{
	bool hit;
	int g;

	for (g = 0; g < x->ng; g++)
		if ((only < 0 || g == only) && audit_ex_stale(x, g)) {
			audit_ex_swap(x, g);
			audit_ex_restat(x, g);
		}
	hit = audit_ex_run(x);
	for (g = 0; g < x->ng; g++)
		if ((only < 0 || g == only) && audit_ex_stale(x, g)) {
			audit_ex_swap(x, g);
			audit_ex_restat(x, g);
		}
	return hit;
}

/*
 * The model with @bit assumed of every group whose membership of @set
 * (bit g of the groups @in, @n of them) is @in_set: the kernel's outcome?
 * @set lists group indices; a group is "in" when listed.
 */
static bool audit_ex_assume_run(struct audit_ex *x, u8 bit, bool nonlocal_only,
				const int *set, int n, bool mark_in)
{
	bool hit;
	int g, k, in;

	for (g = 0; g < x->ng; g++) {
		if (nonlocal_only && x->groups[g].local)
			continue;
		for (in = 0, k = 0; k < n; k++)
			in |= set[k] == g;
		if (!!in == mark_in) {
			x->groups[g].assume |= bit;
			audit_ex_restat(x, g);
		}
	}
	hit = audit_ex_run(x);
	for (g = 0; g < x->ng; g++) {
		if (!(x->groups[g].assume & bit))
			continue;
		x->groups[g].assume &= ~bit;
		audit_ex_restat(x, g);
	}
	return hit;
}

static bool audit_ex_known(struct audit_result *res, int rule)
{
	res->cause = AUDIT_CAUSE_KNOWN;
	res->known = rule;
	return true;
}

static bool audit_ex_llc(struct audit_ex *x, struct audit_result *res)
{
	const struct audit_domain *d = x->d;
	int kp = x->kp, g;

	if (!(d->rules & AUDIT_RULE_LLC_BALANCE) || (d->flags & AUDIT_SD_SHARE_LLC))
		return false;
	/* the kernel's pick is llc_balance; with no pick, each group with llc_pref in turn */
	for (g = kp >= 0 ? kp : 0; g < (kp >= 0 ? kp + 1 : x->ng); g++) {
		if (x->groups[g].local || !x->gs[g].llc_pref || !audit_ex_room(x))
			continue;
		if (audit_ex_assume_run(x, AUDIT_GA_LLC, true, &g, 1, true))
			return audit_ex_known(res, AUDIT_KNOWN_LLC_BALANCE);
	}
	return false;
}

static bool audit_ex_asym(struct audit_ex *x, struct audit_result *res)
{
	int kp = x->kp;

	if (!(x->d->flags & AUDIT_SD_ASYM_PACKING))
		return false;
	/* only the kernel's pick asym_packing */
	if (kp >= 0 && !x->groups[kp].local && audit_ex_room(x) &&
	    audit_ex_assume_run(x, AUDIT_GA_NOT_ASYM, true, &kp, 1, false))
		return audit_ex_known(res, AUDIT_KNOWN_ASYM_PACKING);
	/* no group asym_packing */
	if (audit_ex_room(x) && audit_ex_assume_run(x, AUDIT_GA_NOT_ASYM, true, NULL, 0, false))
		return audit_ex_known(res, AUDIT_KNOWN_ASYM_PACKING);
	return false;
}

/* The overutilized groups are exactly @set (@n of them): the kernel's outcome? */
static bool audit_ex_ou(struct audit_ex *x, struct audit_result *res, const int *set, int n)
{
	return audit_ex_room(x) && audit_ex_assume_run(x, AUDIT_GA_NOT_OU, false, set, n, false) &&
	       audit_ex_known(res, AUDIT_KNOWN_EAS_OVERUTILIZED);
}

static bool audit_ex_eas(struct audit_ex *x, struct audit_result *res)
{
	int kp = x->kp, lg = x->lg, g, set[2];

	if (!(x->d->rules & AUDIT_RULE_EAS_OVERLOAD) || !x->d->eas_present)
		return false;
	if (kp >= 0) {
		set[0] = kp;
		set[1] = lg;
		if (audit_ex_ou(x, res, set, lg >= 0 ? 2 : 1) || audit_ex_ou(x, res, set, 1) ||
		    audit_ex_ou(x, res, &lg, lg >= 0 ? 1 : 0) || audit_ex_ou(x, res, NULL, 0))
			return true;
		return false;
	}
	if (audit_ex_ou(x, res, NULL, 0) || (lg >= 0 && audit_ex_ou(x, res, &lg, 1)))
		return true;
	/* the kernel's busiest was one overloaded group: each in turn */
	for (g = 0; g < x->ng; g++) {
		if (x->groups[g].local || x->gs[g].cls != AUDIT_CLS_OVERLOADED)
			continue;
		set[0] = g;
		set[1] = lg;
		if ((lg >= 0 && audit_ex_ou(x, res, set, 2)) || audit_ex_ou(x, res, set, 1))
			return true;
	}
	return false;
}

void audit_explain(const struct audit_domain *dom, struct audit_group *groups, int nr_groups,
		   struct audit_cpu *cpus, int nr_cpus, struct audit_live *entry, u64 *entry_sgc,
		   struct audit_gstats *gs, struct audit_result *res)
{
	struct audit_ex x = {
		.d = dom, .groups = groups, .cpus = cpus, .entry = entry, .entry_sgc = entry_sgc,
		.gs = gs, .ng = nr_groups < 0 ? 0 : nr_groups, .nc = nr_cpus < 0 ? 0 : nr_cpus,
		.idle = res->idle_type, .kp = res->kernel_pick,
	};
	int g, stale = 0;

	res->runs = 0;
	if (res->cause == AUDIT_CAUSE_AGREE || (res->flags & AUDIT_F_BAD_MASK) ||
	    res->idle_type == AUDIT_CPU_NOT_IDLE)
		return;
	res->cause = AUDIT_CAUSE_UNKNOWN;
	res->known = AUDIT_KNOWN_NONE;
	x.budget = AUDIT_EXPLAIN_RUNS(x.ng);
	x.lg = audit_local_of(groups, x.ng);
	for (g = 0; g < x.ng; g++)
		stale += audit_ex_stale(&x, g);
	/* 1. stale: the entry read, then one stale group at a time from it */
	if (stale && audit_ex_stale_run(&x, -1))
		goto stale;
	for (g = 0; stale > 1 && g < x.ng && audit_ex_room(&x); g++)
		if (audit_ex_stale(&x, g) && audit_ex_stale_run(&x, g))
			goto stale;
	/* 2.-4. the rules the model lacks, each with its inputs flipped */
	if (!audit_ex_llc(&x, res) && !audit_ex_asym(&x, res))
		audit_ex_eas(&x, res);
	goto out;
stale:
	res->cause = AUDIT_CAUSE_STALE;
out:
	res->runs = x.runs;
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
