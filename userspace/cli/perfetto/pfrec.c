// SPDX-License-Identifier: GPL-2.0
/*
 * A recording as a Perfetto trace: the module's tables and lb_verdict
 * records mapped onto tracks (pfrec.h has the layout).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/perfetto/pfrec.h"

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
	size_t sl = strlen(path) + 1;
	char *name, *shown;

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
	/* the whole path in the track names (unescaped: never longer than escaped) */
	shown = malloc(sl);
	name = malloc(sl + 64);
	if (!shown || !name) {
		free(shown);
		free(name);
		r->w.err = ENOMEM;
		return g;
	}
	dbgfs_unescape(path, shown, sl);
	snprintf(name, sl + 64, "cpu%d %s shadow", c->cpu, shown);
	g->shadow = pft_counter_track(&r->w, c->track, name, 0);
	snprintf(name, sl + 64, "cpu%d %s load_avg", c->cpu, shown);
	g->load_avg = pft_counter_track(&r->w, c->track, name, 0);
	free(shown);
	free(name);
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

/* Write one verdict record as an instant, every field whole. */
static void pfrec_write_verdict(struct pfrec *r, const struct lbv_event *e)
{
	struct pft_arg args[LBV_MAX_FIELDS + 1];
	const char *verdict = lbv_get(e, "verdict"), *reason = lbv_get(e, "reason");
	struct pfrec_cpu *c = pfrec_cpu(r, e->dst_cpu, NULL);
	char *name = NULL;
	int n = 0;

	if (!c)
		return;
	/* "lb wrong", or "lb wrong (reason)" when the event carries one */
	if (reason && *reason && strcmp(reason, "-")) {
		if (asprintf(&name, "lb %s (%s)", verdict ? verdict : "?", reason) < 0)
			name = NULL;
	} else if (asprintf(&name, "lb %s", verdict ? verdict : "?") < 0) {
		name = NULL;
	}
	for (int i = 0; i < e->nfields; i++) {
		const char *v = e->val[i];
		char *end;
		long long x;

		args[n].name = e->key[i];
		errno = 0;
		x = strtoll(v, &end, 10);
		/* a plain integer (no leading zeros, no sign but '-') is an int, else the text */
		if (*v && !*end && !errno && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) &&
		    !(v[0] == '0' && v[1]) && !(v[0] == '-' && (v[1] == '0' || !v[1]))) {
			args[n].kind = PFT_ARG_INT;
			args[n].i = x;
		} else {
			args[n].kind = PFT_ARG_STR;
			args[n].s = v;
		}
		n++;
	}
	if (e->dropped) {
		/* the record had more than the fields kept: say how many */
		args[n].name = "sched_shadow_fields_dropped";
		args[n].kind = PFT_ARG_INT;
		args[n].i = e->dropped;
		n++;
		r->fields_dropped += (uint64_t)e->dropped;
	}
	if (e->ts_ns < r->last_written_ts)
		r->late++;
	else
		r->last_written_ts = e->ts_ns;
	pft_instant(&r->w, PFT_SEQ_VERDICTS, c->track, e->ts_ns, name ? name : "lb ?", args,
		    (size_t)n);
	free(name);
	r->verdicts++;
}

/* Write the held records with ts <= upto, oldest first. */
static void pfrec_flush_verdicts(struct pfrec *r, uint64_t upto)
{
	size_t k = 0;

	while (k < r->npending && r->pending[k].ts_ns <= upto) {
		pfrec_write_verdict(r, &r->pending[k]);
		lbv_free(&r->pending[k]);
		k++;
	}
	memmove(r->pending, r->pending + k, (r->npending - k) * sizeof(*r->pending));
	r->npending -= k;
}

/* A copy of e whose keys and values point into its own buffer. */
static int pfrec_copy_event(struct lbv_event *dst, const struct lbv_event *e)
{
	size_t len = 0, o = 0;

	*dst = *e;
	for (int f = 0; f < e->nfields; f++)
		len += strlen(e->key[f]) + strlen(e->val[f]) + 2;
	dst->buf = malloc(len ? len : 1);
	if (!dst->buf)
		return -1;
	for (int f = 0; f < e->nfields; f++) {
		size_t kl = strlen(e->key[f]) + 1, vl = strlen(e->val[f]) + 1;

		memcpy(dst->buf + o, e->key[f], kl);
		dst->key[f] = dst->buf + o;
		o += kl;
		memcpy(dst->buf + o, e->val[f], vl);
		dst->val[f] = dst->buf + o;
		o += vl;
	}
	return 0;
}

