# SPDX-License-Identifier: GPL-2.0
"""find_busiest_group() of each kernel, written from kernel/sched/fair.c.

An independent second model of the load balancer's choice of a busiest
group, for checking module/core/audit_core.c.  It is written from the
kernel sources (never from audit_core.c) and recomputes everything from
per-CPU state: the group sums of update_sg_lb_stats(), misfit load, the
classes, the pick, the balanced exits and calculate_imbalance(), and the
work each CPU can give to the destination (can_migrate_task()).

Sources read, by the tag used in the comments:
  [5.10]  Debian linux-source-5.10 5.10.223, kernel/sched/fair.c
  [6.1]   Debian linux-source-6.1 6.1.192 (carries stable backports)
  [6.12]  Debian linux-source-6.12 6.12.117
  [7.2]   Debian linux-source-7.2 7.2.12
  [7.3]   Debian linux-source-7.3 7.3.4
  [v6.3]  upstream "sched/fair: unlink misfit task from cpu overutilized"
          (V. Guittot, LKML v4 2023-01-19, e5ed0550c04c): find_busiest_group()
          forces misfit before the EAS exit (in Debian's 6.1.192 too)
  [v6.9]  upstream series "sched/fair: Do strict inequality check for
          busiest misfit task group" and "Simplify some logic in
          update_sd_pick_busiest()" (D. Vernet, LKML 2024-02-04, merged
          for v6.9): the misfit and asym_packing ties.
Rule variants (RULES below) combine them; README.md in this directory
says which source decides each variant and where a variant is inferred.

Integer semantics follow the kernel's types: unsigned long (u64) sums
and products wrap, sum_nr_running/idle_cpus are unsigned int, and
env->imbalance is a long.
"""

U64 = (1 << 64) - 1
U32 = (1 << 32) - 1

# enum cpu_idle_type values (include/linux/sched/idle.h)
CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE = 0, 1, 2

SCHED_CAPACITY_SCALE = 1024
NUMA_IMBALANCE_MIN = 2          # [6.1] fair.c NUMA_IMBALANCE_MIN

HAS_SPARE, FULLY_BUSY, MISFIT, SMT_BALANCE, ASYM, IMBALANCED, LLC_BALANCE, OVERLOADED = (
    "has_spare", "fully_busy", "misfit", "smt_balance", "asym", "imbalanced",
    "llc_balance", "overloaded")

# Balanced exits of find_busiest_group(), by the name the checker gives them.
X_NO_BUSIEST = "no_busiest"     # !sds.busiest
X_EAS = "eas"                   # rd->pd && !rd->overutilized
X_LOCAL_CLASS = "local_class"   # local->group_type > busiest->group_type
X_LOCAL_LOAD = "local_load"     # overloaded local: avg_load checks
X_BUSY_DST = "busy_dst"         # busiest not overloaded and env->idle == CPU_NOT_IDLE
X_IDLE_CPUS = "idle_cpus"       # local->idle_cpus <= busiest->idle_cpus + 1
X_SINGLE_TASK = "single_task"   # busiest->sum_h_nr_running == 1
X_IMBALANCE_ZERO = "imbalance_zero"  # calculate_imbalance() left 0


def rules(variant, case=None):
    """The rule set of a variant: a dict of booleans and the class order
    (from the case's raw enum group_type when it has one)."""
    r = dict(RULES[variant])
    r["variant"] = variant
    if case is not None and case.get("group_type_enum"):
        r["order"] = order_from_enum(case["group_type_enum"])
    return r


# enum group_type order (the rank used by every comparison):
#   [5.10]/[6.1] has_spare, fully_busy, misfit_task, asym_packing, imbalanced, overloaded
#   [6.12] adds group_smt_balance after misfit_task (upstream 6.6)
#   [7.2]  adds group_llc_balance after imbalanced (CONFIG_SCHED_CACHE)
ORDER_61 = [HAS_SPARE, FULLY_BUSY, MISFIT, ASYM, IMBALANCED, OVERLOADED]
ORDER_66 = [HAS_SPARE, FULLY_BUSY, MISFIT, SMT_BALANCE, ASYM, IMBALANCED, OVERLOADED]
ORDER_72 = [HAS_SPARE, FULLY_BUSY, MISFIT, SMT_BALANCE, ASYM, IMBALANCED, LLC_BALANCE, OVERLOADED]

