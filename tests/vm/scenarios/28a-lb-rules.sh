# SPDX-License-Identifier: GPL-2.0
# plan: 5
# Scenario 28a (load-balancer audit): states where the kernels' rules part
# (docs/debugfs.md, "Rule sets"), so that the kernel's own picks decide
# them (info lb_rule_evidence.<rule>: attempts decided, in force matched,
# flipped matched; the module runs with lb_evidence=1 in the lb scenarios).
# Every phase holds hogs pinned one per CPU (they cannot move: the state
# stays while idle CPUs balance again and again), the test's shell on the
# last CPU.
# A. fully_busy tie: one hog on every CPU but those of the first group of
#    the top level (package or node): two or more fully_busy groups with
#    equal avg_load (0) face an idle group; 6.1 keeps the first, 6.5+ the
#    later one (unless SMT).
# B. unequal groups: cpu1 taken offline (cpu0's group then has fewer CPUs
#    and cores than the others, its child domain may degenerate:
#    sibling_imbalance() and prefer_sibling read the groups' shapes), 2
#    hogs on cpu2, 1 on every other CPU but cpu0.
# C. packages of unequal core counts (a machine of two or more packages of
#    3+ cores, no SMT, one node: make test-lb-topos' pkg2x4): cpu0's
#    package cut to 2 CPUs (its others offline), a hog on each of them,
#    one on the second CPU of the next package.  An idle CPU there
#    balancing the package level sees its own package (ncl >= 3 cores, 1
#    task) has_spare and cpu0's (2 cores, 2 tasks) fully_busy, prefer_sibling
#    set (the MC domain's SD_PREFER_SIBLING: the busiest group's flags on
#    6.6+, the child domain's before).  6.6+'s sibling_imbalance() (ratio
#    of tasks to cores, rounded: (2 * (ncl * 2 - 2 * 1) + ncl + 2) /
#    (ncl + 2) = 2 for 3 cores, 3 for 4) forces the balance and pulls
#    (imbalance >> 1 = 1); the older test (busiest > local + 1: 2 > 2) does not
#    force, and the older imbalance ((2 - 1) >> 1 = 0) leaves nothing: no
#    pick.  The pinned hogs never move, so the state stays.
# Checks: the model agrees with the kernel on every judged attempt of the
# phases but those whose inputs moved (stale) or that the module explained;
# phase A made attempts decided by fully_busy_later (>= 20 on a machine
# with three or more top-level groups; the phase lasts up to 24 s to get
# them on a slow guest), and in each of them the rule in
# force matched the kernel where the flipped one did not; where those
# groups are SMT cores (make test-lb-topos' smt8), it decided none, or (the
# groups not marked SMT, 6.1) as many with the same outcome.  Phase C
# (where the machine has the shape; up to 40 s) made >= 20 attempts decided
# by sibling_imbalance with the rule in force matching the kernel more
# often than the flipped one (6.6+: the rule; 6.1: the older one), except
# on 5.10, whose calculate_imbalance() halves the tasks' difference under
# either force test (no pick either way): there it decides none.  The
# evidence of every rule is printed per phase.
# timeout: 150
lb_need "lb rules" || return 0

n=$(ncpus)
shcpu=$(pin_shell_last_cpu)
# the CPUs of the top level's first group: cpu0's largest domain's first
# group is cpu0's next-to-largest domain's span (its package or node)
first_group=$(awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 }
	on && /^domain/ { m = (NF > 3 && $2 !~ /^[0-9a-f,]+$/) ? $3 : $2; s[++k] = m }
	END { print (k >= 2) ? s[k - 1] : s[k] }' /proc/schedstat)
