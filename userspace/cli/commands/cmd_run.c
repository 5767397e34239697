// SPDX-License-Identifier: GPL-2.0
/*
 * `sched-shadow run [OPTIONS] -- CMD ARGS...`: one report around one
 * command.  Order: reset the module's counters, start the BPF collector,
 * snapshot /proc/schedstat, run CMD (optionally inside a cgroup), then
 * read everything back into the report model (report.h) and print it
 * as text, JSON or Prometheus.  Every source may be missing (no module,
 * no BPF, no schedstat): the report then says which and why, and the
 * rest still works.  --repeat N does it N times, a report each.  Exit
 * status is CMD's.
 * The JSON schema is documented in docs/cli-run.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "cli/cli.h"
#include "cli/features.h"
#include "cli/sources/cgroup.h"
#include "cli/sources/knobs.h"
#include "cli/sources/latency.h"
#include "cli/report/report.h"
#include "cli/commands/run_args.h"
#include "cli/perfetto/run_trace.h"
#include "cli/commands/run_evidence.h"
#include "cli/sources/schedstat.h"

struct run_state {
	struct run_opts o;
	struct report r;
	struct run_trace *trace;	/* --perfetto */
	struct evidence *ev;		/* --evidence */
	int paused;			/* the module's enable is 0 by us: set it back to 1 */
	FILE *out;			/* -o FILE, else stdout */
	char result_tmp[64];		/* the file offered to CMD in $SCHED_SHADOW_RESULT */
	int knobs_set;			/* run --set changed a switch: the signal handlers are in */
	char knobs_note[REPORT_WHY_LEN];	/* what run's first read of the switches found left */
};

/*
 * run --set: the switches changed, for the signal handlers.  SIGTERM and
 * SIGHUP while CMD runs go on to CMD and run ends as usual (report, then
 * the switches restored); SIGINT reaches CMD from the terminal, as with
 * time(1).  A second signal, or one outside CMD's life, restores the
 * switches at once (knobs_restore() is async-signal-safe), removes the
 * state file and dies of the signal.
 */
static char run_state_file[4096];	/* knobs_state_path() */
static struct knob_set *run_sig_sets;
static int run_sig_nset;
static volatile pid_t run_sig_child;
static volatile sig_atomic_t run_sig_hits;
static const int run_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void run_sig_restore_all(void)
{
	int left = 0;

	for (int i = 0; i < run_sig_nset; i++)
		left |= knobs_restore(&run_sig_sets[i]) < 0;
	if (!left)
		unlink(run_state_file);
}

static void run_sig_handler(int sig)
{
	int e = errno;

	if (run_sig_child > 0 && run_sig_hits++ == 0) {
		if (sig != SIGINT)
			kill(run_sig_child, sig);
		errno = e;
		return;
	}
	run_sig_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
	errno = e;
}

static void run_sig_install(struct knob_set *sets, int n)
{
	struct sigaction sa = { .sa_handler = run_sig_handler };

	run_sig_sets = sets;
	run_sig_nset = n;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
		sigaddset(&sa.sa_mask, run_sigs[i]);
	for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
		sigaction(run_sigs[i], &sa, NULL);
}

static void run_sig_remove(void)
{
	for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
		signal(run_sigs[i], SIG_DFL);
	run_sig_nset = 0;
}

/*
 * The report's window is cut by pausing the module (its enable file):
 * paused, it neither counts nor traces, so the reset, the schedstat
 * baseline and the tracefs instance all start from the same point, and
 * at the end the counters, schedstat and the last lb_verdict record all
 * stop at the same point.  The trace's verdict instants then equal the
 * report's judged attempts.  A module the user had disabled is left so.
 */
static int run_enable_read(void)
{
	char path[4096 + 16], buf[8] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/enable", cli.debugfs);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && buf[0] == '1' ? 1 : n > 0 && buf[0] == '0' ? 0 : -1;
}

