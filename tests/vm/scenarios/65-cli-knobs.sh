# SPDX-License-Identifier: GPL-2.0
# plan: 7
# Scenario 65: the kernel's switches as `sched-shadow run` reports and sets
# them, against the files themselves (cat of /sys/kernel/debug/sched/
# cgroup_mode and llc_balancing/enabled; "absent" where the kernel has none):
#   - run: each switch at the start (and unchanged at the end) as the files read;
#     --prom: sched_shadow_kernel_info{cgroup_mode=...,llc_balancing=...} 1;
#   - 7.3: --set cgroup_mode=smp: CMD sees (smp), the kernel's mode is back
#     after; SIGTERM to run: CMD ends, the mode is back; SIGKILL: the mode
#     stays, the state file stays, the next run puts it back and says so;
#   - 7.2, 7.3: --set llc_balancing=0: CMD sees 0, 1 after;
#   - a kernel without a switch: --set exits 2 with one line, CMD not run.
# Checks a kernel cannot have are skipped with the reason.
KSD=/sys/kernel/debug/sched
CLI=/bin/sched-shadow
R="$CLI run --no-module --no-bpf"
mode_of() { sed -n 's/.*(\([a-z]*\)).*/\1/p' $KSD/cgroup_mode 2>/dev/null; }
mode0=$(mode_of)
llc0=$(cat $KSD/llc_balancing/enabled 2>/dev/null)
diag "cgroup_mode: $(cat $KSD/cgroup_mode 2>/dev/null || echo absent); llc_balancing/enabled: ${llc0:-absent}"
rm -rf /run/sched-shadow

$R -o /tmp/s65.txt -- true 2>/tmp/s65.err
want_m=${mode0:-absent} want_l=${llc0:-absent}
got=$(grep '^kernel switches' /tmp/s65.txt)
[ "$got" = "kernel switches ($KSD, at start): cgroup_mode $want_m, llc_balancing $want_l" ] &&
	! grep -q 'changed during the run' /tmp/s65.txt
check $? "run: '$got' as the files read, the same at the end"
line=$($R --prom -- true 2>/dev/null | grep '^sched_shadow_kernel_info')
[ "$line" = "sched_shadow_kernel_info{cgroup_mode=\"$want_m\",llc_balancing=\"$want_l\"} 1" ]
check $? "run --prom: $line"

if [ -z "$mode0" ]; then
	rm -f /tmp/s65.ran
	$R --set cgroup_mode=smp -o /tmp/s65.txt -- touch /tmp/s65.ran > /tmp/s65.out 2>/tmp/s65.err
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < /tmp/s65.err)" -eq 1 ] && [ ! -e /tmp/s65.ran ] && [ ! -s /tmp/s65.out ]
	check $? "no cgroup_mode: run --set cgroup_mode=smp exits 2 with one line, CMD not run ($(cat /tmp/s65.err))"
	tap_skip "run --set cgroup_mode: SIGTERM" "this kernel has no $KSD/cgroup_mode"
	tap_skip "run --set cgroup_mode: SIGKILL, then the next run" "this kernel has no $KSD/cgroup_mode"
	tap_skip "run --set cgroup_mode: the next run restores" "this kernel has no $KSD/cgroup_mode"
else
	$R --set cgroup_mode=smp -o /tmp/s65.txt -- cat $KSD/cgroup_mode > /tmp/s65.out 2>/tmp/s65.err
	rc=$?
	[ $rc -eq 0 ] && grep -q '(smp)' /tmp/s65.out && [ "$(mode_of)" = "$mode0" ] && grep -q "cgroup_mode smp (run --set; was $mode0, restored)" /tmp/s65.txt && [ ! -e /run/sched-shadow/knobs ]
	check $? "run --set cgroup_mode=smp: CMD saw '$(cat /tmp/s65.out)', '$(mode_of)' after (was $mode0), report: restored"
	$R --set cgroup_mode=tasks -o /tmp/s65.txt -- sleep 30 2>/tmp/s65.err &
	p=$!
	i=0
	while [ "$(mode_of)" != tasks ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	during=$(mode_of)
	kill -TERM $p
	wait $p
	rc=$?
	[ "$during" = tasks ] && [ $rc -eq 143 ] && [ "$(mode_of)" = "$mode0" ] && grep -q 'cgroup_mode tasks (run --set; was' /tmp/s65.txt
	check $? "SIGTERM to run --set cgroup_mode=tasks: $during while CMD ran, exit $rc, '$(mode_of)' after"
	$R --set cgroup_mode=max -- sh -c 'echo $$ > /tmp/s65.pid; exec sleep 30' 2>/dev/null &
	p=$!
	i=0
	while [ "$(mode_of)" != max ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -KILL $p
	wait $p 2>/dev/null
	kill -KILL "$(cat /tmp/s65.pid)" 2>/dev/null
	after=$(mode_of)
	[ "$after" = max ] && [ -s /run/sched-shadow/knobs ]
	check $? "SIGKILL to run --set cgroup_mode=max: '$after' stays, the state file stays"
	$R -o /tmp/s65.out -- true 2>/tmp/s65.err
	[ "$(mode_of)" = "$mode0" ] && grep -q 'which did not finish, had set switches: cgroup_mode restored to' /tmp/s65.err && grep -q "^note: run [0-9]*, which did not finish" /tmp/s65.out && [ ! -e /run/sched-shadow/knobs ]
	check $? "the next run restores '$(mode_of)' and says so ($(cat /tmp/s65.err))"
fi
if [ -z "$llc0" ]; then
	tap_skip "run --set llc_balancing=0" "this kernel has no $KSD/llc_balancing"
else
	$R --set llc_balancing=0 -o /tmp/s65.txt -- cat $KSD/llc_balancing/enabled > /tmp/s65.out 2>/tmp/s65.err
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat /tmp/s65.out)" = 0 ] && [ "$(cat $KSD/llc_balancing/enabled)" = "$llc0" ]
	check $? "run --set llc_balancing=0: CMD saw '$(cat /tmp/s65.out)', $(cat $KSD/llc_balancing/enabled) after"
fi
# the kernel's defaults whatever happened
[ -z "$mode0" ] || echo "$mode0" > $KSD/cgroup_mode
[ -z "$llc0" ] || echo "$llc0" > $KSD/llc_balancing/enabled
rm -rf /run/sched-shadow
