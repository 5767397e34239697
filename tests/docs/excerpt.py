#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parts of `sched-shadow compare` or `report` text, for the docs' blocks.

    ... | tests/docs/excerpt.py [top] [REGEX...]

Prints the lines before the first blank line (`top`: the title, the notes,
the column titles and the runs' own rows), then each group (a line and the
lines after it up to a blank line) whose first line matches one of the
REGEXes, in the order they come, a blank line between them.  Used by
tests/docs/console.list's gen commands.
"""
import re
import sys


def main(argv):
    text = sys.stdin.read().split("\n")
    want_top = bool(argv) and argv[0] == "top"
    pats = [re.compile(p) for p in argv[1 if want_top else 0:]]
    groups, cur = [], []
    for line in text:
        if line.strip():
            cur.append(line)
        elif cur:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    out = []
    if want_top and groups:
        out.append(groups[0])
    for g in groups[1:] if want_top else groups:
        if any(p.search(g[0]) for p in pats):
            out.append(g)
            if not want_top and len(pats) == 1:
                break
    print("\n\n".join("\n".join(g) for g in out))
    return 0 if out else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
