#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The console blocks of README.md and docs/*.md, and who checks them.

Every fenced block in README.md and docs/*.md says what it is by its
language: `sh` (commands to type), `text` (a format, a synopsis, a schema,
a diagram, an annotated or wrapped listing: not output as printed), `json`
(a schema), or `console` (output as a program printed it).  A console
block is preceded by one line

    <!-- console: ID: TARGET -->

and tests/docs/console.list says, for ID, the target (make test, make
demo, make compare, make test-matrix) and how that target generates or
checks the block:

    gen CMD...      the block is CMD's output (run from the top of the tree,
                    $CLI = build/sched-shadow): make test-docs checks it
                    byte for byte, make docs (make demo after its runs)
                    rewrites it.  The numbers in the prose around such a
                    block are `<!-- n:KEY -->value<!-- /n -->`, filled in
                    from tests/docs/numbers_gen.py by the same rewrite.
    vm FILE[:MEMBER] [head N] [any-order]
                    checked against a file the VM suite exported (a tar
                    member; its first N lines), words and order with the
                    digits free (any-order: a table whose rows come in no
                    fixed order, its first two lines in place): the 6.1 boot
                    of make test (tests/vm/host/99-docs-console.sh)
    quickstart      the README's quick start: each command's output, words
                    and order, digits free (tests/install: the host steps;
                    tests/vm/host/64-quickstart.sh: the rest)
    out WHO         checked by WHO (a suite of the target) against an output
                    it makes: `console.py match ID FILE`

Words and order, digits free: each line of the block and of the output is
compared with every run of digits (and its sign) as one `#`, runs of
blanks as one, compare's difference cell (a number or `within noise`)
as one token, and so a tracefs line's flags (irqs-off, need-resched,
hardirq/softirq, preempt depth: the moment's, not the event's);
the block's lines must be consecutive lines of the output, in order,
from its first line to its last, except where the block has a line `...`
(any number of output lines left out there, also at the start or the end)
or a line ending in ` ...` (the output line only starts with it).

    console.py lint [FILES]          every block has a kind; every console
                                     block a registered ID and its target
    console.py list                  ID TARGET FILE:LINE SOURCE, one a line
    console.py block ID              the block's text
    console.py match ID OUTPUT [PART]  words and order (PART: the N-th `$ `
                                     command of the block, its output only)
    console.py check-gen [--update] [ID...|--numbers-only]  the gen blocks
                                     and numbers equal their commands'
                                     output (exit 1 and a diff if not);
                                     --update rewrites
    console.py vm VM_OUT             every vm entry against VM_OUT (TAP lines)
"""
import difflib
import glob
import os
import re
import subprocess
import sys
import tarfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REGISTRY = os.path.join(TOP, "tests", "docs", "console.list")
KINDS = ("sh", "console", "text", "json")
MARK = re.compile(r"^<!-- console: ([\w.-]+): (.+?) -->$")


def doc_files():
    return [os.path.join(TOP, "README.md")] + sorted(glob.glob(os.path.join(TOP, "docs", "*.md")))


def rel(path):
    return os.path.relpath(path, TOP)


def blocks(path):
    """The fenced blocks of a file: dicts of line, lang, id, target, text (list of lines)."""
    out, cur, prev = [], None, ""
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if cur is None and line.startswith("```"):
            m = MARK.match(prev)
            cur = {"file": path, "line": i + 1, "lang": line[3:].strip(), "text": [],
                   "id": m.group(1) if m else None, "target": m.group(2) if m else None}
        elif cur is not None and line.startswith("```"):
            cur["end"] = i + 1
            out.append(cur)
            cur = None
        elif cur is not None:
            cur["text"].append(line)
        if line.strip():
            prev = line
    return out


def registry():
    reg = {}
    with open(REGISTRY) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            parts = [p for p in parts if p]
            if len(parts) < 3:
                raise SystemExit("%s:%d: want ID<TAB>TARGET<TAB>SOURCE" % (rel(REGISTRY), n))
            reg[parts[0]] = {"target": parts[1], "source": parts[2].split(), "line": n}
    return reg


def find(bid):
    for path in doc_files():
        for b in blocks(path):
            if b["id"] == bid:
                return b
    raise SystemExit("console.py: no block %s in README.md or docs/*.md" % bid)


# ---------------------------------------------------------------- matching

def norm(line):
    """Digits free: a run of digits is #, its sign too; compare's difference cell one token;
    a tracefs line's flags one token."""
    line = re.sub(r"[0-9]+", "#", line)
    line = re.sub(r"[+-]#", "#", line)
    line = " ".join(line.split())
    line = re.sub(r"^(\S+ \[#\]) [.a-zA-Z#]{4,5} (#\.#: )", r"\1 <flags> \2", line)
    return re.sub(r"\] (within noise|#(\.#)?( \(#%\))?)$", "] <difference>", line)


def match(want, got):
    """'' when the output (list of lines) has the block's lines (words and order), else why."""
    got = [norm(x) for x in got]
    got = [x for x in got if x]
    segs, cur, lead = [], [], False
    for w in want:
        n = norm(w)
        if not n:
            continue
        if n == "...":
            if cur or segs:
                segs.append(cur)
            else:
                lead = True
            cur = []
            continue
        cur.append(n)
    trail = not cur
    if cur:
        segs.append(cur)
    segs = [s for s in segs if s]

    def fits(seg, at):
        if at + len(seg) > len(got):
            return False
        for k, w in enumerate(seg):
            g = got[at + k]
            if w.endswith(" ..."):
                if not g.startswith(w[:-4]):
                    return False
            elif g != w:
                return False
        return True

    pos = 0
    for si, seg in enumerate(segs):
        last = si == len(segs) - 1
        if si == 0 and not lead:
            cands = [0]
        elif last and not trail:
            cands = [len(got) - len(seg)]
        else:
            cands = range(pos, len(got) - len(seg) + 1)
        at = next((c for c in cands if c >= pos and fits(seg, c)), None)
        if at is None:
            # the first line of the segment that does not fit, and the output nearest it
            base = cands[0] if cands and cands[0] >= pos else pos
            for k, w in enumerate(seg):
                g = got[base + k] if base + k < len(got) else "(end of output)"
                if not fits([w], base + k):
                    near = difflib.get_close_matches(w, got[pos:], 1, 0.5)
                    return "block line %r: output has %r there%s" % (
                        w, g, "; nearest output line %r" % near[0] if near else "")
            return "block lines from %r: not in the output after line %d" % (seg[0], pos + 1)
        pos = at + len(seg)
    if not segs and not lead:
        return "" if not got else "the block shows no output; the output has %r" % got[0]
    if segs and not trail and pos != len(got):
        return "output goes on after the block's last line: %r" % got[pos]
    return ""


def match_any_order(want, got):
    """A table whose rows come in no fixed order: its first two lines (version
    and header) in place, then every row of the block somewhere in the output."""
    w = [norm(x) for x in want if norm(x)]
    g = [norm(x) for x in got if norm(x)]
    if g[:2] != w[:2]:
        return "the first two lines %r, output has %r" % (w[:2], g[:2])
    rest = g[2:]
    for line in w[2:]:
        if line not in rest:
            return "block row %r: not in the output" % line
        rest.remove(line)
    if rest:
        return "output has rows the block has not: %r" % rest[0]
    return ""


def parts(text):
    """The block's `$ ` commands and each one's shown output: [(cmd, [lines])]."""
    out = []
    for line in text:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


# ---------------------------------------------------------------- gen

def run_gen(src):
    env = dict(os.environ, CLI=os.path.join(TOP, "build", "sched-shadow"))
    p = subprocess.run(" ".join(src), shell=True, cwd=TOP, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        raise SystemExit("console.py: `%s` exited %d: %s" % (" ".join(src), p.returncode, p.stderr.strip()))
    return [x.rstrip() for x in p.stdout.rstrip("\n").split("\n")]


def replace_block(b, new):
    with open(b["file"]) as f:
        lines = f.read().split("\n")
    lines[b["line"]:b["end"] - 1] = new
    with open(b["file"], "w") as f:
        f.write("\n".join(lines))


NUM = re.compile(r"<!-- n:([\w.]+) -->(.*?)<!-- /n -->")


def numbers():
    sys.path.insert(0, os.path.dirname(__file__))
    import numbers_gen
    return numbers_gen.values()


def check_numbers(update):
    vals, bad = None, 0
    for path in doc_files():
        with open(path) as f:
            text = f.read()
        seen = set()
        if vals is None and NUM.search(text):
            vals = numbers()

        def sub(m):
            nonlocal bad
            key, old = m.group(1), m.group(2)
            seen.add(key)
            if key not in vals:
                print("%s: <!-- n:%s --> has no value in tests/docs/numbers_gen.py" % (rel(path), key))
                bad += 1
                return m.group(0)
            if old != vals[key]:
                if not update:
                    print("%s: %s is %r, the reports give %r" % (rel(path), key, old, vals[key]))
                    bad += 1
                return "<!-- n:%s -->%s<!-- /n -->" % (key, vals[key])
            return m.group(0)
        new = NUM.sub(sub, text)
        if update and new != text:
            with open(path, "w") as f:
                f.write(new)
    return bad


def check_gen(ids, update):
    reg, bad = registry(), 0
    for bid, e in sorted(reg.items()):
        if e["source"][0] != "gen" or (ids and bid not in ids):
            continue
        b = find(bid)
        want = run_gen(e["source"][1:])
        if b["text"] == want:
            continue
        if update:
            replace_block(b, want)
            print("%s: block %s rewritten" % (rel(b["file"]), bid))
            continue
        bad += 1
        print("%s:%d: block %s differs from `%s` (make docs rewrites it):" % (
            rel(b["file"]), b["line"], bid, " ".join(e["source"][1:])))
        for d in list(difflib.unified_diff(b["text"], want, "doc", "now", lineterm="", n=0))[:12]:
            print("  " + d)
    if not ids:
        bad += check_numbers(update)
    return bad


# ---------------------------------------------------------------- vm

def vm_file(vm_out, spec):
    name, _, member = spec.partition(":")
    path = os.path.join(vm_out, name)
    if not member:
        with open(path, errors="replace") as f:
            return f.read().split("\n")
    with tarfile.open(path) as t:
        for m in t.getmembers():
            if m.name.rstrip("/").endswith(member):
                return t.extractfile(m).read().decode(errors="replace").split("\n")
    raise FileNotFoundError("%s has no %s" % (path, member))


def vm(vm_out):
    reg, n, bad = registry(), 0, 0
    for bid, e in sorted(reg.items()):
        if e["source"][0] != "vm":
            continue
        try:
            b = find(bid)
        except SystemExit as ex:
            print("not ok - docs: %s: %s" % (bid, ex))
            bad += 1
            continue
        src = e["source"][1:]
        try:
            got = vm_file(vm_out, src[0])
        except (OSError, tarfile.TarError) as ex:
            print("not ok - docs: %s (%s:%d): no output to check it against: %s" % (bid, rel(b["file"]), b["line"], ex))
            bad += 1
            continue
        if len(src) > 2 and src[1] == "head":
            got = got[:int(src[2])]
        if "any-order" in src:
            why = match_any_order(b["text"], got)
        else:
            why = match(b["text"], got)
        n += 1
        if why:
            bad += 1
            print("not ok - docs: %s (%s:%d) against %s: %s" % (bid, rel(b["file"]), b["line"], src[0], why))
        else:
            print("ok - docs: %s (%s:%d): words and order of %s" % (bid, rel(b["file"]), b["line"], src[0]))
    return bad


# ---------------------------------------------------------------- lint

def lint(files):
    reg, bad, seen = registry(), [], {}
    for path in files:
        for b in blocks(path):
            where = "%s:%d" % (rel(path), b["line"])
            if b["lang"] not in KINDS:
                bad.append("%s: a block without a kind (```%s): sh, console, text or json" % (where, b["lang"]))
            if b["lang"] == "console":
                if not b["id"]:
                    bad.append("%s: a console block without <!-- console: ID: TARGET --> before it" % where)
                    continue
                if b["id"] in seen:
                    bad.append("%s: console block %s also at %s" % (where, b["id"], seen[b["id"]]))
                seen[b["id"]] = where
                e = reg.get(b["id"])
                if not e:
                    bad.append("%s: console block %s is not in tests/docs/console.list" % (where, b["id"]))
                elif e["target"] != b["target"]:
                    bad.append("%s: console block %s names %r, tests/docs/console.list %r" % (
                        where, b["id"], b["target"], e["target"]))
            elif b["id"]:
                bad.append("%s: a console marker on a ```%s block" % (where, b["lang"]))
    if files == doc_files():
        for bid, e in reg.items():
            if bid not in seen:
                bad.append("tests/docs/console.list:%d: %s is in no document" % (e["line"], bid))
    return bad


def main(argv):
    if not argv:
        print(__doc__)
        return 64
    cmd, args = argv[0], argv[1:]
    if cmd == "lint":
        files = [os.path.abspath(a) for a in args] or doc_files()
        bad = lint(files)
        for b in bad:
            print(b)
        return 1 if bad else 0
    if cmd == "list":
        reg = registry()
        for path in doc_files():
            for b in blocks(path):
                if b["id"]:
                    e = reg.get(b["id"], {"target": "?", "source": ["?"]})
                    print("%s\t%s\t%s:%d\t%s" % (b["id"], e["target"], rel(path), b["line"], " ".join(e["source"])))
        return 0
    if cmd == "block":
        print("\n".join(find(args[0])["text"]))
        return 0
    if cmd == "match":
        b = find(args[0])
        with open(args[1], errors="replace") as f:
            got = f.read().split("\n")
        want = b["text"]
        if len(args) > 2:
            want = parts(b["text"])[int(args[2]) - 1][1]
        why = match(want, got)
        if why:
            print("%s (%s:%d): %s" % (args[0], rel(b["file"]), b["line"], why))
            return 1
        return 0
    if cmd == "check-gen":
        update = "--update" in args
        if "--numbers-only" in args:
            return 1 if check_numbers(update) else 0
        return 1 if check_gen([a for a in args if a not in ("--update",)], update) else 0
    if cmd == "vm":
        return 1 if vm(args[0]) else 0
    print(__doc__)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
