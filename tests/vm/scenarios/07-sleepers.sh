# SPDX-License-Identifier: GPL-2.0
# plan: 2
# Scenario 7: periodic sleepers (15 ms run / 10 ms sleep) in a nested
# cgroup.  The kernel's root load_avg keeps their blocked load, the shadow
# counts only what is queued, so over a few seconds the mean shadow
# (shadow_mean) must be measurably below the mean real load (real_mean).
# timeout: 60
need_module "sleepers: module loaded" || return 0
cg_mk /p 100
cg_mk /p/a 200
bg sl burn -t 6 -r 15 -s 10 -d 0 -q --cgroup /p/a/b --weight 100
sleep 1.5
echo 1 > "$SS/reset"
sleep 5
ss_rows cpus cpu samples shadow_mean real_mean div_mean > /tmp/s7
bg_stop
cg_rm /p
diag "cpu samples shadow_mean real_mean div_mean:"
diag "$(cat /tmp/s7)"
set -- $(awk '$3 != "-" && $4 != "-" { s += $3; r += $4; n += $2 } END { printf "%d %d %d\n", s, r, n }' /tmp/s7)
sh_sum=$1 real_sum=$2 nsamp=$3
ratio=$(awk -v s=$sh_sum -v r=$real_sum 'BEGIN { printf "%.3f", r ? s / r : 0 }')
diag "sum over CPUs: shadow_mean $sh_sum, real_mean $real_sum, shadow/real $ratio, $nsamp samples"
if [ "$nsamp" -gt 0 ] && [ "$real_sum" -gt 0 ]; then ok "sleepers: statistics collected ($nsamp samples)"; else not_ok "sleepers: statistics collected" "samples=$nsamp real_mean sum=$real_sum"; fi
if [ "$real_sum" -gt 0 ] && awk -v q=$ratio 'BEGIN { exit !(q > 0 && q <= 0.9) }'; then
	ok "sleepers: mean shadow below mean real load (ratio $ratio <= 0.9)"
else
	not_ok "sleepers: mean shadow below mean real load (ratio $ratio <= 0.9)"
fi
