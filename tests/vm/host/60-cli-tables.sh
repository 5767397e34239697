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
