// SPDX-License-Identifier: GPL-2.0
/*
 * The report model read back and compared (report_load.c, report*.c,
 * cmd_report.c, json_parse.c), through cli_main():
 *  - the JSON reader: documents, escapes, exact 64-bit numbers, and each
 *    malformed input refused with its line and column;
 *  - `run --json` against the fixture debugfs tree, then `report --json`
 *    of that file: byte-identical; `report` (text) equal to `run`'s text
 *    but for the wall time;
 *  - `report -j` of the demo's recorded runs (docs/examples/, three a
 *    side, one document a line): byte-identical (every section, BPF
 *    histograms, the bench's result);
 *  - `compare --json` of those: every run's number, each row's median,
 *    min and max and its call recomputed from the run reports by an
 *    independent python3 script (compare_oracle.py), also for 3 runs
 *    against 2 made to differ; `compare` text and --markdown: one row per
 *    fact, the same cells;
 *  - errors: a file that is not JSON, the JSON of another command, a
 *    missing file, wrong argument counts: one line each, exit 1 or 64.
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
#include "cli/formats/json_parse.h"
#include "cli/report/report_wasted_why.h"

#define FIX "tests/unit/fixtures"

static char out[1 << 20], err[1 << 14];
static char tmpdir[] = "/tmp/test_report.XXXXXX";

CAP_DEFINE_RUN(tmpdir, out, sizeof(out), err, sizeof(err))

static int lines_with(const char *s, const char *prefix)
{
	int n = 0;

	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

/* Text without the line holding "wall time" (differs between two runs). */
static void drop_wall(char *s)
{
	char *p = strstr(s, "wall time"), *b, *e;

	if (!p)
		return;
	for (b = p; b > s && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	memmove(b, e ? e + 1 : p + strlen(p), strlen(e ? e + 1 : p + strlen(p)) + 1);
}

/* The explained line: each row in its part, the parts adding up, the largest causes first. */
static void test_why(void)
{
	static const char attrib[] =
		"# sched_shadow wasted_attrib v1\n"
		"cpu domain verdict reason cause wasted_ms attempts policy\n"
		"1 DIE wakeup affine above_llc 999.000 0 0\n"
		"all DIE wakeup affine above_llc 300.000 0 0\n"
		"all MC wakeup same_llc llc 100.000 0 0\n"
		"all DIE missed local_load - 150.000 9 1\n"
		"all DIE right unmoved cache_hot 50.000 3 1\n"
		"all DIE no_attempt nohz_no_kick - 120.000 0 0\n"
		"all MC no_attempt newidle_skipped - 60.000 0 0\n"
		"all MC no_attempt newidle_ratio - 20.000 0 0\n"
		"all DIE no_attempt interval - 70.000 0 0\n"
		"all MC no_attempt tick_late - 30.000 0 0\n"
		"all DIE no_attempt unknown tick_overdue 30.000 0 0\n"
		"all DIE no_attempt - - 5.000 0 0\n"
		"all DIE void reset - 5.000 1 0\n"
		"all - other - - 10.000 0 0\n"
		"all MC none no_work - 50.000 4 0\n";
	struct dbgfs_table t;
	struct wasted_why w;
	char line[256];

	if (!tap_ok(!dbgfs_parse(attrib, sizeof(attrib) - 1, "wasted_attrib", &t, NULL),
		    "explained: the attribution table parses"))
		return;
	wasted_why_of(&t, &w);
	wasted_why_line(line, sizeof(line), &w);
	tap_ok(w.have && w.total_ms == 1000 && w.wakeup_ms == 400 && w.balancing_ms == 200 &&
	       w.nohz_ms == 120 && w.newidle_ms == 80 && w.interval_ms == 100 && w.unknown_ms == 50 &&
	       w.no_work_ms == 50,
	       "explained: the `all` rows only, each in its part (interval: with tick_late; unknown: no_attempt/unknown, the old `-`, void, other)");
	tap_ok(!strcmp(line, "wasted-core time explained: 90% (wakeup 40%, balancing 20%, no attempt: nohz 12%, "
		       "newidle skipped 8%, interval 10%, unknown 5%; audit saw no work 5%)"),
	       "explained: the line (%s)", line);
	tap_ok(w.ntop == 3 && !strcmp(w.top[0].name, "DIE.wakeup/affine/above_llc") &&
	       !strcmp(w.top[1].name, "DIE.missed/local_load") &&
	       !strcmp(w.top[2].name, "DIE.no_attempt/nohz_no_kick") && w.top[2].ms == 120,
	       "explained: the three largest causes, largest first (%s, %s, %s)", w.top[0].name,
	       w.top[1].name, w.top[2].name);
	dbgfs_free(&t);
}

static void test_parser(void)
{
	char e[256];
	struct jv *v;
	uint64_t u;
	int64_t s;

	const char *doc = "{\"a\": [1, -2, 3.5e1, true, false, null], \"b\": \"x\\u00e9\\ud83d\\ude00\\n\","
			  " \"big\": 18446744073709551615}";

	v = jv_parse(doc, strlen(doc), e, sizeof(e));
	tap_ok(v != NULL, "a document with every kind of value parses (%s)", v ? "ok" : e);
	tap_ok(v && !jv_s64(jv_at(jv_get(v, "a"), 1), &s) && s == -2 &&
	       jv_at(jv_get(v, "a"), 2)->num == 35.0 && jv_at(jv_get(v, "a"), 3)->b == 1 &&
	       jv_is_null(jv_at(jv_get(v, "a"), 5)) && !jv_at(jv_get(v, "a"), 6),
	       "array members read back with their types");
	tap_ok(v && !strcmp(jv_str(jv_get(v, "b")), "x\xc3\xa9\xf0\x9f\x98\x80\n"),
	       "\\u escapes become UTF-8, a surrogate pair one 4-byte character");
	tap_ok(v && !jv_u64(jv_get(v, "big"), &u) && u == 18446744073709551615ULL,
	       "2^64-1 reads back exactly (the literal is kept)");
	tap_ok(v && jv_u64(jv_at(jv_get(v, "a"), 1), &u) && jv_u64(jv_at(jv_get(v, "a"), 2), &u),
	       "a negative or fractional number is not a u64");
	jv_free(v);

	{
		static const struct { const char *doc, *msg; } bad[] = {
			{ "", "unexpected end of input" },
			{ "{\"a\" 1}", "line 1, column 6: expected ':'" },
			{ "[1,\n 2,\n x]", "line 3, column 2: unexpected character 'x'" },
			{ "[1 2]", "expected ',' or ']'" },
			{ "\"abc", "unterminated string" },
			{ "\"a\\qb\"", "bad escape" },
			{ "\"\\u0000\"", "NUL character" },
			{ "\"\\udc00\"", "bad escape" },
			{ "01", "text after the document" },
			{ "1.", "bad number" },
			{ "{} {}", "text after the document" },
			{ "\"a\tb\"", "control character" },
		};
		int ok = 1;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			v = jv_parse(bad[i].doc, strlen(bad[i].doc), e, sizeof(e));
			if (v || !strstr(e, bad[i].msg)) {
				tap_diag("'%s': got %s", bad[i].doc, v ? "a value" : e);
				ok = 0;
			}
			jv_free(v);
		}
		tap_ok(ok, "12 malformed documents refused, each with its reason and position");
	}
	{
		char deep[200];

		memset(deep, '[', 100);
		memset(deep + 100, ']', 100);
		v = jv_parse(deep, 200, e, sizeof(e));
		tap_ok(!v && strstr(e, "nested deeper than 64"), "nesting beyond 64 levels refused (%s)",
		       v ? "parsed" : e);
		jv_free(v);
	}
}

