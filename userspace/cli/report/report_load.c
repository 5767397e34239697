// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a `run --json` document back into the report model (see
 * report.h): the run's own fields here, each section's member in its
 * section file (its .load), with the helpers they share.  Tables come
 * back as the debugfs tables they were written from, so the renderers
 * print a read-back report exactly as `run` printed it.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

int report_load_available(const struct jv *sec, const char *name, int *ok, char *why,
			  size_t whylen, char *err, size_t errlen)
{
	const struct jv *rs;

	if (!sec || sec->type != JV_OBJ || jv_bool(jv_get(sec, "available"), ok)) {
		snprintf(err, errlen, "%s: missing, or no \"available\" member", name);
		return -1;
	}
	rs = jv_get(sec, "reason");
	if (jv_str(rs))
		snprintf(why, whylen, "%s", jv_str(rs));
	else
		why[0] = 0;
	return 0;
}

/* Append n bytes of s to the debugfs text being built; -2 when out of memory. */
static int rl_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t nc = (*cap + n + 1) * 2;
		char *nb = realloc(*buf, nc);

		if (!nb)
			return -2;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	return 0;
}

/* A cell and its separator; -1 for a cell a debugfs file cannot hold (empty, whitespace). */
static int rl_cell(char **buf, size_t *len, size_t *cap, const char *s, char sep)
{
	if (!*s || strpbrk(s, " \t\n\r"))
		return -1;
	if (rl_append(buf, len, cap, s, strlen(s)))
		return -2;
	return rl_append(buf, len, cap, &sep, 1);
}

static int rl_build(char *text, size_t len, const char *name, struct dbgfs_table *t,
		    char *err, size_t errlen)
{
	struct dbgfs_error e;

	if (dbgfs_parse(text, len, name, t, &e)) {
		snprintf(err, errlen, "%s: %s", name, e.msg);
		return -1;
	}
	return 0;
}

int report_load_rows(const struct jv *rows, const char *name, struct dbgfs_table *t,
		     char *err, size_t errlen)
{
	const char *cols[128];
	int ncols = 0, i, c, rc = -1;
	char *buf = NULL, head[64];
	size_t len = 0, cap = 0;

	if (!rows || rows->type != JV_ARR) {
		snprintf(err, errlen, "%s: \"rows\" missing or not an array", name);
		return -1;
	}
	/* The columns: every key of every row, in order of first appearance */
	for (i = 0; i < rows->n; i++) {
		const struct jv *row = &rows->items[i];

		if (row->type != JV_OBJ) {
			snprintf(err, errlen, "%s: row %d is not an object", name, i);
			return -1;
		}
		for (int k = 0; k < row->n; k++) {
			for (c = 0; c < ncols && strcmp(cols[c], row->keys[k]); c++)
				;
			if (c < ncols)
				continue;
			if (ncols == (int)(sizeof(cols) / sizeof(cols[0]))) {
				snprintf(err, errlen, "%s: more than %d columns", name, ncols);
				return -1;
			}
			cols[ncols++] = row->keys[k];
		}
	}
	if (!ncols) {
		/* no rows: a table with no columns cannot be written; keep it empty */
		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->version = DBGFS_VERSION;
		return 0;
	}
	snprintf(head, sizeof(head), "# sched_shadow %s v%d\n", name, DBGFS_VERSION);
	if (rl_append(&buf, &len, &cap, head, strlen(head)))
		goto oom;
	for (c = 0; c < ncols; c++)
		if (rl_cell(&buf, &len, &cap, cols[c], c + 1 < ncols ? ' ' : '\n')) {
			snprintf(err, errlen, "%s: column name '%s' cannot be a debugfs column",
				 name, cols[c]);
			goto out;
		}
	for (i = 0; i < rows->n; i++) {
		for (c = 0; c < ncols; c++) {
			const struct jv *v = jv_get(&rows->items[i], cols[c]);
			const char *s;
			char *esc = NULL;
			int e;

			if (!v || v->type == JV_NULL)
				s = "-";
			else if (v->type == JV_NUM || v->type == JV_STR)
				s = v->str;
			else if (v->type == JV_BOOL)
				s = v->b ? "1" : "0";
			else {
				snprintf(err, errlen, "%s: row %d, %s: not a number or a string",
					 name, i, cols[c]);
				goto out;
			}
			if (v && v->type == JV_STR && !strcmp(cols[c], "path")) {
				/* paths are escaped in debugfs (\ooo), unescaped in JSON */
				size_t n = strlen(s), o = 0;

				esc = malloc(n * 4 + 1);
				if (!esc)
					goto oom;
				for (size_t k = 0; k < n; k++) {
					unsigned char ch = s[k];

					if (ch <= ' ' || ch == '\\' || ch >= 0x7f)
						o += sprintf(esc + o, "\\%03o", ch);
					else
						esc[o++] = ch;
				}
				esc[o] = 0;
				s = esc;
			}
			e = rl_cell(&buf, &len, &cap, s, c + 1 < ncols ? ' ' : '\n');
			free(esc);
			if (e == -2)
				goto oom;
			if (e) {
				snprintf(err, errlen, "%s: row %d, %s: '%s' is empty or holds whitespace",
					 name, i, cols[c], s);
				goto out;
			}
		}
	}
	rc = rl_build(buf, len, name, t, err, errlen);
	goto out;
oom:
	snprintf(err, errlen, "%s: out of memory", name);
out:
	free(buf);
	return rc;
}

