// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for module/core/audit_core.c: synthetic sched domains
 * (groups of CPU records) with known answers for the verdict, each
 * tracker's pick and outcome, and the counters.
 */
/*
 * The shim's linux/types.h has a slash-star inside its header comment
 * (-Wcomment); tolerate it here until the shim is fixed.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "audit_core.c"
#pragma GCC diagnostic pop
#include "tap.h"

#include <string.h>

/*
 * Coverage of the hand-derived and synthetic cases: which verdict reasons
 * and group classes every audit_judge() call of this file reached, per
 * named rule set (test_hand_coverage() checks them against the table).
 */
enum { COV_5_10, COV_6_1, COV_6_6, COV_6_12, COV_7_2, COV_7_3, COV_OTHER, COV_NR };
static const char * const cov_name[COV_NR] = {
	"5.10", "6.1", "6.6", "6.12", "7.2", "7.3", "other",
};
static unsigned int cov_reason[COV_NR][AUDIT_NR_REASONS];
static unsigned int cov_class[COV_NR][AUDIT_NR_CLASSES];

static int cov_variant(u32 rules)
{
	static const u32 named[COV_OTHER] = {
		AUDIT_RULES_5_10, AUDIT_RULES_6_1, AUDIT_RULES_6_6, AUDIT_RULES_6_12,
		AUDIT_RULES_7_2, AUDIT_RULES_7_3,
	};
	int v;

	for (v = 0; v < COV_OTHER; v++)
		if (rules == named[v])
			return v;
	return COV_OTHER;
}

static void audit_judge_cov(const struct audit_domain *dom, const struct audit_group *groups,
			    int nr_groups, const struct audit_cpu *cpus, int nr_cpus, int idle_type,
			    int kernel_pick, struct audit_gstats *gs, struct audit_result *res)
{
	int v = cov_variant(dom->rules), g;

	audit_judge(dom, groups, nr_groups, cpus, nr_cpus, idle_type, kernel_pick, gs, res);
	if (res->reason >= 0 && res->reason < AUDIT_NR_REASONS)
		cov_reason[v][res->reason]++;
	for (g = 0; g < nr_groups; g++)
		if (gs[g].cls < AUDIT_NR_CLASSES)
			cov_class[v][gs[g].cls]++;
}
#define audit_judge audit_judge_cov

/* A valid CPU with one running task and nothing waiting. */
#define BUSY1(id, load) { .cpu = (id), .nr_running = 1, .h_nr_running = 1, \
	.load_avg = (load), .h_load = (load), .shadow = 1024, .shadow_avg = (load), \
	.weight = 1024, .capacity = 1024, .valid = true }
/* A valid CPU with two runnable CFS tasks: one of them can move. */
#define BUSY2(id, load) { .cpu = (id), .nr_running = 2, .h_nr_running = 2, \
	.movable = 1, .work = SHADOW_WORK_YES, .load_avg = (load), .h_load = (load), .shadow = 2048, \
	.shadow_avg = (load), .weight = 2048, .capacity = 1024, .valid = true }
/* A valid idle CPU, possibly carrying blocked load. */
#define IDLE(id, load) { .cpu = (id), .load_avg = (load), .idle = true, \
	.shadow_avg = (load), .capacity = 1024, .valid = true }

#define NG(a)	((int)(sizeof(a) / sizeof((a)[0])))

static struct audit_result judge(const struct audit_group *g, int ng,
				 const struct audit_cpu *c, int nc,
				 int idle, int pick)
{
	struct audit_result r;

	struct audit_gstats gs[64];
	struct audit_domain d;

	audit_domain_default(&d);
	memset(&r, 0xa5, sizeof(r));	/* everything must be written */
	audit_judge(&d, g, ng, c, nc, idle, pick, gs, &r);
	return r;
}

static int all_picks(const struct audit_result *r, int pick)
{
	int t;

	for (t = 0; t < AUDIT_NR_TRACKERS; t++)
		if (r->pick[t] != pick)
			return 0;
	return 1;
}

/*
 * The common 3-group domain: G0 local {0,1} with the idle destination,
 * G1 {2,3}, G2 {4,5}.
 */
static const struct audit_group g3[] = {
	{ .first = 0, .nr = 2, .local = true },
	{ .first = 2, .nr = 2 },
	{ .first = 4, .nr = 2 },
};

static void test_right(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), BUSY1(1, 1024),
		BUSY1(2, 1024), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
	int t;

	tap_ok(r.verdict == AUDIT_RIGHT && r.nonlocal_work && !r.flags,
	       "right: kernel picks the group with a waiting task");
	tap_ok(all_picks(&r, 2), "right: every tracker picks G2 too");
	for (t = 0; t < AUDIT_NR_TRACKERS; t++)
		if (r.outcome[t] != AUDIT_PICK_WORK || !r.agree[t])
			break;
	tap_ok(t == AUDIT_NR_TRACKERS, "right: all outcomes work, all agree");
}

static void test_wrong(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1024), BUSY1(3, 1024),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_NEWLY_IDLE, 1);

	tap_ok(r.verdict == AUDIT_WRONG,
	       "wrong: kernel picks G1 (busy, nothing waiting) over G2");
	/* Equal sums 2048/2048: ties go to G1 for the load trackers. */
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 1 &&
	       r.outcome[AUDIT_TRK_KERNEL] == AUDIT_PICK_IDLE_WRONG &&
	       r.agree[AUDIT_TRK_KERNEL],
	       "wrong: kernel tracker ties to G1, idle-wrong, agrees");
	tap_ok(r.pick[AUDIT_TRK_NR] == 1 &&
	       r.outcome[AUDIT_TRK_NR] == AUDIT_PICK_IDLE_WRONG,
	       "wrong: nr tracker 2 vs 2 tasks also ties to G1");
}

static void test_missed(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		IDLE(2, 0), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, -1);

	tap_ok(r.verdict == AUDIT_MISSED && r.kernel_pick == -1 && !r.flags,
	       "missed: NULL returned while G2 has a waiting task");
	tap_ok(all_picks(&r, 2) && !r.agree[AUDIT_TRK_SHADOW] &&
	       r.outcome[AUDIT_TRK_SHADOW] == AUDIT_PICK_WORK,
	       "missed: trackers pick G2 and disagree with NULL");
}

static void test_none(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), BUSY2(1, 2048),	/* local work: not counted */
		BUSY1(2, 1024), IDLE(3, 300),
		IDLE(4, 0), IDLE(5, 0),
	};
	struct audit_result r1 = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	struct audit_result r2 = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, -1);

	tap_ok(r1.verdict == AUDIT_NONE && r2.verdict == AUDIT_NONE &&
	       !r1.nonlocal_work,
	       "none: no non-local work, whether G1 or NULL was picked");
	tap_ok(r1.pick[AUDIT_TRK_KERNEL] == 1 &&
	       r1.outcome[AUDIT_TRK_KERNEL] == AUDIT_PICK_NOWORK_NONE &&
	       r1.agree[AUDIT_TRK_KERNEL] && !r2.agree[AUDIT_TRK_KERNEL],
	       "none: kernel tracker picks G1 with outcome none");
}

static void test_busy(void)
{
	const struct audit_cpu c[] = {
		BUSY1(0, 1024), IDLE(1, 0),
		IDLE(2, 0), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_NOT_IDLE, 1);
	struct audit_counters cnt;
	int i, v, sum = 0;

	memset(&cnt, 0, sizeof(cnt));
	audit_account(&cnt, &r);
	for (i = 0; i < AUDIT_NR_IDLE_TYPES; i++)
		for (v = 0; v < AUDIT_NR_VERDICTS; v++)
			sum += cnt.verdict[i][v];
	tap_ok(r.verdict == AUDIT_BUSY && r.pick[AUDIT_TRK_SHADOW] == 2,
	       "busy: verdict busy, tracker picks still computed");
	tap_ok(cnt.verdict[AUDIT_CPU_NOT_IDLE][AUDIT_BUSY] == 1 && sum == 1 &&
	       cnt.tracker[AUDIT_TRK_SHADOW].judged == 0,
	       "busy: counted apart, no verdict or tracker counts");
}

static void test_ties(void)
{
	const struct audit_group g[] = {
		{ .first = 0, .nr = 1, .local = true },
		{ .first = 1, .nr = 1 },
		{ .first = 2, .nr = 1 },
		{ .first = 3, .nr = 1 },
	};
	const struct audit_cpu c[] = {
		IDLE(0, 0), BUSY1(1, 1024), BUSY1(2, 1024), BUSY1(3, 1024),
	};
	const struct audit_cpu z[] = {
		IDLE(0, 0), IDLE(1, 0), IDLE(2, 0), IDLE(3, 0),
	};
	struct audit_result r = judge(g, 4, c, NG(c), AUDIT_CPU_IDLE, 3);
	struct audit_result rz = judge(g, 4, z, NG(z), AUDIT_CPU_IDLE, -1);

	tap_ok(all_picks(&r, 1) && !r.agree[AUDIT_TRK_KERNEL],
	       "ties: equal metrics in G1..G3, every tracker picks G1");
	tap_ok(all_picks(&rz, -1) && rz.agree[AUDIT_TRK_NR] &&
	       rz.outcome[AUDIT_TRK_KERNEL] == AUDIT_NO_PICK &&
	       rz.verdict == AUDIT_NONE,
	       "ties: all metric sums 0, no tracker picks, agrees with NULL");
}

