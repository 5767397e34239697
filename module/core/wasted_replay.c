// SPDX-License-Identifier: GPL-2.0
/*
 * wasted_replay: the counts, integrals and per-CPU pieces described in
 * wasted_replay.h.  Everything here is driven by the changes the caller
 * applies in time order; nothing looks at every CPU on a change.
 */
#include <linux/types.h>
#include "wasted_replay.h"

/* ---- lazily integrated values ---- */

static inline u64 wr_int_at(const struct wr_int *i, u64 now)
{
	return i->acc + (i->on ? now - i->t : 0);
}

static inline void wr_int_set(struct wr_int *i, u64 now, bool on)
{
	if ((u32)on == i->on)
		return;
	i->acc = wr_int_at(i, now);
	i->t = now;
	i->on = on;
}

static inline void wr_int_start(struct wr_int *i, u64 now, bool on)
{
	i->acc = 0;
	i->t = now;
	i->on = on;
}

static inline u64 wr_sum_at(const struct wr_sum *s, u64 now)
{
	return s->acc + (u64)s->v * (now - s->t);
}

static inline void wr_sum_set(struct wr_sum *s, u64 now, u32 v)
{
	if (v == s->v)
		return;
	s->acc = wr_sum_at(s, now);
	s->t = now;
	s->v = v;
}

/* ---- bitmaps ---- */

static inline bool wr_test(const u64 *b, u32 bit)
{
	return b[bit / 64] & ((u64)1 << (bit % 64));
}

static inline void wr_set(u64 *b, u32 bit)
{
	b[bit / 64] |= (u64)1 << (bit % 64);
}

static inline void wr_clr(u64 *b, u32 bit)
{
	b[bit / 64] &= ~((u64)1 << (bit % 64));
}

/* index of the lowest set bit of a non-zero word (the compiler's builtin: no header needed) */
static inline u32 wr_ffs64(u64 v)
{
	return __builtin_ctzll(v);
}

/* The first 64-CPU word of mask @m's window: every reader places the window here. */
static inline u32 wr_mask_base(const struct wr_mask *m)
{
	return m->base;
}

/* Does CPU @c lie in mask @m (its window)? */
static inline bool wr_mask_has(const struct wr_mask *m, u32 c)
{
	u32 k = c / 64 - wr_mask_base(m);	/* wraps below the window */

	return k < WR_MASK_WORDS && (m->bits[k] & ((u64)1 << (c % 64)));
}

/* ---- layout ---- */

struct wr_layout {
	u64 cpu, dom_span, dom, cnt_mask, sd, idle, special, vd, touched, hash, end;
};

static u64 wr_align(u64 x)
{
	return (x + 63) & ~(u64)63;
}

static void wr_layout_of(struct wr_layout *l, u32 nr_cpus, u32 dom_cap)
{
	u32 words = (nr_cpus + 63) / 64;
	u64 o = 0;

	l->cpu = o;
	o = wr_align(o + (u64)nr_cpus * sizeof(struct wr_cpu));
	l->dom_span = o;
	o = wr_align(o + (u64)dom_cap * words * sizeof(u64));
	l->dom = o;
	o = wr_align(o + (u64)dom_cap * sizeof(struct wr_dom));
	l->cnt_mask = o;
	o = wr_align(o + (u64)WR_MASKS * dom_cap * sizeof(u32));
	l->sd = o;
	o = wr_align(o + (u64)WR_SIGS * dom_cap * sizeof(struct wr_sd));
	l->idle = o;
	o = wr_align(o + (u64)words * sizeof(u64));
	l->special = o;
	o = wr_align(o + (u64)words * sizeof(u64));
	l->vd = o;
	o = wr_align(o + (u64)words * sizeof(u64));
	l->touched = o;
	o = wr_align(o + (u64)words * sizeof(u64));
	l->hash = o;
	o = wr_align(o + (u64)2 * dom_cap * sizeof(u32));
	l->end = o;
}

u64 wr_bytes(u32 nr_cpus, u32 dom_cap)
{
	struct wr_layout l;

	wr_layout_of(&l, nr_cpus, dom_cap);
	return l.end;
}

static inline u64 *wr_dom(const struct wr_replay *r, u32 d)
{
	return r->dom_span + (u64)d * r->words;
}

static inline u32 *wr_cnt_mask(const struct wr_replay *r, u32 m, u32 d)
{
	return &r->cnt_mask[(u64)m * r->dom_cap + d];
}

static inline struct wr_sd *wr_sd(const struct wr_replay *r, u32 s, u32 d)
{
	return &r->sd[(u64)s * r->dom_cap + d];
}

static inline u32 *wr_cnt_sig(const struct wr_replay *r, u32 s, u32 d)
{
	return &wr_sd(r, s, d)->cnt;
}

static inline struct wr_int *wr_a_sig(const struct wr_replay *r, u32 s, u32 d)
{
	return &wr_sd(r, s, d)->a;
}

/* ---- signatures ---- */

/* What the signature's integrals follow: wasted CPUs, and unknown time. */
static void wr_sig_refresh(struct wr_replay *r, u32 s, u64 now)
{
	struct wr_sig *g = &r->sig[s];
	u32 all = *wr_cnt_sig(r, s, WR_DOM_ALL);
	u32 v = (all ? g->idle_normal : 0) + g->special_waste;

	wr_int_set(&g->unk, now, !all && r->unk);
	if (v != g->waste.v) {
		wr_sum_set(&r->w_all, now, r->w_all.v - g->waste.v + v);
		wr_sum_set(&g->waste, now, v);
	}
}

/* Signature @s starts using domain @d (a CPU of @s has it in its chain). */
static void wr_sig_use(struct wr_replay *r, u32 s, u32 d, u64 now)
{
	u32 m, n;

	if (r->dom[d].sigs & (1u << s))
		return;
	n = r->dom[d].cnt_any;
	for (m = 0; m < r->nmasks; m++)
		if (r->sig[s].masks & (1u << m))
			n += *wr_cnt_mask(r, m, d);
	wr_sd(r, s, d)->cnt = n;
	wr_int_start(&wr_sd(r, s, d)->a, now, n > 0);
	r->dom[d].sigs |= 1u << s;
}

