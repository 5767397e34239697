// SPDX-License-Identifier: GPL-2.0
/*
 * wasted_core: the pure half of wasted-core time and the wait split (see
 * wasted_core.h): one sample's classification of every CPU and waiter,
 * and the accumulators the sampler adds each sample to.
 */
#include <linux/types.h>
#include "wasted_core.h"

const char * const wasted_level_name[WASTED_NR_LEVELS] = {
	[WASTED_LVL_SMT]	= "SMT",
	[WASTED_LVL_CLS]	= "CLS",
	[WASTED_LVL_MC]		= "MC",
	[WASTED_LVL_PKG]	= "PKG",
	[WASTED_LVL_DIE]	= "DIE",
	[WASTED_LVL_NUMA]	= "NUMA",
	[WASTED_LVL_OTHER]	= "other",
	[WASTED_LVL_NONE]	= "none",
};

const char * const wasted_cause_name[WASTED_NR_CAUSES] = {
	[WASTED_CAUSE_NONE]	 = "-",
	[WASTED_CAUSE_MOVED]	 = "moved",
	[WASTED_CAUSE_KICKED]	 = "active_kicked",
	[WASTED_CAUSE_PINNED]	 = "pinned",
	[WASTED_CAUSE_RUNNING]	 = "running",
	[WASTED_CAUSE_HOT]	 = "cache_hot",
	[WASTED_CAUSE_LLC]	 = "llc_policy",
	[WASTED_CAUSE_THROTTLED] = "throttled",
	[WASTED_CAUSE_LOAD]	 = "load_above_imbalance",
	[WASTED_CAUSE_NO_TASK]	 = "no_task_examined",
	[WASTED_CAUSE_UNKNOWN]	 = "cause_unknown",
};

int wasted_level_of(const char *name)
{
	int i, k;

	for (i = 0; i < WASTED_LVL_NONE; i++) {
		const char *a = wasted_level_name[i];

		for (k = 0; k < 8 && a[k] && a[k] == name[k]; k++)
			;
		if (k == 8 || (!a[k] && !name[k]))
			return i;
	}
	return WASTED_LVL_OTHER;
}

/* --- small bitmaps of u64 words --- */

static inline void bm_zero(u64 *b, u32 words)
{
	u32 i;

	for (i = 0; i < words; i++)
		b[i] = 0;
}

static inline void bm_set(u64 *b, u32 bit)
{
	b[bit / 64] |= (u64)1 << (bit % 64);
}

static inline bool bm_test(const u64 *b, u32 bit)
{
	return b[bit / 64] & ((u64)1 << (bit % 64));
}

static inline bool bm_empty(const u64 *b, u32 words)
{
	u32 i;

	for (i = 0; i < words; i++)
		if (b[i])
			return false;
	return true;
}

/* Is any bit other than @skip set in @b? */
static inline bool bm_any_but(const u64 *b, u32 words, u32 skip)
{
	u32 i;

	for (i = 0; i < words; i++) {
		u64 v = b[i];

		if (i == skip / 64)
			v &= ~((u64)1 << (skip % 64));
		if (v)
			return true;
	}
	return false;
}

/* Do the first @mwords words of @mask meet @b (of @words words)? */
static inline bool bm_meets(const u64 *mask, u32 mwords, const u64 *b, u32 words)
{
	u32 i, n = mwords < words ? mwords : words;

	for (i = 0; i < n; i++)
		if (mask[i] & b[i])
			return true;
	return false;
}

/*
 * The recorded restricted masks: restricted[r] of a summary is a window
 * of SHADOW_WORK_MASK_WORDS words whose word k holds CPUs
 * (base[r] + k) * 64 .. (base[r] + k) * 64 + 63 (core/work.h).  Every
 * reader below places it by wasted_base().
 */
static inline u32 wasted_base(const struct shadow_work *w, u32 r)
{
	return w->base[r];
}

