// SPDX-License-Identifier: GPL-2.0
/*
 * `compare`: two sides of run reports side by side (see report.h).  Each
 * section adds titled groups of rows (label, one cell per side), numbers
 * with their statistics over a side's runs, judgements, and free lines
 * that go above the table; this file renders them as aligned text, as a
 * Markdown table, or as JSON (the rows with their numbers, and each run's
 * facts from the sections).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

enum cmp_kind { CMP_LINE, CMP_TITLE, CMP_ROW, CMP_VERDICT };

struct cmp_entry {
	enum cmp_kind kind;
	char *text;		/* line, title, row label or verdict label */
	char *cell[2];		/* row cells; a verdict's text in cell[0] */
	char *diff;		/* the difference column, or NULL */
	int is_num;		/* a row of numbers: the statistics below */
	struct cmp_stat st[2];
	double val[2][CMP_MAX_RUNS];	/* the first number of each run (NAN: none) */
	double d;		/* median difference (is_num, both sides have it) */
	int call;		/* cmp_call() of it, or -3: not judged */
};

struct cmp_out {
	int n, cap, failed;
	int runs[2];		/* runs per side */
	int diff_col;		/* both sides have repeats: the difference column */
	struct cmp_entry *e;
};

/* Sections in the order of the side by side: the symptom (latency) first. */
static const struct report_section *const cmp_sections[] = {
	&report_module_section,
	&report_knobs_section,
	&report_result_section,
	&report_latency_section,
	&report_lb_section,
	&report_wasted_section,
	&report_cpus_section,
	&report_schedstat_section,
};
#define CMP_NSECTIONS (sizeof(cmp_sections) / sizeof(cmp_sections[0]))

static struct cmp_entry *cmp_add(struct cmp_out *o, enum cmp_kind kind)
{
	if (o->n == o->cap) {
		int nc = o->cap ? o->cap * 2 : 64;
		struct cmp_entry *ne = realloc(o->e, nc * sizeof(*ne));

		if (!ne) {
			o->failed = 1;
			return NULL;
		}
		o->e = ne;
		o->cap = nc;
	}
	memset(&o->e[o->n], 0, sizeof(o->e[0]));
	o->e[o->n].kind = kind;
	o->e[o->n].call = -3;
	return &o->e[o->n++];
}

static void cmp_addv(struct cmp_out *o, enum cmp_kind kind, const char *fmt, va_list ap)
{
	struct cmp_entry *e = cmp_add(o, kind);

	if (e && vasprintf(&e->text, fmt, ap) < 0) {
		e->text = NULL;
		o->failed = 1;
		o->n--;
	}
}

void cmp_line(struct cmp_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmp_addv(o, CMP_LINE, fmt, ap);
	va_end(ap);
}

void cmp_title(struct cmp_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmp_addv(o, CMP_TITLE, fmt, ap);
	va_end(ap);
}

void cmp_row(struct cmp_out *o, const char *label, const char *a, const char *b)
{
	struct cmp_entry *e = cmp_add(o, CMP_ROW);

	if (!e)
		return;
	e->text = strdup(label);
	e->cell[0] = strdup(a ? a : "-");
	e->cell[1] = strdup(b ? b : "-");
	if (!e->text || !e->cell[0] || !e->cell[1])
		o->failed = 1;
}

void cmp_verdict(struct cmp_out *o, const char *label, const char *fmt, ...)
{
	struct cmp_entry *e = cmp_add(o, CMP_VERDICT);
	va_list ap;

	if (!e)
		return;
	e->text = strdup(label);
	va_start(ap, fmt);
	if (vasprintf(&e->cell[0], fmt, ap) < 0)
		e->cell[0] = NULL;
	va_end(ap);
	if (!e->text || !e->cell[0])
		o->failed = 1;
}

const char *cmp_side_text(char *buf, size_t len, const struct cmp_side *s,
			  const char *(*get)(const struct report *r))
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < s->n; i++) {
		const char *g = get(s->run[i]);
		char v[256];
		int seen = 0;

		/* a copy: get may return the same static buffer every time */
		snprintf(v, sizeof(v), "%s", g ? g : "-");
		for (int k = 0; k < i && !seen; k++) {
			const char *w = get(s->run[k]);

			seen = !strcmp(v, w ? w : "-");
		}
		if (seen)
			continue;
		o += snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? " | " : "", v);
	}
	return buf;
}

