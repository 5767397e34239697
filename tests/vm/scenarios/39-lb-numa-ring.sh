# SPDX-License-Identifier: GPL-2.0
# plan: 4
# Scenario 39 (load-balancer audit, NUMA): overlapping NUMA groups.  Runs
# on the 4-node ring (make test-vm-numa: VM_TOPO=numa-ring4, 8 CPUs, node
# distances 10/20/30), where the NUMA domains build overlapping groups and
# a domain lists more CPU entries than nr_cpu_ids.  lb_snapshots used to
# copy only nr_cpu_ids entries while its groups index all of them (an
# out-of-bounds read).  Duty-cycle load on every CPU plus stacked hogs, with
# lb_dump_every 1, until a snapshot of a NUMA attempt with more entries than
# CPUs is recorded (at most 12 s).  Checks:
#   - the kernel built NUMA domains with overlapping groups (SD_OVERLAP in
#     the sched domain flags, or a NUMA domain whose groups overlap);
#   - NUMA attempts were judged, none cut (info lb_overlap_cut 0);
#   - a NUMA snapshot with more CPU entries than CPUs was recorded;
#   - in every snapshot each group's cpus= list equals its cpu rows and
#     every cpu= is a real CPU (garbage rows were the symptom).
# On any other topology the four checks are skipped (they need the ring).
# timeout: 90
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -ne 4 ]; then
	for c in "NUMA domains with overlapping groups" "NUMA attempts judged, none cut" \
		 "a NUMA snapshot with more entries than CPUs" "snapshot rows consistent"; do
		tap_skip "lb numa ring: $c" "needs the 4-node ring (make test-vm-numa), this boot has $nodes node(s)"
	done
	return 0
fi
lb_need "lb numa ring" || return 0
n=$(ncpus)
# 6.4+ lists the domains in sched debugfs only under sched/verbose (writing Y
# there makes them): set for the read, then put back
vb=/sys/kernel/debug/sched/verbose vb0=
[ -w $vb ] && vb0=$(cat $vb 2>/dev/null) && [ "$vb0" = N ] && echo Y > $vb 2>/dev/null
D=/sys/kernel/debug/sched/domains/cpu0
# 5.10: the sysctl (5.13 moved the files to debugfs)
[ -d "$D" ] || D=/proc/sys/kernel/sched_domain/cpu0
doms=$(for d in $D/domain*; do printf '%s:%s ' "$(cat $d/name 2>/dev/null)" "$(cat $d/flags 2>/dev/null | tr ' ' '|')"; done)
diag "cpu0 domains: $doms"
numa_levels=$(for d in $D/domain*; do cat $d/flags 2>/dev/null; echo; done | grep -c SD_NUMA)
overlap=$(for d in $D/domain*; do cat $d/flags 2>/dev/null; echo; done | grep -c SD_OVERLAP)
[ "$vb0" = N ] && echo N > $vb 2>/dev/null
# flags not read: the levels named NUMA
[ "$numa_levels" -gt 0 ] || numa_levels=$(cat $D/domain*/name 2>/dev/null | grep -c '^NUMA$')
# no domain files read:
# /proc/schedstat's domain names (its version 17, 6.14+)
[ "$numa_levels" -gt 0 ] || numa_levels=$(awk '$1 == "cpu0" { on = 1; next } /^cpu/ { on = 0 }
	on && $1 ~ /^domain/ && $2 == "NUMA" { n++ } END { print n + 0 }' /proc/schedstat)
old_every=$(cat "$SS/lb_dump_every")
echo 1 > "$SS/lb_dump_every"
lb_reset
bg l39d burn -t $((2 * n)) -r 15 -s 10 -d 0 -q
bg l39h burn -t 3 -s 0 -d 0 -q --cpu 0 --widen --widen-ms 200
got=0 i=0
while [ $i -lt 24 ]; do
	sleep 0.5
	i=$((i + 1))
	cat "$SS/lb_snapshots" > /tmp/l39.snap
	# a NUMA snapshot whose cpu rows outnumber the CPUs
	if awk -v n="$n" '$2 == "call" && / domain=NUMA / { s = $1 } $2 == "cpu" && $1 == s { c[s]++ }
		END { for (k in c) if (c[k] > n) f = 1; exit !f }' /tmp/l39.snap; then
		got=1
		break
	fi
done
cat "$SS/lb_attempts" > /tmp/l39.att
cat "$SS/info" > /tmp/l39.info
bg_stop
echo "$old_every" > "$SS/lb_dump_every"
vm_export lb39-snapshots.txt /tmp/l39.snap >/dev/null 2>&1

# two NUMA levels (distances 20 and 30): the groups of the upper ones
# overlap (SD_OVERLAP where the kernel still names the flag; 7.x has none)
if [ "$numa_levels" -ge 2 ]; then
	ok "lb numa ring: $numa_levels NUMA domain levels ($overlap with SD_OVERLAP in cpu0's flags)"
else
	not_ok "lb numa ring: NUMA domains with overlapping groups" "NUMA levels $numa_levels, SD_OVERLAP $overlap"
fi
numa_att=$(awk '$1 == "NUMA" && $2 != "busy" { s += $5 } END { print s + 0 }' /tmp/l39.att)
cut=$(awk '$1 == "lb_overlap_cut" { print $2 }' /tmp/l39.info)
diag "NUMA judged attempts $numa_att, lb_overlap_cut $cut; NUMA rows:"
grep '^NUMA ' /tmp/l39.att | awk '$5 > 0' | head -n 12 | diag
if [ "$numa_att" -gt 0 ] && [ "$cut" = 0 ]; then ok "lb numa ring: $numa_att NUMA attempts judged, none cut"
else not_ok "lb numa ring: NUMA attempts judged, none cut" "judged $numa_att, cut $cut"; fi
if [ $got -eq 1 ]; then ok "lb numa ring: a NUMA snapshot with more CPU entries than the $n CPUs"
else not_ok "lb numa ring: a NUMA snapshot with more CPU entries than the $n CPUs" "none in 12 s ($(grep -c ' call ' /tmp/l39.snap) snapshots)"; fi
# every group line's CPU list equals its cpu rows, every CPU is real
bad=$(awk -v n="$n" '
	$2 == "group" {
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^group=/) g = substr($i, 7)
			if ($i ~ /^cpus=/) l = substr($i, 6)
		}
		want[$1 "/" g] = (l == "-") ? 0 : split(l, x, ",")
	}
	$2 == "cpu" { for (i = 3; i <= NF; i++) { if ($i ~ /^cpu=/) c = substr($i, 5); if ($i ~ /^group=/) g = substr($i, 7) }
		have[$1 "/" g]++; if (c < 0 || c >= n) bad++ }
	END { for (k in want) if (want[k] != have[k] + 0) bad++; print bad + 0 }' /tmp/l39.snap)
rows=$(grep -c ' cpu cpu=' /tmp/l39.snap)
if [ "$bad" -eq 0 ] && [ "$rows" -gt 0 ]; then ok "lb numa ring: $rows snapshot cpu rows, each group's list matches, every CPU < $n"
else not_ok "lb numa ring: snapshot rows consistent" "$bad inconsistencies in $rows cpu rows"; grep -m5 ' group ' /tmp/l39.snap | diag; fi
