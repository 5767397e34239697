#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent oracle for the VM scenarios 05, 11 and 13 (host side).

Input: the rounds a guest scenario read with `catn` ("=== ROUND k FILE"
before each file): the kernel's /sys/kernel/debug/sched/debug, the tasks'
/proc/TID/sched and the module's `cpus` and `groups`, read back to back.

  fields  every value sched/debug shares with `cpus` and `groups`:
          cpus:   nr_running (the "cpu#N" block), h_nr_running, load_avg,
                  runnable_avg, util_avg (root cfs_rq), weight (root .load)
          groups: per (cpu, path) row: h_tasks (.h_nr_running), load_avg,
                  runnable_avg, util_avg, cfs_weight (.load), se_weight
                  (.se->load.weight), nr_tasks (the R tasks of that cgroup
                  in the CPU's task list), h_load (below)
  shadow  the expected shadow, computed here from the kernel's data only:
          S(X) = sum(tasks queued on X: se.avg.load_avg from /proc/TID/sched)
               + sum(child cfs_rq G with h_nr_running > 0:
                     min(S(G) * w(G) / W(G), w(G)))
          w = .se->load.weight, W = .load (sched/debug), both
          scale_load_down'ed; compared with `groups` shadow and task_load
          on every row and with `cpus` shadow (S of the root); and
          shadow_fresh (below) on every row and CPU, h_load of `cpus`
          (the sum of task_h_load() over the queued tasks).
  fresh   shadow_fresh alone (scenario 13: a task that waits with a stale
          se.avg), `cpus` and `groups`.

The h_load oracle is the kernel's update_cfs_rq_h_load() and task_h_load()
recomputed from the dump: H(/) = root .load_avg; for a group G with parent
P, H(G) = floor(H(P) * G's .se->avg.load_avg / (P's .load_avg + 1)); a
task's h_load = floor(se.avg.load_avg * H(its cfs_rq) / (its cfs_rq's
.load_avg + 1)).  The kernel caches H per cfs_rq and refreshes it at most
once per jiffy (cfs_rq->last_h_load_update), so its own task_h_load() may
describe an instant up to one jiffy old: a PELT average moves by at most
1 - y^(4 ms / 1.024 ms) = 8.1 % in a jiffy (HZ=250, Debian's amd64
kernels).  The module's value is compared with the recomputation within
that much (and depth + 2 units for the floor divisions): what the kernel
itself would accept as the same h_load.

The shadow_fresh oracle is the PELT formula: a queued task accrues its
weight w while it waits, so at a PELT time dt after its last update its
load_avg is w + (L - w) * y^(dt / 1024 us) (y^32 = 1/2), from its stored
L = se.avg.load_avg at se.avg.last_update_time and w = se.load.weight
(/proc/TID/sched).  The module projects every task to its cfs_rq's PELT
clock at the root's last update before it published; in the VM the PELT
clock is clock_task (capacity 1024, no frequency scaling: the tasks'
last_update_time equals their exec_start), so dt lies between
--fresh-lag-ms before the dump's clock_task of that CPU and the `groups`
read (the dump's clock_task + --fresh-margin-ms).  The expected S is
computed with each task's projection over that interval (an interval,
monotone in dt), and the module must fall inside it within max(2 %, 4).

