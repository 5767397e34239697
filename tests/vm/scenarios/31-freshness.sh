# SPDX-License-Identifier: GPL-2.0
# Scenario 31 (freshness): the `void` column of `cpus`.
# A pinned hog on every CPU keeps events coming.  Checks:
#  1. under load every online CPU is fresh;
#  2. enable=0: every CPU says disabled;
#  3. the time spent disabled is not charged to the values held: a hog on
#     cpu3 runs 2 s, the module is disabled, the hog stops, 4 s pass, the
#     module is enabled again and cpu3 idles 2 s.  Charged, the
#     time-weighted shadow_mean of cpu3 would be near 6/8 of the hog's
#     load; not charged, near 2/4 of it (0.5);
#  4. a CPU taken offline says hotplug, and is fresh again under load
#     once it is back;
#  5. after reset every CPU is fresh again under load, counters restarted.
# plan: 5
# timeout: 90
need_module "freshness" || return 0
T="freshness"
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
voids() { awk 'NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR > 2 { printf "%s:%s ", $1, $(c["void"]) }' "$SS/cpus"; }
col() {	# col CPU NAME
	awk -v cpu="$1" -v n="$2" 'NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR > 2 && $1 == cpu { print $(c[n]) }' "$SS/cpus"
}
n=$(ncpus)
shcpu=$(pin_shell_last_cpu)
i=0
while [ $i -lt $n ]; do
	[ $i -ne 3 ] && bg s31p$i burn -t 1 -r 3 -s 3 -d 0 -q --cpu $i
	i=$((i + 1))
done
bg s31h burn -t 1 -s 0 -d 0 -q --cpu 3
sleep 1
v=$(voids)
nf=$(echo "$v" | tr ' ' '\n' | grep -c ':fresh$')
res "$([ "$nf" -eq "$n" ]; echo $?)" "$T: under load all $n CPUs fresh" "$v"

echo 1 > "$SS/reset"
sleep 2
m1=$(col 3 shadow_mean)
echo 0 > "$SS/enable"
v=$(voids)
nd=$(echo "$v" | tr ' ' '\n' | grep -c ':disabled$')
res "$([ "$nd" -eq "$n" ]; echo $?)" "$T: enable=0: all $n CPUs disabled" "$v"
pid=$(awk '$2 == "s31h" { print $1 }' "$BG_PIDS")
kill "$pid"
sleep 4
echo 1 > "$SS/enable"
sleep 2
# The means run to each CPU's last published walk (docs/debugfs.md): an
# idle CPU with no scheduler event publishes nothing, so one short task on
# cpu3 makes it publish the idle time before the read (one 5.10 run had
# no event there in those 2 s and read 799, the idle time uncounted)
taskset 8 cat /dev/null
sleep 0.2
m2=$(col 3 shadow_mean)
r2=$(col 3 real_mean)
diag "cpu3 shadow_mean $m1 after 2 s of its hog; $m2 (real_mean $r2) after 4 s disabled and 2 s idle"
res "$([ "${m1:-0}" -gt 500 ] && [ "${m2:-0}" -lt $((m1 * 65 / 100)) ]; echo $?)" \
	"$T: time disabled not charged: cpu3 shadow_mean $m1 -> $m2 (< 0.65x; charged it would be ~0.75x)" \
	"m1=$m1 m2=$m2"

hp=/sys/devices/system/cpu/cpu4/online
if [ -w $hp ]; then
	echo 0 > $hp
	sleep 0.3
	off=$(col 4 void)
	echo 1 > $hp
	bg s31q burn -t 1 -r 3 -s 3 -d 0 -q --cpu 4
	sleep 1.5
	on=$(col 4 void)
	res "$([ "$off" = hotplug ] && [ "$on" = fresh ]; echo $?)" \
		"$T: cpu4 offline says hotplug, fresh again under load once back" "offline '$off' back '$on'"
else
	not_ok "$T: cpu4 offline says hotplug, fresh again once back" "$hp not writable"
fi

echo 1 > "$SS/reset"
sleep 1.5
v=$(voids)
nf=$(echo "$v" | tr ' ' '\n' | grep -c ':fresh$')
pub=$(ss_sum published)
bg_stop
res "$([ "$nf" -eq "$n" ] && [ "$pub" -gt 0 ]; echo $?)" "$T: after reset all $n CPUs fresh under load ($pub walks since)" "$v"
