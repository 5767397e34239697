// SPDX-License-Identifier: GPL-2.0
/*
 * The report model's sections and what they share (see report.h): the
 * run's own fields (command, exit status, wall time, cgroup) and the
 * dispatch to each section's collector and renderers.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

/* Output order of the sections (text, JSON members, Prometheus families). */
static const struct report_section *const report_sections[] = {
	&report_module_section,
	&report_knobs_section,
	&report_result_section,
	&report_lb_section,
	&report_wasted_section,
	&report_cpus_section,
	&report_latency_section,
	&report_schedstat_section,
};
#define REPORT_NSECTIONS (sizeof(report_sections) / sizeof(report_sections[0]))

const struct report_section *const *report_sections_get(size_t *n)
{
	*n = REPORT_NSECTIONS;
	return report_sections;
}

void report_collect_module(struct report *r, const char *debugfs)
{
	for (size_t i = 0; i < REPORT_NSECTIONS; i++)
		if (report_sections[i]->collect)
			report_sections[i]->collect(r, debugfs);
}

void report_json_available(struct json_writer *w, int ok, const char *why)
{
	json_kv_bool(w, "available", ok);
	json_kv_str(w, "reason", ok ? NULL : why);
}

const char *report_cg_name(const struct report *r, int i, char *buf, size_t len)
{
	if (r->latency.cgpath && r->latency.cgpath[i].path[0])
		return r->latency.cgpath[i].path;
	snprintf(buf, len, "cgid:%llu", (unsigned long long)r->latency.lat.cg[i].cgid);
	return buf;
}

/* ------------------------------------------------------------ text */

static void report_text_header(const struct report *r, FILE *f)
{
	const struct report_module *m = &r->module;
	const struct report_latency *l = &r->latency;
	int i;

	fprintf(f, "sched-shadow run report%s%s", r->label ? ": " : "", r->label ? r->label : "");
	if (r->repeats)
		fprintf(f, " (run %d of %d)", r->repeat, r->repeats);
	fprintf(f, "\ncommand:");
	for (i = 0; r->cmd[i]; i++)
		fprintf(f, " %s", r->cmd[i]);
	fprintf(f, "\nexit status %d, wall time %.2f s\n", r->exit_status, r->wall_s);
	if (r->note)
		fprintf(f, "note: %s\n", r->note);
	if (r->cg_used)
		fprintf(f, "cgroup: %s (id %llu)%s\n", r->cg.rel, (unsigned long long)r->cg.cgid,
			r->cg_created ? (r->cg_removed ? ", created and removed" :
					 ", created, NOT removed") : "");
	if (r->cg_used && !r->cg.cpu_ok)
		fprintf(f, "cgroup: NO cpu controller (--allow-no-cpu-controller): not a nested run for "
			"the scheduler: %s\n", r->cg.note[0] ? r->cg.note : "reason not recorded");
	else if (r->cg_used && r->cg.note[0])
		fprintf(f, "cgroup note: %s\n", r->cg.note);
	if (m->loaded)
		fprintf(f, "module: loaded%s%s\n", m->reset ? ", counters reset at start" : "; ",
			m->reset ? "" : m->why);
	else
		fprintf(f, "module: not used (%s): the report uses BPF and /proc/schedstat only\n",
			m->why);
	if (!l->requested)
		fprintf(f, "bpf: disabled (--no-bpf)\n");
	else if (l->ok)
		fprintf(f, "bpf: wakeup latency collected\n");
	else
		fprintf(f, "bpf: not available: %s\n", l->why);
}

void report_print_text(const struct report *r, FILE *f)
{
	report_text_header(r, f);
	for (size_t i = 0; i < REPORT_NSECTIONS; i++)
		if (report_sections[i]->text)
			report_sections[i]->text(r, f);
}

/* ------------------------------------------------------------ JSON */

