# SPDX-License-Identifier: GPL-2.0
# plan: 8
# Scenario 23 (load-balancer audit): the demo workload (9 duty-cycle
# threads, 15 ms run / 10 ms sleep, on 6 CPUs) first in the root cgroup,
# then split over nested cgroups with unequal cpu.weight
# (/t/a/b weight 300: 5 threads, /t/c weight 50: 4 threads).  Each run:
# reset 1 s in, read `lb` 3 s later.  The verdict and tracker tables of
# both runs are printed (numbers, no pass/fail on them) and exported as
# lb-root.txt / lb-nested.txt; the checks are internal consistency:
#   - judged rows (idle, newidle): calls = right + wrong + missed + none
#   - per idle type and tracker: the `all` row = sum over the domain rows
#   - tracker rows: agree <= calls, and calls = the actual row's calls
#   - the audit saw judged calls at all
# timeout: 90
lb_need "lb demo tables" || return 0

# consistency FILE: prints "BAD ..." lines and one "SUM rows=N judged=N bad_sum=N bad_all=N bad_agree=N"
consistency() {
	awk '
	NR == 1 { if ($0 !~ /^# sched_shadow lb v1$/) { print "BAD version line: " $0; bv++ } ; next }
	NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; ncol = NF; next }
	{
		rows++
		if (NF != ncol) { print "BAD field count " NF ": " $0; bv++; next }
		d = $1; i = $2; t = $3; k = i SUBSEP t
		calls = $(c["calls"])
		if (i == "busy") {
			if (t != "actual") { print "BAD busy row for tracker " t; bv++ }
			for (j = c["right"]; j <= ncol; j++) if ($j != "-") { print "BAD busy row has a verdict column: " $0; bv++ }
		} else {
			s = $(c["right"]) + $(c["wrong"]) + $(c["missed"]) + $(c["none"]) + $(c["void"])
			if (s != calls) { print "BAD calls != right+wrong+missed+none+void: " $0; bsum++ }
			if (t == "actual") { if ($(c["agree"]) != "-") { print "BAD actual row has agree: " $0; bv++ } }
			else if ($(c["agree"]) + 0 > calls + 0) { print "BAD agree > calls: " $0; bag++ }
		}
		if (d == "all") { seen_all[k] = 1; for (j = 4; j <= ncol; j++) A[k, j] = $j }
		else { for (j = 4; j <= ncol; j++) if ($j != "-") S[k, j] += $j; doms[d] = 1; dk[k] = 1 }
		if (t == "actual") ACT[d, i] = calls
		else TRK[d, i, t] = calls
	}
	END {
		for (k in dk) if (!(k in seen_all)) { split(k, p, SUBSEP); print "BAD no all row for " p[1] " " p[2]; ball++ }
		for (k in seen_all)
			for (j = 4; j <= ncol; j++) {
				if (A[k, j] == "-") continue
				if (A[k, j] + 0 != S[k, j] + 0) { split(k, p, SUBSEP); printf "BAD all %s %s column %d: %s != sum of domains %d\n", p[1], p[2], j, A[k, j], S[k, j]; ball++ }
			}
		for (x in TRK) { split(x, p, SUBSEP); if (TRK[x] != ACT[p[1], p[2]]) { print "BAD " p[1] " " p[2] " " p[3] " calls " TRK[x] " != actual " ACT[p[1], p[2]]; bv++ } }
		printf "SUM rows=%d judged=%d bad_sum=%d bad_all=%d bad_agree=%d bad_other=%d\n", rows, ACT["all", "idle"] + ACT["all", "newidle"], bsum, ball, bag, bv
	}' "$1"
}

# run_case NAME CMD...: run the workload, reset 1 s in, keep lb 3 s later
run_case() {
	local name=$1
	shift
	bg "l23$name" "$@"
	sleep 1
	lb_reset
	sleep 3
	cat "$SS/lb" > /tmp/lb-$name.txt
	grep '^lb_' "$SS/info" > /tmp/lb-$name.info
	bg_stop
}

run_case root burn -t 9 -r 15 -s 10 -d 0 -q
cg_mk /t 100
cg_mk /t/a 100
bg l23nc burn -t 4 -r 15 -s 10 -d 0 -q --cgroup /t/c --weight 50
run_case nested burn -t 5 -r 15 -s 10 -d 0 -q --cgroup /t/a/b --weight 300
bg_stop
cg_rm /t

for name in root nested; do
	diag "lb table, $name run (3 s after reset):"
	diag "$(cat /tmp/lb-$name.txt)"
	diag "$(tr '\n' ' ' < /tmp/lb-$name.info)"
	vm_export lb-$name.txt /tmp/lb-$name.txt
done
diag "side by side (all domains; verdicts of actual, outcomes of each tracker): root | nested"
awk '
	FNR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; file++; next }
	FNR > 2 && $1 == "all" && $2 != "busy" {
		key = $2 " " $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		v[file, key] = sprintf("%6s %6s %6s %6s %6s %6s", $(c["calls"]), $(c["right"]), $(c["wrong"]), $(c["missed"]), $(c["none"]), $(c["agree"]))
	}
	END {
		printf "%-19s %-41s | %s\n", "idle tracker", "calls  right  wrong missed   none  agree", "calls  right  wrong missed   none  agree"
		for (i = 1; i <= n; i++) printf "%-19s %-41s | %s\n", order[i], v[1, order[i]], v[2, order[i]]
	}' /tmp/lb-root.txt /tmp/lb-nested.txt | diag

for name in root nested; do
	consistency /tmp/lb-$name.txt > /tmp/lb-$name.chk
	grep '^BAD' /tmp/lb-$name.chk | head -n 10 | diag
	# shellcheck disable=SC2046 # words into the positional parameters, on purpose
	set -- $(sed -n 's/^SUM rows=\([0-9]*\) judged=\([0-9]*\) bad_sum=\([0-9]*\) bad_all=\([0-9]*\) bad_agree=\([0-9]*\) bad_other=\([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' /tmp/lb-$name.chk)
	if [ $# -ne 6 ]; then
		not_ok "lb demo tables ($name): consistency checker ran" "$(cat /tmp/lb-$name.chk | head -n 3)"
		continue
	fi
	rows=$1 judged=$2
	if [ "$judged" -gt 0 ]; then ok "lb demo tables ($name): the audit judged $judged calls"; else not_ok "lb demo tables ($name): the audit judged calls" "judged=0"; fi
	if [ "$3" -eq 0 ]; then ok "lb demo tables ($name): calls = right+wrong+missed+none on every judged row"; else not_ok "lb demo tables ($name): calls = right+wrong+missed+none on every judged row" "$3 rows differ"; fi
	if [ "$4" -eq 0 ]; then ok "lb demo tables ($name): each all row = sum over the domain rows"; else not_ok "lb demo tables ($name): each all row = sum over the domain rows" "$4 cells differ"; fi
	if [ "$5" -eq 0 ] && [ "$6" -eq 0 ]; then ok "lb demo tables ($name): agree <= calls, tracker calls = actual calls, row format"; else not_ok "lb demo tables ($name): agree <= calls, tracker calls = actual calls, row format" "agree>calls: $5, other: $6"; fi
done
