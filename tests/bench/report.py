#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the `make bench` tables from the guest's exports.

usage: report.py VM_OUT_DIR
  bench.csv     round,config,workload,metric,value (tests/bench/guest/10-bench.sh)
  scaling.csv   one row per case (tests/bench/guest/20-scaling.sh)
  stats-ftrace0.txt / stats-ftrace1.txt   `stats` under msgbench, events off/on

Ratios are medians of per-round ratios (a configuration over "none" in the
same round), so drift between rounds cancels; medians of the raw values are
shown beside them.
"""
import csv
import glob
import math
import os
import statistics
import sys

CONFIG_DESC = {
    "none": "module not loaded",
    "noaudit": "loaded, audit off",
    "all": "loaded, everything on",
    "stats": "everything on + stats=1",
    "ftrace": "ftrace: sched_load_* events recorded",
    "bpf": "not loaded; BPF pelt-count on the 3 tracepoints",
}
METRICS = [  # (workload, metric, label, higher_is_better)
    ("msg", "msgs_per_s", "msgbench msg/s", True),
    ("lat", "rps", "bench req/s", True),
    ("lat", "p99_us", "bench p99 us", False),
]


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(v, digits=3):
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return "%.0f" % v
    return "%.*g" % (digits, v)


def print_md_table(rows):
    """rows[0] is the header; every cell a string; columns padded to width."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        print("| " + " | ".join(x.ljust(widths[j]) for j, x in enumerate(r)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def bench_table(path):
    rows = list(csv.DictReader(open(path)))
    data = {}  # (config, workload, metric) -> {round: value}
    for r in rows:
        v = num(r["value"])
        if v is not None:
            data.setdefault((r["config"], r["workload"], r["metric"]), {})[r["round"]] = v
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    rounds = sorted({r["round"] for r in rows}, key=int)
    print("## Throughput and latency by configuration (%d rounds, rotated order)" % len(rounds))
    print()
    hdr = ["configuration"]
    for _, _, label, _ in METRICS:
        hdr += [label, "ratio"]
    out = [hdr]
    ratios = {}
    for c in configs:
        line = ["%s (%s)" % (c, CONFIG_DESC.get(c, c))]
        for w, m, _, _ in METRICS:
            vals = data.get((c, w, m), {})
            base = data.get(("none", w, m), {})
            med = statistics.median(vals.values()) if vals else None
            rs = [vals[k] / base[k] for k in vals if k in base and base[k]]
            ratio = statistics.median(rs) if rs else None
            ratios[(c, m)] = (ratio, rs)
            line += [fmt(med), "%.3f" % ratio if ratio is not None else "-"]
        out.append(line)
    print_md_table(out)
    print()
    print("ratio = median over rounds of (configuration / none in the same round);")
    print("throughput: higher is better; p99: lower is better.")
    print()
    print("Per-round ratios (spread):")
    for c in configs:
        if c == "none":
            continue
        for _, m, label, _ in METRICS:
            r, rs = ratios.get((c, m), (None, []))
            if rs:
                print("  %-8s %-16s min %.3f  max %.3f  [%s]" % (
                    c, label, min(rs), max(rs), " ".join("%.3f" % x for x in rs)))
    print()
    print("Round-to-round spread of the raw values ((max - min) / median over rounds):")
    for c in configs:
        parts = []
        for w, m, label, _ in METRICS:
            vals = list(data.get((c, w, m), {}).values())
            if len(vals) > 1 and statistics.median(vals):
                parts.append("%s %.1f%%" % (label, 100 * (max(vals) - min(vals)) / statistics.median(vals)))
        if parts:
            print("  %-8s %s" % (c, ";  ".join(parts)))
    # targets
    print()
    print("Targets:")
    a = ratios.get(("all", "msgs_per_s"), (None,))[0]
    p = ratios.get(("all", "p99_us"), (None,))[0]
    f = ratios.get(("ftrace", "msgs_per_s"), (None,))[0]
    if a is not None:
        print("  everything on, msgbench throughput >= 0.98 of none: %.3f -> %s" % (a, "met" if a >= 0.98 else "NOT met"))
    if p is not None:
        print("  everything on, bench p99 <= 1.05 of none:           %.3f -> %s" % (p, "met" if p <= 1.05 else "NOT met"))
    if a is not None and f is not None:
        ca, cf = 1 - a, 1 - f
        if ca <= 0.005:
            print("  vs ftrace: module throughput cost %.1f%% (within noise), ftrace %.1f%%" % (100 * ca, 100 * cf))
        else:
            print("  vs ftrace: module throughput cost %.1f%%, ftrace %.1f%%: %.1fx cheaper" % (100 * ca, 100 * cf, cf / ca))
    b = ratios.get(("bpf", "msgs_per_s"), (None,))[0]
    if a is not None and b is not None:
        print("  vs BPF pelt-count: module throughput cost %.1f%%, BPF counting %.1f%%" % (100 * (1 - a), 100 * (1 - b)))
    for pm in ("p99_us",):
        vals = [(c, ratios.get((c, pm), (None,))[0]) for c in ("all", "ftrace", "bpf")]
        print("  bench p99 ratios: " + ", ".join("%s %s" % (c, "%.3f" % v if v is not None else "-") for c, v in vals))
    for hook in ("pelt_cfs_tp", "pelt_se_tp", "sched_update_nr_running_tp"):
        bc = data.get(("bpf", "bpfcount", hook), {})
        if bc:
            print("  BPF %s calls per visit (median): %.0f" % (hook, statistics.median(bc.values())))
    ev = data.get(("ftrace", "trace", "events_written"), {})
    if ev:
        print("  ftrace events written per visit (median): %.0f" % statistics.median(ev.values()))
    print()


