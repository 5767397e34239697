// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "bpf": wakeup latency, wakeups and migrations per
 * cgroup during the run, from the BPF collector (latency.c), with the
 * cgroups named by path where the id still resolves.
 */
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/table.h"

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

const struct report_section report_latency_section = {
	.name = "bpf",
	.text = latency_text,
	.json = latency_json,
	.prom = latency_prom,
};
