// SPDX-License-Identifier: GPL-2.0
/*
 * `cpus`, `groups`, `lb`: the module's debugfs tables as aligned text
 * with units, JSON or Prometheus.  The emitters here are shared with
 * `status` and the run report (declared in cli.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/formats/table.h"

/* Units of every known column, shown under the header. */
struct col_unit {
	const char *file, *col, *unit, *help;
};

#define U_LOAD "load"
#define U_CAP  "cap"
static const struct col_unit col_units[] = {
	{ "cpus", "cpu", "", "CPU number" },
	{ "cpus", "online", "0/1", "1 if the CPU is online" },
	{ "cpus", "nr_running", "tasks", "rq->nr_running at the last published walk (all classes)" },
	{ "cpus", "h_nr_running", "tasks", "root cfs_rq h_nr_running at the last published walk" },
	{ "cpus", "movable", "tasks", "CFS tasks queued, not running, that another CPU may pull" },
	{ "cpus", "load_avg", U_LOAD, "real root cfs_rq avg.load_avg" },
	{ "cpus", "runnable_avg", U_CAP, "real root cfs_rq avg.runnable_avg" },
	{ "cpus", "util_avg", U_CAP, "real root cfs_rq avg.util_avg" },
	{ "cpus", "weight", U_LOAD, "root cfs_rq load.weight (scale_load_down)" },
	{ "cpus", "capacity", U_CAP, "rq->cpu_capacity" },
	{ "cpus", "shadow", U_LOAD, "shadow hierarchical runnable sum of the root" },
	{ "cpus", "shadow_avg", U_LOAD, "shadow walk scaling children's avg.load_avg" },
	{ "cpus", "shadow_fresh", U_LOAD, "shadow with each queued task's load_avg projected to now (PELT decay)" },
	{ "cpus", "h_load", U_LOAD, "sum of task_h_load() over queued tasks (what detach_tasks() moves)" },
	{ "cpus", "samples", "walks", "published walks feeding the statistics since reset" },
	{ "cpus", "div_mean", U_LOAD, "time-weighted mean of abs(shadow - load_avg) since reset" },
	{ "cpus", "div_max", U_LOAD, "max of abs(shadow - load_avg) since reset" },
	{ "cpus", "shadow_mean", U_LOAD, "time-weighted mean of shadow since reset" },
	{ "cpus", "real_mean", U_LOAD, "time-weighted mean of load_avg since reset" },
	{ "cpus", "fresh_mean", U_LOAD, "time-weighted mean of shadow_fresh since reset" },
	{ "cpus", "h_load_mean", U_LOAD, "time-weighted mean of h_load since reset" },
	{ "cpus", "published", "walks", "walks published since reset" },
	{ "cpus", "discarded", "walks", "walks discarded as inconsistent since reset" },
	{ "cpus", "over_budget", "walks", "walks aborted over the walk budget since reset" },
	{ "cpus", "deferred", "walks", "root-PELT walks caught mid-enqueue, redone at its end, since reset" },
	{ "cpus", "pinned", "tasks", "waiters no other CPU may pull (one CPU allowed, migration disabled)" },
	{ "cpus", "unknown", "tasks", "waiters past the scan cap or the recorded masks: affinity not known" },
	{ "cpus", "work_cpus", "", "CPUs a recorded waiter may go to: all, a CPU list, or -" },
	{ "cpus", "void", "", "why the CPU's state cannot be judged (fresh if it can)" },
	{ "groups", "cpu", "", "CPU number" },
	{ "groups", "cgid", "", "cgroup id" },
	{ "groups", "depth", "", "depth in the cgroup hierarchy, 0 for root" },
	{ "groups", "se_weight", U_LOAD, "load weight of the group entity owning this cfs_rq" },
	{ "groups", "cfs_weight", U_LOAD, "this cfs_rq's load.weight" },
	{ "groups", "load_avg", U_LOAD, "this cfs_rq's avg.load_avg" },
	{ "groups", "runnable_avg", U_CAP, "this cfs_rq's avg.runnable_avg" },
	{ "groups", "util_avg", U_CAP, "this cfs_rq's avg.util_avg" },
	{ "groups", "task_load", U_LOAD, "sum of load_avg of tasks queued directly here" },
	{ "groups", "nr_tasks", "tasks", "tasks queued directly on this cfs_rq" },
	{ "groups", "h_tasks", "tasks", "tasks queued in this cfs_rq's subtree" },
	{ "groups", "shadow", U_LOAD, "shadow runnable sum S(X) of this cfs_rq" },
	{ "groups", "shadow_avg", U_LOAD, "shadow sum scaling children's avg.load_avg" },
	{ "groups", "shadow_fresh", U_LOAD, "shadow_fresh S(X): queued tasks' load_avg projected to now" },
	{ "groups", "h_load", U_LOAD, "this cfs_rq's h_load as update_cfs_rq_h_load() computes it" },
	{ "groups", "path", "", "cgroup path" },
	{ "lb", "calls", "", "judged find_busiest_group calls (busy: calls seen)" },
	{ "lb", "right", "", "pick had a CPU with work to give" },
	{ "lb", "wrong", "", "pick had none while another non-local group had" },
	{ "lb", "missed", "", "nothing picked although a non-local group had work" },
	{ "lb", "none", "", "no non-local group had work" },
	{ "lb", "void", "", "a CPU the judgement needs had no fresh readable state" },
	{ "lb", "agree", "", "calls where this tracker picked the same group as actual" },
	{ "lb_attempts", "verdict", "", "verdict of the attempt's first busiest-group search" },
	{ "lb_attempts", "reason", "", "why (docs/debugfs.md, lb reasons); '-' for right" },
	{ "lb_attempts", "attempts", "", "balancing attempts (load_balance / sched_balance_rq calls)" },
	{ "lb_attempts", "redos", "", "extra searches after LBF_ALL_PINNED" },
	{ "lb_attempts", "moved", "tasks", "tasks the attempts moved (their return value)" },
	{ "lb_attempts", "active", "", "attempts that kicked active balance" },
};

