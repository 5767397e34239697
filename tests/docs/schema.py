#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The JSON schemas the docs write by hand, against real documents.

    schema.py NAME DOC.json...     (NAME: the block after <!-- schema: NAME -->)

The block (docs/*.md, a ```text block after `<!-- schema: NAME -->`) is
read as: `{"key": VALUE, "key", ...}` objects (a bare "key" is a member of
any type), `[VALUE]` arrays, `A|B` alternatives, `{"<name>": VALUE}` an
object whose keys vary, words for types, `#` to the end of a line a
comment.  Every member of every document (a file may hold several, one
per line) must be in the block, and every member of the block in one of
the documents.  Prints what differs; exit 1 when something does, or when
no document was read.
"""
import glob
import json
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def block(name):
    for path in [os.path.join(TOP, "README.md")] + sorted(glob.glob(os.path.join(TOP, "docs", "*.md"))):
        lines = open(path).read().split("\n")
        for i, line in enumerate(lines):
            if line.strip() == "<!-- schema: %s -->" % name:
                j = i + 2
                body = []
                while lines[j] != "```":
                    body.append(lines[j])
                    j += 1
                return os.path.relpath(path, TOP), body
    raise SystemExit("schema.py: no <!-- schema: %s --> block in README.md or docs/*.md" % name)


TOK = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([{}\[\]:,|])|([A-Za-z0-9_.<>/-]+))')


def tokens(lines):
    out = []
    for line in lines:
        line = re.sub(r"(^|\s)#.*$", "", line)
        pos = 0
        while pos < len(line):
            m = TOK.match(line, pos)
            if not m or m.end() == pos:
                if line[pos:].strip():
                    raise SystemExit("schema.py: cannot read %r" % line[pos:])
                break
            pos = m.end()
            if m.group(1):
                out.append(("str", json.loads(m.group(1))))
            elif m.group(2):
                out.append((m.group(2), m.group(2)))
            else:
                out.append(("word", m.group(3)))
    return out


class Parser:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self):
        return self.t[self.i][0] if self.i < len(self.t) else None

    def take(self, kind=None):
        tok = self.t[self.i]
        if kind and tok[0] != kind:
            raise SystemExit("schema.py: expected %s, found %r" % (kind, tok[1]))
        self.i += 1
        return tok

    def value(self, path, out):
        self.alt(path, out)
        while self.peek() == "|":
            self.take("|")
            self.alt(path, out)

    def alt(self, path, out):
        k = self.peek()
        if k == "{":
            self.take("{")
            while self.peek() != "}":
                key = self.take("str")[1]
                sub = path + "." + ("*" if key.startswith("<") else key) if path else key
                out.add(sub)
                if self.peek() == ":":
                    self.take(":")
                    self.value(sub, out)
                if self.peek() == ",":
                    self.take(",")
            self.take("}")
        elif k == "[":
            self.take("[")
            out.add(path + "[]")
            while self.peek() != "]":
                self.value(path + "[]", out)
                if self.peek() == ",":
                    self.take(",")
            self.take("]")
        else:
            self.take()


def doc_paths(v, path, schema, out):
    if isinstance(v, dict):
        for k, x in v.items():
            sub = path + "." + k if path else k
            if sub not in schema and (path + ".*" if path else "*") in schema:
                sub = path + ".*" if path else "*"
            out.add(sub)
            if sub in schema and not any(p.startswith(sub + ".") or p.startswith(sub + "[]") for p in schema):
                continue        # a member of any type: its inside is not described
            doc_paths(x, sub, schema, out)
    elif isinstance(v, list):
        out.add(path + "[]")
        for x in v:
            doc_paths(x, path + "[]", schema, out)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 64
    where, body = block(argv[0])
    schema = set()
    Parser(tokens(body)).value("", schema)
    seen, bad, ndocs = set(), 0, 0
    for f in argv[1:]:
        text = open(f).read()
        dec, pos = json.JSONDecoder(), 0
        while pos < len(text):
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            d, pos = dec.raw_decode(text, pos)
            ndocs += 1
            got = set()
            doc_paths(d, "", schema, got)
            for p in sorted(got - schema):
                print("%s: member %s of %s is not in %s's schema block" % (argv[0], p, os.path.relpath(f), where))
                bad += 1
            seen |= got
    for p in sorted(schema - seen):
        print("%s: member %s of %s's schema block is in none of the %d documents" % (argv[0], p, where, ndocs))
        bad += 1
    print("%s: %d members in %s, %d documents read, %d differences" % (argv[0], len(schema), where, ndocs, bad))
    return 1 if bad or not ndocs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
