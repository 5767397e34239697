# SPDX-License-Identifier: GPL-2.0
# plan: 6
# Stress 7b: latch readers on a static tree.  The module is loaded with
# exact=1, so every enqueue and dequeue walks and publishes (flips the
# walk latch).  A static cgroup tree, /s75/a/b and /s75/c1../s75/c4, on
# cpu0-4: on each CPU a pinned hog in /s75/a/b and four pinned sleepers,
# one in each /s75/cN, that run 1 ms and sleep 2 ms, so consecutive walks
# differ in shape (which /s75/cN are queued, h_tasks 1 to 5 up the tree).
# Three readers read `groups` as fast as they can for 60 s (short: 15 s)
# and check
# every CPU block of every read (ssread -c -T): only the tree's paths,
# root first, every parent before its children, a constant cgid per path,
# h_tasks = nr_tasks + the children's h_tasks and shadow = task_load + the
# children's min(S*w/W, w) on every row.  A reader that accepted a latch
# copy the writer was overwriting (no retry check) mixes two walks' rows
# and breaks these.  Checks: the tree is in groups on every tree CPU,
# every read of each reader parses and is consistent (3 checks), walks
# were published all along, the kernel log is clean.
# timeout: 300
SCEN=75	# stress.lib: the prefix of the kept files
export SCEN
. /lib/vm/stress/stress.lib
D=$(fig 60 15)
T="latch readers"
mark=$(dmesg_mark)
unload_module
if ! stress_load exact=1; then
	not_ok "$T: module loaded with exact=1" "$(cat /tmp/insmod.err)"
	return 0
fi
diag "level $STRESS_LEVEL: $D s, three readers of groups, exact=1"
cg_mk /s75/a/b
for k in 1 2 3 4; do cg_mk /s75/c$k; done
: > /tmp/s75.tree
c=0
while [ $c -lt 5 ]; do
	bg s75h$c burn -t 1 -s 0 -d 0 -q --cpu $c --cgroup /s75/a/b
	for k in 1 2 3 4; do
		bg s75s$c$k burn -t 1 -r 1 -s 2 -d 0 -q --cpu $c --cgroup /s75/c$k
	done
	for p in / /s75 /s75/a /s75/a/b /s75/c1 /s75/c2 /s75/c3 /s75/c4; do echo "$c $p" >> /tmp/s75.tree; done
	c=$((c + 1))
done
sleep 1.5
# the tree is there: every tree CPU shows /s75/a/b (the hog never sleeps)
have=$(ss_rows groups cpu path | awk '$2 == "/s75/a/b" && $1 < 5 { n++ } END { print n + 0 }')
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
res "$([ "$have" -eq 5 ]; echo $?)" "$T: /s75/a/b queued in groups on all 5 tree CPUs" "$have of 5"
p0=$(ss_sum published)
mkdir -p /tmp/r75
bg_ssread r75a -c -T /tmp/s75.tree -d "$D" -i 0 -m 8 -s /tmp/r75 "$SS/groups"
bg_ssread r75b -c -T /tmp/s75.tree -d "$D" -i 0 -m 8 "$SS/groups"
bg_ssread r75c -c -T /tmp/s75.tree -d "$D" -i 0 -m 8 "$SS/groups"
sleep "$D"
sleep 1
p1=$(ss_sum published)
for r in r75a r75b r75c; do
	reader_done "$T: $r: every read parses and every tree CPU's block is consistent" $r consist_bad tree_bad
done
for f in /tmp/r75/*; do [ -f "$f" ] && keep "$(basename "$f")" "$f"; done
diag "walks published during the reads: $p0 -> $p1 ($(( (p1 - p0) / D )) per second)"
res "$([ $((p1 - p0)) -ge $((D * 500)) ]; echo $?)" \
	"$T: walks published while the readers read ($((p1 - p0)) in $D s, >= 500 per second)" "published $p0 -> $p1"
bg_stop
cg_rm /s75
rmmod_retry > /dev/null
stress_load || diag "reload in the default mode: $(cat /tmp/insmod.err)"
dmesg_since "$mark" | grep sched_shadow > "$OUT/75-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean"
