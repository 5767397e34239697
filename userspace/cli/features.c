// SPDX-License-Identifier: GPL-2.0
/* The optional features this binary was built with (see features.h). */
#include <string.h>
#include "cli/features.h"

const struct cli_feature cli_features[] = {
	{ "bpf", "wakeup latency per cgroup in run reports (BPF, libbpf skeleton)",
#ifdef CLI_NO_BPF
	  0, CLI_NO_BPF
#else
	  1, NULL
#endif
	},
	{ "perfetto", "Perfetto traces (record --perfetto, run --perfetto; protobuf-c)",
#ifdef CLI_NO_PERFETTO
	  0, CLI_NO_PERFETTO
#else
	  1, NULL
#endif
	},
	{ NULL, NULL, 0, NULL }
};

const struct cli_feature *cli_feature(const char *name)
{
	for (const struct cli_feature *f = cli_features; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}
