// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing of `bench` and `run` (userspace/cli/commands/bench_args.c, run_args.c):
 * defaults, accepted forms, and every usage error a user can hit, plus
 * a 0.2 s smoke run of the workload itself (1 message thread, 2 workers).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <string.h>
#include <stdlib.h>
#define LAT_NO_LOADER
#include "cli/sources/latency.c"
#include "cli/options.c"
#include "cli/commands/bench_args.c"
#include "cli/workload/bench_work.c"
#include "cli/sources/cgroup.c"
#include "cli/commands/run_args.c"

#define ARGC(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)

static int bench(int argc, char **argv, struct bench_opts *o, char *err)
{
	err[0] = 0;
	return bench_parse_args(argc, argv, o, err, 256);
}

static int run(int argc, char **argv, struct run_opts *o, char *err)
{
	err[0] = 0;
	return run_parse_args(argc, argv, o, err, 256);
}

int main(void)
{
	struct bench_opts o;
	struct run_opts r;
	struct bench_result *res = calloc(1, sizeof(*res));
	char err[256];

	tap_begin("bench_args");
	{
		char *a[] = { "bench", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) == 0 && o.msg_threads == 2 && o.workers == 4 &&
		       o.burn_us == 100 && o.sleep_us == 1000 && o.duration_s == 5 && !o.cgroup &&
		       !o.json, "bench: defaults");
	}
	{
		char *a[] = { "bench", "-m", "3", "--threads=5", "-c", "50", "--sleeptime", "0",
			      "-r", "0.5", "--cgroup", "a/b", "--weight", "200", "--json", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) == 0 && o.msg_threads == 3 && o.workers == 5 &&
		       o.burn_us == 50 && o.sleep_us == 0 && o.duration_s == 0.5 &&
		       !strcmp(o.cgroup, "a/b") && o.weight == 200 && o.json,
		       "bench: every option, schbench's letters and long names (%s)", err);
	}
	{
		char *a[] = { "bench", "--message-threads", "2", "--workers", "3", "--burn-us", "7",
			      "--sleep-us", "9", "--duration", "1.5", "-j", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) == 0 && o.msg_threads == 2 && o.workers == 3 &&
		       o.burn_us == 7 && o.sleep_us == 9 && o.duration_s == 1.5 && o.json,
		       "bench: the long names before schbench's letters still work (%s)", err);
	}
	{
		char *a[] = { "bench", "-C", "50", NULL };
		char *b[] = { "bench", "-d", "2", NULL };
		char e2[256];

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "-c/--cputime") &&
		       bench(ARGC(b), b, &o, e2) < 0 && strstr(e2, "-r/--runtime"),
		       "bench: -C and -d (other meanings in schbench) refused, naming the new letters: %s; %s",
		       err, e2);
	}
	{
		char *a[] = { "bench", "-m", "0", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "-m"), "bench: -m 0 refused: %s", err);
	}
	{
		char *a[] = { "bench", "-t", "abc", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "abc"), "bench: non-numeric refused: %s", err);
	}
	{
		char *a[] = { "bench", "-r", "-1", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0, "bench: negative duration refused: %s", err);
	}
	{
		char *a[] = { "bench", "-c", "5x", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0, "bench: trailing junk refused: %s", err);
	}
	{
		char *a[] = { "bench", "--weight", "100", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "--cgroup"),
		       "bench: --weight without --cgroup refused: %s", err);
	}
	{
		char *a[] = { "bench", "--cgroup", "x", "--weight", "10001", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "--weight"),
		       "bench: weight out of 1..10000 refused: %s", err);
	}
	{
		char *a[] = { "bench", "-m", "100", "-t", "100", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "too many"), "bench: thread cap: %s", err);
	}
	{
		char *a[] = { "bench", "--bogus", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "--bogus"), "bench: unknown option: %s", err);
	}
	{
		char *a[] = { "bench", "-d", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "needs a value"),
		       "bench: missing value: %s", err);
	}
	{
		char *a[] = { "bench", "extra", NULL };

		tap_ok(bench(ARGC(a), a, &o, err) < 0 && strstr(err, "extra"), "bench: stray argument: %s", err);
	}

	{
		char *a[] = { "run", "--", "sh", "-c", "exit 7", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && r.bpf == 1 && r.fmt == RUN_FMT_TEXT &&
		       !strcmp(r.cmd[0], "sh") && !strcmp(r.cmd[2], "exit 7") && !r.cmd[3],
		       "run: CMD after --, defaults (%s)", err);
	}
	{
		char *a[] = { "run", "--cgroup", "x/y", "--no-bpf", "--json", "--debugfs", "/d",
			      "--", "bench", "-d", "1", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && !r.bpf && r.fmt == RUN_FMT_JSON &&
		       !strcmp(r.cgroup, "x/y") && !strcmp(r.debugfs, "/d") &&
		       !strcmp(r.cmd[0], "bench") && !strcmp(r.cmd[1], "-d"),
		       "run: options, CMD keeps its own options (%s)", err);
	}
	{
		char *a[] = { "run", "--prom", "sleep", "--json", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && r.fmt == RUN_FMT_PROM &&
		       !strcmp(r.cmd[1], "--json"), "run: options stop at CMD without --");
	}
	{
		char *a[] = { "run", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "no command"), "run: no CMD: %s", err);
	}
	{
		char *a[] = { "run", "--", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "no command"), "run: empty CMD after --: %s", err);
	}
	{
		char *a[] = { "run", "--json", "--prom", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "exclude"), "run: --json with --prom: %s", err);
	}
	{
		char *a[] = { "run", "--cgroup", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "needs a value"), "run: --cgroup without path: %s", err);
	}
	{
		char *a[] = { "run", "--cgroup=", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "non-empty"), "run: empty --cgroup: %s", err);
	}
	{
		char *a[] = { "run", "--frob", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "--frob"), "run: unknown option: %s", err);
	}
	/* --perfetto FILE [--interval S] (run_trace.c) */
	{
		char *a[] = { "run", "--perfetto", "t.pftrace", "--interval", "0.2", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && !strcmp(r.perfetto, "t.pftrace") &&
		       r.interval > 0.19 && r.interval < 0.21 && !strcmp(r.cmd[0], "true"),
		       "run: --perfetto FILE --interval 0.2");
	}
	{
		char *a[] = { "run", "--perfetto", "t.pftrace", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && r.interval == 0.5, "run: --interval defaults to 0.5 s");
	}
	{
		char *a[] = { "run", "--interval", "0.2", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "--perfetto"),
		       "run: --interval without --perfetto: %s", err);
	}
	{
		char *a[] = { "run", "--perfetto", "t", "--interval", "0", "--", "true", NULL };
		char *b[] = { "run", "--perfetto", "t", "--interval", "1x", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "--interval") &&
		       run(ARGC(b), b, &r, err) < 0 && strstr(err, "1x"), "run: --interval 0 and 1x: %s", err);
	}
	{
		char *a[] = { "run", "--perfetto", "", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "--perfetto"), "run: empty --perfetto: %s", err);
	}
	/* --set NAME=VALUE: the kernel's switches (applied and checked against the kernel by run) */
	{
		char *a[] = { "run", "--set", "cgroup_mode=smp", "--set", "llc_balancing=0", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) == 0 && r.nset == 2 && !strcmp(r.set_name[0], "cgroup_mode") &&
		       !strcmp(r.set_value[0], "smp") && !strcmp(r.set_name[1], "llc_balancing") &&
		       !strcmp(r.set_value[1], "0"), "run: --set cgroup_mode=smp --set llc_balancing=0");
	}
	{
		static const char *const bad[][2] = {
			{ "llc_balancing=2", "0 or 1" }, { "cgroup_mode=SMP", "lower-case" },
			{ "cgroup_mode=", "lower-case" }, { "preempt=full", "unknown switch 'preempt'" },
			{ "cgroup_mode", "NAME=VALUE" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *a[] = { "run", "--set", (char *)bad[i][0], "--", "true", NULL };

			tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, bad[i][1]), "run: --set %s: %s",
			       bad[i][0], err);
		}
	}
	{
		char *a[] = { "run", "--set", "llc_balancing=0", "--set", "llc_balancing=1", "--", "true", NULL };

		tap_ok(run(ARGC(a), a, &r, err) < 0 && strstr(err, "given twice"), "run: --set twice: %s", err);
	}

	/* The workload itself, briefly */
	{
		char *a[] = { "bench", "-m", "1", "-t", "2", "-r", "0.2", "-c", "20", "-s", "500", NULL };
		int rc = bench(ARGC(a), a, &o, err);

		rc = rc ? rc : bench_run(&o, res, err, sizeof(err));
		tap_ok(rc == 0 && res->requests > 0 && res->lat.count == res->requests,
		       "bench_run: requests recorded (%llu)", (unsigned long long)res->requests);
		tap_ok(rc == 0 && res->wakeups <= res->requests + 2 && res->runtime_s >= 0.2 &&
		       res->runtime_s < 2, "bench_run: wakeups <= requests, runtime ~0.2 s (%.3f)",
		       res->runtime_s);
		tap_ok(rc == 0 && lat_fine_percentile(&res->lat, 0.5) <= res->lat.max,
		       "bench_run: p50 <= max");
	}
	free(res);
	return tap_end();
}
