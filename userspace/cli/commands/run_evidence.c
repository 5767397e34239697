// SPDX-License-Identifier: GPL-2.0
/*
 * `run --evidence DIR` (run_evidence.h): record the module's lb_verdict
 * and wasted_interval events in a private tracefs instance while CMD
 * runs, then write the files a maintainer needs for the run's top
 * wasted-core cause.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/sources/lbtrace.h"
#include "cli/commands/run_evidence.h"

#define EV_EVENTS	2
#define EV_BUF		65536
#define EV_MAX_CGROUPS	2000	/* cgroups.txt lists at most this many */

static const char *const ev_event[EV_EVENTS] = { "lb_verdict", "wasted_interval" };

struct evidence {
	char dir[4096];
	char inst[512];			/* tracefs instance, "" when none */
	int have[EV_EVENTS];		/* the event exists and was enabled */
	char why[256];			/* why events are not recorded ("" when they are) */
	int fd;				/* the instance's trace_pipe, -1 when none */
	FILE *trace;			/* DIR/trace.txt */
	pthread_t th;
	int th_started;
	volatile int stop;
	unsigned long long lines, overrun;
};

/* ------------------------------------------------------------ helpers */

static int ev_write_file(const char *dir, const char *file, const char *val)
{
	char p[1024];
	int fd, rc = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		rc = -1;
	close(fd);
	return rc;
}

/* Read up to max bytes of a file into a NUL-terminated malloc'ed buffer (NULL on error). */
static char *ev_slurp(const char *path, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (!b || fd < 0) {
		free(b);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n == cap && cap < max) {
			char *nb = realloc(b, (cap *= 2) + 1);

			if (!nb)
				break;
			b = nb;
		}
		if (n >= cap || n >= max)
			break;
		r = read(fd, b + n, (cap < max ? cap : max) - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = 0;
	if (len)
		*len = n;
	return b;
}

static FILE *ev_create(struct evidence *e, const char *name)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s", e->dir, name);
	return fopen(p, "we");
}

/* Copy a file into DIR/name verbatim; a missing source is said in the copy. */
static void ev_copy(struct evidence *e, const char *src, const char *name)
{
	size_t n = 0;
	char *b = ev_slurp(src, 64u << 20, &n);
	FILE *f = ev_create(e, name);

	if (f) {
		if (b)
			fwrite(b, 1, n, f);
		else
			fprintf(f, "# %s: %s\n", src, strerror(errno));
		fclose(f);
	}
	free(b);
}

static const char *ev_trace_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/instances", roots[i]);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return roots[i];
	}
	return NULL;
}

/* ------------------------------------------------------------ recording */

static void ev_drain(struct evidence *e)
{
	static char buf[EV_BUF];
	ssize_t r;

	while ((r = read(e->fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)r, e->trace);
		for (ssize_t i = 0; i < r; i++)
			e->lines += buf[i] == '\n';
	}
}

static void *ev_reader(void *arg)
{
	struct evidence *e = arg;
	struct pollfd p = { .fd = e->fd, .events = POLLIN };

	while (!e->stop) {
		poll(&p, 1, 100);
		ev_drain(e);
	}
	ev_drain(e);
	return NULL;
}

