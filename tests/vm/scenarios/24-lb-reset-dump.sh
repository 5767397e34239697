# SPDX-License-Identifier: GPL-2.0
# plan: 6
# Scenario 24 (load-balancer audit): reset, the kretprobe's missed count,
# snapshots and lb_dump_every writes.
#   - with lb_dump_every 1, 3 s of the duty-cycle workload; then
#     lb_missed in `info` is 0, and if any wrong/missed verdict was
#     counted, lb_snapshots holds entries (call, group and cpu lines)
#   - the load stops; `echo 1 > reset` and an immediate read: the lb
#     rows are back to ~0 (at most a few calls since the reset, and far
#     below the counts before), and no snapshot from before the reset is
#     shown (lb_dump_every is still 1: a verdict after it is kept)
#   - lb_dump_every refuses "-1", "abc", "", "1x", 2000000000 (each
#     with and without a newline) and keeps its value; accepts "0", "7"
# timeout: 60
lb_need "lb reset" || return 0
# total FILE: sum of every number in every row (all columns, all rows)
total() { awk 'NR > 2 { for (j = 4; j <= NF; j++) if ($j != "-") s += $j } END { print s + 0 }' "$1"; }
info() { awk -v k="$1" '$1 == k { print $2 }' "$SS/info"; }

old_every=$(cat "$SS/lb_dump_every")
echo 1 > "$SS/lb_dump_every"
lb_reset
bg l24 burn -t 9 -r 15 -s 10 -d 0 -q
bg l24s burn -t 3 -s 0 -d 0 -q --cpu 3 --widen --widen-ms 200
# the snapshot check needs a wrong or missed verdict: keep the load up to
# 12 s until one is counted (3 s were always enough in the runs so far)
sl=0
while :; do
	sleep 3
	sl=$((sl + 3))
	cat "$SS/lb" > /tmp/l24.load
	wm=$(( $(judged /tmp/l24.load wrong) + $(judged /tmp/l24.load missed) ))
	[ "$wm" -gt 0 ] || [ $sl -ge 12 ] && break
done
cat "$SS/lb_snapshots" > /tmp/l24.snap
lbmissed=$(info lb_missed)
diag "info after $sl s of load: $(grep '^lb_' "$SS/info" | tr '\n' ' ')"
bg_stop

diag "under load: judged $(judged /tmp/l24.load calls) (right $(judged /tmp/l24.load right), wrong $(judged /tmp/l24.load wrong), missed $(judged /tmp/l24.load missed), none $(judged /tmp/l24.load none)), busy $(lbv /tmp/l24.load all busy actual calls)"
if [ "$lbmissed" = 0 ]; then ok "lb reset: lb_missed (kretprobe nmissed) stays 0 under load"; else not_ok "lb reset: lb_missed (kretprobe nmissed) stays 0 under load" "lb_missed=$lbmissed"; fi

ncall=$(grep -c '^[0-9]* call ' /tmp/l24.snap)
ngroup=$(grep -c '^[0-9]* group ' /tmp/l24.snap)
ncpu=$(grep -c '^[0-9]* cpu ' /tmp/l24.snap)
diag "lb_snapshots: $ncall calls, $ngroup group lines, $ncpu cpu lines, $(grep -c '^[0-9]* cfs_rq ' /tmp/l24.snap) cfs_rq lines"
if [ "$wm" -eq 0 ]; then
	not_ok "lb reset: lb_snapshots has entries after wrong/missed verdicts (lb_dump_every 1)" "no wrong or missed verdict in $sl s of load: nothing to snapshot"
elif [ "$ncall" -ge 1 ] && [ "$ngroup" -ge 2 ] && [ "$ncpu" -ge 1 ]; then
	ok "lb reset: lb_snapshots has entries after $wm wrong/missed verdicts (lb_dump_every 1)"
	diag "first snapshot:"
	first=$(awk '/^[0-9]+ call / { print $1; exit }' /tmp/l24.snap)
	awk -v n="$first" '$1 == n' /tmp/l24.snap | cut -c1-260 | head -n 30 | diag
else
	not_ok "lb reset: lb_snapshots has entries after wrong/missed verdicts (lb_dump_every 1)" "$wm wrong+missed counted, snapshot lines: call $ncall group $ngroup cpu $ncpu"
	head -n 5 /tmp/l24.snap | diag
fi

