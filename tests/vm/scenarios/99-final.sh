# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 99: after everything, the module unloads and the kernel log of
# the whole run has no WARNING/BUG/Oops/stall/lockup.  The log goes to the
# host as build/vm-out/dmesg.txt.
# timeout: 60
if module_loaded; then
	if unload_module; then ok "final: rmmod after all scenarios"; else not_ok "final: rmmod after all scenarios" "$(cat /tmp/rmmod.err)"; fi
fi
dmesg > /tmp/dmesg.txt
vm_export dmesg.txt /tmp/dmesg.txt
dmesg_clean 0 "final: kernel log of the whole run clean"
