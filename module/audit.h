/* SPDX-License-Identifier: GPL-2.0 */
/* Load-balancer audit (audit.c): interfaces for main.c and debugfs.c. */
#ifndef SHADOW_AUDIT_H
#define SHADOW_AUDIT_H

#include <linux/seq_file.h>

int shadow_audit_init(const char *symbol);
void shadow_audit_exit(void);
void shadow_audit_info(struct seq_file *m);
void shadow_audit_debugfs_init(struct dentry *dir);
void shadow_audit_reset(void);
void shadow_audit_arm(bool on);

#endif
