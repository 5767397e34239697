// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/core/wasted_core.c, the code the module's
 * sampler runs: one sample's classification of every CPU (idle with a
 * waiter that could run there, idle without, unknown, void), the nearest
 * waiter's domain level, the cgroups whose waiters could run there, each
 * waiter's wait class (an allowed CPU idle / all busy / unknown), and the
 * accumulators (right-endpoint rule, stretches, the error bound, the
 * attribution and cgroup tables).  Topology: 6 CPUs in 3 packages,
 * {0,1} {2,3} {4,5}, domains MC (the package) and DIE (all), as the VM.
 * Then machines the VMs cannot boot, where a restricted waiter's mask is
 * recorded as a window that starts past the first 64-CPU word (struct
 * shadow_work's base[]): 128 CPUs (2 packages of 64: SMT pairs, MC, DIE)
 * and 1,024 CPUs (16 packages of 64), masks past CPU 256 included.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "work.c"
#include "wasted_core.c"

#define N 6

static u8 nlev[N], slot[N * WASTED_MAX_DOMAINS];
static u64 span[N * WASTED_MAX_DOMAINS];
static struct wasted_topo topo = { N, 1, nlev, slot, span };
static struct shadow_work w[N];
static struct shadow_wasted_ids ids[N];
static struct wasted_in in[N];
static struct wasted_out out[N];
static u64 bits[5 + WASTED_TICK_CGS + 1];
static u32 rsrc[N];
static struct wasted_scratch scr;

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

static void reset(void)
{
	int c;

	memset(w, 0, sizeof(w));
	memset(ids, 0, sizeof(ids));
	for (c = 0; c < N; c++) {
		in[c].state = WASTED_IN_IDLE;
		in[c].w = &w[c];
		in[c].ids = &ids[c];
		ids[c].valid = 1;
	}
	scr.words = 1;
	scr.idle = &bits[0];
	scr.voidm = &bits[1];
	scr.any_src = &bits[2];
	scr.unk_src = &bits[3];
	scr.yes = &bits[4];
	scr.dest = &bits[5];
	scr.rsrc = rsrc;
}

/* one waiter on @cpu (which becomes busy) */
static void waiter(int cpu, enum shadow_waiter_kind kind, u64 mask, u64 cgid)
{
	u8 k = kind == SHADOW_WAITER_ANY ? WASTED_W_ANY :
	       kind == SHADOW_WAITER_PINNED ? WASTED_W_PINNED :
	       w[cpu].nr_restricted < SHADOW_WORK_RESTRICTED ? WASTED_W_R0 + w[cpu].nr_restricted :
	       WASTED_W_UNKNOWN;

	in[cpu].state = WASTED_IN_BUSY;
	ids[cpu].kind[ids[cpu].nr] = k;
	ids[cpu].cgid[ids[cpu].nr++] = cgid;
	shadow_work_note(&w[cpu], kind, &mask, 1);
}

static void busy(int cpu)
{
	in[cpu].state = WASTED_IN_BUSY;
}

/* --- machines past the first 64-CPU word: 128 and 1,024 CPUs --- */
#define NB		1024
#define NB_WORDS	(NB / 64)

static u8 bnlev[NB], bslot[NB * WASTED_MAX_DOMAINS];
static u64 bspan[NB * WASTED_MAX_DOMAINS * NB_WORDS];
static struct wasted_topo btopo = { 0, 0, bnlev, bslot, bspan };
static struct shadow_work bw[NB];
static struct shadow_wasted_ids bids[NB];
static struct wasted_in bin[NB];
static struct wasted_out bout[NB];
static u32 brsrc[NB];
static struct wasted_scratch bscr;

static void bm_range(u64 *b, u32 lo, u32 hi)
{
	for (; lo <= hi; lo++)
		b[lo / 64] |= (u64)1 << (lo % 64);
}

/*
 * @n CPUs (a multiple of 64): SMT pairs {2k, 2k+1}, MC the package of 64,
 * DIE all; every CPU busy with no waiter, until the test says otherwise.
 * The scratch bitmaps are heap blocks of exactly @n bits (the sanitizer
 * sees an access past them).
 */
static void big_machine(u32 n)
{
	u32 words = n / 64, c;

	btopo.nr_cpus = n;
	btopo.words = words;
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
	memset(bids, 0, sizeof(bids));
	for (c = 0; c < n; c++) {
		bin[c].state = WASTED_IN_BUSY;
		bin[c].w = &bw[c];
		bin[c].ids = &bids[c];
		bids[c].valid = 1;
	}
	free(bscr.idle);
	bscr.words = words;
	bscr.idle = calloc((5 + WASTED_TICK_CGS + 1) * words, sizeof(u64));
	bscr.voidm = bscr.idle + words;
	bscr.any_src = bscr.idle + 2 * words;
	bscr.unk_src = bscr.idle + 3 * words;
	bscr.yes = bscr.idle + 4 * words;
	bscr.dest = bscr.idle + 5 * words;
	bscr.rsrc = brsrc;
}

static void big_idle(u32 lo, u32 hi)
{
	for (; lo <= hi; lo++)
		bin[lo].state = WASTED_IN_IDLE;
}

/* one waiter on @cpu allowed on CPUs @lo..@hi, noted from its full cpumask */
static void big_waiter(u32 cpu, u32 lo, u32 hi, u64 cgid, bool tracked)
{
	u64 mask[NB_WORDS] = { 0 };
	struct shadow_work *w = &bw[cpu];
	u8 k = w->nr_restricted < SHADOW_WORK_RESTRICTED ? WASTED_W_R0 + w->nr_restricted :
	       WASTED_W_UNKNOWN;

	bm_range(mask, lo, hi);
	bin[cpu].state = WASTED_IN_BUSY;
	bids[cpu].kind[bids[cpu].nr] = k | (tracked ? WASTED_W_TRACKED : 0);
	bids[cpu].cgid[bids[cpu].nr++] = cgid;
	shadow_work_note(w, SHADOW_WAITER_RESTRICTED, mask, btopo.words);
}

/* the tick slot of @cgid, -1 if none */
static int big_cg(u64 cgid)
{
	u32 i;

	for (i = 0; i < bscr.nr_cg; i++)
		if (bscr.cg[i].cgid == cgid)
			return i;
	return -1;
}

/* are the CPUs of @lo..@hi all of class @cls (and, for WASTE, at @level)? */
static bool big_all(u32 lo, u32 hi, u8 cls, u8 level)
{
	for (; lo <= hi; lo++)
		if (bout[lo].cls != cls || (cls == WASTED_C_WASTE && bout[lo].level != level))
			return false;
	return true;
}

static void big_tests(void)
{
	static struct wasted_cgs cgs;
	static struct wasted_state st;
	int g10, g20;

	/*
	 * 128 CPUs: a waiter on cpu100 allowed on CPUs 64-65 only (its mask is
	 * recorded from word 1), CPUs 0-1 and 64-65 idle, the rest busy.
	 */
	big_machine(128);
	big_idle(0, 1);
	big_idle(64, 65);
	big_waiter(100, 64, 65, 10, false);
	wasted_classify(&btopo, bin, 128, &bscr, bout);
	tap_ok(bw[100].nr_restricted == 1 && bw[100].base[0] == 1 && !bw[100].unknown,
	       "128 CPUs: a mask of CPUs 64-65 is recorded from word 1");
	tap_ok(big_all(64, 65, WASTED_C_WASTE, WASTED_LVL_MC),
	       "128 CPUs: idle CPUs 64-65 are wasted at MC while a waiter on cpu100 allowed on 64-65 waits (cpu64: class %u level %u)",
	       bout[64].cls, bout[64].level);
	tap_ok(big_all(0, 1, WASTED_C_NONE, 0),
	       "128 CPUs: idle CPUs 0-1 are none for a waiter allowed on 64-65 only (cpu0: class %u)",
	       bout[0].cls);
	g10 = big_cg(10);
	tap_ok(g10 == 0 && bscr.cg[0].n_idle == 1 && !bscr.cg[0].n_busy && !bscr.cg[0].n_unknown,
	       "128 CPUs: wait class of the 64-65 waiter with CPU 64 idle: idle (%u idle, %u busy)",
	       bscr.cg[0].n_idle, bscr.cg[0].n_busy);
	tap_ok(g10 == 0 && bout[64].cgs == 1 && bout[65].cgs == 1 && !bout[64].cg_other,
	       "128 CPUs: CPUs 64-65's waste is charged to the 64-65 waiter's cgroup");

	/* the same waiter with CPUs 0-1 idle only: every allowed CPU is busy */
	big_machine(128);
	big_idle(0, 1);
	big_waiter(100, 64, 65, 10, false);
	wasted_classify(&btopo, bin, 128, &bscr, bout);
	tap_ok(bscr.nr_cg == 1 && bscr.cg[0].n_busy == 1 && !bscr.cg[0].n_idle,
	       "128 CPUs: wait class of the 64-65 waiter with only CPUs 0-1 idle: busy (%u idle, %u busy)",
	       bscr.cg[0].n_idle, bscr.cg[0].n_busy);

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
	wasted_classify(&btopo, bin, 128, &bscr, bout);
	g10 = big_cg(10);
	g20 = big_cg(20);
	tap_ok(g10 >= 0 && g20 >= 0 && big_all(0, 1, WASTED_C_WASTE, WASTED_LVL_MC) &&
	       big_all(64, 65, WASTED_C_WASTE, WASTED_LVL_MC),
	       "128 CPUs: CPUs 0-1 wasted at MC (waiters on cpus 2-3), 64-65 at MC (waiter on cpu100)");
	tap_ok(g10 >= 0 && g20 >= 0 && bout[64].cgs == (u64)1 << g10 && bout[65].cgs == (u64)1 << g10,
	       "128 CPUs: cgroup destinations: CPUs 64-65's waste is cgroup 10's only (cgs %#llx)",
	       (unsigned long long)bout[64].cgs);
	tap_ok(g10 >= 0 && g20 >= 0 && bout[0].cgs == ((u64)1 << g10 | (u64)1 << g20),
	       "128 CPUs: cgroup destinations: CPUs 0-1's waste is both cgroups' (cgroup 10's windows at words 0 and 1 in one union)");
	tap_ok(bout[0].trk && bout[1].trk && !bout[64].trk && !bout[65].trk,
	       "128 CPUs: the tracked 0-1 waiter could run on CPUs 0-1, not on 64-65");
	memset(&cgs, 0, sizeof(cgs));
	wasted_cgs_add(&cgs, &bscr, bout, 128, 1000);
	tap_ok(wasted_cg_get(&cgs, 10)->wasted_ns == 4000 && wasted_cg_get(&cgs, 20)->wasted_ns == 2000 &&
	       cgs.tracked.wasted_ns == 2000,
	       "128 CPUs: per-cgroup waste: cgroup 10 4000 (CPUs 0-1, 64-65), cgroup 20 and tracked 2000 (CPUs 0-1)");

	/* the change log: a mask of CPUs 0-1 and one of CPUs 64-65 differ */
	big_machine(128);
	big_waiter(100, 0, 1, 10, false);
	st.busy = 1;
	st.work = bw[100];
	st.ids = bids[100];
	big_machine(128);
	big_waiter(100, 64, 65, 10, false);
	tap_ok(st.work.base[0] == 0 && bw[100].base[0] == 1 &&
	       st.work.restricted[0][0] == bw[100].restricted[0][0],
	       "128 CPUs: CPUs 0-1 and CPUs 64-65 are the same window words at bases 0 and 1");
	tap_ok(!wasted_state_same(&st, true, &bw[100], &bids[100]),
	       "state: a waiter allowed on CPUs 0-1 and one allowed on CPUs 64-65 differ (the window's base)");
	st.work = bw[100];
	tap_ok(wasted_state_same(&st, true, &bw[100], &bids[100]),
	       "state: the same 64-65 waiter is no change");

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
	big_waiter(902, 800, 800, 30, false);
	big_waiter(902, 1023, 1023, 30, false);
	wasted_classify(&btopo, bin, 1024, &bscr, bout);
	tap_ok(bw[900].base[0] == 12 && bw[901].base[0] == 15 && bw[902].base[0] == 12 &&
	       !bw[900].unknown && !bw[901].unknown && !bw[902].unknown,
	       "1024 CPUs: masks past CPU 256 are recorded from words 12 and 15");
	tap_ok(big_all(800, 801, WASTED_C_WASTE, WASTED_LVL_DIE) && bout[960].cls == WASTED_C_WASTE &&
	       bout[960].level == WASTED_LVL_DIE,
	       "1024 CPUs: idle CPUs 800-801 and 960 are wasted at DIE by waiters allowed there (cpu800: class %u level %u)",
	       bout[800].cls, bout[800].level);
	tap_ok(big_all(32, 33, WASTED_C_NONE, 0),
	       "1024 CPUs: idle CPUs 32-33 are none: no waiter is allowed there (cpu32: class %u)", bout[32].cls);
	g10 = big_cg(10);
	g20 = big_cg(20);
	tap_ok(g10 >= 0 && g20 >= 0 && big_cg(30) >= 0 &&
	       bout[800].cgs == ((u64)1 << g10 | (u64)1 << big_cg(30)) && bout[960].cgs == (u64)1 << g20 &&
	       bout[1023].cgs == (u64)1 << big_cg(30),
	       "1024 CPUs: cgroup destinations past CPU 256: 800 for cgroups 10 and 30, 960 for 20, 1023 for 30");
	tap_ok(bout[960].trk && !bout[800].trk && !bout[1023].trk,
	       "1024 CPUs: the tracked waiter could run on CPU 960 only");
	tap_ok(g10 >= 0 && bscr.cg[g10].n_idle == 1 && !bscr.cg[g10].n_busy,
	       "1024 CPUs: wait class of the 800-801 waiter with CPU 800 idle: idle");

	/* the same waiter with only CPUs 32-33 idle */
	big_machine(1024);
	big_idle(32, 33);
	big_waiter(900, 800, 801, 10, false);
	wasted_classify(&btopo, bin, 1024, &bscr, bout);
	tap_ok(bscr.nr_cg == 1 && bscr.cg[0].n_busy == 1 && !bscr.cg[0].n_idle &&
	       big_all(32, 33, WASTED_C_NONE, 0),
	       "1024 CPUs: wait class of the 800-801 waiter with only CPUs 32-33 idle: busy, and 32-33 none");
}

int main(void)
{
	struct wasted_cpu_acc acc;
	struct wasted_keys keys;
	static struct wasted_cgs cgs;
	struct wasted_cg_acc *a;
	u64 ended = 0, gap = 0;
	int c, i, ok;

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
	waiter(1, SHADOW_WAITER_RESTRICTED, 0xf, 100);
	waiter(3, SHADOW_WAITER_PINNED, 0, 200);
	waiter(3, SHADOW_WAITER_PINNED, 0, 200);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[2].cls == WASTED_C_WASTE, "local imbalance: cpu2 idle while a 0-3 hog waits: wasted");
	tap_ok(out[2].level == WASTED_LVL_DIE,
	       "the nearest waiter for cpu2 is in the other package: DIE (cpu3's waiters are pinned)");
	tap_ok(out[4].cls == WASTED_C_NONE && out[5].cls == WASTED_C_NONE,
	       "cpus 4-5 idle, no waiter may run there: none");
	tap_ok(out[0].cls == WASTED_C_BUSY && out[3].cls == WASTED_C_BUSY, "busy CPUs are busy");
	tap_ok(scr.nr_cg == 2 && out[2].cgs == 1 && !out[2].cg_other,
	       "cpu2's waste belongs to the hogs' cgroup only (not the pinned ones')");
	tap_ok(scr.cg[0].n_idle == 1 && scr.cg[0].n_busy == 0,
	       "the 0-3 waiter waits while an allowed CPU (2) idles: balancer's share");
	tap_ok(scr.cg[1].n_busy == 2 && scr.cg[1].n_idle == 0,
	       "pinned waiters wait with every allowed CPU busy: capacity");

	/* the same with the waiter on cpu3's sibling side: MC */
	reset();
	busy(3);
	waiter(3, SHADOW_WAITER_ANY, 0, 7);
	busy(0);
	busy(1);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[2].cls == WASTED_C_WASTE && out[2].level == WASTED_LVL_MC,
	       "an `any` waiter on cpu3: cpu2 wasted at MC");
	tap_ok(out[4].cls == WASTED_C_WASTE && out[4].level == WASTED_LVL_DIE,
	       "... and cpu4 at DIE");
	tap_ok(out[2].cgs == 1 && out[4].cgs == 1, "both charged to the waiter's cgroup");

	/* no domain spans the waiter (isolated CPU): level none */
	nlev[2] = 0;
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[2].cls == WASTED_C_WASTE && out[2].level == WASTED_LVL_NONE,
	       "a CPU without domains still wastes, at level none");
	topo_vm();

	/* a cpuset-restricted socket: waiters allowed on 4-5 only */
	reset();
	busy(4);
	busy(5);
	waiter(4, SHADOW_WAITER_RESTRICTED, 0x30, 9);
	waiter(5, SHADOW_WAITER_RESTRICTED, 0x30, 9);
	wasted_classify(&topo, in, N, &scr, out);
	ok = 1;
	for (c = 0; c < 4; c++)
		ok &= out[c].cls == WASTED_C_NONE;
	tap_ok(ok, "waiters confined to 4-5: idle cpus 0-3 are not wasted");
	tap_ok(scr.cg[0].n_busy == 2 && scr.cg[0].n_idle == 0,
	       "... and their waits are capacity (every allowed CPU busy)");

	/* unknown: a waiter past the scan */
	reset();
	busy(3);
	w[3].unknown = 1;
	busy(0);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[2].cls == WASTED_C_UNKNOWN && out[4].cls == WASTED_C_UNKNOWN,
	       "a waiter of unknown affinity: idle CPUs are unknown, not wasted, not none");
	tap_ok(scr.unscanned == 1 && scr.nr_cg == 0, "it is an unscanned waiter, no cgroup");

	/* unknown wins over none, waste wins over unknown */
	waiter(0, SHADOW_WAITER_RESTRICTED, 0x3, 5);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[1].cls == WASTED_C_WASTE && out[2].cls == WASTED_C_UNKNOWN,
	       "a known waiter for cpu1 makes it wasted; cpu2 stays unknown");

	/* a void CPU: its own class is void, others' unknown */
	reset();
	in[5].state = WASTED_IN_VOID;
	busy(0);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[5].cls == WASTED_C_VOID && out[2].cls == WASTED_C_UNKNOWN,
	       "an unreadable CPU is void, and may hold waiters: idle CPUs unknown");
	waiter(0, SHADOW_WAITER_ANY, 0, 3);
	busy(1);
	in[2].state = WASTED_IN_BUSY;
	in[3].state = WASTED_IN_BUSY;
	in[4].state = WASTED_IN_BUSY;
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(scr.cg[0].n_unknown == 1, "an `any` waiter with no idle CPU but a void one: wait unknown");

	/* a restricted waiter whose mask the summary could not keep */
	reset();
	for (i = 0; i < SHADOW_WORK_RESTRICTED + 1; i++)
		waiter(0, SHADOW_WAITER_RESTRICTED, 0x7, 11);
	wasted_classify(&topo, in, N, &scr, out);
	tap_ok(out[2].cls == WASTED_C_WASTE && scr.cg[0].n_unknown == 1 && scr.cg[0].n_idle == 4,
	       "four masks kept, the fifth waiter's wait is unknown (no unscanned: %u)", scr.unscanned);
	tap_ok(scr.unscanned == 0, "a noted waiter without a mask is not unscanned");

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

	/* the change log appends only changes */
	{
		static struct wasted_state st;
		struct shadow_wasted_ids id2;

		reset();
		waiter(1, SHADOW_WAITER_RESTRICTED, 0xf, 100);
		st.busy = 1;
		st.work = w[1];
		st.ids = ids[1];
		tap_ok(wasted_state_same(&st, true, &w[1], &ids[1]), "state: the same state is no change");
		tap_ok(!wasted_state_same(&st, false, &w[1], &ids[1]), "state: busy -> idle is a change");
		id2 = ids[1];
		id2.cgid[0] = 101;
		tap_ok(!wasted_state_same(&st, true, &w[1], &id2), "state: a waiter of another cgroup is a change");
		w[1].restricted[0][0] = 0x7;
		tap_ok(!wasted_state_same(&st, true, &w[1], &ids[1]), "state: another mask is a change");
		w[1].restricted[0][0] = 0xf;
		w[1].restricted[3][0] = 0xff;	/* past nr_restricted: not in use */
		tap_ok(wasted_state_same(&st, true, &w[1], &ids[1]), "state: masks past nr_restricted do not count");
	}

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

	/* cgroup table */
	memset(&cgs, 0, sizeof(cgs));
	a = wasted_cg_get(&cgs, 42);
	tap_ok(a && a->used && a->cgid == 42 && wasted_cg_get(&cgs, 42) == a, "cgroup slots are found again");
	for (i = 0; i < 2 * WASTED_CGS; i++)
		wasted_cg_get(&cgs, 1000 + i);
	tap_ok(wasted_cg_get(&cgs, 99999) == &cgs.other && cgs.nr <= WASTED_CGS,
	       "a full table sends new cgroups to other (%u slots used)", cgs.nr);
	ok = 1;
	for (i = 0; i < WASTED_CGS; i++)
		ok &= !cgs.slot[i].used || wasted_cg_get(&cgs, cgs.slot[i].cgid) == &cgs.slot[i];
	tap_ok(ok, "every inserted cgroup is still found");

	/* a sample's cgroup waits and waste */
	memset(&cgs, 0, sizeof(cgs));
	reset();
	busy(0);
	waiter(1, SHADOW_WAITER_RESTRICTED, 0xf, 100);
	waiter(3, SHADOW_WAITER_PINNED, 0, 200);
	waiter(3, SHADOW_WAITER_PINNED, 0, 200);
	w[3].unknown = 1;
	wasted_classify(&topo, in, N, &scr, out);
	wasted_cgs_add(&cgs, &scr, out, N, 1000);
	a = wasted_cg_get(&cgs, 100);
	tap_ok(a->wasted_ns == 1000 && a->wait_ns == 1000 && a->wait_idle_ns == 1000,
	       "the 0-3 hogs' cgroup: 1000 wasted on cpu2, 1000 waited with cpu2 idle");
	a = wasted_cg_get(&cgs, 200);
	tap_ok(!a->wasted_ns && a->wait_ns == 2000 && a->wait_busy_ns == 2000,
	       "the pinned hogs' cgroup: no waste, 2000 task-ns of capacity wait");
	tap_ok(cgs.unscanned_ns == 1000, "the unscanned waiter's wait: 1000, cgroup unknown");
	tap_ok(!cgs.tracked.wait_ns && !cgs.tracked.wasted_ns, "no tracked process: its row stays 0");

	/* the tracked process (`run`'s command): its own row, whatever its cgroup */
	memset(&cgs, 0, sizeof(cgs));
	reset();
	busy(0);
	waiter(1, SHADOW_WAITER_ANY, 0, 1);
	ids[1].kind[0] |= WASTED_W_TRACKED;
	waiter(1, SHADOW_WAITER_ANY, 0, 1);
	waiter(3, SHADOW_WAITER_PINNED, 0, 1);
	ids[3].kind[0] |= WASTED_W_TRACKED;
	wasted_classify(&topo, in, N, &scr, out);
	wasted_cgs_add(&cgs, &scr, out, N, 10);
	tap_ok(cgs.tracked.wait_ns == 20 && cgs.tracked.wait_idle_ns == 10 && cgs.tracked.wait_busy_ns == 10,
	       "tracked: one waiter with an idle CPU, one pinned: 10 + 10");
	tap_ok(cgs.tracked.wasted_ns == 30 && wasted_cg_get(&cgs, 1)->wasted_ns == 30 &&
	       wasted_cg_get(&cgs, 1)->wait_ns == 30,
	       "tracked waste: cpus 2, 4, 5 idle while its `any` waiter waited (3 x 10); the cgroup counts all three waiters");

	big_tests();
	free(bscr.idle);
	return tap_end();
}
