// SPDX-License-Identifier: GPL-2.0
/*
 * JSON reader (see json_parse.h): recursive descent over the whole
 * document, one allocation per string and per array or object.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/formats/json_parse.h"

struct jp {
	const char *s, *end, *start;
	char *err;
	size_t errlen;
	int failed;
};

static void __attribute__((format(printf, 2, 3))) jp_fail(struct jp *p, const char *fmt, ...)
{
	int line = 1, col = 1;
	char msg[200];
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	for (const char *c = p->start; c < p->s && c < p->end; c++) {
		if (*c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->err)
		snprintf(p->err, p->errlen, "line %d, column %d: %s", line, col, msg);
}

static void jp_ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int jp_lit(struct jp *p, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, lit, n))
		return 0;
	p->s += n;
	return 1;
}

static int jp_hex4(struct jp *p, unsigned int *out)
{
	unsigned int v = 0;

	if (p->end - p->s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = *p->s++;

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t utf8_put(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | (cp >> 6);
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | (cp >> 12);
		o[1] = 0x80 | ((cp >> 6) & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | (cp >> 18);
	o[1] = 0x80 | ((cp >> 12) & 0x3f);
	o[2] = 0x80 | ((cp >> 6) & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* At the opening quote; returns a malloc'd unescaped string. */
static char *jp_string(struct jp *p)
{
	const char *q = ++p->s;
	char *out, *o;

	/* the unescaped form is never longer than the escaped one */
	while (q < p->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= p->end) {
		jp_fail(p, "unterminated string");
		return NULL;
	}
	out = o = malloc(q - p->s + 1);
	if (!out) {
		jp_fail(p, "out of memory");
		return NULL;
	}
	while (*p->s != '"') {
		unsigned char c = *p->s++;
		unsigned int cp, lo;

		if (c < 0x20) {
			p->s--;
			jp_fail(p, "control character in a string");
			goto bad;
		}
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *p->s++;
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (jp_hex4(p, &cp))
				goto bad_escape;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (!jp_lit(p, "\\u") || jp_hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
					goto bad_escape;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				goto bad_escape;
			}
			if (cp == 0) {
				jp_fail(p, "NUL character in a string");
				goto bad;
			}
			o += utf8_put(o, cp);
			break;
		default:
			goto bad_escape;
		}
	}
	p->s++;
	*o = 0;
	return out;
bad_escape:
	jp_fail(p, "bad escape in a string");
bad:
	free(out);
	return NULL;
}

static int jp_number(struct jp *p, struct jv *v)
{
	const char *b = p->s;
	char *e;

	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s >= p->end || *p->s < '0' || *p->s > '9')
		goto bad;
	if (*p->s == '0')
		p->s++;
	else
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	if (p->s < p->end && *p->s == '.') {
		p->s++;
		if (p->s >= p->end || *p->s < '0' || *p->s > '9')
			goto bad;
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	}
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		if (p->s >= p->end || *p->s < '0' || *p->s > '9')
			goto bad;
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	}
	v->type = JV_NUM;
	v->str = strndup(b, p->s - b);
	if (!v->str) {
		jp_fail(p, "out of memory");
		return -1;
	}
	v->num = strtod(v->str, &e);
	return 0;
bad:
	jp_fail(p, "bad number");
	return -1;
}

static int jp_value(struct jp *p, struct jv *v, int depth);

