# SPDX-License-Identifier: GPL-2.0
# Scenario 63: Perfetto traces.  `record -o CSV --perfetto` while burn
# loads two nested cgroups, and `run --perfetto --json -- bench` while a
# second tracefs instance records every lb_verdict on its own (the
# reference, a plain `cat` of its trace_pipe); the traces, the CSV, the run
# report and the reference are exported for the host checker
# tests/vm/host/63-perfetto.sh, which decodes the traces with protoc and
# compares them with the CSV, the JSON and the reference (no protoc in the
# guest).
# plan: 7
# timeout: 120
need_module "perfetto: module loaded" || return 0

CLI=$(command -v sched-shadow || echo /bin/sched-shadow)
if [ ! -x "$CLI" ]; then
	not_ok "perfetto: sched-shadow in the guest" "no $CLI"
	return 0
fi
ok "perfetto: sched-shadow in the guest"

echo 1 > "$SS/reset"
bg p63a burn -t 3 -r 5 -s 5 -d 0 -q --cgroup /pf63/a
bg p63b burn -t 2 -r 3 -s 7 -d 0 -q --cgroup /pf63/b
sleep 0.5
# the command's lifetime in CLOCK_BOOTTIME (/proc/uptime), the trace's clock
read -r u0 _ < /proc/uptime
"$CLI" record -i 0.25 -d 1.5 -o /tmp/p63.csv --perfetto /tmp/p63.pftrace 2> /tmp/p63.err
rc=$?
read -r u1 _ < /proc/uptime
echo "$u0 $u1" > /tmp/p63-window.txt
bg_stop
check $rc "perfetto: record -o CSV --perfetto TRACE exits 0"
diag < /tmp/p63.err
nv=$(sed -n 's/.* and \([0-9]*\) lb verdicts to .*/\1/p' /tmp/p63.err)
[ "${nv:-0}" -gt 0 ]
check $? "perfetto: record read lb_verdict records from its tracefs instance (${nv:-0})"
left=$(find /sys/kernel/tracing/instances -maxdepth 1 -name '*sched_shadow*' 2>/dev/null)
[ -z "$left" ] && ! grep -q '^1$' /sys/kernel/tracing/events/sched_shadow/lb_verdict/enable 2>/dev/null
check $? "perfetto: the tracefs instance is removed, the global lb_verdict event untouched (${left:-none left})"

# the reference: every lb_verdict record, from an instance of our own
ref=/sys/kernel/tracing/instances/p63ref
mkdir $ref && echo boot > $ref/trace_clock && echo 4096 > $ref/buffer_size_kb &&
	echo 1 > $ref/events/sched_shadow/lb_verdict/enable
check $? "perfetto: a second tracefs instance records lb_verdict as a reference"
cat $ref/trace_pipe > /tmp/p63-ref.txt &
refpid=$!
"$CLI" run --perfetto /tmp/p63-run.pftrace --interval 0.25 --cgroup /pf63/run --json -- \
	sh -c "exec $CLI bench -r 1.5 -m 1 -t 3 -c 200 -s 2000 > /dev/null" \
	> /tmp/p63-run.json 2> /tmp/p63-run.err
rc=$?
sleep 0.5	# the reader catches up
echo 0 > $ref/events/sched_shadow/lb_verdict/enable
kill $refpid 2>/dev/null
wait $refpid 2>/dev/null
diag "reference: $(grep -c ' lb_verdict: ' /tmp/p63-ref.txt) records; overrun $(grep -h overrun $ref/per_cpu/cpu*/stats | awk '{ s += $2 } END { print s }')"
rmdir $ref
[ $rc -eq 0 ] && [ -s /tmp/p63-run.pftrace ]
check $? "perfetto: run --perfetto --json -- bench exits 0 and writes the trace (rc=$rc)"
[ $rc -ne 0 ] && diag < /tmp/p63-run.err

"$CLI" record -n 1 --perfetto /nonexistent-dir/p63.pftrace 2> /tmp/p63-bad.err
rc=$?
[ $rc -eq 1 ] && [ ! -e /nonexistent-dir/p63.pftrace ] && [ "$(wc -l < /tmp/p63-bad.err)" -eq 1 ]
check $? "perfetto: unwritable trace: one-line error, exit 1 ($(cat /tmp/p63-bad.err))"

for f in p63.csv p63.pftrace p63-window.txt p63-run.pftrace p63-run.json p63-ref.txt; do
	vm_export "$f" "/tmp/$f"
done
cg_rm /pf63
