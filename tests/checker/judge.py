# SPDX-License-Identifier: GPL-2.0
"""The audit's verdict on one attempt, from the checker's own model.

The verdict rules are the module's documented ones (docs/debugfs.md, "lb
verdicts" and "lb reasons"); the kernel's decisions under them come from
fairmodel.py (fair.c), never from module/core/audit_core.c.  Reason and
verdict names are read from the module's X-macro table
(module/core/audit_reasons.h), not copied here.
"""
import os
import re

import fairmodel as fm

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def read_table(path=None):
    """(verdict names, reason names) in enum order, from audit_reasons.h."""
    path = path or os.path.join(TOP, "module", "core", "audit_reasons.h")
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    vm = re.search(r"#define AUDIT_VERDICTS\(X\)(.*?)\n\n", text, re.S)
    rm = re.search(r"#define AUDIT_REASONS\(X\)(.*?)\n\n", text, re.S)
    if not vm or not rm:
        raise SystemExit("judge.py: no AUDIT_VERDICTS/AUDIT_REASONS table in " + path)
    verdicts = re.findall(r'X\(\s*(\w+)\s*,\s*"([^"]*)"', vm.group(1))
    reasons = re.findall(r'X\(\s*(\w+)\s*,\s*"([^"]*)"', rm.group(1))
    return dict(verdicts), [(i, n) for i, n in reasons]


def work_restricted_bound(path=None):
    """SHADOW_WORK_RESTRICTED of module/core/work.h: how many windows of
    restricted waiters (mask and group) a CPU's published summary keeps."""
    path = path or os.path.join(TOP, "module", "core", "work.h")
    m = re.search(r"#define\s+SHADOW_WORK_RESTRICTED\s+(\d+)", open(path).read())
    return int(m.group(1))


class Names:
    def __init__(self):
        self.verdict, reasons = read_table()
        self.reason = dict(reasons)             # ID -> name
        self.reason_ids = [i for i, _ in reasons]
        self.void_ids = [i for i in self.reason_ids if i.startswith("VOID_")]
        self.bound = work_restricted_bound()

    def r(self, rid):
        if rid not in self.reason:
            raise SystemExit("judge.py: reason %s is not in the table" % rid)
        return self.reason[rid]

    def v(self, vid):
        return self.verdict[vid]


# The checker's exits that are reasons of a missed verdict (the exit's own
# name is the reason's ID in lower case).
EXIT_REASON = {fm.X_EAS: "EAS", fm.X_LOCAL_CLASS: "LOCAL_CLASS", fm.X_LOCAL_LOAD: "LOCAL_LOAD",
               fm.X_IDLE_CPUS: "IDLE_CPUS", fm.X_SINGLE_TASK: "SINGLE_TASK",
               fm.X_IMBALANCE_ZERO: "IMBALANCE_ZERO"}


def cpu_work(r, names, case, i, dst):
    """Work CPU i can give dst, as far as the published summary can say.

    fair.c decides per waiter (fairmodel.can_migrate()); the publisher
    (module/core/work.h) keeps the waiters whose affinity is neither every
    CPU nor one CPU by window (their mask and their bandwidth group), up to
    SHADOW_WORK_RESTRICTED distinct windows: a waiter of a window already
    kept is counted there, one of a further window makes the answer
    "unknown" unless another waiter is a yes.  A waiter whose group is
    throttled on its CPU (before the task-based throttle) is not noted at
    all.  An event's CPU entry says how many it left out (`unknown`), also
    when its published waiters were not of the model's moment
    (module/audit.c).
    """
    c = case["cpus"][i]
    n = len(case["cpus"])
    windows = []
    unknown = bool(c.get("unknown", 0))
    for w in c.get("waiters", ()):
        kind_restricted = not w.get("migdis") and not w.get("kthread") and 1 < len(w["mask"]) < n
        if kind_restricted:
            tg = w.get("tg") or 0
            if tg and not r["throttle_dst_only"] and tg in c.get("throttled", ()):
                continue
            key = (tuple(w["mask"]), tg)
            if key not in windows:
                if len(windows) >= names.bound:
                    unknown = True
                    continue
                windows.append(key)
        if fm.can_migrate(r, case, i, w, dst):
            return fm.WORK_YES
    return fm.WORK_UNKNOWN if unknown else fm.WORK_NO


