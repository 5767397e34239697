# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: fork_idle_cpus_outside_affinity
# source: upstream fix 82d6e01a0699 "sched/fair: Only update stats for allowed CPUs when looking for dst group" (not in kSTEP's tables nor in the paper: taken for the fixed-between-our-kernels class, the one published load-balancing fix we found that Debian's 5.10 lacks and its 6.1 carries)
# fix: 82d6e01a0699: update_sg_wakeup_stats() counts only the CPUs of the task's cpus_ptr; before it, find_idlest_group() counted idle CPUs the new task may not use, picked a group whose allowed CPUs were all busy and left an allowed CPU of the local group idle
# kernels: 5.10=present 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: Debian's 5.10.223 fair.c loops for_each_cpu(i, sched_group_span(group)) in update_sg_wakeup_stats() and its changelog has no entry for the fix; 6.1's changelog carries it in 6.1.180 and 6.1.192's fair.c loops for_each_cpu_and(i, sched_group_span(group), p->cpus_ptr); 6.12, 7.2 and 7.3 carry it too (docs/bugs.md)
# topology: smp 8,sockets=2,cores=4
# construction: 2 packages x 4 CPUs (0-3, 4-7); hogs pinned to cpus 1 and 2 (nice 0) and to cpus 4 and 5 (nice -10: a child that lands there waits long enough to be measured); forker (affinity 0-5) spins on cpu0 or cpu3 and forks a child every 100 ms that spins 5 ms and exits, for 15 s (the window, which `run` opens a second or more after it starts, must end before the forker does); children may use cpus 0-5, so package 1's idle cpus 6-7 are not theirs, and package 0 always has one idle allowed CPU (cpu0 or cpu3, whichever the parent does not use); one 6 s window starting 1.5 s after the start
# rule: shown when cpus 0 and 3 together wasted at least 20 % of cpu3's sampled time; otherwise not shown
# plan: 3
# timeout: 60
BUG=fork_idle_cpus_outside_affinity
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pkgs=$(cat /sys/devices/system/cpu/cpu[0-7]/topology/physical_package_id 2>/dev/null | tr '\n' ' ')
pin_shell_last_cpu > /dev/null
for c in 1 2; do bg "fi_hog$c" burn -t 1 -s 0 -d 0 -q --cpu $c; done
for c in 4 5; do bg "fi_hog$c" burn -t 1 -s 0 -d 0 -q --cpu $c --nice -10; done
sleep 0.5
read -r t0 _ < /proc/uptime
bg fi_fork forker -p 100 -r 5 -d 15 --cpus 0-5
sleep 1.5
bw_run 6
win=$(awk -v t0="$t0" '$1 == "wasted_since_ns" { a = $2 } $1 == "wasted_until_ns" { b = $2 } END { printf "%.1f-%.1f", a / 1e9 - t0, b / 1e9 - t0 }' "/tmp/$BUG.info")
pid=$(awk '$2 == "fi_fork" { print $1 }' "$BG_PIDS")
wait "$pid" 2>/dev/null
res=$(grep '^forker:' /tmp/fi_fork.log)
bg_stop
n=$(echo "$res" | sed -n 's/.*children=\([0-9]*\).*/\1/p')
# the window lies inside the forker's 15 s
[ "$(ncpus)" -eq 8 ] && [ "$pkgs" = "0 0 0 0 1 1 1 1 " ] && [ "${n:-0}" -ge 75 ] && [ -n "$win" ] &&
	awk -v w="$win" 'BEGIN { split(w, a, "-"); exit !(a[1] > 0 && a[2] < 15) }'
bug_built $? "8 CPUs in packages '$pkgs', ${n:-0} children forked in 15 s (>= 75 of 150) next to hogs on cpus 1 2 4 5, the window at ${win:-?} s of them (inside them) (the children's own record: ${res#forker: })"
bug_evidence_check
s=$(bw_sampled 3) w=$(bw_sum_wasted 0 3)
c=3
[ "$(bw_wasted 0)" -gt "$(bw_wasted 3)" ] && c=0
bw_top $c
diag "cpus 0+3: wasted $w ms of $s (cpu3 sampled); cpu0 $(bw_wasted 0) ms, cpu3 $(bw_wasted 3) ms; top of cpu$c $TOP_LVL $TOP_KEY $TOP_MS ms"
shown=0
[ "$s" -gt 0 ] && [ $((w * 5)) -ge "$s" ] && shown=1
bug_verdict "cpus 0+3 wasted $w ms of $s, top $TOP_LVL $TOP_KEY" $shown
