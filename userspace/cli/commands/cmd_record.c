// SPDX-License-Identifier: GPL-2.0
/*
 * `record -i INTERVAL -o FILE.csv [-d DURATION | -n SAMPLES]`: a CSV time
 * series, one row per CPU per sample, for `plot` or a spreadsheet.
 * Columns (CLI_RECORD_HEADER, documented in docs/cli.md): time since the
 * first sample, the CPU's real signals and shadow sums, and the
 * cumulative verdict counters of the `actual` tracker over the judged
 * idle types (empty when the lb audit is absent), and the CPU's wasted-core
 * time and unknown time since reset (empty when the module has no wasted
 * file).  `-` cells are empty.
 * With --perfetto FILE the same samples (same cpus table, same numbers)
 * also go to a Perfetto trace (pfrec.c), with the cgroup levels and the
 * lb_verdict records; -o is then optional.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/features.h"
#include "cli/perfetto/pfrec.h"

static volatile sig_atomic_t record_stop;

static void record_sig(int sig)
{
	(void)sig;
	record_stop = 1;
}

static void cell(FILE *f, const struct dbgfs_table *t, int r, const char *col)
{
	uint64_t v;

	fputc(',', f);
	if (dbgfs_u64_by(t, r, col, &v) == 0)
		fprintf(f, "%llu", (unsigned long long)v);
}

/*
 * One sample: all CPU rows to the CSV (when out) and the trace (when pf),
 * from the same cpus table.  Returns a CLI_EXIT_* status.
 */
