# SPDX-License-Identifier: GPL-2.0
# Scenario 35 (never a silently wrong number): the walk's
# limits are reported, not hidden.
#  1. walk_budget=16 (the smallest accepted) with 20 hogs on cpu1: the
#     walk is over budget, cpu1 counts it (`over_budget`), its `void` says
#     `walk_failed`, and `groups` has no rows for it (the last good walk's
#     rows would be stale) while the other CPUs keep theirs;
#  2. when the hogs are gone, cpu1 is fresh again and has rows;
#  3. 130 cgroups with one hog each on cpu1 (131 queued cfs_rqs): the
#     walk succeeds on either layout (261 entities, budget 1024, a table of
#     513 cfs_rqs), `groups` shows the first 64 rows (`max_groups`) and
#     `info` counts the CPU in `groups_truncated`;
#  4. afterwards nothing is truncated and cpu1 is fresh.
# plan: 5
# timeout: 180
T="walk limits"
need_module "$T" || return 0
mark=$(dmesg_mark)
shcpu=$(pin_shell_last_cpu)
C=1
layout=$(awk '$1 == "layout" { print $2 }' "$SS/info")
row() { ss_rows cpus cpu over_budget void | awk -v c=$C '$1 == c { print $2, $3 }'; }
grows() { ss_rows groups cpu | awk -v c=$1 '$1 == c { n++ } END { print n + 0 }'; }
others() { ss_rows groups cpu | awk -v c=$C -v s=$shcpu '$1 != c && $1 != s { n++ } END { print n + 0 }'; }
trunc() { awk '$1 == "groups_truncated" { print $2 }' "$SS/info"; }

# ---- 1, 2: the budget ----
unload_module
if ! modload "$KO" walk_budget=16 > /tmp/insmod.err 2>&1; then
	not_ok "$T: walk_budget=16 loads" "$(cat /tmp/insmod.err)"
	load_module
	return 0
fi
bg w35h burn -t 20 -s 0 -d 0 -q --cpu $C
# every hog queued first: the leader creates them from cpu$C, where each new
# one takes its share (a fresh clone's run sampled after 1.5 s and found
# cpu$C fresh with its root row: fewer than 17 were queued yet)
qn() { ss_rows cpus cpu h_nr_running | awk -v c=$C '$1 == c { n = $2 + 0 } END { print n + 0 }'; }
n=0
while [ "$(qn)" -lt 20 ] && [ $n -lt 40 ]; do sleep 0.25; n=$((n + 1)); done
sleep 1.5
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(row)
ob=$1 v=$2 g=$(grows $C) o=$(others)
diag "walk_budget=16, 20 hogs on cpu$C ($(qn) queued after $((n / 4)).$((n % 4 * 25)) s + 1.5 s): over_budget $ob, void $v, groups rows of cpu$C $g, of the other CPUs $o"
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
res "$([ "$ob" -gt 0 ] && [ "$v" = walk_failed ] && [ "$g" -eq 0 ] && [ "$o" -gt 0 ]; echo $?)" \
	"$T: over budget: cpu$C counts it ($ob), void walk_failed, no groups rows for it ($o rows of the other CPUs)" \
	"over_budget $ob, void $v, rows $g, other rows $o"
bg_stop
sleep 1
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(row)
v=$2 g=$(grows $C)
res "$([ "$v" = fresh ] && [ "$g" -ge 1 ]; echo $?)" \
	"$T: within budget again: cpu$C fresh with $g groups rows" "void $v, rows $g"
unload_module
need_module "$T: reloaded with the defaults" || return 0

# ---- 3, 4: more queued cgroups than groups holds (and, flat, than the walk's table) ----
i=1
while [ $i -le 130 ]; do
	cg_mk /w35/g$i
	bg w35g$i burn -t 1 -s 0 -d 0 -q --cpu $C --cgroup /w35/g$i
	i=$((i + 1))
done
sleep 3
ob0=$(row | awk '{ print $1 }')
sleep 1.5
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(row)
ob=$1 v=$2 g=$(grows $C) tr=$(trunc) o=$(others)
q=$(qn)
diag "130 cgroups x 1 hog on cpu$C (layout $layout): h_nr_running $q, over_budget $ob0 -> $ob, void $v, groups rows $g, groups_truncated $tr, rows of the other CPUs $o"
res "$([ "$ob" -eq "$ob0" ] && [ "$v" = fresh ] && [ "$g" -eq 64 ] && [ "$tr" -ge 1 ]; echo $?)" \
	"$T: 131 queued cfs_rqs ($layout): cpu$C fresh, 64 rows shown, counted in groups_truncated ($tr)" \
	"over_budget $ob0 -> $ob, void $v, rows $g, groups_truncated $tr"
bg_stop
cg_rm /w35
sleep 1
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(row)
v=$2 tr=$(trunc)
res "$([ "$v" = fresh ] && [ "$tr" -eq 0 ]; echo $?)" \
	"$T: afterwards cpu$C fresh and nothing truncated" "void $v, groups_truncated $tr"
dmesg_clean "$mark" "$T: kernel log clean"
