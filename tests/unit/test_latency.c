// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram and percentile math of userspace/cli/sources/latency.c: log2
 * histograms as the BPF side fills them (merge, nearest-rank percentile,
 * interpolation inside a bucket, clamping to the max) and the bench's
 * fine histogram (exact below 1024 us, bounded relative error above).
 */
#include "tap.h"
#include <string.h>
#include <stdlib.h>
#define LAT_NO_LOADER
#include "cli/sources/latency.c"

static void add(struct lat_cg_val *h, uint64_t v, uint64_t n)
{
	h->slots[lat_slot_of(v)] += n;
	h->samples += n;
	h->sum_ns += v * n;
	if (v > h->max_ns)
		h->max_ns = v;
}

int main(void)
{
	struct lat_cg_val h, a, b;
	struct lat_estimate e;
	struct lat_fine *f = calloc(1, sizeof(*f)), *g = calloc(1, sizeof(*g));
	uint64_t lo, hi, v;
	unsigned int i;
	int ok;

	tap_begin("latency");

	tap_ok(lat_slot_of(0) == 0 && lat_slot_of(1) == 0 && lat_slot_of(2) == 1 &&
	       lat_slot_of(3) == 1 && lat_slot_of(1024) == 10 && lat_slot_of(2047) == 10,
	       "log2 slot of small values");
	tap_ok(lat_slot_of(UINT64_MAX) == LAT_SLOTS - 1 && lat_slot_of(1ull << 45) == LAT_SLOTS - 1,
	       "huge values land in the last slot");
	lat_slot_bounds(10, &lo, &hi);
	tap_ok(lo == 1024 && hi == 2047, "slot bounds [2^i, 2^(i+1)-1]");
	lat_slot_bounds(LAT_SLOTS - 1, &lo, &hi);
	tap_ok(hi == UINT64_MAX, "last slot is open-ended");

	memset(&h, 0, sizeof(h));
	tap_ok(lat_log2_percentile(&h, 0.5, &e) == 0 && !e.valid, "empty histogram: no estimate");
	tap_ok(lat_log2_percentile(&h, 0, &e) == -1 && lat_log2_percentile(&h, 1.5, &e) == -1,
	       "q outside (0, 1] refused");

	add(&h, 1500, 1);
	lat_log2_percentile(&h, 0.5, &e);
	tap_ok(e.valid && e.lo_ns == 1024 && e.hi_ns == 1500 && e.value_ns == 1500,
	       "one sample: bucket clamped to the max, estimate = the sample");
	lat_log2_percentile(&h, 0.999, &e);
	tap_ok(e.valid && e.value_ns == 1500, "one sample: every percentile is it");

	memset(&h, 0, sizeof(h));
	add(&h, 5000, 99);
	h.max_ns = 8000;
	add(&h, 8000, 1);
	ok = 1;
	for (i = 0; i < LAT_NPCT; i++) {
		lat_log2_percentile(&h, lat_pct_q[i], &e);
		ok &= e.valid && e.lo_ns == 4096 && e.value_ns >= 4096 && e.value_ns <= 8000;
	}
	tap_ok(ok, "all in one bucket: every percentile inside [4096, max]");
	lat_log2_percentile(&h, 0.5, &e);
	tap_ok(e.value_ns > 5900 && e.value_ns < 6100,
	       "interpolation by rank: p50 of 100 in [4096, 8000] ~ 6048 (%.0f)", e.value_ns);

	/* p99.9 boundary: 999 fast + 1 slow -> rank 999 is fast; 1 more slow flips it */
	memset(&h, 0, sizeof(h));
	add(&h, 1000, 999);
	add(&h, 1000000, 1);
	lat_log2_percentile(&h, 0.999, &e);
	tap_ok(e.valid && e.hi_ns < 1024, "p99.9 of 999 fast + 1 slow is in the fast bucket");
	lat_log2_percentile(&h, 1.0, &e);
	tap_ok(e.valid && e.value_ns == 1000000, "p100 is the max");
	add(&h, 1000000, 1);
	lat_log2_percentile(&h, 0.999, &e);
	tap_ok(e.valid && e.lo_ns == 524288, "p99.9 of 999 fast + 2 slow is in the slow bucket");

	memset(&h, 0, sizeof(h));
	add(&h, UINT64_MAX / 2, 3);
	lat_log2_percentile(&h, 0.5, &e);
	tap_ok(e.valid && e.hi_ns == UINT64_MAX / 2 && e.value_ns <= (double)(UINT64_MAX / 2),
	       "huge values: last bucket bounded by the max");

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	add(&a, 100, 2);
	a.wakeups = 5;
	a.migrations = 1;
	add(&b, 100000, 1);
	b.wakeups = 7;
	b.wakeups_new = 1;
	memset(&h, 0, sizeof(h));
	lat_cg_merge(&h, &a);
	lat_cg_merge(&h, &b);
	tap_ok(h.samples == 3 && h.wakeups == 12 && h.wakeups_new == 1 && h.migrations == 1 &&
	       h.sum_ns == 100200 && h.max_ns == 100000 && h.slots[6] == 2 && h.slots[16] == 1,
	       "merge over CPUs: sums, max of max, slot-wise sums");

	/* fine histogram */
	lat_fine_init(f);
	tap_ok(lat_fine_percentile(f, 0.5) == 0, "fine: empty gives 0");
	for (v = 1; v <= 1000; v++)
		lat_fine_add(f, v);
	tap_ok(lat_fine_percentile(f, 0.5) == 500 && lat_fine_percentile(f, 0.9) == 900 &&
	       lat_fine_percentile(f, 0.99) == 990 && lat_fine_percentile(f, 0.999) == 999 &&
	       lat_fine_percentile(f, 1) == 1000, "fine: exact nearest-rank percentiles of 1..1000");
	tap_ok(f->min == 1 && f->max == 1000 && f->count == 1000 && f->sum == 500500, "fine: min max count sum");

	ok = 1;
	for (v = 0; v < (1ull << 22); v += 1 + v / 37) {
		unsigned int idx = lat_fine_index(v);
		uint64_t top = lat_fine_bucket_max(idx);

		ok &= top >= v && (idx == 0 || lat_fine_bucket_max(idx - 1) < v);
		ok &= (double)(top - v) <= (double)v / 128.0 + 0.5;
	}
	tap_ok(ok, "fine: bucket of v holds v, error < 1/128");
	tap_ok(lat_fine_index(UINT64_MAX) == LAT_FINE_NBUCKETS - 1, "fine: huge values in the last bucket");

	lat_fine_init(g);
	lat_fine_add(g, 5000000);
	lat_fine_add(g, UINT64_MAX / 4);
	tap_ok(lat_fine_percentile(g, 1) == UINT64_MAX / 4 && lat_fine_percentile(g, 0.5) >= 5000000 &&
	       lat_fine_percentile(g, 0.5) <= 5000000 + 5000000 / 128,
	       "fine: huge values reported within bound, max exact");
	lat_fine_merge(f, g);
	tap_ok(f->count == 1002 && f->max == UINT64_MAX / 4 && f->min == 1, "fine: merge");
	/* p99.9 of 1002 samples: rank ceil(1000.998) = 1001 -> 5000000's bucket */
	v = lat_fine_percentile(f, 0.999);
	tap_ok(v >= 5000000 && v <= 5000000 + 5000000 / 128, "fine: p99.9 boundary (%llu)",
	       (unsigned long long)v);
	free(f);
	free(g);
	return tap_end();
}
