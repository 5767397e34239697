# SPDX-License-Identifier: GPL-2.0
# Scenario 36 (freshness, the audit side): a balancing attempt that needs a
# CPU whose published state is not fresh is `void`, with that CPU's reason
# (docs/debugfs.md "lb verdicts").  Duty-cycle tasks (2 ms run, 3 ms sleep)
# on cpu0-4 make the CPUs go idle and balance all the time; the lb_verdict
# trace event records every judged attempt with its verdict and reason.
# One phase per cause, each the only one active while it is traced:
#  1. control, nothing toggled for 1.5 s: no void verdict at all (judged
#     attempts are there);
#  2. walk_budget=16 with 20 hogs on cpu1: cpu1's walks are over budget,
#     so every attempt whose domain holds cpu1 is void `walk_failed`, and
#     no void verdict says anything else;
#  3. `reset` written every 20 ms (100 times): void verdicts say `reset`
#     (each CPU is void from the reset until its next walk) and nothing else;
#  4. `enable` toggled 0/1 every 40 ms (40 times): void verdicts say
#     `disabled` and nothing else (the audit is disarmed while 0);
#  5. cpu4 taken offline and back 6 times: `cpus` says `hotplug` for cpu4
#     while it is offline, and void verdicts say `hotplug` and nothing
#     else.  None is expected: the module's hotplug callback runs on the CPU
#     (CPUHP_AP_ONLINE_DYN) before the scheduler adds it back to the
#     domains (CPUHP_AP_ACTIVE), and the CPU walks at its first event in
#     between (6.1: 0 void in 1812 judged attempts over the cycles).
# Phases 3 and 4 race the balancer against the writes: at least one void
# verdict is needed in each (6.1: 104 after 100 resets, 48 after 40 toggles).
# plan: 5
# timeout: 240
T="void verdicts"
need_module "$T" || return 0
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
TR=/sys/kernel/tracing
if [ ! -e $TR/events/sched_shadow/lb_verdict/enable ] || [ ! -r "$SS/lb" ]; then
	for i in 1 2 3 4 5; do not_ok "$T: phase $i" "no lb_verdict event or no audit ($(awk '$1 == "feature.lb_audit"' "$SS/info"))"; done
	return 0
fi
pin_shell_last_cpu > /dev/null
obuf=$(sed 's/ .*//' $TR/buffer_size_kb)
echo 4096 > $TR/buffer_size_kb
duty() {
	local c=0
	while [ $c -lt 5 ]; do
		bg s36d$c burn -t 1 -r 2 -s 3 -d 0 -q --cpu $c
		c=$((c + 1))
	done
}
trace_on() { echo 0 > $TR/tracing_on; echo > $TR/trace; echo 1 > $TR/events/sched_shadow/lb_verdict/enable; echo 1 > $TR/tracing_on; }
# trace_off NAME: stop, keep the verdicts, print "judged void_total void_<want>" and the other reasons
trace_off() {
	echo 0 > $TR/tracing_on
	echo 0 > $TR/events/sched_shadow/lb_verdict/enable
	grep 'lb_verdict:' $TR/trace > /tmp/s36.$1
	echo > $TR/trace
}
# count NAME WANT -> "judged voids-not-work_unknown want other-reasons work_unknown"
# work_unknown is the audit's own race detector (a CPU's published waiters
# not of the model's moment: docs/debugfs.md), independent of the cause a
# phase induces; the duty tasks' churn makes it: counted apart, and bounded
# (ok_wu: at most 1 in 20 judged attempts), so every other void must be the
# phase's own reason.
count() {
	awk -v want="$2" '{ n++ } / verdict=void / { r = $0; sub(/.* reason=/, "", r); sub(/ .*/, "", r)
		if (r == "work_unknown") { u++; next }
		v++; if (r == want) w++; else o[r]++ }
		END { s = ""; for (k in o) s = s k ":" o[k] ","; print n + 0, v + 0, w + 0, (s == "" ? "-" : s), u + 0 }' /tmp/s36.$1
}
ok_wu() { [ $(($2 * 100)) -le $(($1 * ${3:-5})) ]; }	# ok_wu JUDGED WORK_UNKNOWN [PERCENT, 5]
duty
sleep 1
# 1. control
trace_on
sleep 1.5
trace_off ctl
# shellcheck disable=SC2046 # the counts, split on purpose
set -- $(count ctl none)
diag "control: $1 judged attempts, $2 void other than work_unknown (reasons: $4), work_unknown $5"
res "$([ "$1" -gt 0 ] && [ "$2" -eq 0 ] && ok_wu "$1" "$5"; echo $?)" "$T: control: $1 judged attempts in 1.5 s, none void but work_unknown ($5, at most 5%)" "void $2: $4; work_unknown $5"

