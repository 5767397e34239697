#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Re-judge every lb_verdict trace event from the state it records.

A second implementation of the rules documented in docs/debugfs.md
("lb verdicts" and "lb reasons"), written from the documentation and the
kernel's find_busiest_group() of 6.1, not from module/core/audit_core.c.
Every event carries the domain inputs and, per group, the statistics the
rules read (module/audit.c, audit_trace_attempt()).  For each event this
script recomputes the group classes, the kernel model's pick, the verdict
and the reason, and compares them with what the module wrote.

usage: lb_rejudge.py TRACE_FILE
Prints "ok - ..." / "not ok - ..." / "# ..." lines and "checks done";
exits 1 on any disagreement, on a truncated event, or on zero events.
"""
import re
import sys

CLASSES = ["has_spare", "fully_busy", "misfit", "smt_balance", "asym",
           "imbalanced", "llc_balance", "overloaded"]
SD_ASYM_PACKING, SD_ASYM_CAPACITY, SD_NUMA, SD_SHARE_LLC, SD_PREFER_SIBLING = 1, 2, 4, 8, 16
WORK_NO, WORK_YES, WORK_UNKNOWN = 0, 1, 2
VOID_REASONS = {"never", "walk_failed", "disabled", "reset", "hotplug", "stale",
                "unreadable", "work_unknown"}
M64 = (1 << 64) - 1
FIELDS = ["local", "cpu", "weight", "capacity", "load", "util", "runnable", "nr",
          "h_nr", "idle_cpus", "misfit", "imbalanced", "work"]


def parse(line):
    m = re.search(r"lb_verdict: (.*)$", line)
    if not m:
        return None
    ev = {}
    for tok in m.group(1).split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            ev[k] = v
    return ev


def groups_of(ev):
    gs = []
    for g in ev["groups"].split(";") if ev.get("groups") else []:
        vals = [int(x) for x in g.split(",")]
        if len(vals) != len(FIELDS):
            raise ValueError("group has %d fields: %s" % (len(vals), g))
        gs.append(dict(zip(FIELDS, vals)))
    return gs


def classify(g, pct, sdf, idle):
    cap = g["capacity"]
    overloaded = g["nr"] > g["weight"] and (cap * 100 < g["util"] * pct or
                                           cap * pct < g["runnable"] * 100)
    if overloaded:
        return "overloaded"
    if g["imbalanced"]:
        return "imbalanced"
    if not g["local"] and sdf & SD_ASYM_PACKING and idle != "busy" and g["h_nr"]:
        return "asym"
    if g["misfit"]:
        return "misfit"
    if g["nr"] < g["weight"]:
        return "has_spare"
    if cap * pct < g["runnable"] * 100:
        return "fully_busy"
    return "has_spare" if cap * 100 > g["util"] * pct else "fully_busy"


def busier(a, b, rank):
    """update_sd_pick_busiest(): does candidate a replace busiest b?"""
    if not a["h_nr"]:
        return False
    if rank[a["cls"]] != rank[b["cls"]]:
        return rank[a["cls"]] > rank[b["cls"]]
    c = a["cls"]
    if c in ("overloaded", "fully_busy"):
        return a["avg_load"] > b["avg_load"]
    if c == "misfit":
        return a["misfit"] >= b["misfit"]
    if c == "has_spare":
        if a["idle_cpus"] != b["idle_cpus"]:
            return a["idle_cpus"] < b["idle_cpus"]
        return a["nr"] > b["nr"]
    return False


def imbalance(gs, local, b, pct, sdf, numa_nr, rank):
    if b["cls"] == "misfit":
        return 1 if sdf & SD_ASYM_CAPACITY else b["misfit"]
    if b["cls"] == "asym":
        return b["h_nr"]
    if b["cls"] == "imbalanced":
        return 1
    if local["cls"] == "has_spare":
        if rank[b["cls"]] > rank["fully_busy"] and not sdf & SD_SHARE_LLC:
            return max(max(local["capacity"], local["util"]) - local["util"], 1)
        if b["weight"] == 1 or sdf & SD_PREFER_SIBLING:
            imb = max(b["nr"] - local["nr"], 0)
        else:
            imb = max(local["idle_cpus"] - b["idle_cpus"], 0)
        if sdf & SD_NUMA and local["nr"] + 1 <= numa_nr and imb <= 2:
            imb = 0
        return imb >> 1
    tl = sum(g["load"] for g in gs)
    tc = sum(g["capacity"] for g in gs)
    avg = tl * 1024 // tc if tc else 0
    lavg = local["avg_load"]
    if rank[local["cls"]] < rank["overloaded"]:
        lavg = local["load"] * 1024 // local["capacity"] if local["capacity"] else 0
        if lavg >= b["avg_load"] or lavg >= avg:
            return 0
    x = ((b["avg_load"] - avg) & M64) * b["capacity"] & M64
    y = ((avg - lavg) & M64) * local["capacity"] & M64
    return min(x, y) // 1024


def balanced_reason(gs, local, b, pct, sdf, eas, numa_nr, rank, idle):
    force = b["cls"] == "misfit"
    if not force:
        if eas:
            return "eas"
        force = b["cls"] in ("asym", "imbalanced")
    if not force:
        if rank[local["cls"]] > rank[b["cls"]]:
            return "local_class"
        if local["cls"] == "overloaded":
            tl = sum(g["load"] for g in gs)
            tc = sum(g["capacity"] for g in gs)
            avg = tl * 1024 // tc if tc else 0
            if (local["avg_load"] >= b["avg_load"] or local["avg_load"] >= avg or
                    100 * b["avg_load"] <= pct * local["avg_load"]):
                return "local_load"
        if sdf & SD_PREFER_SIBLING and local["cls"] == "has_spare" and b["nr"] > local["nr"] + 1:
            force = True
    if not force and b["cls"] != "overloaded" and idle != "busy":
        if b["weight"] > 1 and local["idle_cpus"] <= b["idle_cpus"] + 1:
            return "idle_cpus"
        if b["h_nr"] == 1:
            return "single_task"
    return None if imbalance(gs, local, b, pct, sdf, numa_nr, rank) else "imbalance_zero"


def rejudge(ev):
    """(verdict, reason, model_cpu) by the documented rules."""
    pct = int(ev["pct"]) or 117
    sdf = int(ev["sd"], 16)
    eas = int(ev["eas"])
    numa_nr = int(ev["imb_numa"])
    ranks = [int(x) for x in ev["ranks"].split(",")]
    rank = dict(zip(CLASSES, ranks))
    idle = ev["idle"]
    gs = groups_of(ev)
    for g in gs:
        g["cls"] = classify(g, pct, sdf, idle)
        g["avg_load"] = g["load"] * 1024 // g["capacity"] if g["cls"] == "overloaded" and g["capacity"] else 0
    model = None
    for i, g in enumerate(gs):
        if g["local"] or not g["h_nr"]:
            continue
        if model is None or busier(g, gs[model], rank):
            model = i
    model_cpu = gs[model]["cpu"] if model is not None else -1
    pick = int(ev["pick"])
    p = next((i for i, g in enumerate(gs) if g["cpu"] == pick and g["cpu"] >= 0), None) if pick >= 0 else None
    if pick >= 0 and p is None:
        raise ValueError("pick=%d names no group" % pick)
    nonlocal_work = any(g["work"] == WORK_YES and not g["local"] for g in gs)
    unknown = any(g["work"] == WORK_UNKNOWN and not g["local"] for g in gs)
    if p is not None and gs[p]["work"] == WORK_YES and (nonlocal_work or not gs[p]["local"]):
        return "right", "-", model_cpu
    if unknown:
        return "void", "work_unknown", model_cpu
    if not nonlocal_work:
        return "none", "no_work", model_cpu
    local = next((g for g in gs if g["local"]), None)
    if p is None:
        if local is None or model is None:
            return "missed", "unexplained", model_cpu
        r = balanced_reason(gs, local, gs[model], pct, sdf, eas, numa_nr, rank, idle)
        return "missed", r or "unexplained", model_cpu

    def keeps(q, w):  # visiting in order, does the kernel keep q over w?
        if q == w:
            return True
        return not busier(gs[w], gs[q], rank) if q < w else busier(gs[q], gs[w], rank)

    if any(not g["local"] and g["work"] == WORK_YES and not keeps(p, i) for i, g in enumerate(gs)):
        return "wrong", "unexplained", model_cpu
    c = gs[p]["cls"]
    if c == "misfit":
        return "wrong", "active_misfit", model_cpu
    if c == "asym":
        return "wrong", "active_asym", model_cpu
    if (local is not None and sdf & SD_PREFER_SIBLING and local["cls"] == "has_spare" and
            rank[c] <= rank["fully_busy"] and gs[p]["nr"] > local["nr"] + 1):
        return "wrong", "active_prefer_sibling", model_cpu
    return "wrong", c, model_cpu


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    events = agree = voids = trunc = 0
    bad = []
    counts = {}
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            ev = parse(line)
            if ev is None:
                continue
            events += 1
            if ev.get("trunc") == "1":
                trunc += 1
                continue
            key = ev["verdict"] + "/" + ev["reason"]
            counts[key] = counts.get(key, 0) + 1
            if ev["verdict"] == "void" and ev["reason"] != "work_unknown":
                # the CPUs' stats are not usable: only the reason's name is checked
                voids += 1
                if ev["reason"] in VOID_REASONS:
                    agree += 1
                else:
                    bad.append((line.strip(), ("void", "a void reason", None)))
                continue
            try:
                v, r, m = rejudge(ev)
            except (KeyError, ValueError) as e:
                bad.append((line.strip(), ("unparsable", str(e), None)))
                continue
            if (v, r) == (ev["verdict"], ev["reason"]) and m == int(ev["model"]):
                agree += 1
            else:
                bad.append((line.strip(), (v, r, m)))
    print("# events %d, re-judged in agreement %d, void (reason name only) %d, truncated %d"
          % (events, agree, voids, trunc))
    for k in sorted(counts):
        print("# %-32s %d" % (k, counts[k]))
    for line, want in bad[:10]:
        print("# disagree: want %s/%s model=%s: %s" % (want[0], want[1], want[2], line[-400:]))
    print(("ok" if events else "not ok") + " - lb_verdict events present (%d)" % events)
    print(("ok" if not trunc else "not ok") + " - no truncated event (%d)" % trunc)
    print(("ok" if events and agree == events else "not ok") +
          " - every event re-judged to the same verdict, reason and model pick (%d of %d)"
          % (agree, events))
    print("checks done")
    return 0 if events and agree == events and not trunc else 1


if __name__ == "__main__":
    sys.exit(main())
