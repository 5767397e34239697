#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host BPF suite: the sched-shadow CLI's BPF collection and run/bench on the
# host kernel (raw tracepoints; the sched_shadow module is NOT loaded here,
# so this also covers the module-less paths).  Needs root for BPF and
# cgroups.  TAP on stdout; "N passed, N failed" into $TAP_SUMMARY.
#   SCHED_SHADOW=path/to/sched-shadow  (default build/sched-shadow)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib/tap.sh"
SS=${SCHED_SHADOW:-$top/build/sched-shadow}
tmp=$(mktemp -d /tmp/sched-shadow-bpf.XXXXXX)
CG=sched-shadow-bpf-test.$$
trap 'rm -rf "$tmp"' EXIT

tap_begin bpf

[ -x "$SS" ]; ok $? "sched-shadow binary exists ($SS)"
if [ ! -x "$SS" ]; then tap_end; exit 1; fi
cgmnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)

# Python helper: evaluate an expression over JSON files; exit 0 if true.
jcheck() { # jcheck 'expr using r (run) and b (bench)' run.json [bench.json]
	python3 - "$@" <<'PY'
import json, sys
expr, rf = sys.argv[1], sys.argv[2]
r = json.load(open(rf))
b = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
def cg(id_):
    return next((c for c in r["bpf"]["cgroups"] if c["id"] == id_), None)
try:
    v = eval(expr)
except Exception as e:
    print("# check raised %r" % (e,)); sys.exit(1)
if not v:
    print("# false: " + expr)
sys.exit(0 if v else 1)
PY
}

# --- module commands without the module ---------------------------------
"$SS" --debugfs "$tmp/sched_shadow" cpus >"$tmp/cpus.out" 2>"$tmp/cpus.err"; rc=$?
[ $rc -ne 0 ] && grep -q "module not loaded" "$tmp/cpus.err"
ok $? "cpus without the module: non-zero exit ($rc) and 'module not loaded'"
"$SS" cpus >/dev/null 2>"$tmp/cpus2.err"; rc=$?
[ $rc -ne 0 ] && grep -qE "not loaded|not mounted" "$tmp/cpus2.err"
ok $? "cpus at the default debugfs path: non-zero exit ($rc) with the reason"

if [ "$(id -u)" -ne 0 ]; then
	tap_skip "BPF and cgroup checks" "not root (BPF and cgroup creation need root)"
	tap_end; exit
fi
if [ -z "$cgmnt" ]; then
	ok 1 "a cgroup2 filesystem is mounted"
	tap_end; exit
fi

# --- run without the module: refused, unless --no-module --------------------
"$SS" --debugfs "$tmp/sched_shadow" run -- touch "$tmp/ran" >"$tmp/nomod.out" 2>"$tmp/nomod.err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/ran" ] && [ ! -s "$tmp/nomod.out" ] && [ "$(grep -c . "$tmp/nomod.err")" -eq 1 ] &&
	grep -q "^sched-shadow run: sched_shadow module not loaded (sudo .*--no-module" "$tmp/nomod.err"
ok $? "run without the module: exit 2 ($rc), CMD not run, one line saying how to load it and --no-module"
"$SS" --debugfs "$tmp/sched_shadow" -j run -- true >"$tmp/nomod.json" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && jcheck 'list(r) == ["schema", "command", "error"] and r["command"] == "run" and "module not loaded" in r["error"]' "$tmp/nomod.json"
ok $? "-j run without the module: one JSON object {schema, command, error}, exit 2 ($rc)"

# --- --cgroup: the cpu controller down to the cgroup, or a refusal ----------
# On a host whose cpu controller is on cgroup v1 (a hybrid hierarchy: cgroup2
# at /sys/fs/cgroup/unified) run and bench refuse a --cgroup, exit 2 with one
# line saying why and how, unless --allow-no-cpu-controller; where cgroup2
# offers cpu they run.  Each branch is checked where it applies.
ALLOW=
if grep -qw cpu "$cgmnt/cgroup.controllers" 2>/dev/null; then
	"$SS" --debugfs "$tmp/sched_shadow" run --no-module --no-bpf --cgroup "$CG/cpu" -j -- true >"$tmp/cpu.json" 2>"$tmp/cpu.err"; rc=$?
	[ $rc -eq 0 ] && jcheck 'r["cgroup"]["cpu_controller"] is True' "$tmp/cpu.json"
	ok $? "--cgroup where cgroup2 offers cpu: runs, the report says cpu_controller true ($rc)"
