# SPDX-License-Identifier: GPL-2.0
"""Random sched domains for the cross-check (stdlib random, seeded).

A case is a plain dict (see fairmodel.py for the fields the rules read):
the destination, its idle type, the domain's flags and knobs, the groups
in the kernel's visiting order (the local group first, as sd->groups
starts with the group of the CPU the domain belongs to) and per-CPU state
with each CPU's queued waiters.  Shapes are drawn from a few archetypes
so that every class and every balanced exit comes up often; the values
inside are random.
"""
import random

PCTS = (110, 117, 117, 125)


class _Fast:
    """rng.randint/choice/sample from rng.random() alone (several times faster)."""

    def __init__(self, rng):
        self.random = rng.random

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]

    def randrange(self, n):
        return int(self.random() * n)

    def sample(self, seq, k):
        seq = list(seq)
        out = []
        for _ in range(k):
            out.append(seq.pop(int(self.random() * len(seq))))
        return out


def _cpu(rng, nr, h_nr=None, cap=1024):
    if h_nr is None:
        h_nr = nr if rng.random() < 0.8 else rng.randint(0, nr)
    load = util = 0
    for _ in range(h_nr):
        load += rng.choice((0, 15, 100, 335, 512, 700, 1024, 1024, 2048))
        util += rng.randint(0, 1024)
    util = min(1024, util)
    if rng.random() < 0.15:
        util = rng.randint(0, 1300)
    runnable = util + rng.randint(0, 600) * h_nr if h_nr else rng.randint(0, 40)
    util_est = rng.choice((0, 0, 0, util // 2, util + 200)) if h_nr else 0
    return dict(nr_running=nr, h_nr_running=h_nr, load=load, util=util, util_est=util_est,
                runnable=runnable,
                capacity=cap, capacity_orig=1024, idle=True, misfit=0, prio=0,
                overutilized=False, waiters=[], unknown=0, throttled=[], llc_pref=0)


def _waiters(rng, case, i, ncpus):
    """The CFS tasks queued on CPU i but not running: h_nr_running - 1
    (one CFS task runs) or all of them when an RT/DL task runs."""
    c = case["cpus"][i]
    rt_running = c["nr_running"] > c["h_nr_running"]
    n = c["h_nr_running"] if rt_running else max(c["h_nr_running"] - 1, 0)
    allc = list(range(ncpus))
    for _ in range(n):
        x = rng.random()
        w = dict(mask=allc)
        if x < 0.15:
            w["mask"] = [i]                       # pinned
        elif x < 0.35:
            w["mask"] = sorted(set([i] + rng.sample(allc, rng.randint(1, ncpus))))
        elif x < 0.42:
            w["migdis"] = True
        elif x < 0.45:
            w["kthread"] = True
            w["mask"] = [i]
        if rng.random() < 0.15:
            w["tg"] = rng.randint(1, 2)
        c["waiters"].append(w)
    # more restricted waiters than the publisher records (unknown)
    if rng.random() < 0.03:
        for _ in range(rng.randint(4, 6)):
            c["waiters"].append(dict(mask=sorted(set([i] + rng.sample(allc, max(1, ncpus // 2))))))
        c["nr_running"] += len(c["waiters"]) - n
        c["h_nr_running"] += len(c["waiters"]) - n


def gen_case(rng, variant):
    rng = _Fast(rng)
    ng = rng.choice((2, 2, 3, 3, 3, 4, 5))
    sizes = [rng.choice((1, 2, 2, 2, 3, 4)) for _ in range(ng)]
    if rng.random() < 0.6:
        sizes = [sizes[0]] * ng
    cpus, groups = [], []
    smt_dom = rng.random() < 0.25
    arche = rng.choice(("idle", "spread", "overload", "overload", "mixed", "single",
                        "pinned", "busy_local", "fully_busy"))
    for gi, sz in enumerate(sizes):
        ids = list(range(len(cpus), len(cpus) + sz))
        for k in ids:
            if arche == "idle":
                nr = rng.choice((0, 0, 1, 1, 2))
            elif arche == "spread":
                nr = rng.choice((0, 1, 1, 2))
            elif arche == "overload":
                nr = rng.choice((1, 2, 3, 4))
            elif arche == "single":
                nr = rng.choice((0, 1))
            elif arche == "busy_local" and gi == 0:
                nr = rng.choice((2, 3, 4))
            elif arche == "fully_busy":
                # one task per CPU near full utilization: fully_busy groups
                nr = (rng.choice((0, 2)) if gi == len(sizes) - 1 and gi > 1 else 1) \
                    if gi else rng.choice((0, 0, 1))
            else:
                nr = rng.choice((0, 1, 2, 3))
            if gi == 0 and rng.random() < 0.5:
                nr = rng.choice((0, 0, 1))
            cap = 1024
            if rng.random() < 0.12:
                cap = rng.choice((300, 600, 800, 860, 900, 1000))
            cpus.append(_cpu(rng, nr, cap=cap))
            if arche == "fully_busy" and nr == 1:
                u = rng.randint(960, 1024)
                cpus[-1].update(util=u, runnable=u + rng.randint(0, 40))
        g = dict(cpus=ids, weight=sz, imbalanced=rng.random() < 0.06,
                 smt=(sz > 1 and (smt_dom or rng.random() < 0.1)),
                 prefer_sibling=rng.random() < 0.5, cores=max(1, sz // 2 if smt_dom else sz),
                 asym_prefer_cpu=ids[0], llc_pref=0, llc_can_migrate=False)
        if rng.random() < 0.1 and sz > 1:
            g["weight"] = sz + rng.randint(1, 2)    # env->cpus left CPUs out
        g["capacity"] = sum(cpus[k]["capacity"] for k in ids)
        if rng.random() < 0.1:
            g["capacity"] = rng.choice((512, 1024, 1500, 2048, 3000))
        caps = [cpus[k]["capacity"] for k in ids]
        g["max_capacity"], g["min_capacity"] = max(caps), min(caps)
        groups.append(g)
    ncpus = len(cpus)
    dst = rng.choice(groups[0]["cpus"])
    # the destination is idle or newly idle in most cases (judged attempts)
    idle = rng.choice((0, 0, 2, 2, 2, 1))
    if idle != 1:
        cpus[dst].update(nr_running=0, h_nr_running=0, load=rng.choice((0, 0, 12)),
                         util=rng.choice((0, 5, 300)), runnable=rng.choice((0, 3)))
    flags = set()
    if ng >= 2 and all(sz == 1 for sz in sizes) and rng.random() < 0.25:
        # an SMT domain: its groups are the siblings of one core
        flags.add("SHARE_CPUCAPACITY")
        for g in groups:
            g["smt"] = False
    if rng.random() < 0.12:
        flags.add("ASYM_PACKING")
    if rng.random() < 0.08:
        flags.add("ASYM_CPUCAPACITY")
    if rng.random() < 0.2:
        flags.add("NUMA")
    elif rng.random() < 0.4:
        flags.add("SHARE_LLC")
    # rd->overutilized as read: an int (SG_OVERUTILIZED, 2) before 6.10, a bool since
    case = dict(variant=variant, dst=dst, idle=idle, pct=rng.choice(PCTS), flags=flags,
                child_prefer_sibling=rng.random() < 0.5, imb_numa_nr=rng.choice((0, 1, 2, 4)),
                eas_pd=rng.random() < 0.12,
                rd_overutilized=rng.choice((0, 0, 1, 2)),
                sched_cache=rng.random() < 0.3,
                smt_active=rng.random() < 0.85, sd_smt="SHARE_CPUCAPACITY" in flags,
                groups=groups, cpus=cpus)
    # enum group_type: the kernel's order, or (sometimes) another one: the
    # core must follow BTF's values, not assume them
    if rng.random() < 0.05:
        perm = list(range(8))
        for i in range(7, 0, -1):
            j = rng.randrange(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        case["enum_perm"] = perm
    if "NUMA" in flags:
        case["child_prefer_sibling"] = rng.random() < 0.2
    if "ASYM_CPUCAPACITY" in flags and rng.random() < 0.7:
        # big.LITTLE: groups of little CPUs (capacity_orig < 1024) beside big ones
        for gi, g in enumerate(groups):
            orig = 1024 if gi == 0 or rng.random() < 0.3 else rng.choice((446, 512, 800))
            for k in g["cpus"]:
                cpus[k]["capacity_orig"] = orig
                cpus[k]["capacity"] = min(cpus[k]["capacity"], orig)
            caps = [cpus[k]["capacity"] for k in g["cpus"]]
            g["max_capacity"], g["min_capacity"] = max(caps), min(caps)
            g["capacity"] = sum(caps)
    for g in groups:
        for k in g["cpus"]:
            cpus[k]["siblings"] = list(g["cpus"]) if g["smt"] else [k]
            if case["sd_smt"]:
                cpus[k]["siblings"] = list(range(len(cpus)))
            if "ASYM_PACKING" in flags:
                cpus[k]["prio"] = rng.randint(0, 3)
            if "ASYM_CPUCAPACITY" in flags and cpus[k]["h_nr_running"] == 1 and rng.random() < 0.5:
                cpus[k]["misfit"] = rng.choice((100, 400, 400, 800))
            if rng.random() < 0.2:
                cpus[k]["overutilized"] = True
            if rng.random() < 0.03:
                cpus[k]["throttled"] = [rng.randint(1, 2)]
        if "ASYM_PACKING" in flags:
            g["asym_prefer_cpu"] = max(g["cpus"], key=lambda k: (cpus[k]["prio"], -k))
        if case["sched_cache"] and rng.random() < 0.3:
            g["llc_pref"] = rng.randint(0, 3)
            g["llc_can_migrate"] = rng.random() < 0.7
            # per CPU (what the module reads): the group's count on its first CPU
            cpus[g["cpus"][0]]["llc_pref"] = g["llc_pref"]
    if rng.random() < 0.05:                     # nr_running 0 but not idle_cpu()
        k = rng.randrange(ncpus)
        if k != dst and cpus[k]["nr_running"] == 0:
            cpus[k]["idle"] = False
    if rng.random() < 0.03 and ng >= 2:
        _boundary(rng, case)
    for k in range(ncpus):
        _waiters(rng, case, k, ncpus)
    if rng.random() < 0.06:
        _stale(rng, case)
    return case


def _stale(rng, case):
    """The search's entry read: 1-3 CPUs (and sometimes a group's
    sgc->capacity) read otherwise at the search's entry than at its return
    (the case's values are the return read)."""
    cpus, groups = case["cpus"], case["groups"]
    for k in rng.sample(range(len(cpus)), min(len(cpus), rng.randint(1, 3))):
        c = cpus[k]
        e = dict((f, c[f]) for f in ENTRY_FIELDS)
        x = rng.random()
        if x < 0.4:             # a task came or went
            d = rng.choice((-1, 1)) if e["nr_running"] else 1
            e["nr_running"] += d
            e["h_nr_running"] = max(0, e["h_nr_running"] + d)
            e["load"] = max(0, e["load"] + d * rng.choice((100, 512, 1024)))
            e["runnable"] = max(0, e["runnable"] + d * rng.randint(100, 900))
            e["util"] = max(0, min(1024, e["util"] + d * rng.randint(50, 600)))
            e["idle"] = e["nr_running"] == 0
        elif x < 0.8:           # PELT moved
            e["load"] = max(0, e["load"] + rng.randint(-300, 300))
            e["util"] = max(0, e["util"] + rng.randint(-200, 200))
            e["runnable"] = max(0, e["runnable"] + rng.randint(-300, 300))
        else:                   # capacity (RT/IRQ pressure) moved
            e["capacity"] = rng.choice((600, 800, 900, 1024))
        if any(e[f] != c[f] for f in ENTRY_FIELDS):
            c["entry"] = e
    if rng.random() < 0.2:
        g = rng.choice(groups)
        g["entry_sgc"] = max(1, g["capacity"] + rng.choice((-200, -24, 24, 200)))


# the kernel model's inputs of one CPU that the entry read records
ENTRY_FIELDS = ("nr_running", "h_nr_running", "load", "util", "util_est", "runnable",
                "capacity", "capacity_orig", "misfit", "idle", "llc_pref")


def kernel_view(rng, case):
    """What the kernel read: each stale input from the entry or the return
    read (the kernel read each CPU once, in between).  Mostly all from one
    read or one group from the entry; sometimes any mix."""
    stale_c = [i for i, c in enumerate(case["cpus"]) if "entry" in c]
    stale_g = [gi for gi, g in enumerate(case["groups"]) if "entry_sgc" in g]
    if not stale_c and not stale_g:
        return case
    view = dict(case, cpus=[dict(c) for c in case["cpus"]],
                groups=[dict(g) for g in case["groups"]])
    x = rng.random()
    if x < 0.4:
        take = lambda gi, i: True                                   # noqa: E731
    elif x < 0.6:
        one = rng.choice([gi for gi, g in enumerate(case["groups"])
                          if gi in stale_g or any(i in stale_c for i in g["cpus"])])
        take = lambda gi, i: gi == one                              # noqa: E731
    else:
        pick = {k: rng.random() < 0.5 for k in stale_c + [("g", gi) for gi in stale_g]}
        take = lambda gi, i: pick[i if i is not None else ("g", gi)]  # noqa: E731
    for gi, g in enumerate(view["groups"]):
        if gi in stale_g and take(gi, None):
            g["capacity"] = g["entry_sgc"]
        for i in g["cpus"]:
            if i in stale_c and take(gi, i):
                view["cpus"][i].update(case["cpus"][i]["entry"])
    return view


def _boundary(rng, case):
    """Inputs on the edges of the rules' comparisons: the local group's
    avg_load exactly 100/imbalance_pct of the busiest's (local_load), or a
    CPU capacity with capacity * pct == 1024 * 100 (check_cpu_capacity())."""
    cpus, groups, pct = case["cpus"], case["groups"], case["pct"]
    if rng.random() < 0.5:
        if pct not in (110, 125):
            case["pct"] = pct = rng.choice((110, 125))
        for gi, avg in ((0, 1000), (1, 10 * pct)):
            g = groups[gi]
            n = len(g["cpus"])
            g["capacity"] = 1024 * n
            for k in g["cpus"]:
                cpus[k].update(nr_running=2, h_nr_running=2, load=0, util=1024,
                               runnable=1024 + 200, idle=True)
            cpus[g["cpus"][0]]["load"] = avg * n
            if gi == 0 and case["idle"] != 1:
                case["idle"] = 1    # a busy destination can sit in an overloaded group
    else:
        case["pct"] = 128
        k = rng.choice(groups[-1]["cpus"])
        cpus[k].update(capacity=800, capacity_orig=1024, nr_running=1, h_nr_running=1)
