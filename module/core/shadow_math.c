// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow sum arithmetic (see shadow_math.h).  No allocation, no printing,
 * 64-bit division only through <linux/math64.h>.
 */
#include <linux/types.h>
#include <linux/math64.h>
#include "shadow_math.h"

#define SHADOW_SUM_LIMIT	(1ULL << 62)
#define SHADOW_VALUE_MAX	(1ULL << 30)
#define SHADOW_DT_MAX		(1ULL << 32)

/**
 * shadow_weight_down() - a load weight in the units load_avg uses
 * @weight: a kernel load.weight (scale_load()'d on 64-bit kernels)
 *
 * Mirrors scale_load_down(): a non-zero weight never becomes smaller than 2.
 */
u64 shadow_weight_down(u64 weight)
{
	if (!weight)
		return 0;
	weight >>= SHADOW_LOAD_SHIFT;
	return weight < 2 ? 2 : weight;
}

/** shadow_to_fp() - a load value in fixed point, saturated at SHADOW_FP_MAX */
u64 shadow_to_fp(u64 load)
{
	if (load >= SHADOW_FP_MAX >> SHADOW_FP_SHIFT)
		return SHADOW_FP_MAX;
	return load << SHADOW_FP_SHIFT;
}

/** shadow_fp_round() - a fixed-point value rounded to load units */
u64 shadow_fp_round(u64 fp)
{
	return (fp + SHADOW_FP_ONE / 2) >> SHADOW_FP_SHIFT;
}

/** shadow_fp_add() - saturating addition of two fixed-point sums */
u64 shadow_fp_add(u64 a, u64 b)
{
	u64 s = a + b;

	return (s < a || s > SHADOW_FP_MAX) ? SHADOW_FP_MAX : s;
}

/**
 * shadow_group_contrib() - what a group entity adds to its parent's sum
 * @child_fp:   the sum of the group's own cfs_rq (fixed point)
 * @se_weight:  w(G), the group entity's weight (scale_load_down units)
 * @cfs_weight: W(G.my_q), the group cfs_rq's load.weight (same units)
 *
 * Tejun Heo's PATCH 1/2 scaling: min(S * w / W, w).  A cfs_rq without
 * weight contributes nothing (it has nothing queued that could run).
 * Returns fixed point.
 */
u64 shadow_group_contrib(u64 child_fp, u64 se_weight, u64 cfs_weight)
{
	u64 cap;

	if (!cfs_weight || !se_weight || !child_fp)
		return 0;
	if (child_fp > SHADOW_FP_MAX)
		child_fp = SHADOW_FP_MAX;
	if (se_weight > SHADOW_WEIGHT_MAX)
		se_weight = SHADOW_WEIGHT_MAX;
	cap = se_weight << SHADOW_FP_SHIFT;
	/* S * w / W >= w  <=>  S >= W (in the same units): avoids the division */
	if (cfs_weight <= SHADOW_FP_MAX >> SHADOW_FP_SHIFT &&
	    child_fp >= cfs_weight << SHADOW_FP_SHIFT)
		return cap;
	return div64_u64(child_fp * se_weight, cfs_weight);
}

/**
 * shadow_h_load_scale() - one step of the kernel's h_load arithmetic
 * @h_load:       h_load of the cfs_rq the entity is queued on
 * @load_avg:     the entity's se->avg.load_avg
 * @cfs_load_avg: that cfs_rq's avg.load_avg
 *
 * update_cfs_rq_h_load() and task_h_load() compute, for a group entity's
 * own cfs_rq and for a task alike,
 * div64_ul(h_load * se->avg.load_avg, cfs_rq_load_avg(cfs_rq) + 1).
 * Values are load units (< 2^32 each), so the product fits 64 bits.
 * Return: the entity's share of @h_load.
 */
u64 shadow_h_load_scale(u64 h_load, u64 load_avg, u64 cfs_load_avg)
{
	if (h_load > SHADOW_VALUE_MAX)
		h_load = SHADOW_VALUE_MAX;
	if (load_avg > SHADOW_VALUE_MAX)
		load_avg = SHADOW_VALUE_MAX;
	return div64_u64(h_load * load_avg, cfs_load_avg + 1);
}