static int jp_push(struct jp *p, struct jv *v, int *cap, char *key)
{
	if (v->n == *cap) {
		int nc = *cap ? *cap * 2 : 4;
		struct jv *it = realloc(v->items, nc * sizeof(*it));
		char **ks;

		if (!it)
			goto oom;
		v->items = it;
		if (v->type == JV_OBJ) {
			ks = realloc(v->keys, nc * sizeof(*ks));
			if (!ks)
				goto oom;
			v->keys = ks;
		}
		*cap = nc;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	if (v->type == JV_OBJ)
		v->keys[v->n] = key;
	v->n++;
	return 0;
oom:
	free(key);
	jp_fail(p, "out of memory");
	return -1;
}

static int jp_value(struct jp *p, struct jv *v, int depth)
{
	int cap = 0;

	memset(v, 0, sizeof(*v));
	jp_ws(p);
	if (p->s >= p->end) {
		jp_fail(p, "unexpected end of input");
		return -1;
	}
	switch (*p->s) {
	case '{':
	case '[': {
		char close = *p->s == '{' ? '}' : ']';

		if (depth >= JV_MAX_DEPTH) {
			jp_fail(p, "nested deeper than %d", JV_MAX_DEPTH);
			return -1;
		}
		v->type = close == '}' ? JV_OBJ : JV_ARR;
		p->s++;
		jp_ws(p);
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		for (;;) {
			char *key = NULL;

			jp_ws(p);
			if (v->type == JV_OBJ) {
				if (p->s >= p->end || *p->s != '"') {
					jp_fail(p, "expected a string key");
					return -1;
				}
				key = jp_string(p);
				if (!key)
					return -1;
				jp_ws(p);
				if (p->s >= p->end || *p->s != ':') {
					free(key);
					jp_fail(p, "expected ':'");
					return -1;
				}
				p->s++;
			}
			if (jp_push(p, v, &cap, key) ||
			    jp_value(p, &v->items[v->n - 1], depth + 1))
				return -1;
			jp_ws(p);
			if (p->s < p->end && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->end && *p->s == close) {
				p->s++;
				return 0;
			}
			jp_fail(p, "expected ',' or '%c'", close);
			return -1;
		}
	}
	case '"':
		v->type = JV_STR;
		v->str = jp_string(p);
		return v->str ? 0 : -1;
	case 't':
	case 'f':
	case 'n':
		if (jp_lit(p, "true")) {
			v->type = JV_BOOL;
			v->b = 1;
		} else if (jp_lit(p, "false")) {
			v->type = JV_BOOL;
		} else if (jp_lit(p, "null")) {
			v->type = JV_NULL;
		} else {
			jp_fail(p, "unexpected character '%c'", *p->s);
			return -1;
		}
		return 0;
	default:
		if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
			return jp_number(p, v);
		jp_fail(p, "unexpected character '%c'", *p->s);
		return -1;
	}
}

static void jv_clear(struct jv *v)
{
	for (int i = 0; i < v->n; i++) {
		jv_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	jv_clear(v);
	free(v);
}

struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp p = { .s = text, .end = text + len, .start = text, .err = err, .errlen = errlen };
	struct jv *v = calloc(1, sizeof(*v));

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (jp_value(&p, v, 0) == 0) {
		jp_ws(&p);
		if (p.s == p.end)
			return v;
		jp_fail(&p, "text after the document");
	}
	jv_free(v);
	return NULL;
}

/* Several documents, one after the other: a JV_ARR of them. */
static struct jv *jv_parse_stream(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp p = { .s = text, .end = text + len, .start = text, .err = err, .errlen = errlen };
	struct jv *all = calloc(1, sizeof(*all));
	int cap = 0;

	if (!all) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	all->type = JV_ARR;
	jp_ws(&p);
	while (p.s < p.end) {
		if (all->n == cap) {
			struct jv *ni = realloc(all->items, (cap = cap ? cap * 2 : 4) * sizeof(*ni));

			if (!ni) {
				snprintf(err, errlen, "out of memory");
				goto bad;
			}
			all->items = ni;
		}
		memset(&all->items[all->n], 0, sizeof(all->items[0]));
		if (jp_value(&p, &all->items[all->n], 0)) {
			jv_clear(&all->items[all->n]);
			goto bad;
		}
		all->n++;
		jp_ws(&p);
	}
	return all;
bad:
	jv_free(all);
	return NULL;
}

static char *read_all(const char *path, size_t *lenp, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536 * 2);

			if (!nb) {
				free(buf);
				if (f != stdin)
					fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		if (f != stdin)
			fclose(f);
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	*lenp = len;
	return buf;
}

struct jv *jv_parse_file(const char *path, char *err, size_t errlen)
{
	char msg[240], *buf;
	size_t len = 0;
	struct jv *v;

	buf = read_all(path, &len, err, errlen);
	if (!buf)
		return NULL;
	v = jv_parse(buf, len, msg, sizeof(msg));
	if (!v)
		snprintf(err, errlen, "%s: not JSON: %s", path, len ? msg : "empty file");
	free(buf);
	return v;
}

struct jv *jv_parse_file_all(const char *path, char *err, size_t errlen)
{
	char msg[240], *buf;
	size_t len = 0;
	struct jv *v;

	buf = read_all(path, &len, err, errlen);
	if (!buf)
		return NULL;
	v = jv_parse_stream(buf, len, msg, sizeof(msg));
	if (!v)
		snprintf(err, errlen, "%s: not JSON: %s", path, msg);
	else if (!v->n)
		snprintf(err, errlen, "%s: not JSON: %s", path, "empty file");
	if (v && !v->n) {
		jv_free(v);
		v = NULL;
	}
	free(buf);
	return v;
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJ)
		return NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const struct jv *jv_path(const struct jv *v, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, v);
	while (v && (k = va_arg(ap, const char *)))
		v = jv_get(v, k);
	va_end(ap);
	return v;
}

const struct jv *jv_at(const struct jv *v, int i)
{
	if (!v || v->type != JV_ARR || i < 0 || i >= v->n)
		return NULL;
	return &v->items[i];
}

int jv_u64(const struct jv *v, uint64_t *out)
{
	char *e;
	unsigned long long x;

	if (!v || v->type != JV_NUM || v->str[0] == '-' || strpbrk(v->str, ".eE"))
		return -1;
	errno = 0;
	x = strtoull(v->str, &e, 10);
	if (errno || *e)
		return -1;
	*out = x;
	return 0;
}

int jv_s64(const struct jv *v, int64_t *out)
{
	char *e;
	long long x;

	if (!v || v->type != JV_NUM || strpbrk(v->str, ".eE"))
		return -1;
	errno = 0;
	x = strtoll(v->str, &e, 10);
	if (errno || *e)
		return -1;
	*out = x;
	return 0;
}

int jv_double(const struct jv *v, double *out)
{
	if (!v || v->type != JV_NUM || !isfinite(v->num))
		return -1;
	*out = v->num;
	return 0;
}

int jv_bool(const struct jv *v, int *out)
{
	if (!v || v->type != JV_BOOL)
		return -1;
	*out = v->b;
	return 0;
}

const char *jv_str(const struct jv *v)
{
	return v && v->type == JV_STR ? v->str : NULL;
}

int jv_is_null(const struct jv *v)
{
	return v && v->type == JV_NULL;
}

void jv_write(struct json_writer *w, const struct jv *v)
{
	switch (v->type) {
	case JV_NULL:
		json_null(w);
		break;
	case JV_BOOL:
		json_bool(w, v->b);
		break;
	case JV_NUM:
		json_raw_number(w, v->str);
		break;
	case JV_STR:
		json_str(w, v->str);
		break;
	case JV_ARR:
		json_arr_begin(w);
		for (int i = 0; i < v->n; i++)
			jv_write(w, &v->items[i]);
		json_arr_end(w);
		break;
	case JV_OBJ:
		json_obj_begin(w);
		for (int i = 0; i < v->n; i++) {
			json_key(w, v->keys[i]);
			jv_write(w, &v->items[i]);
		}
		json_obj_end(w);
		break;
	}
}
