# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# make test-big, 1: the machine booted as the topology asked for
# (big.topology= on the kernel command line, run-vm.sh VM_TOPO): online
# and possible CPUs, NUMA nodes, and the sched domains of cpu0 with the
# CPUs each spans (/proc/schedstat).
# plan: 2
T="topology"
topo=$(sed -n 's/.*big\.topology=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
online=$(ncpus)
possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
# cpu0's domains: name and span weight, innermost first (schedstat 17+,
# 6.13 on, names each domain before its mask: "domain0 SMT 00000003 ...")
doms=$(awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 } on && /^domain/ {
	m = ($2 ~ /^[0-9a-f,]+$/) ? $2 : $3; gsub(",", "", m); w = 0
	for (i = 1; i <= length(m); i++) { d = index("0123456789abcdef", substr(m, i, 1)) - 1
		while (d) { w += d % 2; d = int(d / 2) } }
	printf "%s%d", s, w; s = " " }' /proc/schedstat)
names=
for d in /sys/kernel/debug/sched/domains/cpu0/domain*; do
	[ -f "$d/name" ] && names="$names $(cat "$d/name")"
done
# (no name files in debugfs: the names schedstat 17+ gives)
[ -n "$names" ] || names=$(awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 }
	on && /^domain/ && $2 !~ /^[0-9a-f,]+$/ { printf "%s%s", s, $2; s = " " }' /proc/schedstat)
names=${names# }
diag "topology ${topo:-default}: $online online, $possible possible, $nodes NUMA node(s); cpu0 domains: ${names:-?} spanning ${doms:-?} CPUs"
t=/sys/devices/system/cpu/cpu0/topology
diag "cpu0 topology: threads $(cat $t/thread_siblings_list 2>/dev/null), core_cpus $(cat $t/core_cpus_list 2>/dev/null), die $(cat $t/die_cpus_list 2>/dev/null), package $(cat $t/package_cpus_list 2>/dev/null), cache index3 shared with $(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)"
case $topo in
smt32) want="32 32 2" wdoms="2 8 16 32" ;;
smt64) want="64 64 2" wdoms="2 16 32 64" ;;
ring16) want="16 16 4" wdoms="4 12 16" ;;
possible240) want="8 240 1" wdoms="4 8" ;;
*) want="$online $possible $nodes" wdoms="$doms" ;;
esac
# The kernel decides which of the firmware's hot-pluggable CPUs are
# possible: 6.1 takes QEMU 7.2's 232 disabled MADT entries, 7.x takes none
# (its boot log: "CPU topo: Allowing 8 present CPUs plus 0 hotplug CPUs").
# Such a kernel cannot make nr_cpu_ids exceed the present CPUs on this
# QEMU: the check is skipped with the kernel's line as the reason, and only
# then (8 possible and that line both; 6.1 still runs it).
hotplug0=$(dmesg 2>/dev/null | grep -o 'Allowing [0-9]* present CPUs plus 0 hotplug CPUs' | head -n 1)
if [ "$online $possible $nodes" = "$want" ]; then
	ok "$T: $topo: $online online, $possible possible, $nodes node(s)"
elif [ "$topo" = possible240 ] && [ "$possible" = "$online" ] && [ -n "$hotplug0" ]; then
	tap_skip "$T: $topo: online/possible/nodes" "this kernel took none of QEMU's hot-pluggable CPUs as possible (\"$hotplug0\"): $online possible, not 240"
else
	not_ok "$T: $topo: online/possible/nodes" "got $online $possible $nodes, want $want"
fi
if [ "$doms" = "$wdoms" ]; then
	ok "$T: $topo: cpu0's domains span $doms CPUs ($names)"
else
	not_ok "$T: $topo: cpu0's domains" "span $doms ($names), want $wdoms"
fi
vm_export topology-$topo.txt /proc/schedstat
