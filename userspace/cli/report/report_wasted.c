// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "wasted": wasted-core time (idle CPUs while a task that
 * could run there waited on another CPU's run queue), what the idle CPUs'
 * balancing did meanwhile, and the run-queue wait split of the command
 * and of each cgroup: waiting while an allowed CPU was idle (the
 * balancer's share) or while every allowed CPU was busy (capacity and cpu
 * shares).  From the module's wasted, wasted_attrib and wasted_cgroups
 * files and its info (docs/wasted.md).  `run` tracks its command's process
 * (debugfs wasted_track) for the command's own split.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "cli/cli.h"
#include "cli/report/report.h"
#include "cli/formats/table.h"
#include "cli/formats/json_parse.h"
#include "cli/report/report_wasted_why.h"

/* The command's process: tracked from fork to the end of the run (cmd_run.c). */
void report_wasted_track(struct report *r, const char *debugfs, pid_t pid)
{
	struct dbgfs_error err;
	char v[24];

	if (!r->module.loaded)
		return;
	snprintf(v, sizeof(v), "%d", (int)pid);
	r->wasted.tracked = !dbgfs_write(debugfs, "wasted_track", v, &err);
}

static double cell_ms(const struct dbgfs_table *t, int row, const char *col)
{
	const char *s = dbgfs_cell(t, row, dbgfs_col(t, col));

	return s && strcmp(s, "-") ? strtod(s, NULL) : 0.0;
}

static const char *info(const struct report *r, const char *key)
{
	return r->module.have_info ? dbgfs_info_get(&r->module.info, key) : NULL;
}

static void wasted_collect(struct report *r, const char *debugfs)
{
	struct report_wasted *s = &r->wasted;
	struct dbgfs_error err;

	if (!r->module.loaded) {
		snprintf(s->why, sizeof(s->why), "%s", r->module.why);
		return;
	}
	if (dbgfs_load(debugfs, "wasted", &s->cpus, &err)) {
		const char *st = info(r, "feature.wasted");

		snprintf(s->why, sizeof(s->why), "%s", st && strncmp(st, "active", 6) ?
			 st : err.msg);
		return;
	}
	s->have = 1;
	s->have_attrib = !dbgfs_load(debugfs, "wasted_attrib", &s->attrib, &err);
	s->have_cgroups = !dbgfs_load(debugfs, "wasted_cgroups", &s->cgroups, &err);
	if (s->tracked)		/* stop tracking now that the row is read (0 keeps the numbers) */
		dbgfs_write(debugfs, "wasted_track", "0", &err);
}

/* The row of the tracked process (`run`'s command) in wasted_cgroups, -1 if none. */
static int tracked_row(const struct report_wasted *s)
{
	int pc = dbgfs_col(&s->cgroups, "path");

	for (int i = 0; s->have_cgroups && i < s->cgroups.nrows; i++)
		if (!strcmp(dbgfs_cell(&s->cgroups, i, pc), "(tracked)"))
			return i;
	return -1;
}

static void pct(char *buf, size_t len, double part, double all)
{
	if (all > 0)
		snprintf(buf, len, "%.1f (%.0f%%)", part, 100.0 * part / all);
	else
		snprintf(buf, len, "%.1f", part);
}

/* One wait-split row: name, wait, balancer's share, capacity share, unknown, wasted CPU time. */
static void split_row(struct table *tb, const struct dbgfs_table *t, int row, const char *name)
{
	char b[5][48];
	const char *cells[6];
	double w = cell_ms(t, row, "wait_ms");

	cells[0] = name;
	cells[1] = table_fmt(b[0], sizeof(b[0]), "%.1f", w);
	pct(b[1], sizeof(b[1]), cell_ms(t, row, "wait_idle_ms"), w);
	pct(b[2], sizeof(b[2]), cell_ms(t, row, "wait_busy_ms"), w);
	cells[2] = b[1];
	cells[3] = b[2];
	cells[4] = table_fmt(b[3], sizeof(b[3]), "%.1f", cell_ms(t, row, "wait_unknown_ms"));
	cells[5] = table_fmt(b[4], sizeof(b[4]), "%.1f", cell_ms(t, row, "wasted_ms"));
	table_row(tb, cells);
}

