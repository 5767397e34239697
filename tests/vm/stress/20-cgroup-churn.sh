# SPDX-License-Identifier: GPL-2.0
# plan: 7
# Stress 2: cgroup churn.  With the module loaded and burners running in
# the root, 500 nested cgroups (short: 50) are created two levels below
# /churn/pK, given random cpu.weight values, populated (three long-lived
# burners are moved in, every 4th pair also gets a short-lived burner of
# its own), emptied and removed.  A reader reads groups and cpus all the
# time; each removed path is appended to /run/cg.removing before rmdir and
# to /run/cg.gone after it returned, so the reader knows which paths must
# never be shown (ssread -g/-G: a removed path shown, a path that is
# neither in the live tree nor being removed, a cgid that is not the
# directory's inode).  Every 10 pairs a synchronous read does the same
# check.  Shadow stays consistent: walks keep being published, the share
# discarded as inconsistent stays sane, no walk is over budget.
# timeout: 1500
SCEN=20
. /lib/vm/stress/stress.lib
N=$(fig 500 50)
T="cgroup churn"
mark=$(dmesg_mark)
need_module "$T: module loaded" || return 0
diag "level $STRESS_LEVEL: $N cgroups"
GONE=/run/cg.gone REMOVING=/run/cg.removing
: > $GONE
: > $REMOVING
for k in 0 1 2 3; do cg_mk /churn/p$k $((100 + k * 150)); done
cg_mk /churn/park
for k in 0 1 2 3; do echo +cpu > $CG/churn/p$k/cgroup.subtree_control; done

bg c20-root burn -t 2 -r 5 -s 5 -d 0 -q
for m in 0 1 2; do bg c20-m$m burn -t 1 -r 4 -s 4 -d 0 -q --cgroup /churn/park; done
sleep 1
movers=$(awk '$2 ~ /^c20-m/ { print $1 }' "$BG_PIDS")
echo 1 > "$SS/reset"
sleep 0.5
bg_ssread r20 -i 10 -m 8 -c -g $GONE -G $REMOVING -s /tmp $SS/groups $SS/cpus

created=0 removed=0 moves=0 short=0 weights=0 rmdir_retries=0 rmdir_fail=0
sync_checks=0 sync_bad='' i=0 seed=12345
while [ $created -lt "$N" ]; do
	i=$((i + 1))
	k=$((i % 4))
	a=/churn/p$k/c$i
	b=$a/d$i
	mkdir $CG$a || { diag "mkdir $a failed"; break; }
	echo +cpu > $CG$a/cgroup.subtree_control
	mkdir $CG$b || { diag "mkdir $b failed"; break; }
	created=$((created + 2))
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	echo $((seed % 10000 + 1)) > $CG$a/cpu.weight && weights=$((weights + 1))
	echo $(( (seed / 10000) % 10000 + 1)) > $CG$b/cpu.weight && weights=$((weights + 1))
	# populate: one mover into the leaf, one into the middle level
	set -- $movers
	# shellcheck disable=SC1083 # ${N}: the N-th positional parameter, through eval
	m1=$(eval echo \${$((i % 3 + 1))})
	# shellcheck disable=SC1083 # as above
	m2=$(eval echo \${$(((i + 1) % 3 + 1))})
	echo "$m1" > $CG$b/cgroup.procs && moves=$((moves + 1))
	[ $((i % 2)) -eq 0 ] && echo "$m2" > $CG$a/cgroup.procs && moves=$((moves + 1))
	sp=
	if [ $((i % 4)) -eq 0 ]; then
		burn -t 1 -r 2 -s 2 -d 1 -q --cgroup $b &
		sp=$!
		short=$((short + 1))
	fi
	usleep $((100000 + (i % 3) * 50000))
	# move them on: the leaf's mover to the next pair's parent level
	echo "$m1" > $CG/churn/p$(((k + 1) % 4))/cgroup.procs 2>/dev/null && moves=$((moves + 1))
	# empty
	echo "$m1" > $CG/churn/park/cgroup.procs && moves=$((moves + 1))
	echo "$m2" > $CG/churn/park/cgroup.procs && moves=$((moves + 1))
	[ -n "$sp" ] && wait $sp
	# remove: leaf first
	for d in $b $a; do
		echo "$d" >> $REMOVING
		n=0
		until rmdir $CG$d 2>/dev/null; do
			n=$((n + 1))
			[ $n -ge 100 ] && break
			usleep 20000
		done
		rmdir_retries=$((rmdir_retries + n))
		if [ -d $CG$d ]; then
			rmdir_fail=$((rmdir_fail + 1))
			diag "rmdir $d failed: $(cat $CG$d/cgroup.procs | tr '\n' ' ')"
		else
			echo "$d" >> $GONE
			removed=$((removed + 1))
		fi
	done
	if [ $((i % 10)) -eq 0 ]; then
		sync_checks=$((sync_checks + 1))
		l=$(ssread -n 1 -g $GONE -G $REMOVING $SS/groups)
		for key in bad removed_shown unknown_path cgid_bad; do
			[ "$(ssval "$l" $key)" = 0 ] || sync_bad="$sync_bad [$i] $l"
		done
	fi
