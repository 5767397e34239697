#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: shellcheck on every shell script of the repository (severity
# warning and above: its notes and style hints are advice), checkpatch
# on module/ (the kernel's own scripts/checkpatch.pl, from Debian's
# linux-source package: tests/deps.sh keeps it under $CACHE/checkpatch).
# TAP: one check per file, clean or within the exceptions listed for it;
# one check that no listed exception is stale (listed but not found).
# Then docs/cli.md's code map against the files under userspace/cli/
# (tests/lint/codemap.sh): every file named, every named file there.
#
# Exceptions (tests/lint/shellcheck.exceptions, tests/lint/checkpatch.exceptions):
# "FILE CODE COUNT  reason", at most COUNT findings of CODE in FILE.  A
# finding meant in one place is better excepted there, with its reason
# (`# shellcheck disable=SCnnnn # why`).
#
# Which shell: a script with a #! line is checked as it says; the guest's
# scripts (sourced by the guest's busybox sh: tests/vm/scenarios,
# tests/vm/stress, tests/vm/guest, tests/vm/demo.sh) as dash, the closest
# dialect shellcheck knows.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
cd "$top" || exit 1
CACHE=${CACHE:-/var/cache/sched_shadow}
CHECKPATCH=${CHECKPATCH:-$CACHE/checkpatch/scripts/checkpatch.pl}
tmp=$(mktemp -d /tmp/sched-shadow-lint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

tap_begin lint

# exceptions FILE TOOLFILE: prints "CODE COUNT" lines listed for FILE
exceptions() { awk -v f="$1" '!/^#/ && $1 == f { print $2, $3 }' "$2"; }

# within FINDINGS EXCEPTIONS: every code's count equal to its listed count?
# (an exception larger than its findings is stale and fails too: it would
# let a new finding of that code in)
within() {
	awk 'FILENAME == ARGV[1] { allow[$1] = $2; next } { n[$1]++ }
	     END { for (c in n) if (n[c] > allow[c] + 0) { printf "%s %d (%d allowed) ", c, n[c], allow[c] + 0; bad = 1 }
		   for (c in allow) if (n[c] + 0 < allow[c]) { printf "%s %d (%d listed: stale exception) ", c, n[c] + 0, allow[c]; bad = 1 }
		   exit bad }' "$2" "$1"
}

# ---- shellcheck ---------------------------------------------------------
if ! command -v shellcheck >/dev/null; then
	ok 1 "shellcheck installed (tests/deps.sh)"
else
	scripts=$(git ls-files | while read -r f; do
		case $f in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*\b(ba)?sh\b' && echo "$f" ;;
		esac
	done)
	used=$tmp/sc.used
	: > "$used"
	for f in $scripts; do
		case $f in
		tests/vm/scenarios/*|tests/vm/stress/[0-9]*|tests/vm/guest/*|tests/vm/demo.sh) shell=(-s dash) ;;
		*) shell=() ;;
		esac
		shellcheck "${shell[@]}" -x -S warning -f gcc "$f" > "$tmp/out" 2>&1
		sed -nE 's/.*\[(SC[0-9]+)\]$/\1/p' "$tmp/out" > "$tmp/codes"
		exceptions "$f" tests/lint/shellcheck.exceptions > "$tmp/allow"
		awk -v f="$f" '{ print f, $1 }' "$tmp/allow" >> "$used"
		why=$(within "$tmp/codes" "$tmp/allow")
		ok $? "shellcheck $f${why:+: $why}"
		[ -z "$why" ] || grep -E '\[SC[0-9]+\]$' "$tmp/out" | head -n 5 | diag
	done
	stale=$(awk 'FILENAME == ARGV[1] { used[$1 " " $2] = 1; next } !/^#/ && NF >= 3 && !(($1 " " $2) in used) { print $1, $2 }' \
		"$used" tests/lint/shellcheck.exceptions)
	[ -z "$stale" ]
	ok $? "every shellcheck exception names a script that is checked${stale:+: not: $stale}"
fi

# ---- checkpatch on module/ ------------------------------------------------
if [ ! -x "$CHECKPATCH" ]; then
	ok 1 "checkpatch.pl at $CHECKPATCH (tests/deps.sh extracts it from linux-source-6.1)"
else
	for f in $(git ls-files 'module/*.c' 'module/*.h' 'module/core/*.c' 'module/core/*.h'); do
		"$CHECKPATCH" --no-tree --terse --show-types --quiet -f "$f" > "$tmp/out" 2>&1
		sed -nE 's/.*: (ERROR|WARNING|CHECK):([A-Z_0-9]+):.*/\2/p' "$tmp/out" > "$tmp/codes"
		exceptions "$f" tests/lint/checkpatch.exceptions > "$tmp/allow"
		why=$(within "$tmp/codes" "$tmp/allow")
		ok $? "checkpatch $f${why:+: $why}"
		[ -z "$why" ] || grep -E ': (ERROR|WARNING|CHECK):' "$tmp/out" | head -n 5 | diag
	done
fi

# ---- docs/cli.md's code map against userspace/cli/ (tests/lint/codemap.sh) --
tests/lint/codemap.sh docs/cli.md userspace/cli > "$tmp/map"
mapped=$(sed -n 's/^mapped //p' "$tmp/map")
unmapped=$(sed -n "s/^unmapped //p" "$tmp/map" | paste -sd " ")
absent=$(sed -n "s/^absent //p" "$tmp/map" | paste -sd " ")
[ -z "$unmapped" ] && [ "${mapped:-0}" -gt 0 ]
ok $? "docs/cli.md's code map names every file under userspace/cli/ ($mapped named)${unmapped:+; not named: $unmapped}"
[ -z "$absent" ] && [ "${mapped:-0}" -gt 0 ]
ok $? "every file docs/cli.md's code map names exists under userspace/cli/${absent:+; not there: $absent}"

tap_end