/* The signature of mask set @masks, created if new; -1 when the table is full. */
static int wr_sig_get(struct wr_replay *r, u32 masks, u64 now)
{
	u32 s;

	for (s = 0; s < r->nsigs; s++)
		if (r->sig[s].masks == masks)
			return s;
	if (r->nsigs == WR_SIGS)
		return -1;
	s = r->nsigs++;
	r->sig[s].masks = masks;
	r->sig[s].cpus = r->sig[s].idle_normal = r->sig[s].special_waste = 0;
	r->sig[s].waste.acc = 0;
	r->sig[s].waste.t = now;
	r->sig[s].waste.v = 0;
	wr_sig_use(r, s, WR_DOM_ALL, now);
	wr_int_start(&r->sig[s].unk, now, !*wr_cnt_sig(r, s, WR_DOM_ALL) && r->unk);
	return s;
}

/* ---- classification ---- */

/* Waiters of @c itself that the counts of its signature hold. */
static u32 wr_own_sig(const struct wr_replay *r, const struct wr_cpu *c)
{
	u32 masks = r->sig[c->sig].masks, n = c->own_any;

	while (masks) {
		u32 m = wr_ffs64(masks);

		n += c->own_mask[m];
		masks &= masks - 1;
	}
	return n;
}

/* Class and level of idle CPU @c from the counts (exact; O(L)). */
static u8 wr_class_of(const struct wr_replay *r, const struct wr_cpu *c, u8 *lvl)
{
	u32 own = wr_own_sig(r, c), l;

	*lvl = WASTED_LVL_NONE;
	for (l = 0; l < c->nchain; l++)
		if (*wr_cnt_sig(r, c->sig, c->chain[l]) > own) {
			*lvl = c->chain_lvl[l];
			return WASTED_C_WASTE;
		}
	return r->unk > c->own_unknown ? WASTED_C_UNKNOWN : WASTED_C_NONE;
}

u64 wr_level_since(const struct wr_replay *r, u32 cpu, u8 level)
{
	const struct wr_cpu *c;
	u64 since;
	u32 l;

	if (cpu >= r->nr_cpus)
		return 0;
	c = &r->cpu[cpu];
	if (c->state != WR_IDLE || c->special)
		return 0;
	since = c->idle_at;
	for (l = 0; l < c->nchain; l++) {
		const struct wr_int *a = wr_a_sig(r, c->sig, c->chain[l]);

		if (a->t > since)
			since = a->t;
		if (c->chain_lvl[l] == level)
			return a->on ? since : 0;
		if (a->on)	/* wasted at a lower level now */
			return 0;
	}
	return 0;
}

int wr_classify(const struct wr_replay *r, u32 cpu, u8 *level)
{
	const struct wr_cpu *c = &r->cpu[cpu];

	*level = WASTED_LVL_NONE;
	switch (c->state) {
	case WR_OFF:
		return WASTED_C_OFF;
	case WR_VOID:
		return WASTED_C_VOID;
	case WR_BUSY:
		return WASTED_C_BUSY;
	}
	return wr_class_of(r, c, level);
}

/* ---- per-CPU pieces ---- */

static void wr_snap(struct wr_replay *r, struct wr_cpu *c, u64 now)
{
	u32 l;

	for (l = 0; l < c->nchain; l++)
		c->snap[l] = wr_int_at(wr_a_sig(r, c->sig, c->chain[l]), now);
	c->snap_unk = wr_int_at(&r->sig[c->sig].unk, now);
}

/* An idle CPU without waiters of its own: its time per level from the integrals. */
static void wr_close_normal(struct wr_replay *r, struct wr_cpu *c, u64 now)
{
	u64 dur = now - c->since, prev = 0, cur, unk, w;
	u32 l;

	for (l = 0; l < c->nchain; l++) {
		u64 at = wr_int_at(wr_a_sig(r, c->sig, c->chain[l]), now);

		cur = at - c->snap[l];
		c->snap[l] = at;
		if (cur > dur)
			cur = dur;
		if (cur > prev) {	/* the levels nest: the lower's time is within */
			c->p.level[c->chain_lvl[l]] += cur - prev;
			prev = cur;
		}
	}
	w = prev;
	cur = wr_int_at(&r->sig[c->sig].unk, now);
	unk = cur - c->snap_unk;
	c->snap_unk = cur;
	if (unk > dur - w)
		unk = dur - w;
	c->p.unknown += unk;
	c->p.none += dur - w - unk;
}

static void wr_close(struct wr_replay *r, struct wr_cpu *c, u64 now)
{
	u64 dur = now - c->since;

	switch (c->state) {
	case WR_OFF:
		c->p.off += dur;
		break;
	case WR_VOID:
		c->p.vd += dur;
		break;
	case WR_BUSY:
		c->p.busy += dur;
		break;
	case WR_IDLE:
		if (!c->special) {
			wr_close_normal(r, c, now);
			break;
		}
		if (c->cls == WASTED_C_WASTE)
			c->p.level[c->lvl] += dur;
		else if (c->cls == WASTED_C_UNKNOWN)
			c->p.unknown += dur;
		else
			c->p.none += dur;
		break;
	}
	c->since = now;
}

/* An idle CPU leaves (@leave) or joins its signature's counts of idle CPUs. */
static void wr_idle_account(struct wr_replay *r, struct wr_cpu *c, u64 now, bool leave)
{
	struct wr_sig *g = &r->sig[c->sig];

	if (c->special) {
		if (c->cls == WASTED_C_WASTE) {
			if (leave)
				g->special_waste--;
			else
				g->special_waste++;
		}
	} else {
		if (leave)
			g->idle_normal--;
		else
			g->idle_normal++;
	}
	wr_sig_refresh(r, c->sig, now);
}

/* Idle CPU @c starts a piece: normal (integrals) or special (classified now). */
static void wr_idle_open(struct wr_replay *r, struct wr_cpu *c, u32 cpu, u64 now)
{
	c->special = c->own_total > 0;
	if (c->special) {
		c->cls = wr_class_of(r, c, &c->lvl);
		wr_set(r->special, cpu);
		r->nr_special++;
	} else {
		wr_snap(r, c, now);
	}
	wr_idle_account(r, c, now, false);
}

