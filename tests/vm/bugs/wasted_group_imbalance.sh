# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wasted_group_imbalance
# source: "The Linux Scheduler: a Decade of Wasted Cores" (EuroSys'16), section 3.1 "The Group Imbalance bug" (the paper's patch, jplozi/wastedcores patches/group_imbalance.patch, was not merged)
# fix: 0b0695f2b34a "sched/fair: Rework load_balance()" (v5.5-rc1): a group with an idle CPU is group_has_spare and an overloaded busiest group is balanced by utilization/task count, no longer by the avg_load comparison that stranded the idle core
# kernels: 5.10=fixed 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: every kernel we test is newer than v5.5; in Debian's 5.10.223 and 6.1.192 fair.c, find_busiest_group() forces the balance when the local group has spare capacity and the busiest is overloaded (calculate_imbalance(): migrate_util across packages) before any avg_load test; the same branch is in 6.12 and 7.x
# control: yes; the fix predates 5.10, so this entry can only catch a false positive of the tool (a waste it reports where the kernel balances), never confirm that the tool finds this bug
# topology: default
# construction: default machine (3 packages x 2 CPUs); cgroup /gi/r holds one hog pinned to cpu0 (alone in its cgroup: its load is the whole cgroup weight); cgroup /gi/make (same weight) holds 8 hogs started on cpus 2-5 and widened to 1-5 after 0.3 s; under the old rule package 0 (cpu0 at load 1024, cpu1 idle) has the higher average load (512 vs 256 for the packages running make) so idle cpu1 would never pull; one 6 s window starting 1.5 s after the widening
# rule: shown when cpu1's wasted time is at least half of its sampled time; otherwise not shown
# plan: 3
# timeout: 60
BUG=wasted_group_imbalance
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
cg_mk gi
bg gi_r burn -t 1 -s 0 -d 0 -q --cpu 0 --cgroup gi/r --weight 100
bg gi_make burn -t 8 -s 0 -d 0 -q --cpus 2-5 --widen-to 1-5 --widen-ms 300 --cgroup gi/make --weight 100
sleep 1.8
bw_run 6
nr=0 nm=0
for t in $(bug_tids gi_r); do [ "$(bug_cpus_of "$t")" = 0 ] && nr=$((nr + 1)); done
for t in $(bug_tids gi_make); do [ "$(bug_cpus_of "$t")" = 1-5 ] && nm=$((nm + 1)); done
rcg=$(cat /proc/"$(awk '$2 == "gi_r" { print $1 }' "$BG_PIDS")"/cgroup 2>/dev/null)
bg_stop
cg_rm gi
[ "$nr" -eq 1 ] && [ "$nm" -eq 8 ] && [ "$rcg" = "0::/gi/r" ]
bug_built $? "one hog on cpu0 in /gi/r ($nr, cgroup ${rcg#0::}), eight hogs of /gi/make on cpus 1-5 ($nm), at the window's end"
bug_evidence_check
s=$(bw_sampled 1) w=$(bw_wasted 1)
bw_top 1
shown=0
[ "$s" -gt 0 ] && [ $((w * 2)) -ge "$s" ] && shown=1
diag "cpu1: wasted $w of $s ms sampled, unknown $(bw_unknown 1) ms; top $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpu1 wasted $w ms of $s, top $TOP_LVL $TOP_KEY" $shown
