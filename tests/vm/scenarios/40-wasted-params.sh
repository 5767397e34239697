# SPDX-License-Identifier: GPL-2.0
# Scenario 40 (wasted-core time): bad input is refused and changes nothing.
#  - module parameters: wasted_period_us outside 0 or 100..1000000,
#    wasted_trace_ms outside 1..3600000 refuse the load with one log line;
#    wasted_period_us=0 loads with the feature off (no wasted files);
#  - debugfs wasted_track: anything but a process id (0..PID_MAX_LIMIT) is
#    EINVAL and leaves the tracked process as it was.
# plan: 6
# timeout: 90
mark=$(dmesg_mark)
unload_module
bad=
for p in wasted_period_us=50 wasted_period_us=1000001 wasted_period_us=-1 wasted_trace_ms=0 \
	 wasted_trace_ms=3600001 wasted_cause=2 wasted_wakeup=2; do
	out=$(modload "$KO" "$p" 2>/dev/null)
	if module_loaded; then
		bad="$bad $p:loaded"
		unload_module
	elif [ "$out" != "error EINVAL" ]; then
		bad="$bad $p:'$out'"
	fi
done
[ -z "$bad" ]
check $? "wasted params: out-of-range wasted_period_us, wasted_trace_ms, wasted_cause, wasted_wakeup refuse the load with EINVAL${bad:+:$bad}"
n=$(dmesg_since "$mark" | grep -c 'sched_shadow: not loading: wasted_')
# wasted_period_us=-1, wasted_cause=2 and wasted_wakeup=2 are refused by the
# kernel's own parameter parsers (uint, bool), which log their own line
[ "$n" -eq 4 ]
check $? "wasted params: one log line of ours per range refused ($n of 4; -1 and the bools are the kernel's parsers')"
modload "$KO" wasted_period_us=0 > /tmp/w40.out 2>/dev/null
st=$(awk '$1 == "feature.wasted" { print $2 }' "$SS/info" 2>/dev/null)
[ "$st" = "inactive:wasted_period_us=0" ] && [ ! -e "$SS/wasted" ]
check $? "wasted params: wasted_period_us=0 loads with the feature off ($st, no wasted file)"
unload_module
need_module "wasted params: module loaded with defaults" || return 0
ok "wasted params: module loaded with defaults ($(awk '$1 == "feature.wasted" { print $2 }' "$SS/info"))"
echo $$ > "$SS/wasted_track"
bad=
for v in abc -1 '' '1x' 99999999999 '0x10'; do
	out=$(wr -e "$SS/wasted_track" "$v")
	[ "$out" = "error EINVAL" ] || bad="$bad [$v]->'$out'"
done
[ -z "$bad" ] && [ "$(cat "$SS/wasted_track")" = "$$" ]
check $? "wasted params: wasted_track refuses what is not a process id and keeps the tracked one${bad:+:$bad}"
echo 0 > "$SS/wasted_track"
[ "$(cat "$SS/wasted_track")" = 0 ]
check $? "wasted params: wasted_track 0 stops tracking"
