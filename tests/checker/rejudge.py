#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Re-judge the lb_verdict trace events a VM scenario exported with the
checker's own model (fairmodel.py, written from fair.c), from each event's
inputs alone: per-CPU state (counts, PELT sums, capacities, misfit, idle,
the published waiter summary, the entry read of moved CPUs), per-group
sched_group fields and the domain's.  The event's conclusions (verdict,
reason, model, model_exit, busiest, cause, known, runs) are compared, never
read as inputs; a `known` or `stale` event is judged like any other: its
cause must be the one the checker's own explanation (judge.explain()) gives.

The rule set and the class order are the checker's for the kernel release
(the exports' lbmodel-N.info `kernel` line, or --release): the module's own
choice (the event's rules= and ranks=) is compared with it, not used.  A
release the checker has no variant for is judged under the event's rules
and ranks, and says so.

usage: rejudge.py TRACE_FILE [--release R]
TAP-like lines ("ok - ...", "not ok - ...", "# ...") and "checks done";
exits 1 on any disagreement, on zero events, or on an unparsable event.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fairmodel as fm  # noqa: E402
import judge  # noqa: E402

IDLE = {"idle": fm.CPU_IDLE, "busy": fm.CPU_NOT_IDLE, "newidle": fm.CPU_NEWLY_IDLE}
SD = {1: "ASYM_PACKING", 2: "ASYM_CPUCAPACITY", 4: "NUMA", 8: "SHARE_LLC", 64: "SHARE_CPUCAPACITY"}
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
    if r["numa_510"]:                    # 5.10's form the bits do not name
        r["asym_local_too"] = True
    r["asym_smt"] = "66" if "asym_core_idle" in on else "61" if "asym_smt" in on else "510"
    r["smt"] = "smt_balance" in on
    r["prefer_sibling_busiest"] = "prefer_sibling_busiest" in on
    r["tie_strict"] = "misfit_tie_first" in on
    r["cap_check_first"] = "capacity_first" in on
    r["misfit_dst_can_help"] = "misfit_dst_capacity" in on
    r["overloaded_needs_ou"] = "eas_overload" in on
    r["llc"] = "llc_balance" in on
    r["throttle_dst_only"] = "eas_overload" in on   # 7.2+ (the waiters' summary decides it anyway)
    return r


def variant_of(release):
    """The checker's rule variant for a kernel release (README.md): None
    when it has none."""
    m = re.match(r"(\d+)\.(\d+)", release or "")
    if not m:
        return None
    v = (int(m.group(1)), int(m.group(2)))
    return {(5, 10): "5.10", (6, 1): "6.1", (6, 6): "6.6", (6, 10): "6.10", (6, 12): "6.10",
            (7, 2): "7.2", (7, 3): "7.3"}.get(v)


def release_near(path):
    """The `kernel` line of an lbmodel-N.info export next to the trace file."""
    for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(path)), "lbmodel-*.info"))):
        for line in open(f, errors="replace"):
            p = line.split()
            if len(p) == 2 and p[0] == "kernel":
                return p[1]
    return None


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
                           max_capacity=int(v[8]), stale=bool(int(v[9])), cpus=[], llc_pref=0))
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
                   idle=bool(int(v[11])), stale=bool(int(v[12])), llc_pref=int(v[13]),
                   void=int(v[14]), waiters=waiters, unknown=int(v[17]), prio=0,
                   overutilized=False, siblings=[len(cpus)])
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
    # the entry read of the moved CPUs (entries of stale CPUs), and each
    # group's sgc->capacity at the entry where it moved
    if ev.get("entry", "-") != "-":
        for item in ev["entry"].split(";"):
            v = item.split(",")
            e = dict(nr_running=int(v[1]), h_nr_running=int(v[2]), load=int(v[3]),
                     util=int(v[4]), util_est=int(v[5]), runnable=int(v[6]),
                     capacity=int(v[7]), misfit=int(v[8]), idle=bool(int(v[9])))
            if len(v) > 11:
                e.update(capacity_orig=int(v[10]) or 1024, llc_pref=int(v[11]))
            for i in by_cpu.get(int(v[0]), ()):
                if cpus[i]["stale"]:
                    cpus[i]["entry"] = dict(e)
    if ev.get("entry_sgc", "-") not in ("-", ""):
        for gi, x in enumerate(ev["entry_sgc"].split(",")):
            if gi < len(groups) and groups[gi]["stale"]:
                groups[gi]["entry_sgc"] = int(x)
    # dst_core_idle from its raw reads: sched_smt_active() and dst's siblings' idle_cpu()
    sib = [] if ev.get("sib", "-") in ("-", "") else \
        [tuple(int(y) for y in x.split(":")) for x in ev["sib"].split(",")]
    flags = {name for bit, name in SD.items() if sd & bit}
    case = dict(dst=dst, idle=IDLE[ev["idle"]], pct=int(ev["pct"]) or 117, flags=flags,
                child_prefer_sibling=bool(sd & 16), imb_numa_nr=int(ev["imb_numa"]),
                eas_pd=bool(int(ev["eas_on"])), rd_overutilized=not int(ev["eas"]),
                sched_cache=False, dst_cap=int(ev["dst_cap"]),
                smt_active=bool(int(ev.get("smt", "1"))), sd_smt="SHARE_CPUCAPACITY" in flags,
                groups=groups, cpus=cpus)
    if "sib" in ev:
        case["dst_core_idle"] = not case["smt_active"] or \
            all(idle for cpu, idle in sib if cpu != dst_cpu)
    else:
        case["dst_core_idle"] = bool(int(ev["dst_core_idle"]))
    for g in groups:
        g["asym_prefer_cpu"] = g["cpus"][0] if g["cpus"] else 0
    return case