static void test_empty_group(void)
{
	/* G1 lost all its CPUs to env->cpus; it still sits first in line. */
	const struct audit_group g[] = {
		{ .first = 0, .nr = 1, .local = true },
		{ .first = 1, .nr = 0 },
		{ .first = 1, .nr = 1 },
	};
	const struct audit_cpu c[] = { IDLE(0, 0), BUSY2(1, 2048) };
	const struct audit_cpu q[] = { IDLE(0, 0), BUSY1(1, 1024) };
	struct audit_result r = judge(g, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	struct audit_result rq = judge(g, 3, q, NG(q), AUDIT_CPU_IDLE, 1);

	tap_ok(all_picks(&r, 2) && r.verdict == AUDIT_WRONG && !r.flags,
	       "empty group: never picked; kernel picking it is wrong");
	tap_ok(rq.verdict == AUDIT_NONE && all_picks(&rq, 2),
	       "empty group: has no work (none when nobody else has)");
}

static void test_capacity(void)
{
	/* G1: two half-capacity CPUs; G2: one full CPU. */
	const struct audit_group g[] = {
		{ .first = 0, .nr = 1, .local = true },
		{ .first = 1, .nr = 2 },
		{ .first = 3, .nr = 1 },
	};
	struct audit_cpu c[] = {
		IDLE(0, 0),
		BUSY1(1, 600), BUSY1(2, 600),
		BUSY2(3, 1000),
	};
	struct audit_result r;

	c[1].capacity = c[2].capacity = 512;
	c[1].shadow = c[2].shadow = 600;
	c[3].shadow = 1000;
	r = judge(g, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	/* 1200/1024 > 1000/1024: G1 by load, raw sums agree. */
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 1 && r.pick[AUDIT_TRK_SHADOW] == 1,
	       "capacity: 1200/1024 beats 1000/1024");
	/* Now G1 has 900 on 2x512 (< 1.0), G2 1000 on 1024 (< 1.0). */
	c[1].load_avg = c[2].load_avg = 450;
	c[1].shadow = c[2].shadow = 450;
	r = judge(g, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 2 && r.pick[AUDIT_TRK_SHADOW] == 2 &&
	       r.verdict == AUDIT_WRONG,
	       "capacity: 900/1024 loses to 1000/1024");
	c[1].capacity = c[2].capacity = 256;
	c[1].load_avg = c[2].load_avg = 300;
	r = judge(g, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	/* 600/512 > 1000/1024 though 600 < 1000: normalization flips it. */
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 1,
	       "capacity: 600 on 2x256 beats 1000 on 1024");
	/* nr: 2 tasks / 512 beats 2 tasks / 1024. */
	tap_ok(r.pick[AUDIT_TRK_NR] == 1 && r.pick[AUDIT_TRK_WEIGHT] == 1,
	       "capacity: nr and weight normalized by capacity as well");
}

static void test_rt_preempted(void)
{
	/*
	 * G1: CPU2 runs an RT task that preempted a CFS task (nr_running 2,
	 * h_nr_running 1, movable 1), low CFS load because it is not running.
	 * G2: CPU4 one busy CFS task with higher load, nothing to give.
	 */
	struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 300), IDLE(3, 0),
		BUSY1(4, 1024), IDLE(5, 0),
	};
	struct audit_result r;

	c[2].nr_running = 2;
	c[2].movable = 1;
	c[2].work = SHADOW_WORK_YES;
	c[2].shadow = 300;
	c[2].weight = 1024;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
	tap_ok(r.verdict == AUDIT_WRONG && r.nonlocal_work,
	       "rt-preempted: CFS task behind RT is work; kernel's G2 wrong");
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 2 &&
	       r.outcome[AUDIT_TRK_KERNEL] == AUDIT_PICK_IDLE_WRONG,
	       "rt-preempted: kernel tracker follows load to G2");
	/* h_nr_running 1 vs 1 ties: nr goes to G1, which has the work. */
	tap_ok(r.pick[AUDIT_TRK_NR] == 1 &&
	       r.outcome[AUDIT_TRK_NR] == AUDIT_PICK_WORK &&
	       !r.agree[AUDIT_TRK_NR],
	       "rt-preempted: nr tracker picks G1 and disagrees");
	/* A light CFS task on CPU5: nr (h_nr_running) now favours G2. */
	c[5] = (struct audit_cpu)BUSY1(5, 50);
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
	tap_ok(r.pick[AUDIT_TRK_NR] == 2 &&
	       r.outcome[AUDIT_TRK_NR] == AUDIT_PICK_IDLE_WRONG &&
	       r.verdict == AUDIT_WRONG,
	       "rt-preempted: nr counts CFS tasks only, blind to the RT case");
}

static void test_invalid_cpu(void)
{
	/* G2's CPU4 has stale-looking numbers but no published state. */
	struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1024), IDLE(3, 0),
		BUSY2(4, 5000), IDLE(5, 0),
	};
	struct audit_result r;

	c[4].valid = false;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
	tap_ok(all_picks(&r, 1),
	       "invalid cpu: its metrics read as 0, trackers pick G1");
	tap_ok(r.verdict == AUDIT_VOID && r.reason == AUDIT_R_VOID_NEVER && !r.nonlocal_work,
	       "invalid cpu: the verdict is void (never), its movable count is not work");
	/*
	 * Capacity still counts: G1 = 100 on 2048 beats G2 = 60 on 2048;
	 * had CPU4's capacity been dropped, 60 on 1024 would win.
	 */
	c[2].load_avg = 100;
	c[5].load_avg = 60;
	c[5].movable = 1;
	c[5].work = SHADOW_WORK_YES;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 1 && r.verdict == AUDIT_VOID,
	       "invalid cpu: capacity of an invalid CPU still counts; still void");
	c[4].valid = true;
	c[4].void_reason = 3;	/* SHADOW_VOID_DISABLED */
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	tap_ok(r.verdict == AUDIT_VOID && r.reason == AUDIT_R_VOID_DISABLED,
	       "void reason: a CPU published while disabled makes the verdict void (disabled)");
	c[4].void_reason = 0;
	c[4].work = SHADOW_WORK_UNKNOWN;
	c[5].work = SHADOW_WORK_NO;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	tap_ok(r.verdict == AUDIT_VOID && r.reason == AUDIT_R_VOID_WORK_UNKNOWN,
	       "work unknown for the destination: void (work_unknown)");
	c[2].work = SHADOW_WORK_YES;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 1);
	tap_ok(r.verdict == AUDIT_RIGHT && r.reason == AUDIT_R_NONE,
	       "work unknown elsewhere: a pick with work is still right");
}

/*
 * Every void reason: the first CPU of the domain (in group order) without
 * a fresh published state names the reason (enum shadow_void_reason, 1 =
 * never ... 7 = unreadable; 6, stale, is reserved and never published).
 */
static void test_void_reasons(void)
{
	/* enum shadow_void_reason (module/shadow.h): the glue asserts the mapping */
	static const int vr[] = { 1, 2, 3, 4, 5, 7 };
	struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1024), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r;
	int i, ok = 1;

	for (i = 0; i < NG(vr); i++) {
		c[3].void_reason = vr[i];
		c[5].void_reason = 1;	/* a later CPU's (never) does not count */
		r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 2);
		ok &= r.verdict == AUDIT_VOID && r.reason == AUDIT_R_VOID_NEVER + vr[i] - 1 &&
		      !strcmp(audit_reason_name[r.reason],
			      (const char *[]){ "never", "walk_failed", "disabled", "reset",
						"hotplug", "unreadable" }[i]);
	}
	tap_ok(ok, "void: each published void reason of the first such CPU is the verdict's reason");
}

static void test_bad_pick(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1024), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 3);
	struct audit_result rn = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, -7);
	struct audit_result ri = judge(g3, 3, c, NG(c), 5, 2);
	struct audit_counters cnt;

	memset(&cnt, 0, sizeof(cnt));
	audit_account(&cnt, &r);
	audit_account(&cnt, &rn);
	audit_account(&cnt, &ri);
	tap_ok(r.kernel_pick == -1 && (r.flags & AUDIT_F_BAD_PICK) &&
	       r.verdict == AUDIT_MISSED && rn.kernel_pick == -1 &&
	       (rn.flags & AUDIT_F_BAD_PICK),
	       "bad pick: 3 and -7 judged as -1 and flagged");
	tap_ok((ri.flags & AUDIT_F_BAD_IDLE) && ri.verdict == AUDIT_BUSY,
	       "bad idle type: judged as busy and flagged");
	tap_ok(cnt.bad == 3 && cnt.verdict[AUDIT_CPU_IDLE][AUDIT_MISSED] == 0 &&
	       cnt.tracker[AUDIT_TRK_KERNEL].judged == 0,
	       "bad input: only the bad counter moves");
}

static void test_bad_group(void)
{
	const struct audit_group g[] = {
		{ .first = 0, .nr = 1, .local = true },
		{ .first = 1, .nr = 5 },	/* runs past the array */
		{ .first = -1, .nr = 2 },
		{ .first = 9, .nr = 1 },
	};
	const struct audit_cpu c[] = { IDLE(0, 0), BUSY2(1, 2048) };
	struct audit_result r = judge(g, 4, c, NG(c), AUDIT_CPU_IDLE, 2);

	/* ASan would catch a read past c[]. */
	tap_ok((r.flags & AUDIT_F_BAD_GROUP) && all_picks(&r, 1) &&
	       r.verdict == AUDIT_WRONG,
	       "bad group range: clipped to the CPU array and flagged");
}

static void test_picked_local(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), BUSY2(1, 2048),
		IDLE(2, 0), IDLE(3, 0),
		BUSY2(4, 2048), IDLE(5, 0),
	};
	const struct audit_cpu n[] = {
		IDLE(0, 0), BUSY2(1, 2048),
		IDLE(2, 0), IDLE(3, 0),
		IDLE(4, 0), IDLE(5, 0),
	};
	struct audit_result r = judge(g3, 3, c, NG(c), AUDIT_CPU_IDLE, 0);
	struct audit_result rn = judge(g3, 3, n, NG(n), AUDIT_CPU_IDLE, 0);
	struct audit_counters cnt;

	memset(&cnt, 0, sizeof(cnt));
	audit_account(&cnt, &r);
	tap_ok(r.verdict == AUDIT_RIGHT && (r.flags & AUDIT_F_PICKED_LOCAL) &&
	       !r.agree[AUDIT_TRK_SHADOW] && cnt.picked_local == 1 &&
	       cnt.bad == 0,
	       "picked local: judged by the same rules, flagged, not bad");
	tap_ok(rn.verdict == AUDIT_NONE,
	       "picked local: none when no non-local group has work");
}

