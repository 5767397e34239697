// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the sched_shadow debugfs files; see dbgfs.h and
 * docs/debugfs.md.  Every subcommand reads the module through here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/sources/dbgfs.h"

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

static const char *const dbgfs_errstr[] = {
	[DBGFS_OK]		= "success",
	[DBGFS_ENOENT]		= "file not found",
	[DBGFS_ENOMODULE]	= "sched_shadow module not loaded",
	[DBGFS_ENODEBUGFS]	= "debugfs not mounted",
	[DBGFS_EACCES]		= "permission denied",
	[DBGFS_EIO]		= "I/O error",
	[DBGFS_EEMPTY]		= "empty file",
	[DBGFS_EVERSION]	= "missing or unsupported version line",
	[DBGFS_ENOHEADER]	= "missing header row",
	[DBGFS_EMALFORMED]	= "malformed row",
	[DBGFS_ETRUNCATED]	= "truncated input",
	[DBGFS_ENOMEM]		= "out of memory",
};

const char *dbgfs_strerror(int code)
{
	if (code < 0 || code >= (int)(sizeof(dbgfs_errstr) / sizeof(dbgfs_errstr[0])) ||
	    !dbgfs_errstr[code])
		return "unknown error";
	return dbgfs_errstr[code];
}

__attribute__((format(printf, 4, 5)))
static int seterr(struct dbgfs_error *err, int code, int line, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

void dbgfs_free(struct dbgfs_table *t)
{
	if (!t)
		return;
	free(t->cols);
	free(t->cells);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Split line [s, e) into cells; returns the count.  With out == NULL it
 * only counts; otherwise it stores up to max cells and NUL-terminates them.
 */
static int split_cells(char *s, char *e, char **out, int max)
{
	int n = 0;

	while (s < e) {
		while (s < e && is_space(*s))
			s++;
		if (s >= e)
			break;
		if (n < max)
			out[n] = s;
		n++;
		while (s < e && !is_space(*s))
			s++;
		if (s < e) {
			if (out)
				*s = '\0';
			s++;
		}
	}
	if (out)
		*e = '\0';	/* e is the '\n' or the buffer's final NUL */
	return n;
}

int dbgfs_parse(const char *text, size_t len, const char *name,
		struct dbgfs_table *t, struct dbgfs_error *err)
{
	const char *fname = name ? name : "debugfs file";
	char *buf, *p, *end, *nl, *line_end;
	char vname[64];
	int vers, lineno = 0, rc, cap = 0, ncells;
	char **cells = NULL;
	char trail;

	memset(t, 0, sizeof(*t));
	if (err)
		memset(err, 0, sizeof(*err));
	if (len == 0)
		return seterr(err, DBGFS_EEMPTY, 0, "%s: empty file", fname);

	buf = malloc(len + 1);
	if (!buf)
		return seterr(err, DBGFS_ENOMEM, 0, "%s: out of memory", fname);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return seterr(err, DBGFS_EMALFORMED, 0, "%s: NUL byte in text", fname);
	}
	t->buf = buf;
	p = buf;
	end = buf + len;

	/* Version line. */
	nl = memchr(p, '\n', end - p);
	line_end = nl ? nl : end;
	*line_end = '\0';
	lineno = 1;
	trail = 0;
	if (sscanf(p, "# sched_shadow %63s v%d%c", vname, &vers, &trail) != 2) {
		rc = seterr(err, DBGFS_EVERSION, 1,
			    "%s: line 1: expected \"# sched_shadow %s v%d\", got \"%.60s\"",
			    fname, name ? name : "<name>", DBGFS_VERSION, p);
		goto fail;
	}
	if (name && strcmp(vname, name)) {
		rc = seterr(err, DBGFS_EVERSION, 1,
			    "%s: line 1: file says it is \"%s\"", fname, vname);
		goto fail;
	}
	if (vers != DBGFS_VERSION) {
		rc = seterr(err, DBGFS_EVERSION, 1,
			    "%s: format v%d, this tool understands v%d", fname, vers,
			    DBGFS_VERSION);
		goto fail;
	}
	snprintf(t->name, sizeof(t->name), "%.31s", vname);
	t->version = vers;
	if (!nl) {
		rc = seterr(err, DBGFS_ENOHEADER, 1, "%s: no header row after version line", fname);
		goto fail;
	}
	p = nl + 1;

	/* Header row. */
	nl = memchr(p, '\n', end - p);
	line_end = nl ? nl : end;
	lineno = 2;
	ncells = split_cells(p, line_end, NULL, 0);
	if (ncells == 0) {
		rc = seterr(err, DBGFS_ENOHEADER, 2, "%s: line 2: empty header row", fname);
		goto fail;
	}
	if (!nl) {
		rc = seterr(err, DBGFS_ETRUNCATED, 2, "%s: line 2: header row not terminated", fname);
		goto fail;
	}
	t->cols = calloc(ncells, sizeof(char *));
	if (!t->cols) {
		rc = seterr(err, DBGFS_ENOMEM, 0, "%s: out of memory", fname);
		goto fail;
	}
	t->ncols = split_cells(p, line_end, t->cols, ncells);
	p = nl + 1;

	/* Rows. */
	while (p < end) {
		int n;

		lineno++;
		nl = memchr(p, '\n', end - p);
		line_end = nl ? nl : end;
		n = split_cells(p, line_end, NULL, 0);
		if (n == 0) {		/* blank line: tolerated */
			p = line_end + (nl ? 1 : 0);
			continue;
		}
		if (n != t->ncols) {
			if (!nl && n < t->ncols)
				rc = seterr(err, DBGFS_ETRUNCATED, lineno,
					    "%s: line %d: truncated row (%d of %d cells, no newline)",
					    fname, lineno, n, t->ncols);
			else
				rc = seterr(err, DBGFS_EMALFORMED, lineno,
					    "%s: line %d: %d cells, header has %d",
					    fname, lineno, n, t->ncols);
			goto fail;
		}
		if ((t->nrows + 1) * t->ncols > cap) {
			int ncap = cap ? cap * 2 : 16 * t->ncols;
			char **nc;

			while (ncap < (t->nrows + 1) * t->ncols)
				ncap *= 2;
			nc = realloc(cells, ncap * sizeof(char *));
			if (!nc) {
				rc = seterr(err, DBGFS_ENOMEM, 0, "%s: out of memory", fname);
				goto fail;
			}
			cells = nc;
			cap = ncap;
		}
		split_cells(p, line_end, cells + t->nrows * t->ncols, t->ncols);
		t->nrows++;
		p = line_end + (nl ? 1 : 0);
	}
	t->cells = cells;
	return DBGFS_OK;

fail:
	free(cells);
	dbgfs_free(t);
	return rc;
}

static int errno_code(int e)
{
	if (e == ENOENT || e == ENOTDIR)
		return DBGFS_ENOENT;
	if (e == EACCES || e == EPERM)
		return DBGFS_EACCES;
	return DBGFS_EIO;
}

void (*dbgfs_trace_hook)(const char *what, const char *path);

int dbgfs_module_installed(const char *modules_dep)
{
	char line[1024];
	FILE *f = fopen(modules_dep, "re");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base;

		if (!colon)
			continue;
		*colon = 0;
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		found = !strncmp(base, "sched_shadow.ko", 15) &&
			(!base[15] || !strcmp(base + 15, ".xz") || !strcmp(base + 15, ".gz") ||
			 !strcmp(base + 15, ".zst"));
	}
	fclose(f);
	return found;
}

