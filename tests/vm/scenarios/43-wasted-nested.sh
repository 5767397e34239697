# SPDX-License-Identifier: GPL-2.0
# Scenario 43 (wait split): the demo's bench (2 message threads x 6
# workers, 2 ms requests every 10 ms) next to 2 hogs, in the root cgroup
# and nested (/w43/a/b next to /w43/c, equal cpu.weight 100 at every
# level).  The bench is the tracked process (debugfs wasted_track): its
# run-queue wait is split into "an allowed CPU was idle" (the balancer's
# share) and "every allowed CPU was busy" (capacity and cpu shares).
# Reported, not asserted: how the two cases differ.  Asserted: the split
# adds up (wait = idle + busy + unknown), the tracked row equals the
# nested bench's cgroup row (the same tasks), and each case's window is
# exported for the host oracle, which recomputes the bench's cgroup's wait
# split from the raw events.
# plan: 7
# timeout: 150
need_module "wasted nested: module loaded" || return 0
. /lib/vm/wasted.sh
pin_shell_last_cpu > /dev/null
CLI=$(command -v sched-shadow)
if [ -z "$CLI" ] || [ ! -w "$SS/wasted_track" ]; then
	not_ok "wasted nested: sched-shadow and wasted_track" "cli '$CLI', $(ls $SS | tr '\n' ' ')"
	return 0
fi
DUR=6
# the bench's affinity after taskset, for the oracle (it sees no taskset)
AFF='echo "affinity tid=$$ cpus=$(awk '"'"'/^Cpus_allowed_list/ { print $2 }'"'"' /proc/$$/status)" > /sys/kernel/tracing/trace_marker'
BENCH="-m 2 -t 6 -c 2000 -s 10000 -r $DUR"

# w43_case NAME BENCH_CGROUP HOG_CGROUP (empty: root)
w43_case() {
	local name=$1 bcg=$2 hcg=$3 pid
	[ -n "$bcg" ] && cg_mk "$bcg" 100 && cg_mk /w43/a 100
	[ -n "$hcg" ] && cg_mk "$hcg" 100
	w_trace_start "$name"
	bg "h$name" burn -t 2 -r 1000 -s 0 -d $((DUR + 3)) -q --cpus 0-5 ${hcg:+--cgroup "$hcg"} --trace-marker
	sleep 1
	if [ -n "$bcg" ]; then
		taskset 3f sh -c "echo \$\$ > $CG$bcg/cgroup.procs && $AFF && exec $CLI bench $BENCH > /tmp/$name.bench 2> /tmp/$name.bench.err" &
	else
		taskset 3f sh -c "$AFF && exec $CLI bench $BENCH > /tmp/$name.bench 2> /tmp/$name.bench.err" &
	fi
	pid=$!
	# the bench is the tracked process (its first ms before this write are not)
	echo $pid > "$SS/wasted_track"
	w_window_begin "$name"
	echo "wasted: track pid=$pid" > $T/trace_marker
	wait $pid
	w_window_end "$name"
	echo 0 > "$SS/wasted_track"
	bg_stop
	sleep 0.3
	cg_rm /w43
}

w43_case w43root "" ""
w43_case w43nest /w43/a/b /w43/c
for name in w43root w43nest; do
	f=/tmp/$name.wasted_cgroups
	awk 'NR > 1' $f | diag
	t=$(w_cg $f "(tracked)" wait_ms) ti=$(w_cg $f "(tracked)" wait_idle_ms)
	tb=$(w_cg $f "(tracked)" wait_busy_ms) tu=$(w_cg $f "(tracked)" wait_unknown_ms)
	diag "$name: bench waited $t ms: with an allowed CPU idle (balancer) $ti ms, all allowed busy (capacity, shares) $tb ms, unknown $tu ms; $(grep -E 'requests|p99' /tmp/$name.bench | tr '\n' ' ' | cut -c1-200)"
	# 12 workers on 6 CPUs beside 2 hogs: seconds of waiting, or the bench did not run
	echo "$t $ti $tb $tu" | awk '{ d = $1 - $2 - $3 - $4; if (d < 0) d = -d; exit !($1 > 1000 && d <= 0.01 * $1 + 0.01) }'
	check $? "$name: the bench waited (over 1 s of task-time) and its wait adds up: $t = $ti + $tb + $tu ms"
	[ -s /tmp/$name.bench ] || diag "bench printed nothing: $(head -c 300 /tmp/$name.bench.err 2>/dev/null)"
	[ "$(cat /tmp/$name.lost)" -eq 0 ] && [ -s /tmp/$name.trace ]
	check $? "$name: raw events recorded for the oracle, none lost"
done
nt=$(w_cg /tmp/w43nest.wasted_cgroups "(tracked)" wait_ms)
nc=$(w_cg /tmp/w43nest.wasted_cgroups /w43/a/b wait_ms)
echo "$nt $nc" | awk '{ d = $1 - $2; if (d < 0) d = -d; exit !($2 != "-" && d <= 0.02 * $2 + 1) }'
check $? "w43nest: the tracked bench's wait equals its cgroup /w43/a/b's ($nt vs $nc ms)"
ri=$(w_cg /tmp/w43root.wasted_cgroups "(tracked)" wait_idle_ms) rb=$(w_cg /tmp/w43root.wasted_cgroups "(tracked)" wait_busy_ms)
ni=$(w_cg /tmp/w43nest.wasted_cgroups "(tracked)" wait_idle_ms) nb=$(w_cg /tmp/w43nest.wasted_cgroups "(tracked)" wait_busy_ms)
diag "wait split of the bench: root balancer $ri ms, capacity/shares $rb ms; nested balancer $ni ms, capacity/shares $nb ms"
awk -v a="$ri" -v b="$rb" -v c="$ni" -v d="$nb" 'BEGIN { exit !(a + b > 0 && c + d > 0) }'
check $? "wasted nested: the bench waited in both cases (root $ri + $rb, nested $ni + $nb ms)"
# `run` tracks its command: the report's wasted section has the command's split
taskset 3f "$CLI" run --pretty --no-bpf -- burn -t 8 -s 0 -d 2 -q > /tmp/w43run.json 2>/tmp/w43run.err
awk '/"command": \{/ { f = 1 } f && /"wait_ms"|"balancer_ms"|"capacity_ms"|"unknown_ms"/ { gsub(/[",]/, ""); v[$1] = $2 } f && /\}/ { f = 0 }
	END { printf "%s %s %s %s\n", v["wait_ms:"], v["balancer_ms:"], v["capacity_ms:"], v["unknown_ms:"] }' /tmp/w43run.json > /tmp/w43run.split
read -r rw rb rc ru < /tmp/w43run.split
diag "run --json -- burn -t 8 (6 CPUs): command waited $rw ms: balancer $rb, capacity $rc, unknown $ru"
[ -n "$rw" ] || { head -c 600 /tmp/w43run.err; grep -A8 '"wasted"' /tmp/w43run.json | head -12; } | diag
echo "$rw $rb $rc $ru" | awk '{ d = $1 - $2 - $3 - $4; if (d < 0) d = -d; exit !($1 > 100 && d <= 0.01 * $1 + 0.01) }'
check $? "run --json: the command's wait split (8 hogs on 6 CPUs wait) is reported and adds up: $rw = $rb + $rc + $ru ms"
