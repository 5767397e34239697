// SPDX-License-Identifier: GPL-2.0
/*
 * `status`: is the module loaded, on which kernel, which hooks and
 * features are active, and the counters at a glance (walks, mean
 * divergence, lb verdict totals).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sources/knobs.h"

/* The kernel's switches (cgroup_mode, llc_balancing): read by the CLI, not the module */
static void status_knobs(struct knobs *k)
{
	char dir[4096];

	knobs_read(knobs_dir_of(cli.debugfs, dir, sizeof(dir)), k);
}

static const char *knob_shown(const struct knobs *k, const char *name)
{
	const struct knob *x = knobs_find(k, name);

	return !x ? "-" : x->state == KNOB_UNREADABLE ? "unknown" : x->value;
}

struct status_sum {
	int ncpus, online;
	uint64_t published, discarded, over_budget, samples;
	int ndiv;			/* CPUs with div_mean available */
	double div_mean, shadow_mean, real_mean;	/* averages over those CPUs */
	int lb_available;
	const char *lb_reason;
	struct lb_totals lb;
};

/* Verdict totals: the `all` rows when present, else the sum over domains. */
void lb_sum_actual(const struct dbgfs_table *lb, struct lb_totals *s)
{
	int dc = dbgfs_col(lb, "domain"), ic = dbgfs_col(lb, "idle"),
	    tc = dbgfs_col(lb, "tracker");
	int have_all = 0;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (dc < 0 || ic < 0 || tc < 0)
		return;
	for (int r = 0; r < lb->nrows; r++)
		if (!strcmp(dbgfs_cell(lb, r, dc), "all"))
			have_all = 1;
	for (int r = 0; r < lb->nrows; r++) {
		const char *dom = dbgfs_cell(lb, r, dc), *idle = dbgfs_cell(lb, r, ic);

		if (strcmp(dbgfs_cell(lb, r, tc), "actual"))
			continue;
		if (have_all != !strcmp(dom, "all"))
			continue;
		if (!strcmp(idle, "busy")) {
			if (dbgfs_u64_by(lb, r, "calls", &v) == 0)
				s->busy_calls += v;
			continue;
		}
		if (strcmp(idle, "idle") && strcmp(idle, "newidle"))
			continue;
		if (dbgfs_u64_by(lb, r, "calls", &v) == 0) s->calls += v;
		if (dbgfs_u64_by(lb, r, "right", &v) == 0) s->right += v;
		if (dbgfs_u64_by(lb, r, "wrong", &v) == 0) s->wrong += v;
		if (dbgfs_u64_by(lb, r, "missed", &v) == 0) s->missed += v;
		if (dbgfs_u64_by(lb, r, "void", &v) == 0) s->void_ += v;
		if (dbgfs_u64_by(lb, r, "none", &v) == 0) s->none += v;
	}
}

static void sum_cpus(const struct dbgfs_table *cpus, struct status_sum *s)
{
	uint64_t v, dm, sm, rm;
	int oc = dbgfs_col(cpus, "online");

	s->ncpus = cpus->nrows;
	dbgfs_sum_u64(cpus, "published", &s->published);
	dbgfs_sum_u64(cpus, "discarded", &s->discarded);
	dbgfs_sum_u64(cpus, "over_budget", &s->over_budget);
	dbgfs_sum_u64(cpus, "samples", &s->samples);
	for (int r = 0; r < cpus->nrows; r++) {
		if (dbgfs_u64(cpus, r, oc, &v) == 0 && v)
			s->online++;
		if (dbgfs_u64_by(cpus, r, "div_mean", &dm) == 0 &&
		    dbgfs_u64_by(cpus, r, "shadow_mean", &sm) == 0 &&
		    dbgfs_u64_by(cpus, r, "real_mean", &rm) == 0) {
			s->ndiv++;
			s->div_mean += dm;
			s->shadow_mean += sm;
			s->real_mean += rm;
		}
	}
	if (s->ndiv) {
		s->div_mean /= s->ndiv;
		s->shadow_mean /= s->ndiv;
		s->real_mean /= s->ndiv;
	}
}

