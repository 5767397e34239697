#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A section list of the docs against the text the CLI prints.

    sections.py NAME OUTPUT.txt

NAME's list (the items between `<!-- sections: NAME -->` and
`<!-- sections: end -->` in docs/*.md, each starting with its title in a
code span) must be the titles of OUTPUT's sections, in order: for `report`
its `== TITLE (...) ==` lines, for `compare` the titles of its groups (a
line after a blank line, not indented); a title is cut at its first ` (`
or `:`.  Prints what differs; exit 1 if anything does.
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
            return os.path.relpath(path, TOP), re.findall(r"^- `([^`]+)`", m.group(1), re.M)
    raise SystemExit("sections.py: no <!-- sections: %s --> list in docs/*.md" % name)


def cut(title):
    return re.split(r" \(|:", title, 1)[0].strip()


def titles(name, text):
    lines = text.split("\n")
    if name == "report":
        return [cut(l[3:].rstrip("= ")) for l in lines if l.startswith("== ")]
    out = []
    for i, l in enumerate(lines[1:], 1):
        if l and not l.startswith(" ") and not lines[i - 1].strip():
            out.append(cut(l))
    return out


def main(argv):
    name, path = argv
    where, want = doc_list(name)
    got = titles(name, open(path).read())
    if want == got:
        print("%s: %d sections, as %s lists them" % (name, len(got), where))
        return 0
    print("%s: %s lists %s; the CLI prints %s" % (name, where, want, got))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