int evidence_open(struct evidence **out, const char *dir, char *err, size_t errlen)
{
	struct evidence *e;
	const char *root;
	char p[1024];
	DIR *d;

	*out = NULL;
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	e->fd = -1;
	snprintf(e->dir, sizeof(e->dir), "%s", dir);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "--evidence %s: %s", dir, strerror(errno));
		free(e);
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "--evidence %s: %s", dir, strerror(errno));
		free(e);
		return -1;
	}
	for (struct dirent *de; (de = readdir(d));) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			snprintf(err, errlen, "--evidence %s: the directory is not empty", dir);
			free(e);
			return -1;
		}
	}
	closedir(d);
	e->trace = ev_create(e, "trace.txt");
	if (!e->trace) {
		snprintf(err, errlen, "--evidence %s/trace.txt: %s", dir, strerror(errno));
		free(e);
		return -1;
	}
	root = ev_trace_root();
	if (!root) {
		snprintf(e->why, sizeof(e->why), "tracefs is not mounted (no instances directory)");
		*out = e;
		return 0;
	}
	snprintf(e->inst, sizeof(e->inst), "%s/instances/sched_shadow-evidence-%d", root, (int)getpid());
	if (mkdir(e->inst, 0700)) {
		snprintf(e->why, sizeof(e->why), "%.180s: %s", e->inst, strerror(errno));
		e->inst[0] = 0;
		*out = e;
		return 0;
	}
	for (int i = 0; i < EV_EVENTS; i++) {
		snprintf(p, sizeof(p), "%s/events/sched_shadow/%s/enable", e->inst, ev_event[i]);
		e->have[i] = access(p, W_OK) == 0;
	}
	if (!e->have[0] && !e->have[1]) {
		snprintf(e->why, sizeof(e->why), "the module has no sched_shadow:lb_verdict nor "
			 "sched_shadow:wasted_interval trace event");
		*out = e;
		return 0;
	}
	/* the module's wasted_interval start_ns is CLOCK_MONOTONIC */
	ev_write_file(e->inst, "trace_clock", "mono");
	ev_write_file(e->inst, "buffer_size_kb", "4096");
	ev_write_file(e->inst, "tracing_on", "0");
	snprintf(p, sizeof(p), "%s/trace_pipe", e->inst);
	e->fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (e->fd < 0) {
		snprintf(e->why, sizeof(e->why), "%.180s: %s", p, strerror(errno));
		*out = e;
		return 0;
	}
	if (pthread_create(&e->th, NULL, ev_reader, e)) {
		snprintf(e->why, sizeof(e->why), "cannot start the trace reader");
		close(e->fd);
		e->fd = -1;
	} else {
		e->th_started = 1;
	}
	*out = e;
	return 0;
}

void evidence_start(struct evidence *e)
{
	char f[128];

	if (!e || e->fd < 0)
		return;
	for (int i = 0; i < EV_EVENTS; i++) {
		snprintf(f, sizeof(f), "events/sched_shadow/%s/enable", ev_event[i]);
		if (e->have[i] && ev_write_file(e->inst, f, "1"))
			e->have[i] = 0;
	}
	if (ev_write_file(e->inst, "tracing_on", "1"))
		snprintf(e->why, sizeof(e->why), "cannot turn the instance's tracing on: %s",
			 strerror(errno));
}

void evidence_stop(struct evidence *e)
{
	if (!e || !e->inst[0])
		return;
	ev_write_file(e->inst, "tracing_on", "0");
	if (e->th_started) {
		e->stop = 1;
		pthread_join(e->th, NULL);
		e->th_started = 0;
	}
	{
		struct lbtrace t = { .fd = -1 };

		snprintf(t.inst, sizeof(t.inst), "%s", e->inst);
		e->overrun = lbtrace_overrun(&t);
	}
	if (e->trace)
		fflush(e->trace);
}

void evidence_tables(struct evidence *e, const char *debugfs)
{
	static const char *const tables[] = { "wasted", "wasted_attrib", "wasted_cgroups", "info" };
	char src[4200], dst[64];

	if (!e)
		return;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", debugfs, tables[i]);
		snprintf(dst, sizeof(dst), "%s.txt", tables[i]);
		ev_copy(e, src, dst);
	}
}

/* ------------------------------------------------------------ the cause */

static const char *ev_cell(const struct dbgfs_table *t, int row, const char *col)
{
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], col))
			return t->cells[row * t->ncols + c];
	return NULL;
}

