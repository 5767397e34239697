// SPDX-License-Identifier: GPL-2.0
/*
 * burn: duty-cycle CPU load for the sched_shadow VM tests and demo.
 *
 * Each thread runs (spins) for RUN_MS of wall-clock time, then sleeps for
 * SLEEP_MS, until DURATION_S has passed or SIGINT/SIGTERM arrives.
 * SLEEP_MS = 0 makes a hog that never sleeps.  The process can join (and
 * create) a cgroup v2 directory first, set its cpu.weight, start pinned on
 * one CPU and optionally widen its affinity to every CPU shortly after, so
 * that the threads start stacked and the load balancer has to spread them.
 * --cpus/--widen-to do the same with CPU lists; --trace-marker writes each
 * thread's affinity to the tracefs trace_marker whenever it is set, so a
 * trace of the run knows when it changed (tests/vm/host/wasted_oracle.py).
 * On exit it prints one line per thread with the CPU time it got.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"
#include "cpulist.h"

#define CG_ROOT "/sys/fs/cgroup"

static volatile sig_atomic_t stop;
static long run_ms = 100, sleep_ms, nice_val;
static int have_nice;
static int marker_fd = -1;

struct worker {
	pthread_t th;
	pid_t tid;
	int idx;
	double cpu_s;
	long periods;
	int last_cpu;
};

/* Sleep until CLOCK_MONOTONIC reaches t, or a signal sets stop. */
static void sleep_until(double t)
{
	while (!stop) {
		double left = t - now_s(CLOCK_MONOTONIC);
		struct timespec ts;

		if (left <= 0)
			return;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* "burn: affinity tid=T cpus=LIST" on the trace marker (--trace-marker) */
static void mark_affinity(pid_t tid)
{
	char buf[512];
	cpu_set_t set;
	int n, i, first = -1;

	if (marker_fd < 0 || sched_getaffinity(tid, sizeof(set), &set))
		return;
	n = snprintf(buf, sizeof(buf), "burn: affinity tid=%d cpus=", (int)tid);
	for (i = 0; i <= CPU_SETSIZE && n < (int)sizeof(buf) - 16; i++) {
		int in = i < CPU_SETSIZE && CPU_ISSET(i, &set);

		if (in && first < 0)
			first = i;
		if (!in && first >= 0) {
			n += snprintf(buf + n, sizeof(buf) - n, "%s%d", buf[n - 1] == '=' ? "" : ",", first);
			if (i - 1 > first)
				n += snprintf(buf + n, sizeof(buf) - n, "-%d", i - 1);
			first = -1;
		}
	}
	n += snprintf(buf + n, sizeof(buf) - n, "\n");
	if (write(marker_fd, buf, n) < 0)
		fprintf(stderr, "burn: trace marker: %s\n", strerror(errno));
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (have_nice && setpriority(PRIO_PROCESS, (id_t)w->tid, (int)nice_val))
		fprintf(stderr, "burn: nice %ld: %s\n", nice_val, strerror(errno));
	mark_affinity(w->tid);
	while (!stop) {
		double end = now_s(CLOCK_MONOTONIC) + run_ms / 1e3;

		while (!stop && (sleep_ms == 0 || now_s(CLOCK_MONOTONIC) < end))
			;	/* spin: a hog (sleep_ms 0) only leaves on stop */
		w->periods++;
		if (!stop && sleep_ms > 0) {
			struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	w->cpu_s = now_s(CLOCK_THREAD_CPUTIME_ID);
	w->last_cpu = sched_getcpu();
	return NULL;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

/*
 * Create PATH (relative to the cgroup2 mount or absolute below it) and
 * every missing parent, enabling the cpu controller in each ancestor's
 * subtree_control on the way so that cpu.weight exists in the leaf.
 */
static int cgroup_prepare(const char *arg, char *out, size_t outlen)
{
	char path[4096], *p;
	int err;

	if (strncmp(arg, CG_ROOT, strlen(CG_ROOT)) == 0)
		arg += strlen(CG_ROOT);
	while (*arg == '/')
		arg++;
	if (snprintf(path, sizeof(path), "%s/%s", CG_ROOT, arg) >= (int)sizeof(path)) {
		fprintf(stderr, "burn: cgroup path too long\n");
		return -1;
	}
	/* walk every '/' after the mount point: enable cpu, create child */
	for (p = path + strlen(CG_ROOT); p; p = strchr(p + 1, '/')) {
		char ctl[4200];

		*p = '\0';
		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", path);
		err = write_file(ctl, "+cpu");
		if (err)
			fprintf(stderr, "burn: warning: enabling +cpu in %s: %s\n", ctl, strerror(-err));
		*p = '/';
		{
			char *next = strchr(p + 1, '/');

			if (next)
				*next = '\0';
			if (mkdir(path, 0755) && errno != EEXIST) {
				fprintf(stderr, "burn: mkdir %s: %s\n", path, strerror(errno));
				return -1;
			}
			if (next)
				*next = '/';
		}
	}
	snprintf(out, outlen, "%s", path);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: burn [options]\n"
"  -t, --threads N     worker threads (default 1)\n"
"  -r, --run MS        run (spin) time per period in ms (default 100)\n"
"  -s, --sleep MS      sleep time per period in ms; 0 = hog, never sleeps (default 0)\n"
"  -d, --duration S    stop after S seconds; 0 = until SIGINT/SIGTERM (default 5)\n"
"  -c, --cgroup PATH   join this cgroup v2 directory (relative to " CG_ROOT "),\n"
"                      creating it and enabling +cpu in its ancestors if needed\n"
"  -w, --weight N      write N to the cgroup's cpu.weight (needs --cgroup)\n"
"  -p, --cpu N         start with every thread pinned to CPU N\n"
"  -W, --widen         widen affinity to all CPUs after --widen-ms (default 300);\n"
"                      without --cpu the start is pinned to CPU 0\n"
"      --widen-ms MS   delay before widening\n"
"      --cpus LIST     start with every thread allowed on LIST (e.g. 0-1)\n"
"      --widen-to LIST widen to LIST instead of all CPUs (implies --widen)\n"
"      --trace-marker  write each thread's affinity to tracefs trace_marker when\n"
"                      it is set (\"burn: affinity tid=T cpus=LIST\")\n"
"  -n, --nice N        nice value of the worker threads (-20..19)\n"
"  -q, --quiet         no per-thread report on exit\n"
"  -h, --help          this text\n"
"Prints 'burn: thread I cpu_ms=.. periods=.. last_cpu=..' per thread on exit.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "run", required_argument, NULL, 'r' },
		{ "sleep", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "weight", required_argument, NULL, 'w' },
		{ "cpu", required_argument, NULL, 'p' },
		{ "widen", no_argument, NULL, 'W' },
		{ "widen-ms", required_argument, NULL, 1 },
		{ "cpus", required_argument, NULL, 2 },
		{ "widen-to", required_argument, NULL, 3 },
		{ "trace-marker", no_argument, NULL, 4 },
		{ "nice", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long threads = 1, duration = 5, weight = -1, cpu = -1, widen_ms = 300;
	int widen = 0, quiet = 0, c, i, ncpus, have_cpus = 0, have_widen_to = 0;
	cpu_set_t start_set, widen_set;
	const char *cgroup = NULL;
	struct worker *ws;
	struct sigaction sa;
	double t0;

	while ((c = getopt_long(argc, argv, "t:r:s:d:c:w:p:Wn:qh", opts, NULL)) != -1) {
		switch (c) {
		case 't': threads = parse_num("--threads", optarg, 1, 1024); break;
		case 'r': run_ms = parse_num("--run", optarg, 1, 3600000); break;
		case 's': sleep_ms = parse_num("--sleep", optarg, 0, 3600000); break;
		case 'd': duration = parse_num("--duration", optarg, 0, 86400); break;
		case 'c': cgroup = optarg; break;
		case 'w': weight = parse_num("--weight", optarg, 1, 10000); break;
		case 'p': cpu = parse_num("--cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 'W': widen = 1; break;
		case 'n': nice_val = parse_num("--nice", optarg, -20, 19); have_nice = 1; break;
		case 1: widen_ms = parse_num("--widen-ms", optarg, 0, 600000); break;
		case 2:
			if (parse_cpus(optarg, &start_set)) {
				fprintf(stderr, "burn: invalid CPU list '%s' for --cpus\n", optarg);
				return 2;
			}
			have_cpus = 1;
			break;
		case 3:
			if (parse_cpus(optarg, &widen_set)) {
				fprintf(stderr, "burn: invalid CPU list '%s' for --widen-to\n", optarg);
				return 2;
			}
			have_widen_to = widen = 1;
			break;
		case 4:
			marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
			if (marker_fd < 0)
				marker_fd = open("/sys/kernel/debug/tracing/trace_marker", O_WRONLY);
			if (marker_fd < 0) {
				fprintf(stderr, "burn: --trace-marker: cannot open trace_marker: %s\n",
					strerror(errno));
				return 1;
			}
			break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "burn: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (weight >= 0 && !cgroup) {
		fprintf(stderr, "burn: --weight needs --cgroup\n");
		return 2;
	}
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (have_cpus && cpu >= 0) {
		fprintf(stderr, "burn: --cpus and --cpu exclude each other\n");
		return 2;
	}
	if (widen && cpu < 0 && !have_cpus)
		cpu = 0;

	if (cgroup) {
		char dir[4096], f[4200], pid[32];
		int err;

		if (cgroup_prepare(cgroup, dir, sizeof(dir)))
			return 1;
		if (weight >= 0) {
			snprintf(f, sizeof(f), "%s/cpu.weight", dir);
			snprintf(pid, sizeof(pid), "%ld", weight);
			err = write_file(f, pid);
			if (err) {
				fprintf(stderr, "burn: writing %s to %s: %s\n", pid, f, strerror(-err));
				return 1;
			}
		}
		snprintf(f, sizeof(f), "%s/cgroup.procs", dir);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		err = write_file(f, pid);
		if (err) {
			fprintf(stderr, "burn: joining %s: %s\n", dir, strerror(-err));
			return 1;
		}
	}
	if (cpu >= 0) {
		CPU_ZERO(&start_set);
		CPU_SET(cpu, &start_set);
		have_cpus = 1;
	}
	if (have_cpus && sched_setaffinity(0, sizeof(start_set), &start_set)) {
		fprintf(stderr, "burn: setting the start affinity: %s\n", strerror(errno));
		return 1;
	}

	mark_affinity(getpid());	/* the main thread: after its cgroup and affinity are set */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	ws = calloc(threads, sizeof(*ws));
	if (!ws) {
		fprintf(stderr, "burn: out of memory\n");
		return 1;
	}
	t0 = now_s(CLOCK_MONOTONIC);
	for (i = 0; i < threads; i++) {
		ws[i].idx = i;
		if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i])) {
			fprintf(stderr, "burn: cannot create thread %d\n", i);
			stop = 1;
			threads = i;
			break;
		}
	}

	/*
	 * Main thread: widen once, then sleep until the deadline or a signal.
	 * It must not wake up periodically: on a CPU it shares with a hog,
	 * its blocked load would show up in the load signals under test.
	 */
	if (widen) {
		sleep_until(t0 + widen_ms / 1e3);
		/*
		 * every thread must have its tid first, or it would keep the
		 * start affinity (16 threads on a slow guest: two were not
		 * running 0.3 s after their creation); at most 10 s more
		 */
		for (i = 0; i < threads && !stop; i++)
			for (int n = 0; !__atomic_load_n(&ws[i].tid, __ATOMIC_ACQUIRE) && n < 10000 && !stop; n++)
				usleep(1000);
		if (!stop) {
			cpu_set_t set;

			CPU_ZERO(&set);
			for (i = 0; i < ncpus && i < CPU_SETSIZE; i++)
				CPU_SET(i, &set);
			if (have_widen_to)
				set = widen_set;
			for (i = 0; i < threads; i++) {
				if (ws[i].tid && sched_setaffinity(ws[i].tid, sizeof(set), &set))
					fprintf(stderr, "burn: widening thread %d: %s\n", i, strerror(errno));
				else if (ws[i].tid)
					mark_affinity(ws[i].tid);
			}
		}
	}
	if (duration)
		sleep_until(t0 + duration);
	else
		while (!stop)
			pause();
	stop = 1;
	for (i = 0; i < threads; i++)
		pthread_join(ws[i].th, NULL);
	if (!quiet) {
		double wall = now_s(CLOCK_MONOTONIC) - t0;

		for (i = 0; i < threads; i++)
			printf("burn: thread %d cpu_ms=%.0f wall_ms=%.0f periods=%ld last_cpu=%d\n",
			       i, ws[i].cpu_s * 1e3, wall * 1e3, ws[i].periods, ws[i].last_cpu);
	}
	free(ws);
	return 0;
}
