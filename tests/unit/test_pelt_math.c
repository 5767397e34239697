// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of module/core/pelt_math.c, compiled exactly as in the
 * module: the kernel's PELT constants, known values, and the projection
 * of a queued entity's load against an independent floating-point model
 * of PELT that steps one 1024 ns unit at a time.
 */
#include <math.h>
#include <stdlib.h>
#include "tap.h"
#include "pelt_math.c"

static double pelt_y(void)
{
	return pow(0.5, 1.0 / 32);
}

/*
 * The model: every 1024 ns unit the entity is runnable adds 1 to the sum;
 * when a period of 1024 units completes, the whole sum decays by y.
 * load_avg = weight * sum / (LOAD_AVG_MAX - 1024 + units in the current period).
 */
static double model_load(double sum, unsigned int pc, u64 units, double weight)
{
	double y = pelt_y();
	u64 i;

	for (i = 0; i < units; i++) {
		sum += 1;
		if (++pc == SHADOW_PELT_PERIOD) {
			sum *= y;
			pc = 0;
		}
	}
	return weight * sum / (SHADOW_PELT_MIN_DIVIDER + pc);
}

static void test_constants(void)
{
	double y = pelt_y(), worst = 0;
	long max = 1024, last = 0, yinv = (long)(((1UL << 32) - 1) * y);
	int n;

	for (n = 0; n < SHADOW_LOAD_AVG_PERIOD; n++) {
		double want = 4294967296.0 * pow(2.0, -n / 32.0);
		double err = fabs(shadow_pelt_yn_inv[n] - want) / want;

		if (err > worst)
			worst = err;
	}
	tap_ok(worst < 1e-9, "y^n table: every entry within 1e-9 of 2^32 * 2^(-n/32) (worst %.2e)",
	       worst);
	/* LOAD_AVG_MAX: the integer limit of max = max * y + 1024 */
	for (n = 0; n < 10000; n++) {
		max = ((max * yinv) >> 32) + 1024;
		if (last == max)
			break;
		last = max;
	}
	tap_ok(max == SHADOW_LOAD_AVG_MAX, "LOAD_AVG_MAX is the integer limit (%ld)", max);
	tap_ok(fabs(SHADOW_LOAD_AVG_MAX - 1024 / (1 - y)) / (1024 / (1 - y)) < 0.002,
	       "LOAD_AVG_MAX within 0.2%% of 1024 / (1 - y) = %.1f", 1024 / (1 - y));
	tap_ok(llabs((long long)shadow_pelt_decay(1 << 20, 32) - (1 << 19)) <= 1,
	       "y^32 = 1/2: decay(2^20, 32) = %llu", (unsigned long long)shadow_pelt_decay(1 << 20, 32));
	tap_ok(llabs((long long)shadow_pelt_decay(1 << 20, 64) - (1 << 18)) <= 1 &&
	       llabs((long long)shadow_pelt_decay(1 << 20, 16) - 741455) <= 1,
	       "decay(2^20, 64) = 2^18 and decay(2^20, 16) = 2^20 / sqrt(2)");
	tap_ok(shadow_pelt_decay(~0ULL >> 1, 32 * 63 + 1) == 0 && shadow_pelt_decay(0, 5) == 0,
	       "decay beyond 63 half-lives is 0");
}

/* A sched_avg consistent with @load_avg at weight @w and period position @pc. */
static struct shadow_pelt_load mk(unsigned long load_avg, unsigned long w, u32 pc, u64 lut)
{
	struct shadow_pelt_load sa = {
		.last_update_time = lut,
		.period_contrib = pc,
		.load_sum = (u64)load_avg * (SHADOW_PELT_MIN_DIVIDER + pc) / w,
		.load_avg = load_avg,
	};
	return sa;
}

#define MS(x) ((u64)(x) * 1000000)

