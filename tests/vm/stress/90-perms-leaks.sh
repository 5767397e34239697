# SPDX-License-Identifier: GPL-2.0
# plan: 5
# Stress 6: permissions and leaks.
#   - An unprivileged user (uid/gid 65534, no capabilities: tests/progs
#     nobody.c) cannot open any sched_shadow debugfs file for reading,
#     writing or both: with debugfs mounted as usual (0700) and with the
#     mount opened to everyone (remount mode=0755), where only the files'
#     own modes (0400/0600/0200, owner root) keep the user out.
#   - Nothing the module printed during the whole suite holds a kernel
#     address: every debugfs read of every scenario was scanned by ssread
#     as it happened; here the kept reads, the module's dmesg lines, the
#     output of its trace events (sched_load_cfs_rq, sched_load_se,
#     lb_verdict) and of the CLI (status, cpus, groups, lb; text, --json,
#     --prom) are scanned for ffff + 12 hex digits, 0x + 8 or more hex
#     digits, 16 hex digits with a letter (hashed %p) and ____ptrval____.
#     The same files go to the host (stress-out.tar), which scans them again
#     (host/90-perms-leaks.sh).
# timeout: 300
SCEN=90
. /lib/vm/stress/stress.lib
T="perms/leaks"
mark=$(dmesg_mark)
need_module "$T: module loaded" || return 0
files=
for f in "$SS"/*; do files="$files $f"; done
diag "files:$(echo "$files" | sed "s|$SS/||g")"

out=$(nobody $files 2>&1)
rc=$?
echo "$out" | diag
[ $rc -eq 0 ] && ! echo "$out" | grep -q LEAK && ok "$T: uid 65534 cannot open any file (debugfs mounted 0700)" ||
	not_ok "$T: uid 65534 cannot open any file (debugfs mounted 0700)" "exit $rc"

mode0=$(stat -c %a /sys/kernel/debug)
if mount -o remount,mode=0755 /sys/kernel/debug 2>/dev/null && [ "$(stat -c %a /sys/kernel/debug)" = 755 ]; then
	out=$(nobody $files 2>&1)
	rc=$?
	mount -o remount,mode=0$mode0 /sys/kernel/debug
	echo "$out" | diag
	[ $rc -eq 0 ] && ! echo "$out" | grep -q LEAK && ok "$T: uid 65534 cannot open any file with debugfs opened to all (mode 0755): the files' own modes hold" ||
		not_ok "$T: uid 65534 cannot open any file with debugfs opened to all (mode 0755)" "exit $rc"
else
	tap_skip "$T: debugfs opened to all" "remount mode=0755 did not take (mode $(stat -c %a /sys/kernel/debug))"
fi
diag "debugfs mount mode back to $(stat -c %a /sys/kernel/debug)"
bad=
for f in $files; do
	m=$(stat -c '%a %u %g' "$f")
	case ${f##*/} in reset) w="200 0 0" ;; enable|lb_dump_every|wasted_track) w="600 0 0" ;; *) w="400 0 0" ;; esac
	[ "$m" = "$w" ] || bad="$bad ${f##*/}:$m"
done
[ -z "$bad" ] && ok "$T: modes 0400/0600/0200, owner root:root" || not_ok "$T: modes 0400/0600/0200, owner root:root" "$bad"

# ---- produce: trace events, CLI, final reads ----
workload s90
bg s90pin burn -t 3 -r 50 -s 1 -d 0 -q -p 1
sleep 1
TR=/sys/kernel/tracing
if [ -d $TR/events/sched_shadow ]; then
	echo 0 > $TR/tracing_on
	echo > $TR/trace
	echo 1 > $TR/events/sched_shadow/enable
	echo 1 > $TR/tracing_on
	sleep "$(fig 2 1)"
	echo 0 > $TR/tracing_on
	echo 0 > $TR/events/sched_shadow/enable
	grep -v '^#' $TR/trace > "$OUT/90-trace"
	echo > $TR/trace
	echo 1 > $TR/tracing_on
	diag "trace: $(wc -l < "$OUT/90-trace") records: $(for e in sched_load_cfs_rq sched_load_se lb_verdict; do printf '%s %s ' $e $(grep -c " $e:" "$OUT/90-trace"); done)"
else
	diag "no trace events directory"
fi
CLI=$(command -v sched-shadow)
ncli=0
if [ -n "$CLI" ]; then
	for c in status cpus groups lb; do
		for fmt in "" --json --prom; do
			$CLI $c $fmt > "$OUT/90-cli-$c${fmt:+-${fmt#--}}" 2>&1
			ncli=$((ncli + 1))
		done
	done
	diag "CLI: $ncli outputs kept"
else
	diag "no sched-shadow CLI in the guest"
fi
for f in $files; do
	case ${f##*/} in reset) ;; *) cat "$f" > "$OUT/90-final-${f##*/}" ;; esac
done
bg_stop
cg_rm /s90
dmesg | grep -i 'sched_shadow\|sched-shadow\|lb_symbol\|walk_budget' > "$OUT/90-dmesg-all"

# ---- scan everything kept ----
nfiles=$(ls "$OUT" | wc -l)
bytes=$(cat "$OUT"/* | wc -c)
scan=$(ssread -n 1 -m 20 "$OUT"/* 2>&1)
hits=$(ssval "$(echo "$scan" | grep '^ssread: rounds=')" addr)
diag "scanned $nfiles files, $bytes bytes kept from the whole suite: ${hits:-?} kernel-address hits"
echo "$scan" | grep 'kernel address' | diag
[ "$hits" = 0 ] && ok "$T: no kernel address in anything the module, its trace events or the CLI printed ($nfiles files, $bytes bytes)" ||
	not_ok "$T: no kernel address in the module's, trace events' and CLI's output" "$hits hits"
tar -C /tmp -cf /tmp/stress-out.tar stress-out 2>/dev/null
if [ "$(wc -c < /tmp/stress-out.tar)" -le 8000000 ]; then
	vm_export stress-out.tar /tmp/stress-out.tar
else
	diag "stress-out.tar is $(wc -c < /tmp/stress-out.tar) bytes: not exported"
fi
dmesg_module_check "$mark" "$T: kernel log clean"
