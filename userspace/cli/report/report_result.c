// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "result": what CMD itself wrote, a JSON document read
 * after CMD exits and kept as it was: the file of run --result FILE, or
 * the one run offers CMD in $SCHED_SHADOW_RESULT (bench writes there).  The report
 * embeds it; when it is `sched-shadow bench --json` output, the text
 * report and compare also show the bench's own latency percentiles and
 * request rate.
 */
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

void report_result_collect(struct report *r, const char *path)
{
	struct report_result *s = &r->result;

	if (!s->file || !path)
		return;
	s->doc = jv_parse_file(path, s->why, sizeof(s->why));
	s->doc_owned = 1;
	s->ok = s->doc != NULL;
}

/* The document when it is the output of `sched-shadow bench --json`. */
static const struct jv *result_bench(const struct report *r)
{
	const struct jv *d = r->result.ok ? r->result.doc : NULL;
	const char *schema = jv_str(jv_get(d, "schema")), *cmd = jv_str(jv_get(d, "command"));

	if (!schema || !cmd || strcmp(schema, CLI_JSON_SCHEMA) || strcmp(cmd, "bench"))
		return NULL;
	return d;
}

static const char *const result_pct_key[] = { "p50", "p90", "p99", "p99_9", "max" };
static const char *const result_pct_name[] = { "p50", "p90", "p99", "p99.9", "max" };
#define RESULT_NPCT 5

/* "2 message threads x 6 workers, burn 2000 us, sleep 10000 us, 10 s" */
static int result_bench_params(const struct jv *b, char *buf, size_t len)
{
	const struct jv *p = jv_get(b, "params");
	int64_t m, t, burn, sleep;
	double dur;

	if (jv_s64(jv_get(p, "message_threads"), &m) || jv_s64(jv_get(p, "workers"), &t) ||
	    jv_s64(jv_get(p, "burn_us"), &burn) || jv_s64(jv_get(p, "sleep_us"), &sleep) ||
	    jv_double(jv_get(p, "duration_s"), &dur))
		return -1;
	snprintf(buf, len, "%lld message threads x %lld workers, burn %lld us, sleep %lld us, %g s",
		 (long long)m, (long long)t, (long long)burn, (long long)sleep, dur);
	return 0;
}

static void result_text(const struct report *r, FILE *f)
{
	const struct report_result *s = &r->result;
	const struct jv *b = result_bench(r);
	char params[200];
	uint64_t v;
	double rps;

	if (!s->file)
		return;
	fprintf(f, "\n== the command's own result (%s) ==\n", s->file);
	if (!s->ok) {
		fprintf(f, "not available: %s\n", s->why);
		return;
	}
	if (!b) {
		fprintf(f, "a JSON document (in --json)\n");
		return;
	}
	if (!result_bench_params(b, params, sizeof(params)))
		fprintf(f, "sched-shadow bench: %s\n", params);
	fprintf(f, "wakeup latency (us; exact below 1 ms, within 0.8%% above):");
	for (int k = 0; k < RESULT_NPCT; k++)
		if (!jv_u64(jv_path(b, "latency_us", result_pct_key[k], NULL), &v))
			fprintf(f, " %s %llu", result_pct_name[k], (unsigned long long)v);
	fputc('\n', f);
	if (!jv_double(jv_get(b, "rps"), &rps) && !jv_u64(jv_get(b, "requests"), &v))
		fprintf(f, "requests/s %.0f (%llu requests)\n", rps, (unsigned long long)v);
}

static void result_json(const struct report *r, struct json_writer *w)
{
	const struct report_result *s = &r->result;

	json_key(w, "result");
	if (!s->file) {
		json_null(w);
		return;
	}
	json_obj_begin(w);
	json_kv_str(w, "file", s->file);
	report_json_available(w, s->ok, s->why);
	json_key(w, "document");
	if (s->ok)
		jv_write(w, s->doc);
	else
		json_null(w);
	json_obj_end(w);
}

static int result_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_result *s = &r->result;
	const struct jv *sec = jv_get(d, "result");

	if (!sec || sec->type == JV_NULL)
		return 0;
	s->file = jv_str(jv_get(sec, "file"));
	if (!s->file || report_load_available(sec, "result", &s->ok, s->why, sizeof(s->why),
					      err, errlen)) {
		snprintf(err, errlen, "result: needs file and available");
		return -1;
	}
	s->doc = (struct jv *)jv_get(sec, "document");
	s->doc_owned = 0;
	if (s->ok && !s->doc) {
		snprintf(err, errlen, "result: available but no document");
		return -1;
	}
	return 0;
}

static void result_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	const struct jv *b[2][CMP_MAX_RUNS];
	char p[2][200], first[2][200];
	struct cmp_num v;
	int any = 0, same = 1, hp[2] = { 0, 0 }, s, i, k;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			b[s][i] = result_bench(side[s].run[i]);
			any |= b[s][i] != NULL;
			if (!b[s][i] || result_bench_params(b[s][i], p[s], sizeof(p[s])))
				continue;
			if (!hp[s])
				snprintf(first[s], sizeof(first[s]), "%s", p[s]);
			same &= !strcmp(first[s], p[s]);
			hp[s] = 1;
		}
	if (!any)
		return;
	if (hp[0] && hp[1] && same && !strcmp(first[0], first[1]))
		cmp_line(o, "bench: %s", first[0]);
	else
		for (s = 0; s < 2; s++)
			if (hp[s])
				cmp_line(o, "bench (%s): %s%s", side[s].name, first[s],
					 same ? "" : " (its runs' parameters differ)");
	cmp_title(o, "wakeup latency, bench's own (us; exact < 1 ms, else within 0.8%%)");
	for (k = 0; k < RESULT_NPCT; k++) {
		cmp_num_init(&v);
		for (s = 0; s < 2; s++)
			for (i = 0; i < side[s].n; i++) {
				uint64_t x;

				if (b[s][i] && !jv_u64(jv_path(b[s][i], "latency_us", result_pct_key[k], NULL), &x))
					v.v[s][i][0] = (double)x;
			}
		cmp_row_num(o, result_pct_name[k], "%.0f", 1, &v, CMP_CALL);
	}
	cmp_num_init(&v);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			double rps;

			if (b[s][i] && !jv_double(jv_get(b[s][i], "rps"), &rps))
				v.v[s][i][0] = rps;
		}
	cmp_row_num(o, "requests/s", "%.0f", 1, &v, CMP_CALL);
	cmp_num_init(&v);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++) {
			uint64_t rq, sk;

			if (b[s][i] && !jv_u64(jv_get(b[s][i], "requests"), &rq) &&
			    !jv_u64(jv_get(b[s][i], "skipped"), &sk)) {
				v.v[s][i][0] = (double)rq;
				v.v[s][i][1] = (double)sk;
			}
		}
	cmp_row_num(o, "requests (skipped: worker busy)", "%.0f (%.0f)", 2, &v, 0);
}

static void result_compare_json(const struct report *r, struct json_writer *w)
{
	json_key(w, "result");
	if (r->result.ok)
		jv_write(w, r->result.doc);
	else
		json_null(w);
}

const struct report_section report_result_section = {
	.name = "result",
	.text = result_text,
	.json = result_json,
	.load = result_load,
	.compare = result_compare,
	.compare_json = result_compare_json,
};
