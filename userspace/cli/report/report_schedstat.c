// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "schedstat": the kernel's own load-balance counters
 * (/proc/schedstat) over the run, per domain and idle type: the
 * cross-check of the module's attempts.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"
#include "cli/formats/table.h"

static void schedstat_text(const struct report *r, FILE *f)
{
	static const char *const cols[] = { "domain", "cpus", "idle", "lb_count", "lb_balanced",
		"lb_failed", "lb_imbalance", "lb_gained", "lb_nobusyg", "lb_nobusyq" };
	const struct report_schedstat *s = &r->schedstat;
	char b[10][64];
	struct table tb;
	int i, it;

	fprintf(f, "\n== /proc/schedstat load-balance deltas over the run (cross-check) ==\n");
	if (!s->ok) {
		fprintf(f, "not available: %s\n", s->why);
		return;
	}
	fprintf(f, "schedstat version %d, %llu jiffies%s%s%s\n", s->version,
		(unsigned long long)s->d.jiffies,
		s->enabled_by_run ? "; kernel.sched_schedstats switched on for the run" : "",
		s->d.reshaped ? "; sched domains changed during the run" : "",
		s->d.wrapped ? "; some counters went backwards (shown as 0)" : "");
	if (s->why[0])
		fprintf(f, "note: %s\n", s->why);
	table_init(&tb, 10);
	table_header(&tb, cols);
	for (i = 0; i < s->d.nlevels; i++) {
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *lb = &s->d.lv[i].lb[it];
			const char *cells[10];

			cells[0] = s->d.lv[i].name;
			cells[1] = table_fmt(b[1], sizeof(b[1]), "%d", s->d.lv[i].ncpus);
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
	table_print(&tb, f);
	table_free(&tb);
	/* every task counted in lb_hot_gained was also counted in lb_gained */
	for (i = 0; i < s->d.nlevels; i++)
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *lb = &s->d.lv[i].lb[it];

			if (lb->hot_gained > lb->gained)
				fprintf(f, "inconsistent: %s %s lb_hot_gained %llu above lb_gained %llu: the kernel "
					"counted cache-hot tasks as pulled that it did not move (fixed by a430d99e3490, "
					"v6.14)\n", s->d.lv[i].name, ss_idle_name[it],
					(unsigned long long)lb->hot_gained, (unsigned long long)lb->gained);
		}
}

/*
 * "inconsistent": the rows where lb_hot_gained exceeds lb_gained (a task
 * counted as pulled while cache-hot is a task pulled); the member is
 * there only when some row is, so reports of consistent kernels read
 * back byte for byte.
 */
static void schedstat_json_inconsistent(const struct report_schedstat *s, struct json_writer *w)
{
	int i, it, n = 0;

	for (i = 0; i < s->d.nlevels; i++)
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *lb = &s->d.lv[i].lb[it];

			if (lb->hot_gained <= lb->gained)
				continue;
			if (!n++) {
				json_key(w, "inconsistent");
				json_arr_begin(w);
			}
			json_obj_begin(w);
			json_kv_str(w, "domain", s->d.lv[i].name);
			json_kv_str(w, "idle", ss_idle_name[it]);
			json_kv_str(w, "check", "lb_hot_gained <= lb_gained");
			json_kv_u64(w, "lb_gained", lb->gained);
			json_kv_u64(w, "lb_hot_gained", lb->hot_gained);
			json_obj_end(w);
		}
	if (n)
		json_arr_end(w);
}

static void schedstat_json(const struct report *r, struct json_writer *w)
{
	const struct report_schedstat *s = &r->schedstat;
	int i, it;

	json_key(w, "schedstat");
	json_obj_begin(w);
	report_json_available(w, s->ok, s->why);
	if (s->ok) {
		json_kv_str(w, "note", s->why[0] ? s->why : NULL);
		json_kv_s64(w, "version", s->version);
		json_kv_bool(w, "enabled_by_run", s->enabled_by_run);
		json_kv_u64(w, "jiffies", s->d.jiffies);
		json_kv_bool(w, "reshaped", s->d.reshaped);
		json_kv_bool(w, "wrapped", s->d.wrapped);
		json_key(w, "domains");
		json_arr_begin(w);
		for (i = 0; i < s->d.nlevels; i++) {
			for (it = 0; it < SS_NIDLE; it++) {
				const struct ss_lb *lb = &s->d.lv[i].lb[it];

				json_obj_begin(w);
				json_kv_str(w, "domain", s->d.lv[i].name);
				json_kv_s64(w, "cpus", s->d.lv[i].ncpus);
				json_kv_str(w, "idle", ss_idle_name[it]);
				json_kv_u64(w, "lb_count", lb->count);
				json_kv_u64(w, "lb_balanced", lb->balanced);
				json_kv_u64(w, "lb_failed", lb->failed);
				json_kv_u64(w, "lb_imbalance", lb->imbalance);
				json_kv_u64(w, "lb_gained", lb->gained);
				json_kv_u64(w, "lb_hot_gained", lb->hot_gained);
				json_kv_u64(w, "lb_nobusyg", lb->nobusyg);
				json_kv_u64(w, "lb_nobusyq", lb->nobusyq);
				json_obj_end(w);
			}
		}
		json_arr_end(w);
		schedstat_json_inconsistent(s, w);
	}
	json_obj_end(w);
}

