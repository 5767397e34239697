/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own answers to the nested-cgroup problem, as switches in
 * the scheduler's debugfs directory (/sys/kernel/debug/sched):
 *
 *   cgroup_mode          7.3: how a group's weight per CPU is computed,
 *                        "up smp (concur) max tasks" (the one in force in
 *                        parentheses); fair.c's calc_*_shares()
 *   llc_balancing/       7.2, 7.3 (CONFIG_SCHED_CACHE): cache-aware
 *                        balancing; `enabled` 0|1 and its tunables
 *
 * `run` reads them at its start and end and can set them for its length
 * (--set), restoring them on exit, on failure and on SIGINT/TERM/HUP; a
 * state file (knobs_state_path()) lets the next `run` restore what a
 * killed one left set.  A kernel without a switch reads "absent".
 *
 * No CLI globals: host unit tests call these with a fake directory.
 */
#ifndef SCHED_SHADOW_CLI_KNOBS_H
#define SCHED_SHADOW_CLI_KNOBS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The state file of a run that set a switch, in $SCHED_SHADOW_STATE_DIR
 * or /run/sched-shadow (tmpfs: a reboot clears it, as it clears the
 * switches).
 */
#define KNOBS_STATE_DIR		"/run/sched-shadow"
#define KNOBS_STATE_ENV		"SCHED_SHADOW_STATE_DIR"
/* The state file's path into buf (at most 4096 bytes). */
const char *knobs_state_path(char *buf, size_t len);

#define KNOBS_VAL_LEN		48
#define KNOBS_MAX		8	/* cgroup_mode, llc_balancing and its tunables */

/* What a switch read: its value, or why there is none. */
enum knob_state {
	KNOB_OK,		/* value read */
	KNOB_ABSENT,		/* the kernel has no such file */
	KNOB_UNREADABLE,	/* it has one, but it could not be read (why: errno text) */
};

struct knob {
	char name[40];			/* "cgroup_mode", "llc_balancing", "llc_balancing.imb_pct" */
	enum knob_state state;
	char value[KNOBS_VAL_LEN];	/* "concur", "1"; "absent" or "" (unreadable) otherwise */
	char why[256];			/* KNOB_UNREADABLE: the file and strerror */
};

/* One reading of every switch; [0] cgroup_mode, [1] llc_balancing, then its tunables. */
struct knobs {
	int n;
	struct knob k[KNOBS_MAX];
	char modes[KNOBS_VAL_LEN];	/* cgroup_mode's choices, "up smp concur max tasks" */
};

/* The scheduler's debugfs directory beside the module's (DIR/../sched), into buf. */
const char *knobs_dir_of(const char *module_debugfs, char *buf, size_t len);

/* Read every switch under dir (the sched debugfs directory); never fails. */
void knobs_read(const char *dir, struct knobs *k);
/* The value of switch name, NULL when not read (absent or unreadable). */
const char *knobs_value(const struct knobs *k, const char *name);
const struct knob *knobs_find(const struct knobs *k, const char *name);

/*
 * Parse the text of cgroup_mode ("up smp (concur) max tasks \n"): the
 * mode in parentheses into mode, the choices (without parentheses,
 * space separated) into choices.  0, or -1 when no mode is marked.
 */
int knobs_parse_mode(const char *text, char *mode, size_t mlen, char *choices, size_t clen);

/* What `run --set` changed, and how to undo it. */
struct knob_set {
	char name[40];
	char path[4096 + 64];		/* the file written */
	char value[KNOBS_VAL_LEN];	/* what run wrote ("smp", "0") */
	char before[KNOBS_VAL_LEN];	/* what was there ("concur", "1") */
	int applied;			/* written, not yet restored */
	int restored;			/* 1 restored, -1 left as found (changed by someone else) */
};

/*
 * Check a --set against the switches read (k): the file exists, the value
 * is one the kernel offers.  Fills s (path, value, before).  0; -1 with
 * err and *code: 2 the kernel has no such switch, 64 the value is not one
 * of its choices.
 */
int knobs_prepare(const char *dir, const struct knobs *k, const char *name, const char *value,
		  struct knob_set *s, char *err, size_t errlen, int *code);
/* Write s->value; 0 or -1 with err. */
int knobs_apply(struct knob_set *s, char *err, size_t errlen);
/*
 * Write s->before back when the switch still holds s->value (s->restored
 * 1); one changed by someone else meanwhile is left as found (-1).
 * Async-signal-safe (open, read, write, close only): the signal handler
 * of `run` calls it.  0 when nothing was left to do.
 */
int knobs_restore(struct knob_set *s);

/*
 * The state file: written before a switch is changed, removed once every
 * switch is restored.  Lines: "pid PID START", then "set NAME PATH VALUE
 * BEFORE" per switch.  START is the process start time (/proc/PID/stat
 * field 22), so a reused pid does not look alive.
 */
int knobs_state_write(const char *path, const struct knob_set *s, int n, char *err, size_t errlen);
/*
 * Read a state file: 0 (none), or the number of switches in s (at most
 * max), the owner's pid in *pid and whether it still runs in *alive.
 * -1: unreadable or malformed (err says).
 */
int knobs_state_read(const char *path, struct knob_set *s, int max, pid_t *pid, int *alive,
		     char *err, size_t errlen);
/* The start time of pid from /proc (0 when gone). */
unsigned long long knobs_pid_start(pid_t pid);

#endif
