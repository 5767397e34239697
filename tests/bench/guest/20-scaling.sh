# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 1
# make bench, part 2: cost per call as the work grows, from the module's
# own `stats` (stats=1).  Every case queues its tasks on the last CPU ($PC,
# CPU 0 in the default 1-vCPU icount boot): N hogs that
# never sleep plus one task that runs 1 ms and sleeps 1 ms (so enqueues and
# dequeues keep happening on the crowded CPU), then resets the counters,
# waits 0.5 s (the reset's own walks), copies the counters, waits, and
# reads `stats` and the walk outcomes of `cpus` over that window.
# Cases: tasks 1/8/64/512 (root); 8 tasks at cgroup depth 1/3/6; 8 tasks
# with 1 and 1000 idle task groups; 512 tasks with walk_budget=256 (over
# budget); 1 and 512 tasks with exact=1 (the walk on every event); and
# per-call cost of the hooks with the ftrace events off and on, before
# the PELT refresh limit and in exact mode (msgbench running).
# timeout: 1500
. /lib/vm/bench/bench.lib
OUT=/tmp/scaling.csv
SECS=4
CASES=all
MSGV="ftrace0 ftrace1 refresh0 exact1"
for arg in $(cat /proc/cmdline); do
	case $arg in
	bench.scale_secs=*) SECS=${arg#*=} ;;
	bench.cases=*) CASES=$(echo "${arg#*=}" | tr , ' ') ;;
	bench.msgv=*) MSGV=$(echo "${arg#*=}" | tr , ' ') ;;
	esac
done
echo "case,tasks,depth,idle_groups,budget,nr_running_calls,nr_running_ns,pelt_cfs_ns,pelt_se_ns,switch_ns,lb_calls,lb_return_ns,walks,walk_mean,walk_max_bucket,over_budget,published" > $OUT
fail=0
PC=$(( $(grep -c ^processor /proc/cpuinfo) - 1 ))	# the CPU the cases crowd

# stat_col ROW COLUMN: over the window from /tmp/st0 (absent: from the
# reset) to /tmp/st: calls as a difference, mean as the mean of the calls
# timed in the window (sum = mean x sampled in each copy)
stat_col() {
	awk -v r="$1" -v c="$2" '
		FNR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		FNR > 2 && $1 == r { k = (FILENAME == "/tmp/st") ? 1 : 0
			calls[k] = $(h["calls"]); smp[k] = $(h["sampled"]); m[k] = $(h["mean"]) }
		END {
			if (c == "calls") { print calls[1] - calls[0]; exit }
			ds = smp[1] - smp[0]
			if (ds <= 0 || m[1] == "-") { print "-"; exit }
			printf "%d\n", ((m[1] * smp[1]) - ((m[0] == "-" ? 0 : m[0]) * smp[0])) / ds + 0.5
		}' $( [ -f /tmp/st0 ] && echo /tmp/st0 ) /tmp/st
}

