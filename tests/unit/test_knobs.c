// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's switches (userspace/cli/sources/knobs.c) and `run --set`,
 * on a fake scheduler debugfs directory laid out as 7.3's
 * (/sys/kernel/debug/sched: cgroup_mode, llc_balancing/), through
 * cli_main() and a forked run for the signals:
 *  - cgroup_mode's text parsed (the mode in parentheses, the choices);
 *    the directory beside the module's (--set's argument: test_bench_args);
 *  - a kernel with neither switch reads "absent"; no sched directory on
 *    something that is not debugfs reads unknown, with why;
 *  - --set on a kernel without the switch: exit 2, one line; a mode the
 *    kernel does not offer: exit 64 naming the ones it does;
 *  - the switch holds the value while CMD runs and the old one after it,
 *    the state file is gone; the report says set, before, restored;
 *  - a switch changed during the run: a note, and left as found;
 *  - SIGTERM to run: CMD gets it, run reports and restores; a second
 *    signal before CMD ends restores and dies; SIGKILL: the next run
 *    restores from the state file and says so; a live owner of the
 *    state file makes --set refuse;
 *  - JSON, read back byte for byte; Prometheus's info line; compare marks
 *    a switch that differs.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "cli/cli.h"
#include "cli_capture.h"
#include "cli/sources/knobs.h"
#include "cli/formats/json_parse.h"

static char out[1 << 18], err[1 << 14];
static char tmpdir[] = "/tmp/test_knobs.XXXXXX";
static char mod[256], sched[256], state[300];

CAP_DEFINE_RUN(tmpdir, out, sizeof(out), err, sizeof(err))

/* The fake directory as 7.3 has it: cgroup_mode and llc_balancing/ */
static void make_sched(int mode, int llc)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s %s", sched, sched, mod);
	if (system(cmd))
		tap_diag("cannot build %s", sched);
	if (mode) {
		snprintf(cmd, sizeof(cmd), "%s/cgroup_mode", sched);
		cap_write_file(cmd, "up smp (concur) max tasks \n");
	}
	if (llc) {
		snprintf(cmd, sizeof(cmd), "mkdir %s/llc_balancing && cd %s/llc_balancing && "
			 "echo 1 > enabled && echo 1 > aggr_tolerance && echo 10 > epoch_period && "
			 "echo 20 > imb_pct", sched, sched);
		if (system(cmd))
			tap_diag("cannot build llc_balancing");
	}
}

static const char *sched_file(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", sched, name);
	return p;
}

static void test_parsers(void)
{
	char mode[48], choices[48], dir[256];

	tap_ok(!knobs_parse_mode("up smp (concur) max tasks \n", mode, sizeof(mode), choices,
				 sizeof(choices)) && !strcmp(mode, "concur") &&
	       !strcmp(choices, "up smp concur max tasks"),
	       "cgroup_mode's text: the mode in parentheses, the choices without them");
	tap_ok(!knobs_parse_mode("(up) smp concur max tasks\n", mode, sizeof(mode), choices,
				 sizeof(choices)) && !strcmp(mode, "up"),
	       "... the first choice marked");
	tap_ok(knobs_parse_mode("up smp concur\n", mode, sizeof(mode), choices, sizeof(choices)) == -1,
	       "... no mode marked: refused");
	tap_ok(!strcmp(knobs_dir_of("/sys/kernel/debug/sched_shadow", dir, sizeof(dir)),
		       "/sys/kernel/debug/sched") &&
	       !strcmp(knobs_dir_of("/sys/kernel/debug/sched_shadow/", dir, sizeof(dir)),
		       "/sys/kernel/debug/sched") &&
	       !strcmp(knobs_dir_of("/x", dir, sizeof(dir)), "/sched"),
	       "the scheduler's directory beside the module's");
}

