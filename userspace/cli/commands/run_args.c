// SPDX-License-Identifier: GPL-2.0
/*
 * `run`'s options (see run_args.h): one table; options stop at CMD.  No
 * CLI globals, so host unit tests check its errors directly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/fmt.h"
#include "cli/commands/run_args.h"

enum { RUN_OPT_CGROUP = CLI_KEY_LONG, RUN_OPT_BPF, RUN_OPT_NOBPF, RUN_OPT_NOMODULE, RUN_OPT_PERFETTO, RUN_OPT_LABEL,
       RUN_OPT_NOTE, RUN_OPT_RESULT, RUN_OPT_SET, RUN_OPT_ALLOW_NOCPU, RUN_OPT_REPEAT, RUN_OPT_EVIDENCE };

/*
 * --set NAME=VALUE: NAME is cgroup_mode (VALUE a lower-case word, checked
 * against the kernel's choices when run applies it) or llc_balancing
 * (VALUE 0 or 1).  0, or -1 with the reason in err.
 */
static int run_parse_set(const char *arg, char *name, size_t nlen, char *value, size_t vlen,
			 char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t n;

	if (!eq) {
		fmt_into(err, errlen, "--set '%s': NAME=VALUE (cgroup_mode=MODE or llc_balancing=0|1)", arg);
		return -1;
	}
	n = eq - arg;
	if ((n == 11 && !strncmp(arg, "cgroup_mode", n)) || (n == 13 && !strncmp(arg, "llc_balancing", n))) {
		snprintf(name, nlen, "%.*s", (int)n, arg);
	} else {
		fmt_into(err, errlen, "--set '%s': unknown switch '%.*s' (cgroup_mode or llc_balancing)",
			 arg, (int)n, arg);
		return -1;
	}
	eq++;
	if (!strcmp(name, "llc_balancing")) {
		if (strcmp(eq, "0") && strcmp(eq, "1")) {
			fmt_into(err, errlen, "--set '%s': llc_balancing is 0 or 1", arg);
			return -1;
		}
	} else {
		size_t l = strlen(eq);

		if (!l || l >= 16 || strspn(eq, "abcdefghijklmnopqrstuvwxyz") != l) {
			fmt_into(err, errlen, "--set '%s': a cgroup_mode is a lower-case word "
				 "(7.3: up, smp, concur, max, tasks)", arg);
			return -1;
		}
	}
	snprintf(value, vlen, "%s", eq);
	return 0;
}

static const struct cli_opt run_option_table[] = {
	{ RUN_OPT_CGROUP, "cgroup", CLI_VAL_CGROUP, "PATH",
	  "run CMD in cgroup v2 PATH (created if needed, removed afterwards if created; "
	  "refused, exit 2, when the cpu controller cannot be enabled down to it)", NULL },
	{ RUN_OPT_ALLOW_NOCPU, "allow-no-cpu-controller", CLI_VAL_NONE, NULL,
	  "run in the --cgroup even without the cpu controller (the report says so)", NULL },
	{ RUN_OPT_BPF, "bpf", CLI_VAL_NONE, NULL, "collect wakeup latency with BPF (the default)", NULL },
	{ RUN_OPT_NOBPF, "no-bpf", CLI_VAL_NONE, NULL, "do not load BPF", NULL },
	{ RUN_OPT_NOMODULE, "no-module", CLI_VAL_NONE, NULL,
	  "run without the module: BPF and /proc/schedstat only", NULL },
	{ RUN_OPT_PERFETTO, "perfetto", CLI_VAL_FILE, "FILE",
	  "also write the run as a Perfetto trace", NULL },
	{ RUN_OPT_EVIDENCE, "evidence", CLI_VAL_DIR, "DIR",
	  "write the evidence of the run's top wasted-core cause to DIR (created, or empty)", NULL },
	{ 'i', "interval", CLI_VAL_WORD, "SECONDS",
	  "sampling interval of the trace (default 0.5; with --perfetto)", NULL },
	{ RUN_OPT_SET, "set", CLI_VAL_WORD, "NAME=VALUE",
	  "set a kernel switch for the run, restored afterwards: cgroup_mode=MODE (7.3), "
	  "llc_balancing=0|1 (7.2, 7.3)", NULL },
	{ RUN_OPT_LABEL, "label", CLI_VAL_WORD, "NAME", "name of the run (its column in compare)", NULL },
	{ RUN_OPT_NOTE, "note", CLI_VAL_WORD, "TEXT", "one line about the setup, shown by report and compare", NULL },
	{ 'o', "output", CLI_VAL_FILE, "FILE", "write the report to FILE (CMD keeps stdout)", NULL },
	{ 'r', "repeat", CLI_VAL_WORD, "N",
	  "run CMD N times (1-100), one report each: with -j one document per line, which "
	  "compare reads as N runs of one side; stops at the first run CMD fails", NULL },
	{ RUN_OPT_RESULT, "result", CLI_VAL_FILE, "FILE",
	  "a JSON result CMD writes to FILE, embedded in the report (else the one CMD may "
	  "write to $SCHED_SHADOW_RESULT, as bench does)", NULL },
	{ 0 }
};

