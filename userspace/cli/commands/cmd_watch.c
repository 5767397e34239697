// SPDX-License-Identifier: GPL-2.0
/*
 * `watch [-i SECONDS] [-n COUNT]`: a live view of real vs shadow per CPU,
 * published walks per second and verdict rates per second (deltas of
 * the lb counters between refreshes).
 *
 * On a terminal the screen is redrawn in place with the terminal in
 * raw (non-canonical, no echo) mode; q, Q, Ctrl-C or SIGTERM quit and
 * the terminal is always restored.  When stdout is not a terminal,
 * successive snapshots are printed one after the other (-n stops).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/formats/table.h"

static volatile sig_atomic_t watch_stop;
static struct termios watch_saved;
static volatile sig_atomic_t watch_raw;

static void watch_restore(void)
{
	if (watch_raw) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &watch_saved);
		/* show the cursor again; write() is async-signal-safe */
		if (write(STDOUT_FILENO, "\033[?25h", 6) < 0) {
			/* nothing useful to do */
		}
		watch_raw = 0;
	}
}

static void watch_sig(int sig)
{
	(void)sig;
	watch_restore();
	watch_stop = 1;
}

static int watch_enter_raw(void)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &watch_saved))
		return -1;
	raw = watch_saved;
	raw.c_lflag &= ~(ICANON | ECHO);	/* keep ISIG: Ctrl-C raises SIGINT */
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw))
		return -1;
	watch_raw = 1;
	fputs("\033[?25l", stdout);		/* hide the cursor */
	return 0;
}

struct watch_snap {
	int ok;
	double t;
	struct dbgfs_table cpus;
	int have_lb;
	struct lb_totals lb;
};

static void snap_free(struct watch_snap *s)
{
	if (s->ok)
		dbgfs_free(&s->cpus);
	memset(s, 0, sizeof(*s));
}

static int snap_take(struct watch_snap *s)
{
	struct dbgfs_table lb;
	struct dbgfs_error err;
	int rc;

	memset(s, 0, sizeof(*s));
	s->t = cli_now();
	rc = dbgfs_load(cli.debugfs, "cpus", &s->cpus, &err);
	if (rc) {
		watch_restore();
		cli_err("watch", "%s", err.msg);
		return cli_exit_for(rc);
	}
	s->ok = 1;
	if (dbgfs_load(cli.debugfs, "lb", &lb, &err) == 0) {
		lb_sum_actual(&lb, &s->lb);
		s->have_lb = 1;
		dbgfs_free(&lb);
	}
	return 0;
}

/* Rate of a cumulative counter; a reset in between counts from zero. */
static double rate(uint64_t prev, uint64_t cur, double dt)
{
	if (dt <= 0)
		return 0;
	return (cur >= prev ? cur - prev : cur) / dt;
}

static void watch_print(FILE *f, const struct watch_snap *cur, const struct watch_snap *prev,
			double interval)
{
	static const char *const hdr[] = {
		"cpu", "nr", "real load_avg", "shadow", "shadow_avg", "shadow-real",
		"walks/s", "discarded/s",
	};
	const struct dbgfs_table *t = &cur->cpus;
	double dt = prev ? cur->t - prev->t : 0;
	struct table tb;
	char b[8][32];

	fprintf(f, "sched_shadow watch  every %.2fs  %s  (load units: 1024 = one nice-0 task)%s\n\n",
		interval, cli.debugfs, watch_raw ? "  q quits" : "");
	if (table_init(&tb, 8))
		return;
	table_header(&tb, hdr);
	for (int c = 0; c < 8; c++)
		table_set_align(&tb, c, TABLE_RIGHT);
	for (int r = 0; r < t->nrows; r++) {
		const char *cells[8];
		uint64_t online = 0, load, sh, pub, disc, ppub, pdisc;
		int has_load, has_sh;

		dbgfs_u64_by(t, r, "online", &online);
		cells[0] = dbgfs_cell(t, r, dbgfs_col(t, "cpu"));
		cells[1] = dbgfs_cell(t, r, dbgfs_col(t, "nr_running"));
		cells[2] = dbgfs_cell(t, r, dbgfs_col(t, "load_avg"));
		cells[3] = dbgfs_cell(t, r, dbgfs_col(t, "shadow"));
		cells[4] = dbgfs_cell(t, r, dbgfs_col(t, "shadow_avg"));
		has_load = dbgfs_u64_by(t, r, "load_avg", &load) == 0;
		has_sh = dbgfs_u64_by(t, r, "shadow", &sh) == 0;
		cells[5] = has_load && has_sh ?
			table_fmt(b[5], sizeof(b[5]), "%+lld", (long long)sh - (long long)load) : "-";
		cells[6] = cells[7] = "-";
		if (prev && prev->ok && r < prev->cpus.nrows &&
		    dbgfs_u64_by(t, r, "published", &pub) == 0 &&
		    dbgfs_u64_by(&prev->cpus, r, "published", &ppub) == 0)
			cells[6] = table_fmt(b[6], sizeof(b[6]), "%.1f", rate(ppub, pub, dt));
		if (prev && prev->ok && r < prev->cpus.nrows &&
		    dbgfs_u64_by(t, r, "discarded", &disc) == 0 &&
		    dbgfs_u64_by(&prev->cpus, r, "discarded", &pdisc) == 0)
			cells[7] = table_fmt(b[7], sizeof(b[7]), "%.1f", rate(pdisc, disc, dt));
		if (!online)
			cells[1] = "offline";
		table_row(&tb, cells);
	}
	table_print(&tb, f);
	table_free(&tb);
	fputc('\n', f);
	if (!cur->have_lb) {
		fprintf(f, "lb audit: not available\n");
	} else if (!prev || !prev->have_lb || dt <= 0) {
		fprintf(f, "verdicts/s (idle+newidle, actual pick): measuring...\n");
	} else {
		const struct lb_totals *a = &prev->lb, *c = &cur->lb;

		fprintf(f, "verdicts/s (idle+newidle, actual pick): right %.1f  wrong %.1f  "
			"missed %.1f  none %.1f   busy calls/s %.1f\n",
			rate(a->right, c->right, dt), rate(a->wrong, c->wrong, dt),
			rate(a->missed, c->missed, dt), rate(a->none, c->none, dt),
			rate(a->busy_calls, c->busy_calls, dt));
	}
	if (cur->have_lb)
		fprintf(f, "totals since reset: right %llu  wrong %llu  missed %llu  none %llu\n",
		(unsigned long long)cur->lb.right, (unsigned long long)cur->lb.wrong,
		(unsigned long long)cur->lb.missed, (unsigned long long)cur->lb.none);
}

