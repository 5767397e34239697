// SPDX-License-Identifier: GPL-2.0
/*
 * `run --perfetto FILE` (run_trace.h): sample while CMD runs, then close
 * CMD's slice with the latency percentiles.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/perfetto/run_trace.h"

#define RUN_TRACE_MAX_CGROUPS	64	/* latency dictionaries on the slice */

int run_trace_open(struct run_trace *t, const char *path, const char *debugfs, char *const *cmd,
		   char *err, size_t errlen)
{
	size_t len = 1, o = 0;
	char *name;

	memset(t, 0, sizeof(*t));
	for (int i = 0; cmd[i]; i++)
		len += strlen(cmd[i]) + 1;
	t->cmdline = malloc(len);
	if (!t->cmdline) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->cmdline[0] = 0;
	/* the whole command line names the slice */
	for (int i = 0; cmd[i]; i++)
		o += (size_t)snprintf(t->cmdline + o, len - o, "%s%s", i ? " " : "", cmd[i]);
	if (pfrec_open(&t->rec, path, err, errlen)) {
		free(t->cmdline);
		t->cmdline = NULL;
		return -1;
	}
	t->debugfs = debugfs;
	if (asprintf(&name, "run: %s", t->cmdline) < 0)
		name = NULL;
	t->cmd_track = pfrec_track(&t->rec, name ? name : "run");
	free(name);
	return 0;
}

void run_trace_start(struct run_trace *t, int module_loaded)
{
	t->sample = module_loaded;
	if (module_loaded && pfrec_verdicts_start(&t->rec))
		cli_warn("run", "lb verdicts not in the trace: %s", t->rec.lbt_why);
}

void run_trace_sample(struct run_trace *t)
{
	struct dbgfs_error err;

	if (!t->sample)
		return;
	if (pfrec_sample_debugfs(&t->rec, t->debugfs, pft_now_ns(), &err) && !t->sample_failed) {
		cli_warn("run", "trace sample failed: %s", err.msg);
		t->sample_failed = 1;
	}
}

/* Wait up to `s` seconds for the child to exit (pidfd when the kernel has it). */
static void run_trace_nap(int pidfd, double s)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	if (s <= 0)
		return;
	if (pidfd >= 0) {
		poll(&p, 1, (int)(s * 1000) + 1);
		return;
	}
	/* no pidfd (kernel < 5.3): short naps, the caller checks waitpid */
	usleep(s > 0.02 ? 20000 : (useconds_t)(s * 1e6));
}

void run_trace_mark_begin(struct run_trace *t)
{
	t->t_begin = pft_now_ns();
}

int run_trace_wait(struct run_trace *t, pid_t pid, double interval, const char *cgroup,
		   int *status)
{
	struct pft_arg args[2];
	int n = 0, pidfd;
	double next;
	pid_t w;

	args[n].name = "cmd";
	args[n].kind = PFT_ARG_STR;
	args[n].s = t->cmdline;
	n++;
	args[n].name = "cgroup";
	args[n].kind = PFT_ARG_STR;
	args[n].s = cgroup ? cgroup : "(inherited)";
	n++;
	if (!t->t_begin)
		t->t_begin = pft_now_ns();
	pft_slice_begin(&t->rec.w, t->cmd_track, t->t_begin, t->cmdline, args, (size_t)n);
#ifdef SYS_pidfd_open
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
	pidfd = -1;
#endif
	next = cli_now();
	for (;;) {
		w = waitpid(pid, status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			int e = errno;

			if (pidfd >= 0)
				close(pidfd);
			errno = e;
			return -1;
		}
		if (cli_now() >= next) {
			run_trace_sample(t);
			next += interval;
			if (next < cli_now())	/* fell behind: do not burst */
				next = cli_now() + interval;
		}
		run_trace_nap(pidfd, next - cli_now());
	}
	t->t_end = pft_now_ns();
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

int run_trace_finish(struct run_trace *t, int exit_status, double wall_s,
		     const struct lat_snapshot *lat,
		     const char *(*cg_name)(const void *ctx, int i, char *buf, size_t len),
		     const void *ctx, char *err, size_t errlen)
{
	static const int per_cg = 4 + LAT_NPCT;
	struct pft_arg top[2 + RUN_TRACE_MAX_CGROUPS], *ent = NULL;
	char *names[RUN_TRACE_MAX_CGROUPS] = { NULL }, (*keys)[LAT_NPCT][16] = NULL;
	int n = 0, ncg = 0, rc;

	top[n].name = "exit_status";
	top[n].kind = PFT_ARG_INT;
	top[n].i = exit_status;
	n++;
	top[n].name = "wall_s";
	top[n].kind = PFT_ARG_DOUBLE;
	top[n].d = wall_s;
	n++;
	if (lat && lat->ncg) {
		ent = calloc((size_t)RUN_TRACE_MAX_CGROUPS * per_cg, sizeof(*ent));
		keys = calloc(RUN_TRACE_MAX_CGROUPS, sizeof(*keys));
	}
	/* one dictionary per cgroup with activity: the run report's latency_us */
	for (int i = 0; ent && keys && i < lat->ncg && ncg < RUN_TRACE_MAX_CGROUPS; i++) {
		const struct lat_cg_val *v = &lat->cg[i].v;
		struct pft_arg *e = &ent[ncg * per_cg];
		int k = 0;

		if (!v->wakeups && !v->samples && !v->migrations)
			continue;
		e[k].name = "wakeups";
		e[k].kind = PFT_ARG_UINT;
		e[k++].u = v->wakeups;
		e[k].name = "migrations";
		e[k].kind = PFT_ARG_UINT;
		e[k++].u = v->migrations;
		e[k].name = "samples";
		e[k].kind = PFT_ARG_UINT;
		e[k++].u = v->samples;
		for (int q = 0; q < LAT_NPCT && v->samples; q++) {
			struct lat_estimate est;

			lat_log2_percentile(v, lat_pct_q[q], &est);
			if (!est.valid)
				continue;
			snprintf(keys[ncg][q], sizeof(keys[ncg][q]), "%s_us", lat_pct_key[q]);
			e[k].name = keys[ncg][q];
			e[k].kind = PFT_ARG_DOUBLE;
			e[k++].d = est.value_ns / 1000.0;
		}
		if (v->samples) {
			e[k].name = "max_us";
			e[k].kind = PFT_ARG_DOUBLE;
			e[k++].d = v->max_ns / 1000.0;
		}
		{
			char b[64];

			if (asprintf(&names[ncg], "latency %s", cg_name(ctx, i, b, sizeof(b))) < 0)
				names[ncg] = NULL;
		}
		if (!names[ncg])
			break;
		top[n].name = names[ncg];
		top[n].kind = PFT_ARG_DICT;
		top[n].dict = e;
		top[n].ndict = (size_t)k;
		n++;
		ncg++;
	}
	pft_slice_end(&t->rec.w, t->cmd_track, t->t_end ? t->t_end : pft_now_ns(), top, (size_t)n);
	free(ent);
	for (int i = 0; i < ncg; i++)
		free(names[i]);
	free(keys);
	rc = pfrec_finish(&t->rec, err, errlen);
	free(t->cmdline);
	t->cmdline = NULL;
	return rc;
}

void run_trace_stop_verdicts(struct run_trace *t)
{
	pfrec_verdicts_stop(&t->rec);
}

void run_trace_abort(struct run_trace *t)
{
	pfrec_abort(&t->rec);
	free(t->cmdline);
	t->cmdline = NULL;
}
