// SPDX-License-Identifier: GPL-2.0
/*
 * forker: a parent that keeps its CPU busy and forks a short-lived child
 * every PERIOD ms (the bug corpus, tests/vm/bugs/: where fork balancing
 * puts new tasks).  Each child spins RUN ms from its first instruction (wall
 * clock: a thread's CPU-time clock moves in jiffies on some guests) and
 * exits; it inherits the parent's affinity (--cpus).  At the end the parent
 * prints, from what the children recorded themselves (not from the
 * scheduler's statistics):
 *   forker: forks=N children=N delay_ms_mean=X delay_ms_max=X first_cpu=CPU:n,CPU:n...
 * delay: from the fork() call to the child's first instruction; first_cpu:
 * sched_getcpu() there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"
#include "cpulist.h"

#define MAX_CPUS 1024

struct shared {
	long children;
	long first_cpu[MAX_CPUS];
	double delay_sum, delay_max;	/* seconds; under the lock below */
	int lock;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void child(struct shared *sh, double forked_at, long run_ms)
{
	double delay = now_s(CLOCK_MONOTONIC) - forked_at;
	int cpu = sched_getcpu();
	double end = now_s(CLOCK_MONOTONIC) + run_ms / 1e3;

	if (cpu >= 0 && cpu < MAX_CPUS)
		__atomic_fetch_add(&sh->first_cpu[cpu], 1, __ATOMIC_RELAXED);
	while (__atomic_exchange_n(&sh->lock, 1, __ATOMIC_ACQUIRE))
		;
	sh->children++;
	sh->delay_sum += delay;
	if (delay > sh->delay_max)
		sh->delay_max = delay;
	__atomic_store_n(&sh->lock, 0, __ATOMIC_RELEASE);
	while (now_s(CLOCK_MONOTONIC) < end)
		;
	_exit(0);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: forker [options]\n"
"  -p, --period MS     fork a child every MS ms (default 20)\n"
"  -r, --run MS        each child spins MS ms from its start, then exits (default 5)\n"
"  -d, --duration S    stop after S seconds; 0 = until SIGINT/SIGTERM (default 5)\n"
"  -c, --cpus LIST     affinity of the parent, inherited by the children\n"
"  -h, --help          this text\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "period", required_argument, NULL, 'p' },
		{ "run", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long period = 20, run = 5, duration = 5, forks = 0, i;
	struct shared *sh;
	struct sigaction sa;
	double t0, next;
	cpu_set_t set;
	int c, have_cpus = 0;

	while ((c = getopt_long(argc, argv, "p:r:d:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': period = parse_num("--period", optarg, 1, 600000); break;
		case 'r': run = parse_num("--run", optarg, 0, 600000); break;
		case 'd': duration = parse_num("--duration", optarg, 0, 86400); break;
		case 'c':
			if (parse_cpus(optarg, &set)) {
				fprintf(stderr, "forker: invalid CPU list '%s'\n", optarg);
				return 2;
			}
			have_cpus = 1;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "forker: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (have_cpus && sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "forker: setting the affinity: %s\n", strerror(errno));
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		fprintf(stderr, "forker: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t0 = now_s(CLOCK_MONOTONIC);
	next = t0;
	while (!stop && (!duration || now_s(CLOCK_MONOTONIC) < t0 + duration)) {
		double now = now_s(CLOCK_MONOTONIC);

		if (now >= next) {
			pid_t pid = fork();

			if (pid == 0)
				child(sh, now, run);
			if (pid > 0)
				forks++;
			next += period / 1e3;
			if (next < now)
				next = now + period / 1e3;
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	printf("forker: forks=%ld children=%ld delay_ms_mean=%.3f delay_ms_max=%.3f first_cpu=",
	       forks, sh->children, sh->children ? sh->delay_sum * 1e3 / sh->children : 0.0,
	       sh->delay_max * 1e3);
	for (i = 0, c = 0; i < MAX_CPUS; i++)
		if (sh->first_cpu[i])
			printf("%s%ld:%ld", c++ ? "," : "", i, sh->first_cpu[i]);
	printf("%s\n", c ? "" : "-");
	return 0;
}
