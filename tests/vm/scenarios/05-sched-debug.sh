# SPDX-License-Identifier: GPL-2.0
# Scenario 5: the module's per-CPU load_avg agrees with the kernel's own
# dump (/sys/kernel/debug/sched/debug, section "cfs_rq[N]:/", .load_avg)
# within 5%.  Each CPU runs one pinned hog in its own cgroup with its own
# cpu.weight, so the root load_avg differs per CPU (about 1024*weight/100)
# and a module reading the wrong CPU or field cannot pass by accident.
# timeout: 90
need_module "sched/debug: module loaded" || return 0
SD=/sys/kernel/debug/sched/debug
if [ ! -r "$SD" ]; then
	not_ok "sched/debug: $SD readable" "needs CONFIG_SCHED_DEBUG"
	return 0
fi
n=$(ncpus)
weights="50 100 150 200 300 400 60 120 250 500"
i=0
for w in $weights; do
	[ $i -lt $n ] || break
	cg_mk /s5/c$i $w
	bg hog$i burn -t 1 -s 0 -d 0 -q --cpu $i --cgroup /s5/c$i
	i=$((i + 1))
done
sleep 1
wait_converge 6

kernel_load() {	# cpu load_avg pairs from the root cfs_rq sections
	awk '/^cfs_rq\[[0-9]+\]:/ { in_root = ($1 ~ /:\/$/); split($1, a, /[][]/); cpu = a[2]; next }
	     /^[a-z_]+_rq\[/ { in_root = 0; next }
	     in_root && $1 == ".load_avg" { print cpu, $3 }' "$SD"
}

: > /tmp/s5.pass
for attempt in 1 2 3 4 5; do
	kernel_load > /tmp/s5.k
	ss_rows cpus cpu load_avg > /tmp/s5.m
	awk 'NR == FNR { k[$1] = $2; next }
	     ($1 in k) && $2 != "-" { d = $2 - k[$1]; if (d < 0) d = -d;
		ok = (k[$1] > 0 && d <= 0.05 * k[$1]) || (k[$1] == 0 && $2 == 0);
		printf "%s %s %s %d\n", $1, $2, k[$1], ok }' /tmp/s5.k /tmp/s5.m > /tmp/s5.cmp
	diag "attempt $attempt (cpu module kernel agree): $(tr '\n' ';' < /tmp/s5.cmp)"
	awk '$4 == 1 { print $1 }' /tmp/s5.cmp >> /tmp/s5.pass
	[ $(sort -u /tmp/s5.pass | wc -l) -ge $n ] && break
	sleep 0.5
done
bg_stop
cg_rm /s5
i=0
for w in $weights; do
	[ $i -lt $n ] || break
	last=$(awk -v c=$i '$1 == c { print "module " $2 " kernel " $3 }' /tmp/s5.cmp)
	if grep -qx "$i" /tmp/s5.pass; then
		ok "sched/debug: cpu$i load_avg agrees within 5% ($last, weight $w)"
	else
		not_ok "sched/debug: cpu$i load_avg agrees within 5% ($last, weight $w, no agreement in 5 attempts)"
	fi
	i=$((i + 1))
done