static void test_accumulate(void)
{
	const struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1024), IDLE(3, 1024),	/* blocked load */
		BUSY2(4, 2048), IDLE(5, 0),
	};
	static const struct { int idle, pick; } calls[] = {
		{ AUDIT_CPU_IDLE, 2 },		/* right */
		{ AUDIT_CPU_IDLE, 1 },		/* wrong */
		{ AUDIT_CPU_IDLE, -1 },		/* missed */
		{ AUDIT_CPU_NEWLY_IDLE, 2 },	/* right */
		{ AUDIT_CPU_NEWLY_IDLE, 2 },	/* right */
		{ AUDIT_CPU_NEWLY_IDLE, 1 },	/* wrong */
		{ AUDIT_CPU_NOT_IDLE, 1 },	/* busy */
		{ AUDIT_CPU_NOT_IDLE, 2 },	/* busy */
	};
	struct audit_counters a, b, sum;
	struct audit_result r;
	int i, t, ok = 1;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < NG(calls); i++) {
		r = judge(g3, 3, c, NG(c), calls[i].idle, calls[i].pick);
		audit_account(i & 1 ? &b : &a, &r);
	}
	/* One call with no work anywhere. */
	{
		const struct audit_cpu z[] = {
			IDLE(0, 0), IDLE(1, 0), IDLE(2, 0),
			IDLE(3, 0), IDLE(4, 0), IDLE(5, 0),
		};
		r = judge(g3, 3, z, NG(z), AUDIT_CPU_IDLE, -1);
		audit_account(&a, &r);
	}
	b.bad = 2;
	b.picked_local = 1;
	audit_counters_add(&sum, &a);
	audit_counters_add(&sum, &b);

	tap_ok(sum.verdict[AUDIT_CPU_IDLE][AUDIT_RIGHT] == 1 &&
	       sum.verdict[AUDIT_CPU_IDLE][AUDIT_WRONG] == 1 &&
	       sum.verdict[AUDIT_CPU_IDLE][AUDIT_MISSED] == 1 &&
	       sum.verdict[AUDIT_CPU_IDLE][AUDIT_NONE] == 1 &&
	       sum.verdict[AUDIT_CPU_NEWLY_IDLE][AUDIT_RIGHT] == 2 &&
	       sum.verdict[AUDIT_CPU_NEWLY_IDLE][AUDIT_WRONG] == 1 &&
	       sum.verdict[AUDIT_CPU_NOT_IDLE][AUDIT_BUSY] == 2,
	       "accumulate: verdict counts per idle type, summed over CPUs");
	for (t = 0; t < AUDIT_NR_TRACKERS; t++) {
		const struct audit_tracker_counters *tc = &sum.tracker[t];

		if (tc->judged != 7 ||
		    tc->judged != tc->pick_work + tc->pick_wrong +
				  tc->pick_none + tc->no_pick)
			ok = 0;
	}
	tap_ok(ok, "accumulate: judged = 7 = work + wrong + none + nopick");
	/* shadow picks G2 in all 6 calls with work, nothing in the last. */
	tap_ok(sum.tracker[AUDIT_TRK_SHADOW].pick_work == 6 &&
	       sum.tracker[AUDIT_TRK_SHADOW].no_pick == 1 &&
	       sum.tracker[AUDIT_TRK_SHADOW].agree == 4,
	       "accumulate: shadow 6 work, 1 nopick, agrees 4 of 7");
	/* kernel ties G1/G2 at 2048 -> G1: 6 wrong, agrees 2 + the NULL. */
	tap_ok(sum.tracker[AUDIT_TRK_KERNEL].pick_wrong == 6 &&
	       sum.tracker[AUDIT_TRK_KERNEL].agree == 3,
	       "accumulate: kernel tracker 6 wrong, agrees 3 of 7");
	ok = 1;
	for (i = 0; i < AUDIT_NR_IDLE_TYPES; i++) {
		u64 judged = 0;

		for (t = 0; t < AUDIT_BUSY; t++)
			judged += sum.verdict[i][t];
		if (i == AUDIT_CPU_NOT_IDLE ? judged != 0 :
		    sum.verdict[i][AUDIT_BUSY] != 0)
			ok = 0;
	}
	tap_ok(ok && sum.bad == 2 && sum.picked_local == 1,
	       "accumulate: busy only in its row; bad, picked_local added");
}

static void test_large(void)
{
	const u64 big = 1ULL << 40;
	const struct audit_group g[] = {
		{ .first = 0, .nr = 1, .local = true },
		{ .first = 1, .nr = 1 },
		{ .first = 2, .nr = 1 },
		{ .first = 3, .nr = 3 },
	};
	struct audit_cpu c[6] = { IDLE(0, 0) };
	struct audit_result r;
	int i;

	for (i = 1; i < 6; i++)
		c[i] = (struct audit_cpu)IDLE(i, 0);
	/*
	 * One CPU standing for a 1024-CPU group's sum (2^50): G1 = 2^50 on
	 * capacity 2^20, G2 = 2^50 on 2^20 - 1, so G2's ratio is higher.
	 * The cross products (2^70 and 2^70 - 2^50) wrap to 0 and
	 * 2^64 - 2^50 in 64 bits, which would keep G1.
	 */
	c[1].shadow = big << 10;
	c[1].capacity = 1ULL << 20;
	c[2].shadow = big << 10;
	c[2].capacity = (1ULL << 20) - 1;
	c[2].movable = 1;
	c[2].work = SHADOW_WORK_YES;
	r = judge(g, 4, c, 6, AUDIT_CPU_IDLE, 2);
	tap_ok(r.pick[AUDIT_TRK_SHADOW] == 2 &&
	       r.outcome[AUDIT_TRK_SHADOW] == AUDIT_PICK_WORK,
	       "large: 2^50 sums on 2^20 capacity compared exactly");
	/*
	 * G3: two CPUs of 2^63 on capacity 3.  Saturated, the sum is
	 * U64_MAX (ratio ~2^62.4) and beats G1's 2^62 on 1; wrapped, it
	 * would be 0 and G3 would not even be a candidate.
	 */
	c[3].shadow = c[4].shadow = 1ULL << 63;
	c[3].capacity = c[4].capacity = c[5].capacity = 1;
	c[1].shadow = 1ULL << 62;
	c[1].capacity = 1;
	r = judge(g, 4, c, 6, AUDIT_CPU_IDLE, 2);
	tap_ok(r.pick[AUDIT_TRK_SHADOW] == 3,
	       "large: metric sums saturate instead of wrapping to 0");
}

static void test_mul_128(void)
{
	static const struct { u64 a, b, hi, lo; } v[] = {
		{ ~0ULL, ~0ULL, ~0ULL - 1, 1 },
		{ (1ULL << 32) + 1, (1ULL << 32) + 1, 1, (1ULL << 33) + 1 },
		{ 0xdeadbeefcafebabeULL, 0x123456789abcdef0ULL,
		  0x0fd5bdeeeb2a01d7ULL, 0xeb689f4ea447d620ULL },
		{ 0xffffffff00000001ULL, 0x00000001ffffffffULL,
		  0x1fffffffdULL, 0x2ffffffffULL },
		{ 0, ~0ULL, 0, 0 },
	};
	int i, ok = 1;

	for (i = 0; i < NG(v); i++) {
		u64 hi, lo;

		audit_mul_128(v[i].a, v[i].b, &hi, &lo);
		if (hi != v[i].hi || lo != v[i].lo) {
			tap_diag("mul %d: %llx:%llx", i, (unsigned long long)hi,
				 (unsigned long long)lo);
			ok = 0;
		}
	}
	/* Equal fractions are not greater in either direction. */
	ok &= !audit_ratio_gt(3, 6, 1, 2) && !audit_ratio_gt(1, 2, 3, 6);
	ok &= audit_ratio_gt(~0ULL, ~0ULL - 1, ~0ULL - 1, ~0ULL - 2) == 0;
	tap_ok(ok, "mul_128: known 128-bit products, exact fraction order");
}

static void test_tejun(void)
{
	/*
	 * Tejun's schbench case (reference 000, dbg_odd_cnt): G1's root
	 * load_avg is inflated by blocked load of a nested cgroup whose
	 * tasks sleep; one task runs on CPU2 and nothing waits.  G2 has
	 * two runnable schbench threads on CPU4, but their cgroup's share
	 * propagates little load_avg to the root.
	 */
	struct audit_cpu c[] = {
		IDLE(0, 0), IDLE(1, 0),
		BUSY1(2, 1900), IDLE(3, 700),
		BUSY2(4, 1100), IDLE(5, 0),
	};
	struct audit_result r;

	c[2].shadow_avg = 1900 + 600;	/* shadow_avg keeps blocked load */
	c[3].shadow_avg = 700;
	c[4].shadow = 1800;		/* two runnable tasks */
	c[4].shadow_avg = 1900;
	c[2].weight = 1024;		/* cgroup shares: same weight */
	c[4].weight = 1024;
	r = judge(g3, 3, c, NG(c), AUDIT_CPU_NEWLY_IDLE, 1);
	tap_ok(r.verdict == AUDIT_WRONG,
	       "tejun: kernel picks the blocked-load group: wrong");
	tap_ok(r.pick[AUDIT_TRK_KERNEL] == 1 && r.agree[AUDIT_TRK_KERNEL] &&
	       r.outcome[AUDIT_TRK_KERNEL] == AUDIT_PICK_IDLE_WRONG,
	       "tejun: kernel tracker reproduces the wrong pick (2600 > 1100)");
	tap_ok(r.pick[AUDIT_TRK_SHADOW] == 2 && !r.agree[AUDIT_TRK_SHADOW] &&
	       r.outcome[AUDIT_TRK_SHADOW] == AUDIT_PICK_WORK,
	       "tejun: shadow tracker picks the group with two runnable tasks");
	tap_ok(r.pick[AUDIT_TRK_SHADOW_AVG] == 1 &&
	       r.outcome[AUDIT_TRK_SHADOW_AVG] == AUDIT_PICK_IDLE_WRONG,
	       "tejun: shadow_avg (with blocked load) is wrong like kernel");
	tap_ok(r.pick[AUDIT_TRK_WEIGHT] == 1 && r.pick[AUDIT_TRK_NR] == 2,
	       "tejun: weight ties to G1, nr picks G2");
}

static void test_names(void)
{
	int i, ok = 1;

	for (i = 0; i < AUDIT_NR_VERDICTS; i++)
		ok &= audit_verdict_name[i] != NULL;
	for (i = 0; i < AUDIT_NR_TRACKERS; i++)
		ok &= audit_tracker_name[i] != NULL;
	for (i = 0; i < AUDIT_NR_OUTCOMES; i++)
		ok &= audit_outcome_name[i] != NULL;
	tap_ok(ok && !strcmp(audit_idle_name[AUDIT_CPU_IDLE], "idle") &&
	       !strcmp(audit_idle_name[AUDIT_CPU_NOT_IDLE], "busy") &&
	       !strcmp(audit_idle_name[AUDIT_CPU_NEWLY_IDLE], "newidle") &&
	       !strcmp(audit_tracker_name[AUDIT_TRK_SHADOW_AVG],
		       "shadow_avg") &&
	       !strcmp(audit_verdict_name[AUDIT_MISSED], "missed"),
	       "names: every entry set, idle names in the kernel's order");
}