def judge(names, case, kernel_pick, model=None):
    """Verdict, reason, the model's outcome (group index or exit) and the
    classes, for an attempt where the kernel returned kernel_pick.
    model: find_busiest_group()'s answer for the case, if already known."""
    v = case["variant"]
    r = fm.rules(v, case)
    busiest, exit_, sds = model or fm.find_busiest_group(v, case)
    classes = [s["group_type"] for s in sds["stats"]]
    out = dict(model=busiest, exit=exit_, classes=classes, imbalance=sds["imbalance"],
               busiest=sds["busiest"])
    dst = case["dst"]
    if case["idle"] == fm.CPU_NOT_IDLE:
        out.update(verdict=names.v("BUSY"), reason=names.r("NONE"))
        return out
    for g in case["groups"]:
        for i in g["cpus"]:
            vr = case["cpus"][i].get("void", 0)
            if vr:
                out.update(verdict=names.v("VOID"), reason=names.r(names.void_ids[vr - 1]))
                return out
    work = []
    for g in case["groups"]:
        ws = [cpu_work(r, names, case, i, dst) for i in g["cpus"]]
        work.append(fm.WORK_YES if fm.WORK_YES in ws else
                    fm.WORK_UNKNOWN if fm.WORK_UNKNOWN in ws else fm.WORK_NO)
    out["work"] = work
    nonlocal_work = any(w == fm.WORK_YES for w in work[1:])
    unknown = any(w == fm.WORK_UNKNOWN for w in work[1:])
    p = kernel_pick
    if p is not None and work[p] == fm.WORK_YES and (nonlocal_work or p != 0):
        out.update(verdict=names.v("RIGHT"), reason=names.r("NONE"))
    elif unknown:
        out.update(verdict=names.v("VOID"), reason=names.r("VOID_WORK_UNKNOWN"))
    elif not nonlocal_work:
        out.update(verdict=names.v("NONE"), reason=names.r("NO_WORK"))
    elif p is None:
        out["verdict"] = names.v("MISSED")
        # the model must make the kernel's decision (no pick) for a reason
        rid = EXIT_REASON.get(exit_, "NO_BUSIEST" if exit_ == fm.X_NO_BUSIEST else "UNEXPLAINED") \
            if busiest is None else "UNEXPLAINED"
        out["reason"] = names.r(rid)
    else:
        out["verdict"] = names.v("WRONG")
        out["reason"] = names.r(wrong_reason(r, case, sds, p) if busiest == p else "UNEXPLAINED")
    return out


def wrong_reason(r, case, sds, p):
    """The reason of a wrong pick the model reproduces: active balance
    intent, else the pick's class."""
    cls = sds["stats"][p]["group_type"]
    if cls == fm.MISFIT:
        return "ACTIVE_MISFIT"
    if cls == fm.ASYM:
        return "ACTIVE_ASYM"
    if cls == fm.IMBALANCED:
        return "CLASS_IMBALANCED"       # forced before prefer_sibling is tried
    # docs/debugfs.md (the reason table): active_prefer_sibling when
    # prefer_sibling forced the balance of a group that is not overloaded
    local, b = sds["local_stat"], sds["stats"][p]
    if sds["prefer_sibling"] and local["group_type"] == fm.HAS_SPARE and cls != fm.OVERLOADED:
        if r["smt"]:
            forced = (r["llc"] and cls == fm.LLC_BALANCE) or \
                fm.sibling_imbalance(case, sds, b, local) > 1
        else:
            forced = b["sum_nr_running"] > local["sum_nr_running"] + 1
        if forced:
            return "ACTIVE_PREFER_SIBLING"
    return "CLASS_" + cls.upper()


# ---- what the module's model sees, and why it may differ (audit_explain()) ----