static void wr_idle_leave(struct wr_replay *r, struct wr_cpu *c, u32 cpu, u64 now)
{
	wr_idle_account(r, c, now, true);
	if (c->special) {
		wr_clr(r->special, cpu);
		r->nr_special--;
		c->special = 0;
	}
}

/* Every idle CPU with waiters of its own, classified again after a change. */
static void wr_special_update(struct wr_replay *r, u64 now)
{
	u32 i;

	if (!r->nr_special)
		return;
	for (i = 0; i < r->words; i++) {
		u64 b = r->special[i];

		while (b) {
			u32 cpu = i * 64 + wr_ffs64(b);
			struct wr_cpu *c = &r->cpu[cpu];
			u8 lvl, cls = wr_class_of(r, c, &lvl);
			bool was = c->cls == WASTED_C_WASTE, is = cls == WASTED_C_WASTE;

			b &= b - 1;
			if (cls == c->cls && lvl == c->lvl)
				continue;
			wr_close(r, c, now);
			c->cls = cls;
			c->lvl = lvl;
			if (was != is) {
				if (is)
					r->sig[c->sig].special_waste++;
				else
					r->sig[c->sig].special_waste--;
				wr_sig_refresh(r, c->sig, now);
			}
		}
	}
}

/* ---- cgroup rows ---- */

#define WR_ROW_OTHER	0xffff
#define WR_ROW_UNSCANNED 0xfffe

static inline u32 wr_cg_hash(u64 cgid)
{
	return (u32)((cgid * 0x9E3779B97F4A7C15ULL) >> 56) % WR_CGS;
}

struct wr_cg *wr_cg_find(struct wr_replay *r, u64 cgid)
{
	u32 h = wr_cg_hash(cgid), i;

	for (i = 0; i < WR_CGS; i++) {
		struct wr_cg *g = &r->cg[(h + i) % WR_CGS];

		if (!g->a.used)
			return NULL;
		if (g->a.cgid == cgid)
			return g;
	}
	return NULL;
}

/* Row index of key @k's cgroup, inserted if new (WR_ROW_OTHER when the table is full). */
static u16 wr_row_of(struct wr_replay *r, const struct wr_key *k, u64 now)
{
	u32 h, i;

	if (!k->cgid)
		return k->kind == WR_UNKNOWN ? WR_ROW_UNSCANNED : WR_ROW_OTHER;
	h = wr_cg_hash(k->cgid);
	for (i = 0; i < WR_CGS; i++) {
		u32 s = (h + i) % WR_CGS;
		struct wr_cg *g = &r->cg[s];

		if (g->a.used && g->a.cgid == k->cgid)
			return s;
		if (!g->a.used) {
			if (r->nr_cg >= WR_CGS - WR_CGS / 8)
				break;	/* keep the table sparse: the rest is "other" */
			g->a.used = true;
			g->a.cgid = k->cgid;
			g->t = now;
			r->nr_cg++;
			return s;
		}
	}
	return WR_ROW_OTHER;
}

static struct wr_cg *wr_row(struct wr_replay *r, u16 row)
{
	if (row == WR_ROW_OTHER)
		return &r->other;
	if (row == WR_ROW_UNSCANNED)
		return &r->unscanned;
	return &r->cg[row];
}

/* The integral of the wasted CPUs row @g's rule counts (its waiters now). */
static u64 wr_cg_rule(const struct wr_replay *r, const struct wr_cg *g, u64 now)
{
	u64 w = 0;
	u32 s;

	if (g->n_any)
		return wr_sum_at(&r->w_all, now);
	if (!g->rmasks)
		return 0;
	for (s = 0; s < r->nsigs; s++)
		if (r->sig[s].masks & g->rmasks)
			w += wr_sum_at(&r->sig[s].waste, now);
	return w;
}

/* Account row @g up to @now with its current counts, and take the snapshots. */
static void wr_cg_flush(struct wr_replay *r, struct wr_cg *g, u64 now)
{
	u64 dt = now - g->t, gi = wr_int_at(&r->g_idle, now), gu = wr_int_at(&r->g_unk, now);
	u64 idle, unk, busy, w;
	u32 m;

	if (g->n_total) {
		idle = (u64)g->n_any * (gi - g->s_gidle);
		unk = (u64)g->n_any * (gu - g->s_gunk) + (u64)g->n_unknown * dt;
		busy = (u64)g->n_any * (dt - (gi - g->s_gidle) - (gu - g->s_gunk)) +
		       (u64)g->n_pinned * dt;
		for (m = 0; m < r->nmasks; m++) {
			u64 mi, mu;

			if (!g->r[m])
				continue;
			mi = wr_int_at(&r->mask[m].m_idle, now) - g->s_midle[m];
			mu = wr_int_at(&r->mask[m].m_unk, now) - g->s_munk[m];
			idle += (u64)g->r[m] * mi;
			unk += (u64)g->r[m] * mu;
			busy += (u64)g->r[m] * (dt - mi - mu);
		}
		g->a.wait_ns += (u64)g->n_total * dt;
		g->a.wait_idle_ns += idle;
		g->a.wait_unknown_ns += unk;
		g->a.wait_busy_ns += busy;
		w = wr_cg_rule(r, g, now);
		g->a.wasted_ns += w - g->s_w;
		g->s_w = w;
	}
	g->t = now;
	g->s_gidle = gi;
	g->s_gunk = gu;
	for (m = 0; m < r->nmasks; m++) {
		g->s_midle[m] = wr_int_at(&r->mask[m].m_idle, now);
		g->s_munk[m] = wr_int_at(&r->mask[m].m_unk, now);
	}
}

/* Row @g gains (@d > 0) or loses waiters of key @k. */
static void wr_cg_count(struct wr_replay *r, struct wr_cg *g, const struct wr_key *k, s32 d,
			u64 now)
{
	wr_cg_flush(r, g, now);
	g->n_total += d;
	switch (k->kind) {
	case WR_ANY:
		g->n_any += d;
		break;
	case WR_PINNED:
		g->n_pinned += d;
		break;
	case WR_UNKNOWN:
		g->n_unknown += d;
		break;
	case WR_RESTR:
		g->r[k->mask] += d;
		if (g->r[k->mask])
			g->rmasks |= 1u << k->mask;
		else
			g->rmasks &= ~(1u << k->mask);
		break;
	}
	g->s_w = wr_cg_rule(r, g, now);
}

