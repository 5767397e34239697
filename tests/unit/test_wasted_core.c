// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/core/wasted_core.c (level names, the per-CPU
 * accumulators: right-endpoint rule, stretches, the error bound, the
 * attribution table) and of the replay's answers in named situations
 * (core/wasted_replay.c, which the random cross-check of
 * test_wasted_replay.c compares with a second implementation): one
 * CPU's class and level, the cgroups charged and each waiter's wait
 * class.  Topology: 6 CPUs in 3 packages, {0,1} {2,3} {4,5}, domains MC
 * (the package) and DIE (all), as the VM; and machines of 128 and 1,024
 * CPUs whose restricted masks lie past the first word (and past CPU 256):
 * there a waiter goes the whole way the module takes it, from its full
 * cpumask through the work summary's window (work.c), the change records
 * (wasted_feed.c) into the replay.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "work.c"
#include "wasted_core.c"
#include "wasted_replay.c"
#include "wasted_feed.c"

#define N 6

static u8 nlev[N], slot[N * WASTED_MAX_DOMAINS];
static u64 span[N * WASTED_MAX_DOMAINS];
static struct wasted_topo topo = { N, 1, nlev, slot, span };
static struct wr_replay R;
static void *mem;
static u64 now;

static void topo_vm(void)
{
	int c;

	for (c = 0; c < N; c++) {
		nlev[c] = 2;
		slot[c * WASTED_MAX_DOMAINS] = WASTED_LVL_MC;
		slot[c * WASTED_MAX_DOMAINS + 1] = WASTED_LVL_DIE;
		*wasted_topo_span(&topo, c, 0) = (u64)3 << (c & ~1);
		*wasted_topo_span(&topo, c, 1) = 0x3f;
	}
}

/* every CPU idle, no waiter */
static void reset(void)
{
	int c;

	free(mem);
	mem = calloc(1, wr_bytes(N, 64));
	memset(&R, 0, sizeof(R));
	now = 1000;
	wr_init(&R, mem, N, 64, &topo, now);
	for (c = 0; c < N; c++)
		wr_set_state(&R, now, c, WR_IDLE);
}

static void busy(int cpu)
{
	wr_set_state(&R, now, cpu, WR_BUSY);
}

/* one waiter on @cpu (which becomes busy); @mask: its CPUs if restricted */
static void waiter(int cpu, u8 kind, u64 mask, u64 cgid)
{
	struct wr_key k = { .cgid = cgid, .kind = kind };

	busy(cpu);
	if (kind == WR_RESTR) {
		u64 win[WR_MASK_WORDS] = { mask };

		k.mask = wr_mask(&R, now, 0, win);
	}
	wr_add(&R, now, cpu, &k, 1);
}

static int cls(int cpu, u8 *lvl)
{
	return wr_classify(&R, cpu, lvl);
}

/* the rows after 1000 ns more of the current state */
static struct wasted_cg_acc *row(u64 cgid)
{
	struct wr_cg *g = wr_cg_find(&R, cgid);

	return g ? &g->a : NULL;
}

static void run1000(void)
{
	now += 1000;
	wr_cgs_flush(&R, now);
}

/* ---- big machines: the summary's window, the records, the replay ---- */

#define NB		1024
#define NB_WORDS	(NB / 64)

static u8 bnlev[NB], bslot[NB * WASTED_MAX_DOMAINS];
static u64 bspan[NB * WASTED_MAX_DOMAINS * NB_WORDS];
static struct wasted_topo btopo = { 0, 0, bnlev, bslot, bspan };
static struct shadow_work bw[NB];
static struct wr_replay B;
static void *bmem;
static struct wf bf;
static struct wf_cpu bfc[NB];
static struct wf_step bsteps[64];
static struct wf_sort bso[64], btmp[64];
static u32 bn;
static u64 bnow;

static void bm_range(u64 *b, u32 lo, u32 hi)
{
	for (; lo <= hi; lo++)
		b[lo / 64] |= (u64)1 << (lo % 64);
}

static void big_rec(u32 cpu, struct wasted_rec r)
{
	r.stamp = bnow;
	bf.steps[bf.n].rec = r;
	bf.steps[bf.n++].cpu = cpu;
	if (bf.n == 64) {
		u64 late;

		wf_replay(&bf, &B, 0, &late);
	}
}

