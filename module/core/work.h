/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work to give, per destination: what one CPU's queued CFS
 * waiters could give to a destination CPU D.  A waiter is a CFS task that
 * is queued on the CPU, not running there, and not a delayed-dequeue
 * sleeper.  It counts for D only if the kernel could pull it to D: D in
 * its cpus_ptr, not migration-disabled, not a per-CPU kthread.
 *
 * The publisher (module/waiters.c, under the rq lock) keeps a bounded
 * summary up to date as waiters come and go: waiters any CPU may take are
 * only counted; restricted ones are counted per distinct window of
 * SHADOW_WORK_MASK_BITS bits of their cpus_ptr (starting at the word of
 * its first CPU, so a task confined to one node or socket of a machine of
 * any size is recorded), up to SHADOW_WORK_RESTRICTED windows; a waiter of
 * a further window, or one whose CPUs span more than the window, makes
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
#define SHADOW_WORK_TGS		4	/* bandwidth-limited task groups recorded */

/*
 * CFS bandwidth (cpu.max): the kernel does not move a task whose group is
 * throttled on the source or on the destination CPU (throttled_lb_pair();
 * 7.3's task-based throttle checks the destination only).  A waiter whose
 * group is throttled on its own CPU is counted in @throttled, no work for
 * anyone.  The others of a group under a bandwidth limit (its hierarchy
 * has a quota) carry the group's index in @tg (their own count in
 * @tg_any, or @rtg for a restricted one): whether the group is throttled
 * on the destination is read when the destination asks
 * (shadow_work_for_dst()).  Waiters of a fifth such group are unknown.
 */
struct shadow_work {
	u32 any;		/* waiters every online CPU may pull (no bandwidth limit) */
	u32 nr_restricted;	/* entries used in restricted[] */
	u32 unknown;		/* restricted waiters not recorded: their destinations are unknown */
	u32 pinned;		/* waiters no other CPU may pull (one CPU allowed,
				 * migration disabled, per-CPU kthread) */
	u32 throttled;		/* waiters whose group is throttled on this CPU */
	u32 nr_tg;		/* entries used in tg[] */
	u64 tg[SHADOW_WORK_TGS];	/* the groups' identities (opaque to this code) */
	u32 tg_any[SHADOW_WORK_TGS];	/* `any' waiters of each group */
	s8 rtg[SHADOW_WORK_RESTRICTED];	/* restricted[i]'s group index, -1 none */
	u64 restricted[SHADOW_WORK_RESTRICTED][SHADOW_WORK_MASK_WORDS];
	u16 base[SHADOW_WORK_RESTRICTED];	/* restricted[i][k] holds CPUs (base[i] + k) * 64.. */
	u32 rcount[SHADOW_WORK_RESTRICTED];	/* waiters of window i; 0: the entry is free */
};

enum shadow_work_answer {
	SHADOW_WORK_NO,		/* nothing this CPU holds can go to the destination */
	SHADOW_WORK_YES,	/* at least one waiter can */
	SHADOW_WORK_UNKNOWN,	/* maybe: a waiter whose mask was not recorded */
};

/* Clear @w before a CPU's waiters are noted. */
void shadow_work_clear(struct shadow_work *w);

/* Waiters counted in @w, whatever their destinations (the `movable` column). */
static inline u32 shadow_work_total(const struct shadow_work *w)
{
	u32 i, t = w->any + w->unknown;

	for (i = 0; i < w->nr_tg && i < SHADOW_WORK_TGS; i++)
		t += w->tg_any[i];
	for (i = 0; i < w->nr_restricted && i < SHADOW_WORK_RESTRICTED; i++)
		t += w->rcount[i];
	return t;
}

/* Could the CPU whose summary is @w give a waiter to CPU @dst (no group throttled there)? */
enum shadow_work_answer shadow_work_for(const struct shadow_work *w, int dst);

/*
 * The same, where bit i of @tg_throttled says that the group of tg[i] is
 * throttled on @dst: its waiters are no work for @dst.
 */
enum shadow_work_answer shadow_work_for_dst(const struct shadow_work *w, int dst,
					    u32 tg_throttled);

/*
 * Word @word (CPUs @word * 64..) of restricted[@i]'s mask, 0 outside its
 * window (restricted[i][k] holds word base[i] + k).
 */
static inline u64 shadow_work_mask_word(const struct shadow_work *w, u32 i, u32 word)
{
	u32 k = word - w->base[i];	/* wraps when below the window */

	return k < SHADOW_WORK_MASK_WORDS ? w->restricted[i][k] : 0;
}

