// SPDX-License-Identifier: GPL-2.0
/*
 * wakepair: a waker that never sleeps and a wakee it wakes through a pipe
 * (the bug corpus, tests/vm/bugs/: where the wakeup path puts a woken
 * task).  The waker spins and, every PERIOD ms, writes the time to the
 * pipe: a synchronous wakeup (pipe writes pass WF_SYNC, "the waker is
 * about to sleep"), which this waker does not honour.  The wakee blocks
 * in read(), spins RUN ms (wall clock, from its return from read(): a
 * thread's CPU-time clock moves in jiffies on some guests) and reads again.  At the
 * end it prints what the wakee measured itself (not the scheduler's
 * statistics):
 *   wakepair: wakeups=N delay_ms_mean=X delay_ms_max=X woke_on=CPU:n,CPU:n...
 * delay: from the write to the wakee's return from read(); woke_on:
 * sched_getcpu() there (where it first ran after the wakeup, which may not
 * be where the wakeup placed it: a balancer may have pulled it in between).
 * Then the kernel's own counts of the wakee, read by the wakee as it ends
 * from /proc/thread-self/sched (they are there only while schedstats are
 * on): " kernel: wakeups=N sync=N affine=N/N migrate=N" (affine:
 * wake_affine() chose the waker's CPU, of its calls; migrate: woken on
 * another CPU than its last), or " kernel: -".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"
#include "cpulist.h"

#define MAX_CPUS 1024

static volatile sig_atomic_t stop;
static int pfd[2];
static long run_ms = 1, wakee_nice;
static cpu_set_t wakee_set;
static int have_wakee_set;
static long wakeups, woke_on[MAX_CPUS];
static double delay_sum, delay_max;
static char kernel_counts[128] = "-";

/* The wakee's schedstat wakeup counts, from its own /proc entry. */
static void read_kernel_counts(void)
{
	static const char *const keys[] = {
		"nr_wakeups", "nr_wakeups_sync", "nr_wakeups_affine",
		"nr_wakeups_affine_attempts", "nr_wakeups_migrate",
	};
	long long v[5] = { -1, -1, -1, -1, -1 };
	char line[256], name[128];
	long long x;
	FILE *f = fopen("/proc/thread-self/sched", "r");
	size_t k;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s : %lld", name, &x) != 2)
			continue;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(name, keys[k]))
				v[k] = x;
	}
	fclose(f);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (v[k] < 0)
			return;
	snprintf(kernel_counts, sizeof(kernel_counts), "wakeups=%lld sync=%lld affine=%lld/%lld migrate=%lld",
		 v[0], v[1], v[2], v[3], v[4]);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void *wakee(void *arg)
{
	(void)arg;
	if (have_wakee_set && sched_setaffinity(0, sizeof(wakee_set), &wakee_set))
		fprintf(stderr, "wakepair: wakee affinity: %s\n", strerror(errno));
	if (wakee_nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), (int)wakee_nice))
		fprintf(stderr, "wakepair: wakee nice %ld: %s\n", wakee_nice, strerror(errno));
	for (;;) {
		double sent, d, end;
		int cpu;

		if (read(pfd[0], &sent, sizeof(sent)) != sizeof(sent) || stop)
			break;
		d = now_s(CLOCK_MONOTONIC) - sent;
		cpu = sched_getcpu();
		wakeups++;
		delay_sum += d;
		if (d > delay_max)
			delay_max = d;
		if (cpu >= 0 && cpu < MAX_CPUS)
			woke_on[cpu]++;
		end = now_s(CLOCK_MONOTONIC) + run_ms / 1e3;
		while (now_s(CLOCK_MONOTONIC) < end)
			;
	}
	read_kernel_counts();
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: wakepair [options]\n"
"  -p, --period MS        the waker writes every MS ms (default 10)\n"
"  -r, --run MS           the wakee spins MS ms per wakeup (default 1)\n"
"  -d, --duration S       stop after S seconds; 0 = until SIGINT/SIGTERM (default 5)\n"
"  -w, --waker-cpus LIST  affinity of the waker\n"
"  -e, --wakee-cpus LIST  affinity of the wakee\n"
"  -n, --wakee-nice N     nice value of the wakee thread (default 0)\n"
"  -h, --help             this text\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "period", required_argument, NULL, 'p' },
		{ "run", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "waker-cpus", required_argument, NULL, 'w' },
		{ "wakee-cpus", required_argument, NULL, 'e' },
		{ "wakee-nice", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long period = 10, duration = 5, i;
	cpu_set_t waker_set;
	int c, n = 0, have_waker_set = 0;
	struct sigaction sa;
	pthread_t th;
	double t0, next;

	while ((c = getopt_long(argc, argv, "p:r:d:w:e:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': period = parse_num("--period", optarg, 1, 600000); break;
		case 'r': run_ms = parse_num("--run", optarg, 0, 600000); break;
		case 'd': duration = parse_num("--duration", optarg, 0, 86400); break;
		case 'w':
			if (parse_cpus(optarg, &waker_set)) {
				fprintf(stderr, "wakepair: invalid CPU list '%s'\n", optarg);
				return 2;
			}
			have_waker_set = 1;
			break;
		case 'e':
			if (parse_cpus(optarg, &wakee_set)) {
				fprintf(stderr, "wakepair: invalid CPU list '%s'\n", optarg);
				return 2;
			}
			have_wakee_set = 1;
			break;
		case 'n': wakee_nice = parse_num("--wakee-nice", optarg, -20, 19); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wakepair: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (pipe(pfd)) {
		fprintf(stderr, "wakepair: pipe: %s\n", strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pthread_create(&th, NULL, wakee, NULL)) {
		fprintf(stderr, "wakepair: cannot create the wakee\n");
		return 1;
	}
	if (have_waker_set && sched_setaffinity(0, sizeof(waker_set), &waker_set)) {
		fprintf(stderr, "wakepair: waker affinity: %s\n", strerror(errno));
		return 1;
	}
	t0 = now_s(CLOCK_MONOTONIC);
	next = t0 + period / 1e3;
	while (!stop && (!duration || now_s(CLOCK_MONOTONIC) < t0 + duration)) {
		double now = now_s(CLOCK_MONOTONIC);

		if (now >= next) {
			if (write(pfd[1], &now, sizeof(now)) != sizeof(now))
				break;
			next += period / 1e3;
			if (next < now)
				next = now + period / 1e3;
		}
	}
	/* the wakee stops at its next message: it need not drain a backlog */
	stop = 1;
	close(pfd[1]);
	pthread_join(th, NULL);
	printf("wakepair: wakeups=%ld delay_ms_mean=%.3f delay_ms_max=%.3f woke_on=",
	       wakeups, wakeups ? delay_sum * 1e3 / wakeups : 0.0, delay_max * 1e3);
	for (i = 0; i < MAX_CPUS; i++)
		if (woke_on[i])
			printf("%s%ld:%ld", n++ ? "," : "", i, woke_on[i]);
	printf("%s kernel: %s\n", n ? "" : "-", kernel_counts);
	return 0;
}
