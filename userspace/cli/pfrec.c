// SPDX-License-Identifier: GPL-2.0
/*
 * A recording as a Perfetto trace: the module's tables and lb_verdict
 * records mapped onto tracks (pfrec.h has the layout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pfrec.h"

const char *const pfrec_cpu_cols[PFREC_NCOLS] = {
	"shadow", "load_avg", "shadow_avg", "h_load", "nr_running", "h_nr_running", "movable",
};

/* Columns holding task counts (UNIT_COUNT); the rest are load units. */
static int pfrec_col_is_count(int i)
{
	return i >= 4;
}

int pfrec_open(struct pfrec *r, const char *path, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->lbt.fd = -1;
	return pft_open(&r->w, path, err, errlen);
}

int pfrec_verdicts_start(struct pfrec *r)
{
	if (r->have_lbt)
		return 0;
	if (lbtrace_open(&r->lbt, r->lbt_why, sizeof(r->lbt_why)))
		return -1;
	r->have_lbt = 1;
	return 0;
}

static struct pfrec_cpu *pfrec_cpu(struct pfrec *r, int cpu, const struct dbgfs_table *cpus)
{
	struct pfrec_cpu *c;
	char name[96];

	for (int i = 0; i < r->ncpus; i++) {
		if (r->cpus[i].cpu == cpu) {
			c = &r->cpus[i];
			goto cols;
		}
	}
	c = realloc(r->cpus, (size_t)(r->ncpus + 1) * sizeof(*c));
	if (!c)
		return NULL;
	r->cpus = c;
	c = &r->cpus[r->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	snprintf(name, sizeof(name), "CPU %d", cpu);
	c->track = pft_track(&r->w, 0, name);
cols:
	/* counters come with the first cpus table that has this CPU */
	if (!cpus || c->have_cols)
		return c;
	c->have_cols = 1;
	for (int k = 0; k < PFREC_NCOLS; k++) {
		if (dbgfs_col(cpus, pfrec_cpu_cols[k]) < 0)
			continue;
		snprintf(name, sizeof(name), "cpu%d %s", cpu, pfrec_cpu_cols[k]);
		c->col[k] = pft_counter_track(&r->w, c->track, name, pfrec_col_is_count(k));
	}
	return c;
}

static struct pfrec_group *pfrec_group(struct pfrec *r, struct pfrec_cpu *c, const char *path)
{
	struct pfrec_group *g;
	char name[600], shown[512];

