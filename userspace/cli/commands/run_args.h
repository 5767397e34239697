/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `run`'s options: parser and usage text.  Free of CLI globals, so host
 * unit tests check its errors.
 */
#ifndef SCHED_SHADOW_CLI_RUN_ARGS_H
#define SCHED_SHADOW_CLI_RUN_ARGS_H

#include <stdio.h>
#include "cli/options.h"
#include "cli/sources/knobs.h"

extern const struct cli_spec run_spec;

enum run_fmt { RUN_FMT_TEXT, RUN_FMT_JSON, RUN_FMT_PROM };

struct run_opts {
	const char *cgroup;
	int allow_no_cpu;	/* --allow-no-cpu-controller */
	int bpf;		/* 1 default, 0 with --no-bpf */
	int module;		/* 1 default, 0 with --no-module */
	enum run_fmt fmt;
	const char *debugfs;	/* --debugfs DIR or NULL */
	const char *perfetto;	/* --perfetto FILE or NULL */
	const char *evidence;	/* --evidence DIR or NULL */
	double interval;	/* --interval: trace sampling period, s (0.5) */
	const char *label;	/* --label NAME: the run's name in compare */
	const char *note;	/* --note TEXT: one line about the setup */
	const char *result;	/* --result FILE: JSON CMD writes, embedded in the report */
	const char *output;	/* -o FILE: the report goes there, not to stdout */
	int nset;		/* --set NAME=VALUE, at most one per switch */
	char set_name[2][40], set_value[2][KNOBS_VAL_LEN];
	int repeat;		/* -r/--repeat N: runs of CMD, one report each (1) */
	int pretty;		/* -p: indented JSON */
	char **cmd;		/* NULL-terminated CMD ARGS... */
};

/*
 * Parse run's argv (argv[0] = "run").  Returns 0 when ready to run,
 * 1 when --help was given (usage already printed to stdout), -1 on a
 * usage error with the reason in err.
 */
int run_parse_args(int argc, char **argv, struct run_opts *o,
		   char *err, size_t errlen);
void run_usage(FILE *f);

#endif
