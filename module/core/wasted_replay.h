/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wasted_replay: wasted-core time and the run-queue wait split from a
 * time-ordered stream of per-CPU changes (a CPU turned busy, idle or
 * void; a waiter of some key joined or left its queue), at a cost per
 * change that does not grow with the number of CPUs or waiters.
 *
 * Definitions (docs/wasted.md).  An idle CPU C is *wasted* while a waiter
 * on another CPU could run on C (a waiter of kind `any`, or a restricted
 * one whose mask holds C), at the lowest level of C's domains that spans
 * such a waiter's CPU (`none` when no domain of C does); *unknown* when
 * none could but a waiter of unknown destinations, or a CPU in unknown
 * (void) state, exists elsewhere; *none* otherwise.  A waiter's wait is
 * *idle* while a CPU it may run on is idle (any idle CPU for `any`),
 * *unknown* while none is idle but one it may run on is void (always for
 * a waiter of unknown destinations), *busy* otherwise (always for a
 * pinned one).  A cgroup's wasted time counts, at every instant, the
 * wasted CPUs that one of its waiters could run on (all of them when it
 * has an `any` waiter).  The keys of an idle CPU (tasks woken there, not
 * switched in yet, or queued while the sampler that woke it runs) are
 * kept but not counted: those tasks are about to run there, they neither
 * wait nor make another CPU wasted until their CPU turns busy (then all
 * but the one it runs wait behind it).
 *
 * How it stays linear.  The waiters are counted per domain span (and per
 * restricted mask); an idle CPU's class and level follow from the counts
 * of its own chain of domains.  A CPU with no waiter of its own (the
 * normal case for an idle CPU) is never visited when another CPU
 * changes: per (signature, domain) the time the count was non-zero is
 * integrated, and an idle CPU's time per level is the difference of
 * those integrals over its idle stretch (the levels are nested, so the
 * lowest level with a waiter is the one whose integral grew first).  A
 * CPU's signature is the set of interned restricted masks that hold it:
 * CPUs of one signature see the same waiters.  An idle CPU with waiters
 * of its own in the counts would have to be re-classified at every change
 * (`special`); none is, its keys being left out while it is idle, so that
 * path is a guard.  A CPU turning busy or idle adds or takes out its keys:
 * O(keys x D x S), and few have keys then.  Cgroup
 * rows integrate lazily from global integrals (time with an idle CPU,
 * per mask, wasted CPUs per signature).
 *
 * Cost per change: O(D x S + I x L) where D is the number of domains
 * holding the changed CPU (its levels, more with overlapping NUMA
 * groups), S the signatures using such a domain (1 without restricted
 * waiters), I the idle CPUs with waiters of their own and L the levels;
 * plus O(M) for a cgroup with waiters of M restricted masks.  Per sample
 * (wr_sample_close()): O(idle CPUs x L).  The rare events cost more and
 * say so: a new restricted mask O(CPUs x L), a topology change O(CPUs x
 * keys x D).
 *
 * Bounds of what is kept, each overflow counted (never a silent loss):
 * WR_KEYS keys per CPU (more: merged into the CPU's `other` key of the
 * same kind, cgroup unknown), WR_MASKS masks and WR_SIGS signatures (more:
 * the waiter counts as one of unknown destinations), WR_CGS cgroups (more:
 * the `other` row).
 *
 * Pure C shared by the module and the host tests: <linux/types.h> only,
 * no allocation (the caller hands one block of wr_bytes()), no division.
 */
#ifndef SHADOW_CORE_WASTED_REPLAY_H
#define SHADOW_CORE_WASTED_REPLAY_H

#include <linux/types.h>
#include "wasted_core.h"

#define WR_KEYS		16	/* distinct waiter keys per CPU */
#define WR_MASKS	16	/* distinct restricted masks, machine-wide */
#define WR_SIGS		32	/* distinct CPU signatures (sets of masks) */
#define WR_CHAIN	(WASTED_MAX_DOMAINS + 1)	/* a CPU's domains, the machine last */
#define WR_COVERS	32	/* domains that hold one CPU */
#define WR_CGS		WASTED_CGS
#define WR_MASK_WORDS	SHADOW_WORK_MASK_WORDS

/* CPU states */
enum wr_state {
	WR_OFF,		/* offline: not counted */
	WR_VOID,	/* online, state unknown */
	WR_IDLE,
	WR_BUSY,
	WR_NR_STATES
};

/* waiter kinds */
enum wr_kind {
	WR_ANY,		/* every online CPU may take it */
	WR_PINNED,	/* no other CPU may */
	WR_UNKNOWN,	/* destinations unknown */
	WR_RESTR,	/* only the CPUs of its mask */
	WR_NR_KINDS
};

/* One waiter key: who waits (cgroup, tracked process), and where it may go. */
struct wr_key {
	u64 cgid;	/* 0: cgroup unknown */
	u32 n;		/* waiters with this key on the CPU */
	u16 row;	/* (kept by the replay) its cgroup row */
	u8 kind;	/* enum wr_kind */
	u8 mask;	/* WR_RESTR: interned mask id (wr_mask()) */
	u8 trk;		/* a thread of the tracked process */
};

