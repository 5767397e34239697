// SPDX-License-Identifier: GPL-2.0
/*
 * wasted_core: names and accumulators of wasted-core time (wasted_core.h).
 */
#include <linux/types.h>
#include "wasted_core.h"

const char * const wasted_level_name[WASTED_NR_LEVELS] = {
	[WASTED_LVL_SMT]	= "SMT",
	[WASTED_LVL_CLS]	= "CLS",
	[WASTED_LVL_MC]		= "MC",
	[WASTED_LVL_PKG]	= "PKG",
	[WASTED_LVL_DIE]	= "DIE",
	[WASTED_LVL_NUMA]	= "NUMA",
	[WASTED_LVL_OTHER]	= "other",
	[WASTED_LVL_NONE]	= "none",
};

const char * const wasted_cause_name[WASTED_NR_CAUSES] = {
	[WASTED_CAUSE_NONE]	 = "-",
	[WASTED_CAUSE_MOVED]	 = "moved",
	[WASTED_CAUSE_KICKED]	 = "active_kicked",
	[WASTED_CAUSE_PINNED]	 = "pinned",
	[WASTED_CAUSE_RUNNING]	 = "running",
	[WASTED_CAUSE_HOT]	 = "cache_hot",
	[WASTED_CAUSE_LLC]	 = "llc_policy",
	[WASTED_CAUSE_THROTTLED] = "throttled",
	[WASTED_CAUSE_LOAD]	 = "load_above_imbalance",
	[WASTED_CAUSE_NO_TASK]	 = "no_task_examined",
	[WASTED_CAUSE_UNKNOWN]	 = "cause_unknown",
};

int wasted_level_of(const char *name)
{
	int i, k;

	for (i = 0; i < WASTED_LVL_NONE; i++) {
		const char *a = wasted_level_name[i];

		for (k = 0; k < 8 && a[k] && a[k] == name[k]; k++)
			;
		if (k == 8 || (!a[k] && !name[k]))
			return i;
	}
	return WASTED_LVL_OTHER;
}

void wasted_keys_add(struct wasted_keys *t, u32 key, u64 ns, u32 attempts)
{
	u32 i;

	for (i = 0; i < t->nr; i++)
		if (t->k[i].key == key)
			goto add;
	if (t->nr == WASTED_KEYS) {
		t->other_ns += ns;
		t->other_attempts += attempts;
		return;
	}
	i = t->nr++;
	t->k[i].key = key;
	t->k[i].ns = 0;
	t->k[i].attempts = 0;
add:
	t->k[i].ns += ns;
	t->k[i].attempts += attempts;
}

bool wasted_cpu_add(struct wasted_cpu_acc *a, const struct wasted_out *o, u64 ns,
		    u64 *ended_ns, u64 *gap_ns)
{
	if (o->cls != WASTED_C_OFF)
		a->sampled_ns += ns;
	switch (o->cls) {
	case WASTED_C_WASTE:
		a->idle_ns += ns;
		a->wasted_ns += ns;
		a->level_ns[o->level < WASTED_NR_LEVELS ? o->level : WASTED_LVL_OTHER] += ns;
		if (!a->in_stretch) {
			a->intervals++;
			a->in_stretch = true;
			a->stretch_ns = 0;
		}
		a->stretch_ns += a->gap_ns + ns;	/* a short gap is part of the stretch */
		a->gap_ns = 0;
		if (a->stretch_ns > a->longest_ns)
			a->longest_ns = a->stretch_ns;
		return false;
	case WASTED_C_NONE:
	case WASTED_C_UNKNOWN:
		a->idle_ns += ns;
		if (o->cls == WASTED_C_UNKNOWN)
			a->unknown_ns += ns;
		break;
	case WASTED_C_VOID:
		a->unknown_ns += ns;
		break;
	default:
		break;
	}
	if (!a->in_stretch)
		return false;
	a->gap_ns += ns;
	if (a->gap_ns <= WASTED_STRETCH_GAP_NS)
		return false;
	*ended_ns = a->stretch_ns;
	*gap_ns = a->gap_ns;
	a->in_stretch = false;
	a->stretch_ns = a->gap_ns = 0;
	return true;
}