# reset with the load stopped, read at once.  lb_dump_every is still 1 and
# the balancer keeps running: a wrong/missed verdict of an attempt after the
# reset is snapshotted as #1, #2, ... of the new count.  What the reset must
# drop are the snapshots from before it: every snapshot shown after it must
# be newer than the reset (time_ms against CLOCK_MONOTONIC read just before
# the write, /proc/timer_list's "now at") and numbered within the
# wrong+missed the lb table counts since (read after the snapshots), give or
# take one attempt per CPU in flight at the write (counted in the table
# before it, numbered after it).
sleep 0.3
cat "$SS/lb" > /tmp/l24.before
lastb=$(awk '/^[0-9]+ call / { n = $1 } END { print n + 0 }' "$SS/lb_snapshots")
lb_model_export
t0=$(awk '/^now at / { print int($3 / 1000000); exit }' /proc/timer_list)
echo 1 > "$SS/reset"
cat "$SS/lb" > /tmp/l24.after
cat "$SS/lb_snapshots" > /tmp/l24.snap2
cat "$SS/lb" > /tmp/l24.after2
tb=$(total /tmp/l24.before) ta=$(total /tmp/l24.after)
cb=$(( $(judged /tmp/l24.before calls) + $(lbv /tmp/l24.before all busy actual calls) ))
ca=$(( $(judged /tmp/l24.after calls) + $(lbv /tmp/l24.after all busy actual calls) ))
diag "before reset: all calls $cb, sum of every cell $tb; right after: all calls $ca, sum of every cell $ta"
diag "lb right after the reset:"
diag "$(cat /tmp/l24.after)"
# only a ratio: how many calls land between the reset and the read depends
# on how fast the emulated guest runs (23 seen with the host loaded)
if [ "$cb" -gt 0 ] && [ $((ca * 20)) -le "$cb" ]; then
	ok "lb reset: lb counters back to ~0 ($cb calls -> $ca)"
else
	not_ok "lb reset: lb counters back to ~0" "calls $cb -> $ca (allowed: <= 5% of before)"
fi
wm2=$(( $(judged /tmp/l24.after2 wrong) + $(judged /tmp/l24.after2 missed) ))
# shellcheck disable=SC2046 # three words into the positional parameters, on purpose
set -- $(awk -v t0="$t0" -v wm="$(( wm2 + $(ncpus) ))" '/^[0-9]+ call / { k++; t = $3; sub(/^time_ms=/, "", t)
		if (t + 0 < t0 || $1 + 0 > wm || $1 + 0 < 1) { old++; if (ex == "") ex = $1 "@" t } }
	END { print k + 0, old + 0, (ex == "" ? "-" : ex) }' /tmp/l24.snap2)
n2=$1 old2=$2 ex2=$3
diag "after the reset (CLOCK_MONOTONIC $t0 ms at the write; the last snapshot before it was #$lastb): $n2 snapshots shown, $wm2 wrong/missed counted since; snapshots older than the reset or numbered past that count (+ $(ncpus) in flight): $old2 (first: $ex2)"
[ "$n2" -gt 0 ] && { diag "the snapshots' call lines:"; grep -E '^[0-9]+ call ' /tmp/l24.snap2 | cut -c1-200 | head -n 4 | diag; }
if [ -n "$t0" ] && [ "$lastb" -gt 0 ] && [ "$old2" -eq 0 ]; then
	ok "lb reset: no snapshot from before the reset survives it ($lastb kept before; after: $n2, each newer and numbered within the $wm2 wrong/missed since)"
else
	not_ok "lb reset: no snapshot from before the reset survives it" "$old2 of $n2 snapshots older than the reset ($t0 ms) or numbered past the $wm2 wrong/missed since + $(ncpus) (first: $ex2); $lastb kept before the reset (need > 0)"
fi

# lb_dump_every: bad writes refused, value kept
echo 5 > "$SS/lb_dump_every"
bad=
for v in "-1" "abc" "" "1x" "2000000000" " 3" "3 "; do
	for nl in y n; do
		[ "$nl" = n ] && [ -z "$v" ] && continue	# an empty printf writes nothing
		if [ "$nl" = y ]; then
			( echo "$v" > "$SS/lb_dump_every" ) 2>/dev/null && bad="$bad accepted:'$v\\n'"
		else
			( printf '%s' "$v" > "$SS/lb_dump_every" ) 2>/dev/null && bad="$bad accepted:'$v'"
		fi
		cur=$(cat "$SS/lb_dump_every")
		[ "$cur" = 5 ] || { bad="$bad '$v'(nl=$nl)->$cur"; echo 5 > "$SS/lb_dump_every"; }
	done
done
if [ -z "$bad" ]; then ok "lb reset: lb_dump_every refuses -1, abc, empty, 1x, 2000000000 and keeps its value"; else not_ok "lb reset: lb_dump_every refuses bad writes and keeps its value" "$bad"; fi
good=
for v in 0 7 1000000000; do
	if ( echo "$v" > "$SS/lb_dump_every" ) 2>/dev/null && [ "$(cat "$SS/lb_dump_every")" = "$v" ] &&
	   [ "$(awk '$1 == "lb_dump_every" { print $2 }' "$SS/info")" = "$v" ]; then :; else good="$good $v"; fi
done
if [ -z "$good" ]; then ok "lb reset: lb_dump_every accepts 0, 7, 1000000000 (file and info agree)"; else not_ok "lb reset: lb_dump_every accepts 0, 7, 1000000000" "refused or not shown:$good"; fi
echo "$old_every" > "$SS/lb_dump_every"
