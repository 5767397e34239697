#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-mutants: build the module with deliberate bugs and show that the
# VM tests fail on each (not part of `make test`).  Each tests/mutants/*.mut
# sets FILE (a file under module/), SED (the bug, a sed script), SUITE
# (scenarios or stress) and SCENARIOS (the globs of that suite that should
# catch it).  For each: a copy of Kbuild + VERSION + module/ under
# build/mutants/NAME/src, the sed applied (a sed that changes nothing is
# "not applied", a failure of this run: the code it targets moved), the
# module built for the VM kernel (tests/vm/build-module.sh).
# Then ONE boot (under the shared VM lock, -accel tcg,thread=single as the
# stress suite) runs, for each mutant, its scenarios with KO= that
# mutant's module (generated wrappers in build/mutants/guest/suite, run as
# vmtest.suite=mutants/suite; exports prefixed NAME--), and the host
# checkers of those scenarios (tests/vm/host) on each mutant's exports.  A
# mutant is caught when at least one of its checks fails; the table lists
# them.  The same scenarios pass with the unmutated module in `make test`.
#   MUTANTS='name ...'  only these (default: every tests/mutants/*.mut)
# env from make: TOP BUILD CACHE KERNEL BTFGEN
set -uo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
CACHE=${CACHE:-/var/cache/sched_shadow}
KERNEL=${KERNEL:-bookworm}
BTFGEN=${BTFGEN:-$BUILD/btfgen}
LOCK=${VM_LOCK:-/tmp/vm.lock}
env_file=$CACHE/$KERNEL.env
# shellcheck source=/dev/null # a kernel's settings, written by tests/vm/kernel.sh
. "$env_file" || { echo "no $env_file (make vm-kernel)"; exit 1; }
names=${MUTANTS:-$(cd "$TOP/tests/mutants" && ls *.mut | sed 's/\.mut$//')}
M=$BUILD/mutants
G=$M/guest
rm -rf "$G" && mkdir -p "$G/mods" "$G/suite"
broken='' built=''
declare -A why
n=0
for name in $names; do
	FILE='' SED='' SUITE='' SCENARIOS=''
	# shellcheck source=/dev/null # one mutant's settings (tests/mutants/*.mut)
	. "$TOP/tests/mutants/$name.mut"
	B=$M/$name
	rm -rf "$B" && mkdir -p "$B/src"
	cp "$TOP/Kbuild" "$TOP/VERSION" "$B/src/"
	tar -C "$TOP" --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
		--exclude=generated -cf - module | tar -C "$B/src" -xf -
	sed -i "$SED" "$B/src/$FILE"
	echo "# ---- mutant $name ($FILE): should be caught by $SUITE $SCENARIOS"
	if cmp -s "$TOP/$FILE" "$B/src/$FILE"; then
		echo "# mutant $name: NOT APPLIED (its sed changed nothing in $FILE)"
		why[$name]="sed did not apply"; broken="$broken $name"; continue
	fi
	diff -u "$TOP/$FILE" "$B/src/$FILE" | tail -n +3 | sed 's/^/#   /'
	# shellcheck disable=SC2097,SC2098 # the script under $TOP builds the copy in $B/src
	if ! BTFGEN=$BTFGEN TOP=$B/src "$TOP/tests/vm/build-module.sh" "$env_file" "$B/kmod" > "$B/build.log" 2>&1; then
		echo "# mutant $name: build failed:"; tail -n 10 "$B/build.log" | sed 's/^/#   /'
		why[$name]="build failed"; broken="$broken $name"; continue
	fi
	cp "$B/kmod/sched_shadow.ko" "$G/mods/$name.ko"
	built="$built $name"
	# one wrapper per scenario: the mutant's module, prefixed exports
	for f in "$TOP/tests/vm/$SUITE"/*.sh; do
		scen=$(basename "$f" .sh) m=0
		IFS=, read -ra globs <<< "$SCENARIOS"
		# shellcheck disable=SC2053 # a glob, on purpose
		for g in "${globs[@]}"; do [[ $scen == $g ]] && m=1; done
		[ $m -eq 1 ] || continue
		n=$((n + 1))
		w=$G/suite/$(printf '%02d' $n)-$name--$scen.sh
		{
			echo "# SPDX-License-Identifier: GPL-2.0"
			grep -m1 '^# plan:' "$f"
			grep -m1 '^# timeout:' "$f"
			echo "# mutant $name: $SUITE/$scen with build/mutants/$name's module"
			echo "unload_module"
			echo "KO=/lib/vm/mutants/mods/$name.ko"
			echo "VM_EXPORT_PREFIX=$name--"
			echo ". /lib/vm/$SUITE/$scen.sh"
		} > "$w"
	done
done
[ -n "$built" ] || { echo "no mutant built"; exit 1; }

# the initramfs: everything test-vm packs, plus the mutants' modules and wrappers
make -C "$TOP" --no-print-directory -s vm-initramfs VM_KO="$G/mods/$(set -- $built; echo "$1").ko" \
	VM_DIR="$M/vm" MUTANT_GUEST=1 > "$M/initramfs.log" 2>&1 ||
	{ echo "initramfs failed:"; tail -n 5 "$M/initramfs.log"; exit 1; }
echo "# booting once for$built ($n scenario runs; waiting for $LOCK)"
flock "$LOCK" env VM_LOCK_HELD=1 VM_ACCEL=tcg,thread=single VM_TIMEOUT=1800 VM_SCENARIOS= \
	VM_APPEND="vmtest.suite=mutants/suite vmtest.accel=tcg,thread=single vmtest.timeout=150" \
	HOST_CHECKS=/nonexistent SUMMARY="$M/summary" EXPORT_DIR="$M/vm-out" \
	"$TOP/tests/vm/run-vm.sh" test "$VM_VMLINUZ" "$M/vm/initramfs.cpio" "$M/run" > "$M/run.log" 2>&1
rc=$?
grep -q '^=== VM_DONE ===$' "$M/run/tap.log.clean" || { echo "the mutant VM did not finish (rc $rc): see $M/run.log"; tail -n 20 "$M/run.log"; exit 1; }

table=$M/table.txt
printf '| mutant | what | caught by (scenarios) | result | failing checks |\n|---|---|---|---|---|\n' > "$table"
caught=0 missed=0
for name in $names; do
	FILE='' SED='' SUITE='' SCENARIOS=''
	# shellcheck source=/dev/null # one mutant's settings (tests/mutants/*.mut)
	. "$TOP/tests/mutants/$name.mut"
	what=$(sed -n '1s/^# //p' "$TOP/tests/mutants/$name.mut")
	if [ -n "${why[$name]:-}" ]; then
		printf '| %s | %s | %s | BROKEN | %s |\n' "$name" "$what" "$SCENARIOS" "${why[$name]}" >> "$table"
		continue
	fi
	# guest results of this mutant's wrappers
	fails=$(awk -v m="$name" '
		/^# --- / { on = ($3 ~ ("^[0-9]+-" m "--")); next }
		on && /^not ok [0-9]+/ { sub(/^not ok [0-9]+ - /, ""); print }' "$M/run/tap.log.clean" | cut -c1-90)
	# host checkers of its scenarios, on its own exports
	hx=$M/$name/host-out
	rm -rf "$hx" && mkdir -p "$hx"
	for f in "$M/vm-out/$name--"*; do [ -f "$f" ] && cp "$f" "$hx/${f##*/$name--}"; done
	if [ "$SUITE" = scenarios ]; then
		for h in "$TOP"/tests/vm/host/*.sh; do
			scen=$(basename "$h" .sh) m=0
			IFS=, read -ra globs <<< "$SCENARIOS"
			# shellcheck disable=SC2053 # a glob, on purpose
			for g in "${globs[@]}"; do [[ $scen == $g ]] && m=1; done
			[ $m -eq 1 ] || continue
			bash "$h" "$hx" > "$M/$name/host-$scen.log" 2>&1
			hf=$(grep -E '^not ok' "$M/$name/host-$scen.log" | sed -E 's/^not ok [0-9]+ - /host: /' | cut -c1-90)
			[ -n "$hf" ] && fails=$(printf '%s\n%s' "$fails" "$hf")
		done
	fi
	fails=$(echo "$fails" | grep -v '^$')
	nf=$(echo "$fails" | grep -c .)
	echo "# mutant $name: $nf failing checks"
	echo "$fails" | grep . | sed 's/^/#   /'
	if [ "$nf" -gt 0 ]; then
		caught=$((caught + 1)); res="caught ($nf)"
	else
		missed=$((missed + 1)); res=MISSED
	fi
	printf '| %s | %s | %s | %s | %s |\n' "$name" "$what" "$SCENARIOS" "$res" \
		"$(echo "$fails" | head -n 3 | paste -sd ';' - | sed 's/|/\\|/g')" >> "$table"
done
cat "$table"
nb=$(echo $broken | wc -w)
echo "mutants: $caught caught, $missed missed, $nb broken"
[ $missed -eq 0 ] && [ "$nb" -eq 0 ]
