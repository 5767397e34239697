/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by pelt_count.bpf.c and its loader pelt_count.c: the BPF
 * alternative to the module's probes that `make bench` compares against.  One
 * per-CPU value holds, per tracepoint the module hooks, the number of
 * calls and the sum of one field read with CO-RE (so every call does a
 * comparable read, not only an increment).
 */
#ifndef SHADOW_BPF_PELT_COUNT_H
#define SHADOW_BPF_PELT_COUNT_H

enum pc_hook {
	PC_PELT_CFS,	/* pelt_cfs_tp: cfs_rq->avg.load_avg */
	PC_PELT_SE,	/* pelt_se_tp: se->avg.load_avg */
	PC_NR_RUNNING,	/* sched_update_nr_running_tp: rq->nr_running */
	PC_NR_HOOKS,
};

struct pc_val {
	__u64 calls[PC_NR_HOOKS];
	__u64 sum[PC_NR_HOOKS];
};

#endif
