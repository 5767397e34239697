// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/schedstat parser and per-domain deltas (see schedstat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedstat.h"

const char *const ss_idle_name[SS_NIDLE] = { "busy", "idle", "newidle" };

#define SS_MAX_FIELDS 64

static int ss_fail(char *err, size_t errlen, int code, const char *fmt, int line,
		   long a, long b)
{
	if (err && errlen) {
		int n = line ? snprintf(err, errlen, "/proc/schedstat line %d: ", line) : 0;

		if (n < 0 || (size_t)n >= errlen)
			n = 0;
		snprintf(err + n, errlen - n, fmt, a, b);
	}
	return code;
}

/* Parse unsigned decimal fields of one line after `skip` tokens. */
static int ss_fields(char *line, int skip, char **tok, uint64_t *v, int max)
{
	char *save = NULL, *t;
	int n = 0, i = 0;

	for (t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (i < skip) {
			tok[i++] = t;
			continue;
		}
		if (n >= max)
			return -1;
		{
			char *end;

			errno = 0;
			if (*t < '0' || *t > '9')
				return -2;
			v[n] = strtoull(t, &end, 10);
			if (*end || errno)
				return -2;
		}
		n++;
	}
	return i < skip ? -3 : n;
}

int schedstat_parse(const char *text, size_t len, struct schedstat *s,
		    char *err, size_t errlen)
{
	/* Position of each idle type's block per version (stored order busy, idle, newidle). */
	static const int order15[SS_NIDLE] = { 1, 0, 2 };	/* CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE */
	static const int order16[SS_NIDLE] = { 0, 1, 2 };	/* __CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE */
	char *buf, *line, *save = NULL;
	int lineno = 0, cpu = -1, cap = 0, rc = SS_OK;

	memset(s, 0, sizeof(*s));
	buf = malloc(len + 1);
	if (!buf)
		return ss_fail(err, errlen, SS_ENOMEM, "out of memory", 0, 0, 0);
	memcpy(buf, text, len);
	buf[len] = 0;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t v[SS_MAX_FIELDS];
		char *tok[3];
		int n;

		lineno++;
		if (lineno == 1) {
			if (sscanf(line, "version %d", &s->version) != 1) {
				rc = ss_fail(err, errlen, SS_EVERSION,
					     "no \"version N\" line", 1, 0, 0);
				goto out;
			}
			if (s->version < 15 || s->version > 17) {
				rc = ss_fail(err, errlen, SS_EVERSION,
					     "unsupported schedstat version %ld (understood: 15-17)",
					     0, s->version, 0);
				goto out;
			}
			continue;
		}
		if (!strncmp(line, "timestamp ", 10)) {
			s->timestamp = strtoull(line + 10, NULL, 10);
		} else if (!strncmp(line, "cpu", 3)) {
			char *end;

			cpu = (int)strtol(line + 3, &end, 10);
			if (end == line + 3 || *end != ' ') {
				rc = ss_fail(err, errlen, SS_EMALFORMED, "bad cpu line", lineno, 0, 0);
				goto out;
			}
			s->ncpus++;
		} else if (!strncmp(line, "domain", 6)) {
			int named = s->version >= 17, per = named ? 11 : 8, need = per * SS_NIDLE + 3;
			const int *order = s->version >= 16 ? order16 : order15;
			struct ss_domain *d;
			int it;

			if (cpu < 0) {
				rc = ss_fail(err, errlen, SS_EMALFORMED, "domain before any cpu line",
					     lineno, 0, 0);
				goto out;
			}
			n = ss_fields(line, named ? 3 : 2, tok, v, SS_MAX_FIELDS);
			if (n < need) {
				rc = ss_fail(err, errlen, SS_EMALFORMED,
					     n < 0 ? "domain line not numeric (%ld)" :
					     "domain line has %ld counters, expected at least %ld",
					     lineno, n, need);
				goto out;
			}
			if (s->ndom == cap) {
				struct ss_domain *nd;

				cap = cap ? cap * 2 : 16;
				nd = realloc(s->dom, cap * sizeof(*nd));
				if (!nd) {
					rc = ss_fail(err, errlen, SS_ENOMEM, "out of memory", 0, 0, 0);
					goto out;
				}
				s->dom = nd;
			}
			d = &s->dom[s->ndom++];
			memset(d, 0, sizeof(*d));
			d->cpu = cpu;
			d->index = atoi(tok[0] + 6);
			if (named)
				snprintf(d->name, sizeof(d->name), "%s", tok[1]);
			else
				snprintf(d->name, sizeof(d->name), "domain%d", d->index);
			for (it = 0; it < SS_NIDLE; it++) {
				const uint64_t *f = v + order[it] * per;
				struct ss_lb *lb = &d->lb[it];

				lb->count = f[0];
				lb->balanced = f[1];
				lb->failed = f[2];
				if (named) {
					lb->imbalance = f[3] + f[4] + f[5] + f[6];
					f += 4;
				} else {
					lb->imbalance = f[3];
					f += 1;
				}
				lb->gained = f[3];
				lb->hot_gained = f[4];
				lb->nobusyq = f[5];
				lb->nobusyg = f[6];
			}
			d->alb_count = v[per * SS_NIDLE];
			d->alb_failed = v[per * SS_NIDLE + 1];
			d->alb_pushed = v[per * SS_NIDLE + 2];
		}
		/* other lines: ignore (future additions) */
	}
	if (lineno == 0)
		rc = ss_fail(err, errlen, SS_EVERSION, "empty /proc/schedstat", 0, 0, 0);
