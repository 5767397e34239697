# SPDX-License-Identifier: GPL-2.0
# Guest-side TAP helpers for the sched_shadow VM scenarios (busybox sh).
# The init script sources this file, then sources each scenario in its own
# shell.  Results go to the console (for people) and to fd 3, the second
# serial port the host parses (TAP and exported files, in program order).
#
#   ok NAME                 passed check
#   not_ok NAME [WHY]       failed check (WHY becomes a diagnostic)
#   check RC NAME           ok if RC is 0, not_ok otherwise
#   tap_skip NAME WHY       skipped check, says why; counted apart, never a pass
#   diag TEXT... | diag     diagnostic lines ("# ...")
#   vm_export NAME FILE     send FILE to the host as build/vm-out/NAME
#                           (prefixed with $VM_EXPORT_PREFIX: make test-mutants)
#   dmesg_mark              print the current dmesg line count
#   dmesg_since MARK        print dmesg lines after MARK
#   dmesg_clean MARK NAME   check: no WARNING/BUG/Oops/stall/lockup since MARK
#   load_module [KO]        insmod (no-op if loaded); unload_module: rmmod
#   need_module NAME        load the module or record NAME as failed (returns 1)
#   bg NAME CMD...          start CMD in the background (output: /tmp/NAME.log)
#   bg_stop                 stop every background command started by bg
#   ss_rows FILE [COL...]   rows of a sched_shadow table, selected columns
#   wait_converge MAX_S     wait until every CPU's load_avg is stable

SS=/sys/kernel/debug/sched_shadow
KO=${KO:-/lib/vm/sched_shadow.ko}
TAP_STATE=/run/tap.state
BG_PIDS=/run/bg.pids
CG=/sys/fs/cgroup

_emit() {
	echo "$*"
	[ -e /proc/self/fd/3 ] && echo "$*" >&3
	return 0
}

_tap_count() {	# _tap_count pass|fail|skip -> prints the new test number
	local n p f k
	read -r n p f k < "$TAP_STATE" 2>/dev/null || { n=0 p=0 f=0 k=0; }
	n=$((n + 1))
	case $1 in
	pass) p=$((p + 1)) ;;
	skip) k=$((${k:-0} + 1)) ;;
	*) f=$((f + 1)) ;;
	esac
	echo "$n $p $f ${k:-0}" > "$TAP_STATE"
	echo "$n"
}