const struct cli_spec run_spec = {
	.name = "run",
	.synopsis = "-- CMD [ARGS...]",
	.summary = "reset, run a command under BPF collection, report",
	.help = "Reset the module's counters, start the BPF wakeup-latency collection, run CMD\n"
		"(inside cgroup PATH with --cgroup), then print one report: the balancer's\n"
		"verdicts and their reasons, shadow vs real load per CPU, wakeup latency per\n"
		"cgroup, and the /proc/schedstat load-balance deltas of the same window.\n"
		"Without the module, run fails (exit 2) unless --no-module is given; so does\n"
		"--cgroup PATH when the cpu controller cannot be enabled down to PATH (cgroup\n"
		"v1, not delegated), unless --allow-no-cpu-controller is given.  CMD finds\n"
		"a file name in $SCHED_SHADOW_RESULT where it may write a JSON result (bench\n"
		"does); the report embeds it, and compare shows bench's latency from it.\n"
		"The kernel's switches (cgroup_mode, llc_balancing in /sys/kernel/debug/sched)\n"
		"are read at the start and the end; --set changes one for the run and puts it\n"
		"back on exit, on failure and on SIGINT/TERM/HUP (after a SIGKILL, the next run\n"
		"does); on a kernel without it, --set exits 2.\n"
		"Exit status: CMD's (128+N when killed by signal N, 127 when not found).",
	.opts = run_option_table,
	.flags = CLI_SPEC_DEBUGFS | CLI_SPEC_JSON | CLI_SPEC_PROM | CLI_SPEC_OPERANDS_LAST,
	.operand = CLI_VAL_FILE,
};

void run_usage(FILE *f)
{
	cli_spec_usage(&run_spec, "sched-shadow", f);
}

struct run_parse {
	struct run_opts *o;
	int have_interval;
};

