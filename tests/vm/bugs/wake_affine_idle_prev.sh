# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: wake_affine_idle_prev
# source: kSTEP's analysis docs/bugs_unplanned/fair_wake_affine_idle_prev.md (a row of its table of bugs it could not build: "fix targets v5.11-rc1; kSTEP requires v5.15+")
# fix: d8fcb81f1acf "sched/fair: Check for idle core in wake_affine" (v5.11-rc1): wake_affine_idle() returns an idle prev_cpu before wake_affine_weight() compares PELT loads, where the blocked load an idle CPU still carries made it look busier than the waker's CPU and the task was pulled across packages onto busy CPUs
# kernels: 5.10=present 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: Debian's 5.10.223 wake_affine_idle() ends "if (sync && cpu_rq(this_cpu)->nr_running == 1) return this_cpu; return nr_cpumask_bits;" (no idle prev_cpu test; the bullseye changelog has no entry for the fix); 6.1.192, 6.12.117 and 7.3.4 have "if (available_idle_cpu(prev_cpu)) return prev_cpu;" after the sync test
# topology: default
# construction: default machine (3 packages x 2 CPUs); hogs pinned to cpus 0, 1, 2 and 3; wakepair's waker pinned to cpu0 next to its hog (two tasks there: the sync shortcut does not apply), writing to a pipe every 10 ms; its wakee (nice 19: it does not preempt where it lands) may use cpus 0-4; cpu5 is the test's own (its shell and `sched-shadow run`: beside a hog and the module's sampler they got too little of it to end within the timeout); a nice -20 task pinned to cpu4 runs 1 ms every 20 ms, leaving cpu4 idle with a high blocked load (the role of the ondemand governor's kworkers in the fix's report); cpu4 is the only CPU the wakee can find idle; the pair runs 15 s, the window inside it; one 6 s window starting 1.5 s after the start
# rule: shown when cpu4's wasted time is at least 20 % of its sampled time; otherwise not shown
# plan: 3
# timeout: 120
BUG=wake_affine_idle_prev
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
for c in 0 1 2 3; do bg "wa_hog$c" burn -t 1 -s 0 -d 0 -q --cpu $c; done
bg wa_noise burn -t 1 -r 1 -s 19 -d 0 -q --cpu 4 --nice -20
bug_schedstats_on
read -r t0 _ < /proc/uptime
bg wa_pair wakepair -p 10 -r 1 -d 15 --waker-cpus 0 --wakee-cpus 0-4 --wakee-nice 19
sleep 1.5
wa=$(bug_cpus_of "$(bug_tids wa_pair)")
bw_run 6
win=$(awk -v t0="$t0" '$1 == "wasted_since_ns" { a = $2 } $1 == "wasted_until_ns" { b = $2 } END { printf "%.1f-%.1f", a / 1e9 - t0, b / 1e9 - t0 }' "/tmp/$BUG.info")
pid=$(awk '$2 == "wa_pair" { print $1 }' "$BG_PIDS")
wait "$pid" 2>/dev/null
bug_schedstats_restore
res=$(grep '^wakepair:' /tmp/wa_pair.log)
nn=0
for t in $(bug_tids wa_noise); do
	[ "$(bug_cpus_of "$t")" = 4 ] && [ "$(awk '{ print $19 }' /proc/$t/stat 2>/dev/null)" = -20 ] && nn=$((nn + 1))
done
bg_stop
n=$(echo "$res" | sed -n 's/^wakepair: wakeups=\([0-9]*\).*/\1/p')
# the pair ran (the waker wrote, the wakee read) for the whole window, the
# wakee may use cpus 0-4 and the nice -20 task is on cpu4; how often the
# wakee got to read is the kernel's doing (7.3 placed it in the waker's LLC
# and it read 6 messages of 800 in 8 s: reported, not judged)
[ "${n:-0}" -ge 1 ] && [ "$nn" -ge 1 ] && [ "$wa" = 0-4 ] && [ -n "$win" ] &&
	awk -v w="$win" 'BEGIN { split(w, a, "-"); exit !(a[1] > 0 && a[2] < 15) }'
bug_built $? "the wakee (allowed on cpus ${wa:-?}) woke ${n:-0} times in 15 s (the waker on cpu0 wrote 1500 messages), the window at ${win:-?} s of them (inside them); a nice -20 task on cpu4 ($nn) (the wakee's own measure, then the kernel's: ${res#wakepair: })"
bug_evidence_check
s=$(bw_sampled 4) w=$(bw_wasted 4)
bw_top 4
shown=0
[ "$s" -gt 0 ] && [ $((w * 5)) -ge "$s" ] && shown=1
diag "cpu4: wasted $w of $s ms sampled, unknown $(bw_unknown 4) ms; top $TOP_LVL $TOP_KEY $TOP_MS ms"
bug_verdict "cpu4 wasted $w ms of $s, top $TOP_LVL $TOP_KEY" $shown
