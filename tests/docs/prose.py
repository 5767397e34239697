#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A cut or pasted sentence fails here: the prose of the docs, checked.

    prose.py FILE.md...

For every paragraph and list item (outside fenced blocks, tables,
headings and HTML comments): it ends with `.`, `:`, `;`, `?` or `!`
(a closing bracket, quote or emphasis after it allowed); its backticks
pair up; its brackets and parentheses pair up outside code spans.  In
each file no sentence of eight words or more appears twice (digits left
free, so a paragraph pasted again with other numbers is found too).
Prints FILE:LINE: what; exit 1 when anything was found.
"""
import re
import sys

END = re.compile(r"[.:;?!][)\]*_`'\"]*$")


def units(lines):
    """(first line number, text) of each paragraph and list item."""
    out, cur, start, fence, comment = [], [], 0, False, False

    def flush():
        if cur:
            out.append((start, " ".join(x.strip() for x in cur)))
            cur.clear()
    for i, line in enumerate(lines, 1):
        raw = line.strip()
        line = re.sub(r"<!-- /?n(:[\w.]+)? -->", "", line)     # a generated number's marks
        s = line.strip()
        if s.startswith("```"):
            flush()
            fence = not fence
            continue
        if fence:
            continue
        if comment or raw.startswith("<!--") and not raw.startswith("<!-- n:"):
            flush()
            comment = "-->" not in s
            continue
        if not s or s.startswith("#") or s.startswith("|") or s.startswith("!["):
            flush()
            continue
        if re.match(r"^([-*+]|\d+\.)\s", raw):
            flush()
            start = i
            cur.append(re.sub(r"^([-*+]|\d+\.)\s+", "", s))
            continue
        if not cur:
            start = i
        cur.append(s)
    flush()
    return out


def balanced(text):
    spans = text.count("`")
    if spans % 2:
        return "an unpaired backtick"
    bare = re.sub(r"`[^`]*`", "", text)
    bare = re.sub(r"<[^>]*>", "", bare)
    for o, c in ("()", "[]"):
        depth = 0
        for ch in bare:
            depth += (ch == o) - (ch == c)
            if depth < 0:
                return "a %s without its %s" % (c, o)
        if depth:
            return "a %s without its %s" % (o, c)
    return ""


def sentences(text):
    text = re.sub(r"`[^`]*`", "CODE", text)
    for s in re.split(r"(?<=[.?!])\s+(?=[A-Z*(`])", text):
        words = re.sub(r"[0-9]+", "#", s.lower()).split()
        if len(words) >= 8:
            yield " ".join(words)


def check(path):
    lines = open(path).read().split("\n")
    bad, seen = [], {}
    for n, text in units(lines):
        if not END.search(text):
            bad.append("%s:%d: does not end a sentence: ...%s" % (path, n, text[-60:]))
        why = balanced(text)
        if why:
            bad.append("%s:%d: %s: %s" % (path, n, why, text[:80]))
        for s in sentences(text):
            if s in seen:
                bad.append("%s:%d: the sentence of line %d again: %s" % (path, n, seen[s], s[:80]))
            else:
                seen[s] = n
    return bad


def main(argv):
    bad = []
    for p in argv:
        bad += check(p)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
