# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 7: periodic sleepers (15 ms run / 10 ms sleep) in a nested
# cgroup.  The kernel's root load_avg keeps their blocked load, the shadow
# counts only what is queued, so over a few seconds the mean shadow
# (shadow_mean) must be below the mean real load (real_mean) by the share
# of time the sleepers are not queued, which the kernel's schedstat gives.
# timeout: 60
need_module "sleepers: module loaded" || return 0
cg_mk /p 100
cg_mk /p/a 200
bg sl burn -t 6 -r 15 -s 10 -d 0 -q --cgroup /p/a/b --weight 100
sleep 1.5
# queued time of the sleepers from the kernel's own accounting
# (/proc/TID/schedstat: ns on the CPU, ns waiting on a run queue) over the
# same window as the module's means
slpid=$(awk '$2 == "sl" { print $1 }' "$BG_PIDS")
qstat() { read -r up _ < /proc/uptime; echo "up $up"; cat /proc/$slpid/task/*/schedstat; }
echo 1 > "$SS/reset"
qstat > /tmp/s7.q0
sleep 5
ss_rows cpus cpu samples shadow_mean real_mean div_mean > /tmp/s7
qstat > /tmp/s7.q1
bg_stop
cg_rm /p
diag "cpu samples shadow_mean real_mean div_mean:"
diag "$(cat /tmp/s7)"
# shellcheck disable=SC2046 # words into the positional parameters, on purpose
set -- $(awk '$3 != "-" && $4 != "-" { s += $3; r += $4; n += $2 } END { printf "%d %d %d\n", s, r, n }' /tmp/s7)
sh_sum=$1 real_sum=$2 nsamp=$3
ratio=$(awk -v s=$sh_sum -v r=$real_sum 'BEGIN { printf "%.3f", r ? s / r : 0 }')
diag "sum over CPUs: shadow_mean $sh_sum, real_mean $real_sum, shadow/real $ratio, $nsamp samples"
if [ "$nsamp" -gt 0 ] && [ "$real_sum" -gt 0 ]; then ok "sleepers: statistics collected ($nsamp samples)"; else not_ok "sleepers: statistics collected" "samples=$nsamp real_mean sum=$real_sum"; fi
# Not only the direction of the gap: its size.  The root load_avg keeps a
# sleeper's load while it sleeps (blocked load, decaying with a 32 ms
# half-life, much longer than the 25 ms period), the shadow holds it only
# while the task is queued, so shadow_mean / real_mean is about the
# fraction of time the sleepers are queued (running or waiting).  That
# fraction comes from the kernel (schedstat), not from the module: the two
# must agree within 0.15 (the task's own load_avg ripples within a period,
# and the hierarchy's min(S * w / W, w) clamp differs between the two).
qfrac=$(cat /tmp/s7.q0 /tmp/s7.q1 | awk '
	$1 == "up" { n++; t[n] = $2; k = 0; next }
	{ k++; v[n, k] = $1 + $2; m = k }
	END { busy = 0; for (i = 1; i <= m; i++) { d = v[2, i] - v[1, i]; if (d > 0) { s += d; busy++ } }
	      dt = (t[2] - t[1]) * 1e9; printf "%.3f %d\n", (busy && dt > 0) ? s / (busy * dt) : 0, busy }')
set -- $qfrac
qf=$1 qthreads=$2
diag "queued fraction of the $qthreads sleeper threads (schedstat run + wait over the window): $qf; shadow/real $ratio"
if [ "$real_sum" -gt 0 ] && [ "$qthreads" -ge 6 ] &&
   awk -v r=$ratio -v q=$qf 'BEGIN { d = r - q; if (d < 0) d = -d; exit !(r > 0 && r <= 0.9 && d <= 0.15) }'; then
	ok "sleepers: mean shadow / mean real load $ratio = queued fraction $qf (within 0.15) and <= 0.9"
else
	not_ok "sleepers: mean shadow / mean real load $ratio = queued fraction $qf (within 0.15) and <= 0.9" "$qthreads threads"
fi