void wr_cgs_flush(struct wr_replay *r, u64 now)
{
	u32 i;

	for (i = 0; i < WR_CGS; i++)
		if (r->cg[i].a.used)
			wr_cg_flush(r, &r->cg[i], now);
	wr_cg_flush(r, &r->other, now);
	wr_cg_flush(r, &r->tracked, now);
	wr_cg_flush(r, &r->unscanned, now);
}

/* ---- counts ---- */

static void wr_unk_change(struct wr_replay *r, s32 d, u64 now)
{
	u32 before = r->unk, s;

	r->unk += d;
	if (!before != !r->unk)
		for (s = 0; s < r->nsigs; s++)
			wr_int_set(&r->sig[s].unk, now, !*wr_cnt_sig(r, s, WR_DOM_ALL) && r->unk);
}

static inline void wr_sig_cnt(struct wr_replay *r, u32 s, u32 d, s32 delta, u64 now)
{
	struct wr_sd *sd = wr_sd(r, s, d);
	u32 before = sd->cnt;

	sd->cnt = before + delta;
	if (!before != !sd->cnt) {
		wr_int_set(&sd->a, now, sd->cnt > 0);
		if (d == WR_DOM_ALL)
			wr_sig_refresh(r, s, now);
	}
}

/* Is @sigs signature 0 alone (the common case: no restricted masks interned)? */
static inline bool likely_one(u32 sigs)
{
	return sigs == 1;
}

/* @delta waiters of @kind (@mask) on CPU @cpu, in every count that holds them. */
static void wr_count(struct wr_replay *r, u32 cpu, u8 kind, u8 mask, s32 delta, u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];
	u32 i;

	switch (kind) {
	case WR_ANY:
		for (i = 0; i < c->ncovers; i++) {
			u32 d = c->covers[i], sigs = r->dom[d].sigs;

			r->dom[d].cnt_any += delta;
			if (likely_one(sigs)) {	/* no restricted mask: signature 0 only */
				wr_sig_cnt(r, 0, d, delta, now);
				continue;
			}
			while (sigs) {
				wr_sig_cnt(r, wr_ffs64(sigs), d, delta, now);
				sigs &= sigs - 1;
			}
		}
		c->own_any += delta;
		break;
	case WR_RESTR:
		for (i = 0; i < c->ncovers; i++) {
			u32 d = c->covers[i], sigs = r->dom[d].sigs;

			*wr_cnt_mask(r, mask, d) += delta;
			while (sigs) {
				u32 s = wr_ffs64(sigs);

				if (r->sig[s].masks & (1u << mask))
					wr_sig_cnt(r, s, d, delta, now);
				sigs &= sigs - 1;
			}
		}
		c->own_mask[mask] += delta;
		break;
	case WR_UNKNOWN:
		wr_unk_change(r, delta, now);
		c->own_unknown += delta;
		break;
	default:
		break;
	}
	c->own_total += delta;
}

/* An idle CPU whose own waiters came or went: normal <-> special. */
static void wr_own_changed(struct wr_replay *r, struct wr_cpu *c, u32 cpu, u64 now)
{
	if (c->state != WR_IDLE || !!c->special == (c->own_total > 0))
		return;
	wr_close(r, c, now);
	wr_idle_leave(r, c, cpu, now);
	wr_idle_open(r, c, cpu, now);
}

static u64 wr_time(struct wr_replay *r, u64 now)
{
	if (now < r->now) {
		r->ovf.late++;
		return r->now;
	}
	r->now = now;
	return now;
}

/* The slot of key @k on @c (cgid, kind, mask, trk equal), or -1. */
static int wr_key_find(const struct wr_cpu *c, const struct wr_key *k)
{
	u32 i;

	for (i = 0; i < c->nkeys; i++) {
		const struct wr_key *e = &c->keys[i];

		if (e->cgid == k->cgid && e->kind == k->kind && e->trk == k->trk &&
		    e->mask == k->mask)
			return i;
	}
	return -1;
}

/* @delta waiters of key @k of CPU @cpu in the counts, its cgroup row and the tracked row. */
static void wr_key_count(struct wr_replay *r, u32 cpu, const struct wr_key *k, s32 delta,
			 u64 now)
{
	wr_count(r, cpu, k->kind, k->mask, delta, now);
	wr_cg_count(r, wr_row(r, k->row), k, delta, now);
	if (k->trk)
		wr_cg_count(r, &r->tracked, k, delta, now);
}

/*
 * One key's change: the mask's refs and, unless its CPU is idle, the
 * counts and rows.  Tasks queued on an idle CPU (woken there, not switched
 * in yet; or while the sampler that woke the CPU runs) are about to run
 * there: they wait from the CPU's switch to a task on (wr_keys_live()).
 */
static void wr_key_apply(struct wr_replay *r, u32 cpu, const struct wr_key *k, s32 delta,
			 u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];

	if (k->kind == WR_RESTR)
		r->mask[k->mask].refs += delta;
	if (c->state == WR_IDLE)
		return;
	wr_key_count(r, cpu, k, delta, now);
	wr_own_changed(r, c, cpu, now);
}

/* Every key of @cpu joins (@sign 1) or leaves (-1) the counts: its CPU turns busy or idle. */
static void wr_keys_live(struct wr_replay *r, u32 cpu, s32 sign, u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];
	u32 i;

	for (i = 0; i < c->nkeys; i++)
		wr_key_count(r, cpu, &c->keys[i], sign * (s32)c->keys[i].n, now);
}

/* A key as the replay keeps it: kind and mask valid, one flag value. */
static void wr_key_norm(const struct wr_replay *r, struct wr_key *k)
{
	if (k->kind >= WR_NR_KINDS || (k->kind == WR_RESTR && k->mask >= r->nmasks))
		k->kind = WR_UNKNOWN;
	if (k->kind != WR_RESTR)
		k->mask = 0;
	k->trk = !!k->trk;
}

