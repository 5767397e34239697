#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of `make demo`: render what the guest exported.

    tests/vm/demo-report.py [--cli build/sched-shadow] [--no-plot] [DEMO_DIR]

DEMO_DIR (default build/demo) holds vm-out/ with, for each case (root,
nested), run-CASE.json (`sched-shadow run --json`), bench-CASE.json (the
bench's own --json), demo-CASE.csv (`sched-shadow record`) and
demo-setup.txt (where the bench and the sibling load ran, one line a case)
and CASE.perfetto-trace (`run --perfetto`, copied to DEMO_DIR).  Prints
each run's text report (rendered from its JSON in the layout of
`sched-shadow run`'s text output; the guest ran each case once, with
--json), then one side-by-side comparison, root vs nested, which also goes
to DEMO_DIR/report.txt; the text reports go to DEMO_DIR/run-CASE.txt.
With the CLI given, plots each recording to
DEMO_DIR/shadow-vs-real-CASE.png.  Exits 1 when an input is missing or
malformed (after printing what it could).
"""
import json
import os
import shutil
import subprocess
import sys

CASES = ("root", "nested")
PCTS = (("p50", "p50"), ("p90", "p90"), ("p99", "p99"), ("p99.9", "p99_9"), ("max", "max"))
TRACKERS = ("actual", "kernel", "shadow", "shadow_avg", "weight", "nr", "h_load")


def load_json(path, what):
    """The parsed file, or None after saying why (missing or malformed)."""
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError) as e:
        print("demo-report: %s missing or malformed: %s" % (what, e))
        return None


def table(header, rows, right=None):
    """Aligned like userspace/cli/table.c: numeric columns right-aligned."""
    rows = [["-" if c is None else str(c) for c in r] for r in rows]
    cols = len(header)

    def numeric(s):
        t = s.lstrip("+-")
        return s == "-" or (any(ch.isdigit() for ch in t) and all(ch.isdigit() or ch in ".%e" for ch in t))

    wid = [max([len(header[c])] + [len(r[c]) for r in rows]) for c in range(cols)]
    if right is None:
        right = [bool(rows) and all(numeric(r[c]) for r in rows) for c in range(cols)]
    out = []
    for r in [header] + rows:
        cells = []
        for c in range(cols):
            s = r[c]
            cells.append(s.rjust(wid[c]) if right[c] else (s if c == cols - 1 else s.ljust(wid[c])))
        out.append("  ".join(cells).rstrip())
    return out


def fmt1(v):
    return "-" if v is None else "%.1f" % v


# ------------------------------------------------------------ run text report

def render_run(r):
    """The text report `sched-shadow run` prints, from its --json (report*.c)."""
    o = ["sched-shadow run report", "command: " + " ".join(r["cmd"]),
         "exit status %d, wall time %.2f s" % (r["exit_status"], r["wall_s"])]
    cg = r.get("cgroup")
    if cg:
        extra = ""
        if cg["created"]:
            extra = ", created and removed" if cg["removed"] else ", created, NOT removed"
        o.append("cgroup: %s (id %d)%s" % (cg["path"], cg["id"], extra))
        if cg.get("note"):
            o.append("cgroup note: " + cg["note"])
    m = r["module"]
    if m["loaded"]:
        o.append("module: loaded" + (", counters reset at start" if m["reset"] else "; " + (m["reason"] or "")))
    else:
        o.append("module: %s (report uses BPF and /proc/schedstat only)" % m["reason"])
    b = r["bpf"]
    if not b["requested"]:
        o.append("bpf: disabled (--no-bpf)")
    elif b["available"]:
        o.append("bpf: wakeup latency collected")
    else:
        o.append("bpf: not available: %s" % b["reason"])

    o += ["", "== load-balancer audit (module lb table, since reset) =="]
    lb = r["lb"]
    if lb["available"]:
        v = lb["verdicts"]
        o.append("verdicts (actual, idle+newidle): calls %d right %d wrong %d missed %d none %d; busy calls %d"
                 % (v["calls"], v["right"], v["wrong"], v["missed"], v["none"], v["busy_calls"]))
        o.append("# counts of find_busiest_group calls; judged (idle, newidle): "
                 "calls = right + wrong + missed + none; busy: calls seen only")
        o.append("# '-' = not available")
        cols = ["domain", "idle", "tracker", "calls", "right", "wrong", "missed", "none", "void", "agree"]
        o += table(cols, [[row.get(c) for c in cols] for row in lb["rows"]],
                   right=[False] * 3 + [True] * 7)
        att = lb.get("attempts")
        if att:
            o += ["", "== balancing attempts (module lb_attempts: one verdict per attempt, with its reason) ==",
                  "headline: unexplained wrong %d, unexplained missed %d"
                  % (att["unexplained_wrong"], att["unexplained_missed"])]
            cols = ["domain", "idle", "verdict", "reason", "attempts", "redos", "moved", "active"]
            o += table(cols, [[row[c] for c in cols] for row in att["rows"] if row["attempts"]],
                       right=[False] * 4 + [True] * 4)
    else:
        o.append("lb audit not available: %s" % lb["reason"])

    o += ["", "== shadow vs real load per CPU (module, since reset; load units) =="]
    cp = r["cpus"]
    if cp["available"]:
        cols = ["cpu", "shadow_mean", "real_mean", "div_mean", "div_max", "fresh_mean", "h_load_mean"]
        o += table(cols, [[row.get(c) for c in cols] for row in cp["rows"]])
    else:
        o.append("not available: %s" % cp["reason"])

    o += ["", "== wakeup latency per cgroup (BPF) =="]
    if not b["requested"]:
        o.append("not collected: --no-bpf")
    elif not b["available"]:
        o.append("not available: %s" % b["reason"])
    else:
        o.append("log2 histogram: each percentile is interpolated inside its power-of-two")
        o.append("bucket, so it is exact only to within a factor of 2 (max is exact)")
        rows = []
        for c in b["cgroups"]:
            if not (c["wakeups"] or c["samples"] or c["migrations"]):
                continue
            L = c["latency_us"]
            rows.append([c["path"] or "cgid:%d" % c["id"], c["wakeups"], c["migrations"], c["samples"]]
                        + [fmt1(L[k]) if c["samples"] else "-" for _, k in PCTS])
        o += table(["cgroup", "wakeups", "migrations", "samples", "p50_us", "p90_us", "p99_us",
                    "p99.9_us", "max_us"], rows[:20])
        d = b["drops"]
        if d["pending_full"] or d["cgroup_full"] or d["negative"]:
            o.append("drops: %d wakeups (pending map full), %d events (cgroup map full), %d negative deltas"
                     % (d["pending_full"], d["cgroup_full"], d["negative"]))

    o += ["", "== /proc/schedstat load-balance deltas over the run (cross-check) =="]
    s = r["schedstat"]
    if s["available"]:
        o.append("schedstat version %d, %d jiffies%s%s%s" % (
            s["version"], s["jiffies"],
            "; kernel.sched_schedstats switched on for the run" if s["enabled_by_run"] else "",
            "; sched domains changed during the run" if s["reshaped"] else "",
            "; some counters went backwards (shown as 0)" if s["wrapped"] else ""))
        if s.get("note"):
            o.append("note: " + s["note"])
        cols = ["domain", "cpus", "idle", "lb_count", "lb_balanced", "lb_failed", "lb_imbalance",
                "lb_gained", "lb_nobusyg", "lb_nobusyq"]
        o += table(cols, [[d[c] for c in cols] for d in s["domains"]])
    else:
        o.append("not available: %s" % s["reason"])
    return o


# ------------------------------------------------------------ side by side

def bench_cgroup(r):
    cg = r.get("cgroup")
    return cg["path"] if cg else "/"


def facts(r, b):
    """The numbers compared, from one run report and its bench's JSON."""
    f = {"cgroup": bench_cgroup(r)}
    f["bench"] = b["latency_us"] if b else None
    f["rps"] = b["rps"] if b else None
    f["requests"] = b["requests"] if b else None
    f["skipped"] = b["skipped"] if b else None
    f["bpf"] = None
    if r["bpf"]["available"]:
        f["bpf"] = next((c for c in r["bpf"]["cgroups"] if c["path"] == f["cgroup"]), None)
    f["lb"] = r["lb"]["verdicts"] if r["lb"]["available"] else None
    f["trackers"] = {}
    if r["lb"]["available"]:
        rows = r["lb"]["rows"]
        dom = "all" if any(x["domain"] == "all" for x in rows) else None
        for t in TRACKERS:
            acc = {"calls": 0, "right": 0, "wrong": 0, "missed": 0, "none": 0, "void": 0, "agree": 0}
            for x in rows:
                if x["tracker"] != t or x["idle"] == "busy" or (dom and x["domain"] != dom):
                    continue
                for k in acc:
                    acc[k] += x.get(k) or 0
            f["trackers"][t] = acc
    # balancing attempts per verdict/reason, all domains, idle + newidle
    f["attempts"] = None
    att = r["lb"].get("attempts") if r["lb"]["available"] else None
    if att:
        f["attempts"] = {"unexplained_wrong": att["unexplained_wrong"],
                         "unexplained_missed": att["unexplained_missed"], "rows": {}}
        for x in att["rows"]:
            if x["domain"] != "all" or x["idle"] == "busy" or not x["attempts"]:
                continue
            k = x["verdict"] + "/" + (x["reason"] or "-")
            f["attempts"]["rows"][k] = f["attempts"]["rows"].get(k, 0) + x["attempts"]
    f["cpus"] = None
    if r["cpus"]["available"]:
        rows = [x for x in r["cpus"]["rows"] if x["shadow_mean"] is not None]
        f["cpus"] = {k: sum(x.get(k) or 0 for x in rows)
                     for k in ("shadow_mean", "real_mean", "div_mean", "fresh_mean", "h_load_mean")}
        f["cpus"]["n"] = len(rows)
    f["wall_s"] = r["wall_s"]
    return f