out:
	free(buf);
	if (rc)
		schedstat_free(s);
	return rc;
}

int schedstat_read(const char *path, struct schedstat *s, char *err, size_t errlen)
{
	size_t len = 0, cap = 0;
	char *text = NULL;
	int fd, rc;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " (kernel built without CONFIG_SCHEDSTATS)" : "");
		return errno == ENOENT ? SS_ENOENT : SS_EIO;
	}
	for (;;) {
		ssize_t r;

		if (len + 4096 > cap) {
			char *n = realloc(text, cap = cap ? cap * 2 : 65536);

			if (!n) {
				free(text);
				close(fd);
				snprintf(err, errlen, "out of memory");
				return SS_ENOMEM;
			}
			text = n;
		}
		r = read(fd, text + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(text);
			close(fd);
			return SS_EIO;
		}
		if (r == 0)
			break;
		len += r;
	}
	close(fd);
	rc = schedstat_parse(text, len, s, err, errlen);
	free(text);
	return rc;
}

void schedstat_free(struct schedstat *s)
{
	free(s->dom);
	memset(s, 0, sizeof(*s));
}

static uint64_t ss_sub(uint64_t a, uint64_t b, int *wrapped)
{
	if (a < b) {
		*wrapped = 1;
		return 0;
	}
	return a - b;
}

int schedstat_delta(const struct schedstat *before, const struct schedstat *after,
		    struct ss_delta *d)
{
	int i, j, it;

	memset(d, 0, sizeof(*d));
	d->lv = calloc(after->ndom ? after->ndom : 1, sizeof(*d->lv));
	if (!d->lv)
		return SS_ENOMEM;
	d->jiffies = after->timestamp - before->timestamp;
	if (after->ndom != before->ndom)
		d->reshaped = 1;
	for (i = 0; i < after->ndom; i++) {
		const struct ss_domain *a = &after->dom[i], *b = NULL;
		struct ss_level *lv = NULL;

		/* Same position usually matches; search only when it does not. */
		if (i < before->ndom && before->dom[i].cpu == a->cpu &&
		    before->dom[i].index == a->index)
			b = &before->dom[i];
		for (j = 0; !b && j < before->ndom; j++)
			if (before->dom[j].cpu == a->cpu && before->dom[j].index == a->index)
				b = &before->dom[j];
		if (!b) {
			d->reshaped = 1;
			continue;	/* new domain: no baseline, no delta */
		}
		if (strcmp(a->name, b->name))
			d->reshaped = 1;
		for (j = 0; j < d->nlevels; j++)
			if (!strcmp(d->lv[j].name, a->name))
				lv = &d->lv[j];
		if (!lv) {
			lv = &d->lv[d->nlevels++];
			snprintf(lv->name, sizeof(lv->name), "%s", a->name);
		}
		lv->ncpus++;
		for (it = 0; it < SS_NIDLE; it++) {
			const struct ss_lb *x = &a->lb[it], *y = &b->lb[it];
			struct ss_lb *o = &lv->lb[it];
			int *w = &d->wrapped;

			o->count += ss_sub(x->count, y->count, w);
			o->balanced += ss_sub(x->balanced, y->balanced, w);
			o->failed += ss_sub(x->failed, y->failed, w);
			o->imbalance += ss_sub(x->imbalance, y->imbalance, w);
			o->gained += ss_sub(x->gained, y->gained, w);
			o->hot_gained += ss_sub(x->hot_gained, y->hot_gained, w);
			o->nobusyq += ss_sub(x->nobusyq, y->nobusyq, w);
			o->nobusyg += ss_sub(x->nobusyg, y->nobusyg, w);
		}
	}
	return SS_OK;
}

void schedstat_delta_free(struct ss_delta *d)
{
	free(d->lv);
	memset(d, 0, sizeof(*d));
}

int schedstat_enable(const char *sysctl, int *prev, char *err, size_t errlen)
{
	char buf[16] = "";
	int fd;
	ssize_t n;

	*prev = -1;
	fd = open(sysctl, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", sysctl, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "%s: cannot read", sysctl);
		close(fd);
		return -1;
	}
	if (buf[0] == '1') {
		*prev = 1;
		close(fd);
		return 0;
	}
	if (pwrite(fd, "1", 1, 0) != 1) {
		snprintf(err, errlen, "%s: %s", sysctl, strerror(errno));
		close(fd);
		return -1;
	}
	*prev = 0;
	close(fd);
	return 0;
}

void schedstat_restore(const char *sysctl, int prev)
{
	int fd;

	if (prev != 0)
		return;	/* was on (leave it) or we never touched it */
	fd = open(sysctl, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "0", 1) != 1) {
		/* best effort: the report already says it was switched on */
	}
	close(fd);
}