static const struct col_unit *unit_of(const char *file, const char *col)
{
	for (size_t i = 0; i < sizeof(col_units) / sizeof(col_units[0]); i++)
		if (!strcmp(col_units[i].file, file) && !strcmp(col_units[i].col, col))
			return &col_units[i];
	return NULL;
}

/* Columns that are names, never numbers. */
static int string_col(const char *col)
{
	static const char *const names[] = {
		"domain", "idle", "tracker", "path", "key", "value", "verdict", "reason", "work_cpus",
		/* cpus' `void` (a reason name) is never numeric; lb's `void` is a count */
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(col, names[i]))
			return 1;
	return 0;
}

/* A column is numeric when every cell is a number or `-`. */
static int numeric_col(const struct dbgfs_table *t, int c)
{
	int64_t v;

	if (string_col(t->cols[c]))
		return 0;
	for (int r = 0; r < t->nrows; r++)
		if (dbgfs_s64(t, r, c, &v) < 0)
			return 0;
	return 1;
}

/* Columns idx[0..n) of t as one aligned table with its units row; sets *load, *cap. */
static void table_text_cols(FILE *f, const struct dbgfs_table *t, const int *idx, int n,
			    int *has_load, int *has_cap)
{
	struct table tb;
	const char **row, **head;
	int has_units = 0;

	row = calloc(n, sizeof(*row));
	head = calloc(n, sizeof(*head));
	if (!row || !head || table_init(&tb, n)) {
		free(row);
		free(head);
		fprintf(f, "(out of memory)\n");
		return;
	}
	for (int k = 0; k < n; k++)
		head[k] = t->cols[idx[k]];
	table_header(&tb, head);
	for (int k = 0; k < n; k++) {
		const struct col_unit *u = unit_of(t->name, t->cols[idx[k]]);

		row[k] = u && *u->unit ? u->unit : "";
		if (u && *u->unit)
			has_units = 1;
		if (u && !strcmp(u->unit, U_LOAD))
			*has_load = 1;
		if (u && !strcmp(u->unit, U_CAP))
			*has_cap = 1;
		table_set_align(&tb, k, numeric_col(t, idx[k]) ? TABLE_RIGHT : TABLE_LEFT);
	}
	if (has_units)
		table_row(&tb, row);
	for (int r = 0; r < t->nrows; r++) {
		for (int k = 0; k < n; k++)
			row[k] = dbgfs_cell(t, r, idx[k]);
		table_row(&tb, row);
	}
	table_print(&tb, f);
	table_free(&tb);
	free(row);
	free(head);
}

