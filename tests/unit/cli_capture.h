/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's unit tests run cli_main() in their own process, its stdout and
 * stderr redirected to files in the test's temporary directory and read
 * back.  One copy of that, and of the small file helpers the tests share.
 */
#ifndef SHADOW_CLI_CAPTURE_H
#define SHADOW_CLI_CAPTURE_H
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"

/* What fd holds, from its start, into buf (at most len - 1 bytes, then NUL). */
static inline void cap_slurp(int fd, char *buf, size_t len)
{
	ssize_t n;
	size_t o = 0;

	lseek(fd, 0, SEEK_SET);
	while (o + 1 < len && (n = read(fd, buf + o, len - 1 - o)) > 0)
		o += (size_t)n;
	buf[o] = '\0';
}

/*
 * cli_main(argc, argv) with stdout to DIR/out and stderr to DIR/err; each is
 * also read into out/err when given (NULL: the file alone keeps it).
 */
static inline int cap_run_argv(const char *dir, char *out, size_t outlen, char *err, size_t errlen,
			       int argc, char **argv)
{
	char path[160];
	int rc, fo, fe, so, se;

	snprintf(path, sizeof(path), "%s/out", dir);
	fo = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	snprintf(path, sizeof(path), "%s/err", dir);
	fe = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = cli_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	if (out)
		cap_slurp(fo, out, outlen);
	if (err)
		cap_slurp(fe, err, errlen);
	close(fo);
	close(fe);
	return rc;
}

/* The same for "sched-shadow" and the arguments of ap, up to a NULL (at most 38). */
static inline int cap_run_va(const char *dir, char *out, size_t outlen, char *err, size_t errlen,
			     const char *first, va_list ap)
{
	char *argv[40];
	int argc = 0;

	argv[argc++] = (char *)"sched-shadow";
	for (const char *a = first; a && argc < 39; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	return cap_run_argv(dir, out, outlen, err, errlen, argc, argv);
}

/*
 * Defines the test's `static int run(const char *first, ...)`: cli_main()
 * on "sched-shadow" first ... NULL, its output into the test's own arrays
 * OUT and ERR (or NULL), the files in DIR.
 */
#define CAP_DEFINE_RUN(dir, out, outlen, err, errlen)				\
	static int run(const char *first, ...)					\
	{									\
		va_list ap;							\
		int rc;								\
		va_start(ap, first);						\
		rc = cap_run_va(dir, out, outlen, err, errlen, first, ap);	\
		va_end(ap);							\
		return rc;							\
	}

/* The whole file at path (empty when it cannot be read), in a buffer of its own. */
static inline char *cap_read_file(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);

	buf[0] = 0;
	if (fd >= 0) {
		cap_slurp(fd, buf, sizeof(buf));
		close(fd);
	}
	return buf;
}

static inline void cap_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Newlines in s. */
static inline int cap_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#endif
