// SPDX-License-Identifier: GPL-2.0
/*
 * wr: write a string to a file with exactly one write(2) and report the
 * result, so tests can tell EINVAL from other failures (a shell's echo
 * only says that something failed).
 *
 *   wr [-e] [-f PRIO] FILE STRING [FILE STRING]...
 *     -e: interpret \n \t \\ \0NNN escapes
 *     -f: run as SCHED_FIFO PRIO, so the writes follow each other with no
 *         CFS task in between (a trace marker, a write, a marker)
 * Each pair is one write(2), in order.  Prints "ok N" (bytes written) or
 * "error ENAME" on stdout per pair, and stops at the first error.
 * Exit: 0 written, 1 write failed, 2 usage or open error.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progs.h"

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case ERANGE: return "ERANGE";
	case ENOMEM: return "ENOMEM";
	case EIO: return "EIO";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return NULL;
	}
}

static size_t unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (*r != '\\' || !r[1]) {
			*w++ = *r++;
			continue;
		}
		r++;
		switch (*r) {
		case 'n': *w++ = '\n'; r++; break;
		case 't': *w++ = '\t'; r++; break;
		case '\\': *w++ = '\\'; r++; break;
		case '0': {
			int v = 0, k;

			r++;
			for (k = 0; k < 3 && *r >= '0' && *r <= '7'; k++)
				v = v * 8 + (*r++ - '0');
			*w++ = (char)v;
			break;
		}
		default: *w++ = '\\'; *w++ = *r++; break;
		}
	}
	return (size_t)(w - s);
}

static int write_one(const char *path, char *s, int esc)
{
	size_t len = esc ? unescape(s) : strlen(s);
	int fd = open(path, O_WRONLY), e;
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "wr: open %s: %s\n", path, strerror(errno));
		return 2;
	}
	n = write(fd, s, len);
	e = errno;
	close(fd);
	if (n < 0) {
		const char *name = errname(e);

		if (name)
			printf("error %s\n", name);
		else
			printf("error %d\n", e);
		return 1;
	}
	printf("ok %zd\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	int esc = 0, i, rc;
	long fifo = 0;

	for (;;) {
		if (argc > 1 && !strcmp(argv[1], "-e")) {
			esc = 1;
			argv++;
			argc--;
		} else if (argc > 2 && !strcmp(argv[1], "-f")) {
			fifo = parse_num("-f", argv[2], 1, 99);
			argv += 2;
			argc -= 2;
		} else {
			break;
		}
	}
	if (argc < 3 || argc % 2 == 0 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 3 ? stdout : stderr,
			"usage: wr [-e] [-f PRIO] FILE STRING [FILE STRING]...\n"
			"  one write(2) of each STRING to its FILE, in order; prints 'ok N' or 'error ENAME'\n"
			"  -e  interpret \\n \\t \\\\ \\0NNN escapes in STRING\n"
			"  -f  write as SCHED_FIFO PRIO (no CFS task runs between the writes)\n");
		return argc == 3 ? 0 : 2;
	}
	if (fifo) {
		struct sched_param sp = { .sched_priority = (int)fifo };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			fprintf(stderr, "wr: SCHED_FIFO %ld: %s\n", fifo, strerror(errno));
			return 2;
		}
	}
	for (i = 1; i + 1 < argc; i += 2) {
		fflush(stdout);
		rc = write_one(argv[i], argv[i + 1], esc);
		if (rc)
			return rc;
	}
	return 0;
}
