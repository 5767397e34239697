/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_shadow internal interfaces: the per-CPU shadow state that the
 * tracepoint probes publish (shadow.c) and that debugfs.c and audit.c read.
 */
#ifndef SHADOW_SHADOW_H
#define SHADOW_SHADOW_H

#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/workqueue.h>
#include "core/shadow_math.h"
#include "core/work.h"
#include "waiters.h"

#ifndef SHADOW_VERSION		/* from the top-level VERSION file (module/Kbuild) */
#error "SHADOW_VERSION is not defined: build through module/Kbuild"
#endif
#define SHADOW_MAX_NODES	64	/* cfs_rqs recorded per CPU for `groups` */
#define SHADOW_MAX_DEPTH	16	/* cgroup nesting the walk follows */
#define SHADOW_PATH_LEN		128	/* trace event path field */
#define SHADOW_WALK_BUDGET_DEFAULT 1024	/* entities one walk may visit (walk_budget) */

/* One queued cfs_rq of a published walk (the `groups` rows). */
struct shadow_node {
	u64 cgid;
	u64 shadow_fp;
	u64 shadow_avg_fp;
	u64 shadow_fresh_fp;	/* shadow with each task's load_avg projected to now (core/pelt_math.h) */
	u64 h_load;		/* this cfs_rq's h_load as update_cfs_rq_h_load() computes it */
	u64 se_weight;		/* w(G) of the owning group entity, 0 for root */
	u64 cfs_weight;		/* W: load.weight of this cfs_rq */
	u64 load_avg;
	u64 runnable_avg;
	u64 util_avg;
	u64 task_load;		/* sum of load_avg of the tasks queued directly here */
	u32 nr_tasks;		/* tasks queued directly here */
	u32 h_tasks;		/* tasks queued in the subtree */
	u32 depth;
};

/*
 * Why a CPU's published state cannot be used (freshness):
 * SHADOW_FRESH means it describes the CPU as of its last event.  The
 * publisher sets the others; a judgement that needs such a CPU is void.
 */
enum shadow_void_reason {
	SHADOW_FRESH = 0,
	SHADOW_VOID_NEVER,		/* nothing published since load */
	SHADOW_VOID_WALK_FAILED,	/* the last walk was discarded or over budget */
	SHADOW_VOID_DISABLED,		/* enable=0 (or re-enabled, not walked since) */
	SHADOW_VOID_RESET,		/* reset, not walked since */
	SHADOW_VOID_HOTPLUG,		/* the CPU went offline or came back, not walked since */
	SHADOW_VOID_STALE,		/* older than the documented bound */
	SHADOW_VOID_UNREADABLE,		/* the reader could not get a consistent copy */
	SHADOW_NR_VOID_REASONS
};

/* The root values of a published walk: what the audit reads. */
struct shadow_scalars {
	u64 time_ns;		/* ktime_get_mono_fast_ns() of the walk */
	u64 load_avg;
	u64 runnable_avg;
	u64 util_avg;
	u64 weight;
	u64 capacity;
	u64 shadow_fp;
	u64 shadow_avg_fp;
	/*
	 * shadow with every queued task's load_avg brought to its cfs_rq's
	 * PELT clock (walk.c, core/pelt_math.h)
	 */
	u64 shadow_fresh_fp;
	/*
	 * sum of task_h_load() over queued tasks, as the kernel computes it
	 * (walk.c, shadow_h_load_scale())
	 */
	u64 h_load;
	u32 nr_running;
	u32 h_nr_running;
	u32 movable;		/* work to give: queued, not running, may move */
	struct shadow_work work;	/* the same waiters, per destination (core/work.h) */
	u8 void_reason;		/* enum shadow_void_reason; SHADOW_FRESH when usable */
	u32 nr_nodes;
	bool valid;		/* a walk was published since load */
	bool truncated;		/* more cfs_rqs than SHADOW_MAX_NODES */
};

struct shadow_snap {
	struct shadow_scalars s;
	struct shadow_node nodes[SHADOW_MAX_NODES];
};

