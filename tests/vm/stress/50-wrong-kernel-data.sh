# SPDX-License-Identifier: GPL-2.0
# plan: 13
# Stress 5: wrong kernel data.  What the module documents for missing or
# foreign pieces, repeated, under load:
#   - BTF of another kernel (the harness's foreign module: same sources,
#     the host's BTF, check deferred to load): refused, one log line,
#     nothing left, every time (10 tries, short: 3);
#   - the audit's symbol missing (lb_symbol=does_not_exist, and the 6.10+
#     name sched_balance_find_src_group that 6.1 does not have): loads,
#     info says feature.lb_audit inactive:<reason>, no lb files, the shadow
#     part keeps publishing under load;
#   - probes off at load (enable=0): nothing published until enable 1;
#   - the smallest walk budget (walk_budget=16) under 24 groups with 36
#     hogs, and a 20-level cgroup tree (the walk follows 16): walks over
#     budget are counted and not published, nothing breaks;
#   - 70 queued cgroups on one CPU (groups records at most max_groups 64).
# A kernel without one of the tracepoints cannot be simulated: no
# parameter switches a tracepoint off (reported as a skip).  The
# build-time side (missing, empty, truncated, garbage BTF, a manifest
# field the BTF lacks) is checked on the host: host/50-wrong-kernel-data.sh.
# timeout: 600
SCEN=50
. /lib/vm/stress/stress.lib
R=$(fig 10 3)
T="wrong kernel data"
F=/lib/vm/foreign
mark=$(dmesg_mark)
rmmod_retry >/dev/null
workload s50
sleep 1

# ---- foreign BTF ----
if [ ! -f $F/sched_shadow.ko ]; then
	not_ok "$T: foreign BTF module refused" "no foreign module: $(cat $F/BUILD_FAILED 2>/dev/null || echo 'not built')"
else
	refused=0 oneline=0 clean=0 i=0 msg=
	while [ $i -lt "$R" ]; do
		i=$((i + 1))
		m=$(dmesg_mark)
		out=$(modload $F/sched_shadow.ko 2>/dev/null)
		[ $? -eq 1 ] && refused=$((refused + 1))
		usleep 100000
		lines=$(dmesg_since "$m" | grep 'sched_shadow:' | grep -v -E "$DMESG_MODULE_OK")
		[ "$(echo "$lines" | grep -c .)" -eq 1 ] && oneline=$((oneline + 1))
		msg=$(echo "$lines" | sed 's/^\[[ 0-9.]*\] //' | head -n 2)
		[ -z "$(left_behind)" ] && clean=$((clean + 1))
		module_loaded && rmmod_retry >/dev/null
	done
	diag "foreign BTF: $R tries, $refused refused ($out), $oneline with one log line, $clean left nothing"
	diag "log: $msg"
	[ "$refused" -eq "$R" ] && [ "$oneline" -eq "$R" ] && [ "$clean" -eq "$R" ] &&
		ok "$T: foreign BTF module refused $R times, one clear line each, nothing left" ||
		not_ok "$T: foreign BTF module refused every time, one line, nothing left" "refused $refused, one line $oneline, clean $clean of $R"
fi

# ---- the audit's symbol missing ----
for sym in does_not_exist sched_balance_find_src_group; do
	m=$(dmesg_mark)
	if ! stress_load lb_symbol=$sym; then
		not_ok "$T: lb_symbol=$sym loads with the audit off" "$(cat /tmp/insmod.err)"
		continue
	fi
	a=$(awk '$1 == "feature.lb_audit" { print $2 }' "$SS/info")
	files=
	for f in lb lb_snapshots lb_dump_every; do [ -e "$SS/$f" ] && files="$files $f"; done
	echo 1 > "$SS/reset"
	p0=$(ss_sum published)
	sleep "$(fig 1.5 1)"
	p1=$(ss_sum published)
	r=$(ssread -n 3 -m 2 $SS_FILES)
	cat "$SS/info" > "$OUT/50-info-$sym"
	diag "lb_symbol=$sym: $a; files present:${files:- none of lb*}; published $p0 -> $p1; reads: ${r##*ssread: }"
	case $a in inactive:?*) ;; *) files="$files audit=$a" ;; esac
	[ "$p1" -gt "$p0" ] || files="$files not-publishing"
	[ "$(ssval "$r" bad)" = 0 ] || files="$files reads-bad"
	rmmod_retry >/dev/null
	[ -z "$(left_behind)" ] || files="$files left:$(left_behind)"
	nl=$(dmesg_since "$m" | grep 'sched_shadow:' | grep -v -E "$DMESG_MODULE_OK" | grep -c .)
	[ "$nl" -eq 1 ] || files="$files $nl-log-lines"
	[ -z "$files" ] && ok "$T: lb_symbol=$sym: audit inactive with a reason, no lb files, shadow publishing, one log line" ||
		not_ok "$T: lb_symbol=$sym: audit inactive, no lb files, shadow publishing, one log line" "$files"
