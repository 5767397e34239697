#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The README's quick start as data: the commands of its console block
# (the one after <!-- console: quickstart: ... -->), each with the lines of
# its shown output that must appear in its real output.  (The words and
# order of each command's whole output are checked on the host:
# tests/docs/console.py match, from tests/install and VM host check 64.)
#
#   tests/quickstart/extract.sh [README.md] > quickstart.txt
#
# Output, one record per line:
#   cmd PART COMMAND     a line "$ COMMAND" of the README; PART is host for
#                        the install steps (apt-get, make), vm for the rest
#   out LINE             a line shown under it that has no digit (numbers
#                        differ between runs; headers, titles and labels do
#                        not): it must be a line of the command's output
# A "..." line (output left out), a line ending in " ..." (the output's
# line only starts with it) and blank lines are not checked here.
# Read by tests/install/run.sh (host part) and VM scenario 64 (vm part).
set -eu
readme=${1:-$(dirname "$0")/../../README.md}
awk '
/^<!-- console: quickstart:/ { mark = 1; next }
mark && /^```/ { mark = 0; on = 1; next }
on && /^```/ { on = 0; next }
!on { next }
/^\$ / {
	cmd = substr($0, 3)
	w = cmd; sub(/^sudo /, "", w); split(w, a, " ")
	part = (a[1] == "apt-get" || a[1] == "make") ? "host" : "vm"
	print "cmd " part " " cmd
	n++
	next
}
{
	sub(/[ \t]+$/, "")
	if ($0 == "" || $0 == "..." || $0 ~ / \.\.\.$/ || $0 ~ /[0-9]/)
		next
	print "out " $0
}
END { if (!n) { print "extract.sh: no quick start commands in the README" > "/dev/stderr"; exit 1 } }
' "$readme"
