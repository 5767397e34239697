// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "module": whether the module was loaded and reset at
 * the start, and its info file (version, kernel, hooks, features, the
 * headline counters) at the end.  Text shows it in the header (report.c).
 */
#include "cli/cli.h"
#include "cli/report.h"

static void module_collect(struct report *r, const char *debugfs)
{
	struct dbgfs_error err;

	if (r->module.loaded)
		r->module.have_info = !dbgfs_load(debugfs, "info", &r->module.info, &err);
}

static void module_json(const struct report *r, struct json_writer *w)
{
	const struct report_module *m = &r->module;

	json_key(w, "module");
	json_obj_begin(w);
	json_kv_bool(w, "loaded", m->loaded);
	json_kv_bool(w, "reset", m->reset);
	json_kv_str(w, "reason", m->why[0] ? m->why : NULL);
	json_key(w, "info");
	if (m->have_info)
		emit_info_json(w, &m->info);
	else
		json_null(w);
	json_obj_end(w);
}

static void module_prom(const struct report *r, struct prom_writer *p)
{
	if (r->module.have_info)
		emit_info_prom(p, &r->module.info);
}

const struct report_section report_module_section = {
	.name = "module",
	.collect = module_collect,
	.json = module_json,
	.prom = module_prom,
};
