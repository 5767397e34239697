# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Helpers of the published-bug corpus (tests/vm/bugs/*.sh, `make
# test-bugs`), sourced by each entry after lib.sh and wasted.sh.  An entry
# sets BUG (its file name without .sh), builds its construction, reads the
# module's tables over one window (bw_run: `sched-shadow run --evidence`)
# and applies the rule its header wrote down before any run; bug_verdict
# turns the rule's outcome into the corpus line
#   bug <name>: <present|fixed> on <release>: <finding>: <shown|not shown>; <agree|DISAGREE>
# printed as a TAP result and exported as bug-<name>.line.
#
# The header lines read here (one each, in the entry):
#   # kernels: 5.10=present 6.1=fixed ...   the fix analysis, per major.minor
#   # known: 5.10 WHY                        a DISAGREE already explained in
#                                            docs/bugs.md (skipped with WHY,
#                                            never counted as a pass)

BUGS_DIR=/lib/vm/bugs

# bug_release_key: major.minor of the running kernel (7.3.4+deb13-amd64 -> 7.3)
bug_release_key() { uname -r | cut -d. -f1,2 | sed 's/[^0-9.].*//'; }

# bug_header FIELD: the text after "# FIELD: " in the entry's header
bug_header() {
	sed -n "s/^# $1: *//p" "$BUGS_DIR/$BUG.sh" | head -n 1
}

# bug_status: present, fixed or unknown on the running kernel
bug_status() {
	local k s
	k=$(bug_release_key)
	s=$(bug_header kernels | tr ' ' '\n' | sed -n "s/^$k=//p" | head -n 1)
	case $s in present|fixed) echo "$s" ;; *) echo unknown ;; esac
}

# bw_run SECONDS: the window, as a user would take it: `sched-shadow run
# --evidence` around `sleep SECONDS` (run resets the module's counters,
# pauses it at both ends so every table covers the same stretch, and
# writes the evidence directory /tmp/ev-$BUG); its tables are copied to
# /tmp/$BUG.<table> for the rule, the report to /tmp/$BUG.report.json,
# and the directory is exported as bug-$BUG.evidence.tar.gz
bw_run() {
	local f
	rm -rf "/tmp/ev-$BUG"
	sched-shadow run --no-bpf -j -o "/tmp/$BUG.report.json" --evidence "/tmp/ev-$BUG" \
		-- sleep "$1" > "/tmp/$BUG.run.log" 2>&1
	BW_RC=$?
	for f in wasted wasted_attrib wasted_cgroups info; do
		cat "/tmp/ev-$BUG/$f.txt" > "/tmp/$BUG.$f" 2>/dev/null || : > "/tmp/$BUG.$f"
	done
	(cd /tmp && tar -cf - "ev-$BUG" | gzip -c > "/tmp/$BUG.evidence.tar.gz")
	vm_export "bug-$BUG.evidence.tar.gz" "/tmp/$BUG.evidence.tar.gz"
}

