/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the test workload programs in tests/progs/. */
#ifndef SHADOW_PROGS_H
#define SHADOW_PROGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

extern char *program_invocation_short_name;	/* glibc */

/* A decimal option value in [min, max], or exit 2 with a message naming the option. */
static inline long parse_num(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "%s: invalid value '%s' for %s (expected %ld..%ld)\n",
			program_invocation_short_name, s, opt, min, max);
		exit(2);
	}
	return v;
}

#endif
