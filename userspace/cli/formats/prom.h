/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus text exposition format (version 0.0.4) writer, for
 * node_exporter's textfile collector.  Metric names are sched_shadow_*;
 * each family gets one HELP and one TYPE line before its first sample;
 * label values are escaped (backslash, double quote, newline).
 */
#ifndef SCHED_SHADOW_PROM_H
#define SCHED_SHADOW_PROM_H

#include <stdio.h>
#include <stdint.h>

#define PROM_PREFIX "sched_shadow_"

struct prom_label {
	const char *name;
	const char *value;
};

struct prom_writer {
	FILE *f;
	char family[128];	/* family whose HELP/TYPE was written last */
	int err;		/* invalid metric or label name seen */
};

void prom_init(struct prom_writer *p, FILE *f);

/*
 * Start a family: HELP and TYPE lines (type: "gauge", "counter",
 * "untyped").  Writing the same family again is a no-op, so callers may
 * declare it before each sample.
 */
void prom_family(struct prom_writer *p, const char *name, const char *type,
		 const char *help);

/* One sample line name{labels} value. */
void prom_sample(struct prom_writer *p, const char *name,
		 const struct prom_label *labels, int nlabels, double v);
void prom_sample_u64(struct prom_writer *p, const char *name,
		     const struct prom_label *labels, int nlabels, uint64_t v);

/* Escape a label value / HELP text into f. */
void prom_write_label_value(FILE *f, const char *s);
void prom_write_help(FILE *f, const char *s);

/* 1 if a valid metric name [a-zA-Z_:][a-zA-Z0-9_:]* / label name [a-zA-Z_][a-zA-Z0-9_]*. */
int prom_valid_metric_name(const char *s);
int prom_valid_label_name(const char *s);

/* Returns 0 if nothing invalid was written. */
int prom_end(struct prom_writer *p);

#endif
