// SPDX-License-Identifier: GPL-2.0
/*
 * sched-shadow: command-line front end of the sched_shadow module.
 *
 * main() parses the global options (--debugfs DIR, --help, --version),
 * then dispatches to one cmd_X() per subcommand.  This file also holds
 * the small helpers every subcommand shares (option parsing, error
 * messages, loading a debugfs file with the right exit status).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

struct cli_global cli;

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cli_cmd cli_cmds[] = {
	{ "status", cmd_status, "module state, features and counters at a glance" },
	{ "cpus",   cmd_cpus,   "per-CPU real vs shadow load table" },
	{ "groups", cmd_groups, "per-cgroup cfs_rq table of the last walk" },
	{ "lb",     cmd_lb,     "load-balancer audit verdicts per domain and tracker" },
	{ "lb_attempts", cmd_lb_attempts, "one verdict per balancing attempt, with its reason" },
	{ "watch",  cmd_watch,  "live refreshing view (q or Ctrl-C quits)" },
	{ "reset",  cmd_reset,  "clear the module's counters and statistics" },
	{ "record", cmd_record, "record a per-CPU time series to CSV" },
	{ "plot",   cmd_plot,   "plot a recorded CSV with gnuplot (PNG or SVG)" },
	{ "run",    cmd_run,    "reset, run a command under BPF collection, report" },
	{ "bench",  cmd_bench,  "built-in schbench-style wakeup latency benchmark" },
	{ "report", cmd_report, "print a run --json file again (text, JSON, Prometheus)" },
	{ "compare", cmd_compare, "two run --json files side by side (text, JSON, Markdown)" },
};
#define CLI_NCMDS (sizeof(cli_cmds) / sizeof(cli_cmds[0]))

static void main_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--debugfs DIR] COMMAND [OPTIONS]\n"
		"       %s COMMAND --help\n\n"
		"Reads the sched_shadow module's counters from debugfs\n"
		"(default %s, or $%s).\n\ncommands:\n",
		CLI_NAME, CLI_NAME, CLI_DEFAULT_DEBUGFS, CLI_DEBUGFS_ENV);
	for (size_t i = 0; i < CLI_NCMDS; i++)
		fprintf(f, "  %-8s %s%s\n", cli_cmds[i].name, cli_cmds[i].summary,
			cli_cmds[i].fn ? "" : " (not built)");
	fprintf(f, "\nglobal options:\n"
		"  --debugfs DIR  read the module's files from DIR\n"
		"  -h, --help     this help\n"
		"  -V, --version  print the version\n"
		"Reporting commands take --json (schema %s) and --prom.\n",
		CLI_JSON_SCHEMA);
}

void cli_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", CLI_NAME, cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", CLI_NAME, cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s %s%s--help'.\n", CLI_NAME, cmd ? cmd : "", cmd ? " " : "");
	return CLI_EXIT_USAGE;
}

int cli_common_opt(const char *cmd, int c, const char *arg, enum cli_format *fmt)
{
	switch (c) {
	case CLI_OPT_DEBUGFS:
		if (!arg || !*arg) {
			cli_usage_error(cmd, "--debugfs needs a directory");
			return -1;
		}
		cli.debugfs = arg;
		return 1;
	case CLI_OPT_JSON:
	case CLI_OPT_PROM:
		if (!fmt) {
			cli_usage_error(cmd, "%s is not supported by this command",
					c == CLI_OPT_JSON ? "--json" : "--prom");
			return -1;
		}
		if (*fmt != CLI_FMT_TEXT) {
			cli_usage_error(cmd, "--json and --prom are exclusive");
			return -1;
		}
		*fmt = c == CLI_OPT_JSON ? CLI_FMT_JSON : CLI_FMT_PROM;
		return 1;
	case '?':
		/* getopt_long already printed "unrecognized option" */
		cli_usage_error(cmd, "invalid command line");
		return -1;
	case ':':
		cli_usage_error(cmd, "option needs a value");
		return -1;
	}
	return 0;
}

int cli_parse_interval(const char *s, double *out)
{
	char *e;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &e);
	if (errno || *e || !isfinite(v) || v <= 0 || v > 86400)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
	char *e;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno || *e)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_count(const char *s, long *out)
{
	unsigned long long v;

	if (cli_parse_u64(s, &v) || v < 1 || v > 100000000ULL)
		return -1;
	*out = (long)v;
	return 0;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cli_exit_for(int code)
{
	switch (code) {
	case DBGFS_OK:
		return CLI_EXIT_OK;
	case DBGFS_ENOMODULE:
	case DBGFS_ENODEBUGFS:
	case DBGFS_EACCES:
		return CLI_EXIT_NOMODULE;
	default:
		return CLI_EXIT_FAIL;
	}
}

int cli_check_module(const char *cmd)
{
	struct dbgfs_error err;
	int rc = dbgfs_probe_root(cli.debugfs, &err);

	if (rc)
		cli_err(cmd, "%s", err.msg);
	return cli_exit_for(rc);
}

int cli_load(const char *cmd, const char *name, struct dbgfs_table *t)
{
	struct dbgfs_error err;
	int rc = dbgfs_load(cli.debugfs, name, t, &err);

	if (rc)
		cli_err(cmd, "%s", err.msg);
	return cli_exit_for(rc);
}

int cli_sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ? -1 : 0;
}

/* Entry point proper; a separate name so unit tests can call it. */
int cli_main(int argc, char **argv)
{
	const char *env = getenv(CLI_DEBUGFS_ENV);
	int i = 1;

	memset(&cli, 0, sizeof(cli));
	cli.prog = argv[0];
	cli.debugfs = env && *env ? env : CLI_DEFAULT_DEBUGFS;

	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			main_usage(stdout);
			return CLI_EXIT_OK;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("%s %s\n", CLI_NAME, CLI_VERSION);
			return CLI_EXIT_OK;
		} else if (!strcmp(a, "--debugfs")) {
			if (i + 1 >= argc || !*argv[i + 1])
				return cli_usage_error(NULL, "--debugfs needs a directory");
			cli.debugfs = argv[++i];
		} else if (!strncmp(a, "--debugfs=", 10) && a[10]) {
			cli.debugfs = a + 10;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			cli.verbose++;
		} else {
			return cli_usage_error(NULL, "unknown option '%s'", a);
		}
		i++;
	}
	if (i >= argc) {
		main_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	for (size_t k = 0; k < CLI_NCMDS; k++) {
		if (strcmp(argv[i], cli_cmds[k].name))
			continue;
		if (!cli_cmds[k].fn) {
			cli_err(NULL, "'%s' is not built into this binary", argv[i]);
			return CLI_EXIT_FAIL;
		}
		optind = 0;	/* full getopt re-initialisation per command */
		opterr = 1;
		return cli_cmds[k].fn(argc - i, argv + i);
	}
	return cli_usage_error(NULL, "unknown command '%s'", argv[i]);
}

#ifndef CLI_NO_MAIN
int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
#endif
