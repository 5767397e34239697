// SPDX-License-Identifier: GPL-2.0
/*
 * Input of the debugfs files: one parser for every writable file (debugfs.c
 * and the audit's dump_every), so bad input is refused the same way
 * everywhere: -EINVAL and nothing changed.
 */
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "core/parse.h"
#include "dbgfs_input.h"

/**
 * shadow_debugfs_write_uint() - parse a number written to a debugfs file
 * @ubuf:  the user buffer
 * @count: its length
 * @max:   the largest accepted value
 * @val:   out: the value
 *
 * Accepts what shadow_parse_uint() documents; anything else is -EINVAL.
 * Return: 0 or a negative errno.
 */
int shadow_debugfs_write_uint(const char __user *ubuf, size_t count, u64 max, u64 *val)
{
	char buf[24];

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	return shadow_parse_uint(buf, count, max, val) ? 0 : -EINVAL;
}
