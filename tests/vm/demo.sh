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
# DEMO_SIB_WEIGHT, DEMO_SIB_THREADS, DEMO_SETTINGS)
CONF=/etc/sched_shadow-demo.conf
# shellcheck source=/dev/null # the settings `make compare` writes
[ -f $CONF ] && . $CONF
DUR=${DEMO_DURATION:-10}
ROUNDS=${DEMO_ROUNDS:-3}
# schbench-style: 2 message threads x 6 workers, each request burns 2 ms
# of CPU, a round every 10 ms: more runnable workers than the 6 vCPUs at
# every round, so the balancer has work to move.
BENCH="${DEMO_BENCH:--m 2 -t 6 -c 2000 -s 10000} -r $DUR"
# DEMO_SIB_THREADS=0: the bench alone, root vs nested, no sibling load
SIB_THREADS=${DEMO_SIB_THREADS:-2}
SIB_WEIGHT=${DEMO_SIB_WEIGHT:-300}
# DEMO_SETTINGS: the kernel's switches to run the rounds under, one after the
# other, each "default" or NAME=VALUE[,NAME=VALUE] (cgroup_mode=smp,
# cgroup_mode=concur,llc_balancing=0): written to /sys/kernel/debug/sched
# before the setting's first case starts (so the sibling load and the bench
# start under it), the kernel's own values written back after its last.
# A setting naming a switch this kernel lacks is left out (said so);
# "default" (no switch written) runs only where no other setting runs.
# The run reports record the switches as read at each run's start and end.
# Each setting's files carry its tag (run-CASE-smp-rN.json,
# run-CASE-concur-llc0-rN.json, run-CASE-default-rN.json) and only the run
# reports are exported (no recording, no trace).
SETTINGS=${DEMO_SETTINGS:-}
KSD=/sys/kernel/debug/sched
TAG=

# run_case NAME SIBLING_CGROUP BENCH_CGROUP (created by run --cgroup) ROUND
# (files NAME-rROUND, NAME-TAG-rROUND under a setting of the switches)
run_case() {
	local name=$1 sib=$2 bcg=$3 r=$4 rc note rec='' f
	shift 4
	f=$name${TAG:+-$(setting_tag "$TAG")}-r$r
	set -- ${bcg:+--cgroup "$bcg"}
	# the first round records the module and writes the trace (not under
	# a setting: only the run reports are kept there)
	[ "$r" = 1 ] && [ -z "$SETTINGS" ] && set -- "$@" --perfetto /tmp/$f.perfetto-trace -i 0.2
	note="bench in ${bcg:-/}, sibling load burn -t $SIB_THREADS (hogs) in ${sib:-/}${sib:+ (cpu.weight $SIB_WEIGHT)}"
	[ "$SIB_THREADS" = 0 ] && note="bench in ${bcg:-/}, no sibling load"
	echo "== $name, round $r of $ROUNDS${TAG:+ ($TAG)}: sched-shadow run ${*:+$* }-j -o run-$f.json -- sched-shadow bench $BENCH"
	[ "$SIB_THREADS" = 0 ] && echo "   no sibling load"
	[ "$SIB_THREADS" = 0 ] ||
		echo "   sibling load: burn -t $SIB_THREADS (hogs) in ${sib:-/}${sib:+ (cpu.weight $SIB_WEIGHT)}"
	if [ "$SIB_THREADS" = 0 ]; then
		:
	elif [ -n "$sib" ]; then
		cg_mk "$sib" "$SIB_WEIGHT"
		bg sibling-$name burn -t $SIB_THREADS -r 1000 -s 0 -d $((DUR + 10)) -q --cgroup "$sib"
	else
		bg sibling-$name burn -t $SIB_THREADS -r 1000 -s 0 -d $((DUR + 10)) -q
	fi
	sleep 1
	if [ "$r" = 1 ] && [ -z "$SETTINGS" ]; then
		"$CLI" record -i 0.2 -o /tmp/demo-$f.csv 2> /tmp/record-$name.err &
		rec=$!
	fi
	"$CLI" run "$@" --label "$name" --note "$note${TAG:+, kernel switches $TAG}" \
		-j -o /tmp/run-$f.json -- "$CLI" bench $BENCH -j > /tmp/bench-$f.json 2> /tmp/run-$name.err
	rc=$?
	if [ -n "$rec" ]; then
		kill -TERM $rec 2>/dev/null
		wait $rec
	fi
	bg_stop
	echo "   run exit status $rc${rec:+; $(grep -c '' /tmp/demo-$f.csv 2>/dev/null) CSV lines recorded}"
	[ -s /tmp/run-$name.err ] && sed 's/^/   run: /' /tmp/run-$name.err
	[ -n "$rec" ] && grep -v '^recorded ' /tmp/record-$name.err | sed 's/^/   record: /'
	return 0
}