const struct cli_spec status_spec = {
	.name = "status",
	.summary = "module state, features and counters at a glance",
	.help = "Whether the module is loaded, the kernel and BTF it was built for, its hooks\n"
		"and features, and the headline counters.  Exit status 2 when the module is\n"
		"not loaded or debugfs is not available; -j and --prom still print a document\n"
		"saying so.",
	.flags = CLI_SPEC_DEBUGFS | CLI_SPEC_JSON | CLI_SPEC_PROM,
};

static void print_kv_group(const struct dbgfs_table *info, const char *label, const char *pfx)
{
	int kc = dbgfs_col(info, "key"), vc = dbgfs_col(info, "value"), n = 0;

	printf("%-12s", label);
	for (int r = 0; r < info->nrows; r++) {
		const char *k = dbgfs_cell(info, r, kc);

		if (strncmp(k, pfx, strlen(pfx)))
			continue;
		printf("%s%s %s", n++ ? ", " : "", k + strlen(pfx), dbgfs_cell(info, r, vc));
	}
	printf("%s\n", n ? "" : "(none reported)");
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * a / b : 0;
}

static void status_text(const struct dbgfs_table *info, const struct dbgfs_table *cpus,
			const struct status_sum *s)
{
	const char *en = dbgfs_info_get(info, "enabled");
	const char *v;

	printf("sched_shadow %s: loaded, %s (%s)\n",
	       (v = dbgfs_info_get(info, "version")) ? v : "?",
	       en && !strcmp(en, "1") ? "enabled" : en ? "disabled (enable=0)" : "enable state unknown",
	       cli.debugfs);
	printf("%-12s%s", "kernel:", (v = dbgfs_info_get(info, "kernel")) ? v : "?");
	if ((v = dbgfs_info_get(info, "btf_release")))
		printf(" (module BTF %s)", v);
	if ((v = dbgfs_info_get(info, "checks")))
		printf(", load checks %s", v);
	printf("\n");
	{
		struct knobs k;

		status_knobs(&k);
		printf("%-12scgroup_mode %s, llc_balancing %s\n", "switches:",
		       knob_shown(&k, "cgroup_mode"), knob_shown(&k, "llc_balancing"));
	}
	print_kv_group(info, "hooks:", "hook.");
	print_kv_group(info, "features:", "feature.");
	if (!cpus) {
		printf("%-12s%s\n", "cpus:", "cpus file unreadable");
	} else {
		printf("%-12s%d possible, %d online\n", "cpus:", s->ncpus, s->online);
		printf("%-12spublished %llu, discarded %llu (%.2f%%), over budget %llu (since reset)\n",
		       "walks:", (unsigned long long)s->published,
		       (unsigned long long)s->discarded,
		       pct(s->discarded, s->published + s->discarded),
		       (unsigned long long)s->over_budget);
		if (s->ndiv)
			printf("%-12smean |shadow - load_avg| %.1f load units over %d CPUs "
			       "(means: real %.1f, shadow %.1f)\n", "divergence:",
			       s->div_mean, s->ndiv, s->real_mean, s->shadow_mean);
		else
			printf("%-12snot available yet (no published walk)\n", "divergence:");
	}
	if (s->lb_available)
		printf("%-12sjudged %llu: right %llu (%.1f%%), wrong %llu (%.1f%%), missed %llu, "
		       "none %llu, void %llu; busy calls %llu\n", "lb audit:",
		       (unsigned long long)s->lb.calls, (unsigned long long)s->lb.right,
		       pct(s->lb.right, s->lb.calls), (unsigned long long)s->lb.wrong,
		       pct(s->lb.wrong, s->lb.calls), (unsigned long long)s->lb.missed,
		       (unsigned long long)s->lb.none, (unsigned long long)s->lb.void_,
		       (unsigned long long)s->lb.busy_calls);
	else
		printf("lb audit:   not available (%s)\n", s->lb_reason);
}