BASE = {
    "order": ORDER_61,
    "eas_first": False,         # EAS exit before !busiest and misfit
    "misfit_reduced_cap": True, # misfit from sched_reduced_capacity() without asym capacity
    "misfit_imb_load": True,    # calculate_imbalance(): misfit imbalance is the misfit load
    "misfit_dst_can_help": False,  # misfit load counted only if dst can help
    "asym_local_too": False,    # asym_packing also classifies the local group
    "asym_smt": "61",           # sched_asym(): "510", "61" or "66"
    "cap_check_first": True,    # asym-capacity min_capacity filter before comparing group types
    "cap_510": False,           # 5.10's capacity filters (fits_capacity() against the local group)
    "smt": False,               # smt_balance, sibling_imbalance, SMT fully_busy/has_spare ties
    "prefer_sibling_busiest": False,  # prefer_sibling from busiest group's flags
    "tie_strict": False,        # misfit '>' and asym prefer(busiest, sg)
    "numa_510": False,          # 5.10 adjust_numa_imbalance(imb>>1, busiest nr)
    "llc": False,               # group_llc_balance
    "overloaded_needs_ou": False,  # group_is_overloaded(): EAS needs an overutilized CPU
    "throttle_dst_only": False, # can_migrate_task(): lb_throttled_hierarchy(p, dst)
    "llc_not_asym": False,      # llc_balance() refuses an asym_packing group
}

RULES = {
    # [5.10] find_busiest_group(): the EAS exit comes first, before
    # !sds.busiest and the misfit force; misfit only from
    # rq->misfit_task_load (asym capacity), imbalance 1; the asym-capacity
    # min_capacity check after the type compare; asym_packing without the
    # !local_group test; NUMA: adjust_numa_imbalance(imbalance >> 1, busiest nr).
    "5.10": dict(BASE, eas_first=True, misfit_reduced_cap=False, misfit_imb_load=False,
                 asym_local_too=True, asym_smt="510", cap_check_first=False, cap_510=True,
                 numa_510=True),
    # [6.1] Debian 6.1.192: misfit force before the EAS exit, capacity
    # checks before the type compare (backports).
    "6.1": dict(BASE),
    # 6.6: [6.12] text of the 6.5/6.6 changes (smt_balance, sibling_imbalance,
    # prefer_sibling of the busiest group, SMT ties, sched_group_asym()),
    # ties of misfit/asym as before [v6.9]; misfit before the EAS exit since
    # [v6.3] "sched/fair: unlink misfit task from cpu overutilized"; the
    # min_capacity filter after the type compare (the issue: moved by the
    # 7.3 merge, backported to Debian's 6.1.192/6.12.117).  No v6.6 tree
    # was read, see README.md.
    "6.6": dict(BASE, order=ORDER_66, asym_smt="66", smt=True,
                prefer_sibling_busiest=True, cap_check_first=False),
    # 6.10: [6.12] text; strict misfit/asym ties [v6.9]; misfit before EAS.
    "6.10": dict(BASE, order=ORDER_66, asym_smt="66", smt=True,
                 prefer_sibling_busiest=True, tie_strict=True),
    # [7.2] group_llc_balance, group_is_overloaded() needs an overutilized
    # CPU under EAS, lb_throttled_hierarchy() looks at dst only.
    "7.2": dict(BASE, order=ORDER_72, asym_smt="66", smt=True, prefer_sibling_busiest=True,
                tie_strict=True, llc=True, overloaded_needs_ou=True, throttle_dst_only=True),
    # [7.3] misfit load counted only when dst can help (asym capacity).
    "7.3": dict(BASE, order=ORDER_72, asym_smt="66", smt=True, prefer_sibling_busiest=True,
                tie_strict=True, llc=True, overloaded_needs_ou=True, throttle_dst_only=True,
                misfit_dst_can_help=True, llc_not_asym=True),
}
VARIANTS = list(RULES)


# enum group_type's enumerators as the kernel spells them (BTF names)
ENUM_NAME = {HAS_SPARE: "group_has_spare", FULLY_BUSY: "group_fully_busy",
             MISFIT: "group_misfit_task", SMT_BALANCE: "group_smt_balance",
             ASYM: "group_asym_packing", IMBALANCED: "group_imbalanced",
             LLC_BALANCE: "group_llc_balance", OVERLOADED: "group_overloaded"}


def classes_of(variant):
    return list(RULES[variant]["order"])


def enum_of(variant):
    """The variant's enum group_type as the kernel declares it: (name, value)
    pairs, the values counting up from 0 in declaration order."""
    return [(ENUM_NAME[c], v) for v, c in enumerate(RULES[variant]["order"])]


