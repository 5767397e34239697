/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency math for `run` (BPF log2 histograms) and `bench` (fine
 * histogram with exact percentiles), plus the glue that loads the BPF
 * skeleton and reads its per-CPU maps back.
 *
 * Percentiles use the nearest-rank definition: pXX is the smallest
 * recorded value v such that at least XX% of the samples are <= v.
 *
 * From a log2 histogram only the bucket holding that rank is known, i.e.
 * [2^i, 2^(i+1)) ns.  lat_log2_percentile() returns the bucket bounds
 * and an estimate interpolated linearly within the bucket by rank
 * (clamped to the largest value actually seen): the true value is within
 * a factor of two of the estimate, and the report says so.
 *
 * The fine histogram (bench) counts microseconds exactly below
 * LAT_FINE_EXACT us and in 2^LAT_FINE_SUB_BITS sub-buckets per power of
 * two above (relative error < 1/128); reported values are the largest
 * value of their bucket, so exact below 1 ms and at most 0.8% high above.
 *
 * The math is pure C (host unit tests include latency.c with
 * LAT_NO_LOADER defined); the loader part needs libbpf and the skeleton.
 */
#ifndef SHADOW_CLI_LATENCY_H
#define SHADOW_CLI_LATENCY_H

#include <stdint.h>
#include <stddef.h>
#include <asm/types.h>	/* __u64 for the shared BPF header */
#include "../../../bpf/latency.h"

/* ---- log2 histograms from BPF ---- */

/* Add one CPU's (or another cgroup's) values into dst; max is a max. */
void lat_cg_merge(struct lat_cg_val *dst, const struct lat_cg_val *src);

struct lat_estimate {
	int valid;		/* 0 when the histogram is empty */
	double value_ns;	/* interpolated estimate */
	uint64_t lo_ns;		/* bucket holding the rank: [lo, hi] */
	uint64_t hi_ns;
};

/* Bucket bounds of log2 slot i: [lo, hi] inclusive, in ns. */
void lat_slot_bounds(unsigned int slot, uint64_t *lo, uint64_t *hi);
/* Slot of a value (same function as the BPF side). */
unsigned int lat_slot_of(uint64_t v);
/* q in (0, 1]; returns 0, or -1 for a bad q. */
int lat_log2_percentile(const struct lat_cg_val *h, double q,
			struct lat_estimate *out);

/* ---- fine histogram for bench (values in microseconds) ---- */

#define LAT_FINE_EXACT_BITS	10	/* exact below 1024 us */
#define LAT_FINE_SUB_BITS	7	/* 128 sub-buckets per octave above */
#define LAT_FINE_MAX_BITS	40	/* values >= 2^40 us land in the last bucket */
#define LAT_FINE_EXACT		(1u << LAT_FINE_EXACT_BITS)
#define LAT_FINE_NBUCKETS	(LAT_FINE_EXACT + \
	(LAT_FINE_MAX_BITS - LAT_FINE_EXACT_BITS) * (1u << LAT_FINE_SUB_BITS))

struct lat_fine {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t buckets[LAT_FINE_NBUCKETS];
};

void lat_fine_init(struct lat_fine *h);
void lat_fine_add(struct lat_fine *h, uint64_t v);
void lat_fine_merge(struct lat_fine *dst, const struct lat_fine *src);
unsigned int lat_fine_index(uint64_t v);
/* Largest value that falls into bucket idx. */
uint64_t lat_fine_bucket_max(unsigned int idx);
/* Nearest-rank percentile, q in (0, 1]; 0 for an empty histogram. */
uint64_t lat_fine_percentile(const struct lat_fine *h, double q);

/* The percentiles every report prints. */
#define LAT_NPCT 4
extern const double lat_pct_q[LAT_NPCT];	/* 0.5 0.9 0.99 0.999 */
extern const char *const lat_pct_name[LAT_NPCT];	/* "p50" ... "p99.9" */
extern const char *const lat_pct_key[LAT_NPCT];	/* "p50" ... "p99_9" */

/* ---- BPF collection ---- */

struct lat_cgroup {
	uint64_t cgid;
	struct lat_cg_val v;	/* summed over CPUs */
};

struct lat_snapshot {
	int ncg;
	struct lat_cgroup *cg;	/* sorted by wakeups, descending */
	uint64_t counters[LAT_CNT_MAX];
};

struct lat_bpf;

/*
 * Open, load and attach the collector.  On failure returns NULL and
 * writes a one-line reason (what is missing and why) into why.
 */
struct lat_bpf *lat_bpf_start(char *why, size_t whylen);
/* Read all per-cgroup values; 0 on success, -1 with why filled. */
int lat_bpf_read(struct lat_bpf *b, struct lat_snapshot *s, char *why, size_t whylen);
void lat_bpf_stop(struct lat_bpf *b);
void lat_snapshot_free(struct lat_snapshot *s);
/* -v: pass libbpf's warnings (and with -vv its debug lines) to stderr. */
void lat_set_verbose(int level);

#endif /* SHADOW_CLI_LATENCY_H */
