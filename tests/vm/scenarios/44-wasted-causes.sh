# SPDX-License-Identifier: GPL-2.0
# Scenario 44 (wasted-core time: what explains it): the wakeup placement
# probe and the reasons no balancing ran.
#  - select_task_rq_fair is a symbol of the running kernel (/proc/kallsyms)
#    and the module probes it (feature.wasted_wakeup; kernels before 5.11
#    say why not);
#  - `sched-shadow run -- sched-shadow bench -m 2 -t 6` (schbench's shape):
#    the probe saw the bench's wakeups, placements
#    that left a CPU idle were counted and charged, and the report prints
#    the explained line; its parts add up to the whole.  The target
#    (explained >= 90 %, no_attempt/unknown + none/no_work <= 10 %) is
#    reported, with "not met" and its numbers when it is not.
# plan: 5
# timeout: 240
need_module "wasted causes: module loaded" || return 0
pin_shell_last_cpu > /dev/null
CLI=$(command -v sched-shadow)
st=$(awk '$1 == "feature.wasted_wakeup" { print $2 }' "$SS/info")
sym=$(grep -E ' select_task_rq_fair$' /proc/kallsyms | head -n 1)
diag "wakeup probe: kallsyms '$sym', feature.wasted_wakeup $st"
old=$(awk -v r="$(uname -r)" 'BEGIN { split(r, v, "[.-]"); exit !(v[1] < 5 || (v[1] == 5 && v[2] < 11)) }' && echo 1)
if [ -n "$old" ]; then
	case $st in
	inactive:kretprobe-takes-a-global-lock*) ok "wakeup probe: not registered before 5.11, and info says why ($st)" ;;
	*) not_ok "wakeup probe: not registered before 5.11, and info says why" "$st" ;;
	esac
else
	[ -n "$sym" ] && [ "$st" = "active:select_task_rq_fair" ]
	check $? "wakeup probe: select_task_rq_fair is in /proc/kallsyms and probed ($st)"
fi

# every CPU (the shell is pinned to the last one)
all=$(printf '%x' $(( (1 << $(ncpus)) - 1 )))
taskset "$all" "$CLI" run -j -o /tmp/w44.json -- "$CLI" bench -m 2 -t 6 -r 8 > /tmp/w44.bench 2> /tmp/w44.err
rc=$?
"$CLI" report /tmp/w44.json > /tmp/w44.txt 2>> /tmp/w44.err
[ $rc -eq 0 ] && [ -s /tmp/w44.txt ]
check $? "run -- sched-shadow bench -m 2 -t 6 -r 8: exit $rc, report printed ($(wc -l < /tmp/w44.txt) lines)"
[ -s /tmp/w44.err ] && head -c 400 /tmp/w44.err | diag
line=$(grep '^wasted-core time explained: ' /tmp/w44.txt)
diag "bench: $line"
grep -A3 '^wasted-core time explained: ' /tmp/w44.txt | grep '^largest causes' | diag
sed -n '/^what the idle CPU/,/^$/p' /tmp/w44.txt | awk '$1 == "all" || $1 == "cpu"' | diag
grep -E '^wasted_wakeup_(calls|busy|skipped|nmissed)|^feature.wasted_wakeup' "$SS/info" | tr '\n' ' ' | diag
diag < "$SS/wasted_wakeup"

# the line's parts: explained + unknown + no work make the whole (rounding: 1 % each)
echo "$line" | awk '{ gsub(/[(),;%]/, " "); for (i = 1; i <= NF; i++) v[$i] = $(i + 1)
	x = $4; d = x + v["unknown"] + v["work"] - 100; if (d < 0) d = -d
	s = v["wakeup"] + v["balancing"] + v["nohz"] + v["skipped"] + v["interval"] - x; if (s < 0) s = -s
	ok = NF > 10 && d <= 2 && s <= 5 } END { exit !ok }'
check $? "bench: the report prints the explained line, and its parts add up ($line)"
echo "$line" | awk '{ gsub(/[(),;%]/, " "); for (i = 1; i <= NF; i++) v[$i] = $(i + 1)
	x = $4; f = v["unknown"] + v["work"]
	printf "wasted-core time explained target (>= 90 %%, unknown + no work <= 10 %%): %s\n",
		(x >= 90 && f <= 10) ? "met" : sprintf("not met (%s %%, %s %%)", x, f) }' | diag

if [ -n "$old" ]; then
	tap_skip "bench: the wakeup probe saw the wakeups and counted misses" "no probe before 5.11 ($st)"
	tap_skip "bench: wakeup rows of wasted_attrib carry time" "no probe before 5.11"
else
	calls=$(awk '$1 == "wasted_wakeup_calls" { print $2 }' "$SS/info")
	miss=$(awk 'NR > 2 { s += $4 } END { print s + 0 }' "$SS/wasted_wakeup")
	[ "${calls:-0}" -gt 1000 ] && [ "$miss" -gt 0 ]
	check $? "bench: the wakeup probe saw the wakeups ($calls calls since the run's reset) and counted placements that left a CPU idle ($miss)"
	wk=$(sed -n '/^what the idle CPU/,/^$/p' /tmp/w44.txt | awk '$1 == "all" && $3 == "wakeup" { s += $6 } END { printf "%.1f", s }')
	awk -v w="$wk" 'BEGIN { exit !(w + 0 > 0) }'
	check $? "bench: the run report's attribution has wakeup rows with time ($wk ms)"