static void test_read(void)
{
	struct knobs k;
	char nodir[300];

	make_sched(1, 1);
	knobs_read(sched, &k);
	tap_ok(!strcmp(knobs_value(&k, "cgroup_mode") ?: "", "concur") &&
	       !strcmp(knobs_value(&k, "llc_balancing") ?: "", "1") &&
	       !strcmp(knobs_value(&k, "llc_balancing.imb_pct") ?: "", "20") &&
	       !knobs_find(&k, "llc_balancing.overaggr_pct") && !strcmp(k.modes, "up smp concur max tasks"),
	       "7.3's layout: cgroup_mode concur, llc_balancing 1, its tunables (a missing one not listed)");
	make_sched(0, 1);
	knobs_read(sched, &k);
	tap_ok(knobs_find(&k, "cgroup_mode")->state == KNOB_ABSENT &&
	       !strcmp(knobs_find(&k, "cgroup_mode")->value, "absent") &&
	       !strcmp(knobs_value(&k, "llc_balancing") ?: "", "1"),
	       "7.2's layout: cgroup_mode absent, llc_balancing 1");
	make_sched(0, 0);
	knobs_read(sched, &k);
	tap_ok(!strcmp(knobs_find(&k, "cgroup_mode")->value, "absent") &&
	       !strcmp(knobs_find(&k, "llc_balancing")->value, "absent") && k.n == 2,
	       "6.x's layout: both absent");
	snprintf(nodir, sizeof(nodir), "%s/none/sched", tmpdir);
	knobs_read(nodir, &k);
	tap_ok(knobs_find(&k, "cgroup_mode")->state == KNOB_UNREADABLE &&
	       strstr(knobs_find(&k, "cgroup_mode")->why, "debugfs is not mounted") &&
	       knobs_value(&k, "llc_balancing") == NULL,
	       "no sched directory where debugfs is not mounted: unknown, not absent (%s)",
	       knobs_find(&k, "cgroup_mode")->why);
}

static void test_set(void)
{
	char cmd[4096], json[300];
	int rc;

	make_sched(0, 0);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "cgroup_mode=smp",
		 "--", "true", NULL);
	tap_ok(rc == 2 && cap_lines(err) == 1 && strstr(err, "this kernel has no") &&
	       strstr(err, "/cgroup_mode") && !out[0],
	       "--set cgroup_mode on a kernel without it: exit 2, one line (%.*s)",
	       (int)strcspn(err, "\n"), err);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=0",
		 "--", "true", NULL);
	tap_ok(rc == 2 && cap_lines(err) == 1 && strstr(err, "llc_balancing"),
	       "--set llc_balancing on a kernel without it: exit 2, one line");
	make_sched(1, 1);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "cgroup_mode=fair",
		 "--", "true", NULL);
	tap_ok(rc == 64 && strstr(err, "modes are up smp concur max tasks"),
	       "--set cgroup_mode=fair: exit 64, the kernel's modes named");
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=0",
		 "--set", "llc_balancing=1", "--", "true", NULL);
	tap_ok(rc == 64 && strstr(err, "given twice"), "--set of one switch twice: exit 64");

	/* while CMD runs: the value set; the kernel shows the mode in parentheses */
	snprintf(json, sizeof(json), "%s/set.json", tmpdir);
	snprintf(cmd, sizeof(cmd), "cat %s/llc_balancing/enabled > %s/seen; cat %s/cgroup_mode >> %s/seen; "
		 "test -s %s && echo state >> %s/seen; "
		 "echo 'up (smp) concur max tasks ' > %s/cgroup_mode",
		 sched, tmpdir, sched, tmpdir, state, tmpdir, sched);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=0",
		 "--set", "cgroup_mode=smp", "-j", "-o", json, "--", "sh", "-c", cmd, NULL);
	{
		char seen[300];

		snprintf(seen, sizeof(seen), "%s/seen", tmpdir);
		if (!tap_ok(rc == 0 && !strcmp(cap_read_file(seen), "0smpstate\n"),
			    "while CMD runs: llc_balancing 0, cgroup_mode smp written, the state file there"))
			tap_diag("rc %d, seen '%s', err %s", rc, cap_read_file(seen), err);
	}
	tap_ok(!strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "1") &&
	       !strcmp(cap_read_file(sched_file("cgroup_mode")), "concur") && access(state, F_OK),
	       "after: both written back (1, concur), the state file removed");
	{
		char e[256];
		struct jv *d = jv_parse_file(json, e, sizeof(e));
		const struct jv *set = jv_path(d, "knobs", "set", NULL), *x = jv_at(set, 1);
		const struct jv *sw = jv_at(jv_path(d, "knobs", "switches", NULL), 0);

		tap_ok(d && set && set->n == 2 && !strcmp(jv_str(jv_get(x, "name")) ?: "", "cgroup_mode") &&
		       !strcmp(jv_str(jv_get(x, "value")) ?: "", "smp") &&
		       !strcmp(jv_str(jv_get(x, "before")) ?: "", "concur") &&
		       !strcmp(jv_str(jv_get(x, "restored")) ?: "", "yes") &&
		       !strcmp(jv_str(jv_get(sw, "end")) ?: "", "smp") &&
		       !strcmp(jv_str(jv_get(jv_at(jv_path(d, "knobs", "switches", NULL), 1), "start")) ?: "", "0") &&
		       !strcmp(jv_str(jv_get(jv_at(jv_path(d, "knobs", "switches", NULL), 1), "end")) ?: "", "0") &&
		       !strcmp(jv_str(jv_path(d, "knobs", "cgroup_modes", NULL)) ?: "",
			       "up smp concur max tasks"),
		       "the JSON: llc_balancing 0 at start and end, cgroup_mode smp at the end, set from concur, restored");
		jv_free(d);
	}
	rc = run("report", "--json", json, NULL);
	tap_ok(rc == 0 && !strcmp(out, cap_read_file(json)), "report --json of it: byte-identical");
	rc = run("report", json, NULL);
	tap_ok(rc == 0 && strstr(out, "llc_balancing 0 (run --set; was 1, restored)"),
	       "report (text): 'llc_balancing 0 (run --set; was 1, restored)'");

	/* changed during the run by someone else: a note, left as found */
	snprintf(cmd, sizeof(cmd), "echo 1 > %s/llc_balancing/enabled", sched);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=0",
		 "--", "sh", "-c", cmd, NULL);
	tap_ok(rc == 0 && strstr(out, "note: llc_balancing changed during the run: 0 at the start, 1 at the end") &&
	       strstr(out, "left as found") && access(state, F_OK),
	       "a switch changed during the run: a note, left as found, no state file");

	make_sched(1, 1);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--prom", "--", "true", NULL);
	tap_ok(rc == 0 && strstr(out, "\nsched_shadow_kernel_info{cgroup_mode=\"concur\",llc_balancing=\"1\"} 1\n"),
	       "Prometheus: sched_shadow_kernel_info{cgroup_mode=\"concur\",llc_balancing=\"1\"} 1");
	make_sched(0, 0);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--prom", "--", "true", NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_kernel_info{cgroup_mode=\"absent\",llc_balancing=\"absent\"} 1"),
	       "... absent on a kernel without them");
}