# bug_evidence_check: one TAP result on the evidence directory of bw_run:
# its README names the largest `all` row of its own wasted_attrib.txt (or
# says there was no waste), every record of attempts.txt is an lb_verdict
# of that cause, and the module's attempt counts are backed by the trace:
# for every CPU and domain, the attempts its rows of wasted_attrib.txt add
# up to are at most the lb_verdict records of trace.txt with that
# destination and domain (the counter and the trace events come from the
# same attempts by two paths), unless the ring buffer overran.
# Per CPU and domain, not per cause: a row's `attempts` are every judged
# attempt at that CPU and level in the samples charged to the row, of any
# verdict (the sampler reads one counter per CPU and level each sample,
# docs/wasted.md), so a cause's count may include a void attempt or one of
# another verdict made in the same sample just before the waste began, and
# attempts.txt (that cause's records only) can hold fewer (7.2, the
# wasted_group_imbalance control: cpu4's PKG missed/imbalance_zero counted
# 5 with 4 missed records; the fifth was a void/disabled attempt made 13
# ms before the waste began, which the row's first sample counted with
# them; the trace had all 5, and cpu4's right/moved row's 1 besides).
bug_evidence_check() {
	local d=/tmp/ev-$BUG top key="" dom ver rea cau cnt rec bad total ovr why="" over
	if [ "$BW_RC" != 0 ] || [ ! -s "$d/README.md" ]; then
		not_ok "$BUG: evidence directory written" "run exit $BW_RC: $(tail -n 3 "/tmp/$BUG.run.log" 2>/dev/null | tr '\n' ' ')"
		return 0
	fi
	total=$(awk 'NR > 2 && $1 != "all" { s += $5 } END { printf "%d", s }' "$d/wasted.txt")
	top=$(awk 'NR > 2 && $1 == "all" && $6 + 0 > b { b = $6 + 0; r = $2 " " $3 " " $4 " " $5 " " $7 }
		END { print r }' "$d/wasted_attrib.txt")
	read -r dom ver rea cau cnt <<EOF
$top
EOF
	cnt=${cnt:-0}
	if [ -z "$top" ] || [ "$total" -eq 0 ]; then
		grep -q 'no CPU was idle while a task that could run on it waited' "$d/README.md" ||
			why="README does not say there was no waste (wasted total $total ms)"
	else
		key="$dom $ver/$rea"
		[ "$cau" != - ] && key="$key:$cau"
		grep -qF "charged to $key on cpu" "$d/README.md" || why="README does not name $key"
	fi
	rec=$(grep -c 'lb_verdict:' "$d/attempts.txt")
	bad=$(grep 'lb_verdict:' "$d/attempts.txt" | grep -vc " domain=$dom .* verdict=$ver ")
	[ "$bad" -eq 0 ] || why="$why; $bad attempts.txt records of another domain or verdict"
	[ -z "$key" ] || grep -qF "the $rec lb_verdict records" "$d/README.md" ||
		why="$why; README's count is not attempts.txt's $rec"
	ovr=$(sed -n 's/.* \([0-9]*\) lost to ring-buffer overruns.*/\1/p' "$d/README.md")
	# "cpu domain module trace" for each pair whose module count exceeds the trace's
	over=$(awk 'FNR == 1 { f++ }
		f == 1 && FNR > 2 && $1 != "all" && $2 != "-" { m[$1 " " $2] += $7 }
		f == 2 && /lb_verdict:/ {
			c = ""; g = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^dst_cpu=/) c = substr($i, 9)
				else if ($i ~ /^domain=/) g = substr($i, 8)
			}
			t[c " " g]++
		}
		END { for (k in m) if (m[k] > t[k] + 0) printf "%s%s %d %d", n++ ? ", " : "", k, m[k], t[k] }' \
		"$d/wasted_attrib.txt" "$d/trace.txt" 2>/dev/null)
	[ "${ovr:-1}" -eq 0 ] && [ -n "$over" ] &&
		why="$why; the module counted more attempts than trace.txt has lb_verdict records (cpu domain module trace: $over)"
	if [ -z "$why" ]; then
		ok "$BUG: evidence directory: README names ${key:-no cause} as the tables do; attempts.txt $rec records (module counted $cnt; every CPU and domain within trace.txt's records), overruns ${ovr:-?}"
	else
		not_ok "$BUG: evidence directory agrees with its tables" "${why#; }"
	fi
}

