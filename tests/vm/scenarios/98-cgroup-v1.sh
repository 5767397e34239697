# SPDX-License-Identifier: GPL-2.0
# plan: 6
# Scenario 98: the cpu controller on a cgroup v1 hierarchy.  The module
# resolves a task group's cgroup id by walking whichever hierarchy carries
# "cpu" (module/cgpath.c), so `groups` must name v1 cgroups too.  The cpu
# controller is taken off the v2 root (all scenarios before this one have
# removed their cgroups), mounted as a v1 hierarchy, a hog runs in
# /v1a/v1b, and `groups` must show that path at depth 2 with the hog's
# load.  Then the CLI in that hybrid hierarchy: `run --cgroup` and `bench
# --cgroup` (a cgroup2 path, which cannot get the cpu controller now) must
# refuse, exit 2 with one line naming the v1 hierarchy and
# --allow-no-cpu-controller, run nothing and leave no cgroup; with that
# option the run goes on and its report says cpu_controller false.  Runs
# last but one: cpu stays on the v1 hierarchy afterwards (see the end).
# timeout: 60
need_module "cgroup v1: module loaded" || return 0
V1=/tmp/cpu-v1
n=$(ncpus)
last=$((n - 1))

# children of the v2 root left by earlier scenarios would keep cpu bound
for d in "$CG"/*/; do
	[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
done
if ! echo -cpu > "$CG/cgroup.subtree_control" 2>/tmp/v1.err; then
	not_ok "cgroup v1: cpu taken off the v2 root" "$(cat /tmp/v1.err)"
	return 0
fi
mkdir -p "$V1"
if ! mount -t cgroup -o cpu cpu "$V1" 2>/tmp/v1.err; then
	not_ok "cgroup v1: mount -t cgroup -o cpu" "$(cat /tmp/v1.err)"
	echo +cpu > "$CG/cgroup.subtree_control"
	return 0
fi
ok "cgroup v1: cpu controller mounted as a v1 hierarchy"
mkdir -p "$V1/v1a/v1b"
bg s98 burn -t 1 -s 0 -d 0 -q --cpu "$last"
sleep 0.3
pid=$(awk '$2 == "s98" { print $1 }' "$BG_PIDS")
echo "$pid" > "$V1/v1a/v1b/cgroup.procs"
sleep 2
cat "$SS/groups" > /tmp/v1.groups
row=$(awk -v c="$last" '$1 == c && $NF == "/v1a/v1b"' /tmp/v1.groups | head -n 1)
diag "groups rows of cpu$last:"
awk -v c="$last" 'NR <= 2 || $1 == c' /tmp/v1.groups | diag
if [ -n "$row" ]; then
	set -- $row
	# columns: cpu cgid depth se_weight cfs_weight load_avg runnable_avg util_avg task_load nr_tasks ...
	[ "$3" = 2 ] && [ "${10}" -ge 1 ]; check $? "cgroup v1: groups shows /v1a/v1b at depth 2 with the hog queued (depth $3, nr_tasks ${10})"
else
	not_ok "cgroup v1: groups shows /v1a/v1b" "no row for cpu$last with that path"
fi
awk -v c="$last" '$1 == c && $3 == 0 && $NF == "/"' /tmp/v1.groups | grep -q .; check $? "cgroup v1: the root row of cpu$last is named /"

bg_stop

# the CLI in the hybrid hierarchy: a "nested" run would not be nested
CLI=$(command -v sched-shadow || echo /bin/sched-shadow)
rm -f /tmp/v98.ran
"$CLI" run --no-bpf --cgroup /v98/a -- touch /tmp/v98.ran > /tmp/v98.out 2> /tmp/v98.err
rc=$?
diag "run --cgroup /v98/a in the v1 hierarchy: exit $rc, stderr:"
diag < /tmp/v98.err
vm_export cgroup-v1-refusal.txt /tmp/v98.err
[ $rc -eq 2 ] && [ ! -e /tmp/v98.ran ] && [ ! -s /tmp/v98.out ] && [ "$(grep -c . /tmp/v98.err)" -eq 1 ] &&
	grep -q "^sched-shadow run: --cgroup /v98/a: the cpu controller is bound to a cgroup v1 hierarchy.*--allow-no-cpu-controller" /tmp/v98.err &&
	[ ! -e "$CG/v98" ]
check $? "cgroup v1: run --cgroup refuses (exit $rc), one line naming the v1 hierarchy and --allow-no-cpu-controller, CMD not run, no cgroup left"
"$CLI" bench -r 0.2 -m 1 -t 1 --cgroup /v98/b > /tmp/v98b.out 2> /tmp/v98b.err
rc=$?
[ $rc -eq 2 ] && [ "$(grep -c . /tmp/v98b.err)" -eq 1 ] && grep -q "^sched-shadow bench: --cgroup /v98/b: .*--allow-no-cpu-controller" /tmp/v98b.err &&
	[ ! -e "$CG/v98" ]
check $? "cgroup v1: bench --cgroup refuses likewise (exit $rc), no cgroup left"
"$CLI" run --no-bpf --allow-no-cpu-controller --cgroup /v98/c -p -o /tmp/v98.json -- true 2> /tmp/v98c.err
rc=$?
[ $rc -eq 0 ] && grep -q '"cpu_controller": false' /tmp/v98.json && [ ! -e "$CG/v98" ]
check $? "cgroup v1: --allow-no-cpu-controller runs (exit $rc), the report says cpu_controller false, the cgroup removed"
rmdir "$CG/v98/a" "$CG/v98/b" "$CG/v98/c" "$CG/v98" 2>/dev/null

rmdir "$V1/v1a/v1b" "$V1/v1a" 2>/dev/null
umount "$V1" 2>/dev/null
# cpu does not return to v2 here: the kernel keeps an unmounted, empty v1
# hierarchy alive while the tasks' css_sets still link its root (seen on
# 6.1: /proc/cgroups kept "cpu 1 1 1" for 5 s), hence this scenario runs
# after every other one that needs cgroups.