/* Is CPU @cpu in restricted[r] of @w? */
static inline bool wasted_mask_test(const struct shadow_work *w, u32 r, u32 cpu)
{
	u32 k = cpu / 64 - wasted_base(w, r);	/* wraps when below the window */

	return k < SHADOW_WORK_MASK_WORDS && (w->restricted[r][k] & ((u64)1 << (cpu % 64)));
}

/* Does restricted[r] of @w meet @b (a bitmap of @words words)? */
static inline bool wasted_mask_meets(const struct shadow_work *w, u32 r, const u64 *b, u32 words)
{
	u32 k, base = wasted_base(w, r);

	for (k = 0; k < SHADOW_WORK_MASK_WORDS && base + k < words; k++)
		if (w->restricted[r][k] & b[base + k])
			return true;
	return false;
}

/* Or restricted[r] of @w into @b (a bitmap of @words words). */
static inline void wasted_mask_or(u64 *b, u32 words, const struct shadow_work *w, u32 r)
{
	u32 k, base = wasted_base(w, r);

	for (k = 0; k < SHADOW_WORK_MASK_WORDS && base + k < words; k++)
		b[base + k] |= w->restricted[r][k];
}

/* `any' waiters, those of bandwidth-limited groups included (their throttling elsewhere is not read) */
static inline u32 wasted_any(const struct shadow_work *w)
{
	u32 i, n = w->nr_tg < SHADOW_WORK_TGS ? w->nr_tg : SHADOW_WORK_TGS, t = w->any;

	for (i = 0; i < n; i++)
		t += w->tg_any[i];
	return t;
}

static inline u32 wasted_nr_restricted(const struct shadow_work *w)
{
	return w->nr_restricted > SHADOW_WORK_RESTRICTED ? SHADOW_WORK_RESTRICTED :
	       w->nr_restricted;
}

/* The tick slot of @cgid, or -1 when they are all taken. */
static int wasted_tick_cg(struct wasted_scratch *s, u64 cgid)
{
	u32 i, k;

	for (i = 0; i < s->nr_cg; i++)
		if (s->cg[i].cgid == cgid)
			return i;
	if (s->nr_cg == WASTED_TICK_CGS)
		return -1;
	i = s->nr_cg++;
	s->cg[i].cgid = cgid;
	s->cg[i].any = 0;
	s->cg[i].n_idle = 0;
	s->cg[i].n_busy = 0;
	s->cg[i].n_unknown = 0;
	s->cg[i].dest = s->dest + (u64)i * s->words;
	for (k = 0; k < s->words; k++)
		s->cg[i].dest[k] = 0;
	return i;
}

enum { WAIT_IDLE, WAIT_BUSY, WAIT_UNKNOWN };

/*
 * Wait class of a waiter allowed on restricted[@r] of @w (@w NULL: every
 * online CPU): an allowed CPU idle, all allowed busy, or unknown (an
 * allowed CPU's state is).  Its own CPU is busy (it waits there), so it
 * never counts as idle.
 */
static int wasted_wait_class(const struct wasted_scratch *s, const struct shadow_work *w, u32 r)
{
	if (!w) {
		if (!bm_empty(s->idle, s->words))
			return WAIT_IDLE;
		return bm_empty(s->voidm, s->words) ? WAIT_BUSY : WAIT_UNKNOWN;
	}
	if (wasted_mask_meets(w, r, s->idle, s->words))
		return WAIT_IDLE;
	if (wasted_mask_meets(w, r, s->voidm, s->words))
		return WAIT_UNKNOWN;
	return WAIT_BUSY;
}

/*
 * One waiter of @kind (allowed on restricted[@r] of @w if @w is not NULL)
 * and wait class @cls in @g, whose dest has @words words.
 */
static void wasted_tick_note(struct wasted_tick_cg *g, u32 words, u8 kind,
			     const struct shadow_work *w, u32 r, int cls)
{
	if (kind == WASTED_W_ANY)
		g->any++;
	else if (w)
		wasted_mask_or(g->dest, words, w, r);
	if (cls == WAIT_IDLE)
		g->n_idle++;
	else if (cls == WAIT_BUSY)
		g->n_busy++;
	else
		g->n_unknown++;
}

