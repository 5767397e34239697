# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# make test-big, 3: thousands of cgroups (a Kubernetes node as the
# scheduler sees it): 5,000 cpu cgroups up to 8 levels deep, tasks that run
# and sleep spread among them on every CPU (cgtree).  Checks that the walks
# keep publishing on every CPU (none over budget), that one `groups` read
# stays fast and names only groups that exist, that the trace events' path
# cache holds every group, and reports the per-hook maxima (stats=2; TCG
# time, not instructions) and the audit's coverage (attempts judged vs
# void by reason).  Guest memory for the groups is reported.
# plan: 5
# timeout: 900
topo=$(sed -n 's/.*big\.topology=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
# 240 possible CPUs: every cgroup gets a cfs_rq and an entity per possible
# CPU, 1,000 groups there cost what 7,500 cost on 32 CPUs
G=5000
[ "$topo" = possible240 ] && G=1000
D=8 NT=$(( $(ncpus) * 24 ))
T="$G cgroups"
unload_module
mi() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
m0=$(mi MemAvailable)
read -r t0 _ < /proc/uptime
cgtree -R big -g $G -d $D -t $NT -r 3 -s 12 > /tmp/b30.cgtree 2>&1 &
cpid=$!
w=0
while ! grep -q '^cgtree: ready' /tmp/b30.cgtree && kill -0 $cpid 2>/dev/null; do
	sleep 2
	w=$((w + 2))
	[ $w -ge 600 ] && break
done
read -r t1 _ < /proc/uptime
m1=$(mi MemAvailable)
ready=$(grep '^cgtree: ready' /tmp/b30.cgtree)
diag "cgtree: ${ready:-not ready: $(tail -n 3 /tmp/b30.cgtree)} after $(echo "$t0 $t1" | awk '{ printf "%.0f", $2 - $1 }')s; MemAvailable -$(( (m0 - m1) / 1024 )) MB for $G groups and $NT tasks on $(ncpus) CPUs"
if [ -z "$ready" ]; then
	not_ok "$T: cgtree builds $G groups, depth $D, $NT tasks" "$(tail -n 5 /tmp/b30.cgtree)"
	kill -TERM $cpid 2>/dev/null; wait $cpid
	load_module
	return 0
fi
# the depth reached (at most $D: cgtree picks the smallest fan-out that fits)
dr=$(echo "$ready" | sed -n 's/.* depth \([0-9]*\).*/\1/p')
ok "$T: cgtree builds $G groups, depth ${dr:-?} (at most $D), $NT tasks"
need_module "$T: loads with $G groups" || { kill -TERM $cpid; wait $cpid; return 0; }
echo 2 > /sys/module/sched_shadow/parameters/stats
sleep 3
echo 1 > $SS/reset
sleep 8
cp $SS/cpus /tmp/b30.cpus
cp $SS/stats /tmp/b30.stats
cp $SS/lb_attempts /tmp/b30.lb 2>/dev/null
# every online CPU published, none over budget, most fresh
sum=$(awk 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $(h["online"]) == 1 {
	n++; if ($(h["published"]) > 0) p++; ob += $(h["over_budget"]); d += $(h["deferred"]); dc += $(h["discarded"])
	if ($(h["void"]) == "fresh") f++; else v[$(h["void"])]++ }
	END { s = ""; for (k in v) s = s " " k ":" v[k]; printf "%d %d %d %d %d %d%s\n", n, p, f, ob, d, dc, s }' /tmp/b30.cpus)
set -- $sum
n=$1 p=$2 f=$3 ob=$4 d=$5 dc=$6
shift 6
diag "walks over 8 s: $p of $n CPUs published, $f fresh at the read${*:+ (others:$*)}; over budget $ob, deferred $d, discarded $dc"
awk 'NR <= 2 || NR % 4 == 3' /tmp/b30.cpus | diag
if [ "$p" -eq "$n" ] && [ "$ob" -eq 0 ] && [ "$f" -ge $(( n / 2 )) ]; then
	ok "$T: every CPU publishes walks ($p/$n), none over budget, $f fresh"
else
	not_ok "$T: every CPU publishes walks, none over budget" "$p/$n published, over budget $ob, fresh $f"
fi
# one groups read: its CPU time (what the read costs) and its wall time
# (that plus the wait for a CPU among the 24 busy tasks per CPU: on 7.3
# wall times of 6.75-13.11 s were seen), rows per CPU, paths that exist.
# The CPU time is the reader's (cat) user + system time, read from its
# parent shell's cutime and cstime after the wait (USER_HZ, 100 on x86).
read -r t0 _ < /proc/uptime
# shellcheck disable=SC2016
cpu=$(SS=$SS sh -c 'cat "$SS/groups" > /tmp/b30.groups; read -r l < /proc/$$/stat; echo "${l##*) }"' |
	awk '{ printf "%.2f", ($14 + $15) / 100 }')
read -r t1 _ < /proc/uptime
gt=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
rows=$(($(wc -l < /tmp/b30.groups) - 2))
bad=$(awk 'NR > 2 { c[$1]++; if (c[$1] > 64) print "cpu " $1 " > 64 rows" }' /tmp/b30.groups | head -n 1)
miss=$(awk 'NR > 2 && $16 != "/" { print $16 }' /tmp/b30.groups | sort -u | head -n 200 | while read -r pth; do
	[ -d "$CG$pth" ] || echo "$pth"; done | head -n 3)
diag "groups: one read ${cpu:-?}s of CPU time (${gt}s wall), $rows rows, $(awk 'NR > 2 { print $16 }' /tmp/b30.groups | sort -u | wc -l) distinct paths"
if [ -z "$bad" ] && [ -z "$miss" ] && [ "$rows" -gt 0 ] && [ -n "$cpu" ] && awk -v t="$cpu" 'BEGIN { exit !(t < 10) }'; then
	ok "$T: one groups read in ${cpu}s of CPU time (${gt}s wall), $rows rows, every path exists"
else
	not_ok "$T: groups read" "${cpu:-?}s of CPU time (${gt}s wall), $rows rows, $bad, missing: $miss"
fi
# the trace events' path cache with every group
echo 1 > /sys/kernel/tracing/events/sched_shadow/sched_load_cfs_rq/enable
sleep 3
echo 0 > /sys/kernel/tracing/events/sched_shadow/sched_load_cfs_rq/enable
echo > /sys/kernel/tracing/trace
pc=$(awk '$1 ~ /^trace.path_cache/ { sub("trace.path_cache.", "", $1); printf "%s=%s ", $1, $2 }' $SS/info)
ent=$(awk '$1 == "trace.path_cache.entries" { print $2 }' $SS/info)
diag "path cache: $pc"
if [ "${ent:-0}" -ge "$G" ]; then
	ok "$T: the trace path cache holds all $G groups ($pc)"
else
	not_ok "$T: the trace path cache holds all $G groups" "$pc"
fi
# maxima per hook (TCG ns) and the audit's coverage
diag "hook maxima (stats=2, ns of TCG time): $(awk 'NR > 2 && $6 != "-" && $2 > 0 { printf "%s %s calls mean %s max %s; ", $1, $2, $4, $6 }' /tmp/b30.stats)"
if [ -s /tmp/b30.lb ]; then
	awk 'NR > 2 && $1 == "all" && $2 != "busy" { a += $5; if ($3 == "void") v[$4] += $5; else j += $5 }
	     END { s = ""; for (k in v) s = s sprintf(" %s %d", k, v[k]); printf "audit coverage: %d attempts judged, %d void (%s ) of %d idle/newidle attempts\n", j, a - j, s, a }' /tmp/b30.lb | diag
fi
{ echo "topology=$topo groups=$G tasks=$NT"; cat /tmp/b30.cpus; cat /tmp/b30.stats; cat /tmp/b30.lb 2>/dev/null; } > /tmp/b30.export
vm_export cgroups-$topo.txt /tmp/b30.export
echo 0 > /sys/module/sched_shadow/parameters/stats
kill -TERM $cpid
wait $cpid
crc=$?
unload_module
res=$( [ "$crc" -eq 0 ] && ! module_loaded && [ ! -d $CG/big ]; echo $?)
if [ "$res" -eq 0 ]; then ok "$T: groups removed, module unloads"; else not_ok "$T: groups removed, module unloads" "cgtree rc $crc, $(cat /tmp/rmmod.err)"; fi
load_module