static u64 absdiff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/**
 * shadow_divstat_add() - account one sample of the trackers and real load
 * @d:      the statistics
 * @now_ns: time of this sample (any monotonic clock, ns)
 * @v:      shadow, shadow_fresh, h_load and the kernel's load_avg (load units)
 *
 * The previous sample's values are weighted by the time they were held.
 * A clock that went backwards adds no weight.
 */
void shadow_divstat_add(struct shadow_divstat *d, u64 now_ns, const struct shadow_divsample *v)
{
	u64 shadow = v->shadow > SHADOW_VALUE_MAX ? SHADOW_VALUE_MAX : v->shadow;
	u64 real = v->real > SHADOW_VALUE_MAX ? SHADOW_VALUE_MAX : v->real;
	u64 fresh = v->fresh > SHADOW_VALUE_MAX ? SHADOW_VALUE_MAX : v->fresh;
	u64 h_load = v->h_load > SHADOW_VALUE_MAX ? SHADOW_VALUE_MAX : v->h_load;

	if (d->last_ns && now_ns > d->last_ns) {
		u64 dt = (now_ns - d->last_ns) >> 10;
		u64 add_s, add_r, add_f, add_h, add_max;

		if (dt > SHADOW_DT_MAX)
			dt = SHADOW_DT_MAX;
		/* values <= 2^30 and dt <= 2^32: each product is <= 2^62 */
		add_s = d->last_shadow * dt;
		add_r = d->last_real * dt;
		add_f = d->last_fresh * dt;
		add_h = d->last_h_load * dt;
		add_max = add_s > add_r ? add_s : add_r;
		while (d->sum_shadow > SHADOW_SUM_LIMIT - add_s ||
		       d->sum_real > SHADOW_SUM_LIMIT - add_r ||
		       d->sum_fresh > SHADOW_SUM_LIMIT - add_f ||
		       d->sum_h_load > SHADOW_SUM_LIMIT - add_h ||
		       d->sum_absdiff > SHADOW_SUM_LIMIT - add_max ||
		       d->time > SHADOW_SUM_LIMIT - dt) {
			d->sum_shadow >>= 1;
			d->sum_real >>= 1;
			d->sum_fresh >>= 1;
			d->sum_h_load >>= 1;
			d->sum_absdiff >>= 1;
			d->time >>= 1;
		}
		d->time += dt;
		d->sum_shadow += add_s;
		d->sum_real += add_r;
		d->sum_fresh += add_f;
		d->sum_h_load += add_h;
		d->sum_absdiff += absdiff(d->last_shadow, d->last_real) * dt;
	}
	d->samples++;
	d->last_ns = now_ns;
	d->last_shadow = shadow;
	d->last_real = real;
	d->last_fresh = fresh;
	d->last_h_load = h_load;
	if (absdiff(shadow, real) > d->max_absdiff)
		d->max_absdiff = absdiff(shadow, real);
}

/**
 * shadow_divstat_means() - time-weighted means of the statistics
 * @d: the statistics
 * @m: out: means of shadow, real, abs(shadow - real), shadow_fresh and h_load
 *
 * Before any time has passed the last sample stands for the mean.
 */
void shadow_divstat_means(const struct shadow_divstat *d, struct shadow_divmeans *m)
{
	if (!d->time) {
		m->shadow = d->last_shadow;
		m->real = d->last_real;
		m->absdiff = absdiff(d->last_shadow, d->last_real);
		m->fresh = d->last_fresh;
		m->h_load = d->last_h_load;
		return;
	}
	m->shadow = div64_u64(d->sum_shadow + d->time / 2, d->time);
	m->real = div64_u64(d->sum_real + d->time / 2, d->time);
	m->absdiff = div64_u64(d->sum_absdiff + d->time / 2, d->time);
	m->fresh = div64_u64(d->sum_fresh + d->time / 2, d->time);
	m->h_load = div64_u64(d->sum_h_load + d->time / 2, d->time);
}