/* Note every waiter of one busy/idle CPU: cgroups, destinations, wait classes. */
static void wasted_note_waiters(struct wasted_scratch *s, const struct wasted_in *c)
{
	const struct shadow_work *w = c->w;
	const struct shadow_wasted_ids *ids = c->ids;
	u32 nr = ids->valid ? ids->nr : 0, i, unk_entries = 0, nres = wasted_nr_restricted(w);

	if (nr > WASTED_IDS_MAX)
		nr = WASTED_IDS_MAX;
	for (i = 0; i < nr; i++) {
		u8 kind = ids->kind[i] & ~WASTED_W_TRACKED;
		bool trk = ids->kind[i] & WASTED_W_TRACKED;
		int slot = wasted_tick_cg(s, ids->cgid[i]), cls;
		const struct shadow_work *mw = NULL;	/* restricted[kind] of mw */

		s->waiters++;
		if (kind <= WASTED_W_R3 && kind < nres)
			mw = w;
		else if (kind <= WASTED_W_R3)
			kind = WASTED_W_UNKNOWN;	/* the summary dropped that mask */
		switch (kind) {
		case WASTED_W_ANY:
			cls = wasted_wait_class(s, NULL, 0);
			break;
		case WASTED_W_PINNED:
			cls = WAIT_BUSY;
			break;
		case WASTED_W_UNKNOWN:
			unk_entries++;
			cls = WAIT_UNKNOWN;
			break;
		default:
			cls = wasted_wait_class(s, mw, kind);
			break;
		}
		if (trk)
			wasted_tick_note(&s->trk, s->words, kind, mw, kind, cls);
		if (slot < 0) {
			if (cls == WAIT_IDLE)
				s->other_idle++;
			else if (cls == WAIT_BUSY)
				s->other_busy++;
			else
				s->other_unknown++;
			continue;
		}
		wasted_tick_note(&s->cg[slot], s->words, kind, mw, kind, cls);
	}
	/* unknown waiters without an entry: past the scan (or past the ids) */
	if (w->unknown > unk_entries)
		s->unscanned += w->unknown - unk_entries;
}

void wasted_classify(const struct wasted_topo *t, const struct wasted_in *in, u32 n,
		     struct wasted_scratch *s, struct wasted_out *out)
{
	u32 words = s->words, c, i, l;

	bm_zero(s->idle, words);
	bm_zero(s->voidm, words);
	bm_zero(s->any_src, words);
	bm_zero(s->unk_src, words);
	s->nr_rsrc = 0;
	s->nr_cg = 0;
	s->other_idle = s->other_busy = s->other_unknown = 0;
	s->unscanned = 0;
	s->waiters = 0;
	s->trk.any = s->trk.n_idle = s->trk.n_busy = s->trk.n_unknown = 0;
	s->trk.dest = s->dest + (u64)WASTED_TICK_CGS * words;
	bm_zero(s->trk.dest, words);

	/* pass 1: who is idle, who is unknown, who has work for whom */
	for (c = 0; c < n; c++) {
		const struct shadow_work *w = in[c].w;

		switch (in[c].state) {
		case WASTED_IN_OFF:
			continue;
		case WASTED_IN_VOID:
			bm_set(s->voidm, c);
			bm_set(s->unk_src, c);
			continue;
		case WASTED_IN_IDLE:
			bm_set(s->idle, c);
			break;
		default:
			break;
		}
		if (wasted_any(w))
			bm_set(s->any_src, c);
		if (w->unknown)
			bm_set(s->unk_src, c);
		if (wasted_nr_restricted(w))
			s->rsrc[s->nr_rsrc++] = c;
	}

	/* pass 2: each waiter's cgroup, destinations and wait class */
	for (c = 0; c < n; c++)
		if (in[c].state == WASTED_IN_IDLE || in[c].state == WASTED_IN_BUSY)
			wasted_note_waiters(s, &in[c]);

