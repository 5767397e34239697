// SPDX-License-Identifier: GPL-2.0
/*
 * `sched-shadow report [-j|--prom] FILE`: render a `run -j`
 * file again, as text (what `run` would have printed), JSON or
 * Prometheus, through the same report model and renderers as `run`.
 * `sched-shadow compare A B`: two such files side by side.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report/report.h"

const struct cli_spec report_spec = {
	.name = "report",
	.synopsis = "FILE",
	.summary = "print a run -j file again (text, JSON, Prometheus)",
	.help = "Print the report of a `sched-shadow run -j` file again: as text, what run\n"
		"printed; with -j the file itself, written back unchanged.",
	.flags = CLI_SPEC_JSON | CLI_SPEC_PROM,
	.operand = CLI_VAL_FILE,
};

int cmd_report(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	struct report *r = NULL;
	char err[600];
	int n = 0, i = cli_options(&report_spec, argc, argv, NULL, NULL, &fmt);

	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i + 1 != argc)
		return cli_usage_error("report", "needs one FILE (the output of run -j)");
	if (report_load_all(argv[i], &r, &n, err, sizeof(err))) {
		cli_err("report", "%s", err);
		return CLI_EXIT_FAIL;
	}
	if (fmt == CLI_FMT_PROM && n > 1) {
		cli_err("report", "%s holds %d runs (run --repeat); --prom exposes one", argv[i], n);
		goto out;
	}
	for (int k = 0; k < n; k++) {
		if (fmt == CLI_FMT_JSON)
			report_print_json(&r[k], stdout);
		else if (fmt == CLI_FMT_PROM)
			report_print_prom(&r[k], stdout);
		else
			report_print_text(&r[k], stdout);
		if (fmt == CLI_FMT_TEXT && k + 1 < n)
			putchar('\n');
	}
out:
	for (int k = 0; k < n; k++)
		report_free(&r[k]);
	free(r);
	return fmt == CLI_FMT_PROM && n > 1 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Column title: the run's --label, else the file's name without .json. */
static void compare_name(const struct report *r, char *buf, size_t len)
{
	char tmp[4096], *b;
	size_t n;

	if (r->label) {
		snprintf(buf, len, "%s", r->label);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", r->file);
	b = basename(tmp);
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		b[n - 5] = 0;
	snprintf(buf, len, "%s", b);
}

static const struct cli_opt compare_opts[] = {
	{ 'm', "markdown", CLI_VAL_NONE, NULL, "one Markdown table", NULL },
	{ 0 }
};

const struct cli_spec compare_spec = {
	.name = "compare",
	.synopsis = "A.json B.json | A1.json ... -- B1.json ...",
	.summary = "two sides of run -j files side by side (text, JSON, Markdown)",
	.help = "Two sides of `sched-shadow run -j` reports side by side: the command's result\n"
		"(bench's own latency), the wakeup latency BPF saw in the command's cgroup, the\n"
		"balancer's verdicts and their reasons with the headline, the wait split (the\n"
		"balancer's share or the shares'?), what each tracker would have picked, and the\n"
		"load sums with the gap split.  A side is one file, whose documents are its runs\n"
		"(run --repeat N -j writes one per line), or, with --, the files before it and\n"
		"the files after it.  A side of several runs shows each number's median and\n"
		"[min..max], and a difference column calls a difference only when the two sides'\n"
		"ranges do not overlap (else `within noise`).  Columns are the runs' --label\n"
		"(else the file names); every run's notes are printed above, and a side whose\n"
		"cgroup lacked the cpu controller is marked *.  Options go before the files.",
	.opts = compare_opts,
	.flags = CLI_SPEC_JSON,
	.operand = CLI_VAL_FILE,
};

static int compare_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	(void)key;
	(void)val;
	(void)err;
	(void)errlen;
	*(enum cmp_fmt *)ctx = CMP_FMT_MARKDOWN;
	return 0;
}

/* Add every run of file path to side s; 0, or the exit status after saying why. */
static int compare_add(struct cmp_side *side, struct report **held, int *nheld,
		       const char *path)
{
	struct report *r;
	char err[600];
	int n;

	if (report_load_all(path, &r, &n, err, sizeof(err))) {
		cli_err("compare", "%s", err);
		return CLI_EXIT_FAIL;
	}
	held[(*nheld)++] = r;
	for (int k = 0; k < n; k++) {
		if (side->n == CMP_MAX_RUNS) {
			cli_err("compare", "%s: more than %d runs on one side", path, CMP_MAX_RUNS);
			for (; k < n; k++)
				report_free(&r[k]);
			return CLI_EXIT_USAGE;
		}
		side->run[side->n++] = &r[k];
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	enum cmp_fmt cf = CMP_FMT_TEXT;
	struct cmp_side side[2];
	struct report *held[2 * CMP_MAX_RUNS + 2];
	char nb[2][256];
	int i, k, dd, nheld = 0, status = CLI_EXIT_FAIL;

	memset(side, 0, sizeof(side));
	/* A1 A2 ... -- B1 B2 ...: the options are parsed before the -- only */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		;
	k = cli_options(&compare_spec, dd, argv, compare_opt, &cf, &fmt);
	if (k < 0)
		return CLI_OPTS_EXIT(k);
	if (fmt == CLI_FMT_JSON && cf == CMP_FMT_MARKDOWN)
		return cli_usage_error("compare", "--json and --markdown exclude each other");
	if (fmt == CLI_FMT_JSON)
		cf = CMP_FMT_JSON;
	if (dd == argc && k + 2 != argc)
		return cli_usage_error("compare", "needs two FILEs (outputs of run -j), or "
				       "A1.json ... -- B1.json ...");
	if (dd < argc && (k == dd || dd + 1 == argc))
		return cli_usage_error("compare", "needs FILEs before and after --");
	if (dd < argc && (dd - k > CMP_MAX_RUNS || argc - dd - 1 > CMP_MAX_RUNS))
		return cli_usage_error("compare", "at most %d files on a side", CMP_MAX_RUNS);
	for (i = k; i < argc; i++) {
		int s = dd == argc ? i - k : i > dd;

		if (i == dd)
			continue;
		status = compare_add(&side[s], held, &nheld, argv[i]);
		if (status)
			goto out;
	}
	for (int s = 0; s < 2; s++) {
		compare_name(side[s].run[0], nb[s], sizeof(nb[s]));
		side[s].name = nb[s];
	}
	if (!strcmp(nb[0], nb[1])) {
		snprintf(nb[0], sizeof(nb[0]), "%s", dd == argc ? argv[k] : "first");
		snprintf(nb[1], sizeof(nb[1]), "%s", dd == argc ? argv[k + 1] : "second");
	}
	status = CLI_EXIT_FAIL;
	if (report_compare(side, cf, stdout)) {
		cli_err("compare", "out of memory");
		goto out;
	}
	status = CLI_EXIT_OK;
out:
	for (int s = 0; s < 2; s++)
		for (i = 0; i < side[s].n; i++)
			report_free((struct report *)side[s].run[i]);
	for (i = 0; i < nheld; i++)
		free(held[i]);
	return status;
}
