/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work to give, per destination (issue 11): what one CPU's queued CFS
 * waiters could give to a destination CPU D.  A waiter is a CFS task that
 * is queued on the CPU, not running there, and not a delayed-dequeue
 * sleeper.  It counts for D only if the kernel could pull it to D: D in
 * its cpus_ptr, not migration-disabled, not a per-CPU kthread.
 *
 * The publisher (shadow.c/walk.c, under the rq lock) fills a bounded
 * summary: waiters any CPU may take are only counted; the first
 * SHADOW_WORK_RESTRICTED restricted ones keep the first
 * SHADOW_WORK_MASK_BITS bits of their cpus_ptr; any further restricted
 * waiter (or any on a machine with more CPUs than the mask holds) makes
 * the answer for destinations it might serve unknown.
 *
 * Pure C shared by the module and the host unit tests: <linux/types.h>
 * only, no allocation, no division.
 */
#ifndef SHADOW_CORE_WORK_H
#define SHADOW_CORE_WORK_H

#include <linux/types.h>

#define SHADOW_WORK_RESTRICTED	4	/* restricted waiters recorded with their mask */
#define SHADOW_WORK_MASK_BITS	256	/* CPUs a recorded mask covers */
#define SHADOW_WORK_MASK_WORDS	(SHADOW_WORK_MASK_BITS / 64)

struct shadow_work {
	u32 any;		/* waiters every online CPU may pull */
	u32 nr_restricted;	/* entries used in restricted[] */
	u32 unknown;		/* restricted waiters not recorded: their destinations are unknown */
	u32 pinned;		/* waiters no other CPU may pull (one CPU allowed,
				 * migration disabled, per-CPU kthread) */
	u64 restricted[SHADOW_WORK_RESTRICTED][SHADOW_WORK_MASK_WORDS];
};

enum shadow_work_answer {
	SHADOW_WORK_NO,		/* nothing this CPU holds can go to the destination */
	SHADOW_WORK_YES,	/* at least one waiter can */
	SHADOW_WORK_UNKNOWN,	/* maybe: a waiter whose mask was not recorded */
};

/* Clear @w before a CPU's waiters are noted. */
void shadow_work_clear(struct shadow_work *w);

/* Waiters counted in @w, whatever their destinations (the `movable` column). */
u32 shadow_work_total(const struct shadow_work *w);

/* Could the CPU whose summary is @w give a waiter to CPU @dst? */
enum shadow_work_answer shadow_work_for(const struct shadow_work *w, int dst);

#endif
