#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the wasted-core scenarios (tests/vm/scenarios/4x-wasted-*.sh):
# the independent oracle (tests/vm/host/wasted_oracle.py) recomputes
# wasted-core time and the wait split of every exported window from its raw
# scheduler events, and compares them with the module's tables of the same
# window: per CPU and per cgroup within 5 % or 20 ms in windows with at
# least 1 s of waste.  It prints
#   wasted-core oracle: <release> cpuN module X ms vs trace Y ms
# per CPU and window, then one line per kernel
#   wasted-core oracle: <release> N of N CPUs within bound
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
	while IFS= read -r line; do
		case $line in
		"checks done") done_seen=0 ;;
		"ok - "*) ok 0 "oracle: ${line#ok - }" ;;
		"not ok - "*) ok 1 "oracle: ${line#not ok - }" ;;
		"wasted-core oracle: "*) echo "$line" ;;
		"#"*) echo "$line" ;;
		esac
	done < <(python3 "$top/tests/vm/host/wasted_oracle.py" "${wins[@]}" 2>&1)
	ok $done_seen "oracle: ran to the end"
fi
tap_end
