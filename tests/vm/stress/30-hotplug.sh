# SPDX-License-Identifier: GPL-2.0
# plan: 6
# Stress 3: CPU hotplug.  20 offline/online cycles (short: 3) of the
# non-boot CPUs (/sys/devices/system/cpu/cpuN/online; every 5th cycle
# takes two CPUs down at once) while the module is loaded, burners run in
# the root and nested cgroups, and a reader reads every file.  While a CPU
# is offline its cpus row says online 0 with "-" in every instantaneous
# column and groups has no row for it; once it is back, its row is online
# 1 and new walks are published there (published grows: the values are
# fresh, not the ones from before it went down).
# timeout: 900
SCEN=30
. /lib/vm/stress/stress.lib
C=$(fig 20 3)
T=hotplug
mark=$(dmesg_mark)
need_module "$T: module loaded" || return 0
hot=
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${d##*cpu}
	[ "$n" != 0 ] && [ -w "$d/online" ] && [ "$(cat "$d/online")" = 1 ] && hot="$hot $n"
done
set -- $hot
nhot=$#
diag "level $STRESS_LEVEL: $C cycles over CPUs:$hot"
if [ "$nhot" -eq 0 ]; then
	not_ok "$T: hotpluggable CPUs" "no cpuN/online file for N > 0"
	return 0
fi

row() { awk -v c="$1" 'NR > 2 && $1 == c' "$SS/cpus"; }
# the published column, by name (cpus gains columns over time)
pubcol() { awk 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "published") print i }' "$SS/cpus"; }
pubof() { row "$1" | awk -v pc="$(pubcol)" '{ print $pc }'; }
# offline_ok CPU: its row is "online 0" with "-" in columns 3..12, no groups row
offline_ok() {
	row "$1" | awk '{ if ($2 != 0) exit 1; for (i = 3; i <= 12; i++) if ($i != "-") exit 1 }' || return 1
	awk -v c="$1" 'NR > 2 && $1 == c { f = 1 } END { exit f }' "$SS/groups"
}
# wait_fresh CPU PUB MAX_S: until the row is online 1 with numbers and
# published > PUB; prints the seconds waited
wait_fresh() {
	local t=0
	while [ $t -lt $(($3 * 10)) ]; do
		if row "$1" | awk -v p="$2" -v pc="$(pubcol)" '$2 == 1 && $3 != "-" && $pc > p { f = 1 } END { exit !f }'; then
			echo "$((t / 10)).$((t % 10))"
			return 0
		fi
		usleep 100000
		t=$((t + 1))
	done
	echo "$3"
	return 1
}
setcpu() {	# setcpu CPU 0|1: write online, wait until it reads back (max 30 s)
	local t=0
	echo "$2" > /sys/devices/system/cpu/cpu$1/online || return 1
	while [ "$(cat /sys/devices/system/cpu/cpu$1/online)" != "$2" ]; do
		t=$((t + 1))
		[ $t -ge 300 ] && return 1
		usleep 100000
	done
}

workload s30
bg_ssread r30 -i 20 -m 8 $SS_FILES
sleep 1

cycles=0 offs=0 fail_off=0 fail_on=0 off_bad=0 stale=0 stale_window=0 maxfresh=0 ex=
i=0
while [ $i -lt "$C" ]; do
	i=$((i + 1))
	set -- $hot
	idx=$(( (i - 1) % nhot + 1 ))
	# shellcheck disable=SC1083 # ${N}: the N-th positional parameter, through eval
	c1=$(eval echo \${$idx})
	cpus_down=$c1
	if [ $((i % 5)) -eq 0 ] && [ "$nhot" -ge 2 ]; then
		# shellcheck disable=SC1083 # as above
		c2=$(eval echo \${$((idx % nhot + 1))})
		cpus_down="$c1 $c2"
	fi
	for c in $cpus_down; do
		if setcpu $c 0; then offs=$((offs + 1)); else fail_off=$((fail_off + 1)); diag "cycle $i: cpu$c did not go offline"; fi
	done
	usleep 300000
	for c in $cpus_down; do
		if ! offline_ok $c; then
			off_bad=$((off_bad + 1))
			ex="cycle $i cpu$c offline: cpus '$(row $c)' groups rows $(awk -v c=$c 'NR > 2 && $1 == c' "$SS/groups" | wc -l)"
		fi
		eval pub_$c=$(pubof $c)
	done
	for c in $cpus_down; do
		setcpu $c 1 || { fail_on=$((fail_on + 1)); diag "cycle $i: cpu$c did not come back"; continue; }
		p=''
		eval p=\$pub_$c
		# right after onlining: the last walk from before it went down?
		row $c | awk -v p="$p" -v pc="$(pubcol)" '$2 == 1 && $3 != "-" && $pc == p { f = 1 } END { exit !f }' &&
			stale_window=$((stale_window + 1))
		# 3 s: an onlined CPU runs its own kthreads (cpuhp, ksoftirqd) at
		# once and pulls burners (5 ms duty cycles) at its first idle
		# balance; the longest wait measured was under 0.1 s
		w=$(wait_fresh $c "$p" 3) || { stale=$((stale + 1)); ex="cycle $i cpu$c online: no new walk in 3 s: '$(row $c)'"; }
		awk -v a="$w" -v b="$maxfresh" 'BEGIN { exit !(a > b) }' && maxfresh=$w
	done
	cycles=$((cycles + 1))
done

for c in $hot; do [ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 1 ] || setcpu $c 1; done
line=$(ssread_stop r30)
diag "cycles $cycles, CPUs taken offline $offs (offline failures $fail_off, online failures $fail_on)"
diag "offline rows wrong $off_bad, CPUs without a fresh walk after online $stale, longest wait for a fresh walk ${maxfresh} s"
diag "rows still showing the walk from before the CPU went down right after onlining: $stale_window (documented: values of the last published walk)"
[ -n "$ex" ] && diag "example: $ex"
diag "reader: ${line#ssread: }"
grep -v '^ssread: rounds=' /tmp/r30.log | head -n 8 | diag
[ "$cycles" -eq "$C" ] && [ "$fail_off" -eq 0 ] && [ "$fail_on" -eq 0 ] &&
	ok "$T: $cycles offline/online cycles ($offs CPU offlines) under load" ||
	not_ok "$T: $C offline/online cycles under load" "cycles $cycles, offline failures $fail_off, online failures $fail_on"
[ "$off_bad" -eq 0 ] && ok "$T: an offline CPU's row is online 0 with '-' and it has no groups rows" ||
	not_ok "$T: an offline CPU's row is online 0 with '-' and it has no groups rows" "$off_bad wrong"
[ "$stale" -eq 0 ] && ok "$T: a CPU back online publishes new walks (no stale values)" ||
	not_ok "$T: a CPU back online publishes new walks (no stale values)" "$stale without a new walk"
[ -n "$line" ] && [ "$(ssval "$line" bad)" = 0 ] && [ "$(ssval "$line" addr)" = 0 ] && [ "$(ssval "$line" other_err)" = 0 ] &&
	ok "$T: every read during hotplug parses ($(ssval "$line" ok) reads)" || not_ok "$T: every read during hotplug parses" "$line"
all1=$(awk 'NR > 2 && $2 != 1' "$SS/cpus")
[ -z "$all1" ] && ok "$T: every CPU online at the end" || not_ok "$T: every CPU online at the end" "$all1"
keep cpus "$SS/cpus"
bg_stop
cg_rm /s30
dmesg_since "$mark" | grep sched_shadow > "$OUT/30-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean"
