#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Random cross-check: the checker (fair.c, fairmodel.py + judge.py)
against the module's audit core built on the host (driver.c).

usage: crosscheck.py DRIVER [--cases N] [--seed S] [--variants 5.10,6.1,...]

The same random domains go to both.  Per variant it prints exactly
  <variant>: N cases, 100% agree, every reason hit
when every case agrees (verdict, reason, the model's pick and every
group's class) and every reason of the module's table and every class of
the variant came up; otherwise the disagreements (the first cases in
full) and what was not hit.  TAP on stdout; exit 1 on any failure.
"""
import argparse
import collections
import json
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fairmodel as fm  # noqa: E402
import gen  # noqa: E402
import judge  # noqa: E402


def sd_bits():
    """AUDIT_SD_* of module/core/audit_core.h, by flag name."""
    h = open(os.path.join(judge.TOP, "module", "core", "audit_core.h")).read()
    bits = {k: int(v, 16) for k, v in re.findall(r"#define AUDIT_SD_(\w+)\s+(0x[0-9a-fA-F]+)u", h)}
    bits.update({"SG_" + k: int(v, 16) for k, v in
                 re.findall(r"#define AUDIT_SG_(\w+)\s+(0x[0-9a-fA-F]+)u", h)})
    return bits


# What the C API can be told.  The generator draws the kernel's full
# state; this narrows a case to inputs struct audit_domain/audit_group/
# audit_cpu carry, so both sides judge the same domain.  README.md lists
# each limit.
def fit_to_api(case, rng):
    case["energy"] = False                           # per-CPU overutilized: a known gap
    case["sched_cache"] = False                      # llc_balance: a known gap
    for c in case["cpus"]:
        c["throttled"] = []                          # throttling is the publisher's (waiters.c)
        for w in c["waiters"]:
            w.pop("tg", None)
            w.pop("kthread", None)
    if "ASYM_PACKING" in case["flags"]:
        # the core takes asym_packing as "dst preferred to every group" (CPU
        # priorities are a known gap) and keeps the first of two asym
        # groups: priorities rise in visiting order, where every kernel
        # keeps the first (README.md)
        for gi, g in enumerate(case["groups"]):
            for i in g["cpus"]:
                case["cpus"][i]["prio"] = 1 + gi
        case["cpus"][case["dst"]]["prio"] = 1000
        for g in case["groups"]:
            # sched_group's asym_prefer_cpu: its highest-priority CPU
            g["asym_prefer_cpu"] = max(g["cpus"], key=lambda k: case["cpus"][k]["prio"])
        for c_i, c in enumerate(case["cpus"]):
            c["siblings"] = [c_i]
        for g in case["groups"]:
            g["smt"] = False
    return case


def encode(case, kpick, bits, ranks):
    f = 0
    for name in case["flags"]:
        f |= bits[{"SHARE_LLC": "SHARE_LLC", "NUMA": "NUMA", "ASYM_PACKING": "ASYM_PACKING",
                   "ASYM_CPUCAPACITY": "ASYM_CAPACITY"}[name]]
    if case["child_prefer_sibling"]:
        f |= bits["PREFER_SIBLING"]
    eas = int(bool(case["eas_pd"] and not case["rd_overutilized"]))
    dst = case["dst"]
    lines = ["case %s %d %d %d %d %d %d %d %d %d %d %d %d %s" % (
        case["variant"], case["idle"], -1 if kpick is None else kpick, case["pct"], f,
        case["imb_numa_nr"], int(bool(case["eas_pd"])), eas, case["cpus"][dst]["capacity"],
        int(fm.is_core_idle(case, dst)), len(case["groups"]), len(case["cpus"]), dst,
        " ".join(map(str, ranks)))]
    for g in case["groups"]:
        lines.append("g %d %d %d %d %d %d %d %d" % (
            len(g["cpus"]), g["weight"], g["capacity"], int(g["imbalanced"]),
            (bits["SG_SMT"] if g.get("smt") else 0) |
            (bits["SG_PREFER_SIBLING"] if g.get("prefer_sibling") else 0),
            g["cores"], g["min_capacity"], g["max_capacity"]))
    for c in case["cpus"]:
        ws = []
        for w in c["waiters"]:
            ws.append("%d %d %s" % (int(bool(w.get("migdis"))), len(w["mask"]),
                                    " ".join(map(str, w["mask"]))))
        lines.append("c %d %d %d %d %d %d %d %d %d %d %d %d %s" % (
            c["nr_running"], c["h_nr_running"], c["load"], c["util"], c["util_est"], c["runnable"],
            c["capacity"], c["capacity_orig"], c["misfit"], int(c["idle"]), c.get("void", 0),
            len(ws), " ".join(ws)))
    return "\n".join(lines) + "\n"


def run_chunk(args):
    """One worker's share: the same random domains for every variant (the
    generator's work is shared), each variant judged by the checker and by
    the core (one driver run per variant)."""
    chunk, ncases, seed, driver, variants = args
    names = judge.Names()
    bits = sd_bits()
    rng = random.Random("%s/chunk%d" % (seed, chunk))
    # the driver names the classes; ranks follow each variant's enum group_type
    first = subprocess.run([driver], input="", capture_output=True, text=True)
    cnames = first.stdout.split()[1].split(",")
    cases = []
    for n in range(ncases):
        case = fit_to_api(gen.gen_case(rng, variants[0]), rng)
        if rng.random() < 0.01:
            k = rng.randrange(len(case["cpus"]))
            case["cpus"][k]["void"] = rng.randint(1, len(names.void_ids) - 1)
        cases.append(case)
    out = {}
    for variant in variants:
        out[variant] = judge_variant(variant, cases, names, bits, cnames, driver,
                                     random.Random("%s/chunk%d/%s" % (seed, chunk, variant)))
    return out


def judge_variant(variant, cases, names, bits, cnames, driver, rng):
    order = fm.classes_of(variant)
    ranks = [order.index(n) if n in order else -1 for n in cnames]
    picks, wants, blob = [], [], []
    for case in cases:
        case["variant"] = variant
        model = fm.find_busiest_group(variant, case)
        x = rng.random()
        if x < 0.55:
            kpick = model[0]
        elif x < 0.75 or len(case["groups"]) < 2:
            kpick = None
        else:
            kpick = rng.randrange(1, len(case["groups"]))
        picks.append(kpick)
        wants.append(judge.judge(names, case, kpick, model))
        blob.append(encode(case, kpick, bits, ranks))
    ncases = len(cases)
    t0 = time.time()
    out = subprocess.run([driver], input="".join(blob), capture_output=True, text=True)
    if out.returncode:
        return dict(error="driver exit %d: %s" % (out.returncode, out.stderr[-400:]))
    lines = out.stdout.splitlines()[1:]
    if len(lines) != ncases:
        return dict(error="driver answered %d of %d cases" % (len(lines), ncases))
    bad = []
    nbad = 0
    keep = int(os.environ.get("CHECKER_KEEP", "5"))
    reasons, classes = collections.Counter(), collections.Counter()
    exits = collections.Counter()
    for case, kpick, want, line in zip(cases, picks, wants, lines):
        verdict, reason, mpick, mexit, mbusiest, cls = line.split()
        got = dict(verdict=verdict, reason=reason, model=int(mpick), busiest=int(mbusiest),
                   exit=mexit, classes=cls.split(","))
        reasons[want["reason"]] += 1
        exits[want["exit"] or "pick"] += 1
        for c in want["classes"]:
            classes[c] += 1
        exp = dict(verdict=want["verdict"], reason=want["reason"],
                   model=-1 if want["model"] is None else want["model"],
                   busiest=-1 if want["busiest"] is None else want["busiest"],
                   exit=names.r(EXIT_ID[want["exit"]]) if want["exit"] else names.r("NONE"),
                   classes=want["classes"])
        if want["exit"] == fm.X_BUSY_DST:
            exp["exit"] = got["exit"]       # a busy destination: the core names no exit of its own
        if any(c.get("void") for c in case["cpus"]):
            # a CPU without usable state: only the verdict and reason count
            for k in ("model", "classes", "busiest", "exit"):
                exp[k] = got[k]
        if exp != got:
            nbad += 1
            if len(bad) < keep:
                bad.append((json.loads(json.dumps(case, default=sorted)), kpick, exp, got))
    return dict(n=ncases, bad=bad, nbad=nbad, reasons=dict(reasons),
                classes=dict(classes), exits=dict(exits), driver_s=time.time() - t0,
                all_reasons=[n for _, n in judge.read_table()[1]], order=order)


def merge(parts):
    res = None
    for p in parts:
        if "error" in p:
            return p
        if res is None:
            res = dict(p, reasons=collections.Counter(p["reasons"]),
                       classes=collections.Counter(p["classes"]),
                       exits=collections.Counter(p["exits"]), bad=list(p["bad"]))
            continue
        res["n"] += p["n"]
        res["nbad"] += p["nbad"]
        res["bad"] += p["bad"]
        for k in ("reasons", "classes", "exits"):
            res[k].update(p[k])
    return res


def run_variant(args):
    """One variant on its own (debugging helpers)."""
    variant, ncases, seed, driver = args
    return variant, run_chunk((0, ncases, seed, driver, [variant]))[variant]


# the checker's exits by the reason table's IDs
EXIT_ID = dict(judge.EXIT_REASON, **{fm.X_NO_BUSIEST: "NO_BUSIEST", fm.X_BUSY_DST: "NONE"})


# Classes the core cannot be told about (known gaps named by the core's
# rule table): the generator leaves them out, so they are not required.
GAPS = {fm.LLC_BALANCE: "llc_balance: a known gap of the core (no cache-aware state)"}


def cannot_carry(variant, reasons):
    """Reasons of the table that no attempt can carry under the variant's
    rules: a wrong pick of a misfit or asym_packing group is always an
    active balance (find_busiest_group() forces both before anything can
    name the class), and classes the kernel lacks or the core cannot be
    told about."""
    order = fm.classes_of(variant)
    out = {}
    for c in (fm.MISFIT, fm.ASYM):
        out[c] = "always forced: active_%s" % c
    for c in (fm.SMT_BALANCE, fm.LLC_BALANCE):
        if c not in order:
            out[c] = "no such class before %s" % ("6.6" if c == fm.SMT_BALANCE else "7.2")
        elif c in GAPS:
            out[c] = "known gap"
    return {k: v for k, v in out.items() if k in reasons}


def show_case(case, kpick, exp, got):
    c = dict(case)
    c["flags"] = sorted(c["flags"])  # a set, or a list once copied
    print("#   case: " + json.dumps(dict(c, kernel_pick=kpick), sort_keys=True))
    print("#   checker: " + json.dumps(exp, sort_keys=True))
    print("#   core:    " + json.dumps(got, sort_keys=True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("driver")
    ap.add_argument("--cases", type=int, default=100000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--variants", default=",".join(fm.VARIANTS))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    variants = a.variants.split(",")
    # the cases are split between the workers; every worker judges its
    # share under every variant
    share = [a.cases // a.jobs + (1 if i < a.cases % a.jobs else 0) for i in range(a.jobs)]
    jobs = [(i, share[i], a.seed, a.driver, variants) for i in range(a.jobs) if share[i]]
    with multiprocessing.Pool(len(jobs)) as pool:
        parts = pool.map(run_chunk, jobs)
    results = [(v, merge([p[v] for p in parts])) for v in variants]
    print("TAP version 13")
    print("1..%d" % (2 * len(results)))
    n = fail = 0
    for v, res in results:
        n += 1
        if "error" in res:
            print("not ok %d - %s: %s" % (n, v, res["error"]))
            n += 1
            print("not ok %d - %s: reasons and classes hit (no answer)" % (n, v))
            fail += 2
            continue
        cant = cannot_carry(v, res["all_reasons"])
        missing_r = [r for r in res["all_reasons"] if r not in res["reasons"] and r not in cant]
        missing_c = [c for c in res["order"] if c not in res["classes"] and c not in GAPS]
        agree = res["nbad"] == 0
        hit = not missing_r and not missing_c
        if agree and hit:
            print("%s: %d cases, 100%% agree, every reason hit" % (v, res["n"]))
        print("# %s: reasons no attempt can carry under these rules: %s" % (
            v, ", ".join("%s (%s)" % kv for kv in sorted(cant.items())) or "none"))
        print("# %s reasons: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["reasons"].items()))))
        print("# %s classes: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["classes"].items()))))
        print("# %s model exits: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["exits"].items()))))
        print("%s %d - %s: checker and core agree on %d of %d cases" % (
            "ok" if agree else "not ok", n, v, res["n"] - res["nbad"], res["n"]))
        if not agree:
            fail += 1
            pct = 100.0 * (res["n"] - res["nbad"]) / res["n"]
            print("# %s: %d disagreements (%.3f%% agree); the first:" % (v, res["nbad"], pct))
            for b in res["bad"]:
                show_case(*b)
        n += 1
        print("%s %d - %s: every reason and class hit%s" % (
            "ok" if hit else "not ok", n, v,
            "" if hit else " (not hit: reasons %s; classes %s)" % (missing_r, missing_c)))
        if not hit:
            fail += 1
    print("%d passed, %d failed" % (n - fail, fail))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
