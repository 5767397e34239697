// SPDX-License-Identifier: GPL-2.0
/*
 * `sched-shadow report [--json|--prom] FILE`: render a `run --json`
 * file again, as text (what `run` would have printed), JSON or
 * Prometheus, through the same report model and renderers as `run`.
 * `sched-shadow compare A B`: two such files side by side.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/report.h"

int cmd_report(int argc, char **argv)
{
	static const struct option lo[] = { CLI_COMMON_LONGOPTS, { NULL, 0, NULL, 0 } };
	enum cli_format fmt = CLI_FMT_TEXT;
	struct report *r;
	char err[600];
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'h') {
			printf("usage: sched-shadow report [--json|--prom] FILE\n"
			       "Print the report of a `sched-shadow run --json` file again, as\n"
			       "text (default), JSON or Prometheus.\n");
			return CLI_EXIT_OK;
		}
		rc = cli_common_opt("report", c, optarg, &fmt);
		if (rc < 0)
			return CLI_EXIT_USAGE;
		if (rc == 0)
			return cli_usage_error("report", "unknown option");
	}
	if (optind + 1 != argc)
		return cli_usage_error("report", "needs one FILE (the output of run --json)");
	r = calloc(1, sizeof(*r));
	if (!r) {
		cli_err("report", "out of memory");
		return CLI_EXIT_FAIL;
	}
	if (report_load(r, argv[optind], err, sizeof(err))) {
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

int cmd_compare(int argc, char **argv)
{
	enum { OPT_MARKDOWN = 0x2000 };
	static const struct option lo[] = {
		CLI_COMMON_LONGOPTS,
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ NULL, 0, NULL, 0 }
	};
	enum cli_format fmt = CLI_FMT_TEXT;
	enum cmp_fmt cf = CMP_FMT_TEXT;
	struct report *r[2] = { NULL, NULL };
	char err[600], nb[2][256];
	const char *names[2] = { nb[0], nb[1] };
	int c, rc, i, status = CLI_EXIT_FAIL;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'h') {
			printf("usage: sched-shadow compare [--json|--markdown] A.json B.json\n"
			       "Two `sched-shadow run --json` reports side by side: latency, verdicts\n"
			       "and their reasons, what each tracker would have picked, load.\n");
			return CLI_EXIT_OK;
		}
		if (c == OPT_MARKDOWN) {
			cf = CMP_FMT_MARKDOWN;
			continue;
		}
		rc = cli_common_opt("compare", c, optarg, &fmt);
		if (rc < 0)
			return CLI_EXIT_USAGE;
		if (rc == 0 || fmt == CLI_FMT_PROM)
			return cli_usage_error("compare", "unknown option");
	}
	if (fmt == CLI_FMT_JSON && cf == CMP_FMT_MARKDOWN)
		return cli_usage_error("compare", "--json and --markdown exclude each other");
	if (fmt == CLI_FMT_JSON)
		cf = CMP_FMT_JSON;
	if (optind + 2 != argc)
		return cli_usage_error("compare", "needs two FILEs (outputs of run --json)");
	for (i = 0; i < 2; i++) {
		r[i] = calloc(1, sizeof(*r[i]));
		if (!r[i]) {
			cli_err("compare", "out of memory");
			goto out;
		}
		if (report_load(r[i], argv[optind + i], err, sizeof(err))) {
			cli_err("compare", "%s", err);
			goto out;
		}
		compare_name(r[i], nb[i], sizeof(nb[i]));
	}
	if (!strcmp(nb[0], nb[1])) {
		names[0] = argv[optind];
		names[1] = argv[optind + 1];
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
