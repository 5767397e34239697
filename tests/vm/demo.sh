# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo` (busybox sh, sourced by guest/init in demo mode).
#
# The same workload in two cases, DEMO_ROUNDS rounds (3 by default: each
# case's runs are its repeats for `compare`, the cases alternating so that
# a drift of the machine falls on both), each time under
#   sched-shadow run -j -o run-CASE-rN.json -- sched-shadow bench ...
# with `sched-shadow record` sampling the module in the background (the
# first round only, which also writes the Perfetto traces):
#   root:    the bench and a sibling load (hog threads) in the root cgroup
#   nested:  the bench in /demo/a/b (created by `run --cgroup`, cpu.weight
#            100 all the way down) and the same hogs in /demo/c with
#            cpu.weight $SIB_WEIGHT
# Only where the tasks sit changes.  Each run carries its case as --label
# and the setup as --note, and bench writes its own JSON result where run
# tells it ($SCHED_SHADOW_RESULT), so that `sched-shadow compare
# run-root.json run-nested.json` prints the whole side by side.  `run --perfetto` also writes each case as a Perfetto trace.
# The reports, the benches' own JSON, the recordings and the traces are
# exported (build/demo/vm-out/ on the host) and tests/vm/demo-report.sh
# prints the text reports (`sched-shadow report`) and the side by side
# (`sched-shadow compare`) there.
. /lib/vm/lib.sh
CLI=/bin/sched-shadow
# `make compare` puts its settings here (DEMO_ROUNDS, DEMO_DURATION, DEMO_BENCH,
# DEMO_SIB_WEIGHT)
CONF=/etc/sched_shadow-demo.conf
# shellcheck source=/dev/null # the settings `make compare` writes
[ -f $CONF ] && . $CONF
DUR=${DEMO_DURATION:-10}
ROUNDS=${DEMO_ROUNDS:-3}
# schbench-style: 2 message threads x 6 workers, each request burns 2 ms
# of CPU, a round every 10 ms: more runnable workers than the 6 vCPUs at
# every round, so the balancer has work to move.
BENCH="${DEMO_BENCH:--m 2 -t 6 -c 2000 -s 10000} -r $DUR"
SIB_THREADS=2
SIB_WEIGHT=${DEMO_SIB_WEIGHT:-300}

# run_case NAME SIBLING_CGROUP BENCH_CGROUP (created by run --cgroup) ROUND
run_case() {
	local name=$1 sib=$2 bcg=$3 r=$4 rc note rec=
	shift 4
	set -- ${bcg:+--cgroup "$bcg"}
	# the first round records the module and writes the trace
	[ "$r" = 1 ] && set -- "$@" --perfetto /tmp/$name-r$r.perfetto-trace -i 0.2
	note="bench in ${bcg:-/}, sibling load burn -t $SIB_THREADS (hogs) in ${sib:-/}${sib:+ (cpu.weight $SIB_WEIGHT)}"
	echo "== $name, round $r of $ROUNDS: sched-shadow run ${*:+$* }-j -o run-$name-r$r.json -- sched-shadow bench $BENCH"
	echo "   sibling load: burn -t $SIB_THREADS (hogs) in ${sib:-/}${sib:+ (cpu.weight $SIB_WEIGHT)}"
	if [ -n "$sib" ]; then
		cg_mk "$sib" "$SIB_WEIGHT"
		bg sibling-$name burn -t $SIB_THREADS -r 1000 -s 0 -d $((DUR + 10)) -q --cgroup "$sib"
	else
		bg sibling-$name burn -t $SIB_THREADS -r 1000 -s 0 -d $((DUR + 10)) -q
	fi
	sleep 1
	if [ "$r" = 1 ]; then
		"$CLI" record -i 0.2 -o /tmp/demo-$name-r$r.csv 2> /tmp/record-$name.err &
		rec=$!
	fi
	"$CLI" run "$@" --label "$name" --note "$note" \
		-j -o /tmp/run-$name-r$r.json -- "$CLI" bench $BENCH -j > /tmp/bench-$name-r$r.json 2> /tmp/run-$name.err
	rc=$?
	if [ -n "$rec" ]; then
		kill -TERM $rec 2>/dev/null
		wait $rec
	fi
	bg_stop
	echo "   run exit status $rc${rec:+; $(grep -c '' /tmp/demo-$name-r$r.csv 2>/dev/null) CSV lines recorded}"
	[ -s /tmp/run-$name.err ] && sed 's/^/   run: /' /tmp/run-$name.err
	[ -n "$rec" ] && grep -v '^recorded ' /tmp/record-$name.err | sed 's/^/   record: /'
	return 0
}

if ! load_module; then
	echo "demo: cannot load the module: $(cat /tmp/insmod.err)"
	exit 1
fi
if [ ! -x "$CLI" ]; then
	echo "demo: no $CLI in the guest"
	exit 1
fi
echo "sched_shadow demo: $(ncpus) CPUs, kernel $(uname -r), $(sed -n 's/^feature.lb_audit //p' $SS/info | head -n 1) lb audit"
# Each round's files carry its -rN suffix.
t0=$(cut -d. -f1 /proc/uptime)
r=1
while [ $r -le $ROUNDS ]; do
	echo "== round $r of $ROUNDS"
	run_case root "" "" $r
	sleep 2		# let the load of the first case decay a little
	run_case nested /demo/c /demo/a/b $r
	cg_rm /demo
	sleep 2
	r=$((r + 1))
done
echo "sched_shadow demo: $ROUNDS rounds in $(($(cut -d. -f1 /proc/uptime) - t0)) s"
unload_module

# Exports last, after the console pipe drained: guest/init copies this
# script's output to the same channel, and a line landing inside a payload
# would damage it.
sleep 2
r=1
while [ $r -le $ROUNDS ]; do
	for name in root nested; do
		vm_export run-$name-r$r.json /tmp/run-$name-r$r.json
		vm_export bench-$name-r$r.json /tmp/bench-$name-r$r.json
		if [ $r = 1 ]; then
			vm_export demo-$name-r$r.csv /tmp/demo-$name-r$r.csv
			vm_export $name-r$r.perfetto-trace /tmp/$name-r$r.perfetto-trace
		fi
	done
	r=$((r + 1))
done
