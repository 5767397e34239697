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
# last CPU, not judged.  catn reads, back to back in each of 12 rounds:
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
# 12 rounds: a round where a kworker shares a hog's CPU leaves that group's
# util_avg unjudged (7.3 judged 8 of 16 at depth 4 in 8 rounds once)
S11_ROUNDS=12
oracle_tree
oracle_hogs s11 "$reader"
tids=$ORACLE_TIDS bad=$ORACLE_BAD
np=$(wc -l < /tmp/s11.placed)
ne=$(wc -l < /tmp/s11.expect)
# let every PELT sum saturate (a new task starts at its full weight, a
# renice changes the weight: ~200 ms to settle, several periods more)
sleep 3
wait_converge 6 "$reader"
files=
for t in $tids; do files="$files /proc/$t/sched"; done
catn -n $S11_ROUNDS -i 400 $files "$SD" "$SS/cpus" "$SS/groups" "$SD" > /tmp/s11.rounds 2>/tmp/s11.err
nr=$(grep -c "^=== ROUND [0-9]* $SS/groups" /tmp/s11.rounds)
# the default mode, same hogs: the module reloaded without exact=1
unload_module
if ! load_module; then
	diag "default mode: $(cat /tmp/insmod.err)"
fi
sleep 1
wait_converge 6 "$reader"
catn -n $S11_ROUNDS -i 400 $files "$SD" "$SS/cpus" "$SS/groups" "$SD" > /tmp/s11d.rounds 2>/tmp/s11d.err
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
if [ "$nr" -eq $S11_ROUNDS ] && [ ! -s /tmp/s11.err ]; then
	ok "oracle: $S11_ROUNDS rounds of sched/debug, /proc/TID/sched, cpus and groups read and exported (exact=1)"
else
	not_ok "oracle: $S11_ROUNDS rounds read (exact=1)" "$nr rounds; $(head -n 3 /tmp/s11.err)"
fi
if [ "$nd" -eq $S11_ROUNDS ] && [ ! -s /tmp/s11d.err ] && [ "$dexact" = 0 ]; then
	ok "oracle: $S11_ROUNDS rounds read and exported in the default mode (info: exact $dexact)"
else
	not_ok "oracle: $S11_ROUNDS rounds read in the default mode" "$nd rounds, exact '$dexact'; $(head -n 3 /tmp/s11d.err)"
fi
unload_module	# the next scenario loads the default mode
