#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Add up the per-suite "N passed, N failed[, N skipped]" lines that each
# suite left in <dir>/<suite>.summary and print the one closing line of
# `make test`: "N passed, N failed, N skipped".
#   - a suite that left no summary (crashed, VM died) counts as one failure;
#   - a suite that ran no check, or fewer (passed + failed) than its
#     minimum in tests/minimums (MINIMUMS=file to override), counts as one
#     failure; so does a suite not listed there (every suite of every
#     target has a minimum);
#   - a SKIP is counted apart and never as a pass;
#   - docs/testing.md's table of suite counts must be the one tests/minimums
#     gives (tests/readme-counts.sh), or that is one failure.
set -u
dir=${1:?usage: summarize.sh RESULTS_DIR}
suites=${SUITES:-"unit checker bpf lint docs install vm bugs"}
minfile=${MINIMUMS:-$(dirname "$0")/minimums}
pass=0 fail=0 skip=0
minimum() { awk -v s="$1" '!/^#/ && $1 == s { print $2; f = 1 } END { if (!f) print "none" }' "$minfile" 2>/dev/null || echo none; }
for s in $suites; do
	f="$dir/$s.summary"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$f" 2>/dev/null | tail -n 1)
	if [ -z "$line" ]; then
		echo "# suite $s: no result (it did not finish)" >&2
		fail=$((fail + 1))
		continue
	fi
	p=${line%% passed*}
	q=${line#*, }; q=${q%% failed*}
	k=0
	case $line in *skipped) k=${line##*failed, }; k=${k%% skipped} ;; esac
	min=$(minimum "$s")
	if [ "$min" = none ]; then
		echo "# suite $s: FAILED: no minimum in $minfile (every suite needs one)" >&2
		q=$((q + 1)) min=1
	fi
	echo "# suite $s: $p passed, $q failed, $k skipped (minimum $min checks run)"
	if [ $((p + q)) -lt "$min" ]; then
		echo "# suite $s: FAILED: ran $((p + q)) checks, fewer than its minimum $min (tests/minimums)" >&2
		q=$((q + 1))
	fi
	pass=$((pass + p)); fail=$((fail + q)); skip=$((skip + k))
done
# docs/testing.md's per-suite counts come from tests/minimums
if [ -z "${MINIMUMS:-}" ] && ! "$(dirname "$0")/readme-counts.sh" --check; then
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
