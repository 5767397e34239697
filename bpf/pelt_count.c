// SPDX-License-Identifier: GPL-2.0
/*
 * pelt-count: loader of pelt_count.bpf.c (the BPF alternative `make bench`
 * measures against the module).  Loads and attaches the three raw
 * tracepoint programs, says "pelt-count: attached" on stdout, waits for
 * SIGINT/SIGTERM (or -d SECONDS), then prints per tracepoint the calls and
 * the sum of the field read, summed over CPUs, and each program's
 * run_cnt and run_time_ns (the kernel counts them while
 * kernel.bpf_stats_enabled is 1).  -e attaches empty programs instead (what
 * the raw_tp dispatch costs alone).  Built static for the VM.
 *
 * usage: pelt-count [-e] [-d SECONDS]
 * Exit: 0 after a clean detach; 1 with one line on stderr saying which
 * step failed (a tracepoint that cannot be attached is named).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "pelt_count.h"
#include "pelt_count.skel.h"

static const char *const pc_names[PC_NR_HOOKS] = {
	[PC_PELT_CFS] = "pelt_cfs_tp",
	[PC_PELT_SE] = "pelt_se_tp",
	[PC_NR_RUNNING] = "sched_update_nr_running_tp",
};

static volatile sig_atomic_t pc_stop;

static void pc_on_signal(int sig)
{
	(void)sig;
	pc_stop = 1;
}

static int pc_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	struct bpf_program *progs[PC_NR_HOOKS];
	struct pelt_count_bpf *skel = NULL;
	struct pc_val *vals = NULL, tot;
	long secs = 0;
	int ncpus, err = 1, i, c, opt, empty = 0;
	__u32 zero = 0;

	while ((opt = getopt(argc, argv, "ed:")) != -1) {
		char *end;

		if (opt == 'e') {
			empty = 1;
			continue;
		}
		if (opt != 'd')
			goto usage;
		errno = 0;
		secs = strtol(optarg, &end, 10);
		if (errno || *end || end == optarg || secs < 1 || secs > 86400)
			goto usage;
	}
	if (optind != argc)
		goto usage;

	libbpf_set_print(pc_libbpf_print);
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0) {
		fprintf(stderr, "pelt-count: cannot count possible CPUs (%d)\n", ncpus);
		return 1;
	}
	vals = calloc(ncpus, sizeof(*vals));
	if (!vals) {
		fprintf(stderr, "pelt-count: out of memory\n");
		return 1;
	}
	/* Open & load the BPF object (CO-RE relocations against this kernel's BTF) */
	skel = pelt_count_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "pelt-count: cannot load the BPF object: %s\n", strerror(errno));
		goto cleanup;
	}
	/* Attach one by one, so a failure names its tracepoint */
	progs[PC_PELT_CFS] = empty ? skel->progs.pc_empty_cfs : skel->progs.pc_pelt_cfs;
	progs[PC_PELT_SE] = empty ? skel->progs.pc_empty_se : skel->progs.pc_pelt_se;
	progs[PC_NR_RUNNING] = empty ? skel->progs.pc_empty_nr : skel->progs.pc_nr_running;
	for (i = 0; i < PC_NR_HOOKS; i++) {
		struct bpf_link *l = bpf_program__attach(progs[i]);

		if (!l) {
			fprintf(stderr, "pelt-count: cannot attach raw_tp/%s: %s\n", pc_names[i],
				strerror(errno));
			goto cleanup;
		}
		/* the skeleton destroys the links it holds */
		switch (i) {
		case PC_PELT_CFS:
			*(empty ? &skel->links.pc_empty_cfs : &skel->links.pc_pelt_cfs) = l;
			break;
		case PC_PELT_SE:
			*(empty ? &skel->links.pc_empty_se : &skel->links.pc_pelt_se) = l;
			break;
		default:
			*(empty ? &skel->links.pc_empty_nr : &skel->links.pc_nr_running) = l;
			break;
		}
	}
	signal(SIGINT, pc_on_signal);
	signal(SIGTERM, pc_on_signal);
	printf("pelt-count: attached\n");
	fflush(stdout);
	if (secs) {
		while (secs-- > 0 && !pc_stop)
			sleep(1);
	} else {
		while (!pc_stop)
			pause();
	}

	/* Sum the per-CPU values */
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.pc_counts), &zero, vals)) {
		fprintf(stderr, "pelt-count: cannot read the counters: %s\n", strerror(errno));
		goto cleanup;
	}
	memset(&tot, 0, sizeof(tot));
	for (c = 0; c < ncpus; c++) {
		for (i = 0; i < PC_NR_HOOKS; i++) {
			tot.calls[i] += vals[c].calls[i];
			tot.sum[i] += vals[c].sum[i];
		}
	}
	printf("hook calls sum run_cnt run_time_ns\n");
	for (i = 0; i < PC_NR_HOOKS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(progs[i]), &info, &len))
			memset(&info, 0, sizeof(info));
		printf("%s %llu %llu %llu %llu\n", pc_names[i], (unsigned long long)tot.calls[i],
		       (unsigned long long)tot.sum[i], (unsigned long long)info.run_cnt,
		       (unsigned long long)info.run_time_ns);
	}
	err = 0;

cleanup:
	pelt_count_bpf__destroy(skel);
	free(vals);
	return err;

usage:
	fprintf(stderr, "usage: pelt-count [-e] [-d SECONDS]\n");
	return 64;
}
