# SPDX-License-Identifier: GPL-2.0
# Scenario 9: the trace events exist, produce records with the fields the
# LISA/trace-cmd parsers expect plus cgid and the shadow values, with
# Android's path meaning (sched_load_se: the group entity's own queue,
# "(null)" for a task), paths escaped like `groups` (a cgroup named with a
# space), cut with the documented marker (a path over 127 bytes), cgid equal
# to the cgroup's id (its cgroup2 inode number, an independent oracle), no
# kernel complaint (sleeping function, lockdep) while they run, and they
# stop when disabled again.
# plan: 13
# timeout: 90
need_module "trace events: module loaded" || return 0
T=/sys/kernel/tracing
E=$T/events/sched_shadow
mark9=$(dmesg_mark)
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

# three groups: a plain one, one named with a space, one whose path is
# 4 + 140 = 144 bytes (over the 127 a path field holds)
long=$(awk 'BEGIN { while (i++ < 140) printf "l" }')
cg_mk /tr/a
cg_mk "/tr/sp ace"
cg_mk "/tr/$long"
id_a=$(stat -c %i $CG/tr/a) id_sp=$(stat -c %i "$CG/tr/sp ace") id_long=$(stat -c %i "$CG/tr/$long")
diag "cgroup ids (cgroup2 inode numbers): /tr/a $id_a, '/tr/sp ace' $id_sp, /tr/l...l $id_long"

echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $E/sched_load_cfs_rq/enable
echo 1 > $E/sched_load_se/enable
echo 1 > $T/tracing_on
bg t9 burn -t 2 -r 5 -s 5 -d 0 -q --cgroup /tr/a
bg t9s burn -t 1 -r 5 -s 5 -d 0 -q --cgroup "/tr/sp ace"
bg t9l burn -t 1 -r 5 -s 5 -d 0 -q --cgroup "/tr/$long"
sleep 0.5
# a group created while the events run: unknown to the path cache until a
# miss has it refreshed (irq_work -> work item), never waited for
ref0=$(awk '$1 == "trace.path_cache.refreshes" { print $2 }' "$SS/info")
cg_mk /tr/late
id_late=$(stat -c %i $CG/tr/late)
bg t9n burn -t 1 -r 5 -s 5 -d 0 -q --cgroup /tr/late
sleep 1
ref1=$(awk '$1 == "trace.path_cache.refreshes" { print $2 }' "$SS/info")
echo 0 > $T/tracing_on
hse=$(awk '$1 == "hook.pelt_se_tp" { print $2 }' "$SS/info")
hcf=$(awk '$1 == "hook.pelt_cfs_tp.trace" { print $2 }' "$SS/info")
bg_stop
[ "$hse" = active ] && [ "$hcf" = active ] && ok "trace events: the feed's pelt_se_tp and pelt_cfs_tp probes attached while the events are on" ||
	not_ok "trace events: the feed's pelt_se_tp and pelt_cfs_tp probes attached while the events are on" "hook.pelt_se_tp $hse hook.pelt_cfs_tp.trace $hcf"
grep -E 'sched_load_(cfs_rq|se):' $T/trace > /tmp/t9.trace
ncfs=$(grep -c 'sched_load_cfs_rq:' /tmp/t9.trace)
nse=$(grep -c 'sched_load_se:' /tmp/t9.trace)
nun=$(grep -c 'path=(unresolved)' /tmp/t9.trace)
diag "records: sched_load_cfs_rq $ncfs, sched_load_se $nse ($nun with path=(unresolved): groups new to the path cache); examples:"
grep -m 2 'sched_load_cfs_rq:' /tmp/t9.trace | cut -c1-250 | diag
grep -m 2 'sched_load_se:.*pid=-1 ' /tmp/t9.trace | cut -c1-250 | diag
grep -m 1 'sched_load_se:.*comm=burn' /tmp/t9.trace | cut -c1-250 | diag
grep -E '^trace\.path_cache' "$SS/info" | tr '\n' ' ' | diag
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
m=$(fields_ok sched_load_cfs_rq cpu path cgid load rbl_load util shadow)
[ "$ncfs" -gt 0 ] && [ -z "$m" ] && ok "trace events: sched_load_cfs_rq has cpu path cgid load rbl_load util shadow" ||
	not_ok "trace events: sched_load_cfs_rq has cpu path cgid load rbl_load util shadow" "$m"
m=$(fields_ok sched_load_se cpu path cgid comm pid load rbl_load util)
[ "$nse" -gt 0 ] && [ -z "$m" ] && ok "trace events: sched_load_se has cpu path cgid comm pid load rbl_load util" ||
	not_ok "trace events: sched_load_se has cpu path cgid comm pid load rbl_load util" "$m"