done

pub=$(ss_sum published) dis=$(ss_sum discarded) ovb=$(ss_sum over_budget)
keep cpus "$SS/cpus"
keep groups "$SS/groups"
for f in /tmp/groups.* /tmp/cpus.*; do [ -f "$f" ] && keep "r-$(basename "$f")" "$f"; done
line=$(ssread_stop r20)
diag "cgroups created $created, removed $removed, cpu.weight writes $weights, task moves $moves, short-lived burners $short"
diag "rmdir retries $rmdir_retries (a moved task still exiting), rmdir failures $rmdir_fail, synchronous checks $sync_checks"
diag "reader: ${line#ssread: }"
grep -v '^ssread: rounds=' /tmp/r20.log | head -n 8 | diag
diag "walks since reset: published $pub, discarded $dis, over budget $ovb"

[ "$created" -ge "$N" ] && [ "$removed" -eq "$created" ] && [ "$rmdir_fail" -eq 0 ] &&
	ok "$T: $created nested cgroups created, weighted, populated, emptied and removed" ||
	not_ok "$T: $N nested cgroups created and removed" "created $created removed $removed rmdir failures $rmdir_fail"
[ -n "$line" ] && [ "$(ssval "$line" bad)" = 0 ] && [ "$(ssval "$line" addr)" = 0 ] && [ "$(ssval "$line" other_err)" = 0 ] &&
	[ "$(ssval "$line" ok)" -gt 0 ] &&
	ok "$T: every groups/cpus read parses ($(ssval "$line" ok) reads, $(ssval "$line" rows) rows)" ||
	not_ok "$T: every groups/cpus read parses" "$line"
[ -n "$line" ] && [ "$(ssval "$line" removed_shown)" = 0 ] && [ -z "$sync_bad" ] &&
	ok "$T: groups never shows a removed cgroup ($(ssval "$line" reads) concurrent reads, $sync_checks synchronous)" ||
	not_ok "$T: groups never shows a removed cgroup" "$line$sync_bad"
[ -n "$line" ] && [ "$(ssval "$line" unknown_path)" = 0 ] && [ "$(ssval "$line" cgid_bad)" = 0 ] &&
	ok "$T: every path shown is in the live tree (or being removed) with its inode as cgid" ||
	not_ok "$T: every path shown is in the live tree with its inode as cgid" "$line"
# a CPU whose last walk still holds a cgroup that is now dying hides its row:
# the parent's sums then disagree with the rows shown (figure only here;
# 70-concurrency checks the arithmetic on a tree that does not change)
diag "per-CPU arithmetic (h_tasks, shadow, shadow_avg vs the children shown): $(ssval "$line" consist_bad) reads disagreed"
ratio=$(awk -v p="$pub" -v d="$dis" 'BEGIN { printf "%.3f", (p + d) ? d / (p + d) : 1 }')
[ "$pub" -gt 0 ] && [ "$ovb" -eq 0 ] && awk -v r="$ratio" 'BEGIN { exit !(r < 0.25) }' &&
	ok "$T: shadow consistent: $pub walks published, discarded share $ratio (< 0.25), 0 over budget" ||
	not_ok "$T: shadow consistent: walks published, discarded share < 0.25, none over budget" "published $pub discarded $dis ($ratio) over_budget $ovb"

bg_stop
cg_rm /churn
left=$(awk 'NR > 2 && $NF ~ /^\/churn/' "$SS/groups" | head -n 3)
[ -z "$left" ] && ok "$T: no /churn row after the tree is gone" || not_ok "$T: no /churn row after the tree is gone" "$left"
dmesg_since "$mark" | grep sched_shadow > "$OUT/20-dmesg"
dmesg_module_check "$mark" "$T: kernel log clean"
