// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the CLI writers: JSON (userspace/cli/formats/json.c) output is
 * parsed back by a small strict validator/decoder below; Prometheus
 * (prom.c) lines are parsed back (HELP/TYPE, names, label unescaping);
 * the aligned table printer (table.c) is checked on exact strings.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "tap.h"
#include "cli/formats/json.c"
#include "cli/formats/prom.c"
#include "cli/formats/table.c"

/* ---- strict JSON validator (RFC 8259 subset: everything we emit) ---- */
struct jp {
	const char *p;
	int err;
	char last_str[256];	/* decoded value of the last string seen */
};

static void jws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
		j->p++;
}

static int jvalue(struct jp *j, int depth);

static int hexv(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static int jstring(struct jp *j)
{
	size_t o = 0;

	if (*j->p != '"')
		return -1;
	j->p++;
	while (*j->p != '"') {
		unsigned char c = (unsigned char)*j->p;
		int ch;

		if (c == 0 || c < 0x20)
			return -1;	/* raw control char: invalid JSON */
		if (c == '\\') {
			j->p++;
			switch (*j->p) {
			case '"': ch = '"'; break;
			case '\\': ch = '\\'; break;
			case '/': ch = '/'; break;
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'r': ch = '\r'; break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'u':
				ch = 0;
				for (int i = 1; i <= 4; i++) {
					int h = hexv(j->p[i]);

					if (h < 0)
						return -1;
					ch = ch * 16 + h;
				}
				if (ch > 0x7f)
					return -1;	/* we only emit \u00XX */
				j->p += 4;
				break;
			default:
				return -1;
			}
			j->p++;
		} else {
			ch = c;
			j->p++;
		}
		if (o + 1 < sizeof(j->last_str))
			j->last_str[o++] = (char)ch;
	}
	j->last_str[o] = '\0';
	j->p++;
	return 0;
}

static int jnumber(struct jp *j)
{
	const char *s = j->p;

	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (*j->p >= '1' && *j->p <= '9')
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	else
		return -1;
	if (*j->p == '.') {
		j->p++;
		if (!(*j->p >= '0' && *j->p <= '9'))
			return -1;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!(*j->p >= '0' && *j->p <= '9'))
			return -1;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s ? 0 : -1;
}

static int jvalue(struct jp *j, int depth)
{
	if (depth > 64)
		return -1;
	jws(j);
	switch (*j->p) {
	case '{':
		j->p++;
		jws(j);
		if (*j->p == '}') { j->p++; return 0; }
		for (;;) {
			jws(j);
			if (jstring(j)) return -1;
			jws(j);
			if (*j->p++ != ':') return -1;
			if (jvalue(j, depth + 1)) return -1;
			jws(j);
			if (*j->p == ',') { j->p++; continue; }
			if (*j->p == '}') { j->p++; return 0; }
			return -1;
		}
	case '[':
		j->p++;
		jws(j);
		if (*j->p == ']') { j->p++; return 0; }
		for (;;) {
			if (jvalue(j, depth + 1)) return -1;
			jws(j);
			if (*j->p == ',') { j->p++; continue; }
			if (*j->p == ']') { j->p++; return 0; }
			return -1;
		}
	case '"':
		return jstring(j);
	case 't':
		if (!strncmp(j->p, "true", 4)) { j->p += 4; return 0; }
		return -1;
	case 'f':
		if (!strncmp(j->p, "false", 5)) { j->p += 5; return 0; }
		return -1;
	case 'n':
		if (!strncmp(j->p, "null", 4)) { j->p += 4; return 0; }
		return -1;
	default:
		return jnumber(j);
	}
}

static int json_valid(const char *s)
{
	struct jp j = { .p = s };

	if (jvalue(&j, 0))
		return 0;
	jws(&j);
	return *j.p == '\0';
}

/* Write one document with `fn`, return malloc'ed text and writer status. */
#define CAPTURE(buf, len, f, ...) do { \
	f = open_memstream(&buf, &len); __VA_ARGS__; fclose(f); } while (0)

/* ---- Prometheus line parser ---- */
struct psample {
	char name[128];
	int nlabels;
	char lname[8][64], lval[8][256];
	double v;
};