	for (int i = 0; i < r->ngroups; i++)
		if (r->groups[i].cpu == c->cpu && !strcmp(r->groups[i].path, path))
			return &r->groups[i];
	if (r->ngroups == r->groups_cap) {
		int cap = r->groups_cap ? 2 * r->groups_cap : 16;

		g = realloc(r->groups, (size_t)cap * sizeof(*g));
		if (!g)
			return NULL;
		r->groups = g;
		r->groups_cap = cap;
	}
	g = &r->groups[r->ngroups];
	memset(g, 0, sizeof(*g));
	g->path = strdup(path);
	if (!g->path)
		return NULL;
	r->ngroups++;
	g->cpu = c->cpu;
	dbgfs_unescape(path, shown, sizeof(shown));
	snprintf(name, sizeof(name), "cpu%d %s shadow", c->cpu, shown);
	g->shadow = pft_counter_track(&r->w, c->track, name, 0);
	snprintf(name, sizeof(name), "cpu%d %s load_avg", c->cpu, shown);
	g->load_avg = pft_counter_track(&r->w, c->track, name, 0);
	return g;
}

static void pfrec_groups(struct pfrec *r, uint64_t ts, const struct dbgfs_table *groups)
{
	int ccpu, cpath, csh, cla;

	for (int i = 0; i < r->ngroups; i++)
		r->groups[i].present = -r->groups[i].present;	/* 1 -> -1: not seen yet */
	ccpu = groups ? dbgfs_col(groups, "cpu") : -1;
	cpath = groups ? dbgfs_col(groups, "path") : -1;
	csh = groups ? dbgfs_col(groups, "shadow") : -1;
	cla = groups ? dbgfs_col(groups, "load_avg") : -1;
	for (int row = 0; ccpu >= 0 && cpath >= 0 && row < groups->nrows; row++) {
		struct pfrec_cpu *c;
		struct pfrec_group *g;
		int64_t cpu;
		uint64_t v;

		if (dbgfs_s64(groups, row, ccpu, &cpu) || cpu < 0)
			continue;
		c = pfrec_cpu(r, (int)cpu, NULL);
		g = c ? pfrec_group(r, c, dbgfs_cell(groups, row, cpath)) : NULL;
		if (!g)
			continue;
		if (g->present == 1)	/* the same path twice on a CPU: keep the first */
			continue;
		g->present = 1;
		if (csh >= 0 && dbgfs_u64(groups, row, csh, &v) == 0)
			pft_counter(&r->w, g->shadow, ts, (int64_t)v);
		if (cla >= 0 && dbgfs_u64(groups, row, cla, &v) == 0)
			pft_counter(&r->w, g->load_avg, ts, (int64_t)v);
	}
	/* queued at the previous sample, not now: nothing runnable there */
	for (int i = 0; i < r->ngroups; i++) {
		struct pfrec_group *g = &r->groups[i];

		if (g->present == -1) {
			pft_counter(&r->w, g->shadow, ts, 0);
			pft_counter(&r->w, g->load_avg, ts, 0);
			g->present = 0;
		}
	}
}

void pfrec_sample(struct pfrec *r, uint64_t ts_ns, const struct dbgfs_table *cpus,
		  const struct dbgfs_table *groups)
{
	int ccpu = dbgfs_col(cpus, "cpu"), idx[PFREC_NCOLS];

	for (int k = 0; k < PFREC_NCOLS; k++)
		idx[k] = dbgfs_col(cpus, pfrec_cpu_cols[k]);
	for (int row = 0; ccpu >= 0 && row < cpus->nrows; row++) {
		struct pfrec_cpu *c;
		int64_t cpu;
		uint64_t v;

		if (dbgfs_s64(cpus, row, ccpu, &cpu) || cpu < 0)
			continue;
		c = pfrec_cpu(r, (int)cpu, cpus);
		if (!c)
			continue;
		for (int k = 0; k < PFREC_NCOLS; k++) {
			if (!c->col[k] || idx[k] < 0)
				continue;
			if (dbgfs_u64(cpus, row, idx[k], &v) == 0)
				pft_counter(&r->w, c->col[k], ts_ns, (int64_t)v);
		}
	}
	pfrec_groups(r, ts_ns, groups);
	r->samples++;
}

void pfrec_wasted(struct pfrec *r, uint64_t ts_ns, const struct dbgfs_table *wasted)
{
	int ccpu = dbgfs_col(wasted, "cpu"), cw = dbgfs_col(wasted, "wasted_ms");

	for (int row = 0; ccpu >= 0 && cw >= 0 && row < wasted->nrows; row++) {
		struct pfrec_cpu *c;
		char name[64];
		int64_t cpu;
		double ms;
		int grew;

		if (dbgfs_s64(wasted, row, ccpu, &cpu) || cpu < 0)
			continue;
		c = pfrec_cpu(r, (int)cpu, NULL);
		if (!c)
			continue;
		ms = strtod(dbgfs_cell(wasted, row, cw), NULL);
		if (!c->wasted) {
			snprintf(name, sizeof(name), "cpu%d wasted_ms", (int)cpu);
			c->wasted = pft_counter_track(&r->w, c->track, name, 0);
		}
		pft_counter(&r->w, c->wasted, ts_ns, (int64_t)(ms + 0.5));
		/* wasted during at least half of the interval since the last sample */
		grew = c->wasted_ts && ts_ns > c->wasted_ts && ms >= c->wasted_ms &&
		       (ms - c->wasted_ms) * 2e6 >= (double)(ts_ns - c->wasted_ts);
		if (grew && !c->in_wasted) {
			pft_slice_begin(&r->w, c->track, c->wasted_ts, "wasted", NULL, 0);
			c->in_wasted = 1;
		} else if (!grew && c->in_wasted) {
			pft_slice_end(&r->w, c->track, c->wasted_ts, NULL, 0);
			c->in_wasted = 0;
		}
		c->wasted_ms = ms;
		c->wasted_ts = ts_ns;
	}
}

void pfrec_verdict(struct pfrec *r, const struct lbv_event *e)
{
	struct pft_arg args[LBV_MAX_FIELDS];
	const char *verdict = lbv_get(e, "verdict"), *reason = lbv_get(e, "reason");
	struct pfrec_cpu *c = pfrec_cpu(r, e->dst_cpu, NULL);
	char name[LBV_VAL_LEN * 2 + 8];
	int n = 0;

	if (!c)
		return;
	/* "lb wrong", or "lb wrong (reason)" when the event carries one */
	if (reason && *reason && strcmp(reason, "-"))
		snprintf(name, sizeof(name), "lb %s (%s)", verdict ? verdict : "?", reason);
	else
		snprintf(name, sizeof(name), "lb %s", verdict ? verdict : "?");
	for (int i = 0; i < e->nfields; i++) {
		const char *v = e->val[i];
		char *end;
		long long x;

		args[n].name = e->key[i];
		x = strtoll(v, &end, 10);
		if (*v && !*end && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))) {
			args[n].kind = PFT_ARG_INT;
			args[n].i = x;
		} else {
			args[n].kind = PFT_ARG_STR;
			args[n].s = v;
		}
		n++;
	}
	pft_instant(&r->w, c->track, e->ts_ns, name, args, (size_t)n);
	r->verdicts++;
}

