// SPDX-License-Identifier: GPL-2.0
/*
 * catn: read files several times at a fixed interval from one process.
 * A shell loop of `cat; sleep` forks a new task per read, and every new
 * task starts with a full load_avg that shows up in the very load signals
 * the VM tests compare; one long-lived, mostly sleeping reader does not.
 *
 *   catn [-n COUNT] [-i INTERVAL_MS] FILE...
 * Each round prints "=== ROUND k FILE" before each file's contents.
 */
#include <errno.h>
#include <fcntl.h>
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
	int c, i, rc = 0;

	while ((c = getopt(argc, argv, "n:i:h")) != -1) {
		switch (c) {
		case 'n': count = parse_num("-n", optarg, 1, 100000); break;
		case 'i': interval = parse_num("-i", optarg, 0, 3600000); break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: catn [-n COUNT] [-i INTERVAL_MS] FILE...\n"
				"  read every FILE COUNT times (default 1), INTERVAL_MS apart (default 500);\n"
				"  each file is preceded by a line '=== ROUND k FILE'\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "catn: no file given (see -h)\n");
		return 2;
	}
	for (k = 1; k <= count; k++) {
		for (i = optind; i < argc; i++) {
			printf("=== ROUND %ld %s\n", k, argv[i]);
			if (dump(argv[i]))
				rc = 1;
		}
		fflush(stdout);
		if (k < count && interval) {
			struct timespec ts = { interval / 1000, (interval % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	return rc;
}