static int run_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	struct run_parse *p = ctx;
	struct run_opts *o = p->o;
	char *end;

	switch (key) {
	case RUN_OPT_CGROUP:
		o->cgroup = val;
		break;
	case 'r':
		errno = 0;
		o->repeat = strtol(val, &end, 10);
		if (errno || end == val || *end || o->repeat < 1 || o->repeat > 100) {
			fmt_into(err, errlen, "bad --repeat '%s' (a count, 1 to 100)", val);
			return -1;
		}
		break;
	case RUN_OPT_ALLOW_NOCPU:
		o->allow_no_cpu = 1;
		break;
	case RUN_OPT_BPF:
		o->bpf = 1;
		break;
	case RUN_OPT_NOBPF:
		o->bpf = 0;
		break;
	case RUN_OPT_NOMODULE:
		o->module = 0;
		break;
	case RUN_OPT_PERFETTO:
		if (!strcmp(val, "-")) {
			fmt_into(err, errlen, "--perfetto needs a file name");
			return -1;
		}
		o->perfetto = val;
		break;
	case RUN_OPT_EVIDENCE:
		if (!strcmp(val, "-") || !val[0]) {
			fmt_into(err, errlen, "--evidence needs a directory name");
			return -1;
		}
		o->evidence = val;
		break;
	case 'i':
		errno = 0;
		o->interval = strtod(val, &end);
		if (errno || end == val || *end || !(o->interval >= 0.001) || o->interval > 86400) {
			fmt_into(err, errlen, "bad --interval '%s' (seconds, 0.001 to 86400)", val);
			return -1;
		}
		p->have_interval = 1;
		break;
	case RUN_OPT_LABEL:
		o->label = val;
		break;
	case RUN_OPT_NOTE:
		o->note = val;
		break;
	case RUN_OPT_RESULT:
		o->result = val;
		break;
	case RUN_OPT_SET: {
		char name[40], value[KNOBS_VAL_LEN];

		if (run_parse_set(val, name, sizeof(name), value, sizeof(value), err, errlen))
			return -1;
		for (int k = 0; k < o->nset; k++)
			if (!strcmp(o->set_name[k], name)) {
				fmt_into(err, errlen, "--set %s given twice", name);
				return -1;
			}
		snprintf(o->set_name[o->nset], sizeof(o->set_name[0]), "%s", name);
		snprintf(o->set_value[o->nset], sizeof(o->set_value[0]), "%s", value);
		o->nset++;
		break;
	}
	case 'o':
		if (!strcmp(val, "-")) {
			o->output = NULL;
			break;
		}
		o->output = val;
		break;
	}
	return 0;
}

int run_parse_args(int argc, char **argv, struct run_opts *o,
		   char *err, size_t errlen)
{
	struct run_parse p = { .o = o };
	struct cli_common common;
	int i;

	memset(o, 0, sizeof(*o));
	o->bpf = 1;
	o->module = 1;
	o->interval = 0.5;
	o->repeat = 1;
	i = cli_parse_options(&run_spec, argc, argv, run_opt, &p, &common, err, errlen);
	o->fmt = common.json ? RUN_FMT_JSON : common.prom ? RUN_FMT_PROM : RUN_FMT_TEXT;
	o->pretty = common.pretty;
	if (i < 0)
		return -1;
	if (common.help) {
		run_usage(stdout);
		return 1;
	}
	o->fmt = common.json ? RUN_FMT_JSON : common.prom ? RUN_FMT_PROM : RUN_FMT_TEXT;
	o->debugfs = common.debugfs;
	o->pretty = common.pretty;
	if (o->repeat > 1 && o->perfetto) {
		fmt_into(err, errlen, "--perfetto traces one run: drop --repeat, or --perfetto");
		return -1;
	}
	if (o->repeat > 1 && o->evidence) {
		fmt_into(err, errlen, "--evidence records one run: drop --repeat, or --evidence");
		return -1;
	}
	if (o->repeat > 1 && o->fmt == RUN_FMT_PROM) {
		fmt_into(err, errlen, "--prom exposes one run: drop --repeat, or --prom");
		return -1;
	}
	if (p.have_interval && !o->perfetto) {
		fmt_into(err, errlen, "--interval is the sampling interval of --perfetto; give --perfetto FILE");
		return -1;
	}
	if (o->allow_no_cpu && !o->cgroup) {
		fmt_into(err, errlen, "--allow-no-cpu-controller goes with --cgroup PATH");
		return -1;
	}
	if (i >= argc) {
		fmt_into(err, errlen, "no command given (usage: run [OPTIONS] -- CMD [ARGS...])");
		return -1;
	}
	o->cmd = &argv[i];
	return 0;
}
