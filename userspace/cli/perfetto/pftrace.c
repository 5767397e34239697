// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto trace writer (see pftrace.h): protobuf-c messages from
 * perfetto_trace.proto, one packed `Trace` per packet appended to a
 * temporary file that pft_commit() renames into place.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/perfetto/pftrace.h"
#ifndef CLI_NO_PERFETTO
#include "perfetto_trace.pb-c.h"

typedef Perfetto__Protos__Trace PbTrace;
typedef Perfetto__Protos__TracePacket PbPacket;
typedef Perfetto__Protos__TrackDescriptor PbTrack;
typedef Perfetto__Protos__CounterDescriptor PbCounter;
typedef Perfetto__Protos__TrackEvent PbEvent;
typedef Perfetto__Protos__DebugAnnotation PbArg;

#endif

uint64_t pft_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int64_t pft_boot_offset_ns(void)
{
	int64_t best = 0, width = INT64_MAX;

	/* the narrowest of a few monotonic-boottime-monotonic sandwiches */
	for (int i = 0; i < 5; i++) {
		struct timespec a, b, c;
		int64_t m1, m2, bt;

		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_gettime(CLOCK_BOOTTIME, &b);
		clock_gettime(CLOCK_MONOTONIC, &c);
		m1 = (int64_t)a.tv_sec * 1000000000 + a.tv_nsec;
		bt = (int64_t)b.tv_sec * 1000000000 + b.tv_nsec;
		m2 = (int64_t)c.tv_sec * 1000000000 + c.tv_nsec;
		if (m2 - m1 < width) {
			width = m2 - m1;
			best = bt - (m1 + (m2 - m1) / 2);
		}
	}
	return best;
}

#ifdef CLI_NO_PERFETTO
/* Built without protobuf-c (features.h): every trace fails to open, saying why. */
int pft_open(struct pft_writer *w, const char *path, char *err, size_t errlen)
{
	(void)path;
	memset(w, 0, sizeof(*w));
	snprintf(err, errlen, "built without Perfetto traces: %s", CLI_NO_PERFETTO);
	return -1;
}

uint64_t pft_track(struct pft_writer *w, uint64_t parent, const char *name)
{
	(void)w, (void)parent, (void)name;
	return 0;
}

uint64_t pft_counter_track(struct pft_writer *w, uint64_t parent, const char *name, int count)
{
	(void)w, (void)parent, (void)name, (void)count;
	return 0;
}

void pft_counter(struct pft_writer *w, uint64_t track, uint64_t ts_ns, int64_t value)
{
	(void)w, (void)track, (void)ts_ns, (void)value;
}

void pft_instant(struct pft_writer *w, int seq, uint64_t track, uint64_t ts_ns, const char *name,
		 const struct pft_arg *args, size_t nargs)
{
	(void)w, (void)seq, (void)track, (void)ts_ns, (void)name, (void)args, (void)nargs;
}

void pft_slice_begin(struct pft_writer *w, uint64_t track, uint64_t ts_ns, const char *name,
		     const struct pft_arg *args, size_t nargs)
{
	(void)w, (void)track, (void)ts_ns, (void)name, (void)args, (void)nargs;
}

void pft_slice_end(struct pft_writer *w, uint64_t track, uint64_t ts_ns,
		   const struct pft_arg *args, size_t nargs)
{
	(void)w, (void)track, (void)ts_ns, (void)args, (void)nargs;
}

int pft_commit(struct pft_writer *w, char *err, size_t errlen)
{
	(void)w;
	snprintf(err, errlen, "built without Perfetto traces: %s", CLI_NO_PERFETTO);
	return -1;
}

