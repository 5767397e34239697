// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "cpus": shadow vs real load per CPU since the reset
 * (means and the largest divergence), from the module's cpus file.
 */
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/table.h"

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

const struct report_section report_cpus_section = {
	.name = "cpus",
	.collect = cpus_collect,
	.text = cpus_text,
	.json = cpus_json,
	.prom = cpus_prom,
};
