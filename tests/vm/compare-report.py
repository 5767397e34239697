#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of `make compare`: one side-by-side report across kernels.

    tests/vm/compare-report.py [--settings 'SETTING ...'] DIR KERNEL [KERNEL...]

DIR/KERNEL/vm-out/ holds what tests/vm/demo.sh exported from one boot of
that kernel, DEMO_ROUNDS rounds of the demo's two cases (root, nested):
run-CASE-rN.json (or run-CASE.json for a single round), the bench's own
JSON embedded in each (run --result).  The numbers of each round are the
ones `make demo` prints (`sched-shadow compare --json`, the CLI given by
$SCHED_SHADOW, default build/sched-shadow); this adds the rounds up into a
median and a spread [min-max] per kernel and case, and the nested/root
penalty per kernel (the median of the per-round ratios).  The report goes
to stdout and to DIR/report.txt.

With --settings (make compare COMPARE_SETTINGS=...), each kernel ran the
rounds once per setting of the kernel's own switches it has ("default", or
NAME=VALUE[,NAME=VALUE]: cgroup_mode, llc_balancing; files
run-CASE-TAG-rN.json) and the report is one table, a row per kernel and
setting: the nested/root ratio of the bench's p99 and requests/s, the
extra wait of the nested bench and the balancer's part of it (the rest is
capacity and shares), wasted-core time and its top cause, unexplained
verdicts, the model's agreement with the kernel, the bench's migrations
and the wasted time charged to the LLC policy (the kernel's own counters
of cache-aware balancing: QEMU models no caches, so its gain cannot be
measured here), each as median [min-max] over the rounds.  A difference
from the 7.3 default (concur, llc_balancing 1) is called only where the
two ranges do not overlap (marked < or >, and listed).  A round whose run
reports read other switches than its setting is left out and said so.

The kernel release is read from
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
import textwrap

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


# ---------------------------------------------------------------- settings

def setting_tag(s):
    """tests/vm/demo.sh's file suffix of a setting"""
    return s.replace("cgroup_mode=", "").replace("llc_balancing=", "llc").replace(",", "-")


def rounds_of_tag(vout, tag):
    try:
        names = os.listdir(vout)
    except OSError:
        return []
    pat = re.compile(r"run-root-%s(-r\d+)?\.json$" % re.escape(tag))
    got = sorted({m.group(1) or "" for m in (pat.match(n) for n in names) if m},
                 key=lambda x: int(x[2:]) if x else 0)
    return ["-%s%s" % (tag, r) for r in got]


def switches(run):
    """{name: value at the start} and the names that changed, from a run report"""
    sw, changed = {}, []
    for x in ((run.get("knobs") or {}).get("switches") or []):
        sw[x.get("name")] = x.get("start")
        if x.get("start") != x.get("end"):
            changed.append(x.get("name"))
    return sw, changed


def wasted_ms(run):
    w = run.get("wasted") or {}
    if not w.get("available"):
        return None
    return sum((c.get("wasted_ms") or 0) for c in (w.get("cpus") or []))


def wasted_cause_ms(run, cause):
    w = run.get("wasted") or {}
    rows = w.get("attribution") or []
    if not w.get("available") or not rows:
        return None
    return sum((r.get("wasted_ms") or 0) for r in rows
               if str(r.get("cpu")) == "all" and r.get("cause") == cause)


def top_policy(run):
    t = (run.get("wasted") or {}).get("policy_top")
    return (t.get("policy"), t.get("wasted_ms")) if t else (None, None)


def info_int(run, key):
    v = (((run.get("module") or {}).get("info")) or {}).get(key)
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def unexplained(run):
    a = (run.get("lb") or {}).get("attempts")
    if not a:
        return None
    return (a.get("unexplained_wrong") or 0) + (a.get("unexplained_missed") or 0)


def bench(run, key):
    d = (run.get("result") or {}).get("document") or {}
    if key == "rps":
        return d.get("rps")
    return (d.get("latency_us") or {}).get(key)


def command_wait(run):
    c = (run.get("wasted") or {}).get("command")
    return c if isinstance(c, dict) else None


def bench_migrations(run):
    """migrations of the bench's cgroup as BPF counted them (the kernel's sched_migrate_task)"""
    cg = (run.get("cgroup") or {}).get("path") or "/"
    for c in ((run.get("bpf") or {}).get("cgroups") or []):
        if (c.get("path") or "") == cg:
            return c.get("migrations")
    return None


