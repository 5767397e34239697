# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wasted_overload_on_wakeup
# source: "The Linux Scheduler: a Decade of Wasted Cores" (EuroSys'16), section 3.3 "The Overload-on-Wakeup bug" (the paper's patch, jplozi/wastedcores patches/overload_on_wakeup.patch, wakes a thread on the longest-idle allowed core; it was not merged)
# fix: none upstream: the fast wakeup path still looks for an idle CPU only in the last-level cache of the CPU wake_affine() chose (select_idle_sibling()), and wake_affine_idle() still returns the waker's CPU for a synchronous wakeup when the waker is alone on it
# kernels: 5.10=present 6.1=present 6.12=present 7.2=present 7.3=present
# analysis: in Debian's 5.10.223 and 6.1.192 fair.c, wake_affine_idle() returns this_cpu for "sync && cpu_rq(this_cpu)->nr_running == 1" before any look at an idle prev_cpu, and select_idle_sibling() scans sd_llc of the target only; Debian's 6.12.117 and 7.2.13 fair.c have the same order, the sync test as "(rq->nr_running - cfs_h_nr_delayed(rq)) == 1" (EEVDF's delayed-dequeue tasks not counted), and the same LLC-only scan; 7.3.4 too (7.x adds cache-aware balancing on top, which keeps tasks in their preferred LLC)
# topology: default
# construction: default machine (3 packages x 2 CPUs, one LLC per package); a hog pinned to cpu0; wakepair's waker pinned to cpu1, spinning and writing to a pipe every 10 ms (a synchronous wakeup whose waker does not sleep); its wakee (nice 19, allowed on every CPU) reads, spins 1 ms, reads again, for 15 s (the window, which `run` opens a second or more after it starts, must end before the pair does); cpus 2-5 are idle; one 6 s window starting 1.5 s after the start
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
bug_schedstats_on
read -r t0 _ < /proc/uptime
bg ow_pair wakepair -p 10 -r 1 -d 15 --waker-cpus 1 --wakee-cpus 0-5 --wakee-nice 19
sleep 1.5
bw_run 6
win=$(awk -v t0="$t0" '$1 == "wasted_since_ns" { a = $2 } $1 == "wasted_until_ns" { b = $2 } END { printf "%.1f-%.1f", a / 1e9 - t0, b / 1e9 - t0 }' "/tmp/$BUG.info")
pid=$(awk '$2 == "ow_pair" { print $1 }' "$BG_PIDS")
wait "$pid" 2>/dev/null
bug_schedstats_restore
res=$(grep '^wakepair:' /tmp/ow_pair.log)
bg_stop
n=$(echo "$res" | sed -n 's/^wakepair: wakeups=\([0-9]*\).*/\1/p')
# the window lies inside the pair's 15 s
[ "${n:-0}" -ge 100 ] && [ -n "$win" ] && awk -v w="$win" 'BEGIN { split(w, a, "-"); exit !(a[1] > 0 && a[2] < 15) }'
bug_built $? "the wakee was woken ${n:-0} times in 15 s (>= 100 of 1500: one host thread runs the vCPUs in turns) by the waker on cpu1 next to the hog on cpu0, the window at ${win:-?} s of them (inside them) (its own measure, then the kernel's: ${res#wakepair: })"
bug_evidence_check
s=0 w=0
for c in 2 3 4 5; do s=$((s + $(bw_sampled $c))); w=$((w + $(bw_wasted $c))); done
bw_top all
shown=0
[ "$s" -gt 0 ] && [ $((w * 10)) -ge "$s" ] && shown=1
diag "cpus 2-5: wasted $w of $s ms sampled; top attribution (all CPUs) $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpus 2-5 wasted $((w / 4)) ms of $((s / 4)) each on average, top $TOP_LVL $TOP_KEY" $shown
