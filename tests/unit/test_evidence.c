// SPDX-License-Identifier: GPL-2.0
/*
 * `run --evidence DIR` (userspace/cli/commands/run_evidence.c):
 *  - the top cause: the largest `all` row of wasted_attrib, its CPUs most
 *    wasted first, its attempts; none in a table without waste;
 *  - which lb_verdict records are attempts behind a cause (destination,
 *    domain, verdict, reason or move outcome), and none for no_attempt;
 *  - `run --debugfs <fixture tree> --evidence DIR -- true` through
 *    cli_main(): every file written, the module's tables copied verbatim,
 *    the README's three sentences with the fixture's numbers; an existing
 *    non-empty DIR refused before CMD runs;
 *  - the schedstat section's check that lb_hot_gained never exceeds
 *    lb_gained (the kernel accounting bug a430d99e3490 fixed): `report`
 *    of a run report whose schedstat rows break it prints one
 *    `inconsistent:` line per such row and the JSON member `inconsistent`;
 *    a consistent report has neither.
 * The tracefs side (events recorded while CMD runs) needs the module: the
 * bug corpus checks it in the VM (tests/vm/guest/bugs.sh).
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
#include "cli/commands/run_evidence.h"

#define FIX "tests/unit/fixtures"

static char tmpdir[] = "/tmp/test_evidence.XXXXXX";

CAP_DEFINE_RUN(tmpdir, NULL, 0, NULL, 0)

static void test_cause(void)
{
	static const char attrib[] =
		"# sched_shadow wasted_attrib v1\n"
		"cpu domain verdict reason cause wasted_ms attempts policy\n"
		"2 DIE missed local_load - 700.000 40 1\n"
		"4 DIE missed local_load - 900.000 50 1\n"
		"4 MC right unmoved pinned 80.000 3 0\n"
		"1 DIE no_attempt - - 1000.000 0 0\n"
		"all DIE missed local_load - 1600.000 90 1\n"
		"all MC right unmoved pinned 80.000 3 0\n"
		"all DIE no_attempt - - 1000.000 0 0\n";
	static const char none[] =
		"# sched_shadow wasted_attrib v1\n"
		"cpu domain verdict reason cause wasted_ms attempts policy\n"
		"all DIE none no_work - 0.000 0 0\n";
	struct dbgfs_table t;
	struct evidence_cause c;

	if (!tap_ok(dbgfs_parse(attrib, sizeof(attrib) - 1, "wasted_attrib", &t, NULL) == 0,
		    "fixture wasted_attrib parses"))
		return;
	tap_ok(evidence_top_cause(&t, &c) == 1 && c.found && !strcmp(c.domain, "DIE") &&
	       !strcmp(c.verdict, "missed") && !strcmp(c.reason, "local_load") && !strcmp(c.cause, "-") &&
	       c.ms == 1600 && c.attempts == 90,
	       "top cause: the largest `all` row (DIE missed/local_load, 1600 ms, 90 attempts), not cpu1's "
	       "single larger no_attempt row");
	tap_ok(c.ncpus == 2 && c.cpus[0] == 4 && c.cpus[1] == 2 && c.cpu_ms[0] == 900,
	       "its CPUs, most wasted first: 4 then 2 (got %d: %d %d)", c.ncpus, c.cpus[0], c.cpus[1]);
	tap_ok(evidence_attempt_matches(&c, 2, "DIE", "missed", "local_load", "0") &&
	       evidence_attempt_matches(&c, 4, "DIE", "missed", "local_load", "-1"),
	       "attempts behind it: destination 2 or 4, DIE, missed, local_load");
	tap_ok(!evidence_attempt_matches(&c, 3, "DIE", "missed", "local_load", "0") &&
	       !evidence_attempt_matches(&c, 2, "MC", "missed", "local_load", "0") &&
	       !evidence_attempt_matches(&c, 2, "DIE", "missed", "idle_cpus", "0") &&
	       !evidence_attempt_matches(&c, 2, "DIE", "wrong", "local_load", "0") &&
	       !evidence_attempt_matches(&c, 2, NULL, "missed", "local_load", "0"),
	       "not behind it: another destination, domain, reason or verdict, or a record without domain");
	c.ncpus = 1;
	c.cpus[0] = 4;
	snprintf(c.domain, sizeof(c.domain), "MC");
	snprintf(c.verdict, sizeof(c.verdict), "right");
	snprintf(c.reason, sizeof(c.reason), "unmoved");
	tap_ok(evidence_attempt_matches(&c, 4, "MC", "right", "-", "0") &&
	       !evidence_attempt_matches(&c, 4, "MC", "right", "-", "1") &&
	       !evidence_attempt_matches(&c, 4, "MC", "right", "-", "-1"),
	       "right/unmoved: the right pick with moved=0 only (not moved=1, not without the attempt probe)");
	snprintf(c.reason, sizeof(c.reason), "moved");
	tap_ok(evidence_attempt_matches(&c, 4, "MC", "right", "-", "2") &&
	       !evidence_attempt_matches(&c, 4, "MC", "right", "-", "0"),
	       "right/moved: moved > 0 only");
	snprintf(c.verdict, sizeof(c.verdict), "no_attempt");
	snprintf(c.reason, sizeof(c.reason), "-");
	tap_ok(!evidence_attempt_matches(&c, 4, "MC", "no_attempt", "-", "0") &&
	       !evidence_attempt_matches(&c, 4, "MC", "missed", "local_load", "0"),
	       "no_attempt: no record is behind it");
	dbgfs_free(&t);
	if (!tap_ok(dbgfs_parse(none, sizeof(none) - 1, "wasted_attrib", &t, NULL) == 0, "waste-free table parses"))
		return;
	tap_ok(evidence_top_cause(&t, &c) == 0 && !c.found, "no wasted time: no cause");
	dbgfs_free(&t);
}

static void test_run(void)
{
	static const char *const files[] = { "README.md", "attempts.txt", "trace.txt", "wasted.txt",
					     "wasted_attrib.txt", "wasted_cgroups.txt", "info.txt",
					     "kernel.txt", "topology.txt", "cgroups.txt", "report.json" };
	char dbg[256], ev[256], p[512], cmd[600], *s;
	int rc, all = 1;

	snprintf(dbg, sizeof(dbg), "%s/dbg", tmpdir);
	snprintf(ev, sizeof(ev), "%s/ev", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -r " FIX "/cli/good %s", dbg);
	if (system(cmd))
		tap_diag("copying the fixture tree failed");
	rc = run("run", "--debugfs", dbg, "--no-bpf", "--evidence", ev, "-o", "/dev/null", "--", "true", NULL);
	if (!tap_ok(rc == 0, "run --evidence DIR -- true: exit 0"))
		tap_diag("%s", cap_read_file(strcat(strcpy(p, tmpdir), "/err")));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", ev, files[i]);
		if (stat(p, &st)) {
			tap_diag("missing %s", files[i]);
			all = 0;
		}
	}
	tap_ok(all, "every evidence file written (%zu)", sizeof(files) / sizeof(files[0]));
	snprintf(p, sizeof(p), "%s/wasted_attrib.txt", ev);
	s = strdup(cap_read_file(p));
	snprintf(p, sizeof(p), "%s/wasted_attrib", dbg);
	tap_ok(s && !strcmp(s, cap_read_file(p)), "wasted_attrib.txt is the module's file, verbatim");
	free(s);
	snprintf(p, sizeof(p), "%s/README.md", ev);
	s = cap_read_file(p);
	/* fixture: cpu1 1.000 + cpu2 7970.123 ms wasted; DIE missed/local_load 7960 ms, 97 attempts */
	tap_ok(strstr(s, "waited for 7971 ms in all (wasted-core time), most on cpu2: 7970 ms of its 8000 ms") != NULL,
	       "README, sentence 1: the run's wasted-core time and where");
	tap_ok(strstr(s, "The largest share, 7960 ms, is charged to DIE missed/local_load on cpu2 (") &&
	       strstr(s, "the module counted 97 attempts for it, and attempts.txt holds the 0 lb_verdict records"),
	       "README, sentence 2: the top cause, its CPU, the module's attempts and attempts.txt's count");
	tap_ok(strstr(s, "the raw events in trace.txt (") != NULL, "README, sentence 3: where the rest is");
	snprintf(p, sizeof(p), "%s/report.json", ev);
	tap_ok(strstr(cap_read_file(p), "\"command\":\"run\"") != NULL, "report.json is run's JSON report");
	rc = run("run", "--debugfs", dbg, "--no-bpf", "--evidence", ev, "--", "true", NULL);
	snprintf(p, sizeof(p), "%s/err", tmpdir);
	tap_ok(rc != 0 && strstr(cap_read_file(p), "is not empty"), "an evidence directory that is not empty: refused");
}