static void big_flush(void)
{
	u64 late;

	wf_replay(&bf, &B, 0, &late);
}

/*
 * @n CPUs (a multiple of 64): SMT pairs {2k, 2k+1}, MC the package of 64,
 * DIE all; every CPU busy with no waiter (a snapshot each), until the
 * test says otherwise.
 */
static void big_machine(u32 n)
{
	u32 c;

	bn = n;
	btopo.nr_cpus = n;
	btopo.words = n / 64;
	memset(bspan, 0, sizeof(bspan));
	for (c = 0; c < n; c++) {
		bnlev[c] = 3;
		bslot[c * WASTED_MAX_DOMAINS] = WASTED_LVL_SMT;
		bslot[c * WASTED_MAX_DOMAINS + 1] = WASTED_LVL_MC;
		bslot[c * WASTED_MAX_DOMAINS + 2] = WASTED_LVL_DIE;
		bm_range(wasted_topo_span(&btopo, c, 0), c & ~1u, c | 1u);
		bm_range(wasted_topo_span(&btopo, c, 1), c & ~63u, c | 63u);
		bm_range(wasted_topo_span(&btopo, c, 2), 0, n - 1);
	}
	memset(bw, 0, sizeof(bw));
	free(bmem);
	bmem = calloc(1, wr_bytes(n, 4 * n + 8));
	memset(&B, 0, sizeof(B));
	bnow = 1000;
	wr_init(&B, bmem, n, 4 * n + 8, &btopo, bnow);
	wf_init(&bf, n, bfc, bsteps, bso, btmp, 64);
	for (c = 0; c < n; c++)
		big_rec(c, (struct wasted_rec){ .op = WF_SNAP, .flags = WF_BUSY });
	big_flush();
}

static void big_idle(u32 lo, u32 hi)
{
	for (; lo <= hi; lo++)
		big_rec(lo, (struct wasted_rec){ .op = WF_STATE });
	big_flush();
}

/*
 * One waiter on @cpu allowed on CPUs @lo..@hi, noted from its full cpumask
 * as waiters.c notes it: the summary's window, its mask records when the
 * window is new, then the key.
 */
static void big_waiter(u32 cpu, u32 lo, u32 hi, u64 cgid, bool tracked)
{
	u64 mask[NB_WORDS] = { 0 };
	struct shadow_work *w = &bw[cpu];
	int slot;

	bm_range(mask, lo, hi);
	slot = shadow_work_note(w, SHADOW_WAITER_RESTRICTED, mask, bn / 64, 0);
	if (slot >= 0 && (slot & SHADOW_SLOT_NEW)) {
		slot &= ~SHADOW_SLOT_NEW;
		big_rec(cpu, (struct wasted_rec){ .op = WF_MASK, .slot = slot, .n = w->base[slot],
						  .cgid = w->restricted[slot][0],
						  .aux = w->restricted[slot][1] });
		big_rec(cpu, (struct wasted_rec){ .op = WF_MASK2, .slot = slot,
						  .cgid = w->restricted[slot][2],
						  .aux = w->restricted[slot][3] });
	}
	big_rec(cpu, (struct wasted_rec){ .op = WF_ADD, .cgid = cgid, .n = 1,
					  .kind = slot >= 0 ? WR_RESTR : WR_UNKNOWN,
					  .slot = slot >= 0 ? slot : 0,
					  .flags = tracked ? WF_TRK : 0 });
	big_flush();
}

/* are the CPUs of @lo..@hi all of class @cls (and, for WASTE, at @level)? */
static bool big_all(u32 lo, u32 hi, u8 cls, u8 level)
{
	u8 lvl;

	for (; lo <= hi; lo++)
		if (wr_classify(&B, lo, &lvl) != cls || (cls == WASTED_C_WASTE && lvl != level))
			return false;
	return true;
}

/* the rows after 1000 ns more of the current state */
static const struct wasted_cg_acc *big_row(u64 cgid)
{
	struct wr_cg *g = wr_cg_find(&B, cgid);

	return g ? &g->a : NULL;
}

static void big_run1000(void)
{
	bnow += 1000;
	wr_cgs_flush(&B, bnow);
}

