#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make compare COMPARE_SETTINGS=...'s table (tests/vm/compare-report.py
--settings) on synthetic run reports written here: the medians and ranges
it prints, a difference from 7.3's default called only where two ranges of
3 rounds or more do not overlap, a round whose run reports read other
switches than its setting (or saw one change) left out and said so, and
exit 1 when a kernel has no complete round.  TAP."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "vm", "compare-report.py")
n = 0
failed = 0


def check(ok, what, diag=""):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print("%sok %d - %s" % ("" if ok else "not ", n, what))
    if not ok and diag:
        for line in diag.splitlines():
            print("# " + line)


def run_report(case, mode, llc, p99, rps, wait, changed=False):
    """one run report as `sched-shadow run -j` writes it, the fields the table reads"""
    sw = [{"name": "cgroup_mode", "start": mode, "end": "smp" if changed else mode},
          {"name": "llc_balancing", "start": llc, "end": llc}]
    cg = "/" if case == "root" else "/demo/a/b"
    return {
        "note": "bench in %s" % cg,
        "cgroup": {"path": cg},
        "knobs": {"switches": sw},
        "result": {"document": {"rps": rps, "latency_us": {"p99": p99},
                                "params": {"message_threads": 2, "workers": 6, "burn_us": 2000,
                                           "sleep_us": 10000, "duration_s": 10}}},
        "wasted": {"available": True, "cpus": [{"wasted_ms": 100}, {"wasted_ms": 50}],
                   "attribution": [{"cpu": "all", "cause": "llc_policy", "wasted_ms": 7}],
                   "policy_top": {"policy": "PKG.right/unmoved:llc_policy", "wasted_ms": 7},
                   "command": {"wait_ms": wait, "balancer_ms": wait / 4, "capacity_ms": wait * 3 / 4}},
        "lb": {"attempts": {"unexplained_wrong": 1, "unexplained_missed": 0}},
        "module": {"info": {"lb_model_agree": "99", "lb_judged": "100"}},
        "bpf": {"cgroups": [{"path": cg, "migrations": 10}]},
    }


def write(vout, tag, r, root, nested):
    for case, doc in (("root", root), ("nested", nested)):
        with open(os.path.join(vout, "run-%s-%s-r%d.json" % (case, tag, r)), "w") as fh:
            json.dump(doc, fh)


def main():
    tmp = tempfile.mkdtemp()
    cache = os.path.join(tmp, "cache")
    os.makedirs(cache)
    with open(os.path.join(cache, "k73.env"), "w") as fh:
        fh.write("VM_RELEASE=7.3.4+deb13-amd64\n")
    vout = os.path.join(tmp, "d", "k73", "vm-out")
    os.makedirs(vout)
    # nested p99 over root p99 per round: concur 1.0, 1.1, 1.2; smp 1.5, 1.4,
    # 1.6 (above); max 1.15, 1.3, 1.25 (overlaps); up 1.5, 1.6 and a round
    # whose mode changed; tasks 2.0, 2.1 and a round under the wrong mode
    # (up and tasks: only 2 rounds left, never called)
    for i, (c, s, m) in enumerate(zip((1.0, 1.1, 1.2), (1.5, 1.4, 1.6), (1.15, 1.3, 1.25))):
        r = i + 1
        write(vout, "concur", r, run_report("root", "concur", "1", 1000, 500, 100),
              run_report("nested", "concur", "1", 1000 * c, 400, 300))
        write(vout, "smp", r, run_report("root", "smp", "1", 1000, 500, 100),
              run_report("nested", "smp", "1", 1000 * s, 400, 300))
        write(vout, "max", r, run_report("root", "max", "1", 1000, 500, 100),
              run_report("nested", "max", "1", 1000 * m, 400, 300))
        write(vout, "up", r, run_report("root", "up", "1", 1000, 500, 100),
              run_report("nested", "up", "1", 1000 * s, 400, 300, changed=(r == 3)))
    write(vout, "tasks", 1, run_report("root", "tasks", "1", 1000, 500, 100),
          run_report("nested", "tasks", "1", 2000, 400, 300))
    write(vout, "tasks", 2, run_report("root", "concur", "1", 1000, 500, 100),
          run_report("nested", "tasks", "1", 2100, 400, 300))
    write(vout, "tasks", 3, run_report("root", "tasks", "1", 1000, 500, 100),
          run_report("nested", "tasks", "1", 2100, 400, 300))
    # a second kernel that ran nothing
    os.makedirs(os.path.join(tmp, "d", "k612", "vm-out"))
    env = dict(os.environ, CACHE=cache)
    settings = "cgroup_mode=smp cgroup_mode=concur cgroup_mode=max cgroup_mode=up cgroup_mode=tasks"
    p = subprocess.run([sys.executable, REPORT, "--settings", settings, os.path.join(tmp, "d"), "k73"],
                       env=env, capture_output=True, text=True)
    out = p.stdout
    rows = {l.split()[1]: l for l in out.splitlines() if l.startswith("7.3.4 ")}
    check(p.returncode == 0 and set(rows) == {"smp", "concur", "max", "up", "tasks"},
          "a row per setting, exit 0 (exit %d)" % p.returncode, out + p.stderr)
    check("1.10 [1.00-1.20]" in rows.get("concur", ""),
          "concur: p99 n/r 1.10 [1.00-1.20], the median and range of its rounds", rows.get("concur", ""))
    check("1.50 [1.40-1.60] >" in rows.get("smp", "")
          and "7.3.4 smp: p99 n/r 1.50 [1.40-1.60], above the default's 1.10 [1.00-1.20]" in out,
          "smp: a range above the default's is marked > and listed", out)
    check(" 3 " in rows.get("max", "")[:40] and "1.25 [1.15-1.30] " in rows.get("max", "")
          and "1.25 [1.15-1.30] >" not in rows.get("max", "") and "7.3.4 max: p99" not in out,
          "max: 3 rounds whose range overlaps the default's: not called", out)
    check(" 2 " in rows.get("up", "")[:40] and "up-r3 left out: nested: cgroup_mode changed during the run" in out
          and "7.3.4 up: p99" not in out,
          "up: the round whose mode changed during the run is left out, 2 rounds are never called", out)
    check("tasks-r2 left out: root cgroup_mode=concur" in out and "7.3.4 tasks: p99" not in out
          and " 2 " in rows.get("tasks", "")[:40],
          "tasks: a round run under another mode is left out and said so, not called on 2 rounds", out)
    check("0.80 " in rows.get("smp", "") and "200 " in rows.get("smp", "") and "99.0 " in rows.get("smp", ""),
          "req/s n/r 0.80, extra wait 200 ms and agreement 99.0 % from the reports", rows.get("smp", ""))
    p = subprocess.run([sys.executable, REPORT, "--settings", settings, os.path.join(tmp, "d"), "k73", "k612"],
                       env=env, capture_output=True, text=True)
    check(p.returncode == 1 and "k612: no complete round of any setting" in p.stdout,
          "a kernel with no complete round: exit 1 and said so (exit %d)" % p.returncode, p.stdout)
    print("1..%d" % n)
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