else
	"$SS" --debugfs "$tmp/sched_shadow" run --no-module --cgroup "$CG/v1" -- touch "$tmp/ran" >"$tmp/v1.out" 2>"$tmp/v1.err"; rc=$?
	[ $rc -eq 2 ] && [ ! -e "$tmp/ran" ] && [ ! -s "$tmp/v1.out" ] && [ "$(grep -c . "$tmp/v1.err")" -eq 1 ] &&
		grep -q "^sched-shadow run: --cgroup /$CG/v1: .*cpu controller.*--allow-no-cpu-controller" "$tmp/v1.err" &&
		[ ! -e "$cgmnt/$CG" ]
	ok $? "run --cgroup without the cpu controller on cgroup2 ($cgmnt): exit 2 ($rc), CMD not run, one line why and how, no cgroup left"
	diag <"$tmp/v1.err"
	"$SS" bench -r 0.2 -m 1 -t 1 --cgroup "$CG/v1" >"$tmp/bv1.out" 2>"$tmp/bv1.err"; rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c . "$tmp/bv1.err")" -eq 1 ] &&
		grep -q "^sched-shadow bench: --cgroup /$CG/v1: .*--allow-no-cpu-controller" "$tmp/bv1.err" && [ ! -e "$cgmnt/$CG" ]
	ok $? "bench --cgroup likewise: exit 2 ($rc), one line, no cgroup left"
	"$SS" --debugfs "$tmp/sched_shadow" run --no-module --no-bpf --allow-no-cpu-controller --cgroup "$CG/v1" --label v1 -j -o "$tmp/v1.json" -- true 2>"$tmp/v1.err"; rc=$?
	"$SS" --debugfs "$tmp/sched_shadow" report "$tmp/v1.json" >"$tmp/v1.txt" 2>&1
	sed 's/"label":"v1"/"label":"v1b"/' "$tmp/v1.json" >"$tmp/v1b.json"
	"$SS" compare "$tmp/v1.json" "$tmp/v1b.json" >"$tmp/v1.cmp" 2>&1
	[ $rc -eq 0 ] && jcheck 'r["cgroup"]["cpu_controller"] is False and "cgroup v1" in r["cgroup"]["note"]' "$tmp/v1.json" &&
		grep -q "^cgroup: NO cpu controller (--allow-no-cpu-controller): not a nested run" "$tmp/v1.txt" &&
		grep -q "^v1\*: cgroup /$CG/v1 had NO cpu controller" "$tmp/v1.cmp" && grep -q " v1\* *v1b\*$" "$tmp/v1.cmp"
	ok $? "--allow-no-cpu-controller: runs; the report says so (JSON cpu_controller false, text), compare prints the note and marks the column"
	ALLOW=--allow-no-cpu-controller
fi

# --- run --no-module -- bench, JSON, in a cgroup run creates ------------------
"$SS" --debugfs "$tmp/sched_shadow" run --no-module $ALLOW --cgroup "$CG" --json -- \
	sh -c "exec '$SS' bench -r 3 -m 2 -t 2 -c 50 -s 1000 --json > '$tmp/bench.json'" \
	>"$tmp/run.json" 2>"$tmp/run.err"; rc=$?
