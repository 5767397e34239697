# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wasted_group_construction
# source: "The Linux Scheduler: a Decade of Wasted Cores" (EuroSys'16), section 3.2 "The Scheduling Group Construction bug": on a NUMA machine whose nodes are not all one hop apart, the NUMA-level scheduling groups were built from cpu0's point of view and shared by every CPU, so two nodes two hops apart could sit in the same group from every CPU's side and never balance between themselves
# fix: Peter Zijlstra's overlapping-group rework merged for v4.13 ("sched/topology: Fix building of overlapping sched-groups" and its companions): each CPU builds its NUMA groups from its own child domains (for_each_cpu_wrap(i, span, cpu)), with group balance masks; the hash is not given here: we could not check it from the sources at hand (docs/bugs.md)
# kernels: 5.10=fixed 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: Debian's 5.10.223 kernel/sched/topology.c builds overlapping groups per CPU (build_overlap_sched_groups() walks the span from the CPU itself) and documents the 4-node ring this entry boots; 6.1, 6.12 and 7.3 keep that code
# control: yes; the fix predates 5.10, so this entry can only catch a false positive of the tool on overlapping NUMA groups, never confirm that the tool finds this bug
# topology: topo numa-pkg-ring4
# construction: numa-pkg-ring4 (4 nodes of 2 CPUs in a ring, nodes 0 and 2 two hops apart); 8 hogs allowed on nodes 0 and 2 only (cpus 0,1,4,5), started on node 0 (cpus 0-1) and widened after 0.3 s, as the paper pinned its application to two nodes two hops apart; every allowed CPU should get two; one 6 s window starting 1.5 s after the widening
# rule: shown when cpus 4 and 5 wasted on average at least half of their sampled time; otherwise not shown
# plan: 3
# timeout: 60
BUG=wasted_group_construction
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
n0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
n2=$(cat /sys/devices/system/node/node2/cpulist 2>/dev/null)
d02=$(awk '{ print $3 }' /sys/devices/system/node/node0/distance 2>/dev/null)
pin_shell_last_cpu > /dev/null
bg gc_hogs burn -t 8 -s 0 -d 0 -q --cpus 0-1 --widen-to 0,1,4,5 --widen-ms 300
sleep 1.8
bw_run 6
nw=0
for t in $(bug_tids gc_hogs); do [ "$(bug_cpus_of "$t")" = "0-1,4-5" ] && nw=$((nw + 1)); done
bg_stop
[ "$n0" = 0-1 ] && [ "$n2" = 4-5 ] && [ "$d02" = 30 ] && [ "$nw" -eq 8 ]
bug_built $? "node0 cpus $n0, node2 cpus $n2, distance $d02 (two hops); $nw hogs allowed on cpus 0-1,4-5 at the window's end"
bug_evidence_check
s=$(( $(bw_sampled 4) + $(bw_sampled 5) )) w=$(bw_sum_wasted 4 5)
bw_top 4
shown=0
[ "$s" -gt 0 ] && [ $((w * 2)) -ge "$s" ] && shown=1
diag "cpus 4-5: wasted $w of $s ms sampled; top cpu4 $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpus 4-5 wasted $((w / 2)) ms of $((s / 2)) each on average, top $TOP_LVL $TOP_KEY" $shown
