#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side oracle for VM scenario 13 (tests/vm/scenarios/13-fresh-values.sh):
# a task in /s13/a (depth 2) waits on cpu1 behind an RT spinner, so its
# se.avg stays stale while its cfs_rqs accrue it.  On cpu1's rows /s13 and
# /s13/a (and the root when no other fair task is queued there):
#   - shadow_fresh against the PELT formula applied to the task's stale
#     /proc/TID/sched values up to the dump's clock (sched_oracle.py);
#   - shadow and task_load against the stale sum, h_load against
#     task_h_load() recomputed from sched/debug's per-level averages;
#   - teeth: copies of the exports with shadow replaced by shadow_avg
#     (which scales the accrued group load_avg) or shadow_fresh by shadow
#     or doubled must fail the named check (h_load below the root is 0
#     here: the starved group entities' load_avg is not updated while the
#     RT task runs; scenario 11 gives h_load its teeth).
# Judged with a minimum of 4 comparisons per field at depths 1 and 2 on the
# exact=1 rounds (s13x-rounds.txt: the walk at every event); the default
# mode's rounds (s13-rounds.txt) are judged where their walk is current,
# with no minimum: when a kworker queued behind the spinner holds back
# cpu1's softirqs, no switch and no root PELT update comes for the whole
# spin and every round is one enqueue behind (counted, left out; the
# default mode's minimum is scenario 11's and 05's).
# TAP; exit non-zero on failure.
#   tests/vm/host/13-fresh-values.sh [VM_OUT_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../build/vm-out}
f=$out/s13x-rounds.txt
fd=$out/s13-rounds.txt
if [ ! -s "$f" ] || [ ! -s "$fd" ]; then
	echo "not ok 1 - fresh oracle: rounds exported by the guest ($f or $fd missing)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
ORACLE="python3 $here/sched_oracle.py"
common="--fresh-cpu 1 --min 4 --depths 1-2"
{
	$ORACLE shadow "$f" $common --label "fresh oracle shadow[exact]"
	# the waiting task's groups do not run: their util_avg decays between
	# the reads, and on 7.3 their entities' load_avg (h_load's factors)
	# climbs while they wait (judged where steady, no minimum)
	$ORACLE fields "$f" $common --no-min groups.util_avg --no-min groups.h_load --label "fresh oracle fields[exact]"
	$ORACLE teeth "$f" $common --label "fresh oracle teeth" \
		--case 'copy:shadow_avg>shadow:shadow:groups.shadow' \
		--case 'copy:shadow>shadow_fresh:shadow:groups.shadow_fresh' \
		--case 'x2:groups.shadow_fresh>=1:shadow:groups.shadow_fresh'
	$ORACLE shadow "$fd" $common --default --no-min groups.shadow --no-min groups.task_load \
		--no-min groups.nr_tasks --no-min groups.shadow_fresh --label "fresh oracle shadow[default]"
} 2>&1 | awk '
	/^(not )?ok [0-9]+ - / { n++; nok = /^not/; sub(/^(not )?ok [0-9]+ - /, ""); printf "%sok %d - %s\n", nok ? "not " : "", n, $0; if (nok) f++; else p++; next }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, 0 skipped\n", p, f + (n == 0); exit (f > 0 || n == 0) }'
