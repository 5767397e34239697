/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-shadow CLI: what every subcommand shares.
 *
 * main.c parses the global options, then dispatches to one
 * `int cmd_X(int argc, char **argv)` per subcommand, argv[0] being the
 * subcommand name (so getopt_long works unchanged; reset `optind = 0`
 * before parsing, main.c may call several commands in one process in
 * tests).  A subcommand returns the process exit status (CLI_EXIT_*).
 *
 * Options: one table per command (options.h), parsed by cli_options().
 * Output: every reporting subcommand takes -j/--json (schema
 * "sched_shadow/v1", see docs/cli.md) and --prom (Prometheus text
 * exposition); the emitters below turn a parsed debugfs table into
 * either, so `run` can reuse them for its report.
 */
#ifndef SCHED_SHADOW_CLI_H
#define SCHED_SHADOW_CLI_H

#include <stdio.h>
#include <getopt.h>
#include "cli/sources/dbgfs.h"
#include "cli/formats/json.h"
#include "cli/formats/prom.h"
#include "cli/options.h"

#define CLI_NAME		"sched-shadow"
#ifndef CLI_VERSION		/* from the top-level VERSION file (cli.mk) */
#error "CLI_VERSION is not defined: build through the Makefile"
#endif
#define CLI_JSON_SCHEMA		"sched_shadow/v1"
#define CLI_DEFAULT_DEBUGFS	"/sys/kernel/debug/sched_shadow"
#define CLI_DEBUGFS_ENV		"SCHED_SHADOW_DEBUGFS"
/* run sets it for CMD: a file where CMD may write its JSON result (bench does) */
#define CLI_RESULT_ENV		"SCHED_SHADOW_RESULT"
/* CSV header written by `record` and required by `plot`. */
#define CLI_RECORD_HEADER \
	"time_s,cpu,load_avg,runnable_avg,util_avg,shadow,shadow_avg,nr_running," \
	"lb_right,lb_wrong,lb_missed,lb_none,wasted_ms,wasted_unknown_ms"

/* Exit statuses shared by all subcommands (run passes CMD's through; docs/cli.md). */
enum {
	CLI_EXIT_OK		= 0,
	CLI_EXIT_FAIL		= 1,	/* runtime error (I/O, parse, gnuplot failed) */
	CLI_EXIT_NOMODULE	= 2,	/* module not loaded / debugfs not mounted */
	CLI_EXIT_NOCPUCG	= 2,	/* --cgroup PATH cannot get the cpu controller */
	CLI_EXIT_NOTOOL		= 3,	/* external tool (gnuplot) or build feature missing */
	CLI_EXIT_USAGE		= 64,	/* bad command line (sysexits EX_USAGE) */
};

enum cli_format {
	CLI_FMT_TEXT = 0,
	CLI_FMT_JSON,
	CLI_FMT_PROM,
};

/* Global options, filled by main() before dispatch. */
struct cli_global {
	const char *prog;		/* argv[0] of the process */
	const char *debugfs;		/* --debugfs DIR, $SCHED_SHADOW_DEBUGFS, or default */
	int verbose;			/* -v: files read and written, libbpf's messages */
	int json;			/* -j/--json or -p/--pretty (global or the command's) */
	int pretty;			/* -p/--pretty: JSON indented (else one line per document) */
	const char *cmd;		/* the command running, for messages */
	char last_err[512];		/* the last error said, for {"error": ...} under -j */
	int doc_written;		/* the command wrote its document (to a file: run -o) */
	int err_pending;		/* cli_err since: under -j an {"error"} document too */
};
extern struct cli_global cli;

/* The whole CLI (main() calls it; host tests too). */
int cli_main(int argc, char **argv);

/* Subcommands, one cmd_X.c each (report and compare: cmd_report.c). */
int cmd_status(int argc, char **argv);
int cmd_cpus(int argc, char **argv);
int cmd_groups(int argc, char **argv);
int cmd_lb(int argc, char **argv);
int cmd_lb_attempts(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);

/* Each command's option table and help (options.h), next to its code. */
extern const struct cli_spec status_spec, cpus_spec, groups_spec, lb_spec, lb_attempts_spec,
	watch_spec, reset_spec, record_spec, plot_spec, run_spec, bench_spec, report_spec,
	compare_spec;