/* The per-CPU table: totals, then the wasted time by level of the nearest waiter (levels seen only). */
static void cpus_text(FILE *f, const struct dbgfs_table *t)
{
	static const char *const fixed[] = { "cpu", "idle_ms", "wasted_ms", "unknown_ms", "intervals",
		"longest_ms", "bound_ms" };
	static const char *const levels[] = { "SMT", "CLS", "MC", "PKG", "DIE", "NUMA", "other", "none" };
	const char *names[16];
	int idx[16], n = 0, i, row;
	struct table tb;

	for (i = 0; i < 7; i++) {
		names[n] = fixed[i];
		idx[n++] = dbgfs_col(t, fixed[i]);
	}
	for (i = 0; i < 8; i++) {
		int c = dbgfs_col(t, levels[i]);

		for (row = 0; c >= 0 && row < t->nrows; row++)
			if (cell_ms(t, row, levels[i]) > 0) {
				names[n] = levels[i];
				idx[n++] = c;
				break;
			}
	}
	table_init(&tb, n);
	table_header(&tb, names);
	for (row = 0; row < t->nrows; row++) {
		const char *cells[16];

		for (i = 0; i < n; i++)
			cells[i] = idx[i] >= 0 ? dbgfs_cell(t, row, idx[i]) : NULL;
		table_row(&tb, cells);
	}
	table_print(&tb, f);
	table_free(&tb);
	fprintf(f, "(the level columns: wasted time by the domain of the nearest waiter)\n");
}

/* The explained share of the wasted time and its largest causes. */
static void why_text(FILE *f, const struct dbgfs_table *attrib)
{
	struct wasted_why w;
	char line[256];
	int i;

	wasted_why_of(attrib, &w);
	if (!w.have)
		return;
	wasted_why_line(line, sizeof(line), &w);
	fprintf(f, "%s\n", line);
	fprintf(f, "largest causes (of %.1f ms):", w.total_ms);
	for (i = 0; i < w.ntop; i++)
		fprintf(f, "%s %s %.1f ms (%.0f%%)", i ? "," : "", w.top[i].name, w.top[i].ms,
			wasted_why_pct(&w, w.top[i].ms));
	fprintf(f, "\n");
}

static void why_json(struct json_writer *jw, const struct dbgfs_table *attrib)
{
	struct wasted_why w;
	int i;

	wasted_why_of(attrib, &w);
	json_key(jw, "explained");
	if (!w.have) {
		json_null(jw);
	} else {
		json_obj_begin(jw);
		json_kv_double(jw, "wasted_ms", w.total_ms);
		json_kv_double(jw, "explained_pct", wasted_why_explained_pct(&w));
		json_kv_double(jw, "wakeup_pct", wasted_why_pct(&w, w.wakeup_ms));
		json_kv_double(jw, "balancing_pct", wasted_why_pct(&w, w.balancing_ms));
		json_kv_double(jw, "nohz_pct", wasted_why_pct(&w, w.nohz_ms));
		json_kv_double(jw, "newidle_skipped_pct", wasted_why_pct(&w, w.newidle_ms));
		json_kv_double(jw, "interval_pct", wasted_why_pct(&w, w.interval_ms));
		json_kv_double(jw, "unknown_pct", wasted_why_pct(&w, w.unknown_ms));
		json_kv_double(jw, "no_work_pct", wasted_why_pct(&w, w.no_work_ms));
		json_obj_end(jw);
	}
	json_key(jw, "top_causes");
	json_arr_begin(jw);
	for (i = 0; i < w.ntop; i++) {
		json_obj_begin(jw);
		json_kv_str(jw, "cause", w.top[i].name);
		json_kv_double(jw, "wasted_ms", w.top[i].ms);
		json_kv_double(jw, "pct", wasted_why_pct(&w, w.top[i].ms));
		json_obj_end(jw);
	}
	json_arr_end(jw);
}