static void big_tests(void)
{
	const struct wasted_cg_acc *g10, *g20, *g30;
	u8 lvl;
	int m01, m64;

	/*
	 * 128 CPUs: a waiter on cpu100 allowed on CPUs 64-65 only (its mask is
	 * recorded from word 1), CPUs 0-1 and 64-65 idle, the rest busy.
	 */
	big_machine(128);
	big_idle(0, 1);
	big_idle(64, 65);
	big_waiter(100, 64, 65, 10, false);
	tap_ok(bw[100].nr_restricted == 1 && bw[100].base[0] == 1 && !bw[100].unknown &&
	       bf.cpu[100].slot[0] >= 0 && B.mask[bf.cpu[100].slot[0]].base == 1,
	       "128 CPUs: a mask of CPUs 64-65 is recorded from word 1, and replayed so");
	tap_ok(big_all(64, 65, WASTED_C_WASTE, WASTED_LVL_MC),
	       "128 CPUs: idle CPUs 64-65 are wasted at MC while a waiter on cpu100 allowed on 64-65 waits (cpu64: class %u)",
	       wr_classify(&B, 64, &lvl));
	tap_ok(big_all(0, 1, WASTED_C_NONE, 0),
	       "128 CPUs: idle CPUs 0-1 are none for a waiter allowed on 64-65 only (cpu0: class %u)",
	       wr_classify(&B, 0, &lvl));
	big_run1000();
	g10 = big_row(10);
	tap_ok(g10 && g10->wait_idle_ns == 1000 && !g10->wait_busy_ns && !g10->wait_unknown_ns,
	       "128 CPUs: wait class of the 64-65 waiter with CPU 64 idle: idle");
	tap_ok(g10 && g10->wasted_ns == 2000,
	       "128 CPUs: CPUs 64-65's waste is charged to the 64-65 waiter's cgroup (2 x 1000 ns)");

	/* the same waiter with CPUs 0-1 idle only: every allowed CPU is busy */
	big_machine(128);
	big_idle(0, 1);
	big_waiter(100, 64, 65, 10, false);
	big_run1000();
	g10 = big_row(10);
	tap_ok(g10 && g10->wait_busy_ns == 1000 && !g10->wait_idle_ns && !g10->wasted_ns,
	       "128 CPUs: wait class of the 64-65 waiter with only CPUs 0-1 idle: busy, nothing wasted");

	/*
	 * Two cgroups: cgroup 10 waits on cpu100 for 64-65 and on cpu3 for 0-1
	 * (two windows, bases 1 and 0, in one cgroup), cgroup 20 on cpu2 for 0-1
	 * (tracked); CPUs 0-1 and 64-65 idle.
	 */
	big_machine(128);
	big_idle(0, 1);
	big_idle(64, 65);
	big_waiter(100, 64, 65, 10, false);
	big_waiter(2, 0, 1, 20, true);
	big_waiter(3, 0, 1, 10, false);
	tap_ok(big_all(0, 1, WASTED_C_WASTE, WASTED_LVL_MC) && big_all(64, 65, WASTED_C_WASTE, WASTED_LVL_MC),
	       "128 CPUs: CPUs 0-1 wasted at MC (waiters on cpus 2-3), 64-65 at MC (waiter on cpu100)");
	big_run1000();
	g10 = big_row(10);
	g20 = big_row(20);
	tap_ok(g10 && g20 && g10->wasted_ns == 4000 && g20->wasted_ns == 2000 &&
	       B.tracked.a.wasted_ns == 2000,
	       "128 CPUs: per-cgroup waste: cgroup 10 4000 (CPUs 0-1, 64-65: windows at words 0 and 1), cgroup 20 and tracked 2000 (CPUs 0-1)");
	m01 = bf.cpu[2].slot[0];
	m64 = bf.cpu[100].slot[0];
	tap_ok(m01 >= 0 && m64 >= 0 && m01 != m64 && B.mask[m01].bits[0] == B.mask[m64].bits[0] &&
	       B.mask[m01].base == 0 && B.mask[m64].base == 1,
	       "128 CPUs: CPUs 0-1 and CPUs 64-65 are the same window words at bases 0 and 1: two masks");

	/*
	 * 1,024 CPUs (16 packages of 64): a waiter on cpu900 allowed on CPUs
	 * 800-801 (window from word 12), a tracked one on cpu901 allowed on
	 * 960-961 (word 15, the last: its window runs past the machine's
	 * words), one on cpu902 allowed on 800 and 1023 (words 12-15); CPUs
	 * 32-33 (800-801's bits in word 0), 800-801, 960 and 1023 idle.
	 */
	big_machine(1024);
	big_idle(32, 33);
	big_idle(800, 801);
	big_idle(960, 960);
	big_idle(1023, 1023);
	big_waiter(900, 800, 801, 10, false);
	big_waiter(901, 960, 961, 20, true);
	{
		u64 mask[NB_WORDS] = { 0 };
		int slot;

		mask[800 / 64] |= (u64)1 << (800 % 64);
		mask[1023 / 64] |= (u64)1 << (1023 % 64);
		slot = shadow_work_note(&bw[902], SHADOW_WAITER_RESTRICTED, mask, 16, 0) & 0xff;
		big_rec(902, (struct wasted_rec){ .op = WF_MASK, .slot = slot, .n = bw[902].base[slot],
						  .cgid = bw[902].restricted[slot][0],
						  .aux = bw[902].restricted[slot][1] });
		big_rec(902, (struct wasted_rec){ .op = WF_MASK2, .slot = slot,
						  .cgid = bw[902].restricted[slot][2],
						  .aux = bw[902].restricted[slot][3] });
		big_rec(902, (struct wasted_rec){ .op = WF_ADD, .cgid = 30, .n = 1, .kind = WR_RESTR,
						  .slot = slot });
		big_flush();
	}
	tap_ok(bw[900].base[0] == 12 && bw[901].base[0] == 15 && bw[902].base[0] == 12 &&
	       !bw[900].unknown && !bw[901].unknown && !bw[902].unknown,
	       "1024 CPUs: masks past CPU 256 are recorded from words 12 and 15");
	tap_ok(big_all(800, 801, WASTED_C_WASTE, WASTED_LVL_DIE) && big_all(960, 960, WASTED_C_WASTE, WASTED_LVL_DIE) &&
	       big_all(1023, 1023, WASTED_C_WASTE, WASTED_LVL_DIE),
	       "1024 CPUs: idle CPUs 800-801, 960 and 1023 are wasted at DIE by waiters allowed there (cpu800: class %u)",
	       wr_classify(&B, 800, &lvl));
	tap_ok(big_all(32, 33, WASTED_C_NONE, 0),
	       "1024 CPUs: idle CPUs 32-33 are none: no waiter is allowed there (cpu32: class %u)",
	       wr_classify(&B, 32, &lvl));
	big_run1000();
	g10 = big_row(10);
	g20 = big_row(20);
	g30 = big_row(30);
	tap_ok(g10 && g20 && g30 && g10->wasted_ns == 2000 && g20->wasted_ns == 1000 && g30->wasted_ns == 2000,
	       "1024 CPUs: per-cgroup waste past CPU 256: cgroup 10 on 800-801, 20 on 960, 30 on 800 and 1023");
	tap_ok(B.tracked.a.wasted_ns == 1000, "1024 CPUs: the tracked waiter could run on CPU 960 only");
	tap_ok(g10 && g10->wait_idle_ns == 1000, "1024 CPUs: wait class of the 800-801 waiter with CPU 800 idle: idle");

	/* the same waiter with only CPUs 32-33 idle */
	big_machine(1024);
	big_idle(32, 33);
	big_waiter(900, 800, 801, 10, false);
	big_run1000();
	g10 = big_row(10);
	tap_ok(g10 && g10->wait_busy_ns == 1000 && !g10->wait_idle_ns && big_all(32, 33, WASTED_C_NONE, 0),
	       "1024 CPUs: wait class of the 800-801 waiter with only CPUs 32-33 idle: busy, and 32-33 none");
	free(bmem);
	bmem = NULL;
}

