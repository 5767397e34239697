#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side checks for VM scenario 60 (tests/vm/scenarios/60-cli-tables.sh):
# the JSON the guest's sched-shadow printed parses with python3 and follows
# the sched_shadow/v1 schema (docs/cli.md); `plot` turns the recorded CSV
# into a non-empty PNG.  TAP output; exit non-zero on failure.
#
#   tests/vm/host/60-cli-tables.sh [VM_OUT_DIR] [SCHED_SHADOW_BIN]
#   defaults: build/vm-out and build/sched-shadow; TAP_SUMMARY=file as tap.sh
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$top/build/vm-out}
cli=${2:-$top/build/sched-shadow}
. "$top/tests/lib/tap.sh"
tap_begin vm-host-cli-tables

for name in status cpus groups lb; do
	f=$out/cli-$name.json
	if [ ! -s "$f" ]; then
		ok 1 "$name --json exported by the guest ($f missing)"
		continue
	fi
	python3 -m json.tool "$f" > /dev/null 2>&1
	ok $? "$name --json parses (python3 -m json.tool)"
	python3 - "$f" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); cmd = sys.argv[2]
assert d["schema"] == "sched_shadow/v1", d.get("schema")
assert d["command"] == cmd
if cmd == "status":
    assert d["module_loaded"] is True
    assert isinstance(d["kernel"], str) and d["kernel"]
    c = d["counters"]
    assert c["cpus"] >= 1 and c["published"] > 0, c
    assert isinstance(d["lb"]["available"], bool)
elif cmd == "cpus":
    rows = d["cpus"]
    assert rows and [r["cpu"] for r in rows] == list(range(len(rows)))
    for r in rows:
        for k in ("load_avg", "shadow", "shadow_avg", "nr_running"):
            assert r[k] is None or isinstance(r[k], int), (k, r[k])
        assert isinstance(r["published"], int)
    assert any(r["online"] == 1 and r["load_avg"] is not None for r in rows)
elif cmd == "groups":
    rows = d["groups"]
    assert any(r["depth"] == 0 and r["path"] == "/" for r in rows), "no root rows"
elif cmd == "lb":
    if d["available"]:
        for r in d["lb"]:
            if r["idle"] != "busy":
                assert r["calls"] == r["right"] + r["wrong"] + r["missed"] + r["none"] + r.get("void", 0), r
    else:
        assert d["reason"]
PY
	ok $? "$name --json follows the sched_shadow/v1 schema"
done

# The CLI's renderings of one debugfs snapshot against the snapshot itself:
# every row and every value of cpus, groups and lb, in text (the table's
# header names the columns), --json and --prom.
snap=$out/cli-snap.tar
if [ ! -s "$snap" ]; then
	ok 1 "snapshot renderings exported by the guest ($snap missing)"
else
	sd=$(mktemp -d) sdone=0
	tar -C "$sd" -xf "$snap"
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "snapshot: ${line#ok - }" ;;
		"not ok - "*) ok 1 "snapshot: ${line#not ok - }" ;;
		"checks done") sdone=1 ;;
		*) echo "$line" ;;
		esac
	done < <(python3 - "$sd" <<'PY'
import json, re, sys
d = sys.argv[1]

def table(path):
    """a debugfs table: (header, rows as dicts)"""
    lines = [l.rstrip("\n") for l in open(path)]
    hdr = lines[1].split()
    return hdr, [dict(zip(hdr, l.split())) for l in lines[2:] if l.strip()]

def unesc(p):
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), p)

def text_rows(path, hdr, joined):
    """the CLI's text tables: a line of column names (each one of the
    file's) names the columns of the lines after it with that many fields
    (the units line and the titles have fewer); cpus is printed as several
    tables, each starting with cpu (joined: their rows are joined by it)"""
    rows, names, cur, n = {}, [], None, 0
    for l in open(path):
        if l.startswith("#") or not l.strip():
            continue
        t = l.split()
        if t[0] == hdr[0] and all(c in hdr for c in t):
            cur = t
            names += [c for c in t if c not in names]
            n = 0
            continue
        if cur is not None and len(t) == len(cur):
            rows.setdefault(t[0] if joined else n, {}).update(zip(cur, t))
            n += 1
    return names, list(rows.values())

