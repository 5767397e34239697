# SPDX-License-Identifier: GPL-2.0
# Scenario 42 (wasted-core time): a cpuset-restricted, overloaded socket.
# Cgroup /w42/s has cpuset.cpus 2-3 (package 1) and three hogs: one of
# them always waits, and no other CPU may run it.  CPUs 0, 1 and 4 idle.
# Wasted time counts only CPUs a waiter was allowed on, so the hogs'
# cgroup wastes nothing, and every wait of theirs is "every allowed CPU
# busy" (capacity), none "an allowed CPU idle" (balancer).  A second group
# /w42/o (cpuset 0-1,4) with two hogs started pinned on cpu0 and widened to
# its cpuset shows the other side: its waiter may go to 1 and 4, so any
# waste there is counted, on those CPUs only.  One 6 s window for the
# host oracle.
# plan: 5
# timeout: 120
need_module "wasted cpuset: module loaded" || return 0
. /lib/vm/wasted.sh
pin_shell_last_cpu > /dev/null
if [ "$(ncpus)" -ne 6 ] || ! grep -qw cpuset $CG/cgroup.controllers; then
	not_ok "wasted cpuset: 6 CPUs and the cpuset controller" "cpus $(ncpus), controllers: $(cat $CG/cgroup.controllers)"
	return 0
fi
echo "+cpu +cpuset" > $CG/cgroup.subtree_control
mkdir -p $CG/w42/s $CG/w42/o
echo "+cpu +cpuset" > $CG/w42/cgroup.subtree_control
echo 0-4 > $CG/w42/cpuset.cpus
echo 2-3 > $CG/w42/s/cpuset.cpus
echo 0-1,4 > $CG/w42/o/cpuset.cpus
name=w42
w_trace_start $name
bg w42s burn -t 3 -s 0 -d 0 -q -c /w42/s --trace-marker
bg w42o burn -t 2 -s 0 -d 0 -q -c /w42/o --cpu 0 --widen-to 0-1,4 --widen-ms 2000 --trace-marker
sleep 1
w_window_begin $name
sleep 6
w_window_end $name
bg_stop
sleep 0.3
cg_rm /w42
f=/tmp/$name.wasted_cgroups
awk 'NR > 1' /tmp/$name.wasted | diag
awk 'NR > 1' $f | diag
grep -E '^wasted_(samples|sample_ns|idle_wakeups|handoffs|stops)' /tmp/$name.info | tr '\n' ' ' | diag
cpus=$(awk '$1 ~ /^[0-9]+$/ && $2 == "burn" && $4 == "/w42/s" { print $3 }' /tmp/$name.tasks1 | sort -u | tr '\n' ' ')
[ "$cpus" = "2-3 " ]
check $? "wasted cpuset: the /w42/s hogs are confined to cpus 2-3 (Cpus_allowed_list: $cpus)"
sw=$(w_cg $f /w42/s wasted_ms) swt=$(w_cg $f /w42/s wait_ms) swi=$(w_cg $f /w42/s wait_idle_ms) swb=$(w_cg $f /w42/s wait_busy_ms)
[ "$swt" != "-" ] && awk -v w="$swt" 'BEGIN { exit !(w + 0 >= 1000) }'
check $? "wasted cpuset: /w42/s's hogs waited (one of three always does): $swt ms"
# at most the oracle's absolute bound, 20 ms: a hog moving between cpus 2
# and 3 can leave one idle for a moment, really (6.1 under TCG: cpu3 idle
# 1 ms in the trace, the module's 1.153 ms wasted, 2.140 ms idle-share);
# without the cpuset the hogs would waste seconds on cpus 0, 1 and 4
awk -v w="$sw" -v i="$swi" 'BEGIN { exit !(w + 0 <= 20 && i + 0 <= 20) }'
check $? "wasted cpuset: /w42/s wasted no CPU and never waited with an allowed CPU idle, within 20 ms (wasted $sw ms, idle-share $swi ms, busy $swb ms)"
# every wasted CPU had a waiter allowed there: /w42/s's hardly ever (their
# CPUs are busy), so the cgroups that may run on cpus 0,1,4,5 (/w42/o and
# the root's threads) explain the rest; cpus 2-3 waste /w42/s's moments only
ow=$(w_cg $f /w42/o wasted_ms) rw=$(w_cg $f / wasted_ms)
[ "$ow" = "-" ] && ow=0
[ "$rw" = "-" ] && rw=0
tot=$(awk 'NR > 2 { s += $5 } END { printf "%.3f", s }' /tmp/$name.wasted)
w23=$(awk 'NR > 2 && ($1 == 2 || $1 == 3) { s += $5 } END { printf "%.3f", s }' /tmp/$name.wasted)
diag "wasted in all $tot ms: /w42/o's waiters could have run there $ow ms, the root's $rw ms; cpus 2-3 $w23 ms"
sw0=$sw
[ "$sw0" = "-" ] && sw0=0
awk -v t="$tot" -v o="$ow" -v r="$rw" -v s="$sw0" -v z="$w23" 'BEGIN { exit !(t <= o + r + s + 1 && z <= 20 && z <= s + 1) }'
check $? "wasted cpuset: all waste ($tot ms) is explained by cgroups allowed there (/w42/o $ow + / $rw + /w42/s $sw0 ms), on the busy cpus 2-3 only /w42/s's, within 20 ms ($w23 ms)"
[ "$(cat /tmp/$name.lost)" -eq 0 ] && [ -s /tmp/$name.trace ]
check $? "wasted cpuset: raw events recorded for the oracle, none lost"