static void schedstat_prom(const struct report *r, struct prom_writer *p)
{
	static const char *const names[] = { "lb_count", "lb_balanced", "lb_failed",
		"lb_imbalance", "lb_gained", "lb_nobusyg", "lb_nobusyq" };
	const struct report_schedstat *s = &r->schedstat;
	struct prom_label l[3];
	int i, it, k;

	if (!s->ok)
		return;
	prom_family(p, PROM_PREFIX "run_schedstat_lb_total", "counter",
		    "/proc/schedstat load-balance counter deltas over the run, per domain and idle type");
	for (i = 0; i < s->d.nlevels; i++) {
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *lb = &s->d.lv[i].lb[it];
			const uint64_t vals[] = { lb->count, lb->balanced, lb->failed,
				lb->imbalance, lb->gained, lb->nobusyg, lb->nobusyq };

			l[0].name = "domain";
			l[0].value = s->d.lv[i].name;
			l[1].name = "idle";
			l[1].value = ss_idle_name[it];
			l[2].name = "counter";
			for (k = 0; k < 7; k++) {
				l[2].value = names[k];
				prom_sample_u64(p, PROM_PREFIX "run_schedstat_lb_total", l, 3, vals[k]);
			}
		}
	}
}

static int schedstat_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_schedstat *s = &r->schedstat;
	const struct jv *sec = jv_get(d, "schedstat"), *doms;
	int64_t ver;
	int i;

	if (report_load_available(sec, "schedstat", &s->ok, s->why, sizeof(s->why), err, errlen))
		return -1;
	if (!s->ok)
		return 0;
	if (jv_str(jv_get(sec, "note")))
		snprintf(s->why, sizeof(s->why), "%s", jv_str(jv_get(sec, "note")));
	doms = jv_get(sec, "domains");
	if (jv_s64(jv_get(sec, "version"), &ver) ||
	    jv_bool(jv_get(sec, "enabled_by_run"), &s->enabled_by_run) ||
	    jv_u64(jv_get(sec, "jiffies"), &s->d.jiffies) ||
	    jv_bool(jv_get(sec, "reshaped"), &s->d.reshaped) ||
	    jv_bool(jv_get(sec, "wrapped"), &s->d.wrapped) || !doms || doms->type != JV_ARR) {
		snprintf(err, errlen, "schedstat: needs version, enabled_by_run, jiffies, reshaped, "
			 "wrapped and domains");
		return -1;
	}
	s->version = (int)ver;
	s->d.lv = calloc(doms->n ? doms->n : 1, sizeof(*s->d.lv));
	if (!s->d.lv) {
		snprintf(err, errlen, "schedstat: out of memory");
		return -1;
	}
	/* rows are per level and idle type, the levels in order */
	for (i = 0; i < doms->n; i++) {
		const struct jv *x = &doms->items[i];
		const char *name = jv_str(jv_get(x, "domain")), *idle = jv_str(jv_get(x, "idle"));
		struct ss_level *lv;
		struct ss_lb *lb;
		int64_t ncpus;
		int it;

		for (it = 0; idle && it < SS_NIDLE && strcmp(idle, ss_idle_name[it]); it++)
			;
		if (!name || !idle || it == SS_NIDLE || jv_s64(jv_get(x, "cpus"), &ncpus))
			goto bad;
		if (!s->d.nlevels || strcmp(s->d.lv[s->d.nlevels - 1].name, name)) {
			lv = &s->d.lv[s->d.nlevels++];
			snprintf(lv->name, sizeof(lv->name), "%s", name);
			lv->ncpus = (int)ncpus;
		}
		lb = &s->d.lv[s->d.nlevels - 1].lb[it];
		if (jv_u64(jv_get(x, "lb_count"), &lb->count) ||
		    jv_u64(jv_get(x, "lb_balanced"), &lb->balanced) ||
		    jv_u64(jv_get(x, "lb_failed"), &lb->failed) ||
		    jv_u64(jv_get(x, "lb_imbalance"), &lb->imbalance) ||
		    jv_u64(jv_get(x, "lb_gained"), &lb->gained) ||
		    jv_u64(jv_get(x, "lb_hot_gained"), &lb->hot_gained) ||
		    jv_u64(jv_get(x, "lb_nobusyg"), &lb->nobusyg) ||
		    jv_u64(jv_get(x, "lb_nobusyq"), &lb->nobusyq))
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "schedstat.domains[%d]: needs domain, cpus, idle and the lb_ counters", i);
	return -1;
}

const struct report_section report_schedstat_section = {
	.name = "schedstat",
	.text = schedstat_text,
	.json = schedstat_json,
	.prom = schedstat_prom,
	.load = schedstat_load,
};
