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
	struct report *r;
	char err[600];
	int i = cli_options(&report_spec, argc, argv, NULL, NULL, &fmt);

	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i + 1 != argc)
		return cli_usage_error("report", "needs one FILE (the output of run -j)");
	r = calloc(1, sizeof(*r));
	if (!r) {
		cli_err("report", "out of memory");
		return CLI_EXIT_FAIL;
	}
	if (report_load(r, argv[i], err, sizeof(err))) {
		cli_err("report", "%s", err);
		report_free(r);
		free(r);
		return CLI_EXIT_FAIL;
	}
	if (fmt == CLI_FMT_JSON)
		report_print_json(r, stdout);
	else if (fmt == CLI_FMT_PROM)
		report_print_prom(r, stdout);
	else
		report_print_text(r, stdout);
	report_free(r);
	free(r);
	return CLI_EXIT_OK;
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
	.synopsis = "A.json B.json",
	.summary = "two run -j files side by side (text, JSON, Markdown)",
	.help = "Two `sched-shadow run -j` reports side by side: the command's result (bench's\n"
		"own latency), the wakeup latency BPF saw in the command's cgroup, the\n"
		"balancer's verdicts and their reasons with the headline, what each tracker\n"
		"would have picked, and the load sums with the gap split.  Columns are the\n"
		"runs' --label (else the file names); each --note is printed above.",
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

int cmd_compare(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	enum cmp_fmt cf = CMP_FMT_TEXT;
	struct report *r[2] = { NULL, NULL };
	char err[600], nb[2][256];
	const char *names[2] = { nb[0], nb[1] };
	int i, k, status = CLI_EXIT_FAIL;

	k = cli_options(&compare_spec, argc, argv, compare_opt, &cf, &fmt);
	if (k < 0)
		return CLI_OPTS_EXIT(k);
	if (fmt == CLI_FMT_JSON && cf == CMP_FMT_MARKDOWN)
		return cli_usage_error("compare", "--json and --markdown exclude each other");
	if (fmt == CLI_FMT_JSON)
		cf = CMP_FMT_JSON;
	if (k + 2 != argc)
		return cli_usage_error("compare", "needs two FILEs (outputs of run -j)");
	for (i = 0; i < 2; i++) {
		r[i] = calloc(1, sizeof(*r[i]));
		if (!r[i]) {
			cli_err("compare", "out of memory");
			goto out;
		}
		if (report_load(r[i], argv[k + i], err, sizeof(err))) {
			cli_err("compare", "%s", err);
			goto out;
		}
		compare_name(r[i], nb[i], sizeof(nb[i]));
	}
	if (!strcmp(nb[0], nb[1])) {
		names[0] = argv[k];
		names[1] = argv[k + 1];
	}
	if (report_compare((const struct report *const *)r, names, cf, stdout)) {
		cli_err("compare", "out of memory");
		goto out;
	}
	status = CLI_EXIT_OK;
out:
	for (i = 0; i < 2; i++)
		if (r[i]) {
			report_free(r[i]);
			free(r[i]);
		}
	return status;
}
