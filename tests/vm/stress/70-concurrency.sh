# SPDX-License-Identifier: GPL-2.0
# plan: 11
# Stress 7: concurrency.  For 60 s (short: 10 s) one reader per debugfs
# file reads it in a loop while writers reset the counters (every 0.1 s),
# toggle enable (every 0.15 s), change lb_dump_every (1..5, so snapshots
# are recorded all the time) and the burners run in the root and nested
# cgroups that do not change.  Every read must parse (version line, exact
# header, rows of the header's length, numbers where numbers belong, the
# lb identity calls = right + wrong + missed + none) and groups must add
# up per CPU (h_tasks = nr_tasks + children's h_tasks; shadow and
# shadow_avg = task_load + sum of min(S*w/W, w) over the children, within
# rounding).  Afterwards the module still works.
# timeout: 600
SCEN=70
. /lib/vm/stress/stress.lib
D=$(fig 60 10)
T=concurrency
mark=$(dmesg_mark)
need_module "$T: module loaded" || return 0
diag "level $STRESS_LEVEL: $D s"
workload s70
bg s70w2 burn -t 2 -r 8 -s 2 -d 0 -q --cgroup /s70/a/b
sleep 1
mkdir -p /tmp/r70
for f in info cpus groups lb lb_snapshots enable lb_dump_every stats; do
	c=
	[ $f = groups ] && c=-c
	bg_ssread r70-$f -d "$D" -i 5 -m 6 $c -s /tmp/r70 "$SS/$f"
done

cat > /tmp/w70.sh <<'EOF'
# writer WHAT D: one kind of write in a loop for D seconds; prints ops and failures
what=$1 d=$2 ops=0 fail=0 i=0
end=$(( $(cut -d. -f1 /proc/uptime) + d ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	i=$((i + 1))
	case $what in
	reset) r=$(wr /sys/kernel/debug/sched_shadow/reset 1); usleep 100000 ;;
	enable) r=$(wr /sys/kernel/debug/sched_shadow/enable $((i % 2))); usleep 150000 ;;
	dump) r=$(wr /sys/kernel/debug/sched_shadow/lb_dump_every $((i % 5 + 1))); usleep 200000 ;;
	esac
	ops=$((ops + 1))
	case $r in ok*) ;; *) fail=$((fail + 1)) ;; esac
done
echo "writer $what: ops=$ops fail=$fail"
EOF
sh /tmp/w70.sh reset "$D" > /tmp/w70-reset.log 2>&1 &
w1=$!
sh /tmp/w70.sh enable "$D" > /tmp/w70-enable.log 2>&1 &
w2=$!
have_dump=0
if [ -e "$SS/lb_dump_every" ]; then
	have_dump=1
	sh /tmp/w70.sh dump "$D" > /tmp/w70-dump.log 2>&1 &
	w3=$!
fi
wait $w1 $w2
[ $have_dump = 1 ] && wait $w3
sleep 1
echo 1 > "$SS/enable"
echo 100 > "$SS/lb_dump_every" 2>/dev/null

wbad='' wops=0
[ $have_dump = 1 ] || wbad=" [no lb_dump_every: audit $(awk '$1 == "feature.lb_audit" { print $2 }' "$SS/info")]"
for w in reset enable dump; do
	[ -f /tmp/w70-$w.log ] || continue
	l=$(cat /tmp/w70-$w.log)
	diag "$l"
	o=$(ssval "$l" ops)
	wops=$((wops + ${o:-0}))
	[ "$(ssval "$l" fail)" = 0 ] && [ "${o:-0}" -gt 0 ] || wbad="$wbad [$l]"
done
[ -z "$wbad" ] && ok "$T: $wops writes (reset, enable toggles, lb_dump_every) all accepted" ||
	not_ok "$T: concurrent writes all accepted" "$wbad"

reads=0
for f in info cpus groups lb lb_snapshots enable lb_dump_every stats; do
	# every file is required: the audit's (lb, lb_snapshots, lb_dump_every)
	# exist on every supported kernel (docs/debugfs.md); a missing one is a
	# failure, not a skip (an inactive audit would leave them untested)
	if [ ! -e "$SS/$f" ]; then
		not_ok "$T: $f reads parse" "no $f (audit: $(awk '$1 == "feature.lb_audit" { print $2 }' "$SS/info"))"
		ssread_stop r70-$f >/dev/null
		continue
	fi
	extra=
	[ $f = groups ] && extra=consist_bad
	reader_done "$T: $f: every read parses$([ $f = groups ] && echo ', per-CPU sums add up')" r70-$f $extra
	line=$(grep '^ssread: rounds=' /tmp/r70-$f.log | tail -n 1)
	r=$(ssval "$line" reads)
	reads=$((reads + ${r:-0}))
done
diag "total reads $reads in $D s"
for f in /tmp/r70/*; do [ -f "$f" ] && keep "$(basename "$f")" "$f"; done
snaps=$(awk 'NR > 2 && $2 == "call"' "$SS/lb_snapshots" 2>/dev/null | wc -l)
diag "lb_snapshots holds $snaps recorded calls at the end"

p0=$(ss_sum published)
sleep 1
p1=$(ss_sum published)
e=$(cat "$SS/enable")
[ "$e" = 1 ] && [ "$p1" -gt "$p0" ] && ok "$T: afterwards enabled and publishing ($p0 -> $p1)" ||
	not_ok "$T: afterwards enabled and publishing" "enable $e published $p0 -> $p1"
bg_stop
cg_rm /s70
dmesg_since "$mark" | grep sched_shadow > "$OUT/70-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean"
