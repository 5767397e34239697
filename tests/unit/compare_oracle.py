#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent check of `sched-shadow compare --json`.

    tests/unit/compare_oracle.py A.json B.json COMPARE.json
    tests/unit/compare_oracle.py COMPARE.json A1.json [A2.json ...] -- B1.json [...]

(a file may hold several runs, one document a line).
Recomputes, from the two `run --json` reports alone, every number the
comparison gives for each run (verdict totals, attempts per
verdict/reason, each tracker's right/wrong/agree, the load sums and the
gap split, the BPF numbers of the command's cgroup, the embedded result)
and compares; then, for the rows of numbers, that each run's value of
the rows it knows (the bench's percentiles and requests/s, the headline,
the verdict totals, the command's total wait) is that run's, that the
median, min and max are those of the values, and that a difference is
called exactly when the two sides' ranges do not overlap (`within noise`
otherwise, no call with one run on a side).  Prints "N values compared"
and each mismatch; exits 1 on any mismatch or when nothing was compared.
"""
import json
import statistics
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


def row_value(run, title, label):
    """The value a compare row should hold for this run, or KeyError when not known here."""
    res = run.get("result")
    doc = res["document"] if res and res["available"] else None
    if title.startswith("wakeup latency, bench's own"):
        if doc is None:
            return None
        if label == "requests/s":
            return doc["rps"]
        key = {"p50": "p50", "p90": "p90", "p99": "p99", "p99.9": "p99_9", "max": "max"}.get(label)
        if key:
            return doc["latency_us"][key]
    if title.startswith("balancing attempts") and label.startswith("headline: unexplained "):
        att = run["lb"].get("attempts")
        return att["unexplained_" + label.split()[-1]] if att else None
    if title.startswith("load-balancer verdicts") and run["lb"]["available"]:
        names = {"judged calls": "calls", "right": "right", "wrong": "wrong", "missed": "missed",
                 "none": "none", "void": "void", "busy calls (not judged)": "busy_calls"}
        return verdicts(run["lb"])[names[label]]
    if title.startswith("run-queue wait") and label == "total wait":
        w = run.get("wasted")
        rows = [r for r in (w or {}).get("cgroups") or [] if r["path"] == "(tracked)"]
        return rows[0]["wait_ms"] if rows else None
    raise KeyError(label)


def check_rows(c, sides):
    """sides: the runs (documents) of each side, in the order compare read them."""
    n, bad = 0, 0
    for row in c["rows"]:
        if "values" not in row:
            continue
        vals = row["values"]
        for s in (0, 1):
            if len(vals[s]) != len(sides[s]):
                print("mismatch: %s: side %d has %d values for %d runs" % (row["label"], s, len(vals[s]), len(sides[s])))
                bad += 1
                continue
            for i, run in enumerate(sides[s]):
                try:
                    want = row_value(run, row["title"] or "", row["label"])
                except KeyError:
                    continue
                n += 1
                if want is None and vals[s][i] is None:
                    continue
                if want is None or vals[s][i] is None or abs(want - vals[s][i]) > 1e-6 * max(1, abs(want)):
                    print("mismatch: %s: side %d run %d: expected %r, compare says %r" % (row["label"], s, i, want, vals[s][i]))
                    bad += 1
        have = [[v for v in vals[s] if v is not None] for s in (0, 1)]
        for s in (0, 1):
            want = (statistics.median(have[s]), min(have[s]), max(have[s])) if have[s] else (None, None, None)
            got_ = (row["median"][s], row["min"][s], row["max"][s])
            n += 3
            if any((w is None) != (g is None) or (w is not None and abs(w - g) > 1e-6 * max(1, abs(w))) for w, g in zip(want, got_)):
                print("mismatch: %s: side %d median/min/max expected %r, compare says %r" % (row["label"], s, want, got_))
                bad += 1
        if row["call"] is None:
            continue
        n += 1
        if min(len(h) for h in have) < 2:
            want = "one run: no spread"
        elif min(have[1]) > max(have[0]):
            want = "higher"
        elif max(have[1]) < min(have[0]):
            want = "lower"
        else:
            want = "within noise"
        d = statistics.median(have[1]) - statistics.median(have[0])
        if row["call"] != want or abs(row["difference"] - d) > 1e-6 * max(1, abs(d)):
            print("mismatch: %s: call expected %s %r, compare says %s %r" % (row["label"], want, d, row["call"], row["difference"]))
            bad += 1
    return n, bad


def docs(path):
    """The documents of a file (run --repeat N -j writes one a line)."""
    text, dec, pos, out = open(path).read(), json.JSONDecoder(), 0, []
    while pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos < len(text):
            d, pos = dec.raw_decode(text, pos)
            out.append(d)
    return out


def main(argv):
    if "--" in argv:
        cmp_path, files = argv[0], argv[1:]
        k = files.index("--")
        paths = [files[:k], files[k + 1:]]
    else:
        a, b, cmp_path = argv
        paths = [[a], [b]]
    sides = [[d for p in ps for d in docs(p)] for ps in paths]
    runs = sides[0] + sides[1]
    c = json.load(open(cmp_path))
    n, bad = 0, 0
    if len(c["runs"]) != len(runs):
        print("mismatch: %d runs in compare, %d files" % (len(c["runs"]), len(runs)))
        return 1
    for i, run in enumerate(runs):
        e, g = expect(run), got(c["runs"][i])
        for k in sorted(set(e) | set(g)):
            if e.get(k) != g.get(k):
                print("mismatch: run %d %s: expected %r, compare says %r" % (i, k, e.get(k), g.get(k)))
                bad += 1
            n += leaves(e.get(k))
    rn, rbad = check_rows(c, sides)
    calls = sorted(set(r["call"] for r in c["rows"] if r.get("call")))
    print("%d values compared (rows: %d; calls: %s)" % (n + rn, rn, ", ".join(calls) or "none"))
    return 1 if bad or rbad or n < 20 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
