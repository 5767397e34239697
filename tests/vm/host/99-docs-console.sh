#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The console blocks of README.md and docs/*.md that `make test` produces
# in the VM (tests/docs/console.list, source `vm`): each has the words and
# order, digits free, of the file the guest exported from its own run
# (debugfs tables, the wasted-core windows, scenario 27's lb_attempts, the
# oracle's lines).  The blocks are 6.1's: other kernels skip, saying so.
#
#   tests/vm/host/99-docs-console.sh [VM_OUT_DIR]     (default build/vm-out)
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-docs-console

rel=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kernel"])' "$out/cli-status.json" 2>/dev/null)
if [ -z "$rel" ]; then
	ok 1 "the boot's kernel, from cli-status.json (scenario 60) in $out"
elif [ "${rel#6.1.}" = "$rel" ]; then
	tap_skip "the docs' console blocks against this run" "this boot's kernel is $rel; the blocks are 6.1's (make test's boot)"
else
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "${line#ok - }" ;;
		"not ok - "*) ok 1 "${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done < <(python3 "$top/tests/docs/console.py" vm "$out" 2>&1)
fi
tap_end
