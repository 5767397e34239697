# SPDX-License-Identifier: GPL-2.0
# plan: 7
# Scenario 1: the module loads, its PELT/nr_running hooks are active (pelt_se_tp
# on standby until sched_load_se is enabled, scenario 9),
# it unloads, leaves nothing behind, and the kernel log stays clean.  The
# unsigned out-of-tree taint lines are expected and are not errors.
# timeout: 60
mark=$(dmesg_mark)
if load_module; then
	ok "load: insmod sched_shadow.ko"
else
	not_ok "load: insmod sched_shadow.ko" "$(cat /tmp/insmod.err)"
	dmesg_since "$mark" | diag
	return 0 2>/dev/null || exit 0
fi

if [ -r "$SS/info" ]; then
	for h in hook.pelt_cfs_tp hook.sched_update_nr_running_tp; do
		v=$(awk -v k="$h" '$1 == k { print $2 }' "$SS/info")
		if [ "$v" = active ]; then ok "load: info $h active"; else not_ok "load: info $h active" "got '$v'"; fi
	done
	# the trace feed's probes (trace_feed.c) are attached only while their event is on
	v=$(awk '$1 == "hook.pelt_se_tp" { print $2 }' "$SS/info")
	w=$(awk '$1 == "hook.pelt_cfs_tp.trace" { print $2 }' "$SS/info")
	if [ "$v" = standby:sched_load_se-off ] && [ "$w" = standby:sched_load_cfs_rq-off ]; then
		ok "load: info hook.pelt_se_tp and hook.pelt_cfs_tp.trace standby while the events are off"
	else
		not_ok "load: info hook.pelt_se_tp and hook.pelt_cfs_tp.trace standby while the events are off" "got '$v' '$w'"
	fi
	diag "info:"
	cat "$SS/info" | diag
else
	not_ok "load: $SS/info readable" "$(ls -la $SS 2>&1)"
fi

if unload_module; then ok "unload: rmmod sched_shadow"; else not_ok "unload: rmmod sched_shadow" "$(cat /tmp/rmmod.err)"; fi
left=
module_loaded && left="$left still-in-/proc/modules"
[ -e "$SS" ] && left="$left $SS"
[ -e /sys/kernel/tracing/events/sched_shadow ] && left="$left tracing/events/sched_shadow"
if [ -z "$left" ]; then ok "unload: nothing left behind"; else not_ok "unload: nothing left behind" "left:$left"; fi

dmesg_since "$mark" | diag
dmesg_clean "$mark" "load/unload: kernel log clean (no WARNING/BUG/Oops/stall/lockup)"
