// SPDX-License-Identifier: GPL-2.0
/*
 * The wasted-core replay's cost on big machines, on the host: the code the
 * module's sampler runs (module/core/wasted_feed.c, wasted_replay.c) fed
 * a synthetic stream of change records, as the hot path writes them into
 * each CPU's log, at 8 to 1,024 CPUs.
 *
 *   replay_bench [-c CPUS] [-r CHANGES_PER_S_PER_CPU] [-i IDLE_PCT] [-w WAITERS]
 *                [-g CGROUPS] [-m MS] [-t]
 *
 * The machine: SMT pairs, 16-CPU LLCs (MC), 64-CPU packages, the whole
 * machine as NUMA above that.  A busy CPU holds on average WAITERS
 * waiters (any CPU may take them, in CGROUPS cgroups); an idle CPU holds
 * none; IDLE_PCT of the CPUs are idle at any time; changes (a waiter
 * joins or leaves, a CPU turns idle or busy) arrive at
 * CHANGES_PER_S_PER_CPU on every CPU.  Every millisecond of stream time
 * is one sample: the records are copied from the logs (as the sampler
 * does), sorted, replayed, and every idle CPU's piece closed.  Only that
 * is timed (the thread's CPU time), not the stream's generation.
 *
 * Prints per configuration the ns per change and the share of the
 * machine's CPU time it costs at that rate, and with -t the targets lines
 * of `make bench`.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "work.c"
#include "wasted_core.c"
#include "wasted_replay.c"
#include "wasted_feed.c"

struct cfg {
	u32 cpus, rate, idle_pct, waiters, cgroups, ms;
};

static u64 thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u32 rs = 88172645;

static u32 rnd(u32 n)
{
	rs ^= rs << 13;
	rs ^= rs >> 17;
	rs ^= rs << 5;
	return rs % n;
}

struct sim_cpu {
	bool busy;
	u32 n;			/* waiters */
	u32 cg[64];		/* their cgroups (first n) */
};

static struct wasted_log *logs;
static struct sim_cpu *sim;

static void put(u32 cpu, u64 t, u8 op, u8 flags, u64 cgid, u32 n)
{
	struct wasted_log *lg = &logs[cpu];
	struct wasted_rec *e = &lg->ent[lg->head % WASTED_LOG];

	e->stamp = t;
	e->op = op;
	e->flags = flags;
	e->cgid = cgid;
	e->n = n;
	e->kind = WR_ANY;
	e->slot = 0;
	lg->head++;
}

/* one change of the stream on a random CPU at @t */
static void change(const struct cfg *c, u64 t, u32 *nidle)
{
	u32 cpu = rnd(c->cpus), want_idle = c->cpus * c->idle_pct / 100;
	struct sim_cpu *s = &sim[cpu];
	/* a tenth of the changes turn CPUs idle or busy, keeping the idle share */
	bool toggle = rnd(10) == 0;

	if (toggle) {
		if (s->busy && *nidle < want_idle) {
			while (s->n) {	/* its queue empties first */
				s->n--;
				put(cpu, t, WF_DEL, 0, 7 * (s->cg[s->n] + 1), 1);
			}
			s->busy = false;
			(*nidle)++;
			put(cpu, t, WF_STATE, 0, 0, 0);
			return;
		}
		if (!s->busy && *nidle > want_idle) {
			s->busy = true;
			(*nidle)--;
			put(cpu, t, WF_STATE, WF_BUSY, 0, 0);
			return;
		}
	}
	if (!s->busy)
		return;
	/* keep about c->waiters on it */
	if (s->n < 64 && (s->n == 0 || rnd(2 * c->waiters + 1) >= s->n)) {
		s->cg[s->n] = rnd(c->cgroups);
		put(cpu, t, WF_ADD, 0, 7 * (s->cg[s->n] + 1), 1);
		s->n++;
	} else if (s->n) {
		u32 k = rnd(s->n);

		put(cpu, t, WF_DEL, 0, 7 * (s->cg[k] + 1), 1);
		s->cg[k] = s->cg[--s->n];
	}
}

