# SPDX-License-Identifier: GPL-2.0
# Scenario 12: every sched_shadow trace event on at once, under a load that
# reaches each context the probes run in: CFS tasks
# in nested groups (one named with a space) migrating between CPUs
# (pelt_se_tp from migrate_task_rq_fair, under p->pi_lock only), an RT
# spinner preempting them (sched_switch walks), groups created, filled and
# removed in a loop (path cache misses; pelt_se_tp from
# unregister_fair_sched_group in a kworker, without the rq lock), and
# readers of /proc/PID/cgroup contending for kernfs_rename_lock, the
# sleeping lock (on PREEMPT_RT) the events used to take under the rq lock.
# The kernel log must stay clean: no "BUG: sleeping function called from
# invalid context", no "scheduling while atomic", no lockdep report, no
# stall.  On bookworm-rt (PREEMPT_RT) this is the RT boot; what
# that kernel can and cannot detect is in docs/debugfs.md, "Trace events".
# plan: 4
# timeout: 90
need_module "all events: module loaded" || return 0
T=/sys/kernel/tracing
E=$T/events/sched_shadow
mark12=$(dmesg_mark)
case $(uname -v) in *PREEMPT_RT*) diag "kernel $(uname -r): PREEMPT_RT" ;; *) diag "kernel $(uname -r): not PREEMPT_RT" ;; esac

echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $E/enable
echo 1 > $T/events/sched/sched_migrate_task/enable	# oracle: migrations happened
nev=$(ls -d $E/*/ | wc -l)
non=$(cat $E/*/enable | grep -c '^1$')
echo 1 > $T/tracing_on

cg_mk /rt/a
cg_mk "/rt/b c/d"
n=$(ncpus)
bg t12a burn -t $n -r 3 -s 2 -d 0 -q -W --widen-ms 100 --cgroup /rt/a
bg t12b burn -t 2 -r 4 -s 4 -d 0 -q -W --widen-ms 150 --cgroup "/rt/b c/d"
bg t12r rtspin -c $((n - 1)) -t 20 -s 30 -n 100
for i in 1 2; do
	bg t12p$i sh -c 'while :; do cat /proc/1/cgroup /proc/self/cgroup > /dev/null; done'
done
# churn: a group is made, a task runs in it on some CPU, the group goes
bg t12c sh -c 'i=0; while :; do i=$((i + 1)); d=/sys/fs/cgroup/rt/ch$i; mkdir "$d" || exit 1
	sh -c "echo \$\$ > $d/cgroup.procs; j=0; while [ \$j -lt 300 ]; do j=\$((j + 1)); done"
	rmdir "$d"; echo $i > /tmp/t12.churn.t; mv /tmp/t12.churn.t /tmp/t12.churn; done'
sleep 6
echo 0 > $T/tracing_on
bg_stop
# (written whole by a rename: a loop stopped in its write leaves the last count)
churn=$(cat /tmp/t12.churn 2>/dev/null)
churn=${churn:-0}
cp $T/trace /tmp/t12.trace
echo 0 > $E/enable
echo 0 > $T/events/sched/sched_migrate_task/enable
ncfs=$(grep -c 'sched_load_cfs_rq:' /tmp/t12.trace)
nse=$(grep -c 'sched_load_se:' /tmp/t12.trace)
nlb=$(grep -c 'lb_verdict:' /tmp/t12.trace)
nmig=$(grep -c 'sched_migrate_task:' /tmp/t12.trace)
nun=$(grep -c 'path=(unresolved)' /tmp/t12.trace)
diag "records: sched_load_cfs_rq $ncfs, sched_load_se $nse, lb_verdict $nlb ($nun with path=(unresolved)); sched_migrate_task $nmig; groups made and removed: $churn"
grep -E '^trace\.path_cache' "$SS/info" | tr '\n' ' ' | diag
[ "$nev" -ge 3 ] && [ "$non" -eq "$nev" ] && [ "$ncfs" -gt 0 ] && [ "$nse" -gt 0 ] &&
	ok "all events: all $nev sched_shadow events on, sched_load_cfs_rq and sched_load_se recorded" ||
	not_ok "all events: every sched_shadow event on and recording" "$non of $nev on, cfs_rq $ncfs se $nse"
[ "$nmig" -gt 0 ] && [ "$churn" -ge 5 ] &&
	ok "all events: the load reached migrations ($nmig) and group removals ($churn)" ||
	not_ok "all events: the load reached migrations and group removals" "migrations $nmig, groups removed $churn"
dmesg_clean "$mark12" "all events: kernel log clean (no sleeping-in-atomic BUG, no lockdep report, no stall)"
hse=$(awk '$1 == "hook.pelt_se_tp" { print $2 }' "$SS/info")
[ "$hse" = standby:sched_load_se-off ] && ok "all events: off again, pelt_se_tp detached" ||
	not_ok "all events: off again, pelt_se_tp detached" "hook.pelt_se_tp $hse"
cg_rm /rt
