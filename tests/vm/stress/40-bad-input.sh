# SPDX-License-Identifier: GPL-2.0
# plan: 8
# Stress 4: bad input.  Every writable debugfs file (reset, enable,
# lb_dump_every) gets 1000 inputs (short: 200) from fuzzwr: edge cases
# (empty, newline only, huge up to 1 MiB, negative, signs, spaces, hex,
# words, embedded NULs, 2^64 and neighbours) and random ones, written
# plainly, with a count shorter than the buffer, at an offset, split over
# two writes, or running into an unmapped page; each answer must be
# EINVAL or acceptance exactly as docs/debugfs.md says (and read back so),
# while a reader reads every file and burners run.  Then every module
# parameter gets out-of-range and garbage values: each load is refused
# with exactly one log line naming sched_shadow and nothing is left; the
# values the module documents as degrading (an unknown lb_symbol) load
# with the audit off and an info file that still parses.
# timeout: 900
SCEN=40
. /lib/vm/stress/stress.lib
N=$(fig 1000 200)
T="bad input"
mark=$(dmesg_mark)
need_module "$T: module loaded" || return 0
diag "level $STRESS_LEVEL: $N inputs per file"

workload s40
mkdir -p /tmp/r40
bg_ssread r40 -i 10 -m 8 -s /tmp/r40 $SS_FILES
sleep 1
dump0=$(cat "$SS/lb_dump_every" 2>/dev/null)
total=0 seed=1
for f in reset enable lb_dump_every; do
	case $f in lb_dump_every) k=dump_every ;; *) k=$f ;; esac
	if [ ! -e "$SS/$f" ]; then
		not_ok "$T: $f exists" "$(grep feature.lb_audit "$SS/info")"
		continue
	fi
	seed=$((seed * 7 + 3))
	out=$(fuzzwr -k $k -n "$N" -S $seed -m 12 "$SS/$f")
	line=$(echo "$out" | grep '^fuzzwr: file=')
	diag "$f: ${line#fuzzwr: }"
	echo "$out" | grep -v '^fuzzwr: file=' | diag
	n=$(ssval "$line" inputs)
	total=$((total + ${n:-0}))
	if [ -n "$line" ] && [ "$n" -ge "$N" ] && [ "$(ssval "$line" mismatches)" = 0 ] && [ "$(ssval "$line" readback_bad)" = 0 ]; then
		ok "$T: $f: $n inputs, each EINVAL or accepted as documented ($(ssval "$line" accepted) accepted, $(ssval "$line" einval) EINVAL, $(ssval "$line" efault) EFAULT)"
	else
		not_ok "$T: $f: $N inputs, each EINVAL or accepted as documented" "mismatches $(ssval "$line" mismatches), read-back errors $(ssval "$line" readback_bad)"
	fi
done
e=$(cat "$SS/enable")
d=$(cat "$SS/lb_dump_every" 2>/dev/null)
p0=$(ss_sum published)
sleep 1
p1=$(ss_sum published)
[ "$e" = 1 ] && [ "$d" = "$dump0" ] && [ "$p1" -gt "$p0" ] &&
	ok "$T: afterwards enable 1, lb_dump_every $d again, walks published ($p0 -> $p1)" ||
	not_ok "$T: afterwards enable 1, lb_dump_every restored, walks published" "enable '$e' lb_dump_every '$d' (was $dump0) published $p0 -> $p1"