def read_stats(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    lines = open(path).read().splitlines()
    hdr = lines[1].split()
    for ln in lines[2:]:
        f = ln.split()
        rows[f[0]] = dict(zip(hdr, f))
    return rows


def hook_total_us(rows):
    t = 0.0
    for name, r in rows.items():
        if name not in ("walk", "pelt_skipped", "walk_steps", "clock_pair", "#") and num(r.get("total")) is not None:
            t += float(r["total"])
    return t


def scaling_table(path, outdir):
    rows = list(csv.DictReader(open(path)))
    print("## Cost per call as the work grows (module `stats`, stats=1; every task on the last CPU)")
    print()
    cols = [("case", "case"), ("tasks", "tasks"), ("depth", "depth"), ("idle_groups", "idle groups"),
            ("budget", "walk_budget"), ("nr_running_ns", "nr_running ns/call"),
            ("walk_mean", "walk entities (mean, all CPUs)"), ("walk_max", "largest walks (entities)"), ("lb_return_ns", "audit ns/call"),
            ("lb_calls", "audit calls"), ("over_budget", "walks over budget"), ("published", "published")]
    out = [[c[1] for c in cols]]
    for r in rows:
        if r["case"].startswith("msg-"):
            continue
        b = num(r.get("walk_max_bucket"))
        r["walk_max"] = "-" if b is None else ("0" if b == 0 else "%d-%d" % (2 ** (b - 1), 2 ** b - 1))
        out.append([r.get(c[0], "-") or "-" for c in cols])
    print_md_table(out)
    print()
    s0 = read_stats(os.path.join(outdir, "stats-ftrace0.txt"))
    s1 = read_stats(os.path.join(outdir, "stats-ftrace1.txt"))
    sr = read_stats(os.path.join(outdir, "stats-refresh0.txt"))
    sx = read_stats(os.path.join(outdir, "stats-exact1.txt"))
    if s0 and sx:
        print("## Per-event cost vs exact mode under one msgbench run (stats=1)")
        print()
        out = [["hook", "calls", "ns/call", "calls (exact=1)", "ns/call (exact=1)"]]
        for h in s0:
            if h in ("pelt_skipped", "walk_steps", "clock_pair", "#"):
                continue
            g = lambda s, k: s.get(h, {}).get(k, "-")
            out.append([h if h != "walk" else "walks (mean entities)", g(s0, "calls"), g(s0, "mean"),
                        g(sx, "calls"), g(sx, "mean")])
        print_md_table(out)
        print()
        print("estimated hook time over the run: module %.0f us; exact=1 %.0f us" % (hook_total_us(s0), hook_total_us(sx)))
        print()
    if s0 and s1:
        print("## Hook cost under one msgbench run (stats=1): module, module + ftrace recording, module before the PELT refresh limit")
        print()
        print("| hook | calls | ns/call | calls (ftrace) | ns/call (ftrace) | calls (pelt_refresh_us=0) | ns/call (pelt_refresh_us=0) |")
        print("|---|---|---|---|---|---|---|")
        for h in s0:
            if h in ("walk", "pelt_skipped", "walk_steps", "clock_pair", "#"):
                continue
            g = lambda s, k: s.get(h, {}).get(k, "-")
            print("| %s | %s | %s | %s | %s | %s | %s |" % (h, g(s0, "calls"), g(s0, "mean"), g(s1, "calls"),
                                                    g(s1, "mean"), g(sr, "calls"), g(sr, "mean")))
        g = lambda s, h, k: s.get(h, {}).get(k, "-")
        print("| walks (mean entities) | %s | %s | %s | %s | %s | %s |" % (
            g(s0, "walk", "calls"), g(s0, "walk", "mean"), g(s1, "walk", "calls"), g(s1, "walk", "mean"),
            g(sr, "walk", "calls"), g(sr, "walk", "mean")))
        print("| PELT refreshes skipped | %s | | %s | | %s | |" % (
            g(s0, "pelt_skipped", "calls"), g(s1, "pelt_skipped", "calls"), g(sr, "pelt_skipped", "calls")))
        print("| clock_pair (timing floor) | | %s | | %s | | %s |" % (
            g(s0, "clock_pair", "mean"), g(s1, "clock_pair", "mean"), g(sr, "clock_pair", "mean")))
        t0, t1 = hook_total_us(s0), hook_total_us(s1)
        print()
        print("estimated hook time over the run: module %.0f us; with ftrace recording %.0f us" % (t0, t1))
        # msgbench's call counts differ from run to run: price both at the
        # recording run's calls, so only the per-call costs are compared
        own = rec = 0.0
        for h, r1 in s1.items():
            if h in ("walk", "pelt_skipped", "walk_steps", "clock_pair", "#") or num(r1.get("mean")) is None:
                continue
            c1, m1 = float(r1["calls"]), float(r1["mean"])
            m0 = num(s0.get(h, {}).get("mean")) or 0.0
            own += m0 * c1 / 1000
            rec += (m1 - m0) * c1 / 1000
        if own:
            print("at the recording run's call counts: module's own per-call cost %.0f us, recording adds %.0f us "
                  "(%.2fx the module's own; the ftrace alternative costs %.2fx the module alone)" % (own, rec, rec / own, (own + rec) / own))
        if sr:
            tr = hook_total_us(sr)
            print("before the PELT refresh limit (pelt_refresh_us=0): %.0f us" % tr)
        print()


def cost_targets(bench_csv, scaling_csv, outdir):
    """The targets table: met / not met, from this run only."""
    ratios = {}
    if bench_csv and os.path.exists(bench_csv):
        data = {}
        for r in csv.DictReader(open(bench_csv)):
            v = num(r["value"])
            if v is not None:
                data.setdefault((r["config"], r["workload"], r["metric"]), {})[r["round"]] = v
        for c in ("all", "ftrace", "bpf", "stats"):
            for w, m in (("msg", "msgs_per_s"), ("lat", "p99_us"), ("lat", "rps")):
                vals, base = data.get((c, w, m), {}), data.get(("none", w, m), {})
                rs = [vals[k] / base[k] for k in vals if k in base and base[k]]
                ratios[(c, m)] = (statistics.median(rs), len(rs)) if rs else (None, 0)
    cost = {}
    if scaling_csv and os.path.exists(scaling_csv):
        for r in csv.DictReader(open(scaling_csv)):
            cost[r["case"]] = num(r.get("nr_running_ns"))
    clk = num(read_stats(os.path.join(outdir, "stats-ftrace0.txt")).get("clock_pair", {}).get("mean"))
    print("## Targets (icount: 1 ns = 1 guest instruction)")
    print()
    out = [["what", "target", "measured", "result"]]
    a, n = ratios.get(("all", "msgs_per_s"), (None, 0))
    out.append(["everything on, msgbench throughput vs module absent", ">= 0.98",
                "%.3f (median of %d rounds)" % (a, n) if a is not None else "-",
                "-" if a is None else ("met" if a >= 0.98 else "NOT met")])
    c1, c512 = cost.get("tasks-1"), cost.get("tasks-512")
    note = " (incl. the %.0f-ns timing floor)" % clk if clk else ""
    out.append(["hook cost per event at 1 queued task (nr_running probe, stats)", "<= 250",
                "%.0f%s" % (c1, note) if c1 is not None else "-",
                "-" if c1 is None else ("met" if c1 <= 250 else "NOT met")])
    out.append(["the same at 512 queued tasks", "<= 2x the 1-task cost",
                "%.0f (%.2fx)" % (c512, c512 / c1) if c512 is not None and c1 else "-",
                "-" if c512 is None or not c1 else ("met" if c512 <= 2 * c1 else "NOT met")])
    p, n = ratios.get(("all", "p99_us"), (None, 0))
    out.append(["everything on, bench p99 vs module absent", "reported", "%.3f" % p if p is not None else "-", "reported"])
    f, _ = ratios.get(("ftrace", "msgs_per_s"), (None, 0))
    fp, _ = ratios.get(("ftrace", "p99_us"), (None, 0))
    out.append(["ftrace recording: msgbench ratio / p99 ratio", "reported",
                "%s / %s" % ("%.3f" % f if f is not None else "-", "%.3f" % fp if fp is not None else "-"), "reported"])
    e1, e512 = cost.get("exact-tasks-1"), cost.get("exact-tasks-512")
    if e1 is not None and e512 is not None:
        out.append(["exact=1 (walk on every event): cost at 1 / 512 tasks", "reported",
                    "%.0f / %.0f (%.1fx)" % (e1, e512, e512 / e1 if e1 else 0), "reported"])
    wasted_rows(out, outdir)
    print_md_table(out)
    print()


def msgbench_seconds(path):
    """The msgbench run's guest seconds from a stats copy ("# msgbench T R")."""
    if not os.path.exists(path):
        return None
    for ln in open(path).read().splitlines():
        f = ln.split()
        if len(f) >= 3 and f[0] == "#" and f[1] == "msgbench":
            return num(f[2])
    return None


def maxcall_table(path):
    """The longest hook call per case (stats=2: every call timed)."""
    rows = list(csv.DictReader(open(path)))
    print("## Longest single hook call (stats=2, every call timed; icount: ns = guest instructions)")
    print()
    print("Each case: workload first, then insmod (its walks count), run, `reset`, `enable 0`, `enable 1`.")
    print()
    out = [["case", "groups", "depth", "tasks", "hook", "calls", "mean", "max", "walks", "largest walk",
            "walk steps", "published", "over budget", "deferred", "void"]]
    for r in rows:
        out.append([r.get(k, "-") or "-" for k in ("case", "groups", "depth", "tasks", "hook", "calls", "mean",
                                                   "max", "walks", "walk_max", "steps", "published",
                                                   "over_budget", "deferred", "void")])
    print_md_table(out)
    print()


def audit_medians(outdir):
    """(cpus, config, {column: median over rounds}) from every audit-N.csv."""
    out = []
    for p in sorted(glob.glob(os.path.join(outdir, "audit-*.csv")),
                    key=lambda x: int(os.path.basename(x)[6:-4]) if os.path.basename(x)[6:-4].isdigit() else 0):
        rows = list(csv.DictReader(open(p)))
        for cfg in ("on", "off", "nocause"):
            rs = [r for r in rows if r["config"] == cfg]
            if not rs:
                continue
            v = {}
            for k in ("ns_per_attempt", "ns_per_search", "cpus_per_attempt", "ns_per_cpu", "newidle",
                      "max_newidle_cost", "attempts", "wakeup_calls", "wakeup_ns", "nr_running_ns",
                      "audit_ns_mean", "attempt_ns_mean", "cmt_calls", "cmt_ns", "newidle_timed"):
                xs = [num(r.get(k)) for r in rs if num(r.get(k)) is not None]
                v[k] = statistics.median(xs) if xs else None
            # the most over every round: a maximum, not a median
            xs = [num(r.get("audit_ns_max")) for r in rs if num(r.get("audit_ns_max")) is not None]
            v["audit_ns_max"] = max(xs) if xs else None
            # every round's attempts by the audit's time (buckets of 2^i us)
            h = []
            for r in rs:
                for i, x in enumerate((r.get("audit_us_hist") or "").split(";")):
                    if x.isdigit():
                        h += [0] * (i + 1 - len(h))
                        h[i] += int(x)
            v["audit_us_hist"] = h
            out.append((rs[0]["cpus"], cfg, v))
    return out


# two-sided 95 % quantiles of Student's t by degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
       16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042}


