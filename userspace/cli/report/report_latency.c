// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "bpf": wakeup latency, wakeups and migrations per
 * cgroup during the run, from the BPF collector (latency.c), with the
 * cgroups named by path where the id still resolves.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"
#include "cli/formats/table.h"

void report_latency_collect(struct report *r, struct lat_bpf *b)
{
	struct report_latency *s = &r->latency;
	char mnt[256], why[256];
	int i, have_mnt;

	if (!b)
		return;
	if (lat_bpf_read(b, &s->lat, s->why, sizeof(s->why))) {
		s->ok = 0;
		return;
	}
	have_mnt = !cg_mount_point(mnt, sizeof(mnt), why, sizeof(why));
	s->cgpath = calloc(s->lat.ncg ? s->lat.ncg : 1, sizeof(*s->cgpath));
	for (i = 0; s->cgpath && i < s->lat.ncg; i++) {
		const struct lat_cg_val *v = &s->lat.cg[i].v;

		if (v->wakeups || v->samples || v->migrations)
			s->ncg_shown++;
		if (have_mnt && cg_path_of_id(mnt, s->lat.cg[i].cgid, s->cgpath[i].path,
					      sizeof(s->cgpath[i].path)))
			s->cgpath[i].path[0] = 0;
	}
}

static double latency_mean_us(const struct lat_cg_val *v)
{
	return v->samples ? (double)v->sum_ns / (double)v->samples / 1000.0 : 0;
}