int report_load_info(const struct jv *obj, struct dbgfs_table *t, char *err, size_t errlen)
{
	struct jv rows = { .type = JV_ARR };
	char kk[] = "key", vk[] = "value";
	char *keys[2] = { kk, vk };
	int rc;

	if (!obj || obj->type != JV_OBJ) {
		snprintf(err, errlen, "module.info: not an object");
		return -1;
	}
	/* {"k": "v", ...} as rows [{"key": "k", "value": "v"}, ...] */
	rows.n = obj->n;
	rows.items = calloc(obj->n ? obj->n : 1, sizeof(*rows.items));
	if (!rows.items) {
		snprintf(err, errlen, "module.info: out of memory");
		return -1;
	}
	for (int i = 0; i < obj->n; i++) {
		struct jv *row = &rows.items[i];

		row->type = JV_OBJ;
		row->n = 2;
		row->keys = keys;
		row->items = calloc(2, sizeof(*row->items));
		if (!row->items)
			break;
		row->items[0].type = JV_STR;
		row->items[0].str = obj->keys[i];
		row->items[1] = obj->items[i];
		if (row->items[1].type != JV_STR) {
			snprintf(err, errlen, "module.info: %s is not a string", obj->keys[i]);
			rows.n = i + 1;
			rc = -1;
			goto out;
		}
	}
	rc = obj->n ? report_load_rows(&rows, "info", t, err, errlen) : -1;
	if (!obj->n)
		snprintf(err, errlen, "module.info: empty");
out:
	for (int i = 0; i < rows.n; i++)
		free(rows.items[i].items);
	free(rows.items);
	return rc;
}