void cmp_num_init(struct cmp_num *v)
{
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < CMP_MAX_RUNS; i++)
			for (int c = 0; c < CMP_MAX_COMP; c++)
				v->v[s][i][c] = NAN;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int cmp_stat_of(const struct cmp_out *o, const struct cmp_num *v, int side, int comp,
		struct cmp_stat *st)
{
	double x[CMP_MAX_RUNS];
	int n = 0;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < o->runs[side]; i++)
		if (!isnan(v->v[side][i][comp]))
			x[n++] = v->v[side][i][comp];
	if (!n)
		return -1;
	qsort(x, n, sizeof(x[0]), dbl_cmp);
	st->n = n;
	st->lo = x[0];
	st->hi = x[n - 1];
	st->med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	return 0;
}

int cmp_call(const struct cmp_stat *a, const struct cmp_stat *b)
{
	if (a->n < 2 || b->n < 2)
		return CMP_NO_SPREAD;
	if (b->lo > a->hi)
		return 1;
	if (b->hi < a->lo)
		return -1;
	return 0;
}

/* The first conversion of fmt ("%.0f" of "%.0f (%.0f%%)"), for the range. */
static void first_conv(const char *fmt, char *out, size_t len)
{
	const char *p = fmt;

	while ((p = strchr(p, '%')) && p[1] == '%')
		p += 2;
	if (!p) {
		snprintf(out, len, "%%g");
		return;
	}
	snprintf(out, len, "%.*s", (int)(strcspn(p + 1, "fgeFGE") + 2), p);
}

static void fmt_comps(char *buf, size_t len, const char *fmt, int ncomp, const double *c)
{
	/* fmt has ncomp conversions of doubles: pass them all (extra ones are ignored) */
	(void)ncomp;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, len, fmt, c[0], c[1], c[2]);
#pragma GCC diagnostic pop
}

void cmp_row_num(struct cmp_out *o, const char *label, const char *fmt, int ncomp,
		 const struct cmp_num *v, unsigned int flags)
{
	char cell[2][160], conv[16], lo[48], hi[48];
	struct cmp_entry *e;
	int have[2];

	first_conv(fmt, conv, sizeof(conv));
	for (int s = 0; s < 2; s++) {
		struct cmp_stat st[CMP_MAX_COMP];
		double med[CMP_MAX_COMP] = { 0 };

		have[s] = 1;
		for (int c = 0; c < ncomp; c++) {
			have[s] &= !cmp_stat_of(o, v, s, c, &st[c]);
			med[c] = st[c].med;
		}
		if (!have[s]) {
			snprintf(cell[s], sizeof(cell[s]), "-");
			continue;
		}
		fmt_comps(cell[s], sizeof(cell[s]), fmt, ncomp, med);
		if (o->runs[s] > 1) {
			size_t l = strlen(cell[s]);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			snprintf(lo, sizeof(lo), conv, st[0].lo);
			snprintf(hi, sizeof(hi), conv, st[0].hi);
#pragma GCC diagnostic pop
			snprintf(cell[s] + l, sizeof(cell[s]) - l, " [%s..%s]", lo, hi);
		}
	}
	cmp_row(o, label, cell[0], cell[1]);
	if (o->failed || !o->n)
		return;
	e = &o->e[o->n - 1];
	e->is_num = 1;
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < CMP_MAX_RUNS; i++)
			e->val[s][i] = i < o->runs[s] ? v->v[s][i][0] : NAN;
		cmp_stat_of(o, v, s, 0, &e->st[s]);
	}
	if (!(flags & CMP_CALL) || !have[0] || !have[1])
		return;
	e->d = e->st[1].med - e->st[0].med;
	e->call = cmp_call(&e->st[0], &e->st[1]);
	if (o->diff_col) {
		char d[48], pc[32] = "";

		if (e->call == 0) {
			e->diff = strdup("within noise");
		} else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			char pconv[20];

			snprintf(pconv, sizeof(pconv), "%%+%s", conv + 1);
			snprintf(d, sizeof(d), pconv, e->d);
#pragma GCC diagnostic pop
			if (e->st[0].med != 0)
				snprintf(pc, sizeof(pc), " (%+.0f%%)", 100.0 * e->d / fabs(e->st[0].med));
			if (asprintf(&e->diff, "%s%s", d, pc) < 0)
				e->diff = NULL;
		}
		if (!e->diff)
			o->failed = 1;
	}
}

