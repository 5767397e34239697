/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wasted_core: wasted-core time and the run-queue wait split, from the
 * per-CPU summaries the hot path publishes (work to give, core/work.h,
 * and who waits, struct shadow_wasted_ids below).
 *
 * Wasted-core time of a CPU C: the time C was idle while at least one CFS
 * task that could run on C waited on another CPU's run queue (could run:
 * the same rule as work to give, shadow_work_for()).  Time when that is
 * unknown (a waiter whose mask was not recorded, a CPU past the scan, a
 * CPU whose state cannot be read) is unknown, never wasted and never none.
 *
 * The module samples (module/wasted.c): one timer reads every CPU's
 * published summary, wasted_classify() classifies each CPU and each
 * waiter, and the accumulators below add the time since the previous
 * sample to what this sample saw.
 *
 * Pure C shared by the module and the host unit tests (tests/unit/
 * test_wasted_core.c): <linux/types.h> only, no allocation, no division.
 */
#ifndef SHADOW_CORE_WASTED_CORE_H
#define SHADOW_CORE_WASTED_CORE_H

#include <linux/types.h>
#include "work.h"

/*
 * Who waits on one CPU (filled under the rq lock with the work summary,
 * published with it): per waiter the scan noted, its cgroup id and how
 * the summary recorded it.  Waiters past WASTED_IDS_MAX, and the queued
 * tasks the scan did not reach (counted `unknown` in the summary), have
 * no entry: their cgroup is unknown.
 */
#define WASTED_IDS_MAX		8

enum wasted_wkind {
	WASTED_W_R0,		/* restricted: mask restricted[0] of the summary */
	WASTED_W_R1,
	WASTED_W_R2,
	WASTED_W_R3,
	WASTED_W_ANY,		/* every online CPU may take it */
	WASTED_W_PINNED,	/* no other CPU may */
	WASTED_W_UNKNOWN,	/* restricted, mask not recorded */
	WASTED_NR_WKINDS
};

/* or'ed into a kind: the waiter is a thread of the tracked process (`run`'s command) */
#define WASTED_W_TRACKED	0x80

struct shadow_wasted_ids {
	u8 valid;		/* published by a scan that noted ids */
	u8 nr;
	u8 kind[WASTED_IDS_MAX];
	u64 cgid[WASTED_IDS_MAX];
};

/*
 * One CPU's waiting state from one change on: what the hot path appends
 * to the CPU's change log (wasted.c) whenever it differs from the last
 * entry.
 */
struct wasted_state {
	u64 stamp;		/* ktime_get_mono_fast_ns() of the change */
	u8 busy;		/* nr_running > 0 */
	struct shadow_work work;
	struct shadow_wasted_ids ids;
};

/*
 * Is the state (@busy, @w, @ids) the one @s holds (counts, masks in use
 * with their windows' bases, waiters)?
 */
bool wasted_state_same(const struct wasted_state *s, bool busy, const struct shadow_work *w,
		       const struct shadow_wasted_ids *ids);

/* What the sampler read for one CPU. */
enum wasted_in_state {
	WASTED_IN_OFF,		/* offline: not counted */
	WASTED_IN_VOID,		/* online, state unusable: idle or not, unknown */
	WASTED_IN_IDLE,		/* nr_running == 0 */
	WASTED_IN_BUSY,
};

struct wasted_in {
	u8 state;
	const struct shadow_work *w;		/* IDLE/BUSY only */
	const struct shadow_wasted_ids *ids;	/* IDLE/BUSY only */
};

/*
 * Domain levels, named as the audit names them (sd->name, or from the
 * flags), plus WASTED_LVL_NONE for a waiter no domain of the CPU spans.
 */
enum wasted_level {
	WASTED_LVL_SMT,
	WASTED_LVL_CLS,
	WASTED_LVL_MC,
	WASTED_LVL_PKG,
	WASTED_LVL_DIE,
	WASTED_LVL_NUMA,
	WASTED_LVL_OTHER,
	WASTED_LVL_NONE,
	WASTED_NR_LEVELS
};

#define WASTED_MAX_DOMAINS	8	/* domains per CPU the topology keeps */

extern const char * const wasted_level_name[WASTED_NR_LEVELS];

/* Level of a domain name ("SMT", "MC", "PKG", "DIE", "NUMA", ...). */
int wasted_level_of(const char *name);

/*
 * Each CPU's domains, lowest first: nlev[c] levels, slot[c * MAX + l] their
 * enum wasted_level, span words at span + (c * MAX + l) * words.
 */
struct wasted_topo {
	u32 nr_cpus;
	u32 words;
	u8 *nlev;
	u8 *slot;
	u64 *span;
};

