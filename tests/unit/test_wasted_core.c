// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/core/wasted_core.c (level names, the per-CPU
 * accumulators: right-endpoint rule, stretches, the error bound, the
 * attribution table) and of the replay's answers in named situations
 * (core/wasted_replay.c, which the random cross-check of
 * test_wasted_replay.c compares with a second implementation): one
 * CPU's class and level, the cgroups charged and each waiter's wait
 * class.  Topology: 6 CPUs in 3 packages, {0,1} {2,3} {4,5}, domains MC
 * (the package) and DIE (all), as the VM.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "work.c"
#include "wasted_core.c"
#include "wasted_replay.c"

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

	free(mem);
	return tap_end();
}
