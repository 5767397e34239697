// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the sched-shadow CLI as a whole: cli_main() runs
 * against the fixture debugfs trees in tests/unit/fixtures/cli/ (and
 * /nonexistent), with stdout/stderr captured.  Covers argument parsing
 * errors, "module not loaded" (exit 2), every reporting subcommand in
 * text, --json (validated by python3's json module when available) and
 * --prom, the inactive lb audit, reset, record, watch and plot.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"

#include "cli/cli.h"
#include "cli_capture.h"

#define FIX "tests/unit/fixtures/cli"

static char out[1 << 16], err[1 << 14];
static char tmpdir[] = "/tmp/test_cli_main.XXXXXX";

CAP_DEFINE_RUN(tmpdir, out, sizeof(out), err, sizeof(err))

static int have_python;

/* 1 if `out` is valid JSON per python3 (or python3 is absent: -1). */
static int json_ok(void)
{
	char path[64], cmd[160];
	FILE *f;

	if (!have_python)
		return -1;
	snprintf(path, sizeof(path), "%s/doc.json", tmpdir);
	f = fopen(path, "w");
	fputs(out, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null 2>&1", path);
	return system(cmd) == 0;
}

static void check_json(const char *what)
{
	int ok = json_ok();

	if (ok < 0)
		tap_skip(what, "python3 not found");
	else
		tap_ok(ok, "%s", what);
}

static int count_lines(const char *s, const char *prefix)
{
	int n = 0;
	size_t pl = strlen(prefix);

	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, pl))
			n++;
	return n;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char dir[128], csv[128], png[128], path[256], buf[256];
	struct stat st;
	FILE *f;
	int rc;

	tap_begin("cli_main");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	have_python = system("python3 -c '' >/dev/null 2>&1") == 0;
	unsetenv("SCHED_SHADOW_DEBUGFS");

	/* module absent */
	rc = run("--debugfs", "/nonexistent", "status", NULL);
	tap_ok(rc == 2 && strstr(err, "sched-shadow status: sched_shadow module not loaded (") &&
	       (strstr(err, "sudo insmod sched_shadow.ko") || strstr(err, "sudo modprobe sched_shadow")) &&
	       count_lines(err, "sched-shadow") == 1,
	       "status --debugfs /nonexistent: module not loaded, one line saying how to load it, exit 2");
	setenv("SCHED_SHADOW_DEBUGFS", "/nonexistent/sched_shadow", 1);
	rc = run("cpus", NULL);
	tap_ok(rc == 2 && strstr(err, "not loaded"), "$SCHED_SHADOW_DEBUGFS honoured, cpus exit 2");
	rc = run("status", "--json", NULL);
	tap_ok(rc == 2 && strstr(out, "\"module_loaded\":false"), "status --json without module still documents it");
	check_json("status --json (no module) is valid JSON");
	rc = run("status", "--prom", NULL);
	tap_ok(rc == 2 && strstr(out, "\nsched_shadow_up 0\n"), "status --prom without module: sched_shadow_up 0");
	rc = run("reset", NULL);
	tap_ok(rc == 2, "reset without module: exit 2");
	rc = run("watch", "-n", "1", NULL);
	tap_ok(rc == 2, "watch without module: exit 2");
	unsetenv("SCHED_SHADOW_DEBUGFS");

	/* argument errors */
	tap_ok(run(NULL) == CLI_EXIT_USAGE, "no command: usage error");
	tap_ok(run("frobnicate", NULL) == CLI_EXIT_USAGE && strstr(err, "unknown command"),
	       "unknown command");
	tap_ok(run("--bogus", "status", NULL) == CLI_EXIT_USAGE, "unknown global option");
	tap_ok(run("--debugfs", NULL) == CLI_EXIT_USAGE, "--debugfs without value");
	tap_ok(run("status", "--bogus", NULL) == CLI_EXIT_USAGE &&
	       !strcmp(err, "sched-shadow status: unknown option '--bogus'\nTry 'sched-shadow help status'.\n"),
	       "unknown subcommand option: one error line with one prefix, then the hint");
	tap_ok(run("cpus", "extra", NULL) == CLI_EXIT_USAGE, "stray argument");
	tap_ok(run("cpus", "--json", "--prom", NULL) == CLI_EXIT_USAGE, "--json and --prom exclusive");
	tap_ok(run("watch", "--json", NULL) == CLI_EXIT_USAGE && strstr(out, "has no JSON output") && !err[0],
	       "--json rejected where unsupported: the error as JSON on stdout, nothing on stderr");
	tap_ok(run("watch", "-i", "0", NULL) == CLI_EXIT_USAGE && strstr(err, "bad interval"), "watch -i 0");
	tap_ok(run("watch", "-i", "abc", NULL) == CLI_EXIT_USAGE, "watch -i abc");
	tap_ok(run("watch", "-i", "-1", NULL) == CLI_EXIT_USAGE, "watch -i -1");
	tap_ok(run("watch", "-i", "nan", NULL) == CLI_EXIT_USAGE, "watch -i nan");
	tap_ok(run("watch", "-i", "1s", NULL) == CLI_EXIT_USAGE, "watch -i 1s (junk)");
	tap_ok(run("watch", "-n", "0", NULL) == CLI_EXIT_USAGE, "watch -n 0");
	tap_ok(run("watch", "-i", NULL) == CLI_EXIT_USAGE, "watch -i without value");
	tap_ok(run("record", "-i", "0.1", NULL) == CLI_EXIT_USAGE && strstr(err, "-o"), "record without -o");
	tap_ok(run("record", "-o", "x.csv", "-n", "abc", NULL) == CLI_EXIT_USAGE, "record -n abc");
	tap_ok(run("record", "-o", "x.csv", "-n", "2", "-d", "1", NULL) == CLI_EXIT_USAGE,
	       "record -n with -d");
	tap_ok(run("record", "-o", "x.csv", "-d", "0", NULL) == CLI_EXIT_USAGE, "record -d 0");
	tap_ok(run("plot", NULL) == CLI_EXIT_USAGE, "plot without input");
	tap_ok(run("plot", "in.csv", NULL) == CLI_EXIT_USAGE, "plot without -o");
	tap_ok(run("plot", "in.csv", "-o", "out.jpg", NULL) == CLI_EXIT_USAGE, "plot: bad extension");

	/* --help everywhere */
	{
		static const char *const cmds[] = { "status", "cpus", "groups", "lb", "watch",
						    "reset", "record", "plot" };
		int good = 0;

		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			if (run(cmds[i], "--help", NULL) == 0 && strstr(out, "usage:"))
				good++;
		tap_ok(good == 8, "--help on every subcommand (%d/8)", good);
		tap_ok(run("--help", NULL) == 0 && strstr(out, "record"), "top-level --help");
	}

	/* status on the fixtures */
	rc = run("--debugfs", FIX "/good", "status", NULL);
	tap_ok(rc == 0, "status on fixtures: exit 0");
	tap_ok(strstr(out, "kernel:     6.1.0-57-amd64") && strstr(out, "pelt_cfs_tp active") &&
	       strstr(out, "published 9446, discarded 4"), "status: kernel, hooks, walks summed");
	tap_ok(strstr(out, "mean |shadow - load_avg| 207.7") != NULL, "status: mean divergence over CPUs");
	tap_ok(strstr(out, "judged 520: right 430 (82.7%), wrong 34") != NULL,
	       "status: lb totals from the all/actual rows");
	rc = run("--debugfs", FIX "/noaudit", "status", NULL);
	tap_ok(rc == 0 && strstr(out, "lb audit:   not available (inactive:no_kretprobe_symbol)"),
	       "status: inactive audit with reason from info");
	rc = run("--debugfs", FIX "/good", "status", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"schema\":\"sched_shadow/v1\"") &&
	       strstr(out, "\"wrong\":34"), "status --json: schema and verdicts");
	check_json("status --json is valid JSON");
	rc = run("--debugfs", FIX "/good", "status", "--prom", NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_up 1\n") &&
	       strstr(out, "sched_shadow_lb_wrong_total{domain=\"all\",idle=\"idle\",tracker=\"actual\"} 9\n") &&
	       strstr(out, "sched_shadow_cpu_published_total{cpu=\"0\"} 5120\n"),
	       "status --prom: up, lb and cpu counters");
	tap_ok(strstr(out, "sched_shadow_cpu_h_load{cpu=\"0\"} 1019\n") &&
	       strstr(out, "sched_shadow_cpu_shadow_fresh{cpu=\"0\"} 1210\n") &&
	       strstr(out, "# HELP sched_shadow_cpu_h_load sum of task_h_load()"),
	       "status --prom: h_load and shadow_fresh gauges with help");
	tap_ok(!strstr(out, "{cpu=\"3\"} -") && count_lines(out, "# TYPE ") == count_lines(out, "# HELP "),
	       "prom: no '-' values, HELP per TYPE");

	/* tables */
	rc = run("--debugfs", FIX "/good", "cpus", NULL);
	tap_ok(rc == 0 && strstr(out, "1024 = one nice-0 task") &&
	       strstr(out, "cpu  online  nr_running") && count_lines(out, "  3       0") == 1,
	       "cpus: units legend, aligned rows");
	{
		int w = 0, cols = 0;

		for (char *p = out; *p; ) {
			int n = strcspn(p, "\n");

			w = n > w ? n : w;
			p += n + (p[n] == '\n');
		}
		/* every column of the file is in one of the tables, under its name */
		for (const char *c = "online nr_running h_nr_running movable load_avg runnable_avg "
		     "util_avg weight capacity shadow shadow_avg shadow_fresh h_load samples div_mean "
		     "div_max shadow_mean real_mean fresh_mean h_load_mean published discarded "
		     "over_budget deferred pinned unknown work_cpus void"; *c; ) {
			char name[32], pat[40];
			int n = strcspn(c, " ");

			snprintf(name, sizeof(name), "%.*s", n, c);
			snprintf(pat, sizeof(pat), "  %s", name);
			cols += strstr(out, pat) != NULL;
			c += n + (c[n] == ' ');
		}
		tap_ok(w <= 100 && cols == 28 && count_lines(out, "cpu  ") == 4,
		       "cpus (text): four tables of the 28 columns, cpu first, at most 100 columns "
		       "(widest %d, %d columns found)", w, cols);
	}
	rc = run("cpus", "--debugfs", FIX "/good", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"load_avg\":1650") && strstr(out, "\"load_avg\":null"),
	       "cpus --json: numbers, '-' as null (--debugfs after the command)");
	tap_ok(strstr(out, "\"h_load\":1019") && strstr(out, "\"shadow_fresh\":1210") &&
	       strstr(out, "\"h_load\":null") && strstr(out, "\"h_load_mean\":1012"),
	       "cpus --json: h_load, shadow_fresh and their means");
	check_json("cpus --json is valid JSON");
	rc = run("--debugfs", FIX "/good", "groups", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"path\":\"/bench group\"") && strstr(out, "\"se_weight\":null"),
	       "groups --json: unescaped path, null se_weight");
	check_json("groups --json is valid JSON");
	rc = run("--debugfs", FIX "/good", "groups", "--prom", NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_group_shadow{cpu=\"0\",cgid=\"5123\",path=\"/bench group\"} 511\n"),
	       "groups --prom");
	rc = run("--debugfs", FIX "/good", "lb", NULL);
	tap_ok(rc == 0 && strstr(out, "MC      idle     kernel     120") != NULL, "lb text aligned");
	rc = run("--debugfs", FIX "/good", "lb", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"available\":true") && strstr(out, "\"agree\":117"), "lb --json");
	check_json("lb --json is valid JSON");
	rc = run("--debugfs", FIX "/good", "lb_attempts", NULL);
	tap_ok(rc == 0 && strstr(out, "wrong    overloaded") && strstr(out, "unexplained"),
	       "lb_attempts text: verdict and reason columns");
	rc = run("--debugfs", FIX "/good", "lb_attempts", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"reason\":\"overloaded\"") && strstr(out, "\"redos\":14"),
	       "lb_attempts --json: reason is a string, counts are numbers");
	check_json("lb_attempts --json is valid JSON");
	rc = run("--debugfs", FIX "/good", "lb_attempts", "--prom", NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_lb_attempt_attempts_total{domain=\"DIE\",idle=\"idle\","
				  "verdict=\"wrong\",reason=\"overloaded\"} 7\n"),
	       "lb_attempts --prom: reason as a label");
	rc = run("--debugfs", FIX "/noaudit", "lb_attempts", NULL);
	tap_ok(rc == 0 && strstr(out, "not available"), "lb_attempts absent: reason, exit 0");
	rc = run("--debugfs", FIX "/noaudit", "lb", NULL);
	tap_ok(rc == 0 && strstr(out, "lb audit: not available (inactive:no_kretprobe_symbol)"),
	       "lb with audit inactive: reason, exit 0");
	rc = run("--debugfs", FIX "/noaudit", "lb", "--json", NULL);
	tap_ok(rc == 0 && strstr(out, "\"available\":false") && strstr(out, "\"lb\":null"),
	       "lb --json with audit inactive");
	check_json("lb --json (inactive) is valid JSON");
	rc = run("--debugfs", FIX "/noaudit", "lb", "--prom", NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_lb_audit_active{state=\"inactive:no_kretprobe_symbol\"} 0"),
	       "lb --prom with audit inactive");

	/* broken files: clear errors, exit 1 */
	snprintf(dir, sizeof(dir), "%s/bad", tmpdir);
	mkdir(dir, 0700);
	f = fopen(FIX "/good/info", "r");
	if (f) {
		size_t n = fread(out, 1, sizeof(out) - 1, f);

		out[n] = '\0';
		fclose(f);
		write_file(dir, "info", out);
	}
	write_file(dir, "cpus", "# sched_shadow cpus v1\ncpu online nr_running\n0 1 2\n1 1");
	rc = run("--debugfs", dir, "cpus", NULL);
	tap_ok(rc == 1 && strstr(err, "truncated row") && strstr(err, "line 4"), "truncated cpus: exit 1, message");
	rc = run("--debugfs", dir, "status", NULL);
	tap_ok(rc == 1 && strstr(err, "truncated"), "status with a broken cpus file: exit 1");
	write_file(dir, "cpus", "# sched_shadow cpus v7\ncpu\n0\n");
	rc = run("--debugfs", dir, "cpus", NULL);
	tap_ok(rc == 1 && strstr(err, "v7"), "future format version: exit 1, says so");
	write_file(dir, "groups", "");
	rc = run("--debugfs", dir, "groups", NULL);
	tap_ok(rc == 1 && strstr(err, "empty"), "empty groups file");

	/* groups says which CPUs have no rows, and which were cut */
	snprintf(dir, sizeof(dir), "%s/gnotes", tmpdir);
	mkdir(dir, 0700);
	write_file(dir, "info", "# sched_shadow info v1\nkey value\nmax_groups 64\ngroups_truncated 1\n");
	write_file(dir, "cpus", "# sched_shadow cpus v1\ncpu online void\n0 1 fresh\n1 1 walk_failed\n"
		   "2 0 hotplug\n");
	write_file(dir, "groups", "# sched_shadow groups v1\ncpu cgid depth path\n0 1 0 /\n");
	rc = run("--debugfs", dir, "groups", NULL);
	tap_ok(rc == 0 && strstr(out, "# cpu 1: no rows, its state is void (walk_failed, see cpus)") &&
	       !strstr(out, "# cpu 0:") && !strstr(out, "# cpu 2:") &&
	       strstr(out, "# 1 CPU(s) have more queued cfs_rqs than groups holds: their rows are the first 64"),
	       "groups text: a fresh-less online CPU and a cut are said, offline CPUs are not");
	rc = run("--debugfs", FIX "/good", "groups", NULL);
	tap_ok(rc == 0 && !strstr(out, "no rows, its state") && !strstr(out, "more queued cfs_rqs"),
	       "groups text: nothing said when every CPU is fresh and nothing cut");

	/* reset writes 1 */
	write_file(dir, "reset", "");
	rc = run("--debugfs", dir, "reset", NULL);
	snprintf(path, sizeof(path), "%s/reset", dir);
	f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	tap_ok(rc == 0 && !strcmp(buf, "1\n"), "reset writes \"1\\n\"");
	chmod(path, 0400);
	if (geteuid() != 0) {
		rc = run("--debugfs", dir, "reset", NULL);
		tap_ok(rc != 0 && strstr(err, "ermission"), "reset: permission error reported");
	} else {
		tap_skip("reset: permission error reported", "running as root");
	}

	/* record */
	snprintf(csv, sizeof(csv), "%s/rec.csv", tmpdir);
	rc = run("--debugfs", FIX "/good", "record", "-i", "0.05", "-n", "3", "-o", csv, NULL);
	f = fopen(csv, "r");
	out[0] = '\0';
	if (f) {
		size_t n = fread(out, 1, sizeof(out) - 1, f);

		out[n] = '\0';
		fclose(f);
	}
	tap_ok(rc == 0 && !strncmp(out, CLI_RECORD_HEADER "\n", strlen(CLI_RECORD_HEADER) + 1),
	       "record: header row");
	tap_ok(count_lines(out, "0.") + count_lines(out, "1.") == 12 && strstr(out, ",0,1650,1702,980,1023,1590,2,430,34,16,40,0.000,0.000\n") &&
	       strstr(out, ",2,") && strstr(out, ",7970.123,0.000\n") &&
	       strstr(out, ",3,,,,,,,430,34,16,40,0.000,0.000\n"),
	       "record: 3 samples x 4 CPUs, '-' empty, lb totals, each CPU's wasted and unknown ms");
	snprintf(path, sizeof(path), "%s/rec2.csv", tmpdir);
	rc = run("--debugfs", FIX "/noaudit", "record", "-i", "0.05", "-d", "0.12", "-o", path, NULL);
	f = fopen(path, "r");
	out[0] = '\0';
	if (f) {
		size_t n = fread(out, 1, sizeof(out) - 1, f);

		out[n] = '\0';
		fclose(f);
	}
	tap_ok(rc == 0 && count_lines(out, "0.") >= 8 && strstr(out, ",0,1650,1702,980,1023,1590,2,,,,,,\n"),
	       "record -d without lb: verdict columns empty");

	/* watch, non-tty */
	rc = run("--debugfs", FIX "/good", "watch", "-n", "2", "-i", "0.2", NULL);
	tap_ok(rc == 0 && count_lines(out, "--- sample") == 2 && strstr(out, "verdicts/s") &&
	       strstr(out, "right 0.0"), "watch -n 2 -i 0.2 prints two snapshots with rates");

	/* plot */
	snprintf(png, sizeof(png), "%s/rec.png", tmpdir);
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	rc = run("plot", csv, "-o", png, NULL);
	tap_ok(rc == CLI_EXIT_NOTOOL && strstr(err, "gnuplot not found"), "plot: missing gnuplot, exit 3");
	unsetenv("GNUPLOT");
	rc = run("plot", FIX "/good/cpus", "-o", png, NULL);
	tap_ok(rc == 1 && strstr(err, "expected header"), "plot: CSV header validated");
	write_file(tmpdir, "short.csv", CLI_RECORD_HEADER "\n0.0,0,1,2\n");
	snprintf(path, sizeof(path), "%s/short.csv", tmpdir);
	rc = run("plot", path, "-o", png, NULL);
	tap_ok(rc == 1 && strstr(err, "line 2"), "plot: malformed row rejected");
	if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
		rc = run("plot", csv, "-o", png, NULL);
		tap_ok(rc == 0 && stat(png, &st) == 0 && st.st_size > 1000, "plot writes a non-empty PNG");
		snprintf(path, sizeof(path), "%s/rec.svg", tmpdir);
		rc = run("plot", csv, "-o", path, NULL);
		tap_ok(rc == 0 && stat(path, &st) == 0 && st.st_size > 1000, "plot writes a non-empty SVG");
	} else {
		tap_skip("plot PNG", "gnuplot not installed");
		tap_skip("plot SVG", "gnuplot not installed");
	}

	snprintf(buf, sizeof(buf), "rm -rf '%s'", tmpdir);
	if (system(buf) != 0)
		tap_diag("could not remove %s", tmpdir);
	return tap_end();
}
