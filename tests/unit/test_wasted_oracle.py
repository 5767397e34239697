#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The wasted-core oracle (tests/vm/host/wasted_oracle.py) on synthetic
windows (tests/unit/fixtures/wasted/, written by make.py there): the
module's tables as they should read must pass; each wrong form must fail
its named check (the failing line is printed).  TAP."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "vm", "host", "wasted_oracle.py")
FIX = os.path.join(HERE, "fixtures", "wasted")

CGROUP = "x: cgroup /x: wasted time"
SPLIT = "x: every cgroup's wait split"
# fixture: the check that must fail (None: every check must pass)
EXPECT = {
    "good": None,
    "cgroup-to-root": CGROUP,
    "no-cgroup-row": CGROUP,
    "cgroup-zero": CGROUP,
    "cgroup-to-root-unprobed": CGROUP,
    "no-cgroup-row-unprobed": CGROUP,
    "cgroup-zero-unprobed": CGROUP,
    "wait-zero": SPLIT,
    "cpu-row-dropped": "x: the wasted table has a row for every online CPU",
    "window-late": "x: the module's window",
    "window-early": "x: the module's window",
    "thread-good": None,
    "thread-window-early": "x: the module's window",
    "thread-slow-read": None,
    "thread-slow-late": "x: the module's window",
    "good-markers": None,
    "window-rewoken": None,
    "window-late-markers": "x: the module's window",
    "wakeup-good": None,
    "wakeup-zero": "x MC: wakeups placed on a busy CPU beside an idle allowed one",
    "wakeup-no-domains": "x: the wakeup placements' levels: sched domains of every online CPU",
    "wakeup-not-in-trace": "x MC: wakeups placed on a busy CPU beside an idle allowed one",
    "wakeup-inplace": None,
    "wakeup-inplace-counted": "x MC: wakeups placed on a busy CPU beside an idle allowed one",
}
# checks that must pass in a wrong form all the same (it is caught by its own check)
ALSO_OK = {
    "wait-zero": [CGROUP],
    "cpu-row-dropped": [CGROUP, SPLIT],
    "window-late": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "window-late-markers": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "thread-window-early": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "thread-slow-late": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "wakeup-zero": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "wakeup-no-domains": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "wakeup-not-in-trace": [CGROUP, SPLIT, "x: every CPU's wasted time"],
    "wakeup-inplace-counted": [CGROUP, SPLIT, "x: every CPU's wasted time"],
}

n = fails = 0


def tap(ok, name, why=""):
    global n, fails
    n += 1
    fails += not ok
    print("%sok %d - %s" % ("" if ok else "not ", n, name))
    if why and not ok:
        for l in why.splitlines()[:20]:
            print("# " + l)


for form, want in EXPECT.items():
    d = os.path.join(FIX, form)
    p = subprocess.run([sys.executable, ORACLE, d], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    out = p.stdout
    failed = [l for l in out.splitlines() if l.startswith("not ok - ")]
    done = "checks done" in out
    if want is None:
        wake = form.startswith("wakeup-")
        tap(done and p.returncode == 0 and not failed and "fixture 2 of 2 CPUs within bound" in out and
            (not wake or "wakeup oracle: fixture 1 of 1 levels within bound" in out),
            "wasted oracle: fixture %s (the right tables) passes every check%s"
            % (form, " (the wakeup placements' too)" if wake else ""), out)
        continue
    hit = [l for l in failed if l.startswith("not ok - " + want)]
    detail = ""
    if hit:
        lines = out.splitlines()
        i = lines.index(hit[0])
        detail = "; ".join(x[4:] for x in lines[i + 1:i + 3] if x.startswith("#   "))
    tap(done and p.returncode == 1 and bool(hit),
        "wasted oracle: fixture %s fails: %s%s" % (form, hit[0] if hit else "(no failing '%s')" % want,
                                                    " (%s)" % detail if detail else ""), out)
    for other in ALSO_OK.get(form, []):
        tap(any(l.startswith("ok - " + other) for l in out.splitlines()),
            "wasted oracle: fixture %s passes '%s' (caught by its own check only)" % (form, other), out)

print("1..%d" % n)
print("%d passed, %d failed" % (n - fails, fails))
sys.exit(1 if fails else 0)
