/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt_into(): snprintf into an error or path buffer whose truncation is
 * acceptable (messages, names).  Shared by the option parsers, the
 * cgroup helpers and the bench workload, which report errors through a
 * caller's buffer instead of printing.
 */
#ifndef SCHED_SHADOW_CLI_FMT_H
#define SCHED_SHADOW_CLI_FMT_H

#include <stdarg.h>
#include <stdio.h>

static inline void __attribute__((format(printf, 3, 4)))
fmt_into(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

#endif
