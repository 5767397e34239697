// SPDX-License-Identifier: GPL-2.0
/*
 * `plot FILE.csv -o FILE.png|FILE.svg`: draw a `record` CSV with gnuplot.
 * One panel per CPU (real load_avg, shadow and shadow_avg over time) and
 * one panel of verdict rates per second (from the cumulative lb
 * columns).  The CSV is validated and reduced to a gnuplot data file
 * (one block per CPU, then the rates), a script is written next to it
 * in a temp directory, and gnuplot ($GNUPLOT or `gnuplot` in PATH) runs
 * it.  PNG uses pngcairo when available, else the libgd png terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

#define PLOT_MAX_CPUS 1024

struct plot_row {
	double t;
	int cpu;
	double v[10];	/* load_avg .. lb_none; NAN when empty */
};

struct plot_data {
	struct plot_row *rows;
	int n, cap;
	int cpus[PLOT_MAX_CPUS];
	int ncpus;
	int cpu_valid[PLOT_MAX_CPUS];	/* CPU (by index) has any load value */
	int have_lb;
	int nrates;			/* rate rows written (need two lb samples) */
};

/* Split a CSV line (no quoting in our files) into at most max fields. */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static int parse_num(const char *s, double *v)
{
	char *e;

	if (!*s) {
		*v = NAN;
		return 1;
	}
	errno = 0;
	*v = strtod(s, &e);
	return errno || *e ? -1 : 0;
}

