/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `bench` workload (schbench-style, the project's own code), the
 * cgroup v2 helpers `bench` and `run` share, and the option parsers of
 * both subcommands (kept here, free of CLI globals, so host unit tests
 * can check their errors).
 *
 * Workload: M message threads, each owning W workers.  Every round a
 * message thread takes a CLOCK_MONOTONIC timestamp and wakes each of its
 * workers that is waiting (futex); a worker records now - timestamp as
 * its wakeup latency, burns C us of its own CPU time, and waits again.
 * A worker still busy when its message thread comes round is skipped
 * that round (counted).  Message threads sleep S us between rounds.
 */
#ifndef SHADOW_CLI_BENCH_CORE_H
#define SHADOW_CLI_BENCH_CORE_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include "latency.h"

#define BENCH_MAX_THREADS	1024	/* message threads * workers */

struct bench_opts {
	long msg_threads;	/* -m */
	long workers;		/* -t, per message thread */
	long burn_us;		/* -C */
	long sleep_us;		/* -s */
	double duration_s;	/* -d */
	const char *cgroup;	/* --cgroup PATH (relative to the cgroup2 mount) */
	long weight;		/* --weight, 0 = leave the default */
	int json;
};

void bench_opts_default(struct bench_opts *o);
/*
 * Parse bench's argv (argv[0] = "bench").  Returns 0 when ready to run,
 * 1 when --help was given (usage already printed to stdout), -1 on a
 * usage error with the reason in err.
 */
int bench_parse_args(int argc, char **argv, struct bench_opts *o,
		     char *err, size_t errlen);
void bench_usage(FILE *f);

struct bench_result {
	struct lat_fine lat;	/* worker wakeup latency, us */
	uint64_t requests;	/* worker rounds completed */
	uint64_t wakeups;	/* workers the futex wake really woke */
	uint64_t skipped;	/* worker still busy when its round came */
	uint64_t rounds;	/* message thread rounds */
	double runtime_s;
};

/* Run the workload in the calling process; 0 or -1 with err. */
int bench_run(const struct bench_opts *o, struct bench_result *r,
	      char *err, size_t errlen);

/* ---- cgroup v2 ---- */

struct cg_handle {
	char mnt[256];		/* cgroup2 mount point */
	char dir[4096];		/* absolute directory of the cgroup */
	char rel[4096];		/* path relative to the mount, starting with '/' */
	char orig[4096];	/* where the process was before cg_enter */
	int ncreated;		/* directories this handle created, outermost first */
	char *created[16];
	uint64_t cgid;		/* inode number = cgroup id */
	int weight_applied;
	char note[256];		/* why a requested weight was not applied */
};

/* Mount point of the cgroup2 hierarchy; 0 or -1 with err. */
int cg_mount_point(char *out, size_t len, char *err, size_t errlen);
/*
 * Resolve PATH below the cgroup2 mount and create what is missing
 * (mkdir -p), enable +cpu in the ancestors' subtree_control and, when
 * weight > 0, write cpu.weight; failure of those is not fatal (h->note
 * says why).  Writing "/" means the root cgroup.
 */
int cg_create(struct cg_handle *h, const char *path, long weight,
	      char *err, size_t errlen);
/* Move process pid (0 = the caller) into the cgroup. */
int cg_enter(struct cg_handle *h, pid_t pid, char *err, size_t errlen);
/* Move the caller back to where it was before cg_enter. */
int cg_leave(struct cg_handle *h);
/* Remove the directories cg_create made (innermost first); 0 if all gone. */
int cg_remove(struct cg_handle *h);
/* Path (relative to the mount, "/" for the root) of cgroup id; 0 if found. */
int cg_path_of_id(const char *mnt, uint64_t id, char *out, size_t len);

/* ---- run's options ---- */

enum run_fmt { RUN_FMT_TEXT, RUN_FMT_JSON, RUN_FMT_PROM };

struct run_opts {
	const char *cgroup;
	int bpf;		/* 1 default, 0 with --no-bpf */
	enum run_fmt fmt;
	const char *debugfs;	/* --debugfs DIR or NULL */
	const char *perfetto;	/* --perfetto FILE or NULL */
	double interval;	/* --interval: trace sampling period, s (0.5) */
	char **cmd;		/* NULL-terminated CMD ARGS... */
};

int run_parse_args(int argc, char **argv, struct run_opts *o,
		   char *err, size_t errlen);
void run_usage(FILE *f);

#endif /* SHADOW_CLI_BENCH_CORE_H */