# bw_sampled CPU: the window's sampled time of CPU (ms, integer)
bw_sampled() { w_val "/tmp/$BUG.wasted" "$1" sampled_ms | awk '{ printf "%d", $1 }'; }
# bw_wasted CPU: CPU's wasted time (ms, integer)
bw_wasted() { w_val "/tmp/$BUG.wasted" "$1" wasted_ms | awk '{ printf "%d", $1 }'; }
# bw_unknown CPU: CPU's unknown time (ms, integer)
bw_unknown() { w_val "/tmp/$BUG.wasted" "$1" unknown_ms | awk '{ printf "%d", $1 }'; }
# bw_top CPU: CPU's attribution row with the most time (CPU `all`: the
# machine's), into TOP_LVL (its level), TOP_KEY (verdict/reason[:cause])
# and TOP_MS (integer); "-", "-", 0 when there is none
bw_top() {
	local l
	l=$(awk -v cpu="$1" 'NR > 2 && $1 == cpu && $6 + 0 > best { best = $6 + 0
		r = $2 " " $3 "/" $4 (($5 != "-") ? ":" $5 : "") }
		END { if (r == "") r = "- -"; printf "%s %d\n", r, best }' "/tmp/$BUG.wasted_attrib")
	# shellcheck disable=SC2034 # read by the entries
	read -r TOP_LVL TOP_KEY TOP_MS <<EOF
$l
EOF
}
# bw_sum_wasted CPU...: the CPUs' wasted time added up (ms, integer)
bw_sum_wasted() {
	local c s=0
	for c in "$@"; do s=$((s + $(bw_wasted "$c"))); done
	echo "$s"
}

# bug_built OK WHAT: the construction check (independent of the module:
# /proc, /sys), one TAP result
bug_built() {
	if [ "$1" -eq 0 ]; then
		ok "$BUG: construction built: $2"
	else
		not_ok "$BUG: construction built: $2"
	fi
}

# bug_verdict FINDING SHOWN: SHOWN is 1 when the entry's rule says shown
bug_verdict() {
	local finding=$1 shown=$2 status word agree line known k
	status=$(bug_status)
	word="not shown"
	[ "$shown" = 1 ] && word=shown
	agree=DISAGREE
	if { [ "$status" = present ] && [ "$shown" = 1 ]; } ||
	   { [ "$status" = fixed ] && [ "$shown" != 1 ]; }; then
		agree=agree
	fi
	[ "$status" = unknown ] && agree=unjudged
	line="bug $BUG: $status on $(uname -r): $finding: $word; $agree"
	echo "$line" > "/tmp/bug-$BUG.line"
	vm_export "bug-$BUG.line" "/tmp/bug-$BUG.line"
	k=$(bug_release_key)
	known=$(sed -n "s/^# known: $k //p" "$BUGS_DIR/$BUG.sh" | head -n 1)
	if [ "$agree" = agree ]; then
		ok "$line"
	elif [ "$status" = unknown ]; then
		tap_skip "$line" "no fix analysis for kernel $k in the entry's header"
	elif [ -n "$known" ]; then
		tap_skip "$line" "known finding about the tool (docs/bugs.md): $known"
	else
		not_ok "$line"
	fi
}

# bug_tids NAME: the thread ids of background command NAME's threads, its
# main thread left out (burn's main thread only sleeps)
bug_tids() {
	local pid t
	pid=$(awk -v n="$1" '$2 == n { print $1 }' "$BG_PIDS" 2>/dev/null | tail -n 1)
	[ -n "$pid" ] || return 0
	for t in "/proc/$pid/task/"*; do
		t=${t##*/}
		[ "$t" != "$pid" ] && [ "$t" != "*" ] && echo "$t"
	done
}

# bug_cpus_of TID: the CPU list the thread may run on
bug_cpus_of() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null; }
# bug_cpu_of TID: the CPU the thread last ran on (/proc/TID/stat field 39)
bug_cpu_of() { awk '{ print $39 }' "/proc/$1/stat" 2>/dev/null; }

# bug_schedstats_on / bug_schedstats_restore: schedstats on for a
# workload's whole life (`run` turns them on for its window only and back
# off after), so that a program can read its own counts as it ends
# (wakepair's "kernel:" counts); then back as they were
BUG_SS=/proc/sys/kernel/sched_schedstats
bug_schedstats_on() {
	BUG_SS0=$(cat $BUG_SS 2>/dev/null)
	echo 1 > $BUG_SS 2>/dev/null
}
bug_schedstats_restore() {
	[ -n "${BUG_SS0:-}" ] && echo "$BUG_SS0" > $BUG_SS 2>/dev/null
	BUG_SS0=
}