def order_from_enum(enum):
    """The class order the comparisons follow, from the enumerators' values
    (the kernel compares group_type values with < and >)."""
    by_name = {n: c for c, n in ENUM_NAME.items()}
    return [by_name[n] for n, v in sorted(enum, key=lambda nv: nv[1]) if n in by_name]


def rank(r, cls):
    return r["order"].index(cls)


def capacity_greater(a, b):
    # [6.1] fair.c: #define capacity_greater(cap1, cap2) ((cap1) * 1024 > (cap2) * 1078)
    return (a * 1024) & U64 > (b * 1078) & U64


def fits_capacity(cap, maxc):
    # [5.10] fair.c: #define fits_capacity(cap, max) ((cap) * 1280 < (max) * 1024)
    return (cap * 1280) & U64 < (maxc * 1024) & U64


def to_long(x):
    x &= U64
    return x - (1 << 64) if x >> 63 else x


def to_int(x):
    x &= U32
    return x - (1 << 32) if x >> 31 else x


# ---------------------------------------------------------------- work ----

def can_migrate(r, case, src, w, dst):
    """can_migrate_task() for waiter w queued (not running) on CPU src.

    [6.1] can_migrate_task(): throttled_lb_pair() (the task group's cfs_rq
    throttled on src or on dst), kthread_is_per_cpu(), cpumask_test_cpu(
    env->dst_cpu, p->cpus_ptr) (is_migration_disabled() is folded into
    cpus_ptr by migrate_disable(); checked here as its own bit), task
    running.  [7.2] lb_throttled_hierarchy(p, dst_cpu): only dst's cfs_rq.
    Cache hotness (task_hot) and NUMA locality are not modelled: they
    refuse only while nr_balance_failed is low.
    """
    if w.get("migdis") or w.get("kthread"):
        return False
    if dst not in w["mask"]:
        return False
    tg = w.get("tg")
    if tg is not None:
        if tg in case["cpus"][dst].get("throttled", ()):
            return False
        if not r["throttle_dst_only"] and tg in case["cpus"][src].get("throttled", ()):
            return False
    return True


WORK_NO, WORK_YES, WORK_UNKNOWN = 0, 1, 2


def cpu_work(r, case, i, dst):
    c = case["cpus"][i]
    if any(can_migrate(r, case, i, w, dst) for w in c.get("waiters", ())):
        return WORK_YES
    # waiters whose affinity the publisher did not record (bounded summary)
    return WORK_UNKNOWN if c.get("unknown", 0) else WORK_NO


# ------------------------------------------------------------- stats ----

def group_has_capacity(pct, s):
    # [6.1] group_has_capacity()
    if s["sum_nr_running"] < s["group_weight"]:
        return True
    if (s["group_capacity"] * pct) & U64 < (s["group_runnable"] * 100) & U64:
        return False
    if (s["group_capacity"] * 100) & U64 > (s["group_util"] * pct) & U64:
        return True
    return False


def group_is_overloaded(r, case, pct, s):
    # [7.2] group_is_overloaded(): with EAS (sched_energy_enabled()) one CPU
    # of the group must be overutilized
    # sched_energy_enabled(): an energy model (rd->pd; one root domain)
    if r["overloaded_needs_ou"] and case.get("eas_pd") and not s["group_overutilized"]:
        return False
    # [6.1] group_is_overloaded()
    if s["sum_nr_running"] <= s["group_weight"]:
        return False
    if (s["group_capacity"] * 100) & U64 < (s["group_util"] * pct) & U64:
        return True
    if (s["group_capacity"] * pct) & U64 < (s["group_runnable"] * 100) & U64:
        return True
    return False


def group_classify(r, case, pct, g, s):
    # [6.1] group_classify(): overloaded, imbalanced, asym_packing, misfit,
    # fully_busy, has_spare; [6.12] smt_balance after asym_packing;
    # [7.2] llc_balance right after overloaded
    if group_is_overloaded(r, case, pct, s):
        return OVERLOADED
    if r["llc"] and s["group_llc_balance"]:
        return LLC_BALANCE
    if g.get("imbalanced"):             # sg_imbalanced(): sgc->imbalance
        return IMBALANCED
    if s["group_asym_packing"]:
        return ASYM
    if r["smt"] and s["group_smt_balance"]:
        return SMT_BALANCE
    if s["group_misfit_task_load"]:
        return MISFIT
    if not group_has_capacity(pct, s):
        return FULLY_BUSY
    return HAS_SPARE


