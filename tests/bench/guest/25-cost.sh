# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 1
# make bench, part 2b: what one switch and one msgbench run cost, side by
# side in one boot (1 vCPU, icount: guest time is guest instructions):
# - sched_switch: `pingpong` (two processes, one CPU, a byte back and
#   forth: every round trip two switches) with the module as shipped and
#   with its sched_switch hook left out (missing_tp=sched_switch), and the
#   probe's own body from stats=2 (every call timed);
# - the module (stats=1) and pelt-count's counting programs attached
#   during the same msgbench run (kernel.bpf_stats_enabled=1: their
#   run_time_ns and run_cnt), so both shares are of one run's events; the
#   raw_tp dispatch alone from `pingpong` with empty programs against
#   none;
# - wasted-core time's unknown share during one msgbench run.
# Each measurement is taken COST_ROUNDS times, alternating, medians kept.
# timeout: 1200
. /lib/vm/bench/bench.lib
OUT=/tmp/cost.csv
PP_ROUNDS=40000
COST_ROUNDS=3
for arg in $(cat /proc/cmdline); do
	case $arg in bench.pp=*) PP_ROUNDS=${arg#*=} ;; bench.cost_rounds=*) COST_ROUNDS=${arg#*=} ;; esac
done
echo "round,what,key,value" > $OUT
fail=0
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

# pp NAME: one pingpong run; its time and the switches it made
pp() {
	local c0 c1 t
	c0=$(ctxt)
	t=$(pingpong -n $PP_ROUNDS -c 0 | sed -n 's/.*time_ns=\([0-9]*\).*/\1/p')
	c1=$(ctxt)
	[ -n "$t" ] || { fail=1; return; }
	echo "$r,pp-$1,time_ns,$t" >> $OUT
	echo "$r,pp-$1,switches,$((c1 - c0))" >> $OUT
}

# pelt-count [-e] in the background, until pc_stop
pc_start() {
	local w=0
	pelt-count "$@" > /tmp/pc.out 2> /tmp/pc.err &
	echo $! > /tmp/pc.pid
	while ! grep -q '^pelt-count: attached$' /tmp/pc.out; do
		[ $w -ge 200 ] && { fail=1; return 1; }
		sleep 0.1
		w=$((w + 1))
	done
}

# pc_rows NAME: the programs' calls, run_cnt and run_time_ns into the csv
pc_rows() {
	awk -v r=$r -v n="$1" '$1 ~ /_tp$/ { printf "%s,%s,%s.run_cnt,%s\n%s,%s,%s.run_time_ns,%s\n", r, n, $1, $4, r, n, $1, $5 }' /tmp/pc.out >> $OUT
}

r=1
while [ $r -le "$COST_ROUNDS" ]; do
	# the sched_switch hook
	bench_config none || fail=1
	pp none
	modload $KO > /tmp/insmod.err 2>&1 || { fail=1; diag "$(cat /tmp/insmod.err)"; }
	pp module
	unload_module
	modload $KO missing_tp=sched_switch > /tmp/insmod.err 2>&1 || { fail=1; diag "$(cat /tmp/insmod.err)"; }
	pp noswitch
	unload_module
	modload $KO stats=2 > /tmp/insmod.err 2>&1 || { fail=1; diag "$(cat /tmp/insmod.err)"; }
	echo 1 > $SS/reset
	pp stats
	awk -v r=$r 'NR > 2 && ($1 == "sched_switch" || $1 == "clock_pair" || $1 == "sched_update_nr_running_tp") {
		print r ",pp-stats," $1 ".calls," $2; print r ",pp-stats," $1 ".mean," $4 }' $SS/stats >> $OUT
	unload_module
	# BPF: the raw_tp dispatch alone (empty programs) on the same pingpong
	sysctl -w kernel.bpf_stats_enabled=1 > /dev/null 2>&1 || echo 1 > /proc/sys/kernel/bpf_stats_enabled
	pc_start -e && pp bpfempty
	bpf_stop
	pc_rows pp-bpfempty
	# the module (stats=1) and the BPF counting programs during the same
	# msgbench run: each one's share of one run, over the same events
	modload $KO stats=1 > /tmp/insmod.err 2>&1 || fail=1
	echo 1 > $SS/reset
	pc_start && {
		t=$(msgbench -q $BENCH_MSG)
		bpf_stop
		echo "$r,msg-both,seconds,${t% *}" >> $OUT
		pc_rows msg-both
		awk -v r=$r 'NR > 2 && $4 != "-" && $5 != "-" && $1 !~ /^(walk|pelt_skipped|walk_steps|clock_pair)$/ {
			printf "%s,msg-both,%s.calls,%s\n%s,msg-both,%s.total_us,%s\n", r, $1, $2, r, $1, $5 }' $SS/stats >> $OUT
	}
	unload_module
	echo 0 > /proc/sys/kernel/bpf_stats_enabled
	# wasted-core time's unknown share during one msgbench run (module as shipped)
	modload $KO > /tmp/insmod.err 2>&1 || fail=1
	echo 1 > $SS/reset
	sleep 0.2
	t=$(msgbench -q $BENCH_MSG)
	awk -v r=$r 'NR > 2 && $2 == 1 { s += $3; u += $6 } END { printf "%s,msg-wasted,sampled_ms,%s\n%s,msg-wasted,unknown_ms,%s\n", r, s, r, u }' $SS/wasted >> $OUT
	grep -E '^wasted_(lost|changes|samples|sample_ns_mean) ' $SS/info | awk -v r=$r '{ print r ",msg-wasted," $1 "," $2 }' >> $OUT
	unload_module
	r=$((r + 1))
done
bench_config none
diag "cost: $(grep -c . $OUT) rows"
check $fail "cost: pingpong and msgbench measured in every configuration ($COST_ROUNDS rounds)"
vm_export cost.csv $OUT
