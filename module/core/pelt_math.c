// SPDX-License-Identifier: GPL-2.0
/*
 * PELT projection of a queued entity's load (see pelt_math.h).  No
 * allocation, no printing, 64-bit arithmetic only through <linux/math64.h>.
 * Each step mirrors kernel/sched/pelt.c (decay_load,
 * __accumulate_pelt_segments, accumulate_sum, ___update_load_sum,
 * ___update_load_avg) for an entity that stayed queued (load = 1) over the
 * whole interval, which is true of every entity the walk finds queued: an
 * enqueue or dequeue would have updated it.
 */
#include <linux/types.h>
#include <linux/math64.h>
#include "pelt_math.h"

/* y^n * 2^32, y^32 = 1/2, n = 0..31 (floor of ((2^32 - 1) * y^n), as the kernel's table) */
static const u32 shadow_pelt_yn_inv[SHADOW_LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

/**
 * shadow_pelt_decay() - @val decayed by @n periods: val * y^n
 * @val: a PELT sum
 * @n:   periods
 *
 * The kernel's decay_load(): whole halvings by shift, the rest through
 * the table; beyond 63 half-lives everything is 0.
 */
u64 shadow_pelt_decay(u64 val, u64 n)
{
	if (n > SHADOW_LOAD_AVG_PERIOD * 63)
		return 0;
	if (n >= SHADOW_LOAD_AVG_PERIOD) {
		val >>= n / SHADOW_LOAD_AVG_PERIOD;
		n %= SHADOW_LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, shadow_pelt_yn_inv[n], 32);
}

/*
 * What a runnable entity adds over @periods period boundaries: the rest
 * of the period it was in (d1, decayed), the full periods in between
 * (closed form from LOAD_AVG_MAX) and the part of the current one (d3).
 */
static u32 shadow_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1 = shadow_pelt_decay(d1, periods);
	u32 c2 = SHADOW_LOAD_AVG_MAX - shadow_pelt_decay(SHADOW_LOAD_AVG_MAX, periods) -
		 SHADOW_PELT_PERIOD;

	return c1 + c2 + d3;
}

/**
 * shadow_pelt_project_load() - a queued entity's load_avg brought to @now
 * @sa:     copy of the entity's sched_avg fields
 * @now:    the PELT clock of its cfs_rq (ns)
 * @weight: its load weight, scale_load_down()'d (se_weight())
 *
 * Exactly what the kernel would store in load_avg if it updated the entity
 * at @now with the entity queued throughout: load_avg changes only when a
 * period boundary is crossed, else the stored value stands.  O(1).
 * Return: the projected load_avg.
 */
unsigned long shadow_pelt_project_load(const struct shadow_pelt_load *sa, u64 now,
				       unsigned long weight)
{
	u64 delta, periods, load_sum;
	u32 contrib, pc;

	if ((s64)(now - sa->last_update_time) <= 0)
		return sa->load_avg;
	delta = (now - sa->last_update_time) >> 10;	/* ~us, as the kernel */
	if (!delta)
		return sa->load_avg;
	pc = sa->period_contrib;
	periods = (delta + pc) / SHADOW_PELT_PERIOD;
	if (!periods)
		return sa->load_avg;
	contrib = shadow_pelt_segments(periods, SHADOW_PELT_PERIOD - pc,
				       (delta + pc) % SHADOW_PELT_PERIOD);
	load_sum = shadow_pelt_decay(sa->load_sum, periods) + contrib;
	pc = (delta + pc) % SHADOW_PELT_PERIOD;
	return div_u64((u64)weight * load_sum, SHADOW_PELT_MIN_DIVIDER + pc);
}
