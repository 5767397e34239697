# SPDX-License-Identifier: GPL-2.0
# plan: 4
# Scenario 6: nested cgroups with unequal cpu.weight.  cgroup v2 allows
# tasks only in leaves once +cpu is delegated, so the levels are
#   /t(100) /t/a(300) /t/a/b(200)  intermediate
#   /t/a/x(50)  2 hogs             leaf at depth 3
#   /t/a/b/c(100) 2 hogs           leaf at depth 4
#   /t/a/b/y(400) 2 x 15/10 ms     leaf at depth 4
#   one hog in the root cgroup     task_load at depth 0
# `groups` must show every level, and every row must satisfy
#   shadow     = task_load + sum(children: min(shadow * se_weight / cfs_weight, se_weight))
#   shadow_avg = task_load + sum(children: min(load_avg * se_weight / cfs_weight, se_weight))
#   h_tasks    = nr_tasks + sum(children: h_tasks)
# recomputed here from the rows (tolerance max(1%, 2 units): rounding
# happens per level).
# timeout: 90
need_module "nested groups: module loaded" || return 0
cg_mk /t 100
cg_mk /t/a 300
cg_mk /t/a/b 200
bg x burn -t 2 -s 0 -d 0 -q --cgroup /t/a/x --weight 50
bg c burn -t 2 -s 0 -d 0 -q --cgroup /t/a/b/c --weight 100
bg y burn -t 2 -r 15 -s 10 -d 0 -q --cgroup /t/a/b/y --weight 400
bg r burn -t 1 -s 0 -d 0 -q
sleep 1
wait_converge 5

# one awk pass per sample: prints "BAD ..." lines and a final "SUM ..." line
check_groups() {
	awk '
	function abs(v) { return v < 0 ? -v : v }
	{
		cpu = $1; d = $2; sw = $3; cw = $4; la = $5; tl = $6; sh = $7; sa = $8; nt = $9; ht = $10; p = $11
		k = cpu SUBSEP p
		if (k in SH) { print "BAD duplicate row cpu" cpu " " p; bad++ }
		rows[++n] = k; SH[k] = sh; SA[k] = sa; TL[k] = tl; NT[k] = nt; HT[k] = ht; D[k] = d; PATH[k] = p; CPU[k] = cpu
		if (d == 0) { if (p != "/") { print "BAD depth 0 row with path " p; bad++ } ; next }
		par = p; sub(/\/[^\/]*$/, "", par); if (par == "") par = "/"
		pk = cpu SUBSEP par
		if (!(pk in SH)) { print "BAD cpu" cpu " " p ": parent " par " not listed before it"; bad++; next }
		if (D[pk] != d - 1) { print "BAD cpu" cpu " " p ": depth " d " under parent depth " D[pk]; bad++ }
		if (sw == "-" || cw == "-") { print "BAD cpu" cpu " " p ": se_weight/cfs_weight missing"; bad++; next }
		# a cfs_rq without weight contributes nothing (docs/debugfs.md): on
		# 6.12+ a group entity whose dequeue is delayed stays queued with
		# an empty cfs_rq (cfs_weight 0, h_tasks 0)
		c = (cw > 0) ? sh * sw / cw : 0; if (c > sw) c = sw
		ca = (cw > 0) ? la * sw / cw : 0; if (ca > sw) ca = sw
		CS[pk] += c; CA[pk] += ca; CH[pk] += ht
	}
	END {
		for (i = 1; i <= n; i++) {
			k = rows[i]
			e = TL[k] + CS[k]; tol = SH[k] * 0.01; if (tol < 2) tol = 2
			if (abs(e - SH[k]) > tol) { printf "BAD cpu%s %s shadow %s, recomputed %.1f\n", CPU[k], PATH[k], SH[k], e; bad++ }
			e = TL[k] + CA[k]; tol = SA[k] * 0.01; if (tol < 2) tol = 2
			if (abs(e - SA[k]) > tol) { printf "BADAVG cpu%s %s shadow_avg %s, recomputed %.1f\n", CPU[k], PATH[k], SA[k], e; badavg++ }
			if (HT[k] != NT[k] + CH[k]) { printf "BADH cpu%s %s h_tasks %s, nr_tasks %s + children %s\n", CPU[k], PATH[k], HT[k], NT[k], CH[k]; badh++ }
		}
		printf "SUM rows=%d bad=%d badavg=%d badh=%d\n", n, bad + 0, badavg + 0, badh + 0
	}'
}

: > /tmp/s6.paths
bad=0 badavg=0 badh=0 rows=0
for s in 1 2 3 4; do
	ss_rows groups cpu depth se_weight cfs_weight load_avg task_load shadow shadow_avg nr_tasks h_tasks path > /tmp/s6.g
	awk '{ print $2, $11 }' /tmp/s6.g >> /tmp/s6.paths
	check_groups < /tmp/s6.g > /tmp/s6.out
	grep '^BAD' /tmp/s6.out | head -n 8 | diag
	# shellcheck disable=SC2046 # words into the positional parameters, on purpose
	set -- $(sed -n 's/^SUM rows=\([0-9]*\) bad=\([0-9]*\) badavg=\([0-9]*\) badh=\([0-9]*\)$/\1 \2 \3 \4/p' /tmp/s6.out)
	if [ $# -ne 4 ]; then bad=$((bad + 1)); diag "sample $s: checker failed"; continue; fi
	rows=$(($rows + $1)) bad=$(($bad + $2)) badavg=$(($badavg + $3)) badh=$(($badh + $4))
	sleep 0.7
done
diag "last sample (cpu depth se_weight cfs_weight load_avg task_load shadow shadow_avg nr_tasks h_tasks path):"
diag "$(cat /tmp/s6.g)"
bg_stop
cg_rm /t

missing=
for lp in "1 /t" "2 /t/a" "3 /t/a/b" "3 /t/a/x" "4 /t/a/b/c" "4 /t/a/b/y"; do
	grep -qx "$lp" /tmp/s6.paths || missing="$missing [$lp]"
done
if [ -z "$missing" ]; then ok "nested groups: groups shows every level (depth 1-4)"; else not_ok "nested groups: groups shows every level (depth 1-4)" "missing (depth path):$missing; seen: $(sort -u /tmp/s6.paths | tr '\n' ';')"; fi
if [ $rows -gt 0 ] && [ $bad -eq 0 ]; then ok "nested groups: shadow = task_load + sum min(child*w/W, w) on all $rows rows"; else not_ok "nested groups: shadow = task_load + sum min(child*w/W, w) on all rows" "$bad of $rows rows disagree"; fi
if [ $rows -gt 0 ] && [ $badavg -eq 0 ]; then ok "nested groups: shadow_avg = task_load + sum min(child load_avg*w/W, w)"; else not_ok "nested groups: shadow_avg = task_load + sum min(child load_avg*w/W, w)" "$badavg of $rows rows disagree"; fi
if [ $rows -gt 0 ] && [ $badh -eq 0 ]; then ok "nested groups: h_tasks = nr_tasks + sum children h_tasks"; else not_ok "nested groups: h_tasks = nr_tasks + sum children h_tasks" "$badh of $rows rows disagree"; fi