/* Read and validate the CSV; messages name the file and line. */
static int plot_read(const char *path, struct plot_data *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;

	memset(d, 0, sizeof(*d));
	if (!f) {
		cli_err("plot", "%s: %s", path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *fld[16];
		struct plot_row r;
		double cpu;
		int n, k;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (lineno == 1) {
			if (strcmp(line, CLI_RECORD_HEADER)) {
				cli_err("plot", "%s: line 1: not a `%s record` CSV; expected header\n  %s",
					path, CLI_NAME, CLI_RECORD_HEADER);
				rc = CLI_EXIT_FAIL;
				break;
			}
			continue;
		}
		if (len == 0)
			continue;
		n = csv_split(line, fld, 16);
		/* 14 fields: the wasted-core columns follow; plot draws the first 12 */
		if (n != 14 || parse_num(fld[0], &r.t) || parse_num(fld[1], &cpu) ||
		    cpu < 0 || cpu >= PLOT_MAX_CPUS) {
			cli_err("plot", "%s: line %d: malformed row (%d fields, want 14)", path, lineno, n);
			rc = CLI_EXIT_FAIL;
			break;
		}
		r.cpu = (int)cpu;
		for (k = 0; k < 10; k++) {
			if (parse_num(fld[2 + k], &r.v[k]) < 0) {
				cli_err("plot", "%s: line %d: field %d is not a number", path,
					lineno, 3 + k);
				rc = CLI_EXIT_FAIL;
				break;
			}
		}
		if (rc)
			break;
		if (!isnan(r.v[6]))
			d->have_lb = 1;
		if (d->n == d->cap) {
			int ncap = d->cap ? d->cap * 2 : 256;
			struct plot_row *nr = realloc(d->rows, ncap * sizeof(*nr));

			if (!nr) {
				cli_err("plot", "out of memory");
				rc = CLI_EXIT_FAIL;
				break;
			}
			d->rows = nr;
			d->cap = ncap;
		}
		d->rows[d->n++] = r;
		for (k = 0; k < d->ncpus && d->cpus[k] != r.cpu; k++)
			;
		if (k == d->ncpus)
			d->cpus[d->ncpus++] = r.cpu;
		if (!isnan(r.v[0]) || !isnan(r.v[3]))
			d->cpu_valid[k] = 1;
	}
	if (!rc && lineno == 0) {
		cli_err("plot", "%s: empty file", path);
		rc = CLI_EXIT_FAIL;
	} else if (!rc && d->n == 0) {
		cli_err("plot", "%s: no samples after the header", path);
		rc = CLI_EXIT_FAIL;
	}
	free(line);
	fclose(f);
	return rc;
}

static void put(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN", f);
	else
		fprintf(f, " %.6g", v);
}

/* Data file: one block per CPU (t load_avg shadow shadow_avg), then rates. */
static int plot_write_data(const char *path, struct plot_data *d)
{
	FILE *f = fopen(path, "w");
	double pt = NAN, pv[4] = { 0 };
	int first = -1, have_prev = 0;

	if (!f)
		return -1;
	for (int c = 0; c < d->ncpus; c++) {
		fprintf(f, "# cpu %d: time_s load_avg shadow shadow_avg\n", d->cpus[c]);
		for (int i = 0; i < d->n; i++) {
			if (d->rows[i].cpu != d->cpus[c])
				continue;
			fprintf(f, "%.3f", d->rows[i].t);
			put(f, d->rows[i].v[0]);
			put(f, d->rows[i].v[3]);
			put(f, d->rows[i].v[4]);
			fputc('\n', f);
		}
		fputs("\n\n", f);
	}
	/* verdict rates from the first CPU's rows (counters repeat per CPU) */
	fprintf(f, "# verdicts/s: time_s right wrong missed none\n");
	first = d->cpus[0];
	for (int i = 0; i < d->n; i++) {
		const struct plot_row *r = &d->rows[i];
		double dt;

		if (r->cpu != first || isnan(r->v[6]))
			continue;
		dt = r->t - pt;
		if (have_prev && dt > 0) {
			fprintf(f, "%.3f", r->t);
			for (int k = 0; k < 4; k++) {
				double delta = r->v[6 + k] - pv[k];

				put(f, (delta >= 0 ? delta : r->v[6 + k]) / dt);
			}
			fputc('\n', f);
			d->nrates++;
		}
		pt = r->t;
		for (int k = 0; k < 4; k++)
			pv[k] = r->v[6 + k];
		have_prev = 1;
	}
	fputs("\n\n", f);
	return fclose(f) ? -1 : 0;
}

/* Write gnuplot's single-quoted string literal ('' escapes a quote). */
static void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* A panel holding only a message (no plottable data). */
static void message_panel(FILE *f, const char *msg)
{
	fputs("unset key\nset xrange [0:1]\nset yrange [0:1]\nset label 1 ", f);
	gp_quote(f, msg);
	fputs(" at 0.5,0.5 center\nplot 2 notitle\nunset label 1\n"
	      "set autoscale x\nset autoscale y\nset key top left horizontal opaque samplen 2\nset offsets 0,0,graph 0.3,0\n", f);
}

static int plot_write_script(const char *path, const char *data, const char *out,
			     const char *term, const struct plot_data *d, const char *title)
{
	FILE *f = fopen(path, "w");
	int panels = d->ncpus + 1;
	int cols = panels > 4 ? 2 : 1;
	int rows = (panels + cols - 1) / cols;
	int width = cols == 1 ? 1000 : 1600, height = 260 * rows + 60;

	if (!f)
		return -1;
	fprintf(f, "set terminal %s size %d,%d%s\n", term, width, height,
		strcmp(term, "svg") ? "" : " dynamic");
	fputs("set output ", f);
	gp_quote(f, out);
	fputs("\nset datafile missing 'NaN'\nset grid\nset key top left horizontal opaque samplen 2\nset offsets 0,0,graph 0.3,0\n", f);
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	gp_quote(f, title);
	fputs("\n", f);
	for (int c = 0; c < d->ncpus; c++) {
		fprintf(f, "set title 'CPU %d: real load_avg vs shadow' noenhanced\n", d->cpus[c]);
		if (!d->cpu_valid[c]) {
			message_panel(f, "no data (CPU offline or no published walk)");
			continue;
		}
		fputs("set xlabel 'time (s)'\nset ylabel 'load units'\nset yrange [0:*]\n", f);
		fputs("plot ", f);
		gp_quote(f, data);
		fprintf(f, " index %d using 1:2 with lines lw 2 title 'real load_avg' noenhanced, \\\n"
			"     '' index %d using 1:3 with lines lw 2 title 'shadow' noenhanced, \\\n"
			"     '' index %d using 1:4 with lines dt 2 title 'shadow_avg' noenhanced\n",
			c, c, c);
	}
	fputs("set title 'load balancer verdicts (idle+newidle, actual pick)' noenhanced\n"
	      "set xlabel 'time (s)'\nset ylabel 'calls/s'\nset yrange [0:*]\n", f);
	if (d->have_lb && d->nrates) {
		fputs("plot ", f);
		gp_quote(f, data);
		fprintf(f, " index %d using 1:2 with lines lw 2 title 'right', \\\n"
			"     '' index %d using 1:3 with lines lw 2 title 'wrong', \\\n"
			"     '' index %d using 1:4 with lines title 'missed', \\\n"
			"     '' index %d using 1:5 with lines dt 2 title 'none'\n",
			d->ncpus, d->ncpus, d->ncpus, d->ncpus);
	} else {
		message_panel(f, d->have_lb ? "need two samples for rates" :
			      "lb audit not available in this recording");
	}
	fputs("unset multiplot\nset output\n", f);
	return fclose(f) ? -1 : 0;
}

/* gnuplot executable: $GNUPLOT, else the first `gnuplot` on PATH. */
static int find_gnuplot(char *buf, size_t len)
{
	const char *env = getenv("GNUPLOT");
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK);
	}
	copy = strdup(path && *path ? path : "/usr/bin:/bin");
	if (!copy)
		return -1;
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/gnuplot", dir);
		if (access(buf, X_OK) == 0) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	return -1;
}

