#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent check of `sched-shadow compare --json A B`.

    tests/unit/compare_oracle.py A.json B.json COMPARE.json

Recomputes, from the two `run --json` reports alone, every number the
comparison gives for each run (verdict totals, attempts per
verdict/reason, each tracker's right/wrong/agree, the load sums and the
gap split, the BPF numbers of the command's cgroup, the embedded result)
and compares.  Prints "N values compared" and each mismatch; exits 1 on
any mismatch or when nothing was compared.
"""
import json
import sys


def verdicts(lb):
    rows = lb["rows"]
    all_rows = any(r["domain"] == "all" for r in rows)
    t = dict(calls=0, right=0, wrong=0, missed=0, none=0, void=0, busy_calls=0)
    for r in rows:
        if r["tracker"] != "actual" or (all_rows and r["domain"] != "all"):
            continue
        if r["idle"] == "busy":
            t["busy_calls"] += r["calls"] or 0
        elif r["idle"] in ("idle", "newidle"):
            for k in ("calls", "right", "wrong", "missed", "none", "void"):
                t[k] += r.get(k) or 0
    return t


def reasons(att):
    out = {}
    for r in att["rows"]:
        if r["domain"] != "all" or r["idle"] == "busy" or not r["attempts"]:
            continue
        k = "%s/%s" % (r["verdict"], r["reason"] if r["reason"] is not None else "-")
        out[k] = out.get(k, 0) + r["attempts"]
    return out


def trackers(lb):
    rows = lb["rows"]
    all_rows = any(r["domain"] == "all" for r in rows)
    out = {}
    for r in rows:
        if r["idle"] == "busy" or (all_rows and r["domain"] != "all"):
            continue
        t = out.setdefault(r["tracker"], {"right": 0, "wrong": 0, "agree": None})
        t["right"] += r.get("right") or 0
        t["wrong"] += r.get("wrong") or 0
        if r.get("agree") is not None:
            t["agree"] = (t["agree"] or 0) + r["agree"]
    return out


def load(cpus):
    rows = [r for r in cpus["rows"] if r.get("shadow_mean") is not None]
    out = {"cpus": len(rows)}
    for k in ("shadow_mean", "real_mean", "div_mean", "fresh_mean", "h_load_mean"):
        v = [r[k] for r in rows if r.get(k) is not None]
        out[k] = sum(v) if v else None
    gap = out["real_mean"] - out["shadow_mean"]
    if out["fresh_mean"] is not None and gap > 0:
        out["gap_stale"] = out["fresh_mean"] - out["shadow_mean"]
        out["gap_blocked"] = gap - out["gap_stale"]
    else:
        out["gap_stale"] = out["gap_blocked"] = None
    return out


def expect(run):
    e = {"exit_status": run["exit_status"], "cgroup": run["cgroup"]["path"] if run["cgroup"] else "/"}
    lb = run["lb"]
    if lb["available"]:
        e["lb.verdicts"] = verdicts(lb)
        if lb.get("attempts"):
            e["lb.attempts.by_reason"] = reasons(lb["attempts"])
            e["lb.attempts.unexplained_wrong"] = lb["attempts"]["unexplained_wrong"]
            e["lb.attempts.unexplained_missed"] = lb["attempts"]["unexplained_missed"]
        e["lb.trackers"] = trackers(lb)
    if run["cpus"]["available"]:
        e["load"] = load(run["cpus"])
    b = run["bpf"]
    if b["available"]:
        cg = next((c for c in b["cgroups"] if c["path"] == e["cgroup"]), None)
        if cg:
            e["bpf"] = {k: cg[k] for k in ("wakeups", "migrations", "samples")}
            e["bpf.cgroup"] = cg["path"]
    res = run.get("result")
    e["result"] = res["document"] if res and res["available"] else None
    return e


def got(c):
    g = {"exit_status": c["exit_status"], "cgroup": c["cgroup"], "result": c.get("result")}
    if c.get("lb"):
        g["lb.verdicts"] = c["lb"]["verdicts"]
        if c["lb"].get("attempts"):
            a = c["lb"]["attempts"]
            g["lb.attempts.by_reason"] = a["by_reason"]
            g["lb.attempts.unexplained_wrong"] = a["unexplained_wrong"]
            g["lb.attempts.unexplained_missed"] = a["unexplained_missed"]
        g["lb.trackers"] = c["lb"]["trackers"]
    if c.get("load"):
        g["load"] = c["load"]
    if c.get("bpf"):
        g["bpf"] = {k: c["bpf"][k] for k in ("wakeups", "migrations", "samples")}
        g["bpf.cgroup"] = c["bpf"]["cgroup"]
    return g


def leaves(v):
    if isinstance(v, dict):
        return sum(leaves(x) for x in v.values())
    return 1


def main(argv):
    a, b, cmp_path = argv
    runs = [json.load(open(p)) for p in (a, b)]
    c = json.load(open(cmp_path))
    n, bad = 0, 0
    for i, run in enumerate(runs):
        e, g = expect(run), got(c["runs"][i])
        for k in sorted(set(e) | set(g)):
            if e.get(k) != g.get(k):
                print("mismatch: run %d %s: expected %r, compare says %r" % (i, k, e.get(k), g.get(k)))
                bad += 1
            n += leaves(e.get(k))
    print("%d values compared" % n)
    return 1 if bad or n < 20 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
