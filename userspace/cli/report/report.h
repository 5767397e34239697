/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report model of `run`: what one run measured, filled from the
 * module (debugfs), the BPF collector and /proc/schedstat, and rendered
 * as text, JSON (docs/cli-run.md) or Prometheus by renderers that read
 * only this model.
 *
 * The report is a list of sections (report_sections[] in report.c).
 * A section owns its part of struct report and, in its own file
 * report_<name>.c, everything about it: how it is collected from the
 * module after the run, and its text, JSON and Prometheus renderers.
 * Adding a measurement to the report means adding a field to the
 * section's struct below and to that one file (or a new section file
 * plus one line in report_sections[]).
 *
 * Order of the output: text prints the header (command, exit status,
 * cgroup, which sources were available), then each section's text; JSON
 * is the envelope and the run's fields, then one member per section;
 * Prometheus the run's families, then each section's.
 *
 * The same model is read back from a `run --json` file (report_load):
 * `report FILE` renders it again, `compare A B` renders two of them side
 * by side (each section adds its rows, text and Markdown, and its facts
 * of one run, JSON).
 */
#ifndef SCHED_SHADOW_CLI_REPORT_H
#define SCHED_SHADOW_CLI_REPORT_H

#include <stdio.h>
#include <sys/types.h>
#include "cli/sources/cgroup.h"
#include "cli/sources/dbgfs.h"
#include "cli/formats/json.h"
#include "cli/formats/json_parse.h"
#include "cli/sources/knobs.h"
#include "cli/sources/latency.h"
#include "cli/formats/prom.h"
#include "cli/sources/schedstat.h"

#define REPORT_WHY_LEN		320
#define REPORT_TEXT_MAX_CGROUPS	20

/* The module as found at the start of the run; its info file at the end. */
struct report_module {
	int loaded, reset;
	char why[REPORT_WHY_LEN];	/* not loaded / reset failed */
	int have_info;
	struct dbgfs_table info;
};

/*
 * The kernel's switches (sources/knobs.h): read at the start (after any
 * run --set) and at the end of the run (before restoring), and what
 * run --set changed.
 */
struct report_knobs {
	int have;			/* read (0: a report from before this section) */
	char dir[4096];			/* the scheduler's debugfs directory read */
	struct knobs start, end;
	int nset;
	struct knob_set set[2];		/* run --set, restored or why not */
	char note[REPORT_WHY_LEN];	/* e.g. what a killed run left set, restored */
};

/* Load-balancer audit: the lb table and lb_attempts (one verdict per attempt). */
struct report_lb {
	int have_lb, have_att;
	char why[REPORT_WHY_LEN];	/* why lb is missing */
	struct dbgfs_table lb, att;
};

/* Shadow vs real load per CPU. */
struct report_cpus {
	int have;
	char why[REPORT_WHY_LEN];
	struct dbgfs_table t;
};

/* Wasted-core time, its attribution and the wait split (report_wasted.c). */
struct report_wasted {
	int have, have_attrib, have_cgroups;
	int tracked;			/* run's command was tracked (debugfs wasted_track) */
	int absent;			/* read back from a report without this section */
	int no_explained;		/* ... without its explained share: written back without it */
	char why[REPORT_WHY_LEN];
	struct dbgfs_table cpus, attrib, cgroups;
};

struct report_cg_name {
	char path[512];		/* "" when the id no longer resolves */
};

/* Wakeup latency, wakeups and migrations per cgroup (BPF). */
struct report_latency {
	int requested, ok;
	char why[512];
	struct lat_snapshot lat;
	struct report_cg_name *cgpath;	/* lat.ncg names, or NULL */
	int ncg_shown;			/* cgroups with any activity */
};

/* /proc/schedstat load-balance deltas over the run (the kernel's own counters). */
struct report_schedstat {
	int ok, enabled_by_run;
	char why[REPORT_WHY_LEN];	/* why not available, or a note when ok */
	int version;
	struct ss_delta d;
};

/* What CMD wrote itself (run --result FILE): a JSON document, kept as read. */
struct report_result {
	const char *file;		/* run --result FILE, "$SCHED_SHADOW_RESULT", or NULL: none */
	int ok;
	char why[REPORT_WHY_LEN];
	struct jv *doc;			/* owned, or borrowed from report.doc */
	int doc_owned;
};

struct report {
	/* the run */
	const char *debugfs;		/* the module's debugfs directory */
	const char *label, *note;	/* run --label, --note (NULL when not given) */
	char **cmd;			/* NULL-terminated CMD ARGS... */
	int exit_status;
	double wall_s;
	int cg_used, cg_created, cg_removed;
	int cg_cpu_inferred;		/* read back without "cpu_controller": from its note */
	struct cg_handle cg;
	int repeat, repeats;		/* run --repeat N: this is run `repeat` of `repeats` (0: one run) */

	/* read back from a file (report_load): strings above point into doc */
	const char *file;
	struct jv *doc;

	/* sections */
	struct report_module module;
	struct report_knobs knobs;
	struct report_result result;
	struct report_lb lb;
	struct report_cpus cpus;
	struct report_latency latency;
	struct report_schedstat schedstat;
	struct report_wasted wasted;
};

/*
 * compare (report_compare.c): two sides, each the runs of one setup (its
 * repeats: `run --repeat N`, or several files), side by side as titled
 * groups of rows, a label and one cell per side, rendered as aligned
 * text, Markdown or JSON.  A side of one run shows its numbers; a side of
 * several shows each number's median and the range [min..max] of the
 * cell's first number, and then a difference column judges the second
 * side against the first: a difference is called only when it exceeds
 * the spread of the repeats (the two sides' ranges do not overlap), else
 * it is "within noise".
 */
