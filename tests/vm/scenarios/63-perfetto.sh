# SPDX-License-Identifier: GPL-2.0
# Scenario 63: Perfetto traces (issue 14).  `record -o CSV --perfetto` while
# burn loads two nested cgroups, and `run --perfetto --json -- bench`; the
# traces, the CSV and the run report are exported for the host checker
# tests/vm/host/63-perfetto.sh, which decodes the traces with protoc and
# compares them with the CSV and the JSON (no protoc in the guest).
# plan: 6
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
"$CLI" record -i 0.25 -d 1.5 -o /tmp/p63.csv --perfetto /tmp/p63.pftrace 2> /tmp/p63.err
rc=$?
bg_stop
check $rc "perfetto: record -o CSV --perfetto TRACE exits 0"
diag < /tmp/p63.err
nv=$(sed -n 's/.* and \([0-9]*\) lb verdicts to .*/\1/p' /tmp/p63.err)
[ "${nv:-0}" -gt 0 ]
check $? "perfetto: record read lb_verdict records from its tracefs instance (${nv:-0})"
left=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep sched_shadow)
[ -z "$left" ] && ! grep -q '^1$' /sys/kernel/tracing/events/sched_shadow/lb_verdict/enable 2>/dev/null
check $? "perfetto: the tracefs instance is removed, the global lb_verdict event untouched (${left:-none left})"

"$CLI" run --perfetto /tmp/p63-run.pftrace --interval 0.25 --cgroup /pf63/run --json -- \
	sh -c "exec $CLI bench -r 1.5 -m 1 -t 3 -c 200 -s 2000 > /dev/null" \
	> /tmp/p63-run.json 2> /tmp/p63-run.err
rc=$?
[ $rc -eq 0 ] && [ -s /tmp/p63-run.pftrace ]
check $? "perfetto: run --perfetto --json -- bench exits 0 and writes the trace (rc=$rc)"
[ $rc -ne 0 ] && diag < /tmp/p63-run.err

"$CLI" record -n 1 --perfetto /nonexistent-dir/p63.pftrace 2> /tmp/p63-bad.err
rc=$?
[ $rc -eq 1 ] && [ ! -e /nonexistent-dir/p63.pftrace ] && [ "$(wc -l < /tmp/p63-bad.err)" -eq 1 ]
check $? "perfetto: unwritable trace: one-line error, exit 1 ($(cat /tmp/p63-bad.err))"

for f in p63.csv p63.pftrace p63-run.pftrace p63-run.json; do
	vm_export "$f" "/tmp/$f"
done
cg_rm /pf63
