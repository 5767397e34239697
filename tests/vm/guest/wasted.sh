# SPDX-License-Identifier: GPL-2.0
# Helpers of the wasted-core scenarios (tests/vm/scenarios/4x-wasted-*.sh),
# sourced after lib.sh.  A "window" is one measured stretch of a scenario:
# the module's counters are reset at its start and read at its end, and
# the raw scheduler events of the same stretch are recorded through
# tracefs for the host's independent oracle (tests/vm/host/wasted_oracle.py),
# with what it needs to know each task's affinity and cgroup over time:
#   - a snapshot of every task's affinity and cgroup when tracing starts
#     and when it stops (tid comm cpus cgroup);
#   - sched_process_fork (children inherit both), cgroup_attach_task;
#   - sched_waking and sched_wakeup(_new): where each woken task was and
#     where it was placed (the wakeup placement check);
#   - burn --trace-marker's "burn: affinity tid=T cpus=LIST" markers at
#     each thread's start and at each widening;
#   - task_newtask (its clone_flags say whether a child is a thread: the
#     tracked process is a thread group);
#   - a kprobe event on dequeue_task_fair() with DEQUEUE_SLEEP (ss_dequeue):
#     the instant a task going to sleep leaves its run queue, which no
#     tracepoint shows (from there to its sched_switch the next task is
#     about to run for the module, still waiting for the raw events);
#   - a kprobe event on enqueue_task_fair() without ENQUEUE_WAKEUP
#     (ss_enqueue): inside a try_to_wake_up() it is the in-place wakeup of a
#     task still queued by delayed dequeue (6.12+: ENQUEUE_DELAYED), which
#     selects no CPU; the switches alone show it as a placement on the CPU
#     it slept on;
#   - markers around the module's reset ("wasted: reset NAME" before the
#     write, "wasted: window NAME begin" after it) and its pause ("wasted:
#     window NAME end" before `enable 0`, "wasted: paused NAME" after),
#     each trio written by one SCHED_FIFO process (wr -f: no CFS task runs
#     between them), and hrtimer_expire_entry (the module's sampler ticks
#     among them): the window the oracle integrates comes from the trace.
# w_window_end exports NAME.tar.gz: trace, snapshots, the module's tables,
# info, the probe's state and the topology (domain spans per CPU, packages).

T=/sys/kernel/tracing
W_EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task
sched/sched_process_fork sched/sched_process_exit cgroup/cgroup_attach_task
task/task_newtask timer/hrtimer_expire_entry sched_shadow/wasted_interval sched_shadow/lb_verdict sched_shadow/wakeup_miss"
W_DEQ=wtest/ss_dequeue
W_ENQ=wtest/ss_enqueue

# one line per task: tid comm cpus cgroup tgid (comm without spaces)
w_tasks() {
	grep -H -E '^(Name|Cpus_allowed_list):' /proc/[0-9]*/task/[0-9]*/status 2>/dev/null |
		awk -F'\t' '{ split($1, a, "/"); tid = a[5]; k = a[6]; sub(/^status:/, "", k)
			v = $2; gsub(/ /, "_", v); tg[tid] = a[3]
			if (k == "Name:") name[tid] = v; else cpus[tid] = v }
			END { for (t in cpus) print t, (t in name) ? name[t] : "?", cpus[t], tg[t] }' > /tmp/w.status
	grep -H '^0::' /proc/[0-9]*/task/[0-9]*/cgroup 2>/dev/null |
		sed 's|^/proc/[0-9]*/task/\([0-9]*\)/cgroup:0::|\1 |' > /tmp/w.cgroup
	awk 'NR == FNR { cg[$1] = $2; next } { print $1, $2, $3, ($1 in cg) ? cg[$1] : "?", $4 }' \
		/tmp/w.cgroup /tmp/w.status
}