/*
 * How many words, from word 0, show restricted[@i]'s mask on a machine of
 * @all 64-CPU words: the machine's first SHADOW_WORK_MASK_WORDS (as many
 * as it has), and on through the word of the mask's last CPU (a window
 * that starts past CPU 255 on a bigger machine).
 */
static inline u32 shadow_work_mask_end(const struct shadow_work *w, u32 i, u32 all)
{
	u32 end = all < SHADOW_WORK_MASK_WORDS ? all : SHADOW_WORK_MASK_WORDS, k;

	for (k = SHADOW_WORK_MASK_WORDS; k > 0 && !w->restricted[i][k - 1]; k--)
		;
	if (k && w->base[i] + k > end)
		end = w->base[i] + k;
	return end < all ? end : all;
}

/* The index of group @tg in @w, added if there is room; -1 when full. */
int shadow_work_tg(struct shadow_work *w, u64 tg);

/*
 * The publisher's side (module/waiters.c, under the rq lock): classify
 * each waiter, note it, and account for the waiters it did not look at.
 */
enum shadow_waiter_kind {
	SHADOW_WAITER_PINNED,		/* no other CPU may pull it */
	SHADOW_WAITER_ANY,		/* every online CPU may */
	SHADOW_WAITER_RESTRICTED,	/* only the CPUs of its mask */
};

/*
 * Classify a waiter from its task_struct fields.  @nr_cpus_allowed is
 * the weight of cpus_ptr, whose bits all lie below @nr_cpu_ids: a weight
 * of @nr_cpu_ids is the full mask, which holds every online CPU.  Any
 * other weight above 1 is RESTRICTED here; the caller may still find that
 * the mask holds every online CPU and note it as ANY.
 */
static inline enum shadow_waiter_kind shadow_waiter_classify(u32 nr_cpus_allowed,
							      u32 nr_cpu_ids,
							      bool migration_disabled)
{
	if (nr_cpus_allowed <= 1 || migration_disabled)
		return SHADOW_WAITER_PINNED;
	if (nr_cpus_allowed >= nr_cpu_ids)
		return SHADOW_WAITER_ANY;
	return SHADOW_WAITER_RESTRICTED;
}

/* Start a new summary: counts only (masks are read only below nr_restricted). */
static inline void shadow_work_begin(struct shadow_work *w)
{
	w->any = 0;
	w->nr_restricted = 0;
	w->unknown = 0;
	w->pinned = 0;
	w->throttled = 0;
	w->nr_tg = 0;
}

/* What shadow_work_note() did with a waiter: how the summary holds it. */
enum shadow_work_slot {
	SHADOW_SLOT_ANY = -1,		/* counted in any (or its group's tg_any) */
	SHADOW_SLOT_PINNED = -2,
	SHADOW_SLOT_UNKNOWN = -3,	/* no room: destinations unknown */
	/* >= 0: restricted window index; | SHADOW_SLOT_NEW when the entry was free */
};
#define SHADOW_SLOT_NEW		0x100

/*
 * Note one waiter of @kind (in bandwidth-limited group @tg, 0 for none:
 * see struct shadow_work).  For RESTRICTED, @mask holds @nwords 64-bit
 * words of its cpus_ptr (CPU n is bit n % 64 of word n / 64); a waiter of
 * a window already kept (same words and group) is counted there; a mask
 * whose CPUs span more than SHADOW_WORK_MASK_BITS (from the word of the
 * first one), or no free entry, makes it unknown; no room for the group,
 * too.  Return: the slot (enum shadow_work_slot).
 */
int shadow_work_note(struct shadow_work *w, enum shadow_waiter_kind kind, const u64 *mask,
		     u32 nwords, u64 tg);

/*
 * Take one waiter out, the one shadow_work_note() with the same arguments
 * counted.  If the summary holds no such waiter it must have been one of
 * the unknown ones (a capped scan, a full table): one unknown goes.
 * Return: the slot it was taken from, SHADOW_SLOT_UNKNOWN, or -4 when
 * there is nothing to take (the summary is wrong: rescan).
 */
int shadow_work_unnote(struct shadow_work *w, enum shadow_waiter_kind kind, const u64 *mask,
		       u32 nwords, u64 tg);

/*
 * Forget the bandwidth-limited groups no waiter of @w belongs to any more:
 * the summary names a group (for the audit to read its throttle state)
 * only while a task of it is queued here, which keeps the group alive.
 * Return: true when one was forgotten (the groups array changed).
 */
bool shadow_work_tg_gc(struct shadow_work *w);

#endif
