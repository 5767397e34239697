/* SPDX-License-Identifier: GPL-2.0 */
/* The trace events' feed (trace_feed.c), called by the probes in shadow.c. */
#ifndef SHADOW_TRACE_FEED_H
#define SHADOW_TRACE_FEED_H

struct cfs_rq;
struct rq;
struct sched_entity;

/* sched_load_cfs_rq for @cfs of @rq (rq lock held); only when the event is enabled */
void shadow_trace_cfs_rq(struct cfs_rq *cfs, struct rq *rq);
/* sched_load_se for @se; only when the event is enabled */
void shadow_trace_se(struct sched_entity *se);

#endif
