#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of VM scenario 64 (the README's quick start): the output of
# each command the guest ran (quickstart-N.out, N counting the commands
# the guest runs) has the words and order of the output the README shows
# for it, digits free (tests/docs/console.py match; a "..." line of the
# README leaves output out, a line ending in " ..." only starts the
# output's).  The README's output is 6.1's: other kernels skip, saying so.
#
#   tests/vm/host/64-quickstart.sh [VM_OUT_DIR]     (default build/vm-out)
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-quickstart

qs=$(mktemp)
trap 'rm -f "$qs"' EXIT
"$top/tests/quickstart/extract.sh" "$top/README.md" > "$qs"
nhost=$(grep -c '^cmd host ' "$qs")
nvm=$(grep -c '^cmd vm ' "$qs")
rel=$(sed -n 's/^kernel: *\([^ ]*\) .*/\1/p' "$out/quickstart-2.out" 2>/dev/null | head -n 1)
if [ "$nvm" -eq 0 ] || [ ! -f "$out/quickstart-1.out" ]; then
	ok 1 "quick start outputs exported by the guest ($nvm commands; none in $out)"
elif [ "${rel#6.1.}" = "$rel" ]; then
	tap_skip "the README's quick start output, words and order" "this boot's kernel is ${rel:-unknown}; the README shows 6.1's (make test's boot)"
else
	i=1
	while [ $i -le "$nvm" ]; do
		cmd=$(grep '^cmd vm ' "$qs" | sed -n "${i}p" | cut -d' ' -f3-)
		why=$(python3 "$top/tests/docs/console.py" match quickstart "$out/quickstart-$i.out" $((nhost + i)))
		ok $? "quick start: \$ $cmd: the README's output, words and order${why:+: $why}"
		i=$((i + 1))
	done
fi
tap_end
