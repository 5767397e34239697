#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs/testing.md's per-suite counts come from tests/minimums: this rewrites
# the table between the "minimums:begin" and "minimums:end" marker comments.
# --check: exit 1 (and say so) when the table is out of date;
# tests/summarize.sh runs the check at the end of `make test`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
readme=${README:-$top/docs/testing.md}
minfile=$top/tests/minimums
table() {
	echo "| suite | checks it must run (minimum) | target | what |"
	echo "|---|---|---|---|"
	awk '!/^#/ && NF >= 3 { w = ""; for (i = 4; i <= NF; i++) w = w (i > 4 ? " " : "") $i
		printf "| %s | %s | %s | %s |\n", $1, $2, $3, w; if ($3 == "test") t += $2 }
		END { printf "| total of make test | %d | test | |\n", t }' "$minfile"
}
new=$(awk -v tbl="$(table)" '
	/<!-- minimums:begin/ { print; print tbl; skip = 1; next }
	/<!-- minimums:end/ { skip = 0 }
	!skip { print }' "$readme")
if [ "${1:-}" = --check ]; then
	if [ "$new" != "$(cat "$readme")" ]; then
		echo "# docs/testing.md's suite counts differ from tests/minimums: run tests/readme-counts.sh" >&2
		exit 1
	fi
	exit 0
fi
printf '%s\n' "$new" > "$readme"