# w_probe NAME: the kprobe event on dequeue_task_fair() (DEQUEUE_SLEEP only),
# and what the kernel says about it in /tmp/NAME.probe (no addresses)
w_probe() {
	local f=/tmp/$1.probe sym
	sym=$(awk '$3 == "dequeue_task_fair" { print $2, $3; exit }' /proc/kallsyms)
	echo "kallsyms ${sym:-none}" > "$f"
	[ -e "$T/events/$W_DEQ" ] || echo "p:$W_DEQ dequeue_task_fair flags=\$arg3:u32" >> $T/kprobe_events 2>> "$f"
	if [ ! -e "$T/events/$W_DEQ/enable" ]; then
		echo "kprobe none" >> "$f"
		return 0
	fi
	echo "kprobe $(grep -c "$W_DEQ" $T/kprobe_events) $(grep "$W_DEQ" $T/kprobe_events | sed 's/^[^ ]* //')" >> "$f"
	# DEQUEUE_SLEEP (0x01 from 5.10 to 7.3): the sleeping task's own dequeue
	if echo 'flags & 1' > "$T/events/$W_DEQ/filter" 2>> "$f"; then
		echo "filter flags&1" >> "$f"
	else
		echo "filter none" >> "$f"
	fi
	echo 1 > "$T/events/$W_DEQ/enable"
	# enqueue_task_fair() without ENQUEUE_WAKEUP (0x01 from 5.10 to 7.3),
	# and whether this kernel delays dequeues (sched features)
	echo "delay_dequeue $(grep -o -w -E '(NO_)?DELAY_DEQUEUE' /sys/kernel/debug/sched/features 2>/dev/null || echo absent)" >> "$f"
	[ -e "$T/events/$W_ENQ" ] || echo "p:$W_ENQ enqueue_task_fair flags=\$arg3:u32" >> $T/kprobe_events 2>> "$f"
	if [ ! -e "$T/events/$W_ENQ/enable" ]; then
		echo "enqueue_kprobe none" >> "$f"
		return 0
	fi
	echo "enqueue_kprobe $(grep "$W_ENQ" $T/kprobe_events | sed 's/^[^ ]* //')" >> "$f"
	if echo '!(flags & 1)' > "$T/events/$W_ENQ/filter" 2>> "$f"; then
		echo "enqueue_filter !(flags&1)" >> "$f"
	else
		echo "enqueue_filter none" >> "$f"
	fi
	echo 1 > "$T/events/$W_ENQ/enable"
}

# w_trace_start NAME: clear the trace, enable the events, snapshot the tasks
w_trace_start() {
	local e
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo mono > $T/trace_clock 2>/dev/null
	echo 4096 > $T/buffer_size_kb
	for e in $W_EVENTS; do
		[ -e "$T/events/$e/enable" ] && echo 1 > "$T/events/$e/enable"
	done
	w_probe "$1"
	echo 1 > $T/tracing_on
	w_tasks > "/tmp/$1.tasks0"
}

# w_window_begin NAME: reset the module's counters, mark the window's start
# (the reset takes effect at the sampler's first sample after the write)
w_window_begin() {
	wr -f 50 $T/trace_marker "wasted: reset $1" "$SS/reset" 1 $T/trace_marker "wasted: window $1 begin" > /dev/null
}