/*
 * Parse a command's options by its spec (options.h): the shared ones
 * are applied (--debugfs to cli.debugfs; -j, -p, --prom to *fmt, which
 * starts as the global -j says), each of the command's own goes to fn.
 * Returns the index of the first operand, or CLI_OPTS_HELP (usage
 * printed: return CLI_EXIT_OK) or CLI_OPTS_ERROR (message printed:
 * return CLI_EXIT_USAGE).  fmt may be NULL for a command without -j.
 */
enum { CLI_OPTS_HELP = -1, CLI_OPTS_ERROR = -2 };
int cli_options(const struct cli_spec *spec, int argc, char **argv,
		int (*fn)(void *ctx, int key, const char *val, char *err, size_t errlen),
		void *ctx, enum cli_format *fmt);
/* The exit status for cli_options()'s negative returns. */
#define CLI_OPTS_EXIT(i) ((i) == CLI_OPTS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE)

/* "sched-shadow CMD: ..." and "Try 'sched-shadow help CMD'." on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * One-line "sched-shadow CMD: ..." error on stderr, the one prefix every
 * message has.  Under -j it is not printed: the last one becomes the
 * error member of the {"schema", "command", "error"} document main()
 * prints on stdout when the command fails.
 */
void cli_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A warning (the command goes on): "sched-shadow CMD: ..." on stderr,
 * except under -j, where stdout carries JSON only and the document
 * itself says what was missing (bpftool's p_info).
 */
void cli_warn(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Strict number parsing for options: whole string, no junk, in range. */
int cli_parse_interval(const char *s, double *out);	/* > 0 and <= 86400 seconds */
int cli_parse_u64(const char *s, unsigned long long *out);
int cli_parse_count(const char *s, long *out);		/* >= 1 */

/*
 * Load a debugfs file of the current root, reporting errors on stderr
 * prefixed with `cmd`.  Returns CLI_EXIT_OK, CLI_EXIT_NOMODULE (root
 * missing / debugfs not mounted / permission) or CLI_EXIT_FAIL.
 */
int cli_load(const char *cmd, const char *name, struct dbgfs_table *t);
/* Check the module is there; prints the "not loaded" hint if not. */
int cli_check_module(const char *cmd);

/*
 * Verdict totals of the `actual` tracker over the judged idle types
 * (idle + newidle) from the `all` rows (or summed over domains when the
 * file has no `all` rows); busy_calls from the busy rows.
 */
struct lb_totals {
	uint64_t calls, right, wrong, missed, none, void_, busy_calls;	/* void_: lb's void column (0 when absent) */
};
void lb_sum_actual(const struct dbgfs_table *lb, struct lb_totals *t);

/* Exit status for a dbgfs error code: 0, CLI_EXIT_NOMODULE or CLI_EXIT_FAIL. */
int cli_exit_for(int dbgfs_code);

/* Sleep until monotonic time `t` (seconds); returns early (-1) on a signal. */
int cli_sleep_until(double t);

/* Seconds from CLOCK_MONOTONIC. */
double cli_now(void);

/*
 * Emitters shared with `run`.
 *
 * JSON: emit_table_json writes an array of row objects, one member per
 * column; columns holding only numbers become JSON numbers, `-` becomes
 * null, name-like columns (domain, idle, tracker, path, key, value)
 * stay strings.  Call it after json_key() or inside an array.
 * emit_info_json writes the info file as an object of strings.
 *
 * Prometheus: emit_<file>_prom write the families documented in
 * docs/cli.md (sched_shadow_cpu_*, sched_shadow_group_*,
 * sched_shadow_lb_*, sched_shadow_info).
 */
void emit_table_json(struct json_writer *w, const struct dbgfs_table *t);
void emit_info_json(struct json_writer *w, const struct dbgfs_table *info);
void emit_cpus_prom(struct prom_writer *p, const struct dbgfs_table *cpus);
void emit_groups_prom(struct prom_writer *p, const struct dbgfs_table *groups);
void emit_lb_prom(struct prom_writer *p, const struct dbgfs_table *lb);
void emit_lb_attempts_prom(struct prom_writer *p, const struct dbgfs_table *t);
void emit_info_prom(struct prom_writer *p, const struct dbgfs_table *info);
/* Begin the common JSON envelope {"schema":..., "command":..., ...; caller ends it. */
void emit_json_header(struct json_writer *w, const char *command);
/* Aligned text table with the units line (cpus/groups/lb know their units). */
void emit_table_text(FILE *f, const struct dbgfs_table *t);

#endif
