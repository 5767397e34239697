// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's conventions (bpftool and perf as anchors), through cli_main():
 *  - -j: every failure is one JSON object {"error": ...} on stdout (a
 *    usage error, a missing module, a file that is not a report, a command
 *    without JSON output), the message also on stderr with one prefix;
 *  - help, help CMD (= CMD --help), version / --version / -V with the
 *    build's features, -j version;
 *  - the man page's generated sections and the bash completion in the
 *    tree equal what the option tables generate now;
 *  - every usage text fits 80 columns;
 *  - -v names the module files read;
 *  - the not-loaded hint: modprobe once modules.dep lists the module.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "cli/cli.h"
#include "cli_capture.h"

#define FIX "tests/unit/fixtures/cli"

static char out[1 << 18], err[1 << 14];
static char tmpdir[] = "/tmp/test_cli_conventions.XXXXXX";

CAP_DEFINE_RUN(tmpdir, out, sizeof(out), err, sizeof(err))

/* s as a Python string literal (s has no double quote or backslash) */
static const char *py_str(const char *s)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "\"%s\"", s);
	return buf;
}

static int have_python;

/* out is exactly one JSON object whose keys are `keys` (python3), or has an "error" key. */
static int one_json(const char *check)
{
	char path[96], py[96], cmd[300];
	FILE *f;

	if (!have_python)
		return -1;
	snprintf(path, sizeof(path), "%s/doc.json", tmpdir);
	f = fopen(path, "w");
	fputs(out, f);
	fclose(f);
	snprintf(py, sizeof(py), "%s/check.py", tmpdir);
	f = fopen(py, "w");
	fprintf(f, "import json, sys\nd = json.load(open(sys.argv[1]))\n"
		"sys.exit(0 if isinstance(d, dict) and (%s) else 1)\n", check);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s %s", py, path);
	return system(cmd) == 0;
}

static void check_json(const char *check, const char *what, int rc_ok)
{
	int ok = one_json(check);

	if (ok < 0)
		tap_skip(what, "python3 not found");
	else if (!tap_ok(ok && rc_ok, "%s", what))
		tap_diag("stdout: %.200s; stderr: %.200s", out, err);
}

/* Every line of err starts with the one prefix, or is the "Try" hint. */
static int one_prefix(void)
{
	for (char *l = err; *l; ) {
		if (strncmp(l, "sched-shadow ", 13) && strncmp(l, "sched-shadow: ", 14) &&
		    strncmp(l, "Try 'sched-shadow help", 22))
			return 0;
		l = strchr(l, '\n');
		if (!l)
			break;
		l++;
	}
	return err[0] != 0;
}

static int max_width(const char *s)
{
	int w = 0;

	while (*s) {
		int n = strcspn(s, "\n");

		if (n > w)
			w = n;
		s += n;
		if (*s)
			s++;
	}
	return w;
}

