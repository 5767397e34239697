// SPDX-License-Identifier: GPL-2.0
/*
 * Feeds the module's own audit core (module/core/audit_core.c, work.c,
 * built on the host behind tests/unit/shim) the random domains of
 * tests/checker/crosscheck.py and prints what it concluded, one line per
 * case, for the checker to compare with its own model.
 *
 * Input, one case per block of lines (all numbers decimal):
 *   case VARIANT IDLE KPICK PCT FLAGS IMB_NUMA_NR EAS_PRESENT EAS_BALANCED
 *        DST_CAPACITY DST_CORE_IDLE NG NC DST R0 .. R7
 *   g NR WEIGHT CAPACITY IMBALANCED SGFLAGS CORES MINCAP MAXCAP  (NG lines)
 *   c NR H_NR LOAD UTIL UTIL_EST RUNNABLE CAPACITY CAPORIG MISFIT IDLE VOID
 *     NW { MIGDIS NMASK CPU.. }                                  (NC lines)
 * VARIANT names a rule set of audit_core.h (5.10 6.1 6.6 6.10 7.2 7.3);
 * R0..R7 are the ranks of the classes in enum audit_class order.  Waiters
 * go through the publisher's path: shadow_waiter_classify(),
 * shadow_work_note(), then shadow_work_for(dst) is the CPU's work.
 *
 * Output: the class names once ("classes a,b,..."), then per case
 *   VERDICT REASON MODEL_PICK EXIT BUSIEST CLASS,CLASS,..
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "audit_core.h"
#include "work.h"

#define MAX_G	16
#define MAX_C	64

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

static int rd(long long *v)
{
	return scanf("%lld", v) == 1;
}

static long long rdv(void)
{
	long long v;

	if (!rd(&v)) {
		fprintf(stderr, "driver: truncated case\n");
		exit(2);
	}
	return v;
}

int main(void)
{
	char tag[16];
	int i;

	printf("classes");
	for (i = 0; i < AUDIT_NR_CLASSES; i++)
		printf("%c%s", i ? ',' : ' ', audit_class_name[i]);
	printf("\n");
	while (scanf("%15s", tag) == 1) {
		struct audit_domain d;
		struct audit_group g[MAX_G];
		struct audit_cpu c[MAX_C];
		struct audit_gstats gs[MAX_G];
		struct audit_result res;
		int idle, kpick, ng, nc, dst, first = 0;

		if (strcmp(tag, "case")) {
			fprintf(stderr, "driver: expected 'case', got '%s'\n", tag);
			return 2;
		}
		audit_domain_default(&d);
		if (scanf("%15s", tag) != 1)
			return 2;
		d.rules = rules_of(tag);
		idle = rdv();
		kpick = rdv();
		d.imbalance_pct = rdv();
		d.flags = rdv();
		d.imb_numa_nr = rdv();
		d.eas_present = rdv();
		d.eas_balanced = rdv();
		d.dst_capacity = rdv();
		d.dst_core_idle = rdv();
		ng = rdv();
		nc = rdv();
		dst = rdv();
		for (i = 0; i < AUDIT_NR_CLASSES; i++)
			d.rank[i] = rdv();
		if (ng < 1 || ng > MAX_G || nc < 1 || nc > MAX_C) {
			fprintf(stderr, "driver: %d groups, %d CPUs: out of range\n", ng, nc);
			return 2;
		}
		memset(g, 0, sizeof(g));
		memset(c, 0, sizeof(c));
		for (i = 0; i < ng; i++) {
			if (scanf("%15s", tag) != 1 || strcmp(tag, "g"))
				return 2;
			g[i].first = first;
			g[i].nr = rdv();
			g[i].weight = rdv();
			g[i].capacity = rdv();
			g[i].imbalanced = rdv();
			g[i].flags = rdv();
			g[i].cores = rdv();
			g[i].min_capacity = rdv();
			g[i].max_capacity = rdv();
			g[i].local = i == 0;
			first += g[i].nr;
		}
		for (i = 0; i < nc; i++) {
			struct shadow_work w;
			int nw, k;

			if (scanf("%15s", tag) != 1 || strcmp(tag, "c"))
				return 2;
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
			c[i].valid = true;
			shadow_work_begin(&w);
			nw = rdv();
			for (k = 0; k < nw; k++) {
				u64 mask[SHADOW_WORK_MASK_WORDS] = { 0 };
				int migdis = rdv(), nm = rdv(), m;

				for (m = 0; m < nm; m++) {
					long long cpu = rdv();

					mask[cpu / 64] |= 1ULL << (cpu % 64);
				}
				shadow_work_note(&w, shadow_waiter_classify(nm, nc, migdis),
						 mask, SHADOW_WORK_MASK_WORDS);
			}
			c[i].movable = shadow_work_total(&w);
			c[i].work = shadow_work_for(&w, dst);
		}
		audit_judge(&d, g, ng, c, nc, idle, kpick, gs, &res);
		printf("%s %s %d %s %d", audit_verdict_name[res.verdict],
		       audit_reason_name[res.reason], res.model_pick,
		       audit_reason_name[res.model.exit], res.model.busiest);
		for (i = 0; i < ng; i++)
			printf("%c%s", i ? ',' : ' ', audit_class_name[gs[i].cls]);
		printf("\n");
	}
	return 0;
}
