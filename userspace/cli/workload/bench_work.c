// SPDX-License-Identifier: GPL-2.0
/*
 * The `bench` workload (see bench_work.h): message threads wake workers
 * through futexes, workers record their wakeup latency and burn CPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* aligned_alloc */
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include "cli/fmt.h"
#include "cli/workload/bench_work.h"

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