in_first() {	# in_first CPU: is CPU in first_group (a hex mask, ',' every 32 bits; no ^: busybox awk)
	awk -v m="$first_group" -v c="$1" 'BEGIN { gsub(",", "", m); i = length(m) - int(c / 4)
		if (i < 1) { print 0; exit } d = index("0123456789abcdef", substr(m, i, 1)) - 1
		for (b = c % 4; b > 0; b--) d = int(d / 2)
		print d % 2 }'
}
ev() { awk '$1 ~ /^lb_rule_evidence\./ { sub(/^lb_rule_evidence\./, "", $1); printf "%s=%s ", $1, $2 }' "$1"; }
agree_line() { awk '$1 ~ /^lb_(judged|model_agree|model_disagree_(stale|known|unknown))$/ { printf "%s %s ", $1, $2 }' "$1"; }
# phase NAME SECS HOGSPEC [RULE MIN MAXSECS]: hogs "cpu:count ..." pinned,
# SECS of idle balancing; with RULE, more (2 s at a time, MAXSECS in all)
# until RULE's evidence counts MIN decided attempts: a slow guest balances
# less often in the same time
phase() {
	local name=$1 secs=$2 spec=$3 rule=$4 min=$5 max=$6 c k i
	for c in $spec; do
		k=${c#*:}
		i=0
		while [ "$i" -lt "$k" ]; do
			bg "s28a_${c%%:*}_$i" burn -t 1 -s 0 -d 0 -q --cpu "${c%%:*}"
			i=$((i + 1))
		done
	done
	sleep 1
	lb_reset
	sleep "$secs"
	if [ -n "$rule" ]; then
		while [ "$secs" -lt "$max" ] && [ "$(awk -v k="lb_rule_evidence.$rule" '$1 == k { split($2, f, ":"); print f[1] + 0 }' "$SS/info")" -lt "$min" ]; do
			sleep 2
			secs=$((secs + 2))
		done
	fi
	cat "$SS/info" > "/tmp/l28a.$name"
	bg_stop
	diag "[$name] hogs $spec (first group $first_group, shell on cpu$shcpu), ${secs}s: $(agree_line "/tmp/l28a.$name")"
	diag "[$name] evidence decided:in_force:flipped: $(ev "/tmp/l28a.$name")"
}

groups=$(awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 } on && /^domain/ { k++ } END { print k + 0 }' /proc/schedstat)
tops=$(awk -v m="$first_group" 'BEGIN { gsub(",", "", m); for (i = 1; i <= length(m); i++) { d = index("0123456789abcdef", substr(m, i, 1)) - 1; while (d) { w += d % 2; d = int(d / 2) } } print w }')
ng=$((n / (tops > 0 ? tops : 1)))

# A. one hog per CPU outside the first group (extended for the tie only
# where three or more top-level groups can make one)
spec=
c=0
while [ $c -lt "$n" ]; do
	[ "$(in_first $c)" = 1 ] || spec="$spec $c:1"
	c=$((c + 1))
done
if [ $ng -ge 3 ]; then
	phase A 6 "$spec" fully_busy_later 20 24
else
	phase A 6 "$spec"
fi
# B. cpu1 offline (cpu0's group, its core or its package, loses a CPU);
# 2 hogs on cpu2, 1 on every other CPU but cpu0
off=
if [ "$n" -ge 4 ] && [ -w /sys/devices/system/cpu/cpu1/online ]; then
	echo 0 > /sys/devices/system/cpu/cpu1/online && off=1
fi
spec="2:2"
c=3
while [ $c -lt "$n" ]; do
	spec="$spec $c:1"
	c=$((c + 1))
done
phase B 6 "$spec"
[ -z "$off" ] || echo 1 > /sys/devices/system/cpu/cpu1/online
sleep 1
# C. cpu0's package cut to 2 CPUs; a hog on each, one on the next
# package's second CPU (the shell is on the last CPU: not cpu0's package)
pkg_of() { cat "/sys/devices/system/cpu/cpu$1/topology/physical_package_id" 2>/dev/null; }
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
tpc=$(tr ',' '\n' < /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null |
	awk -F- 'NF { k += (NF == 2) ? $2 - $1 + 1 : 1 } END { print k + 0 }')
p0=$(pkg_of 0) p1='' keep='' cut='' loc='' n0=0 n1=0
c=0
while [ $c -lt "$n" ]; do
	p=$(pkg_of $c)
	if [ "$p" = "$p0" ]; then
		n0=$((n0 + 1))
		if [ $n0 -le 2 ]; then keep="$keep $c"; else cut="$cut $c"; fi
	elif [ -z "$p1" ] || [ "$p" = "$p1" ]; then
		p1=$p
		n1=$((n1 + 1))
		[ $n1 -ne 2 ] || loc=$c
	fi
	c=$((c + 1))
done
cshape='' why='' offc=''
rm -f /tmp/l28a.C
if [ "${tpc:-0}" -ne 1 ] || [ "${nodes:-0}" -gt 1 ]; then
	why="SMT ($tpc threads per core) or NUMA ($nodes nodes): the package level is not the top one, or its groups are SMT"
elif [ -z "$p0" ] || [ $n0 -lt 3 ] || [ $n1 -lt 3 ] || [ -z "$loc" ] || [ "$loc" = "$shcpu" ]; then
	why="no two packages of 3+ CPUs (cpu0's package $n0, the next $n1)"
else
	for c in $cut; do
		if [ -w "/sys/devices/system/cpu/cpu$c/online" ] && echo 0 > "/sys/devices/system/cpu/cpu$c/online"; then
			offc="$offc $c"
		fi
	done
	if [ "$offc" = "$cut" ]; then
		cshape=1
		spec=
		for c in $keep $loc; do spec="$spec $c:1"; done
		diag "[C] cpu0's package $p0 cut to cpus$keep (offline$offc), next package $p1 of $n1 CPUs"
		phase C 6 "$spec" sibling_imbalance 20 40
	else
		why="could not take cpus$cut offline (got:$offc)"
	fi
	for c in $offc; do echo 1 > "/sys/devices/system/cpu/cpu$c/online"; done
	sleep 1
fi
lb_reset

# judged attempts, agreement, and a rule's evidence in a phase's info copy
val() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }
evd() { val "lb_rule_evidence.$1" "$2" | awk -F: -v i="$3" '{ print $i + 0 }'; }
bad=
for p in A B ${cshape:+C}; do
	f=/tmp/l28a.$p
	j=$(val lb_judged "$f") a=$(val lb_model_agree "$f") u=$(val lb_model_disagree_unknown "$f")
	[ "${j:-0}" -gt 0 ] && [ "${u:-1}" -eq 0 ] || bad="$bad $p: judged ${j:-?}, agree ${a:-?}, unknown ${u:-?};"
