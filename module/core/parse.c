// SPDX-License-Identifier: GPL-2.0
/* Strict debugfs input parsing (see parse.h). */
#include <linux/types.h>
#include "parse.h"

/**
 * shadow_parse_uint() - parse a decimal number written to a debugfs file
 * @buf: the bytes written (not NUL-terminated)
 * @len: how many
 * @max: the largest accepted value
 * @val: out: the value, set only on success
 *
 * Return: true if @buf is exactly digits, optionally followed by one '\n',
 * and the value is at most @max.
 */
bool shadow_parse_uint(const char *buf, unsigned long len, u64 max, u64 *val)
{
	unsigned long i, ndigits;
	u64 v = 0;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > 20)
		return false;
	/* one canonical spelling per value: "0", not "00" or "01" */
	if (len > 1 && buf[0] == '0')
		return false;
	ndigits = len;
	for (i = 0; i < ndigits; i++) {
		unsigned int d;

		if (buf[i] < '0' || buf[i] > '9')
			return false;
		d = buf[i] - '0';
		if (d > max || v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*val = v;
	return true;
}