/*
 * The cpus file's 29 columns as one table are ~300 columns wide: as four
 * tables of one subject each, cpu first in each, they fit 100 columns.  A
 * column the file has and no group names goes to a last table.
 */
static const char *const cpus_groups[][16] = {
	{ "the kernel's signals, now", "online", "nr_running", "h_nr_running", "movable",
	  "load_avg", "runnable_avg", "util_avg", "weight", "capacity", NULL },
	{ "the shadow sums of the last published walk", "shadow", "shadow_avg", "shadow_fresh",
	  "h_load", NULL },
	{ "means since reset", "samples", "div_mean", "div_max", "shadow_mean", "real_mean",
	  "fresh_mean", "h_load_mean", NULL },
	{ "walks and work to give", "published", "discarded", "over_budget", "deferred", "pinned",
	  "unknown", "work_cpus", "void", NULL },
};
#define CPUS_NGROUPS (sizeof(cpus_groups) / sizeof(cpus_groups[0]))

static void cpus_text(FILE *f, const struct dbgfs_table *t, int *has_load, int *has_cap)
{
	int *idx = calloc(t->ncols + 1, sizeof(*idx)), *used = calloc(t->ncols + 1, sizeof(*used));
	int key = dbgfs_col(t, "cpu");

	if (!idx || !used || key < 0) {
		free(idx);
		free(used);
		table_text_cols(f, t, (int[]){ 0 }, 0, has_load, has_cap);
		return;
	}
	used[key] = 1;
	for (size_t g = 0; g <= CPUS_NGROUPS; g++) {
		int n = 0;

		idx[n++] = key;
		if (g < CPUS_NGROUPS) {
			for (int k = 1; cpus_groups[g][k]; k++) {
				int c = dbgfs_col(t, cpus_groups[g][k]);

				if (c >= 0 && !used[c]) {
					idx[n++] = c;
					used[c] = 1;
				}
			}
		} else {
			for (int c = 0; c < t->ncols; c++)
				if (!used[c])
					idx[n++] = c;
		}
		if (n == 1)
			continue;
		fprintf(f, "%s%s\n", g ? "\n" : "", g < CPUS_NGROUPS ? cpus_groups[g][0] : "other columns");
		table_text_cols(f, t, idx, n, has_load, has_cap);
	}
	free(idx);
	free(used);
}

void emit_table_text(FILE *f, const struct dbgfs_table *t)
{
	int has_load = 0, has_cap = 0, *idx;

	if (!strcmp(t->name, "cpus")) {
		cpus_text(f, t, &has_load, &has_cap);
	} else {
		idx = calloc(t->ncols ? t->ncols : 1, sizeof(*idx));
		if (!idx) {
			fprintf(f, "(out of memory)\n");
			return;
		}
		for (int c = 0; c < t->ncols; c++)
			idx[c] = c;
		table_text_cols(f, t, idx, t->ncols, &has_load, &has_cap);
		free(idx);
	}
	if (has_load)
		fprintf(f, "# load = load units (1024 = one nice-0 task running flat out)\n");
	if (has_cap)
		fprintf(f, "# cap = capacity units (1024 = one CPU fully busy)\n");
	if (!strcmp(t->name, "lb"))
		fprintf(f, "# counts of find_busiest_group calls; judged (idle, newidle): "
			"calls = right + wrong + missed + none + void; busy: calls seen only\n");
	if (!strcmp(t->name, "lb_attempts"))
		fprintf(f, "# one row per domain, idle type, verdict and reason; the headline is "
			"wrong and missed with reason unexplained\n");
	fprintf(f, "# '-' = not available\n");
}

