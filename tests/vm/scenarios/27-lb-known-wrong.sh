# SPDX-License-Identifier: GPL-2.0
# Scenario 27 (load-balancer audit v2): a pick that is known to be wrong.
# On the 3-socket VM (packages {0,1} {2,3} {4,5}):
#   socket 0: three hogs pinned to cpu0 and one pinned to cpu1: overloaded,
#             nothing can move;
#   socket 1: two hogs on cpu2 allowed on {2,5} (one can go to cpu5) and
#             one pinned to cpu3: overloaded, but with less load per CPU;
#   socket 2: one hog pinned to cpu4; cpu5 (this shell's CPU) goes idle.
# Eight times the two movable hogs are pinned back to cpu2 for 0.2 s, then
# allowed on {2,5} again for 0.5 s.  When cpu5 balances across packages,
# the kernel's rule (overloaded groups compared by avg_load) picks socket 0,
# finds everything pinned (LBF_ALL_PINNED), searches again and pulls from
# socket 1.  The audit must report those attempts as verdict `wrong`,
# reason `overloaded`, with redos and moved tasks; independent records
# confirm the counts: /proc/schedstat (lb_count = attempts, lb_gained =
# moved) and the sched_migrate_task events of the hogs from cpu2 to cpu5.
# The lb_verdict events are exported for the host checker
# (tests/vm/host/27-lb-known-wrong.sh re-judges each of them).
# plan: 7
# timeout: 120
lb_need "lb known wrong" || return 0
T=/sys/kernel/tracing

# ss_sum FILE COLS...: sum of those columns over every domain line of a
# copy of /proc/schedstat
ss_sum() { f=$1; shift; awk -v cols="$*" 'BEGIN { n = split(cols, c, " ") } $1 ~ /^domain/ { for (i = 1; i <= n; i++) s += $(c[i]) } END { print s + 0 }' "$f"; }
# att FILE VERDICT REASON COLUMN: sum over the all rows of lb_attempts (REASON * = any)
att() { awk -v v="$2" -v r="$3" -v col="$4" 'NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; next }
	NR > 2 && $1 == "all" && (v == "*" || $3 == v) && (r == "*" || $4 == r) { s += $(c[col]) }
	END { print s + 0 }' "$1"; }

n=$(ncpus)
pkgs=$(cat /sys/devices/system/cpu/cpu[0-5]/topology/physical_package_id 2>/dev/null | tr '\n' ' ')
shcpu=$(pin_shell_last_cpu)
if [ "$n" -ne 6 ] || [ "$pkgs" != "0 0 1 1 2 2 " ] || [ ! -r "$SS/lb_attempts" ]; then
	not_ok "lb known wrong: 6 CPUs in 3 packages and lb_attempts" "cpus $n, packages $pkgs, $(grep feature.lb_attempts $SS/info)"
	return 0
fi
bg k27a burn -t 3 -s 0 -d 0 -q --cpu 0
bg k27b burn -t 1 -s 0 -d 0 -q --cpu 1
bg k27c burn -t 1 -s 0 -d 0 -q --cpu 3
bg k27d burn -t 1 -s 0 -d 0 -q --cpu 4
bg k27m burn -t 2 -s 0 -d 0 -q --cpu 2
sleep 1
mpid=$(awk '$2 == "k27m" { print $1 }' "$BG_PIDS")
tids=
for t in /proc/$mpid/task/*; do [ "${t##*/}" != "$mpid" ] && tids="$tids ${t##*/}"; done
placed=
for p in $(awk '$2 ~ /^k27/ { print $1 }' "$BG_PIDS"); do
	for t in /proc/$p/task/*; do
		[ "${t##*/}" != "$p" ] && placed="$placed$(awk '{ print $39 }' $t/stat)"
	done
done
placed=$(echo "$placed" | fold -w1 | sort | tr -d '\n')
diag "hog threads per CPU (sorted CPU numbers): $placed; movable hogs (tids$tids); shell on cpu$shcpu"
[ "$placed" = "00012234" ]
check $? "lb known wrong: 8 hogs placed as built (cpu0 x3, cpu1, cpu2 x2, cpu3, cpu4)"

# 7.2+ with CONFIG_SCHED_CACHE (Debian's): cache-aware load balancing keeps
# a task on its process's preferred LLC, so the redo after LLC 0's pinned
# hogs may legitimately move nothing (seen on 7.3.4: 186 wrong attempts,
# 0 moved).  This scenario tests the classic rule: that policy is switched
# off for its duration and restored after.
LLCB=/sys/kernel/debug/sched/llc_balancing/enabled
old_llcb=
if [ -w "$LLCB" ]; then
	old_llcb=$(cat "$LLCB")
	echo 0 > "$LLCB"
	diag "cache-aware LLC balancing switched off for this scenario (was $old_llcb)"
