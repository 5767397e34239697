/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `run --perfetto FILE`: the run as a Perfetto trace.  While CMD runs the
 * module is sampled every --interval seconds into the tracks of pfrec.h
 * (when the module is loaded) and the lb_verdict records are drained; CMD
 * itself is a slice on a top-level track named after it, from fork to
 * exit, whose arguments are the command line, its cgroup, exit status,
 * wall time and, per cgroup the BPF collector saw, the wakeup-latency
 * percentiles of the run report (docs/cli-run.md), in microseconds.
 */
#ifndef SCHED_SHADOW_RUN_TRACE_H
#define SCHED_SHADOW_RUN_TRACE_H

#include <sys/types.h>
#include "cli/perfetto/pfrec.h"
#include "cli/sources/latency.h"

struct run_trace {
	struct pfrec rec;
	uint64_t cmd_track;
	char *cmdline;			/* CMD ARGS..., the slice's name, whole */
	uint64_t t_begin, t_end;
	int sample;		/* sample the module (it is loaded) */
	const char *debugfs;
	int sample_failed;	/* said once that a sample failed */
};

/* Open the trace, before anything else happens: an unwritable place is an error then. */
int run_trace_open(struct run_trace *t, const char *path, const char *debugfs, char *const *cmd,
		   char *err, size_t errlen);
/*
 * Once the module was found (or not): sample it, and start the lb_verdict
 * reader (a failure there is said on stderr; the trace goes on without).
 */
void run_trace_start(struct run_trace *t, int module_loaded);
/* the command's start, taken where `run` starts its wall clock (before fork) */
void run_trace_mark_begin(struct run_trace *t);
/*
 * Begin CMD's slice (at run_trace_mark_begin()'s time, else now) and wait
 * for pid, sampling every interval seconds until it exits; the slice ends
 * where pid was reaped, where `run` stops its wall clock.  Returns 0 with
 * the wait status in *status, or -1 with errno (waitpid failed).
 */
int run_trace_wait(struct run_trace *t, pid_t pid, double interval, const char *cgroup,
		   int *status);
/* sample the module now; `run` takes one last sample, the state CMD left,
 * after it stopped its wall clock (a sample reads several debugfs files:
 * 86 ms once under TCG) */
void run_trace_sample(struct run_trace *t);
/* The report's window ended: read the last lb_verdict records, read no more. */
void run_trace_stop_verdicts(struct run_trace *t);
/*
 * End the slice with the run's results and write the file.  cg_name
 * names cgroup i of lat (path, or "cgid:N").  0 or -1 with err.
 */
int run_trace_finish(struct run_trace *t, int exit_status, double wall_s,
		     const struct lat_snapshot *lat,
		     const char *(*cg_name)(const void *ctx, int i, char *buf, size_t len),
		     const void *ctx, char *err, size_t errlen);
void run_trace_abort(struct run_trace *t);

#endif