def round_facts(root, nested):
    """one round's numbers (None where a report lacks them)"""
    f = {"params": ((root.get("result") or {}).get("document") or {}).get("params"),
         "notes": [r.get("note") for r in (root, nested)]}
    f["p99"] = ratio(bench(nested, "p99"), bench(root, "p99"))
    f["rps"] = ratio(bench(nested, "rps"), bench(root, "rps"))
    wr, wn = command_wait(root), command_wait(nested)
    if wr and wn:
        db = (wn.get("balancer_ms") or 0) - (wr.get("balancer_ms") or 0)
        dc = (wn.get("capacity_ms") or 0) - (wr.get("capacity_ms") or 0)
        f["extra_wait"] = (wn.get("wait_ms") or 0) - (wr.get("wait_ms") or 0)
        pb, pc = max(db, 0), max(dc, 0)
        # the split of an extra wait; none to split when nesting added none
        f["balancer_pct"] = 100.0 * pb / (pb + pc) if pb + pc > 0 and f["extra_wait"] > 0 else None
    else:
        f["extra_wait"] = f["balancer_pct"] = None
    f["wasted_root"], f["wasted_nested"] = wasted_ms(root), wasted_ms(nested)
    lr, ln = wasted_cause_ms(root, "llc_policy"), wasted_cause_ms(nested, "llc_policy")
    f["wasted_llc"] = None if lr is None and ln is None else (lr or 0) + (ln or 0)
    f["top_nested"] = top_policy(nested)
    f["top_root"] = top_policy(root)
    u = [unexplained(r) for r in (root, nested)]
    f["unexplained"] = None if None in u else sum(u)
    ag = [info_int(r, "lb_model_agree") for r in (root, nested)]
    jd = [info_int(r, "lb_judged") for r in (root, nested)]
    f["agreement"] = (100.0 * sum(ag) / sum(jd) if None not in ag and None not in jd and sum(jd)
                      else None)
    f["judged"] = None if None in jd else sum(jd)
    m = [bench_migrations(r) for r in (root, nested)]
    f["migrations"] = None if None in m else sum(m)
    return f


def load_settings(ddir, kernels, settings):
    """[(kernel, setting, [round facts], [notes])] for every (kernel, setting) that ran"""
    cols = []
    for k in kernels:
        vout = os.path.join(ddir, k, "vm-out")
        for s in settings:
            sfxs = rounds_of_tag(vout, setting_tag(s))
            if not sfxs:
                continue
            want = {} if s == "default" else dict(kv.split("=", 1) for kv in s.split(","))
            facts_, notes = [], []
            for sfx in sfxs:
                runs = [load_json(os.path.join(vout, "run-%s%s.json" % (c, sfx)), "%s %s" % (k, c))
                        for c in CASES]
                if None in runs:
                    notes.append("%s: a run report is missing" % sfx[1:])
                    continue
                bad = []
                for c, r in zip(CASES, runs):
                    sw, ch = switches(r)
                    bad += ["%s %s=%s" % (c, n, sw.get(n)) for n, v in want.items() if sw.get(n) != v]
                    bad += ["%s: %s changed during the run" % (c, n) for n in ch if not n.startswith("llc_balancing.")]
                if bad:
                    notes.append("%s left out: %s" % (sfx[1:], "; ".join(bad)))
                    continue
                facts_.append(round_facts(*runs))
            if s == "default":
                sw, _ = switches(runs[0]) if None not in runs else ({}, [])
                have = ["%s %s" % (n, sw[n]) for n in ("cgroup_mode", "llc_balancing")
                        if sw.get(n) not in (None, "absent")]
                s = "default (%s)" % ", ".join(have) if have else "(no switches)"
            cols.append((k, s, facts_, notes))
    return cols


def rng(vals):
    v = [x for x in vals if x is not None]
    return (min(v), max(v), statistics.median(v)) if v else None