/* A CPU with @n runnable CFS tasks (each ~1024 load and util), @w of them can go to dst. */
static struct audit_cpu hog_cpu(int id, unsigned int n, int work)
{
	struct audit_cpu c = { .cpu = id, .nr_running = n, .h_nr_running = n,
			       .movable = n > 1 ? n - 1 : 0, .load_avg = 1024ULL * n,
			       .runnable_avg = 1024ULL * n, .util_avg = n ? 1024 : 0,
			       .capacity = 1024, .valid = true, .idle = !n,
			       .work = work ? SHADOW_WORK_YES : SHADOW_WORK_NO };
	return c;
}

static void test_reasons(void)
{
	/* local {4,5} first (the kernel visits from dst's group), then the two sockets */
	const struct audit_group g[] = {
		{ .first = 0, .nr = 2, .local = true, .weight = 2, .capacity = 2048 },
		{ .first = 2, .nr = 2, .weight = 2, .capacity = 2048 },
		{ .first = 4, .nr = 2, .weight = 2, .capacity = 2048 },
	};
	struct audit_cpu c[6];
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	audit_domain_default(&d);
	/* the known-wrong construction (scenario 27) */
	c[0] = hog_cpu(4, 1, 0); c[1] = hog_cpu(5, 0, 0);
	c[2] = hog_cpu(0, 3, 0); c[3] = hog_cpu(1, 1, 0);	/* all pinned */
	c[4] = hog_cpu(2, 2, 1); c[5] = hog_cpu(3, 1, 0);	/* one can move */
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_IDLE, 1, gs, &r);
	tap_ok(r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_CLASS_OVERLOADED &&
	       r.model_pick == 1 && gs[1].cls == AUDIT_CLS_OVERLOADED &&
	       gs[2].cls == AUDIT_CLS_OVERLOADED && gs[1].avg_load == 2048 &&
	       gs[2].avg_load == 1536,
	       "reason: pinned overloaded socket picked over the one with work: wrong/overloaded");
	/* the same pick, but the group with work has the higher avg_load: unexplained */
	c[4] = hog_cpu(2, 4, 1);
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_IDLE, 1, gs, &r);
	tap_ok(r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_UNEXPLAINED && r.model_pick == 2,
	       "reason: a pick the kernel's rule would not make is unexplained");
	/* missed because of the idle-CPU rule: local 2 idle, busiest has_spare with 1 idle */
	c[2] = hog_cpu(0, 0, 0); c[3] = hog_cpu(1, 0, 0);
	c[4] = hog_cpu(2, 2, 1); c[5] = hog_cpu(3, 0, 0);
	c[0] = hog_cpu(4, 0, 0);
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_NEWLY_IDLE, -1, gs, &r);
	tap_ok(r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_IDLE_CPUS &&
	       gs[2].cls == AUDIT_CLS_HAS_SPARE && r.model_pick == -1 && r.model.busiest == 2 &&
	       r.model.exit == AUDIT_R_IDLE_CPUS && r.cause == AUDIT_CAUSE_AGREE,
	       "reason: missed by the idle_cpus <= busiest->idle_cpus + 1 rule");
	/* EAS not overutilized comes before */
	d.eas_balanced = true;
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_NEWLY_IDLE, -1, gs, &r);
	tap_ok(r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_EAS, "reason: missed under EAS");
	d.eas_balanced = false;
	/* two groups of one CPU: single task rule (weight 1 skips the idle rule) */
	{
		const struct audit_group g1[] = {
			{ .first = 0, .nr = 1, .local = true, .weight = 1, .capacity = 1024 },
			{ .first = 1, .nr = 1, .weight = 1, .capacity = 1024 },
		};
		struct audit_cpu c1[2] = { hog_cpu(0, 0, 0), hog_cpu(1, 2, 1) };

		c1[1].h_nr_running = 1;	/* one CFS task behind an RT task */
		c1[1].util_avg = 300;
		c1[1].runnable_avg = 300;
		audit_judge(&d, g1, 2, c1, 2, AUDIT_CPU_IDLE, -1, gs, &r);
		tap_ok(r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_SINGLE_TASK,
		       "reason: missed by the sum_h_nr_running == 1 rule");
		c1[1].capacity = 500;	/* RT pressure: the lone CFS task is misfit */
		audit_judge(&d, g1, 2, c1, 2, AUDIT_CPU_IDLE, -1, gs, &r);
		tap_ok(r.verdict == AUDIT_MISSED && gs[1].cls == AUDIT_CLS_MISFIT &&
		       r.reason == AUDIT_R_UNEXPLAINED,
		       "reason: a misfit busiest is forced: a NULL return is unexplained");
		audit_judge(&d, g1, 2, c1, 2, AUDIT_CPU_IDLE, 1, gs, &r);
		tap_ok(r.verdict == AUDIT_RIGHT && r.reason == AUDIT_R_NONE, "reason: right has none");
	}
	/* BTF ranks decide: with overloaded ranked below has_spare (absurd), the pick is unexplained */
	c[2] = hog_cpu(0, 3, 0); c[3] = hog_cpu(1, 1, 0);
	c[4] = hog_cpu(2, 2, 1); c[5] = hog_cpu(3, 0, 0);
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_IDLE, 1, gs, &r);
	tap_ok(r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_CLASS_OVERLOADED,
	       "reason: overloaded outranks has_spare");
	d.rank[AUDIT_CLS_OVERLOADED] = -1;
	audit_judge(&d, g, 3, c, 6, AUDIT_CPU_IDLE, 1, gs, &r);
	tap_ok(r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_UNEXPLAINED,
	       "reason: class order comes from the ranks (BTF enum values)");
}


/*
 * Hand-derived cases (answers worked out from fair.c's find_busiest_group()
 * of each rule set; the derivation is in each comment).  Three groups of
 * two CPUs, weight 2, sgc capacity 2048, imbalance_pct 117; G0 is local
 * with the idle destination.  Thresholds for a 2-CPU group: overloaded
 * needs sum_nr > 2 and (util > 1750 or runnable > 2396); has_spare needs
 * sum_nr < 2 or (runnable <= 2396 and util < 1750.4).
 */
static struct audit_cpu hc(int id, u32 nr, u32 h, u64 load, u64 util, u64 run, int work)
{
	struct audit_cpu c = { .cpu = id, .nr_running = nr, .h_nr_running = h, .load_avg = load,
			       .util_avg = util, .runnable_avg = run, .capacity = 1024,
			       .valid = true, .idle = !nr,
			       .work = work ? SHADOW_WORK_YES : SHADOW_WORK_NO };
	return c;
}

static const struct audit_group hg[] = {
	{ .first = 0, .nr = 2, .local = true, .weight = 2, .capacity = 2048 },
	{ .first = 2, .nr = 2, .weight = 2, .capacity = 2048 },
	{ .first = 4, .nr = 2, .weight = 2, .capacity = 2048 },
};

/* 6.6's class order (smt_balance added) */
static void ranks66(struct audit_domain *d)
{
	static const s8 r[AUDIT_NR_CLASSES] = {
		[AUDIT_CLS_HAS_SPARE] = 0, [AUDIT_CLS_FULLY_BUSY] = 1, [AUDIT_CLS_MISFIT] = 2,
		[AUDIT_CLS_SMT_BALANCE] = 3, [AUDIT_CLS_ASYM] = 4, [AUDIT_CLS_IMBALANCED] = 5,
		[AUDIT_CLS_LLC_BALANCE] = -1, [AUDIT_CLS_OVERLOADED] = 6,
	};
	memcpy(d->rank, r, sizeof(r));
}

/* audit_judge(), then audit_explain() on copies (with the entry read @e, or none) */
static void hjudge_entry(struct audit_domain *d, const struct audit_group *g, int ng,
			 const struct audit_cpu *c, int nc, int pick, struct audit_gstats *gs,
			 struct audit_result *r, const struct audit_live *e)
{
	struct audit_group g2[16];
	struct audit_cpu c2[32];
	struct audit_live e2[32];

	memset(r, 0xa5, sizeof(*r));
	audit_judge(d, g, ng, c, nc, AUDIT_CPU_NEWLY_IDLE, pick, gs, r);
	if (ng > 16 || nc > 32)
		return;
	memcpy(g2, g, ng * sizeof(*g));
	memcpy(c2, c, nc * sizeof(*c));
	if (e)
		memcpy(e2, e, nc * sizeof(*e));
	audit_explain(d, g2, ng, c2, nc, e ? e2 : NULL, NULL, gs, r);
	tap_ok(!memcmp(g2, g, ng * sizeof(*g)) && !memcmp(c2, c, nc * sizeof(*c)) &&
	       r->runs <= (u32)AUDIT_EXPLAIN_RUNS(ng),
	       "explain: inputs restored, %u runs <= G+2", r->runs);
}

static void hjudge(struct audit_domain *d, const struct audit_group *g, int ng,
		   const struct audit_cpu *c, int nc, int pick, struct audit_gstats *gs,
		   struct audit_result *r)
{
	hjudge_entry(d, g, ng, c, nc, pick, gs, r, NULL);
}

