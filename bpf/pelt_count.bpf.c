// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_count: the BPF alternative to sched_shadow's tracepoint probes
 * (`make bench` configuration "bpf").  Raw tracepoint programs on
 * the three bare tracepoints the module hooks (pelt_cfs_tp, pelt_se_tp,
 * sched_update_nr_running_tp; bare DECLARE_TRACE tracepoints are
 * attachable as raw_tp since 5.9), each counting its calls in a per-CPU
 * array and summing one field read with CO-RE, so the cost measured is
 * "BPF dispatch + a map lookup + a relocated read" per call.  It computes
 * no shadow: it is the floor a BPF tool would pay before doing any work.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "pelt_count.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pc_val);
} pc_counts SEC(".maps");

static __always_inline int pc_account(int hook, __u64 v)
{
	__u32 zero = 0;
	struct pc_val *c = bpf_map_lookup_elem(&pc_counts, &zero);

	if (!c)
		return 0;
	c->calls[hook]++;
	c->sum[hook] += v;
	return 0;
}

SEC("raw_tp/pelt_cfs_tp")
int BPF_PROG(pc_pelt_cfs, struct cfs_rq *cfs_rq)
{
	return pc_account(PC_PELT_CFS, BPF_CORE_READ(cfs_rq, avg.load_avg));
}

SEC("raw_tp/pelt_se_tp")
int BPF_PROG(pc_pelt_se, struct sched_entity *se)
{
	return pc_account(PC_PELT_SE, BPF_CORE_READ(se, avg.load_avg));
}

SEC("raw_tp/sched_update_nr_running_tp")
int BPF_PROG(pc_nr_running, struct rq *rq, int change)
{
	return pc_account(PC_NR_RUNNING, BPF_CORE_READ(rq, nr_running));
}

/*
 * Empty programs on the same tracepoints (pelt-count -e): what the raw_tp
 * dispatch alone costs, the floor `make bench` adds to the counting
 * programs' own run time.
 */
SEC("raw_tp/pelt_cfs_tp")
int BPF_PROG(pc_empty_cfs, struct cfs_rq *cfs_rq)
{
	return 0;
}

SEC("raw_tp/pelt_se_tp")
int BPF_PROG(pc_empty_se, struct sched_entity *se)
{
	return 0;
}

SEC("raw_tp/sched_update_nr_running_tp")
int BPF_PROG(pc_empty_nr, struct rq *rq, int change)
{
	return 0;
}
