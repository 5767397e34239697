// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds the module's own audit core (module/core/audit_core.c, work.c,
 * built on the host behind tests/unit/shim) the random domains of
 * tests/checker/crosscheck.py as raw inputs and prints what it concluded,
 * one line per case, for the checker to compare with its own model.
 *
 * The core derives what the module derives, with the module's code: the
 * class ranks from BTF's enum group_type (audit_ranks_from_enum()), the
 * EAS state from rd->pd and rd->overutilized (audit_eas_state()),
 * dst_core_idle from sched_smt_active() and the destination's SMT siblings
 * (audit_dst_core_idle()), each CPU's work for the destination through the
 * publisher's path (module/waiters.c's decisions on its core/work.h
 * calls, module/audit.c's destination half of CFS bandwidth), and the cause
 * of a disagreement (audit_explain(), with the entry read).
 *
 * Input, one case per block of lines (all numbers decimal):
 *   case VARIANT IDLE KPICK PCT FLAGS IMB_NUMA_NR PD OVERUTILIZED SMT_ACTIVE
 *        DST_CAPACITY NG NC DST NENUM
 *   e NAME VALUE                                   (NENUM lines: enum group_type)
 *   s NSIB CPU..                                   (cpu_smt_mask(DST), entry indices)
 *   g NR WEIGHT CAPACITY IMBALANCED SGFLAGS CORES MINCAP MAXCAP STALE ENTRY_SGC  (NG lines)
 *   c NR H_NR LOAD UTIL UTIL_EST RUNNABLE CAPACITY CAPORIG MISFIT IDLE VOID
 *     LLC_PREF THROTTLED STALE [NR H_NR LOAD UTIL UTIL_EST RUNNABLE CAPACITY
 *     CAPORIG MISFIT IDLE LLC_PREF, when STALE] NW { MIGDIS KTHREAD TG NMASK CPU.. }
 *                                                  (NC lines)
 * VARIANT names a rule set of audit_core.h (5.10 6.1 6.6 6.10 7.2 7.3);
 * 7.2 and 7.3 have the task-based throttle.  THROTTLED: bit t set when
 * bandwidth group t (1..) is throttled on that CPU; TG 0 is no
 * bandwidth-limited group.
 *
 * Output: the class names once ("classes a,b,..."), then per case
 *   VERDICT REASON MODEL_PICK EXIT BUSIEST CLASS,CLASS,.. CAUSE KNOWN RUNS
 *   RANKS(r,r,..) EAS_PRESENT EAS_BALANCED DST_CORE_IDLE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "audit_core.h"
#include "work.h"

#define MAX_G	16
#define MAX_C	64
#define MAX_E	16
#define MAX_W	64

/* one waiter as the case gives it */
struct waiter {
	int migdis, kthread, tg, nm;
	u64 mask[SHADOW_WORK_MASK_WORDS];
};

/* the named rule sets of audit_core.h, by the checker's variant names */
static u32 rules_of(const char *v)
{
	if (!strcmp(v, "5.10"))
		return AUDIT_RULES_5_10;
	if (!strcmp(v, "6.1"))
		return AUDIT_RULES_6_1;
	if (!strcmp(v, "6.6"))
		return AUDIT_RULES_6_6;
	if (!strcmp(v, "6.10"))
		return AUDIT_RULES_6_12;	/* the core's set for 6.10-6.13 kernels */
	if (!strcmp(v, "7.2"))
		return AUDIT_RULES_7_2;
	if (!strcmp(v, "7.3"))
		return AUDIT_RULES_7_3;
	fprintf(stderr, "driver: unknown variant %s\n", v);
	exit(2);
}

static long long rdv(void)
{
	long long v;

	if (scanf("%lld", &v) != 1) {
		fprintf(stderr, "driver: truncated case\n");
		exit(2);
	}
	return v;
}

static void tag(const char *want)
{
	char t[16];

	if (scanf("%15s", t) != 1 || strcmp(t, want)) {
		fprintf(stderr, "driver: expected '%s'\n", want);
		exit(2);
	}
}

