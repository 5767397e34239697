// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the CLI's debugfs parser (userspace/cli/sources/dbgfs.c) on good
 * input, `-` cells, malformed and truncated rows, wrong or missing
 * version lines, empty files, and on the fixture files that reproduce
 * the module's output (tests/unit/fixtures/cli/).
 */
#include <string.h>
#include <stdlib.h>
#include "tap.h"
#include "cli/sources/dbgfs.c"

#define FIX "tests/unit/fixtures/cli"

static int parse(const char *s, const char *name, struct dbgfs_table *t, struct dbgfs_error *e)
{
	return dbgfs_parse(s, strlen(s), name, t, e);
}

int main(void)
{
	struct dbgfs_table t;
	struct dbgfs_error e;
	uint64_t u;
	int64_t s;
	int rc;
	char buf[64];

	tap_begin("cli_dbgfs");

	rc = parse("# sched_shadow cpus v1\ncpu online load_avg\n0 1 1024\n1 0 -\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_OK, "good input parses");
	tap_ok(t.ncols == 3 && t.nrows == 2 && !strcmp(t.name, "cpus") && t.version == 1,
	       "3 columns, 2 rows, name and version kept");
	tap_ok(dbgfs_col(&t, "load_avg") == 2 && dbgfs_col(&t, "nope") == -1, "column lookup by name");
	tap_ok(dbgfs_u64(&t, 0, 2, &u) == 0 && u == 1024, "numeric cell");
	u = 7;
	tap_ok(dbgfs_u64(&t, 1, 2, &u) == 1 && u == 7, "'-' is not available, value untouched");
	tap_ok(dbgfs_is_na(&t, 1, 2) && !dbgfs_is_na(&t, 0, 2), "dbgfs_is_na");
	tap_ok(dbgfs_u64(&t, 5, 0, &u) == -1 && dbgfs_cell(&t, 0, 9) == NULL, "out of range is an error");
	tap_ok(dbgfs_u64_by(&t, 0, "missing", &u) == -1, "absent column is an error");
	tap_ok(dbgfs_sum_u64(&t, "online", &u) == 2 && u == 1, "column sum");
	dbgfs_free(&t);

	rc = parse("# sched_shadow x v1\na b\nfoo -12\n", "x", &t, &e);
	tap_ok(rc == 0 && dbgfs_s64(&t, 0, 1, &s) == 0 && s == -12, "signed cell");
	tap_ok(dbgfs_u64(&t, 0, 1, &u) == -1 && dbgfs_u64(&t, 0, 0, &u) == -1,
	       "negative or text is not u64");
	dbgfs_free(&t);

	rc = parse("# sched_shadow cpus v1\ncpu online\n0 1\n", "cpus", &t, &e);
	tap_ok(rc == 0 && t.nrows == 1, "header + one row, trailing newline");
	dbgfs_free(&t);
	rc = parse("# sched_shadow groups v1\ncpu path\n", "groups", &t, &e);
	tap_ok(rc == 0 && t.nrows == 0 && t.ncols == 2, "header only: zero rows is fine");
	dbgfs_free(&t);
	rc = parse("# sched_shadow cpus v1\ncpu  online\n\n0\t1  \n\n", "cpus", &t, &e);
	tap_ok(rc == 0 && t.nrows == 1 && !strcmp(dbgfs_cell(&t, 0, 1), "1"),
	       "extra whitespace and blank lines tolerated");
	dbgfs_free(&t);
	rc = parse("# sched_shadow cpus v1\ncpu online\n0 1", "cpus", &t, &e);
	tap_ok(rc == 0 && t.nrows == 1, "complete last row without newline accepted");
	dbgfs_free(&t);

	/* errors */
	rc = parse("# sched_shadow cpus v1\ncpu online nr\n0 1 2\n1 1\n2 1 0\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EMALFORMED && e.line == 4 && strstr(e.msg, "line 4"),
	       "short row in the middle: malformed, line 4 (%s)", e.msg);
	tap_ok(t.cells == NULL && t.buf == NULL && t.nrows == 0, "table left empty on error");
	rc = parse("# sched_shadow cpus v1\ncpu online\n0 1 2\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EMALFORMED, "long row: malformed");
	rc = parse("# sched_shadow cpus v1\ncpu online nr\n0 1 2\n1 1", "cpus", &t, &e);
	tap_ok(rc == DBGFS_ETRUNCATED && e.line == 4, "short last row without newline: truncated (%s)", e.msg);
	rc = parse("# sched_shadow cpus v1\ncpu onl", "cpus", &t, &e);
	tap_ok(rc == DBGFS_ETRUNCATED, "header without newline: truncated");
	rc = parse("# sched_shadow cpus v1", "cpus", &t, &e);
	tap_ok(rc == DBGFS_ENOHEADER, "version line only: no header");
	rc = parse("# sched_shadow cpus v1\n\n0 1\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_ENOHEADER, "empty header row");
	rc = parse("# sched_shadow cpus v2\ncpu\n0\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EVERSION && strstr(e.msg, "v2"), "v2: wrong version (%s)", e.msg);
	rc = parse("# sched_shadow groups v1\ncpu\n0\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EVERSION, "other file's version line rejected");
	rc = parse("cpu online\n0 1\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EVERSION && e.line == 1, "missing version line");
	rc = parse("# sched_shadow cpus v1x\ncpu\n0\n", "cpus", &t, &e);
	tap_ok(rc == DBGFS_EVERSION, "junk after version");
	rc = dbgfs_parse("", 0, "cpus", &t, &e);
	tap_ok(rc == DBGFS_EEMPTY, "empty input");
	rc = dbgfs_parse("# sched_shadow cpus v1\ncpu\n0\0\n", sizeof("# sched_shadow cpus v1\ncpu\n0\0\n") - 1, "cpus", &t, &e);
	tap_ok(rc == DBGFS_EMALFORMED, "NUL byte rejected");
	tap_ok(strcmp(dbgfs_strerror(DBGFS_ETRUNCATED), "unknown error") &&
	       !strcmp(dbgfs_strerror(999), "unknown error"), "strerror");

	/* fixtures: the module's real layout */
	rc = dbgfs_load(FIX "/good", "cpus", &t, &e);
	tap_ok(rc == 0 && t.ncols == 29 && t.nrows == 4, "fixture cpus: 29 columns, 4 CPUs");
	tap_ok(dbgfs_is_na(&t, 3, dbgfs_col(&t, "load_avg")) &&
	       dbgfs_u64_by(&t, 3, "published", &u) == 0 && u == 0, "offline CPU: '-' and counters");
	dbgfs_free(&t);
	rc = dbgfs_load(FIX "/good", "groups", &t, &e);
	tap_ok(rc == 0 && t.nrows == 4 && t.ncols == 16, "fixture groups");
	dbgfs_unescape(dbgfs_cell(&t, 1, dbgfs_col(&t, "path")), buf, sizeof(buf));
	tap_ok(!strcmp(buf, "/bench group"), "path \\040 unescaped: '%s'", buf);
	dbgfs_free(&t);
	rc = dbgfs_load(FIX "/good", "info", &t, &e);
	tap_ok(rc == 0 && !strcmp(dbgfs_info_get(&t, "kernel"), "6.1.0-57-amd64") &&
	       !strcmp(dbgfs_info_get(&t, "checks"), "passed:14") && !dbgfs_info_get(&t, "x"),
	       "fixture info key/value");
	dbgfs_free(&t);
	rc = dbgfs_load(FIX "/good", "lb", &t, &e);
	tap_ok(rc == 0 && t.nrows == 11 && dbgfs_u64_by(&t, 4, "right", &u) == 1, "fixture lb, busy rows '-'");
	dbgfs_free(&t);
	rc = dbgfs_load(FIX "/noaudit", "lb", &t, &e);
	tap_ok(rc == DBGFS_ENOENT, "absent file: ENOENT (%s)", e.msg);
	rc = dbgfs_load(FIX "/bad", "cpus_v2", &t, &e);
	tap_ok(rc == DBGFS_EVERSION, "fixture wrong version (name check)");
	rc = dbgfs_load("/nonexistent/sched_shadow", "cpus", &t, &e);
	tap_ok(rc == DBGFS_ENOMODULE && strstr(e.msg, "insmod"), "missing root: module not loaded (%s)", e.msg);

	dbgfs_unescape("a\\134b\\011c\\9", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "a\\b\tc\\9"), "unescape backslash, tab, keeps bad escape");
	dbgfs_unescape("abcdef", buf, 4);
	tap_ok(!strcmp(buf, "abc"), "unescape truncates to buffer");

	return tap_end();
}
