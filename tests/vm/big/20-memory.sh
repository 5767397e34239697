# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# make test-big, 2: what the module costs in memory on this machine.
# Slab (unreclaimable), Percpu and VmallocUsed before and after insmod (a
# second load: the first warms up what the kernel keeps), the
# module's own count (`info` state_bytes: the shadow's per-CPU state,
# allocated for present CPUs only), its text, and `cpus` rows (one per
# possible CPU, the ones never present read `never`/`hotplug` quickly).
# plan: 3
T="memory"
mi() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# let RCU-deferred frees land: until unreclaimable slab stops falling (10 s
# at most), then shrink every cache: SLUB keeps freed objects on its per-CPU
# slabs, which SUnreclaim counts as used (32 vCPUs: +956 kB per cycle
# without the shrink, in caches the module never allocates from)
settle() {
	local a b i=0
	sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
	for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2>/dev/null
	b=$(mi SUnreclaim)
	while [ $i -lt 10 ]; do
		sleep 1
		a=$(mi SUnreclaim)
		[ "$a" -ge "$b" ] && break
		b=$a
		i=$((i + 1))
	done
}
# a first load and unload warms up what the kernel keeps once it exists
# (kworkers on every CPU, debugfs and tracefs caches): the second cycle
# below is the module's own
unload_module
load_module
sleep 1
unload_module
settle
s0=$(mi SUnreclaim) p0=$(mi Percpu) v0=$(mi VmallocUsed)
need_module "$T: loads" || return 0
sleep 1
s1=$(mi SUnreclaim) p1=$(mi Percpu) v1=$(mi VmallocUsed)
info() { awk -v k="$1" '$1 == k { print $2 }' "$SS/info"; }
sb=$(info state_bytes) spc=$(info state_bytes_per_cpu) sn=$(info state_cpus)
core=$(cat /sys/module/sched_shadow/coresize 2>/dev/null)
online=$(ncpus)
possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
present=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/present)
total=$(( (s1 - s0) + (p1 - p0) + (v1 - v0) ))
diag "insmod: SUnreclaim +$((s1 - s0)) kB, Percpu +$((p1 - p0)) kB, VmallocUsed +$((v1 - v0)) kB (total +$total kB); module text $core B"
diag "shadow state: $sn CPUs x $spc B = $sb B; $online online, $present present, $possible possible"
echo "online=$online present=$present possible=$possible slab_kb=$((s1 - s0)) percpu_kb=$((p1 - p0)) vmalloc_kb=$((v1 - v0)) state_bytes=$sb state_per_cpu=$spc state_cpus=$sn core=$core" > /tmp/big-mem.txt
grep -E '^(audit|lb)[a-z_.]*(bytes|groups|cpus)' "$SS/info" | diag
vm_export "memory-$(sed -n 's/.*big\.topology=\([a-z0-9]*\).*/\1/p' /proc/cmdline).txt" /tmp/big-mem.txt
if [ "$sn" = "$present" ]; then
	ok "$T: shadow state for the $present present CPUs (not $possible possible): $sb B"
else
	not_ok "$T: shadow state for present CPUs only" "state_cpus $sn, present $present, possible $possible"
fi
read -r t0 _ < /proc/uptime
rows=$(ss_rows cpus cpu | wc -l)
read -r t1 _ < /proc/uptime
dt=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
if [ "$rows" -eq "$possible" ] && awk -v t=$dt 'BEGIN { exit !(t < 5) }'; then
	ok "$T: cpus has $rows rows (possible CPUs), read in ${dt}s"
else
	not_ok "$T: cpus rows" "$rows rows for $possible possible, ${dt}s"
fi
unload_module
settle
s2=$(mi SUnreclaim) p2=$(mi Percpu) v2=$(mi VmallocUsed)
# what grows, if anything does: objects in use per slab cache (freed
# objects on the allocator's partial slabs still count in SUnreclaim),
# and threads
slabkb() { awk 'NR > 2 { printf "%s %d\n", $1, $2 * $4 / 1024 }' /proc/slabinfo 2>/dev/null; }
# the module allocates with kmalloc/kcalloc and GFP_KERNEL only: objects
# in use in the plain kmalloc-N caches (kB), the slab part of the bound;
# kmalloc-cg-* (memcg-accounted: allocations on behalf of user space, such
# as insmod's own files) and kmalloc-rcl-* never hold the module's objects
kmkb() { awk 'NR > 2 && $1 ~ /^(dma-)?kmalloc-[0-9]/ { s += $2 * $4 } END { printf "%d\n", s / 1024 }' /proc/slabinfo 2>/dev/null; }
nthreads() { ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l; }
# two more cycles: what a load leaves behind must not grow with them.  A
# kernel thread started meanwhile (a kworker: its stack is vmalloc'ed, its
# objects kmalloc'ed) is not the module's: measured again, up to 3 times,
# until the two cycles end with the threads they began with (a leak of the
# module's grows every time; the last try is judged either way)
try=0
while :; do
	try=$((try + 1))
	k2=$(kmkb) sa=$(mi SUnreclaim) pa=$(mi Percpu) va=$(mi VmallocUsed)
	slabkb > /tmp/b20.slab0
	th0=$(nthreads)
	for _ in 1 2; do
		load_module
		sleep 1
		unload_module
	done
	settle
	s3=$(mi SUnreclaim) p3=$(mi Percpu) v3=$(mi VmallocUsed) k3=$(kmkb)
	th1=$(nthreads)
	[ "$th1" -eq "$th0" ] || [ $try -ge 3 ] && break
	diag "two cycles, try $try: threads $th0 -> $th1 (kernel threads started meanwhile): measured again"
done
slabkb | awk 'FILENAME == ARGV[1] { a[$1] = $2; next } $2 - a[$1] >= 32 { printf "%s +%d kB; ", $1, $2 - a[$1] }' /tmp/b20.slab0 - > /tmp/b20.grow
diag "two cycles (try $try): threads $th0 -> $th1; slab objects in use that grew by 32 kB or more: $(cat /tmp/b20.grow)"
left=$(( (s2 - s0) + (p2 - p0) + (v2 - v0) ))
grow=$(( ((k3 - k2) + (p3 - pa) + (v3 - va)) / 2 ))
diag "after unload: ${left} kB above the start (slab $((s2 - s0)), percpu $((p2 - p0)), vmalloc $((v2 - v0))); two more cycles: ${grow} kB per cycle (kmalloc caches $((k3 - k2)), percpu $((p3 - pa)), vmalloc $((v3 - va)); SUnreclaim $((s3 - sa)), not bounded: the cycles' kworkers and files)"
if ! module_loaded && [ -n "$k2" ] && [ "$k2" -gt 0 ] && [ "$grow" -lt 64 ]; then
	ok "$T: unload gives it back (${grow} kB per load/unload cycle in the kmalloc caches, Percpu and vmalloc; ${left} kB above the start once)"
else
	not_ok "$T: unload gives it back" "grows $grow kB per cycle (kmalloc caches $((k3 - k2)), percpu $((p3 - pa)), vmalloc $((v3 - va)) over two cycles, try $try, threads $th0 -> $th1; SUnreclaim $((s3 - sa))); left $left kB once"
fi
load_module
