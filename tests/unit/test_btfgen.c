// SPDX-License-Identifier: GPL-2.0
/*
 * userspace/btfgen against synthetic kernels: each case writes a raw BTF
 * (built with libbpf's BTF writer) and a manifest, runs the real btfgen
 * binary and checks its header, exit status and message.  This is the
 * build-time refusal: a kernel whose BTF lacks a field or a
 * tracepoint the module needs, or a file without BTF, must stop the build
 * with a message naming the missing piece and leave no header behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/btf.h>
#include "tap.h"

#ifndef BTFGEN_PATH
#error "build with -DBTFGEN_PATH=..."
#endif

static char dir[] = "/tmp/test_btfgen.XXXXXX";
static char out_text[1 << 16], err_text[1 << 14];

/* What a kernel looks like, in the few ways the cases vary it. */
struct kspec {
	const char *nr_name;		/* "h_nr_running", "h_nr_queued" or NULL */
	int runnable_load_avg;		/* pre-5.7 kernels */
	int typedef_tps;		/* btf_trace_<tp> typedefs (5.12+) */
	int traceiter_tps;		/* __traceiter_<tp> functions (5.10+) */
	int missing_nr_tp;		/* no sched_update_nr_running_tp (pre-5.9) */
};

static int add_tp(struct btf *b, int int_id, const char *tp, int nargs, const struct kspec *k)
{
	int voidp = btf__add_ptr(b, 0);
	int proto = btf__add_func_proto(b, int_id);
	char name[128];
	int i;

	btf__add_func_param(b, "__data", voidp);
	for (i = 1; i < nargs; i++)
		btf__add_func_param(b, "a", voidp);
	if (k->typedef_tps) {
		snprintf(name, sizeof(name), "btf_trace_%s", tp);
		btf__add_typedef(b, name, btf__add_ptr(b, proto));
	}
	if (k->traceiter_tps) {
		snprintf(name, sizeof(name), "__traceiter_%s", tp);
		btf__add_func(b, name, BTF_FUNC_STATIC, proto);
	}
	return 0;
}

/* Write the raw BTF of kernel @k to @path. */
static int write_btf(const char *path, const struct kspec *k)
{
	struct btf *b = btf__new_empty();
	int u32 = btf__add_int(b, "unsigned int", 4, 0);
	int u64 = btf__add_int(b, "long unsigned int", 8, 0);
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	const void *raw;
	__u32 size;
	FILE *f;
	int ok;

	/* struct rq { int cpu; unsigned int nr_running; } */
	btf__add_struct(b, "rq", 8);
	btf__add_field(b, "cpu", i32, 0, 0);
	btf__add_field(b, "nr_running", u32, 32, 0);
	/* struct cfs_rq { u64 load; <nr>; [u64 runnable_load_avg]; } inside an anonymous union */
	btf__add_struct(b, "cfs_rq", 24);
	btf__add_field(b, "load", u64, 0, 0);
	if (k->nr_name)
		btf__add_field(b, k->nr_name, u32, 64, 0);
	if (k->runnable_load_avg)
		btf__add_field(b, "runnable_load_avg", u64, 128, 0);
	add_tp(b, i32, "pelt_cfs_tp", 2, k);
	if (!k->missing_nr_tp)
		add_tp(b, i32, "sched_update_nr_running_tp", 3, k);
	add_tp(b, i32, "sched_switch", k->typedef_tps ? 5 : 4, k);

	raw = btf__raw_data(b, &size);
	f = fopen(path, "w");
	ok = f && raw && fwrite(raw, 1, size, f) == size;
	if (f)
		fclose(f);
	btf__free(b);
	return ok ? 0 : -1;
}