void emit_table_json(struct json_writer *w, const struct dbgfs_table *t)
{
	int *num = calloc(t->ncols ? t->ncols : 1, sizeof(int));
	char path[4096];
	int64_t v;

	for (int c = 0; num && c < t->ncols; c++)
		num[c] = numeric_col(t, c);
	json_arr_begin(w);
	for (int r = 0; r < t->nrows; r++) {
		json_obj_begin(w);
		for (int c = 0; c < t->ncols; c++) {
			const char *s = dbgfs_cell(t, r, c);

			json_key(w, t->cols[c]);
			if (!strcmp(s, "-"))
				json_null(w);
			else if (num && num[c] && dbgfs_s64(t, r, c, &v) == 0)
				json_s64(w, v);
			else if (!strcmp(t->cols[c], "path")) {
				dbgfs_unescape(s, path, sizeof(path));
				json_str(w, path);
			} else
				json_str(w, s);
		}
		json_obj_end(w);
	}
	json_arr_end(w);
	free(num);
}

void emit_info_json(struct json_writer *w, const struct dbgfs_table *info)
{
	int kc = dbgfs_col(info, "key"), vc = dbgfs_col(info, "value");

	json_obj_begin(w);
	for (int r = 0; kc >= 0 && vc >= 0 && r < info->nrows; r++)
		json_kv_str(w, dbgfs_cell(info, r, kc), dbgfs_cell(info, r, vc));
	json_obj_end(w);
}

void emit_json_header(struct json_writer *w, const char *command)
{
	json_obj_begin(w);
	json_kv_str(w, "schema", CLI_JSON_SCHEMA);
	json_kv_str(w, "command", command);
	json_kv_str(w, "debugfs", cli.debugfs);
}

/*
 * Generic Prometheus emission: one family per numeric column that is
 * not a label, `<prefix>_<col>` (gauge) or `<prefix>_<col>_total`
 * (counter); label columns become labels; `-` cells are skipped.
 */
static void emit_prom_generic(struct prom_writer *p, const struct dbgfs_table *t,
			      const char *prefix, const char *const *labels, int nlabels,
			      const char *const *counters, int ncounters)
{
	struct prom_label lab[8];
	int lc[8];
	char name[128], help[256], path[4096];
	uint64_t v;

	if (nlabels > 8)
		nlabels = 8;
	for (int i = 0; i < nlabels; i++)
		lc[i] = dbgfs_col(t, labels[i]);
	for (int c = 0; c < t->ncols; c++) {
		int is_label = 0, is_counter = 0;
		const struct col_unit *u;

		for (int i = 0; i < nlabels; i++)
			if (lc[i] == c)
				is_label = 1;
		if (is_label || string_col(t->cols[c]) || !numeric_col(t, c))
			continue;
		for (int i = 0; i < ncounters; i++)
			if (!strcmp(counters[i], t->cols[c]))
				is_counter = 1;
		snprintf(name, sizeof(name), "%s_%s%s", prefix, t->cols[c],
			 is_counter ? "_total" : "");
		u = unit_of(t->name, t->cols[c]);
		snprintf(help, sizeof(help), "%s%s%s", u ? u->help : t->cols[c],
			 u && !strcmp(u->unit, U_LOAD) ? " (load units, 1024 = one nice-0 task)" :
			 u && !strcmp(u->unit, U_CAP) ? " (capacity units, 1024 = one CPU)" : "",
			 is_counter ? " (since the last reset)" : "");
		prom_family(p, name, is_counter ? "counter" : "gauge", help);
		for (int r = 0; r < t->nrows; r++) {
			int n = 0;

			if (dbgfs_u64(t, r, c, &v) != 0)
				continue;
			for (int i = 0; i < nlabels; i++) {
				const char *s = lc[i] >= 0 ? dbgfs_cell(t, r, lc[i]) : "";

				if (!strcmp(labels[i], "path")) {
					dbgfs_unescape(s, path, sizeof(path));
					s = path;
				}
				lab[n].name = labels[i];
				lab[n].value = s;
				n++;
			}
			prom_sample_u64(p, name, lab, n, v);
		}
	}
}