done

# ---- probes off at load ----
if stress_load enable=0; then
	e=$(awk '$1 == "enabled" { print $2 }' "$SS/info")
	p0=$(ss_sum published)
	sleep 1.5
	p1=$(ss_sum published)
	echo 1 > "$SS/enable"
	sleep 1.5
	p2=$(ss_sum published)
	diag "enable=0: info enabled $e, published $p0 -> $p1 in 1.5 s, after enable 1: $p2"
	[ "$e" = 0 ] && [ "$p0" = "$p1" ] && [ "$p2" -gt "$p1" ] &&
		ok "$T: enable=0 loads with the probes off; enable 1 turns them on" ||
		not_ok "$T: enable=0 loads with the probes off; enable 1 turns them on" "enabled $e published $p0 $p1 $p2"
	rmmod_retry >/dev/null
else
	not_ok "$T: enable=0 loads" "$(cat /tmp/insmod.err)"
fi

# ---- smallest walk budget: 12 two-level groups, 36 hogs ----
for g in 1 2 3 4 5 6 7 8 9 10 11 12; do
	bg s50w$g burn -t 3 -r 100 -s 0 -d 0 -q --cgroup /s50w/g$g/x
done
sleep 1
if stress_load walk_budget=16; then
	sleep "$(fig 2 1)"
	ovb=$(ss_sum over_budget) pub=$(ss_sum published)
	r=$(ssread -n 3 -m 2 $SS/cpus $SS/groups $SS/info)
	keep groups-budget16 "$SS/groups"
	diag "walk_budget=16, 36 tasks in 24 groups: over_budget $ovb, published $pub; reads: ${r##*ssread: }"
	[ "$ovb" -gt 0 ] && [ "$(ssval "$r" bad)" = 0 ] && [ "$(ssval "$r" addr)" = 0 ] &&
		ok "$T: walk_budget=16: walks over budget counted ($ovb) and not published, reads parse" ||
		not_ok "$T: walk_budget=16: walks over budget counted, reads parse" "over_budget $ovb, $r"
	rmmod_retry >/dev/null
else
	not_ok "$T: walk_budget=16 loads" "$(cat /tmp/insmod.err)"
fi
bg_stop
cg_rm /s50w

