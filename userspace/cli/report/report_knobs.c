// SPDX-License-Identifier: GPL-2.0
/*
 * Report section "knobs": the kernel's own switches for groups and
 * balancing (sources/knobs.h: 7.3's cgroup_mode, 7.2/7.3's llc_balancing
 * and its tunables), read by `run` at its start and its end, what
 * `run --set` changed and whether it was restored, and a note for each
 * switch that changed during the run.  A kernel without a switch reads
 * "absent"; a report from before this section has none (compare: "-").
 */
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

/* The value to show: the string, or "unknown" when it could not be read */
static const char *kv(const struct knob *x)
{
	return !x ? "-" : x->state == KNOB_UNREADABLE ? "unknown" : x->value;
}

static const struct knob_set *set_of(const struct report_knobs *s, const char *name)
{
	for (int i = 0; i < s->nset; i++)
		if (!strcmp(s->set[i].name, name))
			return &s->set[i];
	return NULL;
}

/* 1 when switch i changed between the start and the end of the run */
static int changed(const struct report_knobs *s, int i)
{
	const struct knob *a = &s->start.k[i], *b = knobs_find(&s->end, a->name);

	return b && (a->state != b->state || strcmp(a->value, b->value));
}

#define KNOBS_NOTES	(KNOBS_MAX + 3)

/* The run's notes about the switches into notes[]; returns how many. */
static int knobs_notes(const struct report_knobs *s, char notes[][REPORT_WHY_LEN])
{
	int n = 0;

	for (int i = 0; i < s->start.n; i++)
		if (changed(s, i))
			snprintf(notes[n++], REPORT_WHY_LEN,
				 "%s changed during the run: %s at the start, %s at the end",
				 s->start.k[i].name, kv(&s->start.k[i]),
				 kv(knobs_find(&s->end, s->start.k[i].name)));
	for (int k = 0; k < s->nset; k++) {
		const struct knob_set *x = &s->set[k];

		if (x->restored == -1)
			snprintf(notes[n++], REPORT_WHY_LEN, "%s was set to %s by run and changed "
				 "by someone else meanwhile: left as found, not restored to %s",
				 x->name, x->value, x->before);
		else if (x->restored == 0)
			snprintf(notes[n++], REPORT_WHY_LEN, "%s set to %s by run could not be "
				 "restored to %s", x->name, x->value, x->before);
	}
	if (s->note[0])
		snprintf(notes[n++], REPORT_WHY_LEN, "%s", s->note);
	return n;
}

static void knobs_text(const struct report *r, FILE *f)
{
	const struct report_knobs *s = &r->knobs;
	char notes[KNOBS_NOTES][REPORT_WHY_LEN];
	int n, tun = 0;

	if (!s->have)
		return;
	fprintf(f, "kernel switches (%s, at start):", s->dir);
	for (int k = 0; k < s->start.n; k++) {
		const struct knob *x = &s->start.k[k];
		const struct knob_set *st = set_of(s, x->name);

		if (strchr(x->name, '.')) {
			tun++;
			continue;
		}
		fprintf(f, "%s %s %s", k ? "," : "", x->name, kv(x));
		if (st)
			fprintf(f, " (run --set; was %s%s)", st->before,
				st->restored == 1 ? ", restored" : st->restored == -1 ?
				", changed meanwhile: left as found" : ", NOT restored");
	}
	fputc('\n', f);
	for (int k = 0; k < s->start.n; k++)
		if (s->start.k[k].state == KNOB_UNREADABLE &&
		    (k == 0 || strcmp(s->start.k[k].why, s->start.k[k - 1].why)))
			fprintf(f, "  %s unknown: %s\n", s->start.k[k].name, s->start.k[k].why);
	if (tun) {
		fprintf(f, "llc_balancing tunables:");
		for (int k = 0, c = 0; k < s->start.n; k++)
			if (strchr(s->start.k[k].name, '.'))
				fprintf(f, "%s %s %s", c++ ? "," : "", strchr(s->start.k[k].name, '.') + 1,
					kv(&s->start.k[k]));
		fputc('\n', f);
	}
	n = knobs_notes(s, notes);
	for (int i = 0; i < n; i++)
		fprintf(f, "note: %s\n", notes[i]);
}

static void knob_json_value(struct json_writer *w, const char *key, const struct knob *x)
{
	if (!x || x->state == KNOB_UNREADABLE)
		json_kv_null(w, key);
	else
		json_kv_str(w, key, x->value);
}

