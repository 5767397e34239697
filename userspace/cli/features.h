/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Optional features of the build (bpftool's feature detection): cli.mk
 * probes for what each needs and, when it is missing, builds without it
 * (-DCLI_NO_<FEATURE>="why") and says so; `sched-shadow version` lists
 * them, and a command that needs a missing one fails with that reason
 * (exit 3).
 */
#ifndef SCHED_SHADOW_CLI_FEATURES_H
#define SCHED_SHADOW_CLI_FEATURES_H

struct cli_feature {
	const char *name;	/* "bpf", "perfetto" */
	const char *what;	/* what it gives */
	int built;
	const char *why;	/* when not built: what was missing at build time */
};

/* Ends with a NULL name. */
extern const struct cli_feature cli_features[];

/* The feature's entry by name (NULL if unknown). */
const struct cli_feature *cli_feature(const char *name);

#endif
