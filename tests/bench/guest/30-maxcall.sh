# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 1
# make bench, part 3: the longest single hook call under the rq lock, from
# the module's own `stats` with every call timed (stats=2; under icount one
# guest ns is one guest instruction).  Each case starts its workload on the
# crowded CPU first, then loads the module (the load's own walks count),
# runs, writes `reset`, `enable 0`, `enable 1` (their walks count too) and
# reads the `max` column of every hook.  Cases:
#   cg500      500 cgroups, one hog in each: 1,000 queued entities
#   tasks1000  1,000 hogs in one cgroup (more tasks than walk_budget)
#   deep8      200 hogs in the deepest of 500 cgroups 8 levels deep
#   tasks8     8 hogs: a walk that fits one step
# timeout: 1800
. /lib/vm/bench/bench.lib
OUT=/tmp/maxcall.csv
SECS=4
echo "case,groups,depth,tasks,hook,calls,mean,max,walks,walk_max,steps,published,over_budget,deferred,void" > $OUT
fail=0
PC=$(( $(grep -c ^processor /proc/cpuinfo) - 1 ))

# col ROW COLUMN of $SS/stats
scol() { awk -v r="$1" -v c="$2" 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == r { print $(h[c]) }' /tmp/mc.stats; }
# sum of a cpus column over the crowded CPU, and its void
ccol() { awk -v p=$PC -v c="$1" 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == p { print $(h[c]) }' /tmp/mc.cpus; }

# mcase NAME GROUPS DEPTH TASKS
mcase() {
	local name=$1 g=$2 d=$3 t=$4 pid w h alive
	bench_config none
	: > /tmp/mc.cgtree
	cgtree -R mc -g "$g" -d "$d" -t "$t" -r 1000 -s 0 -c $PC >> /tmp/mc.cgtree 2>&1 &
	pid=$!
	w=0
	while ! grep -q '^cgtree: ready' /tmp/mc.cgtree && kill -0 $pid 2>/dev/null; do
		sleep 1
		w=$((w + 1))
		[ $w -ge 600 ] && break
	done
	if ! grep -q '^cgtree: ready' /tmp/mc.cgtree; then
		fail=1
		kill -0 $pid 2>/dev/null && alive=running || alive=exited
		diag "$name: cgtree not ready after ${w}s ($alive): $(tail -n 3 /tmp/mc.cgtree); $(grep -c . /proc/[0-9]*/comm 2>/dev/null | wc -l) processes"
		kill -TERM $pid 2>/dev/null; wait $pid
		return
	fi
	diag "$name: $(cat /tmp/mc.cgtree), started in ${w}s"
	sleep 2
	modload $KO stats=2 > /tmp/insmod.err 2>&1 || { fail=1; diag "$name: load: $(cat /tmp/insmod.err)"; kill -TERM $pid; wait $pid; return; }
	sleep $SECS
	echo 1 > $SS/reset
	sleep 1
	echo 0 > $SS/enable
	sleep 0.5
	echo 1 > $SS/enable
	sleep $SECS
	cat $SS/stats > /tmp/mc.stats
	cat $SS/cpus > /tmp/mc.cpus
	h=$(ccol h_nr_running)
	for hook in pelt_cfs_tp sched_update_nr_running_tp sched_switch; do
		echo "$name,$g,$d,$t,$hook,$(scol $hook calls),$(scol $hook mean),$(scol $hook max),$(scol walk calls),$(scol walk max),$(scol walk_steps calls),$(ccol published),$(ccol over_budget),$(ccol deferred),$(ccol void)" >> $OUT
	done
	diag "$name: cpu$PC h_nr_running $h, void $(ccol void), published $(ccol published), over_budget $(ccol over_budget), deferred $(ccol deferred)"
	diag < /tmp/mc.stats
	cp /tmp/mc.stats /tmp/stats.mc-$name
	kill -TERM $pid
	wait $pid
	unload_module
}

mcase cg500 500 1 500
mcase tasks1000 1 1 1000
mcase deep8 500 8 200
mcase tasks8 1 1 8
check $fail "maxcall: every case measured"
vm_export maxcall.csv $OUT
