# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# plan: 1
# make bench, part 1: throughput and latency by configuration.
# Rounds: each round runs every configuration once, in an order rotated by
# one each round (so each configuration is measured before and after each
# other one equally often); a configuration's ratio in a round is its value
# over the value of "none" (not loaded) in the same round.  The host
# (tests/bench/report.py) prints medians and median ratios.
# Per visit: msgbench (hackbench-style pipes), then sched-shadow bench.
# timeout: 3000
. /lib/vm/bench/bench.lib
OUT=/tmp/bench.csv
echo "round,config,workload,metric,value" > $OUT
diag "rounds=$BENCH_ROUNDS configs='$BENCH_CONFIGS' msgbench $BENCH_MSG; sched-shadow bench $BENCH_LAT"
set -- $BENCH_CONFIGS
n=$#
fail=0
r=1
while [ $r -le $BENCH_ROUNDS ]; do
	order=
	i=0
	while [ $i -lt $n ]; do
		k=$(( (i + r - 1) % n + 1 ))
		# shellcheck disable=SC1083 # ${NAME}: the variable named by $k, through eval
		eval c=\${$k}
		order="$order $c"
		i=$((i + 1))
	done
	for c in $order; do
		bench_config $c || { fail=1; continue; }
		state=$(bench_audit_state)
		case $c:$state in
		none:-|bpf:-|noaudit:inactive:*|ftrace:inactive:*|all:active:*|stats:active:*|nowasted:active:*) ;;
		*) fail=1; diag "round $r: $c has audit state $state" ;;
		esac
		sync
		sleep 1
		m=$(msgbench -q $BENCH_MSG) || { fail=1; diag "msgbench failed"; }
		set -- $m
		echo "$r,$c,msg,time_s,$1" >> $OUT
		echo "$r,$c,msg,msgs_per_s,$2" >> $OUT
		sched-shadow bench $BENCH_LAT > /tmp/lat.out 2>&1 || { fail=1; diag "bench failed: $(tail -n 2 /tmp/lat.out)"; }
		p99=$(awk '$1 == "99.0th:" { print $2 }' /tmp/lat.out)
		rps=$(awk '$1 == "RPS:" { print $2 }' /tmp/lat.out)
		echo "$r,$c,lat,p99_us,${p99:--}" >> $OUT
		echo "$r,$c,lat,rps,${rps:--}" >> $OUT
		if [ $c = ftrace ]; then
			e=$(head -n 5 $TR/trace | sed -n 's/.*entries-in-buffer\/entries-written: *[0-9]*\/\([0-9]*\).*/\1/p')
			echo "$r,$c,trace,events_written,${e:--}" >> $OUT
		fi
		if [ $c = bpf ]; then
			bpf_stop || { fail=1; diag "pelt-count: $(cat /tmp/pc.err)"; }
			awk -v r=$r '$1 ~ /_tp$/ { print r ",bpf,bpfcount," $1 "," $2 }' /tmp/pc.out >> $OUT
			diag "round $r bpf: $(awk '$1 ~ /_tp$/ { printf "%s %s calls; ", $1, $2 }' /tmp/pc.out)"
		fi
		if [ $c = stats ]; then
			cp $SS/stats /tmp/stats.round$r
			cp $SS/info /tmp/info.round$r	# wasted-core sampler's cost (report.py)
		fi
		[ $c = nowasted ] && cp $SS/stats /tmp/stats-nowasted.round$r	# the same without it
		diag "round $r $c: msgbench $m; bench p99 ${p99:--} us rps ${rps:--}"
		set -- $BENCH_CONFIGS
	done
	r=$((r + 1))
done
bench_config none
check $fail "bench: $BENCH_ROUNDS rounds of: $BENCH_CONFIGS"
vm_export bench.csv $OUT
# (if, not &&: a configuration left out of bench.configs must not end the
# script with a failing status)
if [ -f /tmp/stats.round1 ]; then vm_export bench-stats.txt /tmp/stats.round$BENCH_ROUNDS; fi
if [ -f /tmp/info.round1 ]; then vm_export bench-info.txt /tmp/info.round$BENCH_ROUNDS; fi
if [ -f /tmp/stats-nowasted.round1 ]; then
	vm_export bench-stats-nowasted.txt /tmp/stats-nowasted.round$BENCH_ROUNDS
fi