static void rd_live(struct audit_live *l)
{
	l->nr = rdv();
	l->h_nr = rdv();
	l->load = rdv();
	l->util = rdv();
	l->util_est = rdv();
	l->runnable = rdv();
	l->capacity = rdv();
	l->capacity_orig = rdv();
	l->misfit = rdv();
	l->idle = rdv();
	l->llc_pref = rdv();
	l->have = true;
}

int main(void)
{
	static char enames[MAX_E][64];
	static struct waiter ws[MAX_C][MAX_W];
	static int nws[MAX_C];
	char vname[16];
	int i;

	printf("classes");
	for (i = 0; i < AUDIT_NR_CLASSES; i++)
		printf("%c%s", i ? ',' : ' ', audit_class_name[i]);
	printf("\n");
	while (scanf("%15s", vname) == 1) {
		struct audit_domain d;
		struct audit_group g[MAX_G];
		struct audit_cpu c[MAX_C];
		struct audit_live entry[MAX_C];
		struct audit_gstats gs[MAX_G];
		struct audit_result res;
		u64 entry_sgc[MAX_G];
		const char *np[MAX_E];
		s64 ev[MAX_E];
		int sib[MAX_C];
		bool sib_idle[MAX_C];
		u32 thr_on[MAX_C];
		int idle, kpick, ng, nc, dst, ne, nsib, smt_active, first = 0, task_based, pd, ou, k;

		if (strcmp(vname, "case")) {
			fprintf(stderr, "driver: expected 'case', got '%s'\n", vname);
			return 2;
		}
		audit_domain_default(&d);
		if (scanf("%15s", vname) != 1)
			return 2;
		d.rules = rules_of(vname);
		task_based = !strcmp(vname, "7.2") || !strcmp(vname, "7.3");
		idle = rdv();
		kpick = rdv();
		d.imbalance_pct = rdv();
		d.flags = rdv();
		d.imb_numa_nr = rdv();
		pd = rdv();
		ou = rdv();
		smt_active = rdv();
		d.dst_capacity = rdv();
		ng = rdv();
		nc = rdv();
		dst = rdv();
		ne = rdv();
		if (ng < 1 || ng > MAX_G || nc < 1 || nc > MAX_C || ne < 0 || ne > MAX_E ||
		    dst < 0 || dst >= nc) {
			fprintf(stderr, "driver: %d groups, %d CPUs, %d enumerators: out of range\n",
				ng, nc, ne);
			return 2;
		}
		/* the raw inputs the module reads, derived by the module's code */
		for (i = 0; i < ne; i++) {
			tag("e");
			if (scanf("%63s", enames[i]) != 1)
				return 2;
			np[i] = enames[i];
			ev[i] = rdv();
		}
		if (audit_ranks_from_enum(d.rank, np, ev, ne) < 0) {
			fprintf(stderr, "driver: enum group_type refused\n");
			return 2;
		}
		audit_eas_state(&d, pd, ou);
		tag("s");
		nsib = rdv();
		if (nsib < 0 || nsib > MAX_C)
			return 2;
		for (i = 0; i < nsib; i++)
			sib[i] = rdv();
		memset(g, 0, sizeof(g));
		memset(c, 0, sizeof(c));
		memset(entry, 0, sizeof(entry));
		for (i = 0; i < ng; i++) {
			tag("g");
			g[i].first = first;
			g[i].nr = rdv();
			g[i].weight = rdv();
			g[i].capacity = rdv();
			g[i].imbalanced = rdv();
			g[i].flags = rdv();
			g[i].cores = rdv();
			g[i].min_capacity = rdv();
			g[i].max_capacity = rdv();
			g[i].stale = rdv();
			entry_sgc[i] = rdv();
			g[i].local = i == 0;
			first += g[i].nr;
		}
		for (i = 0; i < nc; i++) {
			tag("c");
			c[i].cpu = i;
			c[i].nr_running = rdv();
			c[i].h_nr_running = rdv();
			c[i].load_avg = rdv();
			c[i].util_avg = rdv();
			c[i].util_est = rdv();
			c[i].runnable_avg = rdv();
			c[i].capacity = rdv();
			c[i].capacity_orig = rdv();
			c[i].misfit_task_load = rdv();
			c[i].idle = rdv();
			c[i].void_reason = rdv();
			c[i].llc_pref = rdv();
			thr_on[i] = rdv();
			c[i].stale = rdv();
			if (c[i].stale)
				rd_live(&entry[i]);
			c[i].valid = true;
			nws[i] = rdv();
			if (nws[i] < 0 || nws[i] > MAX_W) {
				fprintf(stderr, "driver: %d waiters: out of range\n", nws[i]);
				return 2;
			}
			for (k = 0; k < nws[i]; k++) {
				struct waiter *w = &ws[i][k];
				int m;

				w->migdis = rdv();
				w->kthread = rdv();
				w->tg = rdv();
				w->nm = rdv();
				memset(w->mask, 0, sizeof(w->mask));
				for (m = 0; m < w->nm; m++) {
					long long cpu = rdv();

					if (cpu < 0 || cpu >= MAX_C)
						return 2;
					w->mask[cpu / 64] |= 1ULL << (cpu % 64);
				}
			}
		}
		for (i = 0; i < nsib; i++)
			sib_idle[i] = sib[i] >= 0 && sib[i] < nc && c[sib[i]].idle;
		d.dst_core_idle = audit_dst_core_idle(smt_active, dst, sib, sib_idle, nsib);
		for (i = 0; i < nc; i++) {
			struct shadow_work w;
			u32 thr = 0, t;

			shadow_work_begin(&w);
			for (k = 0; k < nws[i]; k++) {
				const struct waiter *x = &ws[i][k];
				const u64 *mask = x->mask;
				int kthread = x->kthread, tg = x->tg, nm = x->nm, migdis = x->migdis;
				enum shadow_waiter_kind kind;

				/*
				 * module/waiters.c: a per-CPU kthread is bound to
				 * its CPU (nr_cpus_allowed 1); a full mask is `any'
				 */
				kind = shadow_waiter_classify(kthread ? 1 : nm, nc, migdis);
				if (tg && kind != SHADOW_WAITER_PINNED) {
					/* its group throttled here: no work for anyone (before 7.2) */
					if (!task_based && (thr_on[i] & (1u << tg))) {
						w.throttled++;
						continue;
					}
					shadow_work_note(&w, kind, mask, SHADOW_WORK_MASK_WORDS, tg);
					continue;
				}
				shadow_work_note(&w, kind, mask, SHADOW_WORK_MASK_WORDS, 0);
			}
			/* module/audit.c audit_tg_throttled(): the groups throttled on dst */
			for (t = 0; t < w.nr_tg && t < SHADOW_WORK_TGS; t++)
				if (w.tg[t] < 32 && (thr_on[dst] & (1u << w.tg[t])))
					thr |= 1u << t;
			c[i].movable = shadow_work_total(&w);
			c[i].work = shadow_work_for_dst(&w, dst, thr);
		}
		audit_judge(&d, g, ng, c, nc, idle, kpick, gs, &res);
		audit_explain(&d, g, ng, c, nc, entry, entry_sgc, gs, &res);
		printf("%s %s %d %s %d", audit_verdict_name[res.verdict],
		       audit_reason_name[res.reason], res.model_pick,
		       audit_reason_name[res.model.exit], res.model.busiest);
		for (i = 0; i < ng; i++)
			printf("%c%s", i ? ',' : ' ', audit_class_name[gs[i].cls]);
		printf(" %s %s %u", audit_cause_name[res.cause], audit_known_name[res.known], res.runs);
		for (i = 0; i < AUDIT_NR_CLASSES; i++)
			printf("%c%d", i ? ',' : ' ', d.rank[i]);
		printf(" %d %d %d\n", d.eas_present, d.eas_balanced, d.dst_core_idle);
	}
	return 0;
}
