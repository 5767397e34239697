// SPDX-License-Identifier: GPL-2.0
/* Escaping of cgroup paths for the trace events (see escape.h). */
#include <linux/types.h>
#include "escape.h"

static bool shadow_escape_char(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\\';
}

/**
 * shadow_escape_path() - escape @src into @dst, cut to fit with a marker
 * @dst:  out: NUL-terminated, at most @size - 1 bytes
 * @size: the size of @dst, at least SHADOW_ESCAPE_CUT_LEN + 1
 * @src:  a NUL-terminated path
 *
 * Space, tab, newline and backslash become "\ooo" (octal), every other byte
 * is copied.  When the escaped path does not fit, it is cut after the last
 * whole character (never inside an escape) that leaves room for
 * SHADOW_ESCAPE_CUT, which then ends @dst.  Bounded by @size.
 *
 * Return: true if @dst holds the whole path, false if it was cut.
 */
bool shadow_escape_path(char *dst, unsigned long size, const char *src)
{
	unsigned long n = 0, keep = 0, i;

	if (size < SHADOW_ESCAPE_CUT_LEN + 1) {
		if (size)
			dst[0] = '\0';
		return false;
	}
	for (; *src; src++) {
		unsigned long w = shadow_escape_char(*src) ? 4 : 1;

		if (n + w > size - 1)
			goto cut;
		/* the last length that still leaves room for the marker */
		if (n + w <= size - 1 - SHADOW_ESCAPE_CUT_LEN)
			keep = n + w;
		if (w == 4) {
			dst[n++] = '\\';
			dst[n++] = '0' + ((unsigned char)*src >> 6);
			dst[n++] = '0' + (((unsigned char)*src >> 3) & 7);
			dst[n++] = '0' + ((unsigned char)*src & 7);
		} else {
			dst[n++] = *src;
		}
	}
	dst[n] = '\0';
	return true;

cut:
	for (i = 0; i < SHADOW_ESCAPE_CUT_LEN; i++)
		dst[keep + i] = SHADOW_ESCAPE_CUT[i];
	dst[keep + SHADOW_ESCAPE_CUT_LEN] = '\0';
	return false;
}
