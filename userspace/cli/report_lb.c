// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "lb": the load-balancer audit.  The lb table (verdict
 * counts per domain, idle type and tracker) with the actual tracker's
 * totals over the judged idle types, and lb_attempts (one verdict per
 * balancing attempt, with its reason) with the headline: unexplained
 * wrong and missed, from the info file.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report.h"

static void lb_collect(struct report *r, const char *debugfs)
{
	struct report_lb *s = &r->lb;
	struct dbgfs_error err;

	if (!r->module.loaded) {
		snprintf(s->why, sizeof(s->why), "%s", r->module.why);
		return;
	}
	s->have_att = !dbgfs_load(debugfs, "lb_attempts", &s->att, &err);
	if (!dbgfs_load(debugfs, "lb", &s->lb, &err)) {
		s->have_lb = 1;
	} else {
		const struct report_module *m = &r->module;
		const char *st = m->have_info ? dbgfs_info_get(&m->info, "feature.lb_audit") : NULL;

		/* The info file says why the audit is off; the load error is the fallback */
		if (st && strncmp(st, "active", 6))
			snprintf(s->why, sizeof(s->why), "feature.lb_audit %s", st);
		else
			snprintf(s->why, sizeof(s->why), "%s", err.msg);
	}
}

/* The headline counters of the info file, NULL when absent. */
static const char *lb_info(const struct report *r, const char *key)
{
	return r->module.have_info ? dbgfs_info_get(&r->module.info, key) : NULL;
}

static void lb_text(const struct report *r, FILE *f)
{
	const struct report_lb *s = &r->lb;

	fprintf(f, "\n== load-balancer audit (module lb table, since reset) ==\n");
	if (s->have_lb) {
		struct lb_totals t;

		lb_sum_actual(&s->lb, &t);
		fprintf(f, "verdicts (actual, idle+newidle): calls %llu right %llu wrong %llu "
			"missed %llu none %llu void %llu; busy calls %llu\n",
			(unsigned long long)t.calls, (unsigned long long)t.right,
			(unsigned long long)t.wrong, (unsigned long long)t.missed,
			(unsigned long long)t.none, (unsigned long long)t.void_,
			(unsigned long long)t.busy_calls);
		emit_table_text(f, &s->lb);
	} else {
		fprintf(f, "lb audit not available: %s\n", s->why);
	}
	if (s->have_att) {
		const char *uw = lb_info(r, "lb_unexplained_wrong");
		const char *um = lb_info(r, "lb_unexplained_missed");

		fprintf(f, "\n== balancing attempts (module lb_attempts: one verdict per attempt, "
			"with its reason) ==\n");
		fprintf(f, "headline: unexplained wrong %s, unexplained missed %s\n", uw ? uw : "-",
			um ? um : "-");
		emit_table_text(f, &s->att);
	}
}

static void lb_json(const struct report *r, struct json_writer *w)
{
	const struct report_lb *s = &r->lb;

	json_key(w, "lb");
	json_obj_begin(w);
	report_json_available(w, s->have_lb, s->why);
	if (s->have_lb) {
		struct lb_totals t;

		lb_sum_actual(&s->lb, &t);
		json_key(w, "verdicts");
		json_obj_begin(w);
		json_kv_u64(w, "calls", t.calls);
		json_kv_u64(w, "right", t.right);
		json_kv_u64(w, "wrong", t.wrong);
		json_kv_u64(w, "missed", t.missed);
		json_kv_u64(w, "none", t.none);
		json_kv_u64(w, "void", t.void_);
		json_kv_u64(w, "busy_calls", t.busy_calls);
		json_obj_end(w);
		json_key(w, "rows");
		emit_table_json(w, &s->lb);
	}
	json_key(w, "attempts");
	if (s->have_att) {
		const char *uw = lb_info(r, "lb_unexplained_wrong");
		const char *um = lb_info(r, "lb_unexplained_missed");

		json_obj_begin(w);
		json_kv_u64(w, "unexplained_wrong", uw ? strtoull(uw, NULL, 10) : 0);
		json_kv_u64(w, "unexplained_missed", um ? strtoull(um, NULL, 10) : 0);
		json_key(w, "rows");
		emit_table_json(w, &s->att);
		json_obj_end(w);
	} else {
		json_null(w);
	}
	json_obj_end(w);
}

static void lb_prom(const struct report *r, struct prom_writer *p)
{
	if (r->lb.have_lb)
		emit_lb_prom(p, &r->lb.lb);
}

const struct report_section report_lb_section = {
	.name = "lb",
	.collect = lb_collect,
	.text = lb_text,
	.json = lb_json,
	.prom = lb_prom,
};
