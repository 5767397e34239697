#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The options the CLI's reference pages name, against the CLI's own tables.

    options.py SCHED-SHADOW DOC.md...

Every option a page writes in a code span or a ```text block (`-j`,
`--cgroup`, `-vv`: a letter repeated) must be one `sched-shadow help` or
`sched-shadow help CMD` lists, unless it is another program's and listed
below with why.  And the other way: every option of every command is
named in one of the pages.  Prints what differs; exit 1 if anything does.
"""
import re
import subprocess
import sys

# Options the pages name that are not sched-shadow's (the program's and why)
OTHERS = {
    "-C": "bench refuses schbench's -C (calibrate), saying which letter to use",
    "-d": "bench refuses -d (schbench's letters: -r is the run time)",
    "--workers": "bench's old spelling, still accepted, not listed by help",
    "--burn-us": "bench's old spelling, still accepted, not listed by help",
    "--sleep-us": "bench's old spelling, still accepted, not listed by help",
    "--duration": "bench's old spelling, still accepted, not listed by help",
    "--calibrate": "schbench's option, named to say why bench refuses -C",
    "--decode": "protoc's: the unit test decodes a Perfetto trace with it",
}


def cli_options(cli):
    def usage(*args):
        return subprocess.run([cli, *args], stdout=subprocess.PIPE, universal_newlines=True).stdout
    main = usage("help")
    cmds = re.findall(r"^  (\w+) ", main.split("commands:")[1].split("global options:")[0], re.M)
    opts = {}
    for text, cmd in [(main.split("global options:")[1], "(global)")] + [(usage("help", c), c) for c in cmds]:
        body = text.split("options:")[-1]
        for m in re.finditer(r"^  (-\w)?(?:, )?\s*(--[\w-]+)?", body, re.M):
            for o in m.groups():
                if o:
                    opts.setdefault(o, set()).add(cmd)
    return opts


def doc_options(path):
    text = open(path).read()
    found = []
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    blocks = re.findall(r"```text\n(.*?)```", text, flags=re.S)
    for chunk in spans + blocks:
        for m in re.finditer(r"(?<![\w./=-])(--?[A-Za-z][\w-]*)", chunk):
            found.append(m.group(1))
    return found


def main(argv):
    cli, docs = argv[0], argv[1:]
    opts = cli_options(cli)
    bad, named = [], set()
    for d in docs:
        for o in doc_options(d):
            named.add(o)
            if o in opts or o in OTHERS:
                continue
            if re.fullmatch(r"-([A-Za-z])\1+", o) and "-" + o[1] in opts:
                continue        # -vv: a letter given again
            bad.append("%s: `%s` is no option of sched-shadow's (help, help CMD)" % (d, o))
    for o, cmds in sorted(opts.items()):
        if o not in named and o not in ("-h", "--help"):
            bad.append("%s (%s) is named on none of %s" % (o, ", ".join(sorted(cmds)), ", ".join(docs)))
    for b in bad:
        print(b)
    print("%d options of the CLI, %d named on the pages, %d differences" % (len(opts), len(named), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
