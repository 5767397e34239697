// SPDX-License-Identifier: GPL-2.0
/*
 * msgbench: hackbench-style messaging workload for `make bench`.
 *
 * G groups; in each, F receivers own one pipe (or socketpair) each and F
 * senders write L messages of 100 bytes to every receiver of their group,
 * so each group moves F*F*L messages and every message is a potential
 * wakeup.  All tasks are processes (fork), start together behind a pipe
 * barrier; the time is from the release to the last child's exit.
 *
 * usage: msgbench [-g GROUPS] [-f FDS] [-l LOOPS] [-s] [-q]
 *   -s   socketpair(AF_UNIX, SOCK_STREAM) instead of pipes
 *   -q   print only "<seconds> <messages/s>"
 * Output: msgbench groups=G fds=F loops=L messages=N time_s=T msgs_per_s=R
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG 100

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
		fprintf(stderr, "msgbench: %s wants %ld..%ld\n", opt, min, max);
		exit(64);
	}
	return v;
}

static void wait_start(int fd)
{
	char c;

	if (read(fd, &c, 1) != 0)	/* EOF when the parent closes the write end */
		die("barrier");
}

static void full_write(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("write");
		}
		buf += w;
		n -= w;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long groups = 4, fds = 4, loops = 200;
	int sock = 0, quiet = 0, opt, barrier[2];
	long g, i, j, nchild = 0;
	double t0, t;

	while ((opt = getopt(argc, argv, "g:f:l:sqh")) != -1) {
		switch (opt) {
		case 'g': groups = num("-g", optarg, 1, 256); break;
		case 'f': fds = num("-f", optarg, 1, 64); break;
		case 'l': loops = num("-l", optarg, 1, 10000000); break;
		case 's': sock = 1; break;
		case 'q': quiet = 1; break;
		default:
			fprintf(stderr, "usage: msgbench [-g GROUPS] [-f FDS] [-l LOOPS] [-s] [-q]\n");
			return opt == 'h' ? 0 : 64;
		}
	}
	if (pipe(barrier))
		die("pipe");
	for (g = 0; g < groups; g++) {
		int rd[64], wr[64];

		for (i = 0; i < fds; i++) {
			int p[2];

			if (sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, p) : pipe(p))
				die("pipe/socketpair");
			rd[i] = p[0];
			wr[i] = p[1];
		}
		/* receivers */
		for (i = 0; i < fds; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (!pid) {
				char buf[MSG];	/* one message per read, as hackbench */
				long want = (long)fds * loops * MSG, got = 0;

				close(barrier[1]);
				for (j = 0; j < fds; j++)
					if (j != i)
						close(rd[j]);
				for (j = 0; j < fds; j++)
					close(wr[j]);
				wait_start(barrier[0]);
				while (got < want) {
					ssize_t r = read(rd[i], buf, sizeof(buf) < (size_t)(want - got) ?
							 sizeof(buf) : (size_t)(want - got));
					if (r < 0 && errno == EINTR)
						continue;
					if (r <= 0)
						die("read");
					got += r;
				}
				_exit(0);
			}
			nchild++;
		}
		/* senders */
		for (i = 0; i < fds; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (!pid) {
				char msg[MSG];
				long l;

				memset(msg, 'm', sizeof(msg));
				close(barrier[1]);
				for (j = 0; j < fds; j++)
					close(rd[j]);
				wait_start(barrier[0]);
				for (l = 0; l < loops; l++)
					for (j = 0; j < fds; j++)
						full_write(wr[j], msg, MSG);
				_exit(0);
			}
			nchild++;
		}
		for (i = 0; i < fds; i++) {
			close(rd[i]);
			close(wr[i]);
		}
	}
	close(barrier[0]);
	usleep(100000);		/* let every child reach the barrier */
	t0 = now();
	close(barrier[1]);
	for (i = 0; i < nchild; i++) {
		int st;

		if (wait(&st) < 0)
			die("wait");
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "msgbench: a child failed\n");
			return 1;
		}
	}
	t = now() - t0;
	{
		double msgs = (double)groups * fds * fds * loops;

		if (quiet)
			printf("%.4f %.0f\n", t, msgs / t);
		else
			printf("msgbench groups=%ld fds=%ld loops=%ld messages=%.0f time_s=%.4f msgs_per_s=%.0f\n",
			       groups, fds, loops, msgs, t, msgs / t);
	}
	return 0;
}
