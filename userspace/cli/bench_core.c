// SPDX-License-Identifier: GPL-2.0
/*
 * bench workload, cgroup v2 helpers and the bench/run option parsers
 * (see bench_core.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw FTW_PHYS, aligned_alloc */
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include "bench_core.h"

/* snprintf for messages and paths whose truncation is acceptable. */
static void __attribute__((format(printf, 3, 4)))
fmt_into(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- options */

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

void bench_opts_default(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->msg_threads = 2;
	o->workers = 4;
	o->burn_us = 100;
	o->sleep_us = 1000;
	o->duration_s = 5;
}

void bench_usage(FILE *f)
{
	fprintf(f,
		"usage: sched-shadow bench [OPTIONS]\n"
		"schbench-style wakeup latency benchmark: message threads wake workers,\n"
		"workers record the wakeup latency, burn CPU, and sleep again.\n\n"
		"  -m, --message-threads N  message threads (default 2)\n"
		"  -t, --workers N          workers per message thread (default 4)\n"
		"  -C, --burn-us US         CPU time each worker burns per wakeup (default 100)\n"
		"  -s, --sleep-us US        message thread sleep between rounds (default 1000)\n"
		"  -d, --duration SEC       run time in seconds (default 5)\n"
		"      --cgroup PATH        run inside cgroup v2 PATH (created, removed at exit)\n"
		"      --weight N           cpu.weight of that cgroup (1-10000)\n"
		"      --json               JSON report (schema sched_shadow/v1)\n"
		"  -h, --help               this help\n"
		"Latency percentiles are exact below 1 ms, within 0.8%% above.\n");
}

int bench_parse_args(int argc, char **argv, struct bench_opts *o,
		     char *err, size_t errlen)
{
	enum { OPT_CGROUP = 0x100, OPT_WEIGHT, OPT_JSON };
	static const struct option lo[] = {
		{ "message-threads", required_argument, NULL, 'm' },
		{ "workers",         required_argument, NULL, 't' },
		{ "burn-us",         required_argument, NULL, 'C' },
		{ "sleep-us",        required_argument, NULL, 's' },
		{ "duration",        required_argument, NULL, 'd' },
		{ "cgroup",          required_argument, NULL, OPT_CGROUP },
		{ "weight",          required_argument, NULL, OPT_WEIGHT },
		{ "json",            no_argument,       NULL, OPT_JSON },
		{ "help",            no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	bench_opts_default(o);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:C:s:d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (parse_long(optarg, 1, BENCH_MAX_THREADS, &o->msg_threads))
				goto bad;
			break;
		case 't':
			if (parse_long(optarg, 1, BENCH_MAX_THREADS, &o->workers))
				goto bad;
			break;
		case 'C':
			if (parse_long(optarg, 0, 10000000, &o->burn_us))
				goto bad;
			break;
		case 's':
			if (parse_long(optarg, 0, 10000000, &o->sleep_us))
				goto bad;
			break;
		case 'd':
			if (parse_seconds(optarg, 0.01, 86400, &o->duration_s))
				goto bad;
			break;
		case OPT_CGROUP:
			if (!*optarg) {
				fmt_into(err, errlen, "--cgroup needs a non-empty path");
				return -1;
			}
			o->cgroup = optarg;
			break;
		case OPT_WEIGHT:
			if (parse_long(optarg, 1, 10000, &o->weight))
				goto bad;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case 'h':
			bench_usage(stdout);
			return 1;
		case ':':
			fmt_into(err, errlen, "option %s needs a value", argv[optind - 1]);
			return -1;
		default:
			fmt_into(err, errlen, "unknown option %s", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fmt_into(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (o->weight && !o->cgroup) {
		fmt_into(err, errlen, "--weight needs --cgroup");
		return -1;
	}
	if (o->msg_threads * o->workers + o->msg_threads > BENCH_MAX_THREADS) {
		fmt_into(err, errlen, "too many threads: %ld message x %ld workers (max %d in all)",
			 o->msg_threads, o->workers, BENCH_MAX_THREADS);
		return -1;
	}
	return 0;
bad:
	if (c < 0x100) {
		fmt_into(err, errlen, "invalid value '%s' for -%c", optarg, c);
	} else {
		const struct option *p;

		for (p = lo; p->name && p->val != c; p++)
			;
		fmt_into(err, errlen, "invalid value '%s' for --%s", optarg,
			 p->name ? p->name : "?");
	}
	return -1;
}

void run_usage(FILE *f)
{
	fprintf(f,
		"usage: sched-shadow run [--cgroup PATH] [--bpf|--no-bpf] [--json|--prom]\n"
		"                        [--perfetto FILE [--interval SECONDS]] -- CMD [ARGS...]\n"
		"Reset the module's counters, start the BPF wakeup-latency collection,\n"
		"run CMD (inside cgroup v2 PATH when given, created if needed and removed\n"
		"afterwards if created), then print one report: load-balancer verdicts,\n"
		"shadow-vs-real divergence per CPU, wakeup latency per cgroup, migrations\n"
		"and /proc/schedstat load-balance deltas.  Exit status is CMD's\n"
		"(128+N when killed by signal N).\n\n"
		"      --cgroup PATH  run CMD in this cgroup (relative to the cgroup2 mount)\n"
		"      --bpf          collect wakeup latency with BPF (default)\n"
		"      --no-bpf       do not load BPF\n"
		"      --json         JSON report (schema sched_shadow/v1, docs/cli-run.md)\n"
		"      --prom         Prometheus text exposition\n"
		"      --debugfs DIR  the module's debugfs directory\n"
		"      --perfetto FILE  also write a Perfetto trace of the run: the module\n"
		"                     sampled every --interval (default 0.5 s), lb verdicts,\n"
		"                     and CMD as a slice carrying the latency percentiles\n"
		"      --interval SECONDS  sampling interval of the trace (with --perfetto)\n"
		"  -h, --help         this help\n");
}

int run_parse_args(int argc, char **argv, struct run_opts *o,
		   char *err, size_t errlen)
{
	enum { OPT_CGROUP = 0x100, OPT_BPF, OPT_NOBPF, OPT_JSON, OPT_PROM, OPT_DEBUGFS,
	       OPT_PERFETTO, OPT_INTERVAL };
	static const struct option lo[] = {
		{ "cgroup",  required_argument, NULL, OPT_CGROUP },
		{ "bpf",     no_argument,       NULL, OPT_BPF },
		{ "no-bpf",  no_argument,       NULL, OPT_NOBPF },
		{ "json",    no_argument,       NULL, OPT_JSON },
		{ "prom",    no_argument,       NULL, OPT_PROM },
		{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
		{ "perfetto", required_argument, NULL, OPT_PERFETTO },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, fmts = 0, have_interval = 0;
	char *end;

	memset(o, 0, sizeof(*o));
	o->bpf = 1;
	o->interval = 0.5;
	optind = 0;
	opterr = 0;
	/* '+': stop at CMD, so CMD's own options are not ours */
	while ((c = getopt_long(argc, argv, "+:h", lo, NULL)) != -1) {
		switch (c) {
		case OPT_CGROUP:
			if (!*optarg) {
				fmt_into(err, errlen, "--cgroup needs a non-empty path");
				return -1;
			}
			o->cgroup = optarg;
			break;
		case OPT_BPF:
			o->bpf = 1;
			break;
		case OPT_NOBPF:
			o->bpf = 0;
			break;
		case OPT_JSON:
			o->fmt = RUN_FMT_JSON;
			fmts |= 1;
			break;
		case OPT_PROM:
			o->fmt = RUN_FMT_PROM;
			fmts |= 2;
			break;
		case OPT_DEBUGFS:
			o->debugfs = optarg;
			break;
		case OPT_PERFETTO:
			if (!*optarg || !strcmp(optarg, "-")) {
				fmt_into(err, errlen, "--perfetto needs a file name");
				return -1;
			}
			o->perfetto = optarg;
			break;
		case OPT_INTERVAL:
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->interval >= 0.001) ||
			    o->interval > 86400) {
				fmt_into(err, errlen, "bad --interval '%s' (seconds, 0.001 to 86400)", optarg);
				return -1;
			}
			have_interval = 1;
			break;
		case 'h':
			run_usage(stdout);
			return 1;
		case ':':
			fmt_into(err, errlen, "option %s needs a value", argv[optind - 1]);
			return -1;
		default:
			fmt_into(err, errlen, "unknown option %s", argv[optind - 1]);
			return -1;
		}
	}
	if (fmts == 3) {
		fmt_into(err, errlen, "--json and --prom exclude each other");
		return -1;
	}
	if (have_interval && !o->perfetto) {
		fmt_into(err, errlen, "--interval is the sampling interval of --perfetto; give --perfetto FILE");
		return -1;
	}
	if (optind >= argc) {
		fmt_into(err, errlen, "no command given (usage: run [OPTIONS] -- CMD [ARGS...])");
		return -1;
	}
	o->cmd = &argv[optind];
	return 0;
}

/* ---------------------------------------------------------------- workload */

struct bench_worker {
	_Atomic uint32_t state;		/* futex word: WAITING, ARMING, WOKEN */
	_Atomic uint64_t wake_ns;	/* message thread's clock at the wake */
	struct bench_ctx *ctx;
	struct lat_fine *lat;
	uint64_t requests;
	pthread_t th;
} __attribute__((aligned(64)));

enum { W_WAITING = 0, W_ARMING = 2, W_WOKEN = 1 };

struct bench_msg {
	struct bench_ctx *ctx;
	struct bench_worker *w;		/* this thread's workers */
	uint64_t wakeups, skipped, rounds;
	pthread_t th;
} __attribute__((aligned(64)));

struct bench_ctx {
	const struct bench_opts *o;
	_Atomic int stop;
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)uaddr, op, val, NULL, NULL, 0);
}

/* Burn `us` microseconds of this thread's CPU time (not wall time). */
static void burn(long us)
{
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)us * 1000;
	volatile uint64_t x = 0;

	while (us > 0 && now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
		for (int i = 0; i < 200; i++)
			x += i;
	}
}

static void *bench_worker_fn(void *arg)
{
	struct bench_worker *w = arg;
	struct bench_ctx *ctx = w->ctx;

	for (;;) {
		uint32_t v;

		/* Wait for our message thread (or the stop broadcast) */
		for (;;) {
			v = atomic_load(&w->state);
			if (v == W_WOKEN || atomic_load(&ctx->stop))
				break;
			futex(&w->state, FUTEX_WAIT_PRIVATE, v);
		}
		if (atomic_load(&ctx->stop))
			break;
		{
			uint64_t now = now_ns(CLOCK_MONOTONIC);
			uint64_t t = atomic_load(&w->wake_ns);

			lat_fine_add(w->lat, now > t ? (now - t + 500) / 1000 : 0);
		}
		burn(ctx->o->burn_us);
		w->requests++;
		atomic_store(&w->state, W_WAITING);
	}
	return NULL;
}

static void *bench_msg_fn(void *arg)
{
	struct bench_msg *m = arg;
	struct bench_ctx *ctx = m->ctx;
	long nw = ctx->o->workers, i;
	struct timespec ts = {
		.tv_sec = ctx->o->sleep_us / 1000000,
		.tv_nsec = (ctx->o->sleep_us % 1000000) * 1000,
	};

	while (!atomic_load(&ctx->stop)) {
		m->rounds++;
		for (i = 0; i < nw; i++) {
			struct bench_worker *w = &m->w[i];
			uint32_t exp = W_WAITING;
			uint64_t t = now_ns(CLOCK_MONOTONIC);
			long n;

			/* WAITING -> ARMING claims the worker; publish the time, then wake */
			if (!atomic_compare_exchange_strong(&w->state, &exp, W_ARMING)) {
				m->skipped++;
				continue;
			}
			atomic_store(&w->wake_ns, t);
			atomic_store(&w->state, W_WOKEN);
			n = futex(&w->state, FUTEX_WAKE_PRIVATE, 1);
			if (n > 0)
				m->wakeups += n;
		}
		if (ctx->o->sleep_us)
			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	return NULL;
}

int bench_run(const struct bench_opts *o, struct bench_result *r,
	      char *err, size_t errlen)
{
	long nm = o->msg_threads, nw = o->workers, nworkers = nm * nw, i;
	struct bench_ctx ctx = { .o = o };
	struct bench_worker *w = NULL;
	struct bench_msg *m = NULL;
	long started_w = 0, started_m = 0;
	uint64_t t0, t1;
	struct timespec dur;
	int rc = -1, e;

	memset(r, 0, sizeof(*r));
	w = aligned_alloc(64, sizeof(*w) * nworkers);
	m = aligned_alloc(64, sizeof(*m) * nm);
	if (!w || !m) {
		fmt_into(err, errlen, "out of memory");
		goto cleanup;
	}
	memset(w, 0, sizeof(*w) * nworkers);
	memset(m, 0, sizeof(*m) * nm);
	for (i = 0; i < nworkers; i++) {
		w[i].ctx = &ctx;
		w[i].lat = malloc(sizeof(*w[i].lat));
		if (!w[i].lat) {
			fmt_into(err, errlen, "out of memory");
			goto cleanup;
		}
		lat_fine_init(w[i].lat);
		atomic_init(&w[i].state, W_WAITING);
	}
	/* Start workers first so the first round finds them waiting */
	for (i = 0; i < nworkers; i++, started_w++) {
		e = pthread_create(&w[i].th, NULL, bench_worker_fn, &w[i]);
		if (e) {
			fmt_into(err, errlen, "pthread_create: %s", strerror(e));
			goto stop;
		}
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < nm; i++, started_m++) {
		m[i].ctx = &ctx;
		m[i].w = &w[i * nw];
		e = pthread_create(&m[i].th, NULL, bench_msg_fn, &m[i]);
		if (e) {
			fmt_into(err, errlen, "pthread_create: %s", strerror(e));
			goto stop;
		}
	}
	dur.tv_sec = (time_t)o->duration_s;
	dur.tv_nsec = (long)((o->duration_s - (double)dur.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &dur, &dur) == EINTR)
		;
	rc = 0;
stop:
	atomic_store(&ctx.stop, 1);
	for (i = 0; i < started_m; i++)
		pthread_join(m[i].th, NULL);
	t1 = now_ns(CLOCK_MONOTONIC);
	/* Release every worker: the stop flag is checked after each wake */
	for (i = 0; i < started_w; i++) {
		atomic_store(&w[i].state, W_WOKEN);
		futex(&w[i].state, FUTEX_WAKE_PRIVATE, INT_MAX);
	}
	for (i = 0; i < started_w; i++)
		pthread_join(w[i].th, NULL);
	if (rc == 0) {
		r->runtime_s = (double)(t1 - t0) / 1e9;
		lat_fine_init(&r->lat);
		for (i = 0; i < nworkers; i++) {
			lat_fine_merge(&r->lat, w[i].lat);
			r->requests += w[i].requests;
		}
		for (i = 0; i < nm; i++) {
			r->wakeups += m[i].wakeups;
			r->skipped += m[i].skipped;
			r->rounds += m[i].rounds;
		}
	}
cleanup:
	if (w)
		for (i = 0; i < nworkers; i++)
			free(w[i].lat);
	free(w);
	free(m);
	return rc;
}

/* ---------------------------------------------------------------- cgroups */

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static int has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[wl] == 0 || p[wl] == ' ' || p[wl] == '\n'))
			return 1;
		p += wl;
	}
	return 0;
}

