// SPDX-License-Identifier: GPL-2.0
/* `reset`: write 1 to <debugfs>/reset, clearing counters and statistics. */
#include "cli/cli.h"

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = { CLI_COMMON_LONGOPTS, { 0 } };
	struct dbgfs_error err;
	int c, rc, quiet = 0;

	while ((c = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		if (c == CLI_OPT_HELP) {
			printf("usage: %s reset [-q] [--debugfs DIR]\n"
			       "Clear the module's counters and statistics (writes 1 to %s/reset).\n"
			       "  -q  no confirmation line\n", CLI_NAME, CLI_DEFAULT_DEBUGFS);
			return CLI_EXIT_OK;
		}
		if (c == 'q') {
			quiet = 1;
			continue;
		}
		rc = cli_common_opt("reset", c, optarg, NULL);
		if (rc < 0)
			return CLI_EXIT_USAGE;
		if (rc == 0)
			return cli_usage_error("reset", "unexpected option");
	}
	if (optind < argc)
		return cli_usage_error("reset", "unexpected argument '%s'", argv[optind]);
	rc = dbgfs_write(cli.debugfs, "reset", "1\n", &err);
	if (rc) {
		cli_err("reset", "%s", err.msg);
		return rc == DBGFS_ENOMODULE || rc == DBGFS_ENODEBUGFS || rc == DBGFS_EACCES ?
			CLI_EXIT_NOMODULE : CLI_EXIT_FAIL;
	}
	if (!quiet)
		printf("sched_shadow counters reset\n");
	return CLI_EXIT_OK;
}