	/* pass 3: each CPU's class */
	for (c = 0; c < n; c++) {
		struct wasted_out *o = &out[c];
		bool yes;

		o->level = WASTED_LVL_NONE;
		o->cg_other = false;
		o->trk = false;
		o->cgs = 0;
		switch (in[c].state) {
		case WASTED_IN_OFF:
			o->cls = WASTED_C_OFF;
			continue;
		case WASTED_IN_VOID:
			o->cls = WASTED_C_VOID;
			continue;
		case WASTED_IN_BUSY:
			o->cls = WASTED_C_BUSY;
			continue;
		default:
			break;
		}
		/* the CPUs with a waiter that could run on c (c itself has none) */
		for (i = 0; i < words; i++)
			s->yes[i] = s->any_src[i];
		for (i = 0; i < s->nr_rsrc; i++) {
			u32 src = s->rsrc[i], r, nres = wasted_nr_restricted(in[src].w);

			for (r = 0; r < nres; r++)
				if (wasted_mask_test(in[src].w, r, c)) {
					bm_set(s->yes, src);
					break;
				}
		}
		yes = bm_any_but(s->yes, words, c);
		if (!yes) {
			o->cls = bm_any_but(s->unk_src, words, c) ? WASTED_C_UNKNOWN : WASTED_C_NONE;
			continue;
		}
		o->cls = WASTED_C_WASTE;
		if (c < t->nr_cpus)
			for (l = 0; l < t->nlev[c] && l < WASTED_MAX_DOMAINS; l++)
				if (bm_meets(wasted_topo_span(t, c, l), t->words, s->yes, words)) {
					o->level = t->slot[c * WASTED_MAX_DOMAINS + l];
					break;
				}
		/* the cgroups with such a waiter */
		for (i = 0; i < s->nr_cg; i++)
			if (s->cg[i].any || bm_test(s->cg[i].dest, c))
				o->cgs |= (u64)1 << i;
		if (s->other_idle || s->other_busy || s->other_unknown)
			o->cg_other = true;	/* waiters without a slot may be among them */
		o->trk = s->trk.any || bm_test(s->trk.dest, c);
	}
}

bool wasted_state_same(const struct wasted_state *s, bool busy, const struct shadow_work *w,
		       const struct shadow_wasted_ids *ids)
{
	u32 i, k, n = wasted_nr_restricted(w);

	if (s->busy != busy || wasted_any(&s->work) != wasted_any(w) || s->work.pinned != w->pinned ||
	    s->work.unknown != w->unknown || s->work.nr_restricted != w->nr_restricted ||
	    s->ids.valid != ids->valid || s->ids.nr != ids->nr)
		return false;
	for (i = 0; i < n; i++) {
		if (wasted_base(&s->work, i) != wasted_base(w, i))
			return false;	/* the same words placed elsewhere */
		for (k = 0; k < SHADOW_WORK_MASK_WORDS; k++)
			if (s->work.restricted[i][k] != w->restricted[i][k])
				return false;
	}
	for (i = 0; i < ids->nr && i < WASTED_IDS_MAX; i++)
		if (s->ids.kind[i] != ids->kind[i] || s->ids.cgid[i] != ids->cgid[i])
			return false;
	return true;
}

void wasted_keys_add(struct wasted_keys *t, u32 key, u64 ns, u32 attempts)
{
	u32 i;

	for (i = 0; i < t->nr; i++)
		if (t->k[i].key == key)
			goto add;
	if (t->nr == WASTED_KEYS) {
		t->other_ns += ns;
		t->other_attempts += attempts;
		return;
	}
	i = t->nr++;
	t->k[i].key = key;
	t->k[i].ns = 0;
	t->k[i].attempts = 0;
add:
	t->k[i].ns += ns;
	t->k[i].attempts += attempts;
}

