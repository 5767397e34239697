/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_shadow trace events.  Field names follow the Android/LISA
 * sched_load_cfs_rq and sched_load_se events (cpu, path, load, rbl_load,
 * util; comm and pid for entities) so trace-cmd, perf and LISA parse them
 * as is; `cgid` and `shadow` (and `shadow_avg`) are added.  The probes
 * format the arguments only when the event is enabled.
 *
 * path has Android's meaning: sched_load_cfs_rq's is the cfs_rq's group,
 * sched_load_se's the group entity's own queue (se->my_q), "(null)" for a
 * task.  cgid is the id of the cgroup path names (0 for "(null)" and
 * "(autogroup)").  Paths come from a cache filled in process context
 * (cgpath.c): escaped like debugfs `groups` (a space is \040), cut to
 * SHADOW_PATH_LEN - 1 bytes with the marker \... at the end, and
 * "(unresolved)" when the cache does not know cgid yet.  See
 * docs/debugfs.md, "Trace events".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_shadow

#if !defined(SHADOW_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define SHADOW_TRACE_H

#include <linux/tracepoint.h>
#include <linux/string.h>

/* the path field's size: SHADOW_PATH_LEN (shadow.h), spelled out for the format */
#define SHADOW_TRACE_PATH_LEN 128

#ifndef SHADOW_LB_VERDICT_REC
#define SHADOW_LB_VERDICT_REC
/* The conclusions of one judged attempt (audit.c); the inputs go in `state`. */
struct shadow_lb_verdict {
	int dst_cpu;
	const char *domain;
	int idle, verdict;
	const char *reason;
	int pick, model, busiest;		/* first CPU of the group, -1 none */
	const char *model_exit, *cause, *known;
	int gpick, gmodel, gbusiest;		/* group indices, -1 none */
	int tracker[6];
	unsigned int redos;
	int moved, active;
	int dst_work;		/* at the return: the destination had a queued task or a pending wakeup */
	unsigned int runs;	/* audit_explain()'s model runs for a disagreement */
};
#endif

/*
 * The events' first consumer comes and last one goes (trace_feed.c): the
 * feed attaches its probe on pelt_cfs_tp / pelt_se_tp only in between.
 */
int shadow_trace_cfs_rq_reg(void);
void shadow_trace_cfs_rq_unreg(void);
int shadow_trace_se_reg(void);
void shadow_trace_se_unreg(void);

TRACE_EVENT_FN(sched_load_cfs_rq,

	TP_PROTO(int cpu, const char *path, u64 cgid, unsigned long load,
		 unsigned long rbl_load, unsigned long util,
		 unsigned long long shadow, unsigned long long shadow_avg),

	TP_ARGS(cpu, path, cgid, load, rbl_load, util, shadow, shadow_avg),

	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, SHADOW_TRACE_PATH_LEN)
		__field(u64, cgid)
		__field(unsigned long, load)
		__field(unsigned long, rbl_load)
		__field(unsigned long, util)
		__field(unsigned long long, shadow)
		__field(unsigned long long, shadow_avg)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, SHADOW_TRACE_PATH_LEN);
		__entry->cgid = cgid;
		__entry->load = load;
		__entry->rbl_load = rbl_load;
		__entry->util = util;
		__entry->shadow = shadow;
		__entry->shadow_avg = shadow_avg;
	),

	TP_printk("cpu=%d path=%s cgid=%llu load=%lu rbl_load=%lu util=%lu shadow=%llu shadow_avg=%llu",
		  __entry->cpu, __entry->path, (unsigned long long)__entry->cgid, __entry->load,
		  __entry->rbl_load, __entry->util, __entry->shadow, __entry->shadow_avg),

	shadow_trace_cfs_rq_reg, shadow_trace_cfs_rq_unreg
);

/*
 * perf: pelt_se_tp fires for every entity's PELT update and feeds
 * nothing but this event, so the module attaches to it only while this
 * event has a consumer (see shadow_trace_se_reg/unreg above).
 */
