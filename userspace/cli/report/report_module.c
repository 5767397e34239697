// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "module": whether the module was loaded and reset at
 * the start, and its info file (version, kernel, hooks, features, the
 * headline counters) at the end.  Text shows it in the header (report.c).
 */
#include "cli/cli.h"
#include "cli/report/report.h"

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

static int module_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_module *m = &r->module;
	const struct jv *sec = jv_get(d, "module"), *info;
	const char *why;

	if (jv_bool(jv_get(sec, "loaded"), &m->loaded) || jv_bool(jv_get(sec, "reset"), &m->reset)) {
		snprintf(err, errlen, "module: missing, or no \"loaded\" and \"reset\" members");
		return -1;
	}
	why = jv_str(jv_get(sec, "reason"));
	snprintf(m->why, sizeof(m->why), "%s", why ? why : "");
	info = jv_get(sec, "info");
	if (info && info->type == JV_OBJ) {
		if (report_load_info(info, &m->info, err, errlen))
			return -1;
		m->have_info = 1;
	}
	return 0;
}

static const char *module_info(const struct report *r, const char *key)
{
	return r->module.have_info ? dbgfs_info_get(&r->module.info, key) : NULL;
}

static const char *module_kernel(const struct report *r)
{
	return module_info(r, "kernel");
}

static const char *module_version(const struct report *r)
{
	return module_info(r, "version");
}

static void module_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	char a[256], b[256];
	int k = 0, v = 0;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++) {
			k |= module_kernel(side[s].run[i]) != NULL;
			v |= module_version(side[s].run[i]) != NULL;
		}
	if (k)
		cmp_row(o, "kernel", cmp_side_text(a, sizeof(a), &side[0], module_kernel),
			cmp_side_text(b, sizeof(b), &side[1], module_kernel));
	if (v)
		cmp_row(o, "sched_shadow version", cmp_side_text(a, sizeof(a), &side[0], module_version),
			cmp_side_text(b, sizeof(b), &side[1], module_version));
}

static void module_compare_json(const struct report *r, struct json_writer *w)
{
	json_kv_bool(w, "module_loaded", r->module.loaded);
	json_kv_str(w, "kernel", module_info(r, "kernel"));
	json_kv_str(w, "sched_shadow_version", module_info(r, "version"));
}

const struct report_section report_module_section = {
	.name = "module",
	.collect = module_collect,
	.json = module_json,
	.prom = module_prom,
	.load = module_load,
	.compare = module_compare,
	.compare_json = module_compare_json,
};