static void test_hand_fully_busy(void)
{
	/*
	 * G1 {1,1 task} util 2048 runnable 2048: sum_nr 2 = weight, not
	 * overloaded; 2048*117 < 2048*100 no, 2048*100 > 2048*117 no: no
	 * capacity -> fully_busy, idle 0, no waiter.  G2 {2 tasks, idle}:
	 * runnable 2048 + 400 blocked = 2448 > 2396 -> fully_busy, idle 1,
	 * one waiter (work).  Local both idle: has_spare, idle 2.
	 * 6.1: the fully_busy tie keeps G1 (avg_load 0 <= 0).  Exits: local
	 * has_spare not above, idle 2 <= 0 + 1 no, h_nr 2 -> calculate:
	 * imbalance = (2 - 0) >> 1 = 1: G1.  Kernel G1: wrong, fully_busy.
	 * 6.6 rules: the tie goes to the later G2 (G1 is no SMT group);
	 * idle 2 <= 1 + 1: balanced, exit idle_cpus.
	 */
	struct audit_cpu c[6] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
		hc(2, 1, 1, 1024, 1024, 1024, 0), hc(3, 1, 1, 1024, 1024, 1024, 0),
		hc(4, 2, 2, 2048, 1024, 2048, 1), hc(5, 0, 0, 300, 0, 400, 0),
	};
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	audit_domain_default(&d);
	hjudge(&d, hg, 3, c, 6, 1, gs, &r);
	tap_ok(gs[1].cls == AUDIT_CLS_FULLY_BUSY && gs[2].cls == AUDIT_CLS_FULLY_BUSY &&
	       gs[0].cls == AUDIT_CLS_HAS_SPARE && r.model.busiest == 1 && r.model_pick == 1 &&
	       r.model.imbalance == 1 && r.cause == AUDIT_CAUSE_AGREE &&
	       r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_CLASS_FULLY_BUSY,
	       "hand 6.1: fully_busy tie keeps the first group: wrong/fully_busy, model agrees");
	{
		u32 differs, fagree;

		/* the evidence: under 6.1's rules the kernel's NULL disagrees;
		 * fully_busy_later switched gives NULL: the tie rule decided it */
		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		audit_model_flips(&d, gs, 3, AUDIT_CPU_NEWLY_IDLE, &r.model, -1,
				  AUDIT_RULES_FLIPPABLE, &differs, &fagree);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && (differs & AUDIT_RULE_FULLY_BUSY_LATER) &&
		       (fagree & AUDIT_RULE_FULLY_BUSY_LATER) &&
		       !(differs & AUDIT_RULE_MISFIT_TIE_FIRST) && !(differs & AUDIT_RULE_EAS_FIRST),
		       "hand: flips: only fully_busy_later decides this attempt, and its opposite matches");
	}
	d.rules = AUDIT_RULES_6_12;
	ranks66(&d);
	hjudge(&d, hg, 3, c, 6, 1, gs, &r);
	tap_ok(r.model.busiest == 2 && r.model_pick == -1 && r.model.exit == AUDIT_R_IDLE_CPUS &&
	       r.cause == AUDIT_CAUSE_UNKNOWN && r.verdict == AUDIT_WRONG &&
	       r.reason == AUDIT_R_UNEXPLAINED,
	       "hand 6.6: the later fully_busy group wins, idle_cpus exit: the kernel's G1 is unexplained");
	hjudge(&d, hg, 3, c, 6, -1, gs, &r);
	tap_ok(r.cause == AUDIT_CAUSE_AGREE && r.verdict == AUDIT_MISSED &&
	       r.reason == AUDIT_R_IDLE_CPUS && !r.either_picked,
	       "hand 6.6: a NULL return agrees: missed/idle_cpus, nobody picked");
	/*
	 * The earlier group is an SMT group whose second sibling runs an RT
	 * task (h_nr 1: not smt_balance, which needs 2 CFS tasks): still
	 * fully_busy, and 6.6 keeps it on the tie; then its single CFS task
	 * makes the single_task exit fire.
	 */
	{
		struct audit_group g2[3];

		memcpy(g2, hg, sizeof(g2));
		g2[1].flags = AUDIT_SG_SMT;
		c[3].h_nr_running = 0;
		hjudge(&d, g2, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_FULLY_BUSY && r.model.busiest == 1 &&
		       r.model.exit == AUDIT_R_SINGLE_TASK && r.verdict == AUDIT_WRONG &&
		       r.reason == AUDIT_R_UNEXPLAINED,
		       "hand 6.6: an SMT busiest keeps the fully_busy tie; its lone CFS task: single_task");
		hjudge(&d, g2, 3, c, 6, -1, gs, &r);
		tap_ok(r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_SINGLE_TASK,
		       "hand 6.6: ... and a NULL return is missed/single_task");
	}
}

static void test_hand_prefer_sibling(void)
{
	/*
	 * G1 {1, 1 task} util 300+300, runnable 600: sum_nr 2 = weight but
	 * 2048*100 > 600*117: has_spare, idle 0, no waiter.  G2 {2 tasks,
	 * idle}: has_spare, idle 1, work.  has_spare order: fewer idle CPUs,
	 * G1 is busiest.  Local: idle 2, nr 0.
	 * 6.1 with the child's SD_PREFER_SIBLING: 2 > 0 + 1 forces; the
	 * imbalance is (2 - 0) >> 1 = 1: G1, active_prefer_sibling.
	 * 6.6: prefer_sibling is G1's own sg flag.  Set: sibling_imbalance
	 * (equal cores) 2 > 1 forces, imbalance 2 >> 1 = 1: the same.  Unset
	 * (only the domain's child has it): no force; idle 2 <= 0 + 1 no,
	 * h_nr 2: imbalance = idle diff 2 >> 1 = 1: G1, reason its class.
	 */
	struct audit_cpu c[6] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
		hc(2, 1, 1, 300, 300, 300, 0), hc(3, 1, 1, 300, 300, 300, 0),
		hc(4, 2, 2, 600, 300, 600, 1), hc(5, 0, 0, 0, 0, 0, 0),
	};
	struct audit_group g[3];
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	memcpy(g, hg, sizeof(g));
	audit_domain_default(&d);
	d.flags = AUDIT_SD_PREFER_SIBLING;
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(gs[1].cls == AUDIT_CLS_HAS_SPARE && r.model.busiest == 1 && r.model_pick == 1 &&
	       r.model.imbalance == 1 && r.cause == AUDIT_CAUSE_AGREE &&
	       r.model.forced == AUDIT_R_ACTIVE_PREFER_SIBLING && r.verdict == AUDIT_WRONG &&
	       r.reason == AUDIT_R_ACTIVE_PREFER_SIBLING,
	       "hand 6.1: prefer_sibling from the child domain: wrong/active_prefer_sibling");
	d.rules = AUDIT_RULES_5_10;
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(r.model_pick == 1 && r.model.imbalance == 1 && r.verdict == AUDIT_WRONG &&
	       r.reason == AUDIT_R_ACTIVE_PREFER_SIBLING,
	       "hand 5.10: 2 > 0 + 1 forces, nr_diff 2 >> 1 = 1: wrong/active_prefer_sibling");
	d.rules = AUDIT_RULES_6_12;
	ranks66(&d);
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(r.model_pick == 1 && r.reason == AUDIT_R_CLASS_HAS_SPARE && r.model.imbalance == 1,
	       "hand 6.6: the busiest group's flags lack prefer_sibling: wrong/has_spare");
	g[1].flags = AUDIT_SG_PREFER_SIBLING;
	d.flags = 0;
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(r.model_pick == 1 && r.model.imbalance == 1 && r.cause == AUDIT_CAUSE_AGREE &&
	       r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_ACTIVE_PREFER_SIBLING,
	       "hand 6.6: prefer_sibling from the busiest group's flags, sibling_imbalance 2 > 1, 2 >> 1 = 1");
}

/*
 * active_asym where the CPU priorities cannot decide between groups: only
 * one non-local group can be asym_packing.  SD_ASYM_PACKING domain, G0
 * local {0,1} idle (dst 0, newly idle, its core idle), G1 {2,3} not SMT:
 * cpu2 runs one task, no waiter; G2 {4,5} an SMT core (sg->flags
 * SD_SHARE_CPUCAPACITY) with both siblings busy: cpu4 runs one and has one
 * waiting (work), cpu5 runs one.  The premise of G1's class: dst has a
 * higher arch_asym_cpu_priority() than G1's asym_prefer_cpu (what the core
 * assumes of every group with CFS tasks).
 * 6.6+ (sched_group_asym()): an SMT group with 2 busy CPUs is never
 * asym_packing, whatever the priorities; G2 has sum_h_nr 3 > 1: smt_balance
 * (sum_nr 3 > weight 2 but runnable 900*100 < 2048*117 and util 600*117 <
 * 2048*100: not overloaded).  G1: asym_packing (rank 4) above smt_balance
 * (rank 3): the busiest.  find_busiest_group(): asym_packing forces;
 * calculate_imbalance(): imbalance = G1's sum_h_nr_running = 1; returns
 * G1: the kernel's G1 has no waiter, G2 has one: wrong/active_asym.
 * 6.1 (asym_smt_can_pull_tasks(): a non-SMT local group pulls from an SMT
 * group with >= 2 busy CPUs whatever the priorities): G2 is asym_packing
 * too and update_sd_pick_busiest() keeps G1 only when sched_asym_prefer(
 * G2's, G1's preferred CPU), i.e. G2's priority is the higher: stated here
 * (priorities rising in visiting order below dst's); then the same
 * outcome.  No 6.1 input avoids this: every group with a waiter has CFS
 * tasks and, below overloaded/imbalanced, is asym_packing by priority.
 */
static void test_hand_active_asym(void)
{
	struct audit_cpu c[6] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
		hc(2, 1, 1, 500, 500, 500, 0), hc(3, 0, 0, 0, 0, 0, 0),
		hc(4, 2, 2, 1024, 300, 600, 1), hc(5, 1, 1, 512, 300, 300, 0),
	};
	struct audit_group g[3];
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;
	static const u32 rules[] = { AUDIT_RULES_6_12, AUDIT_RULES_7_3 };
	int i;

	memcpy(g, hg, sizeof(g));
	g[2].flags = AUDIT_SG_SMT;
	audit_domain_default(&d);
	d.flags = AUDIT_SD_ASYM_PACKING;
	for (i = 0; i < 2; i++) {
		d.rules = rules[i];
		ranks66(&d);
		if (i) {	/* 7.2's order: llc_balance between imbalanced and overloaded */
			d.rank[AUDIT_CLS_LLC_BALANCE] = 6;
			d.rank[AUDIT_CLS_OVERLOADED] = 7;
		}
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_ASYM && gs[2].cls == AUDIT_CLS_SMT_BALANCE &&
		       r.model.busiest == 1 && r.model_pick == 1 && r.model.imbalance == 1 &&
		       r.cause == AUDIT_CAUSE_AGREE && r.verdict == AUDIT_WRONG &&
		       r.reason == AUDIT_R_ACTIVE_ASYM,
		       "hand %s: one asym_packing group above an SMT group with a waiter: wrong/active_asym, imbalance 1",
		       i ? "7.3" : "6.6");
	}
	/* 6.1: G2 is asym_packing too; G1 kept on the stated priorities */
	audit_domain_default(&d);
	d.flags = AUDIT_SD_ASYM_PACKING;
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(gs[1].cls == AUDIT_CLS_ASYM && gs[2].cls == AUDIT_CLS_ASYM && r.model.busiest == 1 &&
	       r.model.imbalance == 1 && r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_ACTIVE_ASYM,
	       "hand 6.1: two asym_packing groups, G2's priority above G1's: G1 kept, wrong/active_asym");
	/* 5.10 (sched_asym_prefer(dst, group) alone, EAS off): the same */
	d.rules = AUDIT_RULES_5_10;
	hjudge(&d, g, 3, c, 6, 1, gs, &r);
	tap_ok(r.model_pick == 1 && r.model.imbalance == 1 && r.reason == AUDIT_R_ACTIVE_ASYM,
	       "hand 5.10: the same priorities: G1, wrong/active_asym, imbalance = its 1 task");
}

