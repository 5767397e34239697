#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-docs: the docs against the code, on the host (TAP, one suite of
# make test).  Docs that cannot drift:
#  - every fenced block of README.md and docs/*.md says what it is, and
#    every console block names its target and is registered
#    (tests/docs/console.py lint, tests/docs/console.list);
#  - the blocks made from the CLI's output (`gen`: the demo's example
#    reports in docs/examples/, the record header) equal it, byte for
#    byte, and so do the numbers in the prose around them;
#  - a cut or pasted sentence: every paragraph ends a sentence, its
#    backticks and brackets pair up, no sentence twice (tests/docs/prose.py);
#  - README.md at most 300 lines, its cost line linking docs/performance.md;
#  - the JSON schemas of `run` and `compare` in docs/cli-run.md against real
#    documents (the examples, and a run and a compare of now on the unit
#    fixture) (tests/docs/schema.py);
#  - the section lists of the text report and of compare against the text
#    the CLI prints, the demo's and a fixture's (tests/docs/sections.py);
#  - every option docs/cli.md and docs/cli-run.md name is the CLI's, and
#    every option of the CLI is named there (tests/docs/options.py);
#  - every target `make help` lists is a target, and docs/testing.md's
#    list of make test's suites is the one tests/minimums gives.
# The console blocks the VM produces are checked after the VM boots
# (tests/vm/host/64-quickstart.sh, 99-docs-console.sh); the README's quick
# start's install steps by tests/install.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
cd "$top" || exit 1
CLI=${SCHED_SHADOW:-$top/build/sched-shadow}
export CLI
tmp=$(mktemp -d /tmp/sched-shadow-docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
docs=(README.md CONTRIBUTING.md docs/*.md)
ex=(docs/examples/demo-root.json docs/examples/demo-nested.json)

tap_begin docs

python3 tests/docs/console.py lint > "$tmp/lint" 2>&1
ok $? "every block of README.md and docs/*.md has a kind; every console block names its target, registered in tests/docs/console.list ($(python3 tests/docs/console.py list | wc -l) console blocks)"
head -n 10 "$tmp/lint" | diag

[ -x "$CLI" ]; ok $? "the CLI is built ($CLI)"
for f in "${ex[@]}"; do
	[ -s "$f" ]; ok $? "$f: the demo's example reports (make demo DEMO_DOCS=1)"
done
for id in $(awk -F'\t' '!/^#/ && $3 ~ /^gen / { print $1 }' tests/docs/console.list); do
	python3 tests/docs/console.py check-gen "$id" > "$tmp/gen" 2>&1
	ok $? "console block $id: the CLI's output now, byte for byte"
	head -n 14 "$tmp/gen" | diag
done
python3 tests/docs/console.py check-gen --numbers-only > "$tmp/num" 2>&1
ok $? "the numbers in the prose around those blocks are the reports' ($(grep -o '<!-- n:' "${docs[@]}" | wc -l) of them)"
head -n 10 "$tmp/num" | diag

python3 tests/docs/prose.py "${docs[@]}" > "$tmp/prose" 2>&1
ok $? "prose: every paragraph ends a sentence, pairs its backticks and brackets, no sentence twice (${#docs[@]} files)"
head -n 10 "$tmp/prose" | diag
n=$(wc -l < README.md)
[ "$n" -le 300 ]; ok $? "README.md has at most 300 lines ($n)"
grep -q '^\*\*What loading it costs\*\*.*' README.md && grep -q '(docs/performance.md)' README.md
ok $? "README.md says what loading the module costs, with a link to docs/performance.md"

# the JSON schemas, against real documents: the examples, and now's on the unit fixture
# (and a run of the bug corpus on 5.10 whose schedstat rows break
# lb_hot_gained <= lb_gained: the only source of schedstat.inconsistent)
# (the module's files in $tmp/dbg/sched_shadow, a 7.3-like sched/ beside them for --set)
mkdir -p "$tmp/dbg/sched/llc_balancing" "$tmp/state"
cp -r tests/unit/fixtures/cli/good "$tmp/dbg/sched_shadow"
echo "up smp (concur) max tasks " > "$tmp/dbg/sched/cgroup_mode"
echo 1 > "$tmp/dbg/sched/llc_balancing/enabled"
export SCHED_SHADOW_STATE_DIR=$tmp/state
"$CLI" --debugfs "$tmp/dbg/sched_shadow" run --no-bpf --label fx --note n -j -o "$tmp/fx.json" -- true > /dev/null 2>&1
"$CLI" --debugfs "$tmp/dbg/sched_shadow" run --no-bpf --repeat 2 --set llc_balancing=0 -j -o "$tmp/fx2.json" -- true > /dev/null 2>&1
"$CLI" -j compare "${ex[@]}" > "$tmp/cmp-ex.json" 2>/dev/null
"$CLI" -j compare "$tmp/fx.json" "$tmp/fx.json" > "$tmp/cmp-fx.json" 2>/dev/null
python3 tests/docs/schema.py run "${ex[@]}" docs/examples/bug-lb-hot-gained-5.10.json "$tmp/fx.json" "$tmp/fx2.json" > "$tmp/schema" 2>&1
ok $? "docs/cli-run.md's run schema: every member of real run documents there, each there in one ($(tail -n 1 "$tmp/schema"))"
grep -v '^run: [0-9]* members' "$tmp/schema" | head -n 10 | diag
python3 tests/docs/schema.py compare "$tmp/cmp-ex.json" "$tmp/cmp-fx.json" > "$tmp/schema" 2>&1
ok $? "docs/cli-run.md's compare schema, likewise ($(tail -n 1 "$tmp/schema"))"
grep -v '^compare: [0-9]* members' "$tmp/schema" | head -n 10 | diag

# the section lists: the demo's reports (every source, a bench's result) and
# the fixture's (no BPF, no result: the `only when` items left out; --set)
"$CLI" report "${ex[1]}" > "$tmp/report.txt" 2>&1
python3 tests/docs/sections.py report "$tmp/report.txt" > "$tmp/sec" 2>&1
ok $? "docs/cli-run.md's section list of the text report is the demo's reports' ($(head -n 1 "$tmp/sec"))"
"$CLI" report "$tmp/fx2.json" > "$tmp/report.txt" 2>&1
python3 tests/docs/sections.py report "$tmp/report.txt" > "$tmp/sec" 2>&1
ok $? "docs/cli-run.md's section list of the text report is the fixture's run --repeat 2 --set reports' ($(head -n 1 "$tmp/sec"))"
"$CLI" compare "${ex[@]}" > "$tmp/compare.txt" 2>&1
python3 tests/docs/sections.py compare "$tmp/compare.txt" > "$tmp/sec" 2>&1
ok $? "docs/cli-run.md's group list of compare is the demo's compare's ($(head -n 1 "$tmp/sec"))"
"$CLI" compare "$tmp/fx.json" "$tmp/fx2.json" > "$tmp/compare.txt" 2>&1
python3 tests/docs/sections.py compare "$tmp/compare.txt" > "$tmp/sec" 2>&1
ok $? "docs/cli-run.md's group list of compare is the fixture runs' compare's ($(head -n 1 "$tmp/sec"))"

python3 tests/docs/options.py "$CLI" docs/cli.md docs/cli-run.md > "$tmp/opt" 2>&1
ok $? "the options docs/cli.md and docs/cli-run.md name are the CLI's, and all of them ($(tail -n 1 "$tmp/opt"))"
head -n 10 "$tmp/opt" | diag

targets=$(make -pRrq -f Makefile : 2>/dev/null | awk -F: '/^[a-zA-Z][a-zA-Z0-9_-]*:/ { print $1 }' | sort -u)
missing=
for t in $(make --no-print-directory help | cut -c 1-21 | awk '$1 == "make" && NF == 2 { print $2 }'); do
	echo "$targets" | grep -qx -- "$t" || missing="$missing $t"
done
[ -z "$missing" ] && [ "$(make --no-print-directory help | grep -c '^make ')" -ge 15 ]
ok $? "every target make help lists is a target of the Makefile${missing:+: not:$missing}"

tap_end
