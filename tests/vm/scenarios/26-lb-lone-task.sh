# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 26 (load-balancer audit): a CPU whose only queued task is one
# CFS task has no work to give: that task runs there (or is about to,
# if the CPU is idle or its previous task is leaving).  In the published
# state: when nr_running == h_nr_running (no other class queued), at most
# h_nr_running - 1 tasks can be waiting, so movable < h_nr_running.
# Workload: one unpinned hog plus a pinned duty-cycle thread on every CPU
# (2 ms run / 8 ms sleep): each time such a thread goes to sleep next to
# the hog, the walk at its dequeue sees the hog queued and not `curr`.
# `cpus` is sampled every 2 ms; the verdicts and the snapshots of
# wrong/missed calls (lb_dump_every 1) are printed.
# Checks: no sample with nr_running == h_nr_running >= 1 and
# movable >= h_nr_running; no wrong/missed snapshot whose only work to
# give is such a CPU.
# timeout: 60
lb_need "lb lone task" || return 0

n=$(ncpus)
shcpu=$(pin_shell_last_cpu)
old_every=$(cat "$SS/lb_dump_every")
echo 1 > "$SS/lb_dump_every"
i=0
while [ $i -lt $n ]; do
	bg s26p$i burn -t 1 -r 2 -s 8 -d 0 -q --cpu $i
	i=$((i + 1))
done
bg s26h burn -t 1 -s 0 -d 0 -q --cpu 1 --widen --widen-ms 100
sleep 1
lb_reset
catn -n 600 -i 2 "$SS/cpus" > /tmp/l26.cpus
cat "$SS/lb" > /tmp/l26.lb
cat "$SS/lb_snapshots" > /tmp/l26.snap
bg_stop
echo "$old_every" > "$SS/lb_dump_every"

awk '
	/^=== ROUND/ { hdr = 0; next }
	/^# / { next }
	!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	$(c["nr_running"]) != "-" { print $(c["cpu"]), $(c["nr_running"]), $(c["h_nr_running"]), $(c["movable"]) }' /tmp/l26.cpus > /tmp/l26.rows
rows=$(wc -l < /tmp/l26.rows)
withm=$(awk '$4 >= 1 { k++ } END { print k + 0 }' /tmp/l26.rows)
lone=$(awk '$2 == $3 && $3 >= 1 && $4 >= $3 { k++ } END { print k + 0 }' /tmp/l26.rows)
diag "cpus samples (CPU rows): $rows; with movable >= 1: $withm; of those with nr_running == h_nr_running and movable >= h_nr_running: $lone"
diag "such rows by (cpu nr_running h_nr_running movable), with counts:"
awk '$2 == $3 && $3 >= 1 && $4 >= $3' /tmp/l26.rows | sort | uniq -c | sort -rn | head -n 8 | diag
diag "all rows with movable >= 1 by (cpu nr_running h_nr_running movable):"
awk '$4 >= 1' /tmp/l26.rows | sort | uniq -c | sort -rn | head -n 12 | diag

diag "verdicts in the window (all idle+newidle actual): judged $(judged /tmp/l26.lb calls), right $(judged /tmp/l26.lb right), wrong $(judged /tmp/l26.lb wrong), missed $(judged /tmp/l26.lb missed), none $(judged /tmp/l26.lb none)"
# snapshots whose every non-local CPU with movable > 0 is a lone task
awk '
	/^[0-9]+ call / { n = $1; call[n] = $0; order[++k] = n; next }
	/^[0-9]+ group / { for (i = 3; i <= NF; i++) if ($i ~ /^local=/) loc[$1, substr($3, 7)] = substr($i, 7); next }
	/^[0-9]+ cpu / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (loc[$1, v["group"]] == 1 || v["movable"] < 1) next
		work[$1]++
		if (v["nr_running"] == v["h_nr_running"] && v["movable"] >= v["h_nr_running"]) { lone[$1]++; why[$1] = why[$1] " cpu" v["cpu"] ":nr=" v["nr_running"] ",h=" v["h_nr_running"] ",movable=" v["movable"] }
	}
	END {
		for (j = 1; j <= k; j++) { s = order[j]; if (work[s] && lone[s] == work[s]) { bad++; print "LONE " call[s] " |" why[s] } }
		printf "SNAPS %d %d\n", k, bad + 0
	}' /tmp/l26.snap > /tmp/l26.snapchk
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(sed -n 's/^SNAPS //p' /tmp/l26.snapchk)
nsnap=${1:-0} lonesnap=${2:-0}
diag "lb_snapshots: $nsnap wrong/missed calls kept, $lonesnap of them with only lone-task CPUs as work to give:"
grep '^LONE ' /tmp/l26.snapchk | cut -c6-300 | head -n 4 | diag

# not on empty data: the samples must hold the case under test (CPUs
# with only CFS tasks queued) and some real work to give (movable >= 1)
cand=$(awk '$2 == $3 && $3 >= 1 { k++ } END { print k + 0 }' /tmp/l26.rows)
jc=$(judged /tmp/l26.lb calls)
if [ "$rows" -gt 0 ] && [ "$cand" -ge 100 ] && [ "$withm" -ge 1 ] && [ "$lone" -eq 0 ]; then
	ok "lb lone task: no published CPU state with movable >= h_nr_running == nr_running ($rows samples, $cand with only CFS tasks queued, $withm with movable >= 1)"
else
	not_ok "lb lone task: no published CPU state with movable >= h_nr_running == nr_running" "$lone of $rows CPU samples publish a lone CFS task as work to give ($cand with only CFS tasks, need >= 100; $withm with movable, need >= 1)"
fi
if [ "$lonesnap" -eq 0 ] && [ "$jc" -gt 0 ]; then
	ok "lb lone task: no wrong/missed verdict caused only by a lone task ($jc judged calls, $nsnap snapshots)"
else
	not_ok "lb lone task: no wrong/missed verdict caused only by a lone task" "$lonesnap of $nsnap kept snapshots, $jc judged calls (need > 0)"
fi
