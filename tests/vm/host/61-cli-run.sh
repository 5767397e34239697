#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 61 (tests/vm/scenarios/61-cli-run.sh):
# the guest's `sched-shadow run --json -- sched-shadow bench` reports (root
# and nested cgroup) parse, follow the run report schema (docs/cli-run.md),
# carry the module's tables, and BPF saw at least the bench's wakeups in
# the bench's cgroup with plausible latencies.  Prints root vs nested.
#
#   tests/vm/host/61-cli-run.sh [VM_OUT_DIR]     (default build/vm-out)
#   TAP output; TAP_SUMMARY=file as in tests/lib/tap.sh
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-cli-run

for name in root nested; do
	run=$out/run-$name.json bench=$out/bench-$name.json
	if [ ! -s "$run" ] || [ ! -s "$bench" ]; then
		ok 1 "$name: run and bench JSON exported by the guest ($run, $bench)"
		continue
	fi
	python3 -m json.tool "$run" >/dev/null 2>&1; ok $? "$name: run --json parses (python3 -m json.tool)"
	python3 -m json.tool "$bench" >/dev/null 2>&1; ok $? "$name: bench --json parses"
	# The python checks print "ok - X" / "not ok - X" / "# ..." lines; count them here
	done_seen=1
	while IFS= read -r line; do
		case $line in
		"checks done") done_seen=0 ;;
		"ok - "*) ok 0 "$name: ${line#ok - }" ;;
		"not ok - "*) ok 1 "$name: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < <(python3 - "$run" "$bench" "$name" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2])); name = sys.argv[3]
n = 0; failed = 0
def check(cond, what):
    global failed
    print(("ok" if cond else "not ok") + " - " + what)
    if not cond:
        failed += 1
def chk(what, f):
    try:
        check(bool(f()), what)
    except Exception as e:
        check(False, "%s (%r)" % (what, e))

chk("schema, command, version, exit status 0",
    lambda: r["schema"] == "sched_shadow/v1" and r["command"] == "run"
    and r["run_report_version"] == 1 and r["exit_status"] == 0)
chk("module loaded and reset", lambda: r["module"]["loaded"] and r["module"]["reset"])
chk("per-CPU divergence rows with shadow_mean real_mean div_mean div_max",
    lambda: r["cpus"]["available"] and len(r["cpus"]["rows"]) >= 1 and all(
        set(("cpu", "shadow_mean", "real_mean", "div_mean", "div_max")) <= set(row)
        for row in r["cpus"]["rows"]))
def lb_ok():
    l = r["lb"]
    if not l["available"]:
        return isinstance(l["reason"], str) and l["reason"]
    v = l["verdicts"]
    return v["calls"] == v["right"] + v["wrong"] + v["missed"] + v["none"] + v["void"] and l["rows"]
chk("lb verdicts add up (or the audit's absence is explained)", lb_ok)
chk("bpf available", lambda: r["bpf"]["available"] is True)
if name == "root":
    want = "/"
else:
    want = r["cgroup"]["path"]
    chk("cgroup created and removed, path /sst61/nested",
        lambda: r["cgroup"]["created"] and r["cgroup"]["removed"] and want == "/sst61/nested")
cg = next((c for c in r["bpf"]["cgroups"] if c["path"] == want), None)
chk("BPF has the bench's cgroup %s" % want, lambda: cg is not None)
chk("bench counted wakeups", lambda: b["wakeups"] > 0 and b["latency_us"]["samples"] == b["requests"])
chk("BPF wakeups in %s >= bench's wakeups" % want, lambda: cg["wakeups"] >= b["wakeups"])
chk("BPF p50 in (0, 1 s), percentiles ordered",
    lambda: 0 < cg["latency_us"]["p50"] < 1e6 and cg["latency_us"]["p50"] <= cg["latency_us"]["p90"]
    <= cg["latency_us"]["p99"] <= cg["latency_us"]["p99_9"] <= cg["latency_us"]["max"])
chk("schedstat deltas present (Debian 6.1: CONFIG_SCHEDSTATS=y)",
    lambda: r["schedstat"]["available"] and r["schedstat"]["version"] >= 15
    and len(r["schedstat"]["domains"]) >= 3)
