#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot the VM test kernel with an initramfs, stream the guest's TAP to
# stdout, extract exported files and write the suite summary.
#
# usage: run-vm.sh MODE VMLINUZ INITRD OUTDIR
#   MODE      test | demo
#   OUTDIR    gets console.log (kernel + guest console), tap.log (second
#             serial port: TAP and exports) and vm-out/<NAME> exports
# environment:
#   VM_ACCEL      qemu -accel value (default tcg; tcg,thread=single for
#                 repeated insmod/rmmod with kretprobes, see docs/design.md)
#   VM_SMP        default 6,sockets=3,cores=2 (>= 3 groups in a domain)
#   VM_TOPO       a named machine instead of VM_SMP (sets -smp and -numa;
#                 VM_MEM is split evenly between the NUMA nodes):
#                 numa-ring4  4 NUMA nodes of 2 CPUs in a ring: distance 10
#                             to itself, 20 to its two neighbours, 30 to the
#                             opposite node (three distances: the NUMA
#                             domains' groups overlap)
#                 ring16      the same ring with 4 CPUs per node (16 vCPUs)
#                 numa-pkg-ring4  8 vCPUs: 2 packages x 2 dies (an LLC
#                             each) x 2 cores, each die a NUMA node, the
#                             nodes in a ring (20 to the neighbours, 30
#                             across): NUMA nodes inside a package and
#                             overlapping NUMA groups (the bug corpus)
#                 smt32       32 vCPUs: 2 NUMA nodes x 2 LLCs (dies) x 4 cores
#                             x 2 threads (SMT, MC, PKG, NUMA domains)
#                 smt64       64 vCPUs: 2 nodes x 2 dies x 8 cores x 2 threads
#                 smt8        8 vCPUs: 1 package x 4 cores x 2 threads (SMT
#                             and MC domains: the MC groups are SMT cores;
#                             make test-lb-topos)
#                 pkg2x4      8 vCPUs: 2 packages (an LLC each) x 4 cores, no
#                             SMT, one node (MC and PKG domains; with CPUs
#                             of one package offline, PKG groups of unequal
#                             core counts: make test-lb-topos)
#                 possible240 8 vCPUs online, 240 possible (maxcpus):
#                             nr_cpu_ids far above the online CPUs (QEMU 7.2
#                             TCG has no x2APIC: APIC ids end at 255)
#   VM_MEM        default 2G
#   VM_TIMEOUT    seconds before the VM is killed (default 900; make test-vm: 1500)
#   VM_SCENARIOS  comma-separated globs of scenario names to run
#   VM_SCENARIO_TIMEOUT  per-scenario guest timeout (default 120)
#   VM_APPEND     extra kernel command line
#   VM_QEMU_EXTRA extra qemu options, split at spaces (default none; make
#                 bench uses it for -icount)
#   SUMMARY       file for "N passed, N failed, N skipped" (test mode)
#   EXPORT_DIR    where exports go (default OUTDIR/vm-out)
#   VM_LOCK       lock file every boot takes (default /tmp/vm.lock), so two
#                 VMs never compete for this host's cores; VM_LOCK_HELD=1
#                 when the caller already holds it (tests/mutants/run.sh)
set -uo pipefail
mode=$1 vmlinuz=$2 initrd=$3 outdir=$4
accel=${VM_ACCEL:-tcg}
smp=${VM_SMP:-6,sockets=3,cores=2}
mem=${VM_MEM:-2G}
tmo=${VM_TIMEOUT:-900}
exports=${EXPORT_DIR:-$outdir/vm-out}
summary=${SUMMARY:-}
read -ra qextra <<< "${VM_QEMU_EXTRA:-}"
# numa_args NODES CPUS_PER_NODE [DIST...]: -numa options for VM_MEM split
# evenly, and distances given as src:dst:val (both directions)
topo=()
numa_args() {
	local nodes=$1 per=$2 n mb
	shift 2
	mb=$(numfmt --from=iec "${mem%B}" 2>/dev/null) || mb=0
	mb=$(( mb / 1048576 / nodes ))
	[ "$mb" -gt 0 ] || { echo "# vm: cannot split VM_MEM=$mem between $nodes nodes" >&2; exit 1; }
	for ((n = 0; n < nodes; n++)); do
		topo+=(-object "memory-backend-ram,id=m$n,size=${mb}M"
		       -numa "node,nodeid=$n,cpus=$((n * per))-$(((n + 1) * per - 1)),memdev=m$n")
	done
	for d in "$@"; do
		IFS=: read -r a b v <<< "$d"
		topo+=(-numa "dist,src=$a,dst=$b,val=$v")
	done
}
case ${VM_TOPO:-} in
'') ;;
numa-ring4)
	smp=8,sockets=4,cores=2
	per=$(( ${mem%G} * 1024 / 4 ))
	[ "${mem%G}" != "$mem" ] || { echo "run-vm.sh: VM_TOPO=numa-ring4 needs VM_MEM in G (got $mem)" >&2; exit 2; }
	for n in 0 1 2 3; do
		qextra+=(-object "memory-backend-ram,id=m$n,size=${per}M"
			 -numa "node,nodeid=$n,cpus=$((2 * n))-$((2 * n + 1)),memdev=m$n")
	done
	for a in 0 1 2 3; do
		for b in 0 1 2 3; do
			[ $a -lt $b ] || continue
			d=20; [ $(( (b - a) % 4 )) -eq 2 ] && d=30
			qextra+=(-numa "dist,src=$a,dst=$b,val=$d")
		done
	done ;;
