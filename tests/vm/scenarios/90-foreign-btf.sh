# SPDX-License-Identifier: GPL-2.0
# plan: 4
# Scenario 90: a module built from the same sources and the VM kernel's
# headers but another kernel's BTF (the host's), with the BTF check
# deferred to load time, must refuse to load with exactly one clear
# "sched_shadow:" line and leave nothing behind.
# timeout: 60
F=/lib/vm/foreign
unload_module
if module_loaded; then
	not_ok "foreign BTF: real module unloaded first" "$(cat /tmp/rmmod.err)"
	return 0
fi
if [ ! -f $F/sched_shadow.ko ]; then
	not_ok "foreign BTF: insmod refused" "no foreign module in the initramfs: $(cat $F/BUILD_FAILED 2>/dev/null || echo 'not built')"
	return 0
fi
mark=$(dmesg_mark)
# modload: one finit_module(); busybox insmod would retry with init_module()
out=$(modload $F/sched_shadow.ko 2>/dev/null)
rc=$?
diag "modload: $out"
lines=$(dmesg_since "$mark" | grep 'sched_shadow:' | grep -v -E 'taints kernel|tainting kernel')
diag "dmesg since insmod:"
dmesg_since "$mark" | diag
if [ $rc -eq 1 ]; then ok "foreign BTF: insmod refused ($out)"; else not_ok "foreign BTF: insmod refused" "modload exit $rc: $out"; fi
nl=$(printf '%s' "$lines" | grep -c .)
if [ "$nl" -eq 1 ]; then ok "foreign BTF: exactly one sched_shadow: line says why"; else not_ok "foreign BTF: exactly one sched_shadow: line says why" "$nl lines"; fi
left=
module_loaded && left="$left in-/proc/modules"
[ -e "$SS" ] && left="$left $SS"
[ -e /sys/kernel/tracing/events/sched_shadow ] && left="$left tracing/events/sched_shadow"
if [ -z "$left" ]; then ok "foreign BTF: nothing left behind"; else not_ok "foreign BTF: nothing left behind" "left:$left"; fi
module_loaded && rmmod sched_shadow
dmesg_clean "$mark" "foreign BTF: kernel log clean"
