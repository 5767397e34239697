/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option table per command (perf's OPT_* tables, bpftool's cmds[]):
 * a command's spec lists its options once, and everything else comes
 * from it: the getopt_long parsing, the usage text (`CMD --help`,
 * `help CMD`), the man page's COMMANDS section and the bash completion
 * (`help --man`, `help --bash-completion`, written into
 * docs/sched-shadow.1 and bash-completion/sched-shadow by `make docs`,
 * checked by the unit tests).
 *
 * Options every command shares are flags of the spec, not rows:
 * CLI_SPEC_DEBUGFS (--debugfs DIR), CLI_SPEC_JSON (-j/--json,
 * -p/--pretty), CLI_SPEC_PROM (--prom); -h/--help is always there.
 * The parser is free of CLI globals: host tests call it directly.
 */
#ifndef SCHED_SHADOW_CLI_OPTIONS_H
#define SCHED_SHADOW_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* What an option's value is (usage text, man page, completion). */
enum cli_val {
	CLI_VAL_NONE,		/* a flag */
	CLI_VAL_WORD,		/* a number, a name */
	CLI_VAL_FILE,
	CLI_VAL_DIR,
	CLI_VAL_CGROUP,		/* a cgroup v2 path */
};

/* Keys of options without a letter start here (a letter's key is the letter). */
#define CLI_KEY_LONG	0x100

struct cli_opt {
	int key;		/* 'x' for -x (and its long name), or >= CLI_KEY_LONG */
	const char *name;	/* long name, or NULL */
	enum cli_val val;
	const char *valname;	/* "SECONDS", shown in usage */
	const char *help;	/* one line; NULL: accepted, not shown (an old spelling) */
	const char *moved;	/* refused with "now MOVED" (letters that changed meaning) */
};

enum {
	CLI_SPEC_DEBUGFS	= 1 << 0,	/* --debugfs DIR */
	CLI_SPEC_JSON		= 1 << 1,	/* -j/--json, -p/--pretty */
	CLI_SPEC_PROM		= 1 << 2,	/* --prom */
	CLI_SPEC_OPERANDS_LAST	= 1 << 3,	/* options stop at the first operand (run -- CMD) */
};

struct cli_spec {
	const char *name;	/* the command */
	const char *synopsis;	/* after the options: "FILE.csv", "-- CMD [ARGS...]" */
	const char *summary;	/* one line for the command list */
	const char *help;	/* the description, lines separated by '\n' */
	const struct cli_opt *opts;	/* ends with a zero key */
	unsigned int flags;		/* CLI_SPEC_* */
	enum cli_val operand;	/* what the operands are (completion) */
};

/* The options shared through the flags, as rows (for help and completion). */
extern const struct cli_opt cli_opt_debugfs, cli_opt_json, cli_opt_pretty, cli_opt_prom,
	cli_opt_help;

/* What the shared options set. */
struct cli_common {
	const char *debugfs;	/* NULL unless given */
	int json, pretty, prom, help;
};

/*
 * Parse argv (argv[0] is the command) by the spec.  Each option of the
 * command's own table goes to fn(ctx, key, value), which returns 0 or
 * -1 with a message in err; the shared ones fill *common.  Returns the
 * index of the first operand, or -1 with the message in err (unknown
 * option, missing value, a moved letter, fn's message).  With --help
 * common->help is set and parsing stops.
 */
int cli_parse_options(const struct cli_spec *spec, int argc, char **argv,
		      int (*fn)(void *ctx, int key, const char *val, char *err, size_t errlen),
		      void *ctx, struct cli_common *common, char *err, size_t errlen);

/* "usage: sched-shadow NAME [OPTIONS] SYNOPSIS", the description and the options. */
void cli_spec_usage(const struct cli_spec *spec, const char *prog, FILE *f);
/* The options' usage lines only (also used for the global options). */
void cli_spec_options(const struct cli_spec *spec, FILE *f);
/* One command as a man page subsection (roff), and its completion case. */
void cli_spec_man(const struct cli_spec *spec, const char *prog, FILE *f);
/* The shared options, once, for the man page's COMMON OPTIONS section. */
void cli_spec_man_common(FILE *f);
/* Words bash may complete after the command: its options, space-separated. */
void cli_spec_words(const struct cli_spec *spec, FILE *f);
/* Options whose value is a file/dir/cgroup, as a bash case pattern ("-o|--output"). */
void cli_spec_valopts(const struct cli_spec *spec, enum cli_val val, FILE *f);

#endif