# the last result line, for the harness's "where" when a scenario stops early
_tap_last() { echo "$*" > /run/tap.last; }
ok() { local l; l="ok $(_tap_count pass) - $*"; _emit "$l"; _tap_last "$l"; }
not_ok() {
	local name=$1 l
	shift
	l="not ok $(_tap_count fail) - $name"
	_emit "$l"
	_tap_last "$l"
	[ $# -gt 0 ] && diag "$*"
	return 0
}
check() {
	local rc=$1
	shift
	if [ "$rc" -eq 0 ]; then ok "$@"; else not_ok "$@"; fi
}
tap_skip() { local l; l="ok $(_tap_count skip) - $1 # SKIP $2"; _emit "$l"; _tap_last "$l"; }

diag() {
	if [ $# -gt 0 ]; then
		echo "$*" | sed 's/^/# /' | while IFS= read -r l; do _emit "$l"; done
	else
		sed 's/^/# /' | while IFS= read -r l; do _emit "$l"; done
	fi
}

# Export a file to the host: gzip'ed and base64'ed between marker lines on
# the TAP port only (keeps the console readable).  The host writes
# build/vm-out/NAME and checks its size.  Compressed because the emulated
# serial port is the slowest part of a scenario: the suite's 6.5 MB of
# exports (tables and traces) shrink about tenfold.
vm_export() {
	local name=${VM_EXPORT_PREFIX:-}$1 file=$2 size snap
	case $name in
	*[!A-Za-z0-9._-]*|''|.*) diag "vm_export: bad name '$name'"; return 1 ;;
	esac
	[ -f "$file" ] || { diag "vm_export: no file $file"; return 1; }
	# one read of FILE: a live file (/proc/schedstat) changes between two
	# reads, and its size then no longer matches what was sent
	snap=/tmp/.vm_export.$name
	cat "$file" > "$snap" || { rm -f "$snap"; diag "vm_export: cannot read $file"; return 1; }
	size=$(wc -c < "$snap")
	# the notice goes to the console only: stdout may be a pipe whose
	# reader also writes to fd 3, and must not land inside the payload
	echo "# exporting $file as $name ($size bytes)" > /dev/console
	{
		echo "=== VM_EXPORT BEGIN $name $size gzip ==="
		gzip -c "$snap" | base64
		echo "=== VM_EXPORT END $name ==="
	} >&3
	rm -f "$snap"
}

# --- kernel log --------------------------------------------------------
# The one pattern of a bad kernel line, for the guest (dmesg) and the host
# (run-vm.sh reads this very line and applies it to the console's kernel
# lines): warnings, BUGs and Oopses, stalls and lockups, hung tasks, general
# protection faults, invalid opcodes (BUG() on x86), sanitizer reports and
# list corruption.  Keep it one single-quoted line.
DMESG_BAD='WARNING|BUG|Oops|RCU stall|detected stall|self-detected stall|soft lockup|hard LOCKUP|hung task|blocked for more than|general protection|invalid opcode|Call Trace|kernel panic|Kernel panic|UBSAN|KASAN|KFENCE|list_add corruption|list_del corruption|list corruption'

dmesg_mark() { dmesg | wc -l; }
dmesg_since() { dmesg | tail -n +$(($1 + 1)); }
dmesg_clean() {
	local mark=$1 name=$2 bad
	bad=$(dmesg_since "$mark" | grep -E "$DMESG_BAD")
	if [ -z "$bad" ]; then
		ok "$name"
	else
		not_ok "$name"
		dmesg_since "$mark" | grep -E -B2 -A20 "$DMESG_BAD" | head -n 60 | diag
	fi
}

# --- module --------------------------------------------------------------
module_loaded() { grep -q '^sched_shadow ' /proc/modules; }

# shellcheck disable=SC2120 # an optional module file, $KO when none
load_module() {
	local ko=${1:-$KO} out
	module_loaded && return 0
	if [ ! -f "$ko" ]; then
		echo "no module file $ko" > /tmp/insmod.err
		return 1
	fi
	# modload: one finit_module() (busybox insmod retries with init_module);
	# /run/ko.params: parameters every (re)load gets while it exists (the lb
	# scenarios' rule calibration; each scenario runs in its own shell), all
	# in modload's one PARAMS argument
	out=$(modload "$ko" "$(cat /run/ko.params 2>/dev/null)" 2>&1)
	local rc=$?
	echo "$out" > /tmp/insmod.err
	return $rc
}

unload_module() {
	module_loaded || return 0
	rmmod sched_shadow 2>/tmp/rmmod.err
}

# need_module NAME: make sure the module is loaded; if it cannot be, record
# NAME as failed with the reason and return 1 (the scenario then stops).
need_module() {
	if load_module; then
		return 0
	fi
	not_ok "$1" "module not loaded: $(cat /tmp/insmod.err 2>/dev/null)"
	dmesg | grep -i sched_shadow | tail -n 5 | diag
	return 1
}

# --- background workloads -----------------------------------------------
bg() {
	local name=$1
	shift
	"$@" > "/tmp/$name.log" 2>&1 &
	echo "$! $name" >> "$BG_PIDS"
}

bg_stop() {
	local pid name
	[ -f "$BG_PIDS" ] || return 0
	while read -r pid name; do
		kill -TERM "$pid" 2>/dev/null
	done < "$BG_PIDS"
	sleep 0.3
	while read -r pid name; do
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done < "$BG_PIDS"
	rm -f "$BG_PIDS"
}

# Write VALUE into cgroup file, creating the cgroup dir and enabling +cpu
# in every ancestor (cg_mk /t/a/b [weight]).
cg_mk() {
	local path=${1#/} w=$2 cur=$CG comp
	local IFS=/
	for comp in $path; do
		echo +cpu > "$cur/cgroup.subtree_control" 2>/dev/null
		cur=$cur/$comp
		mkdir -p "$cur"
	done
	unset IFS
	[ -n "$w" ] && echo "$w" > "$cur/cpu.weight"
	return 0
}

# Remove a cgroup tree (children first); processes must be gone.
cg_rm() {
	local d=$CG/${1#/}
	[ -d "$d" ] || return 0
	find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	return 0
}

# --- sched_shadow tables --------------------------------------------------
# ss_rows FILE [COL...]: data rows of FILE (no version/header line), with
# only the named columns (in that order) when COLs are given.
ss_rows() {
	local f=$1
	shift
	awk -v cols="$*" '
		NR == 1 { next }
		NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(cols, want, " "); next }
		{
			if (n == 0) { print; next }
			line = ""
			for (i = 1; i <= n; i++) {
				v = (want[i] in c) ? $(c[want[i]]) : "?"
				line = line (i > 1 ? " " : "") v
			}
			print line
		}' "$SS/$f"
}

# Sum one numeric column of `cpus` over online CPUs ("-" counts as 0).
ss_sum() { ss_rows cpus "$1" | awk '$1 != "-" { s += $1 } END { printf "%d\n", s }'; }

# wait_converge MAX_S [SKIP_CPU]: poll cpus every 0.5 s until no CPU's
# load_avg (except SKIP_CPU, e.g. the one running the readers) moved by more
# than 3% (or 20 units) between two samples; returns 1 on timeout.
wait_converge() {
	local max=${1:-5} skip=${2:--1} t=0 prev cur
	prev=$(ss_rows cpus cpu load_avg)
	while [ "$t" -lt $((max * 2)) ]; do
		sleep 0.5
		t=$((t + 1))
		cur=$(ss_rows cpus cpu load_avg)
		if printf '%s\n--\n%s\n' "$prev" "$cur" | awk -v skip="$skip" '
			$0 == "--" { second = 1; next }
			$1 == skip { next }
			!second { a[$1] = $2; next }
			{ d = $2 - a[$1]; if (d < 0) d = -d; tol = $2 * 0.03; if (tol < 20) tol = 20; n++
			  if ($2 == "-" || a[$1] == "-" || d > tol) bad = 1 }
			END { exit bad || !n }'; then
			diag "converged after $((t * 5 / 10)).$((t * 5 % 10)) s"
			return 0
		fi
		prev=$cur
	done
	diag "load_avg still moving after $max s"
	return 1
}

ncpus() { grep -c '^processor' /proc/cpuinfo; }

# pin_shell_last_cpu: keep this shell and everything it forks on the last
# CPU, so that the readers' own (fresh, full) load lands on one known CPU;
# prints that CPU number.
pin_shell_last_cpu() {
	local last=$(($(ncpus) - 1))
	taskset -p "$(printf '%x' $((1 << last)))" $$ >/dev/null
	echo $last
}

# ---- load-balancer audit scenarios (2x-lb-*) ----

# lb_need NAME: common start of an audit scenario: remember where dmesg
# was for the final check, need the module and its `lb` file.
lb_need() {
	[ -f /run/lb.mark ] || dmesg_mark > /run/lb.mark
	# the first lb scenario reloads the module with the rule calibration
	# (lb_rules_learn=LB_LEARN judged attempts, 2000 by default; 0 = none):
	# the model is calibrated on those attempts and measured on all later
	# ones (tests/vm/host/lb_agreement.py prints both); every judged attempt
	# also gathers the rules' evidence (lb_evidence=1)
	if [ ! -f /run/lb.calib ]; then
		: > /run/lb.calib
		if unload_module; then
			echo "lb_evidence=1 lb_rules_learn=${LB_LEARN:-2000}" > /run/ko.params
			load_module || diag "load with $(cat /run/ko.params) failed: $(cat /tmp/insmod.err)"
		fi
	fi
	need_module "$1: module loaded" || return 1
	lb_dis_arm
	if [ ! -r "$SS/lb" ]; then
		not_ok "$1: $SS/lb exists" "feature: $(awk '$1 == "feature.lb_audit"' "$SS/info")"
		return 1
	fi
}

# lb_dis_arm: record every lb_verdict event whose model disagrees with the
# kernel (cause != agree) in the tracefs instance lbdis, apart from the
# scenarios' own use of the top-level buffer; re-armed by every lb scenario
# (a module reload removes the event from the instance).  lb_model_export
# exports what it holds since the last export as lbdis-N.txt (next to
# lbmodel-N.info), for tests/vm/host/lb_disagree.py.
LBDIS=/sys/kernel/tracing/instances/lbdis
lb_dis_arm() {
	[ -d "$LBDIS" ] || mkdir "$LBDIS" 2>/dev/null || return 0
	[ -d "$LBDIS/events/sched_shadow/lb_verdict" ] || return 0
	grep -q '^1' "$LBDIS/events/sched_shadow/lb_verdict/enable" 2>/dev/null && return 0
	echo 2048 > "$LBDIS/buffer_size_kb"
	echo 'cause != "agree"' > "$LBDIS/events/sched_shadow/lb_verdict/filter"
	echo 1 > "$LBDIS/events/sched_shadow/lb_verdict/enable"
}

# lb_reset: the audit scenarios' `reset`.  First exports what the kernel
# model's agreement counters hold since the previous reset (info and
# lb_attempts, as lbmodel-N.info/.att, N counting up) for the per-kernel
# agreement line (tests/vm/host/lb_agreement.py), then resets.
lb_reset() {
	lb_model_export
	echo 1 > "$SS/reset"
}

# lb_model_export: export the model's counters since the last reset (nothing
# when the module or its audit is not loaded)
lb_model_export() {
	local n
	[ -r "$SS/lb_attempts" ] || return 0
	n=$(cat /run/lbm.n 2>/dev/null || echo 0)
	echo $((n + 1)) > /run/lbm.n
	cat "$SS/info" > /tmp/lbm.info 2>/dev/null && vm_export "lbmodel-$n.info" /tmp/lbm.info
	# once the calibration is done, later reloads keep what it learned
	if grep -q '^lb_calibration done' /tmp/lbm.info; then
		awk 'BEGIN { printf "lb_evidence=1 " }
		     $1 ~ /^lb_rule\./ && $2 ~ /:learned$/ {
			r = substr($1, 9); printf "%s%s%s", n++ ? "," : "lb_rules=", $2 ~ /^on/ ? "+" : "-", r }' \
			/tmp/lbm.info > /run/ko.params
	fi
	cat "$SS/lb_attempts" > /tmp/lbm.att 2>/dev/null && vm_export "lbmodel-$n.att" /tmp/lbm.att
	if [ -r "$LBDIS/trace" ]; then
		grep 'lb_verdict:' "$LBDIS/trace" > /tmp/lbdis.txt
		echo > "$LBDIS/trace"
		vm_export "lbdis-$n.txt" /tmp/lbdis.txt
	fi
}

# lbv FILE DOMAIN IDLE TRACKER COLUMN: one number of a saved `lb` table
# (0 when the row is absent or the value is "-")
lbv() {
	awk -v d="$2" -v i="$3" -v t="$4" -v col="$5" '
		NR == 2 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		NR > 2 && $1 == d && $2 == i && $3 == t { v = $(c[col]); f = 1 }
		END { print (f && v != "-") ? v + 0 : 0 }' "$1"
}

# judged FILE COLUMN: all-domain idle + newidle actual
judged() { echo $(( $(lbv "$1" all idle actual "$2") + $(lbv "$1" all newidle actual "$2") )); }

# The sched/debug oracle's workload (scenario 11, and scenario 14 under each
# of the kernel's group-weight modes): nested cgroups of known cpu.weight
# and pinned hogs of known nice levels, one placement each, cpu:cgroup:nice.
ORACLE_PLACEMENTS="0:/o/x:-5 1:/o/a/y:0 2:/o/a/b/d:0 3:/o/a/b/e:5 4:/o/c:0 4:/o/a/b/d:3 4:/o/a/y:0 4:/:10"
oracle_tree() {
	cg_mk /o 10000
	cg_mk /o/a 200
	cg_mk /o/a/b 150
	cg_mk /o/x 200
	cg_mk /o/a/y 50
	cg_mk /o/a/b/d 100
	cg_mk /o/a/b/e 300
	cg_mk /o/c 300
}

# oracle_hogs TAG READER: one `burn -t 1` (background name TAGhN) per
# placement on a CPU below READER's; waits (10 s at most) until each hog's
# worker thread exists (on cpu4 four hogs share one CPU: a leader may not
# have run pthread_create() yet 0.5 s after the start), renices every
# thread, and checks that each worker (the thread that is not the leader)
# runs on its CPU with its nice level.  Writes /tmp/TAG.expect (cpu cgroup
# nice N) and /tmp/TAG.placed (cpu cgroup nice TID of the worker); sets
# ORACLE_TIDS (every thread) and ORACLE_BAD (the misplaced workers).
oracle_hogs() {
	local tag=$1 reader=$2 p cpu rest cg nice i n short pid t tid c
	: > "/tmp/$tag.expect"
	: > "/tmp/$tag.placed"
	i=0
	for p in $ORACLE_PLACEMENTS; do
		cpu=${p%%:*} rest=${p#*:}; cg=${rest%%:*} nice=${rest#*:}
		[ "$cpu" -lt "$reader" ] || continue
		if [ "$cg" = / ]; then
			bg "${tag}h$i" burn -t 1 -s 0 -d 0 -q --cpu "$cpu"
		else
			bg "${tag}h$i" burn -t 1 -s 0 -d 0 -q --cpu "$cpu" --cgroup "$cg"
		fi
		echo "$cpu $cg $nice $i" >> "/tmp/$tag.expect"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 100 ]; do
		short=0
		while read -r _ _ _ n; do
			pid=$(awk -v n="${tag}h$n" '$2 == n { print $1 }' "$BG_PIDS")
			# num_threads, field 20 of stat (burn's comm has no space)
			[ "$(awk '{ print $20 }' "/proc/$pid/stat" 2>/dev/null)" -ge 2 ] 2>/dev/null || short=1
		done < "/tmp/$tag.expect"
		[ $short -eq 0 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	ORACLE_TIDS='' ORACLE_BAD=''
	while read -r cpu cg nice i; do
		pid=$(awk -v n="${tag}h$i" '$2 == n { print $1 }' "$BG_PIDS")
		for t in /proc/$pid/task/*; do
			tid=${t##*/}
			[ "$nice" = 0 ] || renice -n "$nice" -p "$tid" > /dev/null 2>&1
			ORACLE_TIDS="$ORACLE_TIDS $tid"
			# the worker (burn -t 1 has one; its leader sleeps in
			# pause(), but may still be queued behind the hogs this
			# soon after the start: 7.3 found it R once)
			[ "$tid" != "$pid" ] || continue
			n=$(awk '{ print $19 }' "$t/stat")
			c=$(awk '{ print $39 }' "$t/stat")
			[ "$n" = "$nice" ] && [ "$c" = "$cpu" ] ||
				ORACLE_BAD="$ORACLE_BAD tid$tid:cpu$c/nice$n!=cpu$cpu/nice$nice"
			echo "$cpu $cg $nice $tid" >> "/tmp/$tag.placed"
		done
	done < "/tmp/$tag.expect"
}