/* Wait up to `secs` for q on a raw terminal or a signal; 1 means quit. */
static int watch_wait(double until)
{
	for (;;) {
		double left = until - cli_now();
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		char ch;
		int n;

		if (watch_stop)
			return 1;
		if (left <= 0)
			return 0;
		if (!watch_raw) {
			cli_sleep_until(until);
			continue;
		}
		n = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (n < 0 && errno != EINTR)
			return 1;
		if (n > 0) {
			if (read(STDIN_FILENO, &ch, 1) == 1 && (ch == 'q' || ch == 'Q' || ch == 3))
				return 1;
			if (pfd.revents & (POLLHUP | POLLERR))
				return 1;
		}
	}
}

static const struct cli_opt watch_opts[] = {
	{ 'i', "interval", CLI_VAL_WORD, "SECONDS", "refresh interval (default 1; fractions allowed)", NULL },
	{ 'n', "count", CLI_VAL_WORD, "N", "stop after N refreshes", NULL },
	{ 0 }
};

const struct cli_spec watch_spec = {
	.name = "watch",
	.summary = "live refreshing view (q or Ctrl-C quits)",
	.help = "Live view: per CPU real load_avg vs shadow, walks/s, verdict rates.  On a\n"
		"terminal q or Ctrl-C quits; otherwise snapshots are printed one after another.",
	.opts = watch_opts,
	.flags = CLI_SPEC_DEBUGFS,
};

struct watch_args {
	double interval;
	long count;
};

static int watch_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	struct watch_args *a = ctx;

	if (key == 'i' && cli_parse_interval(val, &a->interval)) {
		snprintf(err, errlen, "bad interval '%s' (seconds > 0)", val);
		return -1;
	}
	if (key == 'n' && cli_parse_count(val, &a->count)) {
		snprintf(err, errlen, "bad count '%s' (>= 1)", val);
		return -1;
	}
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_args a = { .interval = 1.0 };
	struct watch_snap snaps[2];
	struct sigaction sa;
	double interval, next;
	long count, n = 0;
	int rc = 0, tty, cur = 0, i;

	i = cli_options(&watch_spec, argc, argv, watch_opt, &a, NULL);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error("watch", "unexpected argument '%s'", argv[i]);
	interval = a.interval;
	count = a.count;

	rc = cli_check_module("watch");
	if (rc)
		return rc;

	watch_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watch_sig;	/* no SA_RESTART: poll/sleep return early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	if (tty && watch_enter_raw())
		tty = 0;

	memset(snaps, 0, sizeof(snaps));
	next = cli_now();
	while (!watch_stop) {
		struct watch_snap *s = &snaps[cur], *p = &snaps[!cur];

		snap_free(s);
		rc = snap_take(s);
		if (rc)
			break;
		if (tty)
			fputs("\033[H\033[2J", stdout);
		else if (n)
			fputs("\n", stdout);
		if (!tty)
			printf("--- sample %ld\n", n + 1);
		watch_print(stdout, s, p->ok ? p : NULL, interval);
		fflush(stdout);
		cur = !cur;
		if (count && ++n >= count)
			break;
		if (!count)
			n++;
		next += interval;
		if (watch_wait(next))
			break;
	}
	watch_restore();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	snap_free(&snaps[0]);
	snap_free(&snaps[1]);
	return rc;
}