static void test_known_values(void)
{
	struct shadow_pelt_load sa = mk(100, 1024, 0, MS(1000));
	unsigned long v = shadow_pelt_project_load(&sa, MS(1000) + MS(10), 1024);
	double m = model_load((double)sa.load_sum, 0, MS(10) >> 10, 1024);

	/* the example: a task woken with load_avg 100 that waits 10 ms */
	tap_ok(v >= 270 && v <= 290 && fabs(v - m) <= 2,
	       "load_avg 100 waiting 10 ms becomes %lu (model %.1f; 100 y^9.5 + 1024 (1 - y^9.5) ~ 280)",
	       v, m);
	/* a kworker starved 0.9 s behind an RT task: shadow 0, weight 1024 */
	sa = mk(0, 1024, 0, 0);
	v = shadow_pelt_project_load(&sa, MS(900), 1024);
	tap_ok(v >= 1000 && v <= 1024, "load_avg 0 queued for 0.9 s becomes %lu (~1024)", v);
	/* 32 periods runnable from nothing: half of the weight */
	sa = mk(0, 1024, 0, 0);
	v = shadow_pelt_project_load(&sa, (u64)32 * 1024 * 1024, 1024);
	tap_ok(v >= 505 && v <= 515, "32 periods runnable from 0: %lu (~512, y^32 = 1/2)", v);
	/* no period crossed, or a clock behind the entity: the stored value stands */
	sa = mk(300, 1024, 100, MS(5));
	sa.load_avg = 123;	/* the kernel keeps load_avg until a boundary */
	tap_ok(shadow_pelt_project_load(&sa, MS(5) + 500 * 1024, 1024) == 123 &&
	       shadow_pelt_project_load(&sa, MS(5) - 1, 1024) == 123 &&
	       shadow_pelt_project_load(&sa, MS(5) + 1023, 1024) == 123,
	       "no period boundary crossed (or clock behind): stored load_avg kept");
	sa = mk(300, 1024, 100, MS(5));
	tap_ok(shadow_pelt_project_load(&sa, MS(5) + 924 * 1024, 1024) > 300,
	       "crossing one boundary recomputes load_avg");
	/* never above the weight, and no overflow at the largest weights */
	sa = mk(88761, 88761, 1023, 0);
	v = shadow_pelt_project_load(&sa, ~0ULL >> 2, 88761);
	tap_ok(v <= 88761 && v >= 88761 - 90, "nice -20 saturates at its weight (%lu)", v);
}

static void test_against_model(void)
{
	static const unsigned long weights[] = { 2, 15, 335, 820, 1024, 1277, 3121, 9548, 88761 };
	double worst_abs = 0, worst_rel = 0, worst_w = 0, sum_abs = 0;
	int i, bad = 0, n = 4000;

	srand(42);
	for (i = 0; i < n; i++) {
		unsigned long w = weights[rand() % 9];
		u32 pc = rand() % SHADOW_PELT_PERIOD;
		unsigned long la = (unsigned long)((double)rand() / RAND_MAX * w);
		u64 lut = (u64)rand() * 4096;
		/* waits from 0 to ~200 ms, a third of them under 3 periods */
		u64 units = (i % 3) ? (u64)(rand() % 200000) : (u64)(rand() % 3072);
		struct shadow_pelt_load sa = mk(la, w, pc, lut);
		u64 now = lut + (units << 10) + rand() % 1024;
		unsigned long v = shadow_pelt_project_load(&sa, now, w);
		double m, err;

		if ((units + pc) < SHADOW_PELT_PERIOD)
			m = la;	/* the kernel does not recompute within a period */
		else
			m = model_load((double)sa.load_sum, pc, units, w);
		err = fabs(v - m);
		sum_abs += err;
		if (err > worst_abs)
			worst_abs = err;
		if (w >= 1024 && err / w > worst_w)
			worst_w = err / w;
		if (m > 100 && err / m > worst_rel)
			worst_rel = err / m;
		if (err > 0.002 * w + 2)
			bad++;
	}
	tap_diag("projection vs floating-point model, %d cases: max |err| %.2f, mean |err| %.3f load units, max err %.3f%% of the weight (weights >= 1024), %.3f%% of the value (values > 100: floor rounding)",
		 n, worst_abs, sum_abs / n, worst_w * 100, worst_rel * 100);
	tap_ok(!bad, "projection within 0.2%% of the weight + 2 of the model in all %d cases (%d outside)",
	       n, bad);
}

int main(void)
{
	tap_begin("pelt_math");
	test_constants();
	test_known_values();
	test_against_model();
	return tap_end();
}