/* Run gnuplot [-e CMD] [script]; returns its exit status or -1. */
static int run_gnuplot(const char *gp, const char *e, const char *script, int quiet)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
		}
		if (e)
			execl(gp, gp, "-e", e, (char *)NULL);
		else
			execl(gp, gp, script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *ext_of(const char *p)
{
	const char *dot = strrchr(p, '.');

	return dot && !strchr(dot, '/') ? dot + 1 : "";
}

static const struct cli_opt plot_opts[] = {
	{ 'o', "output", CLI_VAL_FILE, "FILE", "the picture; .png or .svg picks the format", NULL },
	{ 'k', "keep", CLI_VAL_NONE, NULL, "keep the generated gnuplot script and data (path on stderr)", NULL },
	{ 0 }
};

const struct cli_spec plot_spec = {
	.name = "plot",
	.synopsis = "FILE.csv",
	.summary = "plot a recorded CSV with gnuplot (PNG or SVG)",
	.help = "Draw a record CSV with gnuplot: per CPU real load_avg vs shadow and\n"
		"shadow_avg over time, and verdict rates per second.  gnuplot comes from\n"
		"$GNUPLOT or PATH (Debian: apt-get install gnuplot-nox); without it exit 3.",
	.opts = plot_opts,
	.operand = CLI_VAL_FILE,
};

struct plot_args {
	const char *out;
	int keep;
};

static int plot_opt(void *ctx, int key, const char *val, char *err, size_t errlen)
{
	struct plot_args *a = ctx;

	(void)err;
	(void)errlen;
	if (key == 'o')
		a->out = val;
	else
		a->keep = 1;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	char gp[4096], dir[] = "/tmp/sched-shadow-plot.XXXXXX", data[64], script[64];
	const char *in, *out, *term;
	struct plot_args a = { 0 };
	struct plot_data d;
	struct stat st;
	int rc, keep, i;

	i = cli_options(&plot_spec, argc, argv, plot_opt, &a, NULL);
	if (i < 0)
		return CLI_OPTS_EXIT(i);
	out = a.out;
	keep = a.keep;
	if (i >= argc)
		return cli_usage_error("plot", "missing input FILE.csv");
	if (i + 1 < argc)
		return cli_usage_error("plot", "unexpected argument '%s'", argv[i + 1]);
	in = argv[i];
	if (!out || !*out)
		return cli_usage_error("plot", "-o FILE.png|FILE.svg is required");
	if (!strcasecmp(ext_of(out), "png"))
		term = "pngcairo";
	else if (!strcasecmp(ext_of(out), "svg"))
		term = "svg";
	else
		return cli_usage_error("plot", "output '%s' must end in .png or .svg", out);

	rc = plot_read(in, &d);
	if (rc)
		goto out_free;
	if (find_gnuplot(gp, sizeof(gp))) {
		cli_err("plot", "gnuplot not found%s: install it (Debian: sudo apt-get install gnuplot-nox)",
			getenv("GNUPLOT") ? " at $GNUPLOT" : " in PATH");
		rc = CLI_EXIT_NOTOOL;
		goto out_free;
	}
	if (!strcmp(term, "pngcairo") && run_gnuplot(gp, "set terminal pngcairo", NULL, 1) != 0)
		term = "png";	/* gnuplot built without cairo */
	if (!mkdtemp(dir)) {
		cli_err("plot", "mkdtemp: %s", strerror(errno));
		rc = CLI_EXIT_FAIL;
		goto out_free;
	}
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	if (plot_write_data(data, &d) || plot_write_script(script, data, out, term, &d, in)) {
		cli_err("plot", "%s: %s", dir, strerror(errno));
		rc = CLI_EXIT_FAIL;
		goto out_tmp;
	}
	unlink(out);
	rc = run_gnuplot(gp, NULL, script, 0);
	if (rc != 0) {
		cli_err("plot", "gnuplot failed (status %d); script kept in %s", rc, script);
		keep = 1;
		rc = CLI_EXIT_FAIL;
	} else if (stat(out, &st) || st.st_size == 0) {
		cli_err("plot", "gnuplot wrote no output to %s", out);
		rc = CLI_EXIT_FAIL;
	} else {
		fprintf(stderr, "wrote %s (%d CPUs, %d rows, %s)\n", out, d.ncpus, d.n, term);
	}
out_tmp:
	if (keep) {
		fprintf(stderr, "gnuplot script: %s\n", script);
	} else {
		unlink(data);
		unlink(script);
		rmdir(dir);
	}
out_free:
	free(d.rows);
	return rc;
}
