/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace events' feed (trace_feed.c): its own probes on pelt_cfs_tp and
 * pelt_se_tp, attached while sched_load_cfs_rq / sched_load_se have a
 * consumer.  main.c starts it after shadow_probes_register() and stops it
 * first at exit; debugfs.c prints its hooks in `info`.
 */
#ifndef SHADOW_TRACE_FEED_H
#define SHADOW_TRACE_FEED_H

#include <linux/types.h>

struct seq_file;

int shadow_trace_feed_start(void);
void shadow_trace_feed_stop(void);
bool shadow_trace_feed_knows(const char *tp);
void shadow_trace_feed_info(struct seq_file *m);

#endif
