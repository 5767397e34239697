/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `bench` workload (schbench-style, the project's own code).
 *
 * M message threads, each owning W workers.  Every round a message
 * thread takes a CLOCK_MONOTONIC timestamp and wakes each of its workers
 * that is waiting (futex); a worker records now - timestamp as its
 * wakeup latency, burns -c us of its own CPU time, and waits again.  A
 * worker still busy when its message thread comes round is skipped that
 * round (counted).  Message threads sleep S us between rounds.
 */
#ifndef SCHED_SHADOW_CLI_BENCH_WORK_H
#define SCHED_SHADOW_CLI_BENCH_WORK_H

#include <stdint.h>
#include <stddef.h>
#include "cli/sources/latency.h"

#define BENCH_MAX_THREADS	1024	/* message threads * workers */

struct bench_opts {
	long msg_threads;	/* -m */
	long workers;		/* -t, per message thread */
	long burn_us;		/* -c */
	long sleep_us;		/* -s */
	double duration_s;	/* -r */
	const char *cgroup;	/* --cgroup PATH (relative to the cgroup2 mount) */
	long weight;		/* --weight, 0 = leave the default */
	int json, pretty;
	int allow_no_cpu;	/* --allow-no-cpu-controller */
};

struct bench_result {
	struct lat_fine lat;	/* worker wakeup latency, us */
	uint64_t requests;	/* worker rounds completed */
	uint64_t wakeups;	/* workers the futex wake really woke */
	uint64_t skipped;	/* worker still busy when its round came */
	uint64_t rounds;	/* message thread rounds */
	double runtime_s;
};

/* Run the workload in the calling process; 0 or -1 with err. */
int bench_run(const struct bench_opts *o, struct bench_result *r,
	      char *err, size_t errlen);

#endif