/* The overflow key: cgroup and destinations unknown. */
static void wr_key_overflow(struct wr_key *k)
{
	k->cgid = 0;
	k->kind = WR_UNKNOWN;
	k->mask = 0;
	k->trk = 0;
}

static void wr_touch(struct wr_replay *r, u32 cpu)
{
	wr_set(r->touched, cpu);
}

void wr_add(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *key, u32 n)
{
	struct wr_cpu *c;
	struct wr_key k = *key;
	int i;

	now = wr_time(r, now);
	if (cpu >= r->nr_cpus || !n)
		return;
	c = &r->cpu[cpu];
	if (c->state == WR_OFF || c->state == WR_VOID)
		return;		/* no waiters are known there */
	wr_key_norm(r, &k);
	i = wr_key_find(c, &k);
	if (i < 0 && c->nkeys >= WR_KEYS - 1) {	/* the last slot is the overflow key's */
		r->ovf.keys += n;
		wr_key_overflow(&k);
		i = wr_key_find(c, &k);
	}
	if (i < 0) {
		i = c->nkeys++;
		k.n = 0;
		k.row = wr_row_of(r, &k, now);
		c->keys[i] = k;
	}
	c->keys[i].n += n;
	wr_touch(r, cpu);
	wr_key_apply(r, cpu, &c->keys[i], (s32)n, now);
	wr_special_update(r, now);
}

static void wr_key_remove(struct wr_replay *r, u32 cpu, int i, u32 n, u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];
	struct wr_key k = c->keys[i];

	if (n > k.n)
		n = k.n;
	c->keys[i].n -= n;
	if (!c->keys[i].n)
		c->keys[i] = c->keys[--c->nkeys];
	wr_key_apply(r, cpu, &k, -(s32)n, now);
}

void wr_del(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *key, u32 n)
{
	struct wr_cpu *c;
	struct wr_key k = *key;
	int i;

	now = wr_time(r, now);
	if (cpu >= r->nr_cpus || !n)
		return;
	c = &r->cpu[cpu];
	if (c->state == WR_OFF || c->state == WR_VOID)
		return;
	wr_key_norm(r, &k);
	i = wr_key_find(c, &k);
	if (i < 0) {	/* merged into the overflow key when it came */
		wr_key_overflow(&k);
		i = wr_key_find(c, &k);
		if (i < 0)
			return;
	}
	wr_touch(r, cpu);
	wr_key_remove(r, cpu, i, n, now);
	wr_special_update(r, now);
}

static void wr_clear_keys(struct wr_replay *r, u32 cpu, u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];

	while (c->nkeys)
		wr_key_remove(r, cpu, c->nkeys - 1, c->keys[c->nkeys - 1].n, now);
}

void wr_clear(struct wr_replay *r, u64 now, u32 cpu)
{
	now = wr_time(r, now);
	if (cpu >= r->nr_cpus)
		return;
	wr_clear_keys(r, cpu, now);
	wr_touch(r, cpu);
	wr_special_update(r, now);
}

void wr_set_keys(struct wr_replay *r, u64 now, u32 cpu, const struct wr_key *keys, u32 n)
{
	struct wr_key want[WR_KEYS];
	struct wr_cpu *c;
	u32 nw = 0, i, j;

	now = wr_time(r, now);
	if (cpu >= r->nr_cpus)
		return;
	c = &r->cpu[cpu];
	if (c->state == WR_OFF || c->state == WR_VOID)
		return;
	/* the wanted keys, merged as wr_add() would merge them */
	for (j = 0; j < n; j++) {
		struct wr_key k = keys[j];

		if (!k.n)
			continue;
		wr_key_norm(r, &k);
		for (i = 0; i < nw; i++)
			if (want[i].cgid == k.cgid && want[i].kind == k.kind &&
			    want[i].trk == k.trk && want[i].mask == k.mask)
				break;
		if (i == nw && nw == WR_KEYS - 1) {
			wr_key_overflow(&k);
			for (i = 0; i < nw; i++)
				if (!want[i].cgid && want[i].kind == WR_UNKNOWN && !want[i].trk)
					break;
		}
		if (i == nw) {
			want[nw] = k;
			want[nw++].n = 0;
		}
		want[i].n += k.n;
	}
	/* keys that went or shrank */
	for (i = 0; i < c->nkeys; ) {
		int w = -1;
		u32 before = c->nkeys;

		for (j = 0; j < nw; j++)
			if (wr_key_find(c, &want[j]) == (int)i)
				w = j;
		if (w < 0 || want[w].n < c->keys[i].n) {
			wr_touch(r, cpu);
			wr_key_remove(r, cpu, i, c->keys[i].n - (w < 0 ? 0 : want[w].n), now);
			if (c->nkeys < before)
				continue;	/* slot i now holds another key */
		}
		i++;
	}
	/* keys that came or grew */
	for (j = 0; j < nw; j++) {
		int s = wr_key_find(c, &want[j]);
		u32 have = s < 0 ? 0 : c->keys[s].n;

		if (want[j].n > have)
			wr_add(r, now, cpu, &want[j], want[j].n - have);
	}
	wr_special_update(r, now);
}

/* ---- CPU states ---- */

/* Idle and void counts per mask of @c's signature, and their integrals. */
static void wr_mask_states(struct wr_replay *r, struct wr_cpu *c, s32 didle, s32 dvoid, u64 now)
{
	u32 masks = r->sig[c->sig].masks;

	while (masks) {
		struct wr_mask *m = &r->mask[wr_ffs64(masks)];

		masks &= masks - 1;
		m->idle_in += didle;
		m->void_in += dvoid;
		wr_int_set(&m->m_idle, now, m->idle_in > 0);
		wr_int_set(&m->m_unk, now, !m->idle_in && m->void_in);
	}
}

static void wr_global_states(struct wr_replay *r, u64 now)
{
	wr_int_set(&r->g_idle, now, r->idle_count > 0);
	wr_int_set(&r->g_unk, now, !r->idle_count && r->void_count);
}

