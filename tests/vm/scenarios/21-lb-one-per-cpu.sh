# SPDX-License-Identifier: GPL-2.0
# Scenario 21 (load-balancer audit): one CFS hog per CPU, nothing waiting.
# Six unpinned hog threads start on cpu0 and are widened to every CPU;
# once the balancer has settled them one per CPU, the counters are reset
# and read again 3 s later.  No CPU has work to give, so a judged call
# (idle/newly idle destination) can only be `none`; calls from busy
# destinations are counted apart.  Checks: zero `wrong` in the actual
# rows, and no judged verdict other than `none`.  Snapshots of every
# wrong/missed call are kept (lb_dump_every 1) and printed if any.
# timeout: 60
[ -f /run/lb.mark ] || dmesg_mark > /run/lb.mark
need_module "lb one per cpu: module loaded" || return 0
if [ ! -r "$SS/lb" ]; then
	not_ok "lb one per cpu: $SS/lb exists" "feature: $(awk '$1 == "feature.lb_audit"' "$SS/info")"
	return 0
fi

lbv() {
	awk -v d="$2" -v i="$3" -v t="$4" -v col="$5" '
		NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		NR > 2 && $1 == d && $2 == i && $3 == t { v = $(c[col]); f = 1 }
		END { print (f && v != "-") ? v + 0 : 0 }' "$1"
}
judged() { echo $(( $(lbv "$1" all idle actual "$2") + $(lbv "$1" all newidle actual "$2") )); }
hog_cpus() {
	local t
	for t in /proc/$1/task/*; do
		[ "${t##*/}" = "$1" ] && continue
		awk '{ printf "%s ", $39 }' "$t/stat" 2>/dev/null
	done
}
distinct() { echo "$1" | tr ' ' '\n' | grep -v '^$' | sort -u | wc -l; }

n=$(ncpus)
shcpu=$(pin_shell_last_cpu)
old_every=$(cat "$SS/lb_dump_every")
echo 1 > "$SS/lb_dump_every"
bg s21 burn -t $n -s 0 -d 0 -q --cpu 0 --widen --widen-ms 100
pid=$(awk '$2 == "s21" { print $1 }' "$BG_PIDS")
t=0
while [ $t -lt 10 ]; do
	sleep 0.5
	t=$((t + 1))
	cpus=$(hog_cpus $pid)
	[ "$(distinct "$cpus")" -eq "$n" ] && break
done
diag "after $((t * 5 / 10)).$((t * 5 % 10)) s the $n hogs run on CPUs: $cpus($(distinct "$cpus") distinct; shell on cpu$shcpu)"
sleep 0.5
echo 1 > "$SS/reset"
before=$(hog_cpus $pid)
sleep 3
cat "$SS/lb" > /tmp/l21
cat "$SS/lb_snapshots" > /tmp/l21.snap
after=$(hog_cpus $pid)
bg_stop
echo "$old_every" > "$SS/lb_dump_every"

diag "measurement window: hogs on CPUs $before-> $after"
calls=$(judged /tmp/l21 calls) right=$(judged /tmp/l21 right) wrong=$(judged /tmp/l21 wrong)
missed=$(judged /tmp/l21 missed) none=$(judged /tmp/l21 none) busy=$(lbv /tmp/l21 all busy actual calls)
diag "3 s window: judged $calls (right $right, wrong $wrong, missed $missed, none $none), busy-destination calls $busy"
diag "lb actual rows:"
awk '$3 == "actual" || NR == 2' /tmp/l21 | diag
nsnap=$(grep -c '^[0-9]* call ' /tmp/l21.snap)
if [ "$nsnap" -gt 0 ]; then
	diag "lb_snapshots ($nsnap recorded; call, group and cpu lines):"
	grep -E '^[0-9]+ (call|group|cpu) ' /tmp/l21.snap | cut -c1-260 | head -n 60 | diag
fi
if [ "$(distinct "$before")" -ne "$n" ] || [ "$(distinct "$after")" -ne "$n" ]; then
	diag "note: the hogs were not one per CPU for the whole window"
fi
if [ "$wrong" -eq 0 ]; then ok "lb one per cpu: zero wrong verdicts ($calls judged, $busy busy)"; else not_ok "lb one per cpu: zero wrong verdicts" "wrong=$wrong of $calls judged; see the snapshots above"; fi
if [ $((right + wrong + missed)) -eq 0 ]; then
	ok "lb one per cpu: every judged call is none ($none of $calls)"
else
	not_ok "lb one per cpu: every judged call is none" "right=$right wrong=$wrong missed=$missed none=$none"
fi
