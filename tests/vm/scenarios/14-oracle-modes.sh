# SPDX-License-Identifier: GPL-2.0
# plan: 6
# Scenario 14: the sched/debug oracle of scenario 11 and the audit's model
# agreement under each of the kernel's own group-weight modes and with
# cache-aware balancing off: 7.3's cgroup_mode up, smp, concur, max, tasks
# (llc_balancing 1, the default), then concur with llc_balancing 0 (7.2 and
# 7.3 have llc_balancing).  A setting the kernel does not have is skipped
# with the reason (6.x: all six; 7.2: the five modes).
# Each setting is written to /sys/kernel/debug/sched before the workload
# starts and read back; then, with exact=1:
#   - scenario 11's hogs (pinned, niced, in /o/x, /o/a/y, /o/a/b/d,
#     /o/a/b/e, /o/c and /) are started, PELT left to settle (3 s, then
#     until no CPU's load_avg moves by 3 %), and 5 rounds of every hog's
#     /proc/TID/sched, sched/debug, `cpus`, `groups` and sched/debug again
#     (how far the kernel's own values moved in the round) read with catn and
#     exported (s14-TAG-rounds.txt, TAG up, smp, concur, max, tasks, llc0):
#     tests/vm/host/14-oracle-modes.sh recomputes shadow, shadow_fresh,
#     h_load and every shared field from the kernel's data alone
#     (sched_oracle.py), at depths 0-4;
#   - the hogs stopped and the module's counters reset, 9 unpinned threads
#     of short duty cycles (3 ms on, 2 ms off) in /o/a/b/d, /o/c and / for
#     8 s, so that newly idle CPUs balance all the time; then `info` is
#     exported (s14-TAG.info): the host checks the model's agreement with
#     the kernel against the VM suite's targets (lb_agreement.py --check).
# The kernel's defaults (concur, llc_balancing 1) are written back at the end.
# Fewer rounds than scenario 11 (5, exact=1 only) keep the six settings to
# about 5.5 minutes of 7.3 under single-threaded TCG (322.8 s measured).
# timeout: 600
KSD=/sys/kernel/debug/sched
SETTINGS="cgroup_mode=up cgroup_mode=smp cgroup_mode=concur cgroup_mode=max cgroup_mode=tasks llc_balancing=0"
unload_module
if ! modload "$KO" exact=1 > /tmp/insmod.err 2>&1; then
	for s in $SETTINGS; do
		not_ok "oracle[$s]: module loaded (exact=1)" "$(cat /tmp/insmod.err)"
	done
	return 0