/* Lazily integrated indicator: time with @on set, up to @t. */
struct wr_int {
	u64 acc;
	u64 t;
	u32 on;
};

/* Lazily integrated count: time x count, up to @t. */
struct wr_sum {
	u64 acc;
	u64 t;
	u32 v;
};

/* This sample's time of one CPU, by class (the driver reads and clears it). */
struct wr_pieces {
	u64 busy, none, unknown, vd, off;
	u64 level[WASTED_NR_LEVELS];	/* wasted, by level */
};

struct wr_cpu {
	u8 state;		/* enum wr_state */
	u8 nkeys;
	u8 sig;			/* its signature */
	u8 nchain;		/* domains, the machine (WR_DOM_ALL) last */
	u8 ncovers;
	u8 special;		/* idle with waiters of its own: classified at every change */
	u8 cls;			/* special: enum wasted_class now */
	u8 lvl;			/* special: its level (enum wasted_level) now */
	u8 saved_state;		/* (wr_topology() only) */
	u16 chain[WR_CHAIN];
	u8 chain_lvl[WR_CHAIN];	/* enum wasted_level of each (WASTED_LVL_NONE: the machine) */
	u16 covers[WR_COVERS];	/* every domain holding this CPU */
	u32 own_any, own_unknown, own_total;
	u32 own_mask[WR_MASKS];	/* its restricted waiters per mask */
	u64 since;		/* start of the open piece */
	u64 idle_at;		/* when it last turned idle */
	u64 busy_at;		/* when it last turned busy */
	u8 idle_lvl;		/* its level then (enum wasted_level; NONE: not wasted) */
	u64 snap[WR_CHAIN];	/* normal idle: its signature's integral per chain domain at since */
	u64 snap_unk;
	struct wr_key keys[WR_KEYS];
	struct wr_pieces p;
};

/* One cgroup's row: the published accumulators and the lazy state behind them. */
struct wr_cg {
	struct wasted_cg_acc a;		/* cgid, used, wasted/wait/idle/busy/unknown ns */
	u32 n_any, n_pinned, n_unknown, n_total;
	u32 r[WR_MASKS];		/* restricted waiters per mask */
	u32 rmasks;			/* bit m: r[m] > 0 */
	u64 t;				/* accounted up to */
	u64 s_gidle, s_gunk;		/* global integrals at t */
	u64 s_midle[WR_MASKS], s_munk[WR_MASKS];
	u64 s_w;			/* the wasted integral its rule reads, at t */
};

#define WR_DOM_ALL	0	/* domain 0: every CPU (the level `none`) */

struct wr_mask {
	u32 refs;		/* keys naming it */
	u16 base;		/* window of WR_MASK_WORDS words from word base */
	u64 bits[WR_MASK_WORDS];
	u32 idle_in, void_in;	/* idle / void CPUs in it */
	struct wr_int m_idle;	/* time with an idle CPU in it */
	struct wr_int m_unk;	/* ... none idle, one void */
};

/* One domain span: its waiters any CPU may take, and which signatures use it. */
struct wr_dom {
	u32 cnt_any;
	u32 sigs;		/* bit s: signature s uses the domain */
};

/* One (signature, domain): the waiters its CPUs could take there, and the time there were some. */
struct wr_sd {
	u32 cnt;
	struct wr_int a;	/* time with cnt > 0 */
};

struct wr_sig {
	u32 masks;		/* bit m: mask m holds these CPUs */
	u32 cpus;		/* CPUs with this signature */
	u32 idle_normal;	/* idle without waiters of their own */
	u32 special_waste;	/* special CPUs now wasted */
	struct wr_int unk;	/* count at the machine 0 while unknown waiters or void CPUs exist */
	struct wr_sum waste;	/* wasted CPUs of this signature */
};

/* Counters of what the bounds cost (each reported by the module). */
struct wr_overflow {
	u64 keys;		/* waiters merged into a CPU's `other` key */
	u64 masks;		/* restricted waiters counted unknown: no mask slot */
	u64 covers;		/* CPUs in more domains than WR_COVERS (counted unknown) */
	u64 late;		/* changes applied after their time (stamps out of order) */
};