static void why_prom(struct prom_writer *p, const struct dbgfs_table *attrib)
{
	static const char *const parts[] = { "explained", "wakeup", "balancing", "nohz",
		"newidle_skipped", "interval", "unknown", "no_work" };
	struct wasted_why w;
	double v[8];
	int i;

	wasted_why_of(attrib, &w);
	if (!w.have)
		return;
	v[0] = wasted_why_explained_pct(&w);
	v[1] = wasted_why_pct(&w, w.wakeup_ms);
	v[2] = wasted_why_pct(&w, w.balancing_ms);
	v[3] = wasted_why_pct(&w, w.nohz_ms);
	v[4] = wasted_why_pct(&w, w.newidle_ms);
	v[5] = wasted_why_pct(&w, w.interval_ms);
	v[6] = wasted_why_pct(&w, w.unknown_ms);
	v[7] = wasted_why_pct(&w, w.no_work_ms);
	prom_family(p, PROM_PREFIX "wasted_explained_ratio", "gauge",
		    "share of the wasted time charged to a named decision (part=explained) and to each part");
	for (i = 0; i < 8; i++) {
		struct prom_label l[] = { { "part", parts[i] } };

		prom_sample(p, PROM_PREFIX "wasted_explained_ratio", l, 1, v[i] / 100.0);
	}
}

static void wasted_text(const struct report *r, FILE *f)
{
	const struct report_wasted *s = &r->wasted;
	static const char *const split_cols[] = { "tasks", "wait_ms", "balancer_ms", "capacity_ms",
		"unknown_ms", "wasted_cpu_ms" };
	const char *top = info(r, "wasted_policy_top"), *topms = info(r, "wasted_policy_top_ms");
	const char *per = info(r, "wasted_period_us"), *bound = info(r, "wasted_bound_ms");
	const char *wk = info(r, "wasted_idle_wakeups");
	struct table tb;
	int i, tr, pc;

	fprintf(f, "\n== wasted-core time (module, since reset: a CPU idle while a task that could "
		"run there waited elsewhere) ==\n");
	if (!s->have) {
		fprintf(f, "not available: %s\n", s->why);
		return;
	}
	if (top && strcmp(top, "-"))
		fprintf(f, "headline: policy that wasted time: %s %s ms (every such policy: info's "
			"wasted_policy.* lines; by CPU below)\n", top, topms ? topms : "?");
	else
		fprintf(f, "headline: policy that wasted time: none\n");
	fprintf(f, "changes replayed every %s us; error bound: %s ms; samples that woke an idle CPU: %s\n",
		per ? per : "?", bound ? bound : "?", wk ? wk : "?");
	if (s->have_attrib)
		why_text(f, &s->attrib);
	cpus_text(f, &s->cpus);
	if (s->have_attrib) {
		fprintf(f, "\nwhat the idle CPU's balancing at the nearest waiter's level did meanwhile "
			"(wasted_attrib; right/unmoved: picked the group with the waiter, moved nothing)\n");
		emit_table_text(f, &s->attrib);
	}
	if (!s->have_cgroups)
		return;
	fprintf(f, "\nrun-queue wait split: balancer = an allowed CPU was idle meanwhile (the "
		"balancer's share); capacity = every allowed CPU was busy (capacity and cpu shares)\n");
	table_init(&tb, 6);
	table_header(&tb, split_cols);
	tr = tracked_row(s);
	if (tr >= 0)
		split_row(&tb, &s->cgroups, tr, "(command)");
	pc = dbgfs_col(&s->cgroups, "path");
	for (i = 0; i < s->cgroups.nrows; i++) {
		char path[512];

		if (i == tr)
			continue;
		dbgfs_unescape(dbgfs_cell(&s->cgroups, i, pc), path, sizeof(path));
		split_row(&tb, &s->cgroups, i, path);
	}
	table_print(&tb, f);
	table_free(&tb);
}

