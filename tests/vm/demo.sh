# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo`: the same duty-cycle workload first in the root
# cgroup, then split over nested cgroups with unequal cpu.weight, and the
# per-CPU means of shadow vs real load_avg of both runs side by side.
# To change what runs, edit workload_root / workload_nested below (e.g.
# `sched-shadow run -- sched-shadow bench` once the CLI is in the guest).
. /lib/vm/lib.sh
DUR=${DEMO_DURATION:-8}

workload_root() {
	burn -t 6 -r 15 -s 10 -d "$DUR" -q
}
workload_nested() {
	cg_mk /demo 100
	cg_mk /demo/a 100
	burn -t 3 -r 15 -s 10 -d "$DUR" -q --cgroup /demo/a/b --weight 300 &
	burn -t 3 -r 15 -s 10 -d "$DUR" -q --cgroup /demo/c --weight 50 &
	wait
}

# run_case NAME: run workload_NAME with statistics reset 1 s in, keep cpus
run_case() {
	echo "== $1: workload_$1 for ${DUR}s =="
	workload_"$1" &
	pid=$!
	sleep 1
	echo 1 > "$SS/reset"
	wait $pid
	cat "$SS/cpus" > /tmp/demo-$1.cpus
	cat /tmp/demo-$1.cpus
	echo
}

if ! load_module; then
	echo "demo: cannot load the module: $(cat /tmp/insmod.err)"
	exit 1
fi
echo "sched_shadow demo: $(ncpus) CPUs, kernel $(uname -r)"
run_case root
run_case nested
cg_rm /demo

echo "== divergence: time-weighted means since reset (load units, 1024 = one nice-0 task flat out) =="
awk '
	FNR == 1 { file++; next }
	FNR == 2 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		cpu = $(c["cpu"]); cpus[cpu] = 1
		s[file, cpu] = $(c["shadow_mean"]); r[file, cpu] = $(c["real_mean"]); d[file, cpu] = $(c["div_mean"])
		if ($(c["shadow_mean"]) != "-") { S[file] += $(c["shadow_mean"]); R[file] += $(c["real_mean"]); D[file] += $(c["div_mean"]) }
	}
	END {
		printf "%-11s | %-30s | %-30s\n", "", "root cgroup", "nested /demo/a/b(300) + /demo/c(50)"
		printf "%-11s | %9s %9s %10s | %9s %9s %10s\n", "cpu", "shadow", "real", "div", "shadow", "real", "div"
		n = 0; for (k in cpus) list[++n] = k + 0
		for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (list[b] < list[a]) { t = list[a]; list[a] = list[b]; list[b] = t }
		for (a = 1; a <= n; a++) { k = list[a]
			printf "%-11s | %9s %9s %10s | %9s %9s %10s\n", k, s[1, k], r[1, k], d[1, k], s[2, k], r[2, k], d[2, k] }
		printf "%-11s | %9d %9d %10d | %9d %9d %10d\n", "total", S[1], R[1], D[1], S[2], R[2], D[2]
		printf "%-11s | %30s | %30s\n", "real/shadow", (S[1] ? sprintf("%.2f", R[1] / S[1]) : "-"), (S[2] ? sprintf("%.2f", R[2] / S[2]) : "-")
	}' /tmp/demo-root.cpus /tmp/demo-nested.cpus
vm_export demo-root.cpus /tmp/demo-root.cpus
vm_export demo-nested.cpus /tmp/demo-nested.cpus
unload_module
