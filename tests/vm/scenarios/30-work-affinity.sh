# SPDX-License-Identifier: GPL-2.0
# Scenario 30 (work to give per destination): a task
# restricted to one socket is work to give inside that socket only.
# Socket = /sys/devices/system/cpu/cpu2/topology/package_cpus_list (2-3 on
# the 3-socket VM).  Three hogs share its two CPUs, all restricted to it
# (taskset), so one of them always waits; `cpus` is sampled every 5 ms.
# Oracles: /proc/PID/status Cpus_allowed_list of every hog (the socket)
# and /proc/PID/stat (where each runs).  Checks:
#  1. the hogs are restricted to the socket and the samples hold rows of
#     its CPUs with a waiter (the data the scenario builds is there);
#  2. every such row names exactly the socket in work_cpus, never "-";
#     "all" (work for a destination in another socket) only in the rare
#     rows where some other task (an unbound kworker) waits there too;
#  3. no row of a CPU outside the socket names a socket CPU as work;
#  4. a hog pinned to one CPU (nr_cpus_allowed 1) next to them counts
#     as pinned, never as movable.
# plan: 4
# timeout: 90
need_module "work affinity" || return 0
T="work affinity"
res() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2" "$3"; fi; }
shcpu=$(pin_shell_last_cpu)
sock=$(cat /sys/devices/system/cpu/cpu2/topology/package_cpus_list 2>/dev/null ||
	cat /sys/devices/system/cpu/cpu2/topology/core_siblings_list)
first=${sock%%[-,]*}
diag "socket of cpu2: $sock (shell on cpu$shcpu)"
mask=0
for c in $(echo "$sock" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); if (n == 1) print r[1]; else for (c = r[1]; c <= r[2]; c++) print c } }'); do
	mask=$((mask | (1 << c)))
done
bg s30 burn -t 3 -s 0 -d 0 -q --cpu "$first"
bg s30p burn -t 1 -s 0 -d 0 -q --cpu "$first"
pid=$(awk '$2 == "s30" { print $1 }' "$BG_PIDS")
ppid=$(awk '$2 == "s30p" { print $1 }' "$BG_PIDS")
sleep 0.3
tids=
for t in /proc/$pid/task/*; do
	[ "${t##*/}" = "$pid" ] && continue
	taskset -p "$(printf '%x' $mask)" "${t##*/}" > /dev/null
	tids="$tids ${t##*/}"
done
sleep 0.5
allowed=$(for t in $tids; do awk '/^Cpus_allowed_list/ { print $2 }' /proc/$pid/task/$t/status; done | sort -u)
pallowed=$(for t in /proc/$ppid/task/*; do [ "${t##*/}" != "$ppid" ] && awk '/^Cpus_allowed_list/ { print $2 }' $t/status; done)
where=$(for t in $tids; do awk '{ printf "%s ", $39 }' /proc/$pid/task/$t/stat; done)
echo 1 > "$SS/reset"
catn -n 300 -i 5 "$SS/cpus" > /tmp/s30.cpus
bg_stop
diag "hogs$tids: Cpus_allowed_list $allowed, on CPUs $where; pinned hog: $pallowed"

# rows: cpu h_nr_running movable pinned unknown work_cpus void
awk '/^=== ROUND/ { hdr = 0; next } /^# / { next }
	!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
	{ print $1, $(c["h_nr_running"]), $(c["movable"]), $(c["pinned"]), $(c["unknown"]), $(c["work_cpus"]), $(c["void"]) }' \
	/tmp/s30.cpus > /tmp/s30.rows
# the socket's CPUs as " 2 3 ", expanded once (no process per row: 1,800 rows on a slow guest)
scpus=" $(echo "$sock" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); if (n == 1) printf "%s ", r[1]; else for (c = r[1]; c <= r[2]; c++) printf "%s ", c } }')"
in_sock() { case "$scpus" in *" $1 "*) return 0 ;; esac; return 1; }
sockrows=0; allrows=0; bad=; outside=; pinned_rows=0; pinned_bad=
while read -r cpu h mv pin unk wc void; do
	[ "$void" = fresh ] || continue
	if in_sock "$cpu"; then
		if [ "$mv" != - ] && [ "$mv" -ge 1 ]; then
			sockrows=$((sockrows + 1))
			# all: another task (an unbound kworker) waits there too
			if [ "$wc" = all ]; then
				allrows=$((allrows + 1))
			elif [ "$wc" != "$sock" ]; then
				bad="$bad cpu$cpu:movable=$mv,work_cpus=$wc"
			fi
		fi
		if [ "$pin" != - ] && [ "$pin" -ge 1 ]; then
			pinned_rows=$((pinned_rows + 1))
			# the pinned hog waits: the others are the only movable ones
			# (all of them wait when a task of another class runs at the
			# sample, a stopper or an RT kworker: seen once in 155 rows)
			[ "$mv" -le $((h - pin)) ] || pinned_bad="$pinned_bad cpu$cpu:h=$h,movable=$mv,pinned=$pin"
		fi
	else
		case "$wc" in -|all) ;; *) outside="$outside cpu$cpu:$wc" ;; esac
	fi
done < /tmp/s30.rows
diag "rows of socket CPUs with a waiter: $sockrows; with a pinned waiter: $pinned_rows"
res "$([ "$allowed" = "$sock" ] && [ "$pallowed" = "$first" ] && [ "$sockrows" -ge 10 ]; echo $?)" \
	"$T: hogs restricted to socket $sock (Cpus_allowed_list), $sockrows sampled rows with a waiter there" \
	"allowed '$allowed' pinned '$pallowed' rows $sockrows"
res "$([ -z "$bad" ] && [ $((allrows * 50)) -le "$sockrows" ]; echo $?)" \
	"$T: every waiter row of the socket says work_cpus $sock, never - ($allrows of $sockrows say all: another task waited too, <= 2%)" \
	"$(echo $bad | cut -c1-300) all-rows $allrows"
res "$([ -z "$outside" ]; echo $?)" "$T: no CPU outside the socket shows socket-only work" "$outside"
res "$([ "$pinned_rows" -ge 1 ] && [ -z "$pinned_bad" ]; echo $?)" \
	"$T: the hog pinned to cpu$first counts as pinned ($pinned_rows rows), never as movable" \
	"rows $pinned_rows bad:$(echo $pinned_bad | cut -c1-300)"