def is_core_idle(case, cpu):
    # [6.1] is_core_idle(): for_each_cpu(sibling, cpu_smt_mask(cpu)): every
    # sibling but cpu is idle_cpu()
    c = case["cpus"][cpu]
    return all(case["cpus"][s]["idle"] for s in c.get("siblings", ()) if s != cpu)


def dst_capacity(case):
    """capacity_of(env->dst_cpu) (an event gives it as dst_cap)."""
    return case.get("dst_cap", case["cpus"][case["dst"]]["capacity"])


def dst_core_is_idle(case):
    """[6.1] update_sd_lb_stats(): env->dst_core_idle = !sched_smt_active() ||
    is_core_idle(env->dst_cpu) (an event gives it as dst_core_idle)."""
    if "dst_core_idle" in case:
        return case["dst_core_idle"]
    return not case.get("smt_active", True) or is_core_idle(case, case["dst"])


def sched_asym_prefer(case, a, b):
    # [6.1] sched.h sched_asym_prefer(): arch_asym_cpu_priority(a) > (b)
    return case["cpus"][a].get("prio", 0) > case["cpus"][b].get("prio", 0)


def group_asym(r, case, local_g, local_s, g, s):
    """Is dst preferred to group g (group_asym_packing)?"""
    dst = case["dst"]
    if r["asym_smt"] == "510":
        # [5.10] update_sg_lb_stats(): sched_asym_prefer(dst, asym_prefer_cpu)
        return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])
    if r["asym_smt"] == "61":
        # [6.1] sched_asym(): SMT checks when local or candidate is SMT
        # (asym_smt_can_pull_tasks()), else sched_asym_prefer()
        local_smt, sg_smt = local_g.get("smt", False), g.get("smt", False)
        if not (local_smt or sg_smt):
            return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])
        # (its #else, "return false", is !CONFIG_SCHED_SMT: compiled out)
        sg_busy = (s["group_weight"] - s["idle_cpus"]) & U32
        sg_busy = to_int(sg_busy)
        if not local_smt:
            if sg_busy >= 2:
                return True
            return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])
        if sg_smt:
            local_busy = to_int(local_s["group_weight"] - local_s["idle_cpus"])
            if sg_busy - local_busy == 1:
                return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])
            return False
        if not local_s["sum_nr_running"]:
            return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])
        return False
    # [6.12] sched_group_asym(): an SMT group with more than one busy CPU
    # is never asym; then sched_asym(): sched_use_asym_prio(sd, dst) &&
    # sched_asym_prefer(dst, asym_prefer_cpu)
    if g.get("smt") and to_int(s["group_weight"] - s["idle_cpus"]) != 1:
        return False
    # sched_use_asym_prio(): SD_ASYM_PACKING; !sched_smt_active() is true;
    # else SD_SHARE_CPUCAPACITY or is_core_idle(dst)
    if not case.get("sd_smt") and not dst_core_is_idle(case):
        return False
    return sched_asym_prefer(case, dst, g["asym_prefer_cpu"])


