# SPDX-License-Identifier: GPL-2.0
# plan: 8
# Scenario 25 (load-balancer audit): the audit's symbol is missing.
# insmod with lb_symbol=does_not_exist: the module loads, `info` says
# feature.lb_audit inactive:<reason>, there is no lb / lb_snapshots /
# lb_dump_every file, the shadow part keeps working (published walks
# grow under load), and rmmod leaves nothing behind.  Then the model's
# parameters: bad lb_rules= / lb_rules_learn= values refuse the load with
# one kernel log line each; lb_rules=-capacity_first,+eas_first loads and
# info says both rules come from lb_rules.  The module is
# loaded again without the parameter at the end for later scenarios.
# (One unload of the normal module with its kretprobe, one load/unload
# without: not the repeated-cycle case that needs tcg,thread=single.)
# timeout: 60
[ -f /run/lb.mark ] || dmesg_mark > /run/lb.mark
mark=$(dmesg_mark)
if ! unload_module; then
	not_ok "lb no symbol: rmmod of the loaded module first" "$(cat /tmp/rmmod.err)"
	return 0
fi
out=$(modload "$KO" lb_symbol=does_not_exist 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! module_loaded; then
	not_ok "lb no symbol: insmod lb_symbol=does_not_exist loads" "modload exit $rc: $out"
	dmesg_since "$mark" | tail -n 5 | diag
	return 0
fi
ok "lb no symbol: insmod lb_symbol=does_not_exist loads"
state=$(awk '$1 == "feature.lb_audit" { print $2 }' "$SS/info")
diag "info: $(grep -E '^(feature|hook)\.|^lb_' "$SS/info" | tr '\n' ' ')"
case $state in
inactive:?*) ok "lb no symbol: info feature.lb_audit $state" ;;
*) not_ok "lb no symbol: info feature.lb_audit inactive:<reason>" "got '$state'" ;;
esac
present=
for f in lb lb_snapshots lb_dump_every; do
	[ -e "$SS/$f" ] && present="$present $f"
done
if [ -z "$present" ]; then ok "lb no symbol: no lb, lb_snapshots, lb_dump_every files"; else not_ok "lb no symbol: no lb, lb_snapshots, lb_dump_every files" "present:$present"; fi

lb_reset
p0=$(ss_sum published)
bg l25 burn -t 3 -r 5 -s 5 -d 0 -q
sleep 2
p1=$(ss_sum published)
grown=$(ss_rows cpus published | awk '$1 != "-" && $1 > 0 { n++ } END { print n + 0 }')
bg_stop
diag "published walks: $p0 after reset -> $p1 after 2 s of load, on $grown CPUs"
if [ "$p1" -gt "$p0" ] && [ "$grown" -ge 2 ]; then ok "lb no symbol: shadow walks keep being published ($p0 -> $p1)"; else not_ok "lb no symbol: shadow walks keep being published" "p0=$p0 p1=$p1 cpus=$grown"; fi

if unload_module; then
	left=
	module_loaded && left="$left still-in-/proc/modules"
	[ -e "$SS" ] && left="$left $SS"
	if [ -z "$left" ]; then ok "lb no symbol: rmmod clean"; else not_ok "lb no symbol: rmmod clean" "left:$left"; fi
else
	not_ok "lb no symbol: rmmod clean" "$(cat /tmp/rmmod.err)"
fi
dmesg_since "$mark" | grep -i sched_shadow | tail -n 6 | diag
dmesg_clean "$mark" "lb no symbol: kernel log clean"

# the audit model's parameters: bad values refuse the load with one line
bad_ok=0 bad_all=0
for v in "lb_rules=+bogus" "lb_rules=capacity_first" "lb_rules=+capacity_first,-capacity_first" \
	 "lb_rules=+capacity_first," "lb_rules_learn=-1" "lb_rules_learn=x"; do
	bad_all=$((bad_all + 1))
	m2=$(dmesg_mark)
	if modload "$KO" "$v" > /tmp/l25.out 2>&1 || module_loaded; then
		diag "$v loaded"
		unload_module
		continue
	fi
	lines=$(dmesg_since "$m2" | grep -c .)
	[ "$lines" -eq 1 ] && dmesg_since "$m2" | grep -q "${v%%=*}" && bad_ok=$((bad_ok + 1))
	[ "$lines" -eq 1 ] || { diag "$v: $lines log lines:"; dmesg_since "$m2" | diag; }
done
if [ $bad_ok -eq $bad_all ]; then ok "lb no symbol: $bad_all bad lb_rules/lb_rules_learn values refuse the load with one log line each"
else not_ok "lb no symbol: bad lb_rules/lb_rules_learn values refuse the load with one log line each" "$bad_ok of $bad_all"; fi
# a good override is in force and says so
if modload "$KO" "lb_rules=-capacity_first,+eas_first" > /tmp/l25.out 2>&1; then
	st=$(awk '$1 == "lb_rule.capacity_first" || $1 == "lb_rule.eas_first" { printf "%s=%s ", $1, $2 }' "$SS/info")
	case $st in
	*"lb_rule.capacity_first=off:lb_rules"*"lb_rule.eas_first=on:lb_rules"*|*"lb_rule.eas_first=on:lb_rules"*"lb_rule.capacity_first=off:lb_rules"*)
		ok "lb no symbol: lb_rules=-capacity_first,+eas_first is in force ($st)" ;;
	*) not_ok "lb no symbol: lb_rules=-capacity_first,+eas_first is in force" "$st" ;;
	esac
	unload_module
else
	not_ok "lb no symbol: lb_rules=-capacity_first,+eas_first loads" "$(cat /tmp/l25.out)"
fi
load_module || diag "reload without lb_symbol failed: $(cat /tmp/insmod.err)"
