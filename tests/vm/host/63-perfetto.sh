#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 63 (tests/vm/scenarios/63-perfetto.sh):
# the guest's Perfetto traces decode with `protoc --decode` against the
# project's userspace/cli/perfetto/perfetto_trace.proto, and
#  - record's trace has the CSV's samples and numbers: at every sample,
#    every CPU's shadow, load_avg, shadow_avg and nr_running counter equals
#    the CSV cell (an empty cell = no value); the cgroup tracks of the
#    workload's cgroups are there; every lb verdict instant sits on its
#    destination CPU's track and carries domain/idle/verdict/pick; every
#    sample and instant lies within the command's lifetime as the guest's
#    shell read it from /proc/uptime (CLOCK_BOOTTIME, 10 ms resolution)
#    just before and after it (p63-window.txt): the tracefs clock and the
#    samples' clock are the trace clock;
#  - run's trace has one slice for the command lasting its wall time, and
#    the slice's latency arguments are the run report's latency_us;
#  - run's lb_verdict instants: every one's arguments equal, field by
#    field and whole, the record a second tracefs instance captured for the
#    same event (the reference, p63-ref.txt); their number equals the
#    report's judged attempts (lb_attempts, all domains, idle + newidle);
#    every packet sequence is in timestamp order; nothing is marked
#    incomplete.
#
#   tests/vm/host/63-perfetto.sh [VM_OUT_DIR]     (default build/vm-out)
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-perfetto
proto=$top/userspace/cli/perfetto/perfetto_trace.proto

if ! command -v protoc >/dev/null; then
	ok 1 "protoc (protobuf-compiler) installed on the host (make deps)"
	tap_end
	exit
fi
for f in p63.csv p63.pftrace p63-window.txt p63-run.pftrace p63-run.json p63-ref.txt; do
	[ -s "$out/$f" ]
	ok $? "$f exported by the guest"
done
decode() { protoc --decode=perfetto.protos.Trace -I"$(dirname "$proto")" "$proto" < "$1"; }
decode "$out/p63.pftrace" > "$out/p63.pftrace.txt" 2> "$out/p63.decode.err"
ok $? "record's trace decodes with protoc ($(grep -c '^packet {' "$out/p63.pftrace.txt" 2>/dev/null) packets)"
decode "$out/p63-run.pftrace" > "$out/p63-run.pftrace.txt" 2>> "$out/p63.decode.err"
ok $? "run's trace decodes with protoc"
diag < "$out/p63.decode.err"

while IFS= read -r line; do
	case $line in
	"ok - "*) ok 0 "${line#ok - }" ;;
	"not ok - "*) ok 1 "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < <(python3 - "$out" 2>&1 <<'PY'
import csv, json, sys
out = sys.argv[1]

def check(cond, what):
    print(("ok" if cond else "not ok") + " - " + what)

def unq(v):
    v = v.strip()
    if v.startswith('"'):
        return bytes(v[1:-1], "utf-8").decode("unicode_escape")
    return v

def parse(path):
    """protoc's text output -> (tracks {uuid: dict}, events [dict])"""
    global seqs
    tracks, events = {}, []
    seqs = []
    stack, cur, ann = [], None, []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return tracks, events
    pkt = None
    for raw in lines:
        s = raw.strip()
        if s.endswith("{"):
            name = s[:-1].strip()
            stack.append(name)
            if name == "packet":
                pkt = {"ts": None}
            elif name == "track_descriptor":
                cur = pkt["td"] = {"parent": 0, "counter": False}
            elif name == "track_event":
                cur = pkt["te"] = {"args": {}}
            elif name == "counter" and "td" in pkt:
                pkt["td"]["counter"] = True
            elif name in ("debug_annotations", "dict_entries"):
                ann.append({"name": None, "value": None, "dict": {}})
            continue
        if s == "}":
            name = stack.pop()
            if name in ("debug_annotations", "dict_entries"):
                a = ann.pop()
                v = a["dict"] if a["dict"] else a["value"]
                (ann[-1]["dict"] if ann else pkt["te"]["args"])[a["name"]] = v
            elif name == "packet":
                seqs.append((pkt.get("seq"), pkt["ts"]))
                if "td" in pkt:
                    t = pkt["td"]
                    tracks[int(t["uuid"])] = t
                if "te" in pkt:
                    e = pkt["te"]
                    e["ts"] = pkt["ts"]
                    events.append(e)
            continue
        k, _, v = s.partition(":")
        top = stack[-1] if stack else ""
        if top == "packet" and k == "timestamp":
            pkt["ts"] = int(v)
        elif top == "packet" and k == "trusted_packet_sequence_id":
            pkt["seq"] = int(v)
        elif top == "track_descriptor":
            cur[k] = unq(v) if k == "name" else int(v)
        elif top == "track_event":
            cur[k] = unq(v)
        elif ann:
            if k == "name":
                ann[-1]["name"] = unq(v)
            elif k == "string_value":
                ann[-1]["value"] = unq(v)
            elif k == "double_value":
                ann[-1]["value"] = float(v)
            else:
                ann[-1]["value"] = int(v)
    return tracks, events

