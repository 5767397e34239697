// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2 helpers shared by `bench` and `run` (see cgroup.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw FTW_PHYS */
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli/fmt.h"
#include "cli/sources/cgroup.h"

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[wl] == 0 || p[wl] == ' ' || p[wl] == '\n'))
			return 1;
		p += wl;
	}
	return 0;
}

int cg_mount_point(char *out, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = 0;

	if (!f) {
		fmt_into(err, errlen, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	/* "id parent maj:min root mountpoint opts ... - fstype source superopts" */
	while (fgets(line, sizeof(line), f)) {
		char mp[1024], *dash = strstr(line, " - ");
		char fstype[64];

		if (!dash || sscanf(dash, " - %63s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mp) != 1)
			continue;
		fmt_into(out, len, "%s", mp);
		found = 1;
		break;
	}
	fclose(f);
	if (!found) {
		fmt_into(err, errlen, "no cgroup2 filesystem mounted");
		return -1;
	}
	return 0;
}

/* Is the cpu controller bound to a cgroup v1 hierarchy ("N:cpu,cpuacct:/..." in /proc/self/cgroup)? */
static int cg_cpu_on_v1(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int v1 = 0;

	if (!f)
		return 0;
	while (!v1 && fgets(line, sizeof(line), f)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;

		if (!a || !b || b == a + 1)
			continue;
		*b = 0;
		for (char *t = strtok(a + 1, ","); t; t = strtok(NULL, ","))
			v1 |= !strcmp(t, "cpu");
	}
	fclose(f);
	return v1;
}

/* Current cgroup v2 of the calling process, as an absolute directory. */
static int cg_self(const char *mnt, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		fmt_into(out, len, "%s%s", mnt, strcmp(line + 3, "/") ? line + 3 : "");
		rc = 0;
	}
	fclose(f);
	return rc;
}

int cg_create(struct cg_handle *h, const char *path, long weight,
	      char *err, size_t errlen)
{
	char rel[4096], cur[4096], *p;
	struct stat st;
	size_t ml;

	memset(h, 0, sizeof(*h));
	if (cg_mount_point(h->mnt, sizeof(h->mnt), err, errlen))
		return -1;
	ml = strlen(h->mnt);
	/* Accept "a/b", "/a/b" (both below the mount) and "<mount>/a/b" */
	if (!strncmp(path, h->mnt, ml) && (path[ml] == '/' || !path[ml]))
		path += ml;
	while (*path == '/')
		path++;
	if (strstr(path, "..")) {
		fmt_into(err, errlen, "cgroup path '%s' must not contain '..'", path);
		return -1;
	}
	snprintf(rel, sizeof(rel), "/%s", path);
	while (strlen(rel) > 1 && rel[strlen(rel) - 1] == '/')
		rel[strlen(rel) - 1] = 0;
	snprintf(h->rel, sizeof(h->rel), "%s", rel);
	fmt_into(h->dir, sizeof(h->dir), "%s%s", h->mnt, strcmp(rel, "/") ? rel : "");

	/* mkdir -p, remembering what we made */
	snprintf(cur, sizeof(cur), "%s", h->mnt);
	for (p = rel + 1; *p; ) {
		size_t n = strcspn(p, "/"), cl = strlen(cur);

		if (cl + 1 + n >= sizeof(cur)) {
			fmt_into(err, errlen, "cgroup path too long");
			goto undo;
		}
		cur[cl] = '/';
		memcpy(cur + cl + 1, p, n);
		cur[cl + 1 + n] = 0;
		if (mkdir(cur, 0755) == 0) {
			if (h->ncreated == (int)(sizeof(h->created) / sizeof(h->created[0]))) {
				fmt_into(err, errlen, "cgroup path too deep");
				rmdir(cur);
				goto undo;
			}
			h->created[h->ncreated++] = strdup(cur);
		} else if (errno != EEXIST) {
			fmt_into(err, errlen, "mkdir %s: %s", cur, strerror(errno));
			goto undo;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (stat(h->dir, &st)) {
		fmt_into(err, errlen, "%s: %s", h->dir, strerror(errno));
		goto undo;
	}
	h->cgid = st.st_ino;

	/*
	 * Enable the cpu controller down to the cgroup (so it gets its own
	 * cfs_rq hierarchy, which is what the module looks at), then the weight.
	 * Not fatal here: cpu_ok and the note say what is missing, the caller
	 * decides.
	 */
	{
		char ctl[4096 + 32], buf[512], wv[32];
		int e;

		/* The cpu controller must be offered by the root first */
		fmt_into(ctl, sizeof(ctl), "%s/cgroup.controllers", h->mnt);
		if (read_small(ctl, buf, sizeof(buf)) || !has_word(buf, "cpu")) {
			if (cg_cpu_on_v1())
				fmt_into(h->note, sizeof(h->note),
					 "the cpu controller is bound to a cgroup v1 hierarchy, not to "
					 "the cgroup2 mount %s: move it to cgroup v2 (boot with "
					 "systemd.unified_cgroup_hierarchy=1, or unmount its v1 hierarchy)",
					 h->mnt);
			else
				fmt_into(h->note, sizeof(h->note),
					 "the cgroup2 mount %s does not offer the cpu controller (%s "
					 "lacks it: cgroup_disable=cpu?)", h->mnt, ctl);
			return 0;
		}
		/* Enable +cpu in every ancestor's subtree_control, root downwards */
		snprintf(cur, sizeof(cur), "%s", h->mnt);
		for (p = rel + 1; *p; ) {
			size_t n = strcspn(p, "/"), cl = strlen(cur);

			fmt_into(ctl, sizeof(ctl), "%s/cgroup.subtree_control", cur);
			if (read_small(ctl, buf, sizeof(buf)) == 0 && !has_word(buf, "cpu")) {
				e = write_file(ctl, "+cpu");
				if (e) {
					fmt_into(h->note, sizeof(h->note),
						 "cannot enable the cpu controller in %s: %s%s", ctl,
						 strerror(-e), e == -EBUSY ?
						 " (that cgroup has processes of its own: move them to a "
						 "child, or pick a cgroup elsewhere)" :
						 " (not delegated to you: run as root, or pick a cgroup "
						 "where you may enable it)");
					return 0;
				}
			}
			cur[cl] = '/';
			memcpy(cur + cl + 1, p, n);
			cur[cl + 1 + n] = 0;
			p += n;
			while (*p == '/')
				p++;
		}
		/* the cgroup itself must list it (the kernel's word, not ours) */
		fmt_into(ctl, sizeof(ctl), "%s/cgroup.controllers", h->dir);
		if (strcmp(rel, "/") && (read_small(ctl, buf, sizeof(buf)) || !has_word(buf, "cpu"))) {
			fmt_into(h->note, sizeof(h->note),
				 "the cpu controller is not enabled in %s (its parent's "
				 "cgroup.subtree_control lacks cpu): enable it there", ctl);
			return 0;
		}
		h->cpu_ok = 1;
		if (weight > 0) {
			fmt_into(ctl, sizeof(ctl), "%s/cpu.weight", h->dir);
			snprintf(wv, sizeof(wv), "%ld", weight);
			e = write_file(ctl, wv);
			if (e)
				fmt_into(h->note, sizeof(h->note), "%s: %s: weight not applied",
					 ctl, strerror(-e));
			else
				h->weight_applied = 1;
		}
	}
	return 0;
undo:
	cg_remove(h);
	return -1;
}

int cg_enter(struct cg_handle *h, pid_t pid, char *err, size_t errlen)
{
	char path[4096 + 32], val[32];
	int e;

	if (pid == 0 && !h->orig[0] && cg_self(h->mnt, h->orig, sizeof(h->orig)))
		h->orig[0] = 0;
	fmt_into(path, sizeof(path), "%s/cgroup.procs", h->dir);
	snprintf(val, sizeof(val), "%d", pid ? pid : (int)getpid());
	e = write_file(path, val);
	if (e) {
		fmt_into(err, errlen, "moving pid %s into %s: %s", val, h->dir, strerror(-e));
		return -1;
	}
	return 0;
}

int cg_leave(struct cg_handle *h)
{
	char path[4096 + 32], val[32];

	if (!h->orig[0])
		return -1;
	fmt_into(path, sizeof(path), "%s/cgroup.procs", h->orig);
	snprintf(val, sizeof(val), "%d", (int)getpid());
	return write_file(path, val) ? -1 : 0;
}

int cg_remove(struct cg_handle *h)
{
	int rc = 0;

	while (h->ncreated > 0) {
		char *d = h->created[--h->ncreated];
		int tries;

		/* A cgroup empties asynchronously after its last task exits */
		for (tries = 0; rmdir(d) && errno == EBUSY && tries < 100; tries++)
			usleep(10000);
		if (access(d, F_OK) == 0)
			rc = -1;
		free(d);
	}
	return rc;
}

static uint64_t cg_find_id;
static char *cg_find_out;
static size_t cg_find_len, cg_find_mntlen;

static int cg_find_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D || st->st_ino != cg_find_id)
		return 0;
	fmt_into(cg_find_out, cg_find_len, "%s", path[cg_find_mntlen] ? path + cg_find_mntlen : "/");
	return 1;
}

int cg_path_of_id(const char *mnt, uint64_t id, char *out, size_t len)
{
	int rc;

	cg_find_id = id;
	cg_find_out = out;
	cg_find_len = len;
	cg_find_mntlen = strlen(mnt);
	rc = nftw(mnt, cg_find_cb, 32, FTW_PHYS | FTW_MOUNT);
	return rc == 1 ? 0 : -1;
}
