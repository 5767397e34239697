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
# timeout: 150
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
