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
    """SHADOW_WORK_RESTRICTED of module/core/work.h: how many restricted
    waiters a CPU's published summary records with their masks."""
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
    (module/core/work.h) records only the first SHADOW_WORK_RESTRICTED
    waiters whose affinity is neither every CPU nor one CPU: a further
    such waiter makes the answer "unknown" unless another waiter is a yes.
    """
    c = case["cpus"][i]
    n = len(case["cpus"])
    restricted = 0
    unknown = False
    for w in c.get("waiters", ()):
        kind_restricted = not w.get("migdis") and 1 < len(w["mask"]) < n
        if kind_restricted:
            restricted += 1
            if restricted > names.bound:
                unknown = True
                continue
        if fm.can_migrate(r, case, i, w, dst):
            return fm.WORK_YES
    return fm.WORK_UNKNOWN if unknown else fm.WORK_NO


def judge(names, case, kernel_pick, model=None):
    """Verdict, reason, the model's outcome (group index or exit) and the
    classes, for an attempt where the kernel returned kernel_pick.
    model: find_busiest_group()'s answer for the case, if already known."""
    v = case["variant"]
    r = fm.rules(v)
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
