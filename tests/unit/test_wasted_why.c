// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of module/core/wasted_why.c (the rules that name why an idle
 * CPU stayed idle: the wakeup path, the no_attempt reasons) and of the
 * replay's episode start (wr_level_since(), the idle transition's level),
 * each rule against the text of docs/wasted.md: every row reached by the
 * state its rule names, and missed when one input of the rule differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "work.c"
#include "wasted_core.c"
#include "wasted_replay.c"
#include "wasted_why.c"

#define HZ_TEST	250

/* an idle CPU whose balance at this level is due in @in_j jiffies (negative: overdue) */
static struct wasted_why_in why(long in_j)
{
	struct wasted_why_in in = {
		.have_sd = true, .have_nohz = true, .have_cost = true, .have_ratio = true,
		.newidle_flag = true, .now = 100000, .interval = 4, .ratio = 1024,
		.avg_idle = 500000, .max_cost = 20000,
	};

	in.last_balance = in.now + in_j - in.interval;
	in.next_balance = in.now + in_j;
	return in;
}

static const char *na(int r)
{
	return r >= 0 && r < WASTED_NR_NA ? wasted_na_name[r] : "?";
}

static void test_rules(void)
{
	struct wasted_why_in in;
	int r, d;

	/* nohz_no_kick: tick stopped, due, no kick pending */
	in = why(-3);
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NOHZ_NO_KICK, "tick stopped, balance overdue by 3 jiffies, no kick: nohz_no_kick (%s)", na(r));
	in.kick_pending = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_KICK_PENDING,
	       "... a kick pending on the CPU: unknown (kick_pending), not nohz_no_kick (%s, %s)", na(r),
	       wasted_na_detail_name[d]);
	in = why(-3);
	in.tick_stopped = true;
	in.have_nohz = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN, "... the kernel has no nohz_tick_stopped: never nohz_no_kick (%s)", na(r));
	in = why(2);
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "tick stopped but the balance due in 2 jiffies: interval (%s)", na(r));

	/* interval: not due by sd->last_balance + interval, or by rq->next_balance */
	in = why(1);
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "tick running, balance due in 1 jiffy: interval (%s)", na(r));
	in = why(-10);
	in.next_balance = in.now + 5;
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "interval elapsed but rq->next_balance 5 jiffies ahead: interval (%s)", na(r));
	in = why(0);
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "tick running, due this jiffy: interval (the next tick runs it) (%s)", na(r));
	in = why(-5);
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_TICK_OVERDUE,
	       "tick running, overdue by 5 jiffies, the kernel has no last_blocked_load_update_tick: unknown (tick_overdue) (%s, %s)",
	       na(r), wasted_na_detail_name[d]);
	/* tick_late: due, tick running, no blocked-load update (balance softirq) since it was due */
	in = why(-5);
	in.have_blocked = true;
	in.blocked_tick = in.now - 6;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_TICK_LATE && d == WASTED_NAD_NONE,
	       "tick running, overdue by 5 jiffies, the softirq's last update a jiffy before it was due: tick_late (%s)", na(r));
	in.blocked_tick = in.now - 5;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_TICK_OVERDUE,
	       "... the update in the jiffy it became due (the softirq ran since): unknown (tick_overdue) (%s, %s)",
	       na(r), wasted_na_detail_name[d]);
	in.blocked_tick = in.now - 6;
	in.ended = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_ENDED,
	       "... no update since, but the CPU busy again when read: unknown (ended), never tick_late (%s, %s)",
	       na(r), wasted_na_detail_name[d]);
	/* busy_tick: due, tick running, the softirq ran since, the CPU's last tick found it busy */
	in = why(-5);
	in.have_blocked = true;
	in.blocked_tick = in.now - 2;
	in.have_idle_tick = true;
	in.idle_tick = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_BUSY_TICK && d == WASTED_NAD_NONE,
	       "tick running, overdue by 5 jiffies, the softirq since, rq->idle_balance 0: busy_tick (%s)", na(r));
	in.idle_tick = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_TICK_OVERDUE,
	       "... the last tick found the CPU idle: unknown (tick_overdue) (%s, %s)", na(r),
	       wasted_na_detail_name[d]);
	in.idle_tick = false;
	in.have_idle_tick = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN, "... the kernel has no rq->idle_balance: unknown, never busy_tick (%s)", na(r));
	in.have_idle_tick = true;
	in.ended = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_ENDED,
	       "... the CPU busy again when read: unknown (ended), never busy_tick (%s, %s)", na(r),
	       wasted_na_detail_name[d]);
	in.ended = false;
	in.blocked_tick = in.now - 6;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_TICK_LATE, "... busy at the last tick but no softirq since it was due: tick_late first (%s)", na(r));
	in = why(-1);
	in.have_idle_tick = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "... due a jiffy ago, busy at the last tick: interval (%s)", na(r));
	in = why(-5);
	in.have_idle_tick = true;
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NOHZ_NO_KICK, "... the tick stopped, busy at the last tick: nohz_no_kick (%s)", na(r));
	in = why(-1);
	in.have_blocked = true;
	in.blocked_tick = in.now - 10;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "... due only a jiffy ago, no update since: interval (the next tick) (%s)", na(r));
	in = why(-5);
	in.have_blocked = true;
	in.blocked_tick = in.now - 6;
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NOHZ_NO_KICK, "... no update since, the tick stopped: nohz_no_kick, not tick_late (%s)", na(r));
	in = why(-5);
	in.have_blocked = true;
	in.blocked_tick = in.now - 6;
	in.began_idle = true;
	in.avg_idle = 10000;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_SKIPPED, "... no update since, but it went idle with newidle skipped: newidle_skipped first (%s)", na(r));
	in = why(-5);
	in.have_blocked = true;
	in.now = 2;
	in.last_balance = (unsigned long)-7;	/* due at -3, wrapped */
	in.next_balance = (unsigned long)-3;
	in.blocked_tick = (unsigned long)-4;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_TICK_LATE, "... jiffies wrapped: tick_late (%s)", na(r));
	in.blocked_tick = 0;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN, "... jiffies wrapped, the update after it was due: unknown (%s)", na(r));
	in.began_idle = true;
	in.avg_idle = 10000;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_SKIPPED,
	       "... but it went idle with the waiter there, avg_idle below the cost: newidle_skipped (%s)", na(r));
	in.avg_idle = 500000;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN, "... avg_idle above the cost, ratio 1024: unknown again (%s)", na(r));
	/* jiffies wrap */
	in = why(2);
	in.now = 1;
	in.last_balance = (unsigned long)-3;	/* 4 jiffies before 1: due at 1 + 2 - ... */
	in.next_balance = in.now + 2;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "jiffies wrapped: still not due (%s)", na(r));

	/* newidle: the CPU went idle with the waiter there, balance not due */
	in = why(3);
	in.began_idle = true;
	in.avg_idle = 10000;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_SKIPPED, "went idle, avg_idle 10 us < max_newidle_lb_cost 20 us: newidle_skipped (%s)", na(r));
	in.began_idle = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "... the same state but the waiter came after it went idle: interval (%s)", na(r));
	in = why(3);
	in.began_idle = true;
	in.avg_idle = 10000;
	in.have_cost = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "... the costs not readable: interval, never newidle_skipped (%s)", na(r));
	in = why(3);
	in.began_idle = true;
	in.newidle_flag = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_SKIPPED, "went idle, the domain has no SD_BALANCE_NEWIDLE: newidle_skipped (%s)", na(r));
	in = why(3);
	in.began_idle = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "went idle, avg_idle 500 us > cost, ratio 1024: interval (%s)", na(r));
	in.ratio = 200;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_RATIO, "... newidle_ratio 200 < 1024: newidle_ratio (%s)", na(r));
	in.have_ratio = false;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_INTERVAL, "... the kernel has no newidle_ratio: interval (%s)", na(r));
	in = why(-3);
	in.began_idle = true;
	in.avg_idle = 10000;
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NOHZ_NO_KICK, "went idle and newidle skipped, but the balance is now overdue, tick stopped: nohz_no_kick (%s)", na(r));

	in = why(-3);
	in.tick_stopped = true;
	in.ended = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_ENDED,
	       "tick stopped and overdue, but the CPU is busy again when read: unknown (ended), never nohz_no_kick (%s, %s)",
	       na(r), wasted_na_detail_name[d]);
	in.began_idle = true;
	in.avg_idle = 10000;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NEWIDLE_SKIPPED, "... it went idle with the waiter there, avg_idle below the cost: newidle_skipped (%s)",
	       na(r));
	in = why(-3);
	in.have_sd = false;
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_UNKNOWN && d == WASTED_NAD_UNREAD,
	       "the domain at that level not found: unknown (unread) (%s, %s)", na(r), wasted_na_detail_name[d]);
	in = why(-3);
	in.tick_stopped = true;
	r = wasted_why(&in, &d);
	tap_ok(r == WASTED_NA_NOHZ_NO_KICK && d == WASTED_NAD_NONE, "a named reason has no detail (%s)",
	       wasted_na_detail_name[d]);
}