def key(tbl, r):
    return {"cpus": lambda r: r["cpu"], "groups": lambda r: (r["cpu"], r["cgid"]),
            "lb": lambda r: (r["domain"], r["idle"], r["tracker"])}[tbl](r)

def diff(k, g, w):
    if g is None:
        return "%s: missing" % (k,)
    return "%s: %s" % (k, ", ".join("%s %s != %s" % (c, g.get(c), w.get(c))
                                     for c in w if g.get(c) != w.get(c)))

def report(good, name, bad):
    print(("ok" if good else "not ok") + " - " + name)
    for b in bad[:3]:
        print("# " + b)

for tbl in ("cpus", "groups", "lb"):
    hdr, rows = table("%s/debugfs/%s" % (d, tbl))
    want = {key(tbl, r): r for r in rows}
    # text
    bad = []
    names, trows = text_rows("%s/out/%s.txt" % (d, tbl), hdr, tbl == "cpus")
    if names != hdr:
        bad.append("columns %s" % names)
    got = {key(tbl, r): r for r in trows} if names == hdr else {}
    for k, r in want.items():
        if got.get(k) != r:
            bad.append(diff(k, got.get(k), r))
    bad += ["extra row %s" % (k,) for k in got if k not in want]
    report(not bad and want, "%s text: the %d rows of the snapshot, every column as read" % (tbl, len(want)), bad)
    # json
    bad = []
    j = json.load(open("%s/out/%s.json" % (d, tbl)))
    jr = j.get("lb" if tbl == "lb" else tbl) or []
    got = {}
    for r in jr:
        rr = {c: ("-" if r.get(c) is None else str(r.get(c))) for c in hdr}
        if tbl == "groups":
            rr["path"] = r.get("path")
        got[key(tbl, rr)] = rr
    for k, r in want.items():
        w = dict(r)
        if tbl == "groups":
            w["path"] = unesc(w["path"])
        if got.get(k) != w:
            bad.append(diff(k, got.get(k), w))
    bad += ["extra row %s" % (k,) for k in got if k not in want]
    report(not bad and want, "%s --json: the %d rows of the snapshot, every value" % (tbl, len(want)), bad)
    # prom: every numeric value of cpus and groups (lb: its per-verdict counters)
    if tbl == "lb":
        continue
    prom = {}
    for l in open("%s/out/%s.prom" % (d, tbl)):
        m = re.match(r"^(sched_shadow_[a-z_]+)\{(.*)\} (\S+)$", l.strip())
        if m:
            lab = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2)))
            prom[(m.group(1), lab.get("cpu"), lab.get("cgid"))] = float(m.group(3))
    bad, n = [], 0
    pre = "sched_shadow_cpu_" if tbl == "cpus" else "sched_shadow_group_"
    for k, r in want.items():
        for c in hdr:
            if c in ("cpu", "cgid", "path") or not re.match(r"^[0-9]+$", r[c]):
                continue
            pk = (pre + c, r["cpu"], r.get("cgid"))
            if pk in prom:
                n += 1
                if prom[pk] != float(r[c]):
                    bad.append("%s%s: %g != %s" % (pre, c, prom[pk], r[c]))
    report(not bad and n, "%s --prom: %d metric values equal the snapshot's" % (tbl, n), bad)
print("checks done")
PY
)
	rm -rf "$sd"
	ok $((1 - sdone)) "snapshot: the comparison ran to the end"
fi

csv=$out/cli-rec.csv
if [ ! -s "$csv" ]; then
	ok 1 "record CSV exported by the guest ($csv missing)"
else
	ncpu=$(awk -F, 'NR > 1 { c[$2] = 1 } END { print length(c) }' "$csv")
	[ "$ncpu" -ge 1 ] && [ $(($(wc -l < "$csv") - 1)) -eq $((ncpu * 5)) ]
	ok $? "record CSV: 5 samples x $ncpu CPUs"
	if [ ! -x "$cli" ]; then
		ok 1 "plot CSV to PNG: no CLI binary $cli (make tools)"
	elif ! command -v gnuplot > /dev/null; then
		tap_skip "plot CSV to PNG" "gnuplot not installed (apt-get install gnuplot-nox)"
	else
		png=$out/cli-rec.png
		rm -f "$png"
		"$cli" plot "$csv" -o "$png" 2>&1 | sed 's/^/# /'
		[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
		ok $? "plot CSV to a non-empty PNG ($png)"
	fi
fi
tap_end