static void status_json(const struct dbgfs_table *info, const struct dbgfs_table *cpus,
			const struct dbgfs_table *lb, const struct status_sum *s)
{
	struct json_writer w;
	const char *en = dbgfs_info_get(info, "enabled");
	int kc = dbgfs_col(info, "key"), vc = dbgfs_col(info, "value");

	json_init(&w, stdout, cli.pretty);
	emit_json_header(&w, "status");
	json_kv_bool(&w, "module_loaded", true);
	json_kv_str(&w, "version", dbgfs_info_get(info, "version"));
	json_kv_str(&w, "kernel", dbgfs_info_get(info, "kernel"));
	{
		struct knobs k;

		status_knobs(&k);
		json_key(&w, "knobs");
		json_obj_begin(&w);
		for (int i = 0; i < 2; i++) {
			const char *n = i ? "llc_balancing" : "cgroup_mode";
			const struct knob *x = knobs_find(&k, n);

			if (!x || x->state == KNOB_UNREADABLE)
				json_kv_null(&w, n);
			else
				json_kv_str(&w, n, x->value);
		}
		json_obj_end(&w);
	}
	json_key(&w, "enabled");
	if (en)
		json_bool(&w, !strcmp(en, "1"));
	else
		json_null(&w);
	for (int pass = 0; pass < 2; pass++) {
		const char *pfx = pass ? "feature." : "hook.";

		json_key(&w, pass ? "features" : "hooks");
		json_obj_begin(&w);
		for (int r = 0; r < info->nrows; r++) {
			const char *k = dbgfs_cell(info, r, kc);

			if (!strncmp(k, pfx, strlen(pfx)))
				json_kv_str(&w, k + strlen(pfx), dbgfs_cell(info, r, vc));
		}
		json_obj_end(&w);
	}
	json_key(&w, "info");
	emit_info_json(&w, info);
	json_key(&w, "counters");
	if (cpus) {
		json_obj_begin(&w);
		json_kv_u64(&w, "cpus", s->ncpus);
		json_kv_u64(&w, "cpus_online", s->online);
		json_kv_u64(&w, "published", s->published);
		json_kv_u64(&w, "discarded", s->discarded);
		json_kv_u64(&w, "over_budget", s->over_budget);
		json_kv_u64(&w, "samples", s->samples);
		json_key(&w, "div_mean");
		if (s->ndiv) json_double(&w, s->div_mean); else json_null(&w);
		json_key(&w, "real_mean");
		if (s->ndiv) json_double(&w, s->real_mean); else json_null(&w);
		json_key(&w, "shadow_mean");
		if (s->ndiv) json_double(&w, s->shadow_mean); else json_null(&w);
		json_obj_end(&w);
	} else {
		json_null(&w);
	}
	json_key(&w, "lb");
	json_obj_begin(&w);
	json_kv_bool(&w, "available", s->lb_available);
	json_kv_str(&w, "reason", s->lb_available ? NULL : s->lb_reason);
	if (lb) {
		json_key(&w, "verdicts");
		json_obj_begin(&w);
		json_kv_u64(&w, "calls", s->lb.calls);
		json_kv_u64(&w, "right", s->lb.right);
		json_kv_u64(&w, "wrong", s->lb.wrong);
		json_kv_u64(&w, "missed", s->lb.missed);
		json_kv_u64(&w, "none", s->lb.none);
		json_kv_u64(&w, "void", s->lb.void_);
		json_kv_u64(&w, "busy_calls", s->lb.busy_calls);
		json_obj_end(&w);
	}
	json_obj_end(&w);
	json_obj_end(&w);
	json_end(&w);
}

