// SPDX-License-Identifier: GPL-2.0
/*
 * wasted_feed: the change records of every CPU, sorted by time and
 * applied to the replay (wasted_feed.h).
 */
#include <linux/types.h>
#include "wasted_feed.h"

void wf_init(struct wf *f, u32 nr_cpus, struct wf_cpu *cpus, struct wf_step *steps,
	     struct wf_sort *sort, struct wf_sort *tmp, u32 cap)
{
	u32 c, s;

	f->nr_cpus = nr_cpus;
	f->cpu = cpus;
	f->steps = steps;
	f->sort = sort;
	f->tmp = tmp;
	f->cap = cap;
	f->n = 0;
	for (c = 0; c < nr_cpus; c++) {
		f->cpu[c].tail = 0;
		f->cpu[c].known = false;
		for (s = 0; s < WF_SLOTS; s++)
			f->cpu[c].slot[s] = -1;
	}
}

void wf_lost(struct wf *f, struct wr_replay *r, u64 now, u32 cpu)
{
	u32 s;

	if (cpu >= f->nr_cpus)
		return;
	if (f->cpu[cpu].known)
		f->st.lost++;
	f->cpu[cpu].known = false;
	for (s = 0; s < WF_SLOTS; s++)
		f->cpu[cpu].slot[s] = -1;
	wr_set_state(r, now, cpu, WR_VOID);
}

/*
 * LSD radix sort of @n entries on their 32-bit key, 8 bits a pass (stable);
 * the passes above the largest key's highest byte are skipped.
 */
static void wf_radix(struct wf_sort *a, struct wf_sort *tmp, u32 n, u32 maxkey)
{
	u32 count[256], shift, i;

	for (shift = 0; shift < 32 && (maxkey >> shift); shift += 8) {
		u32 sum = 0;

		for (i = 0; i < 256; i++)
			count[i] = 0;
		for (i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xff]++;
		if (count[(a[0].key >> shift) & 0xff] == n)
			continue;	/* every key shares this digit */
		for (i = 0; i < 256; i++) {
			u32 c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 0xff]++] = a[i];
		for (i = 0; i < n; i++)
			a[i] = tmp[i];
	}
}

static void wf_key(const struct wf *f, const struct wasted_rec *rec, u32 cpu, struct wr_key *k)
{
	k->cgid = rec->cgid;
	k->kind = rec->kind;
	k->trk = !!(rec->flags & WF_TRK);
	k->mask = 0;
	if (rec->kind == WR_RESTR) {
		s8 id = rec->slot < WF_SLOTS ? f->cpu[cpu].slot[rec->slot] : -1;

		if (id < 0)
			k->kind = WR_UNKNOWN;	/* its mask did not fit the table */
		else
			k->mask = id;
	}
}

/* Apply one record of @cpu at @now. */
static void wf_apply(struct wf *f, struct wr_replay *r, const struct wasted_rec *rec, u32 cpu,
		     u64 now)
{
	struct wf_cpu *c = &f->cpu[cpu];
	struct wr_key k;

	if (rec->op == WF_SNAP) {
		if (!c->known) {
			c->known = true;
			wr_set_state(r, now, cpu, rec->flags & WF_BUSY ? WR_BUSY : WR_IDLE);
		} else {
			wr_set_state(r, now, cpu, rec->flags & WF_BUSY ? WR_BUSY : WR_IDLE);
			wr_clear(r, now, cpu);
		}
		return;
	}
	if (!c->known)
		return;		/* lost records: nothing means anything before a snapshot */
	switch (rec->op) {
	case WF_STATE:
		wr_set_state(r, now, cpu, rec->flags & WF_BUSY ? WR_BUSY : WR_IDLE);
		break;
	case WF_ADD:
	case WF_DEL:
		wf_key(f, rec, cpu, &k);
		if (rec->op == WF_ADD)
			wr_add(r, now, cpu, &k, rec->n);
		else
			wr_del(r, now, cpu, &k, rec->n);
		break;
	case WF_MASK:
		if (rec->slot < WF_SLOTS) {
			c->mask[rec->slot][0] = rec->cgid;
			c->mask[rec->slot][1] = rec->aux;
			c->base[rec->slot] = rec->n;
		}
		break;
	case WF_MASK2:
		if (rec->slot < WF_SLOTS) {
			c->mask[rec->slot][2] = rec->cgid;
			c->mask[rec->slot][3] = rec->aux;
			c->slot[rec->slot] = wr_mask(r, now, c->base[rec->slot], c->mask[rec->slot]);
		}
		break;
	default:
		break;
	}
}

void wf_replay(struct wf *f, struct wr_replay *r, u64 start, u64 *late)
{
	u32 i, n = f->n, sorted = 1, maxkey = 0;

	*late = 0;
	f->n = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		u64 d = f->steps[i].rec.stamp > start ? f->steps[i].rec.stamp - start : 0;

		f->sort[i].key = d > 0xffffffffULL ? 0xffffffffU : (u32)d;
		f->sort[i].idx = i;
		if (i && f->sort[i].key < f->sort[i - 1].key)
			sorted = 0;
		if (f->sort[i].key > maxkey)
			maxkey = f->sort[i].key;
	}
	if (!sorted) {
		wf_radix(f->sort, f->tmp, n, maxkey);
		f->st.sorted++;
	}
	for (i = 0; i < n; i++) {
		const struct wf_step *s = &f->steps[f->sort[i].idx];
		u64 at = s->rec.stamp;

		if (at < r->now) {	/* published after its time was accounted */
			if (r->now - at > *late)
				*late = r->now - at;
			at = r->now;
		}
		wf_apply(f, r, &s->rec, s->cpu, at);
	}
	f->st.records += n;
	if (*late > f->st.late_max_ns)
		f->st.late_max_ns = *late;
}
