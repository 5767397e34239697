// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of module/core/wasted_replay.c, the replay the module runs,
 * against a second implementation written here from the definitions in
 * docs/wasted.md alone: at every instant, every CPU classified by looking
 * at every waiter of every other CPU (O(CPUs x waiters) per piece, no
 * counts, no integrals).  Random streams of changes on several
 * topologies (SMT pairs in packages, 128 CPUs in two nodes, overlapping
 * NUMA groups, 320 CPUs with masks past the first 256) must give the same
 * nanoseconds per CPU, class and level, and per cgroup row, exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "work.c"
#include "wasted_core.c"
#include "wasted_replay.c"
#include "wasted_feed.c"

#define MAXC	320
#define MAXW	4096

/* ---- topology ---- */

static u32 ncpu, words;
static u8 t_nlev[MAXC], t_slot[MAXC * WASTED_MAX_DOMAINS];
static u64 t_span[MAXC * WASTED_MAX_DOMAINS * 5];
static struct wasted_topo topo;

static void topo_begin(u32 n)
{
	ncpu = n;
	words = (n + 63) / 64;
	memset(t_nlev, 0, sizeof(t_nlev));
	memset(t_span, 0, sizeof(t_span));
	topo.nr_cpus = n;
	topo.words = words;
	topo.nlev = t_nlev;
	topo.slot = t_slot;
	topo.span = t_span;
}

/* level @l of every CPU: groups of @size consecutive CPUs */
static void topo_level(u32 l, u32 size, u8 lvl)
{
	u32 c, k;

	for (c = 0; c < ncpu; c++) {
		u64 *s = wasted_topo_span(&topo, c, l);

		for (k = (c / size) * size; k < (c / size + 1) * size && k < ncpu; k++)
			s[k / 64] |= (u64)1 << (k % 64);
		t_slot[c * WASTED_MAX_DOMAINS + l] = lvl;
		if (t_nlev[c] < l + 1)
			t_nlev[c] = l + 1;
	}
}

/* 4 nodes of 4 CPUs in a ring: MC the node, NUMA its node and both neighbours, NUMA all */
static void topo_ring16(void)
{
	u32 c, k;

	topo_begin(16);
	topo_level(0, 4, WASTED_LVL_MC);
	for (c = 0; c < 16; c++) {
		u32 node = c / 4;
		u64 *s = wasted_topo_span(&topo, c, 1);

		for (k = 0; k < 16; k++)
			if (k / 4 == node || k / 4 == (node + 1) % 4 || k / 4 == (node + 3) % 4)
				s[0] |= (u64)1 << k;
		t_slot[c * WASTED_MAX_DOMAINS + 1] = WASTED_LVL_NUMA;
		t_nlev[c] = 3;
	}
	topo_level(2, 16, WASTED_LVL_NUMA);
}

static bool in_dom(u32 c, u32 l, u32 s)
{
	return wasted_topo_span(&topo, c, l)[s / 64] & ((u64)1 << (s % 64));
}

/* ---- the reference ---- */

struct waiter {
	u32 cpu;
	u64 cgid;
	u8 kind, trk;
	int mask;		/* index into masks[] */
	bool live;
};

static struct waiter wt[MAXW];
static u32 nwt;
static u8 st[MAXC];			/* enum wr_state */
static u64 masks[WR_MASKS][MAXC / 64 + 1];
static u16 mask_base[WR_MASKS];
static u64 mask_win[WR_MASKS][WR_MASK_WORDS];
static int mask_id[WR_MASKS];		/* the replay's id */
static u32 nmasks;

struct ref_cpu {
	u64 busy, none, unknown, vd, off, level[WASTED_NR_LEVELS];
};

struct ref_cg {
	u64 cgid;
	int kind;	/* 0 cgroup, 1 tracked, 2 other, 3 unscanned */
	u64 wasted, wait, idle, busyw, unk;
};

static struct ref_cpu rc[MAXC];
static struct ref_cg rcg[64];
static u32 nrcg;

static struct ref_cg *ref_row(int kind, u64 cgid)
{
	u32 i;

	for (i = 0; i < nrcg; i++)
		if (rcg[i].kind == kind && rcg[i].cgid == cgid)
			return &rcg[i];
	memset(&rcg[nrcg], 0, sizeof(rcg[0]));
	rcg[nrcg].kind = kind;
	rcg[nrcg].cgid = cgid;
	return &rcg[nrcg++];
}

