#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the kernel model's disagreements with the kernel are made of.

Reads lbdis-N.txt, the lb_verdict events whose cause is not `agree` that the
lb scenarios recorded (tests/vm/guest/lib.sh lb_dis_arm), and re-judges
each with the fair.c checker (tests/checker/fairmodel.py, through
rejudge.py's event parser and judge.explain()), apart from the module:

- the checker must give the module's model outcome on the return read, and
  the module's cause: `stale` only where the entry read (or one group's
  stale inputs from it) gives the kernel's outcome, `known` only where the
  named rule's input flipped does, within groups + 2 model runs, in the
  module's order (docs/debugfs.md, "Model and agreement");
- beyond what the module tries with interrupts off: an `unknown` event with
  moved inputs is also judged on every mix of the two reads (each stale CPU
  and group capacity from one read or the other, up to 2^12 mixes): a mix
  that gives the kernel's outcome means the kernel read those inputs while
  they moved.

usage: lb_disagree.py EXPORT_DIR [--list N] [--release R]
Prints one summary line per cause and, with --list, the first N events of
each kind in short form.  Exit 1 when the checker and the module differ on
any recorded event (or on an unparsable one), 0 otherwise.
"""
import glob
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "checker"))
import fairmodel as fm  # noqa: E402
import judge  # noqa: E402
import rejudge as rj  # noqa: E402

MAX_MIX = 12


def pick_of(variant, case):
    p = fm.find_busiest_group(variant, judge.neutral(case))[0]
    return -1 if p is None else p


def any_mix(variant, case, kpick):
    """Does some mix of the entry and return reads give kpick?  None when
    there are too many moved inputs to try them all."""
    knobs = [("c", i) for i, c in enumerate(case["cpus"]) if "entry" in c] + \
        [("g", g) for g, gr in enumerate(case["groups"]) if "entry_sgc" in gr]
    if not knobs or len(knobs) > MAX_MIX:
        return None
    for mix in itertools.product((0, 1), repeat=len(knobs)):
        c = dict(case, cpus=[dict(x) for x in case["cpus"]],
                 groups=[dict(g) for g in case["groups"]])
        for (kind, k), use in zip(knobs, mix):
            if not use:
                continue
            if kind == "g":
                c["groups"][k]["capacity"] = c["groups"][k]["entry_sgc"]
            else:
                c["cpus"][k].update(c["cpus"][k]["entry"])
        if pick_of(variant, c) == kpick:
            return True
    return False


def short(ev):
    keep = ("dst_cpu", "domain", "idle", "verdict", "reason", "gidx", "cause", "known", "runs",
            "moved", "active")
    head = " ".join("%s=%s" % (k, ev[k]) for k in keep if k in ev)
    return head + " groups=" + ev.get("groups", "") + " cpus=" + ev.get("cpus", "") + \
        " entry=" + ev.get("entry", "?") + " entry_sgc=" + ev.get("entry_sgc", "?")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    nlist = 0
    release = None
    if "--list" in sys.argv:
        i = sys.argv.index("--list")
        nlist = int(sys.argv[i + 1]) if i + 1 < len(sys.argv) else 5
        args = [a for a in args if a != sys.argv[i + 1]]
    if "--release" in sys.argv:
        release = sys.argv[sys.argv.index("--release") + 1]
        args = [a for a in args if a != release]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    paths = sorted(glob.glob(os.path.join(args[0], "lbdis-*.txt")))
    if not paths:
        print("# lb disagreements: no lbdis-N.txt in %s" % args[0])
        return 0
    names, rnames = judge.Names(), rj.rule_names()
    release = release or rj.release_near(paths[0])
    variant = rj.variant_of(release)
    count, kinds, listed = {}, {}, {}
    differ = 0
    for line in (ln for p in paths for ln in open(p, errors="replace")):
        ev = rj.parse(line)
        if ev is None:
            continue
        cause = ev.get("cause", "?")
        key = cause if cause != "known" else "known/" + ev.get("known", "-")
        count[key] = count.get(key, 0) + 1
        if ev.get("trunc") == "1":
            kind = "truncated"
        else:
            try:
                exp, got = rj.rejudge(ev, names, rnames, variant)
                if exp != got:
                    kind = "checker differs from the module: checker %s" % (
                        {k: v for k, v in exp.items() if got[k] != v})
                    differ += 1
                elif cause == "stale":
                    kind = "the entry read (or one group's from it) reproduces the kernel"
                elif cause == "known":
                    kind = "the named rule's input flipped reproduces the kernel"
                elif cause == "unknown":
                    case = rj.case_of(ev)
                    case["variant"] = v = variant or "event"
                    if v == "event":
                        fm.RULES["event"] = rj.event_rules(ev, rnames)
                    m = any_mix(v, case, int(ev["gidx"].split(",")[0]))
                    kind = ("no moved input" if m is None and
                            not any("entry" in c for c in case["cpus"]) else
                            "too many moved inputs to mix" if m is None else
                            "a mix of the two reads reproduces the kernel (beyond the module's runs)"
                            if m else "neither read nor any mix reproduces the kernel")
                else:
                    kind = "the checker agrees"
            except (KeyError, ValueError, IndexError) as e:
                kind = "checker differs from the module: unparsable (%s)" % e
                differ += 1
        kinds.setdefault(key, {})
        kinds[key][kind] = kinds[key].get(kind, 0) + 1
        if nlist and listed.get((key, kind), 0) < nlist and \
                (cause == "unknown" or kind.startswith("checker differs")):
            listed[(key, kind)] = listed.get((key, kind), 0) + 1
            print("# %s | %s | %s" % (key, kind, short(ev)))
    total = sum(count.values())
    print("# lb disagreements recorded: %d (%s); kernel %s, checker variant %s" % (
        total, ", ".join("%s %d" % kv for kv in sorted(count.items())) or "none",
        release or "?", variant or "none (each event's own rules)"))
    for key in sorted(kinds):
        print("#   %s: %s" % (key, "; ".join("%s %d" % kv for kv in sorted(kinds[key].items()))))
    print("# lb disagreements where the checker and the module differ: %d of %d" % (differ, total))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