static void latency_text(const struct report *r, FILE *f)
{
	static const char *const cols[] = { "cgroup", "wakeups", "migrations", "samples",
		"p50_us", "p90_us", "p99_us", "p99.9_us", "max_us" };
	const struct report_latency *s = &r->latency;
	char b[9][64];
	struct table tb;
	int i, k, shown = 0;

	fprintf(f, "\n== wakeup latency per cgroup (BPF) ==\n");
	if (!s->requested) {
		fprintf(f, "not collected: --no-bpf\n");
		return;
	}
	if (!s->ok) {
		fprintf(f, "not available: %s\n", s->why);
		return;
	}
	fprintf(f, "log2 histogram: each percentile is interpolated inside its power-of-two\n"
		"bucket, so it is exact only to within a factor of 2 (max is exact)\n");
	table_init(&tb, 9);
	table_header(&tb, cols);
	for (i = 0; i < s->lat.ncg && shown < REPORT_TEXT_MAX_CGROUPS; i++) {
		const struct lat_cg_val *v = &s->lat.cg[i].v;
		const char *cells[9];

		if (!v->wakeups && !v->samples && !v->migrations)
			continue;
		shown++;
		cells[0] = report_cg_name(r, i, b[0], sizeof(b[0]));
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
	table_print(&tb, f);
	table_free(&tb);
	if (s->ncg_shown > shown)
		fprintf(f, "(%d more cgroups in --json)\n", s->ncg_shown - shown);
	if (s->lat.counters[LAT_CNT_PENDING_FULL] || s->lat.counters[LAT_CNT_CGROUP_FULL] ||
	    s->lat.counters[LAT_CNT_NEGATIVE])
		fprintf(f, "drops: %llu wakeups (pending map full), %llu events (cgroup map full), "
			"%llu negative deltas\n",
			(unsigned long long)s->lat.counters[LAT_CNT_PENDING_FULL],
			(unsigned long long)s->lat.counters[LAT_CNT_CGROUP_FULL],
			(unsigned long long)s->lat.counters[LAT_CNT_NEGATIVE]);
}

static void latency_json_cgroup(const struct report *r, struct json_writer *w, int i)
{
	const struct report_latency *s = &r->latency;
	const struct lat_cg_val *v = &s->lat.cg[i].v;
	int k;

	json_obj_begin(w);
	json_kv_u64(w, "id", s->lat.cg[i].cgid);
	json_kv_str(w, "path", s->cgpath && s->cgpath[i].path[0] ? s->cgpath[i].path : NULL);
	json_kv_u64(w, "wakeups", v->wakeups);
	json_kv_u64(w, "wakeups_new", v->wakeups_new);
	json_kv_u64(w, "migrations", v->migrations);
	json_kv_u64(w, "samples", v->samples);
	json_kv_u64(w, "sum_ns", v->sum_ns);
	json_kv_u64(w, "max_ns", v->max_ns);
	json_key(w, "latency_us");
	json_obj_begin(w);
	for (k = 0; k < LAT_NPCT; k++) {
		struct lat_estimate e;

		lat_log2_percentile(v, lat_pct_q[k], &e);
		if (e.valid)
			json_kv_double(w, lat_pct_key[k], e.value_ns / 1000.0);
		else
			json_kv_null(w, lat_pct_key[k]);
	}
	json_kv_double(w, "max", v->max_ns / 1000.0);
	json_kv_double(w, "mean", latency_mean_us(v));
	json_obj_end(w);
	json_key(w, "bucket_us");
	json_obj_begin(w);
	for (k = 0; k < LAT_NPCT; k++) {
		struct lat_estimate e;

		lat_log2_percentile(v, lat_pct_q[k], &e);
		json_key(w, lat_pct_key[k]);
		if (!e.valid) {
			json_null(w);
			continue;
		}
		json_arr_begin(w);
		json_double(w, e.lo_ns / 1000.0);
		json_double(w, e.hi_ns / 1000.0);
		json_arr_end(w);
	}
	json_obj_end(w);
	json_key(w, "histogram_ns");
	json_arr_begin(w);
	for (k = 0; k < LAT_SLOTS; k++)
		json_u64(w, v->slots[k]);
	json_arr_end(w);
	json_obj_end(w);
}

static void latency_json(const struct report *r, struct json_writer *w)
{
	const struct report_latency *s = &r->latency;
	int i;

	json_key(w, "bpf");
	json_obj_begin(w);
	json_kv_bool(w, "requested", s->requested);
	report_json_available(w, s->requested && s->ok, s->requested ? s->why : "--no-bpf");
	if (s->ok) {
		json_kv_str(w, "method", "log2 histogram; percentile interpolated by rank inside "
			    "its power-of-two bucket, clamped to the max seen; exact to a factor of 2");
		json_key(w, "drops");
		json_obj_begin(w);
		json_kv_u64(w, "pending_full", s->lat.counters[LAT_CNT_PENDING_FULL]);
		json_kv_u64(w, "cgroup_full", s->lat.counters[LAT_CNT_CGROUP_FULL]);
		json_kv_u64(w, "negative", s->lat.counters[LAT_CNT_NEGATIVE]);
		json_obj_end(w);
		json_key(w, "cgroups");
		json_arr_begin(w);
		for (i = 0; i < s->lat.ncg; i++)
			latency_json_cgroup(r, w, i);
		json_arr_end(w);
	}
	json_obj_end(w);
}

static void latency_prom(const struct report *r, struct prom_writer *p)
{
	const struct report_latency *s = &r->latency;
	struct prom_label l[2];
	char nb[64];
	int i, k;

	if (!s->ok)
		return;
	prom_family(p, PROM_PREFIX "run_wakeups_total", "counter",
		    "sched_wakeup and sched_wakeup_new events per cgroup during the run (BPF)");
	prom_family(p, PROM_PREFIX "run_migrations_total", "counter",
		    "sched_migrate_task events per cgroup during the run (BPF)");
	prom_family(p, PROM_PREFIX "run_wakeup_latency_seconds", "gauge",
		    "wakeup-to-run latency quantile per cgroup, estimated from log2 buckets (BPF)");
	prom_family(p, PROM_PREFIX "run_wakeup_latency_max_seconds", "gauge",
		    "largest wakeup-to-run latency per cgroup (BPF)");
	for (i = 0; i < s->lat.ncg; i++) {
		const struct lat_cg_val *v = &s->lat.cg[i].v;

		if (!v->wakeups && !v->samples && !v->migrations)
			continue;
		l[0].name = "cgroup";
		l[0].value = report_cg_name(r, i, nb, sizeof(nb));
		prom_sample_u64(p, PROM_PREFIX "run_wakeups_total", l, 1, v->wakeups);
		prom_sample_u64(p, PROM_PREFIX "run_migrations_total", l, 1, v->migrations);
		for (k = 0; k < LAT_NPCT && v->samples; k++) {
			struct lat_estimate e;
			char q[16];

			lat_log2_percentile(v, lat_pct_q[k], &e);
			snprintf(q, sizeof(q), "%g", lat_pct_q[k]);
			l[1].name = "quantile";
			l[1].value = q;
			prom_sample(p, PROM_PREFIX "run_wakeup_latency_seconds", l, 2,
				    e.value_ns / 1e9);
		}
		if (v->samples)
			prom_sample(p, PROM_PREFIX "run_wakeup_latency_max_seconds", l, 1,
				    v->max_ns / 1e9);
	}
}

/* jv_u64 into the BPF header's __u64 fields */
static int lu(const struct jv *v, __u64 *out)
{
	uint64_t x;

	if (jv_u64(v, &x))
		return -1;
	*out = x;
	return 0;
}

static int latency_load_cg(struct report_latency *s, int i, const struct jv *c,
			   char *err, size_t errlen)
{
	struct lat_cgroup *g = &s->lat.cg[i];
	const struct jv *h = jv_get(c, "histogram_ns");
	const char *path = jv_str(jv_get(c, "path"));
	double us;

	if (jv_u64(jv_get(c, "id"), &g->cgid) ||
	    lu(jv_get(c, "wakeups"), &g->v.wakeups) ||
	    lu(jv_get(c, "wakeups_new"), &g->v.wakeups_new) ||
	    lu(jv_get(c, "migrations"), &g->v.migrations) ||
	    lu(jv_get(c, "samples"), &g->v.samples) ||
	    !h || h->type != JV_ARR || h->n != LAT_SLOTS) {
		snprintf(err, errlen, "bpf.cgroups[%d]: needs id, wakeups, wakeups_new, migrations, "
			 "samples and histogram_ns (%d slots)", i, LAT_SLOTS);
		return -1;
	}
	for (int k = 0; k < LAT_SLOTS; k++)
		if (lu(&h->items[k], &g->v.slots[k])) {
			snprintf(err, errlen, "bpf.cgroups[%d].histogram_ns[%d]: not a count", i, k);
			return -1;
		}
	/* exact sums since they are written; older reports: from the mean and max (us) */
	if (lu(jv_get(c, "max_ns"), &g->v.max_ns))
		g->v.max_ns = jv_double(jv_path(c, "latency_us", "max", NULL), &us) ? 0 :
			(uint64_t)(us * 1000.0 + 0.5);
	if (lu(jv_get(c, "sum_ns"), &g->v.sum_ns))
		g->v.sum_ns = jv_double(jv_path(c, "latency_us", "mean", NULL), &us) ? 0 :
			(uint64_t)(us * 1000.0 * (double)g->v.samples + 0.5);
	if (path)
		snprintf(s->cgpath[i].path, sizeof(s->cgpath[i].path), "%s", path);
	if (g->v.wakeups || g->v.samples || g->v.migrations)
		s->ncg_shown++;
	return 0;
}

static int latency_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_latency *s = &r->latency;
	const struct jv *sec = jv_get(d, "bpf"), *cgs, *drops;
	int ok;

	if (jv_bool(jv_get(sec, "requested"), &s->requested) ||
	    report_load_available(sec, "bpf", &ok, s->why, sizeof(s->why), err, errlen)) {
		snprintf(err, errlen, "bpf: missing, or no \"requested\" and \"available\" members");
		return -1;
	}
	s->ok = ok;
	if (!ok)
		return 0;
	cgs = jv_get(sec, "cgroups");
	drops = jv_get(sec, "drops");
	if (!cgs || cgs->type != JV_ARR ||
	    jv_u64(jv_get(drops, "pending_full"), &s->lat.counters[LAT_CNT_PENDING_FULL]) ||
	    jv_u64(jv_get(drops, "cgroup_full"), &s->lat.counters[LAT_CNT_CGROUP_FULL]) ||
	    jv_u64(jv_get(drops, "negative"), &s->lat.counters[LAT_CNT_NEGATIVE])) {
		snprintf(err, errlen, "bpf: needs cgroups and drops");
		return -1;
	}
	s->lat.cg = calloc(cgs->n ? cgs->n : 1, sizeof(*s->lat.cg));
	s->cgpath = calloc(cgs->n ? cgs->n : 1, sizeof(*s->cgpath));
	if (!s->lat.cg || !s->cgpath) {
		snprintf(err, errlen, "bpf: out of memory");
		return -1;
	}
	s->lat.ncg = cgs->n;
	for (int i = 0; i < cgs->n; i++)
		if (latency_load_cg(s, i, &cgs->items[i], err, errlen))
			return -1;
	return 0;
}