void emit_cpus_prom(struct prom_writer *p, const struct dbgfs_table *cpus)
{
	static const char *const labels[] = { "cpu" };
	static const char *const counters[] = { "samples", "published", "discarded", "over_budget", "deferred" };

	emit_prom_generic(p, cpus, PROM_PREFIX "cpu", labels, 1, counters, 5);
}

void emit_groups_prom(struct prom_writer *p, const struct dbgfs_table *groups)
{
	static const char *const labels[] = { "cpu", "cgid", "path" };

	emit_prom_generic(p, groups, PROM_PREFIX "group", labels, 3, NULL, 0);
}

void emit_lb_prom(struct prom_writer *p, const struct dbgfs_table *lb)
{
	static const char *const labels[] = { "domain", "idle", "tracker" };
	static const char *const counters[] = { "calls", "right", "wrong", "missed", "none", "void",
						 "agree" };

	emit_prom_generic(p, lb, PROM_PREFIX "lb", labels, 3, counters, 7);
}

void emit_lb_attempts_prom(struct prom_writer *p, const struct dbgfs_table *t)
{
	static const char *const labels[] = { "domain", "idle", "verdict", "reason" };
	static const char *const counters[] = { "attempts", "redos", "moved", "active" };

	emit_prom_generic(p, t, PROM_PREFIX "lb_attempt", labels, 4, counters, 4);
}

void emit_info_prom(struct prom_writer *p, const struct dbgfs_table *info)
{
	struct prom_label lab[3];
	const char *keys[] = { "version", "kernel", "btf_release" };
	const char *en = dbgfs_info_get(info, "enabled");
	int kc = dbgfs_col(info, "key"), vc = dbgfs_col(info, "value");
	int n = 0;

	for (int i = 0; i < 3; i++) {
		const char *v = dbgfs_info_get(info, keys[i]);

		if (v) {
			lab[n].name = keys[i];
			lab[n].value = v;
			n++;
		}
	}
	prom_family(p, PROM_PREFIX "info", "gauge", "module version and kernel, value always 1");
	prom_sample_u64(p, PROM_PREFIX "info", lab, n, 1);
	if (en) {
		prom_family(p, PROM_PREFIX "enabled", "gauge", "1 if the probes are enabled");
		prom_sample_u64(p, PROM_PREFIX "enabled", NULL, 0, !strcmp(en, "1"));
	}
	/* hook.X / feature.X: active 1, inactive 0, reason as a label */
	for (int pass = 0; pass < 2; pass++) {
		const char *pfx = pass ? "feature." : "hook.";
		const char *fam = pass ? PROM_PREFIX "feature_active" : PROM_PREFIX "hook_active";

		for (int r = 0; kc >= 0 && vc >= 0 && r < info->nrows; r++) {
			const char *k = dbgfs_cell(info, r, kc), *v = dbgfs_cell(info, r, vc);
			struct prom_label l[2];
			int active = !strncmp(v, "active", 6);

			if (strncmp(k, pfx, strlen(pfx)))
				continue;
			prom_family(p, fam, "gauge", pass ? "1 if the feature is active" :
				    "1 if the probe is attached");
			l[0].name = pass ? "feature" : "hook";
			l[0].value = k + strlen(pfx);
			l[1].name = "state";
			l[1].value = v;
			prom_sample_u64(p, fam, l, 2, active);
		}
	}
}

/* ---- the three table subcommands ---- */

