// SPDX-License-Identifier: GPL-2.0
/*
 * `run`'s option parser (see run_args.h): no CLI globals, so host unit
 * tests check its errors directly.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/fmt.h"
#include "cli/run_args.h"

void run_usage(FILE *f)
{
	fprintf(f,
		"usage: sched-shadow run [--cgroup PATH] [--bpf|--no-bpf] [--json|--prom]\n"
		"                        [--perfetto FILE [--interval SECONDS]] -- CMD [ARGS...]\n"
		"Reset the module's counters, start the BPF wakeup-latency collection,\n"
		"run CMD (inside cgroup v2 PATH when given, created if needed and removed\n"
		"afterwards if created), then print one report: load-balancer verdicts,\n"
		"shadow-vs-real divergence per CPU, wakeup latency per cgroup, migrations\n"
		"and /proc/schedstat load-balance deltas.  Exit status is CMD's\n"
		"(128+N when killed by signal N).\n\n"
		"      --cgroup PATH  run CMD in this cgroup (relative to the cgroup2 mount)\n"
		"      --bpf          collect wakeup latency with BPF (default)\n"
		"      --no-bpf       do not load BPF\n"
		"      --json         JSON report (schema sched_shadow/v1, docs/cli-run.md)\n"
		"      --prom         Prometheus text exposition\n"
		"      --debugfs DIR  the module's debugfs directory\n"
		"      --perfetto FILE  also write a Perfetto trace of the run: the module\n"
		"                     sampled every --interval (default 0.5 s), lb verdicts,\n"
		"                     and CMD as a slice carrying the latency percentiles\n"
		"      --interval SECONDS  sampling interval of the trace (with --perfetto)\n"
		"  -h, --help         this help\n");
}

int run_parse_args(int argc, char **argv, struct run_opts *o,
		   char *err, size_t errlen)
{
	enum { OPT_CGROUP = 0x100, OPT_BPF, OPT_NOBPF, OPT_JSON, OPT_PROM, OPT_DEBUGFS,
	       OPT_PERFETTO, OPT_INTERVAL };
	static const struct option lo[] = {
		{ "cgroup",  required_argument, NULL, OPT_CGROUP },
		{ "bpf",     no_argument,       NULL, OPT_BPF },
		{ "no-bpf",  no_argument,       NULL, OPT_NOBPF },
		{ "json",    no_argument,       NULL, OPT_JSON },
		{ "prom",    no_argument,       NULL, OPT_PROM },
		{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
		{ "perfetto", required_argument, NULL, OPT_PERFETTO },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, fmts = 0, have_interval = 0;
	char *end;

	memset(o, 0, sizeof(*o));
	o->bpf = 1;
	o->interval = 0.5;
	optind = 0;
	opterr = 0;
	/* '+': stop at CMD, so CMD's own options are not ours */
	while ((c = getopt_long(argc, argv, "+:h", lo, NULL)) != -1) {
		switch (c) {
		case OPT_CGROUP:
			if (!*optarg) {
				fmt_into(err, errlen, "--cgroup needs a non-empty path");
				return -1;
			}
			o->cgroup = optarg;
			break;
		case OPT_BPF:
			o->bpf = 1;
			break;
		case OPT_NOBPF:
			o->bpf = 0;
			break;
		case OPT_JSON:
			o->fmt = RUN_FMT_JSON;
			fmts |= 1;
			break;
		case OPT_PROM:
			o->fmt = RUN_FMT_PROM;
			fmts |= 2;
			break;
		case OPT_DEBUGFS:
			o->debugfs = optarg;
			break;
		case OPT_PERFETTO:
			if (!*optarg || !strcmp(optarg, "-")) {
				fmt_into(err, errlen, "--perfetto needs a file name");
				return -1;
			}
			o->perfetto = optarg;
			break;
		case OPT_INTERVAL:
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->interval >= 0.001) ||
			    o->interval > 86400) {
				fmt_into(err, errlen, "bad --interval '%s' (seconds, 0.001 to 86400)", optarg);
				return -1;
			}
			have_interval = 1;
			break;
		case 'h':
			run_usage(stdout);
			return 1;
		case ':':
			fmt_into(err, errlen, "option %s needs a value", argv[optind - 1]);
			return -1;
		default:
			fmt_into(err, errlen, "unknown option %s", argv[optind - 1]);
			return -1;
		}
	}
	if (fmts == 3) {
		fmt_into(err, errlen, "--json and --prom exclude each other");
		return -1;
	}
	if (have_interval && !o->perfetto) {
		fmt_into(err, errlen, "--interval is the sampling interval of --perfetto; give --perfetto FILE");
		return -1;
	}
	if (optind >= argc) {
		fmt_into(err, errlen, "no command given (usage: run [OPTIONS] -- CMD [ARGS...])");
		return -1;
	}
	o->cmd = &argv[optind];
	return 0;
}