/* ------------------------------------------------------------ compare */

/* The cgroup CMD ran in ("/" without --cgroup), -1 when BPF did not see it. */
static int latency_cmd_cg(const struct report *r)
{
	const char *want = r->cg_used ? r->cg.rel : "/";

	if (!r->latency.ok || !r->latency.cgpath)
		return -1;
	for (int i = 0; i < r->latency.lat.ncg; i++)
		if (!strcmp(r->latency.cgpath[i].path, want))
			return i;
	return -1;
}

static void latency_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	static const char *const lab[] = { "p50", "p90", "p99", "p99.9" };
	const struct lat_cg_val *v[2][CMP_MAX_RUNS];
	struct cmp_num n;
	int any = 0, s, i, k;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			int g = latency_cmd_cg(side[s].run[i]);

			v[s][i] = g >= 0 ? &side[s].run[i]->latency.lat.cg[g].v : NULL;
			any |= side[s].run[i]->latency.ok;
		}
	if (!any)
		return;
	cmp_title(o, "wakeup latency of the command's cgroup, BPF (us; log2 buckets: within 2x, max exact)");
	for (k = 0; k < LAT_NPCT; k++) {
		cmp_num_init(&n);
		for (s = 0; s < 2; s++)
			for (i = 0; i < side[s].n; i++) {
				struct lat_estimate e = { 0 };

				if (!v[s][i])
					continue;
				lat_log2_percentile(v[s][i], lat_pct_q[k], &e);
				if (e.valid)
					n.v[s][i][0] = e.value_ns / 1000.0;
			}
		cmp_row_num(o, lab[k], "%.0f", 1, &n, CMP_CALL);
	}
	cmp_num_init(&n);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++)
			if (v[s][i] && v[s][i]->samples)
				n.v[s][i][0] = v[s][i]->max_ns / 1000.0;
	cmp_row_num(o, "max", "%.0f", 1, &n, CMP_CALL);
	cmp_num_init(&n);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++)
			if (v[s][i]) {
				n.v[s][i][0] = (double)v[s][i]->wakeups;
				n.v[s][i][1] = (double)v[s][i]->migrations;
			}
	cmp_row_num(o, "wakeups / migrations", "%.0f / %.0f", 2, &n, 0);
}

