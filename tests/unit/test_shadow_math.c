// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of module/core/shadow_math.c: the per-level scaling of
 * the shadow hierarchical runnable sum, its clamps, and the divergence
 * statistics.  The file under test is compiled exactly as in the module.
 */
#include "tap.h"
#include "shadow_math.c"

#define FP(x) ((u64)(x) << SHADOW_FP_SHIFT)

/* A tiny tree: each node is a cfs_rq with its tasks' load_avg and child groups. */
struct tnode {
	u64 task_load;		/* sum of queued tasks' load_avg on this cfs_rq */
	u64 se_weight;		/* weight of the group entity owning this cfs_rq */
	u64 cfs_weight;		/* load.weight of this cfs_rq */
	int nr_children;
	struct tnode *children[4];
};

static u64 tree_shadow(const struct tnode *n)
{
	u64 s = shadow_to_fp(n->task_load);
	int i;

	for (i = 0; i < n->nr_children; i++) {
		const struct tnode *c = n->children[i];

		s = shadow_fp_add(s, shadow_group_contrib(tree_shadow(c), c->se_weight,
							  c->cfs_weight));
	}
	return s;
}

static void test_tejun_example(void)
{
	/* ROOT - GA (weight 1024) - TA (weight 1), ROOT - GB (weight 1) - TB (weight 1) */
	struct tnode ga = { .task_load = 1, .se_weight = 1024, .cfs_weight = 1 };
	struct tnode gb = { .task_load = 1, .se_weight = 1, .cfs_weight = 1 };
	struct tnode root = { .nr_children = 2, .children = { &ga, &gb } };
	u64 ca = shadow_group_contrib(tree_shadow(&ga), ga.se_weight, ga.cfs_weight);
	u64 cb = shadow_group_contrib(tree_shadow(&gb), gb.se_weight, gb.cfs_weight);

	tap_ok(shadow_fp_round(ca) == 1024, "Tejun's example: GA contributes 1024 at ROOT (got %llu)",
	       (unsigned long long)shadow_fp_round(ca));
	tap_ok(shadow_fp_round(cb) == 1, "Tejun's example: GB contributes 1 at ROOT (got %llu)",
	       (unsigned long long)shadow_fp_round(cb));
	tap_ok(shadow_fp_round(tree_shadow(&root)) == 1025, "Tejun's example: ROOT sum 1025");

	/* GA2 (1024) - TA2 (weight 1), GB2 (1) - TB2 (weight 1024): same as GA and GB */
	{
		struct tnode ga2 = { .task_load = 1, .se_weight = 1024, .cfs_weight = 1 };
		struct tnode gb2 = { .task_load = 1024, .se_weight = 1, .cfs_weight = 1024 };

		tap_ok(shadow_group_contrib(tree_shadow(&ga2), 1024, 1) == ca &&
		       shadow_group_contrib(tree_shadow(&gb2), 1, 1024) == cb,
		       "Tejun's example: GA2/GB2 match GA/GB whatever the inner weights");
	}
	/* a task at half duty cycle: its group carries half the group's weight */
	tap_ok(shadow_fp_round(shadow_group_contrib(FP(512), 1024, 1024)) == 512,
	       "half-busy single task: group contributes half its weight");
}

