// SPDX-License-Identifier: GPL-2.0
/*
 * sched_shadow:lb_verdict from a private tracefs instance (lbtrace.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/sources/lbtrace.h"

#define LBV_MARK	" lb_verdict: "

const char *lbv_get(const struct lbv_event *e, const char *key)
{
	for (int i = 0; i < e->nfields; i++)
		if (!strcmp(e->key[i], key))
			return e->val[i];
	return NULL;
}

void lbv_free(struct lbv_event *e)
{
	free(e->buf);
	e->buf = NULL;
	e->nfields = 0;
}

/* "12345.678901" (seconds.microseconds, as tracefs prints) to ns; -1 if not that. */
static int lbv_parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, nfrac = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (i == 0 || i >= len || s[i] != '.')
		return -1;
	for (i++; i < len && s[i] >= '0' && s[i] <= '9' && nfrac < 9; i++, nfrac++)
		frac = frac * 10 + (uint64_t)(s[i] - '0');
	if (i != len || nfrac == 0)
		return -1;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

int lbv_parse_line(const char *line, struct lbv_event *e)
{
	const char *mark = strstr(line, LBV_MARK), *end, *tok;
	const char *cpu;
	char *endp, *p;
	long v;

	memset(e, 0, sizeof(*e));
	if (!mark || mark == line)
		return -1;
	/* the timestamp is the last token before the mark, ending in ':' */
	end = mark;
	if (end[-1] != ':')
		return -1;
	end--;
	for (tok = end; tok > line && tok[-1] != ' '; tok--)
		;
	if (lbv_parse_ts(tok, (size_t)(end - tok), &e->ts_ns))
		return -1;
	e->buf = strndup(mark + strlen(LBV_MARK), strcspn(mark + strlen(LBV_MARK), "\n"));
	if (!e->buf)
		return -1;
	/* key=value tokens, split in place; each kept whole */
	for (p = e->buf; *p;) {
		char *eq, *sp;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		sp = p + strcspn(p, " ");
		if (*sp)
			*sp++ = 0;
		eq = strchr(p, '=');
		if (eq && eq > p && e->nfields < LBV_MAX_FIELDS) {
			*eq = 0;
			e->key[e->nfields] = p;
			e->val[e->nfields] = eq + 1;
			e->nfields++;
		} else {
			e->dropped++;
		}
		p = sp;
	}
	cpu = lbv_get(e, "dst_cpu");
	if (!cpu || !*cpu)
		goto bad;
	errno = 0;
	v = strtol(cpu, &endp, 10);
	if (errno || *endp || v < 0 || v > 1000000)
		goto bad;
	e->dst_cpu = (int)v;
	return 0;
bad:
	lbv_free(e);
	return -1;
}

/* ------------------------------------------------------------ tracefs */

static const char *lbtrace_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/instances", roots[i]);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return roots[i];
	}
	return NULL;
}

static int lbtrace_write(const char *dir, const char *file, const char *val)
{
	char p[640];
	int fd, rc = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		rc = -1;
	close(fd);
	return rc;
}

int lbtrace_open(struct lbtrace *t, char *why, size_t whylen)
{
	const char *root = lbtrace_root();
	char p[640];

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->buf = malloc(LBV_LINE_MAX);
	if (!t->buf) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (!root) {
		snprintf(why, whylen, "tracefs is not mounted (no /sys/kernel/tracing/instances)");
		goto fail;
	}
	snprintf(t->inst, sizeof(t->inst), "%s/instances/sched_shadow-%d", root, (int)getpid());
	if (mkdir(t->inst, 0700) != 0) {
		snprintf(why, whylen, "%s: %s", t->inst, strerror(errno));
		t->inst[0] = 0;
		goto fail;
	}
	snprintf(p, sizeof(p), "%s/events/sched_shadow/lb_verdict/enable", t->inst);
	if (access(p, W_OK) != 0) {
		snprintf(why, whylen, "no sched_shadow:lb_verdict trace event (module without the lb audit?)");
		goto fail;
	}
	if (lbtrace_write(t->inst, "trace_clock", "boot")) {
		snprintf(why, whylen, "tracefs trace_clock 'boot' not available: %s", strerror(errno));
		goto fail;
	}
	snprintf(p, sizeof(p), "%s/trace_pipe", t->inst);
	t->fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd < 0) {
		snprintf(why, whylen, "%s: %s", p, strerror(errno));
		goto fail;
	}
	if (lbtrace_write(t->inst, "events/sched_shadow/lb_verdict/enable", "1") ||
	    lbtrace_write(t->inst, "tracing_on", "1")) {
		snprintf(why, whylen, "cannot enable sched_shadow:lb_verdict: %s", strerror(errno));
		goto fail;
	}
	return 0;
fail:
	lbtrace_close(t);
	return -1;
}

long lbtrace_drain(struct lbtrace *t, void (*fn)(void *ctx, const struct lbv_event *e), void *ctx)
{
	struct lbv_event ev;
	long n = 0;
	ssize_t r;

	if (t->fd < 0 || !t->buf)
		return 0;
	for (;;) {
		char *nl, *line;

		r = read(t->fd, t->buf + t->len, LBV_LINE_MAX - 1 - t->len);
		if (r <= 0)
			break;
		t->len += (size_t)r;
		t->buf[t->len] = 0;
		line = t->buf;
		while ((nl = memchr(line, '\n', t->len - (size_t)(line - t->buf)))) {
			*nl = 0;
			if (t->skipping) {
				/* the end of a line too long to hold: counted when it began */
				t->skipping = 0;
			} else if (lbv_parse_line(line, &ev) == 0) {
				t->records++;
				n++;
				fn(ctx, &ev);
				lbv_free(&ev);
			} else if (strstr(line, LBV_MARK)) {
				t->bad++;
			}
			line = nl + 1;
		}
		t->len -= (size_t)(line - t->buf);
		memmove(t->buf, line, t->len);
		if (t->len == LBV_LINE_MAX - 1) {
			/* a line longer than the buffer: count it, skip to its end */
			if (!t->skipping && strstr(t->buf, LBV_MARK))
				t->too_long++;
			t->skipping = 1;
			t->len = 0;
		}
	}
	return n;
}

uint64_t lbtrace_overrun(const struct lbtrace *t)
{
	char p[1024], line[128];
	uint64_t sum = 0;
	struct dirent *de;
	DIR *d;

	if (!t->inst[0])
		return 0;
	snprintf(p, sizeof(p), "%s/per_cpu", t->inst);
	d = opendir(p);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		FILE *f;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(p, sizeof(p), "%s/per_cpu/%s/stats", t->inst, de->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;

			if (sscanf(line, "overrun: %llu", &v) == 1)
				sum += v;
		}
		fclose(f);
	}
	closedir(d);
	return sum;
}

void lbtrace_close(struct lbtrace *t)
{
	if (t->inst[0]) {
		lbtrace_write(t->inst, "events/sched_shadow/lb_verdict/enable", "0");
		lbtrace_write(t->inst, "tracing_on", "0");
	}
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->inst[0] && rmdir(t->inst) != 0)
		fprintf(stderr, "sched-shadow: could not remove tracefs instance %s: %s\n",
			t->inst, strerror(errno));
	t->inst[0] = 0;
	free(t->buf);
	t->buf = NULL;
}