int evidence_top_cause(const struct dbgfs_table *a, struct evidence_cause *c)
{
	int best = -1;
	double bms = 0;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < a->nrows; i++) {
		const char *cpu = ev_cell(a, i, "cpu"), *ms = ev_cell(a, i, "wasted_ms");
		double v;

		if (!cpu || !ms || strcmp(cpu, "all"))
			continue;
		v = strtod(ms, NULL);
		if (v > bms) {
			bms = v;
			best = i;
		}
	}
	if (best < 0)
		return 0;
	c->found = 1;
	c->ms = bms;
	snprintf(c->domain, sizeof(c->domain), "%.31s", ev_cell(a, best, "domain"));
	snprintf(c->verdict, sizeof(c->verdict), "%.31s", ev_cell(a, best, "verdict"));
	snprintf(c->reason, sizeof(c->reason), "%.63s", ev_cell(a, best, "reason"));
	snprintf(c->cause, sizeof(c->cause), "%.63s", ev_cell(a, best, "cause"));
	c->attempts = strtol(ev_cell(a, best, "attempts") ? ev_cell(a, best, "attempts") : "0", NULL, 10);
	/* the CPUs carrying it, most wasted first */
	for (int i = 0; i < a->nrows; i++) {
		const char *cpu = ev_cell(a, i, "cpu");
		double v;
		int k;

		if (!cpu || !strcmp(cpu, "all") || strcmp(ev_cell(a, i, "domain"), c->domain) ||
		    strcmp(ev_cell(a, i, "verdict"), c->verdict) || strcmp(ev_cell(a, i, "reason"), c->reason) ||
		    strcmp(ev_cell(a, i, "cause"), c->cause))
			continue;
		v = strtod(ev_cell(a, i, "wasted_ms"), NULL);
		if (c->ncpus == (int)(sizeof(c->cpus) / sizeof(c->cpus[0])) && v <= c->cpu_ms[c->ncpus - 1])
			continue;
		k = c->ncpus < (int)(sizeof(c->cpus) / sizeof(c->cpus[0])) ? c->ncpus++ : c->ncpus - 1;
		while (k > 0 && c->cpu_ms[k - 1] < v) {
			c->cpus[k] = c->cpus[k - 1];
			c->cpu_ms[k] = c->cpu_ms[k - 1];
			k--;
		}
		c->cpus[k] = atoi(cpu);
		c->cpu_ms[k] = v;
	}
	return 1;
}

int evidence_attempt_matches(const struct evidence_cause *c, int dst_cpu, const char *domain,
			     const char *verdict, const char *reason, const char *moved)
{
	int on = 0;

	if (!c->found || !domain || !verdict || strcmp(domain, c->domain) || strcmp(verdict, c->verdict))
		return 0;
	for (int i = 0; i < c->ncpus; i++)
		on |= c->cpus[i] == dst_cpu;
	if (!on)
		return 0;
	if (!strcmp(c->verdict, "right")) {
		/* attribution reasons of right: moved, unmoved */
		long m = moved ? strtol(moved, NULL, 10) : -1;

		return !strcmp(c->reason, "moved") ? m > 0 : !strcmp(c->reason, "unmoved") ? m == 0 : 0;
	}
	if (!strcmp(c->verdict, "missed") || !strcmp(c->verdict, "wrong") || !strcmp(c->verdict, "void"))
		return reason && !strcmp(reason, c->reason);
	return !strcmp(c->verdict, "none");
}

static const char *ev_gloss(const struct evidence_cause *c)
{
	if (!strcmp(c->verdict, "missed"))
		return "the balancer picked no group although a group of that domain had a task the idle "
		       "CPU could run; the reason is the exit of find_busiest_group() the audit's model took "
		       "(docs/debugfs.md, lb reasons)";
	if (!strcmp(c->verdict, "wrong"))
		return "the balancer picked a group with nothing the idle CPU could run while another group had";
	if (!strcmp(c->verdict, "right") && !strcmp(c->reason, "unmoved"))
		return "the balancer picked the right group and moved nothing; the cause is what "
		       "can_migrate_task() said of the tasks detach_tasks() examined";
	if (!strcmp(c->verdict, "right"))
		return "the balancer picked the right group and moved tasks, while waste went on";
	if (!strcmp(c->verdict, "no_attempt"))
		return "no balancing attempt at that domain had the idle CPU as destination while it was wasted";
	if (!strcmp(c->verdict, "none"))
		return "the audit saw no work for the idle CPU at that domain (the waiter came after the attempt "
		       "read the CPUs, or the attempt's CPU mask left it out)";
	if (!strcmp(c->verdict, "void"))
		return "the audit could not read a CPU of the domain";
	return "see docs/wasted.md, Attribution to decisions";
}

/* ------------------------------------------------------------ the files */