/* the report's "schedstat": {...} member replaced by `with` (balanced braces) */
static int replace_schedstat(char *doc, size_t cap, const char *with)
{
	char *b = strstr(doc, "\"schedstat\":{"), *e, *rest;
	int depth = 0;

	if (!b)
		return -1;
	for (e = strchr(b, '{'); *e; e++) {
		depth += *e == '{';
		depth -= *e == '}';
		if (!depth)
			break;
	}
	if (!*e)
		return -1;
	rest = strdup(e + 1);
	if (!rest || (size_t)(b - doc) + strlen(with) + strlen(rest) + 1 > cap) {
		free(rest);
		return -1;
	}
	sprintf(b, "%s%s", with, rest);
	free(rest);
	return 0;
}

static void test_schedstat_check(void)
{
	static char doc[1 << 20];
	static const char bad[] =
		"\"schedstat\": {\"available\": true, \"reason\": null, \"note\": null, \"version\": 15, "
		"\"enabled_by_run\": false, \"jiffies\": 1500, \"reshaped\": false, \"wrapped\": false, "
		"\"domains\": ["
		"{\"domain\": \"domain0\", \"cpus\": 6, \"idle\": \"busy\", \"lb_count\": 40, \"lb_balanced\": 10, "
		"\"lb_failed\": 30, \"lb_imbalance\": 900, \"lb_gained\": 3, \"lb_hot_gained\": 5, "
		"\"lb_nobusyg\": 10, \"lb_nobusyq\": 0}, "
		"{\"domain\": \"domain0\", \"cpus\": 6, \"idle\": \"idle\", \"lb_count\": 9, \"lb_balanced\": 9, "
		"\"lb_failed\": 0, \"lb_imbalance\": 0, \"lb_gained\": 2, \"lb_hot_gained\": 2, "
		"\"lb_nobusyg\": 9, \"lb_nobusyq\": 0}]}";
	char dbg[256], in[256], p[512];
	FILE *f;
	int rc;

	snprintf(dbg, sizeof(dbg), "%s/dbg", tmpdir);
	rc = run("run", "--debugfs", dbg, "--no-bpf", "--json", "--", "true", NULL);
	snprintf(p, sizeof(p), "%s/out", tmpdir);
	snprintf(doc, sizeof(doc), "%s", cap_read_file(p));
	if (!tap_ok(rc == 0 && replace_schedstat(doc, sizeof(doc), bad) == 0,
		    "a run report with schedstat rows breaking lb_hot_gained <= lb_gained"))
		return;
	snprintf(in, sizeof(in), "%s/bad.json", tmpdir);
	f = fopen(in, "w");
	if (f) {
		fputs(doc, f);
		fclose(f);
	}
	rc = run("report", in, NULL);
	tap_ok(rc == 0 && strstr(cap_read_file(p), "inconsistent: domain0 busy lb_hot_gained 5 above lb_gained 3") &&
	       !strstr(cap_read_file(p), "inconsistent: domain0 idle"),
	       "report: one inconsistent: line, for the row that breaks it only");
	rc = run("report", "--json", in, NULL);
	tap_ok(rc == 0 && strstr(cap_read_file(p), "\"inconsistent\":[") &&
	       strstr(cap_read_file(p), "\"check\":\"lb_hot_gained <= lb_gained\""),
	       "report --json: the inconsistent member names the check");
	snprintf(p, sizeof(p), "%s/ev/report.json", tmpdir);
	tap_ok(!strstr(cap_read_file(p), "\"inconsistent\""), "a consistent report has no inconsistent member");
}

int main(void)
{
	tap_begin("evidence");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("SCHED_SHADOW_DEBUGFS");
	test_cause();
	test_run();
	test_schedstat_check();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			tap_diag("could not remove %s", tmpdir);
	}
	return tap_end();
}
