# SPDX-License-Identifier: GPL-2.0
# Scenario 33 (6.12+): a task that goes to sleep through
# a delayed dequeue (EEVDF DELAY_DEQUEUE) fires no nr_running tracepoint;
# the switch away from it must refresh the CPU's state.  On cpu2 a hog
# and a sleeper (runs 2 ms, sleeps 20 ms), both pinned there; `cpus` and
# the sleeper's /proc/PID/task/TID/stat are read together every 3 ms.
# Oracle: the stat's state field.  While the sleeper sleeps the hog runs
# alone, so the CPU has no waiter: pinned + movable must be 0 in the rows
# read while the sleeper's state is S.  Without the refresh the state of
# the sleeper's last event (it waiting behind the hog) stays published
# through the whole sleep whenever its dequeue was delayed.
# Not covered: a delayed task woken again is requeued without an
# nr_running event either; it shows at the next event or switch.
# plan: 2
# timeout: 60
T="delayed dequeue"
need_module "$T" || return 0
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
if ! grep -q '^btf.sched_entity.sched_delayed present' "$SS/info"; then
	tap_skip "$T: setup" "kernel without delayed dequeue (sched_entity.sched_delayed absent from BTF: before 6.12)"
	tap_skip "$T: no waiter published while the sleeper sleeps" "see above"
	return 0
fi
feat=$(tr ' ' '\n' < /sys/kernel/debug/sched/features | grep DELAY_DEQUEUE)
shcpu=$(pin_shell_last_cpu)
bg s33h burn -t 1 -s 0 -d 0 -q --cpu 2
bg s33s burn -t 1 -r 2 -s 20 -d 0 -q --cpu 2
sleep 0.5
spid=$(awk '$2 == "s33s" { print $1 }' "$BG_PIDS")
stid=
for t in /proc/$spid/task/*; do [ "${t##*/}" != "$spid" ] && stid=${t##*/}; done
catn -n 400 -i 3 "$SS/cpus" /proc/$spid/task/$stid/stat > /tmp/s33.log
bg_stop
# per round: sleeper state, cpu2 pinned + movable
awk '/^=== ROUND/ { f = $NF; hdr = (f ~ /cpus$/) ? 0 : 1; next }
	f ~ /stat$/ { st = $3; if (w != "") print st, w; w = ""; next }
	/^# / { next }
	!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	$1 == 2 { w = ($(c["void"]) == "fresh") ? $(c["pinned"]) + $(c["movable"]) : "" }' /tmp/s33.log > /tmp/s33.rows
asleep=$(awk '$1 == "S"' /tmp/s33.rows | wc -l)
stale=$(awk '$1 == "S" && $2 >= 1' /tmp/s33.rows | wc -l)
diag "features: $feat; rounds $(wc -l < /tmp/s33.rows), sleeper asleep in $asleep, of those with a waiter published: $stale"
res "$([ "$feat" = DELAY_DEQUEUE ] && [ "$asleep" -ge 50 ]; echo $?)" \
	"$T: setup: DELAY_DEQUEUE on, $asleep rounds read while the sleeper sleeps" "features '$feat' asleep $asleep"
res "$([ $((stale * 20)) -le "$asleep" ]; echo $?)" \
	"$T: no waiter published while the sleeper sleeps ($stale of $asleep rounds, <= 5%)"
