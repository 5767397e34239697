# SPDX-License-Identifier: GPL-2.0
# Scenario 50: nothing waits on a CPU for long.  A SCHED_FIFO spinner holds
# the last CPU with RT throttling off (sched_rt_runtime_us=-1), so no
# kworker runs there; insmod (its per-CPU checks), `reset` and `enable`
# (their per-CPU refresh) must return within a few seconds anyway (each
# waits at most 1 s), name the CPU that did not answer in the kernel log,
# and rmmod while that CPU's work is still queued must cancel it cleanly.
# Before, insmod stayed blocked until the spinner stopped.  The module is
# loaded without the audit's kretprobes here: unregistering an optimized
# kprobe waits for an RCU-tasks grace period, which a task spinning in user
# space on one CPU without switching delays (the kernel's, not ours).
# Afterwards the CPU answers and reads fresh again.
# plan: 7
# timeout: 120
T="no hang"
NOAUDIT=lb_symbol=sched_shadow_test_no_audit
C=$(( $(ncpus) - 1 ))
taskset -p 1 $$ >/dev/null	# this shell on cpu0, away from the spinner
unload_module
mark=$(dmesg_mark)
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
# 6.12+ run CFS tasks even under a real-time hog (the fair deadline
# server): switched off on the held CPU for the test, restored after; if
# that is refused, the work may simply run there (a little late)
FS=/sys/kernel/debug/sched/fair_server/cpu$C/runtime
fs_old='' fair_server=''
if [ -f "$FS" ]; then
	fs_old=$(cat "$FS")
	if ! echo 0 > "$FS" 2>/dev/null || [ "$(cat "$FS")" != 0 ]; then
		fair_server=1
		diag "the fair server of cpu$C could not be switched off: its kworker may still run"
	fi
fi
rtspin -c $C -t 15000 -n 1 -p 50 2>/tmp/s36.rt.err &
rtpid=$!
sleep 1
# secs CMD...: run CMD; its wall seconds (1 decimal) in $st, its exit
# status in $src
secs() {
	local t0 t1
	read -r t0 _ < /proc/uptime
	"$@" > /tmp/s36.out 2>&1
	src=$?
	read -r t1 _ < /proc/uptime
	st=$(echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }')
}
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
named() { dmesg_since "$mark" | grep -E "$1: CPU\(s\) ([0-9,-]*[^0-9])?$C([^0-9][0-9,-]*)? did not run" | head -n 1; }
named_or_ran() { [ -n "$(named "$1")" ] || [ -n "$fair_server" ]; }

secs modload "$KO" $NOAUDIT
lt=$st lrc=$src
res "$([ "$lrc" -eq 0 ] && awk -v t=$lt 'BEGIN { exit !(t < 6) }' && named_or_ran 'load-time checks'; echo $?)" \
	"$T: insmod with cpu$C held by an RT spinner returns in ${lt}s${fair_server:+ (fair server)}$([ -n "$(named 'load-time checks')" ] && echo ", names cpu$C")" \
	"rc $lrc, ${lt}s, $(cat /tmp/s36.out); log: $(dmesg_since "$mark" | grep sched_shadow | tail -n 3)"
module_loaded || { load_module; return 0; }
v=$(ss_rows cpus cpu void | awk -v c=$C '$1 == c { print $2 }')
diag "cpu$C void after the load: $v (fresh only if it published from an enqueue there)"

mark=$(dmesg_mark)
secs sh -c "echo 1 > $SS/reset"
rt1=$st rrc=$src
secs sh -c "echo 0 > $SS/enable && echo 1 > $SS/enable"
et=$st erc=$src
res "$([ "$rrc" -eq 0 ] && [ "$erc" -eq 0 ] && awk -v a=$rt1 -v b=$et 'BEGIN { exit !(a < 4 && b < 4) }' && named_or_ran refresh; echo $?)" \
	"$T: reset (${rt1}s) and enable 0/1 (${et}s) return$([ -n "$(named refresh)" ] && echo ", the log names cpu$C")" \
	"reset rc $rrc ${rt1}s, enable rc $erc ${et}s; log: $(dmesg_since "$mark" | grep sched_shadow | tail -n 3)"

# the refresh queued on cpu$C has not run: unload must cancel it (the
# kernel itself may make rmmod wait for the spinner: unregistering probes
# waits for grace periods a task spinning in user space can delay)
secs rmmod sched_shadow
ut=$st urc=$src
res "$([ "$urc" -eq 0 ] && ! module_loaded; echo $?)" \
	"$T: rmmod with work still queued on cpu$C returns (${ut}s)" "rc $urc, ${ut}s: $(cat /tmp/s36.out)"
secs modload "$KO" $NOAUDIT
res "$src" "$T: loaded again while cpu$C is still held (${st}s)" "$(cat /tmp/s36.out)"

wait $rtpid
rtrc=$?
echo "$rt" > /proc/sys/kernel/sched_rt_runtime_us
[ -n "$fs_old" ] && echo "$fs_old" > "$FS" 2>/dev/null
[ "$rtrc" -eq 0 ] || diag "rtspin exited with $rtrc: $(cat /tmp/s36.rt.err)"
# the CPU answers again: a little load there, then it reads fresh
bg s36 burn -t 1 -r 2 -s 2 -d 0 -q --cpu $C
w=0 v=
while [ $w -lt 10 ]; do
	sleep 0.5
	v=$(ss_rows cpus cpu void | awk -v c=$C '$1 == c { print $2 }')
	[ "$v" = fresh ] && break
	w=$((w + 1))
done
bg_stop
res "$([ "$v" = fresh ]; echo $?)" "$T: cpu$C fresh once the spinner is gone" "void $v"
unload_module
res "$(! module_loaded; echo $?)" "$T: unloads" "$(cat /tmp/rmmod.err)"
dmesg_clean "$mark" "$T: kernel log clean (no hung task, WARNING, BUG)"
load_module
