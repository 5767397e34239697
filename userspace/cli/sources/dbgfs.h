/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one parser for the module's debugfs files (docs/debugfs.md):
 *
 *   # sched_shadow <name> v1
 *   <column names separated by spaces>
 *   <rows of whitespace-separated cells>
 *
 * A parsed file is a table of string cells; numeric accessors treat `-`
 * as "not available".  Pure C, no globals: host unit tests include
 * dbgfs.c directly.
 */
#ifndef SCHED_SHADOW_DBGFS_H
#define SCHED_SHADOW_DBGFS_H

#include <stddef.h>
#include <stdint.h>

#define DBGFS_VERSION	1

enum dbgfs_err {
	DBGFS_OK = 0,
	DBGFS_ENOENT,		/* file absent (feature inactive or module gone) */
	DBGFS_ENOMODULE,	/* the sched_shadow directory is absent */
	DBGFS_ENODEBUGFS,	/* debugfs is not mounted at the root's parent */
	DBGFS_EACCES,		/* permission denied (not root) */
	DBGFS_EIO,		/* other read/write error */
	DBGFS_EEMPTY,		/* zero bytes */
	DBGFS_EVERSION,		/* missing or wrong "# sched_shadow <name> v1" line */
	DBGFS_ENOHEADER,	/* version line but no header row */
	DBGFS_EMALFORMED,	/* a complete row with the wrong number of cells */
	DBGFS_ETRUNCATED,	/* last row incomplete (no newline and too few cells) */
	DBGFS_ENOMEM,
};

struct dbgfs_error {
	enum dbgfs_err code;
	int line;		/* 1-based line of the problem, 0 if none */
	char msg[256];		/* human-readable, names the file */
};

struct dbgfs_table {
	char name[32];		/* file name from the version line */
	int version;
	int ncols;
	int nrows;
	char **cols;		/* ncols column names */
	char **cells;		/* nrows * ncols cells, row-major */
	char *buf;		/* backing storage for all strings */
};

/*
 * Parse `len` bytes of `text` as debugfs file `name` (checked against
 * the version line; NULL accepts any name).  On success returns 0 and
 * fills *t (free with dbgfs_free); otherwise returns the error code,
 * leaves *t empty and fills *err when non-NULL.
 */
int dbgfs_parse(const char *text, size_t len, const char *name,
		struct dbgfs_table *t, struct dbgfs_error *err);

/* Read <root>/<name> and parse it; distinguishes ENOMODULE/ENODEBUGFS/ENOENT/EACCES. */
int dbgfs_load(const char *root, const char *name,
	       struct dbgfs_table *t, struct dbgfs_error *err);

/* Write `val` to <root>/<name> (reset, enable). */
int dbgfs_write(const char *root, const char *name, const char *val,
		struct dbgfs_error *err);

/* 1 when modules.dep (make install, DKMS: depmod wrote it) lists sched_shadow.ko. */
int dbgfs_module_installed(const char *modules_dep);

/*
 * DBGFS_OK when <root> is a directory, else ENOMODULE/ENODEBUGFS/EACCES;
 * the message says how to load the module (modprobe when installed).
 */
int dbgfs_probe_root(const char *root, struct dbgfs_error *err);

void dbgfs_free(struct dbgfs_table *t);

/* When set (sched-shadow -v), called with "reading"/"writing" and each path. */
extern void (*dbgfs_trace_hook)(const char *what, const char *path);
const char *dbgfs_strerror(int code);

/* Column index by name, -1 if absent. */
int dbgfs_col(const struct dbgfs_table *t, const char *name);
/* Cell text, NULL if row/col out of range. */
const char *dbgfs_cell(const struct dbgfs_table *t, int row, int col);
/* Nonzero if the cell is `-` (or out of range / column absent). */
int dbgfs_is_na(const struct dbgfs_table *t, int row, int col);

/*
 * Numeric cells: return 0 and set *v on a number, 1 when the cell is
 * `-` (not available; *v untouched), -1 when absent or not a number.
 */
int dbgfs_u64(const struct dbgfs_table *t, int row, int col, uint64_t *v);
int dbgfs_s64(const struct dbgfs_table *t, int row, int col, int64_t *v);
/* Same by column name. */
int dbgfs_u64_by(const struct dbgfs_table *t, int row, const char *col, uint64_t *v);
/* Sum a column over rows (skipping `-`); returns number of rows summed. */
int dbgfs_sum_u64(const struct dbgfs_table *t, const char *col, uint64_t *sum);

/* info file (key value): value of a key, NULL if absent. */
const char *dbgfs_info_get(const struct dbgfs_table *info, const char *key);

/* Undo the `\ooo` octal escaping of `path` cells; returns bytes written. */
size_t dbgfs_unescape(const char *in, char *out, size_t outlen);

#endif
