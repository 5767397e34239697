# SPDX-License-Identifier: GPL-2.0
# Scenario 34 (fidelity): outside exact mode the
# hierarchy walk (`groups`, shadow columns) runs once per PELT period of
# the root or after 32 events, while `cpus` counts are per event.  How
# stale `groups` membership is, measured: 8 duty-cycle threads (1 ms run,
# 3 ms sleep) in two nested cgroups over all CPUs; `cpus` and `groups`
# read together every 5 ms; per round and busy CPU, the root row's
# h_tasks (last walk) is compared with h_nr_running (last event).  Same
# with exact=1 (walk on every event).  Both shares are printed
# (docs/performance.md, "Fidelity trade-off").  Checks:
#  1. the data is there: >= 100 CPU-rounds in each mode;
#  2. exact=1 keeps groups fresher than the default mode: at most three
#     quarters of the default's share of disagreeing rounds (what remains
#     with exact=1 is
#     the two files not being read at the same instant, which depends on
#     the emulator: 7 % on multi-threaded TCG, 28 % on one host thread,
#     where all six vCPUs share a host CPU between the two reads), and
#     under 40 % in absolute terms; the default mode is no fresher (the
#     trade-off docs/performance.md documents: 79-86 % of busy CPU-rounds disagree
#     by default on 6.1).  The bound was half until a 7.3 run measured
#     97/204 by default (its flat walk keeps up better) against 67/201
#     with exact=1 (0.70 of it; other 7.3 runs 0.38 and 0.64).
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
measure() {	# measure TAG -> "rounds mismatched"
	bg s34a burn -t 4 -r 1 -s 3 -d 0 -q --cgroup /s34/a
	bg s34b burn -t 4 -r 1 -s 3 -d 0 -q --cgroup /s34/b/c
	sleep 1
	echo 1 > "$SS/reset"
	catn -n 200 -i 5 "$SS/cpus" "$SS/groups" > /tmp/s34.$1
	diag "$1: walks since reset: published $(ss_sum published), discarded $(ss_sum discarded), deferred $(ss_sum deferred), over budget $(ss_sum over_budget)" >&2
	bg_stop
	awk '/^=== ROUND/ { f = $NF; hdr = 0; if (f ~ /cpus$/) { delete h }; next } /^# / { next }
		!hdr { delete c; for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
		f ~ /cpus$/ { if ($(c["void"]) == "fresh" && $(c["h_nr_running"]) != "-") h[$1] = $(c["h_nr_running"]); next }
		f ~ /groups$/ && $(c["depth"]) == 0 && ($1 in h) && (h[$1] + $(c["h_tasks"]) > 0) {
			n++; if (h[$1] != $(c["h_tasks"])) m++ }
		END { print n + 0, m + 0 }' /tmp/s34.$1
}
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(measure default)
n0=$1 m0=$2
unload_module
modload $KO exact=1 > /tmp/insmod.err 2>&1 || diag "exact=1 load: $(cat /tmp/insmod.err)"
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(measure exact)
n1=$1 m1=$2
unload_module
load_module
[ -n "$dd" ] && echo DELAY_DEQUEUE > "$F"
cg_rm /s34
diag "groups root h_tasks != cpus h_nr_running: default $m0 of $n0 CPU-rounds, exact=1 $m1 of $n1"
res "$([ "$n0" -ge 100 ] && [ "$n1" -ge 100 ]; echo $?)" "$T: busy CPU-rounds read in both modes ($n0, $n1)"
res "$([ $((m1 * 100)) -le $((n1 * 40)) ] && [ $((m1 * 400 / n1)) -le $((m0 * 300 / n0)) ]; echo $?)" \
	"$T: exact=1 groups agree with the per-event count ($m1/$n1 rounds differ: < 40% and at most 3/4 of the default's $m0/$n0, the documented trade-off)"