int main(void)
{
	struct wasted_cpu_acc acc;
	struct wasted_keys keys;
	struct wasted_out out[1];
	struct wasted_cg_acc *a, *b;
	u64 ended = 0, gap = 0;
	u8 lvl;
	int i;

	tap_begin("wasted_core");
	topo_vm();

	tap_ok(wasted_level_of("MC") == WASTED_LVL_MC && wasted_level_of("DIE") == WASTED_LVL_DIE &&
	       wasted_level_of("PKG") == WASTED_LVL_PKG && wasted_level_of("NUMA") == WASTED_LVL_NUMA &&
	       wasted_level_of("SMT") == WASTED_LVL_SMT && wasted_level_of("CLS") == WASTED_LVL_CLS,
	       "domain names map to their levels");
	tap_ok(wasted_level_of("MCX") == WASTED_LVL_OTHER && wasted_level_of("") == WASTED_LVL_OTHER,
	       "an unknown domain name is `other`");

	/*
	 * kSTEP's local group imbalance, on the VM: three hogs pinned to cpu3
	 * (one runs, two wait, pinned), three hogs allowed on 0-3 on cpus 0-1
	 * (one waits), cpu2 idle, cpus 4-5 idle.
	 */
	reset();
	busy(0);
	waiter(1, WR_RESTR, 0xf, 100);
	waiter(3, WR_PINNED, 0, 200);
	waiter(3, WR_PINNED, 0, 200);
	tap_ok(cls(2, &lvl) == WASTED_C_WASTE, "local imbalance: cpu2 idle while a 0-3 hog waits: wasted");
	tap_ok(lvl == WASTED_LVL_DIE,
	       "the nearest waiter for cpu2 is in the other package: DIE (cpu3's waiters are pinned)");
	tap_ok(cls(4, &lvl) == WASTED_C_NONE && cls(5, &lvl) == WASTED_C_NONE,
	       "cpus 4-5 idle, no waiter may run there: none");
	tap_ok(cls(0, &lvl) == WASTED_C_BUSY && cls(3, &lvl) == WASTED_C_BUSY, "busy CPUs are busy");
	run1000();
	a = row(100);
	b = row(200);
	tap_ok(a && b && a->wasted_ns == 1000 && b->wasted_ns == 0,
	       "cpu2's waste belongs to the hogs' cgroup only (not the pinned ones')");
	tap_ok(a && a->wait_idle_ns == 1000 && a->wait_busy_ns == 0,
	       "the 0-3 waiter waits while an allowed CPU (2) idles: balancer's share");
	tap_ok(b && b->wait_busy_ns == 2000 && b->wait_idle_ns == 0,
	       "pinned waiters wait with every allowed CPU busy: capacity");

	/* an `any` waiter on cpu3, cpus 0-1 busy */
	reset();
	waiter(3, WR_ANY, 0, 7);
	busy(0);
	busy(1);
	tap_ok(cls(2, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_MC, "an `any` waiter on cpu3: cpu2 wasted at MC");
	tap_ok(cls(4, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_DIE, "... and cpu4 at DIE");
	run1000();
	tap_ok(row(7) && row(7)->wasted_ns == 3000, "the waiter's cgroup: 3 wasted CPUs x 1000 ns");

	/* no domain spans the waiter (an isolated CPU): level none */
	nlev[2] = 0;
	reset();
	waiter(3, WR_ANY, 0, 7);
	tap_ok(cls(2, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_NONE,
	       "cpu2 in no domain: wasted at level none");
	nlev[2] = 2;

	/* restricted to 4-5 */
	reset();
	waiter(4, WR_RESTR, 0x30, 9);
	waiter(5, WR_RESTR, 0x30, 9);
	for (i = 0; i < 4; i++)
		if (cls(i, &lvl) != WASTED_C_NONE)
			break;
	tap_ok(i == 4, "waiters confined to 4-5: idle cpus 0-3 are not wasted");
	run1000();
	tap_ok(row(9) && row(9)->wait_busy_ns == 2000 && row(9)->wait_idle_ns == 0,
	       "... and their wait is capacity");

	/* unknown destinations */
	reset();
	waiter(3, WR_UNKNOWN, 0, 0);
	tap_ok(cls(2, &lvl) == WASTED_C_UNKNOWN && cls(4, &lvl) == WASTED_C_UNKNOWN,
	       "a waiter of unknown destinations: idle CPUs unknown, never none");
	run1000();
	tap_ok(R.unscanned.a.wait_ns == 1000 && R.unscanned.a.wait_unknown_ns == 1000,
	       "it is an unscanned waiter, no cgroup");

	/* a void CPU */
	reset();
	wr_set_state(&R, now, 5, WR_VOID);
	waiter(0, WR_ANY, 0, 7);
	busy(1);
	busy(2);
	busy(3);
	busy(4);
	tap_ok(cls(5, &lvl) == WASTED_C_VOID, "a void CPU reads void");
	run1000();
	tap_ok(row(7) && row(7)->wait_unknown_ns == 1000,
	       "an `any` waiter with no idle CPU but a void one: wait unknown");

	/* accumulators: pieces, stretches with short gaps, bound */
	/* accumulators: pieces, stretches with short gaps, bound */
	memset(&acc, 0, sizeof(acc));
	out[0].cls = WASTED_C_BUSY;
	tap_ok(!wasted_cpu_add(&acc, &out[0], 1000, &ended, &gap) && acc.sampled_ns == 1000 && !acc.idle_ns,
	       "a busy piece: sampled, no idle");
	out[0].cls = WASTED_C_WASTE;
	out[0].level = WASTED_LVL_DIE;
	wasted_cpu_add(&acc, &out[0], 1000, &ended, &gap);
	wasted_cpu_add(&acc, &out[0], 1500, &ended, &gap);
	tap_ok(acc.wasted_ns == 2500 && acc.level_ns[WASTED_LVL_DIE] == 2500 && acc.intervals == 1 &&
	       acc.stretch_ns == 2500, "two wasted pieces: one stretch of 2500");
	tap_ok(!acc.bound_ns, "pieces of known state add nothing to the bound");
	out[0].cls = WASTED_C_NONE;
	tap_ok(!wasted_cpu_add(&acc, &out[0], 700, &ended, &gap) && acc.in_stretch,
	       "a gap shorter than WASTED_STRETCH_GAP_NS does not end the stretch");
	out[0].cls = WASTED_C_WASTE;
	wasted_cpu_add(&acc, &out[0], 300, &ended, &gap);
	tap_ok(acc.intervals == 1 && acc.stretch_ns == 3500 && acc.wasted_ns == 2800,
	       "waste resumes: still one stretch (3500 with its gap), 2800 wasted");
	out[0].cls = WASTED_C_NONE;
	tap_ok(!wasted_cpu_add(&acc, &out[0], WASTED_STRETCH_GAP_NS, &ended, &gap) &&
	       wasted_cpu_add(&acc, &out[0], 1, &ended, &gap) && ended == 3500 &&
	       gap == WASTED_STRETCH_GAP_NS + 1 && acc.longest_ns == 3500 && !acc.in_stretch,
	       "a longer gap ends it: 3500 long, ended %llu ns before the piece's end", (unsigned long long)gap);
	tap_ok(acc.idle_ns == 2800 + 700 + WASTED_STRETCH_GAP_NS + 1, "idle counts wasted and not wasted time");
	out[0].cls = WASTED_C_UNKNOWN;
	wasted_cpu_add(&acc, &out[0], 300, &ended, &gap);
	tap_ok(acc.unknown_ns == 300 && acc.wasted_ns == 2800, "unknown time is its own");

	/* attribution rows */
	memset(&keys, 0, sizeof(keys));
	wasted_keys_add(&keys, wasted_key(WASTED_LVL_DIE, 2, 15, 0), 100, 2);
	wasted_keys_add(&keys, wasted_key(WASTED_LVL_DIE, 2, 15, 0), 50, 1);
	wasted_keys_add(&keys, wasted_key(WASTED_LVL_DIE, WASTED_V_NO_ATTEMPT, 0, 0), 10, 0);
	tap_ok(keys.nr == 2 && keys.k[0].ns == 150 && keys.k[0].attempts == 3,
	       "attribution: one row per key, time and attempts added");
	for (i = 0; i < WASTED_KEYS + 3; i++)
		wasted_keys_add(&keys, wasted_key(WASTED_LVL_MC, 1, i, 0), 1, 1);
	tap_ok(keys.nr == WASTED_KEYS && keys.other_ns == 5, "keys past the table go to other");
	tap_ok(WASTED_KEY_LEVEL(wasted_key(7, 15, 200, 9)) == 7 &&
	       WASTED_KEY_VERDICT(wasted_key(7, 15, 200, 9)) == 15 &&
	       WASTED_KEY_REASON(wasted_key(7, 15, 200, 9)) == 200 &&
	       WASTED_KEY_CAUSE(wasted_key(7, 15, 200, 9)) == 9, "key fields round-trip");

	big_tests();
	free(mem);
	return tap_end();
}
