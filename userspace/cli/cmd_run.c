// SPDX-License-Identifier: GPL-2.0
/*
 * `sched-shadow run [OPTIONS] -- CMD ARGS...`: one report around one
 * command.  Order: reset the module's counters, start the BPF collector,
 * snapshot /proc/schedstat, run CMD (optionally inside a cgroup), then
 * read everything back and print text, JSON or Prometheus.  Every source
 * may be missing (no module, no BPF, no schedstat): the report then says
 * which and why, and the rest still works.  Exit status is CMD's.
 * The JSON schema is documented in docs/cli-run.md.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli/cli.h"
#include "cli/table.h"
#include "cli/bench_core.h"
#include "cli/latency.h"
#include "cli/schedstat.h"
#include "cli/run_trace.h"

#define RUN_TEXT_MAX_CGROUPS	20

struct run_cg_info {
	char path[512];		/* "" when the id no longer resolves */
};

struct run_report {
	struct run_opts o;
	int exit_status;
	double wall_s;

	/* module */
	int module_loaded, module_reset;
	char module_why[320];
	struct dbgfs_table info, cpus, lb, att;
	int have_info, have_cpus, have_lb, have_att;
	char cpus_why[320], lb_why[320];

	/* cgroup CMD ran in */
	int cg_used, cg_created, cg_removed;
	struct cg_handle cg;

	/* BPF */
	int bpf_ok;
	char bpf_why[512];
	struct lat_snapshot lat;
	struct run_cg_info *cgpath;
	int ncg_shown;		/* cgroups with any activity */

	/* /proc/schedstat */
	int ss_ok, ss_enabled_by_run;
	char ss_why[320];
	int ss_version;
	struct ss_delta ss;

	/* --perfetto */
	struct run_trace *trace;
};

/* ------------------------------------------------------------ collection */

static void run_module_start(struct run_report *r)
{
	struct dbgfs_error err;

	if (dbgfs_probe_root(cli.debugfs, &err)) {
		/* Always say "module not loaded", plus what the probe found */
		if (strstr(err.msg, "not loaded"))
			snprintf(r->module_why, sizeof(r->module_why), "%s", err.msg);
		else
			snprintf(r->module_why, sizeof(r->module_why), "module not loaded (%s)",
				 err.msg);
		return;
	}
	r->module_loaded = 1;
	if (dbgfs_write(cli.debugfs, "reset", "1", &err))
		snprintf(r->module_why, sizeof(r->module_why), "reset failed: %s", err.msg);
	else
		r->module_reset = 1;
}

static void run_module_finish(struct run_report *r)
{
	struct dbgfs_error err;

	if (!r->module_loaded) {
		snprintf(r->cpus_why, sizeof(r->cpus_why), "%s", r->module_why);
		snprintf(r->lb_why, sizeof(r->lb_why), "%s", r->module_why);
		return;
	}
	r->have_info = !dbgfs_load(cli.debugfs, "info", &r->info, &err);
	if (!dbgfs_load(cli.debugfs, "cpus", &r->cpus, &err))
		r->have_cpus = 1;
	else
		snprintf(r->cpus_why, sizeof(r->cpus_why), "%s", err.msg);
	r->have_att = !dbgfs_load(cli.debugfs, "lb_attempts", &r->att, &err);
	if (!dbgfs_load(cli.debugfs, "lb", &r->lb, &err)) {
		r->have_lb = 1;
	} else {
		const char *st = r->have_info ? dbgfs_info_get(&r->info, "feature.lb_audit") : NULL;

		/* The info file says why the audit is off; the load error is the fallback */
		if (st && strncmp(st, "active", 6))
			snprintf(r->lb_why, sizeof(r->lb_why), "feature.lb_audit %s", st);
		else
			snprintf(r->lb_why, sizeof(r->lb_why), "%s", err.msg);
	}
}

static void run_bpf_finish(struct run_report *r, struct lat_bpf *b)
{
	char mnt[256], why[256];
	int i, have_mnt;

	if (!b)
		return;
	if (lat_bpf_read(b, &r->lat, r->bpf_why, sizeof(r->bpf_why))) {
		r->bpf_ok = 0;
		return;
	}
	have_mnt = !cg_mount_point(mnt, sizeof(mnt), why, sizeof(why));
	r->cgpath = calloc(r->lat.ncg ? r->lat.ncg : 1, sizeof(*r->cgpath));
	for (i = 0; r->cgpath && i < r->lat.ncg; i++) {
		const struct lat_cg_val *v = &r->lat.cg[i].v;

		if (v->wakeups || v->samples || v->migrations)
			r->ncg_shown++;
		if (have_mnt && cg_path_of_id(mnt, r->lat.cg[i].cgid, r->cgpath[i].path,
					      sizeof(r->cgpath[i].path)))
			r->cgpath[i].path[0] = 0;
	}
}