reader_done "$T: reads concurrent with $total bad writes parse, no address" r40
for f in /tmp/r40/*; do [ -f "$f" ] && keep "$(basename "$f")" "$f"; done
bg_stop
cg_rm /s40

# ---- module parameters ----
if ! rmmod_retry >/dev/null; then
	not_ok "$T: rmmod before the parameter checks" "$(cat /tmp/rmmod.err)"
	return 0
fi
long=$(awk 'BEGIN { while (i++ < 1100) printf "x" }')
tried=0 refused=0 oneline=0 clean=0 ex=
while IFS= read -r p; do
	[ -n "$p" ] || continue
	[ "$p" = LONG ] && p="lb_symbol=$long"
	case $p in NL) p=$(printf 'lb_symbol="a\nb"') ;; esac
	tried=$((tried + 1))
	m=$(dmesg_mark)
	out=$(modload "$KO" "$p" 2>/dev/null)
	rc=$?
	case $p in lb_symbol=xxxxxxxx*) usleep 300000 ;; esac	# a very long line reaches the log a little later
	new=$(dmesg_since "$m" | grep -v -E "$DMESG_MODULE_OK")
	nl=$(echo "$new" | grep -c 'sched_shadow')
	# the kernel itself refuses a string parameter over 1024 bytes (two
	# lines of kernel/params.c, one naming only the parameter): not the
	# module's line to judge
	case $p in lb_symbol=xxxxxxxx*) [ "$nl" -le 1 ] && nl=1 ;; esac
	l=$(left_behind)
	[ $rc -eq 1 ] && refused=$((refused + 1))
	[ "$nl" -eq 1 ] && oneline=$((oneline + 1))
	[ -z "$l" ] && clean=$((clean + 1))
	diag "$(echo "$p" | tr '\n' '~' | cut -c1-40): $out; log: $(echo "$new" | sed 's/^\[[ 0-9.]*\] //' | cut -c1-100 | tr '\n' '|')"
	if [ $rc -ne 1 ] || [ "$nl" -ne 1 ] || [ -n "$l" ]; then
		ex="$ex [$(echo "$p" | cut -c1-40): exit $rc, $nl sched_shadow lines, left:$l]"
	fi
	module_loaded && rmmod_retry >/dev/null
done <<EOF
walk_budget=0
walk_budget=1
walk_budget=15
walk_budget=1537
walk_budget=65536
walk_budget=65537
walk_budget=1000000
walk_budget=4294967295
walk_budget=4294967296
walk_budget=99999999999999999999
walk_budget=-1
walk_budget=-4096
walk_budget=abc
walk_budget=16x
walk_budget=
walk_budget=010
enable=2
enable=-1
enable=abc
enable=
enable=9
pelt_refresh_us=100001
pelt_refresh_us=4294967296
pelt_refresh_us=-1
pelt_refresh_us=abc
stats=3
stats=-1
stats=abc
stats=
missing_tp=no_such_tp
missing_tp=pelt_cfs_tp_
lb_symbol=%s%s%s%n%p
lb_symbol="a b"
NL
LONG
EOF
diag "parameters: $tried bad values, $refused refused, $oneline with exactly one sched_shadow log line, $clean left nothing"
[ "$refused" -eq "$tried" ] && [ "$oneline" -eq "$tried" ] && [ "$clean" -eq "$tried" ] &&
	ok "$T: $tried out-of-range/garbage parameter values refused, one log line each, nothing left" ||
	not_ok "$T: bad parameter values refused, one log line each, nothing left" "$ex"

# values that load: the edges of walk_budget, and lb_symbol names of no
# probe-able function (documented: the audit is off, the rest works); an
# lb_symbol that is not a symbol name at all (spaces, newlines, format
# characters) is refused above
tried=0 good=0 ex=
while IFS= read -r p; do
	[ -n "$p" ] || continue
	case $p in NL) p=$(printf 'lb_symbol="a\nb"') ;; esac
	tried=$((tried + 1))
	m=$(dmesg_mark)
	out=$(modload "$KO" "$p" 2>/dev/null)
	rc=$?
	why=
	if [ $rc -ne 0 ]; then
		why="refused: $out"
	else
		r=$(ssread -n 1 -m 2 "$SS/info" "$SS/cpus")
		[ "$(ssval "$r" bad)" = 0 ] && [ "$(ssval "$r" addr)" = 0 ] || why="info/cpus do not parse: $(echo "$r" | tr '\n' ' ')"
		a=$(awk '$1 == "feature.lb_audit" { print $2 }' "$SS/info")
		wb=$(awk '$1 == "walk_budget" { print $2 }' "$SS/info")
		case $p in
		walk_budget=*) [ "$wb" = "${p#*=}" ] && case $a in active:*) true ;; *) false ;; esac || why="$why walk_budget '$wb' audit '$a'" ;;
		*) case $a in inactive:*) ;; *) why="$why audit '$a' (want inactive:)" ;; esac
		   [ -e "$SS/lb" ] && why="$why lb-file-present" ;;
		esac
		cat "$SS/info" > "$OUT/40-info-$tried"
	fi
	rmmod_retry >/dev/null
	l=$(left_behind)
	[ -n "$l" ] && why="$why left:$l"
	new=$(dmesg_since "$m" | grep 'sched_shadow' | grep -v -E "$DMESG_MODULE_OK" | sed 's/^\[[ 0-9.]*\] //')
	diag "$(echo "$p" | tr '\n' '~' | cut -c1-40): $out; log: $(echo "$new" | cut -c1-110 | tr '\n' '|')"
	if [ -z "$why" ]; then good=$((good + 1)); else ex="$ex [$(echo "$p" | tr '\n' '~' | cut -c1-40): $why]"; fi
done <<EOF
walk_budget=16
walk_budget=1536
lb_symbol=does_not_exist
lb_symbol=schedule
EOF
[ "$good" -eq "$tried" ] && ok "$T: $tried edge values load as documented (walk_budget 16/1536; unknown lb_symbol: audit off, info parses)" ||
	not_ok "$T: edge parameter values load as documented" "$ex"
dmesg_since "$mark" | grep sched_shadow > "$OUT/40-dmesg"
# (the kernel's line for the 1100-byte lb_symbol is cut at the log's line
# limit before "too large for parameter": match its start)
dmesg_module_check "$mark" "$T: kernel log clean" "not loading: (walk_budget|pelt_refresh_us)=|not loading: missing_tp must be one of |not loading: lb_symbol must be a function name|invalid for parameter|too large for parameter|sched_shadow: .xxxxxxxxxxxxxxxxxxxx|load-balancer audit off: BTF has no function [^ ]*\(struct lb_env \*\) returning struct sched_group \*$"