# SMT siblings and an L3 per die need Intel-style topology leaves (0xB/0x1F,
# cache leaf 4): qemu64 is an AMD model without TOPOEXT, where 6.1 saw no SMT
smt32) smp=32,sockets=2,dies=2,cores=4,threads=2; numa_args 2 16; topo+=(-cpu "max,vendor=GenuineIntel") ;;
smt64) smp=64,sockets=2,dies=2,cores=8,threads=2; numa_args 2 32; topo+=(-cpu "max,vendor=GenuineIntel") ;;
smt8) smp=8,sockets=1,cores=4,threads=2; topo+=(-cpu "max,vendor=GenuineIntel") ;;
pkg2x4) smp=8,sockets=2,cores=4; topo+=(-cpu "max,vendor=GenuineIntel") ;;
numa-pkg-ring4) smp=8,sockets=2,dies=2,cores=2; topo+=(-cpu "max,vendor=GenuineIntel")
	numa_args 4 2 0:1:20 1:2:20 2:3:20 3:0:20 0:2:30 1:3:30 ;;
ring16) smp=16,sockets=4,cores=4
	numa_args 4 4 0:1:20 1:2:20 2:3:20 3:0:20 0:2:30 1:3:30 ;;
possible240) smp=8,sockets=60,cores=4,maxcpus=240 ;;
*)	echo "run-vm.sh: unknown VM_TOPO '$VM_TOPO' (numa-ring4 numa-pkg-ring4 ring16 smt8 pkg2x4 smt32 smt64 possible240)" >&2; exit 2 ;;
esac