int cg_mount_point(char *out, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = 0;

	if (!f) {
		fmt_into(err, errlen, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	/* "id parent maj:min root mountpoint opts ... - fstype source superopts" */
	while (fgets(line, sizeof(line), f)) {
		char mp[1024], *dash = strstr(line, " - ");
		char fstype[64];

		if (!dash || sscanf(dash, " - %63s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mp) != 1)
			continue;
		fmt_into(out, len, "%s", mp);
		found = 1;
		break;
	}
	fclose(f);
	if (!found) {
		fmt_into(err, errlen, "no cgroup2 filesystem mounted");
		return -1;
	}
	return 0;
}

/* Current cgroup v2 of the calling process, as an absolute directory. */
static int cg_self(const char *mnt, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		fmt_into(out, len, "%s%s", mnt, strcmp(line + 3, "/") ? line + 3 : "");
		rc = 0;
	}
	fclose(f);
	return rc;
}

int cg_create(struct cg_handle *h, const char *path, long weight,
	      char *err, size_t errlen)
{
	char rel[4096], cur[4096], *p;
	struct stat st;
	size_t ml;

	memset(h, 0, sizeof(*h));
	if (cg_mount_point(h->mnt, sizeof(h->mnt), err, errlen))
		return -1;
	ml = strlen(h->mnt);
	/* Accept "a/b", "/a/b" (both below the mount) and "<mount>/a/b" */
	if (!strncmp(path, h->mnt, ml) && (path[ml] == '/' || !path[ml]))
		path += ml;
	while (*path == '/')
		path++;
	if (strstr(path, "..")) {
		fmt_into(err, errlen, "cgroup path '%s' must not contain '..'", path);
		return -1;
	}
	snprintf(rel, sizeof(rel), "/%s", path);
	while (strlen(rel) > 1 && rel[strlen(rel) - 1] == '/')
		rel[strlen(rel) - 1] = 0;
	snprintf(h->rel, sizeof(h->rel), "%s", rel);
	fmt_into(h->dir, sizeof(h->dir), "%s%s", h->mnt, strcmp(rel, "/") ? rel : "");

	/* mkdir -p, remembering what we made */
	snprintf(cur, sizeof(cur), "%s", h->mnt);
	for (p = rel + 1; *p; ) {
		size_t n = strcspn(p, "/"), cl = strlen(cur);

		if (cl + 1 + n >= sizeof(cur)) {
			fmt_into(err, errlen, "cgroup path too long");
			goto undo;
		}
		cur[cl] = '/';
		memcpy(cur + cl + 1, p, n);
		cur[cl + 1 + n] = 0;
		if (mkdir(cur, 0755) == 0) {
			if (h->ncreated == (int)(sizeof(h->created) / sizeof(h->created[0]))) {
				fmt_into(err, errlen, "cgroup path too deep");
				rmdir(cur);
				goto undo;
			}
			h->created[h->ncreated++] = strdup(cur);
		} else if (errno != EEXIST) {
			fmt_into(err, errlen, "mkdir %s: %s", cur, strerror(errno));
			goto undo;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (stat(h->dir, &st)) {
		fmt_into(err, errlen, "%s: %s", h->dir, strerror(errno));
		goto undo;
	}
	h->cgid = st.st_ino;

	/*
	 * Enable the cpu controller down to the cgroup (so it gets its own
	 * cfs_rq hierarchy, which is what the module looks at), then the weight.
	 * Not fatal: the note says what is missing.
	 */
	{
		const char *what = weight > 0 ? "weight not applied" : "cgroup has no cpu controller";
		char ctl[4096 + 32], buf[512], wv[32];
		int e;

		/* The cpu controller must be offered by the root first */
		fmt_into(ctl, sizeof(ctl), "%s/cgroup.controllers", h->mnt);
		if (read_small(ctl, buf, sizeof(buf)) || !has_word(buf, "cpu")) {
			fmt_into(h->note, sizeof(h->note),
				 "cpu controller not available on the cgroup2 mount %s "
				 "(bound to a cgroup v1 hierarchy?): %s", h->mnt, what);
			return 0;
		}
		/* Enable +cpu in every ancestor's subtree_control, root downwards */
		snprintf(cur, sizeof(cur), "%s", h->mnt);
		for (p = rel + 1; ; ) {
			size_t n = strcspn(p, "/"), cl = strlen(cur);

			fmt_into(ctl, sizeof(ctl), "%s/cgroup.subtree_control", cur);
			if (read_small(ctl, buf, sizeof(buf)) == 0 && !has_word(buf, "cpu")) {
				e = write_file(ctl, "+cpu");
				if (e) {
					fmt_into(h->note, sizeof(h->note), "enabling +cpu in %s: %s: %s",
						 ctl, strerror(-e), what);
					return 0;
				}
			}
			if (!*p)
				break;
			cur[cl] = '/';
			memcpy(cur + cl + 1, p, n);
			cur[cl + 1 + n] = 0;
			p += n;
			while (*p == '/')
				p++;
			if (!*p)
				break;
		}
		if (weight > 0) {
			fmt_into(ctl, sizeof(ctl), "%s/cpu.weight", h->dir);
			snprintf(wv, sizeof(wv), "%ld", weight);
			e = write_file(ctl, wv);
			if (e)
				fmt_into(h->note, sizeof(h->note), "%s: %s: %s",
					 ctl, strerror(-e), what);
			else
				h->weight_applied = 1;
		}
	}
	return 0;
undo:
	cg_remove(h);
	return -1;
}

int cg_enter(struct cg_handle *h, pid_t pid, char *err, size_t errlen)
{
	char path[4096 + 32], val[32];
	int e;

	if (pid == 0 && !h->orig[0] && cg_self(h->mnt, h->orig, sizeof(h->orig)))
		h->orig[0] = 0;
	fmt_into(path, sizeof(path), "%s/cgroup.procs", h->dir);
	snprintf(val, sizeof(val), "%d", pid ? pid : (int)getpid());
	e = write_file(path, val);
	if (e) {
		fmt_into(err, errlen, "moving pid %s into %s: %s", val, h->dir, strerror(-e));
		return -1;
	}
	return 0;
}

int cg_leave(struct cg_handle *h)
{
	char path[4096 + 32], val[32];

	if (!h->orig[0])
		return -1;
	fmt_into(path, sizeof(path), "%s/cgroup.procs", h->orig);
	snprintf(val, sizeof(val), "%d", (int)getpid());
	return write_file(path, val) ? -1 : 0;
}

int cg_remove(struct cg_handle *h)
{
	int rc = 0;

	while (h->ncreated > 0) {
		char *d = h->created[--h->ncreated];
		int tries;

		/* A cgroup empties asynchronously after its last task exits */
		for (tries = 0; rmdir(d) && errno == EBUSY && tries < 100; tries++)
			usleep(10000);
		if (access(d, F_OK) == 0)
			rc = -1;
		free(d);
	}
	return rc;
}

static uint64_t cg_find_id;
static char *cg_find_out;
static size_t cg_find_len, cg_find_mntlen;

static int cg_find_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D || st->st_ino != cg_find_id)
		return 0;
	fmt_into(cg_find_out, cg_find_len, "%s", path[cg_find_mntlen] ? path + cg_find_mntlen : "/");
	return 1;
}

int cg_path_of_id(const char *mnt, uint64_t id, char *out, size_t len)
{
	int rc;

	cg_find_id = id;
	cg_find_out = out;
	cg_find_len = len;
	cg_find_mntlen = strlen(mnt);
	rc = nftw(mnt, cg_find_cb, 32, FTW_PHYS | FTW_MOUNT);
	return rc == 1 ? 0 : -1;
}
