#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of `make demo`: print what the guest exported, with the CLI.
#
#   tests/vm/demo-report.sh [--cli build/sched-shadow] [--no-plot] [--docs] [DEMO_DIR]
#
# DEMO_DIR (default build/demo) holds vm-out/ with, per case (root,
# nested) and round N, run-CASE-rN.json (`sched-shadow run --json`, the
# bench's own JSON embedded), and for round 1 demo-CASE-r1.csv (`sched-shadow
# record`) and CASE-r1.perfetto-trace (`run --perfetto`).  Prints each
# case's first run as a text report (`sched-shadow report`, also in
# DEMO_DIR/run-CASE.txt), then the side by side of all rounds (`sched-shadow
# compare ROOT... -- NESTED...`, also in DEMO_DIR/report.txt), plots each
# recording to DEMO_DIR/shadow-vs-real-CASE.png and copies the traces to
# DEMO_DIR.  --docs (make demo DEMO_DOCS=1): the runs become docs/examples/
# demo-CASE.json (one document per line, as run --repeat writes them) and
# the blocks and numbers of docs/ generated from them are rewritten
# (tests/docs/console.py check-gen --update).  Exits 1 when an input is
# missing or a step fails, after doing what it could.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cli=$top/build/sched-shadow
plot=1
docs=0
while [ $# -gt 0 ]; do
	case $1 in
	--cli) cli=$2; shift ;;
	--no-plot) plot=0 ;;
	--docs) docs=1 ;;
	-h|--help) sed -n '3,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) break ;;
	esac
	shift
done
ddir=$(realpath -m "${1:-$top/build/demo}")
case $cli in */*) cli=$(realpath -m "$cli") ;; esac
vout=$ddir/vm-out
cases="root nested"
bad=0

for c in $cases; do
	rm -f "$ddir/run-$c.txt" "$ddir/shadow-vs-real-$c.png" "$ddir/$c.perfetto-trace"
done
rm -f "$ddir/report.txt"

for c in $cases; do
	echo
	echo "######## $c: the first run's report (sched-shadow report vm-out/run-$c-r1.json) ########"
	if "$cli" report "$vout/run-$c-r1.json" > "$ddir/run-$c.txt"; then
		cat "$ddir/run-$c.txt"
	else
		bad=1
	fi
done

# what explains the wasted time, per case (its first run), and its target: >= 90 % explained,
# no_attempt/unknown + none/no_work <= 10 % ("not met" with the numbers)
echo
for c in $cases; do
	line=$(grep -m1 '^wasted-core time explained: ' "$ddir/run-$c.txt" 2>/dev/null)
	[ -n "$line" ] || { echo "$c: no explained line in its report"; continue; }
	echo "$c: $line"
	echo "$line" | awk -v c="$c" '{ gsub(/[(),;%]/, " "); for (i = 1; i <= NF; i++) v[$i] = $(i + 1)
		x = $4; f = v["unknown"] + v["work"]
		printf "%s: wasted-core time explained target (>= 90%%, unknown + no work <= 10%%): %s\n", c,
			(x >= 90 && f <= 10) ? "met" : sprintf("not met (%s%%, %s%%)", x, f) }'
done

# every round: a case's runs are its repeats
mapfile -t roots < <(ls "$vout"/run-root-r*.json 2>/dev/null | sort -V)
mapfile -t nesteds < <(ls "$vout"/run-nested-r*.json 2>/dev/null | sort -V)
echo
if [ ${#roots[@]} -gt 0 ] && [ ${#nesteds[@]} -gt 0 ] &&
   "$cli" compare "${roots[@]}" -- "${nesteds[@]}" > "$ddir/report.txt"; then
	cat "$ddir/report.txt"
else
	echo "demo-report: no complete pair of runs in $vout"
	bad=1
fi

if [ $plot = 1 ]; then
	for c in $cases; do
		if [ ! -f "$vout/demo-$c-r1.csv" ]; then
			echo "demo-report: no recording $vout/demo-$c-r1.csv"
			bad=1
			continue
		fi
		# relative input: the plot's title is the CSV's name
		(cd "$vout" && "$cli" plot "demo-$c-r1.csv" -o "$ddir/shadow-vs-real-$c.png") || bad=1
	done
fi
for c in $cases; do
	if [ -f "$vout/$c-r1.perfetto-trace" ]; then
		cp "$vout/$c-r1.perfetto-trace" "$ddir/$c.perfetto-trace"
	else
		echo "demo-report: no Perfetto trace $vout/$c-r1.perfetto-trace"
		bad=1
	fi
done

# make demo DEMO_DOCS=1: these runs become the docs' example reports
if [ $docs = 1 ] && [ $bad = 0 ]; then
	cat "${roots[@]}" > "$top/docs/examples/demo-root.json"
	cat "${nesteds[@]}" > "$top/docs/examples/demo-nested.json"
	if python3 "$top/tests/docs/console.py" check-gen --update; then
		echo "docs: docs/examples/demo-{root,nested}.json are these runs; the blocks and numbers made from them rewritten"
	else
		echo "docs: docs/examples/demo-{root,nested}.json are these runs; rewriting the blocks made from them failed"
		bad=1
	fi
elif [ $bad = 0 ]; then
	# which words of the docs' example side by side this run does not have (rows come and go)
	if python3 "$top/tests/docs/console.py" match demo-compare "$ddir/report.txt" > "$ddir/docs.diff"; then
		echo "docs: docs/demo.md's side by side has the words of this run's"
	else
		echo "docs: docs/demo.md's side by side (docs/examples/) differs in words from this run's: $(cat "$ddir/docs.diff"); make demo DEMO_DOCS=1 takes this run"
	fi
fi

echo
echo "report: $ddir/report.txt (sched-shadow compare vm-out/run-root-r*.json -- vm-out/run-nested-r*.json)"
echo "Perfetto traces (open at https://ui.perfetto.dev): $ddir/root.perfetto-trace $ddir/nested.perfetto-trace"
echo "text reports: $ddir/run-root.txt $ddir/run-nested.txt"
[ $plot = 1 ] && echo "plots: $ddir/shadow-vs-real-root.png $ddir/shadow-vs-real-nested.png"
echo "raw: $vout/{run,bench}-{root,nested}-rN.json, demo-{root,nested}-r1.csv"
exit $bad
