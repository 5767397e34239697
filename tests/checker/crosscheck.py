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


SD_NAME = {"SHARE_LLC": "SHARE_LLC", "NUMA": "NUMA", "ASYM_PACKING": "ASYM_PACKING",
           "ASYM_CPUCAPACITY": "ASYM_CAPACITY", "SHARE_CPUCAPACITY": "SHARE_CPUCAPACITY"}


def live(c):
    return "%d %d %d %d %d %d %d %d %d %d %d" % tuple(
        int(c[f]) for f in ("nr_running", "h_nr_running", "load", "util", "util_est", "runnable",
                            "capacity", "capacity_orig", "misfit", "idle", "llc_pref"))


def encode(case, kpick, bits, enum):
    """The case's raw inputs for driver.c (its header comment has the format)."""
    f = 0
    for name in case["flags"]:
        f |= bits[SD_NAME[name]]
    if case["child_prefer_sibling"]:
        f |= bits["PREFER_SIBLING"]
    dst = case["dst"]
    lines = ["case %s %d %d %d %d %d %d %d %d %d %d %d %d %d" % (
        case["variant"], case["idle"], -1 if kpick is None else kpick, case["pct"], f,
        case["imb_numa_nr"], int(bool(case["eas_pd"])), case["rd_overutilized"],
        int(bool(case["smt_active"])), case["cpus"][dst]["capacity"], len(case["groups"]),
        len(case["cpus"]), dst, len(enum))]
    lines += ["e %s %d" % nv for nv in enum]
    sib = case["cpus"][dst].get("siblings", [dst])
    lines.append("s %d %s" % (len(sib), " ".join(map(str, sib))))
    for g in case["groups"]:
        lines.append("g %d %d %d %d %d %d %d %d %d %d" % (
            len(g["cpus"]), g["weight"], g["capacity"], int(g["imbalanced"]),
            (bits["SG_SMT"] if g.get("smt") else 0) |
            (bits["SG_PREFER_SIBLING"] if g.get("prefer_sibling") else 0),
            g["cores"], g["min_capacity"], g["max_capacity"], int("entry_sgc" in g),
            g.get("entry_sgc", 0)))
    for i, c in enumerate(case["cpus"]):
        ws = []
        for w in c["waiters"]:
            ws.append("%d %d %d %d %s" % (int(bool(w.get("migdis"))), int(bool(w.get("kthread"))),
                                          w.get("tg", 0), len(w["mask"]),
                                          " ".join(map(str, w["mask"]))))
        thr = 0
        for t in c.get("throttled", ()):
            thr |= 1 << t
        r = c
        lines.append("c %d %d %d %d %d %d %d %d %d %d %d %d %d %d%s %d %s" % (
            r["nr_running"], r["h_nr_running"], r["load"], r["util"], r["util_est"], r["runnable"],
            r["capacity"], r["capacity_orig"], r["misfit"], int(r["idle"]), c.get("void", 0),
            r.get("llc_pref", 0), thr, int("entry" in c),
            "" if "entry" not in c else " " + live(c["entry"]), len(ws), " ".join(ws)))
    return "\n".join(lines) + "\n"


def run_chunk(args):
    """One worker's share: the same random domains for every variant (the
    generator's work is shared), each variant judged by the checker and by
    the core (one driver run per variant)."""
    chunk, ncases, seed, driver, variants = args
    names = judge.Names()
    bits = sd_bits()
    rng = random.Random("%s/chunk%d" % (seed, chunk))
    # the driver names the classes (its ranks line follows that order)
    first = subprocess.run([driver], input="", capture_output=True, text=True)
    cnames = first.stdout.split()[1].split(",")
    cases = []
    for n in range(ncases):
        case = gen.gen_case(rng, variants[0])
        if rng.random() < 0.01:
            k = rng.randrange(len(case["cpus"]))
            case["cpus"][k]["void"] = rng.randint(1, len(names.void_ids) - 1)
        cases.append(case)
    out = {}
    for variant in variants:
        out[variant] = judge_variant(variant, cases, names, bits, cnames, driver,
                                     random.Random("%s/chunk%d/%s" % (seed, chunk, variant)))
    return out


def left_out(variant, case):
    """The rules the core leaves out whose inputs this case has."""
    r = fm.rules(variant)
    out = []
    if r["llc"] and case.get("sched_cache") and "SHARE_LLC" not in case["flags"] and \
            any(g.get("llc_pref") for g in case["groups"]):
        out.append("llc_balance")
    if "ASYM_PACKING" in case["flags"]:
        out.append("asym_packing")
    if r["overloaded_needs_ou"] and case.get("eas_pd"):
        out.append("eas_overutilized")
    return out


