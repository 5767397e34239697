// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's switches in debugfs (see knobs.h): read, set for a run,
 * restored afterwards, and the state file that outlives a killed run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include "cli/fmt.h"
#include "cli/sources/knobs.h"

/* llc_balancing's files besides `enabled`, in the kernel's order (7.2, 7.3) */
static const char *const llc_tunables[] = {
	"aggr_tolerance", "epoch_period", "epoch_affinity_timeout", "overaggr_pct", "imb_pct",
};

const char *knobs_dir_of(const char *module_debugfs, char *buf, size_t len)
{
	size_t n = strlen(module_debugfs);

	/* strip trailing slashes, then the last component: the debugfs mount */
	while (n > 1 && module_debugfs[n - 1] == '/')
		n--;
	while (n > 0 && module_debugfs[n - 1] != '/')
		n--;
	while (n > 1 && module_debugfs[n - 1] == '/')
		n--;
	if (n == 0)
		snprintf(buf, len, "sched");
	else if (n == 1 && module_debugfs[0] == '/')
		snprintf(buf, len, "/sched");
	else
		snprintf(buf, len, "%.*s/sched", (int)n, module_debugfs);
	return buf;
}

const char *knobs_state_path(char *buf, size_t len)
{
	const char *d = getenv(KNOBS_STATE_ENV);

	snprintf(buf, len, "%.4000s/knobs", d && *d ? d : KNOBS_STATE_DIR);
	return buf;
}

/* Read a small file whole: 0, or an errno (ENOENT: absent). */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	if (n < 0)
		return e ? e : EIO;
	buf[n] = 0;
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
}

int knobs_parse_mode(const char *text, char *mode, size_t mlen, char *choices, size_t clen)
{
	const char *p = text;
	size_t used = 0;
	int found = 0;

	mode[0] = 0;
	choices[0] = 0;
	while (*p) {
		const char *s, *e;
		int marked;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		e = p;
		marked = e - s >= 2 && s[0] == '(' && e[-1] == ')';
		if (marked) {
			s++;
			e--;
			if (!found && (size_t)(e - s) < mlen) {
				snprintf(mode, mlen, "%.*s", (int)(e - s), s);
				found = 1;
			}
		}
		if (used + (e - s) + 2 < clen) {
			used += snprintf(choices + used, clen - used, "%s%.*s", used ? " " : "",
					 (int)(e - s), s);
		}
	}
	return found ? 0 : -1;
}

static struct knob *knob_add(struct knobs *k, const char *name)
{
	struct knob *x;

	if (k->n >= KNOBS_MAX)
		return NULL;
	x = &k->k[k->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%s", name);
	return x;
}

/* One value file into x (the first line, trimmed). */
static void knob_read_file(struct knob *x, const char *path)
{
	char buf[256];
	int e = read_small(path, buf, sizeof(buf));

	if (e == ENOENT || e == ENOTDIR) {
		x->state = KNOB_ABSENT;
		snprintf(x->value, sizeof(x->value), "absent");
	} else if (e) {
		x->state = KNOB_UNREADABLE;
		snprintf(x->why, sizeof(x->why), "%.180s: %s", path, strerror(e));
	} else {
		trim(buf);
		x->state = KNOB_OK;
		snprintf(x->value, sizeof(x->value), "%.47s", buf);
	}
}

#define KNOBS_DEBUGFS_MAGIC	0x64626720	/* DEBUGFS_MAGIC, linux/magic.h */

/*
 * No sched directory: on a mounted debugfs that is the kernel's answer
 * (before 5.13 the scheduler's files sat at the top; none of these
 * switches existed), elsewhere nothing can be told.  0 when dir exists.
 */
static int knobs_no_dir(const char *dir, struct knobs *k)
{
	char parent[4096];
	const char *slash = strrchr(dir, '/');
	struct statfs sf;
	struct stat st;
	int debugfs;

	if (!stat(dir, &st))
		return 0;
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - dir) : 1, slash ? dir : ".");
	if (!parent[0])
		snprintf(parent, sizeof(parent), "/");
	debugfs = !statfs(parent, &sf) && (unsigned long)sf.f_type == KNOBS_DEBUGFS_MAGIC;
	for (int i = 0; i < 2; i++) {
		struct knob *x = knob_add(k, i ? "llc_balancing" : "cgroup_mode");

		if (debugfs) {
			x->state = KNOB_ABSENT;
			snprintf(x->value, sizeof(x->value), "absent");
		} else {
			x->state = KNOB_UNREADABLE;
			snprintf(x->why, sizeof(x->why), "no %.180s: debugfs is not mounted at %.40s",
				 dir, parent);
		}
	}
	return 1;
}