/*
 * Fork a `run --set llc_balancing=0 -- sh -c 'echo $$ > pidf; exec sleep 30'`
 * (CMD ignoring SIGTERM when deaf); its pid; the sleep's in *cmdpid.
 */
static pid_t start_run(const char *report, pid_t *cmdpid, int deaf)
{
	char pidf[300], cmd[1024];
	pid_t p;

	snprintf(pidf, sizeof(pidf), "%s/cmd.pid", tmpdir);
	unlink(pidf);
	snprintf(cmd, sizeof(cmd), "%secho $$ > %s; exec sleep 30", deaf ? "trap '' TERM; " : "", pidf);
	fflush(NULL);
	p = fork();
	if (p == 0) {
		char *argv[] = { "sched-shadow", "run", "--debugfs", mod, "--no-module", "--no-bpf",
				 "--set", "llc_balancing=0", "-o", (char *)report, "--", "sh", "-c",
				 cmd, NULL };
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 2);
		_exit(cli_main(14, argv));
	}
	*cmdpid = 0;
	for (int i = 0; i < 500 && !*cmdpid; i++) {
		usleep(10000);
		*cmdpid = atoi(cap_read_file(pidf));
	}
	return p;
}

static void test_signals(void)
{
	char rep[300];
	pid_t p, c;
	int st = 0;

	make_sched(1, 1);
	snprintf(rep, sizeof(rep), "%s/term.txt", tmpdir);
	p = start_run(rep, &c, 0);
	tap_ok(c > 0 && !strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "0"),
	       "SIGTERM: CMD runs with llc_balancing 0");
	kill(p, SIGTERM);
	waitpid(p, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM &&
	       !strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "1") && access(state, F_OK) &&
	       strstr(cap_read_file(rep), "llc_balancing 0 (run --set; was 1, restored)"),
	       "... run passed it to CMD (exit %d), reported, restored 1, removed the state file",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);

	p = start_run(rep, &c, 0);
	kill(p, SIGHUP);
	waitpid(p, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGHUP &&
	       !strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "1") && access(state, F_OK),
	       "SIGHUP: the same (exit %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);

	/* CMD ignores SIGTERM: the second one restores at once, and run dies of it */
	p = start_run(rep, &c, 1);
	kill(p, SIGTERM);
	usleep(200000);
	tap_ok(c > 0 && !kill(c, 0) && !strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "0"),
	       "CMD deaf to SIGTERM: after the first, still 0 while CMD runs");
	kill(p, SIGTERM);
	waitpid(p, &st, 0);
	if (c > 0)
		kill(c, SIGKILL);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM &&
	       !strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "1") && access(state, F_OK),
	       "... the second SIGTERM: restored, state file removed, run died of it");

	p = start_run(rep, &c, 0);
	kill(p, SIGKILL);
	waitpid(p, &st, 0);
	if (c > 0)
		kill(c, SIGKILL);
	tap_ok(!strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "0") && !access(state, F_OK),
	       "SIGKILL: llc_balancing left at 0, the state file left behind");
	run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--", "true", NULL);
	tap_ok(!strcmp(cap_read_file(sched_file("llc_balancing/enabled")), "1") && access(state, F_OK) &&
	       strstr(out, "which did not finish, had set switches: llc_balancing restored to 1") &&
	       strstr(out, "kernel switches (") && strstr(out, "llc_balancing 1") &&
	       !strstr(out, "changed during the run"),
	       "... the next run restores it from the state file and says so");

	/* a state file whose owner runs (this process): --set refused, a plain run notes it */
	{
		char line[600];

		snprintf(line, sizeof(line), "pid %d %llu\nset llc_balancing %s 0 1\n", (int)getpid(),
			 knobs_pid_start(getpid()), sched_file("llc_balancing/enabled"));
		cap_write_file(state, line);
	}
	tap_ok(run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=0",
		   "--", "true", NULL) == 1 && strstr(err, "has set the kernel's switches for its own run"),
	       "a live owner of the state file: --set refused, exit 1");
	tap_ok(run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--", "true", NULL) == 0 &&
	       strstr(out, "has set llc_balancing for its run") && !access(state, F_OK),
	       "... a run without --set notes it and leaves the file");
	unlink(state);
}

