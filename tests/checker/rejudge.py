#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Re-judge the lb_verdict trace events a VM scenario exported with the
checker's own model (fairmodel.py, written from fair.c), from each event's
inputs alone: per-CPU state (counts, PELT sums, capacities, misfit, idle,
the published waiter summary), per-group sched_group fields and the
domain's.  The event's conclusions (verdict, reason, model, model_exit,
busiest, cause) are compared, never read as inputs.

usage: rejudge.py TRACE_FILE
TAP-like lines ("ok - ...", "not ok - ...", "# ...") and "checks done";
exits 1 on any disagreement, on zero events, or on an unparsable event.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fairmodel as fm  # noqa: E402
import judge  # noqa: E402

IDLE = {"idle": fm.CPU_IDLE, "busy": fm.CPU_NOT_IDLE, "newidle": fm.CPU_NEWLY_IDLE}
SD = {1: "ASYM_PACKING", 2: "ASYM_CPUCAPACITY", 4: "NUMA", 8: "SHARE_LLC"}
CLASS_ORDER = [fm.HAS_SPARE, fm.FULLY_BUSY, fm.MISFIT, fm.SMT_BALANCE, fm.ASYM,
               fm.IMBALANCED, fm.LLC_BALANCE, fm.OVERLOADED]   # the event's ranks= order


def rule_names():
    """The core's rule bits in order (module/core/audit_core.h AUDIT_RULES)."""
    h = open(os.path.join(judge.TOP, "module", "core", "audit_core.h")).read()
    m = re.search(r"#define AUDIT_RULES\(X\)(.*?)\n\n", h, re.S)
    return re.findall(r'X\(\s*\w+\s*,\s*"([^"]*)"', m.group(1))


def rules_of(mask, ranks, names):
    """The checker's rule toggles for an event's rule bits.  Each bit is a
    rule of the kernel named in the core's table; the class order comes
    from the event's ranks (BTF's enum group_type)."""
    on = {n for i, n in enumerate(names) if mask >> i & 1}
    r = dict(fm.BASE)
    order = sorted((rk, c) for c, rk in zip(CLASS_ORDER, ranks) if rk >= 0)
    r["order"] = [c for _, c in order]
    r["eas_first"] = "eas_first" in on
    r["numa_510"] = "numa_busiest_nr" in on
    r["misfit_reduced_cap"] = r["misfit_imb_load"] = "reduced_capacity" in on
    r["cap_510"] = "capacity_local" in on
    if r["numa_510"]:                    # 5.10's forms the bits do not name
        r.update(asym_local_too=True, asym_smt="510")
    r["smt"] = "smt_balance" in on
    if r["smt"]:
        r["asym_smt"] = "66"
    r["prefer_sibling_busiest"] = "prefer_sibling_busiest" in on
    r["tie_strict"] = "misfit_tie_first" in on
    r["cap_check_first"] = "capacity_first" in on
    r["misfit_dst_can_help"] = "misfit_dst_capacity" in on
    r["overloaded_needs_ou"] = "eas_overload" in on
    r["llc"] = "llc_balance" in on
    return r


def parse(line):
    m = re.search(r"lb_verdict: (.*)$", line)
    if not m:
        return None
    return dict(t.split("=", 1) for t in m.group(1).split() if "=" in t)