static void cmp_free(struct cmp_out *o)
{
	for (int i = 0; i < o->n; i++) {
		free(o->e[i].text);
		free(o->e[i].cell[0]);
		free(o->e[i].cell[1]);
		free(o->e[i].diff);
	}
	free(o->e);
}

/* ------------------------------------------------------------ the runs' own rows */

/* A run's notes: its --note and what its header flags (a missing source, the cgroup). */
static int run_notes(const struct report *r, char notes[][REPORT_WHY_LEN + 160], int max)
{
	int n = 0;

	if (r->note && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "%s", r->note);
	if (r->cg_used && !r->cg.cpu_ok && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "cgroup %.300s had NO cpu controller "
			 "(--allow-no-cpu-controller): not a nested run for the scheduler",
			 r->cg.rel);
	else if (r->cg_used && r->cg.note[0] && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "cgroup note: %.300s", r->cg.note);
	if (r->cg_created && !r->cg_removed && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "cgroup %.300s was NOT removed", r->cg.rel);
	if (!r->module.loaded && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "module not used: %.300s", r->module.why);
	else if (!r->module.reset && r->module.why[0] && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "module: %.300s", r->module.why);
	if (r->latency.requested && !r->latency.ok && n < max)
		snprintf(notes[n++], sizeof(notes[0]), "bpf not available: %.300s", r->latency.why);
	return n;
}

/* A side's column title: its name, marked when a run's cgroup had no cpu controller. */
static int side_nocpu(const struct cmp_side *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->run[i]->cg_used && !s->run[i]->cg.cpu_ok)
			return 1;
	return 0;
}

static void cmp_notes(const struct cmp_side side[2], struct cmp_out *o)
{
	static char notes[CMP_MAX_RUNS][8][REPORT_WHY_LEN + 160];
	int nn[CMP_MAX_RUNS];

	for (int s = 0; s < 2; s++) {
		const struct cmp_side *sd = &side[s];

		for (int i = 0; i < sd->n; i++)
			nn[i] = run_notes(sd->run[i], notes[i], 8);
		/* a note every run has once for the side, the others with their run */
		for (int i = 0; i < sd->n; i++)
			for (int k = 0; k < nn[i]; k++) {
				int all = 1, before = 0;

				for (int j = 0; j < sd->n; j++) {
					int has = 0;

					for (int m = 0; m < nn[j]; m++)
						has |= !strcmp(notes[j][m], notes[i][k]);
					all &= has;
					before |= has && j < i;
				}
				if (all && !before)
					cmp_line(o, "%s%s: %s", sd->name, side_nocpu(sd) ? "*" : "",
						 notes[i][k]);
				else if (!all)
					cmp_line(o, "%s%s run %d: %s", sd->name,
						 side_nocpu(sd) ? "*" : "", i + 1, notes[i][k]);
			}
	}
	if (side[0].n > 1 || side[1].n > 1)
		cmp_line(o, "runs: %d and %d; a cell of several runs is their median [min..max]%s",
			 side[0].n, side[1].n, side[0].n > 1 && side[1].n > 1 ?
			 "; a difference is called only when the two ranges do not overlap" :
			 "; with one run on a side no difference is called");
}

static const char *cg_of(const struct report *r)
{
	return r->cg_used ? r->cg.rel : "/";
}

static void cmp_run_rows(const struct cmp_side side[2], struct cmp_out *o)
{
	struct cmp_num v;
	char c[2][256];

	cmp_row(o, "cgroup of the command", cmp_side_text(c[0], sizeof(c[0]), &side[0], cg_of),
		cmp_side_text(c[1], sizeof(c[1]), &side[1], cg_of));
	cmp_num_init(&v);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++)
			v.v[s][i][0] = side[s].run[i]->exit_status;
	cmp_row_num(o, "exit status", "%.0f", 1, &v, 0);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++)
			v.v[s][i][0] = side[s].run[i]->wall_s;
	cmp_row_num(o, "run wall time (s)", "%.1f", 1, &v, 0);
}

/* ------------------------------------------------------------ text */