static void test_compare(void)
{
	char a[300], b[300];
	int rc;

	make_sched(1, 1);
	snprintf(a, sizeof(a), "%s/a.json", tmpdir);
	snprintf(b, sizeof(b), "%s/b.json", tmpdir);
	rc = run("run", "--debugfs", mod, "--no-module", "--no-bpf", "-j", "-o", a, "--", "true", NULL);
	cap_write_file(sched_file("cgroup_mode"), "up (smp) concur max tasks \n");
	rc |= run("run", "--debugfs", mod, "--no-module", "--no-bpf", "--set", "llc_balancing=1",
		  "-j", "-o", b, "--", "true", NULL);
	rc |= run("compare", a, b, NULL);
	tap_ok(rc == 0 && strstr(out, "kernel switch cgroup_mode differs: concur vs smp") &&
	       strstr(out, "cgroup_mode (differs)") && strstr(out, "1 (set)") &&
	       !strstr(out, "llc_balancing (differs)"),
	       "compare: a switch that differs is marked, one that does not is not");
	rc = run("compare", "--json", a, b, NULL);
	{
		char e[256];
		struct jv *d = jv_parse(out, strlen(out), e, sizeof(e));
		const struct jv *r0 = jv_path(d, "runs", NULL), *k0, *k1;

		k0 = jv_get(jv_at(r0, 0), "knobs");
		k1 = jv_get(jv_at(r0, 1), "knobs");
		tap_ok(rc == 0 && d && !strcmp(jv_str(jv_get(k0, "cgroup_mode")) ?: "", "concur") &&
		       !strcmp(jv_str(jv_get(k1, "cgroup_mode")) ?: "", "smp") &&
		       !strcmp(jv_str(jv_get(k1, "llc_balancing")) ?: "", "1"),
		       "compare --json: each run's switches");
		jv_free(d);
	}
}

int main(void)
{
	char cmd[300];

	tap_begin("knobs");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("SCHED_SHADOW_DEBUGFS");
	snprintf(mod, sizeof(mod), "%s/debug/sched_shadow", tmpdir);
	snprintf(sched, sizeof(sched), "%s/debug/sched", tmpdir);
	snprintf(state, sizeof(state), "%s/state/knobs", tmpdir);
	snprintf(cmd, sizeof(cmd), "%s/state", tmpdir);
	setenv(KNOBS_STATE_ENV, cmd, 1);
	test_parsers();
	test_read();
	test_set();
	test_signals();
	test_compare();
	snprintf(cmd, sizeof(cmd), "%s", getenv("KEEP") ? "true" : "rm -rf"); snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " %s", tmpdir);
	if (system(cmd))
		tap_diag("could not remove %s", tmpdir);
	return tap_end();
}