static void ev_kernel(struct evidence *e)
{
	static const char *const dirs[] = { "/sys/kernel/debug/sched", "/proc/sys/kernel",
					    "/sys/module/sched_shadow/parameters" };
	struct utsname u;
	FILE *f = ev_create(e, "kernel.txt");
	char *b;

	if (!f)
		return;
	if (uname(&u) == 0)
		fprintf(f, "uname: %s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	b = ev_slurp("/proc/cmdline", 4096, NULL);
	fprintf(f, "cmdline: %s", b ? b : "?\n");
	free(b);
	fprintf(f, "online cpus: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			char p[1024];
			struct stat st;
			size_t n;

			/* sched/debug is a dump, not a knob; /proc/sys/kernel: sched_* only */
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "debug") ||
			    (i == 1 && strncmp(de->d_name, "sched_", 6)))
				continue;
			snprintf(p, sizeof(p), "%s/%s", dirs[i], de->d_name);
			if (stat(p, &st) || !S_ISREG(st.st_mode))
				continue;
			b = ev_slurp(p, 4096, &n);
			if (!b)
				continue;
			while (n && (b[n - 1] == '\n' || b[n - 1] == ' '))
				b[--n] = 0;
			for (size_t k = 0; k < n; k++)
				if (b[k] == '\n')
					b[k] = ' ';
			fprintf(f, "%s: %s\n", p, b);
			free(b);
		}
		closedir(d);
	}
	fclose(f);
}

static void ev_topology(struct evidence *e)
{
	FILE *f = ev_create(e, "topology.txt");
	FILE *s = fopen("/proc/schedstat", "re");
	char line[4096], cpu[32] = "?";
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (!f) {
		if (s)
			fclose(s);
		return;
	}
	fprintf(f, "# /proc/schedstat: each CPU's sched domains (name where the kernel prints it, CPU mask)\n");
	while (s && fgets(line, sizeof(line), s)) {
		char a[64], b[64], c[64];
		int k = sscanf(line, "%63s %63s %63s", a, b, c);

		if (k >= 1 && !strncmp(a, "cpu", 3))
			snprintf(cpu, sizeof(cpu), "%.31s", a);
		else if (k >= 2 && !strcmp(a, "version"))
			fprintf(f, "version %s\n", b);
		else if (k >= 3 && !strncmp(a, "domain", 6))
			/* 17+: "domainN NAME MASK ...", else "domainN MASK ..." */
			fprintf(f, "%s %s %s%s%s\n", cpu, a, b, strspn(b, "0123456789abcdef,") == strlen(b) ? "" : " ",
				strspn(b, "0123456789abcdef,") == strlen(b) ? "" : c);
	}
	if (s)
		fclose(s);
	fprintf(f, "# cpu package die core node\n");
	for (long c = 0; c < n && c < 8192; c++) {
		char p[256], *pk, *di, *co, node[32] = "-";
		DIR *d;

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", c);
		pk = ev_slurp(p, 64, NULL);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%ld/topology/die_id", c);
		di = ev_slurp(p, 64, NULL);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%ld/topology/core_id", c);
		co = ev_slurp(p, 64, NULL);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%ld", c);
		d = opendir(p);
		for (struct dirent *de; d && (de = readdir(d));)
			if (!strncmp(de->d_name, "node", 4))
				snprintf(node, sizeof(node), "%s", de->d_name + 4);
		if (d)
			closedir(d);
		if (pk)
			fprintf(f, "cpu%ld %s %s %s %s\n", c, strtok(pk, "\n"), di ? strtok(di, "\n") : "-",
				co ? strtok(co, "\n") : "-", node);
		free(pk);
		free(di);
		free(co);
	}
	fclose(f);
}

static void ev_cgroup_dir(FILE *f, const char *root, const char *rel, int depth, int *left)
{
	static const char *const files[] = { "cpu.weight", "cpu.max", "cpuset.cpus.effective" };
	char p[4096];
	DIR *d;

	if (*left <= 0 || depth > 16)
		return;
	(*left)--;
	fprintf(f, "%s", rel[0] ? rel : "/");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *b;

		snprintf(p, sizeof(p), "%s%s/%s", root, rel, files[i]);
		b = ev_slurp(p, 256, NULL);
		fprintf(f, " %s=%s", files[i], b ? strtok(b, "\n") ? b : "" : "-");
		free(b);
	}
	{
		size_t n = 0;
		char *b;
		long t = 0;

		snprintf(p, sizeof(p), "%s%s/cgroup.threads", root, rel);
		b = ev_slurp(p, 1u << 20, &n);
		for (size_t k = 0; b && k < n; k++)
			t += b[k] == '\n';
		fprintf(f, " threads=%ld\n", b ? t : -1);
		free(b);
	}
	snprintf(p, sizeof(p), "%s%s", root, rel);
	d = opendir(p);
	for (struct dirent *de; d && (de = readdir(d));) {
		char sub[4096];
		struct stat st;

		if (de->d_name[0] == '.' || strlen(rel) + strlen(de->d_name) + 2 > sizeof(sub) - 16)
			continue;
		snprintf(sub, sizeof(sub), "%.3800s/%.255s", rel, de->d_name);
		snprintf(p, sizeof(p), "%.64s%.4000s", root, sub);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			ev_cgroup_dir(f, root, sub, depth + 1, left);
	}
	if (d)
		closedir(d);
}

