#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 05 (tests/vm/scenarios/05-sched-debug.sh):
# every field the kernel's sched/debug shares with `cpus` (nr_running,
# h_nr_running, load_avg, runnable_avg, util_avg, weight) and with each
# `groups` row (h_tasks, load_avg, runnable_avg, util_avg, cfs_weight,
# se_weight, nr_tasks, h_load) agrees in every one of the 5 rounds (the
# guest reads sched/debug before and after the module's files; a round is
# excused only where the kernel's own state moved in it), in the default
# mode the module loads in (tests/vm/host/sched_oracle.py fields
# --default: tolerances there), with at least 10 judged comparisons of
# each field at depths 0 and 1 (four CPUs, each with one top-level group
# alone on it, in 5 rounds); copies of the exports with the CPUs' root
# averages or the groups' load_avg doubled must fail.  CPU 5 runs the
# reader (its own task comes and goes between the reads): not judged;
# cpu0's root values (the console's kworkers) are excluded and counted.
#   tests/vm/host/05-sched-debug.sh [VM_OUT_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../build/vm-out}
f=$out/s05-rounds.txt
if [ ! -s "$f" ]; then
	echo "not ok 1 - sched/debug fields: rounds exported by the guest ($f missing)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
common="--skip-cpu 5 --noisy-cpu 0 --default --min 10 --depths 0-1"
{
	python3 "$here/sched_oracle.py" fields "$f" $common --label "sched/debug fields[default]"
	python3 "$here/sched_oracle.py" teeth "$f" $common --label "sched/debug teeth" \
		--case 'x2:cpus.load_avg>=0:fields:cpus.load_avg' \
		--case 'x2:cpus.util_avg>=0:fields:cpus.util_avg' \
		--case 'x2:groups.load_avg>=1:fields:groups.load_avg' \
		--case 'x0:groups.load_avg>=1:fields:groups.load_avg' \
		--case 'x2:groups.h_load>=1:fields:groups.h_load'
} 2>&1 | awk '
	/^(not )?ok [0-9]+ - / { n++; nok = /^not/; sub(/^(not )?ok [0-9]+ - /, ""); printf "%sok %d - %s\n", nok ? "not " : "", n, $0; if (nok) f++; else p++; next }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, 0 skipped\n", p, f + (n == 0); exit (f > 0 || n == 0) }'