def neutral(case):
    """The case as the module's model takes it: the inputs of the rules it
    leaves out replaced by its assumptions (docs/debugfs.md, "Model and
    agreement"): dst's asym_packing priority above every group's and the
    groups' own priorities rising in visiting order (the first of two
    asym_packing groups is kept), every CPU overutilized, no group
    llc_balance.  The return read only (entry reads stay as they are)."""
    n = dict(case, cpus=[dict(c) for c in case["cpus"]], groups=[dict(g) for g in case["groups"]])
    n["sched_cache"] = False
    for gi, g in enumerate(n["groups"]):
        for i in g["cpus"]:
            n["cpus"][i]["prio"] = 1 + gi
            n["cpus"][i]["overutilized"] = True
        if g["cpus"]:
            g["asym_prefer_cpu"] = g["cpus"][0]
    n["cpus"][n["dst"]]["prio"] = 1000
    n["groups"][0]["asym_prefer_cpu"] = n["dst"]
    # dst_core_idle is read once, with the return read (the entry read does not change it)
    n["dst_core_idle"] = fm.dst_core_is_idle(case)
    return n


def _pick(variant, case):
    p = fm.find_busiest_group(variant, case)[0]
    return -1 if p is None else p


def explain(variant, case, kernel_pick, base=None, base_pick=None):
    """The cause audit_explain() must give: (cause, known rule, model runs),
    following its documented order with this model (fairmodel.py) on the
    neutral case.  kernel_pick: group index or -1; base, base_pick: the
    neutral case and its outcome when the caller has them."""
    r = fm.rules(variant, case)
    base = base or neutral(case)
    if (_pick(variant, base) if base_pick is None else base_pick) == kernel_pick:
        return "agree", "-", 0
    if case["idle"] == fm.CPU_NOT_IDLE:
        return "unknown", "-", 0
    ng = len(case["groups"])
    st = dict(runs=0, budget=ng + 2)

    def room():
        return st["runs"] < st["budget"]

    def run(c):
        st["runs"] += 1
        return _pick(variant, c) == kernel_pick

    def stale_of(gi):
        g = base["groups"][gi]
        return "entry_sgc" in g or any("entry" in base["cpus"][i] for i in g["cpus"])

    def from_entry(only):
        c = dict(base, cpus=[dict(x) for x in base["cpus"]],
                 groups=[dict(g) for g in base["groups"]])
        for gi, g in enumerate(c["groups"]):
            if only is not None and gi != only:
                continue
            if "entry_sgc" in g:
                g["capacity"] = g["entry_sgc"]
            for i in g["cpus"]:
                if "entry" in c["cpus"][i]:
                    c["cpus"][i].update(c["cpus"][i]["entry"])
        return c

    stale = [gi for gi in range(ng) if stale_of(gi)]
    if stale and run(from_entry(None)):
        return "stale", "-", st["runs"]
    if len(stale) > 1:
        for gi in stale:
            if not room():
                break
            if run(from_entry(gi)):
                return "stale", "-", st["runs"]
    kp = kernel_pick
    if r["llc"] and "SHARE_LLC" not in case["flags"]:
        for gi in ([kp] if kp >= 0 else range(ng)):
            if gi > 0 and room() and \
                    sum(base["cpus"][i].get("llc_pref", 0) for i in base["groups"][gi]["cpus"]) and \
                    run(dict(base, llc_on={gi})):
                return "known", "llc_balance", st["runs"]
    if "ASYM_PACKING" in case["flags"]:
        if kp > 0 and room() and run(dict(base, asym_off=set(range(1, ng)) - {kp})):
            return "known", "asym_packing", st["runs"]
        if room() and run(dict(base, asym_off=set(range(1, ng)))):
            return "known", "asym_packing", st["runs"]
    if r["overloaded_needs_ou"] and case.get("eas_pd"):
        def ou(keep):
            return room() and run(dict(base, ou_off=set(range(ng)) - set(keep)))
        if kp >= 0:
            for keep in ({kp, 0}, {kp}, {0}, set()):
                if ou(keep):
                    return "known", "eas_overutilized", st["runs"]
        else:
            if ou(set()) or ou({0}):
                return "known", "eas_overutilized", st["runs"]
            sds = fm.find_busiest_group(variant, base)[2]
            for gi in range(1, ng):
                if sds["stats"][gi]["group_type"] != fm.OVERLOADED:
                    continue
                if ou({gi, 0}) or ou({gi}):
                    return "known", "eas_overutilized", st["runs"]
    return "unknown", "-", st["runs"]