ok $rc "run --no-module --json -- bench exits 0 (bench's status)"
python3 -m json.tool "$tmp/run.json" >/dev/null 2>&1; ok $? "run --json output parses (python3 -m json.tool)"
python3 -m json.tool "$tmp/bench.json" >/dev/null 2>&1; ok $? "bench --json output parses"
! grep -q "module not loaded" "$tmp/run.err"; ok $? "run --no-module does not say 'module not loaded'"
jcheck 'r["module"]["loaded"] is False and r["module"]["reason"] == "--no-module" and r["lb"]["available"] is False and r["cpus"]["available"] is False' "$tmp/run.json"
ok $? "run report: module, lb and cpus marked unavailable: --no-module"
jcheck 'r["bpf"]["available"] is True and r["exit_status"] == 0 and r["schema"] == "sched_shadow/v1"' "$tmp/run.json"
ok $? "run report: BPF available, exit_status 0, schema"
jcheck 'r["cgroup"]["created"] and r["cgroup"]["removed"] and cg(r["cgroup"]["id"]) is not None and cg(r["cgroup"]["id"])["path"] == r["cgroup"]["path"]' "$tmp/run.json"
ok $? "run report: the cgroup run created is in the BPF table, resolved to its path, then removed"
[ ! -e "$cgmnt/$CG" ]; ok $? "cgroup $CG removed after run"
jcheck 'b["wakeups"] > 0 and b["requests"] > 0 and b["latency_us"]["samples"] == b["requests"]' "$tmp/run.json" "$tmp/bench.json"
ok $? "bench counted wakeups and requests"
jcheck 'cg(r["cgroup"]["id"])["wakeups"] >= b["wakeups"]' "$tmp/run.json" "$tmp/bench.json"
ok $? "BPF wakeups of the bench's cgroup >= wakeups the bench counted"
jcheck 'cg(r["cgroup"]["id"])["samples"] >= b["wakeups"]' "$tmp/run.json" "$tmp/bench.json"
ok $? "BPF latency samples of the bench's cgroup >= the bench's wakeups (each wakeup is switched in)"
jcheck '0 < cg(r["cgroup"]["id"])["latency_us"]["p50"] < 1e6 and cg(r["cgroup"]["id"])["latency_us"]["max"] < 60e6' "$tmp/run.json"
ok $? "BPF p50 latency in a plausible range (0, 1 s)"
jcheck 'all(cg(r["cgroup"]["id"])["latency_us"][k] <= cg(r["cgroup"]["id"])["latency_us"][n] for k, n in (("p50","p90"),("p90","p99"),("p99","p99_9"),("p99_9","max")))' "$tmp/run.json"
ok $? "BPF percentiles are ordered p50 <= p90 <= p99 <= p99.9 <= max"
jcheck '0 < b["latency_us"]["p50"] <= b["latency_us"]["p90"] <= b["latency_us"]["p99"] <= b["latency_us"]["p99_9"] <= b["latency_us"]["max"] < 60e6 and b["rps"] > 0' "$tmp/run.json" "$tmp/bench.json"
ok $? "bench percentiles ordered and plausible, rps > 0"
jcheck 'r["schedstat"]["available"] or r["schedstat"]["reason"]' "$tmp/run.json"
ok $? "schedstat cross-check present or its absence explained"
python3 - "$tmp/run.json" "$tmp/bench.json" <<'PY' | diag
import json, sys
r = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
c = next(c for c in r["bpf"]["cgroups"] if c["id"] == r["cgroup"]["id"])
print("bench: %d wakeups, %d requests, rps %.0f, p50/p90/p99/p99.9/max us %s" % (
    b["wakeups"], b["requests"], b["rps"],
    "/".join(str(b["latency_us"][k]) for k in ("p50", "p90", "p99", "p99_9", "max"))))
print("bpf %s: %d wakeups, %d samples, %d migrations, p50/p90/p99/p99.9/max us %s" % (
    c["path"], c["wakeups"], c["samples"], c["migrations"],
    "/".join("%.1f" % c["latency_us"][k] for k in ("p50", "p90", "p99", "p99_9", "max"))))
print("schedstat: %s" % (r["schedstat"]["reason"] or "version %s" % r["schedstat"]["version"]))
PY

# --- text report and exit status pass-through -------------------------------
"$SS" --debugfs "$tmp/sched_shadow" run --no-module -- sh -c 'exit 7' >"$tmp/run7.out" 2>&1; rc=$?
[ $rc -eq 7 ]; ok $? "run passes CMD's exit status through (7 -> $rc)"
grep -q "module: not used (--no-module)" "$tmp/run7.out" && grep -q "lb audit not available" "$tmp/run7.out" &&
	grep -q "bpf: wakeup latency collected" "$tmp/run7.out" && grep -q "wakeup latency per cgroup" "$tmp/run7.out"