int main(void)
{
	static const char *const cmds[] = { "status", "cpus", "groups", "lb", "lb_attempts", "watch",
		"reset", "record", "plot", "run", "report", "compare", "bench", "help", "version" };
	char path[160], *help;
	int rc, ok, wmax = 0;
	const char *widest = "";

	tap_begin("cli_conventions");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	have_python = system("python3 -c '' >/dev/null 2>&1") == 0;
	unsetenv("SCHED_SHADOW_DEBUGFS");

	/*
	 * -j: every command, in an error case, prints one line on stdout, a
	 * JSON object whose first members are schema, command, error, and
	 * nothing on stderr (bpftool's convention); the exit status says what.
	 */
	{
		static const struct {
			const char *argv[8];
			const char *cmd;	/* "command" member (NULL: null) */
			int rc;
			const char *has;	/* in the error message */
		} ec[] = {
			{ { "-j", "--debugfs", "/nonexistent", "status" }, "status", 2, "module not loaded" },
			{ { "-j", "--debugfs", "/nonexistent", "cpus" }, "cpus", 2, "module not loaded" },
			{ { "-j", "--debugfs", "/nonexistent", "groups" }, "groups", 2, "module not loaded" },
			{ { "-j", "--debugfs", "/nonexistent", "lb" }, "lb", 2, "module not loaded" },
			{ { "-j", "--debugfs", "/nonexistent", "lb_attempts" }, "lb_attempts", 2,
			  "module not loaded" },
			{ { "-j", "watch" }, "watch", 64, "has no JSON output" },
			{ { "-j", "--debugfs", "/nonexistent", "reset" }, "reset", 2, "module not loaded" },
			{ { "-j", "record", "-i", "1", "-o", "x.csv" }, "record", 64, "has no JSON output" },
			{ { "-j", "plot", "x.csv", "-o", "x.png" }, "plot", 64, "has no JSON output" },
			{ { "-j", "--debugfs", "/nonexistent", "run", "--", "true" }, "run", 2,
			  "--no-module" },
			{ { "-j", "report", "/nonexistent/run.json" }, "report", 1, "/nonexistent/run.json" },
			{ { "-j", "compare", "/nonexistent/a.json" }, "compare", 64, "needs two FILEs" },
			{ { "-j", "bench", "--weight", "5" }, "bench", 64, "--weight needs --cgroup" },
			{ { "-j", "help", "nosuch" }, "help", 64, "has no JSON output" },
			{ { "-j", "version", "extra" }, "version", 64, "unexpected argument 'extra'" },
			{ { "-j", "cpus", "--bogus" }, "cpus", 64, "unknown option '--bogus'" },
			{ { "cpus", "-j", "--bogus" }, "cpus", 64, "unknown option '--bogus'" },
			{ { "-j", "frobnicate" }, NULL, 64, "unknown command 'frobnicate'" },
			{ { "-j" }, NULL, 64, "no command given" },
		};
		int nec = sizeof(ec) / sizeof(ec[0]), good = 0, cmds_seen = 0;
		char seen[64][16];

		for (int k = 0; k < nec; k++) {
			char *argv[10], check[800];
			int argc = 0, r, one_line, ok1;

			argv[argc++] = (char *)"sched-shadow";
			for (int a = 0; a < 8 && ec[k].argv[a]; a++)
				argv[argc++] = (char *)ec[k].argv[a];
			argv[argc] = NULL;
			r = cap_run_argv(tmpdir, out, sizeof(out), err, sizeof(err), argc, argv);
			one_line = strchr(out, '\n') && !strchr(out, '\n')[1];
			snprintf(check, sizeof(check),
				 "list(d)[:3] == ['schema', 'command', 'error'] and "
				 "d['schema'] == 'sched_shadow/v1' and d['command'] == %s%s%s and "
				 "isinstance(d['error'], str) and %s in d['error']",
				 ec[k].cmd ? "'" : "", ec[k].cmd ? ec[k].cmd : "None", ec[k].cmd ? "'" : "",
				 py_str(ec[k].has));
			ok1 = one_json(check);
			if (ok1 < 0) {
				tap_skip("-j error documents", "python3 not found");
				break;
			}
			if (ok1 && one_line && !err[0] && r == ec[k].rc) {
				good++;
			} else {
				tap_diag("%s %s: exit %d (want %d), stdout %.300s, stderr %.200s",
					 ec[k].argv[0], ec[k].argv[1] ? ec[k].argv[1] : "", r, ec[k].rc,
					 out, err);
			}
			if (ec[k].cmd) {
				int dup = 0;

				for (int m = 0; m < cmds_seen; m++)
					dup |= !strcmp(seen[m], ec[k].cmd);
				if (!dup)
					snprintf(seen[cmds_seen++], sizeof(seen[0]), "%s", ec[k].cmd);
			}
		}
		if (have_python)
			tap_ok(good == nec && cmds_seen == (int)(sizeof(cmds) / sizeof(cmds[0])),
			       "-j: every command (%d of %zu) in an error case: one line on stdout, "
			       "{schema, command, error, ...}, nothing on stderr, the exit status "
			       "(%d of %d cases)", cmds_seen, sizeof(cmds) / sizeof(cmds[0]), good, nec);
	}
	rc = run("--json", "--debugfs", FIX "/good", "cpus", NULL);
	check_json("'cpus' in d and 'error' not in d", "--json as a global option: the cpus document",
		   rc == 0);
	tap_ok(strchr(out, '\n') && !strchr(out, '\n')[1] ? 1 : 0, "-j: the document on one line");
	rc = run("cpus", "-p", "--debugfs", FIX "/good", NULL);
	check_json("'cpus' in d", "-p after the command: the same document", rc == 0);
	tap_ok(strstr(out, "{\n  \"schema\": \"sched_shadow/v1\",\n") != NULL, "-p: indented");
	rc = run("-p", "--debugfs", "/nonexistent", "status", NULL);
	check_json("list(d)[:3] == ['schema', 'command', 'error'] and d['module_loaded'] is False",
		   "-p status without the module: the error document, indented", rc == 2);

	/* run -j -o FILE: CMD's failing status passes through, no {"error"} on stdout */
	{
		char dbg[128], rep[128], cmd[300];

		snprintf(dbg, sizeof(dbg), "%s/dbg", tmpdir);
		snprintf(rep, sizeof(rep), "%s/r.json", tmpdir);
		snprintf(cmd, sizeof(cmd), "cp -r " FIX "/good %s", dbg);
		if (system(cmd))
			tap_diag("copy failed");
		rc = run("-j", "--debugfs", dbg, "run", "--no-bpf", "-o", rep, "--", "false", NULL);
		tap_ok(rc == 1 && !out[0] && strstr(cap_read_file(rep), "\"exit_status\":1"),
		       "-j run -o FILE -- false: exit 1 (CMD's), the report in FILE, nothing on stdout");
		rc = run("-j", "--debugfs", dbg, "run", "--no-bpf", "--repeat", "3", "-o", rep, "--",
			 "true", NULL);
		{
			const char *t = cap_read_file(rep);
			int nl = 0;

			for (const char *q = t; *q; q++)
				nl += *q == '\n';
			tap_ok(rc == 0 && nl == 3 && strstr(t, "\"repeat\":{\"index\":3,\"of\":3}"),
			       "run --repeat 3 -j -o FILE: three documents, one per line, each with its "
			       "repeat (%d lines)", nl);
		}
	}

	/* one prefix on errors without -j */
	rc = run("bench", "-C", "5", NULL);
	tap_ok(rc == 64 && one_prefix() && strstr(err, "option '-C' is now -c/--cputime"),
	       "bench -C: refused, naming schbench's letter, one prefix");
	rc = run("--debugfs", "/nonexistent", "run", "--", "true", NULL);
	tap_ok(rc == 2 && one_prefix() && strstr(err, "module not loaded") &&
	       strstr(err, "--no-module") && !strchr(strchr(err, '\n') + 1, '\n'),
	       "run without the module: exit 2, one line, naming --no-module");

	/* help, version */
	rc = run("help", NULL);
	ok = rc == 0;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "\n  %s ", cmds[i]);
		ok &= strstr(out, want) != NULL;
	}
	tap_ok(ok && strstr(out, "exit status:"), "help lists every command and the exit statuses");
	ok = 1;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		rc = run("help", cmds[i], NULL);
		help = strdup(out);
		ok &= rc == 0 && !strncmp(help, "usage: sched-shadow ", 20);
		if (strcmp(cmds[i], "help")) {
			rc = run(cmds[i], "--help", NULL);
			ok &= rc == 0 && !strcmp(help, out);
		}
		if (max_width(help) > wmax) {
			wmax = max_width(help);
			widest = cmds[i];
		}
		free(help);
	}
	tap_ok(ok, "help CMD prints what CMD --help prints, for all %zu commands",
	       sizeof(cmds) / sizeof(cmds[0]));
	run("--help", NULL);
	if (max_width(out) > wmax) {
		wmax = max_width(out);
		widest = "--help";
	}
	tap_ok(wmax <= 80, "every usage text fits 80 columns (widest %d: %s)", wmax, widest);
	rc = run("help", "nosuch", NULL);
	tap_ok(rc == 64 && !strcmp(err, "sched-shadow help: unknown command 'nosuch'\n"
				   "Try 'sched-shadow help'.\n"),
	       "help of an unknown command: 64, and the hint is `help` (not `help help`)");
	rc = run("-vv", "--debugfs", FIX "/good", "cpus", NULL);
	tap_ok(rc == 0 && strstr(err, "sched-shadow: reading " FIX "/good/cpus\n"),
	       "-vv (documented) is accepted, as -v twice");
	rc = run("--version", NULL);
	help = strdup(out);
	tap_ok(rc == 0 && !strncmp(out, "sched-shadow " CLI_VERSION "\nfeatures:\n",
				   strlen("sched-shadow " CLI_VERSION "\nfeatures:\n")) &&
	       strstr(out, "  bpf ") && strstr(out, "  perfetto "),
	       "--version: the version, then each feature and whether it is built");
	rc = run("-V", NULL);
	ok = rc == 0 && !strcmp(help, out);
	rc = run("version", NULL);
	tap_ok(ok && rc == 0 && !strcmp(help, out), "-V and version print the same");
	free(help);
	rc = run("-j", "version", NULL);
	check_json("d['version'] == '" CLI_VERSION "' and set(d['features']) == {'bpf', 'perfetto'}"
		   " and all(type(f['built']) is bool for f in d['features'].values())",
		   "-j version: version and features", rc == 0);

	/* generated documentation in the tree equals what the tables generate */
	rc = run("help", "--man", NULL);
	{
		const char *man = cap_read_file("docs/sched-shadow.1");
		const char *b = strstr(man, ".\\\" BEGIN GENERATED\n");
		const char *e = b ? strstr(b, ".\\\" END GENERATED\n") : NULL;

		b = b ? b + strlen(".\\\" BEGIN GENERATED\n") : NULL;
		tap_ok(rc == 0 && b && e && (size_t)(e - b) == strlen(out) && !strncmp(b, out, e - b),
		       "docs/sched-shadow.1's generated sections equal help --man (make docs-cli)");
	}
	rc = run("help", "--bash-completion", NULL);
	tap_ok(rc == 0 && !strcmp(cap_read_file("bash-completion/sched-shadow"), out),
	       "bash-completion/sched-shadow equals help --bash-completion (make docs-cli)");

	/* -v */
	rc = run("-v", "--debugfs", FIX "/good", "cpus", NULL);
	tap_ok(rc == 0 && strstr(err, "sched-shadow: reading " FIX "/good/cpus\n"),
	       "-v names the module file read");

	/* the load hint */
	snprintf(path, sizeof(path), "%s/modules.dep", tmpdir);
	{
		FILE *f = fopen(path, "w");

		fputs("kernel/fs/ext4/ext4.ko: kernel/fs/mbcache.ko\nkernel/x/sched_shadow_x.ko:\n", f);
		fclose(f);
		ok = !dbgfs_module_installed(path);
		f = fopen(path, "a");
		fputs("updates/dkms/sched_shadow.ko.xz:\n", f);
		fclose(f);
		ok &= dbgfs_module_installed(path);
		f = fopen(path, "w");
		fputs("extra/sched_shadow.ko:\n", f);
		fclose(f);
		ok &= dbgfs_module_installed(path) && !dbgfs_module_installed("/nonexistent/modules.dep");
	}
	tap_ok(ok, "modules.dep lists the module (extra/, DKMS, compressed) or not: modprobe or insmod hint");

	snprintf(path, sizeof(path), "rm -rf %s", tmpdir);
	if (system(path))
		tap_diag("could not remove %s", tmpdir);
	return tap_end();
}
