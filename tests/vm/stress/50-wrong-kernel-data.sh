# SPDX-License-Identifier: GPL-2.0
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
#   - the smallest walk budget (walk_budget=16) under a deep cgroup tree:
#     walks over budget are counted and not published, nothing breaks.
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
	sleep 1.5
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

# ---- smallest walk budget, deep tree ----
cg_mk /s50deep/a/b/c/d/e/f/g 200
bg s50d burn -t 6 -r 5 -s 2 -d 0 -q --cgroup /s50deep/a/b/c/d/e/f/g
bg s50e burn -t 4 -r 5 -s 2 -d 0 -q --cgroup /s50deep/a/b/c
if stress_load walk_budget=16; then
	sleep 2
	ovb=$(ss_sum over_budget) pub=$(ss_sum published)
	r=$(ssread -n 3 -m 2 -c $SS/cpus $SS/groups $SS/info)
	keep groups-budget16 "$SS/groups"
	diag "walk_budget=16: over_budget $ovb, published $pub; reads: ${r##*ssread: }"
	[ "$ovb" -gt 0 ] && [ "$(ssval "$r" bad)" = 0 ] && [ "$(ssval "$r" addr)" = 0 ] &&
		ok "$T: walk_budget=16 on a 7-deep tree: walks over budget counted ($ovb), reads parse" ||
		not_ok "$T: walk_budget=16: walks over budget counted, reads parse" "over_budget $ovb, $r"
	rmmod_retry >/dev/null
else
	not_ok "$T: walk_budget=16 loads" "$(cat /tmp/insmod.err)"
fi
tap_skip "$T: a kernel lacking one of the tracepoints" "no module parameter simulates it (shadow_probes_register refuses the load if one cannot be attached)"

bg_stop
cg_rm /s50
cg_rm /s50deep
l=$(left_behind)
[ -z "$l" ] && ok "$T: nothing left behind" || not_ok "$T: nothing left behind" "left:$l"
dmesg_since "$mark" | grep sched_shadow > "$OUT/50-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean" "not loading: built from the BTF of kernel|not loading: .* differs from|load-balancer audit off: BTF has no function (does_not_exist|sched_balance_find_src_group)\("