def hist_quantile(h, q):
    """The upper edge of the bucket that holds quantile q of the attempts, in
    us of 1,024 ns (bucket i: under 2^i x 1,024 ns); None without attempts,
    "over N" in the last bucket (the rest)."""
    n = sum(h)
    if not n:
        return None
    acc = 0
    for i, x in enumerate(h):
        acc += x
        if acc >= q * n:
            return "over %d" % (1 << (i - 1)) if i == len(h) - 1 else "under %d" % (1 << i)
    return None


def perturbation(path):
    """(cpus, ratio, lo, hi, pairs) of newidle attempts with the audit armed
    over disarmed, from one boot's interleaved windows (perturb-N.csv):
    adjacent on/off windows paired, the geometric mean of the pairs' ratios
    with a 95 % t interval; None without two pairs."""
    rows = list(csv.DictReader(open(path)))
    rows.sort(key=lambda r: int(r["window"]))
    logs = []
    for a, b in zip(rows[0::2], rows[1::2]):
        on = a if a["config"] == "on" else b
        off = b if on is a else a
        if on["config"] != "on" or off["config"] != "off":
            continue
        x, y = num(on["newidle"]), num(off["newidle"])
        if x and y:
            logs.append(math.log(x / y))
    if len(logs) < 2:
        return None
    n = len(logs)
    m = statistics.mean(logs)
    t = T95.get(n - 1) or T95[max(k for k in T95 if k <= n - 1)]
    h = t * statistics.stdev(logs) / math.sqrt(n)
    return rows[0]["cpus"], math.exp(m), math.exp(m - h), math.exp(m + h), n


