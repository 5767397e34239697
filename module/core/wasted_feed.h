/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wasted_feed: the change records the hot path appends to each CPU's log
 * (module/waiters.c, under the CPU's rq lock) and their replay in time
 * order into the wasted_replay counts (the sampler, module/wasted.c, and
 * the host benchmark).
 *
 * A record says what changed on one CPU, not the CPU's whole state: it
 * turned busy or idle, n waiters of one key (cgroup id, kind, the CPU's
 * mask slot, tracked or not) joined or left, a mask slot holds a new
 * window, or a snapshot begins (the CPU's waiters are listed again from
 * nothing: after a rescan of its queue, or when the sampler lost records
 * and asked for one).  32 bytes; a mask takes two.
 *
 * The sampler copies each CPU's new records (wf_copy: the caller checks
 * that the writer did not overwrite what it copied), then wf_replay()
 * sorts them by time and applies them.  A CPU whose records were lost is
 * void (unknown) until its next snapshot.
 *
 * Pure C shared by the module and the host tests: <linux/types.h> only.
 */
#ifndef SHADOW_CORE_WASTED_FEED_H
#define SHADOW_CORE_WASTED_FEED_H

#include <linux/types.h>
#include "wasted_replay.h"

enum wasted_op {
	WF_STATE,	/* flags & WF_BUSY: the CPU runs a task (else idle) */
	WF_ADD,		/* n waiters of the key joined */
	WF_DEL,		/* n waiters of the key left */
	WF_SNAP,	/* a snapshot: no waiter now (the ADDs that follow list them); busy as STATE */
	WF_MASK,	/* mask slot `slot` = window from word n: words 0-1 here (cgid, aux) */
	WF_MASK2,	/* ... words 2-3 (cgid, aux): the mask is complete */
	WF_NR_OPS
};

#define WF_BUSY		0x01	/* STATE, SNAP */
#define WF_TRK		0x02	/* ADD, DEL: a thread of the tracked process */

#define WF_SLOTS	4	/* mask slots per CPU (the work summary's restricted entries) */

struct wasted_rec {
	u64 stamp;		/* the CPU's clock at the change (the sampler's time base) */
	u64 cgid;		/* ADD/DEL: the waiters' cgroup id, 0 unknown; MASK(2): a mask word */
	u64 aux;		/* MASK(2): a mask word */
	u32 n;			/* ADD/DEL: how many; MASK: the window's first word */
	u8 op;			/* enum wasted_op */
	u8 kind;		/* ADD/DEL: enum wr_kind */
	u8 slot;		/* ADD/DEL of WR_RESTR, MASK(2): the CPU's mask slot */
	u8 flags;
};

/* Each CPU's log: a ring of WASTED_LOG records, written under the CPU's rq lock. */
#define WASTED_LOG	512

struct wasted_log {
	u32 head;		/* records written; record i is ent[i % WASTED_LOG] */
	u32 want_snap;		/* the sampler lost records: the writer starts a snapshot */
	u32 snaps;		/* snapshots written (statistics) */
	u32 pad;
	struct wasted_rec ent[WASTED_LOG];
};

/* The sampler's view of one CPU's log. */
struct wf_cpu {
	u32 tail;		/* next record to read */
	bool known;		/* its state is known: no record lost since its last snapshot */
	s8 slot[WF_SLOTS];	/* mask slot -> wr_mask() id, -1 none */
	u64 mask[WF_SLOTS][WR_MASK_WORDS];	/* a MASK waiting for its MASK2 */
	u16 base[WF_SLOTS];
};

/* One copied record and where it came from (sorted by wf_replay()). */
struct wf_step {
	struct wasted_rec rec;
	u32 cpu;
};

struct wf_sort {
	u32 key;		/* stamp - the sample's start, saturated */
	u32 idx;
};

struct wf_stats {
	u64 records;		/* applied */
	u64 lost;		/* CPUs found with lost records (void until a snapshot) */
	u64 late_max_ns;	/* the largest lateness of a record in one sample */
	u64 sorted;		/* samples whose records had to be sorted */
};

struct wf {
	u32 nr_cpus;
	struct wf_cpu *cpu;		/* [nr_cpus] */
	struct wf_step *steps;		/* [cap] */
	struct wf_sort *sort, *tmp;	/* [cap] */
	u32 cap, n;
	struct wf_stats st;
};

/* Start: every CPU unknown (void) until its first snapshot. */
void wf_init(struct wf *f, u32 nr_cpus, struct wf_cpu *cpus, struct wf_step *steps,
	     struct wf_sort *sort, struct wf_sort *tmp, u32 cap);

/* The sampler forgets @cpu's state (lost records, offline): void from @now. */
void wf_lost(struct wf *f, struct wr_replay *r, u64 now, u32 cpu);

/*
 * Replay the @f->n steps the caller copied (each CPU's in its log's order,
 * none later than the sample's end), in time order.  @start: where the
 * previous call ended (the sort's origin).  *@late: the largest lateness
 * of a step (one published after the replay had passed its time: applied
 * at the replay's time, the caller widens its bound).
 */
void wf_replay(struct wf *f, struct wr_replay *r, u64 start, u64 *late);

#endif /* SHADOW_CORE_WASTED_FEED_H */