static const char manifest[] =
	"# test manifest\n"
	"rq          cpu\n"
	"rq          nr_running\n"
	"cfs_rq      h_nr_running   h_nr_queued\n"
	"?cfs_rq     runnable_load_avg\n"
	"%!btf_trace_pelt_cfs_tp   (5.3+) the walk runs at every cfs_rq PELT update\n"
	"%!btf_trace_sched_update_nr_running_tp (5.9+) the walk runs at every enqueue\n"
	"%btf_trace_sched_switch\n";

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Run btfgen on @btf; returns its exit status, output in out_text/err_text. */
static int run_btfgen(const char *btf, const char *extra)
{
	char cmd[2048], hdr[256], err[256];
	int st;

	snprintf(hdr, sizeof(hdr), "%s/out.h", dir);
	snprintf(err, sizeof(err), "%s/err.txt", dir);
	unlink(hdr);
	snprintf(cmd, sizeof(cmd), "%s --btf %s --manifest %s/manifest %s -o %s 2>%s",
		 BTFGEN_PATH, btf, dir, extra, hdr, err);
	st = system(cmd);
	out_text[0] = '\0';
	if (access(hdr, F_OK) == 0)
		slurp(hdr, out_text, sizeof(out_text));
	slurp(err, err_text, sizeof(err_text));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int kernel_case(const char *name, const struct kspec *k)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s.btf", dir, name);
	if (write_btf(path, k)) {
		tap_diag("cannot write %s", path);
		return -1;
	}
	return run_btfgen(path, "--release 9.9.9-test");
}