static void prom_up(struct prom_writer *p, int up)
{
	prom_family(p, PROM_PREFIX "up", "gauge", "1 if the sched_shadow module is loaded and readable");
	prom_sample_u64(p, PROM_PREFIX "up", NULL, 0, up);
}

static void status_prom(const struct dbgfs_table *info, const struct dbgfs_table *cpus,
			const struct dbgfs_table *lb, const struct status_sum *s)
{
	struct prom_writer p;
	struct prom_label l = { "state", s->lb_reason };

	prom_init(&p, stdout);
	prom_up(&p, 1);
	emit_info_prom(&p, info);
	if (cpus)
		emit_cpus_prom(&p, cpus);
	prom_family(&p, PROM_PREFIX "lb_audit_active", "gauge",
		    "1 if the load-balancer audit is active");
	prom_sample_u64(&p, PROM_PREFIX "lb_audit_active", s->lb_available ? NULL : &l,
			s->lb_available ? 0 : 1, s->lb_available);
	if (lb)
		emit_lb_prom(&p, lb);
	prom_end(&p);
}

int cmd_status(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	struct dbgfs_table info, cpus, lb;
	struct dbgfs_error err;
	struct status_sum s;
	int rc, have_cpus, have_lb, i;

	i = cli_options(&status_spec, argc, argv, NULL, NULL, &fmt);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error("status", "unexpected argument '%s'", argv[i]);

	rc = dbgfs_load(cli.debugfs, "info", &info, &err);
	if (rc) {
		int missing = rc == DBGFS_ENOMODULE || rc == DBGFS_ENODEBUGFS || rc == DBGFS_EACCES;

		cli_err("status", "%s", err.msg);
		if (fmt == CLI_FMT_JSON) {
			struct json_writer w;

			/* the error document every command prints, and what status knows */
			json_init(&w, stdout, cli.pretty);
			json_obj_begin(&w);
			json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
			json_kv_str(&w, "command", "status");
			json_kv_str(&w, "error", err.msg);
			json_kv_str(&w, "debugfs", cli.debugfs);
			json_kv_bool(&w, "module_loaded", false);
			json_obj_end(&w);
			json_end(&w);
			cli.err_pending = 0;	/* said in the document */
		} else if (fmt == CLI_FMT_PROM) {
			struct prom_writer p;

			prom_init(&p, stdout);
			prom_up(&p, 0);
			prom_end(&p);
		}
		return missing ? CLI_EXIT_NOMODULE : CLI_EXIT_FAIL;
	}

	memset(&s, 0, sizeof(s));
	have_cpus = dbgfs_load(cli.debugfs, "cpus", &cpus, &err) == 0;
	if (!have_cpus)
		cli_err("status", "%s", err.msg);
	else
		sum_cpus(&cpus, &s);
	rc = dbgfs_load(cli.debugfs, "lb", &lb, &err);
	have_lb = rc == 0;
	s.lb_available = have_lb;
	if (have_lb) {
		lb_sum_actual(&lb, &s.lb);
	} else {
		s.lb_reason = dbgfs_info_get(&info, "feature.lb_audit");
		if (rc != DBGFS_ENOENT) {
			cli_warn("status", "%s", err.msg);
			s.lb_reason = "lb file unreadable";
		} else if (!s.lb_reason) {
			s.lb_reason = "lb file absent";
		}
	}

	if (fmt == CLI_FMT_JSON)
		status_json(&info, have_cpus ? &cpus : NULL, have_lb ? &lb : NULL, &s);
	else if (fmt == CLI_FMT_PROM)
		status_prom(&info, have_cpus ? &cpus : NULL, have_lb ? &lb : NULL, &s);
	else
		status_text(&info, have_cpus ? &cpus : NULL, &s);

	dbgfs_free(&info);
	dbgfs_free(&cpus);
	dbgfs_free(&lb);
	return have_cpus ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
