/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bench`'s options: defaults, parser and usage text.  Free of CLI
 * globals, so host unit tests check its errors.
 */
#ifndef SCHED_SHADOW_CLI_BENCH_ARGS_H
#define SCHED_SHADOW_CLI_BENCH_ARGS_H

#include <stdio.h>
#include "cli/workload/bench_work.h"
#include "cli/options.h"

extern const struct cli_spec bench_spec;

void bench_opts_default(struct bench_opts *o);
/*
 * Parse bench's argv (argv[0] = "bench").  Returns 0 when ready to run,
 * 1 when --help was given (usage already printed to stdout), -1 on a
 * usage error with the reason in err.
 */
int bench_parse_args(int argc, char **argv, struct bench_opts *o,
		     char *err, size_t errlen);
void bench_usage(FILE *f);

#endif