/* Does @w wait?  Not on an idle CPU: woken there, it is about to run there. */
static bool w_waits(const struct waiter *w)
{
	return w->live && st[w->cpu] != WR_IDLE;
}

static bool w_allows(const struct waiter *w, u32 c)
{
	if (w->kind == WR_ANY)
		return true;
	if (w->kind == WR_RESTR)
		return masks[w->mask][c / 64] & ((u64)1 << (c % 64));
	return false;
}

static int ref_class(u32 c, u8 *lvl)
{
	u32 l, i, nl = t_nlev[c];

	*lvl = WASTED_LVL_NONE;
	if (st[c] == WR_OFF)
		return WASTED_C_OFF;
	if (st[c] == WR_VOID)
		return WASTED_C_VOID;
	if (st[c] == WR_BUSY)
		return WASTED_C_BUSY;
	for (l = 0; l <= nl; l++)
		for (i = 0; i < nwt; i++) {
			const struct waiter *w = &wt[i];

			if (!w_waits(w) || w->cpu == c || !w_allows(w, c))
				continue;
			if (l == nl || in_dom(c, l, w->cpu)) {
				*lvl = l == nl ? WASTED_LVL_NONE : t_slot[c * WASTED_MAX_DOMAINS + l];
				return WASTED_C_WASTE;
			}
		}
	for (i = 0; i < nwt; i++)
		if (w_waits(&wt[i]) && wt[i].cpu != c && wt[i].kind == WR_UNKNOWN)
			return WASTED_C_UNKNOWN;
	for (i = 0; i < ncpu; i++)
		if (i != c && st[i] == WR_VOID)
			return WASTED_C_UNKNOWN;
	return WASTED_C_NONE;
}

/* the wait class of waiter @w now: 0 idle, 1 busy, 2 unknown */
static int ref_wait(const struct waiter *w)
{
	bool idle = false, vd = false;
	u32 c;

	if (w->kind == WR_PINNED)
		return 1;
	if (w->kind == WR_UNKNOWN)
		return 2;
	for (c = 0; c < ncpu; c++) {
		if (!w_allows(w, c))
			continue;
		idle |= st[c] == WR_IDLE;
		vd |= st[c] == WR_VOID;
	}
	return idle ? 0 : vd ? 2 : 1;
}

/* account [@a, @b) with the current state */
static void ref_piece(u64 a, u64 b)
{
	static int cls[MAXC];
	u64 ns = b - a;
	u32 c, i, g;

	if (b <= a)
		return;
	for (c = 0; c < ncpu; c++) {
		u8 lvl;

		cls[c] = ref_class(c, &lvl);
		switch (cls[c]) {
		case WASTED_C_OFF:
			rc[c].off += ns;
			break;
		case WASTED_C_VOID:
			rc[c].vd += ns;
			break;
		case WASTED_C_BUSY:
			rc[c].busy += ns;
			break;
		case WASTED_C_NONE:
			rc[c].none += ns;
			break;
		case WASTED_C_UNKNOWN:
			rc[c].unknown += ns;
			break;
		default:
			rc[c].level[lvl] += ns;
		}
	}
	for (i = 0; i < nwt; i++) {
		const struct waiter *w = &wt[i];
		struct ref_cg *rows[2];
		int nr = 0, k = ref_wait(w), j;

		if (!w_waits(w))
			continue;
		rows[nr++] = !w->cgid ? ref_row(w->kind == WR_UNKNOWN ? 3 : 2, 0) : ref_row(0, w->cgid);
		if (w->trk)
			rows[nr++] = ref_row(1, 0);
		for (j = 0; j < nr; j++) {
			rows[j]->wait += ns;
			if (k == 0)
				rows[j]->idle += ns;
			else if (k == 1)
				rows[j]->busyw += ns;
			else
				rows[j]->unk += ns;
		}
	}
	/* each row: wasted CPUs one of its waiters could run on */
	for (g = 0; g < nrcg; g++) {
		struct ref_cg *row = &rcg[g];

		for (c = 0; c < ncpu; c++) {
			if (cls[c] != WASTED_C_WASTE)
				continue;
			for (i = 0; i < nwt; i++) {
				const struct waiter *w = &wt[i];
				bool mine = row->kind == 1 ? w->trk :
					    row->kind == 0 ? w->cgid == row->cgid :
					    row->kind == 3 ? !w->cgid && w->kind == WR_UNKNOWN :
					    !w->cgid && w->kind != WR_UNKNOWN;

				if (w_waits(w) && mine && w_allows(w, c))
					break;
			}
			if (i < nwt)
				row->wasted += ns;
		}
	}
}