def update_sg_lb_stats(r, case, gi, local_s=None):
    """[6.1] update_sg_lb_stats(): the group's sums over its CPUs (already
    restricted to env->cpus), misfit load, then the class."""
    g = case["groups"][gi]
    flags = case["flags"]
    idle = case["idle"]
    pct = case["pct"]
    local = gi == 0  # sd->groups starts with the group holding dst_cpu
    s = dict(group_load=0, group_util=0, group_runnable=0, sum_h_nr_running=0,
             sum_nr_running=0, idle_cpus=0, group_misfit_task_load=0,
             group_overutilized=False, group_asym_packing=False,
             group_smt_balance=False, group_llc_balance=False, avg_load=0)
    for i in g["cpus"]:
        c = case["cpus"][i]
        load = c["load"]                                    # cpu_load(rq)
        s["group_load"] = (s["group_load"] + load) & U64
        # [6.1] sched.h cpu_util_cfs(), [5.10] cpu_util(), [6.12] cpu_util(cpu, NULL, -1, 0):
        # min(max(util_avg, util_est) (UTIL_EST on), the CPU's original capacity)
        util = min(max(c["util"], c.get("util_est", 0)), c["capacity_orig"])
        s["group_util"] = (s["group_util"] + util) & U64
        s["group_runnable"] = (s["group_runnable"] + c["runnable"]) & U64
        s["sum_h_nr_running"] = (s["sum_h_nr_running"] + c["h_nr_running"]) & U32
        nr = c["nr_running"]
        s["sum_nr_running"] = (s["sum_nr_running"] + nr) & U32
        if c.get("overutilized"):                           # [7.2] cpu_overutilized(i)
            s["group_overutilized"] = True
        if gi in case.get("ou_off", ()):                    # an explanation's flip (judge.py)
            s["group_overutilized"] = False
        # "No need to call idle_cpu() if nr_running is not 0"
        if not nr and c.get("idle", True):
            s["idle_cpus"] += 1
            continue
        if local:
            continue
        if "ASYM_CPUCAPACITY" in flags:
            m = c.get("misfit", 0)                          # rq->misfit_task_load
            if r["misfit_dst_can_help"]:
                # [7.3] only if capacity_greater(capacity_of(dst), sgc->max_capacity)
                if m and capacity_greater(dst_capacity(case),
                                          g["max_capacity"]) and s["group_misfit_task_load"] < m:
                    s["group_misfit_task_load"] = m
            elif s["group_misfit_task_load"] < m:
                s["group_misfit_task_load"] = m
        elif r["misfit_reduced_cap"] and idle != CPU_NOT_IDLE and c["h_nr_running"] == 1 and \
                (c["capacity"] * pct) & U64 < (c["capacity_orig"] * 100) & U64:
            # [6.1] sched_reduced_capacity(): cfs.h_nr_running == 1 and
            # check_cpu_capacity(): cpu_capacity * imbalance_pct < capacity_orig * 100
            if s["group_misfit_task_load"] < load:
                s["group_misfit_task_load"] = load
    s["group_capacity"] = g["capacity"]                     # sgc->capacity
    s["group_weight"] = g["weight"]                         # group->group_weight
    if "ASYM_PACKING" in flags and idle != CPU_NOT_IDLE and s["sum_h_nr_running"] and \
            (r["asym_local_too"] or not local):
        s["group_asym_packing"] = group_asym(r, case, case["groups"][0], local_s, g, s) and \
            gi not in case.get("asym_off", ())              # an explanation's flip (judge.py)
    if r["smt"] and not local and idle != CPU_NOT_IDLE and g.get("smt") and \
            s["sum_h_nr_running"] > 1:
        # [6.12] smt_balance()
        s["group_smt_balance"] = True
    if r["llc"] and not local and case.get("sched_cache") and "SHARE_LLC" not in flags and \
            not ("ASYM_CPUCAPACITY" in flags and s["group_misfit_task_load"]) and \
            not (r["llc_not_asym"] and s["group_asym_packing"]) and \
            g.get("llc_pref", 0) and g.get("llc_can_migrate", False):
        # [7.2] llc_balance(): sched_cache_enabled(), not an LLC domain, no
        # misfit on asym capacity, nr_pref_dst_llc and can_migrate_llc() ==
        # mig_llc (given as llc_can_migrate; nr_balance_failed folded in);
        # [7.3] and not group_asym_packing
        s["group_llc_balance"] = True
    if r["llc"] and not local and gi in case.get("llc_on", ()):
        s["group_llc_balance"] = True                       # an explanation's flip (judge.py)
    s["nr_pref_dst_llc"] = g.get("llc_pref", 0)
    s["group_type"] = group_classify(r, case, pct, g, s)
    if s["group_type"] == OVERLOADED:
        s["avg_load"] = ((s["group_load"] * SCHED_CAPACITY_SCALE) & U64) // s["group_capacity"]
    return s


def smt_vs_nonsmt_groups(g1, g2):
    # [6.12] smt_vs_nonsmt_groups()
    if g1 is None or g2 is None:
        return False
    return bool(g1.get("smt")) != bool(g2.get("smt"))


