// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto traces (`record --perfetto`, pfrec.c, pftrace.c, lbtrace.c):
 *  - the lb_verdict line parser on tracefs-formatted records;
 *  - `record -o CSV --perfetto TRACE` against the fixture debugfs tree:
 *    the trace is decoded with `protoc --decode` against the project's
 *    .proto and every CSV cell is checked against the counter track of
 *    the same CPU and column at the same sample (same samples, same
 *    numbers, `-` = no value); the cgroup tracks against the groups file;
 *  - verdict instants on the destination CPU's track with their fields;
 *  - bad options and unwritable places: one-line error, non-zero exit,
 *    no trace and no temporary file left behind;
 *  (run's --perfetto/--interval parsing: test_bench_args.c.)
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"

#include "cli/cli.h"
#include "cli_capture.h"
#include "cli/sources/lbtrace.h"
#include "cli/perfetto/pfrec.h"
#include "cli/features.h"
/* the CLI is linked (unit.mk) */

#define FIX "tests/unit/fixtures/cli"
#define PROTO_DIR "userspace/cli/perfetto"
#define PROTO PROTO_DIR "/perfetto_trace.proto"

static char err[1 << 14];
static char tmpdir[] = "/tmp/test_perfetto.XXXXXX";

CAP_DEFINE_RUN(tmpdir, NULL, 0, err, sizeof(err))

/* ------------------------------------------------------------ decoded trace */

struct dtrack {
	unsigned long long uuid, parent;
	char name[128];
	int counter;
};
struct devent {
	unsigned long long ts, track;
	char type[32], name[128];
	long long value;
	int has_value;
	char args[1024];	/* "key=value;" of the debug annotations, nested as a.b */
	int seq;		/* trusted_packet_sequence_id of its packet */
};
static struct dtrack tracks[256];
static struct devent events[4096];
static int ntracks, nevents, npackets, seqflags_first, seqid_all;
static int seq_seen[4], seq_backward;	/* sequences present; timestamps going back within one */

static void unquote(const char *s, char *out, size_t len)
{
	size_t o = 0;

	if (*s == '"')
		s++;
	for (; *s && *s != '"' && o + 1 < len; s++) {
		if (*s == '\\' && s[1])
			s++;
		out[o++] = *s;
	}
	out[o] = 0;
}

/* Decode `path` with protoc against our .proto and load it; 0 on success. */
static int decode(const char *path)
{
	char cmd[512], line[1024], stack[16][40], argname[8][64], argval[8][128];
	int depth = 0, adepth = 0, in_packet = 0;
	struct dtrack *t = NULL;
	struct devent *e = NULL;
	unsigned long long ts = 0, last_ts[4] = { 0 };
	int has_ts = 0, seq = 0, flags = 0;
	FILE *p;

	ntracks = nevents = npackets = 0;
	seqflags_first = 1;	/* every sequence's first packet clears the incremental state */
	seqid_all = 1;
	seq_backward = 0;
	memset(seq_seen, 0, sizeof(seq_seen));
	snprintf(cmd, sizeof(cmd), "protoc --decode=perfetto.protos.Trace -I%s %s < %s 2>&1",
		 PROTO_DIR, PROTO, path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *s = line, *v;

		while (*s == ' ')
			s++;
		s[strcspn(s, "\n")] = 0;
		if (!*s)
			continue;
		if (!strcmp(s, "}")) {
			/* an annotation closes: its name came after its value */
			if (depth > 0 && adepth > 0 && e && (!strcmp(stack[depth], "debug_annotations") ||
							      !strcmp(stack[depth], "dict_entries"))) {
				char full[256] = "";
				size_t l = strlen(e->args);

				for (int i = 0; i < adepth; i++) {
					strncat(full, argname[i], sizeof(full) - strlen(full) - 2);
					if (i + 1 < adepth)
						strcat(full, ".");
				}
				if (argval[adepth - 1][0] != 1)	/* dictionaries have no value */
					snprintf(e->args + l, sizeof(e->args) - l, "%s=%s;", full,
						 argval[adepth - 1]);
				adepth--;
			}
			if (depth > 0)
				depth--;
			if (depth == 0 && in_packet) {
				in_packet = 0;
				if (seq < 1 || seq > 3) {
					seqid_all = 0;
				} else {
					if (!seq_seen[seq] && flags != 1)
						seqflags_first = 0;
					seq_seen[seq] = 1;
					if (has_ts) {
						if (ts < last_ts[seq])
							seq_backward++;
						last_ts[seq] = ts;
					}
				}
				if (e) {
					e->ts = ts;
					e->seq = seq;
					if (!has_ts)
						e->ts = ~0ull;
				}
			}
			continue;
		}
		v = strstr(s, " {");
		if (v && v[2] == 0) {
			*v = 0;
			if (depth < 15)
				snprintf(stack[++depth], sizeof(stack[0]), "%.39s", s);
			if (!strcmp(s, "packet")) {
				in_packet = 1;
				npackets++;
				t = NULL;
				e = NULL;
				has_ts = 0;
				seq = 0;
				flags = 0;
			} else if (!strcmp(s, "track_descriptor") && ntracks < 256) {
				t = &tracks[ntracks++];
				memset(t, 0, sizeof(*t));
			} else if (!strcmp(s, "track_event") && nevents < 4096) {
				e = &events[nevents++];
				memset(e, 0, sizeof(*e));
			} else if (!strcmp(s, "counter") && t) {
				t->counter = 1;
			} else if (!strcmp(s, "debug_annotations") || !strcmp(s, "dict_entries")) {
				if (adepth > 0)
					argval[adepth - 1][0] = 1;	/* a dictionary */
				if (adepth < 7) {
					argname[adepth][0] = 0;
					argval[adepth++][0] = 0;
				}
			}
			continue;
		}
		v = strchr(s, ':');
		if (!v)
			continue;
		*v++ = 0;
		while (*v == ' ')
			v++;
		if (depth == 1) {
			if (!strcmp(s, "timestamp")) {
				ts = strtoull(v, NULL, 10);
				has_ts = 1;
			} else if (!strcmp(s, "sequence_flags")) {
				flags = atoi(v);
			} else if (!strcmp(s, "trusted_packet_sequence_id")) {
				seq = atoi(v);
			}
		} else if (!strcmp(stack[depth], "track_descriptor") && t) {
			if (!strcmp(s, "uuid"))
				t->uuid = strtoull(v, NULL, 10);
			else if (!strcmp(s, "parent_uuid"))
				t->parent = strtoull(v, NULL, 10);
			else if (!strcmp(s, "name"))
				unquote(v, t->name, sizeof(t->name));
		} else if (!strcmp(stack[depth], "track_event") && e) {
			if (!strcmp(s, "type"))
				snprintf(e->type, sizeof(e->type), "%s", v);
			else if (!strcmp(s, "track_uuid"))
				e->track = strtoull(v, NULL, 10);
			else if (!strcmp(s, "counter_value")) {
				e->value = strtoll(v, NULL, 10);
				e->has_value = 1;
			} else if (!strcmp(s, "name"))
				unquote(v, e->name, sizeof(e->name));
		} else if (e && adepth > 0) {
			if (!strcmp(s, "name"))
				unquote(v, argname[adepth - 1], sizeof(argname[0]));
			else
				unquote(v, argval[adepth - 1], sizeof(argval[0]));
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

static const struct dtrack *track_named(const char *name)
{
	for (int i = 0; i < ntracks; i++)
		if (!strcmp(tracks[i].name, name))
			return &tracks[i];
	return NULL;
}

/* Sorted distinct timestamps of counter events. */
static int sample_times(unsigned long long *ts, int max)
{
	int n = 0;

	for (int i = 0; i < nevents; i++) {
		int j;

		if (strcmp(events[i].type, "TYPE_COUNTER"))
			continue;
		for (j = 0; j < n && ts[j] != events[i].ts; j++)
			;
		if (j == n && n < max)
			ts[n++] = events[i].ts;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ts[j - 1] > ts[j]; j--) {
			unsigned long long x = ts[j];

			ts[j] = ts[j - 1];
			ts[j - 1] = x;
		}
	return n;
}

/* Counter value of track `name` at ts: 1 found (value in *v), 0 none, -1 several. */
static int value_at(const char *name, unsigned long long ts, long long *v)
{
	const struct dtrack *t = track_named(name);
	int found = 0;

	if (!t)
		return 0;
	for (int i = 0; i < nevents; i++) {
		if (events[i].track != t->uuid || events[i].ts != ts ||
		    strcmp(events[i].type, "TYPE_COUNTER"))
			continue;
		if (found)
			return -1;
		*v = events[i].value;
		found = 1;
	}
	return found;
}

static int no_temp_left(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int clean = 1;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".pftrace.") || strstr(de->d_name, ".perfetto-trace."))
			clean = 0;
	closedir(d);
	return clean;
}

/* ------------------------------------------------------------ tests */

static void test_parse(void)
{
	struct lbv_event e;
	const char *l1 = "          <idle>-0       [002] d.s2.   123.456789: lb_verdict: dst_cpu=2 "
		"domain=MC idle=newidle verdict=wrong pick=4 kernel=4 shadow=0 shadow_avg=4 weight=4 nr=0\n";
	const char *l2 = "  kworker/1:1-77 [001] ..... 5.000001: lb_verdict: dst_cpu=1 domain=PKG "
		"idle=idle verdict=missed reason=has_spare pick=-1 expected=3 extra_state=x";

	tap_ok(lbv_parse_line(l1, &e) == 0 && e.dst_cpu == 2 && e.ts_ns == 123456789000ull &&
	       e.nfields == 10, "lb_verdict line: timestamp, dst_cpu and 10 fields");
	tap_ok(!strcmp(lbv_get(&e, "domain"), "MC") && !strcmp(lbv_get(&e, "idle"), "newidle") &&
	       !strcmp(lbv_get(&e, "verdict"), "wrong") && !strcmp(lbv_get(&e, "pick"), "4") &&
	       !lbv_get(&e, "reason"), "lb_verdict line: fields by name, no reason in this one");
	lbv_free(&e);
	tap_ok(lbv_parse_line(l2, &e) == 0 && e.dst_cpu == 1 && e.ts_ns == 5000001000ull &&
	       !strcmp(lbv_get(&e, "reason"), "has_spare") && !strcmp(lbv_get(&e, "expected"), "3") &&
	       !strcmp(lbv_get(&e, "extra_state"), "x"),
	       "lb_verdict line: reason, expected and unknown extra fields kept");
	lbv_free(&e);
	{
		/* a field of 3000 bytes and 70 fields: nothing cut, what is not kept counted */
		static char l3[8000];
		size_t o;

		o = (size_t)snprintf(l3, sizeof(l3), "  x-1 [000] ..... 7.000001: lb_verdict: dst_cpu=0 groups=");
		for (int i = 0; i < 750; i++)
			o += (size_t)snprintf(l3 + o, sizeof(l3) - o, "%03d,", i % 10 * 100);
		for (int i = 0; i < 70; i++)
			o += (size_t)snprintf(l3 + o, sizeof(l3) - o, " f%d=%d", i, i);
		snprintf(l3 + o, sizeof(l3) - o, " notafield\n");
		int rc3 = lbv_parse_line(l3, &e);

		tap_ok(rc3 == 0 && strlen(lbv_get(&e, "groups")) == 3000 &&
		       e.nfields == LBV_MAX_FIELDS && e.dropped == 72 - LBV_MAX_FIELDS + 1,
		       "lb_verdict line: a 3000-byte value kept whole; fields past %d and a token that "
		       "is not key=value counted (%d dropped)", LBV_MAX_FIELDS, e.dropped);
		lbv_free(&e);
	}
	tap_ok(lbv_parse_line("# tracer: nop", &e) < 0 &&
	       lbv_parse_line("  x-1 [000] ..... 1.5: sched_load_cfs_rq: cpu=0 path=/", &e) < 0 &&
	       lbv_parse_line("  x-1 [000] ..... 1.x5: lb_verdict: dst_cpu=0", &e) < 0 &&
	       lbv_parse_line("  x-1 [000] ..... 1.5: lb_verdict: domain=MC", &e) < 0 &&
	       lbv_parse_line("  x-1 [000] ..... 1.5: lb_verdict: dst_cpu=-3", &e) < 0 &&
	       lbv_parse_line("lb_verdict: dst_cpu=0", &e) < 0,
	       "lb_verdict parser rejects other events, bad timestamps, missing or bad dst_cpu");
}

/* CSV of `record` (CLI_RECORD_HEADER) against the decoded trace. */
static void test_record(void)
{
	static const char *const cols[] = { "load_avg", "runnable_avg", "util_avg", "shadow",
		"shadow_avg", "nr_running" };
	static const int col_in_csv[] = { 2, 3, 4, 5, 6, 7 };
	unsigned long long ts[64];
	char csv[128], tr[128], line[512];
	int rc, ns, rows = 0, checked = 0, bad = 0, empty = 0, emptyok = 0, trow, ntimes = 0;
	double times[64];
	long long v;
	FILE *f;

	snprintf(csv, sizeof(csv), "%s/rec.csv", tmpdir);
	snprintf(tr, sizeof(tr), "%s/rec.pftrace", tmpdir);
	rc = run("--debugfs", FIX "/good", "record", "-i", "0.05", "-n", "3", "-o", csv,
		 "--perfetto", tr, NULL);
	tap_ok(rc == 0 && strstr(err, "recorded 3 samples"), "record -o CSV --perfetto TRACE: exit 0 (rc=%d)", rc);
	if (rc)
		tap_diag("%s", err);
	rc = decode(tr);
	tap_ok(rc == 0 && npackets > 0, "protoc --decode reads the trace with the project's .proto (%d packets)", npackets);
	tap_ok(seqflags_first == 1 && seqid_all && seq_seen[1] && !seq_backward,
	       "every packet on a sequence (1: samples), whose first packet clears the incremental "
	       "state, in timestamp order");
	ns = sample_times(ts, 64);
	tap_ok(ns == 3, "3 samples in the trace (%d distinct counter timestamps)", ns);
	tap_ok(track_named("CPU 0") && !track_named("CPU 0")->counter && track_named("cpu0 shadow") &&
	       track_named("cpu0 shadow")->counter && track_named("cpu0 shadow")->parent == track_named("CPU 0")->uuid,
	       "tracks: 'CPU 0' (instants) holds counter track 'cpu0 shadow'");
	tap_ok(track_named("cpu3 movable") && track_named("cpu2 h_nr_running") && track_named("cpu0 h_load"),
	       "per-CPU counter tracks follow the cpus columns (movable, h_nr_running, h_load)");

	/* every CSV cell: same sample index, same number; empty cell = no value */
	f = fopen(csv, "r");
	if (f && fgets(line, sizeof(line), f)) {
		while (fgets(line, sizeof(line), f)) {
			char *cell[16], *p = line;
			int n = 0, cpu, k;
			double t;

			line[strcspn(line, "\n")] = 0;
			while (n < 16) {
				cell[n++] = p;
				p = strchr(p, ',');
				if (!p)
					break;
				*p++ = 0;
			}
			rows++;
			t = atof(cell[0]);
			cpu = atoi(cell[1]);
			/* the n-th distinct time_s is the n-th sample */
			for (trow = 0; trow < ntimes && times[trow] != t; trow++)
				;
			if (trow == ntimes && ntimes < 64)
				times[ntimes++] = t;
			if (trow >= ns) {
				bad++;
				continue;
			}
			/* time_s is seconds since the first sample, to the ms */
			{
				double dt = (double)(ts[trow] - ts[0]) / 1e9 - t;

				if (dt > 0.0015 || dt < -0.0015) {
					bad++;
					tap_diag("sample %d: trace %.4f s after the first, csv %.3f",
						 trow, dt + t, t);
				}
			}
			for (k = 0; k < 6; k++) {
				char name[64];
				int got;

				snprintf(name, sizeof(name), "cpu%d %s", cpu, cols[k]);
				got = value_at(name, ts[trow], &v);
				if (!*cell[col_in_csv[k]]) {
					empty++;
					/* runnable_avg/util_avg have no track; others must be silent */
					if (got == 0)
						emptyok++;
					continue;
				}
				if (!strcmp(cols[k], "runnable_avg") || !strcmp(cols[k], "util_avg"))
					continue;
				checked++;
				if (got != 1 || v != atoll(cell[col_in_csv[k]])) {
					bad++;
					if (bad < 4)
						tap_diag("%s at sample %d: csv %s, trace %s %lld", name, trow,
							 cell[col_in_csv[k]], got == 1 ? "value" : "none", v);
				}
			}
		}
	}
	if (f)
		fclose(f);
	tap_ok(rows == 12 && checked == 36 && bad == 0,
	       "every CSV value (3 samples x 3 online CPUs x 4 tracked columns) equals its trace counter at the same sample (%d rows, %d checked, %d differ)",
	       rows, checked, bad);
	tap_ok(empty == 18 && emptyok == 18, "empty CSV cells (offline CPU 3) have no trace value (%d/%d)", emptyok, empty);

	/* cgroup levels: the groups fixture, same at each sample */
	{
		int okg = 1;

		for (int i = 0; i < ns; i++) {
			okg &= value_at("cpu0 /bench group shadow", ts[i], &v) == 1 && v == 511;
			okg &= value_at("cpu0 /bench group load_avg", ts[i], &v) == 1 && v == 1100;
			okg &= value_at("cpu0 / shadow", ts[i], &v) == 1 && v == 1023;
			okg &= value_at("cpu2 / load_avg", ts[i], &v) == 1 && v == 12;
		}
		tap_ok(okg && ns == 3 && track_named("cpu0 /bench group shadow")->parent ==
		       track_named("CPU 0")->uuid,
		       "cgroup tracks named by unescaped path under their CPU, values of the groups file");
	}
	tap_ok(!strstr(err, "not in the trace") || strstr(err, "lb verdicts not in the trace: "),
	       "without the lb_verdict event the recording goes on and says why");
	tap_ok(no_temp_left(tmpdir), "no temporary file left beside the trace");
}

static void test_verdicts(void)
{
	/* out of timestamp order on purpose: the trace must put them in order */
	const char *lines[] = {
		"  <idle>-0 [002] d.s2. 100.000300: lb_verdict: dst_cpu=2 domain=MC idle=newidle verdict=wrong reason=has_spare pick=4 expected=0",
		"  <idle>-0 [001] d.s2. 100.000100: lb_verdict: dst_cpu=1 domain=PKG idle=idle verdict=right pick=2",
		"  <idle>-0 [003] d.s2. 100.000200: lb_verdict: dst_cpu=3 domain=PKG idle=idle verdict=none pick=-1 reason=no_work",
	};
	static char longl[4096];
	struct dbgfs_table cpus;
	struct dbgfs_error derr;
	struct lbv_event e;
	struct pfrec r;
	char path[128], msg[256], cmd[700];
	const struct dtrack *c2;
	int found = 0, okargs = 0, onseq2 = 1;
	unsigned long long last = 0;
	size_t o;

	o = (size_t)snprintf(longl, sizeof(longl),
			     "  <idle>-0 [000] d.s2. 100.000400: lb_verdict: dst_cpu=0 domain=MC "
			     "idle=idle verdict=right pick=0 groups=");
	for (int i = 0; i < 300; i++)
		o += (size_t)snprintf(longl + o, sizeof(longl) - o, "%s%d,%d", i ? ";" : "", i, 7 * i);
	snprintf(path, sizeof(path), "%s/v.pftrace", tmpdir);
	if (pfrec_open(&r, path, msg, sizeof(msg)) || dbgfs_load(FIX "/good", "cpus", &cpus, &derr)) {
		tap_ok(0, "verdicts: open trace and fixture");
		return;
	}
	pfrec_sample(&r, 100000000000ull, &cpus, NULL);
	for (int i = 0; i < 3; i++)
		if (lbv_parse_line(lines[i], &e) == 0) {
			pfrec_verdict(&r, &e);
			lbv_free(&e);
		}
	if (lbv_parse_line(longl, &e) == 0) {
		pfrec_verdict(&r, &e);
		lbv_free(&e);
	}
	dbgfs_free(&cpus);
	tap_ok(pfrec_finish(&r, msg, sizeof(msg)) == 0 && decode(path) == 0, "verdicts: trace written and decoded");
	c2 = track_named("CPU 2");
	for (int i = 0; c2 && i < nevents; i++) {
		if (strcmp(events[i].type, "TYPE_INSTANT"))
			continue;
		found++;
		onseq2 &= events[i].seq == 2 && events[i].ts >= last;
		last = events[i].ts;
		if (events[i].track == c2->uuid && events[i].ts == 100000300000ull &&
		    !strcmp(events[i].name, "lb wrong (has_spare)") &&
		    strstr(events[i].args, "domain=MC;") && strstr(events[i].args, "idle=newidle;") &&
		    strstr(events[i].args, "verdict=wrong;") && strstr(events[i].args, "reason=has_spare;") &&
		    strstr(events[i].args, "pick=4;") && strstr(events[i].args, "expected=0;"))
			okargs = 1;
	}
	if (!okargs)
		for (int i = 0; i < nevents; i++)
			tap_diag("event %s on %llu at %llu: %s [%s]", events[i].type, events[i].track,
				 events[i].ts, events[i].name, events[i].args);
	tap_ok(found == 4 && okargs,
	       "one instant per verdict; on the destination CPU's track, named by verdict and reason, "
	       "with domain, idle, verdict, reason, pick and expected as arguments (%d instants)", found);
	tap_ok(onseq2 && seq_seen[1] && seq_seen[2] && seqflags_first && !seq_backward,
	       "verdict instants on their own sequence (2), in timestamp order although read out of "
	       "order; the samples on sequence 1");
	/* the 2000-byte groups value, whole, in protoc's output */
	snprintf(cmd, sizeof(cmd), "protoc --decode=perfetto.protos.Trace -I%s %s < %s | "
		 "grep -F -q 'string_value: \"%.40s' && protoc --decode=perfetto.protos.Trace -I%s %s < %s | "
		 "grep -F 'string_value: \"0,0;1,7;' | grep -F -q '299,2093\"'",
		 PROTO_DIR, PROTO, path, strstr(longl, "groups=") + 7, PROTO_DIR, PROTO, path);
	tap_ok(system(cmd) == 0 && !strstr(longl, "trunc"),
	       "a %zu-byte groups value is in the trace whole, first to last entry",
	       strlen(strstr(longl, "groups=") + 7));

	/* a record with fields not kept: the instant and a summary say how many */
	snprintf(path, sizeof(path), "%s/v2.pftrace", tmpdir);
	if (pfrec_open(&r, path, msg, sizeof(msg)))
		return;
	o = (size_t)snprintf(longl, sizeof(longl), "  x-1 [000] ..... 5.000001: lb_verdict: dst_cpu=0");
	for (int i = 0; i < LBV_MAX_FIELDS + 5; i++)
		o += (size_t)snprintf(longl + o, sizeof(longl) - o, " f%d=%d", i, i);
	if (lbv_parse_line(longl, &e) == 0) {
		pfrec_verdict(&r, &e);
		lbv_free(&e);
	}
	tap_ok(pfrec_finish(&r, msg, sizeof(msg)) == 0 && decode(path) == 0, "verdicts: second trace written");
	found = 0;
	for (int i = 0; i < nevents; i++) {
		if (!strcmp(events[i].name, "lb_verdict records incomplete") &&
		    strstr(events[i].args, "fields_dropped=6;") && strstr(events[i].args, "overwritten=0;"))
			found |= 1;
		if (!strcmp(events[i].name, "lb ?") && strstr(events[i].args, "sched_shadow_fields_dropped=6;"))
			found |= 2;
	}
	tap_ok(found == 3, "fields past %d: counted on the instant and in an 'lb_verdict records "
	       "incomplete' instant (6 dropped)", LBV_MAX_FIELDS);
}

static long drained;
static int drained_cpu_sum;

static void drain_cb(void *ctx, const struct lbv_event *e)
{
	(void)ctx;
	drained++;
	drained_cpu_sum += e->dst_cpu;
}

/* lbtrace_drain on a non-blocking pipe: records split across reads, other lines skipped */
static void test_drain(void)
{
	const char *a = "  x-1 [000] ..... 1.000001: lb_verdict: dst_cpu=3 domain=MC verdict=right\n"
		"  x-1 [000] ..... 1.000002: sched_load_cfs_rq: cpu=0 path=/\n  x-1 [001] ..... 1.00";
	const char *b = "0003: lb_verdict: dst_cpu=4 domain=MC verdict=none\n  x-1 [001] ..... 1.5: lb_verdict: bad\n";
	struct lbtrace t;
	int fds[2];
	long n1, n2;

	memset(&t, 0, sizeof(t));
	t.buf = malloc(LBV_LINE_MAX);
	if (!t.buf || pipe(fds)) {
		tap_ok(0, "lbtrace_drain: pipe");
		return;
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	t.fd = fds[0];
	if (write(fds[1], a, strlen(a)) < 0)
		tap_diag("write failed");
	n1 = lbtrace_drain(&t, drain_cb, NULL);
	if (write(fds[1], b, strlen(b)) < 0)
		tap_diag("write failed");
	n2 = lbtrace_drain(&t, drain_cb, NULL);
	tap_ok(n1 == 1 && n2 == 1 && drained == 2 && drained_cpu_sum == 7 && t.bad == 1 && t.len == 0,
	       "lbtrace_drain: a record split across reads is parsed once, other events skipped, "
	       "a malformed lb_verdict counted (%ld+%ld, bad %llu)", n1, n2, (unsigned long long)t.bad);
	{
		/* a record longer than the read buffer: counted, skipped to its end, the next one read */
		static char chunk[16384];
		long before = drained;

		memset(chunk, 'x', sizeof(chunk));
		if (write(fds[1], "  x-1 [000] ..... 2.0: lb_verdict: dst_cpu=1 groups=", 52) < 0)
			tap_diag("write failed");
		for (int i = 0; i < 6; i++) {	/* 96 KB, drained as it comes (a pipe holds 64) */
			if (write(fds[1], chunk, sizeof(chunk)) < 0)
				tap_diag("write failed");
			lbtrace_drain(&t, drain_cb, NULL);
		}
		if (write(fds[1], "\n  x-1 [001] ..... 2.1: lb_verdict: dst_cpu=2 domain=MC\n", 56) < 0)
			tap_diag("write failed");
		lbtrace_drain(&t, drain_cb, NULL);
		tap_ok(t.too_long == 1 && drained == before + 1 && !t.skipping && t.len == 0,
		       "lbtrace_drain: a record longer than %d bytes counted (too_long %llu), the next read",
		       LBV_LINE_MAX, (unsigned long long)t.too_long);
	}
	close(fds[0]);
	close(fds[1]);
	free(t.buf);
}

static void test_errors(void)
{
	char path[160], csv[160];
	struct stat st;
	int rc;

	rc = run("--debugfs", FIX "/good", "record", "-n", "1", "--perfetto", "", NULL);
	tap_ok(rc == CLI_EXIT_USAGE && strstr(err, "--perfetto"), "record --perfetto '': usage error");
	snprintf(csv, sizeof(csv), "%s/same", tmpdir);
	rc = run("--debugfs", FIX "/good", "record", "-n", "1", "-o", csv, "--perfetto", csv, NULL);
	tap_ok(rc == CLI_EXIT_USAGE && stat(csv, &st) != 0, "record -o X --perfetto X: usage error, nothing written");
	rc = run("--debugfs", FIX "/good", "record", "-n", "1", "--perfetto", NULL);
	tap_ok(rc == CLI_EXIT_USAGE, "record --perfetto without a value: usage error");
	rc = run("--debugfs", FIX "/good", "record", "-n", "1", NULL);
	tap_ok(rc == CLI_EXIT_USAGE && strstr(err, "--perfetto"), "record with neither -o nor --perfetto: usage error naming both");
	rc = run("--debugfs", FIX "/good", "record", "-n", "1", "--perfetto",
		 "/nonexistent-dir/x.pftrace", NULL);
	tap_ok(rc == CLI_EXIT_FAIL && strstr(err, "/nonexistent-dir/x.pftrace") && !strchr(strchr(err, '\n') + 1, '\n'),
	       "record --perfetto in a missing directory: one-line error, exit 1");
	rc = run("--debugfs", FIX "/good", "record", "-n", "1", "--perfetto", tmpdir, NULL);
	tap_ok(rc == CLI_EXIT_FAIL && strstr(err, "is a directory"), "record --perfetto DIR: error, exit 1");
	/* a recording that fails at its first sample leaves neither trace nor temp file */
	snprintf(path, sizeof(path), "%s/fail.pftrace", tmpdir);
	rc = run("--debugfs", FIX "/bad", "record", "-n", "2", "--perfetto", path, NULL);
	tap_ok(rc != 0 && stat(path, &st) != 0 && no_temp_left(tmpdir),
	       "failed recording: exit %d, no trace and no temporary file left", rc);
	rc = run("--debugfs", "/nonexistent", "record", "-n", "1", "--perfetto", path, NULL);
	tap_ok(rc == CLI_EXIT_NOMODULE && stat(path, &st) != 0, "module absent: exit 2, no trace");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_begin("perfetto");
	if (!cli_feature("perfetto")->built) {
		/* make test installs protobuf-c first (tests/deps.sh): only a hand-made build gets here */
		tap_skip("Perfetto traces", cli_feature("perfetto")->why);
		return tap_end();
	}
	test_parse();
	test_drain();
	if (system("command -v protoc >/dev/null 2>&1") != 0) {
		printf("not ok %d - protoc (protobuf-compiler) is installed: the trace checks need it\n", ++tap_n);
		tap_failed++;
	} else {
		test_record();
		test_verdicts();
	}
	test_errors();
	{
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			tap_diag("could not remove %s", tmpdir);
	}
	return tap_end();
}