ok $? "text report: module-less, lb unavailable with reason, BPF table present"
"$SS" --debugfs "$tmp/sched_shadow" run --no-module -- sh -c 'kill -TERM $$' >/dev/null 2>&1; rc=$?
[ $rc -eq 143 ]; ok $? "CMD killed by SIGTERM -> 128+15 ($rc)"
"$SS" --debugfs "$tmp/sched_shadow" run --no-module -- /nonexistent/cmd >/dev/null 2>&1; rc=$?
[ $rc -eq 127 ]; ok $? "CMD not found -> 127 ($rc)"
"$SS" run --bogus -- true >/dev/null 2>&1; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 127 ]; ok $? "run usage error -> non-zero ($rc)"

# --- --no-bpf and --prom -------------------------------------------------------
"$SS" --debugfs "$tmp/sched_shadow" run --no-module --no-bpf --json -- true >"$tmp/nobpf.json" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && jcheck 'r["bpf"]["requested"] is False and r["bpf"]["available"] is False and r["bpf"]["reason"] == "--no-bpf"' "$tmp/nobpf.json"
ok $? "--no-bpf: runs, report says BPF was not requested"
"$SS" --debugfs "$tmp/sched_shadow" run --no-module --prom -- sleep 0.2 >"$tmp/run.prom" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -q '^sched_shadow_run_exit_status 0$' "$tmp/run.prom" &&
	grep -q '^sched_shadow_run_wakeups_total{cgroup="' "$tmp/run.prom" &&
	grep -q '^# TYPE sched_shadow_run_wakeup_latency_seconds gauge' "$tmp/run.prom" &&
	grep -q '^sched_shadow_run_source_available{source="module"} 0$' "$tmp/run.prom"
ok $? "--prom: exit status, per-cgroup wakeups, latency family, module marked unavailable"

# --- bench --cgroup creates and removes its nested cgroup --------------------
"$SS" bench -r 1.5 -m 1 -t 2 --cgroup "$CG/nested" $ALLOW --weight 200 --json >"$tmp/bcg.json" 2>"$tmp/bcg.err" &
pid=$!
seen=1
for _ in $(seq 1 30); do
	[ -d "$cgmnt/$CG/nested" ] && grep -q . "$cgmnt/$CG/nested/cgroup.procs" 2>/dev/null && { seen=0; break; }
	sleep 0.05
done
wait $pid; rc=$?
ok $seen "bench --cgroup: nested cgroup exists and holds the bench while it runs"
[ $rc -eq 0 ] && [ ! -e "$cgmnt/$CG/nested" ] && [ ! -e "$cgmnt/$CG" ]
ok $? "bench --cgroup: exit 0 ($rc) and both directories it created are removed"
jcheck 'r["cgroup"]["path"].endswith("/nested") and r["cgroup"]["removed"] is True and r["cgroup"]["id"] > 0 and (r["cgroup"]["weight_applied"] or r["cgroup"]["note"])' "$tmp/bcg.json"
ok $? "bench --cgroup JSON: path, id, removed, weight applied or why not"
if grep -q . "$tmp/bcg.err"; then diag <"$tmp/bcg.err"; fi
"$SS" bench -m 0 >/dev/null 2>"$tmp/berr"; rc=$?
[ $rc -ne 0 ] && grep -q "invalid value" "$tmp/berr"; ok $? "bench -m 0: usage error ($rc) on stderr"

# --- pelt-count: the BPF alternative `make bench` compares ------------------
# raw_tp programs on the three bare tracepoints the module hooks; under a
# wakeup-heavy load every one of them must count calls
PC=${PELT_COUNT:-$top/build/pelt-count}
if [ -x "$PC" ]; then
	"$PC" -d 2 >"$tmp/pc.out" 2>"$tmp/pc.err" &
	pid=$!
	"$SS" bench -r 1.5 -m 1 -t 2 >/dev/null 2>&1
	wait $pid; rc=$?
	[ $rc -eq 0 ] && grep -q '^pelt-count: attached$' "$tmp/pc.out" &&
		awk '$1 ~ /_tp$/ && $2 > 0 { n++ } END { exit n == 3 ? 0 : 1 }' "$tmp/pc.out"
	ok $? "pelt-count: attaches raw_tp to pelt_cfs_tp, pelt_se_tp, sched_update_nr_running_tp and counts calls on each"
	diag <"$tmp/pc.out"; grep -q . "$tmp/pc.err" && diag <"$tmp/pc.err"
	"$PC" -d x >/dev/null 2>"$tmp/pc.err"; rc=$?
	[ $rc -eq 64 ] && grep -q "^usage: pelt-count" "$tmp/pc.err"
	ok $? "pelt-count -d x: usage error (64) on stderr"
