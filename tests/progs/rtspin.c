// SPDX-License-Identifier: GPL-2.0
/*
 * rtspin: a SCHED_FIFO thread that spins on one CPU, to preempt the CFS
 * tasks queued there (the "RT preempts CFS" case of work to give).
 * Spins SPIN_MS, sleeps SLEEP_MS, COUNT times, then exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "progs.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: rtspin -c CPU [options]\n"
"  -c, --cpu N        CPU to spin on (required)\n"
"  -t, --spin MS      spin time in ms per round (default 100)\n"
"  -s, --sleep MS     sleep between rounds in ms (default 100)\n"
"  -n, --count N      rounds (default 1)\n"
"  -p, --prio P       SCHED_FIFO priority 1..99 (default 50)\n"
"  -h, --help         this text\n"
"Note: RT throttling (sched_rt_runtime_us) limits RT to 95%% of each second.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "spin", required_argument, NULL, 't' },
		{ "sleep", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "prio", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long cpu = -1, spin = 100, slp = 100, count = 1, prio = 50, i;
	struct sched_param sp;
	cpu_set_t set;
	int c;

	while ((c = getopt_long(argc, argv, "c:t:s:n:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu = parse_num("--cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 't': spin = parse_num("--spin", optarg, 1, 600000); break;
		case 's': slp = parse_num("--sleep", optarg, 0, 600000); break;
		case 'n': count = parse_num("--count", optarg, 1, 1000000); break;
		case 'p': prio = parse_num("--prio", optarg, 1, 99); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (cpu < 0 || optind < argc) {
		fprintf(stderr, "rtspin: %s\n", cpu < 0 ? "--cpu is required" : "unexpected argument");
		usage(stderr);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "rtspin: pinning to CPU %ld: %s\n", cpu, strerror(errno));
		return 1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = (int)prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "rtspin: SCHED_FIFO prio %ld: %s\n", prio, strerror(errno));
		return 1;
	}
	for (i = 0; i < count; i++) {
		double end = now_s() + spin / 1e3;

		while (now_s() < end)
			;
		if (slp && i + 1 < count) {
			struct timespec ts = { slp / 1000, (slp % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	return 0;
}
