#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the kernel model's disagreements with the kernel are made of.

Reads lbdis-N.txt, the lb_verdict events whose cause is not `agree` that the
lb scenarios recorded (tests/vm/guest/lib.sh lb_dis_arm), and re-judges
each with the fair.c checker (tests/checker/fairmodel.py, through
rejudge.py's event parser), apart from the module:

- on the return read (the event's inputs): the checker must give the
  module's model outcome;
- a `stale` event also on the entry read of its stale CPUs (`entry=`,
  `entry_sgc=`) and on every mix of the two reads (each stale CPU and group
  capacity from one read or the other, up to 2^12 mixes): the kernel read
  each CPU once, somewhere in between, so a mix that gives the kernel's
  outcome explains the disagreement as real staleness;
- a `known` event: its named rule.

usage: lb_disagree.py EXPORT_DIR [--list N]
Prints one summary line per cause and, with --list, the first N events of
each unexplained kind in short form.  Exit 0 (a report, not a check; 1 on
an unparsable file).
"""
import glob
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "checker"))
import fairmodel as fm  # noqa: E402
import rejudge as rj  # noqa: E402

MAX_MIX = 12


def outcome(ev, rnames, case):
    ranks = [int(x) for x in ev["ranks"].split(",")]
    fm.RULES["event"] = rj.rules_of(int(ev["rules"], 0), ranks, rnames)
    case["variant"] = "event"
    pick, _, _ = fm.find_busiest_group("event", case)
    return -1 if pick is None else pick


def entries(ev):
    """The entry read per stale CPU id, and the groups' capacities."""
    e = {}
    if ev.get("entry", "-") != "-":
        for item in ev["entry"].split(";"):
            v = item.split(",")
            e[int(v[0])] = dict(nr_running=int(v[1]), h_nr_running=int(v[2]), load=int(v[3]),
                                util=int(v[4]), util_est=int(v[5]), runnable=int(v[6]),
                                capacity=int(v[7]), misfit=int(v[8]), idle=bool(int(v[9])))
    sgc = None
    if ev.get("entry_sgc", "-") not in ("-", ""):
        sgc = [int(x) for x in ev["entry_sgc"].split(",")]
    return e, sgc


def short(ev):
    keep = ("dst_cpu", "domain", "idle", "verdict", "reason", "gidx", "cause", "known",
            "moved", "active")
    head = " ".join("%s=%s" % (k, ev[k]) for k in keep if k in ev)
    return head + " groups=" + ev.get("groups", "") + " cpus=" + ev.get("cpus", "") + \
        " entry=" + ev.get("entry", "?") + " entry_sgc=" + ev.get("entry_sgc", "?")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    nlist = 0
    if "--list" in sys.argv:
        i = sys.argv.index("--list")
        nlist = int(sys.argv[i + 1]) if i + 1 < len(sys.argv) else 5
        args = [a for a in args if a != sys.argv[i + 1]]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    paths = sorted(glob.glob(os.path.join(args[0], "lbdis-*.txt")))
    if not paths:
        print("# lb disagreements: no lbdis-N.txt in %s" % args[0])
        return 0
    rnames = rj.rule_names()
    count = {}
    kinds = {}
    listed = {}
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
                case = rj.case_of(ev)
                gidx = [int(x) for x in ev["gidx"].split(",")]
                kpick, mpick = gidx[0], gidx[1]
                ret = outcome(ev, rnames, case)
                if ret != mpick:
                    kind = "checker differs from the module"
                elif cause != "stale":
                    kind = "return read"
                else:
                    ent, sgc = entries(ev)
                    stale_cpu = [i for i, c in enumerate(case["cpus"]) if c["cpu"] in ent]
                    stale_grp = [g for g, gr in enumerate(case["groups"])
                                 if sgc and g < len(sgc) and sgc[g] != gr["capacity"]]
                    knobs = stale_cpu + [("g", g) for g in stale_grp]
                    if not knobs:
                        kind = "stale: no entry values recorded"
                    elif len(knobs) > MAX_MIX:
                        kind = "stale: too many stale inputs to mix"
                    else:
                        base_c = {i: dict(case["cpus"][i]) for i in stale_cpu}
                        base_g = {g: case["groups"][g]["capacity"] for g in stale_grp}
                        hits, all_entry = 0, False
                        for mix in itertools.product((0, 1), repeat=len(knobs)):
                            for k, use in zip(knobs, mix):
                                if isinstance(k, tuple):
                                    case["groups"][k[1]]["capacity"] = \
                                        sgc[k[1]] if use else base_g[k[1]]
                                else:
                                    c = case["cpus"][k]
                                    c.update(base_c[k])
                                    if use:
                                        c.update(ent[c["cpu"]])
                            if outcome(ev, rnames, case) == kpick:
                                hits += 1
                                all_entry |= all(mix)
                        if all_entry:
                            kind = "stale: the entry read reproduces the kernel"
                        elif hits:
                            kind = "stale: a mix of the two reads reproduces the kernel"
                        else:
                            kind = "stale: neither read nor any mix reproduces the kernel"
            except (KeyError, ValueError, IndexError) as e:
                kind = "unparsable (%s)" % e
        kinds.setdefault(key, {})
        kinds[key][kind] = kinds[key].get(kind, 0) + 1
        if nlist and listed.get((key, kind), 0) < nlist and \
                kind not in ("stale: the entry read reproduces the kernel",):
            listed[(key, kind)] = listed.get((key, kind), 0) + 1
            print("# %s | %s | %s" % (key, kind, short(ev)))
    total = sum(count.values())
    print("# lb disagreements recorded: %d (%s)" % (total, ", ".join(
        "%s %d" % kv for kv in sorted(count.items())) or "none"))
    for key in sorted(kinds):
        print("#   %s: %s" % (key, "; ".join("%s %d" % kv for kv in sorted(kinds[key].items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
