/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small streaming JSON writer: callers emit values in order, the writer
 * places commas and colons and escapes strings (RFC 8259: quote,
 * backslash and control characters; other bytes, UTF-8 included, pass
 * through).  Non-finite doubles become null.
 */
#ifndef SCHED_SHADOW_JSON_H
#define SCHED_SHADOW_JSON_H

#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	int pretty;			/* indent with two spaces per level */
	int depth;
	int count[JSON_MAX_DEPTH];	/* values written at each level */
	char kind[JSON_MAX_DEPTH];	/* '{' or '[' */
	int after_key;			/* a key was written, value pending */
	int top;			/* top-level values written */
	int err;			/* misuse (unbalanced, key outside object) */
};

void json_init(struct json_writer *w, FILE *f, int pretty);
void json_obj_begin(struct json_writer *w);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w);
void json_arr_end(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_str(struct json_writer *w, const char *s);	/* NULL -> null */
void json_u64(struct json_writer *w, uint64_t v);
void json_s64(struct json_writer *w, int64_t v);
void json_double(struct json_writer *w, double v);
void json_null(struct json_writer *w);
/* A number already in JSON form (a literal read back by json_parse.c). */
void json_raw_number(struct json_writer *w, const char *literal);
void json_bool(struct json_writer *w, bool v);

/* key + value shorthands */
void json_kv_str(struct json_writer *w, const char *k, const char *s);
void json_kv_u64(struct json_writer *w, const char *k, uint64_t v);
void json_kv_s64(struct json_writer *w, const char *k, int64_t v);
void json_kv_double(struct json_writer *w, const char *k, double v);
void json_kv_bool(struct json_writer *w, const char *k, bool v);
void json_kv_null(struct json_writer *w, const char *k);

/* Write the escaped, quoted form of s (used by json_str). */
void json_write_string(FILE *f, const char *s);

/* Top-level values written to stdout since the last reset (one per document). */
int json_stdout_documents(void);
void json_stdout_reset(void);

/* Finish a document: newline; returns 0 if balanced and no misuse, -1 otherwise. */
int json_end(struct json_writer *w);

#endif