int main(void)
{
	char path[256], a[256], b[256], cmp[300], cmd[4096], dbg[256], *text;
	int rc;

	tap_begin("report");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("SCHED_SHADOW_DEBUGFS");
	test_parser();
	test_why();

	/* run against the fixture tree, then report of its JSON */
	snprintf(dbg, sizeof(dbg), "%s/dbg", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp -r " FIX "/cli/good %s", dbg);
	if (system(cmd))
		tap_diag("copying the fixture tree failed");
	snprintf(path, sizeof(path), "%s/run.json", tmpdir);
	rc = run("run", "--debugfs", dbg, "--no-bpf", "--label", "fx", "--note", "a note", "--json",
		 "--", "true", NULL);
	cap_write_file(path, out);
	if (!tap_ok(rc == 0 && strstr(out, "\"label\":\"fx\"") && strstr(out, "\"note\":\"a note\""),
		    "run --json --label --note: exit 0, both in the report"))
		tap_diag("rc %d: %s", rc, err);
	/* the wasted section of the fixture tree (fixtures/cli/good/wasted*) */
	tap_ok(strstr(out, "\"policy_top\":{") && strstr(out, "\"policy\":\"DIE.missed/local_load\"") &&
	       strstr(out, "\"wait_ms\":300") && strstr(out, "\"balancer_ms\":100") &&
	       strstr(out, "\"capacity_ms\":200") && strstr(out, "\"wasted_ms\":7970.123") &&
	       strstr(out, "\"explained_pct\":") && strstr(out, "\"top_causes\":[") &&
	       strstr(out, "\"cause\":\"DIE.missed/local_load\""),
	       "run --json: the wasted section (headline policy, explained share, largest causes, the command's wait split, the tables)");
	rc = run("report", "--json", path, NULL);
	tap_ok(rc == 0 && !strcmp(out, cap_read_file(path)),
	       "report --json of run's JSON is byte-identical (%zu bytes)", strlen(out));
	rc = run("compare", path, path, NULL);
	tap_ok(rc == 0 && strstr(out, "an allowed CPU idle: the balancer's") &&
	       strstr(out, "100 (33%)") && strstr(out, "all allowed busy: capacity, shares") &&
	       strstr(out, "200 (67%)") && strstr(out, "DIE.missed/local_load 7960") &&
	       strstr(out, "second minus first: total +0, the balancer's share +0, capacity and "
		       "shares +0 (task-ms)") &&
	       strstr(out, "the extra wait is: not called: one run per side") &&
	       strstr(out, "wasted-core time explained") && strstr(out, "cause #1"),
	       "compare: the wait split of the command, wasted-core time, its explained share and causes, "
	       "the policy that wasted it; one run per side: the difference not called");
	rc = run("run", "--debugfs", dbg, "--no-bpf", "--label", "fx", "--note", "a note", "--",
		 "true", NULL);
	text = strdup(out);
	rc |= run("report", path, NULL);
	drop_wall(text);
	drop_wall(out);
	tap_ok(rc == 0 && text && !strcmp(text, out) && strstr(out, "headline:") &&
	       strstr(out, "wasted-core time explained: 100% (wakeup 0%, balancing 100%,") &&
	       strstr(out, "largest causes (of "),
	       "report (text) prints what run printed, but for the wall time (%d lines)", cap_lines(out));
	free(text);
	rc = run("report", "--prom", path, NULL);
	tap_ok(rc == 0 && strstr(out, "sched_shadow_lb_calls_total") &&
	       strstr(out, "sched_shadow_wasted_explained_ratio{part=\"explained\"}") &&
	       strstr(out, "sched_shadow_run_source_available{source=\"module\"} 1"),
	       "report --prom: the lb families and the sources");

	/* the demo's recorded runs (make demo DEMO_DOCS=1): three root, three nested */
	snprintf(a, sizeof(a), "docs/examples/demo-root.json");
	snprintf(b, sizeof(b), "docs/examples/demo-nested.json");
	rc = run("report", "-j", a, NULL);
	tap_ok(rc == 0 && !strcmp(out, cap_read_file(a)) && cap_lines(out) == 3,
	       "report -j of the recorded root runs (3 documents, one a line) is byte-identical (%zu bytes)",
	       strlen(out));
	rc = run("report", "-j", b, NULL);
	tap_ok(rc == 0 && !strcmp(out, cap_read_file(b)),
	       "report -j of the recorded nested runs is byte-identical (%zu bytes)", strlen(out));
	rc = run("report", b, NULL);
	tap_ok(rc == 0 && strstr(out, "sched-shadow run report: nested\n") &&
	       strstr(out, "== the command's own result (") && strstr(out, "wakeup latency (us;") &&
	       strstr(out, "== wakeup latency per cgroup (BPF) ==") &&
	       strstr(out, "== /proc/schedstat load-balance deltas"),
	       "report (text) of the nested run: label, the bench's result, BPF, schedstat");

	snprintf(cmp, sizeof(cmp), "%s/compare.json", tmpdir);
	rc = run("compare", "--json", a, b, NULL);
	cap_write_file(cmp, out);
	tap_ok(rc == 0 && strstr(out, "\"command\":\"compare\""), "compare --json: exit 0");
	if (system("python3 -c '' >/dev/null 2>&1")) {
		tap_skip("compare --json equals an independent computation", "python3 not found");
	} else {
		char res[256];
		FILE *p;

		snprintf(cmd, sizeof(cmd), "python3 tests/unit/compare_oracle.py %s %s -- %s 2>&1", cmp, a, b);
		p = popen(cmd, "r");
		res[0] = 0;
		while (p && fgets(res, sizeof(res), p))
			if (strncmp(res, "mismatch", 8) == 0)
				tap_diag("%s", res);
		rc = p ? pclose(p) : -1;
		tap_ok(rc == 0, "compare --json of 3 runs against 3: every number equals "
		       "compare_oracle.py's from the run reports (%s)", strtok(res, "\n") ? res : "no output");
	}
	/*
	 * Repeats: three root runs against two nested ones (variants of the
	 * recorded runs: the nested p99 twice the root's, the requests/s of
	 * the two sides overlapping), as files on each side of --, and as one
	 * file of several documents per side: the same comparison.
	 */
	if (system("python3 -c '' >/dev/null 2>&1")) {
		tap_skip("compare of repeats", "python3 not found");
	} else {
		char res[256], rs[6][300], j1[160], j2[160];
		FILE *p;

		for (int k = 0; k < 5; k++)
			snprintf(rs[k], sizeof(rs[k]), "%s/%s%d.json", tmpdir, k < 3 ? "r" : "n", k < 3 ? k + 1 : k - 2);
		snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys\n"
			 "a, b, d = [json.loads(open(f).readline()) for f in sys.argv[1:3]] + [sys.argv[3]]\n"
			 "p99, rps = a[\"result\"][\"document\"][\"latency_us\"][\"p99\"], a[\"result\"][\"document\"][\"rps\"]\n"
			 "for name, base, f, g in ((\"r1\", a, 1.0, 1.0), (\"r2\", a, 1.02, 1.3), (\"r3\", a, 0.98, 0.7),\n"
			 "                         (\"n1\", b, 2.0, 1.1), (\"n2\", b, 2.1, 0.9)):\n"
			 "    base[\"result\"][\"document\"][\"latency_us\"][\"p99\"] = int(p99 * f)\n"
			 "    base[\"result\"][\"document\"][\"rps\"] = rps * g\n"
			 "    json.dump(base, open(d + \"/\" + name + \".json\", \"w\"))\n"
			 "    open(d + \"/\" + name[0] + \"-all.json\", \"a\").write(json.dumps(base) + \"\\n\")\n' %s %s %s",
			 a, b, tmpdir);
		rc = system(cmd);
		snprintf(j1, sizeof(j1), "%s/r-all.json", tmpdir);
		snprintf(j2, sizeof(j2), "%s/n-all.json", tmpdir);
		rc |= run("compare", "--json", rs[0], rs[1], rs[2], "--", rs[3], rs[4], NULL);
		cap_write_file(cmp, out);
		snprintf(cmd, sizeof(cmd), "python3 tests/unit/compare_oracle.py %s %s %s %s -- %s %s 2>&1",
			 cmp, rs[0], rs[1], rs[2], rs[3], rs[4]);
		p = popen(cmd, "r");
		res[0] = 0;
		while (p && fgets(res, sizeof(res), p))
			if (strncmp(res, "mismatch", 8) == 0)
				tap_diag("%s", res);
		rc |= p ? pclose(p) : -1;
		tap_ok(rc == 0 && strstr(res, "higher") && strstr(res, "within noise"),
		       "compare --json of 3 runs against 2: each run's values, median, min, max and the "
		       "calls equal compare_oracle.py's (%s)", strtok(res, "\n") ? res : "no output");
		rc = run("compare", rs[0], rs[1], rs[2], "--", rs[3], rs[4], NULL);
		text = strdup(out);
		rc |= run("compare", j1, j2, NULL);
		tap_ok(rc == 0 && text && !strcmp(text, out),
		       "... the same side by side from one file of three documents and one of two");
		free(text);
		tap_ok(rc == 0 && strstr(out, "runs: 3 and 2; a cell of several runs is their median [min..max]") &&
		       strstr(out, " difference\n") && strstr(out, "within noise") &&
		       strstr(out, "p99 ") && strstr(out, "(+10"),
		       "compare (text) of repeats: the runs line, medians with ranges, the difference column");
		rc = run("report", j1, NULL);
		tap_ok(rc == 0 && strstr(out, "sched-shadow run report: root\n") &&
		       lines_with(out, "sched-shadow run report: ") == 3,
		       "report of a file of three runs: three reports");
	}
	rc = run("compare", a, b, NULL);
	text = strdup(out);
	tap_ok(rc == 0 && strstr(out, "== sched-shadow compare: root vs nested, side by side ==") &&
	       strstr(out, "root: bench in /,") && strstr(out, "nested: bench in /demo/a/b,") &&
	       strstr(out, "bench: 2 message threads x 6 workers") &&
	       strstr(out, "wakeup latency, bench's own") && strstr(out, "headline: unexplained wrong") &&
	       strstr(out, "what each tracker would have picked") &&
	       strstr(out, "gap: blocked load (real - fresh)"),
	       "compare (text): the demo's side by side, every group present");
	rc = run("compare", "--markdown", a, b, NULL);
	{
		int md_rows = 0, txt_rows = 0;

		for (char *p = out; (p = strstr(p, "\n| ")); p++)
			md_rows++;
		/* text rows: lines after the column header that are not titles or blank */
		for (char *p = strstr(text ? text : "", "cgroup of the command"); p && *p;
		     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			txt_rows += *p != '\n' && *p != '\0';
		tap_ok(rc == 0 && strstr(out, "| | root | nested | difference |\n|---|---:|---:|---:|") &&
		       md_rows == txt_rows + 1,
		       "compare --markdown: one table, a row per text line (%d and %d)", md_rows,
		       txt_rows);
	}
	free(text);

	/* the model's agreement, when the module's info has it (the examples' does) */
	snprintf(path, sizeof(path), "%s/noagree.json", tmpdir);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys\n"
		 "for l in open(sys.argv[1]):\n"
		 "    d = json.loads(l); i = d[\"module\"][\"info\"]; i[\"lb_model_agree\"] = \"950\"; "
		 "i[\"lb_model_disagree\"] = \"12\"; print(json.dumps(d))' %s > %s.agree && "
		 "python3 -c 'import json, sys\n"
		 "for l in open(sys.argv[1]):\n"
		 "    d = json.loads(l); [d[\"module\"][\"info\"].pop(k) for k in (\"lb_model_agree\", "
		 "\"lb_model_disagree\")]; print(json.dumps(d))' %s > %s", b, path, b, path);
	rc = system(cmd);
	snprintf(cmp, sizeof(cmp), "%s.agree", path);
	rc |= run("compare", a, cmp, NULL);
	tap_ok(rc == 0 && strstr(out, "model agrees/disagrees with the kernel's pick") &&
	       strstr(out, "950/12 [950..950]"),
	       "compare: the model's agreement (info lb_model_agree/disagree) when a run has it");
	rc = run("compare", path, path, NULL);
	tap_ok(rc == 0 && !strstr(out, "model agrees"), "... and no such row when neither has it");

	/* errors */
	snprintf(path, sizeof(path), "%s/bad.json", tmpdir);
	cap_write_file(path, "{\"schema\": \"sched_shadow/v1\",\n \"command\": run}\n");
	rc = run("report", path, NULL);
	if (!tap_ok(rc == 1 && strstr(err, "not JSON: line 2, column 13: unexpected character 'r'") &&
		    cap_lines(err) == 1 && !out[0],
		    "report of a malformed file: one line with the position, exit 1"))
		tap_diag("rc %d: %s", rc, err);
	cap_write_file(path, "{\"schema\": \"sched_shadow/v1\", \"command\": \"bench\"}\n");
	rc = run("report", path, NULL);
	tap_ok(rc == 1 && strstr(err, "the output of `bench`, not of `run --json`"),
	       "report of bench's JSON: says whose output it is, exit 1");
	cap_write_file(path, "{\"schema\": \"sched_shadow/v1\", \"command\": \"run\", \"cmd\": [\"x\"],"
		   " \"exit_status\": 0, \"wall_s\": 1, \"cgroup\": null}\n");
	rc = run("report", path, NULL);
	tap_ok(rc == 1 && strstr(err, "module: missing"), "a run report without its sections: refused");
	rc = run("report", "/nonexistent/x.json", NULL);
	tap_ok(rc == 1 && strstr(err, "/nonexistent/x.json: No such file"), "a missing file: exit 1");
	rc = run("compare", a, NULL);
	tap_ok(rc == 64 && strstr(err, "needs two FILEs"), "compare with one file: usage error 64");
	rc = run("compare", "--json", "--markdown", a, b, NULL);
	tap_ok(rc == 64, "compare --json --markdown: usage error 64");
	rc = run("report", NULL);
	tap_ok(rc == 64, "report without a file: usage error 64");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		tap_diag("could not remove %s", tmpdir);
	return tap_end();
}