fi
SD=$KSD/debug
reader=$(pin_shell_last_cpu)
mode0=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' $KSD/cgroup_mode 2>/dev/null)
llc0=$(cat $KSD/llc_balancing/enabled 2>/dev/null)
diag "the kernel's switches at the start: cgroup_mode '${mode0:-absent}' ($(cat $KSD/cgroup_mode 2>/dev/null || echo none)), llc_balancing '${llc0:-absent}'"
# one_setting NAME VALUE: the oracle's rounds and the model's counters under it
one_setting() {
	local name=$1 val=$2 tag=$1=$2 got np ne nr tids bad x
	# the exports' tag: up, smp, concur, max, tasks; llc0
	x=$(echo "$tag" | sed 's/cgroup_mode=//; s/llc_balancing=/llc/')
	case $name in
	cgroup_mode) echo "$val" > $KSD/cgroup_mode 2>/tmp/s14.werr
		got=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' $KSD/cgroup_mode) ;;
	llc_balancing) echo "$val" > $KSD/llc_balancing/enabled 2>/tmp/s14.werr
		got=$(cat $KSD/llc_balancing/enabled) ;;
	esac
	if [ "$got" != "$val" ]; then
		not_ok "oracle[$tag]: the setting is in force" "read back '$got'; $(cat /tmp/s14.werr)"
		return 0
	fi
	oracle_tree
	oracle_hogs s14 "$reader"
	tids=$ORACLE_TIDS bad=$ORACLE_BAD
	np=$(wc -l < /tmp/s14.placed)
	ne=$(wc -l < /tmp/s14.expect)
	sleep 3
	wait_converge 6 "$reader"
	files=
	for t in $tids; do files="$files /proc/$t/sched"; done
	catn -n 5 -i 400 $files "$SD" "$SS/cpus" "$SS/groups" "$SD" > /tmp/s14.rounds 2>/tmp/s14.err
	nr=$(grep -c "^=== ROUND [0-9]* $SS/groups" /tmp/s14.rounds)
	bg_stop
	# the balancer's turn: unpinned short duty cycles (3 ms on, 2 ms off) in
	# a nested group, a first-level one and the root, 9 threads on 6 CPUs:
	# every sleep is a newly idle CPU's balancing attempt
	echo 1 > "$SS/reset"
	bg s14w1 burn -t 4 -r 3 -s 2 -d 8 -q --cgroup /o/a/b/d
	bg s14w2 burn -t 3 -r 3 -s 2 -d 8 -q --cgroup /o/c
	bg s14w3 burn -t 2 -r 3 -s 2 -d 8 -q
	sleep 8
	cat "$SS/info" > /tmp/s14.info
	bg_stop
	cg_rm /o
	awk '{ print $1, $2, $3 }' /tmp/s14.expect > /tmp/s14.exp3
	# exported after the last setting: the serial port's transmit work
	# would otherwise queue kworkers behind the next setting's reads
	mv /tmp/s14.rounds "/tmp/s14-$x-rounds.txt"
	mv /tmp/s14.exp3 "/tmp/s14-$x-expect.txt"
	cp /tmp/s14.info "/tmp/s14-$x.info"
	EXPORTS="$EXPORTS $x"
	judged=$(awk '$1 == "lb_judged" { print $2 }' /tmp/s14.info)
	if [ "$np" -eq "$ne" ] && [ -z "$bad" ] && [ "$nr" -eq 5 ] && [ ! -s /tmp/s14.err ] &&
	   [ "${judged:-0}" -gt 0 ]; then
		ok "oracle[$tag]: in force before the hogs started; $ne hogs placed, 5 rounds read, $judged judged balancing attempts"
	else
		not_ok "oracle[$tag]: hogs placed, rounds read, attempts judged" \
			"$np of $ne hogs:$bad; $nr rounds; judged '$judged'; $(head -n 3 /tmp/s14.err)"
	fi
}

# which settings ran (the host skips only those this kernel has not)
: > /tmp/s14.settings
EXPORTS=
for s in $SETTINGS; do
	name=${s%%=*} val=${s#*=}
	case $name in
	cgroup_mode) [ -n "$mode0" ] || { echo "$s absent" >> /tmp/s14.settings
		tap_skip "oracle[$s]" "this kernel has no $KSD/cgroup_mode (7.3 and later)"; continue; } ;;
	llc_balancing) [ -n "$llc0" ] || { echo "$s absent" >> /tmp/s14.settings
		tap_skip "oracle[$s]" "this kernel has no $KSD/llc_balancing (CONFIG_SCHED_CACHE, 7.2 and later)"; continue; }
		# at the kernel's default mode
		[ -z "$mode0" ] || echo "$mode0" > $KSD/cgroup_mode ;;
	esac
	echo "$s ran" >> /tmp/s14.settings
	one_setting "$name" "$val"
done
vm_export s14-settings.txt /tmp/s14.settings
for x in $EXPORTS; do
	vm_export "s14-$x-rounds.txt" "/tmp/s14-$x-rounds.txt"
	vm_export "s14-$x-expect.txt" "/tmp/s14-$x-expect.txt"
	vm_export "s14-$x.info" "/tmp/s14-$x.info"
	rm -f "/tmp/s14-$x-rounds.txt"
done
# the kernel's own defaults again (what the next scenarios expect)
[ -n "$mode0" ] && echo "$mode0" > $KSD/cgroup_mode
[ -n "$llc0" ] && echo "$llc0" > $KSD/llc_balancing/enabled
unload_module	# the next scenario loads the default mode
