# SPDX-License-Identifier: GPL-2.0
# plan: 5
# Scenario 28 (load-balancer audit): throttled tasks are not work to give.
# Three CFS hogs in cgroup /s28 with cpu.max 20 ms per 100 ms (20 % of one
# CPU against a demand of three) start on cpu1, then each may run on cpu1
# and cpu5 only; cpu5 is idle (this shell sits on cpu0).  While the group
# is throttled its tasks stay on cpu1's rq->cfs_tasks (before 7.3's
# task-based throttle) and the kernel refuses to move them
# (throttled_lb_pair()); the audit must not count them as work for cpu5.
# 4 s of lb_verdict and sched_migrate_task events.  Checks:
#   - cpu.stat nr_throttled grew (the premise), cpu5 made judged attempts;
#   - the hogs' CPU's entries list throttled waiters (info lb_throttle
#     src+dst); on a task-based throttle kernel (lb_throttle dst, 7.3)
#     throttled tasks leave the run queue, so none may be listed there;
#   - in every attempt where all of cpu1's waiters are throttled, the kernel
#     moved nothing and the verdict is not missed/wrong for them;
#   - every attempt that moved a task is `right`, and the tasks the
#     attempts moved are at most the hog migrations cpu1 -> cpu5 the kernel
#     reported (sched_migrate_task), which exceed them by at most the
#     active-balance pushes.
# timeout: 90
lb_need "lb throttle" || return 0
T=/sys/kernel/tracing

taskset -p 1 $$ >/dev/null	# this shell on cpu0, cpu5 idle
mode=$(awk '$1 == "lb_throttle" { print $2 }' "$SS/info")
cg_mk /s28
echo "20000 100000" > "$CG/s28/cpu.max"
bg s28 burn -t 3 -s 0 -d 0 -q --cgroup /s28 --cpu 1
pid=$(awk '$2 == "s28" { print $1 }' "$BG_PIDS")
sleep 0.3
tids=
for t in /proc/$pid/task/*; do
	[ "${t##*/}" = "$pid" ] && continue
	taskset -p 0x22 "${t##*/}" >/dev/null
	tids="$tids ${t##*/}"
done
sleep 0.5
thr0=$(awk '$1 == "nr_throttled" { print $2 }' "$CG/s28/cpu.stat")
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/sched_shadow/lb_verdict/enable
echo 1 > $T/events/sched/sched_migrate_task/enable
lb_reset
echo 1 > $T/tracing_on
sleep 4
echo 0 > $T/tracing_on
echo 0 > $T/events/sched_shadow/lb_verdict/enable
echo 0 > $T/events/sched/sched_migrate_task/enable
thr1=$(awk '$1 == "nr_throttled" { print $2 }' "$CG/s28/cpu.stat")
grep -E 'lb_verdict:|sched_migrate_task:' $T/trace > /tmp/l28.trace
cat "$SS/lb_attempts" > /tmp/l28.att
bg_stop
cg_rm /s28
vm_export lb28-trace.txt /tmp/l28.trace >/dev/null 2>&1

if [ "$thr1" -gt "$thr0" ]; then ok "lb throttle: cpu.max throttled the group ($thr0 -> $thr1 periods)"; else not_ok "lb throttle: cpu.max throttled the group" "nr_throttled $thr0 -> $thr1"; fi

# per dst-5 event: verdict, moved, active, and cpu1's entry (the hogs' CPU)
awk -v hog=1 '
/lb_verdict: dst_cpu=5 / {
	v = m = a = ""; thr = any = unk = msk = "x"
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^verdict=/) v = substr($i, 9)
		if ($i ~ /^moved=/) m = substr($i, 7)
		if ($i ~ /^active=/) a = substr($i, 8)
		if ($i ~ /^cpus=/) {
			n = split(substr($i, 6), e, ";")
			for (k = 1; k <= n; k++) {
				split(e[k], f, ",")
				if (f[2] == hog) { any = f[16]; unk = f[18]; thr = f[19]; msk = f[20] }
			}
		}
	}
	print v, m, a, thr, any, unk, msk
}' /tmp/l28.trace > /tmp/l28.ev
nev=$(wc -l < /tmp/l28.ev)
nthr=$(awk '$4 != "x" && $4 > 0' /tmp/l28.ev | wc -l)
allthr=$(awk '$4 != "x" && $4 > 0 && $5 == 0 && $6 == 0 && $7 == "-"' /tmp/l28.ev | wc -l)
diag "lb_throttle $mode; $nev judged attempts at cpu5; $nthr list throttled waiters on cpu1, $allthr with every waiter there throttled; verdicts:"
awk '{ print $1 }' /tmp/l28.ev | sort | uniq -c | diag
grep -E '^all (idle|newidle) ' /tmp/l28.att | awk '$5 > 0' | diag
if [ "$nev" -gt 0 ]; then ok "lb throttle: cpu5 made $nev judged attempts"; else not_ok "lb throttle: cpu5 made judged attempts" "none in the trace"; fi

case $mode in
src+dst)
	if [ "$nthr" -gt 0 ]; then ok "lb throttle: throttled waiters on cpu1 are listed as throttled ($nthr attempts)"
	else not_ok "lb throttle: throttled waiters on cpu1 are listed as throttled" "none in $nev attempts"; fi ;;
dst)
	if [ "$nthr" -eq 0 ]; then ok "lb throttle: task-based throttle: no throttled task stays queued (0 of $nev attempts list one)"
	else not_ok "lb throttle: task-based throttle: no throttled task stays queued" "$nthr attempts list one"; fi ;;
*)
	not_ok "lb throttle: the module reads the throttle state" "info lb_throttle '$mode'" ;;
esac

# the kernel's own moves in the attempts where every waiter of cpu1 was throttled
bad=$(awk '$4 != "x" && $4 > 0 && $5 == 0 && $6 == 0 && $7 == "-" && ($2 > 0 || $1 == "missed" || $1 == "wrong")' /tmp/l28.ev | wc -l)
if [ "$bad" -eq 0 ]; then ok "lb throttle: the kernel moved nothing and no missed/wrong verdict where every cpu1 waiter was throttled ($allthr attempts)"
else not_ok "lb throttle: the kernel moved nothing and no missed/wrong verdict where every cpu1 waiter was throttled" "$bad of $allthr"; grep -m3 'dst_cpu=5 ' /tmp/l28.trace | cut -c1-300 | diag; fi

moved5=$(awk '$2 > 0 { s += $2 } END { print s + 0 }' /tmp/l28.ev)
act5=$(awk '{ s += $3 } END { print s + 0 }' /tmp/l28.ev)
nright=$(awk '$2 > 0 && $1 != "right"' /tmp/l28.ev | wc -l)
mig=0
for t in $tids; do
	c=$(grep -c "sched_migrate_task: comm=[^ ]* pid=$t .*orig_cpu=1 dest_cpu=5" /tmp/l28.trace)
	mig=$((mig + c))
done
diag "tasks moved by cpu5's attempts $moved5 (active-balance kicks $act5); hog migrations cpu1 -> cpu5 (sched_migrate_task) $mig"
if [ "$nright" -eq 0 ] && [ "$moved5" -le "$mig" ] && [ "$mig" -le $((moved5 + act5)) ]; then
	ok "lb throttle: every attempt that moved is right; moved $moved5 <= migrations $mig <= moved + pushes $((moved5 + act5))"
else
	not_ok "lb throttle: every attempt that moved is right; moved <= migrations <= moved + pushes" "non-right movers $nright, moved $moved5, migrations $mig, pushes $act5"
fi
