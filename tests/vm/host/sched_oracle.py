#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent oracle for the VM scenarios 05 and 11 (host side).

Input: the rounds a guest scenario read with `catn` ("=== ROUND k FILE"
before each file): the kernel's /sys/kernel/debug/sched/debug, the tasks'
/proc/TID/sched and the module's `cpus` and `groups`, read back to back.

  fields  every value sched/debug shares with `cpus` and `groups`:
          cpus:   nr_running (the "cpu#N" block), h_nr_running, load_avg,
                  runnable_avg, util_avg (root cfs_rq), weight (root .load)
          groups: per (cpu, path) row: h_tasks (.h_nr_running), load_avg,
                  runnable_avg, util_avg, cfs_weight (.load), se_weight
                  (.se->load.weight), nr_tasks (the R tasks of that cgroup
                  in the CPU's task list)
  shadow  the expected shadow, computed here from the kernel's data only:
          S(X) = sum(tasks queued on X: se.avg.load_avg from /proc/TID/sched)
               + sum(child cfs_rq G with h_nr_running > 0:
                     min(S(G) * w(G) / W(G), w(G)))
          w = .se->load.weight, W = .load (sched/debug), both
          scale_load_down'ed; compared with `groups` shadow and task_load
          on every row and with `cpus` shadow (S of the root).

Tolerances (why): the files are read one after the other, not atomically,
and the module shows its last published walk (published at the last
enqueue/dequeue or root PELT update, at most a tick old when the CPU is
busy); with steady pinned hogs the PELT sums are saturated and move by a
few units between reads.
  counts (nr_running, h_nr_running, h_tasks, nr_tasks): exact;
  weights (weight, cfs_weight, se_weight): max(1 %, 2 units) - a group
    entity's weight is recomputed from the task group's load_avg sum at
    every update;
  PELT averages of a group that time-shares its CPU with another group:
    reported, not judged - it gains while it runs and decays while switched
    out for up to a CFS slice (several 4 ms ticks with 6 CPUs), so two
    reads that are not simultaneous differ by 10-25 %;
  PELT averages and shadow, task_load: max(3 %, 4 units) - the same
    measured median was 0 % and max 2 % (docs/design.md) on 6.1, plus the
    shadow's per-level integer rounding (up to 1 unit per level).
A comparison (CPU or row) passes when it agrees in more than half of the
rounds in which both sides have it.  On a CPU named with --noisy-cpu (the
one that runs the serial console's interrupt work and its kworkers: cpu0
in the VM) the root's PELT averages need one agreeing round: the module
publishes them at the CPU's last event, and a kworker's load that leaves
between that event and the dump (its blocked load removed when it wakes
elsewhere) is in one side only (5.10, scenario 11: module 381, 376, 292,
483, 292, 372 against the dump's steady 292).  A module reading another
CPU or field agrees in no round.

usage: sched_oracle.py fields|shadow ROUNDS_FILE [--skip-cpu N]... [--noisy-cpu N]...
       [--expect FILE]   (shadow: "cpu path nice" lines the guest set up:
                          each must be seen queued in most rounds)
Prints TAP lines (no plan) and "# " diagnostics, median and max per field.
"""
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


def num(v):
    return None if v in (None, "-") else float(v)


def agree(a, b, kind):
    if a is None or b is None:
        return None
    d = abs(a - b)
    if kind == "count":
        return d == 0
    if kind == "weight":
        return d <= max(0.01 * abs(b), 2)
    if kind in ("avg_shared", "avg_mixed"):
        return d <= max(0.09 * abs(b), 8)
    return d <= max(0.03 * abs(b), 4)


class Tally:
    def __init__(self):
        self.res = {}      # key + (field,) -> [(ok, module, kernel, kind)]
        self.kern = {}     # key + (field,) -> the kernel's values in every round read

    def observe(self, key, field, b):
        """the kernel's value in a round, judged or not (a round skipped for
        a task R but not queued still shows how much the signal moves)"""
        if b is not None:
            self.kern.setdefault(key + (field,), []).append(b)

    def add(self, key, field, a, b, kind):
        ok = agree(a, b, kind)
        if ok is None:
            return
        self.observe(key, field, b)
        self.res.setdefault(key + (field,), []).append((ok, a, b, kind))

    def unsteady_key(self, k, v):
        if v[0][3] in ("avg", "avg_mixed") and len(self.kern.get(k, [])) > len(v):
            return self.unsteady([(None, None, b, "avg") for b in self.kern[k]])
        return self.unsteady(v)

    @staticmethod
    def unsteady(v):
        """a PELT average whose kernel value strays from its median over the
        rounds by more than 10 % (and 8 units) in two rounds or more (over
        every round read: unsteady_key()):
        reads that are not simultaneous cannot agree on it (tasks of
        different cgroups time-sharing a CPU swing their groups' averages
        with every slice), so it is reported, not judged; one stray round
        (the console's interrupt work on cpu0) keeps it judged"""
        if v[0][3] == "avg_shared":
            # a group time-sharing its CPU: switched out for up to a CFS
            # slice (several ticks at 6 CPUs), its averages swing by 10-25 %
            # between two reads that are not simultaneous (measured: /o/c
            # on cpu1 823..913 across rounds): reported, never judged
            return True
        if v[0][3] not in ("avg", "avg_mixed"):
            return False
        ks = [x[2] for x in v]
        med = statistics.median(ks)
        return sum(1 for k in ks if abs(k - med) > max(0.10 * abs(med), 8)) >= 2

    def judged(self):
        return {k: [x[0] for x in v] for k, v in self.res.items() if not self.unsteady_key(k, v)}

    def diffs(self, judged_only):
        d = {}
        for k, v in self.res.items():
            if judged_only == self.unsteady_key(k, v):
                continue
            d.setdefault(k[-1], []).extend(abs(x[1] - x[2]) / max(abs(x[2]), 1) for x in v)
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
                m = re.match(r"^/proc/(\d+)/sched$", f)
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


def oracle_shadow(sdcpu, tasks):
    """S of every consistent cfs_rq of one CPU from sched/debug and
    /proc/TID/sched: {path: (S, task_load, tasks)}; a path whose subtree is
    inconsistent or holds a task whose load was not read is left out"""
    cfs = sdcpu["cfs"]
    queued = fair_r(sdcpu)
    good = consistent_paths(sdcpu)
    memo = {}

    def S(p):
        if p in memo:
            return memo[p]
        memo[p] = None
        if p not in good:
            return None
        tl = 0.0
        for pid in queued.get(p, []):
            if pid not in tasks or "se.avg.load_avg" not in tasks[pid]:
                return None
            tl += tasks[pid]["se.avg.load_avg"]
        s = tl
        for c, blk in cfs.items():
            parent = c.rsplit("/", 1)[0] or "/"
            if c == "/" or parent != p:
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
            s += min(sc[0] * w / W, w)
        memo[p] = (s, tl, len(queued.get(p, [])))
        return memo[p]

    return {p: S(p) for p in cfs if S(p) is not None}


def main():
    mode, path = sys.argv[1], sys.argv[2]
    skip = set()
    noisy = set()
    expect = []
    a = sys.argv[3:]
    while a:
        if a[0] == "--skip-cpu":
            skip.add(int(a[1])); a = a[2:]
        elif a[0] == "--noisy-cpu":
            noisy.add(int(a[1])); a = a[2:]
        elif a[0] == "--expect":
            expect = [l.split() for l in open(a[1]) if l.strip() and not l.startswith("#")]
            a = a[2:]
        else:
            sys.exit("unknown argument " + a[0])
    data = rounds_data(path)
    n = 0

    def tap(ok, name, why=""):
        nonlocal n
        n += 1
        print("%sok %d - %s" % ("" if ok else "not ", n, name))
        if why and not ok:
            print("# " + why)

    good = [d for d in data if d[1] and d[2] and d[3] is not None]
    tap(len(good) >= 3 and all(len(d[1]) >= 2 and len(d[2]) >= 2 for d in good),
        "%s: %d rounds with sched/debug, cpus and groups (>= 3)" % (mode, len(good)),
        "rounds: %d" % len(data))
    if len(good) < 3:
        return
    t = Tally()
    ncpu = max(max(d[1]) for d in good) + 1
    judged = [c for c in range(ncpu) if c not in skip]
    skipped = {}
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
                    continue
            root = k["cfs"].get("/", {})
            m = cpus[c]
            key = ("cpu", c)
            if mode == "fields":
                t.add(key, "cpus.nr_running", num(m["nr_running"]), k["rq"].get("nr_running"), "count")
                t.add(key, "cpus.h_nr_running", num(m["h_nr_running"]), root.get("h_runnable"), "count")
                # groups time-share this CPU: the root's averages are sums of
                # top-level entities whose averages are propagated from those
                # groups at each update, so they move between two reads like
                # the groups' own (cpu1 of scenario 11 on 6.1: root
                # runnable_avg 2048..2204 over the rounds); the root keeps
                # being judged, within the time-sharing tolerance
                mixed = any(0 < b.get("h_nr_running", 0) < root.get("h_runnable", 0)
                            for p, b in k["cfs"].items() if p != "/")
                rk = "avg_mixed" if mixed else "avg"
                for f in ("load_avg", "runnable_avg", "util_avg"):
                    t.add(key, "cpus." + f, num(m[f]), root.get(f), rk)
                t.add(key, "cpus.weight", num(m["weight"]), scale_down(root.get("load", 0)), "weight")
                for p, blk in k["cfs"].items():
                    g = groups.get((c, p))
                    if g is None or blk.get("h_nr_running", 0) <= 0:
                        continue
                    gk = ("row", c, p)
                    t.add(gk, "groups.h_tasks", num(g["h_tasks"]), blk.get("h_nr_running"), "count")
                    # a group that time-shares its CPU gains while it runs and
                    # decays while switched out: between two reads up to a tick
                    # (4 ms at Debian's HZ=250) apart its averages move by up to
                    # 1 - y^4 = 8.3 %, whichever side read first
                    shared = blk.get("h_nr_running", 0) < root.get("h_runnable", 0)
                    kind = "avg_shared" if shared else (rk if p == "/" else "avg")
                    for f in ("load_avg", "runnable_avg", "util_avg"):
                        t.add(gk, "groups." + f, num(g[f]), blk.get(f), kind)
                    t.add(gk, "groups.cfs_weight", num(g["cfs_weight"]), scale_down(blk.get("load", 0)), "weight")
                    if p != "/":
                        t.add(gk, "groups.se_weight", num(g["se_weight"]),
                              scale_down(blk.get("se->load.weight", 0)), "weight")
                    if p in cons:
                        nt = len(fair_r(k).get(p, []))
                        t.add(gk, "groups.nr_tasks", num(g["nr_tasks"]), nt, "count")
            else:
                o = oracle_shadow(k, tasks)
                if "/" in o:
                    t.add(key, "cpus.shadow", num(m["shadow"]), o["/"][0], "avg")
                for p, (s, tl, nq) in o.items():
                    g = groups.get((c, p))
                    if g is None or k["cfs"][p].get("h_nr_running", 0) <= 0:
                        continue
                    gk = ("row", c, p)
                    t.add(gk, "groups.shadow", num(g["shadow"]), s, "avg")
                    t.add(gk, "groups.task_load", num(g["task_load"]), tl, "avg")
                    t.add(gk, "groups.nr_tasks", num(g["nr_tasks"]), nq, "count")
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
            "and in groups, in most rounds (%d placements)" % (mode, len(expect)),
            "missing: %s" % missing)
    res = t.judged()
    for c in judged:
        keys = {k: x for k, x in res.items() if k[1] == c}
        def failing(k, x):
            root_avg = (k[0] == "cpu" or k[2] == "/") and k[-1].endswith("_avg")
            if c in noisy and root_avg and mode == "fields":
                return sum(x) == 0
            return sum(x) * 2 <= len(x)
        bad = ["%s%s %d/%d" % (k[-1], "" if k[0] == "cpu" else "@" + k[2], sum(x), len(x))
               for k, x in keys.items() if failing(k, x)]
        nrows = len({k[2] for k in keys if k[0] == "row"})
        ncpu_f = len([k for k in keys if k[0] == "cpu"])
        what = "cpus fields (nr_running, h_nr_running, load/runnable/util_avg, weight)" if mode == "fields" \
            else "cpus shadow = S(root) computed from sched/debug and /proc/TID/sched"
        unst = sorted("%s%s" % (k[-1], "" if k[0] == "cpu" else "@" + k[2])
                      for k, v in t.res.items() if k[1] == c and t.unsteady_key(k, v))
        tap(ncpu_f > 0 and nrows > 0 and not bad,
            "%s: cpu%d: %s and %d groups rows agree in most rounds (%d of %d comparisons; "
            "%d rounds with a task R but not queued in the kernel's dump)"
            % (mode, c, what, nrows, sum(sum(x) for x in keys.values()),
               sum(len(x) for x in keys.values()), skipped.get(c, 0)),
            "fields failing (agreeing rounds/rounds): %s" % bad)
        if unst:
            print("# cpu%d: not judged, the kernel's own value strayed > 10 %% from its median in >= 2 rounds: %s"
                  % (c, " ".join(unst)))
    for judged_only in (True, False):
        for f, d in sorted(t.diffs(judged_only).items()):
            print("# %s %s%s: %d comparisons, relative diff median %.2f %% max %.2f %%"
                  % (mode, f, "" if judged_only else " (unsteady, not judged)", len(d),
                     100 * statistics.median(d), 100 * max(d)))


if __name__ == "__main__":
    main()