void knobs_read(const char *dir, struct knobs *k)
{
	char path[4096 + 64], buf[256];
	struct knob *x;
	struct stat st;
	int e;

	memset(k, 0, sizeof(*k));
	if (knobs_no_dir(dir, k))
		return;
	x = knob_add(k, "cgroup_mode");
	snprintf(path, sizeof(path), "%s/cgroup_mode", dir);
	e = read_small(path, buf, sizeof(buf));
	if (e == ENOENT || e == ENOTDIR) {
		x->state = KNOB_ABSENT;
		snprintf(x->value, sizeof(x->value), "absent");
	} else if (e) {
		x->state = KNOB_UNREADABLE;
		snprintf(x->why, sizeof(x->why), "%.180s: %s", path, strerror(e));
	} else if (knobs_parse_mode(buf, x->value, sizeof(x->value), k->modes, sizeof(k->modes))) {
		trim(buf);
		x->state = KNOB_UNREADABLE;
		x->value[0] = 0;
		k->modes[0] = 0;
		snprintf(x->why, sizeof(x->why), "%.180s: no mode marked in '%.40s'", path, buf);
	} else {
		x->state = KNOB_OK;
	}

	x = knob_add(k, "llc_balancing");
	snprintf(path, sizeof(path), "%s/llc_balancing", dir);
	if (stat(path, &st) && (errno == ENOENT || errno == ENOTDIR)) {
		x->state = KNOB_ABSENT;
		snprintf(x->value, sizeof(x->value), "absent");
		return;
	}
	snprintf(path, sizeof(path), "%s/llc_balancing/enabled", dir);
	knob_read_file(x, path);
	for (size_t i = 0; i < sizeof(llc_tunables) / sizeof(llc_tunables[0]); i++) {
		char name[40];

		snprintf(name, sizeof(name), "llc_balancing.%s", llc_tunables[i]);
		snprintf(path, sizeof(path), "%s/llc_balancing/%s", dir, llc_tunables[i]);
		x = knob_add(k, name);
		if (!x)
			break;
		knob_read_file(x, path);
		/* a tunable this kernel does not have is not listed */
		if (x->state == KNOB_ABSENT)
			k->n--;
	}
}

const struct knob *knobs_find(const struct knobs *k, const char *name)
{
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->k[i].name, name))
			return &k->k[i];
	return NULL;
}

const char *knobs_value(const struct knobs *k, const char *name)
{
	const struct knob *x = knobs_find(k, name);

	return x && x->state == KNOB_OK ? x->value : NULL;
}

/* Is word one of the space-separated words of list? */
static int word_in(const char *word, const char *list)
{
	size_t l = strlen(word);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ' ');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == l && !strncmp(p, word, l))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

int knobs_prepare(const char *dir, const struct knobs *k, const char *name, const char *value,
		  struct knob_set *s, char *err, size_t errlen, int *code)
{
	const struct knob *x = knobs_find(k, name);
	int llc = !strcmp(name, "llc_balancing");

	memset(s, 0, sizeof(*s));
	*code = 2;
	if (!x || x->state == KNOB_ABSENT) {
		fmt_into(err, errlen, "--set %s=%s: this kernel has no %s/%s%s", name, value, dir, name,
			 llc ? " (cache-aware balancing: 7.2 and later, CONFIG_SCHED_CACHE)" :
			 " (7.3 and later)");
		return -1;
	}
	if (x->state == KNOB_UNREADABLE) {
		fmt_into(err, errlen, "--set %s=%s: cannot read it: %s", name, value, x->why);
		return -1;
	}
	if (!llc && !word_in(value, k->modes)) {
		*code = 64;
		fmt_into(err, errlen, "--set cgroup_mode=%s: this kernel's modes are %s", value, k->modes);
		return -1;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->path, sizeof(s->path), "%s/%s", dir, llc ? "llc_balancing/enabled" : "cgroup_mode");
	snprintf(s->value, sizeof(s->value), "%s", value);
	snprintf(s->before, sizeof(s->before), "%s", x->value);
	*code = 0;
	return 0;
}