/* ---- the replay under test ---- */

static struct wr_replay R;
static void *mem;
static struct wr_pieces got[MAXC];

static void pieces_take(void)
{
	u32 c, l;

	for (c = 0; c < ncpu; c++) {
		struct wr_pieces *p = &R.cpu[c].p;

		got[c].busy += p->busy;
		got[c].none += p->none;
		got[c].unknown += p->unknown;
		got[c].vd += p->vd;
		got[c].off += p->off;
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			got[c].level[l] += p->level[l];
		memset(p, 0, sizeof(*p));
	}
}

static char why[256];

static bool compare(u64 now)
{
	u32 c, l, g;

	wr_close_all(&R, now);
	pieces_take();
	wr_cgs_flush(&R, now);
	for (c = 0; c < ncpu; c++) {
		if (got[c].busy != rc[c].busy || got[c].none != rc[c].none ||
		    got[c].unknown != rc[c].unknown || got[c].vd != rc[c].vd) {
			snprintf(why, sizeof(why), "cpu%u busy %llu/%llu none %llu/%llu unknown %llu/%llu void %llu/%llu",
				 c, (unsigned long long)got[c].busy, (unsigned long long)rc[c].busy,
				 (unsigned long long)got[c].none, (unsigned long long)rc[c].none,
				 (unsigned long long)got[c].unknown, (unsigned long long)rc[c].unknown,
				 (unsigned long long)got[c].vd, (unsigned long long)rc[c].vd);
			return false;
		}
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			if (got[c].level[l] != rc[c].level[l]) {
				snprintf(why, sizeof(why), "cpu%u level %s %llu/%llu", c,
					 wasted_level_name[l], (unsigned long long)got[c].level[l],
					 (unsigned long long)rc[c].level[l]);
				return false;
			}
	}
	for (g = 0; g < nrcg; g++) {
		const struct ref_cg *x = &rcg[g];
		const struct wasted_cg_acc *a = x->kind == 1 ? &R.tracked.a :
						 x->kind == 2 ? &R.other.a :
						 x->kind == 3 ? &R.unscanned.a : NULL;
		struct wr_cg *row;

		if (!a) {
			row = wr_cg_find(&R, x->cgid);
			if (!row) {
				snprintf(why, sizeof(why), "no row for cgroup %llu",
					 (unsigned long long)x->cgid);
				return false;
			}
			a = &row->a;
		}
		if (a->wasted_ns != x->wasted || a->wait_ns != x->wait || a->wait_idle_ns != x->idle ||
		    a->wait_busy_ns != x->busyw || a->wait_unknown_ns != x->unk) {
			snprintf(why, sizeof(why), "row %d/%llu wasted %llu/%llu wait %llu/%llu idle %llu/%llu busy %llu/%llu unknown %llu/%llu",
				 x->kind, (unsigned long long)x->cgid,
				 (unsigned long long)a->wasted_ns, (unsigned long long)x->wasted,
				 (unsigned long long)a->wait_ns, (unsigned long long)x->wait,
				 (unsigned long long)a->wait_idle_ns, (unsigned long long)x->idle,
				 (unsigned long long)a->wait_busy_ns, (unsigned long long)x->busyw,
				 (unsigned long long)a->wait_unknown_ns, (unsigned long long)x->unk);
			return false;
		}
	}
	return true;
}

static u32 rnd_state = 12345;

