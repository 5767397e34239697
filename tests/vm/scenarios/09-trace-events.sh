# SPDX-License-Identifier: GPL-2.0
# plan: 8
# Scenario 9: the trace events exist, produce records with the fields the
# LISA/trace-cmd parsers expect plus the shadow values, and stop when
# disabled again.
# timeout: 60
need_module "trace events: module loaded" || return 0
T=/sys/kernel/tracing
E=$T/events/sched_shadow
missing=
for ev in sched_load_cfs_rq sched_load_se; do
	[ -e "$E/$ev/enable" ] || missing="$missing $ev"
done
if [ -n "$missing" ]; then
	not_ok "trace events: sched_shadow events exist" "missing:$missing; have: $(ls $E 2>&1 | tr '\n' ' ')"
	return 0
fi
ok "trace events: sched_load_cfs_rq and sched_load_se exist"
for ev in sched_load_cfs_rq sched_load_se; do
	diag "$ev format: $(sed -n 's/^print fmt: //p' $E/$ev/format | cut -c1-200)"
done

echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $E/sched_load_cfs_rq/enable
echo 1 > $E/sched_load_se/enable
echo 1 > $T/tracing_on
bg t9 burn -t 3 -r 5 -s 5 -d 0 -q --cgroup /tr/a
sleep 1
echo 0 > $T/tracing_on
hse=$(awk '$1 == "hook.pelt_se_tp" { print $2 }' "$SS/info")
bg_stop
[ "$hse" = active ] && ok "trace events: pelt_se_tp attached while sched_load_se is on" ||
	not_ok "trace events: pelt_se_tp attached while sched_load_se is on" "hook.pelt_se_tp $hse"
grep -E 'sched_load_(cfs_rq|se):' $T/trace > /tmp/t9.trace
ncfs=$(grep -c 'sched_load_cfs_rq:' /tmp/t9.trace)
nse=$(grep -c 'sched_load_se:' /tmp/t9.trace)
diag "records in 1 s: sched_load_cfs_rq $ncfs, sched_load_se $nse; examples:"
grep -m 2 'sched_load_cfs_rq:' /tmp/t9.trace | cut -c1-250 | diag
grep -m 2 'sched_load_se:' /tmp/t9.trace | cut -c1-250 | diag
[ "$ncfs" -gt 0 ] && [ "$nse" -gt 0 ] && ok "trace events: both events produce records" ||
	not_ok "trace events: both events produce records" "cfs_rq=$ncfs se=$nse"

fields_ok() {	# fields_ok EVENT FIELD...: every record of EVENT has every FIELD=
	local ev=$1
	shift
	grep "$ev:" /tmp/t9.trace | awk -v f="$*" '
		BEGIN { n = split(f, want, " ") }
		{ for (i = 1; i <= n; i++) if (index($0, " " want[i] "=") == 0) { print "missing " want[i] ": " substr($0, 1, 200); bad = 1; exit } }
		END { exit bad }'
}
m=$(fields_ok sched_load_cfs_rq cpu path load rbl_load util shadow)
[ "$ncfs" -gt 0 ] && [ -z "$m" ] && ok "trace events: sched_load_cfs_rq has cpu path load rbl_load util shadow" ||
	not_ok "trace events: sched_load_cfs_rq has cpu path load rbl_load util shadow" "$m"
m=$(fields_ok sched_load_se cpu path comm pid load rbl_load util)
[ "$nse" -gt 0 ] && [ -z "$m" ] && ok "trace events: sched_load_se has cpu path comm pid load rbl_load util" ||
	not_ok "trace events: sched_load_se has cpu path comm pid load rbl_load util" "$m"
grep -q 'path=/tr/a' /tmp/t9.trace && ok "trace events: records name the cgroup by path (/tr/a)" ||
	not_ok "trace events: records name the cgroup by path (/tr/a)"

echo 0 > $E/sched_load_cfs_rq/enable
echo 0 > $E/sched_load_se/enable
echo > $T/trace
echo 1 > $T/tracing_on
bg t9b burn -t 3 -r 5 -s 5 -d 0 -q --cgroup /tr/a
sleep 0.7
bg_stop
after=$(grep -c 'sched_load_' $T/trace)
[ "$after" -eq 0 ] && ok "trace events: no records once disabled" || not_ok "trace events: no records once disabled" "$after records"
hse=$(awk '$1 == "hook.pelt_se_tp" { print $2 }' "$SS/info")
[ "$hse" = standby:sched_load_se-off ] && ok "trace events: pelt_se_tp detached again once sched_load_se is off" ||
	not_ok "trace events: pelt_se_tp detached again once sched_load_se is off" "hook.pelt_se_tp $hse"
cg_rm /tr
