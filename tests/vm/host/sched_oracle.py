#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent oracle for the VM scenarios 05, 11 and 13 (host side).

Input: the rounds a guest scenario read with `catn` ("=== ROUND k FILE"
before each file): the kernel's /sys/kernel/debug/sched/debug, the tasks'
/proc/TID/sched and the module's `cpus` and `groups`, read back to back,
then sched/debug again (how far the kernel's values moved meanwhile).

  fields  every value sched/debug shares with `cpus` and `groups`:
          cpus:   nr_running (the "cpu#N" block), h_nr_running, load_avg,
                  runnable_avg, util_avg (root cfs_rq), weight (root .load)
          groups: per (cpu, path) row: h_tasks (.h_nr_running), load_avg,
                  runnable_avg, util_avg, cfs_weight (.load), se_weight
                  (.se->load.weight), nr_tasks (the R tasks of that cgroup
                  in the CPU's task list and, 6.14+, the sleepers still
                  queued there: its h_nr_queued - h_nr_runnable less its
                  child cfs_rqs'), h_load (below)
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
  counts (nr_running, h_nr_running, h_tasks, nr_tasks): exact;
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
The guests read sched/debug twice in each round: before the module's files
and after them ("FILE#after" here).  A judged key (a CPU or a row, one
field) must agree in every round: with the kernel's value before, the one
after, or between the two.  A round where it does not fails the key unless
the kernel's own state moved in that round: the key's value moved between
the two reads by more than the tolerance, or the CPU's run queue changed
between them in a way neither read shows (another task ran there: its
switch count moved, or a task came or went; the module's values are those
of its last event, which may be that state: 7.3, scenario 11, default
mode: module nr_running 2 against the dump's 1 and 1, the CPU's switch
count 1385 then 1387).  Excused rounds are counted; the closing
diagnostics give, per field, how far the kernel's values moved within the
rounds.  On a CPU named with --noisy-cpu (the one that runs the serial
console's interrupt work and its kworkers: cpu0 in the VM) the root's
values (the `cpus` row and the root `groups` row) carry kworkers that come
and go between the reads (5.10, scenario 11: module 381, 376, 292, 483,
292, 372 against the dump's 292 in the same rounds; 6.1, scenario 05:
module 1052, 1078, 1026, 1322, 1024 against the dump's 512, 981, 513, 513
and 512): they are excluded from the verdict, counted and printed per
field with the spread of the kernel's own values over their reads and how
many rounds would have passed the others' rule; that CPU's other rows are
judged like every CPU's.

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
import sys

SCALE_SHIFT = 10
CONSOLE = "console:"    # a kind's mark on the console CPU's root values


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
            rnd = rounds.setdefault(r, {})
            if f in rnd:
                # a file read again in the round (sched/debug after the
                # module's files): kept apart as FILE#after
                f += "#after"
            cur = rnd.setdefault(f, [])
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
            pid = prio = sw = None
            if "prio" in after_pid and "group-path" in after_pid:
                # the comm may hold spaces, every column after PID is one
                # token: count from the right (7.3 adds `weight` after PID)
                i = len(toks) - len(after_pid) - 1
                if i >= 1 and re.match(r"^\d+$", toks[i]):
                    pid = int(toks[i])
                    prio = int(toks[i + 1 + after_pid.index("prio")])
                    if "switches" in after_pid:
                        sw = toks[i + 1 + after_pid.index("switches")]
            else:
                for i in range(1, len(toks) - 3):
                    if re.match(r"^\d+$", toks[i]) and re.match(r"^-?\d+\.\d+$", toks[i + 1]):
                        pid = int(toks[i])
                        prio = int(toks[i + 3])	# 5.10/6.1: PID tree-key switches prio
                        sw = toks[i + 2]
                        break
            if pid is None:
                continue
            cpus[cpu]["tasks"].append({"state": state, "pid": pid, "cur": line[0] == ">",
                                       "prio": prio, "path": toks[-1], "switches": sw})
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
        sd = cpus = groups = sd2 = None
        tasks = {}
        for f, lines in files.items():
            if f.endswith("sched/debug#after") or f.endswith("sched_debug#after"):
                sd2 = parse_sched_debug(lines)
            elif f.endswith("sched/debug") or f.endswith("sched_debug"):
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
        out.append((r, sd, cpus, groups, tasks, sd2))
    return out


def fair_r(sdcpu):
    """R tasks of the fair class (prio >= 100) by cgroup path"""
    q = {}
    for t in sdcpu["tasks"]:
        if t["state"] == "R" and t["prio"] >= 100:
            q.setdefault(t["path"], []).append(t["pid"])
    return q


def delayed_direct(sdcpu):
    """tasks queued directly on each cfs_rq although asleep (delayed
    dequeue, 6.12+): the dump lists them as S, yet the cfs_rq still holds
    them, and `groups` nr_tasks counts every task queued there.  From the
    kernel's own counters: a subtree's delayed tasks are its h_nr_queued -
    h_nr_runnable (7.3 prints both; 6.14+), those directly on a cfs_rq are
    its subtree's less its child cfs_rqs' ({path: n}, 0 where the dump has
    no runnable count: 6.1 has no delayed dequeue, and on 6.12-6.13 a path
    holding a delayed task fails consistent_paths() and is not judged)"""
    cfs = sdcpu["cfs"]
    sub = {p: int(b["h_nr_queued"] - b["h_nr_runnable"])
           for p, b in cfs.items() if "h_nr_queued" in b and "h_nr_runnable" in b}
    out = {}
    for p, n in sub.items():
        kids = sum(v for c, v in sub.items() if c != "/" and parent_path(c) == p)
        out[p] = n - kids
    return out


def queued_direct(sdcpu, p):
    """tasks queued directly on the cfs_rq of path p: its R fair tasks and
    its delayed sleepers (delayed_direct)"""
    return len(fair_r(sdcpu).get(p, [])) + delayed_direct(sdcpu).get(p, 0)


def transient(sd1, sd2):
    """Did the CPU's run queue change between two reads of its dump in a
    way neither read shows?  A task that ran on it in between (its switch
    count moved) other than those queued in both reads, or a task listed
    in one read only (the dump lists every task whose CPU it is, sleeping
    or not), or a different set of queued tasks: what the module saw at
    an event between the reads (its values are those of its last event)
    can be that state."""
    t1 = {t["pid"]: t for t in sd1["tasks"]}
    t2 = {t["pid"]: t for t in sd2["tasks"]}
    if sd1["rq"].get("nr_running") != sd2["rq"].get("nr_running"):
        return True
    for pid in set(t1) | set(t2):
        a, b = t1.get(pid), t2.get(pid)
        if a is None or b is None:
            return True
        if (a["state"] == "R") != (b["state"] == "R"):
            return True
        if a["state"] == "R" and b["state"] == "R":
            continue
        if a.get("switches") != b.get("switches"):
            return True
    return False


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


def plain(kind):
    """the kind without the console CPU's mark"""
    return kind[len(CONSOLE):] if kind.startswith(CONSOLE) else kind


def agree(a, b, kind, depth=0, default=False, walk=False):
    """a: the module's value, b: the oracle's (a (lo, hi) interval for
    `fresh`); None when there is nothing to compare"""
    if a is None or b is None:
        return None
    # the console CPU's root values (excluded from the verdict): the others' tolerances
    kind = plain(kind)
    drift = JIFFY_DRIFT if default and walk else 0.0
    if kind == "fresh":
        lo, hi = b
        return lo * 0.98 - 4 <= a <= hi * 1.02 + 4
    d = abs(a - b)
    if kind == "count":
        return d == 0
    if kind == "weight":
        return d <= max(0.01 * abs(b), 2)
    if kind == "h_load":
        return d <= max((JIFFY_DRIFT + drift) * abs(b), depth + 2)
    if kind == "avg_mixed":
        return d <= max((0.09 + drift) * abs(b), 8)
    return d <= max((0.03 + drift) * abs(b), 4)


def rel_err(a, b, kind):
    if plain(kind) == "fresh":
        lo, hi = b
        out = max(lo - a, a - hi, 0)
        return out / max(abs(hi), 1)
    return abs(a - b) / max(abs(b), 1)


def moved(b, b2, kind, depth=0, default=False, walk=False):
    """did the kernel's own value move, between its read before the
    module's files and its read after them, by more than the tolerance?"""
    if b is None or b2 is None:
        return False
    if plain(kind) == "fresh":
        return not agree((b2[0] + b2[1]) / 2.0, b, kind)
    return not agree(b2, b, kind, depth, default, walk)


def agree_round(a, b, b2, kind, depth=0, default=False, walk=False):
    """the module's value agrees with the kernel's read before its files,
    with the read after them, or lies between the two"""
    ok = agree(a, b, kind, depth, default, walk)
    if ok is None or ok or b2 is None:
        return ok
    if agree(a, b2, kind, depth, default, walk):
        return True
    if plain(kind) == "fresh":
        return agree(a, (min(b[0], b2[0]), max(b[1], b2[1])), kind)
    return min(b, b2) <= a <= max(b, b2)


def movement(b, b2, kind):
    """how far the kernel's value moved in the round, relative to the larger read"""
    if plain(kind) == "fresh":
        b, b2 = (b[0] + b[1]) / 2.0, (b2[0] + b2[1]) / 2.0
    return abs(b2 - b) / max(abs(b), abs(b2), 1)




class Tally:
    """comparisons by key: ("cpu", c) or ("row", c, path), plus the field;
    one entry per round: (ok, moved, module, kernel before, kernel after,
    kind, depth)"""

    def __init__(self, default=False):
        self.default = default
        self.res = {}

    def add(self, key, a, b, b2, kind, depth, walk=False, changed=False):
        """changed: the CPU's run queue changed between the two reads
        (transient()): the kernel's state moved in the round"""
        ok = agree_round(a, b, b2, kind, depth, self.default, walk)
        if ok is None:
            return
        mv = moved(b, b2, kind, depth, self.default, walk) or changed
        self.res.setdefault(key, []).append((ok, mv, a, b, b2, kind, depth))


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
        memo[p] = {"S": s, "task_load": tl, "nq": queued_direct(sdcpu, p),
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


def cpu_round(k, c, cpus, groups, tasks, mode, o, add):
    """the comparisons of CPU c in one round against one read of the
    kernel's dump (k: its block for c): add(key, field, module, kernel,
    kind, depth, walk).  Returns (skipped, walk_behind)."""
    noisy = o.noisy
    cons = consistent_paths(k)
    if "/" not in cons:
        # the kernel's dump disagrees with itself on this CPU in this
        # round (a task R but not queued): its root counts and averages
        # are not an oracle for that instant
        return True, False
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

    def cons_kind(kind, p="/"):
        # the console CPU's root (--noisy-cpu): its counts, averages,
        # weight and h_load carry the console's kworkers, which come and
        # go between the reads (7.3, scenario 11: tasks queued at its root
        # 1 1 0 0 against the dump's 0 0 0 0 in the last rounds, the dump's
        # 1 2 1 1 0 0 0 0; 5.10: module 381, 376, 292, 483, 292, 372
        # against the dump's steady 292): excluded, counted, printed
        return CONSOLE + kind if c in noisy and p == "/" else kind

    def count_kind(p):
        return cons_kind("count", p)

    if mode == "fields":
        ck = count_kind("/")
        add(key, "cpus.nr_running", num(m["nr_running"]), k["rq"].get("nr_running"), ck, 0)
        add(key, "cpus.h_nr_running", num(m["h_nr_running"]), root.get("h_runnable"), ck, 0)
        # groups time-share this CPU: the root's averages are sums of
        # top-level entities whose averages are propagated from those
        # groups at each update, so they move between two reads like
        # the groups' own (cpu1 of scenario 11 on 6.1: root
        # runnable_avg 2048..2204 over the rounds); the root keeps
        # being judged, within the time-sharing tolerance
        mixed = any(0 < b.get("h_nr_running", 0) < root.get("h_runnable", 0)
                    for p, b in k["cfs"].items() if p != "/")
        rk = cons_kind("avg_mixed" if mixed else "avg")
        for f in ("load_avg", "runnable_avg", "util_avg"):
            add(key, "cpus." + f, num(m[f]), root.get(f), rk, 0)
        add(key, "cpus.weight", num(m["weight"]), scale_down(root.get("load", 0)), cons_kind("weight"), 0)
        if walk_behind:
            return False, True
        H = oracle_h_load(k)
        for p, blk in k["cfs"].items():
            g = groups.get((c, p))
            if g is None or blk.get("h_nr_running", 0) <= 0:
                continue
            gk = ("row", c, p)
            dp = depth_of(p)
            gck = count_kind(p)
            add(gk, "groups.h_tasks", num(g["h_tasks"]), blk.get("h_nr_running"), gck, dp, True)
            # a group that time-shares its CPU: its load and runnable
            # averages do not depend on who runs (judged), its
            # utilization does (reported)
            shared = blk.get("h_nr_running", 0) < root.get("h_runnable", 0)
            kind = rk if p == "/" else "avg"
            for f in ("load_avg", "runnable_avg", "util_avg"):
                fk = cons_kind("util_shared", p) if shared and f == "util_avg" else kind
                add(gk, "groups." + f, num(g[f]), blk.get(f), fk, dp, True)
            add(gk, "groups.cfs_weight", num(g["cfs_weight"]), scale_down(blk.get("load", 0)),
                cons_kind("weight", p), dp, True)
            if p != "/":
                add(gk, "groups.se_weight", num(g["se_weight"]),
                    scale_down(blk.get("se->load.weight", 0)), "weight", dp, True)
            if p in cons:
                nt = queued_direct(k, p)
                add(gk, "groups.nr_tasks", num(g["nr_tasks"]), nt, gck, dp, True)
            add(gk, "groups.h_load", num(g.get("h_load")), H.get(p), cons_kind("h_load", p), dp, True)
    elif not walk_behind:
        ot = oracle_tree(k, tasks, o.lag_ms, o.margin_ms)
        if "/" in ot:
            add(key, "cpus.shadow", num(m["shadow"]), ot["/"]["S"], cons_kind("avg"), 0, True)
            add(key, "cpus.shadow_fresh", num(m.get("shadow_fresh")), ot["/"]["fresh"], cons_kind("fresh"), 0, True)
            add(key, "cpus.h_load", num(m.get("h_load")), ot["/"]["th"], cons_kind("h_load"), 0, True)
        for p, x in ot.items():
            g = groups.get((c, p))
            if g is None or k["cfs"][p].get("h_nr_running", 0) <= 0:
                continue
            gk = ("row", c, p)
            dp = depth_of(p)
            add(gk, "groups.shadow", num(g["shadow"]), x["S"], cons_kind("avg", p), dp, True)
            add(gk, "groups.task_load", num(g["task_load"]), x["task_load"], cons_kind("avg", p), dp, True)
            add(gk, "groups.nr_tasks", num(g["nr_tasks"]), x["nq"], count_kind(p), dp, True)
            add(gk, "groups.shadow_fresh", num(g.get("shadow_fresh")), x["fresh"], cons_kind("fresh", p), dp, True)
    return False, walk_behind


def judge(data, mode, o):
    """-> (TAP results [(ok, name, why)], diagnostic lines, {field: passed})

    Every judged key (a CPU or a row, one field) must agree in every round:
    with the kernel's dump read before the module's files, with the one
    read after them, or between the two.  A round where it does not is
    excused only when the kernel's own value moved between those two reads
    by more than the tolerance (counted and printed).  The console CPU's
    root-level values (--noisy-cpu) are excluded, counted and printed with
    the kernel's spread over its reads."""
    label = o.label or mode
    skip, only, expect = o.skip, o.only, o.expect
    minimum, depths = o.minimum, o.depths
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
    moved_cpu = {}
    after_rounds = 0
    for r, sd, cpus, groups, tasks, sd2 in good:
        after_rounds += sd2 is not None
        for c in judged:
            if c not in sd or c not in cpus or cpus[c].get("online") != "1":
                continue
            before = {}

            def put(store):
                def add(key, field, a, b, kind, depth, walk=False):
                    store[key + (field,)] = (a, b, kind, depth, walk)
                return add

            sk, wb = cpu_round(sd[c], c, cpus, groups, tasks, mode, o, put(before))
            if sk:
                skipped[c] = skipped.get(c, 0) + 1
                continue
            if wb:
                behind[c] = behind.get(c, 0) + 1
            after = {}
            changed = False
            if sd2 is not None and c in sd2:
                cpu_round(sd2[c], c, cpus, groups, tasks, mode, o, put(after))
                changed = transient(sd[c], sd2[c])
                if changed:
                    moved_cpu[c] = moved_cpu.get(c, 0) + 1
            for kf, (a, b, kind, depth, walk) in before.items():
                b2 = after.get(kf, (None, None))[1]
                t.add(kf, a, b, b2, kind, depth, walk, changed)
    # the data the scenario built is there
    if expect:
        seen = {}
        for r, sd, cpus, groups, tasks, sd2 in good:
            for e in expect:
                c, p = int(e[0]), e[1]
                if c in sd and any(x["state"] == "R" and x["path"] == p for x in sd[c]["tasks"]) \
                   and (c, p) in groups:
                    seen[(c, p)] = seen.get((c, p), 0) + 1
        missing = [(int(e[0]), e[1]) for e in expect if seen.get((int(e[0]), e[1]), 0) * 2 <= len(good)]
        tap(not missing, "%s: every hog the guest set up is queued on its CPU in its cgroup, in sched/debug "
            "and in groups, in most rounds (%d placements)" % (label, len(expect)),
            "missing: %s" % missing)
    diags.append("# %s: sched/debug read before and after the module's files in %d of %d rounds"
                 % (label, after_rounds, len(good)))
    if moved_cpu:
        diags.append("# %s: CPU-rounds in which the run queue changed between the two reads of sched/debug "
                     "(another task ran, came or went: a key that disagrees there is excused): %s"
                     % (label, " ".join("cpu%d:%d" % x for x in sorted(moved_cpu.items()))))
    if behind:
        diags.append("# %s: CPU-rounds whose last walk was older than their last event, per-walk values left out: %s"
                     % (label, " ".join("cpu%d:%d" % x for x in sorted(behind.items()))))
    if skipped:
        diags.append("# %s: rounds left out per CPU (a task R but not queued in the kernel's dump): %s"
                     % (label, " ".join("cpu%d:%d" % x for x in sorted(skipped.items()))))
    # per field: every judged key agrees in every round (or the kernel moved), and enough were judged at every depth
    summary = []
    for field, spec in FIELDS[mode]:
        want = field_depths(field, spec, depths)
        keys = {k: v for k, v in t.res.items() if k[-1] == field}
        cnt, worst, unj, nkeys = {}, {}, {}, {}
        bad = []
        excused = 0
        moves = []
        console = []
        for k, v in sorted(keys.items(), key=lambda kv: str(kv[0])):
            for x in v:
                if x[4] is not None:
                    moves.append(movement(x[3], x[4], x[5]))
            # a group's util_avg is reported, not judged, in the rounds
            # where the group time-shared its CPU; its other rounds are
            # judged (a kworker queued at one dump must not exempt the key)
            for x in v:
                if x[5] == "util_shared":
                    unj[x[6]] = unj.get(x[6], 0) + 1
            v = [x for x in v if x[5] != "util_shared"]
            if not v:
                continue
            if v[0][5].startswith(CONSOLE):
                # the console CPU's root: excluded, counted, and printed
                # with the spread of the kernel's own values over its reads
                console.append((k, v))
                continue
            failed = []
            for ok, mv, a, b, b2, kind, dp in v:
                cnt[dp] = cnt.get(dp, 0) + 1
                e = min(rel_err(a, b, kind), rel_err(a, b2, kind) if b2 is not None else 1e9)
                if dp not in worst or e > worst[dp][0]:
                    worst[dp] = (e, a, b)
                if not ok:
                    if mv:
                        excused += 1
                    else:
                        failed.append((a, b, b2, kind))
            dp0 = v[0][6]
            nkeys[dp0] = nkeys.get(dp0, 0) + 1
            if failed:
                where = "cpu%d" % k[1] + ("" if k[0] == "cpu" else " " + k[2])

                def fmt(x):
                    return ("%.0f-%.0f" % x) if isinstance(x, tuple) else "%g" % x
                vals = " ".join("%g/%s%s" % (x[0], fmt(x[1]), "" if x[2] is None else ">" + fmt(x[2]))
                                for x in failed)
                bad.append("%s: %d of %d rounds disagree with the kernel's steady value (module/kernel "
                           "before>after: %s)" % (where, len(failed), len(v), vals))
        few = [d for d in want if cnt.get(d, 0) < minimum and field not in o.exempt]
        per = " ".join("d%d:%d" % (d, cnt.get(d, 0)) for d in want)
        why = "\n".join(bad[:8])
        if few:
            why += ("\n" if why else "") + "fewer than %d judged comparisons at depth %s" % (
                minimum, ",".join(str(d) for d in few))
        field_ok[field] = not bad and not few
        tap(not bad and not few,
            "%s: %s: every judged key agrees in every round (or the kernel's value moved in it), judged "
            "comparisons per depth %s (>= %d each)"
            % (label, field, per, 0 if field in o.exempt else minimum), why)
        for d in sorted(set(list(cnt) + list(unj))):
            w = worst.get(d)
            summary.append("# %s %s depth %d: %d judged (%d keys)%s%s" % (
                label, field, d, cnt.get(d, 0), nkeys.get(d, 0),
                ", worst error %.2f %% (module %g, oracle %s)" % (
                    100 * w[0], w[1], ("%.0f..%.0f" % w[2]) if isinstance(w[2], tuple) else "%g" % w[2])
                if w else "",
                "; %d reported, not judged (a time-shared group's util_avg)" % unj[d] if d in unj else ""))
        if moves:
            ms = sorted(moves)
            summary.append("# %s %s: the kernel's value moved between its reads before and after the module's "
                           "files by up to %.2f %% (median %.2f %%, %d comparisons); %d disagreeing rounds "
                           "excused by that movement or by a run queue that changed between the reads"
                           % (label, field, 100 * ms[-1], 100 * ms[len(ms) // 2], len(ms), excused))
        for k, v in console:
            where = "cpu%d%s" % (k[1], "" if k[0] == "cpu" else " " + k[2])
            if plain(v[0][5]) == "fresh":
                summary.append("# %s %s: console CPU %s excluded: %d comparisons, %d within the others' tolerance"
                               % (label, field, where, len(v), sum(1 for x in v if x[0])))
                continue
            ks = [x[3] for x in v] + [x[4] for x in v if x[4] is not None]
            lo, hi = min(ks), max(ks)
            ms_ = [x[2] for x in v]
            summary.append("# %s %s: console CPU %s excluded: %d comparisons, %d within the others' rule, %d within "
                           "the spread of the kernel's values over its %d reads (%g..%g; the module's %g..%g)"
                           % (label, field, where, len(v), sum(1 for x in v if x[0]),
                              sum(1 for x in v if agree_round(x[2], lo, hi, x[5])), len(ks), lo, hi,
                              min(ms_), max(ms_)))
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
    for r, sd, cpus, groups, tasks, sd2 in d:
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