void wr_set_state(struct wr_replay *r, u64 now, u32 cpu, enum wr_state st)
{
	struct wr_cpu *c;
	u8 old;

	now = wr_time(r, now);
	if (cpu >= r->nr_cpus || st >= WR_NR_STATES)
		return;
	c = &r->cpu[cpu];
	old = c->state;
	if (old == st)
		return;
	wr_close(r, c, now);
	wr_touch(r, cpu);
	if (st == WR_OFF || st == WR_VOID)
		wr_clear_keys(r, cpu, now);	/* what waits there is not known */
	else if (st == WR_IDLE && old == WR_BUSY)
		wr_keys_live(r, cpu, -1, now);	/* its queued tasks are about to run */
	/* leave the old state */
	if (old == WR_IDLE) {
		wr_idle_leave(r, c, cpu, now);
		wr_clr(r->idle, cpu);
		r->idle_count--;
		wr_mask_states(r, c, -1, 0, now);
	} else if (old == WR_BUSY) {
		r->busy_count--;
	} else if (old == WR_VOID) {
		wr_clr(r->vd, cpu);
		r->void_count--;
		wr_mask_states(r, c, 0, -1, now);
		wr_unk_change(r, -1, now);
	}
	c->state = st;
	/* enter the new one */
	if (st == WR_IDLE) {
		wr_set(r->idle, cpu);
		r->idle_count++;
		wr_mask_states(r, c, 1, 0, now);
		wr_idle_open(r, c, cpu, now);
		c->idle_at = now;
		if (c->special)
			c->idle_lvl = c->cls == WASTED_C_WASTE ? c->lvl : WASTED_LVL_NONE;
		else if (wr_class_of(r, c, &c->idle_lvl) != WASTED_C_WASTE)
			c->idle_lvl = WASTED_LVL_NONE;
	} else if (st == WR_BUSY) {
		r->busy_count++;
		c->busy_at = now;
		if (old == WR_IDLE)
			wr_keys_live(r, cpu, 1, now);	/* the rest wait behind the one it runs */
	} else if (st == WR_VOID) {
		wr_set(r->vd, cpu);
		r->void_count++;
		wr_mask_states(r, c, 0, 1, now);
		wr_unk_change(r, 1, now);
	}
	wr_global_states(r, now);
	wr_special_update(r, now);
}

/* ---- masks ---- */

/* Move CPU @cpu to signature @s at @now (its open piece closed first). */
static void wr_cpu_sig(struct wr_replay *r, u32 cpu, u32 s, u64 now)
{
	struct wr_cpu *c = &r->cpu[cpu];
	u32 l;

	wr_close(r, c, now);
	if (c->state == WR_IDLE)
		wr_idle_account(r, c, now, true);
	r->sig[c->sig].cpus--;
	c->sig = s;
	r->sig[s].cpus++;
	for (l = 0; l < c->nchain; l++)
		wr_sig_use(r, s, c->chain[l], now);
	if (c->state == WR_IDLE) {
		if (c->special)
			c->cls = wr_class_of(r, c, &c->lvl);
		else
			wr_snap(r, c, now);
		wr_idle_account(r, c, now, false);
	}
}

/* Give mask @m (just interned) to the signatures of the CPUs it holds. */
static int wr_mask_spread(struct wr_replay *r, u32 m, u64 now)
{
	struct wr_mask *mk = &r->mask[m];
	u32 k, need = 0, seen = 0;

	/* room for every new signature first: nothing changes on failure */
	for (k = 0; k < WR_MASK_WORDS; k++) {
		u64 b = mk->bits[k];

		while (b) {
			u32 cpu = (wr_mask_base(mk) + k) * 64 + wr_ffs64(b), s, x;

			b &= b - 1;
			if (cpu >= r->nr_cpus)
				continue;
			s = r->cpu[cpu].sig;
			if (seen & (1u << s))
				continue;
			seen |= 1u << s;
			for (x = 0; x < r->nsigs; x++)
				if (r->sig[x].masks == (r->sig[s].masks | (1u << m)))
					break;
			if (x == r->nsigs)
				need++;
		}
	}
	if (r->nsigs + need > WR_SIGS)
		return -1;
	mk->idle_in = mk->void_in = 0;
	for (k = 0; k < WR_MASK_WORDS; k++) {
		u64 b = mk->bits[k];

		while (b) {
			u32 cpu = (wr_mask_base(mk) + k) * 64 + wr_ffs64(b);
			struct wr_cpu *c;

			b &= b - 1;
			if (cpu >= r->nr_cpus)
				continue;
			c = &r->cpu[cpu];
			wr_cpu_sig(r, cpu, wr_sig_get(r, r->sig[c->sig].masks | (1u << m), now), now);
			mk->idle_in += c->state == WR_IDLE;
			mk->void_in += c->state == WR_VOID;
		}
	}
	wr_int_start(&mk->m_idle, now, mk->idle_in > 0);
	wr_int_start(&mk->m_unk, now, !mk->idle_in && mk->void_in);
	wr_special_update(r, now);
	return 0;
}

int wr_mask(struct wr_replay *r, u64 now, u16 base, const u64 *bits)
{
	u32 m, k;

	for (m = 0; m < r->nmasks; m++) {
		if (r->mask[m].base != base)
			continue;
		for (k = 0; k < WR_MASK_WORDS && r->mask[m].bits[k] == bits[k]; k++)
			;
		if (k == WR_MASK_WORDS)
			return m;
	}
	if (r->nmasks == WR_MASKS) {
		r->ovf.masks++;
		return -1;
	}
	now = wr_time(r, now);
	m = r->nmasks;
	r->mask[m].base = base;
	r->mask[m].refs = 0;
	for (k = 0; k < WR_MASK_WORDS; k++)
		r->mask[m].bits[k] = bits[k];
	for (k = 0; k < r->ndom; k++)
		*wr_cnt_mask(r, m, k) = 0;
	r->nmasks++;
	if (wr_mask_spread(r, m, now)) {
		r->nmasks--;
		r->ovf.masks++;
		return -1;
	}
	return m;
}

/* ---- topology ---- */