# measure NAME TASKS DEPTH IDLE BUDGET: counters over SECS seconds
measure() {
	local sum
	echo 1 > $SS/reset
	# the reset's own walks (every CPU publishes at once, each walking its
	# whole queue at its first event) are not the per-event cost: the
	# window starts half a second later, from a copy of the counters
	sleep 0.5
	cat $SS/stats > /tmp/st0
	cp $SS/cpus /tmp/cpus0
	sleep $SECS
	cat $SS/stats > /tmp/st
	sum=$(awk 'FNR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		FNR > 2 { s = (FILENAME == "/tmp/cpus0") ? -1 : 1; ob += s * $(c["over_budget"]); pub += s * $(c["published"]) }
		END { print ob + 0, pub + 0 }' /tmp/cpus0 $SS/cpus)
	wmax=$(awk 'NR > 2 && $1 == "walk" { m = 0; for (i = 7; i <= NF; i++) if ($i > 0) m = i - 7; print m }' /tmp/st)
	echo "$1,$2,$3,$4,$5,$(stat_col sched_update_nr_running_tp calls),$(stat_col sched_update_nr_running_tp mean),$(stat_col pelt_cfs_tp mean),$(stat_col pelt_se_tp mean),$(stat_col sched_switch mean),$(stat_col lb_return calls),$(stat_col lb_return mean),$(stat_col walk calls),$(stat_col walk mean),$wmax,${sum% *},${sum#* }" >> $OUT
	diag "$1: tasks=$2 depth=$3 idle_groups=$4 budget=$5: nr_running $(stat_col sched_update_nr_running_tp mean) ns/call, lb_return $(stat_col lb_return mean) ns/call, walk mean $(stat_col walk mean) entities, over_budget ${sum% *}"
}

# run_case NAME TASKS DEPTH IDLE BUDGET [PARAMS]
run_case() {
	local name=$1 tasks=$2 depth=$3 idle=$4 budget=$5 extra=$6 cg='' d=0
	# bench.cases=A,B runs only those
	[ "$CASES" = all ] || case " $CASES " in *" $name "*) ;; *) return ;; esac
	bench_config none
	modload $KO "stats=1 walk_budget=$budget $extra" > /tmp/insmod.err 2>&1 || { fail=1; not_ok "scaling: load" "$(cat /tmp/insmod.err)"; return; }
	if [ "$idle" -gt 0 ]; then
		cg_mk /idle
		echo +cpu > $CG/idle/cgroup.subtree_control
		mkdir $(seq -f "$CG/idle/g%g" 1 "$idle") 2>/dev/null
	fi
	while [ $d -lt "$depth" ]; do d=$((d + 1)); cg="$cg/s$d"; done
	[ -n "$cg" ] && cg_mk "$cg"
	bg hogs burn -t "$tasks" -r 1000 -s 0 -d 0 -q -p $PC ${cg:+-c $cg}
	bg waker burn -t 1 -r 1 -s 1 -d 0 -q -p $PC ${cg:+-c $cg}
	# the hogs start one by one on the crowded CPU: wait until all are queued
	w=0
	while [ $w -lt 120 ]; do
		q=$(awk -v c=$PC 'NR > 2 && $1 == c { print $4 }' $SS/cpus)
		ob=$(awk -v c=$PC 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == c { print $(h["over_budget"]) }' $SS/cpus)
		[ "${q:-0}" != - ] && [ "${q:-0}" -ge "$tasks" ] && break
		[ "${ob:-0}" -gt 0 ] && break	# over budget: no longer published
		sleep 1
		w=$((w + 1))
	done
	diag "$name: CPU $PC h_nr_running $q after ${w}s"
	sleep 1
	measure "$name" "$tasks" "$depth" "$idle" "$budget"
	QMAX=$(awk -v c=$PC 'NR > 2 && $1 == c { print $4 }' $SS/cpus)
	diag "$name: CPU $PC h_nr_running $QMAX at the end"
	bg_stop
	sleep 0.5
	[ -n "$cg" ] && cg_rm /s1
	[ "$idle" -gt 0 ] && cg_rm /idle
}

run_case tasks-1 1 0 0 1024
run_case tasks-8 8 0 0 1024
run_case tasks-64 64 0 0 1024
run_case tasks-512 512 0 0 1024
run_case depth-1 8 1 0 1024
run_case depth-3 8 3 0 1024
run_case depth-6 8 6 0 1024
run_case idle-1 8 0 1 1024
run_case idle-1000 8 0 1000 1024
run_case budget-256 512 0 0 256
# the walk on every event (exact=1)
run_case exact-tasks-1 1 0 0 1024 exact=1
run_case exact-tasks-512 512 0 0 1024 exact=1

# per-call cost under one msgbench run: the module as shipped (ftrace0),
# with the sched_tp-style ftrace recording on (ftrace1), the module
# before the PELT refresh limit (pelt_refresh_us=0, refresh0) and with
# the walk on every event (exact=1, exact1)
for v in $MSGV; do
	bench_config none
	p="stats=1"
	[ $v = refresh0 ] && p="stats=1 pelt_refresh_us=0 exact=1"
	[ $v = exact1 ] && p="stats=1 exact=1"
	modload $KO "$p" > /tmp/insmod.err 2>&1 || { fail=1; continue; }
	if [ $v = ftrace1 ]; then
		echo 1 > $TR/events/sched_shadow/sched_load_cfs_rq/enable
		echo 1 > $TR/events/sched_shadow/sched_load_se/enable
		echo 1 > $TR/tracing_on
	fi
	echo 1 > $SS/reset
	rm -f /tmp/st0	# the whole msgbench run, from the reset
	msgbench -q $BENCH_MSG > /tmp/msg.$v
	cat $SS/stats > /tmp/st
	# the run's own length: under icount its guest seconds are 1e9 instructions each
	echo "# msgbench $(cat /tmp/msg.$v)" >> /tmp/st
	cp /tmp/st /tmp/stats.$v
	echo "msg-$v,-,-,-,4096,$(stat_col sched_update_nr_running_tp calls),$(stat_col sched_update_nr_running_tp mean),$(stat_col pelt_cfs_tp mean),$(stat_col pelt_se_tp mean),$(stat_col sched_switch mean),$(stat_col lb_return calls),$(stat_col lb_return mean),$(stat_col walk calls),$(stat_col walk mean),-,-,-" >> $OUT
	diag "msgbench, $v ($p):"
	diag < /tmp/st
	ftrace_off
done
bench_config none
check $fail "scaling: every case measured"
vm_export scaling.csv $OUT
for v in $MSGV; do vm_export stats-$v.txt /tmp/stats.$v; done