static inline u64 *wasted_topo_span(const struct wasted_topo *t, u32 cpu, u32 l)
{
	return t->span + ((u64)cpu * WASTED_MAX_DOMAINS + l) * t->words;
}

/* Cgroups seen waiting in one sample (at most WASTED_TICK_CGS; the rest are "other"). */
#define WASTED_TICK_CGS		64

struct wasted_tick_cg {
	u64 cgid;
	u32 any;		/* its waiters any CPU may take */
	u32 n_idle;		/* its waiters with an idle allowed CPU */
	u32 n_busy;		/* its waiters with every allowed CPU busy */
	u32 n_unknown;		/* its waiters whose allowed CPUs' state is unknown */
	/*
	 * union of its restricted waiters' masks: a bitmap of the scratch's
	 * words (CPU n is bit n % 64 of word n / 64) in the scratch's dest
	 */
	u64 *dest;
};

/* Classes of one CPU in one sample. */
enum wasted_class {
	WASTED_C_OFF,		/* offline */
	WASTED_C_BUSY,		/* runs something */
	WASTED_C_NONE,		/* idle, no waiter could run here */
	WASTED_C_WASTE,		/* idle while a waiter that could run here waited */
	WASTED_C_UNKNOWN,	/* idle, could-run-here unknown */
	WASTED_C_VOID,		/* its own state unknown */
	WASTED_NR_CLASSES
};

struct wasted_out {
	u8 cls;
	u8 level;		/* WASTE: enum wasted_level of the nearest waiter */
	bool cg_other;		/* WASTE: a waiter for it had no tick cgroup slot */
	bool trk;		/* WASTE: a waiter of the tracked process could run here */
	u64 cgs;		/* WASTE: bit i: tick cgroup i has a waiter for it */
};

/* Scratch of one sample: sized by the caller for @words u64 words per bitmap. */
struct wasted_scratch {
	u32 words;
	u64 *idle;		/* idle CPUs */
	u64 *voidm;		/* online CPUs in unknown state */
	u64 *any_src;		/* CPUs with an `any` waiter */
	u64 *unk_src;		/* CPUs with a waiter of unknown destinations, or void */
	u64 *yes;		/* per CPU: CPUs with a waiter that could run on it */
	u32 *rsrc;		/* CPUs with recorded restricted waiters */
	u32 nr_rsrc;
	/* (WASTED_TICK_CGS + 1) * words: cg[i].dest at i * words, trk.dest after them */
	u64 *dest;
	struct wasted_tick_cg cg[WASTED_TICK_CGS];
	u32 nr_cg;
	struct wasted_tick_cg trk;	/* the tracked process's waiters (cgid unused) */
	/* waiters without a cgroup slot (past WASTED_TICK_CGS) by wait class */
	u32 other_idle, other_busy, other_unknown;
	u32 unscanned;		/* queued tasks the scans did not reach: cgroup unknown */
	u32 waiters;		/* waiters with an id entry */
};

/*
 * Classify every CPU of @in[0..n) (n <= t->nr_cpus, bitmaps of s->words)
 * into @out, and the waiters by cgroup and wait class into @s.  A
 * recorded mask restricted[r] covers CPUs from word base[r] on (struct
 * shadow_work): any CPU number, up to s->words * 64.
 * O(n * (words + levels * words) + waiters + restricted sources
 * + (cgroups + 1) * words).
 */
void wasted_classify(const struct wasted_topo *t, const struct wasted_in *in, u32 n,
		     struct wasted_scratch *s, struct wasted_out *out);

/* --- accumulation --- */

/*
 * Attribution key of a slice of wasted time: the domain level, and what
 * the idle CPU's balancing at that level did during the stretch: an
 * attempt's verdict and reason (audit_core's enums), right's outcome
 * (moved, or unmoved with a cause), or no attempt at all.
 */
#define WASTED_V_NO_ATTEMPT	15	/* verdict field: no attempt during the stretch */

enum wasted_cause {
	WASTED_CAUSE_NONE,	/* not a right pick */
	WASTED_CAUSE_MOVED,	/* right, moved tasks (to a sibling, or waste went on) */
	WASTED_CAUSE_KICKED,	/* right, active balance kicked (a push is pending) */
	WASTED_CAUSE_PINNED,	/* right, every task examined refused on affinity */
	WASTED_CAUSE_RUNNING,	/* right, only running tasks examined */
	WASTED_CAUSE_HOT,	/* right, refused as cache-hot (task_hot) */
	WASTED_CAUSE_LLC,	/* right, refused by the cache-aware (LLC) policy */
	WASTED_CAUSE_THROTTLED,	/* right, the tasks' group is throttled */
	WASTED_CAUSE_LOAD,	/* right, allowed tasks not taken: load above the imbalance */
	WASTED_CAUSE_NO_TASK,	/* right, no task examined (busiest queue had none to offer) */
	WASTED_CAUSE_UNKNOWN,	/* right, nothing moved, cause not known */
	WASTED_NR_CAUSES
};