static void topo_server(struct wasted_topo *t, u32 n)
{
	static const u32 size[] = { 2, 16, 64, 1u << 30 };
	static const u8 lvl[] = { WASTED_LVL_SMT, WASTED_LVL_MC, WASTED_LVL_PKG, WASTED_LVL_NUMA };
	u32 c, l, k, nl;

	for (c = 0; c < n; c++) {
		nl = 0;
		for (l = 0; l < 4; l++) {
			u32 sz = size[l] < n ? size[l] : n;
			u64 *s = wasted_topo_span(t, c, nl);

			if (l && size[l - 1] >= n)
				break;
			for (k = (c / sz) * sz; k < (c / sz + 1) * sz && k < n; k++)
				s[k / 64] |= (u64)1 << (k % 64);
			t->slot[c * WASTED_MAX_DOMAINS + nl] = lvl[l];
			nl++;
		}
		t->nlev[c] = nl;
	}
}

struct result {
	double ns_per_change, share_pct, sustain_per_cpu, sample_us;
	u64 changes, samples;
};

static struct result run(const struct cfg *c)
{
	u32 n = c->cpus, words = (n + 63) / 64, dom_cap = 4 * n + 8, cap = 1 << 22, i, nidle = 0;
	struct wasted_topo t = { n, words, calloc(n, 1), calloc(n, WASTED_MAX_DOMAINS),
				 calloc((size_t)n * WASTED_MAX_DOMAINS * words, 8) };
	void *mem = calloc(1, wr_bytes(n, dom_cap));
	struct wr_replay *r = calloc(1, sizeof(*r));
	struct wf *f = calloc(1, sizeof(*f));
	struct wf_cpu *fc = calloc(n, sizeof(*fc));
	struct wf_step *steps = malloc((size_t)cap * sizeof(*steps));
	struct wf_sort *so = malloc((size_t)cap * sizeof(*so)), *tmp = malloc((size_t)cap * sizeof(*tmp));
	u64 t0 = 1000000, now = t0, step, spent = 0, changes = 0, samples = 0, late;
	u32 warm = 50, total = c->ms + warm, s;
	struct result res;

	logs = calloc(n, sizeof(*logs));
	sim = calloc(n, sizeof(*sim));
	topo_server(&t, n);
	if (wr_init(r, mem, n, dom_cap, &t, now)) {
		fprintf(stderr, "replay_bench: wr_init failed at %u CPUs\n", n);
		exit(2);
	}
	wf_init(f, n, fc, steps, so, tmp, cap);
	/* every CPU starts busy: a snapshot each */
	for (i = 0; i < n; i++) {
		sim[i].busy = true;
		put(i, now, WF_SNAP, WF_BUSY, 0, 0);
	}
	step = 1000000000ULL / ((u64)c->rate * n);
	if (!step)
		step = 1;
	for (s = 0; s < total; s++) {
		u64 end = now + 1000000, t1, before = f->st.records;

		/* the stream of this millisecond (not timed) */
		for (; now < end; now += step)
			change(c, now, &nidle);
		now = end;
		/* the sampler: copy, sort, replay, close (timed) */
		t1 = thread_ns();
		f->n = 0;
		for (i = 0; i < n; i++) {
			struct wasted_log *lg = &logs[i];
			u32 h = lg->head;

			if (h - fc[i].tail > WASTED_LOG) {
				wf_lost(f, r, end - 1000000, i);
				fc[i].tail = h;
				lg->want_snap = 1;
				continue;
			}
			for (; fc[i].tail != h && f->n < cap; fc[i].tail++) {
				f->steps[f->n].rec = lg->ent[fc[i].tail % WASTED_LOG];
				f->steps[f->n++].cpu = i;
			}
		}
		wf_replay(f, r, end - 1000000, &late);
		wr_sample_close(r, end, NULL);
		for (i = 0; i < n; i++) {
			struct wr_pieces *p = &r->cpu[i].p;

			if (p->none | p->unknown | p->vd | p->busy)
				memset(p, 0, sizeof(*p));
		}
		if (s >= warm) {
			spent += thread_ns() - t1;
			changes += f->st.records - before;
			samples++;
		}
		/* a CPU that lost records starts a snapshot (as the hot path would) */
		for (i = 0; i < n; i++)
			if (logs[i].want_snap) {
				u32 k;

				logs[i].want_snap = 0;
				put(i, now, WF_SNAP, sim[i].busy ? WF_BUSY : 0, 0, 0);
				for (k = 0; k < sim[i].n; k++)
					put(i, now, WF_ADD, 0, 7 * (sim[i].cg[k] + 1), 1);
			}
	}
	res.changes = changes;
	res.samples = samples;
	res.ns_per_change = changes ? (double)spent / changes : 0;
	res.sample_us = samples ? (double)spent / samples / 1000 : 0;
	/* the replay's CPU time over the machine's: one thread's per sample over n CPUs' ms */
	res.share_pct = samples ? 100.0 * spent / ((double)samples * 1000000.0 * n) : 0;
	res.sustain_per_cpu = res.ns_per_change > 0 ? 1e9 / res.ns_per_change / n : 0;
	if (f->st.lost)
		fprintf(stderr, "replay_bench: %llu CPUs lost records (log of %u too small for the rate)\n",
			(unsigned long long)f->st.lost, WASTED_LOG);
	free(t.nlev);
	free(t.slot);
	free(t.span);
	free(mem);
	free(r);
	free(f);
	free(fc);
	free(steps);
	free(so);
	free(tmp);
	free(logs);
	free(sim);
	return res;
}

