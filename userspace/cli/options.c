// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables (see options.h): parsing with getopt_long, usage text,
 * man page subsections and bash completion words, all from the table.
 */
#include <getopt.h>
#include <string.h>
#include "cli/fmt.h"
#include "cli/options.h"

enum {
	KEY_DEBUGFS = 0xf000,
	KEY_PROM,
};

const struct cli_opt cli_opt_debugfs = { KEY_DEBUGFS, "debugfs", CLI_VAL_DIR, "DIR",
	"the module's debugfs directory (default /sys/kernel/debug/sched_shadow)", NULL };
const struct cli_opt cli_opt_json = { 'j', "json", CLI_VAL_NONE, NULL,
	"JSON output, one line (schema sched_shadow/v1; on failure {\"schema\", \"command\", \"error\"})", NULL };
const struct cli_opt cli_opt_pretty = { 'p', "pretty", CLI_VAL_NONE, NULL,
	"JSON output, indented", NULL };
const struct cli_opt cli_opt_prom = { KEY_PROM, "prom", CLI_VAL_NONE, NULL,
	"Prometheus text exposition", NULL };
const struct cli_opt cli_opt_help = { 'h', "help", CLI_VAL_NONE, NULL, "this help", NULL };

#define MAX_OPTS 48

/* The spec's options followed by the shared ones, in usage order. */
static int all_opts(const struct cli_spec *spec, const struct cli_opt **out)
{
	int n = 0;

	for (const struct cli_opt *o = spec->opts; o && o->key && n < MAX_OPTS - 5; o++)
		out[n++] = o;
	if (spec->flags & CLI_SPEC_JSON) {
		out[n++] = &cli_opt_json;
		out[n++] = &cli_opt_pretty;
	}
	if (spec->flags & CLI_SPEC_PROM)
		out[n++] = &cli_opt_prom;
	if (spec->flags & CLI_SPEC_DEBUGFS)
		out[n++] = &cli_opt_debugfs;
	out[n++] = &cli_opt_help;
	return n;
}

static const struct cli_opt *by_key(const struct cli_opt *const *o, int n, int key)
{
	for (int i = 0; i < n; i++)
		if (o[i]->key == key)
			return o[i];
	return NULL;
}

int cli_parse_options(const struct cli_spec *spec, int argc, char **argv,
		      int (*fn)(void *ctx, int key, const char *val, char *err, size_t errlen),
		      void *ctx, struct cli_common *common, char *err, size_t errlen)
{
	const struct cli_opt *o[MAX_OPTS];
	struct option lo[MAX_OPTS + 1];
	char sh[3 * MAX_OPTS + 4];
	int n = all_opts(spec, o), nlo = 0, ns = 0, c;

	/* -j is a global option too: known everywhere, refused by the caller where no JSON */
	if (!(spec->flags & CLI_SPEC_JSON)) {
		o[n++] = &cli_opt_json;
		o[n++] = &cli_opt_pretty;
	}
	if (spec->flags & CLI_SPEC_OPERANDS_LAST)
		sh[ns++] = '+';
	sh[ns++] = ':';
	for (int i = 0; i < n; i++) {
		if (o[i]->key < CLI_KEY_LONG) {
			sh[ns++] = (char)o[i]->key;
			if (o[i]->val != CLI_VAL_NONE)
				sh[ns++] = ':';
		}
		if (o[i]->name) {
			lo[nlo].name = o[i]->name;
			lo[nlo].has_arg = o[i]->val != CLI_VAL_NONE ? required_argument : no_argument;
			lo[nlo].flag = NULL;
			lo[nlo].val = o[i]->key;
			nlo++;
		}
	}
	sh[ns] = 0;
	memset(&lo[nlo], 0, sizeof(lo[nlo]));
	memset(common, 0, sizeof(*common));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, sh, lo, NULL)) != -1) {
		const struct cli_opt *p = by_key(o, n, c);

		if (c == '?') {
			if (optopt && optopt < CLI_KEY_LONG)
				fmt_into(err, errlen, "unknown option '-%c'", optopt);
			else
				fmt_into(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -1;
		}
		if (c == ':') {
			p = by_key(o, n, optopt);
			if (p && p->name)
				fmt_into(err, errlen, "option --%s needs a value (%s)", p->name,
					 p->valname ? p->valname : "a value");
			else
				fmt_into(err, errlen, "option '-%c' needs a value", optopt);
			return -1;
		}
		if (!p) {
			fmt_into(err, errlen, "unknown option");
			return -1;
		}
		if (p->moved) {
			fmt_into(err, errlen, "option '-%c' is now %s", c, p->moved);
			return -1;
		}
		if (p == &cli_opt_help) {
			common->help = 1;
			return optind;
		}
		if (p == &cli_opt_json || p == &cli_opt_pretty || p == &cli_opt_prom) {
			if (p == &cli_opt_prom)
				common->prom = 1;
			else
				common->json = 1;
			if (p == &cli_opt_pretty)
				common->pretty = 1;
			if (common->json && common->prom) {
				fmt_into(err, errlen, "--json and --prom exclude each other");
				return -1;
			}
			continue;
		}
		if (p == &cli_opt_debugfs) {
			if (!*optarg) {
				fmt_into(err, errlen, "--debugfs needs a directory");
				return -1;
			}
			common->debugfs = optarg;
			continue;
		}
		if (p->val != CLI_VAL_NONE && !*optarg) {
			fmt_into(err, errlen, "option %s%s needs a non-empty value",
				 p->name ? "--" : "-", p->name ? p->name : (char[]){ (char)c, 0 });
			return -1;
		}
		if (!fn || fn(ctx, c, optarg, err, errlen))
			return -1;
	}
	return optind;
}