void pfrec_verdict(struct pfrec *r, const struct lbv_event *e)
{
	struct lbv_event copy;
	size_t i;

	if (pfrec_copy_event(&copy, e)) {
		r->w.err = ENOMEM;
		return;
	}
	if (r->npending == r->pending_cap) {
		size_t cap = r->pending_cap ? 2 * r->pending_cap : 256;
		struct lbv_event *p = realloc(r->pending, cap * sizeof(*p));

		if (!p) {
			lbv_free(&copy);
			r->w.err = ENOMEM;
			return;
		}
		r->pending = p;
		r->pending_cap = cap;
	}
	/* sorted insert; records mostly come in order, so from the end */
	for (i = r->npending; i > 0 && r->pending[i - 1].ts_ns > e->ts_ns; i--)
		;
	memmove(&r->pending[i + 1], &r->pending[i], (r->npending - i) * sizeof(*r->pending));
	r->pending[i] = copy;
	r->npending++;
	if (e->ts_ns > r->newest_ts)
		r->newest_ts = e->ts_ns;
}

static void pfrec_verdict_cb(void *ctx, const struct lbv_event *e)
{
	pfrec_verdict(ctx, e);
}

void pfrec_drain(struct pfrec *r)
{
	if (r->have_lbt)
		lbtrace_drain(&r->lbt, pfrec_verdict_cb, r);
	if (r->newest_ts > PFREC_VERDICT_HOLD_NS)
		pfrec_flush_verdicts(r, r->newest_ts - PFREC_VERDICT_HOLD_NS);
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
	for (size_t i = 0; i < r->npending; i++)
		lbv_free(&r->pending[i]);
	free(r->pending);
	r->pending = NULL;
	r->npending = r->pending_cap = 0;
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

/* Say what the trace lacks: an instant with the counts, and a line on stderr. */
static void pfrec_incomplete(struct pfrec *r, uint64_t overrun, uint64_t too_long)
{
	struct pft_arg a[4] = {
		{ .name = "overwritten", .kind = PFT_ARG_UINT, .u = overrun },
		{ .name = "too_long", .kind = PFT_ARG_UINT, .u = too_long },
		{ .name = "fields_dropped", .kind = PFT_ARG_UINT, .u = r->fields_dropped },
		{ .name = "out_of_order", .kind = PFT_ARG_UINT, .u = r->late },
	};
	uint64_t t;

	if (!overrun && !too_long && !r->fields_dropped && !r->late)
		return;
	t = pft_track(&r->w, 0, "sched_shadow");
	pft_instant(&r->w, PFT_SEQ_VERDICTS, t, r->last_written_ts, "lb_verdict records incomplete",
		    a, 4);
	fprintf(stderr, "sched-shadow: lb_verdict records incomplete in the trace: %llu overwritten "
		"before they were read, %llu longer than %d bytes, %llu fields not kept, "
		"%llu out of timestamp order\n", (unsigned long long)overrun,
		(unsigned long long)too_long, LBV_LINE_MAX, (unsigned long long)r->fields_dropped,
		(unsigned long long)r->late);
}

void pfrec_verdicts_stop(struct pfrec *r)
{
	if (!r->have_lbt)
		return;
	lbtrace_drain(&r->lbt, pfrec_verdict_cb, r);
	r->overrun = lbtrace_overrun(&r->lbt);
	r->too_long = r->lbt.too_long;
	lbtrace_close(&r->lbt);
	r->have_lbt = 0;
}

int pfrec_finish(struct pfrec *r, char *err, size_t errlen)
{
	pfrec_verdicts_stop(r);
	pfrec_flush_verdicts(r, UINT64_MAX);
	pfrec_incomplete(r, r->overrun, r->too_long);
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