struct wr_replay {
	u32 nr_cpus, words, ndom, dom_cap;
	u32 nmasks, nsigs;
	u64 now;			/* the latest change applied */
	struct wr_cpu *cpu;		/* [nr_cpus] */
	u64 *dom_span;			/* [dom_cap][words] */
	struct wr_dom *dom;		/* [dom_cap] */
	u32 *cnt_mask;			/* [WR_MASKS][dom_cap] */
	struct wr_sd *sd;		/* [WR_SIGS][dom_cap] */
	u64 *idle;			/* [words] bitmap of idle CPUs */
	u64 *special;			/* [words] bitmap of special CPUs */
	u64 *vd;			/* [words] bitmap of void CPUs */
	u64 *touched;			/* [words] CPUs whose state or waiters changed this sample */
	u32 *hash;			/* [2 * dom_cap] span -> domain (building only) */
	u32 nr_special;
	u32 idle_count, void_count, busy_count;
	u32 unk;			/* waiters of unknown destinations + void CPUs */
	struct wr_int g_idle;		/* time with an idle CPU */
	struct wr_int g_unk;		/* ... none idle, one void */
	struct wr_sum w_all;		/* wasted CPUs */
	struct wr_mask mask[WR_MASKS];
	struct wr_sig sig[WR_SIGS];
	struct wr_cg cg[WR_CGS];	/* open addressing on cgid */
	struct wr_cg other;		/* cgroups past the table (and cgid 0 but unknown kind) */
	struct wr_cg tracked;		/* the tracked process */
	struct wr_cg unscanned;		/* waiters of unknown cgroup and destinations */
	u32 nr_cg;
	struct wr_overflow ovf;
};

/* Bytes of the block wr_init() carves for @nr_cpus CPUs and up to @dom_cap domains. */
u64 wr_bytes(u32 nr_cpus, u32 dom_cap);

/*
 * Lay out @r in @mem (wr_bytes() long, zeroed by the caller) and load the
 * topology @t (every CPU OFF, no waiter) at time @now.  Return: 0, or -1
 * when the topology needs more than @dom_cap distinct domain spans.
 */
int wr_init(struct wr_replay *r, void *mem, u32 nr_cpus, u32 dom_cap,
	    const struct wasted_topo *t, u64 now);

/*
 * A new topology at @now: every CPU's open piece is closed, the domains
 * rebuilt and every count recomputed from the CPUs' keys.  Return: 0, -1
 * as wr_init().  O(CPUs x keys x D).
 */
int wr_topology(struct wr_replay *r, const struct wasted_topo *t, u64 now);

/* Does @t hold the topology @r was built from (spans and levels)? */
bool wr_topology_same(const struct wr_replay *r, const struct wasted_topo *t);

/*
 * Intern a restricted mask (a window of WR_MASK_WORDS words from word
 * @base): its id, or -1 when the mask or signature tables are full (the
 * caller notes such a waiter as WR_UNKNOWN).  A new mask costs O(CPUs in
 * it x L) at @now.
 */
int wr_mask(struct wr_replay *r, u64 now, u16 base, const u64 *bits);

/* --- changes, in time order (an earlier @now is applied at r->now and counted late) --- */

void wr_set_state(struct wr_replay *r, u64 now, u32 cpu, enum wr_state st);

/* @n more (or, wr_del(), fewer) waiters of key @k on @cpu. */
void wr_add(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *k, u32 n);
void wr_del(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *k, u32 n);

/* Every waiter of @cpu gone. */
void wr_clear(struct wr_replay *r, u64 now, u32 cpu);

/* @cpu's waiters are now exactly @keys[0..n) (the difference is applied). */
void wr_set_keys(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *keys, u32 n);

/* --- per sample --- */

/*
 * Close every CPU's open piece at @now into its wr_pieces (an idle or
 * void CPU, and any CPU touched or in @more, a bitmap of r->words words or
 * NULL), so the driver can charge them.  O(CPUs to close x L).
 */
void wr_sample_close(struct wr_replay *r, u64 now, const u64 *more);

/* Bring every cgroup row's accumulators up to @now (for readers). */
void wr_cgs_flush(struct wr_replay *r, u64 now);

/* Close every CPU's open piece (readers: busy CPUs' time too). */
void wr_close_all(struct wr_replay *r, u64 now);

/* The row of @cgid, NULL if the table has none (lookup only). */
struct wr_cg *wr_cg_find(struct wr_replay *r, u64 cgid);

/* Zero every accumulator (a reset), keeping the state and the counts. */
void wr_zero(struct wr_replay *r, u64 now);

/*
 * A cgroup with a waiter that could run on idle CPU @cpu, from the nearest
 * domain out (the trace event's cgroup): 0 if none is known.  O(CPUs of
 * the domains looked at x keys): for the trace event only.
 */
u64 wr_cause_cgid(const struct wr_replay *r, u32 cpu);

/*
 * When idle @cpu's wasted time at exactly @level began: the latest of its
 * turn to idle and the last change of the waiter counts of its domains up
 * to the one at @level (the time the nearest waiter came within @level,
 * or the nearer ones went).  0 when not known (the CPU is not idle, not
 * wasted at @level now, or has waiters of its own).  O(L).
 */
u64 wr_level_since(const struct wr_replay *r, u32 cpu, u8 level);

/* Is @cpu wasted at @now?  Its class and level (exact, for tests and the trace event). */
int wr_classify(const struct wr_replay *r, u32 cpu, u8 *level);

#endif /* SHADOW_CORE_WASTED_REPLAY_H */