TRACE_EVENT_FN(sched_load_se,

	TP_PROTO(int cpu, const char *path, u64 cgid, const char *comm, int pid,
		 unsigned long load, unsigned long rbl_load, unsigned long util,
		 unsigned long long shadow),

	TP_ARGS(cpu, path, cgid, comm, pid, load, rbl_load, util, shadow),

	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, SHADOW_TRACE_PATH_LEN)
		__field(u64, cgid)
		__array(char, comm, TASK_COMM_LEN)
		__field(int, pid)
		__field(unsigned long, load)
		__field(unsigned long, rbl_load)
		__field(unsigned long, util)
		__field(unsigned long long, shadow)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, SHADOW_TRACE_PATH_LEN);
		__entry->cgid = cgid;
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->pid = pid;
		__entry->load = load;
		__entry->rbl_load = rbl_load;
		__entry->util = util;
		__entry->shadow = shadow;
	),

	TP_printk("cpu=%d path=%s cgid=%llu comm=%s pid=%d load=%lu rbl_load=%lu util=%lu shadow=%llu",
		  __entry->cpu, __entry->path, (unsigned long long)__entry->cgid, __entry->comm,
		  __entry->pid, __entry->load, __entry->rbl_load, __entry->util, __entry->shadow),

	shadow_trace_se_reg, shadow_trace_se_unreg
);

TRACE_EVENT(lb_verdict,

	TP_PROTO(const struct shadow_lb_verdict *v, const char *state),

	TP_ARGS(v, state),

	TP_STRUCT__entry(
		__field(int, dst_cpu)
		__array(char, domain, 8)
		__field(int, idle)
		__field(int, verdict)
		__array(char, reason, 24)
		__field(int, pick)
		__field(int, model)
		__array(char, model_exit, 24)
		__field(int, busiest)
		__array(char, cause, 12)
		__array(char, known, 24)
		__field(int, gpick)
		__field(int, gmodel)
		__field(int, gbusiest)
		__field(int, kernel)
		__field(int, shadow)
		__field(int, shadow_avg)
		__field(int, weight)
		__field(int, nr)
		__field(int, h_load)
		__field(unsigned int, redos)
		__field(int, moved)
		__field(int, active)
		__field(int, dst_work)
		__field(unsigned int, runs)
		__dynamic_array(char, state, strlen(state) + 1)
	),

	TP_fast_assign(
		__entry->dst_cpu = v->dst_cpu;
		strscpy(__entry->domain, v->domain, 8);
		__entry->idle = v->idle;
		__entry->verdict = v->verdict;
		strscpy(__entry->reason, v->reason, 24);
		__entry->pick = v->pick;
		__entry->model = v->model;
		strscpy(__entry->model_exit, v->model_exit, 24);
		__entry->busiest = v->busiest;
		strscpy(__entry->cause, v->cause, 12);
		strscpy(__entry->known, v->known, 24);
		__entry->gpick = v->gpick;
		__entry->gmodel = v->gmodel;
		__entry->gbusiest = v->gbusiest;
		__entry->kernel = v->tracker[0];
		__entry->shadow = v->tracker[1];
		__entry->shadow_avg = v->tracker[2];
		__entry->weight = v->tracker[3];
		__entry->nr = v->tracker[4];
		__entry->h_load = v->tracker[5];
		__entry->redos = v->redos;
		__entry->moved = v->moved;
		__entry->active = v->active;
		__entry->dst_work = v->dst_work;
		__entry->runs = v->runs;
		memcpy(__get_dynamic_array(state), state, strlen(state) + 1);
	),

	/*
	 * One balancing attempt (audit.c; one search when the balancing
	 * function cannot be probed: redos 0, moved -1).  Conclusions first,
	 * then the inputs (state); docs/debugfs.md, "lb_verdict".  Group picks
	 * are shown by their first CPU in env->cpus, -1 for none; gidx= by
	 * their index in groups=.
	 */
	TP_printk("dst_cpu=%d domain=%s idle=%s verdict=%s reason=%s pick=%d model=%d model_exit=%s busiest=%d cause=%s known=%s gidx=%d,%d,%d kernel=%d shadow=%d shadow_avg=%d weight=%d nr=%d h_load=%d redos=%u moved=%d active=%d dst_work=%d runs=%u %s",
		  __entry->dst_cpu, __entry->domain,
		  __print_symbolic(__entry->idle, { 0, "idle" }, { 1, "busy" }, { 2, "newidle" }),
		  __print_symbolic(__entry->verdict, { 0, "right" }, { 1, "wrong" },
				   { 2, "missed" }, { 3, "none" }, { 4, "void" }, { 5, "busy" }),
		  __entry->reason, __entry->pick, __entry->model, __entry->model_exit,
		  __entry->busiest, __entry->cause, __entry->known, __entry->gpick,
		  __entry->gmodel, __entry->gbusiest, __entry->kernel, __entry->shadow,
		  __entry->shadow_avg, __entry->weight, __entry->nr, __entry->h_load,
		  __entry->redos, __entry->moved, __entry->active, __entry->dst_work, __entry->runs,
		  __get_str(state))
);