static int record_sample(FILE *out, struct pfrec *pf, double t, uint64_t ts_ns)
{
	static const char *const cols[] = {
		"load_avg", "runnable_avg", "util_avg", "shadow", "shadow_avg", "nr_running",
	};
	struct dbgfs_table cpus, lb, wasted;
	struct dbgfs_error err;
	struct lb_totals tot;
	int rc, have_lb, have_wasted, cc, wc;

	rc = dbgfs_load(cli.debugfs, "cpus", &cpus, &err);
	if (rc) {
		cli_err("record", "%s", err.msg);
		return cli_exit_for(rc);
	}
	rc = dbgfs_load(cli.debugfs, "lb", &lb, &err);
	have_lb = rc == 0;
	if (rc && rc != DBGFS_ENOENT)
		cli_warn("record", "%s (verdict columns left empty)", err.msg);
	if (have_lb)
		lb_sum_actual(&lb, &tot);
	have_wasted = dbgfs_load(cli.debugfs, "wasted", &wasted, NULL) == 0;
	wc = have_wasted ? dbgfs_col(&wasted, "cpu") : -1;
	if (pf) {
		struct dbgfs_table groups;
		int have_groups = dbgfs_load(cli.debugfs, "groups", &groups, NULL) == 0;

		pfrec_sample(pf, ts_ns, &cpus, have_groups ? &groups : NULL);
		if (have_groups)
			dbgfs_free(&groups);
		if (have_wasted)
			pfrec_wasted(pf, ts_ns, &wasted);
		pfrec_drain(pf);
	}
	cc = dbgfs_col(&cpus, "cpu");
	for (int r = 0; out && r < cpus.nrows; r++) {
		fprintf(out, "%.3f,%s", t, dbgfs_cell(&cpus, r, cc));
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			cell(out, &cpus, r, cols[i]);
		if (have_lb)
			fprintf(out, ",%llu,%llu,%llu,%llu", (unsigned long long)tot.right,
				(unsigned long long)tot.wrong, (unsigned long long)tot.missed,
				(unsigned long long)tot.none);
		else
			fputs(",,,,", out);
		/* the wasted row of the same CPU (the files list CPUs alike, but match by number) */
		{
			const char *cpu = dbgfs_cell(&cpus, r, cc), *w = NULL, *u = NULL;

			for (int k = 0; wc >= 0 && k < wasted.nrows; k++)
				if (!strcmp(dbgfs_cell(&wasted, k, wc), cpu)) {
					w = dbgfs_cell(&wasted, k, dbgfs_col(&wasted, "wasted_ms"));
					u = dbgfs_cell(&wasted, k, dbgfs_col(&wasted, "unknown_ms"));
				}
			fprintf(out, ",%s,%s\n", w && strcmp(w, "-") ? w : "", u && strcmp(u, "-") ? u : "");
		}
	}
	dbgfs_free(&cpus);
	if (have_wasted)
		dbgfs_free(&wasted);
	if (have_lb)
		dbgfs_free(&lb);
	if (pf && pf->w.err) {
		cli_err("record", "%s: %s", pf->w.path, strerror(pf->w.err));
		return CLI_EXIT_FAIL;
	}
	return out && ferror(out) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static const struct cli_opt record_opts[] = {
	{ 'i', "interval", CLI_VAL_WORD, "SECONDS", "sampling interval (default 1; fractions allowed)", NULL },
	{ 'o', "output", CLI_VAL_FILE, "FILE.csv", "the CSV file, one row per CPU per sample", NULL },
	{ 'd', "duration", CLI_VAL_WORD, "SECONDS", "stop after SECONDS", NULL },
	{ 'n', "samples", CLI_VAL_WORD, "N", "stop after N samples", NULL },
	{ CLI_KEY_LONG, "perfetto", CLI_VAL_FILE, "FILE",
	  "also write the samples as a Perfetto trace (counter tracks, lb verdict instants)", NULL },
	{ 0 }
};

const struct cli_spec record_spec = {
	.name = "record",
	.summary = "record a per-CPU time series to CSV",
	.help = "Sample the module every interval into a CSV file (for plot), one row per CPU\n"
		"per sample, until the duration, the sample count, or Ctrl-C; the columns are\n"
		"in docs/cli.md (time_s, cpu, the load signals, the verdict counters).\n"
		"--perfetto FILE also writes the samples as a Perfetto trace; either -o or\n"
		"--perfetto is needed.  The trace appears only when the recording succeeded.",
	.opts = record_opts,
	.flags = CLI_SPEC_DEBUGFS,
};

struct record_args {
	double interval, duration;
	long samples;
	const char *outpath, *pfpath;
};

static int record_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	struct record_args *a = ctx;

	switch (key) {
	case 'i':
		if (cli_parse_interval(val, &a->interval)) {
			snprintf(err, errlen, "bad interval '%s' (seconds > 0)", val);
			return -1;
		}
		break;
	case 'd':
		if (cli_parse_interval(val, &a->duration)) {
			snprintf(err, errlen, "bad duration '%s' (seconds > 0)", val);
			return -1;
		}
		break;
	case 'n':
		if (cli_parse_count(val, &a->samples)) {
			snprintf(err, errlen, "bad sample count '%s' (>= 1)", val);
			return -1;
		}
		break;
	case 'o':
		a->outpath = val;
		break;
	case CLI_KEY_LONG:
		a->pfpath = val;
		break;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { .interval = 1.0 };
	double interval, duration, t0, next;
	int64_t boot_off;
	long samples, n = 0;
	const char *outpath, *pfpath;
	struct pfrec pfr, *pf = NULL;
	struct sigaction sa;
	char err[512];
	FILE *out = NULL;
	int rc, i;

	i = cli_options(&record_spec, argc, argv, record_opt, &a, NULL);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error("record", "unexpected argument '%s'", argv[i]);
	if (a.pfpath && !cli_feature("perfetto")->built) {
		cli_err("record", "--perfetto: built without Perfetto traces: %s",
			cli_feature("perfetto")->why);
		return CLI_EXIT_NOTOOL;
	}
	interval = a.interval;
	duration = a.duration;
	samples = a.samples;
	outpath = a.outpath;
	pfpath = a.pfpath;
	if ((!outpath || !*outpath) && !pfpath)
		return cli_usage_error("record", "-o FILE.csv (or --perfetto FILE) is required");
	if (outpath && !*outpath)
		return cli_usage_error("record", "-o needs a file name");
	if (duration > 0 && samples > 0)
		return cli_usage_error("record", "-d and -n are exclusive");
	if (pfpath && outpath && !strcmp(pfpath, outpath))
		return cli_usage_error("record", "-o and --perfetto name the same file");
	if (pfpath && !strcmp(pfpath, "-"))
		return cli_usage_error("record", "--perfetto needs a file, not stdout");

	rc = cli_check_module("record");
	if (rc)
		return rc;
	/* The trace first: an unwritable place fails before anything is written */
	if (pfpath) {
		if (pfrec_open(&pfr, pfpath, err, sizeof(err))) {
			cli_err("record", "%s", err);
			return CLI_EXIT_FAIL;
		}
		pf = &pfr;
	}
	if (outpath) {
		out = strcmp(outpath, "-") ? fopen(outpath, "w") : stdout;
		if (!out) {
			cli_err("record", "%s: %s", outpath, strerror(errno));
			if (pf)
				pfrec_abort(pf);
			return CLI_EXIT_FAIL;
		}
	}
	if (pf && pfrec_verdicts_start(pf))
		cli_warn("record", "lb verdicts not in the trace: %s", pf->lbt_why);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_sig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	record_stop = 0;

	if (out)
		fprintf(out, "%s\n", CLI_RECORD_HEADER);
	/* one monotonic reading per sample stamps both the CSV and the trace */
	boot_off = pf ? pft_boot_offset_ns() : 0;
	t0 = next = cli_now();
	while (!record_stop) {
		double now = cli_now();

		if (n == 0)	/* time_s counts from the first sample's reading */
			t0 = now;
		rc = record_sample(out, pf, now - t0, (uint64_t)((int64_t)(now * 1e9) + boot_off));
		if (rc)
			break;
		if (out)
			fflush(out);
		n++;
		if (samples && n >= samples)
			break;
		next += interval;
		if (duration > 0 && next - t0 > duration + 1e-6)
			break;
		cli_sleep_until(next);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (out && out != stdout && fclose(out) != 0 && !rc) {
		cli_err("record", "%s: %s", outpath, strerror(errno));
		rc = CLI_EXIT_FAIL;
	}
	if (pf && !rc) {
		uint64_t nv = pf->verdicts;

		if (pfrec_finish(pf, err, sizeof(err))) {
			cli_err("record", "%s", err);
			rc = CLI_EXIT_FAIL;
		} else {
			fprintf(stderr, "recorded %ld samples and %llu lb verdicts to %s\n", n,
				(unsigned long long)nv, pfpath);
		}
	} else if (pf) {
		pfrec_abort(pf);
	}
	if (!rc && out && out != stdout)
		fprintf(stderr, "recorded %ld samples to %s\n", n, outpath);
	return rc;
}