def side_by_side(F, bench_params, setup):
    W = 22
    o = []

    def line(label, a, b):
        o.append("%-34s %*s %*s" % (label, W, a, W, b))

    def g(f, *path):
        for p in path:
            if f is None:
                return None
            f = f[p] if isinstance(f, dict) else None
        return f

    def num(v, fmt="%d"):
        return "-" if v is None else fmt % v

    o.append("== sched_shadow demo: root vs nested cgroup, side by side ==")
    if bench_params:
        o.append("bench: %s" % bench_params)
    o += setup
    line("", "root", "nested")
    line("bench's cgroup", F[0]["cgroup"], F[1]["cgroup"])
    line("run wall time (s)", num(F[0]["wall_s"], "%.1f"), num(F[1]["wall_s"], "%.1f"))
    o.append("")
    o.append("wakeup latency, bench's own (us; exact < 1 ms, else within 0.8%)")
    for lab, k in PCTS:
        line("  " + lab, num(g(F[0], "bench", k)), num(g(F[1], "bench", k)))
    line("  requests/s", num(F[0]["rps"], "%.0f"), num(F[1]["rps"], "%.0f"))
    line("  requests (skipped: worker busy)",
         "-" if F[0]["requests"] is None else "%d (%d)" % (F[0]["requests"], F[0]["skipped"]),
         "-" if F[1]["requests"] is None else "%d (%d)" % (F[1]["requests"], F[1]["skipped"]))
    o.append("wakeup latency of the bench's cgroup, BPF (us; log2 buckets: within 2x, max exact)")
    for lab, k in PCTS:
        line("  " + lab, num(g(F[0], "bpf", "latency_us", k), "%.1f"), num(g(F[1], "bpf", "latency_us", k), "%.1f"))
    line("  wakeups / migrations",
         "-" if F[0]["bpf"] is None else "%d / %d" % (F[0]["bpf"]["wakeups"], F[0]["bpf"]["migrations"]),
         "-" if F[1]["bpf"] is None else "%d / %d" % (F[1]["bpf"]["wakeups"], F[1]["bpf"]["migrations"]))
    o.append("")
    o.append("load-balancer verdicts (actual pick, idle+newidle, all domains)")
    for k in ("calls", "right", "wrong", "missed", "none"):
        line("  " + ("judged calls" if k == "calls" else k), num(g(F[0], "lb", k)), num(g(F[1], "lb", k)))
    line("  busy calls (not judged)", num(g(F[0], "lb", "busy_calls")), num(g(F[1], "lb", "busy_calls")))
    if F[0].get("attempts") or F[1].get("attempts"):
        o.append("balancing attempts (one verdict each, idle+newidle, all domains): verdict/reason")
        ga = lambda f, k: "-" if not f.get("attempts") else str(f["attempts"][k])
        line("  headline: unexplained wrong", ga(F[0], "unexplained_wrong"), ga(F[1], "unexplained_wrong"))
        line("  headline: unexplained missed", ga(F[0], "unexplained_missed"), ga(F[1], "unexplained_missed"))
        keys = sorted(set(k for f in F if f.get("attempts") for k in f["attempts"]["rows"]))
        for k in keys:
            line("  " + k, *[str(f["attempts"]["rows"].get(k, 0)) if f.get("attempts") else "-" for f in F])
    o.append("what each tracker would have picked: right/wrong (agree with actual)")
    for t in TRACKERS:
        def cell(f):
            a = f["trackers"].get(t)
            if not a:
                return "-"
            return "%d/%d" % (a["right"], a["wrong"]) + ("" if t == "actual" else " (%d)" % a["agree"])
        line("  " + t, cell(F[0]), cell(F[1]))
    o.append("")
    o.append("load, time-weighted means since reset, summed over CPUs (1024 = one nice-0 task)")
    for k, lab in (("shadow_mean", "shadow_mean"), ("real_mean", "real_mean (kernel load_avg)"),
                   ("div_mean", "div_mean |shadow - real|")):
        line("  " + lab, num(g(F[0], "cpus", k)), num(g(F[1], "cpus", k)))

    def ratio(f):
        c = f["cpus"]
        return "-" if not c or not c["shadow_mean"] else "%.2f" % (c["real_mean"] / c["shadow_mean"])
    line("  real / shadow", ratio(F[0]), ratio(F[1]))
    # the gap real - shadow split: staleness of the waiting tasks' load_avg
    # (shadow_fresh - shadow) and blocked load (real - shadow_fresh)
    for k, lab in (("fresh_mean", "shadow_fresh_mean (projected to now)"),
                   ("h_load_mean", "h_load_mean (sum of task_h_load)")):
        line("  " + lab, num(g(F[0], "cpus", k)), num(g(F[1], "cpus", k)))

    def split(f, part):
        c = f["cpus"]
        gap = c["real_mean"] - c["shadow_mean"] if c else 0
        if not c or gap <= 0 or not c.get("fresh_mean"):
            return "-"
        stale = c["fresh_mean"] - c["shadow_mean"]
        v = stale if part == "stale" else gap - stale
        return "%d (%.0f%%)" % (v, 100.0 * v / gap)
    line("  gap: staleness (fresh - shadow)", split(F[0], "stale"), split(F[1], "stale"))
    line("  gap: blocked load (real - fresh)", split(F[0], "blocked"), split(F[1], "blocked"))
    return o