def unknown_kind(variant, case):
    """Why a kernel outcome may stay unexplained: its inputs moved (the
    kernel read any mix of them), a class order no kernel has, or more than
    one left-out rule in play (each is flipped alone, within G+2 runs);
    else it must not."""
    if any("entry" in c for c in case["cpus"]) or any("entry_sgc" in g for g in case["groups"]):
        return "stale"
    if "enum_perm" in case:
        # an order of enum group_type no kernel has (asym_packing below
        # has_spare, ...): flipping one group's class is not enough there
        return "enum_order"
    lo = left_out(variant, case)
    return "rules:" + "+".join(lo) if len(lo) > 1 else "one_rule"


def enum_for(variant, case):
    """The raw enum group_type the case's kernel has: the variant's, or its
    enumerators with other values (gen.py's enum_perm)."""
    enum = fm.enum_of(variant)
    if "enum_perm" in case:
        enum = [(n, case["enum_perm"][v]) for n, v in enum]
    return enum


def judge_variant(variant, cases, names, bits, cnames, driver, rng):
    picks, wants, blob, derived = [], [], [], []
    for case in cases:
        case["variant"] = variant
        enum = case["group_type_enum"] = enum_for(variant, case)
        # the module's model: the return read, its assumptions for what it lacks
        base = judge.neutral(case)
        model = fm.find_busiest_group(variant, base)
        x = rng.random()
        kernel = x < 0.55
        if kernel:
            # the kernel: every rule, on what it read (entry, return or a mix)
            kpick = fm.find_busiest_group(variant, gen.kernel_view(rng, case))[0]
        elif x < 0.75 or len(case["groups"]) < 2:
            kpick = None
        else:
            kpick = rng.randrange(1, len(case["groups"]))
        want = judge.judge(names, case, kpick, model)
        want["cause"], want["known"], want["runs"] = judge.explain(
            variant, case, -1 if kpick is None else kpick, base,
            -1 if model[0] is None else model[0])
        want["kernel"] = kernel
        picks.append(kpick)
        wants.append(want)
        # the checker's own derivations of what the core derives from raw inputs
        val = dict(enum)
        derived.append(dict(
            ranks=[val.get(fm.ENUM_NAME[c], -1) for c in cnames],
            eas_present=int(bool(case["eas_pd"])),
            eas_balanced=int(bool(case["eas_pd"]) and not case["rd_overutilized"]),
            dst_core_idle=int(fm.dst_core_is_idle(case))))
        blob.append(encode(case, kpick, bits, enum))
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
    reasons, classes, exits, causes = (collections.Counter() for _ in range(4))
    kernel_unknown = collections.Counter()
    for case, kpick, want, der, line in zip(cases, picks, wants, derived, lines):
        (verdict, reason, mpick, mexit, mbusiest, cls, cause, known, runs, ranks, eas_p, eas_b,
         dci) = line.split()
        got = dict(verdict=verdict, reason=reason, model=int(mpick), busiest=int(mbusiest),
                   exit=mexit, classes=cls.split(","), cause=cause, known=known, runs=int(runs),
                   ranks=[int(r) for r in ranks.split(",")], eas_present=int(eas_p),
                   eas_balanced=int(eas_b), dst_core_idle=int(dci))
        reasons[want["reason"]] += 1
        exits[want["exit"] or "pick"] += 1
        causes[want["cause"] + ("/" + want["known"] if want["known"] != "-" else "")] += 1
        if want["kernel"] and want["cause"] == "unknown" and case["idle"] != fm.CPU_NOT_IDLE:
            kernel_unknown[unknown_kind(variant, case)] += 1
        for c in want["classes"]:
            classes[c] += 1
        exp = dict(verdict=want["verdict"], reason=want["reason"],
                   model=-1 if want["model"] is None else want["model"],
                   busiest=-1 if want["busiest"] is None else want["busiest"],
                   exit=names.r(EXIT_ID[want["exit"]]) if want["exit"] else names.r("NONE"),
                   classes=want["classes"], cause=want["cause"], known=want["known"],
                   runs=want["runs"], **der)
        if exp != got:
            nbad += 1
            if len(bad) < keep:
                bad.append((json.loads(json.dumps(case, default=sorted)), kpick, exp, got))
    return dict(n=ncases, bad=bad, nbad=nbad, reasons=dict(reasons),
                classes=dict(classes), exits=dict(exits), causes=dict(causes),
                kernel_unknown=dict(kernel_unknown), driver_s=time.time() - t0,
                all_reasons=[n for _, n in judge.read_table()[1]],
                order=fm.classes_of(variant))


