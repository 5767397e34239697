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
		w->rcount[i] = 0;
		for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
			w->restricted[i][k] = 0;
	}
}

static u32 shadow_work_nr_tg(const struct shadow_work *w)
{
	return w->nr_tg > SHADOW_WORK_TGS ? SHADOW_WORK_TGS : w->nr_tg;
}

static u32 shadow_work_nr_res(const struct shadow_work *w)
{
	return w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
	       w->nr_restricted;
}

enum shadow_work_answer shadow_work_for_dst(const struct shadow_work *w, int dst,
					    u32 tg_throttled)
{
	u32 i, n = shadow_work_nr_res(w);

	if (w->any)
		return SHADOW_WORK_YES;
	for (i = 0; i < shadow_work_nr_tg(w); i++)
		if (w->tg_any[i] && !(tg_throttled & (1u << i)))
			return SHADOW_WORK_YES;
	if (dst >= 0)
		for (i = 0; i < n; i++) {
			u32 k = (u32)dst / 64 - w->base[i];	/* wraps when below the window */

			if (w->rcount[i] && k < SHADOW_WORK_MASK_WORDS &&
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

/* The index of group @tg in @w; added if there is room and @add; -1 otherwise. */
static int shadow_work_tg_find(struct shadow_work *w, u64 tg, bool add)
{
	u32 i;

	for (i = 0; i < shadow_work_nr_tg(w); i++)
		if (w->tg[i] == tg)
			return i;
	if (!add || w->nr_tg >= SHADOW_WORK_TGS)
		return -1;
	w->tg[w->nr_tg] = tg;
	w->tg_any[w->nr_tg] = 0;
	return w->nr_tg++;
}

int shadow_work_tg(struct shadow_work *w, u64 tg)
{
	return shadow_work_tg_find(w, tg, true);
}

/* The window of @mask: its first word with a CPU, and whether it fits. */
static bool shadow_work_window(const u64 *mask, u32 nwords, u32 *first)
{
	u32 last;

	for (*first = 0; *first < nwords && !mask[*first]; (*first)++)
		;
	for (last = nwords; last > *first && !mask[last - 1]; last--)
		;
	return last - *first <= SHADOW_WORK_MASK_WORDS && *first <= 0xffff;
}

/* Does entry @i hold the window of @mask from word @first, for group index @t? */
static bool shadow_work_same(const struct shadow_work *w, u32 i, const u64 *mask, u32 nwords,
			     u32 first, int t)
{
	u32 k;

	if (w->base[i] != first || w->rtg[i] != t)
		return false;
	for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
		if (w->restricted[i][k] != (first + k < nwords ? mask[first + k] : 0))
			return false;
	return true;
}

int shadow_work_note(struct shadow_work *w, enum shadow_waiter_kind kind, const u64 *mask,
		     u32 nwords, u64 tg)
{
	u32 i, k, first, n = shadow_work_nr_res(w), free = n;
	int t = -1;

	if (kind == SHADOW_WAITER_PINNED) {
		w->pinned++;
		return SHADOW_SLOT_PINNED;
	}
	if (tg) {
		t = shadow_work_tg_find(w, tg, true);
		if (t < 0) {
			w->unknown++;
			return SHADOW_SLOT_UNKNOWN;
		}
	}
	if (kind == SHADOW_WAITER_ANY) {
		if (t >= 0)
			w->tg_any[t]++;
		else
			w->any++;
		return SHADOW_SLOT_ANY;
	}
	if (!shadow_work_window(mask, nwords, &first)) {
		w->unknown++;
		return SHADOW_SLOT_UNKNOWN;
	}
	for (i = 0; i < n; i++) {
		if (!w->rcount[i]) {
			if (free == n)
				free = i;
			continue;
		}
		if (shadow_work_same(w, i, mask, nwords, first, t)) {
			w->rcount[i]++;
			return i;
		}
	}
	if (free == n) {
		if (n >= SHADOW_WORK_RESTRICTED) {
			w->unknown++;
			return SHADOW_SLOT_UNKNOWN;
		}
		w->nr_restricted = n + 1;
	}
	for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
		w->restricted[free][k] = first + k < nwords ? mask[first + k] : 0;
	w->base[free] = first;
	w->rtg[free] = t;
	w->rcount[free] = 1;
	return free | SHADOW_SLOT_NEW;
}

int shadow_work_unnote(struct shadow_work *w, enum shadow_waiter_kind kind, const u64 *mask,
		       u32 nwords, u64 tg)
{
	u32 i, first, n = shadow_work_nr_res(w);
	int t = -1;

	if (kind == SHADOW_WAITER_PINNED) {
		if (w->pinned) {
			w->pinned--;
			return SHADOW_SLOT_PINNED;
		}
		goto unknown;
	}
	if (tg) {
		t = shadow_work_tg_find(w, tg, false);
		if (t < 0)
			goto unknown;
	}
	if (kind == SHADOW_WAITER_ANY) {
		u32 *c = t >= 0 ? &w->tg_any[t] : &w->any;

		if (*c) {
			(*c)--;
			return SHADOW_SLOT_ANY;
		}
		goto unknown;
	}
	if (shadow_work_window(mask, nwords, &first))
		for (i = 0; i < n; i++)
			if (w->rcount[i] && shadow_work_same(w, i, mask, nwords, first, t)) {
				w->rcount[i]--;
				while (w->nr_restricted && !w->rcount[w->nr_restricted - 1])
					w->nr_restricted--;
				return i;
			}
unknown:
	if (!w->unknown)
		return -4;
	w->unknown--;
	return SHADOW_SLOT_UNKNOWN;
}

bool shadow_work_tg_gc(struct shadow_work *w)
{
	u32 t, i, n = shadow_work_nr_tg(w);
	bool gone = false;

	for (t = 0; t < n; ) {
		bool used = w->tg_any[t];

		for (i = 0; i < shadow_work_nr_res(w) && !used; i++)
			used = w->rcount[i] && w->rtg[i] == (s8)t;
		if (used) {
			t++;
			continue;
		}
		/* forget it: the last group takes its index */
		for (i = 0; i < SHADOW_WORK_RESTRICTED; i++) {
			if (w->rtg[i] == (s8)t)
				w->rtg[i] = -1;
			else if (w->rtg[i] == (s8)(n - 1))
				w->rtg[i] = t;
		}
		w->tg[t] = w->tg[n - 1];
		w->tg_any[t] = w->tg_any[n - 1];
		w->tg[n - 1] = 0;
		w->tg_any[n - 1] = 0;
		w->nr_tg = --n;
		gone = true;
	}
	return gone;
}
