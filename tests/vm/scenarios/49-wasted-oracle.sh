# SPDX-License-Identifier: GPL-2.0
# Scenario 49 (wasted-core time): the windows the 4x scenarios recorded for
# the host oracle (tests/vm/host/49-wasted-oracle.sh compares them with the
# module's tables), the kprobe event on dequeue_task_fair() that measures
# the dequeue gap recorded in every window, and a clean kernel log.
# plan: 3
n=$(wc -l < /tmp/wasted-windows 2>/dev/null || echo 0)
[ "$n" -ge 1 ]
check $? "wasted oracle: windows recorded and exported for the host: $n ($(tr '\n' ' ' < /tmp/wasted-windows 2>/dev/null))"
# every window's probe: the symbol (kallsyms' type and name), the kprobe
# event, its filter and how many events it recorded
bad=''
probes=
for w in $(cat /tmp/wasted-windows 2>/dev/null); do
	p=/tmp/$w.probe
	probes="$probes $w: $(tr '\n' ' ' < "$p" 2>/dev/null);"
	grep -q '^kallsyms [tT] dequeue_task_fair$' "$p" 2>/dev/null &&
		grep -q '^kprobe 1 ' "$p" && awk '$1 == "events" && $2 > 0 { f = 1 } END { exit !f }' "$p" || bad="$bad $w"
done
[ "$n" -ge 1 ] && [ -z "$bad" ]
check $? "wasted oracle: dequeue_task_fair is a kernel symbol and its kprobe event recorded sleeping dequeues in every window${bad:+ (not in:$bad)}"
diag "probes:$probes"
dmesg | grep -E 'sched_shadow' | grep -iE 'warn|error|bug' | head -n 3 > /tmp/w49.dmesg
[ ! -s /tmp/w49.dmesg ]
check $? "wasted oracle: no module warning in dmesg"