# ---- record: trace vs CSV
def record_checks():
    tracks, events = parse(out + "/p63.pftrace.txt")
    byname = {t["name"]: u for u, t in tracks.items()}
    counters = {}
    for e in events:
        if e.get("type") == "TYPE_COUNTER":
            counters.setdefault(int(e["track_uuid"]), {})[e["ts"]] = int(e["counter_value"])
    sample_ts = sorted({e["ts"] for e in events if e.get("type") == "TYPE_COUNTER"})
    rows = list(csv.DictReader(open(out + "/p63.csv"))) if sample_ts or True else []
    times = []
    for r in rows:
        if r["time_s"] not in times:
            times.append(r["time_s"])
    check(len(times) >= 4 and len(times) == len(sample_ts),
          "record: the trace has the CSV's samples (%d CSV, %d trace)" % (len(times), len(sample_ts)))
    drift = max((abs((sample_ts[i] - sample_ts[0]) / 1e9 - float(t)) for i, t in enumerate(times)
                 if i < len(sample_ts)), default=1)
    check(drift < 0.002, "record: sample times match the CSV's time_s (max drift %.4f s)" % drift)
    cols = ("shadow", "load_avg", "shadow_avg", "nr_running")
    n = bad = 0
    for r in rows:
        i = times.index(r["time_s"])
        if i >= len(sample_ts):
            bad += 1
            continue
        for c in cols:
            u = byname.get("cpu%s %s" % (r["cpu"], c))
            got = counters.get(u, {}).get(sample_ts[i]) if u else None
            want = int(r[c]) if r[c] != "" else None
            n += 1
            if got != want:
                bad += 1
                if bad < 5:
                    print("# cpu%s %s at sample %d: csv %r trace %r" % (r["cpu"], c, i, want, got))
    check(n >= 4 * len(times) and bad == 0,
          "record: every CPU's shadow/load_avg/shadow_avg/nr_running equals the CSV at every sample (%d values, %d differ)" % (n, bad))
    cg = [t["name"] for t in tracks.values() if "/pf63/a shadow" in t["name"]]
    cgv = [v for nm in cg for v in counters.get(byname[nm], {}).values()]
    check(cg and max(cgv or [0]) > 0,
          "record: per-CPU cgroup tracks of /pf63/a with a non-zero shadow (%d tracks)" % len(cg))
    cpu_tracks = {u: t["name"] for u, t in tracks.items() if t["name"].startswith("CPU ")}
    inst = [e for e in events if e.get("type") == "TYPE_INSTANT"]
    u0, u1 = (float(x) for x in open(out + "/p63-window.txt").read().split())
    lo, hi = (u0 - 0.01) * 1e9, (u1 + 0.01) * 1e9
    wrong_track = [e for e in inst if cpu_tracks.get(int(e["track_uuid"])) != "CPU %s" % e["args"].get("dst_cpu")]
    no_fields = [e for e in inst if not all(k in e["args"] for k in ("domain", "idle", "verdict", "pick"))]
    bad_verdict = [e for e in inst if e["args"].get("verdict") not in ("right", "wrong", "missed", "none", "void", "busy")]
    out_of_span = [e for e in inst if not lo <= e["ts"] <= hi]
    samples_out = [t for t in sample_ts if not lo <= t <= hi]
    print("# %d verdict instants: %s" % (len(inst), ", ".join(sorted({e["name"] for e in inst}))[:300]))
    if inst:
        print("# example: %s at %d on %s: %s" % (inst[0]["name"], inst[0]["ts"],
              cpu_tracks.get(int(inst[0]["track_uuid"])), inst[0]["args"]))
    check(inst and not wrong_track and not no_fields and not bad_verdict,
          "record: every lb verdict instant is on its dst_cpu's track with domain, idle, verdict, pick (%d; %d misplaced, %d incomplete, %d unknown verdict)"
          % (len(inst), len(wrong_track), len(no_fields), len(bad_verdict)))
    if out_of_span or samples_out:
        print("# the command ran from %.2f to %.2f s (/proc/uptime); outside: instants %s, samples %s" % (
              u0, u1, [round(e["ts"] / 1e9, 3) for e in out_of_span[:5]], [round(t / 1e9, 3) for t in samples_out[:5]]))
    check(inst and sample_ts and not out_of_span and not samples_out,
          "record: every verdict instant (tracefs boot clock) and sample lies within the command's lifetime by /proc/uptime (%d of %d instants, %d of %d samples outside)"
          % (len(out_of_span), len(inst), len(samples_out), len(sample_ts)))

