# SPDX-License-Identifier: GPL-2.0
# Scenario 37 (work to give, the scan's bound): per event the module reads at
# most a fixed number of entries from the tail of rq->cfs_tasks (the scan
# cap: `info`'s waiters.scan_cap, 8 when the module does not print it,
# docs/debugfs.md "Work to give") and counts the queued tasks it did not reach as
# `unknown`, never as nothing.  Hogs pinned to cpu2 (one CPU allowed: each
# waiter the scan reaches is `pinned`), sampled every 5 ms:
#  1. the data is there: rows of cpu2 with every hog queued, in both phases;
#  2. below the cap (cap - 2 hogs): every waiter is seen: pinned = waiters,
#     unknown 0;
#  3. beyond it (2 x cap + 2 hogs): pinned + unknown = waiters exactly,
#     pinned at most the cap (cap - 1 when the scan met the running task),
#     unknown at least waiters - cap (> 0): the rest is `unknown`;
#  4. the unknown waiters count in `movable` (movable = unknown there: the
#     reached ones are pinned), so the audit's answer for cpu2 is unknown,
#     not "no work".
# plan: 4
# timeout: 90
T="scan cap"
need_module "$T" || return 0
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
shcpu=$(pin_shell_last_cpu)
C=2
cap=$(awk '$1 == "waiters.scan_cap" || $1 == "scan_cap" { print $2; exit }' "$SS/info")
src="info waiters.scan_cap"
[ -n "$cap" ] || { cap=8; src="docs/debugfs.md (info has no waiters.scan_cap)"; }
diag "scan cap $cap ($src); hogs pinned to cpu$C, shell on cpu$shcpu"
# sample NHOGS FILE: NHOGS pinned hogs on cpu C; rows of cpu C with all of
# them queued: "h_nr_running movable pinned unknown"
sample() {
	bg s37 burn -t "$1" -s 0 -d 0 -q --cpu $C
	sleep 1
	catn -n 200 -i 5 "$SS/cpus" > /tmp/s37.cpus
	bg_stop
	awk -v c=$C -v n="$1" '/^=== ROUND/ { hdr = 0; next } /^# / { next }
		!hdr { for (i = 1; i <= NF; i++) k[$i] = i; hdr = 1; next }
		$1 == c && $(k["void"]) == "fresh" && $(k["h_nr_running"]) == n {
			print $(k["h_nr_running"]), $(k["movable"]), $(k["pinned"]), $(k["unknown"]) }' /tmp/s37.cpus > "$2"
}
lo=$((cap - 2))
[ $lo -ge 2 ] || lo=2
hi=$((2 * cap + 2))
sample $lo /tmp/s37.lo
sample $hi /tmp/s37.hi
nlo=$(wc -l < /tmp/s37.lo) nhi=$(wc -l < /tmp/s37.hi)
diag "$lo hogs: $nlo rows with all queued, (h_nr_running movable pinned unknown) x repeats:"
sort /tmp/s37.lo | uniq -c | head -n 5 | diag
diag "$hi hogs: $nhi rows with all queued:"
sort /tmp/s37.hi | uniq -c | head -n 5 | diag
res "$([ "$nlo" -ge 20 ] && [ "$nhi" -ge 20 ]; echo $?)" \
	"$T: rows of cpu$C with every hog queued, $lo hogs ($nlo) and $hi hogs ($nhi)" "rows $nlo, $nhi"
# waiters = h_nr_running - 1 (the running hog), or h_nr_running when the
# CPU runs a task of another class at that instant (the stopper of an
# active balance, an RT kworker: seen in 1 of 200 rows): every queued hog
# but the running one is seen either way
bad=$(awk '($3 != $1 - 1 && $3 != $1) || $4 != 0' /tmp/s37.lo | wc -l)
res "$([ "$nlo" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)" \
	"$T: below the cap ($lo hogs): every waiter seen, pinned = waiters, unknown 0 (rows off: $bad of $nlo)" \
	"$(awk '$3 != $1 - 1 || $4 != 0' /tmp/s37.lo | head -n 3 | tr '\n' ';')"
# Beyond the cap a rescan sees $cap entries and counts the rest unknown;
# hogs that arrived one at a time were each seen as they came (waiters.c
# keeps its summary per event), so rows may be exact: what must hold is
# that every waiter is counted once, known or unknown, and that the known
# ones are at least what a rescan sees.
exact=$(awk '$4 == 0' /tmp/s37.hi | wc -l)
diag "$exact of $nhi rows beyond the cap count every waiter as known (seen as they came)"
bad=$(awk -v cap=$cap '($3 + $4 != $1 - 1 && $3 + $4 != $1) || $3 < cap - 1' /tmp/s37.hi | wc -l)
res "$([ "$nhi" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)" \
	"$T: beyond the cap ($hi hogs): pinned + unknown = waiters, pinned >= $cap - 1 (rows off: $bad of $nhi)" \
	"$(awk -v cap=$cap '($3 + $4 != $1 - 1 && $3 + $4 != $1) || $3 < cap - 1' /tmp/s37.hi | head -n 3 | tr '\n' ';')"
bad=$(awk '$2 != $4' /tmp/s37.hi | wc -l)
res "$([ "$nhi" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)" \
	"$T: the unknown waiters count in movable (movable = unknown on every row: $bad of $nhi off)" \
	"$(awk '$2 != $4' /tmp/s37.hi | head -n 3 | tr '\n' ';')"