static void cmp_print_text(const struct cmp_out *o, const char *const names[2], FILE *f)
{
	size_t lw = 34, cw = 22, dw = 0;
	int i;

	for (i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];

		if (e->kind != CMP_ROW)
			continue;
		if (strlen(e->text) + 3 > lw)
			lw = strlen(e->text) + 3;
		for (int k = 0; k < 2; k++)
			if (strlen(e->cell[k]) + 1 > cw)
				cw = strlen(e->cell[k]) + 1;
		if (e->diff && strlen(e->diff) + 1 > dw)
			dw = strlen(e->diff) + 1;
	}
	for (int k = 0; k < 2; k++)
		if (strlen(names[k]) + 1 > cw)
			cw = strlen(names[k]) + 1;
	if (o->diff_col && dw < strlen("difference") + 1)
		dw = strlen("difference") + 1;
	fprintf(f, "== sched-shadow compare: %s vs %s, side by side ==\n", names[0], names[1]);
	for (i = 0; i < o->n; i++)
		if (o->e[i].kind == CMP_LINE)
			fprintf(f, "%s\n", o->e[i].text);
	fprintf(f, "%-*s %*s %*s", (int)lw, "", (int)cw, names[0], (int)cw, names[1]);
	if (o->diff_col)
		fprintf(f, " %*s", (int)dw, "difference");
	fputc('\n', f);
	for (i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];
		int indent = 0;

		if (e->kind == CMP_TITLE) {
			fprintf(f, "\n%s\n", e->text);
			continue;
		}
		/* rows under a title are indented */
		for (int k = i - 1; k >= 0; k--)
			if (o->e[k].kind == CMP_TITLE) {
				indent = 2;
				break;
			}
		if (e->kind == CMP_VERDICT) {
			fprintf(f, "%*s%s: %s\n", indent, "", e->text, e->cell[0]);
			continue;
		}
		if (e->kind != CMP_ROW)
			continue;
		fprintf(f, "%*s%-*s %*s %*s", indent, "", (int)lw - indent, e->text,
			(int)cw, e->cell[0], (int)cw, e->cell[1]);
		if (o->diff_col && e->diff)
			fprintf(f, " %*s", (int)dw, e->diff);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------ Markdown */

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void cmp_print_md(const struct cmp_out *o, const char *const names[2], FILE *f)
{
	int i, lines = 0;

	fprintf(f, "### sched-shadow compare: ");
	md_cell(f, names[0]);
	fprintf(f, " vs ");
	md_cell(f, names[1]);
	fprintf(f, "\n\n");

	for (i = 0; i < o->n; i++)
		if (o->e[i].kind == CMP_LINE) {
			fprintf(f, "- ");
			md_cell(f, o->e[i].text);
			fputc('\n', f);
			lines++;
		}
	fprintf(f, "%s| | ", lines ? "\n" : "");
	md_cell(f, names[0]);
	fprintf(f, " | ");
	md_cell(f, names[1]);
	fprintf(f, o->diff_col ? " | difference |\n|---|---:|---:|---:|\n" : " |\n|---|---:|---:|\n");
	for (i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];

		if (e->kind == CMP_TITLE) {
			fprintf(f, "| **");
			md_cell(f, e->text);
			fprintf(f, o->diff_col ? "** | | | |\n" : "** | | |\n");
		} else if (e->kind == CMP_ROW || e->kind == CMP_VERDICT) {
			fprintf(f, "| ");
			md_cell(f, e->text);
			fprintf(f, " | ");
			md_cell(f, e->kind == CMP_ROW ? e->cell[0] : "");
			fprintf(f, " | ");
			md_cell(f, e->kind == CMP_ROW ? e->cell[1] : e->cell[0]);
			if (o->diff_col) {
				fprintf(f, " | ");
				md_cell(f, e->diff ? e->diff : "");
			}
			fprintf(f, " |\n");
		}
	}
}

/* ------------------------------------------------------------ JSON */

static void num_or_null(struct json_writer *w, int have, double v)
{
	if (have && !isnan(v))
		json_double(w, v);
	else
		json_null(w);
}

