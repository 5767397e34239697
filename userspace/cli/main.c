// SPDX-License-Identifier: GPL-2.0
/*
 * sched-shadow: command-line front end of the sched_shadow module.
 *
 * main() parses the global options (-j, -p, -v, -V, --debugfs DIR, -h),
 * then dispatches to one cmd_X() per command, each described by its
 * option table (options.h).  `help` prints the command list or one
 * command's usage, and generates the man page's command sections and the
 * bash completion from the same tables; `version` lists the build's
 * features.  Under -j a command that fails prints one JSON document
 * {"schema", "command", "error"} on stdout and nothing on stderr
 * (bpftool's convention).  This file
 * also holds the small helpers every command shares.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/features.h"
#include "cli/sources/latency.h"

struct cli_global cli;

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cli_opt help_opts[] = {
	{ CLI_KEY_LONG, "man", CLI_VAL_NONE, NULL,
	  "the man page's COMMANDS section, generated from the option tables", NULL },
	{ CLI_KEY_LONG + 1, "bash-completion", CLI_VAL_NONE, NULL,
	  "the bash completion script, generated from the option tables", NULL },
	{ 0 }
};

static const struct cli_spec help_spec = {
	.name = "help",
	.synopsis = "[COMMAND]",
	.summary = "the commands, or one command's options",
	.help = "Without COMMAND: the commands and the global options.  With COMMAND: its\n"
		"usage, as COMMAND --help prints it.",
	.opts = help_opts,
};

static const struct cli_spec version_spec = {
	.name = "version",
	.summary = "the version and the optional features this build has",
	.help = "The version, then each optional feature of the build and whether it is in:\n"
		"the BPF wakeup-latency collector (needs clang and bpftool at build time) and\n"
		"Perfetto traces (needs protobuf-c).  Same as --version.",
	.flags = CLI_SPEC_JSON,
};

struct cli_cmd {
	const struct cli_spec *spec;
	int (*fn)(int argc, char **argv);
};

static const struct cli_cmd cli_cmds[] = {
	{ &status_spec, cmd_status },
	{ &cpus_spec, cmd_cpus },
	{ &groups_spec, cmd_groups },
	{ &lb_spec, cmd_lb },
	{ &lb_attempts_spec, cmd_lb_attempts },
	{ &watch_spec, cmd_watch },
	{ &reset_spec, cmd_reset },
	{ &record_spec, cmd_record },
	{ &plot_spec, cmd_plot },
	{ &run_spec, cmd_run },
	{ &report_spec, cmd_report },
	{ &compare_spec, cmd_compare },
	{ &bench_spec, cmd_bench },
	{ &help_spec, cmd_help },
	{ &version_spec, cmd_version },
};
#define CLI_NCMDS (sizeof(cli_cmds) / sizeof(cli_cmds[0]))

/* The global options, as a table for usage, man page and completion. */
static const struct cli_opt main_opts[] = {
	{ 'j', "json", CLI_VAL_NONE, NULL,
	  "JSON output for every command that has it, one line per document; on failure "
	  "{\"schema\", \"command\", \"error\"} on stdout and nothing on stderr", NULL },
	{ 'p', "pretty", CLI_VAL_NONE, NULL, "JSON output, indented (implies -j)", NULL },
	{ 'v', "verbose", CLI_VAL_NONE, NULL,
	  "say on stderr which module files are read and written, and libbpf's warnings; "
	  "-vv: its debug lines too", NULL },
	{ 'V', "version", CLI_VAL_NONE, NULL, "the version and the build's features", NULL },
	{ CLI_KEY_LONG, "debugfs", CLI_VAL_DIR, "DIR",
	  "the module's debugfs directory (default /sys/kernel/debug/sched_shadow, or $"
	  CLI_DEBUGFS_ENV ")", NULL },
	{ 0 }
};

static const struct cli_spec main_spec = {
	.name = "",
	.opts = main_opts,
};

static const struct cli_cmd *cli_find(const char *name)
{
	for (size_t k = 0; k < CLI_NCMDS; k++)
		if (!strcmp(name, cli_cmds[k].spec->name))
			return &cli_cmds[k];
	return NULL;
}

static void main_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-j] [-v] [--debugfs DIR] COMMAND [OPTIONS] [ARGS]\n"
		"       %s help [COMMAND]\n\n"
		"Reads the sched_shadow module's counters (debugfs), runs commands under\n"
		"it, and compares runs.\n\ncommands:\n", CLI_NAME, CLI_NAME);
	for (size_t i = 0; i < CLI_NCMDS; i++)
		fprintf(f, "  %-12s %s\n", cli_cmds[i].spec->name, cli_cmds[i].spec->summary);
	fprintf(f, "\nglobal options:\n");
	cli_spec_options(&main_spec, f);
	fprintf(f, "\nexit status: 0 success, 1 failure, 2 module not loaded or debugfs not\n"
		"available, or no cpu controller for --cgroup, 3 a tool or build feature\n"
		"missing, 64 usage error; run: CMD's.\n");
}