/*
 * prefer_sibling where the rule sets part: G0 local {0..3} (4 CPUs, 4
 * cores, capacity 4096): cpu1 runs one task, the others idle (idle_cpus 3,
 * sum_nr 1, has_spare).  G1 {4,5}: one task each, no waiter (sum_nr 2 =
 * weight; runnable 600, util 600: has_spare, idle 0).  G2 {6,7}: cpu6 runs
 * one and has one waiting, cpu7 idle (has_spare, idle 1).  has_spare
 * order: fewer idle CPUs: G1 is the busiest.  The prefer_sibling flag is
 * set where each kernel reads it (the child domain's before 6.6, G1's own
 * sg->flags since).
 * 5.10/6.1: force only if 2 > 1 + 1: no.  Not overloaded, idle dst:
 * local idle 3 <= 0 + 1 no; sum_h 2 != 1; calculate_imbalance(): has_spare
 * local, prefer_sibling: (2 - 1) >> 1 = 0: balanced, missed/imbalance_zero
 * (G2 has the waiter).
 * 6.6+: sibling_imbalance(): cores 2 vs 4 differ: 4*2 - 2*1 = 6, (2*6 + 4
 * + 2) / 6 = 3 > 1: forced; calculate_imbalance(): 3 >> 1 = 1: G1, not
 * overloaded: wrong/active_prefer_sibling.
 */
static void test_hand_prefer_sibling_cores(void)
{
	const struct audit_group g[3] = {
		{ .first = 0, .nr = 4, .local = true, .weight = 4, .capacity = 4096, .cores = 4 },
		{ .first = 4, .nr = 2, .weight = 2, .capacity = 2048, .cores = 2,
		  .flags = AUDIT_SG_PREFER_SIBLING },
		{ .first = 6, .nr = 2, .weight = 2, .capacity = 2048, .cores = 2,
		  .flags = AUDIT_SG_PREFER_SIBLING },
	};
	struct audit_cpu c[8] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 1, 1, 300, 300, 300, 0),
		hc(2, 0, 0, 0, 0, 0, 0), hc(3, 0, 0, 0, 0, 0, 0),
		hc(4, 1, 1, 300, 300, 300, 0), hc(5, 1, 1, 300, 300, 300, 0),
		hc(6, 2, 2, 600, 300, 600, 1), hc(7, 0, 0, 0, 0, 0, 0),
	};
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	audit_domain_default(&d);
	d.flags = AUDIT_SD_PREFER_SIBLING;
	audit_judge(&d, g, 3, c, 8, AUDIT_CPU_NEWLY_IDLE, -1, gs, &r);
	tap_ok(gs[0].cls == AUDIT_CLS_HAS_SPARE && gs[1].cls == AUDIT_CLS_HAS_SPARE &&
	       gs[2].cls == AUDIT_CLS_HAS_SPARE && gs[0].idle_cpus == 3 && r.model.busiest == 1 &&
	       r.model.exit == AUDIT_R_IMBALANCE_ZERO && r.cause == AUDIT_CAUSE_AGREE &&
	       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_IMBALANCE_ZERO,
	       "hand 6.1: prefer_sibling, 2 tasks vs 1 + 1: no force, (2 - 1) >> 1 = 0: missed/imbalance_zero");
	d.rules = AUDIT_RULES_5_10;
	audit_judge(&d, g, 3, c, 8, AUDIT_CPU_NEWLY_IDLE, -1, gs, &r);
	tap_ok(r.model.exit == AUDIT_R_IMBALANCE_ZERO && r.reason == AUDIT_R_IMBALANCE_ZERO,
	       "hand 5.10: the same: nr_diff (2 - 1) >> 1 = 0: missed/imbalance_zero");
	d.rules = AUDIT_RULES_6_12;
	d.flags = 0;
	ranks66(&d);
	audit_judge(&d, g, 3, c, 8, AUDIT_CPU_NEWLY_IDLE, 1, gs, &r);
	tap_ok(r.model.busiest == 1 && r.model_pick == 1 && r.model.imbalance == 1 &&
	       r.model.forced == AUDIT_R_ACTIVE_PREFER_SIBLING && r.cause == AUDIT_CAUSE_AGREE &&
	       r.verdict == AUDIT_WRONG && r.reason == AUDIT_R_ACTIVE_PREFER_SIBLING,
	       "hand 6.6: sibling_imbalance over 2 vs 4 cores is 3 > 1: forced, 3 >> 1 = 1: wrong/active_prefer_sibling");
	audit_judge(&d, g, 3, c, 8, AUDIT_CPU_NEWLY_IDLE, -1, gs, &r);
	tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && r.verdict == AUDIT_MISSED &&
	       r.reason == AUDIT_R_UNEXPLAINED,
	       "hand 6.6: a NULL return there is not the model's: missed/unexplained");
}

static void test_hand_missed_exits(void)
{
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	audit_domain_default(&d);
	{
		/*
		 * local_class: local {3 pinned, idle dst}: sum_nr 3 > 2 and
		 * runnable 3072*100 > 2048*117 -> overloaded.  G1 {2 tasks,
		 * idle}: util 500, runnable 900: has_spare, work.  overloaded
		 * above has_spare: balanced, local_class.
		 */
		struct audit_cpu c[6] = {
			hc(0, 3, 3, 3072, 1024, 3072, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 2, 2, 1024, 500, 900, 1), hc(3, 0, 0, 0, 0, 0, 0),
			hc(4, 0, 0, 0, 0, 0, 0), hc(5, 0, 0, 0, 0, 0, 0),
		};

		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		tap_ok(gs[0].cls == AUDIT_CLS_OVERLOADED && gs[1].cls == AUDIT_CLS_HAS_SPARE &&
		       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_LOCAL_CLASS &&
		       r.cause == AUDIT_CAUSE_AGREE,
		       "hand: local overloaded above a has_spare busiest: missed/local_class");
		/*
		 * local_load: G1 {2, 1 tasks} load 3072, runnable 3072:
		 * overloaded, avg_load 3072*1024/2048 = 1536; local the same
		 * avg_load 1536 >= 1536: balanced, local_load.
		 */
		c[2] = hc(2, 2, 2, 2048, 1024, 2048, 1);
		c[3] = hc(3, 1, 1, 1024, 1024, 1024, 0);
		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_OVERLOADED && gs[0].avg_load == 1536 &&
		       gs[1].avg_load == 1536 && r.reason == AUDIT_R_LOCAL_LOAD &&
		       r.verdict == AUDIT_MISSED,
		       "hand: overloaded local with the busiest's avg_load: missed/local_load");
	}
	{
		/*
		 * imbalance_zero on a NUMA domain (imb_numa_nr 4): G1 {2, 1
		 * tasks} util 1500 runnable 2000: sum_nr 3 > 2 but not
		 * overloaded (1500*117 < 204800, 2000*100 < 239616); has_spare
		 * (204800 > 175500), idle 0, work.  Local idle 2, nr 0.  Exits
		 * pass (2 > 0 + 1; h_nr 3).  6.1: imbalance = 2 - 0 = 2; local
		 * nr + 1 = 1 <= 4 and 2 <= NUMA_IMBALANCE_MIN: 0.  5.10: (2 >> 1)
		 * = 1, busiest runs 3 > 2 tasks: 1 stays: G1 is picked.
		 */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 2, 2, 2048, 1000, 1400, 1), hc(3, 1, 1, 1024, 500, 600, 0),
			hc(4, 0, 0, 0, 0, 0, 0), hc(5, 0, 0, 0, 0, 0, 0),
		};

		d.flags = AUDIT_SD_NUMA;
		d.imb_numa_nr = 4;
		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_HAS_SPARE && r.model.busiest == 1 &&
		       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_IMBALANCE_ZERO,
		       "hand 6.1: a small NUMA imbalance is allowed: missed/imbalance_zero");
		d.rules = AUDIT_RULES_5_10;
		d.imb_numa_nr = 0;
		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		tap_ok(r.model_pick == 1 && r.model.imbalance == 1 && r.cause == AUDIT_CAUSE_UNKNOWN &&
		       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_UNEXPLAINED,
		       "hand 5.10: busiest runs 3 tasks: the NUMA rule keeps 1, a NULL return is unexplained");
		d.rules = AUDIT_RULES_6_1;
		d.flags = 0;
	}
	{
		/*
		 * no_busiest: the published state says cpu2 has a waiter but
		 * the live inputs show no CFS task anywhere: no candidate.
		 */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 0, 0, 0, 0, 0, 1), hc(3, 0, 0, 0, 0, 0, 0),
			hc(4, 0, 0, 0, 0, 0, 0), hc(5, 0, 0, 0, 0, 0, 0),
		};

		hjudge(&d, hg, 3, c, 6, -1, gs, &r);
		tap_ok(r.model.busiest == -1 && r.model.exit == AUDIT_R_NO_BUSIEST &&
		       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_NO_BUSIEST,
		       "hand: no candidate with a CFS task: missed/no_busiest");
		/*
		 * the same with the CPU's inputs moving during the call: stale
		 * when the entry read (cpu2 running 2 CFS tasks) gives the
		 * kernel's pick, unknown when it does not (still no task)
		 */
		struct audit_live e[6] = { { 0 } };

		e[2] = (struct audit_live){ .nr = 3, .h_nr = 3, .load = 3072, .util = 800,
					    .runnable = 3000, .capacity = 1024, .have = true };
		c[2].stale = true;
		hjudge_entry(&d, hg, 3, c, 6, 1, gs, &r, e);
		tap_ok(r.cause == AUDIT_CAUSE_STALE && r.reason == AUDIT_R_NONE && r.runs == 1 &&
		       r.verdict == AUDIT_RIGHT && r.either_picked,
		       "hand: inputs that changed during the call, the entry read (G1 overloaded) gives the kernel's pick: stale");
		e[2] = (struct audit_live){ .load = 5, .capacity = 1024, .idle = true, .have = true };
		hjudge_entry(&d, hg, 3, c, 6, 1, gs, &r, e);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && r.runs == 1,
		       "hand: inputs that changed, the entry read does not give the kernel's pick: unknown");
		hjudge(&d, hg, 3, c, 6, 1, gs, &r);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && r.runs == 0,
		       "hand: a CPU marked stale without an entry read: unknown");
	}
}