done
check "$([ -z "$bad" ] && echo 0 || echo 1)" "lb rules: every phase run (A B${cshape:+ C}) judged attempts and left no disagreement unexplained${bad:+ ($bad)}"
d=$(evd fully_busy_later /tmp/l28a.A 1) ai=$(evd fully_busy_later /tmp/l28a.A 2) af=$(evd fully_busy_later /tmp/l28a.A 3)
# threads per core (cpu0's SMT siblings): when the first group is one core,
# the top level's groups are SMT cores.  A group holds its child domain's
# flags: where the kernel marks these groups SMT (SD_SHARE_CPUCAPACITY), a
# fully_busy tie keeps the first group under either rule (6.5+: the later
# one wins unless the current busiest is an SMT group) and decides nothing;
# where it does not (6.1: the cluster domain between SMT and MC is removed
# as degenerate, and its flags, without SD_SHARE_CPUCAPACITY, stay in the
# MC groups), the tie decides as on other groups
if [ "${tpc:-0}" -gt 1 ] && [ "$tops" -eq "$tpc" ] && [ $ng -ge 3 ]; then
	check "$([ "$d" -eq 0 ] || { [ "$d" -ge 20 ] && [ "$ai" -gt "$af" ]; } && echo 0 || echo 1)" "lb rules: the fully_busy tie between $ng SMT cores of $tpc threads decided no attempt (groups marked SMT) or >= 20 with the rule in force matching the kernel more often (groups not marked): decided $d, in force $ai, flipped $af"
	tap_skip "lb rules: where the fully_busy tie decided, the rule in force matched the kernel more often ($ai, $af of $d)" "judged with the check before (SMT cores)"
elif [ $ng -ge 3 ]; then
	check "$([ "$d" -ge 20 ] && echo 0 || echo 1)" "lb rules: the fully_busy tie decided $d attempts in phase A (>= 20 with $ng top-level groups)"
	check "$([ "$d" -ge 20 ] && [ "$ai" -gt "$af" ] && echo 0 || echo 1)" "lb rules: where the fully_busy tie decided, the rule in force matched the kernel more often than its opposite ($ai > $af of $d)"
else
	tap_skip "lb rules: the fully_busy tie decided $d attempts in phase A" "$ng top-level groups: no tie of two non-local groups ($groups domains on cpu0)"
	tap_skip "lb rules: where the fully_busy tie decided, the rule in force matched the kernel more often ($ai, $af of $d)" "$ng top-level groups"
fi
# C: sibling_imbalance (its rule line: lb_rule.sibling_imbalance on:btf
# 6.6+, off:btf before); 5.10 is told by its calculate_imbalance()
# (numa_busiest_nr on: the 5.10 branch, which halves before any NUMA rule)
d=$(evd sibling_imbalance /tmp/l28a.C 1) ai=$(evd sibling_imbalance /tmp/l28a.C 2) af=$(evd sibling_imbalance /tmp/l28a.C 3)
r510=$(val lb_rule.numa_busiest_nr /tmp/l28a.C)
if [ -z "$cshape" ]; then
	tap_skip "lb rules: packages of unequal core counts: sibling_imbalance decided >= 20 attempts, in force matching the kernel more often" "$why"
elif [ "${r510%%:*}" = on ]; then
	check "$([ "$d" -eq 0 ] || { [ "$d" -ge 20 ] && [ "$ai" -gt "$af" ]; } && echo 0 || echo 1)" "lb rules: packages of unequal core counts (5.10's calculate_imbalance: no pick under either force test): sibling_imbalance decided none, or >= 20 with the rule in force matching the kernel more often: decided $d, in force $ai, flipped $af"
else
	check "$([ "$d" -ge 20 ] && [ "$ai" -gt "$af" ] && echo 0 || echo 1)" "lb rules: packages of unequal core counts: sibling_imbalance decided $d attempts in phase C (>= 20), the rule in force ($(val lb_rule.sibling_imbalance /tmp/l28a.C)) matching the kernel more often than its opposite ($ai > $af)"
fi
check "$([ -z "$off$offc" ] || [ "$(cat /sys/devices/system/cpu/online)" = "0-$((n - 1))" ] && echo 0 || echo 1)" "lb rules: the CPUs taken offline in phases B ($([ -n "$off" ] && echo cpu1 || echo none)) and C (cpus${offc:- none}) are online again ($(cat /sys/devices/system/cpu/online))"
