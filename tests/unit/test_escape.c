// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of module/core/escape.c (trace event cgroup paths). */
#include <string.h>
#include "tap.h"
#include "escape.c"

/* An independent oracle: escape without a size limit, as seq_escape does. */
static void oracle(char *out, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			out += sprintf(out, "\\%03o", (unsigned char)*s);
		else
			*out++ = *s;
	}
	*out = '\0';
}

/* A cut result is a prefix of the full escape, ends at a character boundary and with the marker. */
static int cut_ok(const char *got, const char *full, unsigned long size)
{
	unsigned long n = strlen(got), k = n - SHADOW_ESCAPE_CUT_LEN, i;

	if (n > size - 1 || n < SHADOW_ESCAPE_CUT_LEN || strcmp(got + k, SHADOW_ESCAPE_CUT))
		return 0;
	if (strncmp(got, full, k))
		return 0;
	/* boundary: no backslash in the last 3 kept bytes that starts an unfinished escape */
	for (i = k >= 3 ? k - 3 : 0; i < k; i++)
		if (full[i] == '\\' && i + 4 > k)
			return 0;
	/* greedy: one more whole character would not have fitted */
	if (full[k] == '\\')
		return k + 4 > size - 1 - SHADOW_ESCAPE_CUT_LEN;
	return k + 1 > size - 1 - SHADOW_ESCAPE_CUT_LEN;
}

int main(void)
{
	char dst[128], full[4096], src[1024];
	unsigned long size, i;
	int bad;

	tap_begin("escape");
	tap_ok(shadow_escape_path(dst, sizeof(dst), "/tr/a") && !strcmp(dst, "/tr/a"), "plain path copied");
	tap_ok(shadow_escape_path(dst, sizeof(dst), "/") && !strcmp(dst, "/"), "root is /");
	tap_ok(shadow_escape_path(dst, sizeof(dst), "/tr/sp ace") && !strcmp(dst, "/tr/sp\\040ace"),
	       "space becomes \\040 (like groups)");
	tap_ok(shadow_escape_path(dst, sizeof(dst), "a\tb\nc\\d") && !strcmp(dst, "a\\011b\\012c\\134d"),
	       "tab, newline, backslash escaped in octal");
	tap_ok(shadow_escape_path(dst, sizeof(dst), "/x=y,z") && !strcmp(dst, "/x=y,z"),
	       "other bytes copied as is");

	memset(src, 'a', 127);
	src[0] = '/';
	src[127] = '\0';
	tap_ok(shadow_escape_path(dst, 128, src) && strlen(dst) == 127, "127 bytes fit a 128-byte field whole");
	src[127] = 'b';
	src[128] = '\0';
	oracle(full, src);
	tap_ok(!shadow_escape_path(dst, 128, src) && cut_ok(dst, full, 128) && strlen(dst) == 127,
	       "128 bytes are cut to 123 + marker \\...");
	tap_diag("cut: ...%s", dst + 100);

	/* every cut position against the oracle, with escapes near the edge */
	bad = 0;
	for (size = 5; size <= 40; size++) {
		for (i = 0; i < 60; i++)
			src[i] = (i % 7 == 3) ? ' ' : (i % 11 == 5) ? '\\' : 'a' + i % 26;
		for (i = 0; i < 60; i++) {
			int whole;

			src[i] = '\0';
			oracle(full, src);
			memset(dst, 'Z', sizeof(dst));
			whole = shadow_escape_path(dst, size, src);
			if (whole ? strcmp(dst, full) || strlen(full) > size - 1
				  : strlen(full) <= size - 1 || !cut_ok(dst, full, size))
				bad++;
			src[i] = (i % 7 == 3) ? ' ' : (i % 11 == 5) ? '\\' : 'a' + i % 26;
		}
	}
	tap_ok(!bad, "every length 0..59 in every size 5..40: whole iff it fits, else a boundary cut with the marker (%d bad)", bad);
	memset(dst, 'Z', sizeof(dst));
	tap_ok(!shadow_escape_path(dst, 4, "/a") && dst[0] == '\0' && dst[1] == 'Z',
	       "a buffer too small for the marker gets an empty string, nothing past it");
	return tap_end();
}