fi
# lb_count and lb_gained move only while schedstats are on
old_ss=$(cat /proc/sys/kernel/sched_schedstats)
echo 1 > /proc/sys/kernel/sched_schedstats
# the audit's own cost per call (diagnostic: TCG timing is noise)
echo 1 > /sys/module/sched_shadow/parameters/stats
echo 0 > $T/tracing_on
echo > $T/trace
echo 4096 > $T/buffer_size_kb
echo 1 > $T/events/sched_shadow/lb_verdict/enable
echo 1 > $T/events/sched/sched_migrate_task/enable
# lb_count and lb_gained per idle type (Documentation/scheduler/sched-stats.rst):
# v15/v16 "domainN MASK" then 8 fields per idle type; v17 (6.16+) "domainN
# NAME MASK" then 11 (lb_imbalance split in four)
ssv=$(awk '$1 == "version" { print $2; exit }' /proc/schedstat)
case "$ssv" in
15|16) cnt="3 11 19" gnd="7 15 23" ;;
17) cnt="4 15 26" gnd="11 22 33" ;;
*) cnt='' gnd='' ;;
esac
[ -n "$cnt" ] || diag "/proc/schedstat version '$ssv' not understood: the schedstat checks fail"
# the two counts are taken back to back with the module's (reset, then a
# copy of /proc/schedstat; at the end lb_attempts, then a copy): attempts
# in the gap of the one are not in the other
lb_reset
cat /proc/schedstat > /tmp/l27.ss0
c0=$(ss_sum /tmp/l27.ss0 $cnt) g0=$(ss_sum /tmp/l27.ss0 $gnd)
echo 1 > $T/tracing_on
cy=0
while [ $cy -lt 8 ]; do
	for t in $tids; do taskset -p 4 $t > /dev/null; done
	sleep 0.2
	for t in $tids; do taskset -p 24 $t > /dev/null; done
	sleep 0.5
	cy=$((cy + 1))
done
cat "$SS/lb_attempts" > /tmp/l27.att
cat /proc/schedstat > /tmp/l27.ss1
cat "$SS/info" > /tmp/l27.info
cat "$SS/stats" > /tmp/l27.stats
echo 0 > /sys/module/sched_shadow/parameters/stats
c1=$(ss_sum /tmp/l27.ss1 $cnt) g1=$(ss_sum /tmp/l27.ss1 $gnd)
echo "$old_ss" > /proc/sys/kernel/sched_schedstats
[ -n "$old_llcb" ] && echo "$old_llcb" > "$LLCB"
echo 0 > $T/tracing_on
echo 0 > $T/events/sched_shadow/lb_verdict/enable
echo 0 > $T/events/sched/sched_migrate_task/enable
grep -E 'lb_verdict:|sched_migrate_task:' $T/trace > /tmp/l27.trace
bg_stop

diag "audit cost (stats: calls, timed, mean ns) of the search entry/return and the attempt-return handlers: $(awk '$1 ~ /^lb_/ { printf "%s %s %s %s; ", $1, $2, $3, $4 }' /tmp/l27.stats)"
diag "lb_attempts after 8 cycles (rows with attempts):"
awk 'NR <= 2 || $5 > 0' /tmp/l27.att | diag
grep -E '^lb_(unexplained|attempts|search|attempt_missed|missed)' /tmp/l27.info | tr '\n' ' ' | diag
w=$(att /tmp/l27.att wrong overloaded attempts) wr=$(att /tmp/l27.att wrong overloaded redos)
wm=$(att /tmp/l27.att wrong overloaded moved)
all=$(att /tmp/l27.att '*' '*' attempts) moved=$(att /tmp/l27.att '*' '*' moved)
skipped=$(awk '$1 == "lb_attempts_skipped" { print $2 }' /tmp/l27.info)
dc=$((c1 - c0)) dg=$((g1 - g0)) na=$((all + skipped))
diag "wrong/overloaded: $w attempts, $w redos-sum $wr, moved $wm; all attempts $all + skipped $skipped = $na vs schedstat lb_count delta $dc; moved $moved vs lb_gained delta $dg"
if [ "$w" -ge 3 ]; then ok "lb known wrong: the pinned socket's picks are reported wrong/overloaded ($w in 8 cycles)"; else not_ok "lb known wrong: the pinned socket's picks are reported wrong/overloaded" "$w attempts (want >= 3 of 8 cycles)"; fi
# Each wrong/overloaded attempt (its lb_verdict event) either searched
# again (redos >= 1) or ended at `redo` through should_we_balance(): work
# arrived on the destination meanwhile (newly idle: a queued task or a
# pending wakeup, 5.19+ "sched: Allow newidle balancing to bail out of
# load_balance"; idle: cpu5 no longer idle_cpu()), which the event shows as
# redos=0 moved=0 active=0 dst_work=1 (seen on 6.1: 1 of 17, a newidle
# attempt of rcu_preempt).  Any other ending is a failure.
kv=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
grep 'lb_verdict:.* verdict=wrong reason=overloaded ' /tmp/l27.trace | awk -v kv="$kv" '
	{ for (i = 1; i <= NF; i++) { split($i, f, "="); if (f[1] ~ /^(idle|redos|moved|active|dst_work)$/) e[f[1]] = f[2] } n++ }
	e["redos"] >= 1 { re++; rs += e["redos"]; next }
	e["moved"] == 0 && e["active"] == 0 && e["dst_work"] == 1 && (e["idle"] == "idle" || (e["idle"] == "newidle" && kv >= 5019)) { dw++; next }
	{ other++; if (!bad) bad = $0 }
	END { print n + 0, re + 0, rs + 0, dw + 0, other + 0 }' > /tmp/l27.exits
