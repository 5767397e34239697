/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What explains the wasted-core time (report_wasted_why.c): the module's
 * attribution rows (wasted_attrib) grouped into wakeup placements,
 * balancing decisions, the named reasons no balancing ran, and what is
 * not explained (no_attempt/unknown and everything the module could not
 * name, and none/no_work: the audit saw no work); the largest causes.
 */
#ifndef CLI_REPORT_WASTED_WHY_H
#define CLI_REPORT_WASTED_WHY_H

#include <stdio.h>
#include "cli/sources/dbgfs.h"

#define WASTED_WHY_TOP	3

struct wasted_why {
	int have;		/* attribution rows were read and carry time */
	double total_ms;	/* every row's time */
	double wakeup_ms, balancing_ms, nohz_ms, newidle_ms, interval_ms, unknown_ms, no_work_ms;
	int ntop;
	struct {
		char name[96];	/* LEVEL.verdict/reason[/cause] */
		double ms;
	} top[WASTED_WHY_TOP];
};

/* Group @attrib's rows (its `all` rows, else every CPU's). */
void wasted_why_of(const struct dbgfs_table *attrib, struct wasted_why *w);

/* Percent of the total (0 without time). */
double wasted_why_pct(const struct wasted_why *w, double ms);
double wasted_why_explained_pct(const struct wasted_why *w);

/*
 * The line `wasted-core time explained: X% (wakeup A%, balancing B%, no
 * attempt: nohz C%, newidle skipped D%, interval E%, unknown F%; audit saw
 * no work G%)`, without a newline.
 */
int wasted_why_line(char *buf, size_t len, const struct wasted_why *w);

#endif