static void pfrec_verdict_cb(void *ctx, const struct lbv_event *e)
{
	pfrec_verdict(ctx, e);
}

void pfrec_drain(struct pfrec *r)
{
	if (r->have_lbt)
		lbtrace_drain(&r->lbt, pfrec_verdict_cb, r);
}

int pfrec_sample_debugfs(struct pfrec *r, const char *root, uint64_t ts_ns,
			 struct dbgfs_error *err)
{
	struct dbgfs_table cpus, groups;
	int rc, have_groups;

	rc = dbgfs_load(root, "cpus", &cpus, err);
	if (rc)
		return rc;
	have_groups = dbgfs_load(root, "groups", &groups, NULL) == 0;
	pfrec_sample(r, ts_ns, &cpus, have_groups ? &groups : NULL);
	dbgfs_free(&cpus);
	if (have_groups)
		dbgfs_free(&groups);
	if (dbgfs_load(root, "wasted", &groups, NULL) == 0) {
		pfrec_wasted(r, ts_ns, &groups);
		dbgfs_free(&groups);
	}
	pfrec_drain(r);
	return 0;
}

uint64_t pfrec_track(struct pfrec *r, const char *name)
{
	return pft_track(&r->w, 0, name);
}

static void pfrec_free(struct pfrec *r)
{
	if (r->have_lbt)
		lbtrace_close(&r->lbt);
	r->have_lbt = 0;
	for (int i = 0; i < r->ngroups; i++)
		free(r->groups[i].path);
	free(r->groups);
	free(r->cpus);
	r->groups = NULL;
	r->cpus = NULL;
	r->ngroups = r->ncpus = r->groups_cap = 0;
}

int pfrec_finish(struct pfrec *r, char *err, size_t errlen)
{
	uint64_t lost;

	if (r->have_lbt) {
		pfrec_drain(r);
		lost = lbtrace_overrun(&r->lbt);
		if (lost)
			fprintf(stderr, "sched-shadow: %llu lb_verdict records were overwritten "
				"before they were read (not in the trace)\n", (unsigned long long)lost);
	}
	for (int i = 0; i < r->ncpus; i++)	/* a wasted slice still open ends at the last sample */
		if (r->cpus[i].in_wasted)
			pft_slice_end(&r->w, r->cpus[i].track, r->cpus[i].wasted_ts, NULL, 0);
	pfrec_free(r);
	return pft_commit(&r->w, err, errlen);
}

void pfrec_abort(struct pfrec *r)
{
	pfrec_free(r);
	pft_abort(&r->w);
}