void cli_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cli.last_err, sizeof(cli.last_err), fmt, ap);
	va_end(ap);
	cli.err_pending = 1;
	/* under -j the error is the {"error"} document on stdout, and only that */
	if (!cli.json)
		fprintf(stderr, "%s%s%s: %s\n", CLI_NAME, cmd ? " " : "", cmd ? cmd : "",
			cli.last_err);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (cli.json)
		return;
	fprintf(stderr, "%s%s%s: ", CLI_NAME, cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "Try 'sched-shadow help CMD'." (help's own errors: "Try 'sched-shadow help'.") */
static int usage_error_v(const char *cmd, const char *hint, const char *fmt, va_list ap)
{
	vsnprintf(cli.last_err, sizeof(cli.last_err), fmt, ap);
	if (!cli.json)
		fprintf(stderr, "%s%s%s: %s\nTry '%s help%s%s'.\n", CLI_NAME, cmd ? " " : "",
			cmd ? cmd : "", cli.last_err, CLI_NAME, hint ? " " : "", hint ? hint : "");
	return CLI_EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = usage_error_v(cmd, cmd && strcmp(cmd, "help") ? cmd : NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_options(const struct cli_spec *spec, int argc, char **argv,
		int (*fn)(void *ctx, int key, const char *val, char *err, size_t errlen),
		void *ctx, enum cli_format *fmt)
{
	struct cli_common c;
	char err[400];
	int i = cli_parse_options(spec, argc, argv, fn, ctx, &c, err, sizeof(err));

	if (c.json)		/* also when parsing failed after it: the error as JSON */
		cli.json = 1;
	if (c.pretty)
		cli.pretty = 1;
	if (i < 0) {
		cli_usage_error(spec->name, "%s", err);
		return CLI_OPTS_ERROR;
	}
	if (c.help) {
		cli_spec_usage(spec, CLI_NAME, stdout);
		return CLI_OPTS_HELP;
	}
	if (c.debugfs)
		cli.debugfs = c.debugfs;
	if (cli.json && !(spec->flags & CLI_SPEC_JSON)) {
		cli_usage_error(spec->name, "has no JSON output (-j)");
		return CLI_OPTS_ERROR;
	}
	if (fmt)
		*fmt = cli.json ? CLI_FMT_JSON : c.prom ? CLI_FMT_PROM : CLI_FMT_TEXT;
	if (cli.json && c.prom) {
		cli_usage_error(spec->name, "--json and --prom exclude each other");
		return CLI_OPTS_ERROR;
	}
	return i;
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

/* ------------------------------------------------------------ help */

/* roff-escaped text for the man page's generated sections */
static void man_commands(FILE *f)
{
	fprintf(f, ".\\\" Generated by `sched-shadow help --man` from the option tables\n"
		".\\\" (userspace/cli/); `make docs` rewrites it, a unit test checks it.\n");
	fprintf(f, ".SH GLOBAL OPTIONS\n");
	for (const struct cli_opt *o = main_opts; o->key; o++) {
		fprintf(f, ".TP\n");
		if (o->key < CLI_KEY_LONG)
			fprintf(f, "\\fB\\-%c\\fR, ", o->key);
		fprintf(f, "\\fB\\-\\-%s\\fR%s%s%s\n", o->name, o->valname ? " \\fI" : "",
			o->valname ? o->valname : "", o->valname ? "\\fR" : "");
		for (const char *s = o->help; *s; s++)
			fputs(*s == '-' ? "\\-" : (char[]){ *s, 0 }, f);
		fputc('\n', f);
	}
	fprintf(f, ".SH COMMON OPTIONS\n"
		"Commands take those of these options their description lists.\n");
	cli_spec_man_common(f);
	fprintf(f, ".SH COMMANDS\n");
	for (size_t i = 0; i < CLI_NCMDS; i++)
		cli_spec_man(cli_cmds[i].spec, CLI_NAME, f);
}

static void bash_completion(FILE *f)
{
	fprintf(f,
		"# bash completion for sched-shadow -*- shell-script -*-\n"
		"# Generated by `sched-shadow help --bash-completion` from the option tables\n"
		"# (userspace/cli/); `make docs` rewrites it, a unit test checks it.\n"
		"# shellcheck shell=bash\n\n"
		"_sched_shadow()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
		"\tlocal i cmd= cmdi=0 words= fileopts= diropts= cgopts= operand=\n"
		"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
		"\t\tcase ${COMP_WORDS[i]} in\n"
		"\t\t--debugfs) ((i++)) ;;\n"
		"\t\t-*) ;;\n"
		"\t\t*) cmd=${COMP_WORDS[i]}; cmdi=$i; break ;;\n"
		"\t\tesac\n"
		"\tdone\n"
		"\tif [[ -z $cmd ]]; then\n"
		"\t\tif [[ $prev == --debugfs ]]; then\n"
		"\t\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
		"\t\telif [[ $cur == -* ]]; then\n"
		"\t\t\tmapfile -t COMPREPLY < <(compgen -W '");
	cli_spec_words(&main_spec, f);
	fprintf(f, "' -- \"$cur\")\n"
		"\t\telse\n"
		"\t\t\tmapfile -t COMPREPLY < <(compgen -W '");
	for (size_t i = 0; i < CLI_NCMDS; i++)
		fprintf(f, "%s%s", i ? " " : "", cli_cmds[i].spec->name);
	fprintf(f, "' -- \"$cur\")\n\t\tfi\n\t\treturn\n\tfi\n\tcase $cmd in\n");
	for (size_t i = 0; i < CLI_NCMDS; i++) {
		const struct cli_spec *s = cli_cmds[i].spec;
		static const char *const kinds[] = { "", "", "file", "dir", "cgroup" };

		fprintf(f, "\t%s)\n\t\twords='", s->name);
		cli_spec_words(s, f);
		fprintf(f, "'\n");
		for (int v = CLI_VAL_FILE; v <= CLI_VAL_CGROUP; v++) {
			fprintf(f, "\t\t%sopts='", v == CLI_VAL_FILE ? "file" : v == CLI_VAL_DIR ? "dir" : "cg");
			cli_spec_valopts(s, v, f);
			fprintf(f, "'\n");
		}
		fprintf(f, "\t\toperand=%s\n\t\t;;\n", !strcmp(s->name, "help") ? "command" :
			(s->flags & CLI_SPEC_OPERANDS_LAST) ? "cmdline" : kinds[s->operand]);
	}
	fprintf(f,
		"\tesac\n"
		"\t# run: after --, complete CMD as a command and its arguments as files\n"
		"\tif [[ $operand == cmdline ]]; then\n"
		"\t\tfor ((i = cmdi + 1; i < COMP_CWORD; i++)); do\n"
		"\t\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
		"\t\t\t\tif ((i + 1 == COMP_CWORD)); then\n"
		"\t\t\t\t\tmapfile -t COMPREPLY < <(compgen -c -- \"$cur\")\n"
		"\t\t\t\telse\n"
		"\t\t\t\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
		"\t\t\t\tfi\n"
		"\t\t\t\treturn\n"
		"\t\t\tfi\n"
		"\t\tdone\n"
		"\tfi\n"
		"\tif [[ -n $fileopts && $prev == @($fileopts) ]]; then\n"
		"\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
		"\telif [[ -n $diropts && $prev == @($diropts) ]]; then\n"
		"\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
		"\telif [[ -n $cgopts && $prev == @($cgopts) ]]; then\n"
		"\t\tlocal lead=${cur%%%%[!/]*}\n"
		"\t\tmapfile -t COMPREPLY < <(cd /sys/fs/cgroup 2>/dev/null && compgen -d -- \"${cur#\"$lead\"}\" |\n"
		"\t\t\tsed \"s|^|$lead|\")\n"
		"\telif [[ $cur == -* || $operand == cmdline ]]; then\n"
		"\t\tmapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
		"\telif [[ $operand == command ]]; then\n"
		"\t\tmapfile -t COMPREPLY < <(compgen -W '");
	for (size_t i = 0; i < CLI_NCMDS; i++)
		fprintf(f, "%s%s", i ? " " : "", cli_cmds[i].spec->name);
	fprintf(f, "' -- \"$cur\")\n"
		"\telif [[ $operand == file ]]; then\n"
		"\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
		"\tfi\n"
		"} &&\n"
		"\tcomplete -o filenames -F _sched_shadow sched-shadow\n");
}

static int help_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	(void)val;
	(void)err;
	(void)errlen;
	*(int *)ctx = key;
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_cmd *c;
	int what = 0, i = cli_options(&help_spec, argc, argv, help_opt, &what, NULL);

	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (what == CLI_KEY_LONG) {
		man_commands(stdout);
		return CLI_EXIT_OK;
	}
	if (what == CLI_KEY_LONG + 1) {
		bash_completion(stdout);
		return CLI_EXIT_OK;
	}
	if (i >= argc) {
		main_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (i + 1 < argc)
		return cli_usage_error("help", "one COMMAND at most");
	c = cli_find(argv[i]);
	if (!c)
		return cli_usage_error("help", "unknown command '%s'", argv[i]);
	cli_spec_usage(c->spec, CLI_NAME, stdout);
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ version */

static int cmd_version(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	int i = cli_options(&version_spec, argc, argv, NULL, NULL, &fmt);

	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error("version", "unexpected argument '%s'", argv[i]);
	if (fmt == CLI_FMT_JSON) {
		struct json_writer w;

		json_init(&w, stdout, cli.pretty);
		json_obj_begin(&w);
		json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
		json_kv_str(&w, "command", "version");
		json_kv_str(&w, "version", CLI_VERSION);
		json_key(&w, "features");
		json_obj_begin(&w);
		for (const struct cli_feature *f = cli_features; f->name; f++) {
			json_key(&w, f->name);
			json_obj_begin(&w);
			json_kv_bool(&w, "built", f->built);
			json_kv_str(&w, "why", f->built ? NULL : f->why);
			json_obj_end(&w);
		}
		json_obj_end(&w);
		json_obj_end(&w);
		return json_end(&w) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	}
	printf("%s %s\nfeatures:\n", CLI_NAME, CLI_VERSION);
	for (const struct cli_feature *f = cli_features; f->name; f++)
		printf("  %-10s %s%s%s\n", f->name, f->built ? "yes" : "no", f->built ? "" : ": ",
		       f->built ? "" : f->why);
	return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ main */

static void verbose_trace(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s %s\n", CLI_NAME, what, path);
}

/* Entry point proper; a separate name so unit tests can call it. */
int cli_main(int argc, char **argv)
{
	const char *env = getenv(CLI_DEBUGFS_ENV);
	const struct cli_cmd *c;
	int i = 1, rc, docs;

	memset(&cli, 0, sizeof(cli));
	cli.prog = argv[0];
	cli.debugfs = env && *env ? env : CLI_DEFAULT_DEBUGFS;
	dbgfs_trace_hook = NULL;
	json_stdout_reset();

	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			main_usage(stdout);
			return CLI_EXIT_OK;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			char *vargv[] = { (char *)"version", NULL };

			return cmd_version(1, vargv);
		} else if (!strcmp(a, "--debugfs")) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				rc = cli_usage_error(NULL, "--debugfs needs a directory");
				goto out;
			}
			cli.debugfs = argv[++i];
		} else if (!strncmp(a, "--debugfs=", 10) && a[10]) {
			cli.debugfs = a + 10;
		} else if (!strcmp(a, "--verbose")) {
			cli.verbose++;
		} else if (a[1] == 'v' && strspn(a + 1, "v") == strlen(a + 1)) {
			cli.verbose += strlen(a + 1);	/* -v, -vv */
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			cli.json = 1;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			cli.json = cli.pretty = 1;
		} else {
			rc = cli_usage_error(NULL, "unknown option '%s'", a);
			goto out;
		}
		i++;
	}
	if (cli.verbose) {
		dbgfs_trace_hook = verbose_trace;
		lat_set_verbose(cli.verbose);
	}
	if (i >= argc) {
		if (!cli.json)
			main_usage(stderr);
		rc = CLI_EXIT_USAGE;
		snprintf(cli.last_err, sizeof(cli.last_err), "no command given");
		goto out;
	}
	c = cli_find(argv[i]);
	if (!c) {
		rc = cli_usage_error(NULL, "unknown command '%s'", argv[i]);
		goto out;
	}
	cli.cmd = c->spec->name;
	rc = c->fn(argc - i, argv + i);
out:
	fflush(stdout);
	docs = json_stdout_documents();
	/* a failure under -j: its error document, also after a document written before it */
	if (rc != CLI_EXIT_OK && cli.json && ((!docs && !cli.doc_written) || cli.err_pending)) {
		struct json_writer w;

		/* the same members first in every command: schema, command, error */
		json_init(&w, stdout, cli.pretty);
		json_obj_begin(&w);
		json_kv_str(&w, "schema", CLI_JSON_SCHEMA);
		json_kv_str(&w, "command", cli.cmd);
		json_kv_str(&w, "error", cli.last_err[0] ? cli.last_err : "failed");
		json_obj_end(&w);
		json_end(&w);
		fflush(stdout);
	}
	return rc;
}

#ifndef CLI_NO_MAIN
int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
#endif
