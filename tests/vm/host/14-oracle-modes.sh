#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks of VM scenario 14 (tests/vm/scenarios/14-oracle-modes.sh):
# for each setting of the kernel's switches it ran under (7.3's cgroup_mode
# up, smp, concur, max, tasks; llc_balancing 0 at the kernel's default mode),
#   - the sched/debug oracle of scenario 11 (sched_oracle.py shadow and
#     fields, exact=1): shadow, shadow_fresh, h_load and every shared field
#     recomputed from the kernel's data alone, at least MIN judged
#     comparisons of every field at every depth 0-4;
#   - the audit's model against the kernel over the setting's balancing
#     attempts (lb_agreement.py --check: agreement >= 99.5 %, where either
#     picked >= 99 %, unknown disagreements <= 0.1 %), and its line.
# A setting the guest lists as absent in s14-settings.txt (a kernel
# without the switch: the guest skipped it and said why) is skipped here
# too; a missing list, or a setting that ran without its exports, fails.  TAP; exit non-zero
# on failure.
#   tests/vm/host/14-oracle-modes.sh [VM_OUT_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../../build/vm-out}
# 5 rounds of 2 to 6 rows each: at least 10 at every depth (util_avg at
# depth 4: the two lone hogs of cpu2 and cpu3), less the rounds the kernel's
# own dump contradicts
MIN=5
ORACLE="python3 $here/sched_oracle.py"
# cpu5 runs the reader; cpu0 (the console's interrupt work and kworkers) is
# not judged either: with 5 rounds a kworker there outvotes the hog's group
# (7.2, /o/x util_avg: module/oracle 1001/971 and 936/792 in 2 of 4 rounds),
# and scenario 11 judges it, in 8 rounds and both module modes
common="--skip-cpu 5 --skip-cpu 0 --min $MIN --depths 0-4"
SETTINGS="cgroup_mode=up cgroup_mode=smp cgroup_mode=concur cgroup_mode=max cgroup_mode=tasks llc_balancing=0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
if [ ! -s "$out/s14-settings.txt" ]; then
	echo "not ok 1 - oracle[settings]: the guest's list of settings exported ($out/s14-settings.txt missing)" > "$tmp/$i"
	i=$((i + 1))
fi
for s in $SETTINGS; do
	x=$(echo "$s" | sed 's/cgroup_mode=//; s/llc_balancing=/llc/')
	f=$out/s14-$x-rounds.txt
	if grep -qx "$s absent" "$out/s14-settings.txt" 2>/dev/null; then
		echo "ok 1 - oracle[$s] # SKIP this kernel has no such switch (the guest's list)" > "$tmp/$i"
		i=$((i + 1))
		continue
	fi
	if ! grep -qx "$s ran" "$out/s14-settings.txt" 2>/dev/null || [ ! -s "$f" ]; then
		echo "not ok 1 - oracle[$s]: rounds exported by the guest ($f missing)" > "$tmp/$i"
		i=$((i + 1))
		continue
	fi
	$ORACLE shadow "$f" $common --label "oracle[$s] shadow" --expect "$out/s14-$x-expect.txt" > "$tmp/$i" 2>&1
	i=$((i + 1))
	$ORACLE fields "$f" $common --label "oracle[$s] fields" > "$tmp/$i" 2>&1
	i=$((i + 1))
	# the model's agreement over this setting's attempts: lb_agreement.py reads lbmodel-*.info
	mkdir -p "$tmp/lb$i"
	cp "$out/s14-$x.info" "$tmp/lb$i/lbmodel-0.info" 2>/dev/null
	python3 "$here/lb_agreement.py" "$tmp/lb$i" --check 2>&1 |
		sed -E "s/^(not )?ok ([0-9]+) - lb agreement: /\1ok \2 - lb agreement[$s]: /;
			s/^([^ #]+: model agreement)/# [$s] \1/" > "$tmp/$i"
	i=$((i + 1))
done
# renumber the outputs into one TAP stream
j=0
while [ $j -lt $i ]; do cat "$tmp/$j"; j=$((j + 1)); done | awk '
	/^(not )?ok [0-9]+ - / { n++; nok = /^not/; skip = / # SKIP /; sub(/^(not )?ok [0-9]+ - /, "")
		printf "%sok %d - %s\n", nok ? "not " : "", n, $0; if (nok) f++; else if (skip) s++; else p++; next }
	/^[0-9]+ passed, [0-9]+ failed/ { next }
	{ print }
	END { print "1.." n + 0; printf "%d passed, %d failed, %d skipped\n", p, f + (n == 0), s; exit (f > 0 || n == 0) }'
