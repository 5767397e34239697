/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Perfetto trace file writer on top of protobuf-c and the project's
 * perfetto_trace.proto (a subset of Perfetto's schema, same field
 * numbers).  Knows tracks and events, nothing about sched_shadow:
 * pfrec.c maps the module's tables onto it.
 *
 * Each packet is packed as a one-packet `Trace` and appended: protobuf
 * concatenation merges repeated fields, so the file is one `Trace`
 * however long the recording, and nothing is held in memory.  Packets go
 * to a temporary file beside the target, renamed over it by
 * pft_commit(); pft_abort() (or any error) removes it, so a failed or
 * interrupted write never leaves a partial trace under the wanted name.
 */
#ifndef SCHED_SHADOW_PFTRACE_H
#define SCHED_SHADOW_PFTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Packet sequences (trusted_packet_sequence_id): one per source, each in
 * timestamp order.  Track descriptors, counters and slices are written as
 * they are sampled (MAIN); lb verdict instants come from tracefs, sorted
 * apart (VERDICTS); run's command slice ends at the command's exit but is
 * written after the last sample (CMD).  Track uuids are global: an instant on VERDICTS names
 * a track described on MAIN.
 */
#define PFT_SEQ_MAIN		1
#define PFT_SEQ_VERDICTS	2
#define PFT_SEQ_CMD		3	/* run's command slice: begins at fork, ends at exit */
#define PFT_NSEQ		3

struct pft_writer {
	FILE *f;
	char path[4096];	/* final name */
	char tmp[4096];		/* temporary file in the same directory */
	uint64_t next_uuid;
	int started[PFT_NSEQ + 1];	/* the sequence has had its first packet */
	int err;		/* sticky errno of a failed write */
	uint64_t packets;
};

enum pft_arg_kind { PFT_ARG_STR, PFT_ARG_INT, PFT_ARG_UINT, PFT_ARG_DOUBLE, PFT_ARG_DICT };

/* One debug annotation (an event's argument). */
struct pft_arg {
	const char *name;
	enum pft_arg_kind kind;
	const char *s;
	int64_t i;
	uint64_t u;
	double d;
	const struct pft_arg *dict;	/* PFT_ARG_DICT: entries */
	size_t ndict;
};

/*
 * Create the temporary file beside `path`.  0, or -1 with a one-line
 * reason in err (directory missing or not writable, path is a directory).
 */
int pft_open(struct pft_writer *w, const char *path, char *err, size_t errlen);

/* A plain track (holds instants and slices); parent 0 = top level.  Returns its uuid. */
uint64_t pft_track(struct pft_writer *w, uint64_t parent, const char *name);
/* A counter track; count = 1 marks the values as counts (UNIT_COUNT). */
uint64_t pft_counter_track(struct pft_writer *w, uint64_t parent, const char *name, int count);

void pft_counter(struct pft_writer *w, uint64_t track, uint64_t ts_ns, int64_t value);
/* An instant on sequence seq (PFT_SEQ_*). */
void pft_instant(struct pft_writer *w, int seq, uint64_t track, uint64_t ts_ns, const char *name,
		 const struct pft_arg *args, size_t nargs);
/* Slices, on the CMD sequence. */
void pft_slice_begin(struct pft_writer *w, uint64_t track, uint64_t ts_ns, const char *name,
		     const struct pft_arg *args, size_t nargs);
/* Arguments given here are merged with the begin's on import. */
void pft_slice_end(struct pft_writer *w, uint64_t track, uint64_t ts_ns,
		   const struct pft_arg *args, size_t nargs);

/* Flush, close and rename over the target; 0, or -1 with err (temp file removed). */
int pft_commit(struct pft_writer *w, char *err, size_t errlen);
/* Close and remove the temporary file; safe on a writer never opened. */
void pft_abort(struct pft_writer *w);

/* CLOCK_BOOTTIME in ns: Perfetto's default trace clock. */
uint64_t pft_now_ns(void);
/*
 * CLOCK_BOOTTIME - CLOCK_MONOTONIC in ns (constant between suspends), read
 * as a tight pair: lets a caller stamp a sample with the one monotonic
 * reading it also uses for other output (record's CSV time_s).
 */
int64_t pft_boot_offset_ns(void);

#endif
