# SPDX-License-Identifier: GPL-2.0
# plan: 14
# Scenario 23 (load-balancer audit): the demo workload (9 duty-cycle
# threads, 15 ms run / 10 ms sleep, on 6 CPUs) first in the root cgroup,
# then split over nested cgroups with unequal cpu.weight
# (/t/a/b weight 300: 5 threads, /t/c weight 50: 4 threads).  Each run:
# reset 1 s in, read `lb` and `lb_attempts` 3 s later.  The verdict and
# tracker tables of both runs are printed and exported as lb-root.txt /
# lb-nested.txt.  Checks, per run:
#   - the audit judged calls at all;
#   - judged rows (idle, newidle): calls = right + wrong + missed + none + void
#   - per idle type and tracker: the `all` row = sum over the domain rows
#   - tracker rows: agree <= calls, and calls = the actual row's calls
# and against sources the tables do not feed:
#   - the kernel's own count: attempts (lb_attempts, every row, plus
#     lb_attempts_skipped) between /proc/schedstat's lb_count delta over a
#     window inside the module's (copies just after the reset and just
#     before the tables) and over one around it (just before the reset,
#     just after the tables): no percentage, the attempts in flight aside;
#   - the trace: the judged attempts of each verdict in lb_attempts against
#     the lb_verdict events of that verdict (one per judged attempt),
#     exactly, bracketed: trace markers just before and after the reset,
#     lb_attempts read just before and just after tracing stops;
#   - the two probes: per domain and idle type, the searches `lb` counts
#     (its actual rows, read between those two lb_attempts) between the
#     attempts + redos `lb_attempts` counts before and after (plus the
#     attempts in flight and the searches outside an attempt).
# timeout: 120
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

T=/sys/kernel/tracing
# lb_count per idle type (Documentation/scheduler/sched-stats.rst): v15/v16
# "domainN MASK" then 8 fields per idle type; v17 (6.16+) "domainN NAME
# MASK" then 11
ssv=$(awk '$1 == "version" { print $2; exit }' /proc/schedstat)
case "$ssv" in
15|16) cnt="3 11 19" ;;
17) cnt="4 15 26" ;;
*) cnt= ;;
esac
[ -n "$cnt" ] || diag "/proc/schedstat version '$ssv' not understood: the schedstat checks fail"
sched_sum() { f=$1; shift; awk -v cols="$*" 'BEGIN { n = split(cols, c, " ") } $1 ~ /^domain/ { for (i = 1; i <= n; i++) s += $(c[i]) } END { print s + 0 }' "$f"; }
old_ss=$(cat /proc/sys/kernel/sched_schedstats)
echo 1 > /proc/sys/kernel/sched_schedstats
obuf=$(sed 's/ .*//' $T/buffer_size_kb)
echo 4096 > $T/buffer_size_kb
# run_case NAME CMD...: run the workload, reset 1 s in, keep lb and
# lb_attempts 3 s later, with schedstat copies and the lb_verdict trace.
# The trace brackets the tables: markers just before and after the reset
# write, lb_attempts read once before tracing stops (att1) and once after
# (att2), lb in between
run_case() {
	local name=$1
	shift
	bg "l23$name" "$@"
	sleep 1
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $T/events/sched_shadow/lb_verdict/enable
	echo 1 > $T/tracing_on
	cat /proc/schedstat > /tmp/lb-$name.ss0
	echo l23-before-reset > $T/trace_marker
	lb_reset
	echo l23-after-reset > $T/trace_marker
	cat /proc/schedstat > /tmp/lb-$name.ss0b
	sleep 3
	cat /proc/schedstat > /tmp/lb-$name.ss1a
	cat "$SS/lb_attempts" > /tmp/lb-$name.att
	cat "$SS/lb" > /tmp/lb-$name.txt
	echo 0 > $T/tracing_on
	cat "$SS/lb_attempts" > /tmp/lb-$name.att2
	grep '^lb_' "$SS/info" > /tmp/lb-$name.info
	cat /proc/schedstat > /tmp/lb-$name.ss1
	echo 0 > $T/events/sched_shadow/lb_verdict/enable
	grep -E 'lb_verdict:|tracing_mark_write: l23-' $T/trace > /tmp/lb-$name.trace
	echo > $T/trace
	bg_stop
}