/* Counters since the last reset (debugfs `reset` bumps shadow_reset_gen). */
struct shadow_stats {
	u32 gen;
	struct shadow_divstat div;
	u64 published;
	u64 discarded;
	u64 over_budget;
	/*
	 * walks caught inside an enqueue or dequeue, or overtaken by one
	 * before their last step: started again
	 */
	u64 deferred;
};

/*
 * What the audit needs on every event, from bounded work (waiters.c):
 * written on every enqueue/dequeue and on the switches that change who
 * waits, into the copy readers are not directed to, then published by
 * flipping the latch (shadow_cpu.evt_seq).
 */
struct shadow_evt {
	u64 load_avg;
	u64 runnable_avg;
	u64 util_avg;
	u64 weight;
	u64 capacity;
	u32 nr_running;
	u32 h_nr_running;
	u32 movable;
	bool walk_failed;	/* the last walk attempt was discarded or over budget */
	bool walk_stale;	/* walks are due but none was published within the bound */
	u32 work_gen;		/* the waiters' gen whose masks and groups @work holds */
	struct shadow_work work;
};

/* What a full walk (walk.c) computes: published at most once per walk. */
struct shadow_walk_hdr {
	u64 time_ns;		/* ktime_get_mono_fast_ns() of the walk */
	u64 shadow_fp;
	u64 shadow_avg_fp;
	u64 shadow_fresh_fp;
	u64 h_load;
	u32 nr_nodes;
	u32 enable_gen;		/* shadow_enable_gen, shadow_reset_gen and this */
	u32 reset_gen;		/* CPU's hp_gen when it was walked: a change */
	u32 hp_gen;		/* since then voids the CPU until the next walk */
	bool valid;
	bool truncated;
};

struct shadow_walked {
	struct shadow_walk_hdr h;
	struct shadow_node nodes[SHADOW_MAX_NODES];
};

struct shadow_wcfs;

enum shadow_walk_phase {
	SHADOW_WALK_IDLE,	/* no walk in progress */
	SHADOW_WALK_TASKS,	/* summing the snapshot's tasks */
	SHADOW_WALK_SUMS,	/* the bottom-up pass over the queued cfs_rqs */
};

/*
 * A walk in progress, kept between the hook calls that run its steps
 * (written under the CPU's rq lock only).  The snapshot holds the queued
 * tasks' entities; it stays valid only while no task was enqueued or
 * dequeued on this CPU (shadow_cpu.ops unchanged): every dequeue fires
 * sched_update_nr_running_tp, whose probe bumps ops, so a task the
 * snapshot names cannot have left (or been freed) while ops is unchanged.
 */
struct shadow_walk {
	u8 phase;		/* enum shadow_walk_phase */
	bool safe;		/* the snapshot was taken where nothing is half updated */
	u32 ops;		/* shadow_cpu.ops at the snapshot */
	u32 epoch;		/* shadow_epoch at the snapshot */
	u32 nr_se;		/* tasks in the snapshot */
	u32 pos;		/* next task (TASKS) or cfs_rq (SUMS, counting down) */
	u32 nr_cfs;		/* queued cfs_rqs found */
	u32 nr_nodes;		/* recorded for `groups` */
	u32 visited;		/* tasks and levels visited */
	u32 delayed;		/* delayed-dequeue sleepers found */
	u32 steps;		/* hook calls this walk has taken so far */
	u32 gen;		/* hash slots of other generations are empty */
	u32 last;		/* the entry the last task was found in */
	u32 queued;		/* the root's h_nr_running the snapshot describes */
	u32 runnable;		/* the root's h_nr_runnable then (delayed dequeue kernels) */
	u64 h_load;		/* sum of task_h_load() */
	u64 root_lut;		/* the root's avg.last_update_time at the snapshot */
	/* sized at load from walk_budget (shadow_walk_alloc()) */
	u32 cap_se;
	u32 cap_cfs;
	u32 hash_mask;
	struct sched_entity **se;
	struct shadow_wcfs *wc;
	u32 *slot_gen;
	u16 *slot_ent;
};


