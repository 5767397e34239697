# SPDX-License-Identifier: GPL-2.0
# plan: 5
# Scenario 10: what differs between kernels was decided by the BTF the
# module was built from, and matches the running kernel.  `info` reports
# the name the kernel uses for the hierarchical task count, whether
# entities can be dequeue-delayed, the sched_switch probe's arity and the
# balancer function the audit probes; each is checked against the kernel
# itself (sched features, the scheduler's debug dump, kallsyms, the
# release number for the tracepoint's arity).
# timeout: 60
need_module "kernel btf: module loaded" || return 0
info() { awk -v k="$1" '$1 == k { print $2 }' "$SS/info"; }

diag "kernel $(uname -r): $(grep -E '^(btf\.|feature\.lb_audit)' "$SS/info" | tr '\n' ' ')"

# delayed dequeue: the scheduler feature exists exactly when BTF has the field
dd=$(info btf.sched_entity.sched_delayed)
feat=/sys/kernel/debug/sched/features
[ -r "$feat" ] || feat=/sys/kernel/debug/sched_features
if [ ! -r "$feat" ]; then
	not_ok "kernel btf: sched features readable" "neither /sys/kernel/debug/sched/features nor sched_features"
elif grep -qw 'DELAY_DEQUEUE\|NO_DELAY_DEQUEUE' "$feat"; then
	[ "$dd" = present ]; check $? "kernel btf: sched_delayed present on a kernel with DELAY_DEQUEUE (info: $dd)"
else
	[ "$dd" = absent ]; check $? "kernel btf: sched_delayed absent on a kernel without DELAY_DEQUEUE (info: $dd)"
fi

# the hierarchical count's name is one the kernel's own debug dump knows
nr=$(info btf.cfs_rq.h_nr_running)
case $nr in
h_nr_running|h_nr_queued) ok "kernel btf: cfs_rq count field is $nr" ;;
*) not_ok "kernel btf: cfs_rq count field is h_nr_running or h_nr_queued" "got '$nr'" ;;
esac
SD=/sys/kernel/debug/sched/debug
[ -r "$SD" ] || SD=/proc/sched_debug
if grep -q "\.h_nr_queued" "$SD" 2>/dev/null; then
	[ "$nr" = h_nr_queued ]; check $? "kernel btf: sched/debug prints h_nr_queued, info says $nr"
elif grep -q "\.h_nr_running" "$SD" 2>/dev/null; then
	[ "$nr" = h_nr_running ]; check $? "kernel btf: sched/debug prints h_nr_running, info says $nr"
else
	# older dumps (5.10) print neither; the rename came with the kernels
	# that print it, so a kernel printing none must use the old name
	[ "$nr" = h_nr_running ]; check $? "kernel btf: sched/debug prints no count field (pre-rename kernel), info says $nr"
fi

# sched_switch arity: 5.18 added the prev_state argument (data, preempt,
# prev, next[, prev_state]).  The module read it from BTF; the test uses the
# release number as the independent oracle.
args=$(info btf.sched_switch.args)
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(uname -r | tr '.-' '  ')
kv=$(( $1 * 100 + $2 ))
if [ "$kv" -ge 518 ]; then want=5; else want=4; fi
[ "$args" = "$want" ]; check $? "kernel btf: sched_switch probe takes $want arguments on $(uname -r) (info: $args)"

# the audit probes a function this kernel has
lb=$(info feature.lb_audit)
sym=${lb#active:}
if [ "$sym" = "$lb" ]; then
	not_ok "kernel btf: load-balancer audit active" "info: $lb"
elif grep -q " $sym\$" /proc/kallsyms; then
	ok "kernel btf: audit probes $sym, present in kallsyms"
else
	not_ok "kernel btf: audit probes $sym, present in kallsyms" "not found"
fi
