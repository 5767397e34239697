/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict parsers for what users write into the debugfs files.  Shared with
 * the host unit tests (tests/unit/test_parse.c).  Accepted: decimal digits,
 * optionally followed by exactly one newline.  Rejected (-EINVAL by the
 * caller): empty input, signs, spaces, embedded NULs, anything after the
 * newline, values above the limit, more than 20 digits, leading zeros
 * ("01", "00": every value has exactly one accepted spelling).
 */
#ifndef SHADOW_CORE_PARSE_H
#define SHADOW_CORE_PARSE_H

#include <linux/types.h>

bool shadow_parse_uint(const char *buf, unsigned long len, u64 max, u64 *val);

#endif
