/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `run --evidence DIR`: what a scheduler maintainer needs to look at the
 * run's top wasted-core cause, written to DIR (docs/cli-run.md):
 *
 *   README.md        the finding in three sentences
 *   trace.txt        the module's lb_verdict and wasted_interval events of
 *                    the run, as tracefs printed them (a private instance)
 *   attempts.txt     the judged attempts behind the top cause, every field
 *                    (their inputs included)
 *   wasted.txt, wasted_attrib.txt, wasted_cgroups.txt, info.txt
 *                    the module's tables at the end of the run window
 *   kernel.txt       uname, the kernel command line, the scheduler's
 *                    debugfs knobs and features
 *   topology.txt     /proc/schedstat's domains per CPU, packages and nodes
 *   cgroups.txt      the cgroup v2 tree: weight, max, effective cpus, tasks
 *   report.json      the run's JSON report
 *
 * The events are read by a thread from the instance's trace_pipe while
 * CMD runs, so a long run loses nothing unless that reader falls behind
 * (the ring buffer's overruns are counted and written to the README).
 */
#ifndef SCHED_SHADOW_CLI_RUN_EVIDENCE_H
#define SCHED_SHADOW_CLI_RUN_EVIDENCE_H

#include <stddef.h>
#include "cli/report/report.h"

struct evidence;

/*
 * Create DIR (it may exist if empty) and the tracefs instance, start the
 * reader.  0, or -1 with the reason in err and nothing left behind but an
 * empty DIR.  A module without the events is not an error: the README
 * then says the attempts were not recorded, and why.
 */
int evidence_open(struct evidence **out, const char *dir, char *err, size_t errlen);
/* Enable the events (at the start of the run window, module paused). */
void evidence_start(struct evidence *e);
/* Stop recording (end of the window, module paused) and drain what is left. */
void evidence_stop(struct evidence *e);
/* Copy the module's tables (while it is still paused: the report's window). */
void evidence_tables(struct evidence *e, const char *debugfs);
/*
 * Write everything else: kernel, topology, cgroups, report.json, the
 * attempts behind the top cause and the README.  0, or -1 with err.
 */
int evidence_write(struct evidence *e, const struct report *r, char *const *cmd,
		   char *err, size_t errlen);
/* Remove the tracefs instance and free; DIR and its files stay. */
void evidence_free(struct evidence *e);

/* The attribution key with the most wasted time (the `all` rows of wasted_attrib). */
struct evidence_cause {
	int found;
	char domain[32], verdict[32], reason[64], cause[64];
	double ms;		/* its wasted time over every CPU */
	long attempts;		/* attempts the module counted for it */
	int cpus[16];		/* CPUs whose rows carry it, most wasted first */
	double cpu_ms[16];
	int ncpus;
};

/* Pick the top cause from a parsed wasted_attrib table (pure: unit tests). */
int evidence_top_cause(const struct dbgfs_table *attrib, struct evidence_cause *c);
/*
 * 1 when an lb_verdict record (its fields as key/value pairs) is one of
 * the attempts behind cause c: destination among c's CPUs, same domain,
 * same verdict, and the reason (missed, wrong) or the move outcome
 * (right/moved, right/unmoved) of the attribution row.
 */
int evidence_attempt_matches(const struct evidence_cause *c, int dst_cpu, const char *domain,
			     const char *verdict, const char *reason, const char *moved);

#endif
