// SPDX-License-Identifier: GPL-2.0
/*
 * Work to give, per destination: the pure half of the summary described
 * in work.h (clearing, totals, the per-destination answer).  The module's
 * publisher fills the summary; the audit asks it per destination.
 */
#include <linux/types.h>
#include "work.h"

void shadow_work_clear(struct shadow_work *w)
{
	int i, k;

	w->any = 0;
	w->nr_restricted = 0;
	w->unknown = 0;
	w->pinned = 0;
	for (i = 0; i < SHADOW_WORK_RESTRICTED; i++)
		for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
			w->restricted[i][k] = 0;
}

u32 shadow_work_total(const struct shadow_work *w)
{
	u32 n = w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
		w->nr_restricted;

	return w->any + n + w->unknown;
}

enum shadow_work_answer shadow_work_for(const struct shadow_work *w, int dst)
{
	u32 i, n = w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
		   w->nr_restricted;

	if (w->any)
		return SHADOW_WORK_YES;
	if (dst >= 0 && dst < SHADOW_WORK_MASK_BITS)
		for (i = 0; i < n; i++)
			if (w->restricted[i][dst / 64] & ((u64)1 << (dst % 64)))
				return SHADOW_WORK_YES;
	return w->unknown ? SHADOW_WORK_UNKNOWN : SHADOW_WORK_NO;
}

void shadow_work_note(struct shadow_work *w, enum shadow_waiter_kind kind,
		      const u64 *mask, u32 nwords)
{
	u32 k;

	switch (kind) {
	case SHADOW_WAITER_PINNED:
		w->pinned++;
		return;
	case SHADOW_WAITER_ANY:
		w->any++;
		return;
	case SHADOW_WAITER_RESTRICTED:
		break;
	}
	if (w->nr_restricted >= SHADOW_WORK_RESTRICTED || nwords > SHADOW_WORK_MASK_WORDS) {
		w->unknown++;
		return;
	}
	for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
		w->restricted[w->nr_restricted][k] = k < nwords ? mask[k] : 0;
	w->nr_restricted++;
}

bool shadow_work_drop_next(struct shadow_work *w)
{
	u32 classes = !!w->any + !!w->nr_restricted + !!w->unknown + !!w->pinned;

	if (w->any > 1) {		/* an `any` stays whatever runs */
		w->any--;
		return true;
	}
	if (w->any + w->nr_restricted + w->unknown + w->pinned <= 1) {
		shadow_work_begin(w);	/* the lone waiter runs */
		return true;
	}
	if (classes == 1 && !w->nr_restricted) {	/* all pinned or all unknown */
		if (w->pinned)
			w->pinned--;
		else
			w->unknown--;
		return true;
	}
	/* mixed: the count is right, the answers depend on the pick */
	if (w->pinned)
		w->pinned--;
	else if (w->unknown)
		w->unknown--;
	else if (w->nr_restricted)
		w->nr_restricted--;
	else
		w->any--;
	return false;
}
