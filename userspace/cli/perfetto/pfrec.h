/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording as a Perfetto trace (`record --perfetto`, `run --perfetto`):
 * maps the module's cpus and groups files and the lb_verdict records onto
 * pftrace.h tracks.  Layout (docs/cli.md, "Perfetto trace"):
 *
 *   CPU <n>                      plain track: one instant per lb verdict
 *                                whose destination is CPU n
 *     cpu<n> shadow              counter tracks, one per cpus column in
 *     cpu<n> load_avg            pfrec_cpu_cols that the file has (extra
 *     cpu<n> shadow_avg ...      columns are ignored, missing ones skipped)
 *     cpu<n> <path> shadow       per queued cgroup level (groups file):
 *     cpu<n> <path> load_avg     0 at samples where it is not queued there
 *     cpu<n> wasted_ms           wasted-core time since reset (wasted file)
 *     "wasted" slices            on CPU <n>'s track: sample intervals in which
 *                                its wasted time grew by at least half the
 *                                interval (joined while it keeps growing)
 *   <command>                    run only: one slice spanning CMD
 *
 * Counter values are the files' numbers unchanged; a `-` cell writes no
 * value at that sample.  Timestamps: CLOCK_BOOTTIME ns.
 *
 * Verdict instants carry every field of their lb_verdict record, whole,
 * as arguments (integers as ints), on their own packet sequence in
 * timestamp order: records are held back PFREC_VERDICT_HOLD_NS behind
 * the newest one read and sorted (tracefs merges its per-CPU buffers at
 * read time only).  What was lost is said, never silently cut: an
 * instant "lb_verdict records incomplete" on the "sched_shadow" track
 * with the counts (overwritten in the ring buffer, too long, fields not
 * kept, out of order), and a line on stderr.
 */
#ifndef SCHED_SHADOW_PFREC_H
#define SCHED_SHADOW_PFREC_H

#include <stdint.h>
#include "cli/sources/dbgfs.h"
#include "cli/perfetto/pftrace.h"
#include "cli/sources/lbtrace.h"

#define PFREC_NCOLS	7
/* The per-CPU counter columns, in track order. */
extern const char *const pfrec_cpu_cols[PFREC_NCOLS];

struct pfrec_cpu {
	int cpu;
	uint64_t track;			/* "CPU n" */
	uint64_t col[PFREC_NCOLS];	/* counter track per column, 0 if the file lacks it */
	int have_cols;			/* col[] decided (from the first cpus table) */
	uint64_t wasted;		/* "cpu<n> wasted_ms" counter track, 0 until seen */
	double wasted_ms;		/* its value at the previous sample */
	uint64_t wasted_ts;		/* that sample's time, 0 before the first */
	int in_wasted;			/* a "wasted" slice is open */
};

struct pfrec_group {
	int cpu;
	char *path;			/* escaped, as in the groups file */
	uint64_t shadow, load_avg;	/* counter tracks */
	int present;			/* queued at the last sample */
};

#define PFREC_VERDICT_HOLD_NS	1000000000ull

struct pfrec {
	struct pft_writer w;
	/* verdict records read, not yet written, sorted by timestamp */
	struct lbv_event *pending;
	size_t npending, pending_cap;
	uint64_t newest_ts, last_written_ts;
	uint64_t fields_dropped, late;
	uint64_t overrun, too_long;	/* of the lb_verdict reader, when it stopped */
	struct pfrec_cpu *cpus;
	int ncpus;
	struct pfrec_group *groups;
	int ngroups, groups_cap;
	uint64_t samples, verdicts;
	/* lb_verdict from tracefs, when available */
	struct lbtrace lbt;
	int have_lbt;
	char lbt_why[256];
};

/* Open the trace (temporary file beside path); 0 or -1 with err. */
int pfrec_open(struct pfrec *r, const char *path, char *err, size_t errlen);
/*
 * Start reading lb_verdict records; on failure the recording goes on
 * without verdicts and r->lbt_why says why.  Returns 0 or -1.
 */
int pfrec_verdicts_start(struct pfrec *r);
/* One sample: counters of every CPU row and queued cgroup at ts_ns (groups may be NULL). */
void pfrec_sample(struct pfrec *r, uint64_t ts_ns, const struct dbgfs_table *cpus,
		  const struct dbgfs_table *groups);
/* Wasted-core time of every CPU row of the wasted file at ts_ns: counters and slices. */
void pfrec_wasted(struct pfrec *r, uint64_t ts_ns, const struct dbgfs_table *wasted);
/* One verdict instant on its destination CPU's track (copied, written in timestamp order). */
void pfrec_verdict(struct pfrec *r, const struct lbv_event *e);
/* Move the verdict records read so far into the trace. */
void pfrec_drain(struct pfrec *r);
/*
 * Load cpus and groups from debugfs `root`, write a sample, drain the
 * verdicts.  Returns the dbgfs error of the cpus file (0 on success).
 */
int pfrec_sample_debugfs(struct pfrec *r, const char *root, uint64_t ts_ns,
			 struct dbgfs_error *err);
/* A plain top-level track (run's command). */
uint64_t pfrec_track(struct pfrec *r, const char *name);
/* Read the last verdict records and stop reading (run: where the report's window ends). */
void pfrec_verdicts_stop(struct pfrec *r);
/* Stop verdicts, write the file under its name; 0 or -1 with err (nothing left behind). */
int pfrec_finish(struct pfrec *r, char *err, size_t errlen);
/* Stop and remove the temporary file. */
void pfrec_abort(struct pfrec *r);

#endif