try:
    record_checks()
except Exception as e:
    check(False, "record: trace vs CSV (%r)" % (e,))

# ---- run: slice vs JSON report
def chk(what, f):
    try:
        r = f()
    except Exception as e:
        check(False, "%s (%r)" % (what, e))
        return
    check(bool(r[0]), what + (" (%s)" % r[1] if len(r) > 1 else ""))

tracks, events = parse(out + "/p63-run.pftrace.txt")
try:
    rep = json.load(open(out + "/p63-run.json"))
except Exception as e:
    print("# run report: %r" % (e,))
    rep = {}
b = [e for e in events if e.get("type") == "TYPE_SLICE_BEGIN"]
en = [e for e in events if e.get("type") == "TYPE_SLICE_END"]
args = en[0]["args"] if en else {}

def slice_ok():
    dur = (en[0]["ts"] - b[0]["ts"]) / 1e9
    return (len(b) == 1 and len(en) == 1 and b[0]["track_uuid"] == en[0]["track_uuid"]
            and "bench" in b[0].get("name", "") and abs(dur - rep["wall_s"]) < 0.05,
            "%.3f s vs %.3f s" % (dur, rep["wall_s"]))
chk("run: one slice named after the command, lasting its wall time", slice_ok)

def latency_ok():
    want = {}
    for c in rep["bpf"].get("cgroups", []):
        if c["wakeups"] or c["samples"] or c["migrations"]:
            want["latency " + (c["path"] or "cgid:%d" % c["id"])] = c
    miss = bad = 0
    for k, c in want.items():
        a = args.get(k)
        if not isinstance(a, dict) or a.get("wakeups") != c["wakeups"] or a.get("samples") != c["samples"]:
            miss += 1
            continue
        for q, v in c["latency_us"].items():
            if q == "mean":
                continue
            key = q + "_us"
            if v is None:
                bad += key in a
            elif abs(a.get(key, -1) - v) > 1e-3 * max(1, abs(v)):
                bad += 1
    k = "latency /pf63/run"
    return (rep["bpf"]["available"] and k in args and miss == 0 and bad == 0,
            "%d cgroups, %d missing, %d values differ; %s: %s" % (len(want), miss, bad, k, args.get(k)))
chk("run: the slice carries the report's latency percentiles per cgroup", latency_ok)
chk("run: the slice's exit_status is the report's (0)",
    lambda: (args.get("exit_status") == rep["exit_status"] == 0,))
nsamp = len({e["ts"] for e in events if e.get("type") == "TYPE_COUNTER"})
check(nsamp >= 3, "run: the module was sampled while the command ran (%d samples)" % nsamp)

# ---- run: verdict instants vs the reference records and the report
def ref_records():
    """p63-ref.txt (tracefs text) -> {dst_cpu: [(ts_ns, {field: text})]}"""
    recs = {}
    for line in open(out + "/p63-ref.txt", errors="replace"):
        head, sep, body = line.rstrip("\n").partition(" lb_verdict: ")
        if not sep:
            continue
        sec, _, usec = head.rstrip(":").split()[-1].rstrip(":").partition(".")
        ts = int(sec) * 10**9 + int((usec + "000000000")[:9])
        f = dict(t.split("=", 1) for t in body.split(" ") if "=" in t)
        recs.setdefault(f.get("dst_cpu"), []).append((ts, f))
    return recs