/* Write val to path: 0 or an errno.  Async-signal-safe. */
static int write_val(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), e = 0;
	size_t l = strlen(val);

	if (fd < 0)
		return errno;
	if (write(fd, val, l) != (ssize_t)l)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

int knobs_apply(struct knob_set *s, char *err, size_t errlen)
{
	int e = write_val(s->path, s->value);

	if (e) {
		fmt_into(err, errlen, "--set %s=%s: %s: %s", s->name, s->value, s->path, strerror(e));
		return -1;
	}
	s->applied = 1;
	return 0;
}

/*
 * Does the file's text say it holds val?  cgroup_mode marks it "(val)",
 * the llc files hold it alone.  Async-signal-safe (no stdio, no locale).
 */
static int holds(const char *text, const char *val, int marked)
{
	size_t l = strlen(val);

	for (const char *p = text; *p; p++) {
		if (marked) {
			if (p[0] == '(' && !strncmp(p + 1, val, l) && p[1 + l] == ')')
				return 1;
		} else if (p == text) {
			return !strncmp(p, val, l) && (p[l] == 0 || p[l] == '\n' || p[l] == ' ');
		}
	}
	return 0;
}

int knobs_restore(struct knob_set *s)
{
	char buf[256];
	int fd, marked;
	ssize_t n;

	if (!s->applied)
		return 0;
	s->applied = 0;
	marked = !strcmp(s->name, "cgroup_mode");
	fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	if (!holds(buf, s->value, marked)) {
		s->restored = -1;	/* someone else changed it: theirs stays */
		return 1;
	}
	if (write_val(s->path, s->before))
		return -1;
	s->restored = 1;
	return 1;
}

unsigned long long knobs_pid_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)))
		return 0;
	/* fields after the command (which may hold spaces): from the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* field 3 is the state; starttime is field 22 */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

int knobs_state_write(const char *path, const struct knob_set *s, int n, char *err, size_t errlen)
{
	char tmp[4096 + 16], dir[4096];
	const char *slash = strrchr(path, '/');
	FILE *f;
	int fd;

	if (slash && slash != path) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		if (mkdir(dir, 0755) && errno != EEXIST) {
			fmt_into(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fmt_into(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "pid %d %llu\n", (int)getpid(), knobs_pid_start(getpid()));
	for (int i = 0; i < n; i++)
		fprintf(f, "set %s %s %s %s\n", s[i].name, s[i].path, s[i].value, s[i].before);
	if (fflush(f) || fsync(fd) || fclose(f)) {
		fmt_into(err, errlen, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		fmt_into(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int knobs_state_read(const char *path, struct knob_set *s, int max, pid_t *pid, int *alive,
		     char *err, size_t errlen)
{
	char line[4096 + 256];
	unsigned long long start = 0;
	int n = 0, havepid = 0, p = 0;
	FILE *f = fopen(path, "re");

	*pid = 0;
	*alive = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		fmt_into(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[40], fpath[4096 + 64], val[KNOBS_VAL_LEN], before[KNOBS_VAL_LEN];

		if (sscanf(line, "pid %d %llu", &p, &start) == 2) {
			havepid = 1;
			continue;
		}
		if (sscanf(line, "set %39s %4159s %47s %47s", name, fpath, val, before) == 4 && n < max) {
			memset(&s[n], 0, sizeof(s[n]));
			snprintf(s[n].name, sizeof(s[n].name), "%s", name);
			snprintf(s[n].path, sizeof(s[n].path), "%s", fpath);
			snprintf(s[n].value, sizeof(s[n].value), "%s", val);
			snprintf(s[n].before, sizeof(s[n].before), "%s", before);
			s[n].applied = 1;
			n++;
			continue;
		}
		fclose(f);
		fmt_into(err, errlen, "%s: malformed line '%.60s'", path, line);
		return -1;
	}
	fclose(f);
	if (!havepid) {
		fmt_into(err, errlen, "%s: no pid line", path);
		return -1;
	}
	*pid = p;
	*alive = p > 0 && start && knobs_pid_start(p) == start;
	return n;
}
