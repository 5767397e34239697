# SPDX-License-Identifier: GPL-2.0
# plan: 9
# Scenario 8: the writable files accept only what docs/debugfs.md says.
# Bad input gets EINVAL (wr reports the errno of one write(2)) and changes
# nothing; reset 1 clears the counters; enable 0 freezes them under load
# and disarms the audit kretprobe, enable 1 resumes both.
# timeout: 90
need_module "writes: module loaded" || return 0
bg w8 burn -t 4 -r 5 -s 5 -d 0 -q
sleep 1

long=$(awk 'BEGIN { while (i++ < 5000) printf "1" }')
# "changes nothing": every per-CPU counter that a reset would zero
# (published, discarded, samples) and the audit's judged calls only grow,
# the published sum strictly (the probes keep working: a bad write to
# enable must not turn them off), enable stays 1, lb_dump_every keeps its
# value
snap() {
	ss_rows cpus cpu published discarded samples
	[ -r "$SS/lb" ] && echo "lb $(awk 'NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR > 2 && $1 == "all" && $3 == "actual" && $(c["calls"]) != "-" { s += $(c["calls"]) } END { print s + 0 }' "$SS/lb")"
	echo "every $(cat "$SS/lb_dump_every" 2>/dev/null)"
}
for f in reset enable; do
	p0=$(ss_sum published)
	snap > /tmp/w8.before
	bad=
	for v in 2 abc '' '\n' -1 1x ' 1' '1\n\n' '0x1' "$long"; do
		out=$(wr -e "$SS/$f" "$v")
		[ "$out" = "error EINVAL" ] || bad="$bad [$(echo "$v" | cut -c1-12)]->'$out'"
	done
	# busybox echo: the shell only sees success or failure
	echo "abc" > "$SS/$f" 2>/dev/null && bad="$bad [echo abc succeeded]"
	sleep 0.2
	snap > /tmp/w8.after
	p1=$(ss_sum published)
	e=$(cat "$SS/enable")
	shrunk=$(printf '%s\n--\n%s\n' "$(cat /tmp/w8.before)" "$(cat /tmp/w8.after)" | awk '
		$0 == "--" { second = 1; next }
		!second { for (i = 2; i <= NF; i++) v[$1, i] = $i; next }
		$1 == "every" { if (v[$1, 2] != $2) printf " lb_dump_every %s->%s", v[$1, 2], $2; next }
		{ for (i = 2; i <= NF; i++) if ($i != "-" && v[$1, i] != "-" && $i + 0 < v[$1, i] + 0) printf " %s.col%d %s->%s", $1, i, v[$1, i], $i }')
	if [ -z "$bad" ]; then ok "writes: bad input to $f gets EINVAL"; else not_ok "writes: bad input to $f gets EINVAL" "$bad"; fi
	if [ "$e" = 1 ] && [ "$p1" -gt "$p0" ] && [ -z "$shrunk" ]; then
		ok "writes: bad input to $f changes nothing (enable $e, published $p0 -> $p1, no per-CPU or lb counter went back)"
	else
		not_ok "writes: bad input to $f changes nothing (enable $e, published $p0 -> $p1)" "went back:$shrunk"
	fi
done

p0=$(ss_sum published)
out=$(wr "$SS/reset" 1)
sleep 0.2
p1=$(ss_sum published)
if [ "$out" = "ok 1" ] && [ "$p1" -lt "$p0" ]; then ok "writes: reset 1 clears the counters (published $p0 -> $p1)"; else not_ok "writes: reset 1 clears the counters (published $p0 -> $p1, write: $out)"; fi
out=$(wr -e "$SS/reset" '1\n')
[ "$out" = "ok 2" ] && ok "writes: reset accepts '1\\n'" || not_ok "writes: reset accepts '1\\n'" "write: $out"

# perf: enable 0 also disarms the audit kretprobe ([DISABLED] in
# the kprobes list), enable 1 arms it again
lbsym=$(awk '$1 == "feature.lb_audit" { sub(/^active:/, "", $2); print $2 }' "$SS/info")
kpstate() { grep -E "[[:space:]]$lbsym\+0x0" /sys/kernel/debug/kprobes/list 2>/dev/null | grep -c DISABLED; }
out=$(wr -e "$SS/enable" '0\n')
e=$(cat "$SS/enable")
kd0=$(kpstate)
sleep 0.3
a=$(ss_sum published)
sleep 1.5
b=$(ss_sum published)
if [ "$out" = "ok 2" ] && [ "$e" = 0 ] && [ "$a" = "$b" ]; then
	ok "writes: enable 0 stops the counters (published $a -> $b in 1.5 s under load)"
else
	not_ok "writes: enable 0 stops the counters (published $a -> $b in 1.5 s under load, enable reads '$e', write: $out)"
fi
out=$(wr "$SS/enable" 1)
e=$(cat "$SS/enable")
kd1=$(kpstate)
if [ "$kd0" = 1 ] && [ "$kd1" = 0 ]; then
	ok "writes: enable 0 disarms the audit kretprobe on $lbsym, enable 1 arms it"
else
	not_ok "writes: enable 0 disarms the audit kretprobe on $lbsym, enable 1 arms it" "DISABLED lines: $kd0 after 0, $kd1 after 1; $(cat /sys/kernel/debug/kprobes/list 2>&1 | awk '{ $1 = ""; print }' | head -n 5)"
fi
sleep 1
c=$(ss_sum published)
if [ "$out" = "ok 1" ] && [ "$e" = 1 ] && [ "$c" -gt "$b" ]; then
	ok "writes: enable 1 resumes them (published $b -> $c)"
else
	not_ok "writes: enable 1 resumes them (published $b -> $c, enable reads '$e', write: $out)"
fi
bg_stop