def case_of(ev):
    """The checker's case from an event's inputs (never its conclusions)."""
    sd = int(ev["sd"], 0)
    groups, cpus = [], []
    for g in ev["groups"].split(";"):
        v = g.split(",")
        groups.append(dict(local=int(v[0]), first=int(v[1]), weight=int(v[2]),
                           capacity=int(v[3]), imbalanced=bool(int(v[4])),
                           smt=bool(int(v[5]) & 1), prefer_sibling=bool(int(v[5]) & 2),
                           cores=int(v[6]) or int(v[2]), min_capacity=int(v[7]),
                           max_capacity=int(v[8]), cpus=[], llc_pref=0))
    ncpu = 0
    entries = ev["cpus"].split(";") if ev.get("cpus") else []
    for c in entries:
        v = c.split(",")
        ncpu = max(ncpu, int(v[1]) + 1)
    for c in entries:
        v = c.split(",")
        gi, cpu = int(v[0]), int(v[1])
        # v[18] is `throttled`: waiters the destination may not take,
        # already left out of any and masks
        masks = [] if v[19] == "-" else v[19].split("/")
        waiters = [dict(mask=list(range(ncpu))) for _ in range(int(v[15]))]
        for mk in masks:
            bits = 0
            for k, word in enumerate(mk.split(".")):
                bits |= int(word, 16) << (64 * k)
            waiters.append(dict(mask=[i for i in range(ncpu) if bits >> i & 1]))
        rec = dict(cpu=cpu, nr_running=int(v[2]), h_nr_running=int(v[3]), load=int(v[4]),
                   util=int(v[5]), util_est=int(v[6]), runnable=int(v[7]),
                   capacity=int(v[8]), capacity_orig=int(v[9]) or 1024, misfit=int(v[10]),
                   idle=bool(int(v[11])), llc_pref=int(v[13]), void=int(v[14]),
                   waiters=waiters, unknown=int(v[17]), prio=0, overutilized=False,
                   siblings=[len(cpus)])
        groups[gi]["cpus"].append(len(cpus))
        cpus.append(rec)
    local = [i for i, g in enumerate(groups) if g["local"]]
    if local != [0]:
        raise ValueError("the local group is not the first (%s)" % local)
    dst_cpu = int(ev["dst_cpu"])
    dst = next((i for i in groups[0]["cpus"] if cpus[i]["cpu"] == dst_cpu), None)
    if dst is None:
        raise ValueError("dst_cpu %d is not in the local group" % dst_cpu)
    # index-based masks: a waiter's mask names CPU numbers; map to entries
    by_cpu = {}
    for i, c in enumerate(cpus):
        by_cpu.setdefault(c["cpu"], []).append(i)
    for c in cpus:
        for w in c["waiters"]:
            w["mask"] = [i for n in w["mask"] for i in by_cpu.get(n, ())]
    flags = {name for bit, name in SD.items() if sd & bit}
    case = dict(dst=dst, idle=IDLE[ev["idle"]], pct=int(ev["pct"]) or 117, flags=flags,
                child_prefer_sibling=bool(sd & 16), imb_numa_nr=int(ev["imb_numa"]),
                eas_pd=bool(int(ev["eas_on"])) or bool(int(ev["eas"])),
                rd_overutilized=not int(ev["eas"]), energy=bool(int(ev["eas_on"])),
                sched_cache=False, dst_cap=int(ev["dst_cap"]),
                dst_core_idle=bool(int(ev["dst_core_idle"])), groups=groups, cpus=cpus)
    for g in groups:
        for i in g["cpus"]:
            cpus[i]["overutilized"] = True   # the core's documented gap: every CPU is
        # taken as overutilized under eas_overload (a known cause)
    if "ASYM_PACKING" in flags:
        # CPU priorities are not in the event: dst preferred (the core's
        # assumption; asym_packing disagreements are a known cause)
        for gi, g in enumerate(groups):
            for i in g["cpus"]:
                cpus[i]["prio"] = 1 + gi
            cpus[dst]["prio"] = 1000
        for g in groups:
            g["asym_prefer_cpu"] = max(g["cpus"], key=lambda k: cpus[k]["prio"]) if g["cpus"] else 0
    return case


def rejudge(ev, names, rnames):
    ranks = [int(x) for x in ev["ranks"].split(",")]
    r = rules_of(int(ev["rules"], 0), ranks, rnames)
    case = case_of(ev)
    gidx = [int(x) for x in ev["gidx"].split(",")]
    kpick = gidx[0] if gidx[0] >= 0 else None
    fm.RULES["event"] = r
    case["variant"] = "event"
    model = fm.find_busiest_group("event", case)
    want = judge.judge(names, case, kpick, model)
    got = dict(verdict=ev["verdict"], reason=ev["reason"], model=gidx[1], busiest=gidx[2],
               exit=ev["model_exit"])
    exp = dict(verdict=want["verdict"], reason=want["reason"],
               model=-1 if want["model"] is None else want["model"],
               busiest=-1 if want["busiest"] is None else want["busiest"],
               exit=names.r(EXIT_ID[want["exit"]]) if want["exit"] else names.r("NONE"))
    if any(c.get("void") for c in case["cpus"]):
        exp.update(model=got["model"], busiest=got["busiest"], exit=got["exit"])
    return exp, got


EXIT_ID = dict(judge.EXIT_REASON, **{fm.X_NO_BUSIEST: "NO_BUSIEST", fm.X_BUSY_DST: "IDLE_CPUS"})


def main():
    if len(sys.argv) != 2:
        print("usage: rejudge.py TRACE_FILE", file=sys.stderr)
        return 2
    names, rnames = judge.Names(), rule_names()
    events = agree = trunc = 0
    bad, known = [], 0
    for line in open(sys.argv[1], errors="replace"):
        ev = parse(line)
        if ev is None:
            continue
        events += 1
        if ev.get("trunc") == "1":
            trunc += 1
            continue
        try:
            exp, got = rejudge(ev, names, rnames)
        except (KeyError, ValueError, IndexError) as e:
            bad.append((line.strip(), "unparsable: %s" % e))
            continue
        if exp == got:
            agree += 1
        elif ev.get("cause") == "known" or ev.get("known", "-") != "-":
            known += 1              # a rule the core names as missing (asym priorities, ...)
            agree += 1
        else:
            bad.append((line.strip(), "checker %s, module %s" % (exp, got)))
    print("# events %d, re-judged in agreement %d (of them on a known core gap %d), "
          "truncated %d" % (events, agree, known, trunc))
    for line, why in bad[:10]:
        print("# disagree: %s: %s" % (why, line[-600:]))
    print(("ok" if events else "not ok") + " - lb_verdict events present (%d)" % events)
    print(("ok" if not trunc else "not ok") + " - no truncated event (%d)" % trunc)
    print(("ok" if events and not bad and agree == events else "not ok") +
          " - every event re-judged by the fair.c checker to the same verdict, reason, "
          "model outcome, exit and busiest group (%d of %d)" % (agree, events))
    print("checks done")
    return 0 if events and not bad and agree == events and not trunc else 1


if __name__ == "__main__":
    sys.exit(main())
