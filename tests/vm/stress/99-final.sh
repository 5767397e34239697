# SPDX-License-Identifier: GPL-2.0
# plan: 3
# Stress, last: the module unloads and the kernel log of the whole stress
# boot has no WARNING/BUG/Oops/stall/lockup/hung task; the log goes to the
# host as vm-out/dmesg.txt.
# timeout: 60
SCEN=99
. /lib/vm/stress/stress.lib
if module_loaded; then
	n=$(rmmod_retry)
	check $? "final: rmmod after the stress scenarios ($n attempts)"
fi
l=$(left_behind)
[ -z "$l" ] && ok "final: nothing left behind" || not_ok "final: nothing left behind" "left:$l"
dmesg > /tmp/dmesg.txt
vm_export dmesg.txt /tmp/dmesg.txt
diag "kernel log: $(wc -l < /tmp/dmesg.txt) lines, $(grep -c sched_shadow /tmp/dmesg.txt) of the module"
cp /tmp/dmesg.txt /tmp/dmesg.judged
# the known race's reports go (their own lines only, at most one per load
# and KNOWN_RACE_MAX in the boot: stress.lib); more than that fails too
races_ok=1
drop_debugfs_races /tmp/dmesg.judged || races_ok=0
if grep -q -E "$DMESG_BAD" /tmp/dmesg.judged || [ $races_ok -eq 0 ]; then
	not_ok "final: kernel log of the whole stress boot clean" \
		"$([ $races_ok -eq 0 ] && echo "$(cat /tmp/races.n) known-race reports, more than $KNOWN_RACE_MAX")"
	grep -E -B2 -A20 "$DMESG_BAD" /tmp/dmesg.judged | head -n 60 | diag
else
	ok "final: kernel log of the whole stress boot clean"
fi
