# SPDX-License-Identifier: GPL-2.0
# plan: 3
# Scenario 11: an independent oracle for the shadow, the groups rows and
# h_load, below the root and in both modes.  Steady pinned hogs with known
# nice levels in nested cgroups with known cpu.weight:
#   /o(10000) /o/a(200) /o/a/b(150)  intermediate levels
#   /o/x(200) depth 2, /o/a/y(50) depth 3, /o/a/b/d(100) and
#   /o/a/b/e(300) depth 4, /o/c(300) depth 2, and the root cgroup
#   cpu0: /o/x nice -5           alone: depths 1-2 are judged here
#   cpu1: /o/a/y nice 0          alone: depths 1-3
#   cpu2: /o/a/b/d nice 0        alone: depths 1-4
#   cpu3: /o/a/b/e nice 5        alone: depths 1-4
#   cpu4: /o/c nice 0, /o/a/b/d nice 3, /o/a/y nice 0, / nice 10
#                                time-shared: four tasks, three groups
# A group alone on its CPU has steady PELT averages (all of them judged);
# /o's weight makes each CPU's root load thousands of units, so a kworker
# that passes through the root (its load or its decaying blocked load is
# in one read and not the other) stays within the 3 % tolerance (with
# weight 100 the roots held 37 and a passing rcu_preempt 181-323);
# groups that time-share a CPU give the shadow formula and h_load several
# children to scale (their utilization is reported, not judged: see
# tests/vm/host/sched_oracle.py).  This shell and its reader run on the
# last CPU, not judged.  catn reads, back to back in each of 8 rounds:
# every hog's /proc/TID/sched, the kernel's sched/debug, then `cpus` and
# `groups`, then sched/debug again (how far the kernel's own values moved
# during the round); first with exact=1 (the hierarchy walk on every event), then,
# with the same hogs, in the default mode users run (the walk at most once
# per PELT period of the root or after 32 events).  The rounds go to the
# host (vm-out/s11-rounds.txt, s11-default-rounds.txt), where
# tests/vm/host/11-oracle-nested.sh computes the expected shadow,
# shadow_fresh and h_load of every row and CPU from the kernel's data only
# (sched/debug's per-cfs_rq .load, .load_avg, .h_nr_running,
# .se->load.weight, .se->avg.load_avg and the tasks' se.avg.*) and
# compares them and every field sched/debug shares with `cpus` and
# `groups`, with a minimum of judged comparisons per field and depth.
# Guest side: the hogs run where and as they should (affinity, nice), and
# the rounds of both modes were read.
# timeout: 120
unload_module
if ! modload "$KO" exact=1 > /tmp/insmod.err 2>&1; then
	not_ok "oracle: module loaded (exact=1)" "$(cat /tmp/insmod.err)"
	not_ok "oracle: rounds read (exact=1)"
	not_ok "oracle: rounds read (default mode)"
	return 0
fi
SD=/sys/kernel/debug/sched/debug
[ -r "$SD" ] || SD=/proc/sched_debug
reader=$(pin_shell_last_cpu)
cg_mk /o 10000
cg_mk /o/a 200
cg_mk /o/a/b 150
cg_mk /o/x 200
cg_mk /o/a/y 50
cg_mk /o/a/b/d 100
cg_mk /o/a/b/e 300
cg_mk /o/c 300
# cpu cgroup nice
placements="0:/o/x:-5 1:/o/a/y:0 2:/o/a/b/d:0 3:/o/a/b/e:5 4:/o/c:0 4:/o/a/b/d:3 4:/o/a/y:0 4:/:10"
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
# each hog's worker thread exists (on cpu4 four hogs share one CPU: a
# hog's leader may not have run pthread_create() yet 0.5 s after the start;
# 6.1 found 6 of 8 workers once): wait for it, 10 s at most
i=0
while [ $i -lt 100 ]; do
	short=0
	while read -r _ _ _ n; do
		pid=$(awk -v n="s11h$n" '$2 == n { print $1 }' "$BG_PIDS")
		# num_threads, field 20 of stat (burn's comm has no space)
		[ "$(awk '{ print $20 }' "/proc/$pid/stat" 2>/dev/null)" -ge 2 ] 2>/dev/null || short=1
	done < /tmp/s11.expect
	[ $short -eq 0 ] && break
	sleep 0.1
	i=$((i + 1))
done
# renice every thread of each hog (burn's worker is a thread); record TIDs
tids='' bad=''
while read -r cpu cg nice i; do
	pid=$(awk -v n="s11h$i" '$2 == n { print $1 }' "$BG_PIDS")
	for t in /proc/$pid/task/*; do
		tid=${t##*/}
		[ "$nice" = 0 ] || renice -n "$nice" -p "$tid" > /dev/null 2>&1
		tids="$tids $tid"
		# the worker: the thread that is not the leader (burn -t 1 has
		# one; its leader sleeps in pause(), but may still be queued
		# behind the hogs this soon after the start: 7.3 found it R once)
		n=$(awk '{ print $19 }' "$t/stat")
		c=$(awk '{ print $39 }' "$t/stat")
		if [ "$tid" != "$pid" ]; then
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
catn -n 8 -i 400 $files "$SD" "$SS/cpus" "$SS/groups" "$SD" > /tmp/s11.rounds 2>/tmp/s11.err
nr=$(grep -c "^=== ROUND [0-9]* $SS/groups" /tmp/s11.rounds)
# the default mode, same hogs: the module reloaded without exact=1
unload_module
if ! load_module; then
	diag "default mode: $(cat /tmp/insmod.err)"
fi
sleep 1
wait_converge 6 "$reader"
catn -n 8 -i 400 $files "$SD" "$SS/cpus" "$SS/groups" "$SD" > /tmp/s11d.rounds 2>/tmp/s11d.err
nd=$(grep -c "^=== ROUND [0-9]* $SS/groups" /tmp/s11d.rounds)
dexact=$(awk '$1 == "exact" { print $2 }' "$SS/info" 2>/dev/null)
bg_stop
cg_rm /o
awk '{ print $1, $2, $3 }' /tmp/s11.expect > /tmp/s11.exp3
if [ "$np" -eq "$ne" ] && [ -z "$bad" ]; then
	ok "oracle: $ne hogs pinned with their nice levels in /o/x, /o/a/y, /o/a/b/d, /o/a/b/e, /o/c and /"
else
	not_ok "oracle: $ne hogs pinned with their nice levels" "found $np running:$bad"
fi
vm_export s11-rounds.txt /tmp/s11.rounds
vm_export s11-default-rounds.txt /tmp/s11d.rounds
vm_export s11-expect.txt /tmp/s11.exp3
if [ "$nr" -eq 8 ] && [ ! -s /tmp/s11.err ]; then
	ok "oracle: 8 rounds of sched/debug, /proc/TID/sched, cpus and groups read and exported (exact=1)"
else
	not_ok "oracle: 8 rounds read (exact=1)" "$nr rounds; $(head -n 3 /tmp/s11.err)"
fi
if [ "$nd" -eq 8 ] && [ ! -s /tmp/s11d.err ] && [ "$dexact" = 0 ]; then
	ok "oracle: 8 rounds read and exported in the default mode (info: exact $dexact)"
else
	not_ok "oracle: 8 rounds read in the default mode" "$nd rounds, exact '$dexact'; $(head -n 3 /tmp/s11d.err)"
fi
unload_module	# the next scenario loads the default mode