def main(argv):
    cli = None
    plot = True
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--cli":
            cli = argv[i + 1]
            i += 2
            continue
        if argv[i] == "--no-plot":
            plot = False
        elif argv[i] in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            args.append(argv[i])
        i += 1
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ddir = args[0] if args else os.path.join(top, "build", "demo")
    vout = os.path.join(ddir, "vm-out")
    for f in (["report.txt"] + ["run-%s.txt" % c for c in CASES] + ["shadow-vs-real-%s.png" % c for c in CASES]
              + ["%s.perfetto-trace" % c for c in CASES]):
        try:
            os.unlink(os.path.join(ddir, f))
        except FileNotFoundError:
            pass

    bad = 0
    runs, benches = [], []
    for c in CASES:
        r = load_json(os.path.join(vout, "run-%s.json" % c), "%s: run report" % c)
        b = load_json(os.path.join(vout, "bench-%s.json" % c), "%s: bench JSON" % c)
        if r is None or b is None:
            bad = 1
        runs.append(r)
        benches.append(b)

    for c, r in zip(CASES, runs):
        if r is None:
            continue
        try:
            text = render_run(r)
        except (KeyError, TypeError) as e:
            print("demo-report: %s: run report lacks %r" % (c, e))
            bad = 1
            continue
        with open(os.path.join(ddir, "run-%s.txt" % c), "w") as fh:
            fh.write("\n".join(text) + "\n")
        print("\n######## %s: the run's report (text rendering of run-%s.json) ########" % (c, c))
        print("\n".join(text))

    if all(runs):
        try:
            F = [facts(r, b) for r, b in zip(runs, benches)]
            p = next((x["params"] for x in benches if x), None)
            params = None
            if p:
                params = "-m %d -t %d -C %d -s %d -d %g (message threads, workers each, burn us, sleep us, s)" % (
                    p["message_threads"], p["workers"], p["burn_us"], p["sleep_us"], p["duration_s"])
            setup = []
            try:
                with open(os.path.join(vout, "demo-setup.txt")) as fh:
                    setup = [x.rstrip("\n") for x in fh if x.strip()]
            except OSError:
                pass
            sbs = side_by_side(F, params, setup)
        except (KeyError, TypeError) as e:
            print("demo-report: a report lacks %r" % (e,))
            return 1
        with open(os.path.join(ddir, "report.txt"), "w") as fh:
            fh.write("\n".join(sbs) + "\n")
        print()
        print("\n".join(sbs))

    if plot and cli:
        for c in CASES:
            csv = os.path.join(vout, "demo-%s.csv" % c)
            png = os.path.join(ddir, "shadow-vs-real-%s.png" % c)
            if not os.path.exists(csv):
                print("demo-report: no recording %s" % csv)
                bad = 1
                continue
            sys.stdout.flush()
            # relative input: the plot's title is the CSV's name
            rc = subprocess.call([os.path.abspath(cli), "plot", os.path.basename(csv), "-o",
                                  os.path.abspath(png)], cwd=vout)
            if rc:
                print("demo-report: plot of %s failed (exit %d)" % (csv, rc))
                bad = 1
    for c in CASES:
        tr = os.path.join(vout, "%s.perfetto-trace" % c)
        if os.path.exists(tr):
            shutil.copyfile(tr, os.path.join(ddir, "%s.perfetto-trace" % c))
        else:
            print("demo-report: no Perfetto trace %s" % tr)
            bad = 1
    print()
    print("report: %s" % os.path.join(ddir, "report.txt"))
    print("Perfetto traces (open at https://ui.perfetto.dev): %s" %
          " ".join(os.path.join(ddir, "%s.perfetto-trace" % c) for c in CASES))
    print("text reports: %s" % " ".join(os.path.join(ddir, "run-%s.txt" % c) for c in CASES))
    if plot and cli:
        print("plots: %s" % " ".join(os.path.join(ddir, "shadow-vs-real-%s.png" % c) for c in CASES))
    print("raw: %s/{run,bench}-{root,nested}.json, demo-{root,nested}.csv" % vout)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
