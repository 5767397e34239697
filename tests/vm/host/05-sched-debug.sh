#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 05 (tests/vm/scenarios/05-sched-debug.sh):
# every field the kernel's sched/debug shares with `cpus` (nr_running,
# h_nr_running, load_avg, runnable_avg, util_avg, weight) and with each
# `groups` row (h_tasks, load_avg, runnable_avg, util_avg, cfs_weight,
# se_weight, nr_tasks) agrees in most of the 5 rounds
# (tests/vm/host/sched_oracle.py fields: tolerances there).  CPU 5 runs the
# reader (its own task comes and goes between the reads): not judged.
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
python3 "$here/sched_oracle.py" fields "$f" --skip-cpu 5 --noisy-cpu 0 | awk '
	/^(not )?ok [0-9]+ - / { n++; if (/^not/) f++; else p++ }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, 0 skipped\n", p, f + (n == 0); exit (f > 0 || n == 0) }'