void pft_abort(struct pft_writer *w)
{
	(void)w;
}
#else
int pft_open(struct pft_writer *w, const char *path, char *err, size_t errlen)
{
	char dir[4096], base[4096];
	struct stat st;
	mode_t um;
	int fd;

	memset(w, 0, sizeof(*w));
	if (!path || !*path) {
		snprintf(err, errlen, "empty trace file name");
		return -1;
	}
	if (strlen(path) >= sizeof(w->path) - 16) {
		snprintf(err, errlen, "%.64s...: file name too long", path);
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		return -1;
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	snprintf(w->tmp, sizeof(w->tmp), "%s/.%s.XXXXXX", dirname(dir), basename(base));
	fd = mkstemp(w->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a file there: %s", path, strerror(errno));
		w->tmp[0] = 0;
		return -1;
	}
	um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	w->f = fdopen(fd, "w");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", w->tmp, strerror(errno));
		close(fd);
		unlink(w->tmp);
		w->tmp[0] = 0;
		return -1;
	}
	w->next_uuid = 1;
	memset(w->started, 0, sizeof(w->started));
	return 0;
}

/* Pack `pkt` as a one-packet Trace of sequence seq and append it. */
static void pft_emit_seq(struct pft_writer *w, int seq, PbPacket *pkt)
{
	PbTrace tr = PERFETTO__PROTOS__TRACE__INIT;
	uint8_t stackbuf[512], *buf = stackbuf;
	size_t len;

	if (!w->f || w->err)
		return;
	pkt->has_trusted_packet_sequence_id = 1;
	pkt->trusted_packet_sequence_id = (uint32_t)seq;
	if (!w->started[seq]) {
		pkt->has_sequence_flags = 1;
		pkt->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
		w->started[seq] = 1;
	}
	tr.n_packet = 1;
	tr.packet = &pkt;
	len = perfetto__protos__trace__get_packed_size(&tr);
	if (len > sizeof(stackbuf)) {
		buf = malloc(len);
		if (!buf) {
			w->err = ENOMEM;
			return;
		}
	}
	perfetto__protos__trace__pack(&tr, buf);
	if (fwrite(buf, 1, len, w->f) != len)
		w->err = errno ? errno : EIO;
	else
		w->packets++;
	if (buf != stackbuf)
		free(buf);
}

static void pft_emit(struct pft_writer *w, PbPacket *pkt)
{
	pft_emit_seq(w, PFT_SEQ_MAIN, pkt);
}

static uint64_t pft_descriptor(struct pft_writer *w, uint64_t parent, const char *name,
			       PbCounter *counter)
{
	PbPacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	PbTrack td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	uint64_t uuid = w->next_uuid++;

	td.has_uuid = 1;
	td.uuid = uuid;
	td.name = (char *)name;
	if (parent) {
		td.has_parent_uuid = 1;
		td.parent_uuid = parent;
	}
	td.counter = counter;
	pkt.track_descriptor = &td;
	pft_emit(w, &pkt);
	return uuid;
}

uint64_t pft_track(struct pft_writer *w, uint64_t parent, const char *name)
{
	return pft_descriptor(w, parent, name, NULL);
}

uint64_t pft_counter_track(struct pft_writer *w, uint64_t parent, const char *name, int count)
{
	PbCounter cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	if (count) {
		cd.has_unit = 1;
		cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
	}
	return pft_descriptor(w, parent, name, &cd);
}

void pft_counter(struct pft_writer *w, uint64_t track, uint64_t ts_ns, int64_t value)
{
	PbPacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	PbEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	pkt.has_timestamp = 1;
	pkt.timestamp = ts_ns;
	ev.has_type = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
	ev.has_track_uuid = 1;
	ev.track_uuid = track;
	ev.has_counter_value = 1;
	ev.counter_value = value;
	pkt.track_event = &ev;
	pft_emit(w, &pkt);
}

static void pft_args_free(PbArg **v, size_t n);

