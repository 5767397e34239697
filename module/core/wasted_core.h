/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wasted_core: the vocabulary of wasted-core time and the run-queue wait
 * split (domain levels, classes, attribution keys) and the accumulators
 * the sampler (module/wasted.c) adds each sample's time to; the time
 * itself comes from the replay (wasted_replay.h).
 *
 * Wasted-core time of a CPU C: the time C was idle while at least one CFS
 * task that could run on C waited on another CPU's run queue (could run:
 * the same rule as work to give, shadow_work_for()).  Time when that is
 * unknown (a waiter whose mask was not recorded, a CPU past the scan, a
 * CPU whose state cannot be read) is unknown, never wasted and never none.
 *
 * Pure C shared by the module and the host unit tests (tests/unit/
 * test_wasted_core.c): <linux/types.h> only, no allocation, no division.
 */
#ifndef SHADOW_CORE_WASTED_CORE_H
#define SHADOW_CORE_WASTED_CORE_H

#include <linux/types.h>
#include "work.h"

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

/* One piece of a CPU's time: its class, and its level when wasted. */
struct wasted_out {
	u8 cls;
	u8 level;		/* WASTE: enum wasted_level of the nearest waiter */
};

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

#define WASTED_KEYS		48	/* attribution rows kept per CPU; the rest: other */

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


#endif /* SHADOW_CORE_WASTED_CORE_H */
