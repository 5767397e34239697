# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 11: an independent oracle for the shadow.  Steady pinned hogs
# with known nice levels in nested cgroups with known cpu.weight:
#   /o(100) /o/a(200) /o/a/b(150)  intermediate levels
#   /o/x(200) depth 2, /o/a/y(50) depth 3, /o/a/b/d(100) depth 4,
#   /o/c(300) depth 2, and the root cgroup
#   cpu0: /o/x nice 0
#   cpu1: /o/a/y nice 0, /o/c nice 5
#   cpu2: /o/a/b/d nice -5, root nice 0
#   cpu3: root nice 0, root nice 10
#   cpu4: /o/c nice 0, /o/a/b/d nice 3, /o/a/y nice 0
# (this shell and its reader run on the last CPU, not judged).  catn reads,
# back to back in each of 6 rounds: every hog's /proc/TID/sched, the
# kernel's sched/debug, then `cpus` and `groups`; the rounds go to the host
# (vm-out/s11-rounds.txt), where tests/vm/host/11-oracle-nested.sh computes
# the expected shadow of every row and CPU from the kernel's data only
# (sched/debug's per-cfs_rq .load, .h_nr_running, .se->load.weight and the
# tasks' se.avg.load_avg) and compares it with `groups` and `cpus`
# (tests/vm/host/sched_oracle.py says what is compared and the tolerances).
# Guest side: the hogs run where and as they should (affinity, nice), and
# the rounds were read.
# timeout: 90
# exact=1: the hierarchy walk on every event, so `groups` and the shadow
# describe the same instant as the kernel's dump (the default walks once
# per PELT period or 32 events; how far `groups` lags then is scenario
# 34's measurement, not this oracle's question)
unload_module
if ! modload "$KO" exact=1 > /tmp/insmod.err 2>&1; then
	not_ok "oracle: module loaded (exact=1)" "$(cat /tmp/insmod.err)"
	not_ok "oracle: rounds read"
	return 0
fi
SD=/sys/kernel/debug/sched/debug
[ -r "$SD" ] || SD=/proc/sched_debug
reader=$(pin_shell_last_cpu)
cg_mk /o 100
cg_mk /o/a 200
cg_mk /o/a/b 150
cg_mk /o/x 200
cg_mk /o/a/y 50
cg_mk /o/a/b/d 100
cg_mk /o/c 300
# cpu cgroup nice
placements="0:/o/x:0 1:/o/a/y:0 1:/o/c:5 2:/o/a/b/d:-5 2:/:0 3:/:0 3:/:10 4:/o/c:0 4:/o/a/b/d:3 4:/o/a/y:0"
: > /tmp/s11.expect
: > /tmp/s11.placed
i=0
for p in $placements; do
	cpu=${p%%:*} rest=${p#*:}; cg=${rest%%:*} nice=${rest#*:}
	[ "$cpu" -lt "$reader" ] || continue
	if [ "$cg" = / ]; then
		bg s11h$i burn -t 1 -s 0 -d 0 -q --cpu "$cpu"
	else
		bg s11h$i burn -t 1 -s 0 -d 0 -q --cpu "$cpu" --cgroup "$cg"
	fi
	echo "$cpu $cg $nice $i" >> /tmp/s11.expect
	i=$((i + 1))
done
sleep 0.5
# renice every thread of each hog (burn's worker is a thread); record TIDs
tids='' bad=''
while read -r cpu cg nice i; do
	pid=$(awk -v n="s11h$i" '$2 == n { print $1 }' "$BG_PIDS")
	for t in /proc/$pid/task/*; do
		tid=${t##*/}
		[ "$nice" = 0 ] || renice -n "$nice" -p "$tid" > /dev/null 2>&1
		tids="$tids $tid"
		# the worker: the thread that runs (state R) on its CPU
		n=$(awk '{ print $19 }' "$t/stat")
		c=$(awk '{ print $39 }' "$t/stat")
		st=$(awk '{ print $3 }' "$t/stat")
		if [ "$st" = R ]; then
			[ "$n" = "$nice" ] && [ "$c" = "$cpu" ] || bad="$bad tid$tid:cpu$c/nice$n!=cpu$cpu/nice$nice"
			echo "$cpu $cg $nice $tid" >> /tmp/s11.placed
		fi
	done
done < /tmp/s11.expect
sleep 0.2
np=$(wc -l < /tmp/s11.placed 2>/dev/null || echo 0)
ne=$(wc -l < /tmp/s11.expect)
# let every PELT sum saturate (a new task starts at its full weight, a
# renice changes the weight: ~200 ms to settle, several periods more)
sleep 3
wait_converge 6 "$reader"
files=
for t in $tids; do files="$files /proc/$t/sched"; done
catn -n 6 -i 500 $files "$SD" "$SS/cpus" "$SS/groups" > /tmp/s11.rounds 2>/tmp/s11.err
nr=$(grep -c "^=== ROUND [0-9]* $SS/groups" /tmp/s11.rounds)
bg_stop
cg_rm /o
awk '{ print $1, $2, $3 }' /tmp/s11.expect > /tmp/s11.exp3
if [ "$np" -eq "$ne" ] && [ -z "$bad" ]; then
	ok "oracle: $ne hogs pinned with their nice levels in /o/x, /o/a/y, /o/a/b/d, /o/c and /"
else
	not_ok "oracle: $ne hogs pinned with their nice levels" "found $np running:$bad"
fi
vm_export s11-rounds.txt /tmp/s11.rounds
vm_export s11-expect.txt /tmp/s11.exp3
if [ "$nr" -eq 6 ] && [ ! -s /tmp/s11.err ]; then
	ok "oracle: 6 rounds of sched/debug, /proc/TID/sched, cpus and groups read and exported"
else
	not_ok "oracle: 6 rounds read" "$nr rounds; $(head -n 3 /tmp/s11.err)"
fi
unload_module	# the next scenario loads the default mode