def update_sd_pick_busiest(r, case, sds, gi, sgs):
    """[6.1] update_sd_pick_busiest(): does group gi replace sds busiest?"""
    flags = case["flags"]
    b = sds["busiest_stat"]
    bg = case["groups"][sds["busiest"]] if sds["busiest"] is not None else None
    g = case["groups"][gi]
    dst_cap = dst_capacity(case)
    if not sgs["sum_h_nr_running"]:
        return False
    asymcap = "ASYM_CPUCAPACITY" in flags
    t, bt = rank(r, sgs["group_type"]), rank(r, b["group_type"])
    if r["cap_510"]:
        # [5.10] misfit: !group_smaller_max_cpu_capacity(sg, sds->local) or
        # local not has_spare (no SD_ASYM_CPUCAPACITY test: misfit needs it)
        if sgs["group_type"] == MISFIT and (
                not fits_capacity(g["max_capacity"], case["groups"][0]["max_capacity"]) or
                sds["local_stat"]["group_type"] != HAS_SPARE):
            return False
    else:
        # [6.1] misfit we can't help: dst core not idle, dst not bigger than
        # the group's max_capacity, or local not has_spare.
        # env->dst_core_idle = !sched_smt_active() || is_core_idle(dst_cpu)
        dst_core_idle = dst_core_is_idle(case)
        if asymcap and sgs["group_type"] == MISFIT and (
                not dst_core_idle or
                not capacity_greater(dst_cap, g["max_capacity"]) or
                sds["local_stat"]["group_type"] != HAS_SPARE):
            return False
    if r["cap_check_first"] and _cap_min_filter(r, case, sgs, g, dst_cap):
        # [6.1] (Debian 6.1.192, 6.12.117; the 7.3 merge) before the type compare
        return False
    if t > bt:
        return True
    if t < bt:
        return False
    ty = sgs["group_type"]
    if ty == OVERLOADED:
        if sgs["avg_load"] <= b["avg_load"]:
            return False
    elif ty == LLC_BALANCE:
        # [7.2] update_llc_busiest(): more tasks preferring dst's LLC
        return sgs["nr_pref_dst_llc"] > b["nr_pref_dst_llc"]
    elif ty == IMBALANCED:
        return False                    # the first imbalanced group stays
    elif ty == ASYM:
        if r["tie_strict"]:
            # [v6.9] return sched_asym_prefer(busiest->asym_prefer_cpu, sg->asym_prefer_cpu)
            return sched_asym_prefer(case, bg["asym_prefer_cpu"], g["asym_prefer_cpu"])
        # [6.1] if (sched_asym_prefer(sg, busiest)) return false
        if sched_asym_prefer(case, g["asym_prefer_cpu"], bg["asym_prefer_cpu"]):
            return False
    elif ty == MISFIT:
        if r["tie_strict"]:
            return sgs["group_misfit_task_load"] > b["group_misfit_task_load"]  # [v6.9]
        if sgs["group_misfit_task_load"] < b["group_misfit_task_load"]:      # [6.1]
            return False
    elif ty in (SMT_BALANCE, FULLY_BUSY):
        if ty == SMT_BALANCE and (sgs["idle_cpus"] != 0 or b["idle_cpus"] != 0):
            # [6.12] smt_balance: spare CPUs on either group -> has_spare rules
            if sgs["idle_cpus"] > b["idle_cpus"]:
                return False
            if sgs["idle_cpus"] == b["idle_cpus"] and sgs["sum_nr_running"] <= b["sum_nr_running"]:
                return False
            return _cap_check_last(r, case, sgs, g, dst_cap)
        if r["smt"]:
            # [6.12] fully_busy: avg_load is 0 (only overloaded groups
            # compute it): on a tie the later group wins unless the
            # current busiest is an SMT group
            if sgs["avg_load"] < b["avg_load"]:
                return False
            if sgs["avg_load"] == b["avg_load"] and bg is not None and bg.get("smt"):
                return False
        else:
            # [6.1] "avg_load is not computed and always 0 so we select the 1st one"
            if sgs["avg_load"] <= b["avg_load"]:
                return False
    elif ty == HAS_SPARE:
        if r["smt"] and smt_vs_nonsmt_groups(bg, g):
            # [6.12] never an SMT group with one task over a non-SMT group
            if g.get("smt") and sgs["sum_h_nr_running"] <= 1:
                return False
            return True
        # [6.1] fewer idle CPUs, then more tasks
        if sgs["idle_cpus"] > b["idle_cpus"]:
            return False
        if sgs["idle_cpus"] == b["idle_cpus"] and sgs["sum_nr_running"] <= b["sum_nr_running"]:
            return False
    return _cap_check_last(r, case, sgs, g, dst_cap)


def _cap_min_filter(r, case, sgs, g, dst_cap):
    """A candidate with no more than one task per CPU and bigger CPUs than
    dst is not pulled from (SD_ASYM_CPUCAPACITY)."""
    if "ASYM_CPUCAPACITY" not in case["flags"] or rank(r, sgs["group_type"]) > rank(r, FULLY_BUSY):
        return False
    if r["cap_510"]:
        # [5.10] group_smaller_min_cpu_capacity(sds->local, sg)
        return fits_capacity(case["groups"][0]["min_capacity"], g["min_capacity"])
    # [6.1] capacity_greater(sg->sgc->min_capacity, capacity_of(env->dst_cpu))
    return capacity_greater(g["min_capacity"], dst_cap)