static void test_paths(void)
{
	static const struct {
		u32 flags;
		bool t_is_w, w_in, p_in;
		int want;
	} c[] = {
		{ WASTED_WF_FORK, false, true, true, WASTED_WAKE_FORK },
		{ WASTED_WF_FORK | WASTED_WF_SYNC, true, true, false, WASTED_WAKE_FORK },
		{ WASTED_WF_SYNC, true, true, false, WASTED_WAKE_SYNC },
		{ WASTED_WF_SYNC, false, true, false, WASTED_WAKE_AFFINE },
		{ 0, true, true, false, WASTED_WAKE_AFFINE },
		{ 0, false, false, true, WASTED_WAKE_PREV },
		{ 0, false, true, true, WASTED_WAKE_SAME_LLC },
		{ WASTED_WF_SYNC, false, true, true, WASTED_WAKE_SAME_LLC },
		{ 0, false, false, false, WASTED_WAKE_OTHER },
	};
	u32 i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int p = wasted_wake_path(c[i].flags, c[i].t_is_w, c[i].w_in, c[i].p_in);

		tap_ok(p == c[i].want, "path: flags %s%s, target %s the waker, waker %sin, prev %sin the target's LLC: %s",
		       c[i].flags & WASTED_WF_FORK ? "fork " : "", c[i].flags & WASTED_WF_SYNC ? "sync" : "",
		       c[i].t_is_w ? "is" : "is not", c[i].w_in ? "" : "not ", c[i].p_in ? "" : "not ",
		       p >= 0 && p < WASTED_NR_WAKE_PATHS ? wasted_wake_path_name[p] : "?");
	}
}