/* "-i, --interval SECONDS" */
static int opt_label(const struct cli_opt *o, char *buf, size_t len)
{
	int n;

	if (o->key < CLI_KEY_LONG && o->name)
		n = snprintf(buf, len, "-%c, --%s", o->key, o->name);
	else if (o->key < CLI_KEY_LONG)
		n = snprintf(buf, len, "-%c", o->key);
	else
		n = snprintf(buf, len, "    --%s", o->name);
	if (o->valname && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " %s", o->valname);
	return n;
}

/* Words of s on lines of at most width columns, each after indent spaces but the first. */
static void wrap(FILE *f, const char *s, int indent, int width)
{
	int col = 0;

	if (width < 30)
		width = 30;
	while (*s) {
		int n = strcspn(s, " ");

		if (col && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, n, f);
		col += n;
		s += n;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

void cli_spec_options(const struct cli_spec *spec, FILE *f)
{
	const struct cli_opt *o[MAX_OPTS];
	int n = all_opts(spec, o), w = 0;
	char lab[96];

	for (int i = 0; i < n; i++) {
		int l = o[i]->help ? opt_label(o[i], lab, sizeof(lab)) : 0;

		if (l > w && l <= 26)
			w = l;
	}
	for (int i = 0; i < n; i++) {
		if (!o[i]->help)
			continue;
		if (opt_label(o[i], lab, sizeof(lab)) > w)
			fprintf(f, "  %s\n  %*s  ", lab, w, "");
		else
			fprintf(f, "  %-*s  ", w, lab);
		wrap(f, o[i]->help, w + 4, 79 - (w + 4));
	}
}

void cli_spec_usage(const struct cli_spec *spec, const char *prog, FILE *f)
{
	fprintf(f, "usage: %s %s [OPTIONS]%s%s\n", prog, spec->name,
		spec->synopsis ? " " : "", spec->synopsis ? spec->synopsis : "");
	if (spec->help)
		fprintf(f, "%s%s", spec->help, spec->help[strlen(spec->help) - 1] == '\n' ? "" : "\n");
	fprintf(f, "\noptions:\n");
	cli_spec_options(spec, f);
}

/* roff text: backslashes and dashes escaped, a leading '.' or '\'' made literal. */
static void roff(FILE *f, const char *s, int bol)
{
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

void cli_spec_man(const struct cli_spec *spec, const char *prog, FILE *f)
{
	const struct cli_opt *o[MAX_OPTS];
	int n = 0;

	/* the command's own options; the shared ones are listed once, under COMMON OPTIONS */
	for (const struct cli_opt *p = spec->opts; p && p->key && n < MAX_OPTS; p++)
		o[n++] = p;

	fprintf(f, ".SS \"");
	roff(f, prog, 0);
	fprintf(f, " %s [OPTIONS]%s", spec->name, spec->synopsis ? " " : "");
	if (spec->synopsis)
		roff(f, spec->synopsis, 0);
	fprintf(f, "\"\n");
	/* the description flows; a line indented by two spaces stays as it is */
	for (const char *l = spec->help; l && *l; ) {
		size_t len = strcspn(l, "\n");
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		if (!strncmp(line, "  ", 2)) {
			fprintf(f, ".PP\n.nf\n");
			roff(f, line, 1);
			fprintf(f, "\n.fi\n.PP\n");
		} else {
			roff(f, line, 1);
			fputc('\n', f);
		}
		l += len;
		if (*l)
			l++;
	}
	for (int i = 0; i < n; i++) {
		if (!o[i]->help)
			continue;
		fprintf(f, ".TP\n");
		if (o[i]->key < CLI_KEY_LONG)
			fprintf(f, "\\fB\\-%c\\fR%s", o[i]->key, o[i]->name ? ", " : "");
		if (o[i]->name) {
			fprintf(f, "\\fB\\-\\-");
			roff(f, o[i]->name, 0);
			fprintf(f, "\\fR");
		}
		if (o[i]->valname)
			fprintf(f, " \\fI%s\\fR", o[i]->valname);
		fputc('\n', f);
		roff(f, o[i]->help, 1);
		fputc('\n', f);
	}
	if (spec->flags & (CLI_SPEC_JSON | CLI_SPEC_PROM | CLI_SPEC_DEBUGFS)) {
		fprintf(f, ".PP\nAlso:%s%s%s%s.\n",
			spec->flags & CLI_SPEC_JSON ? " \\fB\\-j\\fR, \\fB\\-p\\fR" : "",
			(spec->flags & CLI_SPEC_JSON) && (spec->flags & (CLI_SPEC_PROM | CLI_SPEC_DEBUGFS)) ? "," : "",
			spec->flags & CLI_SPEC_PROM ? " \\fB\\-\\-prom\\fR" : "",
			spec->flags & CLI_SPEC_DEBUGFS ?
			(spec->flags & CLI_SPEC_PROM ? ", \\fB\\-\\-debugfs\\fR \\fIDIR\\fR" :
			 " \\fB\\-\\-debugfs\\fR \\fIDIR\\fR") : "");
	}
}

void cli_spec_man_common(FILE *f)
{
	static const struct cli_opt *const common[] = { &cli_opt_json, &cli_opt_pretty,
		&cli_opt_prom, &cli_opt_debugfs, &cli_opt_help };

	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		const struct cli_opt *o = common[i];

		fprintf(f, ".TP\n");
		if (o->key < CLI_KEY_LONG)
			fprintf(f, "\\fB\\-%c\\fR, ", o->key);
		fprintf(f, "\\fB\\-\\-%s\\fR%s%s%s\n", o->name, o->valname ? " \\fI" : "",
			o->valname ? o->valname : "", o->valname ? "\\fR" : "");
		roff(f, o->help, 1);
		fputc('\n', f);
	}
}

void cli_spec_words(const struct cli_spec *spec, FILE *f)
{
	const struct cli_opt *o[MAX_OPTS];
	int n = all_opts(spec, o), first = 1;

	for (int i = 0; i < n; i++) {
		if (!o[i]->help)
			continue;
		if (o[i]->key < CLI_KEY_LONG) {
			fprintf(f, "%s-%c", first ? "" : " ", o[i]->key);
			first = 0;
		}
		if (o[i]->name) {
			fprintf(f, "%s--%s", first ? "" : " ", o[i]->name);
			first = 0;
		}
	}
}

void cli_spec_valopts(const struct cli_spec *spec, enum cli_val val, FILE *f)
{
	const struct cli_opt *o[MAX_OPTS];
	int n = all_opts(spec, o), first = 1;

	for (int i = 0; i < n; i++) {
		if (o[i]->val != val || !o[i]->help)
			continue;
		if (o[i]->key < CLI_KEY_LONG) {
			fprintf(f, "%s-%c", first ? "" : "|", o[i]->key);
			first = 0;
		}
		if (o[i]->name) {
			fprintf(f, "%s--%s", first ? "" : "|", o[i]->name);
			first = 0;
		}
	}
}