/* One table as JSON rows, with the ms columns as numbers. */
static void rows_json(struct json_writer *w, const struct dbgfs_table *t)
{
	json_arr_begin(w);
	for (int i = 0; i < t->nrows; i++) {
		json_obj_begin(w);
		for (int c = 0; c < t->ncols; c++) {
			const char *v = dbgfs_cell(t, i, c);
			char *end, path[512];

			strtod(v, &end);

			if (!strcmp(t->cols[c], "path")) {
				dbgfs_unescape(v, path, sizeof(path));
				json_kv_str(w, t->cols[c], path);
			} else if (!strcmp(v, "-")) {
				json_kv_null(w, t->cols[c]);
			} else if (*v && !*end && (*v == '-' || (*v >= '0' && *v <= '9'))) {
				/* the module's text as the number: read back, it prints the same */
				json_key(w, t->cols[c]);
				json_raw_number(w, v);
			} else {
				json_kv_str(w, t->cols[c], v);
			}
		}
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void wasted_json(const struct report *r, struct json_writer *w)
{
	const struct report_wasted *s = &r->wasted;
	int tr = tracked_row(s);

	if (s->absent)
		return;
	json_key(w, "wasted");
	json_obj_begin(w);
	report_json_available(w, s->have, s->why);
	if (s->have) {
		const char *top = info(r, "wasted_policy_top"), *topms = info(r, "wasted_policy_top_ms");

		json_key(w, "policy_top");
		if (top && strcmp(top, "-")) {
			json_obj_begin(w);
			json_kv_str(w, "policy", top);
			json_kv_double(w, "wasted_ms", topms ? strtod(topms, NULL) : 0);
			json_obj_end(w);
		} else {
			json_null(w);
		}
		json_key(w, "cpus");
		rows_json(w, &s->cpus);
		json_key(w, "attribution");
		if (s->have_attrib)
			rows_json(w, &s->attrib);
		else
			json_null(w);
		if (s->have_attrib && !s->no_explained)
			why_json(w, &s->attrib);
		json_key(w, "cgroups");
		if (s->have_cgroups)
			rows_json(w, &s->cgroups);
		else
			json_null(w);
		json_key(w, "command");
		if (tr >= 0) {
			json_obj_begin(w);
			json_kv_double(w, "wait_ms", cell_ms(&s->cgroups, tr, "wait_ms"));
			json_kv_double(w, "balancer_ms", cell_ms(&s->cgroups, tr, "wait_idle_ms"));
			json_kv_double(w, "capacity_ms", cell_ms(&s->cgroups, tr, "wait_busy_ms"));
			json_kv_double(w, "unknown_ms", cell_ms(&s->cgroups, tr, "wait_unknown_ms"));
			json_kv_double(w, "wasted_ms", cell_ms(&s->cgroups, tr, "wasted_ms"));
			json_obj_end(w);
		} else {
			json_null(w);
		}
	}
	json_obj_end(w);
}

static void wasted_prom(const struct report *r, struct prom_writer *p)
{
	const struct report_wasted *s = &r->wasted;
	int i, tr = tracked_row(s);

	if (!s->have)
		return;
	prom_family(p, PROM_PREFIX "wasted_seconds", "gauge",
		    "time the CPU was idle while a task that could run there waited elsewhere");
	for (i = 0; i < s->cpus.nrows; i++) {
		struct prom_label l[] = { { "cpu", dbgfs_cell(&s->cpus, i, 0) } };

		prom_sample(p, PROM_PREFIX "wasted_seconds", l, 1, cell_ms(&s->cpus, i, "wasted_ms") / 1e3);
	}
	prom_family(p, PROM_PREFIX "wasted_unknown_seconds", "gauge",
		    "idle time when whether a waiting task could run there was unknown");
	for (i = 0; i < s->cpus.nrows; i++) {
		struct prom_label l[] = { { "cpu", dbgfs_cell(&s->cpus, i, 0) } };

		prom_sample(p, PROM_PREFIX "wasted_unknown_seconds", l, 1,
			    cell_ms(&s->cpus, i, "unknown_ms") / 1e3);
	}
	if (s->have_attrib)
		why_prom(p, &s->attrib);
	if (s->have_attrib) {
		prom_family(p, PROM_PREFIX "wasted_attributed_seconds", "gauge",
			    "wasted time by what the idle CPU's balancing at the nearest waiter's level did");
		for (i = 0; i < s->attrib.nrows; i++) {
			const struct dbgfs_table *t = &s->attrib;
			struct prom_label l[] = {
				{ "cpu", dbgfs_cell(t, i, dbgfs_col(t, "cpu")) },
				{ "domain", dbgfs_cell(t, i, dbgfs_col(t, "domain")) },
				{ "verdict", dbgfs_cell(t, i, dbgfs_col(t, "verdict")) },
				{ "reason", dbgfs_cell(t, i, dbgfs_col(t, "reason")) },
				{ "cause", dbgfs_cell(t, i, dbgfs_col(t, "cause")) },
			};

			if (!strcmp(l[0].value, "all"))
				continue;
			prom_sample(p, PROM_PREFIX "wasted_attributed_seconds", l, 5,
				    cell_ms(t, i, "wasted_ms") / 1e3);
		}
	}
	if (s->have_cgroups) {
		static const char *const cols[] = { "wait_ms", "wait_idle_ms", "wait_busy_ms",
						    "wait_unknown_ms", "wasted_ms" };
		static const char *const split[] = { "all", "balancer", "capacity", "unknown" };
		int pc = dbgfs_col(&s->cgroups, "path");

		prom_family(p, PROM_PREFIX "wait_seconds", "gauge",
			    "run-queue wait of the cgroup's tasks (task-seconds); split=balancer: an allowed CPU was idle, capacity: all allowed busy");
		for (i = 0; i < s->cgroups.nrows; i++) {
			char path[512];

			dbgfs_unescape(dbgfs_cell(&s->cgroups, i, pc), path, sizeof(path));
			for (int k = 0; k < 4; k++) {
				struct prom_label l[] = { { "cgroup", i == tr ? "(command)" : path },
							  { "split", split[k] } };

				prom_sample(p, PROM_PREFIX "wait_seconds", l, 2,
					    cell_ms(&s->cgroups, i, cols[k]) / 1e3);
			}
		}
		prom_family(p, PROM_PREFIX "wasted_cgroup_seconds", "gauge",
			    "CPU time idle while a waiting task of the cgroup could have run there");
		for (i = 0; i < s->cgroups.nrows; i++) {
			char path[512];
			struct prom_label l[] = { { "cgroup", path } };

			dbgfs_unescape(dbgfs_cell(&s->cgroups, i, pc), path, sizeof(path));
			if (i == tr)
				snprintf(path, sizeof(path), "(command)");
			prom_sample(p, PROM_PREFIX "wasted_cgroup_seconds", l, 1,
				    cell_ms(&s->cgroups, i, "wasted_ms") / 1e3);
		}
	}
}

/* Read the section back from a run --json document (report, compare). */
static int wasted_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_wasted *s = &r->wasted;
	const struct jv *sec = jv_get(d, "wasted"), *t;

	if (!sec) {		/* a report from before this section: written back without it */
		s->absent = 1;
		snprintf(s->why, sizeof(s->why), "not in this report");
		return 0;
	}
	if (report_load_available(sec, "wasted", &s->have, s->why, sizeof(s->why), err, errlen))
		return -1;
	if (!s->have)
		return 0;
	if (report_load_rows(jv_get(sec, "cpus"), "wasted", &s->cpus, err, errlen)) {
		s->have = 0;
		return -1;
	}
	t = jv_get(sec, "attribution");
	if (t && !jv_is_null(t))
		s->have_attrib = !report_load_rows(t, "wasted_attrib", &s->attrib, err, errlen);
	s->no_explained = !jv_get(sec, "explained");
	t = jv_get(sec, "cgroups");
	if (t && !jv_is_null(t))
		s->have_cgroups = !report_load_rows(t, "wasted_cgroups", &s->cgroups, err, errlen);
	return 0;
}

/* One run's facts for the side by side. */
struct wasted_facts {
	int have, have_wait;
	double wasted_ms, wait_ms, balancer_ms, capacity_ms, unknown_ms, top_ms;
	const char *top;
	struct wasted_why why;
};

static void wasted_facts_of(const struct report *r, struct wasted_facts *f)
{
	const struct report_wasted *s = &r->wasted;
	int tr = tracked_row(s);

	memset(f, 0, sizeof(*f));
	if (!s->have)
		return;
	f->have = 1;
	for (int i = 0; i < s->cpus.nrows; i++)
		f->wasted_ms += cell_ms(&s->cpus, i, "wasted_ms");
	if (tr >= 0) {
		f->have_wait = 1;
		f->wait_ms = cell_ms(&s->cgroups, tr, "wait_ms");
		f->balancer_ms = cell_ms(&s->cgroups, tr, "wait_idle_ms");
		f->capacity_ms = cell_ms(&s->cgroups, tr, "wait_busy_ms");
		f->unknown_ms = cell_ms(&s->cgroups, tr, "wait_unknown_ms");
	}
	if (s->have_attrib)
		wasted_why_of(&s->attrib, &f->why);
	f->top = info(r, "wasted_policy_top");
	if (f->top && !strcmp(f->top, "-"))
		f->top = NULL;
	if (f->top && info(r, "wasted_policy_top_ms"))
		f->top_ms = strtod(info(r, "wasted_policy_top_ms"), NULL);
}

/* One side's run: the explained share, its parts and the largest causes. */
static int why_k;	/* the cause why_cause() names (0: the largest) */

static const char *why_cause(const struct report *r)
{
	static char buf[128];
	struct wasted_facts f;

	wasted_facts_of(r, &f);
	if (!f.why.have || f.why.ntop <= why_k)
		return NULL;
	snprintf(buf, sizeof(buf), "%s %.0f%%", f.why.top[why_k].name,
		 wasted_why_pct(&f.why, f.why.top[why_k].ms));
	return buf;
}

static void why_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	static const char *const parts[] = { "  wakeup placement (%)", "  balancing decisions (%)",
		"  no attempt: nohz, no kick (%)", "  no attempt: newidle skipped (%)",
		"  no attempt: interval (%)", "  no attempt: unknown (%)", "  audit saw no work (%)" };
	struct cmp_num x, p[7];
	char a[256], b[256], label[32];
	int any = 0, k;

	cmp_num_init(&x);
	for (k = 0; k < 7; k++)
		cmp_num_init(&p[k]);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++) {
			struct wasted_facts f;
			const struct wasted_why *w = &f.why;

			wasted_facts_of(side[s].run[i], &f);
			if (!w->have)
				continue;
			double v[] = { w->wakeup_ms, w->balancing_ms, w->nohz_ms, w->newidle_ms,
				       w->interval_ms, w->unknown_ms, w->no_work_ms };

			any = 1;
			x.v[s][i][0] = wasted_why_explained_pct(w);
			for (k = 0; k < 7; k++)
				p[k].v[s][i][0] = wasted_why_pct(w, v[k]);
		}
	if (!any)
		return;
	cmp_row_num(o, "wasted-core time explained (%)", "%.0f", 1, &x, CMP_CALL);
	for (k = 0; k < 7; k++)
		cmp_row_num(o, parts[k], "%.0f", 1, &p[k], CMP_CALL);
	for (k = 0; k < WASTED_WHY_TOP; k++) {
		why_k = k;
		snprintf(label, sizeof(label), "cause #%d", k + 1);
		if (side[0].n == 1 && side[1].n == 1)
			cmp_row(o, label, cmp_side_text(a, sizeof(a), &side[0], why_cause),
				cmp_side_text(b, sizeof(b), &side[1], why_cause));
		else	/* the runs' causes, which may differ: a line */
			cmp_verdict(o, label, "%s: %s; %s: %s", side[0].name,
				    cmp_side_text(a, sizeof(a), &side[0], why_cause), side[1].name,
				    cmp_side_text(b, sizeof(b), &side[1], why_cause));
	}
}