static int rl_run(struct report *r, const struct jv *d, char *err, size_t errlen)
{
	const struct jv *cmd = jv_get(d, "cmd"), *cg = jv_get(d, "cgroup");
	int64_t st;
	int i;

	if (!cmd || cmd->type != JV_ARR || !cmd->n) {
		snprintf(err, errlen, "cmd: missing or not a non-empty array");
		return -1;
	}
	r->cmd = calloc(cmd->n + 1, sizeof(*r->cmd));
	if (!r->cmd) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < cmd->n; i++) {
		r->cmd[i] = cmd->items[i].type == JV_STR ? cmd->items[i].str : NULL;
		if (!r->cmd[i]) {
			snprintf(err, errlen, "cmd[%d]: not a string", i);
			return -1;
		}
	}
	if (jv_s64(jv_get(d, "exit_status"), &st) || jv_double(jv_get(d, "wall_s"), &r->wall_s)) {
		snprintf(err, errlen, "exit_status or wall_s: missing or not a number");
		return -1;
	}
	r->exit_status = (int)st;
	{
		const struct jv *rep = jv_get(d, "repeat");
		int64_t a, b;

		if (rep && rep->type == JV_OBJ && !jv_s64(jv_get(rep, "index"), &a) &&
		    !jv_s64(jv_get(rep, "of"), &b)) {
			r->repeat = (int)a;
			r->repeats = (int)b;
		}
	}
	r->debugfs = jv_str(jv_get(d, "debugfs"));
	r->label = jv_str(jv_get(d, "label"));
	r->note = jv_str(jv_get(d, "note"));
	if (cg && cg->type == JV_OBJ) {
		const char *p = jv_str(jv_get(cg, "path")), *note = jv_str(jv_get(cg, "note"));

		if (!p || jv_u64(jv_get(cg, "id"), &r->cg.cgid) ||
		    jv_bool(jv_get(cg, "created"), &r->cg_created) ||
		    jv_bool(jv_get(cg, "removed"), &r->cg_removed)) {
			snprintf(err, errlen, "cgroup: needs path, id, created and removed");
			return -1;
		}
		r->cg_used = 1;
		snprintf(r->cg.rel, sizeof(r->cg.rel), "%s", p);
		snprintf(r->cg.note, sizeof(r->cg.note), "%s", note ? note : "");
		/* a report from before the member: its note was set only when cpu was missing */
		if (jv_bool(jv_get(cg, "cpu_controller"), &r->cg.cpu_ok)) {
			r->cg.cpu_ok = !note;
			r->cg_cpu_inferred = 1;
		}
	} else if (cg && cg->type != JV_NULL) {
		snprintf(err, errlen, "cgroup: not an object or null");
		return -1;
	}
	return 0;
}

/* r takes doc (a `run --json` document of path); where: "" or "document N: ". */
static int report_from_doc(struct report *r, const char *path, const char *where, struct jv *doc,
			   char *err, size_t errlen)
{
	const struct report_section *const *sec;
	const char *schema, *command;
	char why[400];
	size_t n;

	r->file = path;
	r->doc = doc;
	schema = jv_str(jv_get(r->doc, "schema"));
	command = jv_str(jv_get(r->doc, "command"));
	if (!schema || strcmp(schema, CLI_JSON_SCHEMA)) {
		snprintf(err, errlen, "%s: %snot a sched-shadow JSON document (schema %s, expected %s)",
			 path, where, schema ? schema : "missing", CLI_JSON_SCHEMA);
		return -1;
	}
	if (!command || strcmp(command, "run")) {
		snprintf(err, errlen, "%s: %sthe output of `%s`, not of `run --json`", path, where,
			 command ? command : "?");
		return -1;
	}
	if (rl_run(r, r->doc, why, sizeof(why)))
		goto bad;
	sec = report_sections_get(&n);
	for (size_t i = 0; i < n; i++)
		if (sec[i]->load && sec[i]->load(r, r->doc, why, sizeof(why)))
			goto bad;
	return 0;
bad:
	snprintf(err, errlen, "%s: %s%s", path, where, why);
	return -1;
}

int report_load(struct report *r, const char *path, char *err, size_t errlen)
{
	struct jv *doc = jv_parse_file(path, err, errlen);

	r->file = path;
	if (!doc)
		return -1;
	return report_from_doc(r, path, "", doc, err, errlen);
}

int report_load_all(const char *path, struct report **out, int *n, char *err, size_t errlen)
{
	struct jv *all = jv_parse_file_all(path, err, errlen);
	struct report *r;
	int i, rc = 0;

	*out = NULL;
	*n = 0;
	if (!all)
		return -1;
	r = calloc(all->n, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", path);
		jv_free(all);
		return -1;
	}
	/* each report owns its document: move them out of the array */
	for (i = 0; i < all->n; i++) {
		struct jv *d = malloc(sizeof(*d));
		char where[48] = "";

		if (!d) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -1;
			break;
		}
		*d = all->items[i];
		memset(&all->items[i], 0, sizeof(all->items[i]));
		if (all->n > 1)
			snprintf(where, sizeof(where), "document %d: ", i + 1);
		if (report_from_doc(&r[i], path, where, d, err, errlen)) {
			rc = -1;
			i++;
			break;
		}
	}
	jv_free(all);
	if (rc) {
		while (i-- > 0)
			report_free(&r[i]);
		free(r);
		return -1;
	}
	*out = r;
	*n = i;
	return 0;
}
