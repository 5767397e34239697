#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The host check of a model-rule mutant (tests/mutants/*.mut with HOST=):
# the checker's random cross-check (tests/checker/, its own model of
# find_busiest_group() written from fair.c) against the audit core of the
# tree in the current directory (module/core/*.c, built on the host behind
# the unit tests' shim), for the rule variant of the kernel the mutants run
# for.  run.sh runs it in the mutated tree and, as the control, in the
# unmutated one.  TAP out (crosscheck.py's), prefixed lines "ok - ..." /
# "not ok - ..." as run.sh reads them.
#   env: MUTANT_KERNEL (bookworm: variant 6.1; trixie-backports: 7.3),
#        BUILD (a directory of its own), CHECKER_CASES (default 100000, as make test)
set -uo pipefail
case ${MUTANT_KERNEL:-bookworm} in
bookworm|bookworm-rt) v=6.1 ;;
trixie) v=6.10 ;;
trixie-backports) v=7.3 ;;
sid) v=7.2 ;;
bullseye) v=5.10 ;;
*) v=6.1 ;;
esac
if [ ! -f tests/checker/driver.c ] || [ ! -f tests/checker/crosscheck.py ]; then
	echo "not ok 1 - $v: checker and core agree (no tests/checker in this tree)"
	exit 1
fi
mkdir -p "$BUILD"
if ! ${CC:-cc} -O2 -Wall -Wno-comment -Itests/unit/shim -Imodule/core -o "$BUILD/driver" \
	tests/checker/driver.c module/core/audit_core.c module/core/work.c 2> "$BUILD/driver.log"; then
	echo "not ok 1 - $v: checker and core agree (the driver does not build: $(head -n 1 "$BUILD/driver.log"))"
	exit 1
fi
python3 tests/checker/crosscheck.py "$BUILD/driver" --cases "${CHECKER_CASES:-100000}" --variants "$v" --jobs 2