extern const char * const wasted_cause_name[WASTED_NR_CAUSES];

static inline u32 wasted_key(u32 level, u32 verdict, u32 reason, u32 cause)
{
	return (level & 0xff) << 24 | (verdict & 0xff) << 16 | (reason & 0xff) << 8 |
	       (cause & 0xff);
}

#define WASTED_KEY_LEVEL(k)	(((k) >> 24) & 0xff)
#define WASTED_KEY_VERDICT(k)	(((k) >> 16) & 0xff)
#define WASTED_KEY_REASON(k)	(((k) >> 8) & 0xff)
#define WASTED_KEY_CAUSE(k)	((k) & 0xff)

#define WASTED_KEYS		24	/* attribution rows kept per CPU; the rest: other */

struct wasted_key_slot {
	u32 key;
	u32 attempts;		/* attempts at that level seen during wasted time */
	u64 ns;
};

struct wasted_keys {
	u32 nr;
	u64 other_ns;		/* keys past WASTED_KEYS */
	u32 other_attempts;
	struct wasted_key_slot k[WASTED_KEYS];
};

void wasted_keys_add(struct wasted_keys *t, u32 key, u64 ns, u32 attempts);

/* Per-CPU totals since reset. */
struct wasted_cpu_acc {
	u64 sampled_ns;		/* online time covered by samples */
	u64 idle_ns;		/* NONE + WASTE + UNKNOWN */
	u64 wasted_ns;
	u64 unknown_ns;		/* UNKNOWN + VOID */
	u64 level_ns[WASTED_NR_LEVELS];
	u64 bound_ns;		/* time whose class the samples could not pin down (see wasted.c) */
	u64 intervals;		/* wasted stretches begun */
	u64 longest_ns;
	u64 stretch_ns;		/* the current stretch so far, gaps inside it included */
	u64 gap_ns;		/* not wasted since its last wasted piece */
	bool in_stretch;
};

/*
 * A wasted stretch: wasted time with interruptions of at most this long
 * (a waiting task moved between two busy CPUs is off every run queue for
 * microseconds; a stretch must not end there).  Attribution looks at the
 * attempts made during the stretch; the trace event reports it whole.
 */
#define WASTED_STRETCH_GAP_NS	(10ULL * 1000 * 1000)

/*
 * Add @ns of class @o to @a (one piece of a sample interval in which
 * every CPU's state is known).  Return: true when a wasted stretch ended
 * with this piece: its length (gaps inside included) in *@ended_ns, and
 * how long ago it ended, at the piece's end, in *@gap_ns.
 */
bool wasted_cpu_add(struct wasted_cpu_acc *a, const struct wasted_out *o, u64 ns,
		    u64 *ended_ns, u64 *gap_ns);

/* Per-cgroup totals since reset: an open-addressed table of WASTED_CGS slots. */
#define WASTED_CGS		256

struct wasted_cg_acc {
	u64 cgid;
	bool used;
	u64 wasted_ns;		/* CPU time idle while a waiter of this cgroup could run there */
	u64 wait_ns;		/* waiter time (task-ns) on run queues */
	u64 wait_idle_ns;	/* ... while an allowed CPU was idle: the balancer's share */
	u64 wait_busy_ns;	/* ... while every allowed CPU was busy: capacity and shares */
	u64 wait_unknown_ns;	/* ... while that was unknown */
};

struct wasted_cgs {
	struct wasted_cg_acc slot[WASTED_CGS];
	struct wasted_cg_acc other;	/* cgroups past the table, and waiters without a slot */
	struct wasted_cg_acc tracked;	/* the tracked process (`run`'s command), whatever its cgroup */
	u64 unscanned_ns;		/* waiter time of tasks the scans did not reach */
	u32 nr;
};

/* The slot of @cgid, inserted if new; &t->other when the table is full. */
struct wasted_cg_acc *wasted_cg_get(struct wasted_cgs *t, u64 cgid);

/* Add one sample's cgroup waits (@s) and, per cgroup, its wasted CPU time. */
void wasted_cgs_add(struct wasted_cgs *t, const struct wasted_scratch *s,
		    const struct wasted_out *out, u32 n, u64 ns);

#endif /* SHADOW_CORE_WASTED_CORE_H */
