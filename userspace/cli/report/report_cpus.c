// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "cpus": shadow vs real load per CPU since the reset
 * (means and the largest divergence), from the module's cpus file.
 */
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"
#include "cli/formats/table.h"

static const char *const cpus_cols[] = { "cpu", "shadow_mean", "real_mean", "div_mean",
	"div_max", "fresh_mean", "h_load_mean" };
#define CPUS_NCOLS ((int)(sizeof(cpus_cols) / sizeof(cpus_cols[0])))

static void cpus_collect(struct report *r, const char *debugfs)
{
	struct report_cpus *s = &r->cpus;
	struct dbgfs_error err;

	if (!r->module.loaded) {
		snprintf(s->why, sizeof(s->why), "%s", r->module.why);
		return;
	}
	if (!dbgfs_load(debugfs, "cpus", &s->t, &err))
		s->have = 1;
	else
		snprintf(s->why, sizeof(s->why), "%s", err.msg);
}

static void cpus_text(const struct report *r, FILE *f)
{
	const struct report_cpus *s = &r->cpus;
	struct table tb;
	int idx[CPUS_NCOLS], i, row;

	fprintf(f, "\n== shadow vs real load per CPU (module, since reset; load units) ==\n");
	if (!s->have) {
		fprintf(f, "not available: %s\n", s->why);
		return;
	}
	for (i = 0; i < CPUS_NCOLS; i++)
		idx[i] = dbgfs_col(&s->t, cpus_cols[i]);
	table_init(&tb, CPUS_NCOLS);
	table_header(&tb, cpus_cols);
	for (row = 0; row < s->t.nrows; row++) {
		const char *cells[CPUS_NCOLS];

		for (i = 0; i < CPUS_NCOLS; i++)
			cells[i] = idx[i] >= 0 ? dbgfs_cell(&s->t, row, idx[i]) : NULL;
		table_row(&tb, cells);
	}
	table_print(&tb, f);
	table_free(&tb);
}

static void cpus_json(const struct report *r, struct json_writer *w)
{
	const struct report_cpus *s = &r->cpus;
	int i, k;

	json_key(w, "cpus");
	json_obj_begin(w);
	report_json_available(w, s->have, s->why);
	if (s->have) {
		json_key(w, "rows");
		json_arr_begin(w);
		for (i = 0; i < s->t.nrows; i++) {
			json_obj_begin(w);
			for (k = 0; k < CPUS_NCOLS; k++) {
				int c = dbgfs_col(&s->t, cpus_cols[k]);
				uint64_t v;

				if (c >= 0 && dbgfs_u64(&s->t, i, c, &v) == 0)
					json_kv_u64(w, cpus_cols[k], v);
				else
					json_kv_null(w, cpus_cols[k]);
			}
			json_obj_end(w);
		}
		json_arr_end(w);
	}
	json_obj_end(w);
}

static void cpus_prom(const struct report *r, struct prom_writer *p)
{
	if (r->cpus.have)
		emit_cpus_prom(p, &r->cpus.t);
}

