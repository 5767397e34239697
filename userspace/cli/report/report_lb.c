// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "lb": the load-balancer audit.  The lb table (verdict
 * counts per domain, idle type and tracker) with the actual tracker's
 * totals over the judged idle types, and lb_attempts (one verdict per
 * balancing attempt, with its reason) with the headline: unexplained
 * wrong and missed, and the kernel model's agreement with the kernel
 * (info's lb_model_* counters: docs/debugfs.md, "Model and agreement").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

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

/*
 * Coverage beside the headline (info's lb_coverage.*): of the idle and
 * newidle attempts, judged vs void, and the void ones by reason.  have is
 * 0 when the module predates the keys (then nothing is printed or written:
 * older recordings re-render byte for byte).
 */
#define LB_COV_REASONS	16
struct lb_coverage {
	int have, nreasons;
	unsigned long long attempts, judged, voids;
	const char *reason[LB_COV_REASONS];
	unsigned long long rvoid[LB_COV_REASONS];
};

static void lb_coverage_read(const struct report *r, struct lb_coverage *c)
{
	static const char pfx[] = "lb_coverage.void.";
	const struct dbgfs_table *t = &r->module.info;
	int kc, vc;

	memset(c, 0, sizeof(*c));
	c->attempts = lb_info_u64(r, "lb_coverage.attempts", &c->have);
	c->judged = lb_info_u64(r, "lb_coverage.judged", &c->have);
	c->voids = lb_info_u64(r, "lb_coverage.void", &c->have);
	if (!c->have || !r->module.have_info)
		return;
	kc = dbgfs_col(t, "key");
	vc = dbgfs_col(t, "value");
	for (int row = 0; kc >= 0 && vc >= 0 && row < t->nrows && c->nreasons < LB_COV_REASONS; row++) {
		const char *k = dbgfs_cell(t, row, kc);

		if (strncmp(k, pfx, sizeof(pfx) - 1))
			continue;
		c->reason[c->nreasons] = k + sizeof(pfx) - 1;
		c->rvoid[c->nreasons++] = strtoull(dbgfs_cell(t, row, vc), NULL, 10);
	}
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
			struct lb_coverage c;

			lb_coverage_read(r, &c);
			if (c.have) {
				fprintf(f, "coverage: %llu of %llu idle/newidle attempts judged (%.1f%%), "
					"%llu void", c.judged, c.attempts, lb_pct(c.judged, c.attempts),
					c.voids);
				for (int i = 0, first = 1; i < c.nreasons; i++) {
					if (!c.rvoid[i])
						continue;
					fprintf(f, "%s%s %llu", first ? ": " : ", ", c.reason[i], c.rvoid[i]);
					first = 0;
				}
				fputc('\n', f);
			}
		}
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

/* "coverage": absent when the module has no coverage keys (older recordings) */
static void lb_coverage_json(struct json_writer *w, const struct report *r)
{
	struct lb_coverage c;

	lb_coverage_read(r, &c);
	if (!c.have)
		return;
	json_key(w, "coverage");
	json_obj_begin(w);
	json_kv_u64(w, "attempts", c.attempts);
	json_kv_u64(w, "judged", c.judged);
	json_kv_u64(w, "void", c.voids);
	json_key(w, "void_by_reason");
	json_obj_begin(w);
	for (int i = 0; i < c.nreasons; i++)
		json_kv_u64(w, c.reason[i], c.rvoid[i]);
	json_obj_end(w);
	json_obj_end(w);
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
		lb_coverage_json(w, r);
		{
			struct lb_model m;

			/* absent, not null, when the module has no model: a
			 * recording from before it re-renders byte for byte */
			lb_model_read(r, &m);
			if (m.have) {
				json_key(w, "model");
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
	if (r->lb.have_att) {
		struct lb_coverage c;

		lb_coverage_read(r, &c);
		if (c.have) {
			struct prom_label l[2] = { { "verdict", "judged" }, { "verdict", "void" } };

			prom_family(p, PROM_PREFIX "lb_coverage_attempts", "gauge",
				    "idle and newidle balancing attempts since reset, judged or void");
			prom_sample_u64(p, PROM_PREFIX "lb_coverage_attempts", &l[0], 1, c.judged);
			prom_sample_u64(p, PROM_PREFIX "lb_coverage_attempts", &l[1], 1, c.voids);
			prom_family(p, PROM_PREFIX "lb_void_attempts", "gauge",
				    "void balancing attempts since reset, by void reason");
			for (int i = 0; i < c.nreasons; i++) {
				struct prom_label rl = { "reason", c.reason[i] };

				prom_sample_u64(p, PROM_PREFIX "lb_void_attempts", &rl, 1, c.rvoid[i]);
			}
		}
	}
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

static int lb_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_lb *s = &r->lb;
	const struct jv *sec = jv_get(d, "lb"), *att;

	if (report_load_available(sec, "lb", &s->have_lb, s->why, sizeof(s->why), err, errlen))
		return -1;
	if (s->have_lb && report_load_rows(jv_get(sec, "rows"), "lb", &s->lb, err, errlen)) {
		s->have_lb = 0;
		return -1;
	}
	att = jv_get(sec, "attempts");
	if (att && att->type == JV_OBJ) {
		if (report_load_rows(jv_get(att, "rows"), "lb_attempts", &s->att, err, errlen))
			return -1;
		s->have_att = 1;
	}
	return 0;
}

/* ------------------------------------------------------------ compare */

#define LB_MAX_KEYS	64

/* Balancing attempts per verdict/reason, all domains, judged idle types. */
struct lb_reasons {
	int n;
	char key[LB_MAX_KEYS][48];
	uint64_t count[LB_MAX_KEYS];
};

static void lb_reasons_of(const struct report *r, struct lb_reasons *out)
{
	const struct dbgfs_table *t = &r->lb.att;
	int dc = dbgfs_col(t, "domain"), ic = dbgfs_col(t, "idle"), vc = dbgfs_col(t, "verdict");
	int rc = dbgfs_col(t, "reason"), ac = dbgfs_col(t, "attempts");

	memset(out, 0, sizeof(*out));
	if (!r->lb.have_att || dc < 0 || ic < 0 || vc < 0 || rc < 0 || ac < 0)
		return;
	for (int row = 0; row < t->nrows; row++) {
		char key[48];
		uint64_t n;
		int k;

		if (strcmp(dbgfs_cell(t, row, dc), "all") || !strcmp(dbgfs_cell(t, row, ic), "busy") ||
		    dbgfs_u64(t, row, ac, &n) || !n)
			continue;
		snprintf(key, sizeof(key), "%s/%s", dbgfs_cell(t, row, vc), dbgfs_cell(t, row, rc));
		for (k = 0; k < out->n && strcmp(out->key[k], key); k++)
			;
		if (k == out->n) {
			if (out->n == LB_MAX_KEYS)
				continue;
			snprintf(out->key[out->n++], sizeof(out->key[0]), "%s", key);
		}
		out->count[k] += n;
	}
}

static int lb_key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* A tracker's picks over the judged idle types (the all rows when the file has them). */
struct lb_tracker {
	char name[32];
	uint64_t right, wrong, agree;
	int have_agree;
};

static int lb_trackers_of(const struct report *r, struct lb_tracker *tr, int max)
{
	const struct dbgfs_table *t = &r->lb.lb;
	int dc = dbgfs_col(t, "domain"), ic = dbgfs_col(t, "idle"), tc = dbgfs_col(t, "tracker");
	int n = 0, all = 0;

	if (!r->lb.have_lb || dc < 0 || ic < 0 || tc < 0)
		return 0;
	for (int row = 0; row < t->nrows; row++)
		all |= !strcmp(dbgfs_cell(t, row, dc), "all");
	for (int row = 0; row < t->nrows; row++) {
		const char *name = dbgfs_cell(t, row, tc);
		uint64_t v;
		int k;

		if (!strcmp(dbgfs_cell(t, row, ic), "busy") ||
		    (all && strcmp(dbgfs_cell(t, row, dc), "all")))
			continue;
		for (k = 0; k < n && strcmp(tr[k].name, name); k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			memset(&tr[n], 0, sizeof(tr[n]));
			snprintf(tr[n++].name, sizeof(tr[0].name), "%s", name);
		}
		if (!dbgfs_u64_by(t, row, "right", &v))
			tr[k].right += v;
		if (!dbgfs_u64_by(t, row, "wrong", &v))
			tr[k].wrong += v;
		if (!dbgfs_u64_by(t, row, "agree", &v)) {
			tr[k].agree += v;
			tr[k].have_agree = 1;
		}
	}
	return n;
}

/* The info value key of run i as a number (NAN when the module does not say). */
static double lb_info_num(const struct report *r, const char *key)
{
	const char *v = lb_info(r, key);

	return v ? strtod(v, NULL) : NAN;
}

static void lb_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	static const char *const vnames[] = { "judged calls", "right", "wrong", "missed", "none",
		"void", "busy calls (not judged)" };
	static struct lb_reasons rs[2][CMP_MAX_RUNS];
	static struct lb_tracker tr[2][CMP_MAX_RUNS][16];
	static char keys[2 * LB_MAX_KEYS][48], tnames[16][32];
	struct lb_totals t[2][CMP_MAX_RUNS];
	int ntr[2][CMP_MAX_RUNS], nkeys = 0, nt = 0, any_lb = 0, any_att = 0, any_agree = 0;
	struct cmp_num v;
	int s, i, k, j;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			const struct report *r = side[s].run[i];

			if (r->lb.have_lb)
				lb_sum_actual(&r->lb.lb, &t[s][i]);
			any_lb |= r->lb.have_lb;
			any_att |= r->lb.have_att;
			any_agree |= !isnan(lb_info_num(r, "lb_model_agree"));
			lb_reasons_of(r, &rs[s][i]);
			ntr[s][i] = lb_trackers_of(r, tr[s][i], 16);
			for (k = 0; k < rs[s][i].n; k++) {
				for (j = 0; j < nkeys && strcmp(keys[j], rs[s][i].key[k]); j++)
					;
				if (j == nkeys && nkeys < 2 * LB_MAX_KEYS)
					snprintf(keys[nkeys++], sizeof(keys[0]), "%s", rs[s][i].key[k]);
			}
			for (k = 0; k < ntr[s][i]; k++) {
				for (j = 0; j < nt && strcmp(tnames[j], tr[s][i][k].name); j++)
					;
				if (j == nt && nt < 16)
					snprintf(tnames[nt++], sizeof(tnames[0]), "%s", tr[s][i][k].name);
			}
		}
	cmp_title(o, "load-balancer verdicts (actual pick, idle+newidle, all domains)");
	for (k = 0; k < 7; k++) {
		cmp_num_init(&v);
		for (s = 0; s < 2 && any_lb; s++)
			for (i = 0; i < side[s].n; i++) {
				const struct lb_totals *x = &t[s][i];
				const uint64_t f[] = { x->calls, x->right, x->wrong, x->missed,
					x->none, x->void_, x->busy_calls };

				if (side[s].run[i]->lb.have_lb)
					v.v[s][i][0] = (double)f[k];
			}
		cmp_row_num(o, vnames[k], "%.0f", 1, &v, 0);
	}
	if (any_att) {
		cmp_title(o, "balancing attempts (one verdict each, idle+newidle, all domains): verdict/reason");
		for (k = 0; k < 2; k++) {
			cmp_num_init(&v);
			for (s = 0; s < 2; s++)
				for (i = 0; i < side[s].n; i++)
					if (side[s].run[i]->lb.have_att)
						v.v[s][i][0] = lb_info_num(side[s].run[i], k ?
							"lb_unexplained_missed" : "lb_unexplained_wrong");
			cmp_row_num(o, k ? "headline: unexplained missed" : "headline: unexplained wrong",
				    "%.0f", 1, &v, CMP_CALL);
		}
		/* how often the module's model of the kernel's rule made the kernel's pick */
		if (any_agree) {
			cmp_num_init(&v);
			for (s = 0; s < 2; s++)
				for (i = 0; i < side[s].n; i++) {
					double ag = lb_info_num(side[s].run[i], "lb_model_agree");
					double dis = lb_info_num(side[s].run[i], "lb_model_disagree");

					if (!isnan(ag) && !isnan(dis)) {
						v.v[s][i][0] = ag;
						v.v[s][i][1] = dis;
					}
				}
			cmp_row_num(o, "model agrees/disagrees with the kernel's pick", "%.0f/%.0f", 2,
				    &v, 0);
		}
		qsort(keys, nkeys, sizeof(keys[0]), lb_key_cmp);
		for (k = 0; k < nkeys; k++) {
			cmp_num_init(&v);
			for (s = 0; s < 2; s++)
				for (i = 0; i < side[s].n; i++) {
					if (!side[s].run[i]->lb.have_att)
						continue;
					v.v[s][i][0] = 0;
					for (j = 0; j < rs[s][i].n; j++)
						if (!strcmp(rs[s][i].key[j], keys[k]))
							v.v[s][i][0] = (double)rs[s][i].count[j];
				}
			cmp_row_num(o, keys[k], "%.0f", 1, &v, 0);
		}
	}
	if (nt) {
		cmp_title(o, "what each tracker would have picked: right/wrong (agree with actual)");
		for (k = 0; k < nt; k++) {
			int agree = 0;

			cmp_num_init(&v);
			for (s = 0; s < 2; s++)
				for (i = 0; i < side[s].n; i++)
					for (j = 0; j < ntr[s][i]; j++) {
						const struct lb_tracker *x = &tr[s][i][j];

						if (strcmp(x->name, tnames[k]))
							continue;
						v.v[s][i][0] = (double)x->right;
						v.v[s][i][1] = (double)x->wrong;
						if (x->have_agree)
							v.v[s][i][2] = (double)x->agree;
						agree |= x->have_agree;
					}
			cmp_row_num(o, tnames[k], agree ? "%.0f/%.0f (%.0f)" : "%.0f/%.0f", agree ? 3 : 2,
				    &v, 0);
		}
	}
}

static void lb_compare_json(const struct report *r, struct json_writer *w)
{
	struct lb_totals t;
	struct lb_reasons rs;
	struct lb_tracker tr[16];
	int ntr, k;

	json_key(w, "lb");
	if (!r->lb.have_lb) {
		json_null(w);
		return;
	}
	lb_sum_actual(&r->lb.lb, &t);
	json_obj_begin(w);
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
	json_key(w, "attempts");
	if (r->lb.have_att) {
		const char *uw = lb_info(r, "lb_unexplained_wrong");
		const char *um = lb_info(r, "lb_unexplained_missed");

		lb_reasons_of(r, &rs);
		json_obj_begin(w);
		json_kv_u64(w, "unexplained_wrong", uw ? strtoull(uw, NULL, 10) : 0);
		json_kv_u64(w, "unexplained_missed", um ? strtoull(um, NULL, 10) : 0);
		lb_coverage_json(w, r);
		{
			const char *ag = lb_info(r, "lb_model_agree"), *dis = lb_info(r, "lb_model_disagree");

			json_key(w, "model");
			if (ag && dis) {
				json_obj_begin(w);
				json_kv_u64(w, "agree", strtoull(ag, NULL, 10));
				json_kv_u64(w, "disagree", strtoull(dis, NULL, 10));
				json_obj_end(w);
			} else {
				json_null(w);
			}
		}
		json_key(w, "by_reason");
		json_obj_begin(w);
		for (k = 0; k < rs.n; k++)
			json_kv_u64(w, rs.key[k], rs.count[k]);
		json_obj_end(w);
		json_obj_end(w);
	} else {
		json_null(w);
	}
	ntr = lb_trackers_of(r, tr, 16);
	json_key(w, "trackers");
	json_obj_begin(w);
	for (k = 0; k < ntr; k++) {
		json_key(w, tr[k].name);
		json_obj_begin(w);
		json_kv_u64(w, "right", tr[k].right);
		json_kv_u64(w, "wrong", tr[k].wrong);
		if (tr[k].have_agree)
			json_kv_u64(w, "agree", tr[k].agree);
		else
			json_kv_null(w, "agree");
		json_obj_end(w);
	}
	json_obj_end(w);
	json_obj_end(w);
}

const struct report_section report_lb_section = {
	.name = "lb",
	.collect = lb_collect,
	.text = lb_text,
	.json = lb_json,
	.prom = lb_prom,
	.load = lb_load,
	.compare = lb_compare,
	.compare_json = lb_compare_json,
};