else
	ok 1 "pelt-count binary exists ($PC)"
fi

# btfgen on the host kernel's own BTF (6.18 here): the real manifest must
# resolve, and every offset it writes must equal bpftool's reading of the
# same BTF (an independent dump, anonymous members followed).
BTFGEN=$top/build/btfgen
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	tap_skip "btfgen on the host's BTF" "no /sys/kernel/btf/vmlinux (host kernel without CONFIG_DEBUG_INFO_BTF)"
elif ! command -v bpftool >/dev/null || [ ! -x "$BTFGEN" ]; then
	ok 1 "btfgen on the host's BTF: bpftool and $BTFGEN present"
else
	"$BTFGEN" --manifest "$top/module/kstruct.fields" -o "$tmp/host_kstruct.h" 2>"$tmp/btfgen.err"; rc=$?
	[ $rc -eq 0 ] && grep -q "^#define KS_BTF_RELEASE \"$(uname -r)\"$" "$tmp/host_kstruct.h"
	ok $? "btfgen resolves module/kstruct.fields on the host's BTF ($(uname -r))"
	[ $rc -eq 0 ] || diag <"$tmp/btfgen.err"
	bpftool btf dump file /sys/kernel/btf/vmlinux format raw >"$tmp/btf.raw" 2>/dev/null
	python3 - "$tmp/host_kstruct.h" "$tmp/btf.raw" >"$tmp/btfcheck.out" 2>&1 <<'PY'
import re, sys
hdr, raw = open(sys.argv[1]).read(), open(sys.argv[2])
types, by_name, cur = {}, {}, None
for line in raw:
    m = re.match(r"\[(\d+)\] (\w+) '([^']*)'(.*)", line)
    if m:
        tid, kind, name = int(m.group(1)), m.group(2), m.group(3)
        extra = re.search(r"type_id=(\d+)", m.group(4))
        cur = types[tid] = (kind, name, [], int(extra.group(1)) if extra else 0)
        if kind == "STRUCT":
            by_name.setdefault(name, tid)
        continue
    m = re.match(r"\s+'([^']*)' type_id=(\d+) bits_offset=(\d+)", line)
    if m and cur:
        cur[2].append((m.group(1), int(m.group(2)), int(m.group(3))))
def strip(tid):
    while types[tid][0] in ("TYPEDEF", "CONST", "VOLATILE", "RESTRICT", "TYPE_TAG"):
        tid = types[tid][3]
    return tid
def member(tid, field, base=0):
    # the member's type and offset, anonymous members followed
    for name, t, off in types[tid][2]:
        if name == field:
            return strip(t), base + off
        if name == "(anon)" and types[strip(t)][0] in ("STRUCT", "UNION"):
            r = member(strip(t), field, base + off)
            if r is not None:
                return r
    return None
def find_path(tid, path):
    # a dotted path (cfs_bandwidth.hierarchical_quota) walks embedded structs
    base = 0
    for part in path.split("."):
        r = member(tid, part)
        if r is None:
            return None
        tid, off = r
        base += off
    return base
n = bad = 0
for s, f, off in re.findall(r"#define KS_(\w+?)__(\w+)_OFF (\d+)", hdr):
    name = re.search(r'#define KS_%s__%s_NAME "([\w.]+)"' % (s, f), hdr)
    real = find_path(by_name[s], name.group(1) if name else f) if s in by_name else None
    n += 1
    if real is None or real % 8 or real // 8 != int(off):
        bad += 1
        print("%s.%s: btfgen %s, bpftool %s" % (s, f, off, "missing" if real is None else real / 8))
print("%d offsets compared, %d differ" % (n, bad))
sys.exit(0 if n > 20 and bad == 0 else 1)
PY
	ok $? "btfgen's offsets on the host's BTF equal bpftool's ($(tail -n1 "$tmp/btfcheck.out"))"
	head -n 5 "$tmp/btfcheck.out" | diag
fi

# Leftovers from a failed run would confuse the next one
rmdir "$cgmnt/$CG/nested" "$cgmnt/$CG" 2>/dev/null
tap_end