struct table_cmd {
	const char *name;	/* subcommand and file */
	const struct cli_spec *spec;
	void (*prom)(struct prom_writer *, const struct dbgfs_table *);
};

/* lb absent: say why (from info) and succeed. */
static int lb_unavailable(const char *name, enum cli_format fmt)
{
	struct dbgfs_table info;
	struct dbgfs_error err;
	const char *reason = NULL;

	if (dbgfs_load(cli.debugfs, "info", &info, &err) == 0)
		reason = dbgfs_info_get(&info, strcmp(name, "lb") ? "feature.lb_attempts" :
					"feature.lb_audit");
	if (!reason)
		reason = "lb file absent";
	if (fmt == CLI_FMT_JSON) {
		struct json_writer w;

		json_init(&w, stdout, cli.pretty);
		emit_json_header(&w, name);
		json_kv_bool(&w, "available", false);
		json_kv_str(&w, "reason", reason);
		json_kv_null(&w, name);
		json_obj_end(&w);
		json_end(&w);
	} else if (fmt == CLI_FMT_PROM) {
		struct prom_writer p;
		struct prom_label l = { "state", reason };

		prom_init(&p, stdout);
		prom_family(&p, PROM_PREFIX "lb_audit_active", "gauge",
			    "1 if the load-balancer audit is active");
		prom_sample_u64(&p, PROM_PREFIX "lb_audit_active", &l, 1, 0);
		prom_end(&p);
	} else {
		printf("lb audit: not available (%s)\n", reason);
	}
	if (info.buf)
		dbgfs_free(&info);
	return CLI_EXIT_OK;
}

/*
 * After the `groups` text table: the CPUs that have no rows because their
 * state is not fresh (cpus `void`), and the CPUs whose rows were cut at
 * max_groups (info `groups_truncated`): a table that silently lacks rows
 * would read as "nothing queued there".  Best effort: unreadable cpus or
 * info files add nothing (the table itself was read).
 */
static void groups_notes(FILE *out)
{
	struct dbgfs_table cpus, info;
	struct dbgfs_error err;
	const char *tr;

	if (!dbgfs_load(cli.debugfs, "cpus", &cpus, &err)) {
		int ccpu = dbgfs_col(&cpus, "cpu"), con = dbgfs_col(&cpus, "online");
		int cvoid = dbgfs_col(&cpus, "void"), r;

		for (r = 0; ccpu >= 0 && con >= 0 && cvoid >= 0 && r < cpus.nrows; r++) {
			const char *v = dbgfs_cell(&cpus, r, cvoid);

			if (strcmp(dbgfs_cell(&cpus, r, con), "1") || !strcmp(v, "fresh"))
				continue;
			fprintf(out, "# cpu %s: no rows, its state is void (%s, see cpus)\n",
				dbgfs_cell(&cpus, r, ccpu), v);
		}
		dbgfs_free(&cpus);
	}
	if (!dbgfs_load(cli.debugfs, "info", &info, &err)) {
		tr = dbgfs_info_get(&info, "groups_truncated");
		if (tr && strcmp(tr, "0")) {
			const char *mg = dbgfs_info_get(&info, "max_groups");

			fprintf(out, "# %s CPU(s) have more queued cfs_rqs than groups holds: "
				"their rows are the first %s in walk order\n", tr, mg ? mg : "max_groups");
		}
		dbgfs_free(&info);
	}
}

