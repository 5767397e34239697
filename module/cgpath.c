// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup id -> path, at read time (process context, may sleep).
 *
 * The walk records only the cgroup id of each task group it visits (never a
 * pointer: the group may be gone by the time debugfs is read).  Reading
 * resolves the id by walking the cpu controller's hierarchy from its root
 * under RCU and pinning the match with css_tryget_online(), so a group that
 * is being removed is never shown.
 *
 * Why not cgroup_get_from_id(): it is not exported before 5.13-ish kernels
 * (5.10 lacks it) and it only searches the cgroup v2 hierarchy, so a v1 "cpu"
 * hierarchy would resolve nothing.  css_next_descendant_pre() is exported on
 * every kernel we support and walks whichever hierarchy carries "cpu".
 * Cost: one pass over the cpu controller's groups per lookup (reads only).
 */
#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "shadow.h"

bool shadow_cgid_path(u64 cgid, char *buf, size_t len)
{
	struct cgroup_subsys_state *root, *pos, *found = NULL;
	bool ok;

	if (!cgid) {
		/* CONFIG_SCHED_AUTOGROUP: a task group without a cgroup. */
		strscpy(buf, "(autogroup)", len);
		return true;
	}
	rcu_read_lock();
	root = task_css(current, cpu_cgrp_id);
	while (root->parent)
		root = root->parent;
	css_for_each_descendant_pre(pos, root) {
		if (cgroup_id(pos->cgroup) != cgid)
			continue;
		if (css_tryget_online(pos))
			found = pos;
		break;
	}
	rcu_read_unlock();
	if (!found)
		return false;
	ok = cgroup_path(found->cgroup, buf, len) > 0;
	css_put(found);
	return ok;
}
