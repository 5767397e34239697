// SPDX-License-Identifier: GPL-2.0
/*
 * modload: load a kernel module with exactly one finit_module(2) call and
 * report its errno.  busybox insmod retries a failed finit_module() with
 * init_module(), which runs the module's init (and its log line) twice.
 *
 *   modload FILE [PARAMS]
 * Prints "ok" or "error ENAME"; exit 0 loaded, 1 refused, 2 usage/open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ENOEXEC: return "ENOEXEC";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EKEYREJECTED: return "EKEYREJECTED";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return NULL;
	}
}

int main(int argc, char **argv)
{
	const char *params;
	int fd, e;
	long rc;

	if (argc < 2 || argc > 3 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		bool help = argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));

		/* every parameter in the one PARAMS argument: more arguments are an error */
		fprintf(help ? stdout : stderr,
			"usage: modload FILE [PARAMS]\n"
			"  one finit_module(2) of FILE; prints 'ok' or 'error ENAME'\n");
		return help ? 0 : 2;
	}
	params = argc == 3 ? argv[2] : "";
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "modload: open %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	rc = syscall(SYS_finit_module, fd, params, 0);
	e = errno;
	close(fd);
	if (rc) {
		const char *n = errname(e);

		if (n)
			printf("error %s\n", n);
		else
			printf("error %d\n", e);
		fprintf(stderr, "modload: %s: %s\n", argv[1], strerror(e));
		return 1;
	}
	printf("ok\n");
	return 0;
}
