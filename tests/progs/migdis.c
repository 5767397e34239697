// SPDX-License-Identifier: GPL-2.0
/*
 * migdis: keep this thread migration-disabled most of the time, from user
 * space (VM scenario 32).  BPF_PROG_TEST_RUN runs a trivial socket filter
 * REPEAT times inside bpf_test_run(), which holds migrate_disable() (not
 * preempt_disable()) between its need_resched checks.  On a kernel with
 * full preemption (PREEMPT_DYNAMIC: /sys/kernel/debug/sched/preempt =
 * full) a tick or a wakeup preempts it there, and it waits with
 * migration disabled: no other CPU may pull it, whatever its affinity.
 *
 *   migdis [-d SECONDS] [-r REPEAT]
 * Prints the test runs done; exit 1 if BPF is not usable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include "progs.h"

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned char pkt[64] = { 0 };
	double secs = 5, end;
	unsigned int repeat = 100000;
	union bpf_attr a;
	long runs = 0;
	int fd, opt;

	while ((opt = getopt(argc, argv, "d:r:")) != -1) {
		switch (opt) {
		case 'd': secs = atof(optarg); break;
		case 'r': repeat = (unsigned int)strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: migdis [-d SECONDS] [-r REPEAT]\n");
			return 2;
		}
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (unsigned long)insns;
	a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	a.license = (unsigned long)"GPL";
	fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "migdis: BPF_PROG_LOAD: %s\n", strerror(errno));
		return 1;
	}
	end = now_s() + secs;
	while (now_s() < end) {
		memset(&a, 0, sizeof(a));
		a.test.prog_fd = fd;
		a.test.data_in = (unsigned long)pkt;
		a.test.data_size_in = sizeof(pkt);
		a.test.repeat = repeat;
		if (bpf(BPF_PROG_TEST_RUN, &a)) {
			fprintf(stderr, "migdis: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
			return 1;
		}
		runs++;
	}
	printf("migdis: %ld test runs of %u\n", runs, repeat);
	return 0;
}
