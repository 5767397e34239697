# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 2
# make bench, part 4 (SMP boots only: BENCH_AUDIT_TOPOLOGIES): the audit's
# cost per balancing attempt against domain size, and how much it perturbs
# newidle balancing.  Under TCG without icount these are guest-clock
# nanoseconds (host time): cost figures for comparison between sizes and
# configurations in one boot, not instruction counts.
# Workload: sched-shadow bench (wakeup latency: short sleeps, lots of
# newidle balancing) with a few hogs, BENCH_AUDIT_SECS seconds per visit.
# 1. Cost visits, ROUNDS each, module reloaded per visit: `on` (default
#    module, stats=1) and `nocause` (wasted_cause=0: no can_migrate_task()
#    probe).  Per visit: attempts and mean ns of the audit's handlers
#    (stats), the CPUs one attempt reads (the domain's span, weighted by
#    attempts), the audit's own time per newly idle attempt (its handlers
#    from the attempt's entry to its return, which run with interrupts off:
#    info lb_audit_ns_max/mean.newidle) and the attempt's whole duration
#    (lb_attempt_ns_mean.newidle), the can_migrate_task() probe's calls and
#    ns, newidle lb_count summed over every CPU's domains (/proc/schedstat)
#    and the largest max_newidle_lb_cost (sched/domains in debugfs); the
#    wakeup probe's calls and mean ns per call (select_task_rq_fair's
#    return) beside the nr_running probe's, from the same stats (at 1 vCPU
#    select_task_rq() never calls select_task_rq_fair: every task allows
#    one CPU, so only these SMP boots measure it).
# 2. Perturbation: one load, BENCH_AUDIT_WINDOWS windows of SECS seconds with
#    the audit's probes armed and disarmed in turn (lb_audit=1/0, in ABBA
#    order), the same workload in each; newidle lb_count per window
#    (perturb-N.csv; report.py prints the on/off ratio with its 95 % interval).
# timeout: 2400
. /lib/vm/bench/bench.lib
N=$(grep -c ^processor /proc/cpuinfo)
OUT=/tmp/audit.csv
POUT=/tmp/perturb.csv
SECS=10
ROUNDS=2
WINDOWS=20
for arg in $(cat /proc/cmdline); do
	case $arg in
	bench.audit_secs=*) SECS=${arg#*=} ;;
	bench.audit_rounds=*) ROUNDS=${arg#*=} ;;
	bench.audit_windows=*) WINDOWS=${arg#*=} ;;
	esac
done
echo "cpus,config,round,secs,attempts,lb_return_calls,ns_per_attempt,ns_per_search,cpus_per_attempt,ns_per_cpu,newidle,max_newidle_cost,audit_ns_max,audit_ns_mean,attempt_ns_mean,newidle_timed,cmt_calls,cmt_ns,audit_us_hist,wakeup_calls,wakeup_ns,nr_running_ns" > $OUT
echo "cpus,window,config,secs,newidle" > $POUT
if [ "$N" -lt 2 ]; then
	ok "audit: skipped on $N CPU (no sched domains; BENCH_AUDIT_TOPOLOGIES boots SMP)"
	ok "audit perturbation: skipped on $N CPU"
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
	cat /sys/kernel/debug/sched/domains/cpu*/domain*/max_newidle_lb_cost \
		/proc/sys/kernel/sched_domain/cpu*/domain*/max_newidle_lb_cost 2>/dev/null | sort -n | tail -n 1
}
# col ROW COLUMN of a stats copy
scol() { awk -v r="$1" -v c="$2" 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == r { print $(h[c]) }' "$3"; }

# CPUs one judged attempt reads: its domain's span.  lb_attempts rows
# give attempts per domain name; a domain's span is read from cpu0's
# sched/domains (name -> span weight from /proc/schedstat's masks;
# /proc/sys/kernel/sched_domain before 5.13).
spans() {
	local dir=/sys/kernel/debug/sched/domains/cpu0
	[ -d $dir ] || dir=/proc/sys/kernel/sched_domain/cpu0
	awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 } on && /^domain/ {
		m = (NF > 3 && $2 !~ /^[0-9a-f,]+$/) ? $3 : $2; gsub(",", "", m); w = 0
		for (i = 1; i <= length(m); i++) { d = index("0123456789abcdef", substr(m, i, 1)) - 1
			while (d) { w += d % 2; d = int(d / 2) } }
		print w }' /proc/schedstat > /tmp/a40.w
	i=0
	for d in $dir/domain*; do
		[ -e "$d" ] || continue
		i=$((i + 1))
		echo "$(cat $d/name 2>/dev/null || echo d$i) $(sed -n ${i}p /tmp/a40.w)"
	done
}

# key VALUE of an info copy
ival() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }

visit() {
	local cfg=$1 r=$2 n0 n1 att calls ns nsr cpa wkc wkn nrn
	bench_config none
	# modload takes every parameter in its one PARAMS argument
	if [ "$cfg" = on ]; then
		modload $KO "stats=1" > /tmp/insmod.err 2>&1
	else
		modload $KO "stats=1 wasted_cause=0" > /tmp/insmod.err 2>&1
	fi || { fail=1; diag "load ($cfg): $(cat /tmp/insmod.err)"; return; }
	bg a40h burn -t $((N / 2)) -r 50 -s 50 -d 0 -q
	sleep 1
	echo 1 > $SS/reset
	n0=$(newidle)
	sched-shadow bench -m 2 -t $((N > 4 ? N / 2 : 2)) $DUR $SECS > /tmp/a40.bench 2>&1
	n1=$(newidle)
	cat $SS/stats > /tmp/a40.stats
	cat $SS/info > /tmp/a40.info
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
	# CPUs read per judged attempt, weighted by attempts per domain; "-"
	# when a domain with attempts has no span read
	cpa=$(spans | awk 'FNR == NR { w[$1] = $2; next }
		FNR > 2 && $1 != "all" && $2 != "busy" { a += $5; if ($1 in w && w[$1] > 0) c += $5 * w[$1]; else if ($5 > 0) u = 1 }
		END { if (a && !u) printf "%.1f", c / a; else print "-" }' - /tmp/a40.lb 2>/dev/null)
	npc=$(awk -v a="$ns" -v s="$nsr" -v c="$cpa" 'BEGIN { if (c + 0 > 0 && a != "-" && a != "") printf "%.0f", (a + 0) / c; else print "-" }')
	amax=$(ival lb_audit_ns_max.newidle /tmp/a40.info)
	amean=$(ival lb_audit_ns_mean.newidle /tmp/a40.info)
	awall=$(ival lb_attempt_ns_mean.newidle /tmp/a40.info)
	atimed=$(ival lb_audit_attempts_timed.newidle /tmp/a40.info)
	ahist=$(ival lb_audit_us_hist.newidle /tmp/a40.info | tr , ';')
	cmtc=$(scol wasted_cmt calls /tmp/a40.stats)
	cmtn=$(scol wasted_cmt mean /tmp/a40.stats)
	# a visit that saw no newidle balancing measured nothing of its cost
	[ $((n1 - n0)) -gt 0 ] || { fail=1; diag "$N CPUs, audit $cfg, round $r: newidle lb_count did not move ($n0 -> $n1)"; }
	[ "${atimed:-0}" -gt 0 ] || { fail=1; diag "$N CPUs, audit $cfg, round $r: no newly idle attempt timed (lb_audit_attempts_timed.newidle ${atimed:--})"; }
	echo "$N,$cfg,$r,$SECS,${att:-0},${calls:-0},${ns:--},${nsr:--},${cpa:--},$npc,$((n1 - n0)),$(maxcost),${amax:--},${amean:--},${awall:--},${atimed:-0},${cmtc:-0},${cmtn:--},${ahist:--},${wkc:-0},${wkn:--},${nrn:--}" >> $OUT
	diag "$N CPUs, $cfg, round $r: attempts ${att:-0} at ${ns:--} ns, searches ${calls:-0} at ${nsr:--} ns, ${cpa:--} CPUs per attempt; newly idle: the audit's time max ${amax:--} ns mean ${amean:--} ns over ${atimed:-0} (per 2^i us: ${ahist:--}), the attempt ${awall:--} ns; can_migrate_task probe ${cmtc:-0} calls at ${cmtn:--} ns; newidle attempts $((n1 - n0)), max_newidle_lb_cost $(maxcost); wakeup probe ${wkc:-0} calls at ${wkn:--} ns, nr_running probe ${nrn:--} ns"
	unload_module
}

r=1
while [ $r -le $ROUNDS ]; do
	visit on $r
	visit nocause $r
	r=$((r + 1))
done
check $fail "audit: $ROUNDS rounds, audit on and without the can_migrate_task probe, $N CPUs, newidle balancing counted and newly idle attempts timed in every visit"

# 2. the newidle perturbation: windows with the audit armed and disarmed in
# one load (ABBA: on off off on on off ...), the same workload in each
pfail=0
bench_config none
modload $KO > /tmp/insmod.err 2>&1 || { pfail=1; diag "load: $(cat /tmp/insmod.err)"; }
P=/sys/module/sched_shadow/parameters/lb_audit
bg a40h burn -t $((N / 2)) -r 50 -s 50 -d 0 -q
sleep 1
w=1
while [ $pfail -eq 0 ] && [ $w -le $WINDOWS ]; do
	case $((w % 4)) in 1|0) cfg=on v=1 ;; *) cfg=off v=0 ;; esac
	echo $v > $P
	armed=$(awk '$1 == "lb_audit_armed" { print $2 }' $SS/info)
	[ "$armed" = $v ] || { pfail=1; diag "window $w: lb_audit_armed $armed with the audit $cfg"; }
	n0=$(newidle)
	sched-shadow bench -m 2 -t $((N > 4 ? N / 2 : 2)) $DUR $SECS > /tmp/a40.bench 2>&1
	n1=$(newidle)
	[ $((n1 - n0)) -gt 0 ] || { pfail=1; diag "window $w ($cfg): newidle lb_count did not move"; }
	echo "$N,$w,$cfg,$SECS,$((n1 - n0))" >> $POUT
	diag "$N CPUs, window $w, audit $cfg: newidle attempts $((n1 - n0))"
	w=$((w + 1))
done
bg_stop
echo 1 > $P 2>/dev/null
bench_config none
echo "$old_ss" > /proc/sys/kernel/sched_schedstats
check $pfail "audit perturbation: $WINDOWS windows of $SECS s, the audit armed and disarmed in turn in one load, newidle balancing counted in each"
vm_export audit-$N.csv $OUT
vm_export perturb-$N.csv $POUT