/* Parse one sample line; returns 0 on success. */
static int prom_parse_sample(const char *s, struct psample *ps)
{
	int n = 0;
	char *e;

	memset(ps, 0, sizeof(*ps));
	while (*s && *s != '{' && *s != ' ' && n < 127)
		ps->name[n++] = *s++;
	if (!prom_valid_metric_name(ps->name))
		return -1;
	if (*s == '{') {
		s++;
		while (*s != '}') {
			int k = 0, o = 0;

			if (ps->nlabels == 8)
				return -1;
			while (*s && *s != '=' && k < 63)
				ps->lname[ps->nlabels][k++] = *s++;
			if (*s++ != '=' || *s++ != '"')
				return -1;
			if (!prom_valid_label_name(ps->lname[ps->nlabels]))
				return -1;
			while (*s != '"') {
				char c = *s++;

				if (!c || c == '\n')
					return -1;
				if (c == '\\') {
					c = *s++;
					if (c == 'n') c = '\n';
					else if (c != '\\' && c != '"') return -1;
				}
				if (o < 255)
					ps->lval[ps->nlabels][o++] = c;
			}
			s++;
			ps->nlabels++;
			if (*s == ',')
				s++;
			else if (*s != '}')
				return -1;
		}
		s++;
	}
	if (*s++ != ' ')
		return -1;
	ps->v = strtod(s, &e);
	return (e == s || (*e && *e != '\n')) ? -1 : 0;
}

