// SPDX-License-Identifier: GPL-2.0
/*
 * wr: write a string to a file with exactly one write(2) and report the
 * result, so tests can tell EINVAL from other failures (a shell's echo
 * only says that something failed).
 *
 *   wr [-e] FILE STRING     -e: interpret \n \t \\ \0NNN escapes
 * Prints "ok N" (bytes written) or "error ENAME" on stdout.
 * Exit: 0 written, 1 write failed, 2 usage or open error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	int esc = 0, fd, e;
	size_t len;
	ssize_t n;
	char *s;

	if (argc > 1 && !strcmp(argv[1], "-e")) {
		esc = 1;
		argv++;
		argc--;
	}
	if (argc != 3 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 3 ? stdout : stderr,
			"usage: wr [-e] FILE STRING\n"
			"  one write(2) of STRING to FILE; prints 'ok N' or 'error ENAME'\n"
			"  -e  interpret \\n \\t \\\\ \\0NNN escapes in STRING\n");
		return argc == 3 ? 0 : 2;
	}
	s = argv[2];
	len = esc ? unescape(s) : strlen(s);
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "wr: open %s: %s\n", argv[1], strerror(errno));
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