def event_rules(ev, rnames):
    """The event's own rule set and class order, as fairmodel rules."""
    ranks = [int(x) for x in ev["ranks"].split(",")]
    return rules_of(int(ev["rules"], 0), ranks, rnames)


def rejudge(ev, names, rnames, variant=None):
    """(expected, got) conclusions of one event: under the checker's
    variant when given, else under the event's own rules and ranks."""
    case = case_of(ev)
    gidx = [int(x) for x in ev["gidx"].split(",")]
    kpick = gidx[0] if gidx[0] >= 0 else None
    if variant is None:
        fm.RULES["event"] = event_rules(ev, rnames)
        variant = "event"
    case["variant"] = variant
    model = fm.find_busiest_group(variant, judge.neutral(case))
    want = judge.judge(names, case, kpick, model)
    cause, known, runs = judge.explain(variant, case, gidx[0])
    got = dict(verdict=ev["verdict"], reason=ev["reason"], model=gidx[1], busiest=gidx[2],
               exit=ev["model_exit"], cause=ev["cause"], known=ev.get("known", "-"),
               runs=int(ev.get("runs", "0")))
    exp = dict(verdict=want["verdict"], reason=want["reason"],
               model=-1 if want["model"] is None else want["model"],
               busiest=-1 if want["busiest"] is None else want["busiest"],
               exit=names.r(EXIT_ID[want["exit"]]) if want["exit"] else names.r("NONE"),
               cause=cause, known=known, runs=runs)
    if "runs" not in ev:                # an event of a module before runs=
        exp["runs"] = got["runs"]
    return exp, got


def same_rules(r):
    """The rules the core's rule bits name (not the order: ranks are
    compared apart; not the checker's rules the core has no bit for)."""
    return {k: v for k, v in r.items()
            if k not in ("variant", "order", "llc_not_asym", "throttle_dst_only", "asym_local_too")}


def expected_ranks(variant):
    """BTF's enum group_type values the kernel of a variant has, in the
    event's ranks= order (-1: no such class)."""
    val = dict(fm.enum_of(variant))
    return [val.get(fm.ENUM_NAME[c], -1) for c in CLASS_ORDER]


EXIT_ID = dict(judge.EXIT_REASON, **{fm.X_NO_BUSIEST: "NO_BUSIEST", fm.X_BUSY_DST: "IDLE_CPUS"})


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    release = None
    if "--release" in sys.argv:
        release = sys.argv[sys.argv.index("--release") + 1]
        args = [a for a in args if a != release]
    if len(args) != 1:
        print("usage: rejudge.py TRACE_FILE [--release R]", file=sys.stderr)
        return 2
    names, rnames = judge.Names(), rule_names()
    release = release or release_near(args[0])
    variant = variant_of(release)
    print("# kernel %s: %s" % (release or "?", "judged under the checker's variant %s" % variant
                               if variant else "no checker variant: judged under each event's rules"))
    events = agree = trunc = 0
    bad, causes, own = [], {}, {}
    for line in open(args[0], errors="replace"):
        ev = parse(line)
        if ev is None:
            continue
        events += 1
        if ev.get("trunc") == "1":
            trunc += 1
            continue
        try:
            exp, got = rejudge(ev, names, rnames, variant)
        except (KeyError, ValueError, IndexError) as e:
            bad.append((line.strip(), "unparsable: %s" % e))
            continue
        k = got["cause"] + ("/" + got["known"] if got["known"] != "-" else "")
        causes[k] = causes.get(k, 0) + 1
        if variant:
            er = expected_ranks(variant)
            if [int(x) for x in ev["ranks"].split(",")] != er:
                own["ranks"] = own.get("ranks", 0) + 1
            if same_rules(event_rules(ev, rnames)) != same_rules(fm.rules(variant)):
                own["rules"] = own.get("rules", 0) + 1
        if exp == got:
            agree += 1
        else:
            bad.append((line.strip(), "checker %s, module %s" % (exp, got)))
    print("# events %d, re-judged in agreement %d, truncated %d; their causes: %s" % (
        events, agree, trunc, ", ".join("%s %d" % kv for kv in sorted(causes.items())) or "-"))
    for line, why in bad[:10]:
        print("# disagree: %s: %s" % (why, line[-600:]))
    print(("ok" if events else "not ok") + " - lb_verdict events present (%d)" % events)
    print(("ok" if not trunc else "not ok") + " - no truncated event (%d)" % trunc)
    if variant:
        n = events - trunc
        print(("ok" if not own else "not ok") +
              " - the module's rule set and class ranks are the checker's for %s on every event "
              "(%d of %d differ in rules, %d in ranks)" % (
                  release, own.get("rules", 0), n, own.get("ranks", 0)))
    print(("ok" if events and not bad and agree == events - trunc else "not ok") +
          " - every event re-judged by the fair.c checker to the same verdict, reason, "
          "model outcome, exit, busiest group and cause (%d of %d)" % (agree, events))
    print("checks done")
    return 0 if events and not bad and agree == events - trunc and not trunc and not own else 1


if __name__ == "__main__":
    sys.exit(main())
