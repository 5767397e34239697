// SPDX-License-Identifier: GPL-2.0
/*
 * `sched-shadow bench`: the built-in schbench-style workload (bench_work.c)
 * with schbench-like output: wakeup latency percentiles in usec and
 * requests per second.  With --cgroup it runs in a cgroup v2 directory it
 * creates (and removes at exit), optionally with a cpu.weight.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands/bench_args.h"
#include "cli/sources/cgroup.h"

static void bench_print_text(const struct bench_opts *o, const struct bench_result *r,
			     const struct cg_handle *cg)
{
	const struct lat_fine *h = &r->lat;
	int i;

	if (o->cgroup)
		printf("cgroup %s (id %llu)%s%s\n", cg->rel, (unsigned long long)cg->cgid,
		       cg->weight_applied ? ", cpu.weight " : "",
		       cg->weight_applied ? "set" : cg->cpu_ok ? "" :
		       ", WITHOUT the cpu controller (--allow-no-cpu-controller)");
	printf("Wakeup Latencies percentiles (usec) runtime %.1f (s) (%llu total samples)\n",
	       r->runtime_s, (unsigned long long)h->count);
	for (i = 0; i < LAT_NPCT; i++)
		printf("\t  %5.1fth: %llu\n", lat_pct_q[i] * 100,
		       (unsigned long long)lat_fine_percentile(h, lat_pct_q[i]));
	printf("\t  max: %llu\n", (unsigned long long)h->max);
	printf("RPS: %.1f (requests per second; %llu requests, %llu wakeups, "
	       "%llu skipped: worker still busy)\n",
	       r->runtime_s > 0 ? (double)r->requests / r->runtime_s : 0,
	       (unsigned long long)r->requests, (unsigned long long)r->wakeups,
	       (unsigned long long)r->skipped);
	if (o->weight)
		printf("weight %ld: %s\n", o->weight, cg->weight_applied ? "applied" : cg->note);
}

static void bench_print_json(FILE *f, const struct bench_opts *o, const struct bench_result *r,
			     const struct cg_handle *cg, int removed)
{
	const struct lat_fine *h = &r->lat;
	struct json_writer w;
	int i;

	json_init(&w, f, cli.pretty);
	emit_json_header(&w, "bench");
	json_key(&w, "params");
	json_obj_begin(&w);
	json_kv_s64(&w, "message_threads", o->msg_threads);
	json_kv_s64(&w, "workers", o->workers);
	json_kv_s64(&w, "burn_us", o->burn_us);
	json_kv_s64(&w, "sleep_us", o->sleep_us);
	json_kv_double(&w, "duration_s", o->duration_s);
	json_obj_end(&w);
	json_key(&w, "cgroup");
	if (o->cgroup) {
		json_obj_begin(&w);
		json_kv_str(&w, "path", cg->rel);
		json_kv_u64(&w, "id", cg->cgid);
		if (o->weight)
			json_kv_s64(&w, "weight", o->weight);
		else
			json_kv_null(&w, "weight");
		json_kv_bool(&w, "weight_applied", cg->weight_applied);
		json_kv_bool(&w, "cpu_controller", cg->cpu_ok);
		json_kv_str(&w, "note", cg->note[0] ? cg->note : NULL);
		json_kv_bool(&w, "removed", removed);
		json_obj_end(&w);
	} else {
		json_null(&w);
	}
	json_kv_double(&w, "runtime_s", r->runtime_s);
	json_key(&w, "latency_us");
	json_obj_begin(&w);
	json_kv_u64(&w, "samples", h->count);
	for (i = 0; i < LAT_NPCT; i++)
		json_kv_u64(&w, lat_pct_key[i], lat_fine_percentile(h, lat_pct_q[i]));
	json_kv_u64(&w, "min", h->count ? h->min : 0);
	json_kv_u64(&w, "max", h->max);
	json_kv_double(&w, "mean", h->count ? (double)h->sum / (double)h->count : 0);
	json_kv_str(&w, "resolution", "exact below 1024 us, within 0.8% above");
	json_obj_end(&w);
	json_kv_u64(&w, "requests", r->requests);
	json_kv_double(&w, "rps", r->runtime_s > 0 ? (double)r->requests / r->runtime_s : 0);
	json_kv_u64(&w, "wakeups", r->wakeups);
	json_kv_u64(&w, "skipped", r->skipped);
	json_kv_u64(&w, "rounds", r->rounds);
	json_obj_end(&w);
	json_end(&w);
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o;
	struct bench_result *r = NULL;
	struct cg_handle cg;
	char err[512];
	int rc, in_cg = 0, removed = 0, status = CLI_EXIT_FAIL;

	memset(&cg, 0, sizeof(cg));
	rc = bench_parse_args(argc, argv, &o, err, sizeof(err));
	if (rc > 0)
		return CLI_EXIT_OK;
	if (o.json)
		cli.json = 1;
	if (o.pretty)
		cli.pretty = 1;
	if (rc < 0)
		return cli_usage_error("bench", "%s", err);
	o.json = cli.json;

	r = malloc(sizeof(*r));
	if (!r) {
		cli_err("bench", "out of memory");
		return CLI_EXIT_FAIL;
	}
	if (o.cgroup) {
		if (cg_create(&cg, o.cgroup, o.weight, err, sizeof(err))) {
			cli_err("bench", "%s", err);
			goto cleanup;
		}
		/* a "nested" benchmark outside the cpu controller would read as a real one */
		if (!cg.cpu_ok && !o.allow_no_cpu) {
			cli_err("bench", "--cgroup %s: %s; or give --allow-no-cpu-controller to run "
				"there anyway", cg.rel, cg.note);
			status = CLI_EXIT_NOCPUCG;
			goto cleanup;
		}
		if (cg.note[0])
			cli_warn("bench", "%s", cg.note);
		/* Move the process before any thread exists: they all inherit it */
		if (cg_enter(&cg, 0, err, sizeof(err))) {
			cli_err("bench", "%s", err);
			goto cleanup;
		}
		in_cg = 1;
	}
	if (bench_run(&o, r, err, sizeof(err))) {
		cli_err("bench", "%s", err);
		goto cleanup;
	}
	status = CLI_EXIT_OK;
cleanup:
	if (in_cg && cg_leave(&cg))
		cli_warn("bench", "could not move back out of %s", cg.dir);
	if (o.cgroup) {
		removed = cg_remove(&cg) == 0;
		if (!removed)
			cli_warn("bench", "could not remove cgroup %s", cg.dir);
	}
	if (status == CLI_EXIT_OK) {
		const char *res = getenv(CLI_RESULT_ENV);

		if (o.json)
			bench_print_json(stdout, &o, r, &cg, removed);
		else
			bench_print_text(&o, r, &cg);
		/* under `run`: the JSON result for its report too */
		if (res && *res) {
			FILE *f = fopen(res, "we");

			if (f) {
				bench_print_json(f, &o, r, &cg, removed);
				if (fclose(f))
					cli_err("bench", "%s: %s", res, strerror(errno));
			} else {
				cli_err("bench", "%s (%s): %s", res, CLI_RESULT_ENV, strerror(errno));
			}
		}
	}
	free(r);
	return status;
}
