# SPDX-License-Identifier: GPL-2.0
# Scenario 49 (wasted-core time): the windows the 4x scenarios recorded for
# the host oracle (tests/vm/host/49-wasted-oracle.sh compares them with the
# module's tables), and a clean kernel log.
# plan: 2
n=$(wc -l < /tmp/wasted-windows 2>/dev/null || echo 0)
[ "$n" -ge 1 ]
check $? "wasted oracle: windows recorded and exported for the host: $n ($(tr '\n' ' ' < /tmp/wasted-windows 2>/dev/null))"
dmesg | grep -E 'sched_shadow' | grep -iE 'warn|error|bug' | head -n 3 > /tmp/w49.dmesg
[ ! -s /tmp/w49.dmesg ]
check $? "wasted oracle: no module warning in dmesg"
