/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's `sched_shadow:lb_verdict` trace event, read from a private
 * tracefs instance (instances/sched_shadow-<pid>) so the user's own
 * tracing setup is left alone: the instance's clock is set to `boot`
 * (CLOCK_BOOTTIME, the Perfetto trace clock), only lb_verdict is enabled
 * there, and its trace_pipe is drained without blocking.
 *
 * Lines are parsed by name: every `key=value` after "lb_verdict:" is
 * kept, in order and in full (no length limit), so fields the module adds
 * later reach the trace without a change here.  What cannot be kept is
 * counted, never silently cut: fields past LBV_MAX_FIELDS or tokens that
 * are not key=value (lbv_event.dropped), records longer than the read
 * buffer (lbtrace.too_long), records the ring buffer overwrote
 * (lbtrace_overrun()).
 */
#ifndef SCHED_SHADOW_LBTRACE_H
#define SCHED_SHADOW_LBTRACE_H

#include <stddef.h>
#include <stdint.h>

#define LBV_MAX_FIELDS	64
#define LBV_LINE_MAX	65536	/* a record longer than this is counted, not parsed */

struct lbv_event {
	uint64_t ts_ns;		/* the record's timestamp (microsecond resolution) */
	int dst_cpu;
	int nfields;
	int dropped;		/* tokens not kept: past LBV_MAX_FIELDS, or not key=value */
	char *key[LBV_MAX_FIELDS];	/* point into buf */
	char *val[LBV_MAX_FIELDS];
	char *buf;		/* the record's fields, owned (lbv_free) */
};

/*
 * Parse one line of a trace/trace_pipe file.  0 when it is an lb_verdict
 * record with a timestamp and dst_cpu (free it with lbv_free), -1
 * otherwise (other events, comments, malformed lines; nothing to free).
 */
int lbv_parse_line(const char *line, struct lbv_event *e);
void lbv_free(struct lbv_event *e);
/* Value of `key`, NULL if the record has no such field. */
const char *lbv_get(const struct lbv_event *e, const char *key);

struct lbtrace {
	char inst[512];		/* instance directory, "" when not created */
	int fd;			/* its trace_pipe, O_NONBLOCK; -1 when closed */
	char *buf;		/* LBV_LINE_MAX bytes */
	size_t len;
	int skipping;		/* inside a line longer than the buffer */
	uint64_t records, bad, too_long;
};

/*
 * Create the instance and enable the event.  0, or -1 with why (no
 * tracefs, not root, the module has no lb_verdict event); nothing is
 * left behind on failure.
 */
int lbtrace_open(struct lbtrace *t, char *why, size_t whylen);
/*
 * Read what is there now; calls fn for every lb_verdict record (the
 * event is freed after fn returns: fn copies what it keeps).  Returns
 * records read.
 */
long lbtrace_drain(struct lbtrace *t, void (*fn)(void *ctx, const struct lbv_event *e), void *ctx);
/* Records the ring buffer overwrote before we read them (sum of per-CPU overruns). */
uint64_t lbtrace_overrun(const struct lbtrace *t);
/* Disable, close and remove the instance. */
void lbtrace_close(struct lbtrace *t);

#endif