run_case root burn -t 9 -r 15 -s 10 -d 0 -q
cg_mk /t 100
cg_mk /t/a 100
bg l23nc burn -t 4 -r 15 -s 10 -d 0 -q --cgroup /t/c --weight 50
run_case nested burn -t 5 -r 15 -s 10 -d 0 -q --cgroup /t/a/b --weight 300
bg_stop
cg_rm /t
echo "$old_ss" > /proc/sys/kernel/sched_schedstats
echo "$obuf" > $T/buffer_size_kb

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
	# the kernel's count of balancing attempts, bracketed: schedstat copies
	# just before and after the reset (ss0, ss0b) and just before the first
	# and after the second lb_attempts (ss1a, ss1): the lb_count delta over
	# [ss0b, ss1a] <= attempts + skipped <= the delta over [ss0, ss1] (the
	# module's window [reset, att2] is inside the one and holds the other;
	# a few attempts in flight, one per CPU, aside)
	att=$(awk 'NR > 2 && $1 != "all" { s += $5 } END { print s + 0 }' /tmp/lb-$name.att2)
	skp=$(awk '$1 == "lb_attempts_skipped" { print $2 }' /tmp/lb-$name.info)
	lo=$(( $(sched_sum /tmp/lb-$name.ss1a $cnt) - $(sched_sum /tmp/lb-$name.ss0b $cnt) ))
	hi=$(( $(sched_sum /tmp/lb-$name.ss1 $cnt) - $(sched_sum /tmp/lb-$name.ss0 $cnt) ))
	a=$((att + ${skp:-0})) nc=$(ncpus)
	diag "$name: attempts $att + skipped ${skp:-?} = $a; schedstat lb_count delta $lo (inner window) .. $hi (outer) (v$ssv)"
	if [ -n "$cnt" ] && [ "$lo" -gt 0 ] && [ "$att" -gt 0 ] && [ "$a" -ge $((lo - nc)) ] && [ "$a" -le $((hi + nc)) ]; then
		ok "lb demo tables ($name): attempts + skipped $a between schedstat's lb_count over the inner and the outer window ($lo .. $hi)"
	else
		not_ok "lb demo tables ($name): attempts + skipped between schedstat's lb_count over the inner and the outer window" "$a vs $lo .. $hi (+-$nc)"
	fi
	# the trace: one lb_verdict event per judged attempt.  With R the reset
	# between the markers M1 < R < M2 and att1 < off < att2:
	#   att1 (events in [R, att1]) <= events traced after M1,
	#   att2 (events in [R, att2]) >= events traced after M2
	bad='' tv=0
	for v in right wrong missed none void; do
		a1=$(awk -v v=$v 'NR > 2 && $1 == "all" && $2 != "busy" && $3 == v { s += $5 } END { print s + 0 }' /tmp/lb-$name.att)
		a2=$(awk -v v=$v 'NR > 2 && $1 == "all" && $2 != "busy" && $3 == v { s += $5 } END { print s + 0 }' /tmp/lb-$name.att2)
		# shellcheck disable=SC2046 # two counts into the positional parameters, on purpose
		set -- $(awk -v v=$v '/tracing_mark_write: l23-before-reset/ { m = 1; next }
			/tracing_mark_write: l23-after-reset/ { m = 2; next }
			m && index($0, " verdict=" v " ") { e1++; if (m == 2) e2++ }
			END { print e1 + 0, e2 + 0 }' /tmp/lb-$name.trace)
		tv=$((tv + $1))
		[ "$a1" -le "$1" ] && [ "$2" -le "$a2" ] || bad="$bad $v:$a1>$1|$2>$a2"
		diag "$name: $v: lb_attempts $a1 .. $a2, lb_verdict events $2 .. $1 (after the reset's markers)"
	done
	if [ -z "$bad" ] && [ "$tv" -gt 0 ]; then
		ok "lb demo tables ($name): judged attempts per verdict bracket the lb_verdict events ($tv events)"
	else
		not_ok "lb demo tables ($name): judged attempts per verdict bracket the lb_verdict events" "$bad; $tv events"
	fi
	# the two probes: searches (lb, read between att1 and att2) per domain
	# and idle type, against attempts + redos: an attempt is counted when it
	# returns, its searches before, so att1 <= searches <= att2 + the
	# attempts in flight (one per CPU) + searches outside an attempt.  An
	# attempt in flight at the reset had its first search counted before
	# it (the reset clears a CPU's counters at its next write) and is
	# counted whole when it returns: att1 - one per CPU <= searches (7.3:
	# PKG idle 253 searches against 254 attempts + redos)
	orph=$(awk '$1 == "lb_search_orphan" { print $2 }' /tmp/lb-$name.info)
	bad=$(awk -v orph="${orph:-0}" -v ncpu="$(ncpus)" 'FNR <= 2 { f++; next }
		f == 2 { if ($1 != "all") A1[$1 " " $2] += $5 + $6; next }
		f == 4 { if ($1 != "all") A2[$1 " " $2] += $5 + $6; next }
		$1 != "all" && $3 == "actual" { S[$1 " " $2] = $4 }
		END { for (k in S) if (S[k] < A1[k] - ncpu || S[k] > A2[k] + ncpu + orph) printf " %s:%d/%d..%d", k, S[k], A1[k], A2[k]
		      for (k in A1) if (!(k in S)) printf " %s:0/%d", k, A1[k] }' /tmp/lb-$name.att /tmp/lb-$name.att2 /tmp/lb-$name.txt)
	nser=$(awk 'NR > 2 && $1 != "all" && $3 == "actual" { s += $4 } END { print s + 0 }' /tmp/lb-$name.txt)
	if [ -z "$bad" ] && [ "$nser" -gt 0 ]; then
		ok "lb demo tables ($name): searches per domain and idle type ($nser) between attempts + redos before and after ($orph orphan searches)"
	else
		not_ok "lb demo tables ($name): searches per domain and idle type between attempts + redos before and after" "searches/before..after:$bad; $nser searches, ${orph:-?} orphan"
	fi
done
