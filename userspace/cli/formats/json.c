// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON writer; see json.h. */
#include <math.h>
#include <inttypes.h>
#include <string.h>

#include "cli/formats/json.h"

void json_init(struct json_writer *w, FILE *f, int pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

static void indent(struct json_writer *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator before a value (or key) at the current level. */
/* Top-level values written to stdout (run, status, ...): main's {"error"} check. */
static int json_stdout_docs;

int json_stdout_documents(void)
{
	return json_stdout_docs;
}

void json_stdout_reset(void)
{
	json_stdout_docs = 0;
}

static void before_value(struct json_writer *w)
{
	if (w->depth == 0 && !w->after_key && w->f == stdout)
		json_stdout_docs++;
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (w->kind[w->depth - 1] == '{')
			w->err = 1;	/* value in object without key */
		if (w->count[w->depth - 1]++)
			fputc(',', w->f);
		indent(w);
	} else if (w->top++) {
		w->err = 1;		/* two top-level values */
	}
}

void json_write_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fputs("\\u00", f);
				fputc(hex[*p >> 4], f);
				fputc(hex[*p & 15], f);
			} else {
				fputc(*p, f);	/* UTF-8 passes through */
			}
		}
	}
	fputc('"', f);
}

static void open_level(struct json_writer *w, char kind)
{
	before_value(w);
	fputc(kind, w->f);
	if (w->depth >= JSON_MAX_DEPTH) {
		w->err = 1;
		return;
	}
	w->kind[w->depth] = kind;
	w->count[w->depth] = 0;
	w->depth++;
}

static void close_level(struct json_writer *w, char kind)
{
	if (w->depth == 0 || w->kind[w->depth - 1] != kind || w->after_key) {
		w->err = 1;
		return;
	}
	w->depth--;
	if (w->count[w->depth])
		indent(w);
	fputc(kind == '{' ? '}' : ']', w->f);
}

void json_obj_begin(struct json_writer *w) { open_level(w, '{'); }
void json_obj_end(struct json_writer *w) { close_level(w, '{'); }
void json_arr_begin(struct json_writer *w) { open_level(w, '['); }
void json_arr_end(struct json_writer *w) { close_level(w, '['); }

void json_key(struct json_writer *w, const char *key)
{
	if (w->depth == 0 || w->kind[w->depth - 1] != '{' || w->after_key) {
		w->err = 1;
		return;
	}
	if (w->count[w->depth - 1]++)
		fputc(',', w->f);
	indent(w);
	json_write_string(w->f, key);
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = 1;
}

void json_str(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	before_value(w);
	json_write_string(w->f, s);
}

void json_u64(struct json_writer *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void json_s64(struct json_writer *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRId64, v);
}

void json_double(struct json_writer *w, double v)
{
	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	before_value(w);
	/* %.17g round-trips; trim to something readable but exact enough */
	fprintf(w->f, "%.10g", v);
}

void json_raw_number(struct json_writer *w, const char *literal)
{
	before_value(w);
	fputs(literal, w->f);
}

void json_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->f);
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void json_kv_str(struct json_writer *w, const char *k, const char *s) { json_key(w, k); json_str(w, s); }
void json_kv_u64(struct json_writer *w, const char *k, uint64_t v) { json_key(w, k); json_u64(w, v); }
void json_kv_s64(struct json_writer *w, const char *k, int64_t v) { json_key(w, k); json_s64(w, v); }
void json_kv_double(struct json_writer *w, const char *k, double v) { json_key(w, k); json_double(w, v); }
void json_kv_bool(struct json_writer *w, const char *k, bool v) { json_key(w, k); json_bool(w, v); }
void json_kv_null(struct json_writer *w, const char *k) { json_key(w, k); json_null(w); }

int json_end(struct json_writer *w)
{
	fputc('\n', w->f);
	fflush(w->f);
	return (w->err || w->depth || w->after_key) ? -1 : 0;
}