static void ev_cgroups(struct evidence *e)
{
	FILE *f = ev_create(e, "cgroups.txt");
	int left = EV_MAX_CGROUPS;

	if (!f)
		return;
	fprintf(f, "# the cgroup v2 tree under /sys/fs/cgroup at the end of the run (at most %d)\n",
		EV_MAX_CGROUPS);
	ev_cgroup_dir(f, "/sys/fs/cgroup", "", 0, &left);
	if (left <= 0)
		fprintf(f, "# more cgroups not listed\n");
	fclose(f);
}

/* attempts.txt: the lb_verdict records behind c; returns how many */
static long ev_attempts(struct evidence *e, const struct evidence_cause *c, long *verdicts, long *intervals)
{
	char p[4200], *line = NULL;
	size_t cap = 0;
	long n = 0;
	FILE *in, *out;

	*verdicts = *intervals = 0;
	snprintf(p, sizeof(p), "%s/trace.txt", e->dir);
	in = fopen(p, "re");
	out = ev_create(e, "attempts.txt");
	if (out) {
		if (c->found)
			fprintf(out, "# the judged balancing attempts behind %s %s/%s%s%s: lb_verdict records with "
				"domain=%s verdict=%s and a destination among the CPUs the waste was charged on\n",
				c->domain, c->verdict, c->reason, strcmp(c->cause, "-") ? ":" : "",
				strcmp(c->cause, "-") ? c->cause : "", c->domain, c->verdict);
		else
			fprintf(out, "# no wasted-core time: no cause, no attempts\n");
	}
	while (in && getline(&line, &cap, in) > 0) {
		struct lbv_event ev;

		if (strstr(line, "wasted_interval:"))
			(*intervals)++;
		if (lbv_parse_line(line, &ev))
			continue;
		(*verdicts)++;
		if (out && evidence_attempt_matches(c, ev.dst_cpu, lbv_get(&ev, "domain"), lbv_get(&ev, "verdict"),
						    lbv_get(&ev, "reason"), lbv_get(&ev, "moved"))) {
			fputs(line, out);
			n++;
		}
		lbv_free(&ev);
	}
	free(line);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return n;
}

