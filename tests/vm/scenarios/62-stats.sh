# SPDX-License-Identifier: GPL-2.0
# plan: 8
# Scenario 62: debugfs `stats`: format, counters that move while
# the `stats` parameter is on and stop when it is off, reset, strict writes
# to the parameter.  No timing is judged (TCG timing is noise).
# timeout: 60
need_module "stats: module loaded" || return 0
P=/sys/module/sched_shadow/parameters/stats
rows="pelt_cfs_tp pelt_se_tp pelt_cfs_tp.trace sched_update_nr_running_tp sched_switch wasted_wakeup lb_entry lb_return lb_attempt wasted_cmt walk pelt_skipped walk_steps clock_pair"
hdr="name calls sampled mean total max h0 h1 h2 h3 h4 h5 h6 h7 h8 h9 h10 h11 h12 h13 h14 h15"
col() { awk -v r="$1" -v c="$2" 'NR == 2 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR > 2 && $1 == r { print $(h[c]) }' "$SS/stats"; }

m=$(stat -c '%a %u' "$SS/stats") pm=$(stat -c '%a %u' $P 2>/dev/null)
[ "$m" = "400 0" ] && [ "$pm" = "600 0" ] && ok "stats: file 0400, parameter 0600, root" || not_ok "stats: file 0400, parameter 0600, root" "stats=$m param=$pm"
[ "$(cat $P)" = 0 ] && ok "stats: off by default" || not_ok "stats: off by default" "param reads $(cat $P)"

echo 1 > $P
echo 1 > "$SS/reset"
bg s62 burn -t 4 -r 3 -s 3 -d 0 -q
sleep 3
bg_stop
cp "$SS/stats" /tmp/s62.stats
v=$(sed -n 1p /tmp/s62.stats) h=$(sed -n 2p /tmp/s62.stats)
names=$(awk 'NR > 2 { printf "%s%s", s, $1; s = " " }' /tmp/s62.stats)
badcols=$(awk 'NR > 2 && NF != 22' /tmp/s62.stats)
if [ "$v" = "# sched_shadow stats v2" ] && [ "$h" = "$hdr" ] && [ "$names" = "$rows" ] && [ -z "$badcols" ]; then
	ok "stats: version line, header, rows in order, 22 columns"
else
	not_ok "stats: version line, header, rows in order, 22 columns" "$(cat /tmp/s62.stats)"
fi
bad=
for r in pelt_cfs_tp sched_update_nr_running_tp walk; do
	[ "$(col $r calls)" -gt 0 ] 2>/dev/null || bad="$bad $r"
done
[ "$(col walk mean)" != - ] || bad="$bad walk-mean"
hs=$(awk 'NR > 2 && $1 == "sched_update_nr_running_tp" { for (i = 7; i <= NF; i++) s += $i; print s + 0, $3 }' /tmp/s62.stats)
mx=$(col sched_update_nr_running_tp max) mn=$(col sched_update_nr_running_tp mean)
[ "$mx" -ge "$mn" ] 2>/dev/null || bad="$bad max($mx)<mean($mn)"
[ "${hs% *}" = "${hs#* }" ] || bad="$bad hist-sum(${hs% *})!=sampled(${hs#* })"
[ -z "$bad" ] && ok "stats: counters grow under load, histogram sums to sampled, max >= mean" || not_ok "stats: counters grow under load, histogram sums to sampled, max >= mean" "$bad
$(cat /tmp/s62.stats)"
diag < /tmp/s62.stats

# stats=2: every call timed (the bench's maximum per hook call)
echo 2 > $P
echo 1 > "$SS/reset"
bg s62c burn -t 4 -r 3 -s 3 -d 0 -q
sleep 1
bg_stop
cp "$SS/stats" /tmp/s62.every	# one read: the counters move between two
cn=$(awk '$1 == "sched_update_nr_running_tp" { print $2 }' /tmp/s62.every)
sn=$(awk '$1 == "sched_update_nr_running_tp" { print $3 }' /tmp/s62.every)
[ "$(cat $P)" = 2 ] && [ "${cn:-0}" -gt 0 ] && [ "$cn" -ge "$sn" ] && [ $((cn - sn)) -le 8 ] &&
	ok "stats: 2 times every call ($sn of $cn)" || not_ok "stats: 2 times every call" "param $(cat $P), calls $cn sampled $sn"

echo 0 > $P
c0=$(col walk calls)
bg s62b burn -t 4 -r 3 -s 3 -d 0 -q
sleep 1
bg_stop
c1=$(col walk calls)
[ "$c0" = "$c1" ] && [ "$(cat $P)" = 0 ] && ok "stats: off stops counting ($c0)" || not_ok "stats: off stops counting" "$c0 -> $c1"
echo 1 > "$SS/reset"
[ "$(col walk calls)" = 0 ] && [ "$(col sched_update_nr_running_tp calls)" = 0 ] && ok "stats: reset clears" || not_ok "stats: reset clears" "$(cat "$SS/stats")"
bad=
for w in 3 x -1 "1 " "01x"; do
	printf '%s' "$w" > $P 2>/dev/null && bad="$bad '$w'"
done
# one write(2) each: a valid value followed by a NUL and garbage (a
# parameter's set() would see only "1"), and 100 KiB of that
junk=$(awk 'BEGIN { while (i++ < 100000) printf "x" }')
for w in '1\0000' '1\0000garbage' '1\n\0000' "1\\0000$junk"; do
	r=$(wr -e $P "$w")
	[ "$r" = "error EINVAL" ] || bad="$bad '$(echo "$w" | cut -c1-16)'->$r"
done
[ -z "$bad" ] && [ "$(cat $P)" = 0 ] && ok "stats: parameter rejects bad input" || not_ok "stats: parameter rejects bad input" "accepted:$bad"
