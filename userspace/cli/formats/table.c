// SPDX-License-Identifier: GPL-2.0
/* Aligned table printer; see table.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/formats/table.h"

int table_init(struct table *tb, int ncols)
{
	memset(tb, 0, sizeof(*tb));
	tb->ncols = ncols;
	tb->cap = 8;
	tb->cells = calloc((size_t)tb->cap * ncols, sizeof(char *));
	tb->align = calloc(ncols, sizeof(*tb->align));
	if (!tb->cells || !tb->align) {
		table_free(tb);
		return -1;
	}
	return 0;
}

static int set_row(struct table *tb, int row, const char *const *cells)
{
	if (row >= tb->cap) {
		int ncap = tb->cap * 2;
		char **nc = realloc(tb->cells, (size_t)ncap * tb->ncols * sizeof(char *));

		if (!nc)
			return -1;
		memset(nc + (size_t)tb->cap * tb->ncols, 0,
		       (size_t)(ncap - tb->cap) * tb->ncols * sizeof(char *));
		tb->cells = nc;
		tb->cap = ncap;
	}
	for (int c = 0; c < tb->ncols; c++) {
		char *s = strdup(cells[c] ? cells[c] : "-");

		if (!s)
			return -1;
		free(tb->cells[row * tb->ncols + c]);
		tb->cells[row * tb->ncols + c] = s;
	}
	return 0;
}

int table_header(struct table *tb, const char *const *names)
{
	return set_row(tb, 0, names);
}

int table_set_align(struct table *tb, int col, enum table_align a)
{
	if (col < 0 || col >= tb->ncols)
		return -1;
	tb->align[col] = a;
	return 0;
}

int table_row(struct table *tb, const char *const *cells)
{
	if (set_row(tb, tb->nrows + 1, cells))
		return -1;
	tb->nrows++;
	return 0;
}

const char *table_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

static int looks_numeric(const char *s)
{
	int digits = 0;

	if (!strcmp(s, "-"))
		return 1;
	if (*s == '-' || *s == '+')
		s++;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digits++;
		else if (*s != '.' && *s != '%' && *s != 'e')
			return 0;
	}
	return digits > 0;
}

/* Display width: count UTF-8 lead bytes only, so paths with é still align. */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void table_print(const struct table *tb, FILE *f)
{
	int *wid = calloc(tb->ncols, sizeof(int));
	int *right = calloc(tb->ncols, sizeof(int));

	if (!wid || !right)
		goto out;
	for (int c = 0; c < tb->ncols; c++) {
		int numeric = tb->nrows > 0;

		for (int r = 0; r <= tb->nrows; r++) {
			const char *s = tb->cells[r * tb->ncols + c];
			int w = s ? width(s) : 0;

			if (w > wid[c])
				wid[c] = w;
			if (r > 0 && s && !looks_numeric(s))
				numeric = 0;
		}
		right[c] = tb->align[c] == TABLE_RIGHT ||
			   (tb->align[c] == TABLE_AUTO && numeric);
	}
	for (int r = 0; r <= tb->nrows; r++) {
		char *line = NULL;
		size_t len = 0;
		FILE *lf = open_memstream(&line, &len);

		if (!lf)
			break;
		for (int c = 0; c < tb->ncols; c++) {
			const char *s = tb->cells[r * tb->ncols + c];
			int pad = wid[c] - (s ? width(s) : 0);
			int last = c == tb->ncols - 1;

			if (c)
				fputs("  ", lf);
			if (right[c])
				fprintf(lf, "%*s", pad, "");
			fputs(s ? s : "", lf);
			if (!right[c] && !last)
				fprintf(lf, "%*s", pad, "");
		}
		fclose(lf);
		while (len > 0 && line[len - 1] == ' ')	/* no trailing blanks */
			len--;
		fwrite(line, 1, len, f);
		fputc('\n', f);
		free(line);
	}
out:
	free(wid);
	free(right);
}

void table_free(struct table *tb)
{
	if (tb->cells)
		for (int i = 0; i < tb->cap * tb->ncols; i++)
			free(tb->cells[i]);
	free(tb->cells);
	free(tb->align);
	memset(tb, 0, sizeof(*tb));
}
