#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Add up the per-suite "N passed, N failed" lines that each suite left in
# <dir>/<suite>.summary and print the one closing line of `make test`.
# A suite that left no summary (crashed, VM died) counts as one failure.
set -u
dir=${1:?usage: summarize.sh RESULTS_DIR}
suites=${SUITES:-"unit bpf install vm"}
pass=0 fail=0
for s in $suites; do
	f="$dir/$s.summary"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$f" 2>/dev/null | tail -n 1)
	if [ -z "$line" ]; then
		echo "# suite $s: no result (it did not finish)" >&2
		fail=$((fail + 1))
		continue
	fi
	p=${line%% passed*}
	q=${line#*, }; q=${q%% failed*}
	echo "# suite $s: $line"
	pass=$((pass + p)); fail=$((fail + q))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
