/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by latency.bpf.c (kernel side) and the sched-shadow CLI
 * (userspace/cli/sources/latency.c).  Both sides include this header; keep it free
 * of anything but fixed-size integer types.
 *
 * Wakeup latency = time from sched_wakeup/sched_wakeup_new of a task to the
 * sched_switch that puts it on a CPU, in nanoseconds, accumulated per cgroup
 * (cgroup v2 id of the woken task) into a log2 histogram: slot i counts
 * values v with 2^i <= v < 2^(i+1) (slot 0 also holds 0 and 1); the last
 * slot also holds everything larger.
 */
#ifndef SHADOW_BPF_LATENCY_H
#define SHADOW_BPF_LATENCY_H

#define LAT_SLOTS	40	/* 2^39 ns ~ 9 minutes: last slot is open-ended */
#define LAT_MAX_CGROUPS	1024	/* entries of the per-cgroup map */
#define LAT_MAX_PENDING	16384	/* tasks woken but not yet run */

struct lat_cg_val {
	__u64 slots[LAT_SLOTS];	/* log2 histogram of wakeup latency, ns */
	__u64 samples;		/* latencies recorded (sum of slots) */
	__u64 sum_ns;		/* sum of the recorded latencies */
	__u64 max_ns;		/* largest latency recorded on this CPU */
	__u64 wakeups;		/* sched_wakeup + sched_wakeup_new events */
	__u64 wakeups_new;	/* of which sched_wakeup_new */
	__u64 migrations;	/* sched_migrate_task events */
};

/* Index of the global per-CPU counters array. */
enum lat_counter {
	LAT_CNT_PENDING_FULL,	/* wakeup not recorded: pending map full */
	LAT_CNT_CGROUP_FULL,	/* event not counted: cgroup map full */
	LAT_CNT_NEGATIVE,	/* clock went backwards (cross-CPU skew) */
	LAT_CNT_MAX,
};

#endif /* SHADOW_BPF_LATENCY_H */