int main(void)
{
	char path[256];
	FILE *f;
	int rc;

	tap_begin("btfgen");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/manifest", dir);
	f = fopen(path, "w");
	fputs(manifest, f);
	fclose(f);

	/* a 6.12-like kernel: typedefs and __traceiter, h_nr_running */
	rc = kernel_case("k612", &(struct kspec){ "h_nr_running", 0, 1, 1, 0 });
	tap_ok(rc == 0, "complete kernel: exit 0 (got %d: %s)", rc, err_text);
	tap_ok(strstr(out_text, "#define KS_cfs_rq__h_nr_running_OFF 8\n") != NULL,
	       "complete kernel: cfs_rq.h_nr_running at offset 8");
	tap_ok(strstr(out_text, "#define HAS_KS_cfs_rq__runnable_load_avg 0\n") != NULL,
	       "optional field absent: HAS_KS_..._runnable_load_avg 0, build goes on");
	tap_ok(strstr(out_text, "#define KS_NARGS_btf_trace_sched_switch 5\n") != NULL,
	       "tracepoint arity from the btf_trace_ typedef (sched_switch: 5)");
	tap_ok(strstr(out_text, "#define KS_BTF_RELEASE \"9.9.9-test\"\n") != NULL,
	       "header records the release it was generated for");

	/* a 5.10-like kernel: no typedefs for bare tracepoints, __traceiter only */
	rc = kernel_case("k510", &(struct kspec){ "h_nr_running", 0, 0, 1, 0 });
	tap_ok(rc == 0, "5.10-like BTF (only __traceiter_*): exit 0 (got %d: %s)", rc, err_text);
	tap_ok(strstr(out_text, "#define KS_NARGS_btf_trace_pelt_cfs_tp 2\n") &&
	       strstr(out_text, "#define KS_NARGS_btf_trace_sched_switch 4\n"),
	       "5.10-like BTF: arities from __traceiter_* (pelt_cfs_tp 2, sched_switch 4)");

	/* a renamed field (6.13+: h_nr_queued) resolves to the same macro */
	rc = kernel_case("k613", &(struct kspec){ "h_nr_queued", 0, 1, 1, 0 });
	tap_ok(rc == 0 && strstr(out_text, "cfs_rq.h_nr_queued (renamed)") &&
	       strstr(out_text, "#define KS_cfs_rq__h_nr_running_OFF 8\n"),
	       "renamed field h_nr_queued: same macro, marked (renamed)");

	/* pre-5.7: runnable_load_avg is there and reported as present */
	rc = kernel_case("k54", &(struct kspec){ "h_nr_running", 1, 1, 1, 0 });
	tap_ok(rc == 0 && strstr(out_text, "#define HAS_KS_cfs_rq__runnable_load_avg 1\n") &&
	       strstr(out_text, "#define KS_cfs_rq__runnable_load_avg_OFF 16\n"),
	       "runnable_load_avg present: HAS 1, offset 16");

	/* a required field missing: refused, named, no header left */
	rc = kernel_case("knofield", &(struct kspec){ NULL, 0, 1, 1, 0 });
	tap_ok(rc != 0, "missing required field: non-zero exit (got %d)", rc);
	tap_ok(strstr(err_text, "lacks field cfs_rq.h_nr_running (tried: h_nr_running h_nr_queued)") != NULL,
	       "missing field: message names cfs_rq.h_nr_running and the names tried");
	tap_ok(strstr(err_text, "manifest:4)") != NULL, "missing field: message gives the manifest line");
	tap_ok(out_text[0] == '\0', "missing field: no header left behind");

	/* a required tracepoint missing (pre-5.9 kernel) */
	rc = kernel_case("knotp", &(struct kspec){ "h_nr_running", 0, 1, 1, 1 });
	tap_ok(rc != 0, "missing required tracepoint: non-zero exit (got %d)", rc);
	tap_ok(strstr(err_text, "lacks tracepoint sched_update_nr_running_tp") &&
	       strstr(err_text, "(5.9+) the walk runs at every enqueue"),
	       "missing tracepoint: message names it and says why it is needed");
	tap_ok(out_text[0] == '\0', "missing tracepoint: no header left behind");

	/* a file without BTF (an ELF without .BTF) */
	rc = run_btfgen("/bin/true", "--release x");
	tap_ok(rc != 0 && strstr(err_text, "cannot read BTF from /bin/true") &&
	       strstr(err_text, "CONFIG_DEBUG_INFO_BTF"),
	       "no BTF in the file: refused, message names CONFIG_DEBUG_INFO_BTF");
	tap_ok(out_text[0] == '\0', "no BTF: no header left behind");
	rc = run_btfgen("/nonexistent/vmlinux", "--release x");
	tap_ok(rc != 0 && strstr(err_text, "/nonexistent/vmlinux"), "missing BTF file: refused, path named");

	/*
	 * "^" (functions by whole prototype) and "~" (enumerator values) on the
	 * host kernel's real BTF: the balancing function and enum group_type.
	 */
	snprintf(path, sizeof(path), "%s/manifest", dir);
	f = fopen(path, "w");
	fputs("^lb_attempt int int,*rq,*sched_domain,enum,*int sched_balance_rq load_balance\n"
	      "^none int int,*nosuchstruct\n"
	      "~group_type group_has_spare group_overloaded group_no_such_class\n"
	      "~no_such_enum x\n", f);
	fclose(f);
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		tap_ok(1, "prototype and enum directives # SKIP no /sys/kernel/btf/vmlinux on this host");
	} else {
		rc = run_btfgen("/sys/kernel/btf/vmlinux", "");
		tap_ok(rc == 0 && (strstr(out_text, "#define KS_FUNCS_lb_attempt \\\n\t\"sched_balance_rq\",") ||
				   strstr(out_text, "#define KS_FUNCS_lb_attempt \\\n\t\"load_balance\",")),
		       "^: the host's balancing function found by prototype (rc %d)", rc);
		tap_ok(strstr(out_text, "#define KS_FUNCS_none\n") != NULL,
		       "^: no function with an unknown struct: empty list");
		tap_ok(strstr(out_text, "#define KS_ENUM_group_type__group_has_spare 0\n") &&
		       strstr(out_text, "#define HAS_KS_ENUM_group_type__group_overloaded 1\n") &&
		       strstr(out_text, "#define KS_ENUM_group_type__group_no_such_class -1\n") &&
		       strstr(out_text, "#define HAS_KS_ENUM_no_such_enum__x 0\n"),
		       "~: enumerator values, -1 and HAS 0 when absent");
		tap_ok(strstr(out_text, "#define KS_ENUMS_group_type(X) X(\"group_has_spare\", 0) ") &&
		       strstr(out_text, " X(\"group_overloaded\", ") &&
		       strstr(out_text, "#define KS_ENUM_COUNT_no_such_enum 0\n#define KS_ENUMS_no_such_enum(X)\n"),
		       "~: the whole enum as BTF has it (KS_ENUMS_), empty when absent");
	}

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		tap_diag("cannot remove %s", dir);
	return tap_end();
}