static int run_child(struct run_report *r)
{
	char err[512];
	pid_t pid;
	int st;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	double t0;

	fflush(NULL);
	t0 = cli_now();
	pid = fork();
	if (pid < 0) {
		cli_err("run", "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (r->cg_used && cg_enter(&r->cg, 0, err, sizeof(err))) {
			cli_err("run", "%s", err);
			_exit(126);
		}
		execvp(r->o.cmd[0], r->o.cmd);
		cli_err("run", "%s: %s", r->o.cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	/* Like time(1): Ctrl-C goes to CMD, we stay to print the report */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* --perfetto: sample the module while waiting (run_trace.c) */
	if (r->trace && run_trace_wait(r->trace, pid, r->o.interval,
				       r->cg_used ? r->cg.rel : NULL, &st)) {
		cli_err("run", "waitpid: %s", strerror(errno));
		st = 1 << 8;
	}
	while (!r->trace && waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			cli_err("run", "waitpid: %s", strerror(errno));
			st = 1 << 8;
			break;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	r->wall_s = cli_now() - t0;
	if (WIFEXITED(st))
		r->exit_status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		r->exit_status = 128 + WTERMSIG(st);
	else
		r->exit_status = 1;
	return 0;
}

/* ------------------------------------------------------------ helpers */

static const char *run_cg_name(const struct run_report *r, int i, char *buf, size_t len)
{
	if (r->cgpath && r->cgpath[i].path[0])
		return r->cgpath[i].path;
	snprintf(buf, len, "cgid:%llu", (unsigned long long)r->lat.cg[i].cgid);
	return buf;
}

static double run_mean_us(const struct lat_cg_val *v)
{
	return v->samples ? (double)v->sum_ns / (double)v->samples / 1000.0 : 0;
}

static const char *run_cg_name_cb(const void *ctx, int i, char *buf, size_t len)
{
	return run_cg_name(ctx, i, buf, len);
}

/* ------------------------------------------------------------ text */

static void run_text_cpus(const struct run_report *r)
{
	static const char *const cols[] = { "cpu", "shadow_mean", "real_mean", "div_mean", "div_max",
		"fresh_mean", "h_load_mean" };
	enum { NCOLS = sizeof(cols) / sizeof(cols[0]) };
	struct table tb;
	int idx[NCOLS], i, row;

	printf("\n== shadow vs real load per CPU (module, since reset; load units) ==\n");
	if (!r->have_cpus) {
		printf("not available: %s\n", r->cpus_why);
		return;
	}
	for (i = 0; i < NCOLS; i++)
		idx[i] = dbgfs_col(&r->cpus, cols[i]);
	table_init(&tb, NCOLS);
	table_header(&tb, cols);
	for (row = 0; row < r->cpus.nrows; row++) {
		const char *cells[NCOLS];

		for (i = 0; i < NCOLS; i++)
			cells[i] = idx[i] >= 0 ? dbgfs_cell(&r->cpus, row, idx[i]) : NULL;
		table_row(&tb, cells);
	}
	table_print(&tb, stdout);
	table_free(&tb);
}

static void run_text_bpf(const struct run_report *r)
{
	static const char *const cols[] = { "cgroup", "wakeups", "migrations", "samples",
		"p50_us", "p90_us", "p99_us", "p99.9_us", "max_us" };
	char b[9][64];
	struct table tb;
	int i, k, shown = 0;

	printf("\n== wakeup latency per cgroup (BPF) ==\n");
	if (!r->o.bpf) {
		printf("not collected: --no-bpf\n");
		return;
	}
	if (!r->bpf_ok) {
		printf("not available: %s\n", r->bpf_why);
		return;
	}
	printf("log2 histogram: each percentile is interpolated inside its power-of-two\n"
	       "bucket, so it is exact only to within a factor of 2 (max is exact)\n");
	table_init(&tb, 9);
	table_header(&tb, cols);
	for (i = 0; i < r->lat.ncg && shown < RUN_TEXT_MAX_CGROUPS; i++) {
		const struct lat_cg_val *v = &r->lat.cg[i].v;
		const char *cells[9];

		if (!v->wakeups && !v->samples && !v->migrations)
			continue;
		shown++;
		cells[0] = run_cg_name(r, i, b[0], sizeof(b[0]));
		cells[1] = table_fmt(b[1], sizeof(b[1]), "%llu", (unsigned long long)v->wakeups);
		cells[2] = table_fmt(b[2], sizeof(b[2]), "%llu", (unsigned long long)v->migrations);
		cells[3] = table_fmt(b[3], sizeof(b[3]), "%llu", (unsigned long long)v->samples);
		for (k = 0; k < LAT_NPCT; k++) {
			struct lat_estimate e;

			lat_log2_percentile(v, lat_pct_q[k], &e);
			cells[4 + k] = e.valid ? table_fmt(b[4 + k], sizeof(b[4 + k]), "%.1f",
							   e.value_ns / 1000.0) : "-";
		}
		cells[8] = v->samples ? table_fmt(b[8], sizeof(b[8]), "%.1f", v->max_ns / 1000.0) : "-";
		table_row(&tb, cells);
	}
	table_print(&tb, stdout);
	table_free(&tb);
	if (r->ncg_shown > shown)
		printf("(%d more cgroups in --json)\n", r->ncg_shown - shown);
	if (r->lat.counters[LAT_CNT_PENDING_FULL] || r->lat.counters[LAT_CNT_CGROUP_FULL] ||
	    r->lat.counters[LAT_CNT_NEGATIVE])
		printf("drops: %llu wakeups (pending map full), %llu events (cgroup map full), "
		       "%llu negative deltas\n",
		       (unsigned long long)r->lat.counters[LAT_CNT_PENDING_FULL],
		       (unsigned long long)r->lat.counters[LAT_CNT_CGROUP_FULL],
		       (unsigned long long)r->lat.counters[LAT_CNT_NEGATIVE]);
}

static void run_text_schedstat(const struct run_report *r)
{
	static const char *const cols[] = { "domain", "cpus", "idle", "lb_count", "lb_balanced",
		"lb_failed", "lb_imbalance", "lb_gained", "lb_nobusyg", "lb_nobusyq" };
	char b[10][64];
	struct table tb;
	int i, it;

	printf("\n== /proc/schedstat load-balance deltas over the run (cross-check) ==\n");
	if (!r->ss_ok) {
		printf("not available: %s\n", r->ss_why);
		return;
	}
	printf("schedstat version %d, %llu jiffies%s%s%s\n", r->ss_version,
	       (unsigned long long)r->ss.jiffies,
	       r->ss_enabled_by_run ? "; kernel.sched_schedstats switched on for the run" : "",
	       r->ss.reshaped ? "; sched domains changed during the run" : "",
	       r->ss.wrapped ? "; some counters went backwards (shown as 0)" : "");
	if (r->ss_why[0])
		printf("note: %s\n", r->ss_why);
	table_init(&tb, 10);
	table_header(&tb, cols);
	for (i = 0; i < r->ss.nlevels; i++) {
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *lb = &r->ss.lv[i].lb[it];
			const char *cells[10];

			cells[0] = r->ss.lv[i].name;
			cells[1] = table_fmt(b[1], sizeof(b[1]), "%d", r->ss.lv[i].ncpus);
			cells[2] = ss_idle_name[it];
			cells[3] = table_fmt(b[3], 64, "%llu", (unsigned long long)lb->count);
			cells[4] = table_fmt(b[4], 64, "%llu", (unsigned long long)lb->balanced);
			cells[5] = table_fmt(b[5], 64, "%llu", (unsigned long long)lb->failed);
			cells[6] = table_fmt(b[6], 64, "%llu", (unsigned long long)lb->imbalance);
			cells[7] = table_fmt(b[7], 64, "%llu", (unsigned long long)lb->gained);
			cells[8] = table_fmt(b[8], 64, "%llu", (unsigned long long)lb->nobusyg);
			cells[9] = table_fmt(b[9], 64, "%llu", (unsigned long long)lb->nobusyq);
			table_row(&tb, cells);
		}
	}
	table_print(&tb, stdout);
	table_free(&tb);
}

static void run_print_text(const struct run_report *r)
{
	int i;

	printf("sched-shadow run report\ncommand:");
	for (i = 0; r->o.cmd[i]; i++)
		printf(" %s", r->o.cmd[i]);
	printf("\nexit status %d, wall time %.2f s\n", r->exit_status, r->wall_s);
	if (r->cg_used)
		printf("cgroup: %s (id %llu)%s\n", r->cg.rel, (unsigned long long)r->cg.cgid,
		       r->cg_created ? (r->cg_removed ? ", created and removed" :
					 ", created, NOT removed") : "");
	if (r->cg_used && r->cg.note[0])
		printf("cgroup note: %s\n", r->cg.note);
	if (r->module_loaded)
		printf("module: loaded%s%s\n", r->module_reset ? ", counters reset at start" : "; ",
		       r->module_reset ? "" : r->module_why);
	else
		printf("module: %s (report uses BPF and /proc/schedstat only)\n", r->module_why);
	if (!r->o.bpf)
		printf("bpf: disabled (--no-bpf)\n");
	else if (r->bpf_ok)
		printf("bpf: wakeup latency collected\n");
	else
		printf("bpf: not available: %s\n", r->bpf_why);

	printf("\n== load-balancer audit (module lb table, since reset) ==\n");
	if (r->have_lb) {
		struct lb_totals t;

		lb_sum_actual(&r->lb, &t);
		printf("verdicts (actual, idle+newidle): calls %llu right %llu wrong %llu "
		       "missed %llu none %llu void %llu; busy calls %llu\n",
		       (unsigned long long)t.calls, (unsigned long long)t.right,
		       (unsigned long long)t.wrong, (unsigned long long)t.missed,
		       (unsigned long long)t.none, (unsigned long long)t.void_,
		       (unsigned long long)t.busy_calls);
		emit_table_text(stdout, &r->lb);
	} else {
		printf("lb audit not available: %s\n", r->lb_why);
	}
	if (r->have_att) {
		const char *uw = r->have_info ? dbgfs_info_get(&r->info, "lb_unexplained_wrong") : NULL;
		const char *um = r->have_info ? dbgfs_info_get(&r->info, "lb_unexplained_missed") : NULL;

		printf("\n== balancing attempts (module lb_attempts: one verdict per attempt, "
		       "with its reason) ==\n");
		printf("headline: unexplained wrong %s, unexplained missed %s\n", uw ? uw : "-",
		       um ? um : "-");
		emit_table_text(stdout, &r->att);
	}
	run_text_cpus(r);
	run_text_bpf(r);
	run_text_schedstat(r);
}

/* ------------------------------------------------------------ JSON */

static void run_json_reason(struct json_writer *w, int ok, const char *why)
{
	json_kv_bool(w, "available", ok);
	json_kv_str(w, "reason", ok ? NULL : why);
}

static void run_print_json(const struct run_report *r)
{
	static const char *const cpu_cols[] = { "cpu", "shadow_mean", "real_mean", "div_mean", "div_max",
		"fresh_mean", "h_load_mean" };
	struct json_writer w;
	char nb[64];
	int i, k, it;

	json_init(&w, stdout, 1);
	emit_json_header(&w, "run");
	json_kv_s64(&w, "run_report_version", 1);
	json_key(&w, "cmd");
	json_arr_begin(&w);
	for (i = 0; r->o.cmd[i]; i++)
		json_str(&w, r->o.cmd[i]);
	json_arr_end(&w);
	json_kv_s64(&w, "exit_status", r->exit_status);
	json_kv_double(&w, "wall_s", r->wall_s);

	json_key(&w, "cgroup");
	if (r->cg_used) {
		json_obj_begin(&w);
		json_kv_str(&w, "path", r->cg.rel);
		json_kv_u64(&w, "id", r->cg.cgid);
		json_kv_bool(&w, "created", r->cg_created);
		json_kv_bool(&w, "removed", r->cg_removed);
		json_kv_str(&w, "note", r->cg.note[0] ? r->cg.note : NULL);
		json_obj_end(&w);
	} else {
		json_null(&w);
	}

	json_key(&w, "module");
	json_obj_begin(&w);
	json_kv_bool(&w, "loaded", r->module_loaded);
	json_kv_bool(&w, "reset", r->module_reset);
	json_kv_str(&w, "reason", r->module_why[0] ? r->module_why : NULL);
	json_key(&w, "info");
	if (r->have_info)
		emit_info_json(&w, &r->info);
	else
		json_null(&w);
	json_obj_end(&w);

	json_key(&w, "lb");
	json_obj_begin(&w);
	run_json_reason(&w, r->have_lb, r->lb_why);
	if (r->have_lb) {
		struct lb_totals t;

		lb_sum_actual(&r->lb, &t);
		json_key(&w, "verdicts");
		json_obj_begin(&w);
		json_kv_u64(&w, "calls", t.calls);
		json_kv_u64(&w, "right", t.right);
		json_kv_u64(&w, "wrong", t.wrong);
		json_kv_u64(&w, "missed", t.missed);
		json_kv_u64(&w, "none", t.none);
		json_kv_u64(&w, "void", t.void_);
		json_kv_u64(&w, "busy_calls", t.busy_calls);
		json_obj_end(&w);
		json_key(&w, "rows");
		emit_table_json(&w, &r->lb);
	}
	json_key(&w, "attempts");
	if (r->have_att) {
		const char *uw = r->have_info ? dbgfs_info_get(&r->info, "lb_unexplained_wrong") : NULL;
		const char *um = r->have_info ? dbgfs_info_get(&r->info, "lb_unexplained_missed") : NULL;

		json_obj_begin(&w);
		json_kv_u64(&w, "unexplained_wrong", uw ? strtoull(uw, NULL, 10) : 0);
		json_kv_u64(&w, "unexplained_missed", um ? strtoull(um, NULL, 10) : 0);
		json_key(&w, "rows");
		emit_table_json(&w, &r->att);
		json_obj_end(&w);
	} else {
		json_null(&w);
	}
	json_obj_end(&w);

	json_key(&w, "cpus");
	json_obj_begin(&w);
	run_json_reason(&w, r->have_cpus, r->cpus_why);
	if (r->have_cpus) {
		json_key(&w, "rows");
		json_arr_begin(&w);
		for (i = 0; i < r->cpus.nrows; i++) {
			json_obj_begin(&w);
			for (k = 0; k < (int)(sizeof(cpu_cols) / sizeof(cpu_cols[0])); k++) {
				int c = dbgfs_col(&r->cpus, cpu_cols[k]);
				uint64_t v;

				if (c >= 0 && dbgfs_u64(&r->cpus, i, c, &v) == 0)
					json_kv_u64(&w, cpu_cols[k], v);
				else
					json_kv_null(&w, cpu_cols[k]);
			}
			json_obj_end(&w);
		}
		json_arr_end(&w);
	}
	json_obj_end(&w);

	json_key(&w, "bpf");
	json_obj_begin(&w);
	json_kv_bool(&w, "requested", r->o.bpf);
	run_json_reason(&w, r->o.bpf && r->bpf_ok, r->o.bpf ? r->bpf_why : "--no-bpf");
	if (r->bpf_ok) {
		json_kv_str(&w, "method", "log2 histogram; percentile interpolated by rank inside "
			    "its power-of-two bucket, clamped to the max seen; exact to a factor of 2");
		json_key(&w, "drops");
		json_obj_begin(&w);
		json_kv_u64(&w, "pending_full", r->lat.counters[LAT_CNT_PENDING_FULL]);
		json_kv_u64(&w, "cgroup_full", r->lat.counters[LAT_CNT_CGROUP_FULL]);
		json_kv_u64(&w, "negative", r->lat.counters[LAT_CNT_NEGATIVE]);
		json_obj_end(&w);
		json_key(&w, "cgroups");
		json_arr_begin(&w);
		for (i = 0; i < r->lat.ncg; i++) {
			const struct lat_cg_val *v = &r->lat.cg[i].v;

			json_obj_begin(&w);
			json_kv_u64(&w, "id", r->lat.cg[i].cgid);
			json_kv_str(&w, "path", r->cgpath && r->cgpath[i].path[0] ?
				    r->cgpath[i].path : NULL);
			json_kv_u64(&w, "wakeups", v->wakeups);
			json_kv_u64(&w, "wakeups_new", v->wakeups_new);
			json_kv_u64(&w, "migrations", v->migrations);
			json_kv_u64(&w, "samples", v->samples);
			json_key(&w, "latency_us");
			json_obj_begin(&w);
			for (k = 0; k < LAT_NPCT; k++) {
				struct lat_estimate e;

				lat_log2_percentile(v, lat_pct_q[k], &e);
				if (e.valid)
					json_kv_double(&w, lat_pct_key[k], e.value_ns / 1000.0);
				else
					json_kv_null(&w, lat_pct_key[k]);
			}
			json_kv_double(&w, "max", v->max_ns / 1000.0);
			json_kv_double(&w, "mean", run_mean_us(v));
			json_obj_end(&w);
			json_key(&w, "bucket_us");
			json_obj_begin(&w);
			for (k = 0; k < LAT_NPCT; k++) {
				struct lat_estimate e;

				lat_log2_percentile(v, lat_pct_q[k], &e);
				json_key(&w, lat_pct_key[k]);
				if (!e.valid) {
					json_null(&w);
					continue;
				}
				json_arr_begin(&w);
				json_double(&w, e.lo_ns / 1000.0);
				json_double(&w, e.hi_ns / 1000.0);
				json_arr_end(&w);
			}
			json_obj_end(&w);
			json_key(&w, "histogram_ns");
			json_arr_begin(&w);
			for (k = 0; k < LAT_SLOTS; k++)
				json_u64(&w, v->slots[k]);
			json_arr_end(&w);
			json_obj_end(&w);
		}
		json_arr_end(&w);
	}
	json_obj_end(&w);

	json_key(&w, "schedstat");
	json_obj_begin(&w);
	run_json_reason(&w, r->ss_ok, r->ss_why);
	if (r->ss_ok) {
		json_kv_str(&w, "note", r->ss_why[0] ? r->ss_why : NULL);
		json_kv_s64(&w, "version", r->ss_version);
		json_kv_bool(&w, "enabled_by_run", r->ss_enabled_by_run);
		json_kv_u64(&w, "jiffies", r->ss.jiffies);
		json_kv_bool(&w, "reshaped", r->ss.reshaped);
		json_kv_bool(&w, "wrapped", r->ss.wrapped);
		json_key(&w, "domains");
		json_arr_begin(&w);
		for (i = 0; i < r->ss.nlevels; i++) {
			for (it = 0; it < SS_NIDLE; it++) {
				const struct ss_lb *lb = &r->ss.lv[i].lb[it];

				json_obj_begin(&w);
				json_kv_str(&w, "domain", r->ss.lv[i].name);
				json_kv_s64(&w, "cpus", r->ss.lv[i].ncpus);
				json_kv_str(&w, "idle", ss_idle_name[it]);
				json_kv_u64(&w, "lb_count", lb->count);
				json_kv_u64(&w, "lb_balanced", lb->balanced);
				json_kv_u64(&w, "lb_failed", lb->failed);
				json_kv_u64(&w, "lb_imbalance", lb->imbalance);
				json_kv_u64(&w, "lb_gained", lb->gained);
				json_kv_u64(&w, "lb_hot_gained", lb->hot_gained);
				json_kv_u64(&w, "lb_nobusyg", lb->nobusyg);
				json_kv_u64(&w, "lb_nobusyq", lb->nobusyq);
				json_obj_end(&w);
			}
		}
		json_arr_end(&w);
	}
	json_obj_end(&w);
	(void)nb;
	json_obj_end(&w);
	json_end(&w);
}

/* ------------------------------------------------------------ Prometheus */

static void run_print_prom(const struct run_report *r)
{
	struct prom_writer p;
	struct prom_label l[3];
	char nb[64];
	int i, k, it;

	prom_init(&p, stdout);
	prom_family(&p, PROM_PREFIX "run_exit_status", "gauge", "exit status of the command run");
	prom_sample(&p, PROM_PREFIX "run_exit_status", NULL, 0, r->exit_status);
	prom_family(&p, PROM_PREFIX "run_wall_seconds", "gauge", "wall time of the command run");
	prom_sample(&p, PROM_PREFIX "run_wall_seconds", NULL, 0, r->wall_s);
	prom_family(&p, PROM_PREFIX "run_source_available", "gauge",
		    "1 when the report source (module, bpf, schedstat) was available");
	l[0].name = "source";
	l[0].value = "module";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1, r->module_loaded);
	l[0].value = "bpf";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1, r->o.bpf && r->bpf_ok);
	l[0].value = "schedstat";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1, r->ss_ok);
	if (r->have_info)
		emit_info_prom(&p, &r->info);
	if (r->have_lb)
		emit_lb_prom(&p, &r->lb);
	if (r->have_cpus)
		emit_cpus_prom(&p, &r->cpus);
	if (r->bpf_ok) {
		prom_family(&p, PROM_PREFIX "run_wakeups_total", "counter",
			    "sched_wakeup and sched_wakeup_new events per cgroup during the run (BPF)");
		prom_family(&p, PROM_PREFIX "run_migrations_total", "counter",
			    "sched_migrate_task events per cgroup during the run (BPF)");
		prom_family(&p, PROM_PREFIX "run_wakeup_latency_seconds", "gauge",
			    "wakeup-to-run latency quantile per cgroup, estimated from log2 buckets (BPF)");
		prom_family(&p, PROM_PREFIX "run_wakeup_latency_max_seconds", "gauge",
			    "largest wakeup-to-run latency per cgroup (BPF)");
		for (i = 0; i < r->lat.ncg; i++) {
			const struct lat_cg_val *v = &r->lat.cg[i].v;

			if (!v->wakeups && !v->samples && !v->migrations)
				continue;
			l[0].name = "cgroup";
			l[0].value = run_cg_name(r, i, nb, sizeof(nb));
			prom_sample_u64(&p, PROM_PREFIX "run_wakeups_total", l, 1, v->wakeups);
			prom_sample_u64(&p, PROM_PREFIX "run_migrations_total", l, 1, v->migrations);
			for (k = 0; k < LAT_NPCT && v->samples; k++) {
				struct lat_estimate e;
				char q[16];

				lat_log2_percentile(v, lat_pct_q[k], &e);
				snprintf(q, sizeof(q), "%g", lat_pct_q[k]);
				l[1].name = "quantile";
				l[1].value = q;
				prom_sample(&p, PROM_PREFIX "run_wakeup_latency_seconds", l, 2,
					    e.value_ns / 1e9);
			}
			if (v->samples)
				prom_sample(&p, PROM_PREFIX "run_wakeup_latency_max_seconds", l, 1,
					    v->max_ns / 1e9);
		}
	}
	if (r->ss_ok) {
		static const char *const names[] = { "lb_count", "lb_balanced", "lb_failed",
			"lb_imbalance", "lb_gained", "lb_nobusyg", "lb_nobusyq" };

		prom_family(&p, PROM_PREFIX "run_schedstat_lb_total", "counter",
			    "/proc/schedstat load-balance counter deltas over the run, per domain and idle type");
		for (i = 0; i < r->ss.nlevels; i++) {
			for (it = 0; it < SS_NIDLE; it++) {
				const struct ss_lb *lb = &r->ss.lv[i].lb[it];
				const uint64_t vals[] = { lb->count, lb->balanced, lb->failed,
					lb->imbalance, lb->gained, lb->nobusyg, lb->nobusyq };

				l[0].name = "domain";
				l[0].value = r->ss.lv[i].name;
				l[1].name = "idle";
				l[1].value = ss_idle_name[it];
				l[2].name = "counter";
				for (k = 0; k < 7; k++) {
					l[2].value = names[k];
					prom_sample_u64(&p, PROM_PREFIX "run_schedstat_lb_total", l, 3, vals[k]);
				}
			}
		}
	}
	prom_end(&p);
}