static void test_hand_classes(void)
{
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;
	struct audit_group g[3];

	audit_domain_default(&d);
	memcpy(g, hg, sizeof(g));
	{
		/*
		 * imbalanced: G1 has sgc->imbalance, one task per CPU, no
		 * waiter; G2 has_spare with a waiter.  imbalanced (4) above
		 * has_spare: busiest G1, forced, imbalance 1: wrong/imbalanced.
		 */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 1, 1, 1024, 1024, 1024, 0), hc(3, 0, 0, 0, 0, 0, 0),
			hc(4, 2, 2, 2048, 800, 1600, 1), hc(5, 0, 0, 0, 0, 0, 0),
		};

		g[1].imbalanced = true;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_IMBALANCED && r.model_pick == 1 &&
		       r.model.imbalance == 1 && r.reason == AUDIT_R_CLASS_IMBALANCED,
		       "hand: an imbalanced group is forced: wrong/imbalanced");
		g[1].imbalanced = false;
		/* asym: an SD_ASYM_PACKING domain marks non-local groups with CFS tasks */
		d.flags = AUDIT_SD_ASYM_PACKING;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_ASYM && gs[2].cls == AUDIT_CLS_ASYM &&
		       r.model_pick == 1 && r.model.imbalance == 1 &&
		       r.reason == AUDIT_R_ACTIVE_ASYM,
		       "hand: asym_packing busiest (the first): wrong/active_asym, imbalance = its tasks");
		hjudge(&d, g, 3, c, 6, 2, gs, &r);
		tap_ok(r.verdict == AUDIT_RIGHT && r.cause == AUDIT_CAUSE_KNOWN &&
		       r.known == AUDIT_KNOWN_ASYM_PACKING,
		       "hand: asym_packing order is not modelled: a different pick is known/asym_packing");
		d.flags = 0;
	}
	{
		/*
		 * misfit: cpu2 runs one CFS task at capacity 800 (800*117 <
		 * 1024*100): misfit_load = its load 1000; misfit (2) above
		 * has_spare: forced, imbalance = misfit load: active_misfit.
		 * With the EAS exit first (5.10) and EAS balanced: exit eas.
		 */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 1, 1, 1000, 700, 700, 0), hc(3, 0, 0, 0, 0, 0, 0),
			hc(4, 2, 2, 2048, 800, 1600, 1), hc(5, 0, 0, 0, 0, 0, 0),
		};

		c[2].capacity = 800;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_MISFIT && gs[1].misfit_load == 1000 &&
		       r.model_pick == 1 && r.model.imbalance == 1000 &&
		       r.reason == AUDIT_R_ACTIVE_MISFIT,
		       "hand: a lone task on a reduced-capacity CPU: wrong/active_misfit");
		d.eas_balanced = true;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(r.model_pick == 1 && r.cause == AUDIT_CAUSE_AGREE,
		       "hand 6.1: misfit is forced before the EAS exit");
		d.rules = AUDIT_RULES_5_10;
		hjudge(&d, g, 3, c, 6, -1, gs, &r);
		tap_ok(r.model_pick == -1 && r.model.exit == AUDIT_R_EAS && r.reason == AUDIT_R_EAS,
		       "hand 5.10: the EAS exit comes first: missed/eas");
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_HAS_SPARE,
		       "hand 5.10: no reduced-capacity misfit on symmetric domains");
		d.rules = AUDIT_RULES_6_1;
		d.eas_balanced = false;
		/* two misfit groups with equal load: 6.1 takes the later, 6.6 the earlier */
		c[4] = c[2];
		c[4].cpu = 4;
		hjudge(&d, g, 3, c, 6, 2, gs, &r);
		tap_ok(r.model.busiest == 2, "hand 6.1: misfit tie: the later group (>=)");
		d.rules = AUDIT_RULES_6_12;
		ranks66(&d);
		hjudge(&d, g, 3, c, 6, 2, gs, &r);
		tap_ok(r.model.busiest == 1, "hand 6.6: misfit tie: the earlier group (>)");
	}
	{
		/*
		 * smt_balance (6.6): G1 is an SMT group running 2 CFS tasks
		 * (one per sibling, no waiter); G2 has_spare with a waiter.
		 * smt_balance (3) above has_spare; not overloaded, the local
		 * group is not SMT: forced, imbalance 1: wrong/smt_balance.
		 */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 1, 1, 1024, 800, 800, 0), hc(3, 1, 1, 1024, 800, 800, 0),
			hc(4, 2, 2, 2048, 800, 1600, 1), hc(5, 0, 0, 0, 0, 0, 0),
		};

		audit_domain_default(&d);
		d.rules = AUDIT_RULES_6_12;
		ranks66(&d);
		g[1].flags = AUDIT_SG_SMT;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(gs[1].cls == AUDIT_CLS_SMT_BALANCE && r.model_pick == 1 &&
		       r.model.imbalance == 1 && r.reason == AUDIT_R_CLASS_SMT_BALANCE,
		       "hand 6.6: an SMT group with two tasks is forced: wrong/smt_balance");
		g[1].flags = 0;
	}
	{
		/* known gaps by name: llc_balance (7.2+), eas_overutilized */
		struct audit_cpu c[6] = {
			hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
			hc(2, 1, 1, 1024, 800, 800, 0), hc(3, 0, 0, 0, 0, 0, 0),
			hc(4, 2, 2, 2048, 800, 1600, 1), hc(5, 0, 0, 0, 0, 0, 0),
		};

		audit_domain_default(&d);
		d.rules = AUDIT_RULES_7_3;
		ranks66(&d);
		d.rank[AUDIT_CLS_LLC_BALANCE] = 6;	/* 7.2's order */
		d.rank[AUDIT_CLS_OVERLOADED] = 7;
		/*
		 * an llc_balance busiest is forced only through prefer_sibling
		 * (G1 has one task and 1 idle CPU: the idle_cpus exit otherwise)
		 */
		c[2].llc_pref = 1;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && r.runs == 1,
		       "hand 7.3: a pick with llc_pref that llc_balance would not force: unknown");
		g[1].flags = AUDIT_SG_PREFER_SIBLING;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(r.cause == AUDIT_CAUSE_KNOWN && r.known == AUDIT_KNOWN_LLC_BALANCE &&
		       r.reason == AUDIT_R_UNEXPLAINED && r.runs == 1,
		       "hand 7.3: a prefer_sibling pick with a task preferring dst's LLC: known/llc_balance");
		c[2].llc_pref = 0;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN,
		       "hand 7.3: the same pick without llc_pref: unknown");
		d.eas_present = true;
		hjudge(&d, g, 3, c, 6, 1, gs, &r);
		tap_ok(r.cause == AUDIT_CAUSE_UNKNOWN && r.runs == 4,
		       "hand 7.3: an energy model, no group overloaded: flipping overutilized explains nothing: unknown after 4 runs");
	}
}

static void test_hand_capacity_first(void)
{
	/*
	 * SD_ASYM_CPUCAPACITY, dst capacity 512: G1 fully_busy with
	 * min_capacity 1024 (1024*1024 > 512*1078: bigger CPUs).  Old order:
	 * the class comparison returns before the capacity filter, G1 is the
	 * busiest; capacity_first filters it first: no busiest.
	 */
	struct audit_cpu c[6] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 0, 0, 0, 0, 0, 0),
		hc(2, 1, 1, 1024, 1024, 1024, 0), hc(3, 1, 1, 1024, 1024, 1024, 0),
		hc(4, 0, 0, 0, 0, 0, 0), hc(5, 0, 0, 0, 0, 0, 0),
	};
	struct audit_group g[3];
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	memcpy(g, hg, sizeof(g));
	g[1].min_capacity = g[1].max_capacity = 1024;
	audit_domain_default(&d);
	d.flags = AUDIT_SD_ASYM_CAPACITY;
	d.dst_capacity = 512;
	d.rules = AUDIT_RULES_6_1 & ~AUDIT_RULE_CAPACITY_FIRST;
	hjudge(&d, g, 3, c, 6, -1, gs, &r);
	tap_ok(gs[1].cls == AUDIT_CLS_FULLY_BUSY && r.model.busiest == 1,
	       "hand: capacity filter after the class comparison: the fully_busy group is busiest");
	d.rules = AUDIT_RULES_6_1;
	hjudge(&d, g, 3, c, 6, -1, gs, &r);
	tap_ok(r.model.busiest == -1 && r.model.exit == AUDIT_R_NO_BUSIEST && r.verdict == AUDIT_NONE,
	       "hand: capacity_first filters the bigger CPUs' group: no busiest");
}

