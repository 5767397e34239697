#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of `make compare`: one side-by-side report across kernels.

    tests/vm/compare-report.py DIR KERNEL [KERNEL...]

DIR/KERNEL/vm-out/ holds what tests/vm/demo.sh exported from one boot of
that kernel, DEMO_ROUNDS rounds of the demo's two cases (root, nested):
run-CASE-rN.json (or run-CASE.json for a single round), the bench's own
JSON embedded in each (run --result).  The numbers of each round are the
ones `make demo` prints (`sched-shadow compare --json`, the CLI given by
$SCHED_SHADOW, default build/sched-shadow); this adds the rounds up into a
median and a spread [min-max] per kernel and case, and the nested/root
penalty per kernel (the median of the per-round ratios).  The report goes
to stdout and to DIR/report.txt.  The kernel release is read from
$CACHE/KERNEL.env (CACHE default /var/cache/sched_shadow) and the boot's
wall time from DIR/KERNEL/wall_s when present.  Exits 1 when a kernel has
no complete round (after printing what it could).
"""
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("SCHED_SHADOW", os.path.join(HERE, "..", "..", "build", "sched-shadow"))

CASES = ("root", "nested")
W = 24


def release(kernel):
    env = os.path.join(os.environ.get("CACHE", "/var/cache/sched_shadow"), kernel + ".env")
    try:
        with open(env) as fh:
            m = re.search(r"^VM_RELEASE=(\S+)", fh.read(), re.M)
            return m.group(1) if m else "?"
    except OSError:
        return "?"


def rounds_of(vout):
    """Round suffixes present in vm-out: ['-r1', '-r2', ...] or ['']."""
    try:
        names = os.listdir(vout)
    except OSError:
        return []
    sfx = sorted({m.group(1) for m in (re.match(r"run-root(-r\d+)\.json$", n) for n in names) if m},
                 key=lambda s: int(s[2:]))
    if sfx:
        return sfx
    return [""] if "run-root.json" in names else []


def extra_counts(r):
    """Verdict reasons and other counters the audit may add to the run
    JSON's lb section (anything numeric outside verdicts/rows), flattened
    to name -> count; empty on a CLI without them."""
    out = {}
    lb = r.get("lb") or {}
    if not lb.get("available"):
        return out

    def walk(prefix, v):
        if isinstance(v, bool):
            return
        if isinstance(v, (int, float)):
            out[prefix] = v
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(prefix + "." + k if prefix else k, x)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict) and "reason" in x and "count" in x:
                    key = ".".join(str(x[k]) for k in ("verdict", "reason") if k in x)
                    out[key] = out.get(key, 0) + x["count"]
    for k, v in lb.items():
        if k in ("available", "reason", "verdicts", "rows"):
            continue
        walk(k, v)
    return out


def load_json(path, what):
    """The parsed file, or None after saying why (missing or malformed)."""
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError) as e:
        print("compare-report: %s missing or malformed: %s" % (what, e))
        return None


def facts(run):
    """One run of `sched-shadow compare --json`, in the shape METRICS reads."""
    res = run.get("result") or {}
    return {"bench": res.get("latency_us"), "rps": res.get("rps"), "params": res.get("params"),
            "bpf": run.get("bpf"), "lb": (run.get("lb") or {}).get("verdicts"),
            "cpus": run.get("load"), "note": run.get("note")}


def load_kernel(ddir, kernel):
    """[(round, {case: facts}, {case: extra counts})] of the complete rounds."""
    vout = os.path.join(ddir, kernel, "vm-out")
    got = []
    for sfx in rounds_of(vout):
        paths = [os.path.join(vout, "run-%s%s.json" % (c, sfx)) for c in CASES]
        p = subprocess.run([CLI, "compare", "--json"] + paths, stdout=subprocess.PIPE, universal_newlines=True)
        if p.returncode:
            print("compare-report: %s%s: sched-shadow compare failed (exit %d)" % (kernel, sfx, p.returncode))
            continue
        runs = json.loads(p.stdout)["runs"]
        F = {c: facts(r) for c, r in zip(CASES, runs)}
        X = {c: extra_counts(load_json(path, "run report") or {}) for c, path in zip(CASES, paths)}
        got.append((sfx or "-r1", F, X))
    return got


def get(f, *path):
    for p in path:
        if f is None:
            return None
        f = f.get(p) if isinstance(f, dict) else None
    return f


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def summary(vals, fmt):
    """median [min-max] of the rounds' values (None dropped)."""
    v = [x for x in vals if x is not None]
    if not v:
        return "-"
    med = fmt % statistics.median(v)
    if len(v) == 1:
        return med
    return "%s [%s-%s]" % (med, fmt % min(v), fmt % max(v))