static void cmp_rows_json(const struct cmp_out *o, struct json_writer *w)
{
	const char *title = NULL;

	json_key(w, "rows");
	json_arr_begin(w);
	for (int i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];

		if (e->kind == CMP_TITLE)
			title = e->text;
		if (e->kind != CMP_ROW && e->kind != CMP_VERDICT)
			continue;
		json_obj_begin(w);
		json_kv_str(w, "title", title);
		json_kv_str(w, "label", e->text);
		if (e->kind == CMP_VERDICT) {
			json_kv_str(w, "verdict", e->cell[0]);
			json_obj_end(w);
			continue;
		}
		json_key(w, "cells");
		json_arr_begin(w);
		json_str(w, e->cell[0]);
		json_str(w, e->cell[1]);
		json_arr_end(w);
		if (e->is_num) {
			static const char *const k[] = { "median", "min", "max" };

			json_key(w, "values");
			json_arr_begin(w);
			for (int s = 0; s < 2; s++) {
				json_arr_begin(w);
				for (int r = 0; r < o->runs[s]; r++)
					num_or_null(w, 1, e->val[s][r]);
				json_arr_end(w);
			}
			json_arr_end(w);
			for (int m = 0; m < 3; m++) {
				json_key(w, k[m]);
				json_arr_begin(w);
				for (int s = 0; s < 2; s++)
					num_or_null(w, e->st[s].n, m == 0 ? e->st[s].med :
						    m == 1 ? e->st[s].lo : e->st[s].hi);
				json_arr_end(w);
			}
			json_key(w, "difference");
			num_or_null(w, e->call != -3, e->d);
			json_kv_str(w, "call", e->call == -3 ? NULL : e->call == 1 ? "higher" :
				    e->call == -1 ? "lower" : e->call == 0 ? "within noise" :
				    "one run: no spread");
		}
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void cmp_print_json(const struct cmp_side side[2], const char *const names[2],
			   const struct cmp_out *o, FILE *f)
{
	struct json_writer w;

	json_init(&w, f, cli.pretty);
	json_obj_begin(&w);
	json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
	json_kv_str(&w, "command", "compare");
	json_key(&w, "sides");
	json_arr_begin(&w);
	for (int s = 0; s < 2; s++) {
		json_obj_begin(&w);
		json_kv_str(&w, "name", names[s]);
		json_kv_s64(&w, "runs", side[s].n);
		json_kv_bool(&w, "cpu_controller", !side_nocpu(&side[s]));
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_key(&w, "runs");
	json_arr_begin(&w);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s].n; i++) {
			const struct report *r = side[s].run[i];
			char notes[8][REPORT_WHY_LEN + 160];
			int nn = run_notes(r, notes, 8);

			json_obj_begin(&w);
			json_kv_s64(&w, "side", s);
			json_kv_str(&w, "name", names[s]);
			json_kv_str(&w, "file", r->file);
			json_kv_str(&w, "label", r->label);
			json_kv_str(&w, "note", r->note);
			json_key(&w, "notes");
			json_arr_begin(&w);
			for (int k = 0; k < nn; k++)
				json_str(&w, notes[k]);
			json_arr_end(&w);
			json_key(&w, "cmd");
			json_arr_begin(&w);
			for (int k = 0; r->cmd && r->cmd[k]; k++)
				json_str(&w, r->cmd[k]);
			json_arr_end(&w);
			json_kv_s64(&w, "exit_status", r->exit_status);
			json_kv_double(&w, "wall_s", r->wall_s);
			json_kv_str(&w, "cgroup", r->cg_used ? r->cg.rel : "/");
			json_key(&w, "cpu_controller");
			if (r->cg_used)
				json_bool(&w, r->cg.cpu_ok);
			else
				json_null(&w);
			for (size_t k = 0; k < CMP_NSECTIONS; k++)
				if (cmp_sections[k]->compare_json)
					cmp_sections[k]->compare_json(r, &w);
			json_obj_end(&w);
		}
	json_arr_end(&w);
	cmp_rows_json(o, &w);
	json_obj_end(&w);
	json_end(&w);
}

int report_compare(const struct cmp_side side[2], enum cmp_fmt fmt, FILE *f)
{
	struct cmp_out o = { 0 };
	char nb[2][300];
	const char *names[2] = { nb[0], nb[1] };
	int failed;

	o.runs[0] = side[0].n;
	o.runs[1] = side[1].n;
	o.diff_col = side[0].n > 1 && side[1].n > 1;
	for (int s = 0; s < 2; s++)
		snprintf(nb[s], sizeof(nb[s]), "%s%s", side[s].name, side_nocpu(&side[s]) ? "*" : "");
	cmp_notes(side, &o);
	cmp_run_rows(side, &o);
	for (size_t s = 0; s < CMP_NSECTIONS; s++)
		if (cmp_sections[s]->compare)
			cmp_sections[s]->compare(side, &o);
	if (fmt == CMP_FMT_JSON)
		cmp_print_json(side, names, &o, f);
	else if (fmt == CMP_FMT_MARKDOWN)
		cmp_print_md(&o, names, f);
	else
		cmp_print_text(&o, names, f);
	failed = o.failed;
	cmp_free(&o);
	return failed ? -1 : 0;
}
