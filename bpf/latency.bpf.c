// SPDX-License-Identifier: GPL-2.0
/*
 * sched_shadow wakeup latency collector (libbpf CO-RE, raw tracepoints).
 *
 * sched_wakeup / sched_wakeup_new store the wakeup time of the woken task;
 * the sched_switch that puts that task on a CPU turns it into a latency
 * sample in the task's cgroup's log2 histogram.  sched_migrate_task counts
 * migrations per cgroup.  Raw tracepoints (not tp_btf/fentry) so the same
 * object runs on kernels that lack BTF-typed attachment; task fields are
 * read with BPF_CORE_READ, relocated against the running kernel's BTF.
 *
 * Hot path: one hash lookup/delete for the pending wakeup and a per-CPU
 * hash update for the cgroup; no locks of our own, all maps bounded,
 * everything that could not be recorded is counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "latency.h"

char LICENSE[] SEC("license") = "GPL";

struct pending {
	__u64 ts;	/* bpf_ktime_get_ns() at wakeup */
	__u64 cgid;	/* cgroup of the task when it was woken */
};

/* pid -> wakeup still waiting for its switch-in (shared by all CPUs). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAT_MAX_PENDING);
	__type(key, __u32);
	__type(value, struct pending);
} pending SEC(".maps");

/* cgroup id -> histogram and counters, one copy per CPU, summed by the CLI. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, LAT_MAX_CGROUPS);
	__type(key, __u64);
	__type(value, struct lat_cg_val);
} cgstats SEC(".maps");

/* Drops and anomalies, indexed by enum lat_counter. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LAT_CNT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static const struct lat_cg_val zero_val;

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		*c += 1;
}

/* cgroup v2 id of @p: the kernfs inode number of its default-hierarchy cgroup. */
static __always_inline __u64 task_cgid(struct task_struct *p)
{
	return BPF_CORE_READ(p, cgroups, dfl_cgrp, kn, id);
}

static __always_inline struct lat_cg_val *cg_get(__u64 cgid)
{
	struct lat_cg_val *v = bpf_map_lookup_elem(&cgstats, &cgid);

	if (v)
		return v;
	/* EEXIST from a racing CPU is fine: the lookup below finds it. */
	bpf_map_update_elem(&cgstats, &cgid, &zero_val, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&cgstats, &cgid);
	if (!v)
		count(LAT_CNT_CGROUP_FULL);
	return v;
}

static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 r = 0;

	/* Highest set bit by halving: no loop for the verifier to bound. */
	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8)  { v >>= 8;  r += 8; }
	if (v >> 4)  { v >>= 4;  r += 4; }
	if (v >> 2)  { v >>= 2;  r += 2; }
	if (v >> 1)  { r += 1; }
	return r < LAT_SLOTS ? r : LAT_SLOTS - 1;
}

static __always_inline int on_wakeup(struct task_struct *p, int is_new)
{
	struct pending pd;
	struct lat_cg_val *v;
	__u32 pid = BPF_CORE_READ(p, pid);

	if (!pid)
		return 0;
	pd.ts = bpf_ktime_get_ns();
	pd.cgid = task_cgid(p);
	if (bpf_map_update_elem(&pending, &pid, &pd, BPF_ANY))
		count(LAT_CNT_PENDING_FULL);
	v = cg_get(pd.cgid);
	if (v) {
		v->wakeups++;
		if (is_new)
			v->wakeups_new++;
	}
	return 0;
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(shadow_wakeup, struct task_struct *p)
{
	return on_wakeup(p, 0);
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(shadow_wakeup_new, struct task_struct *p)
{
	return on_wakeup(p, 1);
}

/* Only the first three arguments: 5.18+ add prev_state, older kernels stop here. */
SEC("raw_tp/sched_switch")
int BPF_PROG(shadow_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct pending *pd;
	struct lat_cg_val *v;
	__u32 pid = BPF_CORE_READ(next, pid);
	__u64 now, delta, cgid;
	__u32 slot;

	if (!pid)
		return 0;
	pd = bpf_map_lookup_elem(&pending, &pid);
	if (!pd)
		return 0;
	now = bpf_ktime_get_ns();
	delta = now - pd->ts;
	cgid = pd->cgid;
	bpf_map_delete_elem(&pending, &pid);
	if ((__s64)delta < 0) {
		count(LAT_CNT_NEGATIVE);
		return 0;
	}
	v = cg_get(cgid);
	if (!v)
		return 0;
	slot = log2_slot(delta);
	if (slot >= LAT_SLOTS)
		slot = LAT_SLOTS - 1;
	v->slots[slot]++;
	v->samples++;
	v->sum_ns += delta;
	if (delta > v->max_ns)
		v->max_ns = delta;
	return 0;
}

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(shadow_migrate, struct task_struct *p, int dest_cpu)
{
	struct lat_cg_val *v = cg_get(task_cgid(p));

	if (v)
		v->migrations++;
	return 0;
}
