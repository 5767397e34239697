// SPDX-License-Identifier: GPL-2.0
/*
 * `bench`'s options (see bench_args.h): one table, schbench's letters
 * (-m, -t, -c, -s, -r), the old long names still accepted, the old
 * letters -C and -d refused with their new spelling.  No CLI globals,
 * so host unit tests check its errors directly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/fmt.h"
#include "cli/commands/bench_args.h"

enum { BENCH_OPT_CGROUP = CLI_KEY_LONG, BENCH_OPT_WEIGHT, BENCH_OPT_WORKERS, BENCH_OPT_BURN, BENCH_OPT_SLEEP, BENCH_OPT_DURATION,
       BENCH_OPT_ALLOW_NOCPU };

static const struct cli_opt bench_option_table[] = {
	{ 'm', "message-threads", CLI_VAL_WORD, "N", "message threads (default 2)", NULL },
	{ 't', "threads", CLI_VAL_WORD, "N", "workers per message thread (default 4)", NULL },
	{ 'c', "cputime", CLI_VAL_WORD, "US", "CPU time each worker burns per wakeup, us (default 100)", NULL },
	{ 's', "sleeptime", CLI_VAL_WORD, "US", "message thread sleep between rounds, us (default 1000)", NULL },
	{ 'r', "runtime", CLI_VAL_WORD, "SECONDS", "run time (default 5; fractions allowed)", NULL },
	{ BENCH_OPT_CGROUP, "cgroup", CLI_VAL_CGROUP, "PATH",
	  "run inside cgroup v2 PATH (created, removed at exit; refused, exit 2, when the cpu "
	  "controller cannot be enabled down to it)", NULL },
	{ BENCH_OPT_ALLOW_NOCPU, "allow-no-cpu-controller", CLI_VAL_NONE, NULL,
	  "run in the --cgroup even without the cpu controller (the JSON says so)", NULL },
	{ BENCH_OPT_WEIGHT, "weight", CLI_VAL_WORD, "N", "cpu.weight of that cgroup (1-10000)", NULL },
	/* the names before schbench's letters: still accepted */
	{ BENCH_OPT_WORKERS, "workers", CLI_VAL_WORD, "N", NULL, NULL },
	{ BENCH_OPT_BURN, "burn-us", CLI_VAL_WORD, "US", NULL, NULL },
	{ BENCH_OPT_SLEEP, "sleep-us", CLI_VAL_WORD, "US", NULL, NULL },
	{ BENCH_OPT_DURATION, "duration", CLI_VAL_WORD, "SECONDS", NULL, NULL },
	/* letters that mean something else in schbench */
	{ 'C', NULL, CLI_VAL_WORD, NULL, NULL, "-c/--cputime (schbench's -C is --calibrate)" },
	{ 'd', NULL, CLI_VAL_WORD, NULL, NULL, "-r/--runtime (schbench's letter)" },
	{ 0 }
};

const struct cli_spec bench_spec = {
	.name = "bench",
	.summary = "built-in schbench-style wakeup latency benchmark",
	.help = "schbench-style wakeup latency benchmark, the project's own code: each message\n"
		"thread wakes its workers every round; a worker records its wakeup latency,\n"
		"burns CPU and waits again.  Prints the latency percentiles (us; exact below\n"
		"1 ms, within 0.8% above) and requests per second.  The letters are schbench's.",
	.opts = bench_option_table,
	.flags = CLI_SPEC_JSON,
};

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

void bench_opts_default(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->msg_threads = 2;
	o->workers = 4;
	o->burn_us = 100;
	o->sleep_us = 1000;
	o->duration_s = 5;
}

void bench_usage(FILE *f)
{
	cli_spec_usage(&bench_spec, "sched-shadow", f);
}

static int bench_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	struct bench_opts *o = ctx;
	int bad;

	switch (key) {
	case BENCH_OPT_ALLOW_NOCPU:
		o->allow_no_cpu = 1;
		return 0;
	case 'm':
		bad = parse_long(val, 1, BENCH_MAX_THREADS, &o->msg_threads);
		break;
	case 't':
	case BENCH_OPT_WORKERS:
		bad = parse_long(val, 1, BENCH_MAX_THREADS, &o->workers);
		break;
	case 'c':
	case BENCH_OPT_BURN:
		bad = parse_long(val, 0, 10000000, &o->burn_us);
		break;
	case 's':
	case BENCH_OPT_SLEEP:
		bad = parse_long(val, 0, 10000000, &o->sleep_us);
		break;
	case 'r':
	case BENCH_OPT_DURATION:
		bad = parse_seconds(val, 0.01, 86400, &o->duration_s);
		break;
	case BENCH_OPT_CGROUP:
		o->cgroup = val;
		return 0;
	case BENCH_OPT_WEIGHT:
		bad = parse_long(val, 1, 10000, &o->weight);
		break;
	default:
		bad = 1;
	}
	if (bad) {
		const struct cli_opt *p;

		for (p = bench_option_table; p->key && p->key != key; p++)
			;
		if (p->key < CLI_KEY_LONG)
			fmt_into(err, errlen, "invalid value '%s' for -%c/--%s", val, p->key, p->name);
		else
			fmt_into(err, errlen, "invalid value '%s' for --%s", val, p->name ? p->name : "?");
		return -1;
	}
	return 0;
}

int bench_parse_args(int argc, char **argv, struct bench_opts *o,
		     char *err, size_t errlen)
{
	struct cli_common common;
	int i;

	bench_opts_default(o);
	i = cli_parse_options(&bench_spec, argc, argv, bench_opt, o, &common, err, errlen);
	o->json = common.json;
	o->pretty = common.pretty;
	if (i < 0)
		return -1;
	if (common.help) {
		bench_usage(stdout);
		return 1;
	}
	if (i < argc) {
		fmt_into(err, errlen, "unexpected argument '%s'", argv[i]);
		return -1;
	}
	if (o->allow_no_cpu && !o->cgroup) {
		fmt_into(err, errlen, "--allow-no-cpu-controller goes with --cgroup PATH");
		return -1;
	}
	if (o->weight && !o->cgroup) {
		fmt_into(err, errlen, "--weight needs --cgroup");
		return -1;
	}
	if (o->msg_threads * o->workers + o->msg_threads > BENCH_MAX_THREADS) {
		fmt_into(err, errlen, "too many threads: %ld message x %ld workers (max %d in all)",
			 o->msg_threads, o->workers, BENCH_MAX_THREADS);
		return -1;
	}
	return 0;
}