# w_window_end NAME: mark the end, pause the module, read its tables, resume, stop tracing, export
w_window_end() {
	local name=$1 e d c n lost
	# pause the module (as run does): its next sample stops the sampler, so
	# every table below covers the same window, the one `wasted` prints (read
	# one after the other while it counted, the cgroup rows had up to a few
	# hundred ms more than the CPU rows: 7.2, /w43/c 292 vs 223 ms)
	wr -f 50 $T/trace_marker "wasted: window $name end" "$SS/enable" 0 $T/trace_marker "wasted: paused $name" > /dev/null
	sleep 0.1
	cat "$SS/wasted" > "/tmp/$name.wasted"
	cat "$SS/wasted_cgroups" > "/tmp/$name.wasted_cgroups"
	cat "$SS/wasted_attrib" > "/tmp/$name.wasted_attrib"
	cat "$SS/wasted_wakeup" > "/tmp/$name.wasted_wakeup" 2>/dev/null
	cat "$SS/info" > "/tmp/$name.info"
	cat "$SS/lb_attempts" > "/tmp/$name.lb_attempts" 2>/dev/null
	echo 1 > "$SS/enable"
	echo 0 > $T/tracing_on
	w_tasks > "/tmp/$name.tasks1"
	lost=0
	for d in $T/per_cpu/cpu*; do
		n=$(awk '$1 == "overrun:" { print $2 }' "$d/stats")
		lost=$((lost + ${n:-0}))
	done
	echo "$lost" > "/tmp/$name.lost"
	grep -v '^#' $T/trace > "/tmp/$name.trace"
	for e in $W_EVENTS $W_DEQ $W_ENQ; do
		[ -e "$T/events/$e/enable" ] && echo 0 > "$T/events/$e/enable"
	done
	echo "events $(grep -c ' ss_dequeue: ' "/tmp/$name.trace")" >> "/tmp/$name.probe"
	echo "enqueue_events $(grep -c ' ss_enqueue: ' "/tmp/$name.trace")" >> "/tmp/$name.probe"
	echo "-:$W_DEQ" >> $T/kprobe_events 2>/dev/null
	echo "-:$W_ENQ" >> $T/kprobe_events 2>/dev/null
	echo > $T/trace
	# topology: cpu, package, and each domain's name and span.  The name from
	# sched debugfs (6.4+ lists the domains only under sched/verbose, and
	# writing Y there makes them: it is set for the read, then put back) or
	# procfs (5.10), else from /proc/schedstat, whose version 17 (6.14+)
	# prints it before the mask: "domainN NAME MASK ..."; the span from its
	# span file where there is one, else schedstat's mask of that domain
	: > "/tmp/$name.topo"
	vb=/sys/kernel/debug/sched/verbose vb0=
	[ -w $vb ] && vb0=$(cat $vb 2>/dev/null) && [ "$vb0" = N ] && echo Y > $vb 2>/dev/null
	awk '/^cpu[0-9]/ { c = substr($1, 4) }
		/^domain[0-9]/ { if ($2 ~ /^[0-9a-f,]+$/) print c, substr($1, 7), $2, "-"; else print c, substr($1, 7), $3, $2 }' \
		/proc/schedstat > /tmp/w.spans 2>/dev/null
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*cpu}
		echo "cpu $n package $(cat $c/topology/physical_package_id 2>/dev/null) online $(cat $c/online 2>/dev/null || echo 1)" >> "/tmp/$name.topo"
		nd=0
		for d in /sys/kernel/debug/sched/domains/cpu$n/domain* /proc/sys/kernel/sched_domain/cpu$n/domain*; do
			[ -r "$d/name" ] || continue
			sp=$(cat "$d/span" 2>/dev/null || awk -v c="$n" -v d="${d##*domain}" '$1 == c && $2 == d { print $3 }' /tmp/w.spans)
			echo "domain $n ${d##*domain} $(cat $d/name) ${sp:-?}" >> "/tmp/$name.topo"
			nd=$((nd + 1))
		done
		[ $nd -eq 0 ] && awk -v c="$n" '$1 == c && $4 != "-" { print "domain", c, $2, $4, $3 }' /tmp/w.spans >> "/tmp/$name.topo"
	done
	[ "$vb0" = N ] && echo N > $vb 2>/dev/null
	[ -f "/tmp/$name.lb_attempts" ] || : > "/tmp/$name.lb_attempts"
	[ -f "/tmp/$name.wasted_wakeup" ] || : > "/tmp/$name.wasted_wakeup"
	(cd /tmp && tar -cf - "$name.trace" "$name.tasks0" "$name.tasks1" "$name.wasted" \
		"$name.wasted_cgroups" "$name.wasted_attrib" "$name.info" "$name.topo" "$name.lost" \
		"$name.lb_attempts" "$name.probe" "$name.wasted_wakeup" | gzip -c > "/tmp/$name.tar.gz")
	echo "$name" >> /tmp/wasted-windows
	vm_export "wasted-$name.tar.gz" "/tmp/$name.tar.gz"
}

# w_val FILE CPU COLUMN: one value of a saved `wasted` table (by header name)
w_val() {
	awk -v cpu="$2" -v col="$3" 'NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		NR > 2 && $1 == cpu { print $(c[col]); f = 1 } END { if (!f) print "-" }' "$1"
}

# w_top FILE CPU: the attribution row with the most time for CPU (domain verdict reason cause ms attempts)
w_top() {
	awk -v cpu="$2" 'NR > 2 && $1 == cpu && $6 + 0 > best { best = $6 + 0; r = $2 " " $3 " " $4 " " $5 " " $6 " " $7 }
		END { print (r == "") ? "- - - - 0 0" : r }' "$1"
}

# w_attr_sum FILE CPU: the sum of CPU's attribution rows (ms)
w_attr_sum() {
	awk -v cpu="$2" 'NR > 2 && $1 == cpu { s += $6 } END { printf "%.3f\n", s }' "$1"
}

# w_cg FILE PATH COLUMN: one value of a saved wasted_cgroups table
w_cg() {
	awk -v p="$2" -v col="$3" 'NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		NR > 2 && $NF == p { print $(c[col]); f = 1 } END { if (!f) print "-" }' "$1"
}