static void latency_compare_json(const struct report *r, struct json_writer *w)
{
	int g = latency_cmd_cg(r);
	const struct lat_cg_val *v;

	json_key(w, "bpf");
	if (g < 0) {
		json_null(w);
		return;
	}
	v = &r->latency.lat.cg[g].v;
	json_obj_begin(w);
	json_kv_str(w, "cgroup", r->latency.cgpath[g].path);
	json_kv_u64(w, "wakeups", v->wakeups);
	json_kv_u64(w, "migrations", v->migrations);
	json_kv_u64(w, "samples", v->samples);
	json_key(w, "latency_us");
	json_obj_begin(w);
	for (int k = 0; k < LAT_NPCT; k++) {
		struct lat_estimate e;

		lat_log2_percentile(v, lat_pct_q[k], &e);
		if (e.valid)
			json_kv_double(w, lat_pct_key[k], e.value_ns / 1000.0);
		else
			json_kv_null(w, lat_pct_key[k]);
	}
	json_kv_double(w, "max", v->max_ns / 1000.0);
	json_obj_end(w);
	json_obj_end(w);
}

const struct report_section report_latency_section = {
	.name = "bpf",
	.text = latency_text,
	.json = latency_json,
	.prom = latency_prom,
	.load = latency_load,
	.compare = latency_compare,
	.compare_json = latency_compare_json,
};
