# SPDX-License-Identifier: GPL-2.0
# Scenario 34 (fidelity): outside exact mode the
# hierarchy walk (`groups`, shadow columns) runs once per PELT period of
# the root or after 32 events, while `cpus` counts are per event.  How
# stale `groups` membership is, measured: 8 duty-cycle threads (1 ms run,
# 3 ms sleep) in two nested cgroups over all CPUs; each round reads
# `groups`, `cpus` and `groups` again, every 5 ms; per round and busy CPU
# whose root row is the same in both `groups` reads (the walk did not move
# under the `cpus` read), the root row's h_tasks (last walk) is compared
# with h_nr_running (last event).  Same with exact=1 (walk on every event).
# Both shares are printed (README, Performance).  Checks:
#  1. the data is there: >= 100 bracketed CPU-rounds in each mode (320
#     rounds: with exact=1 a walk often lands between the reads, 7.3 kept
#     76 of 200 rounds);
#  2. exact=1 keeps groups fresh: a root row that stayed the same across the
#     `cpus` read differs from its per-event count only when events came
#     and went within that read (several, restoring the count) or a walk
#     caught inside an enqueue was deferred to the next safe point; at
#     most 1/3 of the default's share of disagreeing rounds and under 30 %
#     (6.1: 0 of 146 with exact=1 against 109 of 131 by default; under
#     single-threaded TCG, whose one host thread stretches each read over
#     many guest events: 7.2 26 of 383 against 112 of 184, 7.3 22 of 138
#     against 250 of 287 and 37 of 165 (22 %, by +-1) against 240 of 281,
#     `cpus` one task ahead of both `groups` reads in most: an enqueue
#     before the `cpus` read and a dequeue after it); exact mode doing
#     nothing reads as the default (79-88 %)
#     (the default mode is no fresher: the trade-off the README documents:
#     79-86 % of busy CPU-rounds disagree by default on 6.1).  Before the
#     bracketing read the bound was 3/4, measured unbracketed: 67/201 with
#     exact=1 against 97/204 by default on a 7.3 run (the two files are
#     not read at the same instant, which one host thread's TCG stretches).
# plan: 2
# timeout: 120
T="groups staleness"
need_module "$T" || return 0
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
shcpu=$(pin_shell_last_cpu)
# 6.12+: a sleeping duty-cycle thread stays queued (delayed dequeue), so the
# root's h_tasks (queued) and h_nr_running (runnable) differ by design, not
# by staleness: the feature is switched off for this measurement, restored after
F=/sys/kernel/debug/sched/features
dd=
if grep -qw DELAY_DEQUEUE "$F" 2>/dev/null; then
	dd=1
	echo NO_DELAY_DEQUEUE > "$F"
	diag "DELAY_DEQUEUE switched off for this scenario"
fi
cg_mk /s34/a
cg_mk /s34/b/c
measure() {	# measure TAG ROUNDS -> "rounds mismatched"
	bg s34a burn -t 4 -r 1 -s 3 -d 0 -q --cgroup /s34/a
	bg s34b burn -t 4 -r 1 -s 3 -d 0 -q --cgroup /s34/b/c
	sleep 1
	echo 1 > "$SS/reset"
	catn -n "$2" -i 5 "$SS/groups" "$SS/cpus" "$SS/groups" > /tmp/s34.$1
	diag "$1: walks since reset: published $(ss_sum published), discarded $(ss_sum discarded), deferred $(ss_sum deferred), over budget $(ss_sum over_budget)" >&2
	bg_stop
	# per round: g1 = root h_tasks of the first groups read, h = cpus
	# h_nr_running, g2 = the second groups read; bracketed: g1 == g2
	awk '/^=== ROUND/ { f = $NF; hdr = 0; if (f ~ /cpus$/) { delete h; k = 2 } else if (k == 2) k = 3; else { k = 1; delete g1 }; next } /^# / { next }
		!hdr { delete c; for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
		f ~ /cpus$/ { if ($(c["void"]) == "fresh" && $(c["h_nr_running"]) != "-") h[$1] = $(c["h_nr_running"]); next }
		k == 1 && $(c["depth"]) == 0 { g1[$1] = $(c["h_tasks"]); next }
		k == 3 && $(c["depth"]) == 0 && ($1 in h) && ($1 in g1) && g1[$1] == $(c["h_tasks"]) && (h[$1] + $(c["h_tasks"]) > 0) {
			n++; if (h[$1] != $(c["h_tasks"])) { m++; d[h[$1] - $(c["h_tasks"])]++ } }
		END { s = ""; for (x in d) s = s " " x ":" d[x]; print n + 0, m + 0 > "/dev/stdout"
			print "'$1': h_nr_running - h_tasks when they differ (value:rounds):" s > "/tmp/s34.diff" }' /tmp/s34.$1
	diag < /tmp/s34.diff >&2
}
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(measure default 320)
n0=$1 m0=$2
unload_module
modload $KO exact=1 > /tmp/insmod.err 2>&1 || diag "exact=1 load: $(cat /tmp/insmod.err)"
# exact=1 brackets fewer rounds (its reads take longer: 79 and 83 of
# 320 in two runs), so it reads twice as many
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(measure exact 640)
n1=$1 m1=$2
unload_module
load_module
[ -n "$dd" ] && echo DELAY_DEQUEUE > "$F"
cg_rm /s34
diag "groups root h_tasks (the same in both groups reads) != cpus h_nr_running: default $m0 of $n0 bracketed CPU-rounds, exact=1 $m1 of $n1"
res "$([ "$n0" -ge 100 ] && [ "$n1" -ge 100 ]; echo $?)" "$T: bracketed busy CPU-rounds read in both modes ($n0, $n1)"
res "$([ $((m1 * 100)) -lt $((n1 * 30)) ] && [ $((m1 * 300 / n1)) -le $((m0 * 100 / n0)) ]; echo $?)" \
	"$T: exact=1 groups agree with the per-event count ($m1/$n1 bracketed rounds differ: < 30% and at most 1/3 of the default's $m0/$n0, the documented trade-off)"
