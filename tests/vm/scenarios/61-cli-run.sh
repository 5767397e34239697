# SPDX-License-Identifier: GPL-2.0
# plan: 11
# Scenario 61: `sched-shadow run -- sched-shadow bench` against the real
# module, once in the root cgroup and once in a nested cgroup run creates
# (/sst61/nested, cpu controller enabled down to it).  Each run's --json
# report and the bench's own --json are exported for the host checker
# tests/vm/host/61-cli-run.sh, which parses them (no python in the guest).
# timeout: 150
need_module "cli run: module loaded" || return 0

CLI=$(command -v sched-shadow || echo /bin/sched-shadow)
if [ ! -x "$CLI" ]; then
	not_ok "cli run: sched-shadow in the guest" "no $CLI (VM_EXTRA_FILES from userspace/cli.mk?)"
	return 0
fi
ok "cli run: sched-shadow in the guest"

# Short runs: the guest is emulated and shares the host's CPUs.
BENCH="-r 3 -m 2 -t 3 -c 200 -s 2000"

run_case() {	# run_case NAME [run options...]
	local name=$1 rc
	shift
	"$CLI" run "$@" --pretty -- sh -c "exec $CLI bench $BENCH --json > /tmp/bench-$name.json" \
		> /tmp/run-$name.json 2> /tmp/run-$name.err
	rc=$?
	check $rc "cli run ($name): run -- bench exits 0"
	[ $rc -ne 0 ] && diag < /tmp/run-$name.err
	if grep -q '"loaded": true' /tmp/run-$name.json && grep -q '"reset": true' /tmp/run-$name.json; then
		ok "cli run ($name): report says the module is loaded and was reset"
	else
		not_ok "cli run ($name): report says the module is loaded and was reset" \
			"$(head -c 600 /tmp/run-$name.json)"
	fi
	if grep -q '"requested": true' /tmp/run-$name.json &&
	   awk '/"bpf": \{/ { b = 1 } b && /"available"/ { print; exit }' /tmp/run-$name.json | grep -q true; then
		ok "cli run ($name): BPF collected in the guest"
	else
		not_ok "cli run ($name): BPF collected in the guest" "$(grep -A3 '"bpf"' /tmp/run-$name.json)"
	fi
	# the bench's own numbers, not only a file: requests and wakeups
	# counted, one latency sample per request (the host parses the rest)
	jn() { grep -o "\"$1\": *[0-9]*" /tmp/bench-$name.json | head -n 1 | grep -o '[0-9]*$'; }
	set -- "$(jn requests)" "$(jn wakeups)" "$(jn samples)"
	[ -n "$1$2$3" ] && [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-x}" = "$1" ]
	check $? "cli run ($name): bench wrote its JSON with its counts (requests ${1:-?}, wakeups ${2:-?}, latency samples ${3:-?})"
	vm_export run-$name.json /tmp/run-$name.json
	vm_export bench-$name.json /tmp/bench-$name.json
}

run_case root
run_case nested --cgroup /sst61/nested
[ ! -e /sys/fs/cgroup/sst61 ]
check $? "cli run (nested): the cgroups run created are removed"

# The text report once, for people reading the console.
"$CLI" run --cgroup /sst61/text -- "$CLI" bench -r 1 -m 1 -t 2 > /tmp/run-text.out 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '== wakeup latency per cgroup (BPF) ==' /tmp/run-text.out &&
   grep -q 'shadow_mean' /tmp/run-text.out; then
	ok "cli run (text): report with per-CPU divergence and BPF latency"
else
	not_ok "cli run (text): report with per-CPU divergence and BPF latency" "rc=$rc"
fi
diag < /tmp/run-text.out
cg_rm /sst61
