/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers written to the module's debugfs files (dbgfs_input.c). */
#ifndef SHADOW_DBGFS_INPUT_H
#define SHADOW_DBGFS_INPUT_H

#include <linux/types.h>
#include <linux/compiler.h>

int shadow_debugfs_write_uint(const char __user *ubuf, size_t count, u64 max, u64 *val);

#endif