/* The judgement of the extra wait: second side minus first, its two parts. */
static void wasted_extra_verdict(struct cmp_out *o, const struct cmp_num *tot,
				 const struct cmp_num *bal, const struct cmp_num *cap)
{
	struct cmp_stat st[3][2];
	const struct cmp_num *v[3] = { tot, bal, cap };
	double d[3];
	int call[3];

	for (int k = 0; k < 3; k++) {
		if (cmp_stat_of(o, v[k], 0, 0, &st[k][0]) || cmp_stat_of(o, v[k], 1, 0, &st[k][1]))
			return;
		d[k] = st[k][1].med - st[k][0].med;
		call[k] = cmp_call(&st[k][0], &st[k][1]);
	}
	cmp_verdict(o, "second minus first", "total %+.0f, the balancer's share %+.0f, capacity "
		    "and shares %+.0f (task-ms%s)", d[0], d[1], d[2],
		    call[0] == CMP_NO_SPREAD ? "" : ", medians");
	if (call[0] == CMP_NO_SPREAD) {
		cmp_verdict(o, "the extra wait is", "not called: one run per side, no spread to judge "
			    "it against (sched-shadow run --repeat 3 on each side)");
	} else if (call[0] == 0) {
		cmp_verdict(o, "the extra wait is", "within noise: the totals' ranges overlap");
	} else if (call[0] < 0) {
		cmp_verdict(o, "the extra wait is", "none: the second side waited less in total "
			    "(%+.0f task-ms)", d[0]);
	} else if (call[1] == 1 && call[2] == 1) {
		cmp_verdict(o, "the extra wait is", "the balancer's and the shares': %.0f%% / %.0f%%",
			    100.0 * d[1] / (d[1] + d[2]), 100.0 * d[2] / (d[1] + d[2]));
	} else if (call[1] == 1) {
		cmp_verdict(o, "the extra wait is", "the balancer's (capacity and shares: %s)",
			    call[2] ? "lower" : "within noise");
	} else if (call[2] == 1) {
		cmp_verdict(o, "the extra wait is", "capacity and shares' (the balancer's share: %s)",
			    call[1] ? "lower" : "within noise");
	} else {
		cmp_verdict(o, "the extra wait is", "called in total, but neither part alone exceeds "
			    "the noise");
	}
}