static void test_clamps_and_zero(void)
{
	tap_ok(shadow_group_contrib(FP(3000), 1024, 1024) == FP(1024),
	       "contribution is clamped at the group entity's weight");
	tap_ok(shadow_group_contrib(FP(100), 1024, 0) == 0, "zero cfs_rq weight contributes 0");
	tap_ok(shadow_group_contrib(FP(100), 0, 1024) == 0, "zero entity weight contributes 0");
	tap_ok(shadow_group_contrib(0, 1024, 1024) == 0, "empty child contributes 0");
	tap_ok(shadow_weight_down(0) == 0, "weight_down(0) == 0");
	tap_ok(shadow_weight_down(1024ULL << 10) == 1024, "weight_down(nice 0) == 1024");
	tap_ok(shadow_weight_down(3) == 2, "weight_down keeps non-zero weights >= 2 (scale_load_down)");
	tap_ok(shadow_fp_round(FP(7) + SHADOW_FP_ONE / 2) == 8 &&
	       shadow_fp_round(FP(7) + SHADOW_FP_ONE / 2 - 1) == 7, "fp rounding is to nearest");
	tap_ok(shadow_fp_add(SHADOW_FP_MAX - 1, 5) == SHADOW_FP_MAX &&
	       shadow_fp_add(~0ULL, ~0ULL) == SHADOW_FP_MAX, "fp addition saturates");
	tap_ok(shadow_to_fp(~0ULL) == SHADOW_FP_MAX, "to_fp saturates");
	{
		struct tnode empty = { 0 };

		tap_ok(tree_shadow(&empty) == 0, "empty queue: shadow 0");
	}
}

static void test_three_levels(void)
{
	/* /a (w 2048) -> /a/b (w 512) -> /a/b/c (w 100) with tasks at every level */
	struct tnode c = { .task_load = 1024, .se_weight = 100, .cfs_weight = 1024 };
	struct tnode b = { .task_load = 512, .se_weight = 512, .cfs_weight = 1024 + 100,
			   .nr_children = 1, .children = { &c } };
	struct tnode a = { .task_load = 0, .se_weight = 2048, .cfs_weight = 512,
			   .nr_children = 1, .children = { &b } };
	struct tnode root = { .task_load = 1024, .nr_children = 1, .children = { &a } };
	/* by hand: S(c)=1024 -> 100; S(b)=512+100=612 -> 612*512/1124=278.77;
	 * S(a)=278.77 -> min(278.77*2048/512, 2048)=1115.1; S(root)=1024+1115.1 */
	u64 sb = tree_shadow(&b), sa = tree_shadow(&a), sr = tree_shadow(&root);

	tap_ok(shadow_fp_round(sb) == 612, "three levels: S(b) = 612 (got %llu)",
	       (unsigned long long)shadow_fp_round(sb));
	tap_ok(shadow_fp_round(sa) == 279, "three levels: S(a) = 279 (got %llu)",
	       (unsigned long long)shadow_fp_round(sa));
	tap_ok(shadow_fp_round(sr) == 2139, "three levels: S(root) = 1024 + 1115 (got %llu)",
	       (unsigned long long)shadow_fp_round(sr));
}

static void test_max_weights(void)
{
	/* cpu.weight 10000 => shares 102400 (max 2^18); nice -20 tasks weigh 88761 */
	u64 w_group = 262144, w_task = 88761, s;
	struct tnode g = { .task_load = 64 * w_task, .se_weight = w_group, .cfs_weight = 64 * w_task };

	s = shadow_group_contrib(tree_shadow(&g), g.se_weight, g.cfs_weight);
	tap_ok(s == FP(w_group), "max weights: 64 nice -20 tasks in a max-weight group = group weight");
	s = shadow_group_contrib(FP(w_task) - 1, w_group, w_task);
	tap_ok(s < FP(w_group) && s > FP(w_group) - FP(4), "max weights: no overflow just below the clamp");
	s = shadow_group_contrib(SHADOW_FP_MAX, SHADOW_WEIGHT_MAX * 8, SHADOW_FP_MAX);
	tap_ok(s <= FP(SHADOW_WEIGHT_MAX), "absurd inputs are saturated, not wrapped");
	s = shadow_group_contrib(FP(3), w_group, 1ULL << 40);
	tap_ok(s == (FP(3) * w_group) >> 40, "huge cfs weight: exact small contribution");
}

/* shadow_divstat_add() with shadow_fresh = shadow + 10 and h_load = real / 2 */
static void dadd(struct shadow_divstat *d, u64 t, u64 shadow, u64 real)
{
	struct shadow_divsample v = { shadow, shadow + 10, real / 2, real };

	shadow_divstat_add(d, t, &v);
}

