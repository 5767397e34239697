// SPDX-License-Identifier: GPL-2.0
/* `reset`: write 1 to <debugfs>/reset, clearing counters and statistics. */
#include "cli/cli.h"

static const struct cli_opt reset_opts[] = {
	{ 'q', "quiet", CLI_VAL_NONE, NULL, "no confirmation line", NULL },
	{ 0 }
};

const struct cli_spec reset_spec = {
	.name = "reset",
	.summary = "clear the module's counters and statistics",
	.help = "Clear the module's counters and statistics (writes 1 to its reset file).",
	.opts = reset_opts,
	.flags = CLI_SPEC_DEBUGFS | CLI_SPEC_JSON,
};

static int reset_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	(void)key;
	(void)val;
	(void)err;
	(void)errlen;
	*(int *)ctx = 1;
	return 0;
}

int cmd_reset(int argc, char **argv)
{
	enum cli_format fmt = CLI_FMT_TEXT;
	struct dbgfs_error err;
	int rc, quiet = 0, i;

	i = cli_options(&reset_spec, argc, argv, reset_opt, &quiet, &fmt);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	if (i < argc)
		return cli_usage_error("reset", "unexpected argument '%s'", argv[i]);
	rc = dbgfs_write(cli.debugfs, "reset", "1\n", &err);
	if (rc) {
		cli_err("reset", "%s", err.msg);
		return cli_exit_for(rc);
	}
	if (fmt == CLI_FMT_JSON) {
		struct json_writer w;

		json_init(&w, stdout, cli.pretty);
		emit_json_header(&w, "reset");
		json_kv_bool(&w, "reset", true);
		json_obj_end(&w);
		return json_end(&w) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	}
	if (!quiet)
		printf("sched_shadow counters reset\n");
	return CLI_EXIT_OK;
}