mkdir -p "$outdir" "$exports"
rm -rf "${exports:?}"/*	# no stale exports from an earlier run
console=$outdir/console.log tap=$outdir/tap.log
: > "$console"; : > "$tap"; rm -f "$outdir/export.errors"
[ -n "$summary" ] && { mkdir -p "$(dirname "$summary")"; echo "0 passed, 1 failed" > "$summary"; }

append="console=ttyS0 panic=-1 oops=panic quiet loglevel=5 noautogroup mitigations=off"
append="$append rdinit=/init vmtest.mode=$mode"
[ -n "${VM_SCENARIOS:-}" ] && append="$append vmtest.only=${VM_SCENARIOS// /,}"
[ -n "${VM_SCENARIO_TIMEOUT:-}" ] && append="$append vmtest.timeout=$VM_SCENARIO_TIMEOUT"
[ -n "${VM_APPEND:-}" ] && append="$append $VM_APPEND"

echo "# vm: booting $(basename "$vmlinuz") accel=$accel smp=$smp mem=$mem${VM_TOPO:+ topo=$VM_TOPO} timeout=${tmo}s"
[ ${#qextra[@]} -gt 0 ] && echo "# vm: extra qemu options: ${qextra[*]}"
echo "# vm: console log $console"
lockcmd=()
[ -z "${VM_LOCK_HELD:-}" ] && lockcmd=(flock "${VM_LOCK:-/tmp/vm.lock}")
start=$(date +%s)
"${lockcmd[@]}" timeout -k 10 "$tmo" qemu-system-x86_64 \
	-nodefaults -nographic -no-reboot -monitor none \
	-accel "$accel" -smp "$smp" -m "$mem" \
	-serial "file:$console" -serial "file:$tap" \
	-kernel "$vmlinuz" -initrd "$initrd" -append "$append" \
	"${topo[@]}" "${qextra[@]}" </dev/null >"$outdir/qemu.out" 2>&1 &
qpid=$!

# Live view: TAP lines as they arrive, without the export payloads.
tail -n +1 -F --pid=$qpid "$tap" 2>/dev/null | tr -d '\r' |
	awk '/^=== VM_EXPORT BEGIN / { skip = 1; next }
	     /^=== VM_EXPORT END /   { skip = 0; next }
	     /^=== VM_DONE ===$/     { next }
	     !skip { print; fflush() }' &
tpid=$!
wait $qpid
qrc=$?
wait $tpid 2>/dev/null
elapsed=$(( $(date +%s) - start ))

tr -d '\r' < "$tap" > "$tap.clean"

# Exports: gzip'ed, base64'ed payloads between the marker lines
# (guest/lib.sh vm_export).
awk -v dir="$exports" '
	/^=== VM_EXPORT BEGIN / { name = $4; size = $5; f = dir "/" name ".b64"; printf "" > f; on = 1; next }
	/^=== VM_EXPORT END /   { if (on) { close(f); print name, size }; on = 0; next }
	on { print >> f }' "$tap.clean" | while read -r name size; do
	if base64 -d "$exports/$name.b64" 2>/dev/null | gzip -dc > "$exports/$name" 2>/dev/null &&
	   [ "$(stat -c %s "$exports/$name")" = "$size" ]; then
		echo "# vm: exported $exports/$name ($size bytes)"
	else
		echo "# vm: export $name is damaged (expected $size bytes)"
		echo "$name" >> "$outdir/export.errors"
	fi
	rm -f "$exports/$name.b64"
done

done_seen=0
grep -q '^=== VM_DONE ===$' "$tap.clean" && done_seen=1
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "# vm: TIMEOUT: killed after ${tmo}s; last console lines:"
	tail -n 30 "$console" | tr -d '\r' | sed 's/^/#   /'
elif [ $done_seen -eq 0 ]; then
	echo "# vm: the guest stopped before finishing (qemu exit $qrc); last console lines:"
	tail -n 40 "$console" | tr -d '\r' | sed 's/^/#   /'
	sed 's/^/#   qemu: /' "$outdir/qemu.out"
fi
# Kernel health, whatever scenarios ran: every kernel line on the console
# that matches the guest's pattern of a bad kernel line (DMESG_BAD in
# guest/lib.sh, read from there: one pattern for both sides; Oops, BUG,
# WARNING, stalls, lockups, hung tasks, general protection, UBSAN, KASAN,
# list corruption, ...) is one failure in test mode.  Kernel lines only
# (they carry a timestamp; the console also mirrors the guest's TAP).  The
# known rmmod-vs-debugfs-open race (stress/knownrace.awk, stress.lib) is
# dropped first, its own lines only, at most once per module load seen and
# KNOWN_RACE_MAX (3) reports per run; more fail.
bad=$(sed -n "s/^DMESG_BAD='\(.*\)'\$/\1/p" "$(dirname "$0")/guest/lib.sh")
[ -n "$bad" ] || { echo "# vm: no DMESG_BAD line in guest/lib.sh"; bad=BUG; }
kre="^\[ *[0-9]+\.[0-9]+\] .*($bad)"
race_max=3
loads=$(sed -n 's/^# module loads in this boot: \([0-9]*\)$/\1/p' "$tap.clean" | tail -n 1)
awk -v countfile="$outdir/races.n" -v loads="${loads:-0}" -f "$(dirname "$0")/stress/knownrace.awk" "$console" > "$outdir/console.filtered"
races=$(cat "$outdir/races.n" 2>/dev/null || echo 0)
kerrs=$(grep -cE "$kre" "$outdir/console.filtered")
if [ "$kerrs" -gt 0 ]; then
	echo "# vm: the console shows $kerrs kernel error line(s):"
	grep -E -A12 "$kre" "$outdir/console.filtered" | head -n 60 | sed 's/^/#   /'
fi
[ "$races" -gt 0 ] && echo "# vm: known kernel race (rmmod vs debugfs open, stress.lib): $races full_proxy_open WARNING(s) for our files (allowed $race_max per run)"
echo "# vm: wall time ${elapsed}s"

[ "$mode" = test ] || exit $(( done_seen ? 0 : 1 ))

# Test mode: trust the run only if it finished; recount on the host.  A
# SKIP is counted apart, never as a pass.
skip=$(grep -cE '^ok [0-9]+ .*# SKIP' "$tap.clean")
pass=$(( $(grep -cE '^ok [0-9]+' "$tap.clean") - skip ))
fail=$(grep -cE '^not ok [0-9]+' "$tap.clean")
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap.clean" | tail -n 1)
claim=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$tap.clean" | tail -n 1)
complete=1
if [ $done_seen -eq 0 ] || [ -z "$claim" ]; then
	echo "# vm: incomplete run ($pass passed and $fail failed before it stopped): counted as failed"
	complete=0
	fail=$((fail + 1))
elif [ "$plan" != "$((pass + fail + skip))" ] || [ "$claim" != "$pass passed, $fail failed, $skip skipped" ]; then
	echo "# vm: guest claims '$claim' (plan $plan) but the host counted $pass ok / $fail not ok / $skip skipped"
	fail=$((fail + 1))
fi
# kernel health: one failure per kernel error line, one if the known race
# came more often than allowed; one pass when the console is clean
if [ "$kerrs" -gt 0 ] || [ "$races" -gt "$race_max" ]; then
	echo "# vm: kernel health: FAILED: $kerrs kernel error line(s), $races known-race report(s) (allowed $race_max)"
	fail=$((fail + kerrs))
	[ "$races" -gt "$race_max" ] && fail=$((fail + 1))
else
	echo "# vm: kernel health: no Oops/BUG/WARNING/stall/lockup/hung task on the console"
	pass=$((pass + 1))
fi
if [ -s "$outdir/export.errors" ]; then
	echo "# vm: damaged exports: $(tr '\n' ' ' < "$outdir/export.errors")"
	fail=$((fail + 1))
fi
# Host-side checkers of exported files: tests/vm/host/<scenario>.sh, TAP,
# ending with "N passed, N failed" (tests/lib/tap.sh); same name filter.
hostdir=${HOST_CHECKS:-$(dirname "$0")/host}
for h in "$hostdir"/*.sh; do
	[ -f "$h" ] || continue
	name=$(basename "$h" .sh)
	if [ -n "${VM_SCENARIOS:-}" ]; then
		m=0
		IFS=, read -ra globs <<< "${VM_SCENARIOS// /,}"
		# shellcheck disable=SC2053 # a glob, on purpose
		for g in "${globs[@]}"; do [[ $name == $g ]] && m=1; done
		[ $m -eq 1 ] || continue
	fi
	echo "# vm: host checks $name"
	hout=$(bash "$h" "$exports" 2>&1)
	hrc=$?
	echo "$hout" | sed 's/^/  /'
	hl=$(echo "$hout" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
	if [ -z "$hl" ]; then
		echo "# vm: host checks $name ended without a result (exit $hrc)"
		fail=$((fail + 1))
		continue
	fi
	hp=${hl%% passed*} hf=${hl#*, }; hf=${hf%% failed*} hs=0
	case $hl in *skipped) hs=${hl##*failed, }; hs=${hs%% skipped} ;; esac
	[ $hrc -ne 0 ] && [ "$hf" -eq 0 ] && hf=1
	pass=$((pass + hp)) fail=$((fail + hf)) skip=$((skip + hs))
done

line="$pass passed, $fail failed, $skip skipped"
echo "$line"
# the summary keeps "0 passed, 1 failed" unless the run completed
[ -n "$summary" ] && [ $complete -eq 1 ] && echo "$line" > "$summary"
[ $fail -eq 0 ]
