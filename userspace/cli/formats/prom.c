// SPDX-License-Identifier: GPL-2.0
/* Prometheus text exposition writer; see prom.h. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cli/formats/prom.h"

void prom_init(struct prom_writer *p, FILE *f)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
}

static int name_char(char c, int first, int colon)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 1;
	if (colon && c == ':')
		return 1;
	return !first && c >= '0' && c <= '9';
}

int prom_valid_metric_name(const char *s)
{
	if (!s || !*s)
		return 0;
	for (int i = 0; s[i]; i++)
		if (!name_char(s[i], i == 0, 1))
			return 0;
	return 1;
}

int prom_valid_label_name(const char *s)
{
	if (!s || !*s || !strncmp(s, "__", 2))
		return 0;
	for (int i = 0; s[i]; i++)
		if (!name_char(s[i], i == 0, 0))
			return 0;
	return 1;
}

void prom_write_label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void prom_write_help(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void prom_family(struct prom_writer *p, const char *name, const char *type,
		 const char *help)
{
	if (!strcmp(p->family, name))
		return;
	if (!prom_valid_metric_name(name) || strlen(name) >= sizeof(p->family)) {
		p->err = 1;
		return;
	}
	snprintf(p->family, sizeof(p->family), "%s", name);
	fprintf(p->f, "# HELP %s ", name);
	prom_write_help(p->f, help ? help : "");
	fprintf(p->f, "\n# TYPE %s %s\n", name, type ? type : "untyped");
}

static void write_head(struct prom_writer *p, const char *name,
		       const struct prom_label *labels, int nlabels)
{
	if (!prom_valid_metric_name(name))
		p->err = 1;
	fputs(name, p->f);
	if (nlabels <= 0)
		return;
	fputc('{', p->f);
	for (int i = 0; i < nlabels; i++) {
		if (!prom_valid_label_name(labels[i].name))
			p->err = 1;
		fprintf(p->f, "%s%s=\"", i ? "," : "", labels[i].name);
		prom_write_label_value(p->f, labels[i].value ? labels[i].value : "");
		fputc('"', p->f);
	}
	fputc('}', p->f);
}

void prom_sample(struct prom_writer *p, const char *name,
		 const struct prom_label *labels, int nlabels, double v)
{
	write_head(p, name, labels, nlabels);
	if (isnan(v))
		fputs(" NaN\n", p->f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", p->f);
	else
		fprintf(p->f, " %.17g\n", v);
}

void prom_sample_u64(struct prom_writer *p, const char *name,
		     const struct prom_label *labels, int nlabels, uint64_t v)
{
	write_head(p, name, labels, nlabels);
	fprintf(p->f, " %" PRIu64 "\n", v);
}

int prom_end(struct prom_writer *p)
{
	fflush(p->f);
	return p->err ? -1 : 0;
}