/* Build protobuf-c annotations for args (recursively for dictionaries); NULL on ENOMEM. */
static PbArg **pft_args_build(const struct pft_arg *args, size_t n)
{
	PbArg **v;
	size_t i;

	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		PbArg *a = malloc(sizeof(*a));

		if (!a)
			goto fail;
		perfetto__protos__debug_annotation__init(a);
		v[i] = a;
		a->name = (char *)args[i].name;
		switch (args[i].kind) {
		case PFT_ARG_STR:
			a->string_value = (char *)(args[i].s ? args[i].s : "");
			break;
		case PFT_ARG_INT:
			a->has_int_value = 1;
			a->int_value = args[i].i;
			break;
		case PFT_ARG_UINT:
			a->has_uint_value = 1;
			a->uint_value = args[i].u;
			break;
		case PFT_ARG_DOUBLE:
			a->has_double_value = 1;
			a->double_value = args[i].d;
			break;
		case PFT_ARG_DICT:
			a->dict_entries = pft_args_build(args[i].dict, args[i].ndict);
			if (!a->dict_entries)
				goto fail;
			a->n_dict_entries = args[i].ndict;
			break;
		}
	}
	return v;
fail:
	pft_args_free(v, n);	/* calloc'ed: entries not built yet are NULL */
	return NULL;
}

static void pft_args_free(PbArg **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		pft_args_free(v[i]->dict_entries, v[i]->n_dict_entries);
		free(v[i]);
	}
	free(v);
}

static void pft_event(struct pft_writer *w, int seq, uint64_t track, uint64_t ts_ns, int type,
		      const char *name, const struct pft_arg *args, size_t nargs)
{
	PbPacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	PbEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	PbArg **a = NULL;

	if (nargs) {
		a = pft_args_build(args, nargs);
		if (!a) {
			w->err = ENOMEM;
			return;
		}
	}
	pkt.has_timestamp = 1;
	pkt.timestamp = ts_ns;
	ev.has_type = 1;
	ev.type = type;
	ev.has_track_uuid = 1;
	ev.track_uuid = track;
	ev.name = (char *)name;
	ev.n_debug_annotations = nargs;
	ev.debug_annotations = a;
	pkt.track_event = &ev;
	pft_emit_seq(w, seq, &pkt);
	pft_args_free(a, nargs);
}

void pft_instant(struct pft_writer *w, int seq, uint64_t track, uint64_t ts_ns, const char *name,
		 const struct pft_arg *args, size_t nargs)
{
	if (seq < 1 || seq > PFT_NSEQ) {
		w->err = EINVAL;
		return;
	}
	pft_event(w, seq, track, ts_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, name,
		  args, nargs);
}

void pft_slice_begin(struct pft_writer *w, uint64_t track, uint64_t ts_ns, const char *name,
		     const struct pft_arg *args, size_t nargs)
{
	pft_event(w, PFT_SEQ_CMD, track, ts_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN, name,
		  args, nargs);
}

void pft_slice_end(struct pft_writer *w, uint64_t track, uint64_t ts_ns,
		   const struct pft_arg *args, size_t nargs)
{
	pft_event(w, PFT_SEQ_CMD, track, ts_ns, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END, NULL,
		  args, nargs);
}

int pft_commit(struct pft_writer *w, char *err, size_t errlen)
{
	int rc = 0;

	if (!w->f) {
		snprintf(err, errlen, "%s: trace was not opened", w->path);
		return -1;
	}
	if (fflush(w->f) != 0 && !w->err)
		w->err = errno;
	if (!w->err && fsync(fileno(w->f)) != 0 && errno != EINVAL)
		w->err = errno;
	if (fclose(w->f) != 0 && !w->err)
		w->err = errno;
	w->f = NULL;
	if (!w->err && rename(w->tmp, w->path) != 0)
		w->err = errno;
	if (w->err) {
		snprintf(err, errlen, "%s: %s", w->path, strerror(w->err));
		unlink(w->tmp);
		rc = -1;
	}
	w->tmp[0] = 0;
	return rc;
}

void pft_abort(struct pft_writer *w)
{
	if (w->f) {
		fclose(w->f);
		w->f = NULL;
	}
	if (w->tmp[0])
		unlink(w->tmp);
	w->tmp[0] = 0;
}
#endif /* CLI_NO_PERFETTO */
