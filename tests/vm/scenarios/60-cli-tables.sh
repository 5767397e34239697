# SPDX-License-Identifier: GPL-2.0
# plan: 18
# Scenario 60: the sched-shadow CLI against the real module: status, cpus,
# groups, lb in text and --json/--prom, and record.  The JSON documents and
# the CSV are exported for tests/vm/host/60-cli-tables.sh, which parses the
# JSON and plots the CSV on the host.  Then every file of the module's
# debugfs is copied once (a snapshot, with a hog in a nested cgroup whose
# name holds a space) and the CLI renders cpus, groups and lb from that copy
# (--debugfs DIR) in text, --json and --prom: the host compares every row
# and every value of each rendering with the snapshot itself.
# timeout: 120
need_module "cli: module loaded" || return 0

CLI=$(command -v sched-shadow || echo /bin/sched-shadow)
if [ ! -x "$CLI" ]; then
	not_ok "cli: sched-shadow in the guest" "no $CLI (VM_EXTRA_FILES from userspace/cli.mk?)"
	return 0
fi
ok "cli: sched-shadow in the guest"

# Some load so the tables have something to show: two busy loops.
bg cli-hog1 sh -c 'while :; do :; done'
bg cli-hog2 sh -c 'while :; do :; done'
sleep 1

out=$($CLI status 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q 'loaded' && echo "$out" | grep -q '^kernel:' &&
   echo "$out" | grep -q '^walks:' && echo "$out" | grep -q '^lb audit:'; then
	ok "cli: status"
else
	not_ok "cli: status" "rc=$rc
$out"
fi
echo "$out" | diag

ncpu=$(ss_rows cpus | wc -l)
for cmd in cpus groups lb; do
	out=$($CLI $cmd 2>&1); rc=$?
	case $cmd in
	cpus) want='cpu  online' ;;
	groups) want='path' ;;
	lb) want='lb audit: not available\|domain' ;;
	esac
	if [ $rc -eq 0 ] && echo "$out" | grep -q "$want"; then
		ok "cli: $cmd (text)"
	else
		not_ok "cli: $cmd (text)" "rc=$rc
$out"
	fi
	[ $cmd = cpus ] && echo "$out" | diag
	$CLI $cmd --json > /tmp/cli-$cmd.json 2>/tmp/cli-$cmd.err; rc=$?
	if [ $rc -eq 0 ] && grep -q '"schema": *"sched_shadow/v1"' /tmp/cli-$cmd.json; then
		ok "cli: $cmd --json"
	else
		not_ok "cli: $cmd --json" "rc=$rc $(cat /tmp/cli-$cmd.err)"
	fi
	vm_export cli-$cmd.json /tmp/cli-$cmd.json
	$CLI $cmd --prom > /tmp/cli-$cmd.prom 2>/tmp/cli-$cmd.err; rc=$?
	bad=$(grep -v '^#' /tmp/cli-$cmd.prom | grep -v -E '^sched_shadow_[a-z_]+(\{[^}]*\})? [-+0-9.eE]+$' | head -n 3)
	if [ $rc -eq 0 ] && [ -z "$bad" ] && [ -s /tmp/cli-$cmd.prom ]; then
		ok "cli: $cmd --prom"
	else
		not_ok "cli: $cmd --prom" "rc=$rc $bad $(cat /tmp/cli-$cmd.err)"
	fi
done
# cpus --json has one object per possible CPU
n=$(grep -o '"online":' /tmp/cli-cpus.json | wc -l)
if [ "$n" -eq "$ncpu" ]; then ok "cli: cpus --json has $ncpu CPUs"; else not_ok "cli: cpus --json has $ncpu CPUs" "found $n"; fi

$CLI status --json > /tmp/cli-status.json 2>/tmp/cli-status.err; rc=$?
check $rc "cli: status --json"
vm_export cli-status.json /tmp/cli-status.json

$CLI record -i 0.2 -n 5 -o /tmp/rec.csv 2>/tmp/rec.err; rc=$?
rows=$(($(wc -l < /tmp/rec.csv) - 1))
if [ $rc -eq 0 ] && [ "$rows" -eq $((5 * ncpu)) ] &&
   head -n 1 /tmp/rec.csv | grep -q '^time_s,cpu,load_avg,runnable_avg,util_avg,shadow,shadow_avg,nr_running,'; then
	ok "cli: record -i 0.2 -n 5 (5 x $ncpu rows)"
else
	not_ok "cli: record -i 0.2 -n 5 (5 x $ncpu rows)" "rc=$rc rows=$rows $(cat /tmp/rec.err)"
fi
# every CPU appears in every sample
missing=$(awk -F, -v n="$ncpu" 'NR > 1 { c[$2]++ } END { for (i = 0; i < n; i++) if (c[i] != 5) print i }' /tmp/rec.csv)
if [ -z "$missing" ]; then ok "cli: record has rows for every CPU"; else not_ok "cli: record has rows for every CPU" "missing: $missing"; fi
vm_export cli-rec.csv /tmp/rec.csv

out=$($CLI watch -n 2 -i 0.2 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | grep -c -- '--- sample')" -eq 2 ]; then ok "cli: watch -n 2 (not a tty)"; else not_ok "cli: watch -n 2 (not a tty)" "rc=$rc"; fi

# the snapshot: the CLI's three renderings of one copy of the tables
cg_mk "/s60/sp ace"
bg cli-hog3 burn -t 1 -s 0 -d 0 -q --cpu 2 --cgroup "/s60/sp ace"
sleep 1
S=/tmp/snap60
rm -rf $S && mkdir -p $S/debugfs $S/out
# the hooks' self-accounting on for the snapshot's second (docs/debugfs.md shows its stats)
echo 1 > /sys/module/sched_shadow/parameters/stats
sleep 1
for f in "$SS"/*; do
	[ -r "$f" ] && [ -f "$f" ] && cat "$f" > "$S/debugfs/${f##*/}" 2>/dev/null
done
rc=0
for cmd in cpus groups lb; do
	$CLI --debugfs $S/debugfs $cmd > $S/out/$cmd.txt 2>$S/out/$cmd.err || rc=1
	$CLI --debugfs $S/debugfs $cmd --json > $S/out/$cmd.json 2>>$S/out/$cmd.err || rc=1
	$CLI --debugfs $S/debugfs $cmd --prom > $S/out/$cmd.prom 2>>$S/out/$cmd.err || rc=1
done
echo 0 > /sys/module/sched_shadow/parameters/stats
bg_stop
cg_rm /s60
(cd $S && tar cf /tmp/cli-snap.tar debugfs out)
nrows=$(($(wc -l < $S/debugfs/groups) - 2))
check "$([ $rc -eq 0 ] && [ "$nrows" -gt 0 ] && grep -q 'sp\\040ace' $S/debugfs/groups && echo 0 || echo 1)" \
	"cli: cpus, groups, lb rendered from one debugfs snapshot in text, --json and --prom ($nrows groups rows)"
vm_export cli-snap.tar /tmp/cli-snap.tar

$CLI reset > /dev/null 2>&1; rc=$?
pub=$(ss_sum published)
check $rc "cli: reset (published walks after: $pub)"

bg_stop