static void run_pause(struct run_state *s, int pause)
{
	struct dbgfs_error err;

	if (pause && run_enable_read() != 1)
		return;
	if (!pause && !s->paused)
		return;
	if (dbgfs_write(cli.debugfs, "enable", pause ? "0" : "1", &err)) {
		if (s->trace)
			cli_warn("run", "could not %s the module (%s): the trace's verdicts may differ "
				"from the report's attempts at the edges", pause ? "pause" : "resume",
				err.msg);
		return;
	}
	s->paused = pause;
}

/* The module is there (or --no-module); 0, or the exit status after saying why not. */
static int run_module_probe(struct run_state *s)
{
	struct report_module *m = &s->r.module;
	struct dbgfs_error err;
	int rc;

	if (!s->o.module) {
		snprintf(m->why, sizeof(m->why), "--no-module");
		return 0;
	}
	rc = dbgfs_probe_root(cli.debugfs, &err);
	if (rc) {
		cli_err("run", "%s (or run --no-module: BPF and /proc/schedstat only)", err.msg);
		return cli_exit_for(rc);
	}
	m->loaded = 1;
	return 0;
}

static void run_module_start(struct report *r)
{
	struct report_module *m = &r->module;
	struct dbgfs_error err;

	if (!m->loaded)
		return;
	if (dbgfs_write(cli.debugfs, "reset", "1", &err))
		snprintf(m->why, sizeof(m->why), "reset failed: %s", err.msg);
	else
		m->reset = 1;
}

/*
 * A state file left by a run that did not finish (SIGKILL, a crash): put
 * back what it set, unless its owner still runs (then a --set of ours
 * would fight it: refused).  0, or the exit status.
 */
static int run_knobs_recover(struct run_state *s)
{
	struct report_knobs *k = &s->r.knobs;
	struct knob_set left[2];
	char err[512], done[256] = "";
	size_t used = 0;
	pid_t pid;
	int alive, n = knobs_state_read(run_state_file, left, 2, &pid, &alive, err, sizeof(err));

	if (n < 0) {
		cli_err("run", "%s (remove it once the switches are as they should be)", err);
		return CLI_EXIT_FAIL;
	}
	if (n == 0)
		return 0;
	if (alive) {
		if (s->o.nset) {
			cli_err("run", "--set: run %d has set the kernel's switches for its own run (%s)",
				(int)pid, run_state_file);
			return CLI_EXIT_FAIL;
		}
		snprintf(k->note, sizeof(k->note), "run %d has set %s%s%s for its run", (int)pid,
			 left[0].name, n > 1 ? " and " : "", n > 1 ? left[1].name : "");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int rc = knobs_restore(&left[i]);

		if (rc < 0) {
			cli_err("run", "could not restore %s=%s left set to %s by run %d (%s): %s",
				left[i].name, left[i].before, left[i].value, (int)pid, left[i].path,
				strerror(errno));
			return CLI_EXIT_FAIL;
		}
		used += snprintf(done + used, sizeof(done) - used, "%s%s %s", i ? ", " : "",
				 left[i].name, left[i].restored == 1 ? "restored to" : "left at");
		if (used < sizeof(done))
			used += snprintf(done + used, sizeof(done) - used, " %s",
					 left[i].restored == 1 ? left[i].before : "what someone set since");
		if (used >= sizeof(done))
			used = sizeof(done) - 1;
	}
	unlink(run_state_file);
	snprintf(k->note, sizeof(k->note), "run %d, which did not finish, had set switches: %s",
		 (int)pid, done);
	cli_err("run", "%s", k->note);
	return 0;
}

/* Before anything is touched: the switches read, --set checked.  0, or the exit status. */
static int run_knobs_start(struct run_state *s)
{
	struct report_knobs *k = &s->r.knobs;
	char err[512];
	int code, rc;

	knobs_dir_of(cli.debugfs, k->dir, sizeof(k->dir));
	knobs_state_path(run_state_file, sizeof(run_state_file));
	rc = run_knobs_recover(s);
	if (rc)
		return rc;
	knobs_read(k->dir, &k->start);
	k->have = 1;
	for (int i = 0; i < s->o.nset; i++)
		if (knobs_prepare(k->dir, &k->start, s->o.set_name[i], s->o.set_value[i], &k->set[i],
				  err, sizeof(err), &code)) {
			cli_err("run", "%s", err);
			return code == 64 ? CLI_EXIT_USAGE : CLI_EXIT_NOMODULE;
		}
	return 0;
}

