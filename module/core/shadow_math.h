/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure arithmetic of the shadow hierarchical runnable sum: the per-level
 * scaling of a group's sum into its parent, the clamps, and the
 * time-weighted divergence statistics.  Shared unchanged by the module and
 * the host unit tests (tests/unit/test_shadow_math.c); see
 * docs/design.md, "Vocabulary", for the formula.
 */
#ifndef SHADOW_CORE_MATH_H
#define SHADOW_CORE_MATH_H

#include <linux/types.h>

/*
 * Shadow sums are u64 fixed point with SHADOW_FP_SHIFT fractional bits, so
 * the rounding of one level does not compound through deep hierarchies.
 *
 * Bounds (no overflow for any weight the kernel can produce): a group
 * entity's weight is at most MAX_SHARES (2^18) and a task's at most 88761
 * (nice -20), both after scale_load_down.  A sum is saturated at
 * SHADOW_FP_MAX (2^44 fp = 2^34 load units, i.e. 190000 nice -20 tasks) and
 * a weight at SHADOW_WEIGHT_MAX (2^19) before they are multiplied, so the
 * product stays below 2^63.
 */
#define SHADOW_FP_SHIFT		10
#define SHADOW_FP_ONE		(1ULL << SHADOW_FP_SHIFT)
#define SHADOW_FP_MAX		(1ULL << 44)
#define SHADOW_WEIGHT_MAX	(1ULL << 19)
/* The kernel's load-weight resolution on 64-bit (SCHED_FIXEDPOINT_SHIFT). */
#define SHADOW_LOAD_SHIFT	10

u64 shadow_weight_down(u64 weight);
u64 shadow_to_fp(u64 load);
u64 shadow_fp_round(u64 fp);
u64 shadow_fp_add(u64 a, u64 b);
u64 shadow_group_contrib(u64 child_fp, u64 se_weight, u64 cfs_weight);
u64 shadow_h_load_scale(u64 h_load, u64 load_avg, u64 cfs_load_avg);

/*
 * Time-weighted statistics of shadow versus the kernel's load_avg on one CPU.
 * Each sample holds its value until the next one (sample and hold), so the
 * means are means over time, not over events.  Products are value x time in
 * units of 1024 ns; when a sum approaches 2^62 every sum and the time are
 * halved together, which keeps the means.
 */
struct shadow_divstat {
	u64 samples;
	u64 last_ns;		/* time of the last sample, 0 before the first */
	u64 last_shadow;	/* values held since last_ns */
	u64 last_real;
	u64 last_fresh;
	u64 last_h_load;
	u64 time;		/* total weight, 1024 ns units */
	u64 sum_shadow;
	u64 sum_real;
	u64 sum_fresh;
	u64 sum_h_load;
	u64 sum_absdiff;
	u64 max_absdiff;
};

/* One sample: the trackers of a published walk, load units. */
struct shadow_divsample {
	u64 shadow;
	u64 fresh;		/* shadow_fresh */
	u64 h_load;
	u64 real;		/* the kernel's root load_avg */
};

void shadow_divstat_add(struct shadow_divstat *d, u64 now_ns, const struct shadow_divsample *v);

struct shadow_divmeans {
	u64 shadow;
	u64 real;
	u64 absdiff;
	u64 fresh;
	u64 h_load;
};

void shadow_divstat_means(const struct shadow_divstat *d, struct shadow_divmeans *m);

#endif
