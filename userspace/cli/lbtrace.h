/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's `sched_shadow:lb_verdict` trace event, read from a private
 * tracefs instance (instances/sched_shadow-<pid>) so the user's own
 * tracing setup is left alone: the instance's clock is set to `boot`
 * (CLOCK_BOOTTIME, the Perfetto trace clock), only lb_verdict is enabled
 * there, and its trace_pipe is drained without blocking.
 *
 * Lines are parsed by name: every `key=value` after "lb_verdict:" is
 * kept, in order, so fields the module adds later (reason, expected
 * group, ...) reach the trace without a change here.
 */
#ifndef SCHED_SHADOW_LBTRACE_H
#define SCHED_SHADOW_LBTRACE_H

#include <stddef.h>
#include <stdint.h>

#define LBV_MAX_FIELDS	32
#define LBV_KEY_LEN	32
#define LBV_VAL_LEN	64

struct lbv_event {
	uint64_t ts_ns;		/* the record's timestamp (microsecond resolution) */
	int dst_cpu;
	int nfields;
	char key[LBV_MAX_FIELDS][LBV_KEY_LEN];
	char val[LBV_MAX_FIELDS][LBV_VAL_LEN];
};

/*
 * Parse one line of a trace/trace_pipe file.  0 when it is an lb_verdict
 * record with a timestamp and dst_cpu, -1 otherwise (other events,
 * comments, malformed lines).
 */
int lbv_parse_line(const char *line, struct lbv_event *e);
/* Value of `key`, NULL if the record has no such field. */
const char *lbv_get(const struct lbv_event *e, const char *key);

struct lbtrace {
	char inst[512];		/* instance directory, "" when not created */
	int fd;			/* its trace_pipe, O_NONBLOCK; -1 when closed */
	char buf[16384];
	size_t len;
	uint64_t records, bad;
};

/*
 * Create the instance and enable the event.  0, or -1 with why (no
 * tracefs, not root, the module has no lb_verdict event); nothing is
 * left behind on failure.
 */
int lbtrace_open(struct lbtrace *t, char *why, size_t whylen);
/* Read what is there now; calls fn for every lb_verdict record.  Returns records read. */
long lbtrace_drain(struct lbtrace *t, void (*fn)(void *ctx, const struct lbv_event *e), void *ctx);
/* Records the ring buffer overwrote before we read them (sum of per-CPU overruns). */
uint64_t lbtrace_overrun(const struct lbtrace *t);
/* Disable, close and remove the instance. */
void lbtrace_close(struct lbtrace *t);

#endif