# (label, function of one case's facts, format)
METRICS = [
    ("bench wakeup latency (us), bench's own", None, None),
    ("  p50", lambda f: get(f, "bench", "p50"), "%.0f"),
    ("  p99", lambda f: get(f, "bench", "p99"), "%.0f"),
    ("  p99.9", lambda f: get(f, "bench", "p99_9"), "%.0f"),
    ("  max", lambda f: get(f, "bench", "max"), "%.0f"),
    ("  requests/s", lambda f: f["rps"], "%.0f"),
    ("bench's cgroup, BPF (us; log2 buckets)", None, None),
    ("  p99", lambda f: get(f, "bpf", "latency_us", "p99"), "%.0f"),
    ("  migrations", lambda f: get(f, "bpf", "migrations"), "%.0f"),
    ("lb verdicts (actual, idle+newidle)", None, None),
    ("  judged calls", lambda f: get(f, "lb", "calls"), "%.0f"),
    ("  right", lambda f: get(f, "lb", "right"), "%.0f"),
    ("  wrong", lambda f: get(f, "lb", "wrong"), "%.0f"),
    ("  missed", lambda f: get(f, "lb", "missed"), "%.0f"),
    ("  none", lambda f: get(f, "lb", "none"), "%.0f"),
    ("  void", lambda f: get(f, "lb", "void"), "%.0f"),
    ("  wrong+missed per 1000 judged",
     lambda f: None if not get(f, "lb", "calls") else
     1000.0 * ((get(f, "lb", "wrong") or 0) + (get(f, "lb", "missed") or 0)) / f["lb"]["calls"], "%.1f"),
    ("load, summed over CPUs (1024 = one task)", None, None),
    ("  shadow_mean", lambda f: get(f, "cpus", "shadow_mean"), "%.0f"),
    ("  real_mean (kernel load_avg)", lambda f: get(f, "cpus", "real_mean"), "%.0f"),
    ("  real / shadow", lambda f: ratio(get(f, "cpus", "real_mean"), get(f, "cpus", "shadow_mean")), "%.2f"),
]


def report(ddir, kernels, data):
    o = []
    rel = {k: release(k) for k in kernels}

    def line(label, cells):
        o.append("%-36s" % label + "".join(" %*s" % (W, c) for c in cells))

    o.append("== sched_shadow compare: root vs nested cgroup, per kernel "
             "(median [min-max] over rounds) ==")
    for k in kernels:
        wall = None
        try:
            with open(os.path.join(ddir, k, "wall_s")) as fh:
                wall = fh.read().strip()
        except OSError:
            pass
        o.append("%s: %s, %d complete round(s)%s" % (k, rel[k], len(data[k]),
                                                      ", boot wall time %s s" % wall if wall else ""))
    line("", [("%s %s" % (k, c)) for k in kernels for c in CASES])
    line("", [rel[k][:W] for k in kernels for c in CASES])
    for label, fn, fmt in METRICS:
        if fn is None:
            o.append(label)
            continue
        cells = []
        for k in kernels:
            for c in CASES:
                cells.append(summary([fn(F[c]) for _, F, _ in data[k]], fmt))
        if all(x == "-" for x in cells) and label.strip() == "void":
            continue
        line(label, cells)

    # reasons (or any counter the audit adds), when the run JSON has them
    keys = sorted({x for k in kernels for _, _, X in data[k] for c in CASES for x in X[c]})
    if keys:
        o.append("lb counters beyond the verdicts (audit reasons, from the run JSON)")
        for key in keys:
            line("  " + key[:34], [summary([X[c].get(key) for _, _, X in data[k]], "%.0f")
                                   for k in kernels for c in CASES])

    o.append("")
    o.append("nested-cgroup penalty: nested / root, per round, then the median [min-max]")
    for lab, path in (("bench p99", ("bench", "p99")), ("bench p99.9", ("bench", "p99_9")),
                      ("bench p50", ("bench", "p50")), ("requests/s", ("rps",))):
        cells = []
        for k in kernels:
            v = [ratio(get(F["nested"], *path), get(F["root"], *path)) for _, F, _ in data[k]]
            cells.append(summary(v, "%.2f"))
        o.append("%-36s" % ("  " + lab) + "".join(" %*s" % (2 * W + 1, "%s: %s" % (k, c))
                                                   for k, c in zip(kernels, cells)))
    return o


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 2 or not os.path.isdir(argv[0]):
        print("usage: compare-report.py DIR KERNEL [KERNEL...] (DIR: an existing directory)", file=sys.stderr)
        return 2
    ddir, kernels = argv[0], argv[1:]
    data = {k: load_kernel(ddir, k) for k in kernels}
    bad = 0
    for k in kernels:
        if not data[k]:
            print("compare-report: %s: no complete round in %s" % (k, os.path.join(ddir, k, "vm-out")))
            bad = 1
    params = None
    setup = []
    for k in kernels:
        for _, F, _ in data[k][:1]:
            q = F["root"]["params"]
            if q:
                params = "bench: %d message threads x %d workers, burn %d us, sleep %d us, %g s" % (
                    q["message_threads"], q["workers"], q["burn_us"], q["sleep_us"], q["duration_s"])
            setup = ["%s: %s" % (c, F[c]["note"]) for c in CASES if F[c]["note"]]
        if params:
            break
    out = report(ddir, kernels, data)
    out[1:1] = (["workload: " + params] if params else []) + setup
    with open(os.path.join(ddir, "report.txt"), "w") as fh:
        fh.write("\n".join(out) + "\n")
    print("\n".join(out))
    print()
    print("report: %s" % os.path.join(ddir, "report.txt"))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