cpu_tracks = {u: t["name"] for u, t in tracks.items() if t["name"].startswith("CPU ")}
inst = [e for e in events if e.get("type") == "TYPE_INSTANT" and int(e["track_uuid"]) in cpu_tracks]

def args_text(a):
    return {k: (str(v) if not isinstance(v, str) else v) for k, v in a.items()}

WINDOW_NS = 50000000

def verdicts_equal_reference():
    """Pair each instant with a reference record of the same destination CPU
    and the same fields, each record used once.  The same event is stamped by
    each instance's ring buffer on its own: usually microseconds apart, more
    when an interrupt comes between or, under single-threaded TCG, when the
    host runs the other vCPUs between the two writes while the guest clock
    goes on (seen: 4.8 ms, and 11.4 ms on 7.2), and two close events of one
    CPU may then swap places (seen: a record 0.54 ms before the instant,
    after the pair of the next one), so the timestamps only bound the search
    (WINDOW_NS, 50 ms) and do not order it.  A wrong pairing needs a record
    of the same CPU equal in every field (the whole per-CPU and per-group
    state included) within the window, each record used once."""
    import bisect
    recs = ref_records()
    nref = sum(len(v) for v in recs.values())
    used = {c: [False] * len(v) for c, v in recs.items()}
    stamps = {c: [r[0] for r in v] for c, v in recs.items()}
    matched = bad = missing = 0
    unmatched = []
    for e in sorted(inst, key=lambda e: e["ts"]):
        cpu = str(e["args"].get("dst_cpu"))
        a = args_text(e["args"])
        rs = recs.get(cpu, [])
        lo = bisect.bisect_left(stamps.get(cpu, []), e["ts"] - WINDOW_NS)
        hi = bisect.bisect_right(stamps.get(cpu, []), e["ts"] + WINDOW_NS)
        free = [j for j in range(lo, hi) if not used[cpu][j]]
        same = [j for j in free if rs[j][1] == a]
        if same:
            j = min(same, key=lambda j: abs(rs[j][0] - e["ts"]))
            used[cpu][j] = True
            matched += 1
        elif free:
            bad += 1
            unmatched.append(e)
        else:
            missing += 1
            unmatched.append(e)
    for e in unmatched[:2]:
        a = args_text(e["args"])
        same = [r for r in recs.get(a.get("dst_cpu"), []) if r[1] == a]
        near = [r for r in recs.get(a.get("dst_cpu"), []) if abs(r[0] - e["ts"]) <= WINDOW_NS][:1]
        print("# instant %d dst_cpu=%s %s: records with the same fields at %s; the nearest record "
              "differs in %s" % (e["ts"], a.get("dst_cpu"), e.get("name"),
              ["%+d ns" % (r[0] - e["ts"]) for r in same][:4],
              [sorted(k for k in set(r[1]) | set(a) if r[1].get(k) != a.get(k))[:4] for r in near]))
    longest = max((len(v) for e in inst for v in args_text(e["args"]).values()), default=0)
    return (inst and matched == len(inst),
            "%d instants, %d equal their reference record field by field, %d differ, %d without "
            "one; %d reference records; longest argument %d bytes" % (
                len(inst), matched, bad, missing, nref, longest))
chk("run: every lb_verdict instant's arguments equal its reference record, in full", verdicts_equal_reference)

def count_is_judged():
    att = (rep.get("lb") or {}).get("attempts") or {}
    judged = sum(r["attempts"] for r in att.get("rows", [])
                 if r["domain"] == "all" and r["idle"] in ("idle", "newidle"))
    return (judged > 0 and len(inst) == judged,
            "%d instants, %d judged attempts in the report" % (len(inst), judged))
chk("run: as many verdict instants as the report's judged attempts", count_is_judged)

def sequences_ordered():
    last, back, per = {}, 0, {}
    for seq, ts in seqs:
        if ts is None:
            continue
        per[seq] = per.get(seq, 0) + 1
        if ts < last.get(seq, 0):
            back += 1
        last[seq] = ts
    vseq = {e.get("seq") for e in inst}
    incomplete = [e for e in events if e.get("name") == "lb_verdict records incomplete"]
    return (back == 0 and not incomplete and per.get(1) and per.get(2),
            "%d backward steps; packets per sequence %s; %d incomplete markers" % (back, per, len(incomplete)))
chk("run: every packet sequence in timestamp order (samples, verdicts, command), nothing marked incomplete",
    sequences_ordered)
PY
)
tap_end
