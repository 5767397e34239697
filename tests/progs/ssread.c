// SPDX-License-Identifier: GPL-2.0
/*
 * ssread: read sched_shadow debugfs files in a loop and check every read.
 *
 * For the stress suite (tests/vm/stress/): one long-lived reader per
 * process, so that readers can run for minutes next to module loads,
 * cgroup churn, CPU hotplug and writers.  Each read is checked against
 * docs/debugfs.md:
 *   - the version line "# sched_shadow NAME v1" and the exact header row;
 *   - every row has the header's column count (info: 2; lb_snapshots:
 *     a snapshot number, a kind and key=value fields);
 *   - numeric columns are numbers (or "-" where the format allows it);
 *     an offline CPU (cpus, online 0) has "-" in the instantaneous columns;
 *   - lb judged rows: calls = right + wrong + missed + none + void;
 *   - groups: depth = number of path components, path absolute;
 *     with -c also h_tasks = nr_tasks + sum of the children's h_tasks and
 *     shadow / shadow_avg = task_load + sum of min(S*w/W, w) over the
 *     children (within rounding), counted apart as "consistency" failures;
 *   - enable: "0\n" or "1\n"; lb_dump_every: a number and "\n";
 *   - no kernel address anywhere: ffff followed by 12 hex digits, 0x and
 *     8 or more hex digits, 16 hex digits in a row (hashed %p), ptrval.
 * With -T TREE (lines "CPU PATH": the static tree a stress scenario built)
 * every groups block of a CPU named there must also hold only those paths,
 * root first and each parent before its children, each path with the same
 * cgid in every read: a copy torn between two published walks (a reader
 * that took a latch copy the writer was overwriting) breaks these or the
 * -c sums; counted as "tree_bad".
 * With -g GONE -G REMOVING (files of cgroup paths, one per line, appended
 * by a cgroup churner: REMOVING before rmdir, GONE after it returned),
 * groups rows must not name a path that was in GONE before the read
 * started, and every path must exist under /sys/fs/cgroup after the read
 * unless it is in REMOVING; an existing path's inode must equal its cgid.
 *
 * A file that does not exist (module unloaded: "absent"), or whose open or
 * read fails with ENXIO/EIO/ENODEV (module going away, file removed while
 * open: "gone_err") is counted, not an error.  Runs until -d seconds
 * passed, -n rounds were done, or SIGTERM/SIGINT; then prints one line
 *   ssread: rounds=.. reads=.. ok=.. bad=.. absent=.. gone_err=.. other_err=..
 *           addr=.. rows=.. consist_bad=.. removed_shown=.. unknown_path=.. cgid_bad=..
 *           tree_bad=..
 * and "ssread: bad FILE: why" for the first -m problems (default 5).
 * -s DIR keeps the last read of each file and the first bad reads there.
 * Exit status 0 when no read was bad and no address was seen.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT "/sys/fs/cgroup"
#define MAXCOL 32

static volatile sig_atomic_t stop;
static long max_msgs = 5, nmsgs;
static const char *save_dir;
static int consist;
static const char *gone_file, *removing_file;

static struct {
	long rounds, reads, ok, bad, absent, gone_err, other_err, addr, rows;
	long consist_bad, removed_shown, unknown_path, cgid_bad, tree_bad;
} st;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void msg(const char *fmt, ...)
{
	va_list ap;

	if (nmsgs++ >= max_msgs)
		return;
	va_start(ap, fmt);
	fputs("ssread: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

/* ---- a set of strings (cgroup paths) ---- */
struct set {
	char **slot;
	size_t cap, n;
	off_t loaded;	/* bytes of the file already read */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int set_has(const struct set *s, const char *k)
{
	size_t i;

	if (!s->cap)
		return 0;
	for (i = hash(k) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (!strcmp(s->slot[i], k))
			return 1;
	return 0;
}

static void set_add(struct set *s, const char *k)
{
	size_t i;

	if (set_has(s, k))
		return;
	if ((s->n + 1) * 2 > s->cap) {
		struct set n = { 0 };
		size_t j;

		n.cap = s->cap ? s->cap * 2 : 1024;
		n.slot = calloc(n.cap, sizeof(char *));
		if (!n.slot)
			abort();
		for (j = 0; j < s->cap; j++)
			if (s->slot[j]) {
				for (i = hash(s->slot[j]) & (n.cap - 1); n.slot[i]; i = (i + 1) & (n.cap - 1))
					;
				n.slot[i] = s->slot[j];
			}
		free(s->slot);
		s->slot = n.slot;
		s->cap = n.cap;
	}
	for (i = hash(k) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		;
	s->slot[i] = strdup(k);
	s->n++;
}

/* Add the complete lines appended to FILE since the last call. */
static void set_update(struct set *s, const char *file)
{
	char line[4096];
	FILE *f;

	if (!file || !(f = fopen(file, "r")))
		return;
	if (fseeko(f, s->loaded, SEEK_SET) == 0) {
		while (fgets(line, sizeof(line), f)) {
			size_t l = strlen(line);

			if (!l || line[l - 1] != '\n')
				break;	/* incomplete last line: next time */
			s->loaded += (off_t)l;
			line[l - 1] = '\0';
			/* paths are kept relative to the mount, starting with '/' */
			if (!strncmp(line, CG_ROOT, strlen(CG_ROOT)))
				memmove(line, line + strlen(CG_ROOT), strlen(line + strlen(CG_ROOT)) + 1);
			if (line[0])
				set_add(s, line);
		}
	}
	fclose(f);
}

static struct set gone, removing;

/* ---- -T: the static tree (CPU -> allowed paths; path -> cgid first seen) ---- */
#define TREE_MAX 256
static struct {
	int cpu;
	char path[256];
	unsigned long long cgid;	/* 0 until seen */
} tree[TREE_MAX];
static int ntree;

static void tree_load(const char *file)
{
	char line[512], path[256];
	FILE *f = fopen(file, "r");
	int cpu;

	if (!f) {
		fprintf(stderr, "ssread: %s: %s\n", file, strerror(errno));
		exit(2);
	}
	while (fgets(line, sizeof(line), f) && ntree < TREE_MAX)
		if (sscanf(line, "%d %255s", &cpu, path) == 2) {
			tree[ntree].cpu = cpu;
			snprintf(tree[ntree].path, sizeof(tree[ntree].path), "%s", path);
			ntree++;
		}
	fclose(f);
}

static int tree_has_cpu(int cpu)
{
	int i;

	for (i = 0; i < ntree; i++)
		if (tree[i].cpu == cpu)
			return 1;
	return 0;
}

static int tree_find(int cpu, const char *path)
{
	int i;

	for (i = 0; i < ntree; i++)
		if (tree[i].cpu == cpu && !strcmp(tree[i].path, path))
			return i;
	return -1;
}

/* ---- helpers ---- */
static int is_num(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int is_num_or_dash(const char *s)
{
	return !strcmp(s, "-") || is_num(s);
}

static int split(char *line, char **col, int max)
{
	int n = 0;
	char *p = line;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (n == max)
			return max + 1;
		col[n++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* A kernel address in BUF?  Returns a pointer to the hit or NULL. */
static const char *find_addr(const char *buf, size_t len)
{
	size_t i, j;

	for (i = 0; i < len; i++) {
		char c = (char)tolower((unsigned char)buf[i]);

		if (c == 'f' && i + 16 <= len && !strncasecmp(buf + i, "ffff", 4)) {
			for (j = 4; j < 16 && isxdigit((unsigned char)buf[i + j]); j++)
				;
			if (j == 16)
				return buf + i;
		}
		if (c == '0' && i + 10 <= len && (buf[i + 1] == 'x' || buf[i + 1] == 'X')) {
			for (j = 2; i + j < len && isxdigit((unsigned char)buf[i + j]); j++)
				;
			if (j >= 10)
				return buf + i;
		}
		if (isxdigit((unsigned char)c) && (i == 0 || !isxdigit((unsigned char)buf[i - 1]))) {
			for (j = 0; i + j < len && isxdigit((unsigned char)buf[i + j]); j++)
				;
			/* 16 hex digits with at least one letter: a (hashed) pointer */
			if (j >= 16) {
				size_t k;

				for (k = 0; k < j; k++)
					if (isalpha((unsigned char)buf[i + k]))
						return buf + i;
			}
			i += j ? j - 1 : 0;
		}
		if (c == '_' && i + 14 <= len && !strncmp(buf + i, "____ptrval____", 14))
			return buf + i;
	}
	return NULL;
}

static const char *hdr_cpus =
	"cpu online nr_running h_nr_running movable load_avg runnable_avg util_avg weight capacity "
	"shadow shadow_avg shadow_fresh h_load samples div_mean div_max shadow_mean real_mean "
	"fresh_mean h_load_mean published discarded over_budget deferred pinned unknown work_cpus void";
static const char *hdr_groups =
	"cpu cgid depth se_weight cfs_weight load_avg runnable_avg util_avg task_load nr_tasks h_tasks "
	"shadow shadow_avg shadow_fresh h_load path";
static const char *hdr_lb = "domain idle tracker calls right wrong missed none void agree";

/* ---- groups: one CPU's block, checked when the block is complete ---- */
struct grow {
	char path[512];
	unsigned long long cgid, se_w, cfs_w, load, task_load, shadow, shadow_avg;
	unsigned long nr, h;
	int depth;
};

static struct grow blk[256];
static int nblk;

static const char *parent_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return "/";
	snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return buf;
}

/* Returns a description of the first inconsistency of the block, or NULL. */
static const char *check_block(int cpu, char *why, size_t wl)
{
	int i, j;

	for (i = 0; i < nblk; i++) {
		unsigned long hsum = blk[i].nr;
		double s = (double)blk[i].task_load, sa = s, tol = 1.0;
		char pb[512];

		for (j = 0; j < nblk; j++) {
			double w, W, c;

			if (j == i || strcmp(parent_of(blk[j].path, pb, sizeof(pb)), blk[i].path) ||
			    blk[j].depth != blk[i].depth + 1)
				continue;
			hsum += blk[j].h;
			w = (double)blk[j].se_w;
			W = (double)blk[j].cfs_w;
			if (W > 0 && w > 0) {
				c = (double)blk[j].shadow * w / W;
				s += c < w ? c : w;
				c = (double)blk[j].load * w / W;
				sa += c < w ? c : w;
				tol += 1.0 + 0.5 * w / W;
			}
		}
		if (hsum != blk[i].h) {
			snprintf(why, wl, "cpu %d %s: h_tasks %lu, nr_tasks + children's h_tasks %lu",
				 cpu, blk[i].path, blk[i].h, hsum);
			return why;
		}
		if (blk[i].shadow > s + tol || blk[i].shadow + tol < s) {
			snprintf(why, wl, "cpu %d %s: shadow %llu, task_load + children %.1f (tolerance %.1f)",
				 cpu, blk[i].path, blk[i].shadow, s, tol);
			return why;
		}
		if (blk[i].shadow_avg > sa + tol || blk[i].shadow_avg + tol < sa) {
			snprintf(why, wl, "cpu %d %s: shadow_avg %llu, task_load + children %.1f (tolerance %.1f)",
				 cpu, blk[i].path, blk[i].shadow_avg, sa, tol);
			return why;
		}
	}
	return NULL;
}

/*
 * -T: the block of a CPU of the static tree holds only the tree's paths,
 * root first, every parent before its children, each path with the cgid
 * it had in the first read.  Returns a description or NULL.
 */
static const char *check_tree(int cpu, char *why, size_t wl)
{
	int i, j, t;
	char pb[512];
	const char *pp;

	if (!ntree || !tree_has_cpu(cpu))
		return NULL;
	if (nblk && strcmp(blk[0].path, "/")) {
		snprintf(why, wl, "cpu %d: first row %.200s, not the root", cpu, blk[0].path);
		return why;
	}
	for (i = 0; i < nblk; i++) {
		t = tree_find(cpu, blk[i].path);
		if (t < 0) {
			snprintf(why, wl, "cpu %d: row %.200s is not in the static tree", cpu, blk[i].path);
			return why;
		}
		if (!tree[t].cgid)
			tree[t].cgid = blk[i].cgid;
		else if (tree[t].cgid != blk[i].cgid) {
			snprintf(why, wl, "cpu %d %.200s: cgid %llu, %llu in an earlier read", cpu,
				 blk[i].path, blk[i].cgid, tree[t].cgid);
			return why;
		}
		if (i == 0)
			continue;
		pp = parent_of(blk[i].path, pb, sizeof(pb));
		for (j = 0; j < i && strcmp(blk[j].path, pp); j++)
			;
		if (j == i) {
			snprintf(why, wl, "cpu %d: row %.200s before (or without) its parent %.200s", cpu,
				 blk[i].path, pp);
			return why;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(blk[j].path, blk[i].path)) {
				snprintf(why, wl, "cpu %d: row %.200s twice", cpu, blk[i].path);
				return why;
			}
		if (blk[i].h == 0) {
			snprintf(why, wl, "cpu %d %.200s: a queued cfs_rq with h_tasks 0", cpu, blk[i].path);
			return why;
		}
	}
	return NULL;
}

static void block_done(int cpu, char *why, size_t wl)
{
	if (check_block(cpu, why, wl)) {
		st.consist_bad++;
		msg("consistency %s", why);
	}
	if (check_tree(cpu, why, wl)) {
		st.tree_bad++;
		msg("tree %s", why);
	}
}

/* ---- one read ---- */
static void save(const char *name, const char *tag, const char *buf, size_t len)
{
	char p[4096];
	FILE *f;

	if (!save_dir)
		return;
	snprintf(p, sizeof(p), "%s/%s%s", save_dir, name, tag);
	f = fopen(p, "w");
	if (!f)
		return;
	fwrite(buf, 1, len, f);
	fclose(f);
}

/* Check one read of NAME.  Returns NULL if fine, else why (in WHY). */
static const char *check(const char *name, char *buf, size_t len, char *why, size_t wl)
{
	char *line, *next, *col[MAXCOL + 1];
	const char *hdr = NULL;
	int ln = 0, ncol = 0, n, i, kind, blk_cpu = -1;

	if (!strcmp(name, "enable")) {
		if (len == 2 && (buf[0] == '0' || buf[0] == '1') && buf[1] == '\n')
			return NULL;
		snprintf(why, wl, "enable reads %zu bytes '%.*s'", len, (int)(len > 20 ? 20 : len), buf);
		return why;
	}
	if (!strcmp(name, "lb_dump_every")) {
		if (len >= 2 && len <= 11 && buf[len - 1] == '\n') {
			buf[len - 1] = '\0';
			if (is_num(buf) && strtoull(buf, NULL, 10) <= 1000000000ULL)
				return NULL;
		}
		snprintf(why, wl, "lb_dump_every reads '%.*s'", (int)(len > 20 ? 20 : len), buf);
		return why;
	}
	if (!strcmp(name, "info"))
		kind = 0;
	else if (!strcmp(name, "cpus"))
		kind = 1, hdr = hdr_cpus;
	else if (!strcmp(name, "groups"))
		kind = 2, hdr = hdr_groups;
	else if (!strcmp(name, "lb"))
		kind = 3, hdr = hdr_lb;
	else if (!strcmp(name, "lb_snapshots"))
		kind = 4;
	else
		return NULL;	/* unknown file: the address scan only */

	if (!len || buf[len - 1] != '\n') {
		snprintf(why, wl, "%s does not end with a newline (%zu bytes)", name, len);
		return why;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(why, wl, "%s contains a NUL byte", name);
		return why;
	}
	buf[len - 1] = '\0';
	nblk = 0;
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ln++;
		if (ln == 1) {
			char want[64];

			snprintf(want, sizeof(want), "# sched_shadow %s v1", name);
			if (strcmp(line, want)) {
				snprintf(why, wl, "%s line 1 '%.60s'", name, line);
				return why;
			}
			continue;
		}
		if (ln == 2) {
			const char *w = kind == 0 ? "key value" : kind == 4 ? "snap kind fields" : hdr;

			if (strcmp(line, w)) {
				snprintf(why, wl, "%s header '%.80s'", name, line);
				return why;
			}
			ncol = kind == 0 ? 2 : 0;
			if (hdr) {
				char tmp[1024];

				snprintf(tmp, sizeof(tmp), "%s", hdr);
				ncol = split(tmp, col, MAXCOL);
			}
			continue;
		}
		st.rows++;
		{
			char copy[1024];

			snprintf(copy, sizeof(copy), "%s", line);
			n = split(line, col, MAXCOL);
			if (kind == 4) {
				if (n < 3 || !is_num(col[0]) ||
				    (strcmp(col[1], "call") && strcmp(col[1], "group") &&
				     strcmp(col[1], "cpu") && strcmp(col[1], "cfs_rq")))
					goto badrow;
				for (i = 2; i < n; i++)
					if (!strchr(col[i], '=') && strcmp(col[1], "call"))
						goto badrow;
				continue;
			}
			if (n != ncol)
				goto badrow;
			switch (kind) {
			case 0:
				break;
			case 1: {
				int online;

				if (!is_num(col[0]) || (strcmp(col[1], "0") && strcmp(col[1], "1")))
					goto badrow;
				online = col[1][0] == '1';
				for (i = 2; i < n - 2; i++)
					if (!is_num_or_dash(col[i]))
						goto badrow;
				/* work_cpus: all, - or a CPU list */
				if (strcmp(col[n - 2], "all") && strcmp(col[n - 2], "-") &&
				    strspn(col[n - 2], "0123456789,-") != strlen(col[n - 2]))
					goto badrow;
				/* the void reason: a name from docs/debugfs.md */
				{
					static const char *const reasons[] = { "fresh", "never",
						"walk_failed", "disabled", "reset", "hotplug", "stale",
						"unreadable" };
					int r, known = 0;

					for (r = 0; r < (int)(sizeof(reasons) / sizeof(reasons[0])); r++)
						known |= !strcmp(col[n - 1], reasons[r]);
					if (!known || (!online && strcmp(col[n - 1], "hotplug")))
						goto badrow;
				}
				/* an offline CPU: '-' from nr_running to h_load */
				if (!online)
					for (i = 2; i <= 13; i++)
						if (strcmp(col[i], "-"))
							goto badrow;
				/* counters are always numbers: published .. deferred */
				for (i = 21; i <= 24; i++)
					if (!is_num(col[i]))
						goto badrow;
				break;
			}
			case 2: {
				int cpu, depth = 0;
				const char *p;
				struct stat sb;

				for (i = 0; i < n - 1; i++)
					if (i != 3 && !is_num(col[i]))
						goto badrow;
				if (col[n - 1][0] != '/')
					goto badrow;
				for (p = col[n - 1]; *p; p++)
					if (*p == '/' && p[1])
						depth++;
				if (depth != atoi(col[2]))
					goto badrow;
				if (atoi(col[2]) == 0 ? strcmp(col[3], "-") || strcmp(col[n - 1], "/")
						      : !is_num(col[3]))
					goto badrow;
				cpu = atoi(col[0]);
				if (consist && cpu != blk_cpu) {
					if (blk_cpu >= 0)
						block_done(blk_cpu, why, wl);
					blk_cpu = cpu;
					nblk = 0;
				}
				if (consist && nblk < (int)(sizeof(blk) / sizeof(blk[0]))) {
					struct grow *g = &blk[nblk++];

					snprintf(g->path, sizeof(g->path), "%s", col[n - 1]);
					g->cgid = strtoull(col[1], NULL, 10);
					g->depth = atoi(col[2]);
					g->se_w = strtoull(col[3], NULL, 10);
					g->cfs_w = strtoull(col[4], NULL, 10);
					g->load = strtoull(col[5], NULL, 10);
					g->task_load = strtoull(col[8], NULL, 10);
					g->nr = strtoul(col[9], NULL, 10);
					g->h = strtoul(col[10], NULL, 10);
					g->shadow = strtoull(col[11], NULL, 10);
					g->shadow_avg = strtoull(col[12], NULL, 10);
				}
				if (gone_file && strcmp(col[n - 1], "/")) {
					char d[4096];

					if (set_has(&gone, col[n - 1])) {
						st.removed_shown++;
						msg("groups shows %s, removed before the read started", col[n - 1]);
					}
					snprintf(d, sizeof(d), CG_ROOT "%s", col[n - 1]);
					if (stat(d, &sb)) {
						set_update(&removing, removing_file);
						if (!set_has(&removing, col[n - 1])) {
							st.unknown_path++;
							msg("groups shows %s, which does not exist and was not removed", col[n - 1]);
						}
					} else if ((unsigned long long)sb.st_ino != strtoull(col[1], NULL, 10)) {
						st.cgid_bad++;
						msg("groups shows %s with cgid %s, its inode is %llu", col[n - 1], col[1],
						    (unsigned long long)sb.st_ino);
					}
				}
				break;
			}
			case 3:
				if (!strcmp(col[1], "busy")) {
					if (!is_num(col[3]))
						goto badrow;
					for (i = 4; i < 10; i++)
						if (strcmp(col[i], "-"))
							goto badrow;
				} else if (!strcmp(col[1], "idle") || !strcmp(col[1], "newidle")) {
					unsigned long long sum = 0;

					for (i = 3; i < 9; i++)
						if (!is_num(col[i]))
							goto badrow;
					for (i = 4; i < 9; i++)
						sum += strtoull(col[i], NULL, 10);
					if (sum != strtoull(col[3], NULL, 10))
						goto badrow;
					if (!strcmp(col[2], "actual") ? strcmp(col[9], "-") : !is_num(col[9]))
						goto badrow;
				} else {
					goto badrow;
				}
				break;
			}
			continue;
badrow:
			snprintf(why, wl, "%s line %d: '%.200s'", name, ln, copy);
			return why;
		}
	}
	if (ln < 2) {
		snprintf(why, wl, "%s has %d lines", name, ln);
		return why;
	}
	if ((kind == 0 || kind == 1) && ln < 3) {
		snprintf(why, wl, "%s has no rows", name);
		return why;
	}
	if (consist && kind == 2 && blk_cpu >= 0)
		block_done(blk_cpu, why, wl);
	return NULL;
}

static char *rbuf;
static size_t rcap;

static void read_one(const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char why[512], *copy;
	const char *bad, *hit;
	size_t len = 0;
	ssize_t n;
	int fd;

	if (gone_file && !strcmp(name, "groups"))
		set_update(&gone, gone_file);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (errno == ENOENT)
			st.absent++;
		else if (errno == ENXIO || errno == EIO || errno == ENODEV)
			st.gone_err++;	/* the module is going away (rmmod in progress) */
		else {
			st.other_err++;
			msg("open %s: %s", path, strerror(errno));
		}
		return;
	}
	st.reads++;
	for (;;) {
		if (len + 65536 > rcap) {
			rcap = rcap ? rcap * 2 : 1 << 20;
			rbuf = realloc(rbuf, rcap);
			if (!rbuf)
				abort();
		}
		n = read(fd, rbuf + len, rcap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		if (errno == EIO || errno == ENODEV || errno == ENOENT)
			st.gone_err++;	/* file removed under us (rmmod) */
		else {
			st.other_err++;
			msg("read %s: %s", path, strerror(errno));
		}
		return;
	}
	hit = find_addr(rbuf, len);
	if (hit) {
		st.addr++;
		msg("kernel address in %s: '%.*s'", name, (int)strcspn(hit, " \n"), hit);
		save(name, ".addr", rbuf, len);
	}
	copy = malloc(len + 1);
	if (!copy)
		abort();
	memcpy(copy, rbuf, len);
	copy[len] = '\0';
	bad = check(name, rbuf, len, why, sizeof(why));
	if (bad) {
		st.bad++;
		msg("bad %s: %s", name, bad);
		if (st.bad <= 3) {
			char tag[32];

			snprintf(tag, sizeof(tag), ".bad%ld", st.bad);
			save(name, tag, copy, len);
		}
	} else {
		st.ok++;
		save(name, ".last", copy, len);
	}
	free(copy);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: ssread [options] FILE...\n"
"  -d S        stop after S seconds (default: until SIGTERM/SIGINT or -n)\n"
"  -n N        stop after N rounds over the files\n"
"  -i MS       pause between rounds (default 0)\n"
"  -c          groups: check h_tasks and shadow arithmetic per CPU block\n"
"  -T TREE     groups (with -c): the CPUs of TREE (lines \"CPU PATH\") show only\n"
"              those paths, parents first, with a constant cgid\n"
"  -g GONE     groups: paths removed (one per line): must not be shown\n"
"  -G REMOVING groups: paths being removed: may be missing from the tree\n"
"  -s DIR      keep the last good read (NAME.last) and bad reads there\n"
"  -m N        print at most N problem lines (default 5)\n"
"Prints one summary line 'ssread: rounds=.. reads=.. ok=.. bad=.. ...' at the end.\n");
}

int main(int argc, char **argv)
{
	double dur = 0, t0;
	long rounds = 0, interval = 0;
	struct sigaction sa;
	int c, i;

	while ((c = getopt(argc, argv, "d:n:i:cT:g:G:s:m:h")) != -1) {
		switch (c) {
		case 'd': dur = atof(optarg); break;
		case 'n': rounds = atol(optarg); break;
		case 'i': interval = atol(optarg); break;
		case 'c': consist = 1; break;
		case 'T': tree_load(optarg); break;
		case 'g': gone_file = optarg; break;
		case 'G': removing_file = optarg; break;
		case 's': save_dir = optarg; break;
		case 'm': max_msgs = atol(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	t0 = now_s();
	while (!stop) {
		for (i = optind; i < argc && !stop; i++)
			read_one(argv[i]);
		st.rounds++;
		if ((rounds && st.rounds >= rounds) || (dur > 0 && now_s() - t0 >= dur))
			break;
		if (interval) {
			struct timespec ts = { interval / 1000, (interval % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	printf("ssread: rounds=%ld reads=%ld ok=%ld bad=%ld absent=%ld gone_err=%ld other_err=%ld "
	       "addr=%ld rows=%ld consist_bad=%ld removed_shown=%ld unknown_path=%ld cgid_bad=%ld "
	       "tree_bad=%ld\n",
	       st.rounds, st.reads, st.ok, st.bad, st.absent, st.gone_err, st.other_err, st.addr,
	       st.rows, st.consist_bad, st.removed_shown, st.unknown_path, st.cgid_bad, st.tree_bad);
	return (st.bad || st.addr || st.other_err) ? 1 : 0;
}
