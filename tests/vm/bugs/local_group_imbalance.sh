# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: local_group_imbalance
# source: kSTEP (OSDI'26), a bug it found: driver kmod/drivers_new_bugs/local_group_imbalance.c, its patch linux/fix_local_group_imbalanced.patch, traces kstep-dev/results repro_local_group_imbalance
# fix: none upstream (kSTEP's own patch classifies a group imbalanced by affinity before overloaded and pulls one task)
# kernels: 5.10=present 6.1=present 6.12=present 7.2=present 7.3=present
# analysis: find_busiest_group() ends at "local->avg_load >= busiest->avg_load" when the local group counts as overloaded only because of tasks pinned to its other CPU; the code is the same in Debian's 5.10.223, 6.1.192, 6.12, 7.2 and 7.3 (no fix exists to carry)
# topology: default
# construction: default machine (3 packages x 2 CPUs); three hogs pinned to cpu3; 1.5 s later three hogs started on cpus 0-1 and widened to 0-3 after 0.3 s; root cgroup, nobody sleeps; cpu2 is the only idle CPU the widened hogs may use; one 6 s window starting 1 s after the widening
# rule: shown when cpu2's wasted time is at least half of its sampled time and cpu2's largest attribution row is a `missed` verdict at the package level (DIE or PKG); otherwise not shown
# plan: 3
# timeout: 60
BUG=local_group_imbalance
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
bg lgi_pinned burn -t 3 -s 0 -d 0 -q --cpu 3
sleep 1.5
bg lgi_wide burn -t 3 -s 0 -d 0 -q --cpus 0-1 --widen-to 0-3 --widen-ms 300
sleep 1
bw_run 6
# the construction, from /proc: three hogs allowed on cpu3 only, three on 0-3
np=0 nw=0
for t in $(bug_tids lgi_pinned); do [ "$(bug_cpus_of "$t")" = 3 ] && np=$((np + 1)); done
for t in $(bug_tids lgi_wide); do [ "$(bug_cpus_of "$t")" = 0-3 ] && nw=$((nw + 1)); done
bg_stop
[ "$np" -eq 3 ] && [ "$nw" -eq 3 ]
bug_built $? "three hogs allowed on cpu3 only ($np), three on cpus 0-3 ($nw), at the window's end"
bug_evidence_check
s=$(bw_sampled 2) w=$(bw_wasted 2)
bw_top 2
shown=0
[ "$s" -gt 0 ] && [ $((w * 2)) -ge "$s" ] && case "$TOP_LVL $TOP_KEY" in DIE\ missed/*|PKG\ missed/*) shown=1 ;; esac
diag "cpu2: wasted $w of $s ms sampled, unknown $(bw_unknown 2) ms; top $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpu2 wasted $w ms of $s, top $TOP_LVL $TOP_KEY" $shown
