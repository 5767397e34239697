#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The published-bug corpus (tests/vm/bugs/*.sh, docs/bugs.md): one boot
# per machine shape the selected entries ask for (their "# topology:"
# header line), each running those entries as the guest suite "bugs";
# then the corpus lines, exactly as the entries printed them, in corpus
# order:
#   bug <name>: <present|fixed> on <release>: <finding>: <shown|not shown>; <agree|DISAGREE>
#
# usage: run-bugs.sh VMLINUZ INITRD OUTDIR [NAME...]   (no NAME: every entry)
# environment: SUMMARY (the suite's "N passed, N failed, N skipped", written
# only when every boot completed), VM_ACCEL, VM_TIMEOUT, VM_APPEND and the
# other run-vm.sh knobs.
#
# topology header values:
#   default          run-vm.sh's default machine (VM_SMP 6,sockets=3,cores=2)
#   smp SPEC         VM_SMP=SPEC (e.g. 8,sockets=2,cores=4)
#   topo NAME        VM_TOPO=NAME (run-vm.sh's named machines)
set -uo pipefail
vmlinuz=$1 initrd=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/bugs
summary=${SUMMARY:-}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in "$corpus"/*.sh; do names+=("$(basename "$f" .sh)"); done
fi
for n in "${names[@]}"; do
	[ -f "$corpus/$n.sh" ] || { echo "run-bugs.sh: no entry $corpus/$n.sh" >&2; exit 2; }
done
mkdir -p "$out"
rm -f "$out"/*.summary "$out"/bugs.lines
[ -n "$summary" ] && { mkdir -p "$(dirname "$summary")"; echo "0 passed, 1 failed" > "$summary"; }

# the shapes, in the order their first entry comes
declare -A shape_of
shapes=()
for n in "${names[@]}"; do
	t=$(sed -n 's/^# topology: *//p' "$corpus/$n.sh" | head -n 1)
	case $t in
	default|smp\ *|topo\ *) ;;
	*) echo "run-bugs.sh: $n: bad or missing '# topology:' line ('$t')" >&2; exit 2 ;;
	esac
	shape_of[$n]=$t
	case " ${shapes[*]:-} " in *" ${t// /_} "*) ;; *) shapes+=("${t// /_}") ;; esac
done

start=$(date +%s) complete=1
for s in "${shapes[@]}"; do
	t=${s//_/ } sel=()
	for n in "${names[@]}"; do [ "${shape_of[$n]}" = "$t" ] && sel+=("$n"); done
	dir=$out/$(echo "$s" | tr -c 'A-Za-z0-9.=\n-' '-')
	mkdir -p "$dir"
	smp='' topo=''
	case $t in smp\ *) smp=${t#smp } ;; topo\ *) topo=${t#topo } ;; esac
	t0=$(date +%s)
	echo "# test-bugs: machine '$t': ${sel[*]}"
	only=$(IFS=,; echo "${sel[*]}")
	( [ -n "$smp" ] && export VM_SMP=$smp
	  [ -n "$topo" ] && export VM_TOPO=$topo
	  VM_SCENARIOS=$only VM_APPEND="vmtest.suite=bugs ${VM_APPEND:-}" \
	  HOST_CHECKS=$dir/no-host-checks SUMMARY=$dir.summary EXPORT_DIR=$dir/vm-out \
	  "$here/run-vm.sh" test "$vmlinuz" "$initrd" "$dir" )
	grep -qE '^[0-9]+ passed' "$dir.summary" 2>/dev/null || complete=0
	echo "# test-bugs: machine '$t': $(cat "$dir.summary" 2>/dev/null || echo 'no result') in $(( $(date +%s) - t0 )) s"
done

# the corpus lines, in corpus order (an entry that printed none is named)
for n in "${names[@]}"; do
	f=$(ls "$out"/*/vm-out/"bug-$n.line" 2>/dev/null | head -n 1)
	if [ -n "$f" ]; then cat "$f"; else echo "bug $n: no line (the entry did not finish)"; fi
done | tee "$out/bugs.lines"

pass=0 fail=0 skip=0
for s in "${shapes[@]}"; do
	line=$(cat "$out/$(echo "$s" | tr -c 'A-Za-z0-9.=\n-' '-').summary" 2>/dev/null)
	case $line in
	*passed*failed*)
		p=${line%% passed*} q=${line#*, }; q=${q%% failed*} k=0
		case $line in *skipped) k=${line##*failed, }; k=${k%% skipped} ;; esac
		pass=$((pass + p)) fail=$((fail + q)) skip=$((skip + k)) ;;
	*) fail=$((fail + 1)) ;;
	esac
done
line="$pass passed, $fail failed, $skip skipped"
echo "# test-bugs: ${#shapes[@]} boot(s), ${#names[@]} entries: $line in $(( $(date +%s) - start )) s"
[ -n "$summary" ] && [ $complete -eq 1 ] && echo "$line" > "$summary"
[ $fail -eq 0 ]