static void usage(void)
{
	fprintf(stderr, "usage: replay_bench [-c CPUS] [-r CHANGES_PER_S_PER_CPU] [-i IDLE_PCT] "
		"[-w WAITERS] [-g CGROUPS] [-m MS] [-t]\n");
	exit(2);
}

static u32 num(const char *s, u32 lo, u32 hi)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "replay_bench: %s is not a number in %u..%u\n", s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const u32 sizes[] = { 8, 64, 256, 1024 };
	static const u32 waiters[] = { 1, 8 };
	struct cfg base = { 0, 10000, 25, 0, 16, 200 };
	double worst[4] = { 0 };
	bool targets = false;
	u32 one = 0, onew = 0, i, k;
	int o;

	while ((o = getopt(argc, argv, "c:r:i:w:g:m:t")) != -1) {
		switch (o) {
		case 'c':
			one = num(optarg, 2, 4096);
			break;
		case 'r':
			base.rate = num(optarg, 100, 10000000);
			break;
		case 'i':
			base.idle_pct = num(optarg, 0, 100);
			break;
		case 'w':
			onew = num(optarg, 1, 32);
			break;
		case 'g':
			base.cgroups = num(optarg, 1, 200);
			break;
		case 'm':
			base.ms = num(optarg, 10, 100000);
			break;
		case 't':
			targets = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	printf("# wasted-core replay on the host: %u changes/s per CPU, %u%% idle, %u cgroups, "
	       "%u ms of stream per configuration (the sampler's code: core/wasted_feed.c, wasted_replay.c)\n",
	       base.rate, base.idle_pct, base.cgroups, base.ms);
	printf("%-6s %-8s %14s %12s %14s %18s\n", "cpus", "waiters", "ns/change", "us/sample",
	       "machine share", "sustains/CPU (/s)");
	for (i = 0; i < 4; i++) {
		if (one && sizes[i] != one)
			continue;
		for (k = 0; k < 2; k++) {
			struct cfg c = base;
			struct result res;

			if (onew && waiters[k] != onew)
				continue;
			c.cpus = sizes[i];
			c.waiters = waiters[k];
			res = run(&c);
			printf("%-6u %-8u %14.1f %12.1f %13.4f%% %18.0f\n", c.cpus, c.waiters,
			       res.ns_per_change, res.sample_us, res.share_pct, res.sustain_per_cpu);
			if (res.ns_per_change > worst[i])
				worst[i] = res.ns_per_change;
		}
	}
	/* what the module allocates for these at load (module/wasted.c, wasted_alloc()) */
	printf("# memory at load: the replay's tables (wr_bytes), the per-CPU logs (%zu B each), "
	       "the sort buffers (%u records per CPU)\n", sizeof(struct wasted_log), WASTED_LOG);
	for (i = 0; i < 4; i++) {
		u64 n = sizes[i], cap = n * WASTED_LOG;
		u64 tab = wr_bytes(n, 4 * n + 8), lg = n * sizeof(struct wasted_log),
		    so = cap * (sizeof(struct wf_step) + 2 * sizeof(struct wf_sort));

		if (one && sizes[i] != one)
			continue;
		printf("wasted replay memory at %u CPUs: tables %.1f MB, logs %.1f MB, sort buffers %.1f MB, total %.1f MB\n",
		       sizes[i], tab / 1e6, lg / 1e6, so / 1e6, (tab + lg + so) / 1e6);
	}
	if (targets)
		for (i = 2; i < 4; i++) {
			if (one && sizes[i] != one)
				continue;
			printf("wasted replay ns per change at %u CPUs  %.0f  target <= 100%s\n", sizes[i],
			       worst[i], worst[i] <= 100 ? "" : "  not met");
		}
	return 0;
}
