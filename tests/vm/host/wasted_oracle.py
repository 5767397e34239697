#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
wasted_oracle: wasted-core time and the run-queue wait split, recomputed
from raw scheduler events recorded in the guest through tracefs, with no
use of the module's output or code (the module's tables are read only by
the comparison at the end, never by the computation).

  wasted_oracle.py WINDOW...   (WINDOW: a wasted-NAME.tar.gz exported by
                                tests/vm/guest/wasted.sh, or a directory
                                holding the same NAME.* files)

Definitions (docs/wasted.md):
  - a CPU is idle while it runs its idle task (sched_switch to/from pid 0);
    the module's sampler thread (comm sched_shadow_wasted) is invisible:
    while it runs, the CPU counts as running what it ran before (idle, or
    the task it preempted, which is not waiting meanwhile: docs/wasted.md);
  - a task waits on CPU S while it is runnable on S (woken there, or
    preempted there: prev_state R) and S runs another task, not its idle
    task (tasks woken on an idle CPU are about to run there until it
    switches to one of them); only CFS tasks count (prio 100..139);
  - CPU C's wasted time: C idle while at least one task waits on another
    CPU and C is in that task's affinity; per cgroup: while a task of that
    cgroup does;
  - a task's wait splits into "an allowed CPU was idle" (the balancer's
    share) and "every allowed CPU was busy" (capacity and shares).

