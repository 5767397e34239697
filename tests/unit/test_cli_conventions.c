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

#define FIX "tests/unit/fixtures/cli"

static char out[1 << 18], err[1 << 14];
static char tmpdir[] = "/tmp/test_cli_conventions.XXXXXX";

static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n;
	size_t o = 0;

	lseek(fd, 0, SEEK_SET);
	while (o + 1 < len && (n = read(fd, buf + o, len - 1 - o)) > 0)
		o += n;
	buf[o] = '\0';
}

static int run(const char *first, ...)
{
	char *argv[32], path[96];
	int argc = 0, rc, fo, fe, so, se;
	va_list ap;

	argv[argc++] = (char *)"sched-shadow";
	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	snprintf(path, sizeof(path), "%s/out", tmpdir);
	fo = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	snprintf(path, sizeof(path), "%s/err", tmpdir);
	fe = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = cli_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	slurp(fo, out, sizeof(out));
	slurp(fe, err, sizeof(err));
	close(fo);
	close(fe);
	return rc;
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

static char *file_text(const char *path)
{
	static char buf[1 << 18];
	int fd = open(path, O_RDONLY);

	buf[0] = 0;
	if (fd >= 0) {
		slurp(fd, buf, sizeof(buf));
		close(fd);
	}
	return buf;
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

	/* -j: one JSON object on every failure */
	rc = run("-j", "--debugfs", "/nonexistent", "status", NULL);
	check_json("'error' in d and 'module not loaded' in d['error']",
		   "-j status without the module: one JSON object with an error key", rc == 2);
	rc = run("-j", "cpus", "--bogus", NULL);
	check_json("list(d) == ['error'] and d['error'] == \"unknown option '--bogus'\"",
		   "-j cpus --bogus: {\"error\": \"unknown option '--bogus'\"}, exit 64", rc == 64);
	tap_ok(one_prefix() && strstr(err, "sched-shadow cpus: unknown option '--bogus'\n"),
	       "... and the message on stderr, with one prefix");
	rc = run("-j", "--debugfs", "/nonexistent", "cpus", NULL);
	check_json("list(d) == ['error'] and 'module not loaded' in d['error']",
		   "-j cpus without the module: {\"error\": ...}, exit 2", rc == 2);
	rc = run("-j", "plot", "x.csv", "-o", "x.png", NULL);
	check_json("list(d) == ['error'] and 'has no JSON output' in d['error']",
		   "-j plot (no JSON output): {\"error\": ...}, exit 64", rc == 64);
	rc = run("-j", "report", "/nonexistent/run.json", NULL);
	check_json("list(d) == ['error'] and '/nonexistent/run.json' in d['error']",
		   "-j report of a missing file: {\"error\": ...}, exit 1", rc == 1);
	rc = run("-j", "frobnicate", NULL);
	check_json("list(d) == ['error'] and 'unknown command' in d['error']",
		   "-j with an unknown command: {\"error\": ...}, exit 64", rc == 64);
	rc = run("--json", "--debugfs", FIX "/good", "cpus", NULL);
	check_json("'cpus' in d and 'error' not in d", "--json as a global option: the cpus document",
		   rc == 0);
	rc = run("cpus", "-j", "--debugfs", FIX "/good", NULL);
	check_json("'cpus' in d", "-j after the command: the same", rc == 0);

	/* run -j -o FILE: CMD's failing status passes through, no {"error"} on stdout */
	{
		char dbg[128], rep[128], cmd[300];

		snprintf(dbg, sizeof(dbg), "%s/dbg", tmpdir);
		snprintf(rep, sizeof(rep), "%s/r.json", tmpdir);
		snprintf(cmd, sizeof(cmd), "cp -r " FIX "/good %s", dbg);
		if (system(cmd))
			tap_diag("copy failed");
		rc = run("-j", "--debugfs", dbg, "run", "--no-bpf", "-o", rep, "--", "false", NULL);
		tap_ok(rc == 1 && !out[0] && strstr(file_text(rep), "\"exit_status\": 1"),
		       "-j run -o FILE -- false: exit 1 (CMD's), the report in FILE, nothing on stdout");
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
	tap_ok(rc == 64 && strstr(err, "unknown command 'nosuch'"), "help of an unknown command: 64");
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
		const char *man = file_text("docs/sched-shadow.1");
		const char *b = strstr(man, ".\\\" BEGIN GENERATED\n");
		const char *e = b ? strstr(b, ".\\\" END GENERATED\n") : NULL;

		b = b ? b + strlen(".\\\" BEGIN GENERATED\n") : NULL;
		tap_ok(rc == 0 && b && e && (size_t)(e - b) == strlen(out) && !strncmp(b, out, e - b),
		       "docs/sched-shadow.1's generated sections equal help --man (make docs-cli)");
	}
	rc = run("help", "--bash-completion", NULL);
	tap_ok(rc == 0 && !strcmp(file_text("bash-completion/sched-shadow"), out),
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
