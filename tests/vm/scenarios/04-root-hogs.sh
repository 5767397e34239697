# SPDX-License-Identifier: GPL-2.0
# Scenario 4: one pinned hog per CPU in the root cgroup.  After
# convergence, on every busy CPU the shadow sum is within 5% of the
# kernel's root load_avg.  Readers (this shell, cat) briefly add their own
# load on one CPU, so the check uses the median over several samples.
# timeout: 60
need_module "root hogs: module loaded" || return 0
n=$(ncpus)
i=0
while [ $i -lt $n ]; do
	bg hog$i burn -t 1 -s 0 -d 0 -q --cpu $i
	i=$((i + 1))
done
sleep 1
wait_converge 5
: > /tmp/s4
for s in 1 2 3 4 5 6 7; do
	ss_rows cpus cpu h_nr_running shadow load_avg >> /tmp/s4
	sleep 0.4
done
bg_stop
diag "samples (cpu h_nr_running shadow load_avg):"
diag "$(sort -n -s -k1,1 /tmp/s4 | awk '{ l[$1] = l[$1] " " $3 "/" $4 } END { for (c in l) print "cpu" c " shadow/load:" l[c] }' | sort)"
i=0
busy=0
while [ $i -lt $n ]; do
	res=$(awk -v cpu=$i '$1 == cpu && $2 != "-" && $2 >= 1 && $3 != "-" && $4 != "-" && $4 > 0 {
			d = ($3 - $4) / $4; if (d < 0) d = -d; v[++k] = d }
		END {
			if (k == 0) { print "none"; exit }
			for (a = 1; a <= k; a++) for (b = a + 1; b <= k; b++) if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t }
			printf "%d %.4f\n", k, (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }' /tmp/s4)
	if [ "$res" = none ]; then
		not_ok "root hogs: cpu$i shadow within 5% of load_avg" "cpu$i never busy in 7 samples although a hog is pinned there"
	else
		busy=$((busy + 1))
		set -- $res
		med=$(awk -v m=$2 'BEGIN { printf "%.1f", m * 100 }')
		if awk -v m=$2 'BEGIN { exit !(m <= 0.05) }'; then
			ok "root hogs: cpu$i shadow within 5% of load_avg (median diff ${med}% over $1 busy samples)"
		else
			not_ok "root hogs: cpu$i shadow within 5% of load_avg (median diff ${med}% over $1 busy samples)"
		fi
	fi
	i=$((i + 1))
done
diag "$busy of $n CPUs busy"
