/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-event half of the hot path (waiters.c): the counts and the
 * work to give of one CPU from a capped scan of rq->cfs_tasks.
 */
#ifndef SHADOW_WAITERS_H
#define SHADOW_WAITERS_H

#include "shadow.h"

/*
 * Queued CFS tasks the per-event scan looks at, from the tail of
 * rq->cfs_tasks (the least recently run, where detach_tasks() starts);
 * the ones past it are counted as waiters of unknown affinity.
 */
#define SHADOW_SCAN_CAP		8

struct rq;

bool shadow_waiters_note(struct rq *rq, struct shadow_evt *e);

#endif