/* The policy that wasted the most, with its time (one run) or without (several). */
static const char *wasted_top(const struct report *r)
{
	static char buf[160];
	struct wasted_facts f;

	wasted_facts_of(r, &f);
	if (!f.have)
		return NULL;
	snprintf(buf, sizeof(buf), "%s %.0f", f.top ? f.top : "none", f.top_ms);
	return buf;
}

static const char *wasted_top_name(const struct report *r)
{
	struct wasted_facts f;

	wasted_facts_of(r, &f);
	return f.have ? (f.top ? f.top : "none") : NULL;
}

static void wasted_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	struct cmp_num tot, bal, cap, wst;
	int any = 0, waits = 1;
	char a[256], b[256];

	cmp_num_init(&tot);
	cmp_num_init(&bal);
	cmp_num_init(&cap);
	cmp_num_init(&wst);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++) {
			struct wasted_facts f;

			wasted_facts_of(side[s].run[i], &f);
			any |= f.have;
			waits &= f.have_wait;
			if (f.have)
				wst.v[s][i][0] = f.wasted_ms;
			if (!f.have_wait)
				continue;
			tot.v[s][i][0] = f.wait_ms;
			bal.v[s][i][0] = f.balancer_ms;
			bal.v[s][i][1] = f.wait_ms > 0 ? 100.0 * f.balancer_ms / f.wait_ms : 0;
			cap.v[s][i][0] = f.capacity_ms;
			cap.v[s][i][1] = f.wait_ms > 0 ? 100.0 * f.capacity_ms / f.wait_ms : 0;
		}
	if (!any)
		return;
	cmp_title(o, "run-queue wait of the command (module, task-ms): the balancer's share or "
		  "the shares'?");
	cmp_row_num(o, "total wait", "%.0f", 1, &tot, CMP_CALL);
	cmp_row_num(o, "an allowed CPU idle: the balancer's", "%.0f (%.0f%%)", 2, &bal, CMP_CALL);
	cmp_row_num(o, "all allowed busy: capacity, shares", "%.0f (%.0f%%)", 2, &cap, CMP_CALL);
	cmp_row_num(o, "wasted-core time, all CPUs (ms)", "%.0f", 1, &wst, CMP_CALL);
	if (side[0].n == 1 && side[1].n == 1)
		cmp_row(o, "policy that wasted time (most)",
			cmp_side_text(a, sizeof(a), &side[0], wasted_top),
			cmp_side_text(b, sizeof(b), &side[1], wasted_top));
	else	/* the runs' policies, which may differ: a line, not a column's width */
		cmp_verdict(o, "policy that wasted time (most)", "%s: %s; %s: %s", side[0].name,
			    cmp_side_text(a, sizeof(a), &side[0], wasted_top_name), side[1].name,
			    cmp_side_text(b, sizeof(b), &side[1], wasted_top_name));
	if (waits)
		wasted_extra_verdict(o, &tot, &bal, &cap);
	why_compare(side, o);
}

