/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 helpers shared by `bench` and `run`: find the cgroup2 mount,
 * create a cgroup (mkdir -p, +cpu in the ancestors, cpu.weight), move a
 * process in and out, remove what was created, name a cgroup id.
 */
#ifndef SCHED_SHADOW_CLI_CGROUP_H
#define SCHED_SHADOW_CLI_CGROUP_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

struct cg_handle {
	char mnt[256];		/* cgroup2 mount point */
	char dir[4096];		/* absolute directory of the cgroup */
	char rel[4096];		/* path relative to the mount, starting with '/' */
	char orig[4096];	/* where the process was before cg_enter */
	int ncreated;		/* directories this handle created, outermost first */
	char *created[16];
	uint64_t cgid;		/* inode number = cgroup id */
	int weight_applied;
	int cpu_ok;		/* the cpu controller is enabled down to the cgroup */
	char note[512];		/* why not (cpu_ok 0), or why a requested weight was not applied */
};

/* Mount point of the cgroup2 hierarchy; 0 or -1 with err. */
int cg_mount_point(char *out, size_t len, char *err, size_t errlen);
/*
 * Resolve PATH below the cgroup2 mount and create what is missing
 * (mkdir -p), enable +cpu in the ancestors' subtree_control and, when
 * weight > 0, write cpu.weight.  Failure of those is not fatal here:
 * h->cpu_ok says whether the cgroup has the cpu controller (its own
 * cgroup.controllers lists "cpu"), and h->note why not, in one line that
 * says how to fix it; the callers refuse to run without it unless told
 * otherwise (--allow-no-cpu-controller).  "/" means the root cgroup.
 */
int cg_create(struct cg_handle *h, const char *path, long weight,
	      char *err, size_t errlen);
/* Move process pid (0 = the caller) into the cgroup. */
int cg_enter(struct cg_handle *h, pid_t pid, char *err, size_t errlen);
/* Move the caller back to where it was before cg_enter. */
int cg_leave(struct cg_handle *h);
/* Remove the directories cg_create made (innermost first); 0 if all gone. */
int cg_remove(struct cg_handle *h);
/* Path (relative to the mount, "/" for the root) of cgroup id; 0 if found. */
int cg_path_of_id(const char *mnt, uint64_t id, char *out, size_t len);

#endif
