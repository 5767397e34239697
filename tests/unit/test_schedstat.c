// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/schedstat parser and deltas (userspace/cli/sources/schedstat.c): the
 * three understood versions, refusal of unknown/missing versions and of
 * truncated lines, idle-type reordering, per-level delta sums.
 * Fixtures in tests/unit/fixtures/bpf/: counter k of idle-type block t
 * (in file order) of a domain with base b holds b + 1000 * t + k.
 */
#include "tap.h"
#include <string.h>
#include "cli/sources/schedstat.c"

#define FIX "tests/unit/fixtures/bpf/"

static int load(const char *name, struct schedstat *s, char *err, size_t len)
{
	return schedstat_read(name, s, err, len);
}

int main(void)
{
	struct schedstat a, b;
	struct ss_delta d;
	char err[256];
	int rc;

	tap_begin("schedstat");

	rc = load(FIX "schedstat-v15-before.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_OK, "v15 parses (%s)", rc ? err : "ok");
	tap_ok(a.version == 15 && a.ncpus == 2 && a.ndom == 4, "v15: version, 2 cpus, 4 domains");
	tap_ok(a.timestamp == 4294900000ull, "v15: timestamp");
	tap_ok(a.ndom == 4 && !strcmp(a.dom[0].name, "domain0") && !strcmp(a.dom[1].name, "domain1"),
	       "v15: unnamed domains are domainN");
	/* v15 file order: CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE */
	tap_ok(a.ndom == 4 && a.dom[0].lb[SS_IDLE].count == 10 &&
	       a.dom[0].lb[SS_BUSY].count == 1010 && a.dom[0].lb[SS_NEWIDLE].count == 2010,
	       "v15: idle types mapped (idle, busy, newidle in file)");
	tap_ok(a.ndom == 4 && a.dom[0].lb[SS_BUSY].balanced == 1011 &&
	       a.dom[0].lb[SS_BUSY].failed == 1012 && a.dom[0].lb[SS_BUSY].imbalance == 1013 &&
	       a.dom[0].lb[SS_BUSY].gained == 1014 && a.dom[0].lb[SS_BUSY].hot_gained == 1015 &&
	       a.dom[0].lb[SS_BUSY].nobusyq == 1016 && a.dom[0].lb[SS_BUSY].nobusyg == 1017,
	       "v15: field order lb_count..lb_nobusyg");
	tap_ok(a.ndom == 4 && a.dom[2].cpu == 1 && a.dom[2].lb[SS_IDLE].count == 110 &&
	       a.dom[0].alb_count == 9010, "v15: second cpu's domains and alb fields");

	rc = load(FIX "schedstat-v15-after.txt", &b, err, sizeof(err));
	tap_ok(rc == SS_OK, "v15 after-snapshot parses");
	rc = schedstat_delta(&a, &b, &d);
	tap_ok(rc == SS_OK && d.nlevels == 2, "delta: two levels (domain0, domain1)");
	tap_ok(d.nlevels == 2 && !strcmp(d.lv[0].name, "domain0") && d.lv[0].ncpus == 2,
	       "delta: level domain0 sums 2 cpus");
	/* each counter grew by 10 on each of two CPUs */
	tap_ok(d.nlevels == 2 && d.lv[0].lb[SS_IDLE].count == 20 && d.lv[1].lb[SS_NEWIDLE].nobusyg == 20,
	       "delta: per-level sums of after - before");
	tap_ok(d.jiffies == 250 && !d.reshaped && !d.wrapped, "delta: jiffies, not reshaped, not wrapped");
	schedstat_delta_free(&d);
	rc = schedstat_delta(&b, &a, &d);	/* backwards */
	tap_ok(rc == SS_OK && d.wrapped && d.lv[0].lb[SS_IDLE].count == 0,
	       "delta: counters going backwards count as 0 and are flagged");
	schedstat_delta_free(&d);
	a.ndom = 2;	/* pretend cpu1's domains vanished */
	rc = schedstat_delta(&a, &b, &d);
	tap_ok(rc == SS_OK && d.reshaped && d.lv[0].ncpus == 1, "delta: domains without baseline flag reshaped");
	schedstat_delta_free(&d);
	a.ndom = 4;
	schedstat_free(&a);
	schedstat_free(&b);

	rc = load(FIX "schedstat-v16.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_OK && a.version == 16 && a.dom[0].lb[SS_BUSY].count == 10 &&
	       a.dom[0].lb[SS_IDLE].count == 1010 && a.dom[0].lb[SS_NEWIDLE].count == 2010,
	       "v16: busy block first (enum reorder)");
	schedstat_free(&a);

	rc = load(FIX "schedstat-v17.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_OK && a.version == 17 && a.ndom == 4, "v17 parses (%s)", rc ? err : "ok");
	tap_ok(rc == SS_OK && !strcmp(a.dom[0].name, "MC") && !strcmp(a.dom[1].name, "PKG"),
	       "v17: domain names");
	tap_ok(rc == SS_OK && a.dom[0].lb[SS_BUSY].imbalance == 13 + 14 + 15 + 16 &&
	       a.dom[0].lb[SS_BUSY].gained == 17 && a.dom[0].lb[SS_BUSY].nobusyg == 20 &&
	       a.dom[0].lb[SS_IDLE].count == 1010,
	       "v17: split imbalance summed, later fields shifted");
	schedstat_free(&a);

	rc = load(FIX "schedstat-truncated.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_EMALFORMED && strstr(err, "line"), "truncated domain line refused: %s", err);
	rc = load(FIX "schedstat-v99.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_EVERSION && strstr(err, "99"), "unknown version refused by number: %s", err);
	rc = load(FIX "schedstat-noversion.txt", &a, err, sizeof(err));
	tap_ok(rc == SS_EVERSION, "missing version line refused: %s", err);
	rc = schedstat_parse("", 0, &a, err, sizeof(err));
	tap_ok(rc == SS_EVERSION, "empty input refused");
	rc = schedstat_parse("version 15\ndomain0 3 1 2\n", 23, &a, err, sizeof(err));
	tap_ok(rc == SS_EMALFORMED, "domain before cpu line refused");
	{
		const char *t = "version 15\ncpu0 1 2 3\ndomain0 3 x 2\n";

		rc = schedstat_parse(t, strlen(t), &a, err, sizeof(err));
		tap_ok(rc == SS_EMALFORMED, "non-numeric counter refused: %s", err);
	}
	rc = load(FIX "does-not-exist", &a, err, sizeof(err));
	tap_ok(rc == SS_ENOENT && strstr(err, "CONFIG_SCHEDSTATS"), "missing file says why");
	return tap_end();
}
