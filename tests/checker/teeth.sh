#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-checker-teeth: show that the random cross-check catches rule
# mutations of the audit core.  Each tests/checker/mutants/*.mut sets FILE
# (module/core/...), SED (the bug) and VARIANTS (the rule variants whose
# cross-check should catch it).  For each: module/core copied under
# build/checker-mutants/NAME, the sed applied (one that changes nothing is
# "not applied", a failure), the driver built against the copy, and the
# cross-check run (CASES per variant, the same seed as the unmutated
# baseline).  Caught = more disagreements than the unmutated core on the
# same cases.  Prints one line per mutant and "N passed, N failed".
#   MUTANTS='name ...'  only these;  CASES=N (default 100000, as make test)
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
CASES=${CASES:-100000}
CC=${CC:-cc}
M=$BUILD/checker-mutants
names=${MUTANTS:-$(cd "$TOP/tests/checker/mutants" && ls *.mut | sed 's/\.mut$//')}
mkdir -p "$M"
build() {	# build DIR-with-core OUT
	$CC -O2 -Wall -Wno-comment -I"$TOP/tests/unit/shim" -I"$1" -o "$2" \
		"$TOP/tests/checker/driver.c" "$1/audit_core.c" "$1/work.c"
}
disagree() {	# driver variants -> "variant=count ..."
	python3 "$TOP/tests/checker/crosscheck.py" "$1" --cases "$CASES" --variants "$2" |
		sed -n 's/^.* - \([0-9.]*\): checker and core agree on \([0-9]*\) of \([0-9]*\) cases$/\1=\2\/\3/p'
}
build "$TOP/module/core" "$M/driver.base" || { echo "not ok - the unmutated driver does not build"; exit 1; }
declare -A base
pass=0 fail=0 n=0
echo "TAP version 13"
for name in $names; do
	FILE='' SED='' VARIANTS=''
	# shellcheck source=/dev/null
	. "$TOP/tests/checker/mutants/$name.mut"
	n=$((n + 1))
	B=$M/$name
	rm -rf "$B" && mkdir -p "$B/core"
	cp "$TOP"/module/core/*.[ch] "$B/core/"
	f=$B/core/$(basename "$FILE")
	sed -i "$SED" "$f"
	if cmp -s "$f" "$TOP/$FILE"; then
		echo "not ok $n - $name: not applied (the code it targets moved)"; fail=$((fail + 1)); continue
	fi
	if ! build "$B/core" "$B/driver" 2> "$B/build.log"; then
		echo "not ok $n - $name: does not build ($B/build.log)"; fail=$((fail + 1)); continue
	fi
	caught='' detail=''
	for v in ${VARIANTS//,/ }; do
		[ -n "${base[$v]:-}" ] || base[$v]=$(disagree "$M/driver.base" "$v")
		got=$(disagree "$B/driver" "$v")
		a0=${base[$v]#*=}; a0=${a0%/*}; a1=${got#*=}; a1=${a1%/*}; tot=${got#*/}
		detail="$detail $v: $((tot - a1)) of $tot disagree (unmutated $((tot - a0)));"
		[ -n "$a1" ] && [ -n "$a0" ] && [ "$a1" -lt "$a0" ] && caught=1
	done
	if [ -n "$caught" ]; then
		echo "ok $n - $name caught:$detail"; pass=$((pass + 1))
	else
		echo "not ok $n - $name NOT caught:$detail"; fail=$((fail + 1))
	fi
done
echo "1..$n"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