# The run's cross-check, made a check: the module's balancing attempts and
# the tasks they moved against the kernel's own /proc/schedstat deltas over
# the same window (the CLI takes both copies back to back at each end).
# lb_count counts every attempt, including those should_we_balance() stops
# before any search (the module's lb_attempts_skipped); lb_gained is the
# tasks moved, per idle type, plus the tasks active balance pushed later
# from the stopper (detach_one_task(), whose env is always CPU_IDLE): at
# most one per kick (the `active` column, kicks of any idle type), counted
# under "idle" (7.3 nested: PKG idle moved 18, lb_gained 25, 7 kicks).
def cross():
    att = [x for x in r["lb"]["attempts"]["rows"] if x["domain"] != "all"]
    skipped = int(r["module"]["info"]["lb_attempts_skipped"])
    dom = r["schedstat"]["domains"]
    a = sum(x["attempts"] for x in att) + skipped
    c = sum(d["lb_count"] for d in dom)
    bad = []
    # not on empty data: both sides must have counted attempts.  The
    # kernel's window is wider: /proc/schedstat is read before the module
    # resumes counting and after it pauses, and the pause and resume wait
    # for work on every CPU (under single-threaded TCG with hogs on every
    # CPU the two reads span 0.1-0.35 s more than the command: 5.10, 969
    # lb_count against 907 counted over 3.04 s of 3.38).  The module's
    # window holds at least the command's wall time, so its attempts are at
    # least the kernel's scaled by wall_s over the kernel's span (jiffies
    # at HZ=250, Debian's amd64 kernels), less 5 % (30), and at most the
    # kernel's plus 5 % (30).
    span = r["schedstat"]["jiffies"] / 250.0
    share = min(1.0, r["wall_s"] / span) if span > 0 else 1.0
    tol = max(30, 0.05 * c)
    if c <= 0 or a - skipped <= 0 or a > c + tol or a < c * share - tol:
        bad.append("attempts %d (+%d skipped) vs lb_count %d (wall %.2f s of the kernel's %.2f s)" % (
            a - skipped, skipped, c, r["wall_s"], span))
    kicks = sum(x["active"] for x in att)
    for idle in ("idle", "busy", "newidle"):
        m = sum(x["moved"] for x in att if x["idle"] == idle)
        g = sum(d["lb_gained"] for d in dom if d["idle"] == idle)
        pushed = kicks if idle == "idle" else 0
        tol = max(3, 0.1 * g)
        if g < m - tol or g > m + pushed + tol:
            bad.append("%s moved %d (+ up to %d pushed) vs lb_gained %d" % (idle, m, pushed, g))
    print("# %s: module attempts %d + skipped %d = %d vs schedstat lb_count %d; active kicks %d; moved %s vs lb_gained %s" % (
        name, a - skipped, skipped, a, c, kicks,
        "/".join(str(sum(x["moved"] for x in att if x["idle"] == i)) for i in ("idle", "busy", "newidle")),
        "/".join(str(sum(d["lb_gained"] for d in dom if d["idle"] == i)) for i in ("idle", "busy", "newidle"))))
    if bad:
        print("# " + "; ".join(bad))
    return not bad
if r["lb"]["available"] and r["schedstat"]["available"]:
    chk("module attempts (+ skipped) = schedstat lb_count (5 %, 30; scaled by the run's share of the kernel's window) and moved (+ pushes after kicks, idle) = lb_gained per idle type (10 %, 3) over the run", cross)
else:
    chk("module attempts vs schedstat: both available", lambda: False)
L = b["latency_us"]
print("# %s: bench p50/p90/p99/p99.9/max us %s/%s/%s/%s/%s, rps %.0f, wakeups %d" % (
    name, L["p50"], L["p90"], L["p99"], L["p99_9"], L["max"], b["rps"], b["wakeups"]))
if cg:
    c = cg["latency_us"]
    print("# %s: bpf %s wakeups %d migrations %d p50/p99/max us %.1f/%.1f/%.1f" % (
        name, want, cg["wakeups"], cg["migrations"], c["p50"], c["p99"], c["max"]))
if r["lb"]["available"]:
    v = r["lb"]["verdicts"]
    print("# %s: lb verdicts calls %d right %d wrong %d missed %d none %d" % (
        name, v["calls"], v["right"], v["wrong"], v["missed"], v["none"]))
if r["schedstat"]["available"]:
    s = sum(d["lb_count"] for d in r["schedstat"]["domains"])
    f = sum(d["lb_failed"] for d in r["schedstat"]["domains"])
    print("# %s: schedstat lb_count %d lb_failed %d" % (name, s, f))
print("checks done")
PY
)
	ok $done_seen "$name: report checks ran to the end"
done
tap_end