static u32 wr_span_hash(const u64 *s, u32 words)
{
	u64 h = 0x84222325cbf29ce4ULL;
	u32 i;

	for (i = 0; i < words; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return (u32)(h >> 32);
}

/* The domain of span @s, added if new; -1 when @dom_cap are taken. */
static int wr_dom_get(struct wr_replay *r, const u64 *s)
{
	u32 cap = 2 * r->dom_cap, h = wr_span_hash(s, r->words) % cap, i, k;
	u32 *tab = r->hash;

	for (i = 0; i < cap; i++) {
		u32 e = tab[(h + i) % cap];
		const u64 *d;

		if (!e)
			break;
		d = wr_dom(r, e - 1);
		for (k = 0; k < r->words && d[k] == s[k]; k++)
			;
		if (k == r->words)
			return e - 1;
	}
	if (i == cap || r->ndom == r->dom_cap)
		return -1;
	for (k = 0; k < r->words; k++)
		wr_dom(r, r->ndom)[k] = s[k];
	tab[(h + i) % cap] = r->ndom + 1;
	return r->ndom++;
}

/* Domains, chains and covers from @t (no counts: every CPU must be OFF and keyless). */
static int wr_build(struct wr_replay *r, const struct wasted_topo *t)
{
	u32 c, l, k, d, *tab = r->hash;
	u64 *all;

	r->ndom = 0;
	for (k = 0; k < 2 * r->dom_cap; k++)
		tab[k] = 0;
	for (d = 0; d < r->dom_cap; d++) {
		r->dom[d].sigs = 0;
		r->dom[d].cnt_any = 0;
	}
	/* domain 0: every CPU */
	all = wr_dom(r, 0);
	for (k = 0; k < r->words; k++)
		all[k] = 0;
	for (c = 0; c < r->nr_cpus; c++)
		wr_set(all, c);
	if (wr_dom_get(r, all) != WR_DOM_ALL)
		return -1;
	for (c = 0; c < r->nr_cpus; c++) {
		struct wr_cpu *cp = &r->cpu[c];
		u32 n = c < t->nr_cpus ? t->nlev[c] : 0;

		if (n > WASTED_MAX_DOMAINS)
			n = WASTED_MAX_DOMAINS;
		cp->nchain = 0;
		cp->ncovers = 0;
		for (l = 0; l < n; l++) {
			int id = wr_dom_get(r, wasted_topo_span(t, c, l));

			if (id < 0)
				return -1;
			cp->chain[cp->nchain] = id;
			cp->chain_lvl[cp->nchain++] = t->slot[c * WASTED_MAX_DOMAINS + l] <
						      WASTED_LVL_NONE ?
						      t->slot[c * WASTED_MAX_DOMAINS + l] :
						      WASTED_LVL_OTHER;
		}
		cp->chain[cp->nchain] = WR_DOM_ALL;
		cp->chain_lvl[cp->nchain++] = WASTED_LVL_NONE;
	}
	/* covers: every domain holding each CPU */
	for (d = 0; d < r->ndom; d++) {
		const u64 *s = wr_dom(r, d);

		for (k = 0; k < r->words; k++) {
			u64 b = s[k];

			while (b) {
				u32 cpu = k * 64 + wr_ffs64(b);
				struct wr_cpu *cp;

				b &= b - 1;
				if (cpu >= r->nr_cpus)
					continue;
				cp = &r->cpu[cpu];
				if (cp->ncovers == WR_COVERS) {
					r->ovf.covers++;
					return -2;	/* overlapping groups beyond what is kept */
				}
				cp->covers[cp->ncovers++] = d;
			}
		}
	}
	return 0;
}

/* Signatures from scratch: every CPU in signature 0, then each mask spread again. */
static void wr_sigs_rebuild(struct wr_replay *r, u64 now)
{
	u32 c, m, l, n = r->nmasks;

	r->nsigs = 0;
	r->sig[0].masks = 0;
	wr_sig_get(r, 0, now);
	r->sig[0].cpus = r->nr_cpus;
	for (c = 0; c < r->nr_cpus; c++) {
		r->cpu[c].sig = 0;
		for (l = 0; l < r->cpu[c].nchain; l++)
			wr_sig_use(r, 0, r->cpu[c].chain[l], now);
	}
	for (m = 0; m < n; m++) {
		r->nmasks = m + 1;
		if (wr_mask_spread(r, m, now)) {
			/* the masks that fitted before may not fit now: forget the rest */
			r->nmasks = m;
			r->ovf.masks += n - m;
			break;
		}
	}
}

static void wr_start(struct wr_replay *r, u64 now)
{
	u32 c;

	r->now = now;
	r->idle_count = r->void_count = r->busy_count = r->unk = r->nr_special = 0;
	for (c = 0; c < r->words; c++) {
		r->idle[c] = r->special[c] = 0;
		r->vd[c] = r->touched[c] = 0;
	}
	wr_int_start(&r->g_idle, now, false);
	wr_int_start(&r->g_unk, now, false);
	r->w_all.acc = 0;
	r->w_all.t = now;
	r->w_all.v = 0;
	for (c = 0; c < r->nr_cpus; c++) {
		struct wr_cpu *cp = &r->cpu[c];

		cp->state = WR_OFF;
		cp->nkeys = 0;
		cp->special = 0;
		cp->since = now;
		cp->own_any = cp->own_unknown = cp->own_total = 0;
	}
}

int wr_init(struct wr_replay *r, void *mem, u32 nr_cpus, u32 dom_cap,
	    const struct wasted_topo *t, u64 now)
{
	struct wr_layout l;
	u8 *b = mem;
	int err;

	wr_layout_of(&l, nr_cpus, dom_cap);
	r->nr_cpus = nr_cpus;
	r->words = (nr_cpus + 63) / 64;
	r->dom_cap = dom_cap;
	r->cpu = (struct wr_cpu *)(b + l.cpu);
	r->dom_span = (u64 *)(b + l.dom_span);
	r->dom = (struct wr_dom *)(b + l.dom);
	r->cnt_mask = (u32 *)(b + l.cnt_mask);
	r->sd = (struct wr_sd *)(b + l.sd);
	r->idle = (u64 *)(b + l.idle);
	r->special = (u64 *)(b + l.special);
	r->vd = (u64 *)(b + l.vd);
	r->touched = (u64 *)(b + l.touched);
	r->hash = (u32 *)(b + l.hash);
	r->nmasks = 0;
	wr_start(r, now);
	err = wr_build(r, t);
	if (err)
		return err;
	wr_sigs_rebuild(r, now);
	return 0;
}

bool wr_topology_same(const struct wr_replay *r, const struct wasted_topo *t)
{
	u32 c, l, k;

	for (c = 0; c < r->nr_cpus; c++) {
		const struct wr_cpu *cp = &r->cpu[c];
		u32 n = c < t->nr_cpus ? t->nlev[c] : 0;

		if (n > WASTED_MAX_DOMAINS)
			n = WASTED_MAX_DOMAINS;
		if (cp->nchain != n + 1)
			return false;
		for (l = 0; l < n; l++) {
			const u64 *a = wr_dom(r, cp->chain[l]), *b = wasted_topo_span(t, c, l);
			u8 lv = t->slot[c * WASTED_MAX_DOMAINS + l];

			if (lv >= WASTED_LVL_NONE)
				lv = WASTED_LVL_OTHER;
			if (cp->chain_lvl[l] != lv)
				return false;
			for (k = 0; k < r->words; k++)
				if (a[k] != b[k])
					return false;
		}
	}
	return true;
}

int wr_topology(struct wr_replay *r, const struct wasted_topo *t, u64 now)
{
	u32 c, i;
	int err;

	now = wr_time(r, now);
	wr_close_all(r, now);
	/*
	 * Take every CPU out (its waiters and state, at this instant: no time
	 * is accounted), rebuild, and put them back.  The keys stay in their
	 * slots while the CPU reads as having none.
	 */
	for (c = 0; c < r->nr_cpus; c++) {
		struct wr_cpu *cp = &r->cpu[c];
		u8 nk = cp->nkeys;

		for (i = 0; i < nk; i++)
			wr_key_apply(r, c, &cp->keys[i], -(s32)cp->keys[i].n, now);
		cp->nkeys = 0;
		cp->saved_state = cp->state;
		wr_set_state(r, now, c, WR_OFF);
		cp->nkeys = nk;
	}
	err = wr_build(r, t);
	if (err) {
		for (c = 0; c < r->nr_cpus; c++)
			r->cpu[c].nkeys = 0;
		return err;
	}
	wr_sigs_rebuild(r, now);
	for (c = 0; c < r->nr_cpus; c++) {
		struct wr_cpu *cp = &r->cpu[c];
		u8 nk = cp->nkeys;

		cp->nkeys = 0;
		wr_set_state(r, now, c, cp->saved_state);
		if (cp->state == WR_OFF || cp->state == WR_VOID)
			continue;
		cp->nkeys = nk;
		for (i = 0; i < nk; i++) {
			wr_key_norm(r, &cp->keys[i]);	/* a mask forgotten: unknown now */
			wr_key_apply(r, c, &cp->keys[i], (s32)cp->keys[i].n, now);
		}
	}
	wr_special_update(r, now);
	return 0;
}

/* ---- per sample ---- */

void wr_sample_close(struct wr_replay *r, u64 now, const u64 *more)
{
	u64 *touched = r->touched, *vd = r->vd;
	u32 i;

	now = wr_time(r, now);
	for (i = 0; i < r->words; i++) {
		u64 b = r->idle[i] | vd[i] | touched[i] | (more ? more[i] : 0);

		touched[i] = 0;
		while (b) {
			u32 cpu = i * 64 + wr_ffs64(b);

			b &= b - 1;
			if (cpu < r->nr_cpus)
				wr_close(r, &r->cpu[cpu], now);
		}
	}
}

void wr_close_all(struct wr_replay *r, u64 now)
{
	u32 c;

	now = wr_time(r, now);
	for (c = 0; c < r->nr_cpus; c++)
		wr_close(r, &r->cpu[c], now);
}

void wr_zero(struct wr_replay *r, u64 now)
{
	u32 c, i;

	now = wr_time(r, now);
	wr_close_all(r, now);
	wr_cgs_flush(r, now);
	for (c = 0; c < r->nr_cpus; c++) {
		struct wr_pieces *p = &r->cpu[c].p;
		u32 l;

		p->busy = p->none = p->unknown = p->vd = p->off = 0;
		for (l = 0; l < WASTED_NR_LEVELS; l++)
			p->level[l] = 0;
	}
	for (i = 0; i < WR_CGS; i++) {
		struct wasted_cg_acc *a = &r->cg[i].a;

		a->wasted_ns = a->wait_ns = a->wait_idle_ns = a->wait_busy_ns = 0;
		a->wait_unknown_ns = 0;
	}
	r->other.a.wasted_ns = r->other.a.wait_ns = r->other.a.wait_idle_ns = 0;
	r->other.a.wait_busy_ns = r->other.a.wait_unknown_ns = 0;
	r->tracked.a.wasted_ns = r->tracked.a.wait_ns = r->tracked.a.wait_idle_ns = 0;
	r->tracked.a.wait_busy_ns = r->tracked.a.wait_unknown_ns = 0;
	r->unscanned.a.wasted_ns = r->unscanned.a.wait_ns = r->unscanned.a.wait_idle_ns = 0;
	r->unscanned.a.wait_busy_ns = r->unscanned.a.wait_unknown_ns = 0;
}

u64 wr_cause_cgid(const struct wr_replay *r, u32 cpu)
{
	const struct wr_cpu *c;
	u32 l, k;

	if (cpu >= r->nr_cpus)
		return 0;
	c = &r->cpu[cpu];
	for (l = 0; l < c->nchain; l++) {
		const u64 *span = wr_dom(r, c->chain[l]);

		for (k = 0; k < r->words; k++) {
			u64 b = span[k];

			while (b) {
				u32 s = k * 64 + wr_ffs64(b), i;
				const struct wr_cpu *o;

				b &= b - 1;
				if (s == cpu || s >= r->nr_cpus)
					continue;
				o = &r->cpu[s];
				if (o->state == WR_IDLE)
					continue;	/* its queued tasks do not wait */
				for (i = 0; i < o->nkeys; i++) {
					const struct wr_key *key = &o->keys[i];

					if (key->n && key->cgid &&
					    (key->kind == WR_ANY || (key->kind == WR_RESTR &&
					     wr_mask_has(&r->mask[key->mask], cpu))))
						return key->cgid;
				}
			}
		}
	}
	return 0;
}
