# SPDX-License-Identifier: GPL-2.0
# plan: 10
# Scenario 2: the debugfs files follow docs/debugfs.md: modes, version
# lines, exact header rows, one cpus row per possible CPU, no kernel
# addresses anywhere.
# timeout: 60
need_module "formats: module loaded" || return 0

bad=
for f in info cpus groups reset enable; do
	[ -e "$SS/$f" ] || { bad="$bad $f:missing"; continue; }
	m=$(stat -c '%a %u' "$SS/$f")
	case $f in reset) want="200 0" ;; enable) want="600 0" ;; *) want="400 0" ;; esac
	[ "$m" = "$want" ] || bad="$bad $f:mode=$m(want $want)"
done
if [ -z "$bad" ]; then ok "formats: files present, modes 0400/0600/0200, owner root"; else not_ok "formats: files present, modes 0400/0600/0200, owner root" "$bad"; fi

hdr_info='key value'
hdr_cpus='cpu online nr_running h_nr_running movable load_avg runnable_avg util_avg weight capacity shadow shadow_avg shadow_fresh h_load samples div_mean div_max shadow_mean real_mean fresh_mean h_load_mean published discarded over_budget deferred pinned unknown work_cpus void'
hdr_groups='cpu cgid depth se_weight cfs_weight load_avg runnable_avg util_avg task_load nr_tasks h_tasks shadow shadow_avg shadow_fresh h_load path'
for f in info cpus groups; do
	eval want=\$hdr_$f
	v=$(sed -n 1p "$SS/$f")
	h=$(sed -n 2p "$SS/$f")
	if [ "$v" = "# sched_shadow $f v1" ] && [ "$h" = "$want" ]; then
		ok "formats: $f version line and header row"
	else
		not_ok "formats: $f version line and header row" "line 1: '$v'
line 2: '$h'
want:   '$want'"
	fi
	ncol=$(echo "$want" | wc -w)
	badrows=$(awk -v n="$ncol" 'NR > 2 && NF != n { print NR": "$0 }' "$SS/$f" | head -n 5)
	[ -r "$SS/$f" ] || badrows="$SS/$f not readable"
	[ "$f" != groups ] && [ $(wc -l < "$SS/$f" 2>/dev/null || echo 0) -lt 3 ] && badrows="$badrows (no data rows)"
	if [ -z "$badrows" ]; then ok "formats: $f rows have $ncol columns"; else not_ok "formats: $f rows have $ncol columns" "$badrows"; fi
done

possible=$(cat /sys/devices/system/cpu/possible)
want_rows=$(echo "$possible" | awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }')
rows=$(ss_rows cpus | wc -l)
if [ "$rows" = "$want_rows" ]; then ok "formats: cpus has one row per possible CPU ($rows)"; else not_ok "formats: cpus has one row per possible CPU" "possible=$possible rows=$rows"; fi

e=$(cat "$SS/enable")
if [ "$e" = 1 ]; then ok "formats: enable reads 1 after load"; else not_ok "formats: enable reads 1 after load" "got '$e'"; fi

addr=$(cat "$SS/info" "$SS/cpus" "$SS/groups" 2>&1 | grep -E 'No such file|denied' | head -n 3)
[ -z "$addr" ] && addr=$(cat "$SS/info" "$SS/cpus" "$SS/groups" | grep -E -i 'ffff[0-9a-f]{12}|0x[0-9a-f]{8,}' | head -n 3)
if [ -z "$addr" ]; then ok "formats: no kernel addresses"; else not_ok "formats: no kernel addresses" "$addr"; fi
diag "cpus:"
cat "$SS/cpus" | diag