fi

# What tick_late says, against the kernel's own events (diagnostics): a
# second, shorter run with a trace instance holding the idle transitions
# (sched_switch to and from pid 0), tick_stop, the tick's expiries
# (hrtimer_expire_entry of tick_sched_timer) and the balance softirq
# (softirq_entry vec 7).  Per CPU, idle time with the tick running (no
# tick_stop since the switch to idle) is split by how long ago the CPU's
# last tick was: a running tick comes every jiffy, so time more than 2
# jiffies after it is a tick that did not come, the state tick_late names.
TI=/sys/kernel/tracing/instances/w44
if mkdir -p "$TI" 2> /dev/null && [ -e "$TI/events/irq/softirq_entry/enable" ]; then
	hz=$(awk -F= '$1 == "CONFIG_HZ" { print $2 }' "/boot/config-$(uname -r)" 2> /dev/null)
	echo 8192 > "$TI/buffer_size_kb"
	echo 'prev_pid == 0 || next_pid == 0' > "$TI/events/sched/sched_switch/filter"
	echo 'vec == 7' > "$TI/events/irq/softirq_entry/filter"
	for e in sched/sched_switch irq/softirq_entry timer/tick_stop timer/hrtimer_expire_entry; do
		echo 1 > "$TI/events/$e/enable"
	done
	echo 1 > "$TI/tracing_on"
	taskset "$all" "$CLI" run -j -o /tmp/w44t.json -- "$CLI" bench -m 2 -t 6 -r 4 > /dev/null 2>> /tmp/w44.err
	echo 0 > "$TI/tracing_on"
	"$CLI" report /tmp/w44t.json > /tmp/w44t.txt 2>> /tmp/w44.err
	awk -v j="$(awk -v h="${hz:-250}" 'BEGIN { print 1 / h }')" '
	function acc(c, t,   lo) {
		if (!idle[c] || stopped[c]) return
		run += t - from[c]
		if (notick[c]) pre += t - from[c]
		lo = last[c] + 2 * j; if (lo < from[c]) lo = from[c]; if (t > lo) late += t - lo
		lo = lastsq[c] + 2 * j; if (lo < from[c]) lo = from[c]; if (t > lo) sqlate += t - lo
		if (t - last[c] > gap) gap = t - last[c]
		from[c] = t
	}
	{
		for (i = 1; i <= NF && $i !~ /^\[[0-9]+\]$/; i++) ;
		if (i > NF) next
		c = substr($i, 2, length($i) - 2) + 0
		for (k = i + 1; k <= NF && $k !~ /^[0-9]+\.[0-9]+:$/; k++) ;
		if (k > NF) next
		t = substr($k, 1, length($k) - 1) + 0; ev = $(k + 1)
		if (!(c in last)) { last[c] = t; lastsq[c] = t }
		if (ev == "sched_switch:") {
			p0 = $0 ~ / prev_pid=0 /; n0 = $0 ~ / next_pid=0( |$)/
			if (n0 && !p0) { idle[c] = 1; stopped[c] = 0; notick[c] = 1; from[c] = t; periods++ }
			else if (p0 && !n0 && idle[c]) { acc(c, t); idle[c] = 0 }
		} else if (ev == "tick_stop:" && $0 ~ /success=1/) {
			acc(c, t); stopped[c] = 1
		} else if (ev == "hrtimer_expire_entry:" && $0 ~ /function=tick_sched_timer/) {
			acc(c, t); last[c] = t; notick[c] = 0; ticks++
		} else if (ev == "softirq_entry:") {
			acc(c, t); lastsq[c] = t; sq++
		}
	}
	END { printf "trace: %d idle periods, %d ticks, %d balance softirqs; idle with the tick running %.1f ms: before the idle period'"'"'s first tick (the last one found the CPU busy) %.1f ms, more than 2 jiffies after the last tick %.1f ms (longest gap %.1f ms), after the last balance softirq %.1f ms\n",
		periods, ticks, sq, run * 1000, pre * 1000, late * 1000, gap * 1000, sqlate * 1000 }' "$TI/trace" | diag
	sed -n '/^what the idle CPU/,/^$/p' /tmp/w44t.txt | awk '$1 == "all" && $3 == "no_attempt" {
		if ($4 == "tick_late") tl += $6; else if ($4 == "busy_tick") bt += $6
		else if ($5 == "tick_overdue") to += $6; else if ($4 == "interval") iv += $6 }
		$1 == "all" { all += $6 }
		END { printf "module, same run: busy_tick %.1f ms, tick_late %.1f ms, unknown/tick_overdue %.1f ms, interval %.1f ms, of %.1f ms wasted\n", bt, tl, to, iv, all }' | diag
	grep '^wasted-core time explained: ' /tmp/w44t.txt | sed 's/^/traced run: /' | diag
	for e in sched/sched_switch irq/softirq_entry timer/tick_stop timer/hrtimer_expire_entry; do
		echo 0 > "$TI/events/$e/enable"
	done
	rmdir "$TI" 2> /dev/null
else
	diag "trace instance not available: tick_late not compared with the kernel's events"
fi