The dequeue gap.  A task going to sleep leaves its run queue (its
dequeue) before its sched_switch; between the two the module may see its
CPU idle (when nothing else is queued) and the next task as about to run,
not waiting, and under single-threaded TCG a vCPU left unrun there
stretches that to milliseconds.  The raw events show the switch, not the
dequeue; the guest records a kprobe event on dequeue_task_fair()
(DEQUEUE_SLEEP: ss_dequeue), and a sleeping CFS task's last ss_dequeue on
its CPU before its sched_switch is its dequeue.  Everything is integrated
by the switches (T) and, from each recorded dequeue to its switch, with
the CPU idle when it switches to idle (D1), with the next task not waiting
(D2), and both (D).  The module is judged against the range these give,
widened by the bound: min - bound <= module <= max + bound.  Where no
dequeue was recorded (no kprobe, or a switch whose dequeue is missing) all
four are T: the gap widens the bound only where it was measured, and the
bound itself (5 % of the trace's value or 20 ms, whichever is larger) is
always > 0.

The window comes from the trace.  One SCHED_FIFO writer (wr -f) writes
"wasted: reset NAME", the module's reset and "wasted: window NAME begin";
another "wasted: window NAME end", `enable 0` (the pause) and "wasted:
paused NAME".  The trace also holds the sampler's ticks: hrtimer_expire_entry
of the module's timer function, or the sampler thread's sched_switch in
(it samples first thing; a switch in without a sample, after a wakeup
from its all-idle sleep or a move, only adds a candidate no clock read
matches).  A reset takes effect at the sampler's
first sample after the write; the pause stops sampling at once (the
static key's count drops before the write patches anything), so the
module's counters cover the first tick after the reset to the last one
before the pause: since_ns must be the clock read of a tick between the
reset marker and the first tick after the begin marker, until_ns one of a
tick between the last tick before the end marker and the paused marker
(at most TICK_EPS_MS after the tick's event, or before the sampler
thread's next switch out), and the oracle integrates
between those ticks.  Without ticks in the trace it integrates from the
begin to the end marker, and since_ns must lie within a period plus 1/8
(the timer's jitter) after the begin marker, until_ns within it before the
end marker, each widened by the time every CPU was idle (the sampler
stopped: docs/wasted.md).

Affinity: the snapshot at trace start (Cpus_allowed_list), children
inherit their parent's at sched_process_fork, "affinity tid=T cpus=LIST"
markers (burn --trace-marker, or a scenario after taskset) change it.
Cgroups: the snapshot, fork inheritance, cgroup_attach_task (v2
hierarchy).  Thread groups (the tracked command, "wasted: track pid=P"):
the snapshot's tgid column and task_newtask's CLONE_THREAD.  Raw events do
not show migrate_disable() or throttling: scenarios with those are not
recorded.

Judged, per window (TAP "ok - " / "not ok - " lines):
  - the four window markers are in the trace, and the module's since/until
    are the ticks above (or within the tolerance above);
  - every online CPU has a row in `wasted` (a missing row fails);
  - where the trace has at least 1 s of waste in all (the amounts; in the
    other windows they are printed): each CPU's wasted time within the
    bound;
  - every cgroup of the trace or of the module's `wasted_cgroups` (the
    rows (other) and (removed) included, as cgroups the trace cannot
    have), one check each: wasted time within the bound above, 10 % or
    40 ms (CG_BOUND_*) above; a cgroup with at least 100 ms of trace waste
    and no module row fails, and so does a module-only cgroup above the
    bound;
  - the wait split of every such cgroup: wait_idle_ms and wait_busy_ms
    each within the bound below and CG_BOUND_* above; the tracked
    command's threads against the (tracked) row: its wasted time as a
    cgroup's, its wait_idle_ms and wait_busy_ms within the bound;
  - the dequeue gap was measured: most sleeping CFS switches had their
    dequeue recorded;
  - the wakeup placements (wakeup_check(); wakeups that selected no CPU,
    such as 6.12+'s in-place wakeups of tasks queued by delayed dequeue,
    seen by the guest's ss_enqueue kprobe event, are none): the guest's
    topology has the sched domains of every online CPU, and each level of
    wasted_wakeup where either side counts WAKE_MIN is within the bound of the trace's
    (levels below WAKE_MIN, and windows whose trace lost events, are
    printed, not judged).
Per kernel:
  wasted-core oracle: <release> N of N CPUs within bound
and the same for cgroups and wait splits, the dequeue gap and the window.
"""
import bisect
import os
import re
import sys
import tarfile

LINE_RE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                     r"(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s+(?P<rest>.*)$")
SWITCH_RE = re.compile(r"prev_comm=.* prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                       r"next_comm=.* next_pid=(\d+) next_prio=(-?\d+)")
# the module's sampler thread switched in (its comm, cut to 15 characters)
SAMPLER_RE = re.compile(r"==> next_comm=sched_shadow_wa")
# ... and switched out: preempted (R, R+: it resumes where it stopped, e.g.
# after its move to another CPU, and samples no second time) or asleep
SAMPLER_OUT_RE = re.compile(r"prev_comm=sched_shadow_wa prev_pid=\d+ prev_prio=-?\d+ prev_state=(\S+) ==>")
SAMPLER_WAKE_RE = re.compile(r"^comm=sched_shadow_wa ")
WAKE_RE = re.compile(r"pid=(\d+) prio=(-?\d+)(?: success=\d+)? target_cpu=(\d+)")
MIGRATE_RE = re.compile(r"pid=(\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)")
FORK_RE = re.compile(r"pid=(\d+) child_comm=.* child_pid=(\d+)")
NEWTASK_RE = re.compile(r"pid=(\d+) comm=.* clone_flags=([0-9a-fA-Fx]+)")
EXIT_RE = re.compile(r"pid=(\d+)")
ATTACH_RE = re.compile(r"dst_root=(\d+) .*dst_path=(\S+) pid=(\d+)")
AFF_RE = re.compile(r"affinity tid=(\d+) cpus=(\S+)")
MARK_RE = re.compile(r"wasted: (?:window (\S+) (begin|end)|(reset|paused) (\S+)|track pid=(\d+))")
CLONE_THREAD = 0x10000
MODULE_TIMER = "[sched_shadow]"   # the module's hrtimer function, as %ps prints it
# how long after its hrtimer_expire_entry event a tick may read its clock
# (the callback's first lines: the module's since/until are those reads)
TICK_EPS_MS = 1.0

BOUND_PCT = 0.05
BOUND_MS = 20.0
# Per cgroup the module may read above the trace by up to twice the per-CPU
# bound (10 % or 40 ms): measured 23.1 ms over 298.3 (6.1, /w43/c) and
# 31.7 ms over 168.7 (7.3, the root cgroup) while every CPU of the same
# window agreed within 3 and 24 ms, before the dequeue was recorded.
CG_BOUND_PCT = 0.10
CG_BOUND_MS = 40.0
MIN_CG_ROW_MS = 100.0        # trace waste from which a missing module row alone fails
MIN_WASTE_MS = 1000.0        # the window's trace waste from which the amounts are judged
MIN_MATCHED = 0.95           # share of sleeping CFS switches whose dequeue must be recorded
PSEUDO = ("(tracked)", "(unscanned)")


def parse_cpus(s):
    out = set()
    for part in s.split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        else:
            out.add(int(part))
    return frozenset(out)


def is_cfs(prio):
    return prio is not None and 100 <= prio <= 139


def bound(t):
    return max(BOUND_PCT * t, BOUND_MS)


def cg_bound_above(t):
    return max(CG_BOUND_PCT * t, CG_BOUND_MS)


class Window:
    """One exported window: its files (NAME.KIND), from a tar.gz or a directory."""

    def __init__(self, path):
        self.files = {}
        names = []
        if os.path.isdir(path):
            for f in sorted(os.listdir(path)):
                if "." in f and os.path.isfile(os.path.join(path, f)):
                    with open(os.path.join(path, f), "rb") as fh:
                        self.files[f.split(".", 1)[1]] = fh.read().decode("utf-8", "replace")
                    names.append(f.split(".", 1)[0])
        else:
            with tarfile.open(path, "r:gz") as t:
                for m in t.getmembers():
                    f = t.extractfile(m)
                    if f:
                        base = m.name.rsplit("/", 1)[-1]
                        self.files[base.split(".", 1)[1]] = f.read().decode("utf-8", "replace")
                        names.append(base.split(".", 1)[0])
        self.name = names[0] if names else re.sub(r"^wasted-|\.tar\.gz$", "", path.rstrip("/").rsplit("/", 1)[-1])
        info = dict(l.split(" ", 1) for l in self.files.get("info", "").splitlines() if " " in l)
        self.release = info.get("kernel", "?").strip()
        self.info = info
        self.probe = dict(l.split(" ", 1) if " " in l else (l, "") for l in self.files.get("probe", "").splitlines())

    def tasks(self, which):
        out = {}
        for l in self.files.get(which, "").splitlines():
            f = l.split()
            if len(f) >= 4:
                try:
                    tg = int(f[4]) if len(f) >= 5 else None
                    out[int(f[0])] = (f[1], parse_cpus(f[2]) if f[2] != "?" else None, f[3], tg)
                except ValueError:
                    pass
        return out

    def cpus(self):
        out = []
        for l in self.files.get("topo", "").splitlines():
            f = l.split()
            if f[:1] == ["cpu"] and len(f) >= 6 and f[5] == "1":
                out.append(int(f[1]))
        return sorted(out)


def parse_events(win):
    """the trace's events in time order, and the sampler's ticks apart (the
    module's timer expiries, hrtimer_expire_entry of a function in
    [sched_shadow], the sampler thread's switches in, which stay events
    too, and its wakeups while it still runs: its sleep's timer expired
    before it switched out, schedule() returns at once and it samples again
    with no switch in (6.12: a 20 ms sample under TCG, then a sample
    0.1 ms after such a wakeup)); other timers are dropped.  A switch in
    after the sampler was preempted (switched out runnable, R or R+: its
    move off a busy CPU runs the stopper) resumes its loop where it
    stopped: no tick, kept apart as a resume (a clock read may still
    follow it when the preemption came before the read)"""
    events = []
    ticks = []
    resumes = []
    outs = []             # the sampler thread's switches out
    preempted = False
    sampler_on = set()    # CPUs the sampler thread runs on
    for line in win.files.get("trace", "").splitlines():
        m = LINE_RE.match(line)
        if not m:
            continue
        ts = float(m.group("ts"))
        if m.group("ev") == "hrtimer_expire_entry":
            if MODULE_TIMER in m.group("rest"):
                ticks.append(ts)
            continue
        if m.group("ev") == "sched_switch":
            o = SAMPLER_OUT_RE.search(m.group("rest"))
            if o:
                preempted = o.group(1).startswith("R")
                outs.append(ts)
            if SAMPLER_RE.search(m.group("rest")):
                # the sampler thread switched in: woken, it samples first thing
                (resumes if preempted else ticks).append(ts)
                preempted = False
                sampler_on.add(int(m.group("cpu")))
            else:
                sampler_on.discard(int(m.group("cpu")))
        elif m.group("ev") == "sched_wakeup" and SAMPLER_WAKE_RE.search(m.group("rest")):
            w = WAKE_RE.search(m.group("rest"))
            if w and int(w.group(3)) in sampler_on:
                ticks.append(ts)    # woken while it runs: it samples again at once
        events.append((ts, int(m.group("cpu")), m.group("ev"), m.group("rest"), int(m.group("pid"))))
    events.sort(key=lambda e: e[0])
    ticks.sort()
    return events, ticks, sorted(resumes), outs


def find_gaps(events):
    """The dequeue of every sleeping switch: {index of the ss_dequeue event:
    next pid (0: the CPU switches to idle)}, and the counts: sleeping CFS
    switches, those whose dequeue was recorded, and the longest gap (ms)."""
    last_deq = {}
    gaps = {}
    n_sleep = n_matched = 0
    longest = 0.0
    for i, (ts, cpu, ev, rest, pid) in enumerate(events):
        if ev == "ss_dequeue":
            last_deq[cpu] = (i, pid, ts)
        elif ev == "sched_switch":
            m = SWITCH_RE.search(rest)
            if not m:
                continue
            pp, ppr, pst, np_ = int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4))
            d = last_deq.pop(cpu, None)
            if pp and not pst.startswith("R") and is_cfs(ppr):
                n_sleep += 1
                if d is not None and d[1] == pp:
                    n_matched += 1
                    gaps[d[0]] = np_
                    longest = max(longest, (ts - d[2]) * 1000.0)
    return gaps, n_sleep, n_matched, longest


class Acc:
    """One integration (by the switches or by the dequeues)."""

    def __init__(self, cpus):
        self.wasted = {c: 0.0 for c in cpus}
        self.unknown = {c: 0.0 for c in cpus}
        self.idle = {c: 0.0 for c in cpus}
        self.cg_wasted, self.cg_wait = {}, {}
        self.cg_split = {"idle": {}, "busy": {}, "unknown": {}}
        self.tr_split = {"idle": 0.0, "busy": 0.0, "unknown": 0.0}
        self.tr_wasted = 0.0
        self.unknown_aff_wait = 0.0

    def add(self, dt, cpus, idle, unknown_cpu, waiters, tracked):
        for c in cpus:
            if c in unknown_cpu:
                self.unknown[c] += dt
                continue
            if c not in idle:
                continue
            self.idle[c] += dt
            cgs = set()
            unk = trk = False
            for t, s, a, cg in waiters:
                if s == c:
                    continue
                if a is None:
                    unk = True
                elif c in a:
                    cgs.add(cg)
                    trk = trk or tracked(t)
            if cgs:
                self.wasted[c] += dt
                self.tr_wasted += dt * trk
                for cg in cgs:
                    self.cg_wasted[cg] = self.cg_wasted.get(cg, 0.0) + dt
            elif unk or unknown_cpu:
                self.unknown[c] += dt
        for t, s, a, cg in waiters:
            self.cg_wait[cg] = self.cg_wait.get(cg, 0.0) + dt
            if a is None:
                key = "unknown"
                self.unknown_aff_wait += dt
            elif (a - {s}) & idle:
                key = "idle"
            elif (a - {s}) & unknown_cpu:
                key = "unknown"
            else:
                key = "busy"
            self.cg_split[key][cg] = self.cg_split[key].get(cg, 0.0) + dt
            if tracked(t):
                self.tr_split[key] += dt


MARKS = ("reset", "begin", "end", "paused")
VARIANTS = ("T", "D1", "D2", "D")


def window_of(marks, ticks, since, until, period_ms, all_idle, resumes=(), outs=()):
    """The window to integrate, from the trace, and the check of the
    module's since/until against it: (start, end, ok, why, how).

    With the sampler's ticks in the trace: the counters start at the reset
    write's own time (since between the reset and begin markers), or at
    the first tick after the reset write (a tick between the reset marker and
    the one after the begin marker, which follows the write); since must be
    that tick's clock read (at most TICK_EPS_MS after its event, or
    before the sampler thread's next switch out).  The
    pause stops sampling at once (the static key's count drops before the
    write patches anything); until must be the last tick before the pause
    write (a tick between the last one before the end marker and the
    paused marker).  The window integrated is from the matched tick to the
    matched tick (the trace's best guess when none matches).  The
    sampler's resumes after a preemption bound no range (they are no
    sample: the sample before the end marker may be followed by one, e.g.
    its own move to another CPU); a clock read may follow one, when the
    preemption came between the switch in and the read.
    Without ticks: from the begin to the end marker, since within a period
    plus 1/8 after the begin marker and until within it before the end
    marker, each widened by the time every CPU was idle (the sampler
    stopped)."""
    eps = TICK_EPS_MS / 1000.0
    why = []
    if ticks:
        after_b = [t for t in ticks if t > marks["begin"]]
        reads = sorted(list(ticks) + list(resumes))
        cand_s = [t for t in reads if marks["reset"] <= t <= (after_b[0] if after_b else marks["begin"])]
        before_e = [t for t in ticks if t <= marks["end"]]
        cand_u = [t for t in reads if (before_e[-1] if before_e else marks["end"]) <= t <= marks["paused"]]

        def read_by(t):
            # a tick's clock read comes before the sampler's next switch out
            # (the sample is the first thing it does; 7.2 under TCG: a read
            # 1.54 ms after its switch in)
            i = bisect.bisect_right(outs, t)
            return outs[i] if i < len(outs) else t

        def match(x, cand):
            if x is None:
                return None
            m = [t for t in cand if -1e-6 <= x - t <= max(eps, read_by(t) - t)]
            return max(m) if m else None
        ms, mu = match(since, cand_s), match(until, cand_u)
        # a reset starts the counters at its own time (read in the write,
        # between the reset and begin markers) when a sample follows it
        if ms is None and since is not None and marks["reset"] <= since <= marks["begin"]:
            ms = since
        start = ms if ms is not None else (after_b[0] if after_b else marks["begin"])
        end = mu if mu is not None else (before_e[-1] if before_e else marks["end"])
        if ms is None:
            why.append("since %s is no sampler tick between the reset marker and the first tick after the begin "
                       "marker (%s)" % ("%.6f" % since if since is not None else "missing",
                                        " ".join("%.6f" % t for t in cand_s[-4:]) or "none"))
        if mu is None:
            why.append("until %s is no sampler tick between the last one before the end marker and the paused "
                       "marker (%s)" % ("%.6f" % until if until is not None else "missing",
                                        " ".join("%.6f" % t for t in cand_u[:4]) or "none"))
        return start, end, ms is not None and mu is not None, why, "ticks"
    tol = period_ms * 9 / 8
    ok = since is not None and until is not None and period_ms > 0
    if since is None or until is None:
        why.append("no since_ns/until_ns")
    else:
        s_hi = marks["begin"] + (tol + idle_in(all_idle, marks["begin"], since)) / 1000.0
        u_lo = marks["end"] - (tol + idle_in(all_idle, until, marks["end"])) / 1000.0
        if not marks["reset"] <= since <= s_hi:
            ok = False
            why.append("since %.3f ms after the begin marker (reset written %.3f ms before it)"
                       % ((since - marks["begin"]) * 1000, (marks["begin"] - marks["reset"]) * 1000))
        if not u_lo <= until <= marks["paused"]:
            ok = False
            why.append("until %.3f ms before the end marker (paused %.3f ms after it)"
                       % ((marks["end"] - until) * 1000, (marks["paused"] - marks["end"]) * 1000))
    return marks["begin"], marks["end"], ok, why, "markers"


def all_idle_spans(events, cpus):
    """stretches during which every CPU ran its idle task"""
    running = {}
    out = []
    since = None
    for ts, cpu, ev, rest, _ in events:
        if ev != "sched_switch":
            continue
        m = SWITCH_RE.search(rest)
        if not m:
            continue
        running[cpu] = int(m.group(4))
        if all(running.get(c) == 0 for c in cpus):
            if since is None:
                since = ts
        elif since is not None:
            out.append((since, ts))
            since = None
    if since is not None:
        out.append((since, float("inf")))
    return out


def compute(win, since=None, until=None):
    """The oracle: wasted time per CPU and per cgroup, the wait split per
    cgroup and of the tracked command, from the trace, over the trace's
    window; integrated by the switches (res["T"]) and, where the dequeue was
    recorded, with the CPU idle from the dequeue of its last task (D1), with
    the next task not waiting from the dequeue of the one it follows (D2),
    and both (D)."""
    tasks0, tasks1 = win.tasks("tasks0"), win.tasks("tasks1")
    cpus = win.cpus()
    aff = {t: v[1] for t, v in tasks0.items() if v[1] is not None}
    cgroup = {t: v[2] for t, v in tasks0.items() if v[2] != "?"}
    tgid = {t: v[3] for t, v in tasks0.items() if v[3] is not None}
    prio = {}
    running = {}          # cpu -> pid (0 idle); absent: not known yet
    where = {}            # tid -> cpu where runnable (waiting or running); absent: sleeping
    events, ticks, resumes, outs = parse_events(win)
    res = {v: Acc(cpus) for v in VARIANTS}
    res.update({"events": len(events), "marks": {}, "ticks": ticks,
                "sleep_switches": 0, "matched": 0, "gap_longest": 0.0,
                "deq_events": sum(1 for e in events if e[2] == "ss_dequeue"),
                "all_idle": all_idle_spans(events, cpus), "track": None, "track_unknown": 0.0,
                "window": None})

    for ts, cpu, ev, rest, _ in events:
        if ev in ("tracing_mark_write", "print"):
            m = MARK_RE.search(rest)
            if m and m.group(1) == win.name:
                res["marks"].setdefault(m.group(2), ts)
            elif m and m.group(4) == win.name:
                res["marks"].setdefault(m.group(3), ts)
    if any(k not in res["marks"] for k in MARKS):
        return res
    period_ms = float(win.info.get("wasted_period_us", "0") or 0) / 1000.0
    start, end, ok, why, how = window_of(res["marks"], ticks, since, until, period_ms, res["all_idle"], resumes, outs)
    res["window"] = (start, end, ok, why, how)
    events.append((start, -1, "window_begin", "", 0))
    events.append((end, -1, "window_end", "", 0))
    events.sort(key=lambda e: (e[0], e[1] >= 0))
    gaps, res["sleep_switches"], res["matched"], res["gap_longest"] = find_gaps(events)

    # each CPU's task before its first switch, each task's state before its first event
    first_cpu = {}
    first_task = {}
    for ts, cpu, ev, rest, _ in events:
        if ev == "sched_switch":
            m = SWITCH_RE.search(rest)
            if not m:
                continue
            pp, np_ = int(m.group(1)), int(m.group(4))
            first_cpu.setdefault(cpu, pp)
            if pp:
                first_task.setdefault(pp, ("running", cpu, int(m.group(2))))
            if np_:
                first_task.setdefault(np_, ("waiting", cpu, int(m.group(5))))
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            m = WAKE_RE.search(rest)
            if m:
                first_task.setdefault(int(m.group(1)), ("sleeping", None, int(m.group(2))))
        elif ev == "sched_migrate_task":
            m = MIGRATE_RE.search(rest)
            if m:
                first_task.setdefault(int(m.group(1)), ("migrating", None, int(m.group(2))))
    for c in cpus:
        running[c] = first_cpu.get(c)
    for t, (state, cpu, p) in first_task.items():
        prio[t] = p
        if state in ("running", "waiting"):
            where[t] = cpu

    in_window = False
    gapnext = {}          # cpu -> the next task (0: idle) from its recorded dequeue to its switch
    track = [None]

    def tracked(t):
        return track[0] is not None and tgid.get(t) == track[0]

    def account(t0, t1):
        dt = (t1 - t0) * 1000.0  # ms
        if dt <= 0:
            return
        idle = {c for c in cpus if running.get(c) == 0}
        unknown_cpu = {c for c in cpus if running.get(c) is None}
        waiters = []      # by the switches
        waiters_d = []    # less the next task of a CPU between its dequeue and switch
        for t, s in where.items():
            if running.get(s) in (None, 0) or running.get(s) == t or not is_cfs(prio.get(t)):
                continue
            w = (t, s, aff.get(t), cgroup.get(t, "?"))
            waiters.append(w)
            if gapnext.get(s) != t:
                waiters_d.append(w)
            if track[0] is not None and t not in tgid:
                res["track_unknown"] += dt
        # a CPU whose last task went to sleep: idle from its dequeue
        idle_d = idle | {c for c, n in gapnext.items() if n == 0 and running.get(c) not in (None, 0)}
        res["T"].add(dt, cpus, idle, unknown_cpu, waiters, tracked)
        res["D1"].add(dt, cpus, idle_d, unknown_cpu, waiters, tracked)
        res["D2"].add(dt, cpus, idle, unknown_cpu, waiters_d, tracked)
        res["D"].add(dt, cpus, idle_d, unknown_cpu, waiters_d, tracked)

    last = None
    for i, (ts, cpu, ev, rest, hpid) in enumerate(events):
        if in_window and last is not None:
            account(last, ts)
        last = ts
        if ev in ("window_begin", "window_end"):
            in_window = ev == "window_begin"
            continue
        if ev == "tracing_mark_write" or ev == "print":
            m = MARK_RE.search(rest)
            if m:
                if m.group(5):
                    track[0] = int(m.group(5))
                    res["track"] = track[0]
                continue
            m = AFF_RE.search(rest)
            if m:
                aff[int(m.group(1))] = parse_cpus(m.group(2))
            continue
        if ev == "ss_dequeue":
            if i in gaps:
                gapnext[cpu] = gaps[i]
            continue
        if ev == "sched_switch":
            m = SWITCH_RE.search(rest)
            if not m:
                continue
            pp, ppr, pst, np_, npr = int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), int(m.group(5))
            gapnext.pop(cpu, None)
            if np_ and SAMPLER_RE.search(rest):
                pass    # the module's sampler: the CPU runs what it ran before
            else:
                running[cpu] = np_
            if pp:
                prio[pp] = ppr
                if pst.startswith("R"):
                    where[pp] = cpu
                else:
                    where.pop(pp, None)
            if np_:
                prio[np_] = npr
                where[np_] = cpu
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            m = WAKE_RE.search(rest)
            if m:
                t = int(m.group(1))
                prio[t] = int(m.group(2))
                where[t] = int(m.group(3))
        elif ev == "sched_migrate_task":
            m = MIGRATE_RE.search(rest)
            if m:
                t = int(m.group(1))
                if t in where:
                    where[t] = int(m.group(4))
        elif ev == "sched_process_fork":
            m = FORK_RE.search(rest)
            if m:
                p, c = int(m.group(1)), int(m.group(2))
                if p in aff:
                    aff[c] = aff[p]
                if p in cgroup:
                    cgroup[c] = cgroup[p]
        elif ev == "task_newtask":
            m = NEWTASK_RE.search(rest)
            if m:
                c, fl = int(m.group(1)), int(m.group(2), 16)
                if not fl & CLONE_THREAD:
                    tgid[c] = c
                elif hpid in tgid:
                    tgid[c] = tgid[hpid]
        elif ev == "sched_process_exit":
            m = EXIT_RE.search(rest)
            if m:
                where.pop(int(m.group(1)), None)
        elif ev == "cgroup_attach_task":
            m = ATTACH_RE.search(rest)
            if m and m.group(1) == "0":
                cgroup[int(m.group(3))] = m.group(2)
    # tasks the start snapshot missed: the end snapshot's affinity (reported)
    for t, v in tasks1.items():
        aff.setdefault(t, v[1])
    return res


# ---- wakeup placements: every wakeup placed on a busy CPU while a CPU it may run on was idle ----

WAKING_RE = re.compile(r"pid=(\d+) prio=(-?\d+)(?: success=\d+)? target_cpu=(\d+)")
# the guest's kprobe event on enqueue_task_fair() without ENQUEUE_WAKEUP
# (0x01 from 5.10 to 7.3): inside a wakeup, the in-place wakeup of a task
# still queued by delayed dequeue (tests/vm/guest/wasted.sh)
ENQ_RE = re.compile(r"flags=(\d+)")
TASK_PID_RE = re.compile(r"(?:comm=.* )?pid=(\d+) ")
# the module's own trace events: never read by the placement check (they
# are neither the kernel's events nor an end of the waker's try_to_wake_up)
MODULE_EVENTS = ("wakeup_miss", "lb_verdict", "wasted_interval")
# a level is judged when either side counts at least this many in the window
# (below it the bound, 3 wakeups, is most of the count: printed, not judged)
WAKE_MIN = 20
# the module may also read off the trace's certain count by this much (2 % or 3 wakeups)
WAKE_BOUND_PCT = 0.02
WAKE_BOUND_N = 3


def parse_mask(s):
    """A domain's span as /proc/schedstat prints it: a hex mask, 32-bit words joined by commas."""
    v = int(s.strip().replace(",", ""), 16)
    return frozenset(i for i in range(v.bit_length()) if v >> i & 1)


def topo_domains(win):
    """cpu -> [(name, span)], lowest domain first (the guest's sched/domains)."""
    doms = {}
    for l in win.files.get("topo", "").splitlines():
        f = l.split()
        if f[:1] == ["domain"] and len(f) >= 5 and re.fullmatch(r"[0-9a-fA-F,]+", f[4]):
            doms.setdefault(int(f[1]), []).append((int(f[2]), f[3], parse_mask(f[4])))
    return {c: [(n, sp) for _, n, sp in sorted(v)] for c, v in doms.items()}


def wakeup_misses(win, detail=None):
    """
    From raw sched_waking, sched_wakeup(_new), sched_switch and
    sched_migrate_task (and the guest's ss_enqueue kprobe event): every
    wakeup (or fork) of a CFS task that may run on more than one CPU, placed
    (sched_wakeup's target_cpu) on a CPU running another task while a CPU in
    its affinity, other than the target, ran its idle task; its level is the
    lowest domain of the target whose span holds such a CPU.

    Not placements (the kernel selected no CPU): a task still queued or
    running when woken (ttwu_runnable()), and from 6.12 on a task still
    queued by delayed dequeue: it left on a sleeping sched_switch, but its
    dequeue was deferred, and try_to_wake_up() puts it back in place with
    enqueue_task(ENQUEUE_DELAYED), on the waker's CPU between its
    sched_waking and its sched_wakeup: an enqueue there without
    ENQUEUE_WAKEUP directly followed by its sched_wakeup (a selected wakeup
    enqueues with it, or on the target's CPU later).  The switches alone
    cannot tell it from a selection of the CPU it slept on: one 6.12 run
    held 24 and 36 such wakeups per window
    of scenario 43, which select_task_rq_fair() never saw, the module 2.5
    and 3.1 % below the trace at PKG (cross-LLC ones among them reported
    on the waker's CPU, which a selected remote wakeup never is).

    When the selection ran: after sched_waking, before the task's
    sched_migrate_task (set_task_cpu() follows it) and its sched_wakeup,
    and before the next event on the waker's CPU (try_to_wake_up() runs
    with interrupts off from sched_waking to its end; the module's own
    events aside).  Under TCG that can be milliseconds (6.12: a waker's
    next event 9.7 ms after its sched_waking of a task whose CPU went idle
    1.7 ms after it; the module counted no miss).  The state is judged at sched_waking
    and after every switch until then; where the levels differ the wakeup
    is ambiguous (counted apart, as the bound).  Busy and idle as compute()
    defines them (the module's sampler leaves a CPU as it found it).
    Window: the module's (since_ns to the "window end" marker, after which
    the module stops counting; to until_ns ambiguous).

    detail, a list: (kind, level(s), pid, waking ts, wakeup ts, waker cpu,
    target) of each counted wakeup is appended (diagnostics).
    """
    tasks0 = win.tasks("tasks0")
    aff = {t: v[1] for t, v in tasks0.items() if v[1] is not None}
    doms = topo_domains(win)
    running = {}
    queued = set()        # tasks runnable (running or waiting) on some CPU
    prio = {}
    # pid -> {"ts", "cpu" (the waker's), "states" (running at sched_waking and
    # after each switch while the selection may run), "open", "inplace"};
    # None: no placement (still queued)
    waking = {}
    inflight = {}         # waker cpu -> pid whose try_to_wake_up() may still run there
    sure, amb = {}, {}
    inplace = 0           # in the window: wakeups put back in place (ss_enqueue)
    row = next(iter(module_table(win, "wasted").values()), {})
    since = float(row["since_ns"]) / 1e9 if row.get("since_ns", "0") != "0" else None
    until = float(row["until_ns"]) / 1e9 if row.get("until_ns", "0") != "0" else None
    mark_end = None
    events = []
    for line in win.files.get("trace", "").splitlines():
        m = LINE_RE.match(line)
        if m and m.group("ev") not in MODULE_EVENTS:
            events.append((float(m.group("ts")), int(m.group("cpu")), m.group("ev"), m.group("rest")))
    events.sort(key=lambda e: e[0])

    def close(t):
        w = waking.get(t)
        if w:
            w["open"] = False
        if w and inflight.get(w["cpu"]) == t:
            del inflight[w["cpu"]]

    for ts, cpu, ev, rest in events:
        t = inflight.get(cpu)
        if t is not None:
            w = waking.get(t)
            if ev == "ss_enqueue" and w and not w["enq"]:
                # an enqueue without ENQUEUE_WAKEUP: the task put back where
                # delayed dequeue left it, if its sched_wakeup comes next
                m = ENQ_RE.search(rest)
                w["enq"] = bool(m and not int(m.group(1)) & 1)
                if w["enq"]:
                    continue
            m = TASK_PID_RE.match(rest) if ev in ("sched_migrate_task", "sched_wakeup") else None
            if m and int(m.group(1)) == t and ev == "sched_wakeup" and w and w["enq"]:
                w["inplace"] = True
            elif not m or int(m.group(1)) != t or w and w["enq"]:
                # any other event on the waker's CPU: its try_to_wake_up() is
                # over (6.1: a task's cgroup move at its exit, ENQUEUE_RESTORE,
                # after it had queued its parent's wakeup to another CPU)
                close(t)
        if ev == "sched_migrate_task":
            m = MIGRATE_RE.search(rest)
            if m:
                close(int(m.group(1)))
            continue
        if ev in ("tracing_mark_write", "print"):
            m = AFF_RE.search(rest)
            if m:
                aff[int(m.group(1))] = parse_cpus(m.group(2))
            m = MARK_RE.search(rest)
            if m and m.group(1) == win.name and m.group(2) == "end":
                mark_end = ts
            continue
        if ev == "sched_process_fork":
            m = FORK_RE.search(rest)
            if m and int(m.group(1)) in aff:
                aff[int(m.group(2))] = aff[int(m.group(1))]
            continue
        if ev == "sched_switch":
            m = SWITCH_RE.search(rest)
            if not m:
                continue
            pp, pst, np_ = int(m.group(1)), m.group(3), int(m.group(4))
            if not (np_ and SAMPLER_RE.search(rest) and running.get(cpu) == 0):
                if running.get(cpu) != np_:
                    running[cpu] = np_
                    for w in waking.values():
                        if w and w["open"]:
                            w["states"].append(dict(running))
            if pp and not pst.startswith("R"):
                queued.discard(pp)
            if np_:
                queued.add(np_)
                prio[np_] = int(m.group(5))
            continue
        if ev == "sched_process_exit":
            m = EXIT_RE.search(rest)
            if m:
                queued.discard(int(m.group(1)))
            continue
        if ev == "sched_waking":
            m = WAKING_RE.search(rest)
            if m:
                t = int(m.group(1))
                close(t)
                # still queued (or running): ttwu_runnable(), no CPU selected
                waking[t] = None if t in queued else {"ts": ts, "cpu": cpu, "states": [dict(running)],
                                                      "open": True, "inplace": False, "enq": False}
                if waking[t]:
                    inflight[cpu] = t
            continue
        if ev not in ("sched_wakeup", "sched_wakeup_new"):
            continue
        m = WAKE_RE.search(rest)
        if not m:
            continue
        t, p, tgt = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if ev == "sched_wakeup":
            close(t)
            w = waking.pop(t, 0)
        else:
            w = {"ts": ts, "cpu": cpu, "states": [dict(running)], "open": False, "inplace": False,
                 "enq": False}
        queued.add(t)
        prio[t] = p
        a = aff.get(t)
        if w and w["inplace"] and since is not None and ts >= since and (until is None or ts <= until):
            inplace += 1
        if w is None or w == 0 or w["inplace"] or not is_cfs(p) or a is None or len(a) < 2:
            continue
        if since is None or ts < since or (until is not None and ts > until):
            continue

        def judge(state):
            """the level of the miss, "" for none, None when a CPU it needs is not known"""
            r = state.get(tgt)
            if r is None or not doms.get(tgt):
                return None     # the CPU's state or its domains (the level) not known
            if r == 0:
                return ""
            lower = frozenset([tgt])
            for name, span in doms.get(tgt, []):
                cand = (span & a) - lower
                if any(state.get(c) is None for c in cand):
                    return None
                if any(state.get(c) == 0 for c in cand):
                    return name
                lower = span
            return ""

        levels = {judge(s) for s in w["states"]}
        late = mark_end is not None and ts > mark_end
        if len(levels) == 1 and None not in levels and not late:
            lv = levels.pop()
            if lv:
                sure[lv] = sure.get(lv, 0) + 1
                if detail is not None:
                    detail.append(("sure", lv, t, w["ts"], ts, w["cpu"], tgt))
        else:
            for lv in levels - {None, ""}:
                amb[lv] = amb.get(lv, 0) + 1
            if None in levels:
                for name, _ in doms.get(tgt, []):
                    amb[name] = amb.get(name, 0) + 1
            if detail is not None:
                detail.append(("amb", tuple(sorted(levels, key=str)), t, w["ts"], ts, w["cpu"], tgt))
    return sure, amb, inplace


def wakeup_check(win):
    """The module's wasted_wakeup rows against wakeup_misses(), per level: (lines, checks [(ok, text,
    a level's check)])."""
    rows = win.files.get("wasted_wakeup", "").splitlines()
    lines, checks = [], []
    if len(rows) < 2:
        lines.append("# %s: no wasted_wakeup table (wakeup probe off on this kernel)" % win.name)
        return lines, checks
    hdr = rows[1].split()
    mod = {}
    for l in rows[2:]:
        f = dict(zip(hdr, l.split()))
        if "misses" in f:
            mod[f["level"]] = mod.get(f["level"], 0) + int(f["misses"])
    st = win.info.get("feature.wasted_wakeup", "").strip()
    if not st.startswith("active"):
        lines.append("# %s: wakeup probe %s: not compared" % (win.name, st or "?"))
        return lines, checks
    # the level of a placement needs the target's sched domains (the guest's
    # topo: names and spans): without them the trace can place none, and a
    # silent 0 against the module's rows would be no comparison (7.3 before
    # the guest read them from /proc/schedstat: module 646 vs trace 0)
    cpus = win.cpus()
    doms = topo_domains(win)
    nodom = [c for c in cpus if not doms.get(c)]
    checks.append((bool(cpus) and not nodom, "%s: the wakeup placements' levels: sched domains of every online "
                   "CPU in the guest's topology (%s)"
                   % (win.name, "none for cpu %s" % ",".join(map(str, nodom)) if nodom else
                      "%d CPUs, %s" % (len(cpus), "/".join(n for n, _ in doms.get(cpus[0], []))) if cpus else
                      "no online CPU"), False))
    if not cpus or nodom:
        return lines, checks
    # a trace that lost events may miss placements: printed, not judged
    lost = win.files.get("lost", "0").strip()
    judged = lost in ("", "0")
    if not judged:
        lines.append("# %s: the trace lost %s events: wakeup placements reported, not judged" % (win.name, lost))
    sure, amb, inplace = wakeup_misses(win)
    lines.append("# %s: %d wakeups put back in place from delayed dequeue (ss_enqueue inside try_to_wake_up(): "
                 "no selection, not placements); sched feature %s, enqueue probe %s, %s ss_enqueue events"
                 % (win.name, inplace, win.probe.get("delay_dequeue", "?"), win.probe.get("enqueue_kprobe", "?"),
                    win.probe.get("enqueue_events", "?")))
    for lv in sorted(set(sure) | set(amb) | set(mod)):
        m, t, a = mod.get(lv, 0), sure.get(lv, 0), amb.get(lv, 0)
        b = max(WAKE_BOUND_PCT * t, WAKE_BOUND_N)
        good = t - b <= m <= t + a + b
        lines.append("wakeup oracle: %s %s %s module %d vs trace %d (+%d ambiguous)%s"
                     % (win.release, win.name, lv, m, t, a, "" if good else " (outside the bound)"))
        # judged where either side counts WAKE_MIN (a module count the trace
        # does not have fails too); below that, reported only
        if judged and max(m, t) >= WAKE_MIN:
            checks.append((good, "%s %s: wakeups placed on a busy CPU beside an idle allowed one, module %d "
                           "vs trace %d (+%d ambiguous)" % (win.name, lv, m, t, a), True))
    return lines, checks


def module_table(win, name, key_col=0):
    rows = {}
    lines = win.files.get(name, "").splitlines()
    if len(lines) < 2:
        return rows
    hdr = lines[1].split()
    for l in lines[2:]:
        f = l.split()
        if len(f) == len(hdr):
            rows[f[key_col] if key_col >= 0 else f[-1]] = dict(zip(hdr, f))
    return rows


def idle_in(spans, a, b):
    """ms of [a, b] (s) during which every CPU was idle"""
    return sum(max(0.0, min(b, y) - max(a, x)) for x, y in spans) * 1000.0


def judge(vals, m, above=bound):
    """vals: the value by the switches and by the dequeues (T, D1, D2, D):
    min - bound <= module <= max + above, the bounds from T's value"""
    t = vals[0]
    return min(vals) - bound(t) <= m <= max(vals) + above(t)


def gap_note(vals):
    lo, hi = min(vals), max(vals)
    return "" if hi - lo < 0.05 else " (with the dequeue gap %.1f..%.1f)" % (lo, hi)


class Verdicts:
    def __init__(self):
        self.n = 0
        self.fails = 0
        self.lines = []

    def check(self, ok, name, why=()):
        self.n += 1
        if not ok:
            self.fails += 1
        print("%sok - %s" % ("" if ok else "not ", name))
        for w in list(why)[:12] if not ok else ():
            print("#   " + w)
        return ok


def judge_window(win, v, summary):
    mod = module_table(win, "wasted")
    mcg = module_table(win, "wasted_cgroups", key_col=-1)
    pairs = {(r.get("since_ns"), r.get("until_ns")) for r in mod.values()}
    row = next(iter(mod.values()), {})
    try:
        since = float(row["since_ns"]) / 1e9
        until = float(row["until_ns"]) / 1e9
    except (KeyError, ValueError):
        since = until = None
    res = compute(win, since, until)
    T = res["T"]
    var = [res[k] for k in VARIANTS]
    s = summary.setdefault(win.release, {"cpu": [0, 0], "cg": [0, 0], "wait": [0, 0], "sleep": 0,
                                         "matched": 0, "longest": 0.0, "since": [], "until": [],
                                         "tickgap": 0.0, "how": set()})
    marks = res["marks"]
    missing = [k for k in MARKS if k not in marks]
    lost = win.files.get("lost", "0").strip()
    print("# window %s (%s): %d events, %d sampler ticks, lost %s"
          % (win.name, win.release, res["events"], len(res["ticks"]), lost))
    if not v.check(not missing, "%s: window markers (reset, begin, end, paused) in the trace" % win.name,
                   ["missing: %s" % " ".join(missing)] if missing else ()):
        return
    start, end, wok, why, how = res["window"]
    total = sum(T.wasted.values())
    # the amounts are judged where the trace has at least a second of waste;
    # elsewhere they are printed (a vCPU that single-threaded TCG leaves
    # unrun for 20-30 ms between a task's dequeue and its switch moves the
    # module's view by that much: 6.1, w42, 160 ms of waste in all, cpu1
    # and cpu4 read 23 ms above the trace with ksoftirqd/1 stalled 23.8 ms
    # there); every window's markers, window, probe and rows are judged
    compared = total >= MIN_WASTE_MS
    print("# %s: integrated %.3f s (%s), trace wasted %.1f ms in all%s; %s"
          % (win.name, end - start, "from the sampler's ticks" if how == "ticks" else "between the markers",
             total, gap_note([sum(x.wasted.values()) for x in var]),
             "compared" if compared else "amounts reported only (under %.0f ms of waste)" % MIN_WASTE_MS))

    def amount(ok, name, why=()):
        if compared:
            v.check(ok, name, why)
        elif not ok:
            print("# (reported only) %s: %s" % (name.split(":")[0], "; ".join(why)[:300]))

    # the dequeue gap: measured where the kprobe recorded the sleeping task's dequeue
    s["sleep"] += res["sleep_switches"]
    s["matched"] += res["matched"]
    s["longest"] = max(s["longest"], res["gap_longest"])
    share = res["matched"] / res["sleep_switches"] if res["sleep_switches"] else 0.0
    print("# %s: probe: %s; %d ss_dequeue events" % (win.name, "; ".join("%s %s" % kv for kv in sorted(win.probe.items())),
                                                   res["deq_events"]))
    v.check(res["sleep_switches"] > 0 and share >= MIN_MATCHED,
            "%s: dequeue gap measured: %d of %d sleeping CFS switches have their dequeue_task_fair event "
            "(>= %.0f %%), longest gap %.3f ms" % (win.name, res["matched"], res["sleep_switches"],
                                                 100 * MIN_MATCHED, res["gap_longest"]))

    # the module's window against the trace's
    if len(pairs) != 1:
        wok = False
        why = ["since/until differ between rows or no rows: %s" % sorted(pairs)[:3]] + why
    s["how"].add(how)
    if since is not None:
        s["since"].append((since - marks["begin"]) * 1000.0)
        s["until"].append((marks["end"] - until) * 1000.0)
        tk = [t for t in res["ticks"] if start <= t <= end]
        tg = max([b - a for a, b in zip(tk, tk[1:])] or [0.0]) * 1000.0
        s["tickgap"] = max(s["tickgap"], tg)
        print("# %s: module window since %+.3f ms from the trace's begin marker (%+.3f from the window's start), "
              "until %+.3f ms from its end marker (%+.3f from the window's end); reset written within %.3f ms, "
              "pause within %.3f ms; %d sampler ticks in the window, largest gap %.3f ms"
              % (win.name, (since - marks["begin"]) * 1000, (since - start) * 1000,
                 (until - marks["end"]) * 1000, (until - end) * 1000,
                 (marks["begin"] - marks["reset"]) * 1000, (marks["paused"] - marks["end"]) * 1000, len(tk), tg))
    v.check(wok, "%s: the module's window (since/until) starts at the first sample after the reset and ends at "
            "the last before the pause, as the trace has them" % win.name, why)

    # per CPU: every online CPU has a row; each within the bound
    cpus = sorted(T.wasted)
    norow = [c for c in cpus if str(c) not in mod]
    v.check(bool(cpus) and not norow, "%s: the wasted table has a row for every online CPU (%d)"
            % (win.name, len(cpus)),
            ["no row for cpu%d (trace %.1f ms wasted)" % (c, T.wasted[c]) for c in norow] or
            (["no online CPU in the topology"] if not cpus else ()))
    bad = []
    for c in cpus:
        vals = [x.wasted[c] for x in var]
        if str(c) in mod:
            m = float(mod[str(c)]["wasted_ms"])
            print("wasted-core oracle: %s cpu%d module %.1f ms vs trace %.1f ms%s"
                  % (win.release, c, m, vals[0], gap_note(vals)))
            good = judge(vals, m)
        else:
            print("wasted-core oracle: %s cpu%d module (no row) vs trace %.1f ms" % (win.release, c, vals[0]))
            good = False
        if compared:
            s["cpu"][1] += 1
            s["cpu"][0] += good
        if not good:
            bad.append("cpu%d" % c)
    amount(bool(cpus) and not bad, "%s: every CPU's wasted time within 5 %% or 20 ms of the trace's" % win.name,
           ["outside the bound: %s" % " ".join(bad)] if bad else ())
    print("# %s: trace idle/unknown per CPU: %s" % (win.name, " ".join(
        "cpu%d %.0f/%.0f" % (c, T.idle[c], T.unknown[c]) for c in cpus)))

    # per cgroup: every cgroup of either side
    names = set()
    for x in var:
        names |= set(x.cg_wasted) | set(x.cg_wait)
    names |= {k for k in mcg if k not in PSEUDO}
    names.discard("?")
    split_bad = []
    for cg in sorted(names):
        r = mcg.get(cg)
        vals = [x.cg_wasted.get(cg, 0.0) for x in var]
        mv = {k: float(r[k]) for k in ("wasted_ms", "wait_ms", "wait_idle_ms", "wait_busy_ms",
                                       "wait_unknown_ms")} if r else None
        m = mv["wasted_ms"] if r else 0.0
        good = judge(vals, m, cg_bound_above)
        if not r and max(vals) >= MIN_CG_ROW_MS:
            good = False
        s["cg"][1] += compared
        s["cg"][0] += good and compared
        sp = []
        for k in ("idle", "busy"):
            kv = [x.cg_split[k].get(cg, 0.0) for x in var]
            mk = mv["wait_%s_ms" % k] if r else 0.0
            gk = judge(kv, mk, cg_bound_above)
            s["wait"][1] += compared
            s["wait"][0] += gk and compared
            sp.append("%s %.1f vs %.1f%s" % (k, mk, kv[0], gap_note(kv)))
            if not gk:
                split_bad.append("%s wait_%s_ms: module %s vs trace %.1f ms%s"
                                 % (cg, k, "%.1f" % mk if r else "no row", kv[0], gap_note(kv)))
        print("# cgroup %s wasted module %s vs trace %.1f ms%s%s; wait module %s vs trace %.1f ms "
              "(%s; unknown %.1f vs %.1f)"
              % (cg, "%.1f" % m if r else "(no row)", vals[0], gap_note(vals), "" if good else " (outside the bound)",
                 "%.1f" % mv["wait_ms"] if r else "-", T.cg_wait.get(cg, 0.0), ", ".join(sp),
                 mv["wait_unknown_ms"] if r else 0.0, T.cg_split["unknown"].get(cg, 0.0)))
        amount(good, "%s: cgroup %s: wasted time within 5 %% or 20 ms below, 10 %% or 40 ms above (a cgroup "
               "with >= 100 ms and no module row fails)" % (win.name, cg),
               ["module %s vs trace %.1f ms%s" % ("%.1f ms" % m if r else "no row", vals[0], gap_note(vals))])
    if not names:
        amount(False, "%s: cgroups: a cgroup waited or wasted on one side at least" % win.name,
               ["no cgroup on either side"])
    amount(bool(names) and not split_bad,
            "%s: every cgroup's wait split (wait_idle_ms, wait_busy_ms) within 5 %% or 20 ms below, 10 %% or 40 ms "
            "above" % win.name,
            split_bad)
    if "?" in T.cg_wait:
        print("# %s: %.1f ms of waiting by tasks of unknown cgroup" % (win.name, T.cg_wait["?"]))
    if T.unknown_aff_wait:
        print("# %s: %.1f ms of waiting by tasks of unknown affinity" % (win.name, T.unknown_aff_wait))
    if "(unscanned)" in mcg:
        print("# %s: module row (unscanned) wait %s ms" % (win.name, mcg["(unscanned)"]["wait_ms"]))

    # the tracked command: its threads' wait split against the (tracked) row
    if res["track"] is not None or "(tracked)" in mcg:
        r = mcg.get("(tracked)")
        why = []
        ok = r is not None and res["track"] is not None and r.get("cgid") == "pid:%d" % res["track"]
        if not ok:
            why.append("tracked pid: trace %s, module %s" % (res["track"], r.get("cgid") if r else "no row"))
        if res["track_unknown"]:
            why.append("%.1f ms of waiting by tasks of unknown thread group" % res["track_unknown"])
        sp = []
        for k in ("wasted", "idle", "busy"):
            kv = [x.tr_wasted if k == "wasted" else x.tr_split[k] for x in var]
            col = "wasted_ms" if k == "wasted" else "wait_%s_ms" % k
            mk = float(r[col]) if r else 0.0
            gk = judge(kv, mk, cg_bound_above if k == "wasted" else bound)
            ok &= gk
            s["wait"][1] += k != "wasted" and compared
            s["wait"][0] += gk and k != "wasted" and compared
            sp.append("%s module %.1f vs trace %.1f%s" % (col, mk, kv[0], gap_note(kv)))
            if not gk:
                why.append("%s: module %.1f vs trace %.1f ms%s" % (col, mk, kv[0], gap_note(kv)))
        print("# %s: tracked pid %s: %s" % (win.name, res["track"], ", ".join(sp)))
        amount(ok and res["track_unknown"] == 0,
                "%s: the tracked command's wasted time and wait split (wait_idle_ms, wait_busy_ms) within the "
                "bound" % win.name, why)


def main(paths):
    v = Verdicts()
    summary = {}
    wsummary = {}
    for p in paths:
        win = Window(p)
        judge_window(win, v, summary)
        wl, wc = wakeup_check(win)
        for l in wl:
            print(l)
        ws = wsummary.setdefault(win.release, [0, 0])
        for good, text, level in wc:
            if level:
                ws[1] += 1
                ws[0] += good
            v.check(good, text)
    for rel, s in sorted(summary.items()):
        good, total = s["cpu"]
        print("wasted-core oracle: %s %d of %d CPUs within bound" % (rel, good, total))
        print("wasted-core oracle: %s %d of %d cgroups within bound" % (rel, s["cg"][0], s["cg"][1]))
        print("wasted-core oracle: %s %d of %d wait splits within bound" % (rel, s["wait"][0], s["wait"][1]))
        print("wasted-core oracle: %s dequeue gap measured at %d of %d sleeping switches, longest %.3f ms"
              % (rel, s["matched"], s["sleep"], s["longest"]))
        if s["since"]:
            print("wasted-core oracle: %s window: the module's since %.3f..%.3f ms after the trace's begin marker, "
                  "its until %.3f..%.3f ms before the end marker; %s; the sampler's largest gap between ticks "
                  "%.3f ms"
                  % (rel, min(s["since"]), max(s["since"]), min(s["until"]), max(s["until"]),
                     "matched to the sampler's ticks (within %.1f ms or before its switch out)" % TICK_EPS_MS if s["how"] == {"ticks"}
                     else "within a period plus 1/8 of the markers", s["tickgap"]))
        v.check(good == total and total > 0, "%s: every compared CPU within 5 %% or 20 ms (%d of %d)"
                % (rel, good, total))
    for rel, (good, total) in sorted(wsummary.items()):
        print("wakeup oracle: %s %d of %d levels within bound" % (rel, good, total))
    print("checks done")
    return 1 if v.fails or not v.n else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[5], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