def big_targets(outdir):
    """The big-machine targets: one line each, met or not met."""
    cost = {}
    p = os.path.join(outdir, "scaling.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            cost[r["case"]] = num(r.get("nr_running_ns"))
    mx = {}
    p = os.path.join(outdir, "maxcall.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            v = num(r.get("max"))
            if v is not None:
                mx[r["case"]] = max(mx.get(r["case"], 0), v)
    print("## Targets: big machines (icount: 1 ns = 1 guest instruction)")
    print()
    lines = []
    m = mx.get("cg500")
    lines.append(("max instructions per hook call at 1000 entities/500 cgroups",
                  "%.0f" % m if m is not None else "-", "<= 20000",
                  "-" if m is None else ("met" if m <= 20000 else "not met")))
    for c in ("tasks1000", "deep8", "tasks8"):
        if c in mx:
            lines.append(("max instructions per hook call, case %s" % c, "%.0f" % mx[c], "<= 20000",
                          "met" if mx[c] <= 20000 else "not met"))
    base = cost.get("tasks-1")
    for c, label in (("tasks-1", "1 task"), ("tasks-512", "512 tasks"), ("depth-1", "depth 1 (8 tasks)"),
                     ("depth-3", "depth 3 (8 tasks)"), ("depth-6", "depth 6 (8 tasks)")):
        v = cost.get(c)
        if v is None or not base:
            lines.append(("per-event mean, %s, vs depth 0 (1 task: %s)" % (label, fmt(base)), "-", "<= 2x", "-"))
            continue
        lines.append(("per-event mean, %s, vs depth 0 (1 task: %.0f)" % (label, base),
                      "%.0f (%.2fx)" % (v, v / base), "<= 2x", "met" if v <= 2 * base else "not met"))
    st = read_stats(os.path.join(outdir, "stats-ftrace0.txt"))
    secs = msgbench_seconds(os.path.join(outdir, "stats-ftrace0.txt"))
    if st and secs:
        own = sum(float(r["total"]) for h, r in st.items()
                  if h not in ("walk", "pelt_skipped", "walk_steps", "clock_pair", "#") and num(r.get("total")) is not None)
        share = own / (secs * 1e6)
        lines.append(("module's own hook time during one msgbench run (stats=1)",
                      "%.0f us of %.0f us (%.2f %%)" % (own, secs * 1e6, 100 * share), "<= 1 %",
                      "met" if share <= 0.01 else "not met"))
    else:
        lines.append(("module's own hook time during one msgbench run", "-", "<= 1 %", "-"))
    for what, meas, target, res in lines:
        print("%s  %s  target %s  %s" % (what, meas, target, res))
    audit_targets(outdir)


def audit_totals(outdir):
    """{cpus: (ns max, ns mean, attempts, probe calls, probe ns per call)} of
    the `on` visits of every audit-N.csv: the audit's time per newly idle
    attempt over every visit's attempts (max of the maxima, the mean
    weighted by attempts timed) and the can_migrate_task() probe's calls
    and time per call (weighted by calls)."""
    out = {}
    for p in glob.glob(os.path.join(outdir, "audit-*.csv")):
        rows = [r for r in csv.DictReader(open(p)) if r["config"] == "on"]
        if not rows:
            continue
        mx = [num(r.get("audit_ns_max")) for r in rows if num(r.get("audit_ns_max")) is not None]
        k = sum(num(r.get("newidle_timed")) or 0 for r in rows)
        ns = sum((num(r.get("audit_ns_mean")) or 0) * (num(r.get("newidle_timed")) or 0) for r in rows)
        c = sum(num(r.get("cmt_calls")) or 0 for r in rows)
        cns = sum((num(r.get("cmt_ns")) or 0) * (num(r.get("cmt_calls")) or 0) for r in rows)
        out[rows[0]["cpus"]] = (max(mx) if mx else None, ns / k if k else None, k,
                                c, cns / c if c else None)
    return out


def audit_targets(outdir):
    """The audit's own time, wasted_cause's probe and the newidle perturbation
    (40-audit.sh's SMP boots)."""
    med = audit_medians(outdir)
    if not med and not glob.glob(os.path.join(outdir, "perturb-*.csv")):
        return
    print("## The audit's own time (SMP boots without icount: guest-clock ns)")
    print()
    print("# single-threaded TCG runs the vCPUs in turn on one host thread and the guest clock is the")
    print("# host's: a handler's time includes other vCPUs' turns taken while it ran (upper bounds)")
    lines = []
    for cpus, cfg, v in med:
        if cfg == "on":
            lines.append(("audit cost per attempt, %s vCPUs" % cpus,
                          "%s ns/attempt (%s CPUs read, %s ns per CPU read; %s ns per search)" % (
                              fmt(v["ns_per_attempt"]), fmt(v["cpus_per_attempt"]), fmt(v["ns_per_cpu"]),
                              fmt(v["ns_per_search"])),
                          "reported", "reported"))
        if cfg == "on":
            wk, nr = v.get("wakeup_ns"), v.get("nr_running_ns")
            ratio = wk / nr if wk is not None and nr else None
            lines.append(("wakeup probe ns per call, %s vCPUs (select_task_rq_fair return, stats; %s calls)"
                          % (cpus, fmt(v.get("wakeup_calls"))),
                          "%s vs sched_update_nr_running_tp %s (%s)" % (
                              fmt(wk), fmt(nr), "%.2fx" % ratio if ratio is not None else "-"),
                          "<= 1x", "-" if ratio is None else ("met" if ratio <= 1 else "not met")))
        lines.append(("newidle attempts, %s vCPUs, %s" % (cpus, AUDIT_CFG.get(cfg, cfg)),
                      "%s per visit (max_newidle_lb_cost %s ns)" % (fmt(v["newidle"]), fmt(v["max_newidle_cost"])),
                      "reported", "reported"))
    for what, meas, target, res in lines:
        print("%s  %s  target %s  %s" % (what, meas, target, res))
    tot = audit_totals(outdir)
    for cpus in sorted(tot, key=lambda x: int(x) if x.isdigit() else 0):
        mx, mean, k, c, cns = tot[cpus]
        print("# %s vCPUs, the default module (`on` visits):" % cpus)
        print("audit time per newly idle attempt (interrupts off): max %s ns, mean %s ns (%d attempts)" % (
            "-" if mx is None else "%.0f" % mx, "-" if mean is None else "%.0f" % mean, k))
        print("can_migrate_task probe: %d calls, %s ns per call" % (c, "-" if cns is None else "%.0f" % cns))
    # the same, in the targets table's form, with the histogram's quantiles
    for cpus, cfg, v in med:
        if cfg == "on" and cpus in tot:
            mx, mean, k = tot[cpus][:3]
            h = v.get("audit_us_hist") or []
            print("audit interrupts-off time per newidle attempt, max  %s us  (reported)  %s vCPUs, "
                  "mean %s us over %d attempts, 99%% %s us, 99.9%% %s us" % (
                      "-" if mx is None else "%.1f" % (mx / 1000.0), cpus,
                      "-" if mean is None else "%.1f" % (mean / 1000.0), k,
                      hist_quantile(h, 0.99), hist_quantile(h, 0.999)))
    # wasted_cause's can_migrate_task() probe: a newly idle attempt's duration with and without it
    by = {(c, cfg): v for c, cfg, v in med}
    for cpus in sorted({c for c, _, _ in med}, key=lambda x: int(x) if x.isdigit() else 0):
        on, no = by.get((cpus, "on")), by.get((cpus, "nocause"))
        if not on or not no or on.get("attempt_ns_mean") is None or no.get("attempt_ns_mean") is None:
            continue
        d = on["attempt_ns_mean"] - no["attempt_ns_mean"]
        print("wasted_cause (can_migrate_task() probe) per newidle attempt  %+.1f us  (reported)  %s vCPUs: "
              "attempt %.1f us with, %.1f us without; %s probe calls at %s ns" % (
                  d / 1000.0, cpus, on["attempt_ns_mean"] / 1000.0, no["attempt_ns_mean"] / 1000.0,
                  fmt(on.get("cmt_calls")), fmt(on.get("cmt_ns"))))
    # the audit's perturbation of newidle balancing: interleaved windows of one boot
    for p in sorted(glob.glob(os.path.join(outdir, "perturb-*.csv"))):
        res = perturbation(p)
        if res is None:
            print("newidle attempts audit on / off  -  target 0.95..1.05  not measured (%s: fewer than "
                  "two on/off pairs)" % os.path.basename(p))
            continue
        cpus, r, lo, hi, n = res
        print("newidle attempts, audit armed / disarmed, per window: %.3f (95 %% interval %.3f-%.3f, %d windows)"
              % (r, lo, hi, 2 * n))
        verdict = "met" if 0.95 <= lo and hi <= 1.05 else \
            "not met" if hi < 0.95 or lo > 1.05 else "unresolved (%.3f..%.3f)" % (lo, hi)
        print("newidle attempts audit on / off  %.3f [%.3f..%.3f]  target 0.95..1.05  %s  "
              "(%s vCPUs, %d window pairs)" % (r, lo, hi, verdict, cpus, n))
    print()


AUDIT_CFG = {"on": "audit on", "off": "audit off", "nocause": "audit on, wasted_cause=0"}


def wasted_rows(out, outdir):
    """Wasted-core time's own cost (module/wasted.c), from the stats configuration's info and stats."""
    info = {}
    p = os.path.join(outdir, "bench-info.txt")
    if os.path.exists(p):
        for ln in open(p).read().splitlines()[2:]:
            k, _, v = ln.partition(" ")
            info[k] = v.strip()
    mean, mx = num(info.get("wasted_sample_ns_mean")), num(info.get("wasted_sample_ns_max"))
    period = num(info.get("wasted_period_us"))
    share = mean / (period * 1000.0) if mean is not None and period else None
    out.append(["wasted-core sampler: ns (= instructions) per sample, mean / max; share of one CPU at the period",
                "<= 1% of one CPU",
                "%.0f / %.0f; %.2f%% at %d us" % (mean, mx or 0, 100 * share, period) if share is not None else "-",
                "-" if share is None else ("met" if share <= 0.01 else "NOT met")])
    on = read_stats(os.path.join(outdir, "bench-stats.txt")).get("sched_update_nr_running_tp", {})
    off = read_stats(os.path.join(outdir, "bench-stats-nowasted.txt")).get("sched_update_nr_running_tp", {})
    a, b = num(on.get("mean")), num(off.get("mean"))
    out.append(["wasted-core time's hot-path share: nr_running probe ns per call with / without (wasted_period_us=0)",
                "reported", "%.0f / %.0f (+%.0f)" % (a, b, a - b) if a is not None and b is not None else "-",
                "reported"])
    cmt = read_stats(os.path.join(outdir, "bench-stats.txt")).get("wasted_cmt", {})
    out.append(["wasted-core can_migrate_task() probe: calls, mean ns per call (under the source rq lock)",
                "reported", "%s, %s" % (cmt.get("calls", "-"), cmt.get("mean", "-")), "reported"])


def cost_csv(path):
    """tests/bench/guest/25-cost.sh's rows: {(what, key): [value per round]}."""
    rows = {}
    if not os.path.exists(path):
        return rows
    for r in csv.DictReader(open(path)):
        v = num(r["value"])
        if v is not None:
            rows.setdefault((r["what"], r["key"]), []).append(v)
    return rows


def med(rows, what, key):
    v = rows.get((what, key))
    return statistics.median(v) if v else None


def line(what, value, target, ok):
    """One targets line as `make bench` prints it: a target not met says so with its number."""
    if value is None:
        print("%s  -  target %s  not measured" % (what, target))
        return
    print("%s  %s  target %s%s" % (what, value, target, "" if ok is None or ok else "  not met"))


def event_targets(outdir):
    """The cost targets, one line each, in the form the docs and the issue name them."""
    cost = {}
    p = os.path.join(outdir, "scaling.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            cost[r["case"]] = num(r.get("nr_running_ns"))
    clk = num(read_stats(os.path.join(outdir, "stats-ftrace0.txt")).get("clock_pair", {}).get("mean")) or 0
    c = cost_csv(os.path.join(outdir, "cost.csv"))
    print("## Targets: the hot path and the replay (icount: 1 ns = 1 guest instruction; "
          "probe bodies from `stats`, the %.0f-instruction timing floor subtracted)" % clk)
    print()
    for case, label in (("tasks-1", "1 task"), ("tasks-512", "512 tasks"), ("depth-6", "cgroup depth 6")):
        v = cost.get(case)
        v = None if v is None else v - clk
        line("per-event instructions at %s" % label, None if v is None else "%.0f" % v, "<= 250",
             None if v is None else v <= 250)
    # sched_switch: (pingpong with the hook - without it) / switches, and the probe body from stats=2
    tw, tn = med(c, "pp-module", "time_ns"), med(c, "pp-noswitch", "time_ns")
    sw = med(c, "pp-module", "switches")
    v = (tw - tn) / sw if tw is not None and tn is not None and sw else None
    line("sched_switch probe instructions per switch", None if v is None else "%.0f" % v, "<= 40",
         None if v is None else v <= 40)
    body, floor = med(c, "pp-stats", "sched_switch.mean"), med(c, "pp-stats", "clock_pair.mean")
    if body is not None:
        print("# the sched_switch probe's body alone (stats=2, every call timed, floor %.0f subtracted): %.0f per call"
              % (floor or 0, body - (floor or 0)))
    t0 = med(c, "pp-none", "time_ns")
    if t0 is not None and tw is not None and sw:
        print("# pingpong with the module as shipped, all hooks, against not loaded: %+.0f instructions per switch"
              % ((tw - t0) / sw))
    # module hook share: stats=1, during the msgbench run the BPF programs count too (25-cost's msg-both)
    msecs = med(c, "msg-both", "seconds")
    own = None
    if msecs:
        own = sum(v for (w, k), vals in c.items() if w == "msg-both" and k.endswith(".total_us")
                  for v in [statistics.median(vals)])
        # the timing floor is the measurement's, not the hooks': off every call
        ncalls = sum(statistics.median(vals) for (w, k), vals in c.items()
                     if w == "msg-both" and k.endswith(".calls"))
        own = max(0.0, own - ncalls * clk / 1000.0)
    share = own / (msecs * 1e6) if own is not None and msecs else None
    line("module hook share of one msgbench run", None if share is None else "%.2f%%" % (100 * share), "<= 1%",
         None if share is None else share <= 0.01)
    if share is not None:
        print("# module: %.0f us of hook time (the timing floor off every call) in a %.0f us msgbench run (%s)" % (own, msecs * 1e6, ", ".join(
            "%s %.0f calls" % (k[:-6], med(c, "msg-both", k)) for (w, k) in sorted(c) if w == "msg-both" and k.endswith(".calls"))))
    # BPF: the counting programs' own run time plus the raw_tp dispatch (empty programs on pingpong)
    hooks = ("pelt_cfs_tp", "pelt_se_tp", "sched_update_nr_running_tp")
    te = med(c, "pp-bpfempty", "time_ns")
    ecnt = sum(med(c, "pp-bpfempty", h + ".run_cnt") or 0 for h in hooks)
    disp = (te - t0) / ecnt if te is not None and t0 is not None and ecnt else None
    runt = sum(med(c, "msg-both", h + ".run_time_ns") or 0 for h in hooks)
    calls = sum(med(c, "msg-both", h + ".run_cnt") or 0 for h in hooks)
    bshare = (runt + calls * disp) / (msecs * 1e9) if disp is not None and msecs else None
    if bshare is None:
        print("bpf counting hook share of one msgbench run  -  (reported)  not measured")
    else:
        print("bpf counting hook share of one msgbench run  %.2f%%  (reported)" % (100 * bshare))
        print("# bpf, in the same run: %.0f calls, %.0f ns of program run time (%.1f per call), raw_tp dispatch %.1f per call (empty programs on pingpong)"
              % (calls, runt, runt / calls if calls else 0, disp))
    # the replay on the host (tests/bench/replay_bench.c)
    p = os.path.join(outdir, "..", "replay.txt")
    got = False
    if os.path.exists(p):
        for ln in open(p).read().splitlines():
            if ln.startswith("wasted replay ns per change at "):
                print(ln)
                got = True
    if not got:
        print("wasted replay ns per change at 256 CPUs  -  target <= 100  not measured")
        print("wasted replay ns per change at 1024 CPUs  -  target <= 100  not measured")
    s, u = med(c, "msg-wasted", "sampled_ms"), med(c, "msg-wasted", "unknown_ms")
    v = 100.0 * u / s if s else None
    line("wasted unknown share during msgbench", None if v is None else "%.2f%%" % v, "0",
         None if v is None else u == 0)
    print()


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/bench/vm-out"
    found = audit_only = False
    p = os.path.join(d, "bench.csv")
    if os.path.exists(p):
        bench_table(p)
        found = True
    p = os.path.join(d, "scaling.csv")
    if os.path.exists(p):
        scaling_table(p, d)
        found = True
    p = os.path.join(d, "maxcall.csv")
    if os.path.exists(p):
        maxcall_table(p)
        found = True
    if found:
        cost_targets(os.path.join(d, "bench.csv"), os.path.join(d, "scaling.csv"), d)
        big_targets(d)
    elif glob.glob(os.path.join(d, "audit-*.csv")) or glob.glob(os.path.join(d, "perturb-*.csv")):
        audit_targets(d)        # BENCH_SCENARIOS=40* BENCH_MAIN=0: the audit's boots alone
        audit_only = True
    if found or os.path.exists(os.path.join(d, "cost.csv")):
        event_targets(d)
        found = True
    if audit_only:
        found = True
    if not found:
        print("report: no bench.csv or scaling.csv in %s" % d)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