int evidence_write(struct evidence *e, const struct report *r, char *const *cmd,
		   char *err, size_t errlen)
{
	struct dbgfs_table attrib = { 0 }, wasted = { 0 };
	struct evidence_cause c;
	char p[4200], cmdline[512] = "";
	double total = 0, top_ms = 0, top_sampled = 0;
	long verdicts, intervals, matched;
	int top_cpu = -1, o = 0;
	struct utsname u;
	FILE *f;
	char *b;
	size_t n;

	if (e->trace) {
		fclose(e->trace);
		e->trace = NULL;
	}
	ev_kernel(e);
	ev_topology(e);
	ev_cgroups(e);
	f = ev_create(e, "report.json");
	if (f) {
		report_print_json(r, f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/wasted_attrib.txt", e->dir);
	b = ev_slurp(p, 64u << 20, &n);
	if (!b || dbgfs_parse(b, n, "wasted_attrib", &attrib, NULL))
		memset(&attrib, 0, sizeof(attrib));
	free(b);
	snprintf(p, sizeof(p), "%s/wasted.txt", e->dir);
	b = ev_slurp(p, 64u << 20, &n);
	if (!b || dbgfs_parse(b, n, "wasted", &wasted, NULL))
		memset(&wasted, 0, sizeof(wasted));
	free(b);
	evidence_top_cause(&attrib, &c);
	for (int i = 0; i < wasted.nrows; i++) {
		const char *cpu = ev_cell(&wasted, i, "cpu"), *w = ev_cell(&wasted, i, "wasted_ms");
		double v = w ? strtod(w, NULL) : 0;

		if (!cpu || !strcmp(cpu, "all"))
			continue;
		total += v;
		if (v > top_ms) {
			top_ms = v;
			top_cpu = atoi(cpu);
			top_sampled = strtod(ev_cell(&wasted, i, "sampled_ms") ? ev_cell(&wasted, i, "sampled_ms") : "0",
					     NULL);
		}
	}
	matched = ev_attempts(e, &c, &verdicts, &intervals);
	for (int i = 0; cmd && cmd[i] && o < (int)sizeof(cmdline) - 1; i++)
		o += snprintf(cmdline + o, sizeof(cmdline) - (size_t)o, "%s%s", i ? " " : "", cmd[i]);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");

	f = ev_create(e, "README.md");
	if (!f) {
		snprintf(err, errlen, "--evidence %s/README.md: %s", e->dir, strerror(errno));
		dbgfs_free(&attrib);
		dbgfs_free(&wasted);
		return -1;
	}
	fprintf(f, "# sched_shadow evidence: `%s` on %s\n\n", cmdline, u.release);
	if (!wasted.nrows) {
		fprintf(f, "The module's wasted-core table could not be read (wasted.txt says why), so this "
			"directory names no cause. ");
	} else if (!c.found || total <= 0) {
		fprintf(f, "On %s, `%s` ran %.1f s and no CPU was idle while a task that could run on it "
			"waited (wasted-core time 0 ms), so there is no wasted cause to report. ",
			u.release, cmdline, r->wall_s);
	} else {
		fprintf(f, "On %s, `%s` ran %.1f s, and CPUs were idle while a task that could run on them "
			"waited for %.0f ms in all (wasted-core time), most on cpu%d: %.0f ms of its %.0f ms. ",
			u.release, cmdline, r->wall_s, total, top_cpu, top_ms, top_sampled);
		fprintf(f, "The largest share, %.0f ms, is charged to %s %s/%s%s%s on cpu", c.ms, c.domain,
			c.verdict, c.reason, strcmp(c.cause, "-") ? ":" : "", strcmp(c.cause, "-") ? c.cause : "");
		for (int i = 0; i < c.ncpus; i++)
			fprintf(f, "%s%d", i ? "," : "", c.cpus[i]);
		fprintf(f, " (%s); the module counted %ld attempts for it, and attempts.txt holds the %ld "
			"lb_verdict records that match it, each with every input the audit read. ",
			ev_gloss(&c), c.attempts, matched);
	}
	fprintf(f, "The kernel and its knobs are in kernel.txt, the sched domains in topology.txt, the "
		"cgroups in cgroups.txt, the wasted-core tables in wasted.txt, wasted_attrib.txt and "
		"wasted_cgroups.txt, the run's report in report.json, and the raw events in trace.txt (");
	if (e->why[0])
		fprintf(f, "not recorded: %s", e->why);
	else
		fprintf(f, "%ld lb_verdict and %ld wasted_interval records, %llu lost to ring-buffer overruns",
			verdicts, intervals, e->overrun);
	fprintf(f, ").\n");
	fclose(f);
	dbgfs_free(&attrib);
	dbgfs_free(&wasted);
	return 0;
}

void evidence_free(struct evidence *e)
{
	char f[128];

	if (!e)
		return;
	if (e->th_started) {
		e->stop = 1;
		pthread_join(e->th, NULL);
	}
	if (e->inst[0]) {
		for (int i = 0; i < EV_EVENTS; i++) {
			snprintf(f, sizeof(f), "events/sched_shadow/%s/enable", ev_event[i]);
			if (e->have[i])
				ev_write_file(e->inst, f, "0");
		}
		ev_write_file(e->inst, "tracing_on", "0");
	}
	if (e->fd >= 0)
		close(e->fd);
	if (e->inst[0] && rmdir(e->inst))
		fprintf(stderr, "sched-shadow: could not remove tracefs instance %s: %s\n", e->inst,
			strerror(errno));
	if (e->trace)
		fclose(e->trace);
	free(e);
}
