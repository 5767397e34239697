/* SPDX-License-Identifier: GPL-2.0 */
/* CPU lists and a clock for the test workload programs (built with _GNU_SOURCE). */
#ifndef SHADOW_CPULIST_H
#define SHADOW_CPULIST_H

#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* Parse a CPU list ("0-3", "0,2,5-6") into @set; -1 on a bad list. */
static inline int parse_cpus(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= CPU_SETSIZE)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= CPU_SETSIZE)
				return -1;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return CPU_COUNT(set) ? 0 : -1;
}

/* @clk's time in seconds. */
static inline double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
