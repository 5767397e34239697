/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP for host unit tests: one executable per tests/unit/test_*.c,
 * each printing "TAP version 13", "ok N - name" lines, "1..N" and finally
 * "N passed, N failed, N skipped"; exit status 1 on any failure.  A skip
 * (tap_skip) is counted apart, never as a pass.
 */
#ifndef SHADOW_TAP_H
#define SHADOW_TAP_H
#include <stdio.h>
#include <stdarg.h>
static int tap_n, tap_failed, tap_skipped;
static inline void tap_begin(const char *suite)
{
	printf("TAP version 13\n# suite %s\n", suite);
}
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return cond;
}
/* "ok N - name # SKIP why": counted as skipped, not passed */
static inline void tap_skip(const char *name, const char *why)
{
	tap_n++;
	tap_skipped++;
	printf("ok %d - %s # SKIP %s\n", tap_n, name, why);
}
#define tap_diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)
static inline int tap_end(void)
{
	printf("1..%d\n%d passed, %d failed, %d skipped\n", tap_n,
	       tap_n - tap_failed - tap_skipped, tap_failed, tap_skipped);
	return tap_failed ? 1 : 0;
}
#endif
