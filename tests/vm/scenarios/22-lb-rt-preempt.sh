# SPDX-License-Identifier: GPL-2.0
# plan: 3
# Scenario 22 (load-balancer audit): an RT task (SCHED_FIFO spinner) takes
# the CPU where a CFS hog runs while the other CPUs are idle.  The
# preempted CFS task may run elsewhere, so it is work to give: `cpus`
# must show movable >= 1 on that CPU while the RT task runs (sampled
# every few ms by one reader), the audit must count `right` verdicts
# whose pick is that CPU's group (lb_verdict trace events), and the
# balancer should move the CFS task away (sched_migrate_task).
# Phase A: the hog is pinned to the CPU and widened to every CPU while the
# RT task runs.  Phase B keeps the hog waiting for the whole spin.
# timeout: 60
lb_need "lb rt preempt" || return 0
T=/sys/kernel/tracing

shcpu=$(pin_shell_last_cpu)
rcpu=2
# Phase A: the hog is pinned to cpu2 (so it cannot leave before the RT
# task comes), the RT task takes cpu2, then the hog's affinity is widened
# while it waits: the idle CPUs' balancer must find it as work to give.
bg s22 burn -t 1 -s 0 -d 0 -q --cpu $rcpu
pid=$(awk '$2 == "s22" { print $1 }' "$BG_PIDS")
sleep 0.5
tid=
for t in /proc/$pid/task/*; do [ "${t##*/}" != "$pid" ] && tid=${t##*/}; done
where=$(awk '{ print $39 }' /proc/$pid/task/$tid/stat)
diag "CFS hog thread $tid runs on cpu$where before the RT task starts (shell on cpu$shcpu)"
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/sched_shadow/lb_verdict/enable
echo 1 > $T/events/sched/sched_migrate_task/enable
lb_reset
cat "$SS/lb" > /tmp/l22.0
bg s22c catn -n 1000 -i 1 "$SS/cpus"
echo 1 > $T/tracing_on
sleep 0.2
rtspin -c $rcpu -t 800 -n 1 -p 50 2>/tmp/l22.rt.err &
rtpid=$!
sleep 0.1
taskset -p 0x3f "$tid" > /dev/null
wait $rtpid
rt_rc=$?
sleep 0.1
echo 0 > $T/tracing_on
cat "$SS/lb" > /tmp/l22.1
end_cpu=$(awk '{ print $39 }' /proc/$pid/task/$tid/stat)
bg_stop
echo 0 > $T/events/sched_shadow/lb_verdict/enable
echo 0 > $T/events/sched/sched_migrate_task/enable
cp /tmp/s22c.log /tmp/l22.cpus
grep -E 'lb_verdict:|sched_migrate_task:' $T/trace > /tmp/l22.trace
echo > $T/trace
[ "$rt_rc" -eq 0 ] || diag "rtspin exited with $rt_rc: $(cat /tmp/l22.rt.err)"

# cpus rows of cpu $rcpu from every round: nr_running h_nr_running movable
awk -v cpu=$rcpu '
	/^=== ROUND/ { hdr = 0; next }
	/^# / { next }
	!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	$1 == cpu { print $(c["nr_running"]), $(c["h_nr_running"]), $(c["movable"]) }' /tmp/l22.cpus > /tmp/l22.rows
nrows=$(wc -l < /tmp/l22.rows)
mv_rt=$(awk '$3 != "-" && $3 >= 1 && $1 > $2 { n++ } END { print n + 0 }' /tmp/l22.rows)
mv_any=$(awk '$3 != "-" && $3 >= 1 { n++ } END { print n + 0 }' /tmp/l22.rows)
diag "cpu$rcpu in $nrows samples of cpus: $mv_rt with movable >= 1 and an RT task queued (nr_running > h_nr_running), $mv_any with movable >= 1 at all"
diag "cpu$rcpu (nr_running h_nr_running movable) over the samples in time order, as state x repeats:"
awk '{ k = $1 "/" $2 "/" $3; if (k == p) { n++; next } if (p != "") o = o " " p "x" n; p = k; n = 1 }
	END { if (p != "") o = o " " p "x" n; print o }' /tmp/l22.rows | fold -w 150 | diag
mig=$(awk -v tid=$tid -v cpu=$rcpu '/sched_migrate_task:/ && index($0, " pid=" tid " ") && index($0, "orig_cpu=" cpu " ") { n++ } END { print n + 0 }' /tmp/l22.trace)
diag "sched_migrate_task of the hog ($tid) away from cpu$rcpu: $mig; the hog is on cpu$end_cpu after the RT task ended"
grep 'sched_migrate_task:' /tmp/l22.trace | grep " pid=$tid " | head -n 4 | sed 's/^ *//' | cut -c1-200 | diag
vr=$(grep 'lb_verdict:' /tmp/l22.trace | grep -cE "verdict=right reason=[^ ]* pick=$rcpu ")
vall=$(grep -c 'lb_verdict:' /tmp/l22.trace)
diag "lb_verdict events: $vall judged, $vr right with the pick on cpu$rcpu's group; verdicts:"
grep 'lb_verdict:' /tmp/l22.trace | sed -n 's/.*\(verdict=[a-z]*\).*/\1/p' | sort | uniq -c | diag
grep 'lb_verdict:' /tmp/l22.trace | grep "verdict=right" | head -n 3 | sed 's/^ *//' | cut -c1-220 | diag
r0=$(judged /tmp/l22.0 right) r1=$(judged /tmp/l22.1 right)
diag "lb right (all idle+newidle actual): $r0 -> $r1; wrong $(judged /tmp/l22.1 wrong), missed $(judged /tmp/l22.1 missed), none $(judged /tmp/l22.1 none)"