# 2. walk_failed: reload with the smallest budget, 20 hogs on cpu1
bg_stop
unload_module
if modload "$KO" walk_budget=16 > /tmp/insmod.err 2>&1; then
	duty
	bg s36h burn -t 20 -s 0 -d 0 -q --cpu 1
	sleep 1.5
	v1=$(ss_rows cpus cpu void | awk '$1 == 1 { print $2 }')
	trace_on
	sleep 1.5
	trace_off wf
	att=$(awk 'NR > 2 && $3 == "void" && $4 == "walk_failed" { n += $5 } END { print n + 0 }' "$SS/lb_attempts" 2>/dev/null)
	# shellcheck disable=SC2046 # the counts, split on purpose
	set -- $(count wf walk_failed)
	diag "walk_budget=16, 20 hogs on cpu1 (void $v1): $1 judged, $2 void, $3 walk_failed (other reasons: $4; work_unknown $5); lb_attempts void walk_failed rows: $att"
	# 20 hogs switching on cpu1 change its published waiters at every
	# switch: more attempts read it between two moments (7.2: 41 of 557,
	# 7.4 %); at most 15 % here
	res "$([ "$3" -gt 0 ] && [ "$2" -eq "$3" ] && ok_wu "$1" "$5" 15; echo $?)" \
		"$T: walk_failed on cpu1: $3 void verdicts say walk_failed, none another reason but work_unknown ($5, at most 15%)" "void $2, walk_failed $3, others $4, work_unknown $5"
	bg_stop
else
	not_ok "$T: walk_failed on cpu1" "walk_budget=16: $(cat /tmp/insmod.err)"
fi
unload_module
need_module "$T: reloaded" || return 0
duty
sleep 1

# 3. reset every 20 ms
trace_on
i=0
while [ $i -lt 100 ]; do echo 1 > "$SS/reset"; usleep 20000; i=$((i + 1)); done
trace_off rs
# shellcheck disable=SC2046 # the counts, split on purpose
set -- $(count rs reset)
diag "100 resets: $1 judged, $2 void, $3 reset (other reasons: $4; work_unknown $5)"
res "$([ "$3" -gt 0 ] && [ "$2" -eq "$3" ] && ok_wu "$1" "$5"; echo $?)" "$T: reset: $3 void verdicts say reset, none another reason but work_unknown ($5)" "void $2, reset $3, others $4, work_unknown $5"

# 4. enable toggled
trace_on
i=0
while [ $i -lt 40 ]; do echo 0 > "$SS/enable"; usleep 20000; echo 1 > "$SS/enable"; usleep 20000; i=$((i + 1)); done
trace_off en
# shellcheck disable=SC2046 # the counts, split on purpose
set -- $(count en disabled)
diag "40 enable toggles: $1 judged, $2 void, $3 disabled (other reasons: $4; work_unknown $5)"
res "$([ "$3" -gt 0 ] && [ "$2" -eq "$3" ] && ok_wu "$1" "$5"; echo $?)" "$T: enable toggles: $3 void verdicts say disabled, none another reason but work_unknown ($5)" "void $2, disabled $3, others $4, work_unknown $5"

# 5. hotplug
hp=/sys/devices/system/cpu/cpu4/online
if [ -w $hp ]; then
	trace_on
	i=0 offv=
	while [ $i -lt 6 ]; do
		echo 0 > $hp
		usleep 100000
		offv="$offv $(ss_rows cpus cpu void | awk '$1 == 4 { print $2 }')"
		usleep 50000
		echo 1 > $hp
		usleep 150000
		i=$((i + 1))
	done
	trace_off hp
	noff=$(echo "$offv" | tr ' ' '\n' | grep -c '^hotplug$')
	# shellcheck disable=SC2046 # the counts, split on purpose
	set -- $(count hp hotplug)
	diag "6 offline/online cycles of cpu4: cpus void of cpu4 while offline:$offv; $1 judged, $2 void, $3 hotplug (other reasons: $4; work_unknown $5)"
	res "$([ "$noff" -eq 6 ] && [ "$1" -gt 0 ] && [ "$2" -eq "$3" ] && ok_wu "$1" "$5"; echo $?)" \
		"$T: hotplug: cpu4 void hotplug while offline (6 of 6), $1 judged attempts, $3 void verdicts all say hotplug but work_unknown ($5)" \
		"offline:$offv; judged $1, void $2, hotplug $3, others $4, work_unknown $5"
else
	not_ok "$T: hotplug" "$hp not writable"
fi
bg_stop
echo "$obuf" > $TR/buffer_size_kb