def settings_report(ddir, kernels, settings):
    cols = load_settings(ddir, kernels, settings)
    rel = {k: release(k) for k in kernels}
    # (column title, key, format)
    metrics = [("p99 n/r", "p99", "%.2f"), ("req/s n/r", "rps", "%.2f"),
               ("extra wait ms", "extra_wait", "%.0f"), ("balancer %", "balancer_pct", "%.0f"),
               ("wasted ms root", "wasted_root", "%.0f"), ("wasted ms nested", "wasted_nested", "%.0f"),
               ("unexplained", "unexplained", "%.0f"), ("agreement %", "agreement", "%.1f"),
               ("migrations", "migrations", "%.0f"), ("llc_policy ms", "wasted_llc", "%.0f")]
    def display(k, s):
        return "%s %s" % (rel[k].split("+")[0].split("-")[0],
                          s.replace("cgroup_mode=", "").replace(",llc_balancing=", " llc"))

    ref = None
    for k, s, F, _ in cols:
        if s == "cgroup_mode=concur" and F:
            ref = (k, s, F)
            break
    o = ["== sched_shadow compare: the kernel's switches, root vs nested cgroup "
         "(median [min-max] over rounds; n/r = nested / root) =="]
    for k, s, F, _ in cols:
        if F and F[0]["params"]:
            q = F[0]["params"]
            o.append("workload: bench: %d message threads x %d workers, burn %d us, sleep %d us, %g s; "
                     "%s; %s" % (q["message_threads"], q["workers"], q["burn_us"], q["sleep_us"],
                                 q["duration_s"], (F[0]["notes"][0] or "").split(", kernel switches")[0],
                                 (F[0]["notes"][1] or "").split(", kernel switches")[0]))
            break
    for k in kernels:
        try:
            with open(os.path.join(ddir, k, "wall_s")) as fh:
                o.append("%s: %s, %s s for its boot (the wait for the VM lock included)"
                         % (k, rel[k], fh.read().strip()))
        except OSError:
            pass
    widths = []
    rows = []
    diffs = []
    for k, s, F, notes in cols:
        cells = []
        for title, key, fmt in metrics:
            r = rng([f[key] for f in F])
            if not r:
                cells.append("-")
                continue
            c = fmt % r[2] if r[0] == r[1] else "%s [%s-%s]" % (fmt % r[2], fmt % r[0], fmt % r[1])
            nv = len([f for f in F if f[key] is not None])
            if nv < len(F):
                c += " (%d)" % nv
            mark = " "
            if ref and (k, s) != ref[:2]:
                rv = [f[key] for f in ref[2] if f[key] is not None]
                rr = rng(rv)
                # called only between two ranges of 3 rounds or more that do not overlap
                if (rr and len(rv) >= 3 and len([f for f in F if f[key] is not None]) >= 3
                        and (r[0] > rr[1] or r[1] < rr[0])):
                    mark = ">" if r[0] > rr[1] else "<"
                    diffs.append("%s: %s %s, %s the default's %s" % (
                        display(k, s), title, "%s [%s-%s]" % (fmt % r[2], fmt % r[0], fmt % r[1]),
                        "above" if mark == ">" else "below",
                        "%s [%s-%s]" % (fmt % rr[2], fmt % rr[0], fmt % rr[1])))
            cells.append(c + " " + mark)
        rows.append((display(k, s), len(F), cells))
    lw = max([len("setting")] + [len(r[0]) for r in rows]) + 1
    widths = [max([len(m[0]) + 2] + [len(r[2][i]) for r in rows]) for i, m in enumerate(metrics)]
    o.append("%-*s %6s " % (lw, "kernel setting", "rounds") +
             "  ".join("%*s" % (w, m[0] + "  ") for w, m in zip(widths, metrics)))
    for name, n, cells in rows:
        o.append("%-*s %6d " % (lw, name, n) + "  ".join("%*s" % (w, c) for w, c in zip(widths, cells)))
    o.extend(textwrap.wrap("columns: the bench's p99 and requests/s, nested / root; the nested bench's extra wait "
             "(ms runnable but not running, nested - root) and the balancer's part of it in % (the rest: "
             "capacity and shares); wasted-core time (ms, all CPUs) of each case; unexplained verdicts "
             "and the model's agreement with the kernel (%, both cases); the bench's migrations (both "
             "cases); wasted time charged to the LLC policy (ms, both cases: the kernel's own cache-aware "
             "refusals; QEMU models no caches, so their gain cannot be measured here).  (n): only n "
             "rounds had the value (balancer %: rounds where nesting added wait).  < > : the range lies "
             "below / above the 7.3 default's.", 100))
    o.append("")
    o.append("top cause of wasted-core time (nested; root), the most frequent over the rounds, its median ms:")
    for (k, s, F, notes), (name, _, _) in zip(cols, rows):
        def top(key):
            names = [f[key][0] for f in F if f[key][0]]
            if not names:
                return "none"
            best = max(sorted(set(names)), key=names.count)
            ms = statistics.median([f[key][1] for f in F if f[key][0] == best])
            return "%s %.0f (%d of %d)" % (best, ms, names.count(best), len(F))
        o.append("  %-*s nested %s; root %s" % (lw, name, top("top_nested"), top("top_root")))
    o.append("")
    if ref:
        o.append("differences from %s, 7.3's default (ranges of 3 rounds or more that do not "
                 "overlap; < lower, > higher):" % display(ref[0], ref[1]))
        o.extend("  " + d for d in diffs) if diffs else o.append("  none")
    else:
        o.append("differences: no 7.3 default (cgroup_mode=concur) to compare with")
    for k, s, F, notes in cols:
        for n in notes:
            o.append("note: %s: %s" % (display(k, s), n))
    return o, cols


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    settings = None
    if argv and argv[0] == "--settings" and len(argv) > 1:
        settings, argv = argv[1].split(), argv[2:]
    if len(argv) < 2 or not os.path.isdir(argv[0]):
        print("usage: compare-report.py [--settings 'SETTING ...'] DIR KERNEL [KERNEL...] "
              "(DIR: an existing directory)", file=sys.stderr)
        return 2
    ddir, kernels = argv[0], argv[1:]
    if settings:
        out, cols = settings_report(ddir, kernels, settings)
        with open(os.path.join(ddir, "report.txt"), "w") as fh:
            fh.write("\n".join(out) + "\n")
        print("\n".join(out))
        print()
        print("report: %s" % os.path.join(ddir, "report.txt"))
        bad = [k for k in kernels if not any(c[0] == k and c[2] for c in cols)]
        for k in bad:
            print("compare-report: %s: no complete round of any setting" % k)
        return 1 if bad else 0
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