void report_print_json(const struct report *r, FILE *f)
{
	struct json_writer w;
	int i;

	json_init(&w, f, cli.pretty);
	json_obj_begin(&w);
	json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
	json_kv_str(&w, "command", "run");
	json_kv_str(&w, "debugfs", r->debugfs);
	json_kv_s64(&w, "run_report_version", 1);
	json_kv_str(&w, "label", r->label);
	json_kv_str(&w, "note", r->note);
	json_key(&w, "cmd");
	json_arr_begin(&w);
	for (i = 0; r->cmd[i]; i++)
		json_str(&w, r->cmd[i]);
	json_arr_end(&w);
	if (r->repeats) {	/* run --repeat N: which run of the N */
		json_key(&w, "repeat");
		json_obj_begin(&w);
		json_kv_s64(&w, "index", r->repeat);
		json_kv_s64(&w, "of", r->repeats);
		json_obj_end(&w);
	}
	json_kv_s64(&w, "exit_status", r->exit_status);
	json_kv_double(&w, "wall_s", r->wall_s);

	json_key(&w, "cgroup");
	if (r->cg_used) {
		json_obj_begin(&w);
		json_kv_str(&w, "path", r->cg.rel);
		json_kv_u64(&w, "id", r->cg.cgid);
		json_kv_bool(&w, "created", r->cg_created);
		json_kv_bool(&w, "removed", r->cg_removed);
		if (!r->cg_cpu_inferred)	/* a report from before the member: written back without */
			json_kv_bool(&w, "cpu_controller", r->cg.cpu_ok);
		json_kv_str(&w, "note", r->cg.note[0] ? r->cg.note : NULL);
		json_obj_end(&w);
	} else {
		json_null(&w);
	}
	for (size_t k = 0; k < REPORT_NSECTIONS; k++)
		if (report_sections[k]->json)
			report_sections[k]->json(r, &w);
	json_obj_end(&w);
	json_end(&w);
}

/* ------------------------------------------------------------ Prometheus */

void report_print_prom(const struct report *r, FILE *f)
{
	struct prom_writer p;
	struct prom_label l[1];

	prom_init(&p, f);
	prom_family(&p, PROM_PREFIX "run_exit_status", "gauge", "exit status of the command run");
	prom_sample(&p, PROM_PREFIX "run_exit_status", NULL, 0, r->exit_status);
	prom_family(&p, PROM_PREFIX "run_wall_seconds", "gauge", "wall time of the command run");
	prom_sample(&p, PROM_PREFIX "run_wall_seconds", NULL, 0, r->wall_s);
	prom_family(&p, PROM_PREFIX "run_source_available", "gauge",
		    "1 when the report source (module, bpf, schedstat) was available");
	l[0].name = "source";
	l[0].value = "module";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1, r->module.loaded);
	l[0].value = "bpf";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1,
		    r->latency.requested && r->latency.ok);
	l[0].value = "schedstat";
	prom_sample(&p, PROM_PREFIX "run_source_available", l, 1, r->schedstat.ok);
	for (size_t i = 0; i < REPORT_NSECTIONS; i++)
		if (report_sections[i]->prom)
			report_sections[i]->prom(r, &p);
	prom_end(&p);
}

void report_free(struct report *r)
{
	schedstat_delta_free(&r->schedstat.d);
	lat_snapshot_free(&r->latency.lat);
	free(r->latency.cgpath);
	r->latency.cgpath = NULL;
	if (r->module.have_info)
		dbgfs_free(&r->module.info);
	if (r->cpus.have)
		dbgfs_free(&r->cpus.t);
	if (r->lb.have_lb)
		dbgfs_free(&r->lb.lb);
	if (r->lb.have_att)
		dbgfs_free(&r->lb.att);
	if (r->wasted.have)
		dbgfs_free(&r->wasted.cpus);
	if (r->wasted.have_attrib)
		dbgfs_free(&r->wasted.attrib);
	if (r->wasted.have_cgroups)
		dbgfs_free(&r->wasted.cgroups);
	r->wasted.have = r->wasted.have_attrib = r->wasted.have_cgroups = 0;
	r->module.have_info = r->cpus.have = r->lb.have_lb = r->lb.have_att = 0;
	if (r->result.doc_owned)
		jv_free(r->result.doc);
	r->result.doc = NULL;
	if (r->doc) {
		/* read back: cmd is an array of pointers into doc */
		free(r->cmd);
		r->cmd = NULL;
		jv_free(r->doc);
		r->doc = NULL;
	}
}