/* ---- the replay's episode start: 2 packages x 2 CPUs (MC pairs, DIE all four) ---- */

static u8 t_nlev[4], t_slot[4 * WASTED_MAX_DOMAINS];
static u64 t_span[4 * WASTED_MAX_DOMAINS];
static struct wasted_topo topo = { .nr_cpus = 4, .words = 1, .nlev = t_nlev, .slot = t_slot,
				   .span = t_span };
static struct wr_replay R;

static void replay_start(void)
{
	u32 c;
	void *mem;

	for (c = 0; c < 4; c++) {
		t_nlev[c] = 2;
		t_slot[c * WASTED_MAX_DOMAINS] = WASTED_LVL_MC;
		t_slot[c * WASTED_MAX_DOMAINS + 1] = WASTED_LVL_DIE;
		*wasted_topo_span(&topo, c, 0) = c < 2 ? 0x3 : 0xc;
		*wasted_topo_span(&topo, c, 1) = 0xf;
	}
	memset(&R, 0, sizeof(R));
	mem = calloc(1, wr_bytes(4, 24));
	if (wr_init(&R, mem, 4, 24, &topo, 0))
		fprintf(stderr, "wr_init failed\n");
	for (c = 0; c < 4; c++)
		wr_set_state(&R, 1, c, WR_BUSY);
}

