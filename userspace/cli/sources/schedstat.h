/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/schedstat parser and deltas: the kernel's own load-balance
 * counters, printed by `run` next to the module's verdicts as a
 * cross-check.  Versions 15, 16 and 17 are understood
 * (Documentation/scheduler/sched-stats.rst):
 *   v15  per idle type (idle, busy, newidle): lb_count lb_balanced
 *        lb_failed lb_imbalance lb_gained lb_hot_gained lb_nobusyq lb_nobusyg
 *   v16  same fields, idle types ordered busy, idle, newidle
 *   v17  "domainN NAME MASK", lb_imbalance split into _load _util _task
 *        _misfit (summed here into imbalance), idle types as v16
 * Other versions are refused with a message naming the version.
 * Idle types are stored in one order (SS_BUSY, SS_IDLE, SS_NEWIDLE) for all.
 *
 * Pure C, no globals: host unit tests include schedstat.c.
 */
#ifndef SHADOW_CLI_SCHEDSTAT_H
#define SHADOW_CLI_SCHEDSTAT_H

#include <stdint.h>
#include <stddef.h>

enum ss_idle { SS_BUSY, SS_IDLE, SS_NEWIDLE, SS_NIDLE };
extern const char *const ss_idle_name[SS_NIDLE];	/* "busy" "idle" "newidle" */

enum ss_err {
	SS_OK = 0,
	SS_ENOENT,	/* no /proc/schedstat (CONFIG_SCHEDSTATS off) */
	SS_EIO,
	SS_EVERSION,	/* missing version line or unknown version */
	SS_EMALFORMED,	/* a line with too few or non-numeric fields */
	SS_ENOMEM,
};

struct ss_lb {
	uint64_t count, balanced, failed, imbalance, gained, hot_gained,
		 nobusyq, nobusyg;
};

struct ss_domain {
	int cpu;		/* from the preceding cpuN line */
	int index;		/* N of domainN */
	char name[16];		/* v17 name, else "domainN" */
	struct ss_lb lb[SS_NIDLE];
	uint64_t alb_count, alb_failed, alb_pushed;
};

struct schedstat {
	int version;
	uint64_t timestamp;	/* jiffies */
	int ncpus;		/* cpuN lines */
	int ndom;
	struct ss_domain *dom;
};

/* Sum over CPUs of one domain level (by name, or domainN before v17). */
struct ss_level {
	char name[16];
	int ncpus;
	struct ss_lb lb[SS_NIDLE];
};

struct ss_delta {
	int nlevels;
	struct ss_level *lv;
	uint64_t jiffies;	/* timestamp difference */
	int reshaped;		/* domains differ between snapshots (hotplug, rebuild) */
	int wrapped;		/* some counter went backwards: counted as 0 */
};

int schedstat_parse(const char *text, size_t len, struct schedstat *s,
		    char *err, size_t errlen);
int schedstat_read(const char *path, struct schedstat *s, char *err, size_t errlen);
void schedstat_free(struct schedstat *s);

/* after - before per (cpu, domain), summed per level; 0 or SS_ENOMEM. */
int schedstat_delta(const struct schedstat *before, const struct schedstat *after,
		    struct ss_delta *d);
void schedstat_delta_free(struct ss_delta *d);

/*
 * Most lb counters move only while the schedstats static key is on
 * (kernel.sched_schedstats).  Turn it on, remembering the old value in
 * *prev (-1 when the sysctl is absent or unwritable: see *err).
 */
int schedstat_enable(const char *sysctl, int *prev, char *err, size_t errlen);
void schedstat_restore(const char *sysctl, int prev);

#define SCHEDSTAT_PATH		"/proc/schedstat"
#define SCHEDSTAT_SYSCTL	"/proc/sys/kernel/sched_schedstats"

#endif /* SHADOW_CLI_SCHEDSTAT_H */
