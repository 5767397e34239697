#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the wasted-core scenarios (tests/vm/scenarios/4x-wasted-*.sh):
# the independent oracle (tests/vm/host/wasted_oracle.py) recomputes
# wasted-core time and the wait split of every exported window from its raw
# scheduler events, over the window the trace gives (the sampler's ticks
# after the reset and before the pause), and judges the module's tables of
# the same window: its since/until against those ticks, a row for every
# online CPU, every CPU within 5 % or 20 ms, every cgroup of either side
# (wasted time and wait split) and the tracked command, the dequeue gap
# measured by the kprobe event on dequeue_task_fair() widening the bound
# only where it was recorded (docs/wasted.md).  It prints
#   wasted-core oracle: <release> cpuN module X ms vs trace Y ms
# per CPU and window, then per kernel
#   wasted-core oracle: <release> N of N CPUs within bound
#   wasted-core oracle: <release> N of N cgroups within bound
#   wasted-core oracle: <release> N of N wait splits within bound
# and the wakeup placements that left a CPU idle, per window and level,
# against the module's wasted_wakeup table (judged per level where either side
# counts 20; a window whose topology has no sched domains fails):
#   wakeup oracle: <release> <window> <level> module M vs trace T (+A ambiguous)
#   wakeup oracle: <release> N of N levels within bound
# (also into VM_OUT_DIR/wasted-oracle.txt: docs/testing.md shows them)
#
#   tests/vm/host/49-wasted-oracle.sh [VM_OUT_DIR]     (default build/vm-out)
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-wasted-oracle

shopt -s nullglob
wins=("$out"/wasted-*.tar.gz)
if [ ${#wins[@]} -eq 0 ]; then
	ok 1 "wasted-core windows exported by the guest (none in $out)"
else
	ok 0 "wasted-core windows exported by the guest: ${#wins[@]}"
	done_seen=1
	: > "$out/wasted-oracle.txt"
	while IFS= read -r line; do
		case $line in
		"checks done") done_seen=0 ;;
		"ok - "*) ok 0 "oracle: ${line#ok - }" ;;
		"not ok - "*) ok 1 "oracle: ${line#not ok - }" ;;
		"wasted-core oracle: "*|"wakeup oracle: "*) echo "$line"; echo "$line" >> "$out/wasted-oracle.txt" ;;
		"#"*) echo "$line" ;;
		esac
	done < <(python3 "$top/tests/vm/host/wasted_oracle.py" "${wins[@]}" 2>&1)
	ok $done_seen "oracle: ran to the end"
fi
tap_end
