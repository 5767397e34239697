# SPDX-License-Identifier: GPL-2.0
# plan: 3
# Scenario 20 (load-balancer audit): three CFS hogs start pinned on one
# CPU, their affinity is widened to every CPU after 300 ms, the other
# CPUs are idle.  The audit must see judged calls (idle + newly idle) and
# count `right` verdicts, and the balancer must spread the hogs: at the
# end they run on >= 2 distinct CPUs (3 is the expected outcome and is
# reported, not required).  This shell is pinned to the last CPU so that
# its readers do not land on the hogs' CPUs.
# timeout: 60
lb_need "lb spread" || return 0

# hog_cpus PID: the CPU (stat field 39) of every thread but the main one
hog_cpus() {
	local t
	for t in /proc/$1/task/*; do
		[ "${t##*/}" = "$1" ] && continue
		awk '{ printf "%s ", $39 }' "$t/stat" 2>/dev/null
	done
}

shcpu=$(pin_shell_last_cpu)
hcpu=1
old_every=$(cat "$SS/lb_dump_every")
echo 1 > "$SS/lb_dump_every"
lb_reset
cat "$SS/lb" > /tmp/l20.0
bg s20 burn -t 3 -s 0 -d 0 -q --cpu $hcpu --widen --widen-ms 300
pid=$(awk '$2 == "s20" { print $1 }' "$BG_PIDS")
sleep 0.2
diag "hog threads' CPUs at 0.2 s (pinned to cpu$hcpu, shell on cpu$shcpu): $(hog_cpus $pid)"
for s in 1 2 3; do
	sleep 1
	diag "hog threads' CPUs at $s.2 s: $(hog_cpus $pid)"
done
cat "$SS/lb" > /tmp/l20.1
final=$(hog_cpus $pid)
cat "$SS/lb_snapshots" > /tmp/l20.snap
bg_stop
echo "$old_every" > "$SS/lb_dump_every"

c0=$(judged /tmp/l20.0 calls) r0=$(judged /tmp/l20.0 right)
c1=$(judged /tmp/l20.1 calls) r1=$(judged /tmp/l20.1 right)
diag "judged calls (all idle+newidle actual): $c0 after reset -> $c1; right: $r0 -> $r1"
diag "wrong $(judged /tmp/l20.1 wrong), missed $(judged /tmp/l20.1 missed), none $(judged /tmp/l20.1 none), busy calls $(lbv /tmp/l20.1 all busy actual calls)"
diag "lb actual rows after 3 s:"
awk '$3 == "actual" || NR == 2' /tmp/l20.1 | diag
if grep -q '^[0-9]* call ' /tmp/l20.snap; then
	diag "lb_snapshots (lb_dump_every 1, the last $(grep -c '^[0-9]* call ' /tmp/l20.snap) wrong/missed calls; call/group/cpu lines):"
	grep -E '^[0-9]+ (call|group|cpu) ' /tmp/l20.snap | sed 's/ runnable_avg=[0-9]* util_avg=[0-9]*//; s/ capacity=1024//' | cut -c1-230 | diag
fi
if [ "$c1" -gt "$c0" ]; then ok "lb spread: judged calls grow ($c0 -> $c1)"; else not_ok "lb spread: judged calls grow" "$c0 -> $c1"; fi
if [ "$r1" -gt "$r0" ]; then ok "lb spread: right verdicts grow ($r0 -> $r1)"; else not_ok "lb spread: right verdicts grow" "$r0 -> $r1"; fi
distinct=$(echo "$final" | tr ' ' '\n' | grep -v '^$' | sort -u | wc -l)
diag "hogs at the end on CPUs: $final($distinct distinct; 3 expected)"
if [ "$distinct" -ge 2 ]; then ok "lb spread: hogs spread to $distinct CPUs (>= 2)"; else not_ok "lb spread: hogs spread to >= 2 CPUs" "CPUs: $final"; fi