def merge(parts):
    res = None
    for p in parts:
        if "error" in p:
            return p
        if res is None:
            res = dict(p, bad=list(p["bad"]), **{
                k: collections.Counter(p[k])
                for k in ("reasons", "classes", "exits", "causes", "kernel_unknown")})
            continue
        res["n"] += p["n"]
        res["nbad"] += p["nbad"]
        res["bad"] += p["bad"]
        for k in ("reasons", "classes", "exits", "causes", "kernel_unknown"):
            res[k].update(p[k])
    return res


def run_variant(args):
    """One variant on its own (debugging helpers)."""
    variant, ncases, seed, driver = args
    return variant, run_chunk((0, ncases, seed, driver, [variant]))[variant]


# the checker's exits by the reason table's IDs
# (a busy destination's out_balanced, before the idle_cpus test: the core
# names it idle_cpus, the reason table has no row for a busy one)
EXIT_ID = dict(judge.EXIT_REASON, **{fm.X_NO_BUSIEST: "NO_BUSIEST", fm.X_BUSY_DST: "IDLE_CPUS"})


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


# each reason of the table and each class of the variant, per variant
MIN_HITS = 20


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
    print("1..%d" % (3 * len(results)))
    n = fail = 0
    for v, res in results:
        n += 1
        if "error" in res:
            print("not ok %d - %s: %s" % (n, v, res["error"]))
            n += 1
            print("not ok %d - %s: reasons and classes hit (no answer)" % (n, v))
            n += 1
            print("not ok %d - %s: kernel outcomes explained (no answer)" % (n, v))
            fail += 3
            continue
        cant = cannot_carry(v, res["all_reasons"])
        missing_r = ["%s (%d)" % (r, res["reasons"].get(r, 0)) for r in res["all_reasons"]
                     if res["reasons"].get(r, 0) < MIN_HITS and r not in cant]
        missing_c = ["%s (%d)" % (c, res["classes"].get(c, 0)) for c in res["order"]
                     if res["classes"].get(c, 0) < MIN_HITS and c not in GAPS]
        agree = res["nbad"] == 0
        hit = not missing_r and not missing_c
        if agree and hit:
            print("%s: %d cases, 100%% agree, every reason hit >= %d times" % (v, res["n"], MIN_HITS))
        print("# %s: reasons no attempt can carry under these rules: %s" % (
            v, ", ".join("%s (%s)" % kv for kv in sorted(cant.items())) or "none"))
        print("# %s reasons: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["reasons"].items()))))
        print("# %s classes: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["classes"].items()))))
        print("# %s model exits: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["exits"].items()))))
        print("# %s causes: %s" % (v, " ".join("%s=%d" % kv for kv in sorted(res["causes"].items()))))
        print("# %s: the kernel's own picks (every rule, on what it read) the explanation "
              "leaves unknown: %s" % (v, " ".join("%s=%d" % kv for kv in
                                                   sorted(res["kernel_unknown"].items())) or "none"))
        print("%s %d - %s: checker and core agree on %d of %d cases" % (
            "ok" if agree else "not ok", n, v, res["n"] - res["nbad"], res["n"]))
        if not agree:
            fail += 1
            pct = 100.0 * (res["n"] - res["nbad"]) / res["n"]
            print("# %s: %d disagreements (%.3f%% agree); the first:" % (v, res["nbad"], pct))
            for b in res["bad"]:
                show_case(*b)
        n += 1
        one = res["kernel_unknown"].get("one_rule", 0)
        print("%s %d - %s: every kernel outcome with at most one left-out rule in play and no "
              "moved input is explained (known or stale): %d unknown" % (
                  "ok" if not one else "not ok", n, v, one))
        fail += bool(one)
        n += 1
        print("%s %d - %s: every reason and class hit >= %d times%s" % (
            "ok" if hit else "not ok", n, v, MIN_HITS,
            "" if hit else " (not hit: reasons %s; classes %s)" % (missing_r, missing_c)))
        if not hit:
            fail += 1
    print("%d passed, %d failed" % (n - fail, fail))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