# setting_tag SETTING: its file tag (cgroup_mode=smp -> smp,
# cgroup_mode=concur,llc_balancing=0 -> concur-llc0)
setting_tag() {
	echo "$1" | sed 's/cgroup_mode=//g; s/llc_balancing=/llc/g; s/,/-/g'
}

# setting_file NAME: the file that sets switch NAME ("" when this kernel has none)
setting_file() {
	case $1 in
	cgroup_mode) [ -e $KSD/cgroup_mode ] && echo $KSD/cgroup_mode ;;
	llc_balancing) [ -e $KSD/llc_balancing/enabled ] && echo $KSD/llc_balancing/enabled ;;
	esac
}

# setting_applies SETTING: 0 when this kernel has every switch it names
setting_applies() {
	local kv
	[ "$1" = default ] && return 0
	for kv in $(echo "$1" | tr , ' '); do
		[ -n "$(setting_file "${kv%%=*}")" ] || return 1
	done
	return 0
}

# setting_apply SETTING: write it (and check it reads back); 1 on failure
setting_apply() {
	local kv f v got
	[ "$1" = default ] && return 0
	for kv in $(echo "$1" | tr , ' '); do
		f=$(setting_file "${kv%%=*}") v=${kv#*=}
		echo "$v" > "$f" || return 1
		got=$(sed 's/.*(\([a-z]*\)).*/\1/' "$f")
		[ "$got" = "$v" ] || { echo "   $f reads '$(cat "$f")' after writing $v"; return 1; }
	done
	return 0
}

# rounds: ROUNDS rounds of both cases, under the setting TAG when set
rounds() {
	local r=1
	while [ $r -le $ROUNDS ]; do
		echo "== round $r of $ROUNDS${TAG:+ ($TAG)}"
		run_case root "" "" $r
		sleep 2		# let the load of the first case decay a little
		run_case nested /demo/c /demo/a/b $r
		cg_rm /demo
		sleep 2
		r=$((r + 1))
	done
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
TAGS=
if [ -z "$SETTINGS" ]; then
	rounds
else
	mode0=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' $KSD/cgroup_mode 2>/dev/null)
	llc0=$(cat $KSD/llc_balancing/enabled 2>/dev/null)
	echo "   the kernel's switches: cgroup_mode ${mode0:-absent}, llc_balancing ${llc0:-absent}"
	others=0
	for s in $SETTINGS; do
		[ "$s" != default ] && setting_applies "$s" && others=1
	done
	for s in $SETTINGS; do
		if ! setting_applies "$s" || { [ "$s" = default ] && [ $others = 1 ]; }; then
			echo "== setting $s: left out (this kernel has not every switch it names, or runs other settings)"
			continue
		fi
		echo "== setting $s"
		if ! setting_apply "$s"; then
			echo "   setting $s: could not be written"
			continue
		fi
		TAG=$s
		rounds
		TAG=
		TAGS="$TAGS $(setting_tag "$s")"
		[ -z "$mode0" ] || echo "$mode0" > $KSD/cgroup_mode
		[ -z "$llc0" ] || echo "$llc0" > $KSD/llc_balancing/enabled
	done
fi
echo "sched_shadow demo: $ROUNDS rounds${TAGS:+ under each of$TAGS} in $(($(cut -d. -f1 /proc/uptime) - t0)) s"
unload_module

# Exports last, after the console pipe drained: guest/init copies this
# script's output to the same channel, and a line landing inside a payload
# would damage it.
sleep 2
if [ -n "$SETTINGS" ]; then
	for t in $TAGS; do
		r=1
		while [ $r -le $ROUNDS ]; do
			for name in root nested; do
				vm_export run-$name-$t-r$r.json /tmp/run-$name-$t-r$r.json
			done
			r=$((r + 1))
		done
	done
	exit 0
fi
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