static void test_since(void)
{
	struct wr_key any = { .cgid = 1, .kind = WR_ANY };
	u8 lvl;

	replay_start();
	/* CPU 0 idle at 10; a waiter on CPU 2 (other package) at 25: DIE from 25, a placement's time */
	wr_set_state(&R, 10, 0, WR_IDLE);
	tap_ok(R.cpu[0].idle_at == 10 && R.cpu[0].idle_lvl == WASTED_LVL_NONE,
	       "cpu0 idle at 10, nothing waits: idle_at 10, level none (%llu, %u)",
	       (unsigned long long)R.cpu[0].idle_at, R.cpu[0].idle_lvl);
	wr_add(&R, 25, 2, &any, 1);
	tap_ok(wr_level_since(&R, 0, WASTED_LVL_DIE) == 25,
	       "a waiter on cpu2 from 25: cpu0's DIE waste began at 25 (%llu)",
	       (unsigned long long)wr_level_since(&R, 0, WASTED_LVL_DIE));
	tap_ok(wr_level_since(&R, 0, WASTED_LVL_MC) == 0, "... not wasted at MC: 0");
	/* a nearer waiter on CPU 1 from 40: MC from 40; when it goes at 60, DIE from 60 */
	wr_add(&R, 40, 1, &any, 1);
	tap_ok(wr_classify(&R, 0, &lvl) == WASTED_C_WASTE && lvl == WASTED_LVL_MC &&
	       wr_level_since(&R, 0, WASTED_LVL_MC) == 40,
	       "a waiter on cpu1 (same package) at 40: MC from 40 (%llu)",
	       (unsigned long long)wr_level_since(&R, 0, WASTED_LVL_MC));
	tap_ok(wr_level_since(&R, 0, WASTED_LVL_DIE) == 0, "... DIE is not its level now: 0");
	wr_del(&R, 60, 1, &any, 1);
	tap_ok(wr_level_since(&R, 0, WASTED_LVL_DIE) == 60,
	       "the nearer waiter went at 60: DIE from 60, the time the MC waste ended (%llu)",
	       (unsigned long long)wr_level_since(&R, 0, WASTED_LVL_DIE));
	/* CPU 3 turns idle at 70 with the waiter of CPU 2 there: its level then is MC, since = idle_at */
	wr_set_state(&R, 70, 3, WR_IDLE);
	tap_ok(R.cpu[3].idle_at == 70 && R.cpu[3].idle_lvl == WASTED_LVL_MC &&
	       wr_level_since(&R, 3, WASTED_LVL_MC) == 70,
	       "cpu3 turns idle at 70 beside cpu2's waiter: idle_lvl MC, MC waste since its idle turn (%u, %llu)",
	       R.cpu[3].idle_lvl, (unsigned long long)wr_level_since(&R, 3, WASTED_LVL_MC));
	/* busy CPUs: not known */
	tap_ok(wr_level_since(&R, 2, WASTED_LVL_DIE) == 0, "a busy CPU: 0");
	/* a task woken on idle cpu0, not switched in: about to run there, no waiter */
	wr_add(&R, 80, 0, &any, 1);
	tap_ok(wr_level_since(&R, 0, WASTED_LVL_DIE) == 60,
	       "a task woken on idle cpu0 at 80: not a waiter, cpu0's DIE waste still from 60 (%llu)",
	       (unsigned long long)wr_level_since(&R, 0, WASTED_LVL_DIE));
}

int main(void)
{
	tap_begin("wasted_why");
	test_rules();
	test_paths();
	test_since();
	return tap_end();
}
