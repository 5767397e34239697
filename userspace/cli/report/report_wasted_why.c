// SPDX-License-Identifier: GPL-2.0
/*
 * What explains the wasted-core time: the module's attribution rows
 * (debugfs wasted_attrib, docs/wasted.md "Attribution") grouped as the
 * explained line names them.
 *   wakeup      verdict wakeup: the placement that left the CPU idle
 *   balancing   right, wrong, missed: a judged balancing attempt
 *   nohz, newidle skipped, interval
 *               no_attempt/nohz_no_kick, newidle_skipped + newidle_ratio,
 *               interval + tick_late + busy_tick (the periodic balance not
 *               come round: its interval, the tick that raises it, or the
 *               CPU busy at its last tick): a named reason no balancing ran
 *   unknown     no_attempt/unknown, and whatever the module could not name:
 *               void attempts, keys past its table (other), no_domain,
 *               rows of reports from before the reasons (no_attempt -)
 *   no work     none/no_work: the audit saw no work where the sampler saw
 *               a waiter
 * Explained = wakeup + balancing + nohz + newidle skipped + interval; with
 * unknown and no work it makes the whole.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/report/report_wasted_why.h"

static double cell_ms(const struct dbgfs_table *t, int row, int col)
{
	const char *s = dbgfs_cell(t, row, col);

	return s && strcmp(s, "-") ? strtod(s, NULL) : 0.0;
}

static const char *cell(const struct dbgfs_table *t, int row, int col)
{
	const char *s = dbgfs_cell(t, row, col);

	return s ? s : "-";
}

/* Keep @ms under @name among the largest. */
static void top_add(struct wasted_why *w, const char *name, double ms)
{
	int i, j;

	for (i = 0; i < w->ntop; i++)
		if (!strcmp(w->top[i].name, name)) {
			w->top[i].ms += ms;
			goto sort;
		}
	if (w->ntop < WASTED_WHY_TOP) {
		i = w->ntop++;
	} else {
		i = WASTED_WHY_TOP - 1;
		if (ms <= w->top[i].ms)
			return;
	}
	snprintf(w->top[i].name, sizeof(w->top[i].name), "%s", name);
	w->top[i].ms = ms;
sort:
	for (j = i; j > 0 && w->top[j].ms > w->top[j - 1].ms; j--) {
		__typeof__(w->top[0]) t = w->top[j];

		w->top[j] = w->top[j - 1];
		w->top[j - 1] = t;
	}
}

void wasted_why_of(const struct dbgfs_table *t, struct wasted_why *w)
{
	int ccpu = dbgfs_col(t, "cpu"), cdom = dbgfs_col(t, "domain"), cv = dbgfs_col(t, "verdict");
	int cr = dbgfs_col(t, "reason"), cc = dbgfs_col(t, "cause"), cms = dbgfs_col(t, "wasted_ms");
	int all = 0, i;

	memset(w, 0, sizeof(*w));
	if (ccpu < 0 || cv < 0 || cr < 0 || cms < 0)
		return;
	for (i = 0; i < t->nrows; i++)
		all |= !strcmp(cell(t, i, ccpu), "all");
	/* the key sums of the `all` rows name the causes; without them, every CPU's rows */
	for (i = 0; i < t->nrows; i++) {
		const char *v = cell(t, i, cv), *r = cell(t, i, cr), *c = cc >= 0 ? cell(t, i, cc) : "-";
		double ms = cell_ms(t, i, cms);
		char name[96];

		if (all != !strcmp(cell(t, i, ccpu), "all") || ms <= 0)
			continue;
		w->total_ms += ms;
		if (!strcmp(v, "wakeup"))
			w->wakeup_ms += ms;
		else if (!strcmp(v, "right") || !strcmp(v, "wrong") || !strcmp(v, "missed"))
			w->balancing_ms += ms;
		else if (!strcmp(v, "none") && !strcmp(r, "no_work"))
			w->no_work_ms += ms;
		else if (!strcmp(v, "no_attempt") && !strcmp(r, "nohz_no_kick"))
			w->nohz_ms += ms;
		else if (!strcmp(v, "no_attempt") &&
			 (!strcmp(r, "newidle_skipped") || !strcmp(r, "newidle_ratio")))
			w->newidle_ms += ms;
		else if (!strcmp(v, "no_attempt") &&
			 (!strcmp(r, "interval") || !strcmp(r, "tick_late") ||
			  !strcmp(r, "busy_tick")))
			w->interval_ms += ms;
		else
			w->unknown_ms += ms;
		if (!strcmp(v, "wakeup") && strcmp(c, "-"))
			snprintf(name, sizeof(name), "%s.%s/%s/%s", cdom >= 0 ? cell(t, i, cdom) : "-",
				 v, r, c);
		else
			snprintf(name, sizeof(name), "%s.%s/%s%s%s", cdom >= 0 ? cell(t, i, cdom) : "-",
				 v, r, strcmp(c, "-") ? ":" : "", strcmp(c, "-") ? c : "");
		top_add(w, name, ms);
	}
	w->have = w->total_ms > 0;
}

double wasted_why_pct(const struct wasted_why *w, double ms)
{
	return w->total_ms > 0 ? 100.0 * ms / w->total_ms : 0.0;
}

double wasted_why_explained_pct(const struct wasted_why *w)
{
	return wasted_why_pct(w, w->wakeup_ms + w->balancing_ms + w->nohz_ms + w->newidle_ms +
			      w->interval_ms);
}

int wasted_why_line(char *buf, size_t len, const struct wasted_why *w)
{
	return snprintf(buf, len, "wasted-core time explained: %.0f%% (wakeup %.0f%%, balancing %.0f%%, "
			"no attempt: nohz %.0f%%, newidle skipped %.0f%%, interval %.0f%%, unknown %.0f%%; "
			"audit saw no work %.0f%%)", wasted_why_explained_pct(w),
			wasted_why_pct(w, w->wakeup_ms), wasted_why_pct(w, w->balancing_ms),
			wasted_why_pct(w, w->nohz_ms), wasted_why_pct(w, w->newidle_ms),
			wasted_why_pct(w, w->interval_ms), wasted_why_pct(w, w->unknown_ms),
			wasted_why_pct(w, w->no_work_ms));
}
