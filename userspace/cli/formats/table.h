/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Aligned text tables: collect rows of string cells, then print them
 * with every column padded to its widest cell (numbers right-aligned,
 * text left-aligned), columns separated by two spaces.
 */
#ifndef SCHED_SHADOW_TABLE_H
#define SCHED_SHADOW_TABLE_H

#include <stdio.h>

enum table_align { TABLE_AUTO = 0, TABLE_LEFT, TABLE_RIGHT };

struct table {
	int ncols;
	int nrows;		/* data rows, header excluded */
	int cap;
	char **cells;		/* (nrows + 1) * ncols strdup'ed cells, row 0 is the header */
	enum table_align *align;
};

int table_init(struct table *tb, int ncols);
/* Header cells (ncols of them); TABLE_AUTO columns align right when all data cells look numeric. */
int table_header(struct table *tb, const char *const *names);
int table_set_align(struct table *tb, int col, enum table_align a);
/* Append one row of ncols cells (NULL prints as "-"). */
int table_row(struct table *tb, const char *const *cells);
/* printf-style cell into a small buffer, for callers building rows. */
const char *table_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void table_print(const struct table *tb, FILE *f);
void table_free(struct table *tb);

#endif
