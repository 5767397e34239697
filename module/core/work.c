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
	w->throttled = 0;
	w->nr_tg = 0;
	for (i = 0; i < SHADOW_WORK_TGS; i++) {
		w->tg[i] = 0;
		w->tg_any[i] = 0;
	}
	for (i = 0; i < SHADOW_WORK_RESTRICTED; i++) {
		w->rtg[i] = -1;
		w->base[i] = 0;
		for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
			w->restricted[i][k] = 0;
	}
}

static u32 shadow_work_nr_tg(const struct shadow_work *w)
{
	return w->nr_tg > SHADOW_WORK_TGS ? SHADOW_WORK_TGS : w->nr_tg;
}

u32 shadow_work_total(const struct shadow_work *w)
{
	u32 n = w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
		w->nr_restricted, i, t = 0;

	for (i = 0; i < shadow_work_nr_tg(w); i++)
		t += w->tg_any[i];
	return w->any + t + n + w->unknown;
}

enum shadow_work_answer shadow_work_for_dst(const struct shadow_work *w, int dst,
					    u32 tg_throttled)
{
	u32 i, n = w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
		   w->nr_restricted;

	if (w->any)
		return SHADOW_WORK_YES;
	for (i = 0; i < shadow_work_nr_tg(w); i++)
		if (w->tg_any[i] && !(tg_throttled & (1u << i)))
			return SHADOW_WORK_YES;
	if (dst >= 0)
		for (i = 0; i < n; i++) {
			u32 k = (u32)dst / 64 - w->base[i];	/* wraps when below the window */

			if (k < SHADOW_WORK_MASK_WORDS &&
			    (w->restricted[i][k] & ((u64)1 << (dst % 64))) &&
			    (w->rtg[i] < 0 || w->rtg[i] >= SHADOW_WORK_TGS ||
			     !(tg_throttled & (1u << w->rtg[i]))))
				return SHADOW_WORK_YES;
		}
	return w->unknown ? SHADOW_WORK_UNKNOWN : SHADOW_WORK_NO;
}

enum shadow_work_answer shadow_work_for(const struct shadow_work *w, int dst)
{
	return shadow_work_for_dst(w, dst, 0);
}

int shadow_work_tg(struct shadow_work *w, u64 tg)
{
	u32 i;

	for (i = 0; i < shadow_work_nr_tg(w); i++)
		if (w->tg[i] == tg)
			return i;
	if (w->nr_tg >= SHADOW_WORK_TGS)
		return -1;
	w->tg[w->nr_tg] = tg;
	w->tg_any[w->nr_tg] = 0;
	return w->nr_tg++;
}

void shadow_work_note_tg(struct shadow_work *w, enum shadow_waiter_kind kind,
			 const u64 *mask, u32 nwords, u64 tg)
{
	u32 before;
	int t;

	if (kind == SHADOW_WAITER_PINNED) {
		w->pinned++;
		return;
	}
	t = shadow_work_tg(w, tg);
	if (t < 0) {
		w->unknown++;
		return;
	}
	if (kind == SHADOW_WAITER_ANY) {
		w->tg_any[t]++;
		return;
	}
	before = w->nr_restricted;
	shadow_work_note(w, kind, mask, nwords);
	if (w->nr_restricted == before + 1 && before < SHADOW_WORK_RESTRICTED)
		w->rtg[before] = (s8)t;
}

void shadow_work_note(struct shadow_work *w, enum shadow_waiter_kind kind,
		      const u64 *mask, u32 nwords)
{
	u32 k, first, last;

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
	/* the window: from the first word with a CPU to the last */
	for (first = 0; first < nwords && !mask[first]; first++)
		;
	for (last = nwords; last > first && !mask[last - 1]; last--)
		;
	if (w->nr_restricted >= SHADOW_WORK_RESTRICTED || last - first > SHADOW_WORK_MASK_WORDS ||
	    first > 0xffff) {
		w->unknown++;
		return;
	}
	for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
		w->restricted[w->nr_restricted][k] = first + k < last ? mask[first + k] : 0;
	w->base[w->nr_restricted] = first;
	w->rtg[w->nr_restricted] = -1;
	w->nr_restricted++;
}

bool shadow_work_drop_next(struct shadow_work *w)
{
	u32 classes = !!w->any + !!w->nr_restricted + !!w->unknown + !!w->pinned, i;

	/*
	 * Waiters of bandwidth-limited groups (or throttled ones) present: one
	 * of them may be the next; the count stays an upper bound, the answers
	 * are refreshed at the switch.
	 */
	for (i = 0; i < shadow_work_nr_tg(w); i++)
		if (w->tg_any[i]) {
			if (w->any + w->nr_restricted + w->unknown + w->pinned == 0 &&
			    w->tg_any[i] == 1 && w->nr_tg == 1 && !w->throttled) {
				shadow_work_begin(w);	/* the lone waiter runs */
				return true;
			}
			w->tg_any[i]--;
			return false;
		}
	if (w->throttled) {
		/* a throttled group runs nothing: the next one is another waiter */
		if (w->any + w->nr_restricted + w->unknown + w->pinned == 0)
			return true;
		classes++;
	}

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
