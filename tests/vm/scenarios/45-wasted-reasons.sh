# SPDX-License-Identifier: GPL-2.0
# Scenario 45 (wasted-core time: why no balancing ran): the same bench
# (sched-shadow bench -m 2 -t 6, 4 s) in windows where the kernel's own
# knobs (sched/domains' max_newidle_lb_cost, min_interval, max_interval,
# on every domain of every CPU) make one reason hold, against the rule
# the module names it by (docs/wasted.md, "Balancing that did not run"):
#   ctl      as booted;
#   noni     max_newidle_lb_cost 10^12 ns: newly idle balancing skips every
#            domain (avg_idle is far below): /proc/schedstat's newidle
#            lb_count must not move (the independent check), and the
#            time of episodes begun at an idle turn is newidle_skipped,
#            never newidle_ratio (the cost rule comes first);
#   short    and min/max_interval 1 ms: every idle balance is due at each
#            jiffy, so the reasons that need the balance due (nohz_no_kick,
#            busy_tick, tick_late, and unknown: due with the tick running)
#            carry a larger share of the no-attempt time than in `long`
#            (most episodes still end before the next tick: interval, by
#            the rule, since the kernel balances an idle CPU only from its
#            tick or a NOHZ kick);
#   long     and min/max_interval 500 ms: the idle balance waits for its
#            interval: interval (with newidle_skipped before it) is most
#            of the no-attempt time, and the balance is rarely due (the
#            due reasons under 5 % of it).
# The knobs are restored after.  Each window's no_attempt rows are printed.
# plan: 6
# timeout: 180
need_module "wasted reasons: module loaded" || return 0
D=/sys/kernel/debug/sched/domains
[ -d $D ] || D=/proc/sys/kernel/sched_domain
if ! ls $D/cpu0/domain0/max_newidle_lb_cost > /dev/null 2>&1; then
	for i in 1 2 3 4 5 6; do
		tap_skip "wasted reasons: check $i" "no writable sched_domain knobs ($D: CONFIG_SCHED_DEBUG off?)"
	done
	return 0
fi
pin_shell_last_cpu > /dev/null
CLI=$(command -v sched-shadow)
all=$(printf '%x' $(( (1 << $(ncpus)) - 1 )))
old_ss=$(cat /proc/sys/kernel/sched_schedstats)
echo 1 > /proc/sys/kernel/sched_schedstats
# the knobs as booted, to restore
for f in $D/cpu*/domain*/max_newidle_lb_cost $D/cpu*/domain*/min_interval $D/cpu*/domain*/max_interval; do
	echo "$f $(cat "$f")"
done > /tmp/w45.knobs

# knob NAME VALUE: on every domain of every CPU
knob() {
	local f
	for f in $D/cpu*/domain*/"$1"; do
		echo "$2" > "$f" 2>/dev/null || return 1
	done
}

# newidle lb_count over every CPU's domains (schedstat v15: 8 counters per idle type, v17: 11 and the name)
newidle() {
	awk '/^version/ { v = $2 } /^domain/ { named = v >= 17; per = named ? 11 : 8; first = named ? 4 : 3
		s += $(first + 2 * per) } END { print s + 0 }' /proc/schedstat
}

# w45 NAME: one window; its no_attempt rows (ms per reason) in /tmp/w45-NAME.na, newidle lb_count delta
w45() {
	local name=$1 n0 n1
	echo 1 > "$SS/reset"
	sleep 0.2
	n0=$(newidle)
	taskset "$all" "$CLI" bench -m 2 -t 6 -r 4 > /tmp/w45-$name.bench 2>&1
	n1=$(newidle)
	echo 0 > "$SS/enable"
	sleep 0.1
	cat "$SS/wasted_attrib" > /tmp/w45-$name.attrib
	echo 1 > "$SS/enable"
	echo $((n1 - n0)) > /tmp/w45-$name.newidle
	awk '$1 == "all" { t += $6 } $1 == "all" && $3 == "no_attempt" { r[$4] += $6; n += $6 }
		END { printf "total %.1f no_attempt %.1f", t, n
		      for (k in r) printf " %s %.1f", k, r[k]; printf "\n" }' /tmp/w45-$name.attrib > /tmp/w45-$name.na
	diag "$name: newidle balancing ran $(cat /tmp/w45-$name.newidle) times; wasted ms: $(cat /tmp/w45-$name.na)"
}

# v NAME KEY: a value of the window's summary line (0 if absent)
v() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); f = 1 } } END { if (!f) print 0 }' /tmp/w45-$1.na; }

w45 ctl
ok=1
knob max_newidle_lb_cost 1000000000000 || ok=0
w45 noni
knob min_interval 1 && knob max_interval 1 || ok=0
w45 short
knob max_interval 500 && knob min_interval 500 || ok=0
w45 long
while read -r f val; do
	echo "$val" > "$f" 2>/dev/null
done < /tmp/w45.knobs
echo "$old_ss" > /proc/sys/kernel/sched_schedstats
[ $ok = 1 ]
check $? "wasted reasons: the knobs took every write ($D/cpu*/domain*/{max_newidle_lb_cost,min_interval,max_interval}), restored after"

[ "$(cat /tmp/w45-ctl.newidle)" -gt 0 ] && [ "$(cat /tmp/w45-noni.newidle)" -eq 0 ]
check $? "wasted reasons: newly idle balancing ran as booted ($(cat /tmp/w45-ctl.newidle)) and never with max_newidle_lb_cost 10^12 ($(cat /tmp/w45-noni.newidle), /proc/schedstat)"
awk -v s="$(v noni newidle_skipped)" -v r="$(v noni newidle_ratio)" 'BEGIN { exit !(s > 0 && r == 0) }'
check $? "wasted reasons: newidle off by its cost: newidle_skipped carries time ($(v noni newidle_skipped) ms), newidle_ratio none ($(v noni newidle_ratio) ms)"
# the due reasons' share of the no_attempt time (%)
due() { awk -v n="$(v "$1" nohz_no_kick)" -v u="$(v "$1" unknown)" -v t="$(v "$1" no_attempt)" \
	-v b="$(v "$1" busy_tick)" -v l="$(v "$1" tick_late)" \
	'BEGIN { printf "%.1f", (t > 0 ? 100 * (n + u + b + l) / t : 0) }'; }
awk -v s="$(due short)" -v l="$(due long)" -v n="$(v short nohz_no_kick)" 'BEGIN { exit !(n > 0 && s + 0 > l + 0) }'
check $? "wasted reasons: intervals of 1 ms: nohz_no_kick carries time, and the due reasons (nohz_no_kick, busy_tick, tick_late, unknown) a larger share of the no_attempt time than with 500 ms ($(due short) % vs $(due long) %; $(cat /tmp/w45-short.na))"
awk -v i="$(v long interval)" -v s="$(v long newidle_skipped)" -v n="$(v long no_attempt)" \
	'BEGIN { exit !(n > 0 && i + s >= 0.6 * n) }'
check $? "wasted reasons: intervals of 500 ms: interval and newidle_skipped are most of the no_attempt time ($(cat /tmp/w45-long.na))"
awk -v l="$(due long)" -v n="$(v long no_attempt)" 'BEGIN { exit !(n > 0 && l != "" && l + 0 < 5) }'
check $? "wasted reasons: intervals of 500 ms: the balance is rarely due: the due reasons are $(due long) % of the no_attempt time (< 5 %)"
