/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Escaping of cgroup paths for the trace events (cgpath.c), the same way
 * debugfs `groups` prints them (seq_escape with " \t\n\\": each of those
 * bytes becomes a backslash and three octal digits, so a space is
 * "\040"), cut to a fixed size with a visible marker.  Shared unchanged by
 * the module and the host unit tests (tests/unit/test_escape.c).
 */
#ifndef SHADOW_CORE_ESCAPE_H
#define SHADOW_CORE_ESCAPE_H

#include <linux/types.h>

/*
 * The truncation marker.  It cannot be part of an escaped path: there
 * every backslash starts an octal escape of three digits.
 */
#define SHADOW_ESCAPE_CUT	"\\..."
#define SHADOW_ESCAPE_CUT_LEN	4

bool shadow_escape_path(char *dst, unsigned long size, const char *src);

#endif