static int cpus_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_cpus *s = &r->cpus;
	const struct jv *sec = jv_get(d, "cpus");

	if (report_load_available(sec, "cpus", &s->have, s->why, sizeof(s->why), err, errlen))
		return -1;
	if (s->have && report_load_rows(jv_get(sec, "rows"), "cpus", &s->t, err, errlen)) {
		s->have = 0;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ compare */

enum { CS_SHADOW, CS_REAL, CS_DIV, CS_FRESH, CS_HLOAD, CS_N };
static const char *const cpus_sum_col[CS_N] = { "shadow_mean", "real_mean", "div_mean",
	"fresh_mean", "h_load_mean" };

/* Sums over the CPUs that have a shadow mean. */
struct cpus_sums {
	int have, ncpus;
	uint64_t v[CS_N];
	int have_col[CS_N];
};

static void cpus_sums_of(const struct report *r, struct cpus_sums *s)
{
	const struct dbgfs_table *t = &r->cpus.t;

	memset(s, 0, sizeof(*s));
	if (!r->cpus.have)
		return;
	s->have = 1;
	for (int row = 0; row < t->nrows; row++) {
		uint64_t x;

		if (dbgfs_u64_by(t, row, "shadow_mean", &x))
			continue;
		s->ncpus++;
		for (int k = 0; k < CS_N; k++)
			if (!dbgfs_u64_by(t, row, cpus_sum_col[k], &x)) {
				s->v[k] += x;
				s->have_col[k] = 1;
			}
	}
}

/* The gap real - shadow split into staleness (fresh - shadow) and blocked load (real - fresh). */
static int cpus_gap(const struct cpus_sums *s, double *stale, double *blocked)
{
	double gap = (double)s->v[CS_REAL] - (double)s->v[CS_SHADOW];

	if (!s->have || !s->have_col[CS_FRESH] || gap <= 0)
		return -1;
	*stale = (double)s->v[CS_FRESH] - (double)s->v[CS_SHADOW];
	*blocked = gap - *stale;
	return 0;
}

static void cpus_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	static const char *const labels[CS_N] = { "shadow_mean", "real_mean (kernel load_avg)",
		"div_mean |shadow - real|", "shadow_fresh_mean (projected to now)",
		"h_load_mean (sum of task_h_load)" };
	struct cpus_sums sm[2][CMP_MAX_RUNS];
	struct cmp_num v;
	int any = 0, s, i, k;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			cpus_sums_of(side[s].run[i], &sm[s][i]);
			any |= sm[s][i].have;
		}
	if (!any)
		return;
	cmp_title(o, "load, time-weighted means since reset, summed over CPUs (1024 = one nice-0 task)");
	for (k = 0; k < CS_N; k++) {
		cmp_num_init(&v);
		for (s = 0; s < 2; s++)
			for (i = 0; i < side[s].n; i++)
				if (sm[s][i].have && sm[s][i].have_col[k])
					v.v[s][i][0] = (double)sm[s][i].v[k];
		cmp_row_num(o, labels[k], "%.0f", 1, &v, 0);
		if (k == CS_DIV) {
			cmp_num_init(&v);
			for (s = 0; s < 2; s++)
				for (i = 0; i < side[s].n; i++)
					if (sm[s][i].have && sm[s][i].v[CS_SHADOW])
						v.v[s][i][0] = (double)sm[s][i].v[CS_REAL] /
							       (double)sm[s][i].v[CS_SHADOW];
			cmp_row_num(o, "real / shadow", "%.2f", 1, &v, 0);
		}
	}
	for (k = 0; k < 2; k++) {
		cmp_num_init(&v);
		for (s = 0; s < 2; s++)
			for (i = 0; i < side[s].n; i++) {
				double st, bl;

				if (cpus_gap(&sm[s][i], &st, &bl))
					continue;
				v.v[s][i][0] = k ? bl : st;
				v.v[s][i][1] = 100.0 * (k ? bl : st) / (st + bl);
			}
		cmp_row_num(o, k ? "gap: blocked load (real - fresh)" : "gap: staleness (fresh - shadow)",
			    "%.0f (%.0f%%)", 2, &v, 0);
	}
}

static void cpus_compare_json(const struct report *r, struct json_writer *w)
{
	struct cpus_sums s;
	double st, bl;

	cpus_sums_of(r, &s);
	json_key(w, "load");
	if (!s.have) {
		json_null(w);
		return;
	}
	json_obj_begin(w);
	json_kv_s64(w, "cpus", s.ncpus);
	for (int k = 0; k < CS_N; k++)
		if (s.have_col[k])
			json_kv_u64(w, cpus_sum_col[k], s.v[k]);
		else
			json_kv_null(w, cpus_sum_col[k]);
	if (!cpus_gap(&s, &st, &bl)) {
		json_kv_double(w, "gap_stale", st);
		json_kv_double(w, "gap_blocked", bl);
	} else {
		json_kv_null(w, "gap_stale");
		json_kv_null(w, "gap_blocked");
	}
	json_obj_end(w);
}

const struct report_section report_cpus_section = {
	.name = "cpus",
	.collect = cpus_collect,
	.text = cpus_text,
	.json = cpus_json,
	.prom = cpus_prom,
	.load = cpus_load,
	.compare = cpus_compare,
	.compare_json = cpus_compare_json,
};
