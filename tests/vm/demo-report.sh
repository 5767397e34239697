#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of `make demo`: print what the guest exported, with the CLI.
#
#   tests/vm/demo-report.sh [--cli build/sched-shadow] [--no-plot] [DEMO_DIR]
#
# DEMO_DIR (default build/demo) holds vm-out/ with, per case (root,
# nested), run-CASE.json (`sched-shadow run --json`, the bench's own JSON
# embedded with --result), demo-CASE.csv (`sched-shadow record`) and
# CASE.perfetto-trace (`run --perfetto`).  Prints each run's text report
# (`sched-shadow report`, also in DEMO_DIR/run-CASE.txt), then the side
# by side (`sched-shadow compare`, also in DEMO_DIR/report.txt), plots each
# recording to DEMO_DIR/shadow-vs-real-CASE.png and copies the traces to
# DEMO_DIR.  Exits 1 when an input is missing or a step fails, after
# doing what it could.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cli=$top/build/sched-shadow
plot=1
while [ $# -gt 0 ]; do
	case $1 in
	--cli) cli=$2; shift ;;
	--no-plot) plot=0 ;;
	-h|--help) sed -n '3,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
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
	echo "######## $c: the run's report (sched-shadow report vm-out/run-$c.json) ########"
	if "$cli" report "$vout/run-$c.json" > "$ddir/run-$c.txt"; then
		cat "$ddir/run-$c.txt"
	else
		bad=1
	fi
done

echo
if "$cli" compare "$vout/run-root.json" "$vout/run-nested.json" > "$ddir/report.txt"; then
	cat "$ddir/report.txt"
else
	bad=1
fi

if [ $plot = 1 ]; then
	for c in $cases; do
		if [ ! -f "$vout/demo-$c.csv" ]; then
			echo "demo-report: no recording $vout/demo-$c.csv"
			bad=1
			continue
		fi
		# relative input: the plot's title is the CSV's name
		(cd "$vout" && "$cli" plot "demo-$c.csv" -o "$ddir/shadow-vs-real-$c.png") || bad=1
	done
fi
for c in $cases; do
	if [ -f "$vout/$c.perfetto-trace" ]; then
		cp "$vout/$c.perfetto-trace" "$ddir/"
	else
		echo "demo-report: no Perfetto trace $vout/$c.perfetto-trace"
		bad=1
	fi
done

echo
echo "report: $ddir/report.txt (sched-shadow compare $vout/run-root.json $vout/run-nested.json)"
echo "Perfetto traces (open at https://ui.perfetto.dev): $ddir/root.perfetto-trace $ddir/nested.perfetto-trace"
echo "text reports: $ddir/run-root.txt $ddir/run-nested.txt"
[ $plot = 1 ] && echo "plots: $ddir/shadow-vs-real-root.png $ddir/shadow-vs-real-nested.png"
echo "raw: $vout/{run,bench}-{root,nested}.json, demo-{root,nested}.csv"
exit $bad
