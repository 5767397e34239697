#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A section list of the docs against the text the CLI prints.

    sections.py NAME OUTPUT.txt

NAME's list (the items between `<!-- sections: NAME -->` and
`<!-- sections: end -->` in docs/*.md, each starting with its title in a
code span) must be the titles of OUTPUT's sections, in order: for `report`
its `== TITLE (...) ==` lines, each report of the file on its own (`run
--repeat` prints several, each from its `sched-shadow run report` line),
for `compare` the titles of its groups (a line after a blank line, not
indented); a title is cut at its first ` (` or `:`.  An item whose text
begins `only when` may be missing from the output; every other item must
be there.  Prints what differs; exit 1 if anything does.
"""
import glob
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def doc_list(name):
    for path in sorted(glob.glob(os.path.join(TOP, "docs", "*.md"))):
        text = open(path).read()
        m = re.search(r"<!-- sections: %s -->\n(.*?)<!-- sections: end -->" % re.escape(name), text, re.S)
        if m:
            items = re.findall(r"^- `([^`]+)`:?\s*(.*)$", m.group(1), re.M)
            return os.path.relpath(path, TOP), [(t, d.startswith("only when")) for t, d in items]
    raise SystemExit("sections.py: no <!-- sections: %s --> list in docs/*.md" % name)


def cut(title):
    return re.split(r" \(|:", title, 1)[0].strip()


def titles(name, text):
    """The section titles of each document OUTPUT holds, a list each."""
    lines = text.split("\n")
    if name == "report":
        docs = []
        for l in lines:
            if l.startswith("sched-shadow run report") or not docs:
                docs.append([])
            if l.startswith("== "):
                docs[-1].append(cut(l[3:].rstrip("= ")))
        return docs
    out = []
    for i, l in enumerate(lines[1:], 1):
        if l and not l.startswith(" ") and not lines[i - 1].strip():
            out.append(cut(l))
    return [out]


def matches(want, got):
    """got is want in order, an `only when` item possibly left out."""
    i = 0
    for title, optional in want:
        if i < len(got) and got[i] == title:
            i += 1
        elif not optional:
            return False
    return i == len(got)


def main(argv):
    name, path = argv
    where, want = doc_list(name)
    docs = titles(name, open(path).read())
    bad = [got for got in docs if not matches(want, got)]
    if docs and docs[0] and not bad:
        n = sum(len(got) for got in docs)
        print("%s: %d sections in %d document(s), as %s lists them (%d of them only when)"
              % (name, n, len(docs), where, sum(o for _, o in want)))
        return 0
    for got in bad or docs:
        print("%s: %s lists %s; the CLI prints %s"
              % (name, where, [t + (" (only when)" if o else "") for t, o in want], got))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