static int run_table_cmd(const struct table_cmd *tc, int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	struct dbgfs_table t;
	struct dbgfs_error err;
	int rc, i;

	i = cli_options(tc->spec, argc, argv, NULL, NULL, &fmt);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error(tc->name, "unexpected argument '%s'", argv[i]);

	rc = dbgfs_load(cli.debugfs, tc->name, &t, &err);
	if (rc == DBGFS_ENOENT && !strncmp(tc->name, "lb", 2))
		return lb_unavailable(tc->name, fmt);
	if (rc) {
		cli_err(tc->name, "%s", err.msg);
		return rc == DBGFS_ENOMODULE || rc == DBGFS_ENODEBUGFS || rc == DBGFS_EACCES ?
			CLI_EXIT_NOMODULE : CLI_EXIT_FAIL;
	}
	if (fmt == CLI_FMT_JSON) {
		struct json_writer w;

		json_init(&w, stdout, cli.pretty);
		emit_json_header(&w, tc->name);
		if (!strncmp(tc->name, "lb", 2))
			json_kv_bool(&w, "available", true);
		json_key(&w, tc->name);
		emit_table_json(&w, &t);
		json_obj_end(&w);
		rc = json_end(&w) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	} else if (fmt == CLI_FMT_PROM) {
		struct prom_writer p;

		prom_init(&p, stdout);
		if (!strcmp(tc->name, "lb")) {
			prom_family(&p, PROM_PREFIX "lb_audit_active", "gauge",
				    "1 if the load-balancer audit is active");
			prom_sample_u64(&p, PROM_PREFIX "lb_audit_active", NULL, 0, 1);
		}
		tc->prom(&p, &t);
		rc = prom_end(&p) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	} else {
		if (t.nrows == 0)
			printf("# %s: no rows\n", tc->name);
		emit_table_text(stdout, &t);
		if (!strcmp(tc->name, "groups"))
			groups_notes(stdout);
		rc = CLI_EXIT_OK;
	}
	dbgfs_free(&t);
	if (fflush(stdout) != 0)
		rc = CLI_EXIT_FAIL;
	return rc;
}

#define TABLE_FLAGS (CLI_SPEC_DEBUGFS | CLI_SPEC_JSON | CLI_SPEC_PROM)
const struct cli_spec cpus_spec = {
	.name = "cpus",
	.summary = "per-CPU real vs shadow load table",
	.help = "The module's cpus file: per CPU the kernel's load signals next to the shadow\n"
		"sums of the last published walk, and their means since the last reset.",
	.flags = TABLE_FLAGS,
};
const struct cli_spec groups_spec = {
	.name = "groups",
	.summary = "per-cgroup cfs_rq table of the last walk",
	.help = "The module's groups file: every queued cfs_rq of the last published walk of\n"
		"each CPU, with its weights, load averages and shadow sums.",
	.flags = TABLE_FLAGS,
};
const struct cli_spec lb_spec = {
	.name = "lb",
	.summary = "load-balancer audit verdicts per domain and tracker",
	.help = "The module's lb file: verdict counts of find_busiest_group calls per domain,\n"
		"idle type and tracker.  When the audit is inactive (no lb file) the reason\n"
		"from the info file is printed and the exit status is 0.",
	.flags = TABLE_FLAGS,
};
const struct cli_spec lb_attempts_spec = {
	.name = "lb_attempts",
	.summary = "one verdict per balancing attempt, with its reason",
	.help = "The module's lb_attempts file: balancing attempts per domain, idle type,\n"
		"verdict and reason.  The headline is wrong and missed with reason unexplained.",
	.flags = TABLE_FLAGS,
};

static const struct table_cmd tc_cpus = { "cpus", &cpus_spec, emit_cpus_prom };
static const struct table_cmd tc_groups = { "groups", &groups_spec, emit_groups_prom };
static const struct table_cmd tc_lb = { "lb", &lb_spec, emit_lb_prom };
static const struct table_cmd tc_lb_attempts = { "lb_attempts", &lb_attempts_spec,
	emit_lb_attempts_prom };

int cmd_cpus(int argc, char **argv) { return run_table_cmd(&tc_cpus, argc, argv); }
int cmd_groups(int argc, char **argv) { return run_table_cmd(&tc_groups, argc, argv); }
int cmd_lb(int argc, char **argv) { return run_table_cmd(&tc_lb, argc, argv); }
int cmd_lb_attempts(int argc, char **argv) { return run_table_cmd(&tc_lb_attempts, argc, argv); }