Tolerances (why): the files are read one after the other, not atomically,
and the module shows its last published walk.
  counts (nr_running, h_nr_running, h_tasks, nr_tasks): exact (on the
    --noisy-cpu, the CPU's counts and its root row's only where the
    dump's stayed the same over the rounds: its kworkers come and go);
  weights (weight, cfs_weight, se_weight): max(1 %, 2 units) - a group
    entity's weight is recomputed from the task group's load_avg sum at
    every update;
  PELT averages, shadow and task_load: max(3 %, 4 units) - the measured
    median is 0 % and max 2 % (docs/design.md) on 6.1, plus the shadow's
    per-level integer rounding (up to 1 unit per level); 9 % for the root
    of a CPU that groups time-share (its averages are sums of top-level
    entities whose weights are recomputed at each update);
  util_avg of a group in a round where it time-shares its CPU: reported,
    not judged (its other rounds are judged) - a
    group's utilization is propagated on the switches, which fire no
    tracepoint the module walks at (6.1, scenario 11: the dump 22 and the
    module 420 in one round, both 288 in the next; its load_avg and
    runnable_avg, which do not depend on who runs, agreed within 0.3 %);
  h_load: max(8.1 %, depth + 2 units) (above);
  the default mode (--default): the hierarchy walk runs at most once per
    PELT period of the root (pelt_refresh_us, 1 ms) or after 32 events, so
    on a busy CPU (a root PELT update every tick) `groups` and the shadow
    columns are at most one tick (4 ms) older than the last event: one
    jiffy's PELT movement (8.1 %) is added to every per-walk average
    (groups' averages, shadow, task_load, h_load, shadow_fresh's interval
    starts --fresh-lag-ms + 4 ms before).
A judged key (a CPU or a row, one field) passes when it agrees in more
than half of the rounds in which both sides have it.  A PELT average whose
kernel value strays from its median over the rounds by more than 10 % (and
8 units) in two rounds or more is reported, not judged (the kernel's own
value moved between the reads).  On a CPU named with --noisy-cpu (the one
that runs the serial console's interrupt work and its kworkers: cpu0 in
the VM) the root's PELT averages may carry a kworker's load that leaves
between the module's last event and the dump (5.10, scenario 11: module
381, 376, 292, 483, 292, 372 against the dump's steady 292), or the
dump a load that left before the module's read (7.3, scenario 05: module
523 against the dump's 887): there the module must lie between x / 1.70
- 8 and 1.70 x + 8 of the dump's value x in most rounds, which a doubled
or halved value fails, and its root weight within
one nice-0 task's (1024) of the dump's (7.3, scenario 11: 94530 against
95554 in 4 of 8 rounds).

Every field must have at least --min judged comparisons (a key in one
round) at every depth of --depths it applies to (cpus fields: depth 0,
se_weight: depth >= 1), else it fails: a scenario must build rows that
are judged, not only rows that are reported.  The closing diagnostics give
per field and depth the judged comparisons and the worst error.

usage: sched_oracle.py fields|shadow|teeth ROUNDS_FILE [--label NAME]
       [--skip-cpu N]... [--noisy-cpu N]... [--default] [--min N] [--depths A-B]
       [--expect FILE]   (shadow: "cpu path nice" lines the guest set up:
                          each must be seen queued in most rounds)
       [--fresh-lag-ms MS] [--fresh-margin-ms MS] (default 100 and 100)
       [--fresh-cpu N]   (the only CPU judged; others are left out)
       [--no-min FIELD]  (FIELD is judged where it can be, with no minimum)
       [--case MUTATION:MODE:FIELD]... (teeth: see mutate())
Prints TAP lines (no plan) and "# " diagnostics.
"""
import copy
import re
import statistics
import sys

SCALE_SHIFT = 10


def scale_down(w):
    """the kernel's scale_load_down() of a raw (64-bit: scaled up) weight"""
    w = int(w)
    if w == 0:
        return 0
    return max(2, w >> SCALE_SHIFT)


def parse_rounds(path):
    rounds = {}
    cur = None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^=== ROUND (\d+) (\S+)$", line)
        if m:
            r, f = int(m.group(1)), m.group(2)
            cur = rounds.setdefault(r, {}).setdefault(f, [])
            continue
        if cur is not None:
            cur.append(line)
    return rounds


def parse_sched_debug(lines):
    """-> cpus: {cpu: {'rq': {...}, 'cfs': {path: {...}}, 'tasks': [...]}}"""
    cpus = {}
    cpu = None
    sect = None
    after_pid = []
    for line in lines:
        m = re.match(r"^cpu#(\d+)", line)
        if m:
            cpu = int(m.group(1))
            cpus[cpu] = {"rq": {}, "cfs": {}, "tasks": []}
            sect = cpus[cpu]["rq"]
            continue
        if cpu is None:
            continue
        m = re.match(r"^cfs_rq\[(\d+)\]:(.*)$", line)
        if m:
            sect = cpus[int(m.group(1))]["cfs"].setdefault(m.group(2), {})
            continue
        if re.match(r"^(rt|dl)_rq\[", line):
            sect = None
            continue
        if line.startswith("runnable tasks:"):
            sect = "tasks"
            continue
        if sect == "tasks":
            if line.startswith(" S ") and "PID" in line.split() and "task" in line.split():
                # the columns after PID, by name: 6.1 "tree-key switches
                # prio ...", 6.12+ (EEVDF) "vruntime eligible deadline slice
                # sum-exec switches prio ...", 7.3 "weight vruntime ..."
                hdr = line.split()
                after_pid = hdr[hdr.index("PID") + 1:] if "PID" in hdr else []
                continue
            if len(line) < 3 or line.startswith("---"):
                continue
            state = line[1]
            toks = line[2:].split()
            pid = prio = None
            if "prio" in after_pid and "group-path" in after_pid:
                # the comm may hold spaces, every column after PID is one
                # token: count from the right (7.3 adds `weight` after PID)
                i = len(toks) - len(after_pid) - 1
                if i >= 1 and re.match(r"^\d+$", toks[i]):
                    pid = int(toks[i])
                    prio = int(toks[i + 1 + after_pid.index("prio")])
            else:
                for i in range(1, len(toks) - 3):
                    if re.match(r"^\d+$", toks[i]) and re.match(r"^-?\d+\.\d+$", toks[i + 1]):
                        pid = int(toks[i])
                        prio = int(toks[i + 3])	# 5.10/6.1: PID tree-key switches prio
                        break
            if pid is None:
                continue
            cpus[cpu]["tasks"].append({"state": state, "pid": pid, "cur": line[0] == ">",
                                       "prio": prio, "path": toks[-1]})
            continue
        m = re.match(r"^\s+\.(\S+)\s+:\s+(-?[0-9.]+)$", line)
        if m and isinstance(sect, dict):
            sect[m.group(1)] = float(m.group(2))
    # 6.12+ names: h_nr_queued (queued, delayed dequeues included) and
    # h_nr_runnable; `cpus` h_nr_running is the runnable count, `groups`
    # h_tasks the queued one (docs/debugfs.md)
    for c in cpus.values():
        if c["cfs"] and all("h_nr_running" not in b and "h_nr_queued" not in b
                            for b in c["cfs"].values()):
            derive_h_nr(c)
        for blk in c["cfs"].values():
            if "h_nr_running" not in blk and "h_nr_queued" in blk:
                blk["h_nr_running"] = blk["h_nr_queued"]
                blk["h_runnable"] = blk.get("h_nr_runnable", blk["h_nr_queued"])
            else:
                blk["h_runnable"] = blk.get("h_nr_running", -1)
    return cpus


def parent_path(p):
    return p.rsplit("/", 1)[0] or "/"


def in_subtree(c, p):
    return p == "/" or c == p or c.startswith(p + "/")


def derive_h_nr(sdcpu):
    """5.10's dump prints no per-cfs_rq h_nr_running, only nr_running (the
    entities queued on that cfs_rq, tasks and child groups).  A cfs_rq is
    self-consistent when its R fair tasks plus its child cfs_rqs with
    nr_running > 0 are its nr_running; where that holds for a whole subtree,
    its h_nr_running is the subtree's R fair tasks.  Elsewhere it stays
    absent: that path is left out of the round, as on newer kernels when a
    task shows R without being queued."""
    cfs = sdcpu["cfs"]
    q = fair_r(sdcpu)
    direct = {}
    for p, blk in cfs.items():
        kids = sum(1 for k, kb in cfs.items()
                   if k != "/" and parent_path(k) == p and kb.get("nr_running", 0) > 0)
        direct[p] = len(q.get(p, [])) + kids == blk.get("nr_running", -1)
    for p, blk in cfs.items():
        if all(direct[k] for k in cfs if in_subtree(k, p)):
            blk["h_nr_running"] = sum(len(v) for k, v in q.items() if in_subtree(k, p))


def parse_table(lines):
    rows = []
    hdr = None
    for line in lines:
        if line.startswith("# ") or not line.strip():
            continue
        if hdr is None:
            hdr = line.split()
            continue
        t = line.split()
        if len(t) != len(hdr):
            continue
        rows.append(dict(zip(hdr, t)))
    return rows


def parse_task_sched(lines):
    d = {}
    for line in lines:
        m = re.match(r"^(\S+)\s+:\s+(-?[0-9.]+)$", line)
        if m:
            d[m.group(1)] = float(m.group(2))
    return d


def rounds_data(path):
    out = []
    for r, files in sorted(parse_rounds(path).items()):
        sd = cpus = groups = None
        tasks = {}
        for f, lines in files.items():
            if f.endswith("sched/debug") or f.endswith("sched_debug"):
                sd = parse_sched_debug(lines)
            elif f.endswith("/cpus"):
                cpus = {int(x["cpu"]): x for x in parse_table(lines)}
            elif f.endswith("/groups"):
                groups = {}
                for x in parse_table(lines):
                    groups[(int(x["cpu"]), x["path"])] = x
            else:
                m = re.match(r"^/proc/(?:\d+/task/)?(\d+)/sched$", f)
                if m:
                    tasks[int(m.group(1))] = parse_task_sched(lines)
        out.append((r, sd, cpus, groups, tasks))
    return out


def fair_r(sdcpu):
    """R tasks of the fair class (prio >= 100) by cgroup path"""
    q = {}
    for t in sdcpu["tasks"]:
        if t["state"] == "R" and t["prio"] >= 100:
            q.setdefault(t["path"], []).append(t["pid"])
    return q


def consistent_paths(sdcpu):
    """paths whose subtree's R fair tasks are the cfs_rq's h_nr_running: the
    dump agrees with itself there (a task caught between its wakeup and its
    enqueue shows R without being queued: its cgroup and the ancestors are
    left out of that round)"""
    q = fair_r(sdcpu)
    ok = set()
    for p, blk in sdcpu["cfs"].items():
        n = sum(len(v) for c, v in q.items()
                if p == "/" or c == p or c.startswith(p + "/"))
        if n == blk.get("h_runnable", -1):
            ok.add(p)
    return ok



Y = 0.5 ** (1.0 / 32)          # PELT: y^32 = 1/2, one period = 1024 us
JIFFY_MS = 4.0                  # HZ=250 (Debian's amd64 kernels)
JIFFY_DRIFT = 1 - Y ** (JIFFY_MS / 1.024)   # 8.1 %: a PELT average's largest move in a jiffy


def num(v):
    return None if v in (None, "-") else float(v)


def depth_of(path):
    return 0 if path == "/" else path.count("/")


def agree(a, b, kind, depth=0, default=False, walk=False):
    """a: the module's value, b: the oracle's (a (lo, hi) interval for
    `fresh`); None when there is nothing to compare"""
    if a is None or b is None:
        return None
    drift = JIFFY_DRIFT if default and walk else 0.0
    if kind == "fresh":
        lo, hi = b
        return lo * 0.98 - 4 <= a <= hi * 1.02 + 4
    d = abs(a - b)
    if kind in ("count", "count_noisy"):
        return d == 0
    if kind == "weight":
        return d <= max(0.01 * abs(b), 2)
    if kind == "weight_noisy":
        # one nice-0 task (1024) queued in one read and not the other
        return d <= max(0.01 * abs(b), 2) + 1024
    if kind == "noisy":
        return b / 1.70 - 8 <= a <= 1.70 * b + 8
    if kind == "h_load":
        return d <= max((JIFFY_DRIFT + drift) * abs(b), depth + 2)
    if kind == "avg_mixed":
        return d <= max((0.09 + drift) * abs(b), 8)
    return d <= max((0.03 + drift) * abs(b), 4)


def rel_err(a, b, kind):
    if kind == "fresh":
        lo, hi = b
        out = max(lo - a, a - hi, 0)
        return out / max(abs(hi), 1)
    return abs(a - b) / max(abs(b), 1)


class Tally:
    """comparisons by key: ("cpu", c) or ("row", c, path), plus the field"""

    def __init__(self, default=False):
        self.default = default
        self.res = {}      # key + (field,) -> [(ok, module, oracle, kind, depth)]
        self.kern = {}     # key + (field,) -> the oracle's values in every round read

    def observe(self, key, field, b):
        """the kernel's value in a round, judged or not (a round skipped for
        a task R but not queued still shows how much the signal moves)"""
        if b is not None:
            self.kern.setdefault(key + (field,), []).append(b)

    def add(self, key, field, a, b, kind, depth, walk=False):
        ok = agree(a, b, kind, depth, self.default, walk)
        if ok is None:
            return
        if kind != "fresh":
            self.observe(key, field, b)
        self.res.setdefault(key + (field,), []).append((ok, a, b, kind, depth))

    def not_judged_why(self, k, v, own=False):
        """None when the key is judged, else why not (own: the kernel's
        steadiness from V's values, not from every observed round)"""
        kind = v[0][3]
        if kind == "count_noisy":
            ks = self.kern.get(k, [x[2] for x in v])
            if len(set(ks)) > 1:
                return "the console CPU's count moved between the rounds (its kworkers come and go)"
            return None
        if kind not in ("avg", "avg_mixed", "noisy", "h_load"):
            return None
        ks = [x[2] for x in v] if own else self.kern.get(k, [x[2] for x in v])
        med = statistics.median(ks)
        if sum(1 for x in ks if abs(x - med) > max(0.10 * abs(med), 8)) >= 2:
            return "the kernel's own value strayed > 10 % from its median in >= 2 rounds"
        return None


def pelt_project(load, weight, dt_ms):
    """a runnable entity's load_avg dt_ms of PELT time after it was L: it
    accrues its weight, so it tends to w geometrically (y per 1024 us)"""
    return weight + (load - weight) * Y ** (max(dt_ms, 0.0) / 1.024)


def oracle_tree(sdcpu, tasks, lag_ms, margin_ms):
    """S, task_load, tasks queued directly, the S_fresh interval and the sum
    of task_h_load of every consistent cfs_rq of one CPU, from sched/debug
    and /proc/TID/sched: {path: dict}; a path whose subtree is inconsistent
    or holds a task whose load was not read is left out"""
    cfs = sdcpu["cfs"]
    queued = fair_r(sdcpu)
    good = consistent_paths(sdcpu)
    now_ms = sdcpu["rq"].get("clock_task")
    H = oracle_h_load(sdcpu)
    memo = {}

    def proj(t):
        L = t["se.avg.load_avg"]
        w = scale_down(t.get("se.load.weight", 0))
        lut = t.get("se.avg.last_update_time")
        if now_ms is None or lut is None or w == 0:
            return None
        dt = now_ms - lut / 1e6
        a = pelt_project(L, w, dt - lag_ms)
        b = pelt_project(L, w, dt + margin_ms)
        return (min(a, b), max(a, b))

    def S(p):
        if p in memo:
            return memo[p]
        memo[p] = None
        if p not in good:
            return None
        tl = 0.0
        flo = fhi = 0.0
        th = 0
        fresh_ok = True
        th_ok = p in H
        for pid in queued.get(p, []):
            if pid not in tasks or "se.avg.load_avg" not in tasks[pid]:
                return None
            L = tasks[pid]["se.avg.load_avg"]
            tl += L
            iv = proj(tasks[pid])
            if iv is None:
                fresh_ok = False
            else:
                flo += iv[0]
                fhi += iv[1]
            if th_ok:
                th += (int(L) * H[p]) // (int(cfs[p].get("load_avg", 0)) + 1)
        s = tl
        for c, blk in cfs.items():
            if c == "/" or parent_path(c) != p:
                continue
            if blk.get("h_nr_running", 0) <= 0:
                continue
            w = scale_down(blk.get("se->load.weight", 0))
            W = scale_down(blk.get("load", 0))
            if W == 0:
                continue
            sc = S(c)
            if sc is None:
                return None
            s += min(sc["S"] * w / W, w)
            if sc["fresh"] is None:
                fresh_ok = False
            else:
                flo += min(sc["fresh"][0] * w / W, w)
                fhi += min(sc["fresh"][1] * w / W, w)
            if sc["th"] is None:
                th_ok = False
            else:
                th += sc["th"]
        memo[p] = {"S": s, "task_load": tl, "nq": len(queued.get(p, [])),
                   "fresh": (flo, fhi) if fresh_ok else None, "th": th if th_ok else None}
        return memo[p]

    return {p: S(p) for p in cfs if S(p) is not None}


def oracle_h_load(sdcpu):
    """update_cfs_rq_h_load() from the dump: {path: h_load} of every cfs_rq
    whose ancestors all print .load_avg and .se->avg.load_avg"""
    cfs = sdcpu["cfs"]
    H = {}

    def h(p):
        if p in H:
            return H[p]
        blk = cfs.get(p)
        if blk is None or "load_avg" not in blk:
            return None
        if p == "/":
            H[p] = int(blk["load_avg"])
            return H[p]
        pp = parent_path(p)
        hp = h(pp)
        if hp is None or "se->avg.load_avg" not in blk:
            return None
        H[p] = (hp * int(blk["se->avg.load_avg"])) // (int(cfs[pp]["load_avg"]) + 1)
        return H[p]

    for p in cfs:
        h(p)
    return H


# fields each mode judges: (name, kind of key, depths: None = all, 0 = root only, 1 = >= 1)
FIELDS = {
    "fields": [("cpus.nr_running", 0), ("cpus.h_nr_running", 0), ("cpus.load_avg", 0),
               ("cpus.runnable_avg", 0), ("cpus.util_avg", 0), ("cpus.weight", 0),
               ("groups.h_tasks", None), ("groups.load_avg", None), ("groups.runnable_avg", None),
               ("groups.util_avg", None), ("groups.cfs_weight", None), ("groups.se_weight", 1),
               ("groups.nr_tasks", None), ("groups.h_load", None)],
    "shadow": [("cpus.shadow", 0), ("cpus.shadow_fresh", 0), ("cpus.h_load", 0),
               ("groups.shadow", None), ("groups.task_load", None), ("groups.nr_tasks", None),
               ("groups.shadow_fresh", None)],
}
FIELDS["fresh"] = FIELDS["shadow"]


def field_depths(field, spec, depths):
    if spec == 0:
        return [d for d in depths if d == 0]
    if spec == 1:
        return [d for d in depths if d >= 1]
    return list(depths)


class Opts:
    def __init__(self):
        self.skip = set()
        self.noisy = set()
        self.only = None
        self.expect = []
        self.default = False
        self.label = None
        self.minimum = 1
        self.depths = [0]
        self.lag_ms = 100.0
        self.margin_ms = 100.0
        self.cases = []
        self.exempt = set()


def parse_opts(a):
    o = Opts()
    while a:
        if a[0] == "--skip-cpu":
            o.skip.add(int(a[1])); a = a[2:]
        elif a[0] == "--noisy-cpu":
            o.noisy.add(int(a[1])); a = a[2:]
        elif a[0] == "--fresh-cpu":
            o.only = int(a[1]); a = a[2:]
        elif a[0] == "--expect":
            o.expect = [l.split() for l in open(a[1]) if l.strip() and not l.startswith("#")]
            a = a[2:]
        elif a[0] == "--default":
            o.default = True; a = a[1:]
        elif a[0] == "--label":
            o.label = a[1]; a = a[2:]
        elif a[0] == "--min":
            o.minimum = int(a[1]); a = a[2:]
        elif a[0] == "--depths":
            lo, _, hi = a[1].partition("-")
            o.depths = list(range(int(lo), int(hi or lo) + 1)); a = a[2:]
        elif a[0] == "--fresh-lag-ms":
            o.lag_ms = float(a[1]); a = a[2:]
        elif a[0] == "--fresh-margin-ms":
            o.margin_ms = float(a[1]); a = a[2:]
        elif a[0] == "--no-min":
            o.exempt.add(a[1]); a = a[2:]
        elif a[0] == "--case":
            o.cases.append(a[1]); a = a[2:]
        else:
            sys.exit("unknown argument " + a[0])
    if o.default:
        o.lag_ms += JIFFY_MS
    return o


def judge(data, mode, o):
    """-> (TAP results [(ok, name, why)], diagnostic lines, {field: passed})"""
    label = o.label or mode
    skip, noisy, only, expect = o.skip, o.noisy, o.only, o.expect
    lag_ms, margin_ms, minimum, depths = o.lag_ms, o.margin_ms, o.minimum, o.depths
    results, diags, field_ok = [], [], {}

    def tap(ok, name, why=""):
        results.append((ok, name, why))

    good = [d for d in data if d[1] and d[2] and d[3] is not None]
    tap(len(good) >= 3 and all(len(d[1]) >= 2 and len(d[2]) >= 2 for d in good),
        "%s: %d rounds with sched/debug, cpus and groups (>= 3)" % (label, len(good)),
        "rounds: %d" % len(data))
    if len(good) < 3:
        return results, diags, field_ok
    t = Tally(o.default)
    ncpu = max(max(d[1]) for d in good) + 1
    judged = [c for c in range(ncpu) if c not in skip and (only is None or c == only)]
    skipped = {}
    behind = {}
    for r, sd, cpus, groups, tasks in good:
        for c in judged:
            if c not in sd or c not in cpus or cpus[c].get("online") != "1":
                continue
            k = sd[c]
            cons = consistent_paths(k)
            if "/" not in cons:
                skipped[c] = skipped.get(c, 0) + 1
                if mode == "fields":
                    # the kernel's dump disagrees with itself on this CPU in
                    # this round (a task R but not queued): its root counts and
                    # averages are not an oracle for that instant, but how
                    # much its averages moved still counts for steadiness
                    # (cpu1 of scenario 11 on 6.1: the root's load_avg read
                    # 288, 144, 242, 301, 147 over the rounds as the group
                    # entity's shares were recomputed; judged on its three
                    # unskipped rounds alone it looked steady)
                    rt = k["cfs"].get("/", {})
                    for f in ("load_avg", "runnable_avg", "util_avg"):
                        t.observe(("cpu", c), "cpus." + f, rt.get(f))
                    # every block: 5.10's counts are derived and may be
                    # missing in such a round, and the root row is the same
                    # kernel value as cpus' (a key never compared is unused)
                    for p, blk in k["cfs"].items():
                        for f in ("load_avg", "runnable_avg", "util_avg"):
                            t.observe(("row", c, p), "groups." + f, blk.get(f))
                    H = oracle_h_load(k)
                    for p, h in H.items():
                        t.observe(("row", c, p), "groups.h_load", h)
                continue
            root = k["cfs"].get("/", {})
            m = cpus[c]
            key = ("cpu", c)
            # the default mode: the last walk is older than the CPU's last
            # event when the walk's root h_tasks differs from the per-event
            # h_nr_running (a task came or went since: docs/debugfs.md, the
            # walk runs at most once per PELT period of the root or after 32
            # events); its per-walk values describe that earlier instant,
            # not the dump's: left out of this round, counted
            gr = groups.get((c, "/"))
            walk_behind = o.default and gr is not None and num(gr["h_tasks"]) != num(m["h_nr_running"])
            if walk_behind:
                behind[c] = behind.get(c, 0) + 1
                # its averages still show how much the kernel's moved
                for p, blk in k["cfs"].items():
                    for f in ("load_avg", "runnable_avg", "util_avg"):
                        t.observe(("row", c, p), "groups." + f, blk.get(f))
                for p, h in oracle_h_load(k).items():
                    t.observe(("row", c, p), "groups.h_load", h)
            def count_kind(p):
                # the console CPU's root counts its kworkers too (7.3,
                # scenario 11: tasks queued at its root 1 1 0 0 against the
                # dump's 0 0 0 0 in the last rounds, the dump's 1 2 1 1 0 0
                # 0 0): its counts are judged only where the dump's stayed
                # the same over the rounds
                return "count_noisy" if c in noisy and p == "/" else "count"
            if c in noisy:
                # every round's count of tasks queued at the console CPU's
                # root, judged or not: its steadiness decides (count_noisy)
                t.observe(("row", c, "/"), "groups.nr_tasks", len(fair_r(k).get("/", [])))
            if mode == "fields":
                # (the console CPU's nr_running over the rounds, 7.3: 1 1 1 2 2 1 1 3)
                ck = count_kind("/")
                t.add(key, "cpus.nr_running", num(m["nr_running"]), k["rq"].get("nr_running"), ck, 0)
                t.add(key, "cpus.h_nr_running", num(m["h_nr_running"]), root.get("h_runnable"), ck, 0)
                # groups time-share this CPU: the root's averages are sums of
                # top-level entities whose averages are propagated from those
                # groups at each update, so they move between two reads like
                # the groups' own (cpu1 of scenario 11 on 6.1: root
                # runnable_avg 2048..2204 over the rounds); the root keeps
                # being judged, within the time-sharing tolerance
                mixed = any(0 < b.get("h_nr_running", 0) < root.get("h_runnable", 0)
                            for p, b in k["cfs"].items() if p != "/")
                rk = "noisy" if c in noisy else "avg_mixed" if mixed else "avg"
                for f in ("load_avg", "runnable_avg", "util_avg"):
                    t.add(key, "cpus." + f, num(m[f]), root.get(f), rk, 0)
                t.add(key, "cpus.weight", num(m["weight"]), scale_down(root.get("load", 0)),
                      "weight_noisy" if c in noisy else "weight", 0)
                H = oracle_h_load(k)
                for p, blk in k["cfs"].items():
                    g = groups.get((c, p))
                    if g is None or blk.get("h_nr_running", 0) <= 0 or walk_behind:
                        continue
                    gk = ("row", c, p)
                    dp = depth_of(p)
                    gck = count_kind(p)
                    t.add(gk, "groups.h_tasks", num(g["h_tasks"]), blk.get("h_nr_running"), gck, dp, True)
                    # a group that time-shares its CPU: its load and runnable
                    # averages do not depend on who runs (judged), its
                    # utilization does (reported)
                    shared = blk.get("h_nr_running", 0) < root.get("h_runnable", 0)
                    kind = rk if p == "/" else "avg"
                    for f in ("load_avg", "runnable_avg", "util_avg"):
                        fk = "util_shared" if shared and f == "util_avg" else kind
                        t.add(gk, "groups." + f, num(g[f]), blk.get(f), fk, dp, True)
                    t.add(gk, "groups.cfs_weight", num(g["cfs_weight"]), scale_down(blk.get("load", 0)),
                          "weight", dp, True)
                    if p != "/":
                        t.add(gk, "groups.se_weight", num(g["se_weight"]),
                              scale_down(blk.get("se->load.weight", 0)), "weight", dp, True)
                    if p in cons:
                        nt = len(fair_r(k).get(p, []))
                        t.add(gk, "groups.nr_tasks", num(g["nr_tasks"]), nt, gck, dp, True)
                    t.add(gk, "groups.h_load", num(g.get("h_load")), H.get(p), "h_load", dp, True)
            elif not walk_behind:
                ot = oracle_tree(k, tasks, lag_ms, margin_ms)
                if "/" in ot:
                    t.add(key, "cpus.shadow", num(m["shadow"]), ot["/"]["S"], "avg", 0, True)
                    t.add(key, "cpus.shadow_fresh", num(m.get("shadow_fresh")), ot["/"]["fresh"], "fresh", 0, True)
                    t.add(key, "cpus.h_load", num(m.get("h_load")), ot["/"]["th"], "h_load", 0, True)
                for p, x in ot.items():
                    g = groups.get((c, p))
                    if g is None or k["cfs"][p].get("h_nr_running", 0) <= 0:
                        continue
                    gk = ("row", c, p)
                    dp = depth_of(p)
                    gck = count_kind(p)
                    t.add(gk, "groups.shadow", num(g["shadow"]), x["S"], "avg", dp, True)
                    t.add(gk, "groups.task_load", num(g["task_load"]), x["task_load"], "avg", dp, True)
                    t.add(gk, "groups.nr_tasks", num(g["nr_tasks"]), x["nq"], gck, dp, True)
                    t.add(gk, "groups.shadow_fresh", num(g.get("shadow_fresh")), x["fresh"], "fresh", dp, True)
    # the data the scenario built is there
    if expect:
        seen = {}
        for r, sd, cpus, groups, tasks in good:
            for e in expect:
                c, p = int(e[0]), e[1]
                if c in sd and any(x["state"] == "R" and x["path"] == p for x in sd[c]["tasks"]) \
                   and (c, p) in groups:
                    seen[(c, p)] = seen.get((c, p), 0) + 1
        missing = [(int(e[0]), e[1]) for e in expect if seen.get((int(e[0]), e[1]), 0) * 2 <= len(good)]
        tap(not missing, "%s: every hog the guest set up is queued on its CPU in its cgroup, in sched/debug "
            "and in groups, in most rounds (%d placements)" % (label, len(expect)),
            "missing: %s" % missing)
    if behind:
        diags.append("# %s: CPU-rounds whose last walk was older than their last event, per-walk values left out: %s"
                     % (label, " ".join("cpu%d:%d" % x for x in sorted(behind.items()))))
    if skipped:
        diags.append("# %s: rounds left out per CPU (a task R but not queued in the kernel's dump): %s"
                     % (label, " ".join("cpu%d:%d" % x for x in sorted(skipped.items()))))
    # per field: every judged key agrees in most rounds, and enough were judged at every depth
    summary = []
    for field, spec in FIELDS[mode]:
        want = field_depths(field, spec, depths)
        keys = {k: v for k, v in t.res.items() if k[-1] == field}
        cnt, worst, unj, why_unj, nkeys = {}, {}, {}, {}, {}
        bad = []
        for k, v in sorted(keys.items(), key=lambda kv: str(kv[0])):
            # a group's util_avg is reported, not judged, in the rounds
            # where the group time-shared its CPU; its other rounds are
            # judged (a kworker queued at one dump must not exempt the key)
            for ok, a, b, kind, dp in v:
                if kind == "util_shared":
                    unj[dp] = unj.get(dp, 0) + 1
                    w = "a time-shared group's util_avg (those rounds)"
                    why_unj[w] = why_unj.get(w, 0) + 1
            n = len(v)
            v = [x for x in v if x[3] != "util_shared"]
            if not v:
                continue
            # (the kernel's own steadiness then over the judged rounds only:
            # sharing moves a group's util_avg, which is why they are left out)
            why = t.not_judged_why(k, v, own=len(v) < n)
            for ok, a, b, kind, dp in v:
                if why:
                    unj[dp] = unj.get(dp, 0) + 1
                    why_unj[why] = why_unj.get(why, 0) + 1
                    continue
                cnt[dp] = cnt.get(dp, 0) + 1
                e = rel_err(a, b, kind)
                if dp not in worst or e > worst[dp][0]:
                    worst[dp] = (e, a, b)
            if why:
                continue
            dp0 = v[0][4]
            nkeys[dp0] = nkeys.get(dp0, 0) + 1
            agreeing = sum(1 for x in v if x[0])
            if agreeing * 2 <= len(v):
                where = "cpu%d" % k[1] + ("" if k[0] == "cpu" else " " + k[2])
                vals = " ".join("%g/%s" % (x[1], ("%.0f-%.0f" % x[2]) if x[3] == "fresh" else "%g" % x[2])
                                for x in v)
                bad.append("%s: %d of %d rounds agree (module/oracle: %s)" % (where, agreeing, len(v), vals))
        few = [d for d in want if cnt.get(d, 0) < minimum and field not in o.exempt]
        per = " ".join("d%d:%d" % (d, cnt.get(d, 0)) for d in want)
        why = "\n".join(bad[:8])
        if few:
            why += ("\n" if why else "") + "fewer than %d judged comparisons at depth %s" % (
                minimum, ",".join(str(d) for d in few))
        field_ok[field] = not bad and not few
        tap(not bad and not few,
            "%s: %s: every judged key agrees in most rounds, judged comparisons per depth %s (>= %d each)"
            % (label, field, per, 0 if field in o.exempt else minimum), why)
        for d in sorted(set(list(cnt) + list(unj))):
            w = worst.get(d)
            summary.append("# %s %s depth %d: %d judged (%d keys)%s%s" % (
                label, field, d, cnt.get(d, 0), nkeys.get(d, 0),
                ", worst error %.2f %% (module %g, oracle %s)" % (
                    100 * w[0], w[1], ("%.0f..%.0f" % w[2]) if isinstance(w[2], tuple) else "%g" % w[2])
                if w else "",
                "; %d reported, not judged" % unj[d] if d in unj else ""))
        for wy, nn in sorted(why_unj.items()):
            summary.append("# %s %s: %d comparisons not judged: %s" % (label, field, nn, wy))
    return results, diags + summary, field_ok




def mutate(data, spec):
    """a copy of the rounds with the module's tables changed as SPEC says:
      xF:TABLE.FIELD>=D   multiply FIELD of the TABLE (cpus or groups) rows
                          at depth >= D by F (x0, x2, x3; cpus rows: any D)
      xF:cpus.FIELD@C     the same for CPU C's cpus row only
      copy:SRC>DST        column DST := column SRC, in cpus and groups
      hload_nogroup       every groups row's h_load := its CPU's root row's
                          (h_load without the group factor)"""
    d = copy.deepcopy(data)
    kind, _, rest = spec.partition(":")
    for r, sd, cpus, groups, tasks in d:
        if not cpus or groups is None:
            continue
        if kind.startswith("x"):
            f = float(kind[1:])
            if "@" in rest:
                fld, c = rest.split("@")
                rows = [cpus[int(c)]] if int(c) in cpus else []
            else:
                fld, dmin = rest.split(">=")
                if fld.startswith("cpus."):
                    rows = list(cpus.values())
                else:
                    rows = [x for x in groups.values() if int(x["depth"]) >= int(dmin)]
            col = fld.split(".", 1)[1]
            for x in rows:
                if x.get(col, "-") != "-":
                    x[col] = "%d" % round(float(x[col]) * f)
        elif kind == "copy":
            src, dst = rest.split(">")
            for x in list(cpus.values()) + list(groups.values()):
                if src in x and dst in x:
                    x[dst] = x[src]
        elif kind == "hload_nogroup":
            for (c, p), x in groups.items():
                root = groups.get((c, "/"))
                if root:
                    x["h_load"] = root["h_load"]
        else:
            sys.exit("unknown mutation " + spec)
    return d


def main():
    mode, path = sys.argv[1], sys.argv[2]
    o = parse_opts(sys.argv[3:])
    data = rounds_data(path)
    n = 0

    def emit(ok, name, why=""):
        nonlocal n
        n += 1
        print("%sok %d - %s" % ("" if ok else "not ", n, name))
        if why and not ok:
            for line in why.split("\n"):
                print("# " + line)

    if mode == "teeth":
        # --case MUTATION:MODE:FIELD: the unmutated rounds pass that field's
        # check and a copy with MUTATION fails it
        label = o.label or "teeth"
        if not o.cases:
            emit(False, "%s: no --case given" % label)
        for case in o.cases:
            spec, m, field = case.rsplit(":", 2)
            _, _, fb = judge(data, m, o)
            res, _, fo = judge(mutate(data, spec), m, o)
            caught = field in fo and not fo[field]
            emit(caught and fb.get(field, False),
                 "%s: %s fails the %s check, which the unmutated exports pass" % (label, spec, field),
                 "unmutated: %s; mutated copy: %s" % (
                     "passes" if fb.get(field) else "fails" if field in fb else "no such check",
                     "fails" if caught else "passes"))
            for ok, name, why in res:
                if not ok and (": %s: " % field) in name:
                    print("#   " + why.split("\n")[0])
        return
    if mode not in FIELDS:
        sys.exit("mode: fields, shadow, fresh or teeth")
    res, diags, _ = judge(data, mode, o)
    for ok, name, why in res:
        emit(ok, name, why)
    for line in diags:
        print(line)


if __name__ == "__main__":
    main()