/* How to load the module: modprobe once it is installed for the running kernel. */
static const char *load_hint(void)
{
	struct utsname u;
	char dep[sizeof(u.release) + 32];

	if (uname(&u) == 0) {
		snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", u.release);
		if (dbgfs_module_installed(dep))
			return "sudo modprobe sched_shadow";
	}
	return "sudo insmod sched_shadow.ko from the build tree, or make install and modprobe";
}

int dbgfs_probe_root(const char *root, struct dbgfs_error *err)
{
	char parent[PATH_MAX];
	struct stat st;
	struct statfs sfs;
	char *slash;

	if (stat(root, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return seterr(err, DBGFS_ENOMODULE, 0, "%s is not a directory", root);
		return DBGFS_OK;
	}
	if (errno == EACCES || errno == EPERM)
		return seterr(err, DBGFS_EACCES, 0,
			      "%s: permission denied (debugfs needs root: run with sudo)", root);
	/*
	 * No sched_shadow directory: is debugfs itself mounted at the parent?
	 * Only meaningful for the default layout <debugfs>/sched_shadow.
	 */
	snprintf(parent, sizeof(parent), "%s", root);
	while ((slash = strrchr(parent, '/')) && slash[1] == '\0' && slash != parent)
		*slash = '\0';
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (strcmp(parent, "/sys/kernel/debug") == 0) {
			if (statfs(parent, &sfs) == 0 && (unsigned long)sfs.f_type != DEBUGFS_MAGIC &&
			    access("/sys/module/sched_shadow", F_OK) != 0)
				return seterr(err, DBGFS_ENOMODULE, 0,
					      "sched_shadow module not loaded (%s; debugfs is not "
					      "mounted either: sudo mount -t debugfs none %s)",
					      load_hint(), parent);
			if (statfs(parent, &sfs) == 0 && (unsigned long)sfs.f_type != DEBUGFS_MAGIC)
				return seterr(err, DBGFS_ENODEBUGFS, 0,
					      "sched_shadow is loaded but debugfs is not mounted at %s: "
					      "sudo mount -t debugfs none %s",
					      parent, parent);
			if (access(parent, X_OK) != 0 && (errno == EACCES || errno == EPERM))
				return seterr(err, DBGFS_EACCES, 0,
					      "%s: permission denied (debugfs needs root: run with sudo)",
					      parent);
		}
	}
	return seterr(err, DBGFS_ENOMODULE, 0, "sched_shadow module not loaded (%s)", load_hint());
}

