#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 27 (tests/vm/scenarios/27-lb-known-wrong.sh):
# the independent checker written from fair.c (tests/checker/rejudge.py)
# re-judges every lb_verdict event the guest exported from the inputs each
# event records (per-CPU state, groups, domain).  100 % agreement is
# required; zero events is a failure.
#
#   tests/vm/host/27-lb-known-wrong.sh [VM_OUT_DIR]     (default build/vm-out)
#   TAP output; TAP_SUMMARY=file as in tests/lib/tap.sh
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-lb-rejudge

f=$out/lb27-verdicts.txt
if [ ! -s "$f" ]; then
	ok 1 "lb_verdict events exported by the guest ($f missing or empty)"
else
	done_seen=1
	while IFS= read -r line; do
		case $line in
		"checks done") done_seen=0 ;;
		"ok - "*) ok 0 "rejudge: ${line#ok - }" ;;
		"not ok - "*) ok 1 "rejudge: ${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < <(python3 "$top/tests/checker/rejudge.py" "$f")
	ok $done_seen "rejudge: the checker ran to the end"
fi
tap_end
