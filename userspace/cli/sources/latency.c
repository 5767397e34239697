// SPDX-License-Identifier: GPL-2.0
/*
 * Latency histograms and percentiles (see latency.h for the method), and
 * the loader for bpf/latency.bpf.c: start the skeleton before the
 * workload, read the per-CPU cgroup map after it, summing over CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "latency.h"

const double lat_pct_q[LAT_NPCT] = { 0.50, 0.90, 0.99, 0.999 };
const char *const lat_pct_name[LAT_NPCT] = { "p50", "p90", "p99", "p99.9" };
const char *const lat_pct_key[LAT_NPCT] = { "p50", "p90", "p99", "p99_9" };

/* 1-based nearest rank of quantile q among n samples: ceil(q * n). */
static uint64_t lat_rank(double q, uint64_t n)
{
	double r = ceil(q * (double)n - 1e-9);

	if (r < 1)
		return 1;
	if (r > (double)n)
		return n;
	return (uint64_t)r;
}

void lat_cg_merge(struct lat_cg_val *dst, const struct lat_cg_val *src)
{
	unsigned int i;

	for (i = 0; i < LAT_SLOTS; i++)
		dst->slots[i] += src->slots[i];
	dst->samples += src->samples;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->wakeups += src->wakeups;
	dst->wakeups_new += src->wakeups_new;
	dst->migrations += src->migrations;
}

unsigned int lat_slot_of(uint64_t v)
{
	unsigned int r = v ? 63 - __builtin_clzll(v) : 0;

	return r < LAT_SLOTS ? r : LAT_SLOTS - 1;
}

void lat_slot_bounds(unsigned int slot, uint64_t *lo, uint64_t *hi)
{
	if (slot >= LAT_SLOTS)
		slot = LAT_SLOTS - 1;
	*lo = slot ? 1ull << slot : 0;
	*hi = slot == LAT_SLOTS - 1 ? UINT64_MAX : (2ull << slot) - 1;
}

int lat_log2_percentile(const struct lat_cg_val *h, double q,
			struct lat_estimate *out)
{
	uint64_t n = 0, cum = 0, rank, lo, hi;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (!(q > 0 && q <= 1))
		return -1;
	for (i = 0; i < LAT_SLOTS; i++)
		n += h->slots[i];
	if (!n)
		return 0;
	rank = lat_rank(q, n);
	for (i = 0; i < LAT_SLOTS; i++) {
		if (cum + h->slots[i] >= rank)
			break;
		cum += h->slots[i];
	}
	lat_slot_bounds(i, &lo, &hi);
	/* The largest sample bounds every bucket from above. */
	if (h->max_ns && hi > h->max_ns)
		hi = h->max_ns < lo ? lo : h->max_ns;
	out->valid = 1;
	out->lo_ns = lo;
	out->hi_ns = hi;
	/* Assume the bucket's samples spread evenly over [lo, hi]. */
	out->value_ns = (double)lo + ((double)hi - (double)lo) *
			(double)(rank - cum) / (double)h->slots[i];
	return 0;
}

