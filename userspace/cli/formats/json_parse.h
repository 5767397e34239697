/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259) for the CLI's own documents: `report`
 * and `compare` read back what `run --json` wrote.  The whole document
 * becomes a tree of struct jv; numbers keep their literal text, so a
 * 64-bit counter reads back exactly and is written back unchanged.
 * Strings are unescaped (\uXXXX to UTF-8, surrogate pairs joined); a
 * string with a NUL character is refused.  Nesting is limited to
 * JV_MAX_DEPTH.  Pure C, no globals: host unit tests include it.
 */
#ifndef SCHED_SHADOW_CLI_JSON_PARSE_H
#define SCHED_SHADOW_CLI_JSON_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include "cli/formats/json.h"

#define JV_MAX_DEPTH	64

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_type type;
	int b;			/* JV_BOOL */
	double num;		/* JV_NUM, as a double */
	char *str;		/* JV_STR: unescaped; JV_NUM: the literal */
	int n;			/* JV_ARR, JV_OBJ: members */
	struct jv *items;	/* n values */
	char **keys;		/* JV_OBJ: n keys */
};

/*
 * Parse text[0..len) as one JSON document.  Returns a tree (free with
 * jv_free) or NULL with a message naming the line and column in err.
 */
struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a file ("-" is stdin); the message names the file. */
struct jv *jv_parse_file(const char *path, char *err, size_t errlen);
/*
 * Read a file of one or more documents, one after the other (JSON lines,
 * or documents separated by whitespace), as a JV_ARR of them; an empty
 * file is an error.
 */
struct jv *jv_parse_file_all(const char *path, char *err, size_t errlen);
void jv_free(struct jv *v);

/* Member of an object by key (the first one), NULL when absent or v not an object. */
const struct jv *jv_get(const struct jv *v, const char *key);
/* jv_get along a path of keys, ending with NULL. */
const struct jv *jv_path(const struct jv *v, ...);
/* Element i of an array, NULL when out of range. */
const struct jv *jv_at(const struct jv *v, int i);

/* Typed reads: 0 on success, -1 when v is absent or of another type/range. */
int jv_u64(const struct jv *v, uint64_t *out);	/* a non-negative integer literal */
int jv_s64(const struct jv *v, int64_t *out);	/* an integer literal */
int jv_double(const struct jv *v, double *out);
int jv_bool(const struct jv *v, int *out);
/* The string, or NULL (absent, null or not a string). */
const char *jv_str(const struct jv *v);
int jv_is_null(const struct jv *v);		/* present and null */

/* Write v with the writer (numbers as their literal). */
void jv_write(struct json_writer *w, const struct jv *v);

#endif