ew=$(cut -d' ' -f1 /tmp/l27.exits) ere=$(cut -d' ' -f2 /tmp/l27.exits) ers=$(cut -d' ' -f3 /tmp/l27.exits)
edw=$(cut -d' ' -f4 /tmp/l27.exits) eother=$(cut -d' ' -f5 /tmp/l27.exits)
diag "wrong/overloaded events: $ew; searched again $ere (redos $ers), ended at redo with work on cpu$shcpu (dst_work=1) $edw, otherwise $eother"
[ "$eother" -eq 0 ] || grep 'lb_verdict:.* verdict=wrong reason=overloaded ' /tmp/l27.trace | grep -v ' redos=[1-9]' | grep -v ' moved=0 active=0 dst_work=1 ' | head -n 3 | sed 's/^ *//' | cut -c1-400 | diag
if [ "$ew" -ge 1 ] && [ "$eother" -eq 0 ] && [ "$wm" -ge 1 ]; then ok "lb known wrong: those attempts searched again ($ere, redos $ers) or ended at redo with work on the destination ($edw), none otherwise of $ew; they moved $wm tasks"; else not_ok "lb known wrong: those attempts searched again or ended at redo with work on the destination, and then moved tasks" "$ew events: searched again $ere, dst_work $edw, otherwise $eother; moved $wm (table: redos $wr for $w attempts)"; fi
tol=$((dc / 33 + 10))
d=$((na - dc)); [ $d -lt 0 ] && d=$((-d))
if [ "$dc" -gt 0 ] && [ $d -le $tol ]; then ok "lb known wrong: attempts $na = schedstat lb_count delta $dc (+-$tol)"; else not_ok "lb known wrong: attempts = schedstat lb_count delta" "$na vs $dc (tolerance $tol)"; fi
tol=$((dg / 33 + 3))
d=$((moved - dg)); [ $d -lt 0 ] && d=$((-d))
if [ "$dg" -gt 0 ] && [ $d -le $tol ]; then ok "lb known wrong: moved $moved = schedstat lb_gained delta $dg (+-$tol)"; else not_ok "lb known wrong: moved = schedstat lb_gained delta" "$moved vs $dg (tolerance $tol)"; fi
pulls=$(grep -c 'sched_migrate_task: comm=burn .*orig_cpu=2 dest_cpu=5' /tmp/l27.trace)
ev5=$(grep 'lb_verdict: dst_cpu=5 ' /tmp/l27.trace | sed -n 's/.* moved=\([0-9]*\) .*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
wev=$(grep -c 'lb_verdict:.* verdict=wrong .*reason=overloaded .*moved=[1-9]' /tmp/l27.trace)
diag "trace: $(grep -c 'lb_verdict:' /tmp/l27.trace) lb_verdict events, $wev wrong/overloaded with moved > 0; hog pulls cpu2 -> cpu5 (sched_migrate_task) $pulls, moved by cpu5's attempts $ev5; first wrong events:"
grep 'lb_verdict:.*verdict=wrong' /tmp/l27.trace | head -n 3 | sed 's/^ *//' | cut -c1-400 | diag
# attempts from a busy destination are counted, not judged, so they emit no
# lb_verdict event: their moves (the busy row's `moved`) may account for a pull
bm=$(att /tmp/l27.att busy '*' moved)
# an attempt of cpu5 that started an active balance (active=1) moves its
# task later, from cpu2's stopper (active_load_balance_cpu_stop()): one
# pull each that its own moved= does not count
ac5=$(grep -c 'lb_verdict: dst_cpu=5 .* active=1 ' /tmp/l27.trace)
if [ "$pulls" -ge 1 ] && [ "$pulls" -le $((ev5 + bm + ac5)) ] && [ "$wev" -ge 1 ]; then ok "lb known wrong: sched_migrate_task shows $pulls hog pulls to cpu5, within the $ev5 tasks cpu5's judged attempts moved (+ $bm moved by busy attempts, not traced; + $ac5 active balances it started)"; else not_ok "lb known wrong: hog pulls to cpu5 confirmed by sched_migrate_task" "pulls $pulls, moved by cpu5's attempts $ev5 (+ $bm by busy attempts, + $ac5 active balances), wrong/overloaded events with moves $wev"; fi
grep 'lb_verdict:' /tmp/l27.trace > /tmp/l27.verdicts
# its lb_attempts table: docs/interpreting.md shows it (tests/vm/host/99-docs-console.sh)
vm_export lb27-attempts.txt /tmp/l27.att >/dev/null 2>&1
if [ -s /tmp/l27.verdicts ] && vm_export lb27-verdicts.txt /tmp/l27.verdicts; then ok "lb known wrong: $(wc -l < /tmp/l27.verdicts) lb_verdict events exported for the host checker"; else not_ok "lb known wrong: lb_verdict events exported for the host checker" "none"; fi
