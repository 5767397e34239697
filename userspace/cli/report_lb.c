// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "lb": the load-balancer audit.  The lb table (verdict
 * counts per domain, idle type and tracker) with the actual tracker's
 * totals over the judged idle types, and lb_attempts (one verdict per
 * balancing attempt, with its reason) with the headline: unexplained
 * wrong and missed, and the kernel model's agreement with the kernel
 * (info's lb_model_* counters: docs/debugfs.md, "Model and agreement").
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

/* The kernel model's agreement counters of the info file (0 when absent). */
struct lb_model {
	unsigned long long judged, agree, stale, known, unknown, either, either_agree, voids;
	const char *rules;
	int have;
};

static unsigned long long lb_info_u64(const struct report *r, const char *key, int *have)
{
	const char *v = lb_info(r, key);

	if (v)
		*have = 1;
	return v ? strtoull(v, NULL, 10) : 0;
}

static void lb_model_read(const struct report *r, struct lb_model *m)
{
	memset(m, 0, sizeof(*m));
	m->judged = lb_info_u64(r, "lb_judged", &m->have);
	m->agree = lb_info_u64(r, "lb_model_agree", &m->have);
	m->stale = lb_info_u64(r, "lb_model_disagree_stale", &m->have);
	m->known = lb_info_u64(r, "lb_model_disagree_known", &m->have);
	m->unknown = lb_info_u64(r, "lb_model_disagree_unknown", &m->have);
	m->either = lb_info_u64(r, "lb_model_either_picked", &m->have);
	m->either_agree = lb_info_u64(r, "lb_model_either_agree", &m->have);
	m->voids = lb_info_u64(r, "lb_void", &m->have);
	m->rules = lb_info(r, "lb_rules");
}

/* a / b in percent, cut (not rounded) to one decimal: never 100.0 with a miss left */
static double lb_pct(unsigned long long a, unsigned long long b)
{
	return b ? (double)(1000 * a / b) / 10.0 : 0.0;
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
		{
			struct lb_model m;

			lb_model_read(r, &m);
			if (m.have)
				fprintf(f, "model: agreement %.1f%% of %llu judged attempts (disagree: "
					"stale %llu, known %llu, unknown %llu); where either picked "
					"%.1f%% of %llu; void %.1f%%; rules %s\n",
					lb_pct(m.agree, m.judged), m.judged, m.stale, m.known,
					m.unknown, lb_pct(m.either_agree, m.either), m.either,
					lb_pct(m.voids, m.judged), m.rules ? m.rules : "-");
		}
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
		{
			struct lb_model m;

			lb_model_read(r, &m);
			json_key(w, "model");
			if (m.have) {
				json_obj_begin(w);
				json_kv_u64(w, "judged", m.judged);
				json_kv_u64(w, "agree", m.agree);
				json_kv_u64(w, "stale", m.stale);
				json_kv_u64(w, "known", m.known);
				json_kv_u64(w, "unknown", m.unknown);
				json_kv_u64(w, "either_picked", m.either);
				json_kv_u64(w, "either_agree", m.either_agree);
				json_kv_u64(w, "void", m.voids);
				json_kv_str(w, "rules", m.rules);
				json_obj_end(w);
			} else {
				json_null(w);
			}
		}
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
	static const char *const causes[] = { "agree", "stale", "known", "unknown" };
	struct lb_model m;
	unsigned long long v[4];
	int i;

	if (r->lb.have_lb)
		emit_lb_prom(p, &r->lb.lb);
	lb_model_read(r, &m);
	if (!r->lb.have_att || !m.have)
		return;
	v[0] = m.agree;
	v[1] = m.stale;
	v[2] = m.known;
	v[3] = m.unknown;
	prom_family(p, PROM_PREFIX "lb_model_attempts", "gauge",
		    "judged balancing attempts by whether the kernel model agreed with the kernel, or why not");
	for (i = 0; i < 4; i++) {
		struct prom_label l = { "cause", causes[i] };

		prom_sample_u64(p, PROM_PREFIX "lb_model_attempts", &l, 1, v[i]);
	}
	prom_family(p, PROM_PREFIX "lb_model_either_picked", "gauge",
		    "judged attempts where the kernel or the model picked a group");
	prom_sample_u64(p, PROM_PREFIX "lb_model_either_picked", NULL, 0, m.either);
	prom_family(p, PROM_PREFIX "lb_model_either_agree", "gauge",
		    "of those, the attempts where both picked the same group");
	prom_sample_u64(p, PROM_PREFIX "lb_model_either_agree", NULL, 0, m.either_agree);
}

const struct report_section report_lb_section = {
	.name = "lb",
	.collect = lb_collect,
	.text = lb_text,
	.json = lb_json,
	.prom = lb_prom,
};