int main(void)
{
	struct json_writer w;
	struct prom_writer p;
	struct table tb;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	tap_begin("cli_writers");

	/* JSON: structure and commas */
	CAPTURE(buf, len, f, {
		json_init(&w, f, 0);
		json_obj_begin(&w);
		json_kv_str(&w, "schema", "sched_shadow/v1");
		json_kv_u64(&w, "u", 18446744073709551615ULL);
		json_kv_s64(&w, "s", -5);
		json_kv_double(&w, "d", 1.5);
		json_kv_double(&w, "nan", NAN);
		json_kv_bool(&w, "t", true);
		json_kv_null(&w, "n");
		json_key(&w, "a");
		json_arr_begin(&w);
		json_u64(&w, 1);
		json_obj_begin(&w);
		json_obj_end(&w);
		json_arr_begin(&w);
		json_arr_end(&w);
		json_arr_end(&w);
		json_obj_end(&w);
		rc = json_end(&w);
	});
	tap_ok(rc == 0, "balanced document reports success");
	tap_ok(!strcmp(buf, "{\"schema\":\"sched_shadow/v1\",\"u\":18446744073709551615,\"s\":-5,"
		       "\"d\":1.5,\"nan\":null,\"t\":true,\"n\":null,\"a\":[1,{},[]]}\n"),
	       "exact compact output");
	tap_ok(json_valid(buf), "compact output parses back");
	free(buf);

	/* escaping */
	CAPTURE(buf, len, f, {
		json_init(&w, f, 1);
		json_obj_begin(&w);
		json_kv_str(&w, "q\"k", "a\"b\\c/\n\t\r\b\f\x01\x1f\x7f é ✓");
		json_obj_end(&w);
		rc = json_end(&w);
	});
	tap_ok(rc == 0 && json_valid(buf), "escaped pretty document parses back");
	tap_ok(strstr(buf, "\"q\\\"k\": ") != NULL, "key escaped");
	tap_ok(strstr(buf, "a\\\"b\\\\c/\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f é ✓") != NULL,
	       "quote, backslash, control chars escaped; UTF-8 passed through");
	{
		struct jp j = { .p = strstr(buf, ": ") + 2 };

		tap_ok(jstring(&j) == 0 &&
		       !strcmp(j.last_str, "a\"b\\c/\n\t\r\b\f\x01\x1f\x7f é ✓"),
		       "string decodes back to the original bytes");
	}
	free(buf);

	CAPTURE(buf, len, f, {
		json_init(&w, f, 0);
		json_str(&w, NULL);
		rc = json_end(&w);
	});
	tap_ok(rc == 0 && !strcmp(buf, "null\n"), "NULL string is null");
	free(buf);

	/* misuse detected */
	CAPTURE(buf, len, f, { json_init(&w, f, 0); json_obj_begin(&w); rc = json_end(&w); });
	tap_ok(rc == -1, "unclosed object reported");
	free(buf);
	CAPTURE(buf, len, f, { json_init(&w, f, 0); json_obj_begin(&w); json_u64(&w, 1);
			       json_obj_end(&w); rc = json_end(&w); });
	tap_ok(rc == -1, "value without key reported");
	free(buf);
	CAPTURE(buf, len, f, { json_init(&w, f, 0); json_arr_begin(&w); json_key(&w, "k");
			       json_arr_end(&w); rc = json_end(&w); });
	tap_ok(rc == -1, "key inside array reported");
	free(buf);
	CAPTURE(buf, len, f, { json_init(&w, f, 0); json_arr_begin(&w); json_obj_end(&w);
			       rc = json_end(&w); });
	tap_ok(rc == -1, "mismatched close reported");
	free(buf);
	tap_ok(!json_valid("{\"a\":1,}") && !json_valid("{\"a\":\"x\ny\"}") && !json_valid("[1 2]"),
	       "validator rejects bad JSON");

	/* Prometheus */
	CAPTURE(buf, len, f, {
		struct prom_label l[2] = { { "cpu", "0" }, { "path", "/a\"b\\c\nd" } };

		prom_init(&p, f);
		prom_family(&p, "sched_shadow_cpu_load_avg", "gauge", "load\\help\nline");
		prom_sample_u64(&p, "sched_shadow_cpu_load_avg", l, 2, 1024);
		prom_family(&p, "sched_shadow_cpu_load_avg", "gauge", "again");
		prom_sample(&p, "sched_shadow_cpu_load_avg", l, 1, 0.5);
		prom_family(&p, "sched_shadow_lb_wrong_total", "counter", "wrong picks");
		prom_sample(&p, "sched_shadow_lb_wrong_total", NULL, 0, NAN);
		rc = prom_end(&p);
	});
	tap_ok(rc == 0, "valid names: no error");
	{
		char *save = NULL, *line, *copy = strdup(buf);
		int help = 0, type = 0, samples = 0, bad = 0, first_ok = 0;
		struct psample ps;

		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "# HELP ", 7)) {
				help++;
				if (strstr(line, "load_avg load\\\\help\\nline"))
					first_ok++;
			} else if (!strncmp(line, "# TYPE ", 7)) {
				type++;
			} else if (prom_parse_sample(line, &ps) == 0) {
				samples++;
				if (samples == 1 && ps.nlabels == 2 && ps.v == 1024 &&
				    !strcmp(ps.lname[1], "path") && !strcmp(ps.lval[1], "/a\"b\\c\nd"))
					first_ok++;
				if (samples == 3 && !isnan(ps.v))
					bad++;
			} else {
				bad++;
			}
		}
		tap_ok(help == 2 && type == 2, "one HELP and TYPE per family (%d, %d)", help, type);
		tap_ok(samples == 3 && !bad, "every sample line parses back");
		tap_ok(first_ok == 2, "label value and HELP escaping round-trip");
		tap_ok(strstr(buf, "# TYPE sched_shadow_lb_wrong_total counter\n") != NULL,
		       "TYPE line");
		tap_ok(strstr(buf, "path=\"/a\\\"b\\\\c\\nd\"") != NULL, "label escaped on the wire");
		free(copy);
	}
	free(buf);
	CAPTURE(buf, len, f, {
		struct prom_label l = { "bad-label", "x" };

		prom_init(&p, f);
		prom_sample_u64(&p, "sched_shadow_x", &l, 1, 1);
		rc = prom_end(&p);
	});
	tap_ok(rc == -1, "invalid label name reported");
	free(buf);
	tap_ok(prom_valid_metric_name("sched_shadow_a:b_1") && !prom_valid_metric_name("1abc") &&
	       !prom_valid_metric_name("a-b") && !prom_valid_metric_name(""),
	       "metric name validation");
	tap_ok(prom_valid_label_name("cpu") && !prom_valid_label_name("__x") &&
	       !prom_valid_label_name("a:b"), "label name validation");

	/* aligned table */
	CAPTURE(buf, len, f, {
		const char *h[] = { "cpu", "name", "load" };
		const char *r1[] = { "0", "root", "1024" };
		const char *r2[] = { "12", "a", NULL };

		table_init(&tb, 3);
		table_header(&tb, h);
		table_row(&tb, r1);
		table_row(&tb, r2);
		table_print(&tb, f);
		table_free(&tb);
	});
	tap_ok(!strcmp(buf,
		       "cpu  name  load\n"
		       "  0  root  1024\n"
		       " 12  a        -\n"),
	       "numbers right-aligned, text left, NULL as -");
	free(buf);
	CAPTURE(buf, len, f, {
		const char *h[] = { "path", "n" };
		const char *r1[] = { "/é", "1" };
		const char *r2[] = { "/abc", "22" };

		table_init(&tb, 2);
		table_header(&tb, h);
		table_set_align(&tb, 1, TABLE_LEFT);
		for (int i = 0; i < 20; i++)	/* grows past the initial capacity */
			table_row(&tb, i % 2 ? r2 : r1);
		table_print(&tb, f);
		table_free(&tb);
	});
	tap_ok(!strncmp(buf, "path  n\n/é    1\n/abc  22\n", strlen("path  n\n/é    1\n/abc  22\n")) && strlen(buf) > 150,
	       "UTF-8 width, forced left alignment, no trailing blanks, 20 rows");
	free(buf);

	return tap_end();
}