if [ "$r1" -gt "$r0" ] && [ "$vr" -ge 1 ]; then
	ok "lb rt preempt: right verdicts counted ($r0 -> $r1), $vr picking cpu$rcpu's group"
else
	not_ok "lb rt preempt: right verdicts counted picking cpu$rcpu's group" "right $r0 -> $r1, trace right with pick=$rcpu: $vr"
fi
if [ "$mig" -ge 1 ]; then
	ok "lb rt preempt: the CFS task moved away from cpu$rcpu"
else
	not_ok "lb rt preempt: the CFS task moved away from cpu$rcpu" "no sched_migrate_task from cpu$rcpu; hog ends on cpu$end_cpu"
fi

# Phase B: the same preemption, but the idle CPUs cannot take the hog (its
# affinity is cpu2 and cpu3, and cpu3 runs a pinned hog), so it waits
# behind the RT task for the whole spin instead of the ~1 ms the idle
# balancer needs in phase A: `cpus` must show it as work to give.
rcpu=2 ocpu=3
bg s22p burn -t 1 -s 0 -d 0 -q --cpu $ocpu
bg s22h burn -t 1 -s 0 -d 0 -q --cpu $rcpu
pid=$(awk '$2 == "s22h" { print $1 }' "$BG_PIDS")
sleep 0.5
tid=
for t in /proc/$pid/task/*; do [ "${t##*/}" != "$pid" ] && tid=${t##*/}; done
taskset -p 0xc "$tid" > /dev/null
sleep 0.3
# the hog's own /proc stat in every round: where it is queued (field 39)
# and its state (field 3), the oracle for "the hog waits on cpu2"
bg s22d catn -n 300 -i 2 "$SS/cpus" /proc/$pid/task/$tid/stat
rtspin -c $rcpu -t 600 -n 1 -p 50 2>/tmp/l22b.rt.err
sleep 0.1
bg_stop
awk -v cpu=$rcpu '
	/^=== ROUND/ { hdr = 0; f = $4; next }
	f ~ /stat$/ { hc = $39; hs = $3; if (row != "") print row, hc, hs; row = ""; next }
	/^# / { next }
	!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	$1 == cpu { row = $(c["nr_running"]) " " $(c["h_nr_running"]) " " $(c["movable"]) }' /tmp/s22d.log > /tmp/l22b.rows
nrows=$(wc -l < /tmp/l22b.rows)
# samples where the hog is queued on cpu2 (its stat: CPU 2, state R) while
# an RT task is there too (nr_running > h_nr_running): it waits behind it
rt_rows=$(awk -v cpu=$rcpu '$1 != "-" && $1 > $2 && $2 >= 1 && $4 == cpu && $5 == "R"' /tmp/l22b.rows | wc -l)
mv_rt=$(awk -v cpu=$rcpu '$3 != "-" && $3 >= 1 && $1 > $2 && $2 >= 1 && $4 == cpu && $5 == "R" { n++ } END { print n + 0 }' /tmp/l22b.rows)
diag "phase B: cpu$rcpu (nr_running h_nr_running movable) and the hog's CPU and state, x repeats over $nrows samples:"
awk '{ k = $1 "/" $2 "/" $3 " hog:" $4 $5; if (k == p) { n++; next } if (p != "") o = o " " p "x" n; p = k; n = 1 }
	END { if (p != "") o = o " " p "x" n; print o }' /tmp/l22b.rows | fold -w 150 | diag
# The balancer may move the hog to cpu3 after a while (6.1: 43 samples,
# ~90 ms, had it behind the RT task; 7.3: two per-CPU kthreads stay queued
# behind the RT task after it left, pinned, rightly not movable): in the
# samples where the hog's own stat says it is queued on cpu2 behind the RT
# task, at least 10 of them, 90 % show movable >= 1 (the two files are
# not read at one instant)
if [ "$rt_rows" -ge 10 ] && [ $((mv_rt * 10)) -ge $((rt_rows * 9)) ]; then
	ok "lb rt preempt: cpus shows the preempted CFS task as movable on cpu$rcpu ($mv_rt of $rt_rows samples with the hog queued there behind an RT task, >= 90 %)"
else
	not_ok "lb rt preempt: cpus shows the preempted CFS task as movable on cpu$rcpu" "$mv_rt of $rt_rows samples with the hog queued there behind an RT task show movable >= 1 (want >= 10 samples, 90 % of them)"
fi
