// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the publisher's half of module/core/work.c: how a
 * waiter is classified and noted (pinned, migration-disabled, any,
 * restricted (counted per distinct window), past the restricted slots,
 * wider than the mask), and its removal (shadow_work_unnote: the same
 * waiter taken out, or an unknown one when the summary does not hold it).
 * The consumer's half (shadow_work_for) is checked here only through what
 * the noting produces, and so is the audit's print of a mask
 * (shadow_work_mask_end/_word), on machines of 128, 384 and 1,024 CPUs.
 */
#include <string.h>
#include "tap.h"
#include "work.c"

static struct shadow_work w;

static void fresh(void)
{
	int i;

	memset(&w, 0xa5, sizeof(w));	/* stale masks must not matter */
	shadow_work_begin(&w);
	for (i = 0; i < SHADOW_WORK_RESTRICTED; i++)
		w.rcount[i] = 0;
}

int main(void)
{
	u64 sock0[1] = { 0x3 }, sock2[1] = { 0x30 }, wide[5] = { 1, 0, 0, 0, 1 };
	/* CPUs 300-310: word 4 holds 256..319, bits 44..54 */
	u64 node4[6] = { 0, 0, 0, 0, 0x7ffULL << 44, 0 };
	u64 big128[2] = { 0, 3 }, big1024[16] = { [15] = 3 };	/* CPUs 64-65; 960-961 */
	int i, ok;

	tap_begin("work_note");

	/* classification from task_struct fields (6 CPUs) */
	tap_ok(shadow_waiter_classify(1, 6, false) == SHADOW_WAITER_PINNED,
	       "nr_cpus_allowed 1: pinned");
	tap_ok(shadow_waiter_classify(6, 6, true) == SHADOW_WAITER_PINNED,
	       "migration disabled with a full mask: pinned");
	tap_ok(shadow_waiter_classify(6, 6, false) == SHADOW_WAITER_ANY,
	       "full mask (weight == nr_cpu_ids): any");
	tap_ok(shadow_waiter_classify(2, 6, false) == SHADOW_WAITER_RESTRICTED,
	       "two of six CPUs: restricted");
	tap_ok(shadow_waiter_classify(0, 6, false) == SHADOW_WAITER_PINNED,
	       "weight 0 (impossible) is never counted as work");

	/* a task pinned to socket 0 (CPUs 0-1) on a 3-socket machine */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0);
	tap_ok(shadow_work_total(&w) == 1, "restricted waiter counted in movable");
	tap_ok(shadow_work_for(&w, 1) == SHADOW_WORK_YES, "socket-0 task: work for CPU 1 (same socket)");
	tap_ok(shadow_work_for(&w, 4) == SHADOW_WORK_NO, "socket-0 task: no work for CPU 4 (socket 2)");
	tap_ok(shadow_work_for(&w, 300) == SHADOW_WORK_NO, "socket-0 task: no work beyond the mask");

	/* pinned and migration-disabled waiters are no work anywhere */
	fresh();
	shadow_work_note(&w, shadow_waiter_classify(6, 6, true), NULL, 0, 0);
	shadow_work_note(&w, shadow_waiter_classify(1, 6, false), NULL, 0, 0);
	tap_ok(w.pinned == 2 && shadow_work_total(&w) == 0, "two pinned: movable 0, pinned 2");
	ok = 1;
	for (i = 0; i < 6; i++)
		ok &= shadow_work_for(&w, i) == SHADOW_WORK_NO;
	tap_ok(ok, "pinned only: no work for any destination");

	/* waiters of one window share an entry; windows run out: the rest is unknown */
	fresh();
	for (i = 0; i < 5; i++)
		shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0);
	tap_ok(w.nr_restricted == 1 && w.rcount[0] == 5 && w.unknown == 0,
	       "5 waiters of one socket: one window, counted 5");
	for (i = 0; i < SHADOW_WORK_RESTRICTED + 2; i++) {
		u64 one[1] = { (u64)1 << (8 + i) };

		shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, one, 1, 0);
	}
	tap_ok(w.nr_restricted == SHADOW_WORK_RESTRICTED && w.unknown == 3,
	       "%d more windows: %d kept in all, 3 waiters unknown", SHADOW_WORK_RESTRICTED + 2,
	       SHADOW_WORK_RESTRICTED);
	tap_ok(shadow_work_total(&w) == 5 + SHADOW_WORK_RESTRICTED + 2, "every one counted in movable");
	tap_ok(shadow_work_for(&w, 4) == SHADOW_WORK_UNKNOWN, "outside the recorded masks: unknown");
	tap_ok(shadow_work_for(&w, 0) == SHADOW_WORK_YES, "inside a recorded mask: yes");

	/* CPUs spanning more than SHADOW_WORK_MASK_BITS cannot be recorded */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, wide, 5, 0);
	tap_ok(w.unknown == 1 && w.nr_restricted == 0, "CPUs 0 and 256 (a span of 320 bits): unknown");
	/* a task confined to CPUs 300-310 on a big machine: the window starts at its first word */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, node4, 6, 0);
	tap_ok(w.unknown == 0 && w.nr_restricted == 1, "CPUs 300-310 of 384: recorded");
	tap_ok(shadow_work_for(&w, 305) == SHADOW_WORK_YES && shadow_work_for(&w, 310) == SHADOW_WORK_YES,
	       "CPUs 300-310: work for CPUs 305 and 310");
	tap_ok(shadow_work_for(&w, 299) == SHADOW_WORK_NO && shadow_work_for(&w, 0) == SHADOW_WORK_NO &&
	       shadow_work_for(&w, 311) == SHADOW_WORK_NO && shadow_work_for(&w, 1000) == SHADOW_WORK_NO,
	       "CPUs 300-310: no work for 299, 0, 311, 1000");
	ok = shadow_work_mask_end(&w, 0, 6) == 5;
	for (i = 0; i < 6; i++)
		ok &= shadow_work_mask_word(&w, 0, i) == node4[i];
	tap_ok(ok, "CPUs 300-310 of 384, as the audit prints them: words 0-4 from word 0, word 4 0x7ff << 44 (end %u)",
	       shadow_work_mask_end(&w, 0, 6));

	/* 128 CPUs: a task confined to CPUs 64-65 (the second word) */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, big128, 2, 0);
	tap_ok(w.nr_restricted == 1 && w.base[0] == 1 && shadow_work_for(&w, 64) == SHADOW_WORK_YES &&
	       shadow_work_for(&w, 65) == SHADOW_WORK_YES && shadow_work_for(&w, 0) == SHADOW_WORK_NO &&
	       shadow_work_for(&w, 1) == SHADOW_WORK_NO && shadow_work_for(&w, 66) == SHADOW_WORK_NO,
	       "CPUs 64-65 of 128: work for 64 and 65, none for 0, 1, 66");
	tap_ok(shadow_work_mask_end(&w, 0, 2) == 2 && shadow_work_mask_word(&w, 0, 0) == 0 &&
	       shadow_work_mask_word(&w, 0, 1) == 3,
	       "CPUs 64-65 of 128, as the audit prints them: words 0 and 1, 0.3");
	/* 1,024 CPUs: CPUs 960-961 (the last word), and CPUs 0-1 */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, big1024, 16, 0);
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0);
	tap_ok(w.nr_restricted == 2 && w.base[0] == 15 && shadow_work_for(&w, 960) == SHADOW_WORK_YES &&
	       shadow_work_for(&w, 961) == SHADOW_WORK_YES && shadow_work_for(&w, 959) == SHADOW_WORK_NO &&
	       shadow_work_for(&w, 0) == SHADOW_WORK_YES && shadow_work_for(&w, 2) == SHADOW_WORK_NO,
	       "CPUs 960-961 and 0-1 of 1024: work for 960, 961, 0, none for 959, 2");
	tap_ok(shadow_work_mask_end(&w, 0, 16) == 16 && shadow_work_mask_word(&w, 0, 15) == 3 &&
	       shadow_work_mask_word(&w, 0, 3) == 0 && shadow_work_mask_end(&w, 1, 16) == 4 &&
	       shadow_work_mask_word(&w, 1, 0) == 3,
	       "CPUs 960-961 of 1024 are printed through word 15, CPUs 0-1 in the first 4 words");

	/* removal: the same waiter out; one the summary does not hold was an unknown one */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0);
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0);
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock2, 1, 0);
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0) == 0 && w.rcount[0] == 1 &&
	       shadow_work_for(&w, 0) == SHADOW_WORK_YES, "one of two socket-0 waiters out: one left");
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_RESTRICTED, sock0, 1, 0) == 0 && w.rcount[0] == 0 &&
	       shadow_work_for(&w, 0) == SHADOW_WORK_NO && shadow_work_for(&w, 4) == SHADOW_WORK_YES,
	       "the second out: its window is free, socket 2's stays");
	tap_ok((shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock2, 1, 0) & 0xff) == 1 &&
	       (shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, node4, 6, 0) & SHADOW_SLOT_NEW),
	       "a known window is counted again; a new one takes the free entry");
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_ANY, NULL, 0, 0);
	w.unknown = 2;
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_PINNED, NULL, 0, 0) == SHADOW_SLOT_UNKNOWN &&
	       w.unknown == 1 && w.any == 1,
	       "a pinned waiter the summary does not hold: one unknown goes, the any stays");
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_ANY, NULL, 0, 0) == SHADOW_SLOT_ANY && w.any == 0 &&
	       w.unknown == 1, "an any waiter: the any goes");
	w.unknown = 0;
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_ANY, NULL, 0, 0) == -4,
	       "nothing to take: the summary is wrong (the caller rescans)");

	/*
	 * CFS bandwidth: waiters of a limited group are kept with the group,
	 * whose throttle state on the destination decides (throttled_lb_pair()).
	 */
	fresh();
	shadow_work_note(&w, SHADOW_WAITER_ANY, NULL, 0, 0x1000);
	tap_ok(w.any == 0 && w.nr_tg == 1 && w.tg_any[0] == 1 && shadow_work_total(&w) == 1 &&
	       shadow_work_for_dst(&w, 5, 0) == SHADOW_WORK_YES &&
	       shadow_work_for_dst(&w, 5, 1) == SHADOW_WORK_NO,
	       "bandwidth group: work unless the group is throttled on the destination");
	shadow_work_note(&w, SHADOW_WAITER_RESTRICTED, sock2, 1, 0x2000);
	tap_ok(w.nr_tg == 2 && w.nr_restricted == 1 && w.rtg[0] == 1 &&
	       shadow_work_for_dst(&w, 5, 1) == SHADOW_WORK_YES &&
	       shadow_work_for_dst(&w, 5, 3) == SHADOW_WORK_NO &&
	       shadow_work_for_dst(&w, 0, 1) == SHADOW_WORK_NO,
	       "restricted waiter of a second group: its mask and its group's state both decide");
	shadow_work_note(&w, SHADOW_WAITER_ANY, NULL, 0, 0x3000);
	shadow_work_note(&w, SHADOW_WAITER_ANY, NULL, 0, 0x4000);
	shadow_work_note(&w, SHADOW_WAITER_ANY, NULL, 0, 0x5000);
	tap_ok(w.nr_tg == SHADOW_WORK_TGS && w.unknown == 1 &&
	       shadow_work_for_dst(&w, 5, 0xf) == SHADOW_WORK_UNKNOWN,
	       "a fifth bandwidth group: its waiter's answer is unknown, never dropped");
	shadow_work_note(&w, SHADOW_WAITER_PINNED, NULL, 0, 0x1000);
	tap_ok(w.pinned == 1 && w.tg_any[0] == 1, "a pinned waiter of a group is pinned");
	tap_ok(shadow_work_unnote(&w, SHADOW_WAITER_ANY, NULL, 0, 0x1000) == SHADOW_SLOT_ANY &&
	       w.tg_any[0] == 0, "a group's waiter out: its group's count goes");
	{
		u32 last = w.nr_tg;
		u64 tlast = w.tg[last - 1];

		tap_ok(shadow_work_tg_gc(&w) && w.nr_tg == last - 1 && w.tg[0] == tlast &&
		       w.rtg[0] == 1 && w.tg[1] == 0x2000,
		       "a group with no waiter left is forgotten (the last takes its index: %u groups, rtg %d)",
		       w.nr_tg, w.rtg[0]);
		tap_ok(!shadow_work_tg_gc(&w), "groups with waiters stay");
	}
	fresh();
	w.throttled = 2;
	tap_ok(shadow_work_total(&w) == 0 && shadow_work_for(&w, 3) == SHADOW_WORK_NO,
	       "waiters throttled on their CPU: no work");

	return tap_end();
}