/* ------------------------------------------------------------ main */

int cmd_run(int argc, char **argv)
{
	struct run_report *r;
	struct lat_bpf *b = NULL;
	struct schedstat before, after;
	char err[512];
	int rc, ss_prev = -1, status = CLI_EXIT_FAIL, trace_failed = 0;

	r = calloc(1, sizeof(*r));
	if (!r) {
		cli_err("run", "out of memory");
		return CLI_EXIT_FAIL;
	}
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	rc = run_parse_args(argc, argv, &r->o, err, sizeof(err));
	if (rc) {
		free(r);
		return rc > 0 ? CLI_EXIT_OK : cli_usage_error("run", "%s", err);
	}
	if (r->o.debugfs)
		cli.debugfs = r->o.debugfs;

	/* The trace file first: an unwritable place fails before anything is touched */
	if (r->o.perfetto) {
		r->trace = calloc(1, sizeof(*r->trace));
		if (!r->trace || run_trace_open(r->trace, r->o.perfetto, cli.debugfs, r->o.cmd,
						err, sizeof(err))) {
			cli_err("run", "%s", r->trace ? err : "out of memory");
			free(r->trace);
			r->trace = NULL;
			goto cleanup;
		}
	}
	/* The cgroup first: a bad path should fail before anything is touched */
	if (r->o.cgroup) {
		if (cg_create(&r->cg, r->o.cgroup, 0, err, sizeof(err))) {
			cli_err("run", "%s", err);
			goto cleanup;
		}
		r->cg_used = 1;
	}
	run_module_start(r);
	if (!r->module_loaded)
		cli_err("run", "%s; continuing with BPF and /proc/schedstat only", r->module_why);

	/*
	 * Baseline of the kernel's own counters (which need the schedstats key
	 * on), right after the module's reset: the cross-check compares the
	 * same window.  (Taken after the BPF programs were loaded, the module
	 * counted a second or more of idle balancing before the baseline
	 * under TCG: 505 MC idle attempts against lb_count 198 in one demo.)
	 */
	if (access(SCHEDSTAT_PATH, R_OK) == 0 &&
	    schedstat_enable(SCHEDSTAT_SYSCTL, &ss_prev, r->ss_why, sizeof(r->ss_why)) == 0) {
		r->ss_enabled_by_run = ss_prev == 0;
	} else if (access(SCHEDSTAT_PATH, R_OK) == 0 && r->ss_why[0]) {
		char tmp[320];

		snprintf(tmp, sizeof(tmp), "%.200s: lb counters may not move", r->ss_why);
		snprintf(r->ss_why, sizeof(r->ss_why), "%s", tmp);
	}
	{
		char why[320];

		rc = schedstat_read(SCHEDSTAT_PATH, &before, why, sizeof(why));
		if (rc)
			snprintf(r->ss_why, sizeof(r->ss_why), "%s", why);
		r->ss_ok = rc == 0;
	}

	if (r->trace)
		run_trace_start(r->trace, r->module_loaded);

	if (r->o.bpf) {
		b = lat_bpf_start(r->bpf_why, sizeof(r->bpf_why));
		r->bpf_ok = b != NULL;
		if (!b)
			cli_err("run", "BPF not available: %s; continuing without", r->bpf_why);
	}

	if (run_child(r))
		goto cleanup;

	if (r->ss_ok) {
		char why[320];

		if (schedstat_read(SCHEDSTAT_PATH, &after, why, sizeof(why)) ||
		    schedstat_delta(&before, &after, &r->ss)) {
			snprintf(r->ss_why, sizeof(r->ss_why), "%s", why);
			r->ss_ok = 0;
		}
		r->ss_version = after.version;
	}
	run_module_finish(r);	/* right after the schedstat copy: the same window */
	schedstat_restore(SCHEDSTAT_SYSCTL, ss_prev);
	ss_prev = -1;
	run_bpf_finish(r, b);
	if (r->cg_used && r->cg.ncreated) {
		r->cg_created = 1;
		r->cg_removed = cg_remove(&r->cg) == 0;
		if (!r->cg_removed)
			cli_err("run", "could not remove cgroup %s (still populated?)", r->cg.dir);
	}

	if (r->trace) {
		int trc = run_trace_finish(r->trace, r->exit_status, r->wall_s,
					   r->bpf_ok ? &r->lat : NULL, run_cg_name_cb, r,
					   err, sizeof(err));

		free(r->trace);
		r->trace = NULL;
		if (trc) {
			cli_err("run", "%s", err);
			trace_failed = 1;
		}
	}

	switch (r->o.fmt) {
	case RUN_FMT_JSON:
		run_print_json(r);
		break;
	case RUN_FMT_PROM:
		run_print_prom(r);
		break;
	default:
		run_print_text(r);
	}
	fflush(stdout);
	status = trace_failed ? CLI_EXIT_FAIL : r->exit_status;
cleanup:
	if (r->trace) {
		run_trace_abort(r->trace);
		free(r->trace);
	}
	schedstat_restore(SCHEDSTAT_SYSCTL, ss_prev);
	lat_bpf_stop(b);
	if (r->cg_used && r->cg.ncreated)
		cg_remove(&r->cg);
	schedstat_free(&before);
	schedstat_free(&after);
	schedstat_delta_free(&r->ss);
	lat_snapshot_free(&r->lat);
	free(r->cgpath);
	if (r->have_info)
		dbgfs_free(&r->info);
	if (r->have_cpus)
		dbgfs_free(&r->cpus);
	if (r->have_lb)
		dbgfs_free(&r->lb);
	if (r->have_att)
		dbgfs_free(&r->att);
	free(r);
	return status;
}
