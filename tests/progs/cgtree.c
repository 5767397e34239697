// SPDX-License-Identifier: GPL-2.0
/*
 * cgtree: many cgroups and tasks spread among them, for the big-machine
 * tests and the bench (what a Kubernetes node looks like to the
 * scheduler: thousands of cpu cgroups, a few levels deep).
 *
 * Creates GROUPS cgroup v2 directories below ROOT (a directory of the
 * cgroup2 mount, created too), as a tree at most DEPTH levels deep: group
 * i (1-based) hangs below the root when i <= FANOUT, else below group
 * (i - 1) / FANOUT, with FANOUT the smallest that fits GROUPS in DEPTH
 * levels.  Then forks TASKS processes; task j joins group
 * GROUPS - (j % GROUPS) (the deepest groups first), optionally pins itself
 * to one CPU, and runs RUN_MS / sleeps SLEEP_MS in a loop (SLEEP_MS 0: a
 * hog).  Prints "cgtree: ready G groups T tasks depth D" once every task
 * runs, then waits for SIGTERM/SIGINT or DURATION seconds, stops the
 * tasks, removes the groups (deepest first) and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"

#define CG_ROOT "/sys/fs/cgroup"

static volatile sig_atomic_t stop;
static char **paths;		/* paths[i]: group i's directory, i = 0 is ROOT */
static int *depth_of;

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

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), rc = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		rc = -1;
	close(fd);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: cgtree -g GROUPS -t TASKS [options]\n"
"  -R, --root NAME     directory below " CG_ROOT " (default cgtree)\n"
"  -g, --groups N      cgroups to create (1..100000)\n"
"  -d, --depth N       at most N levels below ROOT (1..32, default 1)\n"
"  -t, --tasks N       processes to fork (0..100000)\n"
"  -r, --run MS        run time per cycle (default 1000)\n"
"  -s, --sleep MS      sleep time per cycle (default 0: hogs)\n"
"  -c, --cpu N         pin every task to CPU N (default: not pinned)\n"
"  -D, --duration S    stop after S seconds (default: until SIGTERM)\n"
"  -h, --help          this text\n");
}

/* The task: join the group, maybe pin, run/sleep until told to stop. */
static void task_main(int g, int cpu, long run_ms, long sleep_ms)
{
	char f[4096 + 32], pid[32];
	double t;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	snprintf(f, sizeof(f), "%s/cgroup.procs", paths[g]);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(f, pid)) {
		fprintf(stderr, "cgtree: join %s: %s\n", paths[g], strerror(errno));
		_exit(1);
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "cgtree: pin to cpu %d: %s\n", cpu, strerror(errno));
			_exit(1);
		}
	}
	for (;;) {
		t = now_s() + run_ms / 1000.0;
		while (now_s() < t)
			;
		if (sleep_ms)
			usleep(sleep_ms * 1000);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'R' },
		{ "groups", required_argument, NULL, 'g' },
		{ "depth", required_argument, NULL, 'd' },
		{ "tasks", required_argument, NULL, 't' },
		{ "run", required_argument, NULL, 'r' },
		{ "sleep", required_argument, NULL, 's' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *root = "cgtree";
	long groups = -1, depth = 1, tasks = -1, run_ms = 1000, sleep_ms = 0, cpu = -1, dur = 0;
	long fanout, cap, i, maxd = 0, started = 0;
	pid_t *pids;
	int c, rc = 0;
	char buf[4096 + 64];

	while ((c = getopt_long(argc, argv, "R:g:d:t:r:s:c:D:h", opts, NULL)) != -1) {
		switch (c) {
		case 'R': root = optarg; break;
		case 'g': groups = parse_num("--groups", optarg, 1, 100000); break;
		case 'd': depth = parse_num("--depth", optarg, 1, 32); break;
		case 't': tasks = parse_num("--tasks", optarg, 0, 100000); break;
		case 'r': run_ms = parse_num("--run", optarg, 1, 3600000); break;
		case 's': sleep_ms = parse_num("--sleep", optarg, 0, 3600000); break;
		case 'c': cpu = parse_num("--cpu", optarg, 0, 4095); break;
		case 'D': dur = parse_num("--duration", optarg, 1, 86400); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (groups < 0 || tasks < 0 || optind != argc || strchr(root, '/') || !*root) {
		usage(stderr);
		return 2;
	}
	/* the smallest fanout whose tree of `depth` levels holds every group */
	for (fanout = 1;; fanout++) {
		long lv = 1, total = 0;

		for (i = 0; i < depth && total < groups; i++) {
			lv *= fanout;
			total += lv;
		}
		if (total >= groups)
			break;
	}
	paths = calloc(groups + 1, sizeof(*paths));
	depth_of = calloc(groups + 1, sizeof(*depth_of));
	pids = calloc(tasks + 1, sizeof(*pids));
	if (!paths || !depth_of || !pids) {
		fprintf(stderr, "cgtree: out of memory\n");
		return 1;
	}
	cap = 4096;
	if (asprintf(&paths[0], "%s/%s", CG_ROOT, root) < 0)
		return 1;
	if (mkdir(paths[0], 0755) && errno != EEXIST) {
		fprintf(stderr, "cgtree: mkdir %s: %s\n", paths[0], strerror(errno));
		return 1;
	}
	snprintf(buf, sizeof(buf), "%s/cgroup.subtree_control", paths[0]);
	write_str(buf, "+cpu");
	for (i = 1; i <= groups; i++) {
		long p = i <= fanout ? 0 : (i - 1) / fanout;

		depth_of[i] = depth_of[p] + 1;
		if (depth_of[i] > maxd)
			maxd = depth_of[i];
		if (asprintf(&paths[i], "%s/g%ld", paths[p], i) < 0 || strlen(paths[i]) >= (size_t)cap) {
			fprintf(stderr, "cgtree: path too long\n");
			return 1;
		}
		if (mkdir(paths[i], 0755) && errno != EEXIST) {
			fprintf(stderr, "cgtree: mkdir %s: %s\n", paths[i], strerror(errno));
			groups = i - 1;
			rc = 1;
			goto out;
		}
		/* its parent now has a child: let the cpu controller down to it */
		if (p && i == p * fanout + 1) {
			snprintf(buf, sizeof(buf), "%s/cgroup.subtree_control", paths[p]);
			if (write_str(buf, "+cpu")) {
				fprintf(stderr, "cgtree: +cpu in %s: %s\n", paths[p], strerror(errno));
				rc = 1;
				goto out;
			}
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("cgtree: %ld groups made, forking %ld tasks\n", groups, tasks);
	fflush(stdout);
	for (i = 0; i < tasks && !stop; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "cgtree: fork: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		if (!pid)
			task_main(groups - (i % groups), cpu, run_ms, sleep_ms);
		pids[started++] = pid;
	}
	if (!rc)
		printf("cgtree: ready %ld groups %ld tasks depth %ld\n", groups, started, maxd);
	fflush(stdout);
	if (!rc) {
		double end = dur ? now_s() + dur : 0;

		while (!stop && (!dur || now_s() < end))
			usleep(100000);
	}
	for (i = 0; i < started; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < started; i++)
		waitpid(pids[i], NULL, 0);
out:
	for (i = groups; i >= 1; i--)
		if (rmdir(paths[i]) && errno != ENOENT)
			fprintf(stderr, "cgtree: rmdir %s: %s\n", paths[i], strerror(errno));
	rmdir(paths[0]);
	return rc;
}