# both levels run the deep tree and the 70 cgroups (docs/testing.md lists them;
# the short level took about 10 s more)
{
	# ---- deeper than the walk follows (16 levels): a 20-level tree ----
	deep=/s50d
	for l in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do deep=$deep/l$l; done
	cg_mk $deep
	bg s50deep burn -t 3 -r 100 -s 0 -d 0 -q --cgroup $deep
	sleep 1
	if stress_load; then
		sleep "$(fig 2 1)"
		ovb=$(ss_sum over_budget) pub=$(ss_sum published)
		r=$(ssread -n 3 -m 2 $SS_FILES)
		maxd=$(awk 'NR > 2 && $3 > m { m = $3 } END { print m + 0 }' "$SS/groups")
		diag "20-level cgroup tree, 3 hogs at the bottom: over_budget $ovb, published $pub, deepest groups row $maxd; reads: ${r##*ssread: }"
		[ "$ovb" -gt 0 ] && [ "$maxd" -lt 16 ] && [ "$(ssval "$r" bad)" = 0 ] && [ "$(ssval "$r" addr)" = 0 ] &&
			ok "$T: a 20-level tree: walks past 16 levels counted as over budget ($ovb), nothing deeper shown, reads parse" ||
			not_ok "$T: a 20-level tree: walks past 16 levels counted, reads parse" "over_budget $ovb deepest $maxd $r"
		rmmod_retry >/dev/null
	else
		not_ok "$T: load with a 20-level tree" "$(cat /tmp/insmod.err)"
	fi
	bg_stop
	cg_rm /s50d

	# ---- more queued cgroups on one CPU than groups shows (max_groups 64) ----
	g=0
	while [ $g -lt 70 ]; do
		g=$((g + 1))
		bg s50m$g burn -t 1 -r 100 -s 0 -d 0 -q -p 1 --cgroup /s50m/g$g
	done
	sleep "$(fig 2 1)"
	if stress_load; then
		sleep "$(fig 3 2)"
		mg=$(awk '$1 == "max_groups" { print $2 }' "$SS/info")
		rows1=$(awk 'NR > 2 && $1 == 1' "$SS/groups" | wc -l)
		r=$(ssread -n 3 -m 2 $SS_FILES)
		row1=$(awk 'NR > 2 && $1 == 1' "$SS/cpus")
		keep groups-70 "$SS/groups"
		diag "70 cgroups queued on CPU 1: groups shows $rows1 rows for it (max_groups $mg); cpus row: $row1; reads: ${r##*ssread: }"
		[ "$rows1" -le "${mg:-64}" ] && [ "$rows1" -gt 0 ] && [ "$(ssval "$r" bad)" = 0 ] && [ "$(ssval "$r" addr)" = 0 ] &&
			ok "$T: 70 queued cgroups on one CPU: groups shows at most max_groups ($rows1 <= $mg), reads parse" ||
			not_ok "$T: 70 queued cgroups on one CPU: groups shows at most max_groups, reads parse" "rows $rows1 max_groups $mg $r"
		rmmod_retry >/dev/null
	else
		not_ok "$T: load with 70 cgroups on one CPU" "$(cat /tmp/insmod.err)"
	fi
	bg_stop
	cg_rm /s50m
}
# ---- a kernel lacking one of the tracepoints (missing_tp= simulates it) ----
# the three PELT/nr_running tracepoints are required: the load is refused
# with one line and nothing is left; sched_switch is optional: the module
# loads, `info` says the hook is inactive, and the shadow keeps publishing
for tp in pelt_cfs_tp pelt_se_tp sched_update_nr_running_tp; do
	m=$(dmesg_mark)
	stress_load missing_tp=$tp
	rc=$?
	nl=$(dmesg_since "$m" | grep -c "sched_shadow: not loading: cannot attach to tracepoint $tp (-2)")
	l=$(left_behind)
	if [ $rc -ne 0 ] && [ "$nl" -eq 1 ] && [ -z "$l" ]; then
		ok "$T: without $tp the load is refused with one line, nothing left"
	else
		not_ok "$T: without $tp the load is refused with one line, nothing left" "rc $rc lines $nl left:$l $(cat /tmp/insmod.err)"
		module_loaded && rmmod_retry >/dev/null
	fi
done
if stress_load missing_tp=sched_switch; then
	hs=$(awk '$1 == "hook.sched_switch" { print $2 }' "$SS/info")
	p0=$(ss_sum published)
	sleep 1
	p1=$(ss_sum published)
	diag "missing_tp=sched_switch: hook.sched_switch $hs, published $p0 -> $p1"
	case $hs in inactive:*) [ "$p1" -gt "$p0" ] ;; *) false ;; esac &&
		ok "$T: without sched_switch the module loads degraded (hook inactive, shadow publishing)" ||
		not_ok "$T: without sched_switch the module loads degraded" "hook $hs published $p0 -> $p1"
	rmmod_retry >/dev/null
else
	not_ok "$T: without sched_switch the module loads degraded" "load refused: $(cat /tmp/insmod.err)"
fi

bg_stop
cg_rm /s50
cg_rm /s50deep
l=$(left_behind)
[ -z "$l" ] && ok "$T: nothing left behind" || not_ok "$T: nothing left behind" "left:$l"
dmesg_since "$mark" | grep sched_shadow > "$OUT/50-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean" "not loading: built from the BTF of kernel|not loading: .* differs from|not loading: cannot attach to tracepoint (pelt_cfs_tp|pelt_se_tp|sched_update_nr_running_tp) \(-2\)|tracepoint sched_switch not attached \(-2\)|load-balancer audit off: BTF has no function (does_not_exist|sched_balance_find_src_group)\("
