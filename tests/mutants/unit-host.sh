#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The host check of a unit-test mutant (tests/mutants/*.mut with
# HOST='tests/mutants/unit-host.sh TEST'): tests/unit/TEST.c of the tree in
# the current directory, built against its module/core/ behind the unit
# tests' shim (no sanitizers: a mutant's wrong answer, not a crash, is what
# must fail), and run.  run.sh runs it in the mutated tree and, as the
# control, in the unmutated one.  TAP out ("ok N - ..." / "not ok N - ...").
#   env: BUILD (a directory of its own)
set -uo pipefail
t=${1:?usage: unit-host.sh TEST (a tests/unit/TEST.c)}
if [ ! -f "tests/unit/$t.c" ]; then
	echo "not ok 1 - $t: no tests/unit/$t.c in this tree"
	exit 1
fi
mkdir -p "$BUILD"
if ! ${CC:-cc} -O1 -g -Wall -Wextra -Werror -Itests/unit/shim -Itests/unit -Imodule/core \
	-o "$BUILD/$t" "tests/unit/$t.c" -lm 2> "$BUILD/$t.log"; then
	echo "not ok 1 - $t: the test does not build: $(head -n 1 "$BUILD/$t.log")"
	exit 1
fi
"$BUILD/$t"