/*
 * Per-CPU state, indexed by the rq's CPU.  Every writer holds that rq's
 * lock (the tracepoints fire under it), so writers are serialized.  Two
 * latches publish: the event state (evt, every event) and the walk
 * (walked, its node array written in place by the walk).  A writer fills
 * the copy readers are not directed to and flips the latch once; readers
 * copy the other one and retry a bounded number of times.
 */
struct shadow_cpu {
	seqcount_latch_t evt_seq;
	struct shadow_evt evt[2];
	seqcount_latch_t walk_seq;
	seqcount_t stats_seq;
	struct shadow_stats stats;
	atomic_t hp_gen;	/* bumped by the CPU hotplug callbacks */
	/* writer-only (rq lock) */
	struct rq *rq;		/* learned from the tracepoints */
	struct shadow_node *work;	/* the walk's output: walked[unpublished].nodes */
	u64 pelt_pub_lut;	/* root avg.last_update_time of the last walk or its failure */
	u64 due_lut;		/* root avg.last_update_time when the pending walk became due */
	u64 backoff_lut;	/* over budget: no new walk before this root PELT time ... */
	u32 backoff_tasks;	/* ... unless fewer tasks than this are queued */
	u32 backoff_shift;	/* the back-off doubles with each failure in a row */
	u32 ops;		/* enqueues and dequeues seen (validates a walk's snapshot) */
	u32 retry_ops;		/* ops when a walk was caught mid-operation: retried after it */
	u32 dirty;		/* events since the last walk */
	u32 due_dirty;		/* dirty when the pending walk became due */
	unsigned long pub_jiffies;	/* jiffies at the last walk or its failure */
	u32 epoch;		/* shadow_epoch at the last published walk */
	bool walk_failed;
	bool walk_due;		/* a walk should run at the next safe hook call */
	bool walk_stale;	/* walks are due but none was published within the bound */
	bool retry_armed;	/* retry_ops holds: no new walk before an operation ends */
	bool evt_valid;		/* an event's state was published */
	struct shadow_waiters wq;	/* who waits (waiters.c) */
	struct shadow_walk walk;	/* the walk in progress (walk.c) */
	struct shadow_walked walked[2];
	struct work_struct refresh;	/* shadow_refresh_all(): a no-op run on this CPU */
} ____cacheline_aligned;

extern struct shadow_cpu **shadow_cpus;
extern unsigned int shadow_walk_budget;
extern bool shadow_exact;
extern atomic_t shadow_enable_gen;
extern const char *shadow_missing_tp;
extern u64 shadow_pelt_refresh_ns;
extern atomic_t shadow_reset_gen;
extern u64 shadow_reset_ns;
extern u64 shadow_enable_ns;
DECLARE_STATIC_KEY_TRUE(shadow_enabled);

int shadow_state_alloc(void);
void shadow_state_free(void);
int shadow_probes_register(void);
void shadow_probes_unregister(void);
const char *shadow_hook_state(int i, const char **name);
int shadow_nr_hooks(void);

bool shadow_read_cpu(int cpu, struct shadow_snap *snap);
bool shadow_read_scalars(int cpu, struct shadow_scalars *s);
bool shadow_read_stats(int cpu, struct shadow_scalars *s, struct shadow_stats *stats);
bool shadow_read_node(int cpu, u64 cgid, struct shadow_node *out);
void shadow_reset(void);
void shadow_enable_changed(void);
void shadow_refresh_all(void);
void shadow_refresh_cpu(int cpu);
size_t shadow_state_bytes(void);
struct seq_file;
void shadow_state_info(struct seq_file *m);
struct cpumask;
unsigned int shadow_wait_cpus(struct cpumask *pending, struct work_struct *(*item)(int cpu),
			      const char *what);
const char *shadow_void_name(unsigned int reason);

int shadow_debugfs_init(void);
void shadow_debugfs_exit(void);

extern unsigned int shadow_checks_passed;

/* cgpath.c: the path of the cgroup with id @cgid; false if it is gone or going. */
bool shadow_cgid_path(u64 cgid, char *buf, size_t len);

#endif
