# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 1
# make bench, part 4 (SMP boots only: BENCH_AUDIT_TOPOLOGIES): the audit's
# cost per balancing attempt against domain size, and how much it perturbs
# newidle balancing.  Under TCG without icount these are guest-clock
# nanoseconds (host time): cost figures for comparison between sizes and
# configurations in one boot, not instruction counts.
# Workload: sched-shadow bench (wakeup latency: short sleeps, lots of
# newidle balancing) with a few hogs, BENCH_AUDIT_SECS seconds per visit,
# configurations alternated: `on` (default module), `off` (module loaded
# with no audit probe: lb_symbol names no function).  Per visit: attempts
# and mean ns of the audit's handlers (stats), the CPUs one attempt reads
# (the domain's span, weighted by attempts), newidle lb_count summed over
# every CPU's domains (/proc/schedstat) and the largest max_newidle_lb_cost
# (sched/domains in debugfs); the wakeup probe's calls and mean ns per call
# (select_task_rq_fair's return) beside the nr_running probe's, from the
# same stats (at 1 vCPU select_task_rq() never calls select_task_rq_fair:
# every task allows one CPU, so only these SMP boots measure it).
# timeout: 1800
. /lib/vm/bench/bench.lib
N=$(grep -c ^processor /proc/cpuinfo)
OUT=/tmp/audit.csv
SECS=10
ROUNDS=2
for arg in $(cat /proc/cmdline); do
	case $arg in
	bench.audit_secs=*) SECS=${arg#*=} ;;
	bench.audit_rounds=*) ROUNDS=${arg#*=} ;;
	esac
done
echo "cpus,config,round,secs,attempts,lb_return_calls,ns_per_attempt,ns_per_search,cpus_per_attempt,ns_per_cpu,newidle,max_newidle_cost,wakeup_calls,wakeup_ns,nr_running_ns" > $OUT
if [ "$N" -lt 2 ]; then
	ok "audit: skipped on $N CPU (no sched domains; BENCH_AUDIT_TOPOLOGIES boots SMP)"
	return 0
fi
fail=0
# lb_count and the other domain counters of /proc/schedstat move only with
# schedstats on (schedstat_inc()); off, every newidle figure reads 0
old_ss=$(cat /proc/sys/kernel/sched_schedstats)
echo 1 > /proc/sys/kernel/sched_schedstats
# the run-time option: -r (schbench's letter) in newer CLIs, -d before
DUR=-d
sched-shadow bench --help 2>&1 | grep -qE '(^|[ ,])-r([ ,]|$)' && DUR=-r

# newidle lb_count over every CPU's domains (third block of counters)
newidle() {
	awk '/^version/ { v = $2 } /^domain/ { named = v >= 17; per = named ? 11 : 8; first = named ? 4 : 3
		s += $(first + 2 * per) } END { print s + 0 }' /proc/schedstat
}
maxcost() {
	cat /sys/kernel/debug/sched/domains/cpu*/domain*/max_newidle_lb_cost 2>/dev/null | sort -n | tail -n 1
}
# col ROW COLUMN of a stats copy
scol() { awk -v r="$1" -v c="$2" 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == r { print $(h[c]) }' "$3"; }

# CPUs one judged attempt reads: its domain's span.  lb_attempts rows
# give attempts per domain name; a domain's span is read from cpu0's
# sched/domains (name -> span weight from /proc/schedstat's masks).
spans() {
	awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 } on && /^domain/ {
		m = (NF > 3 && $2 !~ /^[0-9a-f,]+$/) ? $3 : $2; gsub(",", "", m); w = 0
		for (i = 1; i <= length(m); i++) { d = index("0123456789abcdef", substr(m, i, 1)) - 1
			while (d) { w += d % 2; d = int(d / 2) } }
		print w }' /proc/schedstat > /tmp/a40.w
	i=0
	for d in /sys/kernel/debug/sched/domains/cpu0/domain*; do
		i=$((i + 1))
		echo "$(cat $d/name 2>/dev/null || echo d$i) $(sed -n ${i}p /tmp/a40.w)"
	done
}

visit() {
	local cfg=$1 r=$2 n0 n1 att calls ns nsr cpa wkc wkn nrn
	bench_config none
	if [ "$cfg" = on ]; then
		modload $KO stats=1 > /tmp/insmod.err 2>&1
	else
		modload $KO stats=1 lb_symbol=sched_shadow_bench_no_audit > /tmp/insmod.err 2>&1
	fi || { fail=1; diag "load ($cfg): $(cat /tmp/insmod.err)"; return; }
	bg a40h burn -t $((N / 2)) -r 50 -s 50 -d 0 -q
	sleep 1
	echo 1 > $SS/reset
	n0=$(newidle)
	sched-shadow bench -m 2 -t $((N > 4 ? N / 2 : 2)) $DUR $SECS > /tmp/a40.bench 2>&1
	n1=$(newidle)
	cat $SS/stats > /tmp/a40.stats
	cat $SS/lb_attempts > /tmp/a40.lb 2>/dev/null
	bg_stop
	att=$(scol lb_attempt calls /tmp/a40.stats)
	calls=$(scol lb_return calls /tmp/a40.stats)
	ns=$(scol lb_attempt mean /tmp/a40.stats)
	nsr=$(scol lb_return mean /tmp/a40.stats)
	# the wakeup probe (select_task_rq_fair's return) beside the nr_running probe, same boot and run
	wkc=$(scol wasted_wakeup calls /tmp/a40.stats)
	wkn=$(scol wasted_wakeup mean /tmp/a40.stats)
	nrn=$(scol sched_update_nr_running_tp mean /tmp/a40.stats)
	# CPUs read per judged attempt, weighted by attempts per domain
	cpa=$(spans | awk 'FNR == NR { w[$1] = $2; next }
		FNR > 2 && $1 != "all" && $2 != "busy" { a += $5; c += $5 * w[$1] }
		END { if (a) printf "%.1f", c / a; else print "-" }' - /tmp/a40.lb 2>/dev/null)
	npc=$(awk -v a="$ns" -v s="$nsr" -v c="$cpa" 'BEGIN { if (c + 0 > 0 && a != "-" && a != "") printf "%.0f", (a + 0) / c; else print "-" }')
	# a visit that saw no newidle balancing measured nothing of its cost
	[ $((n1 - n0)) -gt 0 ] || { fail=1; diag "$N CPUs, audit $cfg, round $r: newidle lb_count did not move ($n0 -> $n1)"; }
	echo "$N,$cfg,$r,$SECS,${att:-0},${calls:-0},${ns:--},${nsr:--},${cpa:--},$npc,$((n1 - n0)),$(maxcost),${wkc:-0},${wkn:--},${nrn:--}" >> $OUT
	diag "$N CPUs, audit $cfg, round $r: attempts ${att:-0} at ${ns:--} ns, searches ${calls:-0} at ${nsr:--} ns, ${cpa:--} CPUs per attempt; newidle attempts $((n1 - n0)), max_newidle_lb_cost $(maxcost); wakeup probe ${wkc:-0} calls at ${wkn:--} ns, nr_running probe ${nrn:--} ns"
	unload_module
}

r=1
while [ $r -le $ROUNDS ]; do
	visit on $r
	visit off $r
	r=$((r + 1))
done
bench_config none
echo "$old_ss" > /proc/sys/kernel/sched_schedstats
check $fail "audit: $ROUNDS rounds, audit on and off, $N CPUs, newidle balancing counted in every visit"
vm_export audit-$N.csv $OUT