def _cap_check_last(r, case, sgs, g, dst_cap):
    # [5.10] the min_capacity filter after the type compare (only reached
    # when the candidate would win within its class)
    if not r["cap_check_first"] and _cap_min_filter(r, case, sgs, g, dst_cap):
        return False
    return True


def update_sd_lb_stats(r, case):
    """[6.1] update_sd_lb_stats(): visit the groups in order (local first)."""
    sds = dict(busiest=None, local=0, total_load=0, total_capacity=0, avg_load=0,
               # [6.1] init_sd_lb_stats(): busiest_stat.idle_cpus = UINT_MAX,
               # group_type = group_has_spare
               busiest_stat=dict(idle_cpus=U32, group_type=HAS_SPARE, avg_load=0,
                                 sum_nr_running=0, group_misfit_task_load=0,
                                 nr_pref_dst_llc=0),
               stats=[])
    for gi in range(len(case["groups"])):
        s = update_sg_lb_stats(r, case, gi, sds["stats"][0] if gi else None)
        sds["stats"].append(s)
        if gi == 0:
            sds["local_stat"] = s
        elif update_sd_pick_busiest(r, case, sds, gi, s):
            sds["busiest"] = gi
            sds["busiest_stat"] = s
        sds["total_load"] = (sds["total_load"] + s["group_load"]) & U64
        sds["total_capacity"] = (sds["total_capacity"] + s["group_capacity"]) & U64
    if r["prefer_sibling_busiest"]:
        # [6.12] prefer_sibling of the busiest group (the flags of a group
        # are those of its child domain)
        sds["prefer_sibling"] = sds["busiest"] is not None and \
            bool(case["groups"][sds["busiest"]].get("prefer_sibling"))
    else:
        # [6.1] child && child->flags & SD_PREFER_SIBLING
        sds["prefer_sibling"] = bool(case.get("child_prefer_sibling"))
    return sds


def sibling_imbalance(case, sds, busiest, local):
    # [6.12] sibling_imbalance()
    if case["idle"] == CPU_NOT_IDLE or not busiest["sum_nr_running"]:
        return 0
    ncb = case["groups"][sds["busiest"]]["cores"]
    ncl = case["groups"][0]["cores"]
    if ncb == ncl:
        imb = busiest["sum_nr_running"]
        return max(imb - local["sum_nr_running"], 0)         # lsub_positive()
    imb = (ncl * busiest["sum_nr_running"]) & U32
    imb = max(imb - ((ncb * local["sum_nr_running"]) & U32), 0)
    imb = 2 * imb + ncl + ncb
    imb //= ncl + ncb
    if imb <= 1 and local["sum_nr_running"] == 0 and busiest["sum_nr_running"] > 1:
        imb = 2
    return imb


