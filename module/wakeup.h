/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wakeup placement audit (wakeup.c): a kretprobe on
 * select_task_rq_fair() notes every wakeup of a CFS task placed on a busy
 * CPU while a CPU it may run on was idle, per domain level and path, and
 * marks the domains where that left a CPU idle, for wasted.c to charge
 * the wasted time that followed to the placement.
 */
#ifndef SHADOW_WAKEUP_H
#define SHADOW_WAKEUP_H

#include <linux/types.h>
#include "core/wasted_core.h"
#include "core/wasted_why.h"

struct seq_file;
struct dentry;

/* Counts since the module loaded (the reader subtracts a base taken at reset). */
struct shadow_wake_counts {
	u64 calls;		/* return-handler calls (wakeups and forks of CFS tasks that could move) */
	u64 busy;		/* ... placed on a busy CPU */
	u64 skipped;		/* ... not looked at: the domains changed since the table was read */
	u64 miss[WASTED_NR_LEVELS][WASTED_NR_WAKE_PATHS];	/* by the nearest idle CPU's level */
	u64 idle[WASTED_NR_LEVELS][WASTED_NR_WAKE_PATHS];	/* idle CPUs it could have had, summed */
};

/* The domain table; register the probe (the sampler and its idle bitmap exist); its state for info. */
void shadow_wake_init(void);
void shadow_wake_exit(void);
/* Free the table, marks and counts (the sampler has stopped). */
void shadow_wake_free(void);
void shadow_wake_info(struct seq_file *m);

/* The sampler (process context): each CPU's domains as the probe checks them. */
void shadow_wake_topo_read(void);

/* Every CPU's counts summed (process context). */
void shadow_wake_sum(struct shadow_wake_counts *out);

/*
 * The last placement that left an idle CPU in @cpu's domain at @level
 * (enum wasted_level) idle: its time (log clock, shadow_wasted_clock()) and
 * path; false if none was marked.
 */
bool shadow_wake_mark(u32 cpu, u32 level, u64 *stamp, u32 *path);

/* The relation (enum wasted_rel) of @cpu's domain at @level: SMT, LLC, above. */
u32 shadow_wake_rel(u32 cpu, u32 level);

/*
 * The group of @cpu at @level (the span of its domain below that level,
 * as the balancer's local group): its first CPU, @cpu itself at its
 * lowest domain, -1 if @cpu has no domain at @level.  Any context.
 */
int shadow_wake_group(u32 cpu, u32 level);

/* The relation of the first CPU's domain at @level that has one, -1 if none does. */
int shadow_wake_level_rel(u32 level);

#endif