static void knobs_json(const struct report *r, struct json_writer *w)
{
	const struct report_knobs *s = &r->knobs;
	char notes[KNOBS_NOTES][REPORT_WHY_LEN];
	int n;

	if (!s->have)
		return;
	json_key(w, "knobs");
	json_obj_begin(w);
	json_kv_str(w, "dir", s->dir);
	json_kv_str(w, "cgroup_modes", s->start.modes[0] ? s->start.modes : NULL);
	json_key(w, "switches");
	json_arr_begin(w);
	for (int k = 0; k < s->start.n; k++) {
		const struct knob *a = &s->start.k[k], *b = knobs_find(&s->end, a->name);

		json_obj_begin(w);
		json_kv_str(w, "name", a->name);
		knob_json_value(w, "start", a);
		knob_json_value(w, "end", b);
		json_kv_str(w, "reason", a->state == KNOB_UNREADABLE ? a->why :
			    b && b->state == KNOB_UNREADABLE ? b->why : NULL);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_key(w, "set");
	json_arr_begin(w);
	for (int k = 0; k < s->nset; k++) {
		const struct knob_set *x = &s->set[k];

		json_obj_begin(w);
		json_kv_str(w, "name", x->name);
		json_kv_str(w, "value", x->value);
		json_kv_str(w, "before", x->before);
		json_kv_str(w, "restored", x->restored == 1 ? "yes" : x->restored == -1 ?
			    "changed meanwhile, left as found" : "no");
		json_obj_end(w);
	}
	json_arr_end(w);
	json_key(w, "notes");
	json_arr_begin(w);
	n = knobs_notes(s, notes);
	for (int i = 0; i < n; i++)
		json_str(w, notes[i]);
	json_arr_end(w);
	json_obj_end(w);
}

static void knobs_prom(const struct report *r, struct prom_writer *p)
{
	const struct report_knobs *s = &r->knobs;
	struct prom_label l[2] = {
		{ "cgroup_mode", kv(knobs_find(&s->start, "cgroup_mode")) },
		{ "llc_balancing", kv(knobs_find(&s->start, "llc_balancing")) },
	};

	if (!s->have)
		return;
	prom_family(p, PROM_PREFIX "kernel_info", "gauge",
		    "the kernel's group-weight mode (cgroup_mode) and cache-aware balancing switch "
		    "(llc_balancing) at the start of the run; absent: the kernel has none");
	prom_sample(p, PROM_PREFIX "kernel_info", l, 2, 1);
}

/* One switch {name, start, end, reason} of the JSON back into the two readings */
static int load_switch(struct report_knobs *s, const struct jv *o, char *err, size_t errlen)
{
	const char *name = jv_str(jv_get(o, "name"));
	const struct jv *v[2] = { jv_get(o, "start"), jv_get(o, "end") };
	const char *why = jv_str(jv_get(o, "reason"));
	struct knobs *rd[2] = { &s->start, &s->end };

	if (!name || !v[0] || !v[1] || strlen(name) >= sizeof(s->start.k[0].name)) {
		snprintf(err, errlen, "knobs: a switch without \"name\", \"start\" or \"end\"");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		struct knob *x;

		if (rd[i]->n >= KNOBS_MAX) {
			snprintf(err, errlen, "knobs: more than %d switches", KNOBS_MAX);
			return -1;
		}
		x = &rd[i]->k[rd[i]->n++];
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%s", name);
		if (jv_str(v[i])) {
			snprintf(x->value, sizeof(x->value), "%s", jv_str(v[i]));
			x->state = !strcmp(x->value, "absent") ? KNOB_ABSENT : KNOB_OK;
		} else {
			x->state = KNOB_UNREADABLE;
			snprintf(x->why, sizeof(x->why), "%s", why ? why : "");
		}
	}
	return 0;
}

static int knobs_load(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	struct report_knobs *s = &r->knobs;
	const struct jv *sec = jv_get(d, "knobs"), *a;
	const char *dir, *modes;

	memset(s, 0, sizeof(*s));
	if (!sec)		/* a report from before this section */
		return 0;
	dir = jv_str(jv_get(sec, "dir"));
	a = jv_get(sec, "switches");
	if (sec->type != JV_OBJ || !dir || !a || a->type != JV_ARR) {
		snprintf(err, errlen, "knobs: not an object with \"dir\" and \"switches\"");
		return -1;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	modes = jv_str(jv_get(sec, "cgroup_modes"));
	snprintf(s->start.modes, sizeof(s->start.modes), "%s", modes ? modes : "");
	snprintf(s->end.modes, sizeof(s->end.modes), "%s", modes ? modes : "");
	for (int i = 0; i < a->n; i++)
		if (load_switch(s, jv_at(a, i), err, errlen))
			return -1;
	a = jv_get(sec, "set");
	for (int i = 0; a && a->type == JV_ARR && i < a->n && s->nset < 2; i++) {
		const struct jv *o = jv_at(a, i);
		struct knob_set *x = &s->set[s->nset];
		const char *name = jv_str(jv_get(o, "name")), *val = jv_str(jv_get(o, "value"));
		const char *before = jv_str(jv_get(o, "before")), *rs = jv_str(jv_get(o, "restored"));

		if (!name || !val || !before || !rs) {
			snprintf(err, errlen, "knobs: a \"set\" entry without name, value, before, restored");
			return -1;
		}
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%s", name);
		snprintf(x->value, sizeof(x->value), "%s", val);
		snprintf(x->before, sizeof(x->before), "%s", before);
		x->restored = !strcmp(rs, "yes") ? 1 : !strcmp(rs, "no") ? 0 : -1;
		s->nset++;
	}
	/* a note run added beyond the switches' own (the last one, when there is one) */
	a = jv_get(sec, "notes");
	if (a && a->type == JV_ARR && a->n) {
		char notes[KNOBS_NOTES][REPORT_WHY_LEN];

		if (a->n > knobs_notes(s, notes) && jv_str(jv_at(a, a->n - 1)))
			snprintf(s->note, sizeof(s->note), "%s", jv_str(jv_at(a, a->n - 1)));
	}
	s->have = 1;
	return 0;
}

/* A run's value of a switch for the side by side: "concur", "smp -> concur" when it changed */
static const char *cmp_value(const struct report *r, const char *name, char *buf, size_t len)
{
	const struct report_knobs *s = &r->knobs;
	const struct knob *a, *b;

	if (!s->have)
		return "-";
	a = knobs_find(&s->start, name);
	b = knobs_find(&s->end, name);
	if (!a)
		return "-";
	if (b && (a->state != b->state || strcmp(a->value, b->value)))
		snprintf(buf, len, "%s -> %s", kv(a), kv(b));
	else
		snprintf(buf, len, "%s%s", kv(a), set_of(s, name) ? " (set)" : "");
	return buf;
}

static const char *cmp_mode(const struct report *r)
{
	static char buf[128];

	return cmp_value(r, "cgroup_mode", buf, sizeof(buf));
}

static const char *cmp_llc(const struct report *r)
{
	static char buf[128];

	return cmp_value(r, "llc_balancing", buf, sizeof(buf));
}

static void knobs_compare(const struct cmp_side side[2], struct cmp_out *o)
{
	static const char *const names[] = { "cgroup_mode", "llc_balancing" };
	const char *(*const get[])(const struct report *) = { cmp_mode, cmp_llc };
	char c[2][256], label[64];
	int have = 0;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++)
			have |= side[s].run[i]->knobs.have;
	if (!have)
		return;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct report *r0 = side[0].run[0], *r1 = side[1].run[0];
		const struct knob *a = knobs_find(&r0->knobs.start, names[k]);
		const struct knob *b = knobs_find(&r1->knobs.start, names[k]);
		int differ = r0->knobs.have && r1->knobs.have && strcmp(kv(a), kv(b));

		snprintf(label, sizeof(label), "%s%s", names[k], differ ? " (differs)" : "");
		cmp_row(o, label, cmp_side_text(c[0], sizeof(c[0]), &side[0], get[k]),
			cmp_side_text(c[1], sizeof(c[1]), &side[1], get[k]));
		if (differ)
			cmp_line(o, "kernel switch %s differs: %s vs %s", names[k], kv(a), kv(b));
	}
}

static void knobs_compare_json(const struct report *r, struct json_writer *w)
{
	const struct report_knobs *s = &r->knobs;
	int ch = 0;

	json_key(w, "knobs");
	if (!s->have) {
		json_null(w);
		return;
	}
	for (int i = 0; i < s->start.n; i++)
		ch |= changed(s, i);
	json_obj_begin(w);
	knob_json_value(w, "cgroup_mode", knobs_find(&s->start, "cgroup_mode"));
	knob_json_value(w, "llc_balancing", knobs_find(&s->start, "llc_balancing"));
	json_kv_bool(w, "changed_during_run", ch);
	json_obj_end(w);
}

const struct report_section report_knobs_section = {
	.name = "knobs",
	.text = knobs_text,
	.json = knobs_json,
	.prom = knobs_prom,
	.load = knobs_load,
	.compare = knobs_compare,
	.compare_json = knobs_compare_json,
};