/*
 * One wasted stretch of at least wasted_trace_ms (wasted.c): CPU cpu idled
 * from start_ns (CLOCK_MONOTONIC) for duration_ns while a CFS task that
 * could run there waited elsewhere.  level is the domain of the nearest
 * such waiter; cgid/path the cgroup whose waiters could run there for the
 * longest part of it (cgroups: how many cgroups had such waiters, 5 = more
 * than 4); verdict/reason/cause what the balancing attempts at that level
 * with this CPU as destination did for the longest part (no_attempt if
 * none was made).  Emitted by the sampler at the first sample after the
 * stretch ended, so durations are multiples of the sampling interval.
 */
TRACE_EVENT(wasted_interval,

	TP_PROTO(int cpu, u64 start_ns, u64 duration_ns, const char *level, u64 cgid,
		 const char *path, unsigned int cgroups, const char *verdict, const char *reason,
		 const char *cause),

	TP_ARGS(cpu, start_ns, duration_ns, level, cgid, path, cgroups, verdict, reason, cause),

	TP_STRUCT__entry(
		__field(int, cpu)
		__field(u64, start_ns)
		__field(u64, duration_ns)
		__array(char, level, 8)
		__field(u64, cgid)
		__array(char, path, SHADOW_TRACE_PATH_LEN)
		__field(unsigned int, cgroups)
		__array(char, verdict, 12)
		__array(char, reason, 24)
		__array(char, cause, 24)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->start_ns = start_ns;
		__entry->duration_ns = duration_ns;
		strscpy(__entry->level, level, 8);
		__entry->cgid = cgid;
		strscpy(__entry->path, path, SHADOW_TRACE_PATH_LEN);
		__entry->cgroups = cgroups;
		strscpy(__entry->verdict, verdict, 12);
		strscpy(__entry->reason, reason, 24);
		strscpy(__entry->cause, cause, 24);
	),

	TP_printk("cpu=%d start_ns=%llu duration_ms=%llu level=%s cgid=%llu path=%s cgroups=%u verdict=%s reason=%s cause=%s",
		  __entry->cpu, __entry->start_ns, __entry->duration_ns / 1000000,
		  __entry->level, __entry->cgid, __entry->path, __entry->cgroups,
		  __entry->verdict, __entry->reason, __entry->cause)
);

/*
 * A wakeup (or fork) placement that left a CPU idle (wakeup.c): pid was
 * put on target_cpu, which was busy, while idle_cpus CPUs it may run on
 * were idle, the nearest of them (in the lowest domain of the target that
 * holds one: level, rel smt/llc/above_llc) nearest_cpu.  prev_cpu and
 * waker_cpu are select_task_rq_fair()'s inputs; path is inferred from
 * them (docs/wasted.md, "Wakeup placement").  Under the task's pi_lock.
 */
TRACE_EVENT(wakeup_miss,

	TP_PROTO(int pid, int prev_cpu, int waker_cpu, int target_cpu, const char *path,
		 const char *level, const char *rel, unsigned int idle_cpus, int nearest_cpu),

	TP_ARGS(pid, prev_cpu, waker_cpu, target_cpu, path, level, rel, idle_cpus, nearest_cpu),

	TP_STRUCT__entry(
		__field(int, pid)
		__field(int, prev_cpu)
		__field(int, waker_cpu)
		__field(int, target_cpu)
		__array(char, path, 12)
		__array(char, level, 8)
		__array(char, rel, 12)
		__field(unsigned int, idle_cpus)
		__field(int, nearest_cpu)
	),

	TP_fast_assign(
		__entry->pid = pid;
		__entry->prev_cpu = prev_cpu;
		__entry->waker_cpu = waker_cpu;
		__entry->target_cpu = target_cpu;
		strscpy(__entry->path, path, 12);
		strscpy(__entry->level, level, 8);
		strscpy(__entry->rel, rel, 12);
		__entry->idle_cpus = idle_cpus;
		__entry->nearest_cpu = nearest_cpu;
	),

	TP_printk("pid=%d prev_cpu=%d waker_cpu=%d target_cpu=%d path=%s level=%s rel=%s idle_cpus=%u nearest_cpu=%d",
		  __entry->pid, __entry->prev_cpu, __entry->waker_cpu, __entry->target_cpu,
		  __entry->path, __entry->level, __entry->rel, __entry->idle_cpus,
		  __entry->nearest_cpu)
);

#endif /* SHADOW_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