static u32 rnd(u32 n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

static void setup(void)
{
	u64 bytes = wr_bytes(ncpu, 4 * ncpu + 8);
	u32 c;

	free(mem);
	mem = calloc(1, bytes);
	memset(&R, 0, sizeof(R));
	memset(rc, 0, sizeof(rc));
	memset(got, 0, sizeof(got));
	memset(st, 0, sizeof(st));
	nwt = nrcg = nmasks = 0;
	if (wr_init(&R, mem, ncpu, 4 * ncpu + 8, &topo, 0))
		fprintf(stderr, "wr_init failed\n");
	for (c = 0; c < ncpu; c++) {
		st[c] = WR_BUSY;
		wr_set_state(&R, 0, c, WR_BUSY);
	}
}

/* a mask of CPUs [lo, hi] */
static int mask_new(u32 lo, u32 hi, u64 now)
{
	u32 c, k;
	int id;

	memset(masks[nmasks], 0, sizeof(masks[0]));
	for (c = lo; c <= hi && c < ncpu; c++)
		masks[nmasks][c / 64] |= (u64)1 << (c % 64);
	mask_base[nmasks] = lo / 64;
	for (k = 0; k < WR_MASK_WORDS; k++)
		mask_win[nmasks][k] = lo / 64 + k < (ncpu + 63) / 64 ? masks[nmasks][lo / 64 + k] : 0;
	id = wr_mask(&R, now, mask_base[nmasks], mask_win[nmasks]);
	mask_id[nmasks] = id;
	return nmasks++;
}

static struct wr_key key_of(const struct waiter *w)
{
	struct wr_key k = { .cgid = w->cgid, .kind = w->kind, .trk = w->trk };

	if (w->kind == WR_RESTR)
		k.mask = mask_id[w->mask];
	return k;
}

/* distinct keys CPU @c would hold with @w added */
static u32 cpu_keys(u32 c, const struct waiter *w)
{
	u32 i, j, n = 0;

	for (i = 0; i <= nwt; i++) {
		const struct waiter *a = i < nwt ? &wt[i] : w;

		if ((i < nwt && !a->live) || a->cpu != c)
			continue;
		for (j = 0; j < i; j++) {
			const struct waiter *b = &wt[j];

			if (b->live && b->cpu == c && b->cgid == a->cgid && b->kind == a->kind &&
			    b->trk == a->trk && (a->kind != WR_RESTR || b->mask == a->mask))
				break;
		}
		n += j == i;
	}
	return n;
}

/*
 * One random run: @steps changes, a sample close every few, the totals
 * compared at the end and every @every steps.
 */
static bool run_random(u32 steps, u32 every, u32 cgs, bool use_masks, bool use_unknown)
{
	u64 now = 0;
	u32 i, m_lo[4], m_hi[4], nm = 0;

	setup();
	if (use_masks) {
		/* a node's worth, a pair, one past the first 256 CPUs, a middle range */
		m_lo[0] = 0;
		m_hi[0] = ncpu / 2 - 1;
		m_lo[1] = 2;
		m_hi[1] = 3;
		m_lo[2] = ncpu > 260 ? 258 : ncpu - 3;
		m_hi[2] = ncpu > 260 ? 300 : ncpu - 1;
		m_lo[3] = ncpu / 4;
		m_hi[3] = ncpu / 4 + ncpu / 8;
		for (nm = 0; nm < 4; nm++)
			mask_new(m_lo[nm], m_hi[nm], 0);
	}
	for (i = 1; i <= steps; i++) {
		u64 next = now + 1 + rnd(5000);
		u32 op = rnd(100), c = rnd(ncpu);

		ref_piece(now, next);
		now = next;
		if (op < 30) {
			static const u8 states[] = { WR_IDLE, WR_BUSY, WR_BUSY, WR_IDLE, WR_VOID, WR_OFF };
			u8 s = states[rnd(op < 2 ? 6 : 4)];
			u32 k;

			if (s == WR_OFF || s == WR_VOID)	/* its waiters are not known there */
				for (k = 0; k < nwt; k++)
					if (wt[k].cpu == c)
						wt[k].live = false;
			st[c] = s;
			wr_set_state(&R, now, c, s);
		} else if (op < 70 && nwt < MAXW) {
			struct waiter *w = &wt[nwt];
			struct wr_key k;
			u32 kr = rnd(10);

			if (st[c] == WR_OFF || st[c] == WR_VOID)
				continue;
			w->cpu = c;
			w->cgid = rnd(cgs + 1) * 7;	/* 0: cgroup unknown */	/* 0: cgroup unknown */
			w->kind = kr < 5 ? WR_ANY : kr < 7 ? WR_PINNED :
				  kr < 8 && use_unknown ? WR_UNKNOWN : use_masks ? WR_RESTR : WR_ANY;
			w->mask = nm ? rnd(nm) : 0;
			w->trk = rnd(4) == 0;
			w->live = true;
			if (cpu_keys(c, w) > WR_KEYS - 1)
				continue;	/* the bound has its own test */
			k = key_of(w);
			nwt++;
			wr_add(&R, now, c, &k, 1);
		} else if (op < 97) {
			u32 k, tries;

			for (tries = 0; tries < 8 && nwt; tries++) {
				k = rnd(nwt);
				if (wt[k].live) {
					struct wr_key key = key_of(&wt[k]);

					wt[k].live = false;
					wr_del(&R, now, wt[k].cpu, &key, 1);
					break;
				}
			}
		} else {
			u32 k;

			for (k = 0; k < nwt; k++)
				if (wt[k].cpu == c)
					wt[k].live = false;
			wr_clear(&R, now, c);
		}
		if (rnd(8) == 0) {
			wr_sample_close(&R, now, NULL);
			pieces_take();
		}
		if (i % every == 0 && !compare(now))
			return false;
		/* drop dead waiters now and then (keeps the reference fast) */
		if (nwt > MAXW - 64) {
			u32 k, j = 0;

			for (k = 0; k < nwt; k++)
				if (wt[k].live)
					wt[j++] = wt[k];
			nwt = j;
		}
	}
	return compare(now);
}

int main(void)
{
	tap_begin("wasted_replay");

	topo_begin(6);
	topo_level(0, 2, WASTED_LVL_MC);
	topo_level(1, 6, WASTED_LVL_DIE);
	tap_ok(run_random(8000, 500, 3, false, true), "6 CPUs (3 packages of 2), any/pinned/unknown: equal to the reference %s", why);
	why[0] = 0;
	tap_ok(run_random(8000, 500, 5, true, true), "6 CPUs, restricted masks too: equal to the reference %s", why);
	why[0] = 0;

	topo_begin(16);
	topo_level(0, 2, WASTED_LVL_SMT);
	topo_level(1, 8, WASTED_LVL_MC);
	topo_level(2, 16, WASTED_LVL_PKG);
	tap_ok(run_random(8000, 1000, 6, true, true), "16 CPUs SMT/MC/PKG with masks: equal to the reference %s", why);
	why[0] = 0;

	topo_ring16();
	tap_ok(run_random(8000, 1000, 4, true, true), "ring16 (overlapping NUMA groups): equal to the reference %s", why);
	why[0] = 0;

	topo_begin(128);
	topo_level(0, 2, WASTED_LVL_SMT);
	topo_level(1, 16, WASTED_LVL_MC);
	topo_level(2, 64, WASTED_LVL_NUMA);
	topo_level(3, 128, WASTED_LVL_NUMA);
	tap_ok(run_random(2500, 2500, 6, true, true), "128 CPUs, masks in the second word: equal to the reference %s", why);
	why[0] = 0;

	topo_begin(320);
	topo_level(0, 2, WASTED_LVL_SMT);
	topo_level(1, 32, WASTED_LVL_MC);
	topo_level(2, 320, WASTED_LVL_PKG);
	tap_ok(run_random(1200, 1200, 6, true, true), "320 CPUs, a mask past CPU 256: equal to the reference %s", why);
	why[0] = 0;

	/* a restricted waiter on CPU 100 allowed on 64-65: idle 64 wasted, idle 0 not */
	{
		struct wr_key k = { .cgid = 7, .kind = WR_RESTR };
		u64 win[WR_MASK_WORDS] = { 3 };
		u8 lvl;
		int m;

		topo_begin(128);
		topo_level(0, 2, WASTED_LVL_SMT);
		topo_level(1, 64, WASTED_LVL_PKG);
		topo_level(2, 128, WASTED_LVL_NUMA);
		setup();
		m = wr_mask(&R, 1, 1, win);
		k.mask = m;
		wr_set_state(&R, 2, 0, WR_IDLE);
		wr_set_state(&R, 2, 64, WR_IDLE);
		wr_add(&R, 3, 100, &k, 1);
		tap_ok(m >= 0 && wr_classify(&R, 64, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_PKG,
		       "128 CPUs: CPU 64 idle, a waiter on CPU 100 restricted to 64-65: wasted at PKG");
		tap_ok(wr_classify(&R, 0, &lvl) == WASTED_C_NONE,
		       "128 CPUs: CPU 0 idle, the same waiter: none (its mask is in word 1, not 0)");
	}

	/*
	 * a task queued on an idle CPU (woken there, not switched in yet) is
	 * about to run there: no waiter until its CPU turns busy, then one
	 */
	{
		struct wr_key k = { .cgid = 7, .kind = WR_ANY };
		struct wr_cg *g;
		u8 lvl;

		topo_begin(6);
		topo_level(0, 2, WASTED_LVL_MC);
		topo_level(1, 6, WASTED_LVL_DIE);
		setup();
		wr_set_state(&R, 1, 0, WR_IDLE);
		wr_set_state(&R, 1, 1, WR_IDLE);
		wr_set_state(&R, 1, 4, WR_IDLE);
		wr_add(&R, 2, 0, &k, 1);
		tap_ok(wr_classify(&R, 0, &lvl) == WASTED_C_NONE && wr_classify(&R, 1, &lvl) == WASTED_C_NONE &&
		       wr_classify(&R, 4, &lvl) == WASTED_C_NONE,
		       "queued on idle CPU 0: no CPU wasted by it (it is about to run there)");
		wr_set_state(&R, 10, 0, WR_BUSY);
		tap_ok(wr_classify(&R, 1, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_MC,
		       "CPU 0 busy, the task still queued: CPU 1 (same package) wasted at MC");
		tap_ok(wr_classify(&R, 4, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_DIE,
		       "CPU 0 busy, the task still queued: CPU 4 (another package) wasted at DIE");
		wr_cgs_flush(&R, 30);
		g = wr_cg_find(&R, 7);
		tap_ok(g && g->a.wait_ns == 20 && g->a.wait_idle_ns == 20,
		       "its wait counts from CPU 0's turn to busy (t 10-30: %llu ns, idle %llu)",
		       g ? (unsigned long long)g->a.wait_ns : 0ULL,
		       g ? (unsigned long long)g->a.wait_idle_ns : 0ULL);
	}

	/* the key table's bound: the 16th distinct key is counted unknown, and counted */
	{
		struct wr_key k = { .kind = WR_ANY };
		u32 i;

		topo_begin(6);
		topo_level(0, 6, WASTED_LVL_MC);
		setup();
		for (i = 1; i <= WR_KEYS + 2; i++) {
			k.cgid = i;
			wr_add(&R, i, 2, &k, 1);
		}
		tap_ok(R.cpu[2].nkeys == WR_KEYS && R.ovf.keys == 3 && R.unk == 3,
		       "keys past WR_KEYS - 1 go to the overflow key (unknown): %u keys, %llu merged, unknown %u",
		       R.cpu[2].nkeys, (unsigned long long)R.ovf.keys, R.unk);
	}

	/* a topology change in the middle: the same as starting over with the new one */
	{
		bool ok;

		topo_begin(16);
		topo_level(0, 2, WASTED_LVL_SMT);
		topo_level(1, 16, WASTED_LVL_MC);
		ok = run_random(3000, 3000, 4, true, true);
		if (ok) {
			u64 now = R.now;

			memset(t_span, 0, sizeof(t_span));
			memset(t_nlev, 0, sizeof(t_nlev));
			topo_level(0, 4, WASTED_LVL_MC);
			topo_level(1, 16, WASTED_LVL_PKG);
			ok = !wr_topology(&R, &topo, now) && !wr_topology_same(&R, &topo) == false;
			ref_piece(now, now + 5000);
			ok = ok && compare(now + 5000);
		}
		tap_ok(ok, "a topology change mid-stream: still equal to the reference %s", why);
	why[0] = 0;
	}

	/* wr_set_keys applies the difference */
	{
		struct wr_key a[3] = { { .cgid = 7, .kind = WR_ANY, .n = 2 },
				       { .cgid = 8, .kind = WR_PINNED, .n = 1 },
				       { .cgid = 7, .kind = WR_ANY, .n = 1 } };
		struct wr_key b[1] = { { .cgid = 8, .kind = WR_PINNED, .n = 4 } };

		topo_begin(6);
		topo_level(0, 6, WASTED_LVL_MC);
		setup();
		wr_set_keys(&R, 1, 3, a, 3);
		tap_ok(R.cpu[3].nkeys == 2 && R.cpu[3].own_any == 3 && R.cpu[3].own_total == 4,
		       "wr_set_keys: duplicates merged (any 3, total 4)");
		wr_set_keys(&R, 2, 3, b, 1);
		tap_ok(R.cpu[3].nkeys == 1 && R.cpu[3].own_any == 0 && R.cpu[3].own_total == 4,
		       "wr_set_keys: the any key gone, pinned grown to 4");
	}
	/* the feed: records of several CPUs out of order, a lost log, a mask */
	{
		static struct wf_cpu fc[6];
		static struct wf_step steps[16];
		static struct wf_sort so[16], tmp[16];
		struct wf f;
		u64 late;
		u8 lvl;

		topo_begin(6);
		topo_level(0, 2, WASTED_LVL_MC);
		topo_level(1, 6, WASTED_LVL_DIE);
		setup();
		wf_init(&f, 6, fc, steps, so, tmp, 16);
		/* cpu0: snapshot busy, a waiter (stamp 30); cpu2: snapshot idle (stamp 10) */
		f.steps[0] = (struct wf_step){ { .stamp = 20, .op = WF_SNAP, .flags = WF_BUSY }, 0 };
		f.steps[1] = (struct wf_step){ { .stamp = 30, .op = WF_ADD, .cgid = 7, .n = 1, .kind = WR_ANY }, 0 };
		f.steps[2] = (struct wf_step){ { .stamp = 10, .op = WF_SNAP }, 2 };
		f.steps[3] = (struct wf_step){ { .stamp = 25, .op = WF_ADD, .cgid = 9, .n = 1, .kind = WR_ANY }, 4 };
		f.n = 4;
		wf_replay(&f, &R, 0, &late);
		tap_ok(wr_classify(&R, 2, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_DIE &&
		       f.st.sorted == 1 && R.now == 30 && R.cpu[4].nkeys == 0,
		       "feed: sorted by time, a CPU without a snapshot ignored (cpu4), cpu2 wasted by cpu0's waiter");
		/* a restricted waiter: its window first (two records), then the key */
		f.steps[0] = (struct wf_step){ { .stamp = 40, .op = WF_MASK, .slot = 1, .n = 0, .cgid = 0x3, .aux = 0 }, 0 };
		f.steps[1] = (struct wf_step){ { .stamp = 40, .op = WF_MASK2, .slot = 1, .cgid = 0, .aux = 0 }, 0 };
		f.steps[2] = (struct wf_step){ { .stamp = 41, .op = WF_DEL, .cgid = 7, .n = 1, .kind = WR_ANY }, 0 };
		f.steps[3] = (struct wf_step){ { .stamp = 42, .op = WF_ADD, .cgid = 7, .n = 1, .kind = WR_RESTR, .slot = 1 }, 0 };
		f.n = 4;
		wf_replay(&f, &R, 30, &late);
		tap_ok(wr_classify(&R, 2, &lvl) == WASTED_C_NONE && R.cpu[0].nkeys == 1 &&
		       R.cpu[0].keys[0].kind == WR_RESTR,
		       "feed: a waiter restricted to CPUs 0-1 (mask records, then the key): cpu2 not wasted");
		/* records lost on cpu0: void until its next snapshot, whose waiters then count */
		wf_lost(&f, &R, 50, 0);
		f.steps[0] = (struct wf_step){ { .stamp = 55, .op = WF_ADD, .cgid = 7, .n = 1, .kind = WR_ANY }, 0 };
		f.n = 1;
		wf_replay(&f, &R, 50, &late);
		tap_ok(wr_classify(&R, 0, &lvl) == WASTED_C_VOID && wr_classify(&R, 2, &lvl) == WASTED_C_UNKNOWN,
		       "feed: lost records: cpu0 void, its later changes ignored, idle cpu2 unknown");
		f.steps[0] = (struct wf_step){ { .stamp = 60, .op = WF_SNAP, .flags = WF_BUSY }, 0 };
		f.steps[1] = (struct wf_step){ { .stamp = 60, .op = WF_ADD, .cgid = 7, .n = 1, .kind = WR_ANY }, 0 };
		f.steps[2] = (struct wf_step){ { .stamp = 58, .op = WF_STATE, .flags = WF_BUSY }, 3 };
		f.n = 3;
		wf_replay(&f, &R, 50, &late);
		tap_ok(wr_classify(&R, 2, &lvl) == WASTED_C_WASTE && late == 0 && R.cpu[3].state == WR_BUSY,
		       "feed: the snapshot makes cpu0 known again: cpu2 wasted");
		f.steps[0] = (struct wf_step){ { .stamp = 59, .op = WF_STATE, .flags = WF_BUSY }, 2 };
		f.n = 1;
		wf_replay(&f, &R, 60, &late);
		tap_ok(late == 1 && R.cpu[2].state == WR_BUSY,
		       "feed: a record older than the replay is applied now and its lateness reported (%llu ns)",
		       (unsigned long long)late);
	}
	free(mem);
	return tap_end();
}
