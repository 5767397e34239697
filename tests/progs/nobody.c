// SPDX-License-Identifier: GPL-2.0
/*
 * nobody: drop to an unprivileged uid/gid (default 65534, no supplementary
 * groups, no capabilities left) and try to open each FILE for reading, for
 * writing and for both; print one line per file and what an open that
 * succeeded could do.
 *
 *   nobody [-u UID] FILE...
 * Prints "uid=U gid=G capeff=HEX" first, then per file
 *   "FILE rd=<ok|ENAME> wr=<ok|ENAME> rw=<ok|ENAME>"
 * and "FILE LEAK read N bytes" / "FILE LEAK write accepted" when an open
 * succeeded and the read or write worked.  Exit 0 when every open was
 * refused, 1 when any succeeded, 2 on usage errors or if the privileges
 * could not be dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ename(int e)
{
	static char b[16];

	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	default: snprintf(b, sizeof(b), "errno%d", e); return b;
	}
}

static void capeff(char *out, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	snprintf(out, len, "?");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			snprintf(out, len, "%s", line + 7 + strspn(line + 7, " \t"));
			out[strcspn(out, "\n")] = '\0';
		}
	fclose(f);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int flags; } modes[] = {
		{ "rd", O_RDONLY }, { "wr", O_WRONLY }, { "rw", O_RDWR },
	};
	long uid = 65534;
	char caps[64];
	int c, i, m, opened = 0;

	while ((c = getopt(argc, argv, "u:h")) != -1) {
		switch (c) {
		case 'u': uid = atol(optarg); break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: nobody [-u UID] FILE...\n"
				"  as UID (default 65534, gid the same, no groups, no capabilities),\n"
				"  try to open each FILE read-only, write-only and read-write\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc || uid <= 0) {
		fprintf(stderr, "nobody: FILE expected and UID must not be 0 (see -h)\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
		fprintf(stderr, "nobody: dropping to uid %ld: %s\n", uid, strerror(errno));
		return 2;
	}
	if (getuid() == 0 || geteuid() == 0 || setuid(0) == 0) {
		fprintf(stderr, "nobody: still able to be root\n");
		return 2;
	}
	capeff(caps, sizeof(caps));
	printf("uid=%d gid=%d capeff=%s\n", (int)geteuid(), (int)getegid(), caps);
	for (i = optind; i < argc; i++) {
		char res[3][24];
		int leak_r = -1, leak_w = 0;

		for (m = 0; m < 3; m++) {
			int fd = open(argv[i], modes[m].flags | O_NONBLOCK);

			if (fd < 0) {
				snprintf(res[m], sizeof(res[m]), "%s", ename(errno));
				continue;
			}
			opened = 1;
			snprintf(res[m], sizeof(res[m]), "ok");
			if (modes[m].flags != O_WRONLY) {
				char buf[4096];
				ssize_t n = read(fd, buf, sizeof(buf));

				if (n > leak_r)
					leak_r = (int)n;
			}
			if (modes[m].flags != O_RDONLY && write(fd, "1", 1) == 1)
				leak_w = 1;
			close(fd);
		}
		printf("%s rd=%s wr=%s rw=%s\n", argv[i], res[0], res[1], res[2]);
		if (leak_r > 0)
			printf("%s LEAK read %d bytes\n", argv[i], leak_r);
		if (leak_w)
			printf("%s LEAK write accepted\n", argv[i]);
	}
	return opened ? 1 : 0;
}