void lat_fine_init(struct lat_fine *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned int lat_fine_index(uint64_t v)
{
	unsigned int msb, shift, sub;

	if (v < LAT_FINE_EXACT)
		return (unsigned int)v;
	msb = 63 - __builtin_clzll(v);
	if (msb >= LAT_FINE_MAX_BITS)
		return LAT_FINE_NBUCKETS - 1;
	shift = msb - LAT_FINE_SUB_BITS;
	sub = (unsigned int)(v >> shift) - (1u << LAT_FINE_SUB_BITS);
	return LAT_FINE_EXACT + (msb - LAT_FINE_EXACT_BITS) *
		(1u << LAT_FINE_SUB_BITS) + sub;
}

uint64_t lat_fine_bucket_max(unsigned int idx)
{
	unsigned int oct, sub, msb, shift;

	if (idx < LAT_FINE_EXACT)
		return idx;
	if (idx >= LAT_FINE_NBUCKETS - 1)
		return UINT64_MAX;
	idx -= LAT_FINE_EXACT;
	oct = idx >> LAT_FINE_SUB_BITS;
	sub = idx & ((1u << LAT_FINE_SUB_BITS) - 1);
	msb = LAT_FINE_EXACT_BITS + oct;
	shift = msb - LAT_FINE_SUB_BITS;
	return ((((uint64_t)1 << LAT_FINE_SUB_BITS) + sub + 1) << shift) - 1;
}

void lat_fine_add(struct lat_fine *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->buckets[lat_fine_index(v)]++;
}

void lat_fine_merge(struct lat_fine *dst, const struct lat_fine *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (i = 0; i < LAT_FINE_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

uint64_t lat_fine_percentile(const struct lat_fine *h, double q)
{
	uint64_t rank, cum = 0, v;
	unsigned int i;

	if (!h->count || !(q > 0 && q <= 1))
		return 0;
	rank = lat_rank(q, h->count);
	for (i = 0; i < LAT_FINE_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}
	if (i >= LAT_FINE_NBUCKETS)
		return h->max;
	v = lat_fine_bucket_max(i);
	/* Never report more than was seen (coarse buckets, last bucket). */
	if (v > h->max)
		v = h->max;
	if (v < h->min)
		v = h->min;
	return v;
}

void lat_snapshot_free(struct lat_snapshot *s)
{
	free(s->cg);
	s->cg = NULL;
	s->ncg = 0;
}

#if !defined(LAT_NO_LOADER) && !defined(CLI_NO_BPF)
#include <stdarg.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "latency.skel.h"

struct lat_bpf {
	struct latency_bpf *skel;
};

/* Keep libbpf's last warning: it usually names what the kernel refused. */
static char lat_libbpf_msg[256];

static int lat_verbose;

void lat_set_verbose(int level)
{
	lat_verbose = level;
}

static int lat_libbpf_print(enum libbpf_print_level level, const char *fmt,
			    va_list ap)
{
	char buf[256];
	size_t n;

	if (level == LIBBPF_DEBUG && lat_verbose < 2)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	if (n)
		snprintf(lat_libbpf_msg, sizeof(lat_libbpf_msg), "%s", buf);
	if (lat_verbose || getenv("SCHED_SHADOW_BPF_DEBUG"))
		fprintf(stderr, "libbpf: %s\n", buf);
	return 0;
}

static void lat_reason(char *why, size_t len, const char *step, int err)
{
	struct stat st;

	if (err < 0)
		err = -err;
	if (stat("/sys/kernel/btf/vmlinux", &st))
		snprintf(why, len, "%s failed: kernel BTF missing "
			 "(/sys/kernel/btf/vmlinux; needs CONFIG_DEBUG_INFO_BTF)", step);
	else if (err == EPERM || err == EACCES)
		snprintf(why, len, "%s failed: %s (needs root or CAP_BPF+CAP_PERFMON)",
			 step, strerror(err));
	else
		snprintf(why, len, "%s failed: %s%s%s", step, strerror(err),
			 lat_libbpf_msg[0] ? "; libbpf: " : "", lat_libbpf_msg);
}

struct lat_bpf *lat_bpf_start(char *why, size_t whylen)
{
	struct lat_bpf *b;
	int err;

	lat_libbpf_msg[0] = 0;
	libbpf_set_print(lat_libbpf_print);
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	/* Open & load: CO-RE relocations against the running kernel's BTF */
	b->skel = latency_bpf__open();
	if (!b->skel) {
		lat_reason(why, whylen, "open", errno);
		goto cleanup;
	}
	err = latency_bpf__load(b->skel);
	if (err) {
		lat_reason(why, whylen, "load", err);
		goto cleanup;
	}
	/* Attach the raw tracepoints */
	err = latency_bpf__attach(b->skel);
	if (err) {
		lat_reason(why, whylen, "attach", err);
		goto cleanup;
	}
	return b;
cleanup:
	lat_bpf_stop(b);
	return NULL;
}

static int lat_cmp_wakeups(const void *a, const void *b)
{
	const struct lat_cgroup *x = a, *y = b;

	if (x->v.wakeups != y->v.wakeups)
		return x->v.wakeups < y->v.wakeups ? 1 : -1;
	return x->cgid < y->cgid ? -1 : x->cgid > y->cgid;
}

int lat_bpf_read(struct lat_bpf *b, struct lat_snapshot *s, char *why, size_t whylen)
{
	int ncpu = libbpf_num_possible_cpus();
	int cgfd, cfd, cap = 0, i;
	struct lat_cg_val *pcpu = NULL;
	__u64 *cnt = NULL, key, next, *prev = NULL;
	__u32 idx;

	memset(s, 0, sizeof(*s));
	if (ncpu <= 0) {
		snprintf(why, whylen, "cannot count possible CPUs: %s", strerror(-ncpu));
		return -1;
	}
	pcpu = calloc(ncpu, sizeof(*pcpu));
	cnt = calloc(ncpu, sizeof(*cnt));
	if (!pcpu || !cnt)
		goto nomem;
	cgfd = bpf_map__fd(b->skel->maps.cgstats);
	cfd = bpf_map__fd(b->skel->maps.counters);
	while (!bpf_map_get_next_key(cgfd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(cgfd, &key, pcpu))
			continue;	/* deleted meanwhile: nothing deletes, but be safe */
		if (s->ncg == cap) {
			struct lat_cgroup *n;

			cap = cap ? cap * 2 : 64;
			n = realloc(s->cg, cap * sizeof(*n));
			if (!n)
				goto nomem;
			s->cg = n;
		}
		memset(&s->cg[s->ncg], 0, sizeof(s->cg[0]));
		s->cg[s->ncg].cgid = key;
		for (i = 0; i < ncpu; i++)
			lat_cg_merge(&s->cg[s->ncg].v, &pcpu[i]);
		s->ncg++;
	}
	for (idx = 0; idx < LAT_CNT_MAX; idx++) {
		if (bpf_map_lookup_elem(cfd, &idx, cnt))
			continue;
		for (i = 0; i < ncpu; i++)
			s->counters[idx] += cnt[i];
	}
	if (s->ncg > 1)
		qsort(s->cg, s->ncg, sizeof(s->cg[0]), lat_cmp_wakeups);
	free(pcpu);
	free(cnt);
	return 0;
nomem:
	free(pcpu);
	free(cnt);
	lat_snapshot_free(s);
	snprintf(why, whylen, "out of memory reading BPF maps");
	return -1;
}

void lat_bpf_stop(struct lat_bpf *b)
{
	if (!b)
		return;
	latency_bpf__destroy(b->skel);
	free(b);
}
#elif defined(CLI_NO_BPF)
/* Built without the BPF collector (features.h): collection fails, saying why. */
void lat_set_verbose(int level)
{
	(void)level;
}

struct lat_bpf *lat_bpf_start(char *why, size_t whylen)
{
	snprintf(why, whylen, "built without BPF: %s", CLI_NO_BPF);
	return NULL;
}

int lat_bpf_read(struct lat_bpf *b, struct lat_snapshot *s, char *why, size_t whylen)
{
	(void)b;
	(void)s;
	snprintf(why, whylen, "built without BPF: %s", CLI_NO_BPF);
	return -1;
}

void lat_bpf_stop(struct lat_bpf *b)
{
	(void)b;
}
#endif /* LAT_NO_LOADER */