/* Apply --set (state file first, so a SIGKILL after it is undone by the next run). */
static int run_knobs_apply(struct run_state *s)
{
	struct report_knobs *k = &s->r.knobs;
	char err[512];

	if (!s->o.nset)
		return 0;
	if (knobs_state_write(run_state_file, k->set, s->o.nset, err, sizeof(err))) {
		cli_err("run", "--set: cannot write the state file that restores the switches "
			"after a kill: %s", err);
		return -1;
	}
	k->nset = s->o.nset;
	run_sig_install(k->set, k->nset);
	s->knobs_set = 1;
	for (int i = 0; i < k->nset; i++)
		if (knobs_apply(&k->set[i], err, sizeof(err))) {
			cli_err("run", "%s", err);
			return -1;
		}
	/* what the run measures under (the choices as read before, if this read has none) */
	{
		char modes[sizeof(k->start.modes)];

		memcpy(modes, k->start.modes, sizeof(modes));
		knobs_read(k->dir, &k->start);
		if (!k->start.modes[0])
			memcpy(k->start.modes, modes, sizeof(modes));
	}
	return 0;
}

/* Put back what --set changed; the state file goes once nothing is left to do. */
static void run_knobs_restore(struct run_state *s)
{
	struct report_knobs *k = &s->r.knobs;
	sigset_t all, old;
	int left = 0;

	if (!s->knobs_set)
		return;
	/* the handler restores the same switches: not both at once */
	sigemptyset(&all);
	for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
		sigaddset(&all, run_sigs[i]);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < k->nset; i++)
		if (knobs_restore(&k->set[i]) < 0) {
			cli_err("run", "could not restore %s=%s (%s): %s", k->set[i].name,
				k->set[i].before, k->set[i].path, strerror(errno));
			left = 1;
		}
	if (!left)
		unlink(run_state_file);
	else
		cli_err("run", "%s keeps what to restore: the next run tries again", run_state_file);
	run_sig_remove();
	s->knobs_set = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int run_child(struct run_state *s)
{
	struct report *r = &s->r;
	char err[512];
	pid_t pid;
	int st;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	double t0;

	sigset_t block, old;

	fflush(NULL);
	t0 = cli_now();
	if (s->trace)	/* the slice spans the same wall time as the report */
		run_trace_mark_begin(s->trace);
	/* our handlers must not run in the child before its exec */
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
		sigaddset(&block, run_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		cli_err("run", "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		cli.json = 0;	/* CMD's own failure, on CMD's stderr as a shell says it */
		if (s->knobs_set)
			for (size_t i = 0; i < sizeof(run_sigs) / sizeof(run_sigs[0]); i++)
				signal(run_sigs[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (r->cg_used && cg_enter(&r->cg, 0, err, sizeof(err))) {
			cli_err("run", "%s", err);
			_exit(126);
		}
		if (s->result_tmp[0])
			setenv(CLI_RESULT_ENV, s->result_tmp, 1);
		execvp(s->o.cmd[0], s->o.cmd);
		cli_err("run", "%s: %s", s->o.cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	run_sig_child = pid;
	run_sig_hits = 0;
	/* Like time(1): Ctrl-C goes to CMD, we stay to print the report (with --set: run_sig_handler) */
	if (!s->knobs_set)
		sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigprocmask(SIG_SETMASK, &old, NULL);
	report_wasted_track(r, cli.debugfs, pid);	/* CMD's own wait split */
	/* --perfetto: sample the module while waiting (run_trace.c) */
	if (s->trace && run_trace_wait(s->trace, pid, s->o.interval,
				       r->cg_used ? r->cg.rel : NULL, &st)) {
		cli_err("run", "waitpid: %s", strerror(errno));
		st = 1 << 8;
	}
	while (!s->trace && waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			cli_err("run", "waitpid: %s", strerror(errno));
			st = 1 << 8;
			break;
		}
	}
	run_sig_child = 0;
	if (!s->knobs_set)
		sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	r->wall_s = cli_now() - t0;
	if (s->trace)
		run_trace_sample(s->trace);	/* the state CMD left */
	if (WIFEXITED(st))
		r->exit_status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		r->exit_status = 128 + WTERMSIG(st);
	else
		r->exit_status = 1;
	return 0;
}

static const char *run_cg_name_cb(const void *ctx, int i, char *buf, size_t len)
{
	return report_cg_name(ctx, i, buf, len);
}

/*
 * One run of CMD (of --repeat N): the switches, the cgroup, the reset,
 * the sources, CMD, the read-back and the report on s->out.  Returns the
 * run's exit status (CMD's once it ran); *stop is set when the repeats
 * end here.
 */
static int run_one(struct run_state *s, int index, int *stop)
{
	struct report *r = &s->r;
	struct lat_bpf *b = NULL;
	struct schedstat before, after;
	char err[512];
	int rc, ss_prev = -1, status = CLI_EXIT_FAIL, trace_failed = 0;
	int loaded = r->module.loaded;

	*stop = 1;
	report_free(r);
	memset(r, 0, sizeof(*r));
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	r->module.loaded = loaded;
	if (!s->o.module)
		snprintf(r->module.why, sizeof(r->module.why), "--no-module");
	r->debugfs = cli.debugfs;
	r->cmd = s->o.cmd;
	r->latency.requested = s->o.bpf;
	r->label = s->o.label;
	r->note = s->o.note;
	r->result.file = s->o.result;
	r->repeat = s->o.repeat > 1 ? index : 0;
	r->repeats = s->o.repeat > 1 ? s->o.repeat : 0;

	/* the kernel's switches as this run starts (each repeat sets and restores its own) */
	status = run_knobs_start(s);
	if (status)
		goto cleanup;
	/* a killed run's switches, put back by cmd_run's first read: the first report says so */
	if (index == 1 && s->knobs_note[0] && !r->knobs.note[0])
		snprintf(r->knobs.note, sizeof(r->knobs.note), "%s", s->knobs_note);
	status = CLI_EXIT_FAIL;
	/* The cgroup first: a bad path should fail before anything is touched */
	if (s->o.cgroup) {
		if (cg_create(&r->cg, s->o.cgroup, 0, err, sizeof(err))) {
			cli_err("run", "%s", err);
			goto cleanup;
		}
		r->cg_used = 1;
		/* a "nested" run outside the cpu controller would read as a real one */
		if (!r->cg.cpu_ok && !s->o.allow_no_cpu) {
			cli_err("run", "--cgroup %s: %s; or give --allow-no-cpu-controller to run CMD "
				"there anyway", r->cg.rel, r->cg.note);
			status = CLI_EXIT_NOCPUCG;
			goto cleanup;
		}
	}
	/* a file CMD may write its JSON result to (unless --result names one) */
	if (!s->o.result) {
		int fd;

		snprintf(s->result_tmp, sizeof(s->result_tmp), "/tmp/sched-shadow-result.XXXXXX");
		fd = mkstemp(s->result_tmp);
		if (fd < 0)
			s->result_tmp[0] = 0;
		else
			close(fd);
	}
	/* The trace file first: an unwritable place fails before anything is touched */
	if (s->o.perfetto) {
		s->trace = calloc(1, sizeof(*s->trace));
		if (!s->trace || run_trace_open(s->trace, s->o.perfetto, cli.debugfs, s->o.cmd,
						err, sizeof(err))) {
			cli_err("run", "%s", s->trace ? err : "out of memory");
			free(s->trace);
			s->trace = NULL;
			goto cleanup;
		}
	}
	/* The evidence directory too: it must be creatable and empty */
	if (s->o.evidence && evidence_open(&s->ev, s->o.evidence, err, sizeof(err))) {
		cli_err("run", "%s", err);
		goto cleanup;
	}
	if (run_knobs_apply(s))
		goto cleanup;
	if (r->module.loaded)
		run_pause(s, 1);
	run_module_start(r);
	/* the verdict records from tracefs, from the same point as the counters */
	if (s->trace)
		run_trace_start(s->trace, r->module.loaded);
	evidence_start(s->ev);

	/*
	 * Baseline of the kernel's own counters (which need the schedstats key
	 * on), right after the module's reset: the cross-check compares the
	 * same window.  (Taken after the BPF programs were loaded, the module
	 * counted a second or more of idle balancing before the baseline
	 * under TCG: 505 MC idle attempts against lb_count 198 in one demo.)
	 */
	if (access(SCHEDSTAT_PATH, R_OK) == 0 &&
	    schedstat_enable(SCHEDSTAT_SYSCTL, &ss_prev, r->schedstat.why,
			     sizeof(r->schedstat.why)) == 0) {
		r->schedstat.enabled_by_run = ss_prev == 0;
	} else if (access(SCHEDSTAT_PATH, R_OK) == 0 && r->schedstat.why[0]) {
		char tmp[REPORT_WHY_LEN];

		snprintf(tmp, sizeof(tmp), "%.200s: lb counters may not move", r->schedstat.why);
		snprintf(r->schedstat.why, sizeof(r->schedstat.why), "%s", tmp);
	}
	{
		char why[REPORT_WHY_LEN];

		rc = schedstat_read(SCHEDSTAT_PATH, &before, why, sizeof(why));
		if (rc)
			snprintf(r->schedstat.why, sizeof(r->schedstat.why), "%s", why);
		r->schedstat.ok = rc == 0;
	}

	run_pause(s, 0);

	if (s->o.bpf) {
		b = lat_bpf_start(r->latency.why, sizeof(r->latency.why));
		r->latency.ok = b != NULL;
		if (!b)
			cli_warn("run", "BPF not available: %s; continuing without", r->latency.why);
	}

	if (run_child(s))
		goto cleanup;
	/* stop counting and tracing: schedstat, the tables and the trace end here */
	if (r->module.loaded)
		run_pause(s, 1);
	/* the switches as the run ends, then ours put back */
	knobs_read(r->knobs.dir, &r->knobs.end);
	run_knobs_restore(s);
	if (s->trace)
		run_trace_stop_verdicts(s->trace);
	evidence_stop(s->ev);

	if (r->schedstat.ok) {
		char why[REPORT_WHY_LEN];

		if (schedstat_read(SCHEDSTAT_PATH, &after, why, sizeof(why)) ||
		    schedstat_delta(&before, &after, &r->schedstat.d)) {
			snprintf(r->schedstat.why, sizeof(r->schedstat.why), "%s", why);
			r->schedstat.ok = 0;
		}
		r->schedstat.version = after.version;
	}
	/* right after the schedstat copy: the same window */
	report_collect_module(r, cli.debugfs);
	if (r->module.loaded)
		evidence_tables(s->ev, cli.debugfs);
	run_pause(s, 0);
	schedstat_restore(SCHEDSTAT_SYSCTL, ss_prev);
	ss_prev = -1;
	report_latency_collect(r, b);
	if (s->o.result) {
		report_result_collect(r, s->o.result);
	} else if (s->result_tmp[0]) {
		struct stat st;

		/* CMD wrote a result: embed it (a file left empty means none) */
		if (stat(s->result_tmp, &st) == 0 && st.st_size > 0) {
			r->result.file = "$" CLI_RESULT_ENV;
			report_result_collect(r, s->result_tmp);
		}
	}
	/* the cgroup tree as CMD left it, before run removes its own */
	if (s->ev && evidence_write(s->ev, r, s->o.cmd, err, sizeof(err))) {
		cli_err("run", "%s", err);
		trace_failed = 1;
	}
	if (r->cg_used && r->cg.ncreated) {
		r->cg_created = 1;
		r->cg_removed = cg_remove(&r->cg) == 0;
		if (!r->cg_removed)
			cli_warn("run", "could not remove cgroup %s (still populated?)", r->cg.dir);
	}

	if (s->trace) {
		int trc = run_trace_finish(s->trace, r->exit_status, r->wall_s,
					   r->latency.ok ? &r->latency.lat : NULL, run_cg_name_cb, r,
					   err, sizeof(err));

		free(s->trace);
		s->trace = NULL;
		if (trc) {
			cli_err("run", "%s", err);
			trace_failed = 1;
		}
	}

	if (index > 1 && s->o.fmt == RUN_FMT_TEXT)
		fputc('\n', s->out);
	switch (s->o.fmt) {
	case RUN_FMT_JSON:
		report_print_json(r, s->out);
		break;
	case RUN_FMT_PROM:
		report_print_prom(r, s->out);
		break;
	default:
		report_print_text(r, s->out);
	}
	status = trace_failed ? CLI_EXIT_FAIL : r->exit_status;
	cli.doc_written = 1;	/* CMD's status passes through: no {"error"} for it */
	if (fflush(s->out) || ferror(s->out)) {
		cli_err("run", "%s: %s", s->o.output ? s->o.output : "stdout", strerror(errno));
		status = CLI_EXIT_FAIL;
	}
	/* the next repeat, unless CMD failed: its runs would not be the same experiment */
	*stop = status != CLI_EXIT_OK;
cleanup:
	run_knobs_restore(s);
	evidence_free(s->ev);
	s->ev = NULL;
	if (s->result_tmp[0])
		unlink(s->result_tmp);
	s->result_tmp[0] = 0;
	run_pause(s, 0);
	if (s->trace) {
		run_trace_abort(s->trace);
		free(s->trace);
		s->trace = NULL;
	}
	schedstat_restore(SCHEDSTAT_SYSCTL, ss_prev);
	lat_bpf_stop(b);
	if (r->cg_used && r->cg.ncreated)
		cg_remove(&r->cg);
	schedstat_free(&before);
	schedstat_free(&after);
	return status;
}

int cmd_run(int argc, char **argv)
{
	struct run_state *s;
	char err[512];
	int rc, status = CLI_EXIT_FAIL, stop = 0;

	s = calloc(1, sizeof(*s));
	if (!s) {
		cli_err("run", "out of memory");
		return CLI_EXIT_FAIL;
	}
	rc = run_parse_args(argc, argv, &s->o, err, sizeof(err));
	if (s->o.fmt == RUN_FMT_JSON)
		cli.json = 1;
	if (s->o.pretty)
		cli.pretty = 1;
	if (rc) {
		free(s);
		return rc > 0 ? CLI_EXIT_OK : cli_usage_error("run", "%s", err);
	}
	if (s->o.debugfs)
		cli.debugfs = s->o.debugfs;
	if (cli.json)
		s->o.fmt = RUN_FMT_JSON;
	s->out = stdout;

	if (s->o.perfetto && !cli_feature("perfetto")->built) {
		cli_err("run", "--perfetto: built without Perfetto traces: %s",
			cli_feature("perfetto")->why);
		status = CLI_EXIT_NOTOOL;
		goto cleanup;
	}
	/* Without the module (and no --no-module) nothing is touched */
	status = run_module_probe(s);
	if (status)
		goto cleanup;
	/* the kernel's switches; a --set this kernel cannot take fails here (each run reads them again) */
	status = run_knobs_start(s);
	if (status)
		goto cleanup;
	snprintf(s->knobs_note, sizeof(s->knobs_note), "%s", s->r.knobs.note);
	status = CLI_EXIT_FAIL;
	/* -o: an unwritable place fails before anything is touched */
	if (s->o.output) {
		s->out = fopen(s->o.output, "we");
		if (!s->out) {
			cli_err("run", "%s: %s", s->o.output, strerror(errno));
			s->out = stdout;
			goto cleanup;
		}
	}
	for (int k = 1; k <= s->o.repeat && !stop; k++)
		status = run_one(s, k, &stop);
cleanup:
	run_knobs_restore(s);
	if (s->out && s->out != stdout)
		fclose(s->out);
	report_free(&s->r);
	free(s);
	return status;
}
