#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# codemap.sh DOC DIR: check DOC's "## Code map (DIR/)" table against the
# files under DIR (tracked, or new and not ignored), so the map cannot
# drift from the tree.  The paths in the first cell of each table row, in
# backticks, are relative to DIR; `x.[ch]` names x.c and x.h.  Prints
#   mapped N          the number of files the map names
#   unmapped FILE     a file under DIR the map does not name
#   absent FILE       a file the map names that is not under DIR
# and exits 1 when any unmapped or absent line was printed, or the map
# names no file at all (no such section in DOC).  make lint runs it on
# docs/cli.md and userspace/cli/ (tests/lint/run.sh).
set -u
doc=$1 dir=${2%/}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

named=$(awk -v head="## Code map ($dir/)" '
	$0 == head { in_map = 1; next }
	in_map && /^## / { in_map = 0 }
	in_map && /^\|/ {
		split($0, cell, "|"); c = cell[2]
		while (match(c, /`[^`]+`/)) {
			p = substr(c, RSTART + 1, RLENGTH - 2); c = substr(c, RSTART + RLENGTH)
			if (p ~ /\.\[ch\]$/) { sub(/\.\[ch\]$/, "", p); print p ".c"; print p ".h" }
			else print p
		}
	}' "$doc" | sort -u)
tree=$(git ls-files --cached --others --exclude-standard -- "$dir/" | sed "s|^$dir/||" | sort -u)

echo "mapped $(printf '%s' "$named" | grep -c .)"
bad=0
[ -n "$named" ] || bad=1
while read -r f; do [ -n "$f" ] && { echo "unmapped $f"; bad=1; }; done < <(comm -23 <(echo "$tree") <(echo "$named"))
while read -r f; do [ -n "$f" ] && { echo "absent $f"; bad=1; }; done < <(comm -13 <(echo "$tree") <(echo "$named"))
exit $bad
