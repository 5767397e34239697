# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# bug: lb_hot_gained_wrong_accounting
# source: kSTEP's analysis docs/bugs_unplanned/lb_hot_gained_wrong_accounting.md (a row of its table of bugs it could not build: "pure statistics-accounting bug")
# fix: a430d99e3490 "sched/fair: Fix value reported by hot tasks pulled in /proc/schedstat" (v6.14-rc1): can_migrate_task() counted lb_hot_gained (and nr_forced_migrations) for a cache-hot task it let go, before detach_tasks() could still skip it because its load exceeded the imbalance; the fix counts in detach_task(), for the tasks really moved
# kernels: 5.10=present 6.1=fixed 6.12=fixed 7.2=fixed 7.3=fixed
# analysis: Debian's 5.10.223 can_migrate_task() does schedstat_inc(env->sd->lb_hot_gained[env->idle]) before returning 1 (no changelog entry for the fix); 6.1 carries it since 6.1.129 (changelog) and 6.1.192's detach_task() counts p->sched_task_hot; 6.12 since 6.12.13, and 6.12.117's and 7.3.4's fair.c count in detach_task() too
# topology: default
# construction: default machine; every queued task made cache-hot by raising the scheduler's migration_cost to 0.5 s (debugfs sched/migration_cost_ns; 5.10: sysctl kernel.sched_migration_cost_ns), so every task the balancer moves counts in lb_hot_gained; a nice 4 hog pinned to cpu2 and four nice 0 hogs allowed on cpus 2-3: two and two settle, cpu2 heavier by the nice 4 task, and cpu3's balancer sees an imbalance (about 211) that a nice 0 task's load (1024) passes only after three failed attempts (load >> nr_balance_failed); at the second the hot task is let go by can_migrate_task() and skipped by detach_tasks(); the window is `sched-shadow run` around a 6 s sleep, as for every entry
# rule: shown when the schedstat section of `sched-shadow run`'s JSON report has a domain and idle type whose lb_hot_gained is above its lb_gained (every task moved here is hot, so on a correct kernel the two are equal); otherwise not shown
# plan: 3
# timeout: 60
BUG=lb_hot_gained_wrong_accounting
. /lib/vm/wasted.sh
. /lib/vm/bugs.sh
need_module "$BUG: module loaded" || {
	not_ok "$BUG: no evidence without the module"
	not_ok "$BUG: no verdict without the module"
	return 0
}
pin_shell_last_cpu > /dev/null
knob=/sys/kernel/debug/sched/migration_cost_ns
[ -w $knob ] || knob=/proc/sys/kernel/sched_migration_cost_ns
old=$(cat $knob 2>/dev/null)
echo 500000000 > $knob 2>/dev/null
set_to=$(cat $knob 2>/dev/null)
bg hg_pinned burn -t 1 -s 0 -d 0 -q --cpu 2 --nice 4
bg hg_hogs burn -t 4 -s 0 -d 0 -q --cpus 2-3
sleep 1.5
# an independent reading of the same counters: /proc/schedstat before and
# after, every CPU, domain and idle type added up (schedstats on meanwhile)
ss_on=$(cat /proc/sys/kernel/sched_schedstats 2>/dev/null)
echo 1 > /proc/sys/kernel/sched_schedstats 2>/dev/null
hg_sum() {	# "gained hot_gained" summed over /proc/schedstat
	awk '$1 == "version" { v = $2 } $1 ~ /^domain/ {
		per = (v >= 17) ? 11 : 8; g = (v >= 17) ? 7 : 4; f = ($2 ~ /^[0-9a-f,]+$/) ? 3 : 4
		for (t = 0; t < 3; t++) { G += $(f + t * per + g); H += $(f + t * per + g + 1) } }
		END { printf "%d %d\n", G, H }' /proc/schedstat
}
read -r g0 h0 <<EOF
$(hg_sum)
EOF
bw_run 6
read -r g1 h1 <<EOF
$(hg_sum)
EOF
echo "${ss_on:-0}" > /proc/sys/kernel/sched_schedstats 2>/dev/null
nw=0
for t in $(bug_tids hg_hogs); do [ "$(bug_cpus_of "$t")" = 2-3 ] && nw=$((nw + 1)); done
mig=0
for t in $(bug_tids hg_hogs); do
	m=$(awk '$1 == "se.nr_migrations" { print $3 }' /proc/$t/sched 2>/dev/null)
	mig=$((mig + ${m:-0}))
done
bg_stop
[ -n "$old" ] && echo "$old" > $knob 2>/dev/null
[ "$set_to" = 500000000 ] && [ "$nw" -eq 4 ] && [ -s "/tmp/$BUG.report.json" ]
bug_built $? "migration_cost set to $set_to ns ($knob), four hogs on cpus 2-3 ($nw), run's report written; the hogs migrated $mig times; /proc/schedstat over the window: lb_gained +$((g1 - g0)), lb_hot_gained +$((h1 - h0)) (independent reading)"
bug_evidence_check
# the report's schedstat rows: domain, idle, lb_gained, lb_hot_gained
tr -d '\n' < "/tmp/$BUG.report.json" | tr '{' '\n' | awk -F'"' '/"lb_hot_gained"/ {
	d = ""; i = ""; g = ""; h = ""
	for (k = 1; k < NF; k++) {
		if ($k == "domain" && d == "") d = $(k + 2); if ($k == "idle" && i == "") i = $(k + 2)
		if ($k == "lb_gained") { v = $(k + 1); gsub(/[^0-9]/, "", v); g = v }
		if ($k == "lb_hot_gained") { v = $(k + 1); gsub(/[^0-9]/, "", v); h = v } }
	print d, i, g, h }' > /tmp/hg.rows
diag "run's schedstat rows (domain idle lb_gained lb_hot_gained): $(tr '\n' ';' < /tmp/hg.rows)"
worst=$(awk '{ x = $4 - $3 } n == 0 || x > bx || (x == bx && $4 > bh) { bx = x; bh = $4
	r = $1 " " $2 " lb_gained " $3 " lb_hot_gained " $4 } { n++ }
	END { print (n ? r : "no schedstat rows") }' /tmp/hg.rows)
shown=0
awk '$4 > $3 { f = 1 } END { exit !f }' /tmp/hg.rows && shown=1
bug_verdict "run's schedstat $worst (the row with the largest excess, then the most hot)" $shown
