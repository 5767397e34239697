# SPDX-License-Identifier: GPL-2.0
# Scenario 32 (work to give): a migrate_disable()d task
# is no work to give, whatever its affinity.  migdis holds migration
# disabled from user space (BPF_PROG_TEST_RUN keeps migrate_disable()
# around its runs, see tests/progs/migdis.c); with full preemption
# (/sys/kernel/debug/sched/preempt, PREEMPT_DYNAMIC) the tick preempts it
# there, so it waits migration-disabled.  Three tasks share socket
# 2-3's two CPUs, all restricted to it, none pinned to one CPU:
#  control: three hogs (a waiter is always movable: rows with a pinned
#           waiter are only kworkers, rare);
#  test:    two hogs and migdis: when migdis waits it counts as pinned.
# Oracles: Cpus_allowed_list (2-3 for all three: affinity pins none of
# them), nr_involuntary_switches of /proc/PID/sched (migdis was preempted),
# and the time migdis spent waiting (it never sleeps: the wall time of the
# sampling less its se.sum_exec_runtime, /proc/PID/sched, W): three tasks
# on two CPUs leave exactly one
# waiting, so migdis is the waiter in a share W of the samples, and the
# share of waiter rows with a pinned waiter must follow it: between W / 2
# and 1.5 W + 5 % (6.1: 86 of 250 rows, 34 %, the old bound asked 10 %).
# plan: 3
# timeout: 90
need_module "work migrate-disabled" || return 0
T="work migrate-disabled"
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
PRE=/sys/kernel/debug/sched/preempt
shcpu=$(pin_shell_last_cpu)
old=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' $PRE 2>/dev/null)
if ! echo full > $PRE 2>/dev/null; then
	tap_skip "$T: setup" "no PREEMPT_DYNAMIC ($PRE not writable): a migrate-disabled task is never preempted, so it never waits"
	tap_skip "$T: control" "see above"
	tap_skip "$T: migdis waiting counts as pinned" "see above"
	return 0
fi
# rows of CPUs 2 and 3 with a waiter: "waiters pinned"
sample() {	# sample FILE
	echo 1 > "$SS/reset"
	catn -n 250 -i 6 "$SS/cpus" > /tmp/s32.cpus
	awk '/^=== ROUND/ { hdr = 0; next } /^# / { next }
		!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
		($1 == 2 || $1 == 3) && $(c["void"]) == "fresh" && $(c["movable"]) + $(c["pinned"]) >= 1 {
			print $(c["movable"]) + $(c["pinned"]), $(c["pinned"]) }' /tmp/s32.cpus > "$1"
}
restrict() {	# restrict PID: every thread to CPUs 2-3
	for t in /proc/$1/task/*; do taskset -p c "${t##*/}" > /dev/null; done
}
bg s32h burn -t 3 -s 0 -d 0 -q --cpu 2
sleep 0.3
restrict "$(awk '$2 == "s32h" { print $1 }' "$BG_PIDS")"
sleep 0.5
sample /tmp/s32.ctl
bg_stop
bg s32h burn -t 2 -s 0 -d 0 -q --cpu 2
bg s32m migdis -d 30
sleep 0.3
mpid=$(awk '$2 == "s32m" { print $1 }' "$BG_PIDS")
restrict "$(awk '$2 == "s32h" { print $1 }' "$BG_PIDS")"
restrict "$mpid"
sleep 0.5
inv0=$(awk '/nr_involuntary_switches/ { print $3 }' /proc/$mpid/sched)
allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$mpid/status)
# migdis never sleeps: the time it did not run is time it waited
read -r w0 _ < /proc/uptime
x0=$(awk '$1 == "se.sum_exec_runtime" { print $3 }' /proc/$mpid/sched)
sample /tmp/s32.mig
x1=$(awk '$1 == "se.sum_exec_runtime" { print $3 }' /proc/$mpid/sched)
read -r w1 _ < /proc/uptime
inv1=$(awk '/nr_involuntary_switches/ { print $3 }' /proc/$mpid/sched)
# W in per mille: migdis's wait time over the wall time of the sampling
wpm=$(awk -v a="$x0" -v b="$x1" -v t0="$w0" -v t1="$w1" 'BEGIN { d = (t1 - t0) * 1000; w = (d > 0 && b != "") ? 1000 - (b - a) * 1000 / d : 0; printf "%d", w }')
alive=$(kill -0 "$mpid" 2>/dev/null && echo yes || echo no)
bg_stop
[ -n "$old" ] && echo "$old" > $PRE
cat /tmp/s32m.log 2>/dev/null | diag
c_rows=$(wc -l < /tmp/s32.ctl); c_pin=$(awk '$2 >= 1' /tmp/s32.ctl | wc -l)
m_rows=$(wc -l < /tmp/s32.mig); m_pin=$(awk '$2 >= 1' /tmp/s32.mig | wc -l)
diag "control: $c_rows waiter rows, $c_pin with a pinned waiter; migdis: $m_rows rows, $m_pin pinned; migdis involuntary switches $inv0 -> $inv1, Cpus_allowed_list $allowed; migdis waited $wpm per mille of the sampling"
res "$([ "$allowed" = 2-3 ] && [ "$alive" = yes ] && [ "${inv1:-0}" -gt "${inv0:-0}" ] &&
	[ "$c_rows" -ge 20 ] && [ "$m_rows" -ge 20 ]; echo $?)" \
	"$T: setup: migdis runs restricted to 2-3 and is preempted ($inv0 -> $inv1), waiter rows sampled ($c_rows, $m_rows)" \
	"allowed '$allowed' alive $alive inv $inv0 -> $inv1 rows $c_rows $m_rows"
res "$([ $((c_pin * 50)) -le "$c_rows" ]; echo $?)" \
	"$T: control (three hogs): at most 2% of waiter rows show a pinned waiter ($c_pin of $c_rows)"
# pinned share (per mille) within [W / 2, 1.5 W + 50]
ppm=$(( m_rows > 0 ? m_pin * 1000 / m_rows : 0 ))
res "$([ "$m_pin" -ge 20 ] && [ $((ppm * 2)) -ge "$wpm" ] && [ "$ppm" -le $((wpm * 3 / 2 + 50)) ]; echo $?)" \
	"$T: migdis waiting counts as pinned: $m_pin of $m_rows waiter rows ($ppm per mille; migdis waited $wpm per mille: between half and 1.5 x + 50)" \
	"pinned $ppm per mille of rows, migdis waiting $wpm per mille"
