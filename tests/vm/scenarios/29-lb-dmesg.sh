# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 29 (load-balancer audit): after the lb scenarios (20-28), the
# module with its kretprobe unloads cleanly and the kernel log since the
# first of them has no WARNING/BUG/Oops/stall/lockup.  The module is
# loaded again for whatever runs next.
# timeout: 60
mark=0
[ -f /run/lb.mark ] && mark=$(cat /run/lb.mark)
lb_model_export		# the last window of the lb scenarios' model counters
if module_loaded; then
	if unload_module; then ok "lb final: rmmod with the audit kretprobe attached"; else not_ok "lb final: rmmod with the audit kretprobe attached" "$(cat /tmp/rmmod.err)"; fi
fi
dmesg_since "$mark" | grep -i sched_shadow | tail -n 8 | diag
dmesg_clean "$mark" "lb final: kernel log clean since the first lb scenario (line $mark)"
rm -f /run/ko.params	# later scenarios load the module without the lb calibration
load_module || diag "reload failed: $(cat /tmp/insmod.err)"
