#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side oracle for VM scenario 11 (tests/vm/scenarios/11-oracle-nested.sh):
# the expected shadow of every groups row and every CPU, computed from the
# kernel's sched/debug and /proc/TID/sched only, against the module's
# `groups` and `cpus` (sched_oracle.py shadow), and every field sched/debug
# shares with them (sched_oracle.py fields).  CPU 5 runs the reader: not
# judged.  TAP; exit non-zero on failure.
#   tests/vm/host/11-oracle-nested.sh [VM_OUT_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../build/vm-out}
f=$out/s11-rounds.txt
if [ ! -s "$f" ]; then
	echo "not ok 1 - oracle: rounds exported by the guest ($f missing)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
python3 "$here/sched_oracle.py" shadow "$f" --skip-cpu 5 --expect "$out/s11-expect.txt" > /tmp/s11-shadow.$$ 2>&1
python3 "$here/sched_oracle.py" fields "$f" --skip-cpu 5 --noisy-cpu 0 > /tmp/s11-fields.$$ 2>&1
# renumber both outputs into one TAP stream
cat /tmp/s11-shadow.$$ /tmp/s11-fields.$$ | awk '
	/^(not )?ok [0-9]+ - / { n++; nok = /^not/; sub(/^(not )?ok [0-9]+ - /, ""); printf "%sok %d - %s\n", nok ? "not " : "", n, $0; if (nok) f++; else p++; next }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, 0 skipped\n", p, f + (n == 0); exit (f > 0 || n == 0) }'
rc=$?
rm -f /tmp/s11-shadow.$$ /tmp/s11-fields.$$
exit $rc