#define CMP_MAX_RUNS	32	/* runs per side */
#define CMP_MAX_COMP	3	/* numbers in one cell ("right/wrong (agree)") */

struct cmp_side {
	const char *name;			/* the column's title */
	int n;					/* runs, >= 1 */
	const struct report *run[CMP_MAX_RUNS];
};

struct cmp_out;
void cmp_line(struct cmp_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmp_title(struct cmp_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A row of text cells, one per side (NULL: "-"). */
void cmp_row(struct cmp_out *o, const char *label, const char *a, const char *b);
/* A side's text: the runs' one value, or "a | b" when they differ (get: NULL = "-"). */
const char *cmp_side_text(char *buf, size_t len, const struct cmp_side *s,
			  const char *(*get)(const struct report *r));
/* A line under the current title, not in the columns: a judgement ("label: text"). */
void cmp_verdict(struct cmp_out *o, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A row of numbers: per side, per run, CMP_MAX_COMP of them (NAN: not in that run). */
struct cmp_num {
	double v[2][CMP_MAX_RUNS][CMP_MAX_COMP];
};
void cmp_num_init(struct cmp_num *v);
enum { CMP_CALL = 1 };	/* judge the second side against the first (the difference column) */
/* fmt: printf conversions of doubles, one per number ("%.0f", "%.0f (%.0f%%)"). */
void cmp_row_num(struct cmp_out *o, const char *label, const char *fmt, int ncomp,
		 const struct cmp_num *v, unsigned int flags);
/* One side's number `comp` over its runs that have it. */
struct cmp_stat {
	int n;			/* runs with the number */
	double med, lo, hi;
};
int cmp_stat_of(const struct cmp_out *o, const struct cmp_num *v, int side, int comp,
		struct cmp_stat *st);
/*
 * The call of b against a: +1 (every run of b above every run of a), -1
 * (below), 0 within noise (the ranges overlap), CMP_NO_SPREAD when a side
 * has one run (there is no spread to judge against).
 */
#define CMP_NO_SPREAD	2
int cmp_call(const struct cmp_stat *a, const struct cmp_stat *b);

struct report_section {
	const char *name;
	/* Fill the section from the module's debugfs after the run (r->module says
	 * whether the module was found; without it, say why the section is empty). */
	void (*collect)(struct report *r, const char *debugfs);
	void (*text)(const struct report *r, FILE *f);
	/* One member of the report's JSON object (key and value). */
	void (*json)(const struct report *r, struct json_writer *w);
	void (*prom)(const struct report *r, struct prom_writer *p);
	/* Fill the section from a run --json document (its member of root); 0 or -1 with err. */
	int (*load)(struct report *r, const struct jv *root, char *err, size_t errlen);
	/* compare: this section's rows of the side by side (text, Markdown, JSON) ... */
	void (*compare)(const struct cmp_side side[2], struct cmp_out *o);
	/* ... and its facts of one run, one member of the run's JSON object. */
	void (*compare_json)(const struct report *r, struct json_writer *w);
};

extern const struct report_section report_module_section;
extern const struct report_section report_knobs_section;
extern const struct report_section report_result_section;
extern const struct report_section report_lb_section;
extern const struct report_section report_cpus_section;
extern const struct report_section report_latency_section;
extern const struct report_section report_schedstat_section;
extern const struct report_section report_wasted_section;

/* After the run: every section that reads the module collects (module section first). */
void report_collect_module(struct report *r, const char *debugfs);
/* The command's process is tracked for its own wait split (report_wasted.c). */
void report_wasted_track(struct report *r, const char *debugfs, pid_t pid);
/* BPF: read the collector's maps and name the cgroups (report_latency.c). */
void report_latency_collect(struct report *r, struct lat_bpf *b);
/* What CMD wrote, from path, when r->result.file says there is one (report_result.c). */
void report_result_collect(struct report *r, const char *path);

void report_print_text(const struct report *r, FILE *f);
void report_print_json(const struct report *r, FILE *f);
void report_print_prom(const struct report *r, FILE *f);

/* Name of cgroup i of the latency snapshot: its path, or "cgid:N". */
const char *report_cg_name(const struct report *r, int i, char *buf, size_t len);

/* Free what the sections hold (not r itself). */
void report_free(struct report *r);

/* Read a `run --json` file into r (zeroed by the caller); 0 or -1 with err. */
int report_load(struct report *r, const char *path, char *err, size_t errlen);
/*
 * Read every document of a file (run --repeat N -j writes one per line):
 * *out gets *n reports (free each with report_free, then free(*out));
 * 0, or -1 with err (a file with no document is an error).
 */
int report_load_all(const char *path, struct report **out, int *n, char *err, size_t errlen);

enum cmp_fmt { CMP_FMT_TEXT, CMP_FMT_JSON, CMP_FMT_MARKDOWN };
/* The side by side of two sides.  -1: out of memory. */
int report_compare(const struct cmp_side side[2], enum cmp_fmt fmt, FILE *f);

/* The sections in output order. */
const struct report_section *const *report_sections_get(size_t *n);

/* Helpers of the loaders (report_load.c). */
/* rows: an array of objects; becomes table `name` with the union of their keys. */
int report_load_rows(const struct jv *rows, const char *name, struct dbgfs_table *t,
		     char *err, size_t errlen);
/* obj: an object of strings; becomes an info table (key value). */
int report_load_info(const struct jv *obj, struct dbgfs_table *t, char *err, size_t errlen);
/* "available" and "reason" of a section object into *ok and why. */
int report_load_available(const struct jv *sec, const char *name, int *ok, char *why,
			  size_t whylen, char *err, size_t errlen);

/* Shared by the JSON renderers: "available" and "reason" members. */
void report_json_available(struct json_writer *w, int ok, const char *why);

#endif
