# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wasted_overload_on_wakeup
# source: "The Linux Scheduler: a Decade of Wasted Cores" (EuroSys'16), section 3.3 "The Overload-on-Wakeup bug" (the paper's patch, jplozi/wastedcores patches/overload_on_wakeup.patch, wakes a thread on the longest-idle allowed core; it was not merged)
# fix: none upstream: the fast wakeup path still looks for an idle CPU only in the last-level cache of the CPU wake_affine() chose (select_idle_sibling()), and wake_affine_idle() still returns the waker's CPU for a synchronous wakeup when the waker is alone on it
# kernels: 5.10=present 6.1=present 6.12=present 7.2=present 7.3=present
# analysis: in Debian's 5.10.223 and 6.1.192 fair.c, wake_affine_idle() returns this_cpu for "sync && cpu_rq(this_cpu)->nr_running == 1" before any look at an idle prev_cpu, and select_idle_sibling() scans sd_llc of the target only; the same code is in 6.12 and 7.x (7.x adds cache-aware placement on top, which keeps tasks in their preferred LLC)
# topology: default
# construction: default machine (3 packages x 2 CPUs, one LLC per package); a hog pinned to cpu0; wakepair's waker pinned to cpu1, spinning and writing to a pipe every 10 ms (a synchronous wakeup whose waker does not sleep); its wakee (nice 19, allowed on every CPU) reads, spins 1 ms, reads again; cpus 2-5 are idle; one 6 s window starting 1.5 s after the start
# rule: shown when cpus 2-5 wasted on average at least 10 % of their sampled time; otherwise not shown
# plan: 3
# timeout: 60
BUG=wasted_overload_on_wakeup
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
bg ow_hog burn -t 1 -s 0 -d 0 -q --cpu 0
bg ow_pair wakepair -p 10 -r 1 -d 8 --waker-cpus 1 --wakee-cpus 0-5 --wakee-nice 19
sleep 1.5
bw_run 6
pid=$(awk '$2 == "ow_pair" { print $1 }' "$BG_PIDS")
wait "$pid" 2>/dev/null
res=$(grep '^wakepair:' /tmp/ow_pair.log)
bg_stop
n=$(echo "$res" | sed -n 's/.*wakeups=\([0-9]*\).*/\1/p')
[ "${n:-0}" -ge 100 ]
bug_built $? "the wakee was woken ${n:-0} times in 8 s (>= 100 of 800: one host thread runs the vCPUs in turns) by the waker on cpu1 next to the hog on cpu0 (its own measure: ${res#wakepair: })"
bug_evidence_check
s=0 w=0
for c in 2 3 4 5; do s=$((s + $(bw_sampled $c))); w=$((w + $(bw_wasted $c))); done
bw_top all
shown=0
[ "$s" -gt 0 ] && [ $((w * 10)) -ge "$s" ] && shown=1
diag "cpus 2-5: wasted $w of $s ms sampled; top attribution (all CPUs) $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpus 2-5 wasted $((w / 4)) ms of $((s / 4)) each on average, top $TOP_LVL $TOP_KEY" $shown
