#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side oracle for VM scenario 11 (tests/vm/scenarios/11-oracle-nested.sh),
# in both module modes (exact=1 and the default):
#   - shadow: the expected shadow, shadow_fresh (the PELT formula) and the
#     sum of task_h_load of every groups row and every CPU, computed from
#     the kernel's sched/debug and /proc/TID/sched only, against `groups`
#     and `cpus` (sched_oracle.py shadow);
#   - fields: every field sched/debug shares with them, and each row's
#     h_load recomputed as update_cfs_rq_h_load() does (sched_oracle.py
#     fields);
#   - at least MIN judged comparisons of every field at every depth 0-4
#     (the scenario puts groups of each depth alone on a CPU);
#   - teeth: copies of the exact=1 exports with a value doubled, zeroed,
#     tripled or h_load without its group factor must fail the named check
#     (cpu0's root averages doubled: scenario 05's host check; here cpu0's
#     root load is a few dozen units that the console's kworkers move by
#     more than 10 %, reported, not judged).
# CPU 5 runs the reader: not judged; cpu0 runs the console's kworkers
# (--noisy-cpu).  TAP; exit non-zero on failure.
#   tests/vm/host/11-oracle-nested.sh [VM_OUT_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../build/vm-out}
# judged comparisons per field and depth: 12 rounds of 2 to 6 rows each;
# the scenario gives at least 16 at every depth (util_avg at depth 4: the
# two lone hogs of cpu2 and cpu3), less the rounds the kernel's own dump
# contradicts (a task R but not queued) and, in the default mode, those
# whose last walk is older than the CPU's last event
MIN=10
ORACLE="python3 $here/sched_oracle.py"
common="--skip-cpu 5 --noisy-cpu 0 --min $MIN --depths 0-4"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for m in exact default; do
	f=$out/s11-rounds.txt dflt=
	[ $m = default ] && f=$out/s11-default-rounds.txt dflt=--default
	if [ ! -s "$f" ]; then
		echo "not ok 1 - oracle[$m]: rounds exported by the guest ($f missing)" > "$tmp/$i"
		i=$((i + 1))
		continue
	fi
	$ORACLE shadow "$f" $common $dflt --label "oracle[$m] shadow" --expect "$out/s11-expect.txt" > "$tmp/$i" 2>&1
	i=$((i + 1))
	$ORACLE fields "$f" $common $dflt --label "oracle[$m] fields" > "$tmp/$i" 2>&1
	i=$((i + 1))
done
if [ -s "$out/s11-rounds.txt" ]; then
	$ORACLE teeth "$out/s11-rounds.txt" $common --label "oracle[exact] teeth" \
		--case 'x2:groups.load_avg>=3:fields:groups.load_avg' \
		--case 'x0:groups.load_avg>=3:fields:groups.load_avg' \
		--case 'x3:groups.util_avg>=3:fields:groups.util_avg' \
		--case 'x3:groups.runnable_avg>=3:fields:groups.runnable_avg' \
		--case 'x3:groups.shadow>=3:shadow:groups.shadow' \
		--case 'x0:groups.shadow>=3:shadow:groups.shadow' \
		--case 'x2:groups.h_load>=3:fields:groups.h_load' \
		--case 'hload_nogroup:fields:groups.h_load' \
		--case 'x2:cpus.h_load>=0:shadow:cpus.h_load' \
		--case 'x2:groups.shadow_fresh>=1:shadow:groups.shadow_fresh' \
		> "$tmp/$i" 2>&1
	i=$((i + 1))
fi
# renumber the outputs into one TAP stream
j=0
while [ $j -lt $i ]; do cat "$tmp/$j"; j=$((j + 1)); done | awk '
	/^(not )?ok [0-9]+ - / { n++; nok = /^not/; sub(/^(not )?ok [0-9]+ - /, ""); printf "%sok %d - %s\n", nok ? "not " : "", n, $0; if (nok) f++; else p++; next }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, 0 skipped\n", p, f + (n == 0); exit (f > 0 || n == 0) }'