def calculate_imbalance(r, case, sds):
    """[6.1] calculate_imbalance(): env->imbalance (a long)."""
    local, busiest = sds["local_stat"], sds["busiest_stat"]
    flags = case["flags"]
    bt = busiest["group_type"]
    if bt == MISFIT:
        if not r["misfit_imb_load"] or "ASYM_CPUCAPACITY" in flags:
            return 1                    # migrate_misfit
        return to_long(busiest["group_misfit_task_load"])   # migrate_load
    if bt == ASYM:
        return busiest["sum_h_nr_running"]
    if bt == SMT_BALANCE:
        return 1                        # [6.12]
    if bt == LLC_BALANCE:
        return 1                        # [7.2] migrate_llc_task
    if bt == IMBALANCED:
        return 1
    if local["group_type"] == HAS_SPARE:
        if rank(r, bt) > rank(r, FULLY_BUSY) and "SHARE_LLC" not in flags:
            imb = to_long(max(local["group_capacity"], local["group_util"]) - local["group_util"])
            if case["idle"] != CPU_NOT_IDLE and imb == 0:
                imb = 1
            return imb
        if r["numa_510"]:
            # [5.10] the halving inside each branch, then
            # adjust_numa_imbalance(imbalance, busiest->sum_nr_running)
            if busiest["group_weight"] == 1 or sds["prefer_sibling"]:
                imb = max(busiest["sum_nr_running"] - local["sum_nr_running"], 0) >> 1
            else:
                imb = ((local["idle_cpus"] - busiest["idle_cpus"]) & U32) >> 1
            if "NUMA" in flags and busiest["sum_nr_running"] <= 2:
                imb = 0
            return imb
        if busiest["group_weight"] == 1 or sds["prefer_sibling"]:
            if r["smt"]:
                imb = sibling_imbalance(case, sds, busiest, local)
            else:
                imb = max(busiest["sum_nr_running"] - local["sum_nr_running"], 0)
        else:
            # max_t(long, 0, (local->idle_cpus - busiest->idle_cpus)): an
            # unsigned int difference, so it wraps to a large value
            imb = (local["idle_cpus"] - busiest["idle_cpus"]) & U32
        if "NUMA" in flags:
            # [6.1] adjust_numa_imbalance(int imbalance, local nr + 1, imb_numa_nr)
            i = to_int(imb)
            if (local["sum_nr_running"] + 1) > case.get("imb_numa_nr", 0):
                imb = i
            elif i <= NUMA_IMBALANCE_MIN:
                imb = 0
            else:
                imb = i
        return imb >> 1                 # env->imbalance >>= 1 (arithmetic on long)
    if rank(r, local["group_type"]) < rank(r, OVERLOADED):
        local["avg_load"] = ((local["group_load"] * SCHED_CAPACITY_SCALE) & U64) // local["group_capacity"]
        if local["avg_load"] >= busiest["avg_load"]:
            return 0
        sds["avg_load"] = ((sds["total_load"] * SCHED_CAPACITY_SCALE) & U64) // sds["total_capacity"]
        if local["avg_load"] >= sds["avg_load"]:
            return 0
    x = ((busiest["avg_load"] - sds["avg_load"]) & U64) * busiest["group_capacity"] & U64
    y = ((sds["avg_load"] - local["avg_load"]) & U64) * local["group_capacity"] & U64
    return to_long(min(x, y) // SCHED_CAPACITY_SCALE)


def find_busiest_group(variant, case):
    """[6.1] find_busiest_group(): (busiest index or None, exit or None, sds)."""
    r = rules(variant, case)
    sds = update_sd_lb_stats(r, case)
    res = _fbg(r, case, sds)
    sds["imbalance"] = res[2]
    return res[0], res[1], sds


def _fbg(r, case, sds):
    eas = case.get("eas_pd") and not case.get("rd_overutilized")
    if r["eas_first"] and eas:
        return None, X_EAS, 0                   # [5.10] before !sds.busiest
    if sds["busiest"] is None:
        return None, X_NO_BUSIEST, 0
    busiest, local = sds["busiest_stat"], sds["local_stat"]
    bt = busiest["group_type"]
    force = False
    if bt == MISFIT:
        force = True                            # [6.1] misfit before EAS
    elif eas:
        return None, X_EAS, 0
    elif bt in (ASYM, IMBALANCED):
        force = True
    if not force:
        if rank(r, local["group_type"]) > rank(r, bt):
            return None, X_LOCAL_CLASS, 0
        if local["group_type"] == OVERLOADED:
            if local["avg_load"] >= busiest["avg_load"]:
                return None, X_LOCAL_LOAD, 0
            sds["avg_load"] = ((sds["total_load"] * SCHED_CAPACITY_SCALE) & U64) // sds["total_capacity"]
            if local["avg_load"] >= sds["avg_load"]:
                return None, X_LOCAL_LOAD, 0
            if (100 * busiest["avg_load"]) & U64 <= (case["pct"] * local["avg_load"]) & U64:
                return None, X_LOCAL_LOAD, 0
        if sds["prefer_sibling"] and local["group_type"] == HAS_SPARE:
            if r["smt"]:
                # [6.12] sibling_imbalance() > 1; [7.2] or busiest llc_balance
                if (r["llc"] and bt == LLC_BALANCE) or \
                        sibling_imbalance(case, sds, busiest, local) > 1:
                    force = True
            elif busiest["sum_nr_running"] > local["sum_nr_running"] + 1:
                force = True                    # [6.1]
    if not force and bt != OVERLOADED:
        if case["idle"] == CPU_NOT_IDLE:
            return None, X_BUSY_DST, 0
        if r["smt"] and bt == SMT_BALANCE and \
                smt_vs_nonsmt_groups(case["groups"][0], case["groups"][sds["busiest"]]):
            force = True                        # [6.12] non-SMT dst pulls from SMT
        elif busiest["group_weight"] > 1 and local["idle_cpus"] <= busiest["idle_cpus"] + 1:
            return None, X_IDLE_CPUS, 0
        elif busiest["sum_h_nr_running"] == 1:
            return None, X_SINGLE_TASK, 0
    imb = calculate_imbalance(r, case, sds)
    if imb:
        return sds["busiest"], None, imb
    return None, X_IMBALANCE_ZERO, 0
