# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wasted_missing_sched_domains
# source: "The Linux Scheduler: a Decade of Wasted Cores" (EuroSys'16), section 3.4 "The Missing Scheduling Domains bug" (patch jplozi/wastedcores patches/missing_sched_domains.patch; reproduction in the authors' jplozi/wastedcores issue 1: echo 0, then 1, to a CPU's online file, and the load is no longer balanced between NUMA nodes; "introduced in 3.19, still exists in 4.6-rc5")
# fix: "sched/core, x86/topology: Fix NUMA in package topology bug" (2016, before v4.10): x86's set_cpu_sibling_map() only records x86_has_numa_in_package, the topology is set once at boot, and set_sched_topology() refuses (WARN) to replace it once sched_init_smp() has extended it with the NUMA levels, which a CPU coming back online used to drop; the hash is not given here: we could not check it from the sources at hand (docs/bugs.md)
# kernels: 5.10=fixed 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: Debian's 5.10.223 arch/x86/kernel/smpboot.c sets x86_has_numa_in_package in set_cpu_sibling_map() and calls set_sched_topology() only from native_smp_cpus_done(); its kernel/sched/topology.c has the WARN_ON_ONCE(sched_smp_initialized) in set_sched_topology(); 7.3 sets the topology once from its boot path too
# control: yes; the fix predates 5.10, so this entry can only catch a false positive of the tool after a CPU hotplug, never confirm that the tool finds this bug
# topology: topo numa-pkg-ring4
# construction: numa-pkg-ring4 (2 packages x 2 dies, each die a NUMA node: NUMA nodes inside a package, the machine shape whose x86 topology code had the bug); cpu1 is taken offline and brought back online; then 16 hogs start on cpus 0-1 and are widened to every CPU after 0.3 s; each CPU should get two; one 6 s window starting 1.5 s after the widening
# rule: shown when cpus 2-7 wasted on average at least half of their sampled time; otherwise not shown
# plan: 3
# timeout: 120
BUG=wasted_missing_sched_domains
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
o=/sys/devices/system/cpu/cpu1/online
echo 0 > $o 2>/dev/null
off=$(cat $o 2>/dev/null)
sleep 0.5
echo 1 > $o 2>/dev/null
on=$(cat $o 2>/dev/null)
sleep 1
ndom=$(awk '$1 == "cpu2" { on = 1; next } /^cpu/ { on = 0 } on && /^domain/ { n++ } END { print n + 0 }' /proc/schedstat)
bg md_hogs burn -t 16 -s 0 -d 0 -q --cpus 0-1 --widen-to 0-7 --widen-ms 300
sleep 1.8
bw_run 6
nw=0
for t in $(bug_tids md_hogs); do [ "$(bug_cpus_of "$t")" = 0-7 ] && nw=$((nw + 1)); done
bg_stop
[ "$off" = 0 ] && [ "$on" = 1 ] && [ "$(ncpus)" -eq 8 ] && [ "$nw" -eq 16 ]
bug_built $? "cpu1 went offline ($off) and online again ($on), 8 CPUs; $nw hogs allowed on cpus 0-7 at the window's end (cpu2 has $ndom sched domains in /proc/schedstat after the hotplug)"
bug_evidence_check
s=0 w=0
for c in 2 3 4 5 6 7; do s=$((s + $(bw_sampled $c))); w=$((w + $(bw_wasted $c))); done
bw_top all
shown=0
[ "$s" -gt 0 ] && [ $((w * 2)) -ge "$s" ] && shown=1
diag "cpus 2-7: wasted $w of $s ms sampled; top attribution (all CPUs) $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpus 2-7 wasted $((w / 6)) ms of $((s / 6)) each on average, top $TOP_LVL $TOP_KEY" $shown