static void wasted_compare_json(const struct report *r, struct json_writer *w)
{
	struct wasted_facts f;

	wasted_facts_of(r, &f);
	json_key(w, "wasted");
	if (!f.have) {
		json_null(w);
		return;
	}
	json_obj_begin(w);
	json_kv_double(w, "wasted_ms", f.wasted_ms);
	json_key(w, "wait");
	if (f.have_wait) {
		json_obj_begin(w);
		json_kv_double(w, "wait_ms", f.wait_ms);
		json_kv_double(w, "balancer_ms", f.balancer_ms);
		json_kv_double(w, "capacity_ms", f.capacity_ms);
		json_kv_double(w, "unknown_ms", f.unknown_ms);
		json_obj_end(w);
	} else {
		json_null(w);
	}
	if (f.why.have) {
		json_kv_double(w, "explained_pct", wasted_why_explained_pct(&f.why));
		json_kv_str(w, "cause_top", f.why.ntop ? f.why.top[0].name : NULL);
	} else {
		json_kv_null(w, "explained_pct");
		json_kv_null(w, "cause_top");
	}
	json_kv_str(w, "policy_top", f.top);
	if (f.top)
		json_kv_double(w, "policy_top_ms", f.top_ms);
	else
		json_kv_null(w, "policy_top_ms");
	json_obj_end(w);
}

const struct report_section report_wasted_section = {
	.name = "wasted",
	.collect = wasted_collect,
	.text = wasted_text,
	.json = wasted_json,
	.prom = wasted_prom,
	.load = wasted_load,
	.compare = wasted_compare,
	.compare_json = wasted_compare_json,
};
