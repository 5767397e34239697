// SPDX-License-Identifier: GPL-2.0
/*
 * `compare`: two run reports side by side (see report.h).  Each section
 * adds titled groups of rows (label, one cell per run) and free lines
 * that go above the table; this file renders them as aligned text or as
 * a Markdown table, and writes the JSON form from each section's facts
 * of one run.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

enum cmp_kind { CMP_LINE, CMP_TITLE, CMP_ROW };

struct cmp_entry {
	enum cmp_kind kind;
	char *text;		/* line, title or row label */
	char *cell[2];
};

struct cmp_out {
	int n, cap, failed;
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

const char *cmp_cell(char *buf, size_t len, int have, const char *fmt, ...)
{
	va_list ap;

	if (!have) {
		snprintf(buf, len, "-");
		return buf;
	}
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

static void cmp_free(struct cmp_out *o)
{
	for (int i = 0; i < o->n; i++) {
		free(o->e[i].text);
		free(o->e[i].cell[0]);
		free(o->e[i].cell[1]);
	}
	free(o->e);
}

/* ------------------------------------------------------------ the run's own rows */

static void cmp_run_rows(const struct report *const run[2], const char *const names[2],
			 struct cmp_out *o)
{
	char c[2][64];
	int i;

	for (i = 0; i < 2; i++)
		if (run[i]->note)
			cmp_line(o, "%s: %s", names[i], run[i]->note);
	cmp_row(o, "cgroup of the command", run[0]->cg_used ? run[0]->cg.rel : "/",
		run[1]->cg_used ? run[1]->cg.rel : "/");
	for (i = 0; i < 2; i++)
		snprintf(c[i], sizeof(c[i]), "%d", run[i]->exit_status);
	cmp_row(o, "exit status", c[0], c[1]);
	for (i = 0; i < 2; i++)
		snprintf(c[i], sizeof(c[i]), "%.1f", run[i]->wall_s);
	cmp_row(o, "run wall time (s)", c[0], c[1]);
}

/* ------------------------------------------------------------ text */

static void cmp_print_text(const struct cmp_out *o, const char *const names[2], FILE *f)
{
	size_t lw = 34, cw = 22;
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
	}
	for (int k = 0; k < 2; k++)
		if (strlen(names[k]) + 1 > cw)
			cw = strlen(names[k]) + 1;
	fprintf(f, "== sched-shadow compare: %s vs %s, side by side ==\n", names[0], names[1]);
	for (i = 0; i < o->n; i++)
		if (o->e[i].kind == CMP_LINE)
			fprintf(f, "%s\n", o->e[i].text);
	fprintf(f, "%-*s %*s %*s\n", (int)lw, "", (int)cw, names[0], (int)cw, names[1]);
	for (i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];
		int indent = 0;

		if (e->kind == CMP_TITLE) {
			fprintf(f, "\n%s\n", e->text);
			continue;
		}
		if (e->kind != CMP_ROW)
			continue;
		/* rows under a title are indented */
		for (int k = i - 1; k >= 0; k--)
			if (o->e[k].kind == CMP_TITLE) {
				indent = 2;
				break;
			}
		fprintf(f, "%*s%-*s %*s %*s\n", indent, "", (int)lw - indent, e->text,
			(int)cw, e->cell[0], (int)cw, e->cell[1]);
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
	fprintf(f, " |\n|---|---:|---:|\n");
	for (i = 0; i < o->n; i++) {
		const struct cmp_entry *e = &o->e[i];

		if (e->kind == CMP_TITLE) {
			fprintf(f, "| **");
			md_cell(f, e->text);
			fprintf(f, "** | | |\n");
		} else if (e->kind == CMP_ROW) {
			fprintf(f, "| ");
			md_cell(f, e->text);
			fprintf(f, " | ");
			md_cell(f, e->cell[0]);
			fprintf(f, " | ");
			md_cell(f, e->cell[1]);
			fprintf(f, " |\n");
		}
	}
}

/* ------------------------------------------------------------ JSON */

static void cmp_print_json(const struct report *const run[2], const char *const names[2], FILE *f)
{
	struct json_writer w;

	json_init(&w, f, 1);
	json_obj_begin(&w);
	json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
	json_kv_str(&w, "command", "compare");
	json_key(&w, "runs");
	json_arr_begin(&w);
	for (int i = 0; i < 2; i++) {
		const struct report *r = run[i];

		json_obj_begin(&w);
		json_kv_str(&w, "name", names[i]);
		json_kv_str(&w, "file", r->file);
		json_kv_str(&w, "label", r->label);
		json_kv_str(&w, "note", r->note);
		json_key(&w, "cmd");
		json_arr_begin(&w);
		for (int k = 0; r->cmd && r->cmd[k]; k++)
			json_str(&w, r->cmd[k]);
		json_arr_end(&w);
		json_kv_s64(&w, "exit_status", r->exit_status);
		json_kv_double(&w, "wall_s", r->wall_s);
		json_kv_str(&w, "cgroup", r->cg_used ? r->cg.rel : "/");
		for (size_t s = 0; s < CMP_NSECTIONS; s++)
			if (cmp_sections[s]->compare_json)
				cmp_sections[s]->compare_json(r, &w);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
}

int report_compare(const struct report *const run[2], const char *const names[2],
		   enum cmp_fmt fmt, FILE *f)
{
	struct cmp_out o = { 0 };
	int failed;

	if (fmt == CMP_FMT_JSON) {
		cmp_print_json(run, names, f);
		return 0;
	}
	cmp_run_rows(run, names, &o);
	for (size_t s = 0; s < CMP_NSECTIONS; s++)
		if (cmp_sections[s]->compare)
			cmp_sections[s]->compare(run, &o);
	if (fmt == CMP_FMT_MARKDOWN)
		cmp_print_md(&o, names, f);
	else
		cmp_print_text(&o, names, f);
	failed = o.failed;
	cmp_free(&o);
	return failed ? -1 : 0;
}