static void test_hand_idle_wrap(void)
{
	/*
	 * calculate_imbalance(): max_t(long, 0, local->idle_cpus -
	 * busiest->idle_cpus) subtracts unsigned ints.  MC domain
	 * (SD_SHARE_LLC: no util branch), newly idle dst whose idle_cpu() is
	 * still false (curr not yet the idle task): local idle_cpus 0, nr 1
	 * (has_spare); G1 {3 tasks, idle} runnable 3072: overloaded, idle 1.
	 * Overloaded skips the idle_cpus exit; 0 - 1 wraps to 4294967295,
	 * >> 1 = 2147483647: the kernel picks G1.  On a NUMA domain the value
	 * goes through adjust_numa_imbalance()'s int: -1, kept unless local
	 * nr + 1 <= imb_numa_nr (then -1 <= 2 gives 0); -1 >> 1 = -1.
	 */
	struct audit_cpu c[6] = {
		hc(0, 0, 0, 0, 0, 0, 0), hc(1, 1, 1, 1024, 1024, 1024, 0),
		hc(2, 3, 3, 3072, 1024, 3072, 1), hc(3, 0, 0, 0, 0, 0, 0),
		hc(4, 0, 0, 0, 0, 0, 0), hc(5, 0, 0, 0, 0, 0, 0),
	};
	struct audit_gstats gs[3];
	struct audit_domain d;
	struct audit_result r;

	c[0].idle = false;
	audit_domain_default(&d);
	d.flags = AUDIT_SD_SHARE_LLC;
	hjudge(&d, hg, 3, c, 6, 1, gs, &r);
	tap_ok(gs[0].cls == AUDIT_CLS_HAS_SPARE && gs[0].idle_cpus == 0 &&
	       gs[1].cls == AUDIT_CLS_OVERLOADED && r.model_pick == 1 &&
	       r.model.imbalance == 2147483647ULL && r.verdict == AUDIT_RIGHT,
	       "hand: fewer idle CPUs in the local group wrap the unsigned difference: the kernel picks");
	d.flags = AUDIT_SD_NUMA | AUDIT_SD_SHARE_LLC;
	d.imb_numa_nr = 4;
	hjudge(&d, hg, 3, c, 6, -1, gs, &r);
	tap_ok(r.model_pick == -1 && r.model.exit == AUDIT_R_IMBALANCE_ZERO &&
	       r.verdict == AUDIT_MISSED && r.reason == AUDIT_R_IMBALANCE_ZERO,
	       "hand: NUMA, local nr + 1 <= imb_numa_nr: the wrapped -1 is a small imbalance: 0");
	d.imb_numa_nr = 1;
	hjudge(&d, hg, 3, c, 6, 1, gs, &r);
	tap_ok(r.model_pick == 1 && r.model.imbalance == ~0ULL,
	       "hand: NUMA above imb_numa_nr: -1 stays (-1 >> 1 = -1): the kernel picks");
}

/* The rows of lb_attempts come from the reason table, nothing else. */
static void test_reason_table(void)
{
	s8 row_of[AUDIT_NR_VERDICTS][AUDIT_NR_REASONS];
	u8 rv[AUDIT_NR_REASON_ROWS], rr[AUDIT_NR_REASON_ROWS];
	int n = audit_reason_rows(row_of, rv, rr), i, j, v, r, ok = 1, pairs = 0;

	for (v = 0; v < AUDIT_NR_VERDICTS; v++)
		for (r = 0; r < AUDIT_NR_REASONS; r++) {
			int allowed = !!(audit_reason_verdicts[r] & AUDIT_VB(v));

			pairs += allowed;
			if (allowed != (row_of[v][r] >= 0))
				ok = 0;
			else if (allowed && (rv[row_of[v][r]] != v || rr[row_of[v][r]] != r))
				ok = 0;
		}
	tap_ok(ok && n == (int)AUDIT_NR_REASON_ROWS && pairs == n,
	       "reason table: %d rows, one per allowed (verdict, reason) pair, both ways", n);
	for (i = 0, ok = 1; i < AUDIT_NR_REASONS; i++) {
		ok &= audit_reason_name[i] && *audit_reason_name[i] && !strchr(audit_reason_name[i], ' ');
		ok &= audit_reason_verdicts[i] != 0 && audit_reason_doc[i] && !strchr(audit_reason_doc[i], '|');
		for (j = 0; j < i; j++)
			ok &= strcmp(audit_reason_name[i], audit_reason_name[j]) != 0;
	}
	tap_ok(ok, "reason table: %d names, unique, no spaces; every reason has verdicts and a doc line",
	       AUDIT_NR_REASONS);
	/* every verdict row of the table is reached in order: right first, missed last */
	tap_ok(rv[0] == AUDIT_RIGHT && rr[0] == AUDIT_R_NONE && rv[n - 1] == AUDIT_MISSED &&
	       rr[n - 1] == AUDIT_R_UNEXPLAINED &&
	       row_of[AUDIT_WRONG][AUDIT_R_UNEXPLAINED] >= 0 &&
	       row_of[AUDIT_MISSED][AUDIT_R_EAS] > row_of[AUDIT_WRONG][AUDIT_R_UNEXPLAINED],
	       "reason table: rows right, busy, none, void, wrong, missed; unexplained under both");
}

/* docs/debugfs.md's reason list, as generated from the table */
static void reasons_md(FILE *f)
{
	int i, v, sep;

	fprintf(f, "| reason | verdicts | meaning |\n|---|---|---|\n");
	for (i = 0; i < AUDIT_NR_REASONS; i++) {
		fprintf(f, "| `%s` | ", audit_reason_name[i]);
		for (v = 0, sep = 0; v < AUDIT_NR_VERDICTS; v++)
			if (audit_reason_verdicts[i] & AUDIT_VB(v))
				fprintf(f, "%s%s", sep++ ? ", " : "", audit_verdict_name[v]);
		fprintf(f, " | %s |\n", audit_reason_doc[i]);
	}
}

#define REASONS_BEGIN "<!-- reasons: generated from module/core/audit_reasons.h (make docs-reasons) -->\n"
#define REASONS_END "<!-- reasons: end -->\n"

static void test_reasons_doc(void)
{
	static char doc[1 << 20], want[1 << 16];
	FILE *f = fopen("docs/debugfs.md", "r"), *m;
	size_t n = f ? fread(doc, 1, sizeof(doc) - 1, f) : 0;
	char *b, *e;

	if (f)
		fclose(f);
	doc[n] = 0;
	m = fmemopen(want, sizeof(want), "w");
	reasons_md(m);
	fclose(m);
	b = strstr(doc, REASONS_BEGIN);
	e = b ? strstr(b, REASONS_END) : NULL;
	if (b)
		b += strlen(REASONS_BEGIN);
	tap_ok(b && e && (size_t)(e - b) == strlen(want) && !strncmp(b, want, e - b),
	       "docs/debugfs.md's reason list is the table's (run make docs-reasons)");
}

/*
 * Every reason and every class of the table is reached by a case above,
 * and each one whose rules differ between kernels by a case of each rule
 * set concerned.  Never given by the core, by construction (docs/debugfs.md,
 * "lb reasons"): `misfit` and `asym` (such a busiest is always forced:
 * active_misfit / active_asym, both reached), void `stale` (reserved: no
 * CPU state is ever marked so).
 */
static void test_hand_coverage(void)
{
	static const struct { int v; int reason; } need[] = {
		/* the EAS exit: first on 5.10, after the misfit force since */
		{ COV_5_10, AUDIT_R_EAS }, { COV_6_1, AUDIT_R_EAS },
		/* the NUMA imbalance rule (5.10: busiest nr; 6.1+: imb_numa_nr) */
		{ COV_5_10, AUDIT_R_IMBALANCE_ZERO }, { COV_6_1, AUDIT_R_IMBALANCE_ZERO },
		/* prefer_sibling: child's flag and nr + 1; busiest's flag and sibling_imbalance() */
		{ COV_5_10, AUDIT_R_ACTIVE_PREFER_SIBLING }, { COV_6_1, AUDIT_R_ACTIVE_PREFER_SIBLING },
		{ COV_6_12, AUDIT_R_ACTIVE_PREFER_SIBLING },
		/* asym_packing: sched_asym_prefer(); sched_group_asym()'s SMT rule */
		{ COV_5_10, AUDIT_R_ACTIVE_ASYM }, { COV_6_1, AUDIT_R_ACTIVE_ASYM },
		{ COV_6_12, AUDIT_R_ACTIVE_ASYM }, { COV_7_3, AUDIT_R_ACTIVE_ASYM },
		/* the fully_busy tie: the first (6.1), the later (6.6+) */
		{ COV_6_1, AUDIT_R_CLASS_FULLY_BUSY }, { COV_6_12, AUDIT_R_IDLE_CPUS },
		/* smt_balance and the SMT single-task rule exist from 6.6 */
		{ COV_6_12, AUDIT_R_CLASS_SMT_BALANCE }, { COV_6_12, AUDIT_R_SINGLE_TASK },
		/* misfit: reduced capacity (6.1+) */
		{ COV_6_1, AUDIT_R_ACTIVE_MISFIT },
		/* known gaps of 7.2+ */
		{ COV_7_3, AUDIT_R_UNEXPLAINED },
	};
	int v, i, missing = 0, cls_missing = 0;
	unsigned int any;

	for (i = 0; i < AUDIT_NR_REASONS; i++) {
		if (i == AUDIT_R_CLASS_MISFIT || i == AUDIT_R_CLASS_ASYM || i == AUDIT_R_VOID_STALE)
			continue;
		if (i == AUDIT_R_CLASS_LLC_BALANCE)
			continue;	/* not modelled: a known gap (docs/debugfs.md) */
		for (v = 0, any = 0; v < COV_NR; v++)
			any += cov_reason[v][i];
		if (!any) {
			tap_diag("no case reaches reason %s", audit_reason_name[i]);
			missing++;
		}
	}
	for (i = 0; i < (int)(sizeof(need) / sizeof(need[0])); i++)
		if (!cov_reason[need[i].v][need[i].reason]) {
			tap_diag("no %s case reaches reason %s", cov_name[need[i].v],
				 audit_reason_name[need[i].reason]);
			missing++;
		}
	tap_ok(!missing, "coverage: every reason of the table is reached (%d missing), per rule set where the rules differ (%d pairs)",
	       missing, (int)(sizeof(need) / sizeof(need[0])));
	for (i = 0; i < AUDIT_NR_CLASSES; i++) {
		if (i == AUDIT_CLS_LLC_BALANCE)
			continue;	/* not modelled */
		for (v = 0, any = 0; v < COV_NR; v++)
			any += cov_class[v][i];
		if (!any) {
			tap_diag("no case reaches class %s", audit_class_name[i]);
			cls_missing++;
		}
	}
	tap_ok(!cls_missing, "coverage: every group class is reached (%d missing)", cls_missing);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--reasons-md")) {
		reasons_md(stdout);
		return 0;
	}
	tap_begin("audit_core");
	test_right();
	test_wrong();
	test_missed();
	test_none();
	test_busy();
	test_ties();
	test_empty_group();
	test_capacity();
	test_rt_preempted();
	test_invalid_cpu();
	test_void_reasons();
	test_bad_pick();
	test_bad_group();
	test_picked_local();
	test_accumulate();
	test_large();
	test_mul_128();
	test_tejun();
	test_names();
	test_reasons();
	test_reason_table();
	test_reasons_doc();
	test_hand_fully_busy();
	test_hand_prefer_sibling();
	test_hand_prefer_sibling_cores();
	test_hand_active_asym();
	test_hand_missed_exits();
	test_hand_classes();
	test_hand_capacity_first();
	test_hand_idle_wrap();
	test_hand_coverage();
	return tap_end();
}