static void test_divstat(void)
{
	struct shadow_divstat d = { 0 };
	struct shadow_divmeans m;

	dadd(&d, 1000000, 100, 300);
	shadow_divstat_means(&d, &m);
	tap_ok(d.samples == 1 && m.shadow == 100 && m.real == 300 && m.absdiff == 200,
	       "divstat: first sample stands for the mean");
	/* 100/300 held for 3 ms, then 1000/1000 held for 1 ms */
	dadd(&d, 1000000 + 3 * 1024 * 1000, 1000, 1000);
	dadd(&d, 1000000 + 4 * 1024 * 1000, 0, 0);
	shadow_divstat_means(&d, &m);
	tap_ok(m.shadow == 325 && m.real == 475 && m.absdiff == 150,
	       "divstat: time-weighted means (shadow %llu real %llu diff %llu)",
	       (unsigned long long)m.shadow, (unsigned long long)m.real,
	       (unsigned long long)m.absdiff);
	tap_ok(d.max_absdiff == 200 && d.samples == 3, "divstat: max and sample count");
	tap_ok(m.fresh == 335 && m.h_load == 238,
	       "divstat: shadow_fresh and h_load means (%llu %llu)",
	       (unsigned long long)m.fresh, (unsigned long long)m.h_load);
	dadd(&d, 10, 5, 5);
	tap_ok(d.samples == 4 && d.time == 4000, "divstat: a clock going backwards adds no weight");
	{
		struct shadow_divstat big = { 0 };
		u64 t = 1;
		int i;

		for (i = 0; i < 200; i++) {
			dadd(&big, t, 1ULL << 29, 1ULL << 28);
			t += 1ULL << 42;
		}
		shadow_divstat_means(&big, &m);
		tap_ok(m.shadow == 1ULL << 29 && m.real == 1ULL << 28 &&
		       m.fresh == (1ULL << 29) + 10 && m.h_load == 1ULL << 27,
		       "divstat: sums rescale instead of overflowing (means kept)");
	}
}

/*
 * h_load as kernel/sched/fair.c computes it: root h_load = root load_avg,
 * a group's cfs_rq h_load = parent h_load * gse load_avg / (parent load_avg + 1),
 * task_h_load = se load_avg * cfs_rq h_load / (cfs_rq load_avg + 1).
 */
static void test_h_load(void)
{
	/* root load_avg 2000 (a root task 500, group A's entity 1500 and blocked load) */
	u64 root = 2000, ha = shadow_h_load_scale(root, 1500, root);
	/* A's cfs_rq load_avg 3000: tasks 1000 and 2000 */
	u64 t1 = shadow_h_load_scale(ha, 1000, 3000), t2 = shadow_h_load_scale(ha, 2000, 3000);

	tap_ok(ha == 1499, "h_load: group A's h_load = 2000 * 1500 / 2001 = %llu",
	       (unsigned long long)ha);
	tap_ok(t1 == 499 && t2 == 999,
	       "h_load: task_h_load floors per task (499 + 999, not 1499 * 3000 / 3001)");
	tap_ok(shadow_h_load_scale(root, 500, root) == 499, "h_load: a root task: 500 * 2000 / 2001");
	tap_ok(shadow_h_load_scale(1ULL << 40, 1ULL << 40, 0) == 1ULL << 60,
	       "h_load: absurd inputs are saturated at 2^30, no overflow");
	tap_ok(shadow_h_load_scale(0, 1024, 1023) == 0 && shadow_h_load_scale(1024, 1024, 1023) == 1024,
	       "h_load: zero and identity");
}

int main(void)
{
	tap_begin("shadow_math");
	test_h_load();
	test_tejun_example();
	test_clamps_and_zero();
	test_three_levels();
	test_max_weights();
	test_divstat();
	return tap_end();
}
