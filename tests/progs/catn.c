// SPDX-License-Identifier: GPL-2.0
/*
 * catn: read files several times at a fixed interval from one process.
 * A shell loop of `cat; sleep` forks a new task per read, and every new
 * task starts with a full load_avg that shows up in the very load signals
 * the VM tests compare; one long-lived, mostly sleeping reader does not.
 *
 *   catn [-n COUNT] [-i INTERVAL_MS] [-v] [-f PRIO] [-m MARKFILE] FILE...
 * Each round prints "=== ROUND k FILE" before each file's contents; -m
 * writes "catn round k" to MARKFILE (the tracing trace_marker) before each
 * round, so a trace shows when each round was read; -v
 * says on stderr how long each read took (CLOCK_MONOTONIC); -f PRIO reads
 * as SCHED_FIFO PRIO: no CFS load of its own, and a CPU shared with a hog
 * of a heavier cgroup does not stretch one read to seconds (seen under
 * single-threaded TCG).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"

static int dump(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "catn: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			break;
	if (n < 0)
		fprintf(stderr, "catn: reading %s: %s\n", path, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	long count = 1, interval = 500, k;
	int c, i, rc = 0, verbose = 0, fifo = 0, mfd = -1;
	const char *mark = NULL;

	while ((c = getopt(argc, argv, "n:i:vf:m:h")) != -1) {
		switch (c) {
		case 'n': count = parse_num("-n", optarg, 1, 100000); break;
		case 'i': interval = parse_num("-i", optarg, 0, 3600000); break;
		case 'v': verbose = 1; break;
		case 'f': fifo = (int)parse_num("-f", optarg, 1, 99); break;
		case 'm': mark = optarg; break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: catn [-n COUNT] [-i INTERVAL_MS] [-v] [-f PRIO] [-m MARKFILE] FILE...\n"
				"  read every FILE COUNT times (default 1), INTERVAL_MS apart (default 500);\n"
				"  each file is preceded by a line '=== ROUND k FILE';\n"
				"  -v: each read's duration on stderr; -f PRIO: read as SCHED_FIFO PRIO;\n"
				"  -m MARKFILE: write 'catn round k' to MARKFILE before each round\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "catn: no file given (see -h)\n");
		return 2;
	}
	if (fifo) {
		struct sched_param sp = { .sched_priority = fifo };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			fprintf(stderr, "catn: SCHED_FIFO %d: %s\n", fifo, strerror(errno));
			return 1;
		}
	}
	if (mark) {
		mfd = open(mark, O_WRONLY);
		if (mfd < 0) {
			fprintf(stderr, "catn: %s: %s\n", mark, strerror(errno));
			return 1;
		}
	}
	for (k = 1; k <= count; k++) {
		if (mfd >= 0) {
			char line[40];
			int len = snprintf(line, sizeof(line), "catn round %ld\n", k);

			if (write(mfd, line, (size_t)len) != len) {
				fprintf(stderr, "catn: writing %s: %s\n", mark, strerror(errno));
				rc = 1;
			}
		}
		for (i = optind; i < argc; i++) {
			struct timespec a, b;

			printf("=== ROUND %ld %s\n", k, argv[i]);
			clock_gettime(CLOCK_MONOTONIC, &a);
			if (dump(argv[i]))
				rc = 1;
			clock_gettime(CLOCK_MONOTONIC, &b);
			if (verbose)
				fprintf(stderr, "catn: round %ld %s: %.1f ms\n", k, argv[i],
					(b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
		}
		fflush(stdout);
		if (k < count && interval) {
			struct timespec ts = { interval / 1000, (interval % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	return rc;
}