# field VALUE of key=value tokens: path and cgid per record, by event
kv() {	# kv EVENT: "path cgid pid" per record of EVENT
	grep "$1:" /tmp/t9.trace | awk '{ p = c = d = "-"
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^path=/) p = substr($i, 6)
			else if ($i ~ /^cgid=/) c = substr($i, 6)
			else if ($i ~ /^pid=/) d = substr($i, 5)
		}
		print p, c, d }'
}
kv sched_load_cfs_rq > /tmp/t9.cfs
kv sched_load_se > /tmp/t9.se
# a path and its cgid agree with the cgroup2 oracle wherever either names /tr/a
r=$(awk -v id="$id_a" '$1 == "/tr/a" || $2 == id { n++; if ($1 != "/tr/a" && $1 != "(unresolved)" || $2 != id) { bad++; ex = $0 } if ($1 == "/tr/a") good++ }
	END { print n + 0, good + 0, bad + 0, ex }' /tmp/t9.cfs)
set -- $r
[ "$2" -gt 0 ] && [ "$3" -eq 0 ] && ok "trace events: sched_load_cfs_rq names /tr/a by path and cgid $id_a ($2 of $1 records resolved)" ||
	not_ok "trace events: sched_load_cfs_rq names /tr/a by path and cgid $id_a" "$1 records, $2 with the path, $3 disagree: $4"
# Android's meaning: tasks (pid > 0) have path (null) and cgid 0, group
# entities (pid -1) their own queue's path: /tr/a's entity says /tr/a
r=$(awk -v id="$id_a" '$3 > 0 { t++; if ($1 != "(null)" || $2 != 0) { bad++; ex = $0 } }
	$3 == -1 { g++; if ($1 == "(null)") { bad++; ex = $0 } if ($1 == "/tr/a" && $2 == id) own++ }
	END { print t + 0, g + 0, own + 0, bad + 0, ex }' /tmp/t9.se)
set -- $r
[ "$1" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -eq 0 ] &&
	ok "trace events: sched_load_se: tasks path=(null) cgid=0 ($1), group entities their own queue ($2, /tr/a's: $3)" ||
	not_ok "trace events: sched_load_se: tasks path=(null) cgid=0, group entities their own queue" "tasks $1 groups $2 /tr/a's $3 bad $4: $5"
# escaping: the space is \040, as in `groups`; no record carries it raw
r=$(cat /tmp/t9.cfs /tmp/t9.se | awk -v id="$id_sp" '$2 == id { n++; if ($1 != "/tr/sp\\040ace" && $1 != "(unresolved)") { bad++; ex = $0 } if ($1 == "/tr/sp\\040ace") good++ }
	END { print n + 0, good + 0, bad + 0, ex }')
set -- $r
raw=$(grep -c 'sp ace' /tmp/t9.trace)
[ "$2" -gt 0 ] && [ "$3" -eq 0 ] && [ "$raw" -eq 0 ] && ok "trace events: a cgroup named 'sp ace' is path=/tr/sp\\040ace ($2 records)" ||
	not_ok "trace events: a cgroup named 'sp ace' is path=/tr/sp\\040ace" "cgid $id_sp: $1 records, $2 escaped, $3 other, $raw raw: $4"
# truncation: 123 bytes of the path, then the marker \..., 127 in all
want="$(echo "/tr/$long" | cut -c1-123)\\..."
r=$(cat /tmp/t9.cfs /tmp/t9.se | W=$want awk -v id="$id_long" 'BEGIN { w = ENVIRON["W"] } $2 == id { n++; if ($1 != w && $1 != "(unresolved)") { bad++; ex = $0 } if ($1 == w) good++ }
	END { print n + 0, good + 0, bad + 0, ex }')
set -- $r
[ "$2" -gt 0 ] && [ "$3" -eq 0 ] && [ ${#want} -eq 127 ] && ok "trace events: a 144-byte path is cut to 123 bytes + \\... ($2 records)" ||
	not_ok "trace events: a 144-byte path is cut to 123 bytes + \\..." "cgid $id_long: $1 records, $2 cut as documented, $3 other: $(echo "$4" | cut -c1-200)"

# the late group: (unresolved) at first at most, then its path, and the
# cache refreshed at least once more on the miss
r=$(cat /tmp/t9.cfs /tmp/t9.se | awk -v id="$id_late" '$2 == id { n++; if ($1 == "(unresolved)") u++; else if ($1 == "/tr/late") good++; else { bad++; ex = $0 } }
	END { print n + 0, u + 0, good + 0, bad + 0, ex }')
set -- $r
[ "$3" -gt 0 ] && [ "$4" -eq 0 ] && [ "$ref1" -gt "$ref0" ] &&
	ok "trace events: a group created while tracing is resolved by a refresh ($2 unresolved, then $3 /tr/late; refreshes $ref0 -> $ref1)" ||
	not_ok "trace events: a group created while tracing is resolved by a refresh" "cgid $id_late: $1 records, $2 unresolved, $3 resolved, $4 other ($5); refreshes $ref0 -> $ref1"

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
hcf=$(awk '$1 == "hook.pelt_cfs_tp.trace" { print $2 }' "$SS/info")
[ "$hse" = standby:sched_load_se-off ] && [ "$hcf" = standby:sched_load_cfs_rq-off ] &&
	ok "trace events: the feed's probes detached again once the events are off" ||
	not_ok "trace events: the feed's probes detached again once the events are off" "hook.pelt_se_tp $hse hook.pelt_cfs_tp.trace $hcf"
cg_rm /tr
dmesg_clean "$mark9" "trace events: no kernel warning while they ran (sleeping function, lockdep, BUG)"