bool wasted_cpu_add(struct wasted_cpu_acc *a, const struct wasted_out *o, u64 ns,
		    u64 *ended_ns, u64 *gap_ns)
{
	if (o->cls != WASTED_C_OFF)
		a->sampled_ns += ns;
	switch (o->cls) {
	case WASTED_C_WASTE:
		a->idle_ns += ns;
		a->wasted_ns += ns;
		a->level_ns[o->level < WASTED_NR_LEVELS ? o->level : WASTED_LVL_OTHER] += ns;
		if (!a->in_stretch) {
			a->intervals++;
			a->in_stretch = true;
			a->stretch_ns = 0;
		}
		a->stretch_ns += a->gap_ns + ns;	/* a short gap is part of the stretch */
		a->gap_ns = 0;
		if (a->stretch_ns > a->longest_ns)
			a->longest_ns = a->stretch_ns;
		return false;
	case WASTED_C_NONE:
	case WASTED_C_UNKNOWN:
		a->idle_ns += ns;
		if (o->cls == WASTED_C_UNKNOWN)
			a->unknown_ns += ns;
		break;
	case WASTED_C_VOID:
		a->unknown_ns += ns;
		break;
	default:
		break;
	}
	if (!a->in_stretch)
		return false;
	a->gap_ns += ns;
	if (a->gap_ns <= WASTED_STRETCH_GAP_NS)
		return false;
	*ended_ns = a->stretch_ns;
	*gap_ns = a->gap_ns;
	a->in_stretch = false;
	a->stretch_ns = a->gap_ns = 0;
	return true;
}

/* A multiplicative hash of the id (no division): the table's start slot. */
static inline u32 wasted_cg_hash(u64 cgid)
{
	return (u32)((cgid * 0x9E3779B97F4A7C15ULL) >> 56) % WASTED_CGS;
}

struct wasted_cg_acc *wasted_cg_get(struct wasted_cgs *t, u64 cgid)
{
	u32 h = wasted_cg_hash(cgid), i;

	for (i = 0; i < WASTED_CGS; i++) {
		struct wasted_cg_acc *a = &t->slot[(h + i) % WASTED_CGS];

		if (a->used && a->cgid == cgid)
			return a;
		if (!a->used) {
			if (t->nr >= WASTED_CGS - WASTED_CGS / 8)
				break;	/* keep the table sparse: the rest is "other" */
			a->used = true;
			a->cgid = cgid;
			a->wasted_ns = a->wait_ns = a->wait_idle_ns = 0;
			a->wait_busy_ns = a->wait_unknown_ns = 0;
			t->nr++;
			return a;
		}
	}
	return &t->other;
}

void wasted_cgs_add(struct wasted_cgs *t, const struct wasted_scratch *s,
		    const struct wasted_out *out, u32 n, u64 ns)
{
	struct wasted_cg_acc *acc[WASTED_TICK_CGS];
	u32 i, c;

	for (i = 0; i < s->nr_cg; i++) {
		const struct wasted_tick_cg *g = &s->cg[i];
		struct wasted_cg_acc *a = wasted_cg_get(t, g->cgid);

		acc[i] = a;
		a->wait_ns += ns * (g->n_idle + g->n_busy + g->n_unknown);
		a->wait_idle_ns += ns * g->n_idle;
		a->wait_busy_ns += ns * g->n_busy;
		a->wait_unknown_ns += ns * g->n_unknown;
	}
	t->other.wait_ns += ns * (s->other_idle + s->other_busy + s->other_unknown);
	t->other.wait_idle_ns += ns * s->other_idle;
	t->other.wait_busy_ns += ns * s->other_busy;
	t->other.wait_unknown_ns += ns * s->other_unknown;
	t->unscanned_ns += ns * s->unscanned;
	t->tracked.wait_ns += ns * (s->trk.n_idle + s->trk.n_busy + s->trk.n_unknown);
	t->tracked.wait_idle_ns += ns * s->trk.n_idle;
	t->tracked.wait_busy_ns += ns * s->trk.n_busy;
	t->tracked.wait_unknown_ns += ns * s->trk.n_unknown;
	for (c = 0; c < n; c++) {
		if (out[c].cls != WASTED_C_WASTE)
			continue;
		for (i = 0; i < s->nr_cg; i++)
			if (out[c].cgs & ((u64)1 << i))
				acc[i]->wasted_ns += ns;
		if (out[c].cg_other)
			t->other.wasted_ns += ns;
		if (out[c].trk)
			t->tracked.wasted_ns += ns;
	}
}
