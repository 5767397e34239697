// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two processes pinned to one CPU pass a byte back and forth
 * over two pipes, for `make bench`'s cost of the sched_switch probe: every
 * round trip is two switches between the two (each sleeps in read() while
 * the other runs), and nothing else is queued on the CPU.
 *
 * usage: pingpong [-n ROUNDS] [-c CPU]
 * Output: pingpong rounds=N cpu=C time_ns=T
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long num(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "pingpong: %s wants %ld..%ld\n", opt, min, max);
		exit(64);
	}
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* read one byte from @in, write it to @out, @n times (the first write first if @lead) */
static void play(int in, int out, long n, int lead)
{
	char c = 'x';

	if (lead && write(out, &c, 1) != 1)
		die("write");
	while (n--) {
		if (read(in, &c, 1) != 1)
			die("read");
		if ((n || !lead) && write(out, &c, 1) != 1)
			die("write");
	}
}

int main(int argc, char **argv)
{
	long rounds = 100000, cpu = 0;
	int ab[2], ba[2], opt, st;
	struct timespec t0, t1;
	pid_t pid;

	while ((opt = getopt(argc, argv, "n:c:h")) != -1) {
		switch (opt) {
		case 'n':
			rounds = num("-n", optarg, 1, 100000000);
			break;
		case 'c':
			cpu = num("-c", optarg, 0, CPU_SETSIZE - 1);
			break;
		default:
			fprintf(stderr, "usage: pingpong [-n ROUNDS] [-c CPU]\n");
			return opt == 'h' ? 0 : 64;
		}
	}
	if (pipe(ab) || pipe(ba))
		die("pipe");
	pin(cpu);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		play(ab[0], ba[1], rounds, 0);
		_exit(0);
	}
	play(ba[0], ab[1], rounds, 1);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("child");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("pingpong rounds=%ld cpu=%ld time_ns=%lld\n", rounds, cpu,
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
	return 0;
}