int dbgfs_load(const char *root, const char *name,
	       struct dbgfs_table *t, struct dbgfs_error *err)
{
	char path[PATH_MAX];
	char *text = NULL, *nt;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, rc;

	memset(t, 0, sizeof(*t));
	rc = dbgfs_probe_root(root, err);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (dbgfs_trace_hook)
		dbgfs_trace_hook("reading", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		rc = errno_code(e);
		if (rc == DBGFS_EACCES)
			return seterr(err, rc, 0, "%s: permission denied (run with sudo)", path);
		return seterr(err, rc, 0, "%s: %s", path, strerror(e));
	}
	/* debugfs seq files report size 0: read until EOF. */
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 16384;
			nt = realloc(text, cap);
			if (!nt) {
				rc = seterr(err, DBGFS_ENOMEM, 0, "%s: out of memory", path);
				goto out;
			}
			text = nt;
		}
		n = read(fd, text + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = errno_code(errno);
			rc = seterr(err, rc == DBGFS_ENOENT ? DBGFS_EIO : rc, 0,
				    "%s: read: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
	}
	rc = dbgfs_parse(text ? text : "", len, name, t, err);
out:
	free(text);
	close(fd);
	return rc;
}

int dbgfs_write(const char *root, const char *name, const char *val,
		struct dbgfs_error *err)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd, rc;

	rc = dbgfs_probe_root(root, err);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (dbgfs_trace_hook)
		dbgfs_trace_hook("writing", path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return seterr(err, errno_code(e), 0, "%s: %s", path, strerror(e));
	}
	n = write(fd, val, len);
	if (n < 0 || (size_t)n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return seterr(err, errno_code(e) == DBGFS_EACCES ? DBGFS_EACCES : DBGFS_EIO, 0,
			      "%s: write \"%s\": %s", path, val, strerror(e));
	}
	if (close(fd) != 0)
		return seterr(err, DBGFS_EIO, 0, "%s: close: %s", path, strerror(errno));
	return DBGFS_OK;
}

int dbgfs_col(const struct dbgfs_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

const char *dbgfs_cell(const struct dbgfs_table *t, int row, int col)
{
	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return NULL;
	return t->cells[row * t->ncols + col];
}

int dbgfs_is_na(const struct dbgfs_table *t, int row, int col)
{
	const char *c = dbgfs_cell(t, row, col);

	return !c || !strcmp(c, "-");
}

int dbgfs_u64(const struct dbgfs_table *t, int row, int col, uint64_t *v)
{
	const char *c = dbgfs_cell(t, row, col);
	unsigned long long x;
	char *e;

	if (!c)
		return -1;
	if (!strcmp(c, "-"))
		return 1;
	if (*c < '0' || *c > '9')
		return -1;
	errno = 0;
	x = strtoull(c, &e, 10);
	if (errno || *e)
		return -1;
	*v = x;
	return 0;
}

int dbgfs_s64(const struct dbgfs_table *t, int row, int col, int64_t *v)
{
	const char *c = dbgfs_cell(t, row, col);
	long long x;
	char *e;

	if (!c)
		return -1;
	if (!strcmp(c, "-"))
		return 1;
	if (!((*c >= '0' && *c <= '9') || (*c == '-' && c[1] >= '0' && c[1] <= '9')))
		return -1;
	errno = 0;
	x = strtoll(c, &e, 10);
	if (errno || *e)
		return -1;
	*v = x;
	return 0;
}

int dbgfs_u64_by(const struct dbgfs_table *t, int row, const char *col, uint64_t *v)
{
	return dbgfs_u64(t, row, dbgfs_col(t, col), v);
}

int dbgfs_sum_u64(const struct dbgfs_table *t, const char *col, uint64_t *sum)
{
	int c = dbgfs_col(t, col), n = 0;
	uint64_t v;

	*sum = 0;
	if (c < 0)
		return 0;
	for (int r = 0; r < t->nrows; r++) {
		if (dbgfs_u64(t, r, c, &v) == 0) {
			*sum += v;
			n++;
		}
	}
	return n;
}

const char *dbgfs_info_get(const struct dbgfs_table *info, const char *key)
{
	int kc = dbgfs_col(info, "key"), vc = dbgfs_col(info, "value");

	if (kc < 0 || vc < 0)
		return NULL;
	for (int r = 0; r < info->nrows; r++)
		if (!strcmp(dbgfs_cell(info, r, kc), key))
			return dbgfs_cell(info, r, vc);
	return NULL;
}

size_t dbgfs_unescape(const char *in, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return 0;
	while (*in && o + 1 < outlen) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' &&
		    in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
			out[o++] = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 4;
		} else {
			out[o++] = *in++;
		}
	}
	out[o] = '\0';
	return o;
}
