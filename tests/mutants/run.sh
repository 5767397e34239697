#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-mutants: build the module with deliberate bugs and show that the
# VM tests fail on each (not part of `make test`).  Each tests/mutants/*.mut
# sets FILE (a file under module/), SED (the bug, a sed script), SUITE (vm
# or stress) and SCENARIOS (the subset of that suite that should catch it).
# For each: a copy of Kbuild + VERSION + module/ under build/mutants/NAME/src,
# the sed applied (a sed that changes nothing is reported as "not applied",
# a failure of this run: the code it targets moved), the module built for
# the VM kernel (tests/vm/build-module.sh), the initramfs packed with it and
# the subset booted under the shared VM lock.  A mutant is caught when that
# run fails; the table lists the failing checks.
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
. "$env_file" || { echo "no $env_file (make vm-kernel)"; exit 1; }
names=${MUTANTS:-$(cd "$TOP/tests/mutants" && ls *.mut | sed 's/\.mut$//')}
caught=0 missed=0 broken=0
table=$BUILD/mutants/table.txt
mkdir -p "$BUILD/mutants"
printf '%-22s %-7s %-12s %-8s %s\n' mutant suite scenarios result "failing checks" > "$table"
for name in $names; do
	FILE= SED= SUITE= SCENARIOS=
	. "$TOP/tests/mutants/$name.mut"
	B=$BUILD/mutants/$name
	rm -rf "$B" && mkdir -p "$B/src"
	cp "$TOP/Kbuild" "$TOP/VERSION" "$B/src/"
	tar -C "$TOP" --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
		--exclude=generated -cf - module | tar -C "$B/src" -xf -
	sed -i "$SED" "$B/src/$FILE"
	echo "# ---- mutant $name: $FILE, caught by $SUITE $SCENARIOS?"
	if cmp -s "$TOP/$FILE" "$B/src/$FILE"; then
		echo "# mutant $name: NOT APPLIED (its sed changed nothing in $FILE)"
		printf '%-22s %-7s %-12s %-8s %s\n' "$name" "$SUITE" "$SCENARIOS" "BROKEN" "sed did not apply" >> "$table"
		broken=$((broken + 1)); continue
	fi
	diff -u "$TOP/$FILE" "$B/src/$FILE" | sed 's/^/#   /'
	if ! BTFGEN=$BTFGEN TOP=$B/src "$TOP/tests/vm/build-module.sh" "$env_file" "$B/kmod" > "$B/build.log" 2>&1; then
		echo "# mutant $name: build failed:"; tail -n 10 "$B/build.log" | sed 's/^/#   /'
		printf '%-22s %-7s %-12s %-8s %s\n' "$name" "$SUITE" "$SCENARIOS" "BROKEN" "build failed" >> "$table"
		broken=$((broken + 1)); continue
	fi
	make -C "$TOP" --no-print-directory -s vm-initramfs VM_KO="$B/kmod/sched_shadow.ko" VM_DIR="$B/vm" > "$B/initramfs.log" 2>&1 ||
		{ echo "# mutant $name: initramfs failed"; tail -n 5 "$B/initramfs.log"; broken=$((broken + 1)); continue; }
	if [ "$SUITE" = stress ]; then
		accel=tcg,thread=single
		app="vmtest.suite=stress vmtest.level=short vmtest.accel=$accel"
		hc=$TOP/tests/vm/stress/host
	else
		accel=tcg app= hc=$TOP/tests/vm/host
	fi
	flock "$LOCK" env VM_ACCEL=$accel VM_TIMEOUT=600 VM_SCENARIOS="$SCENARIOS" VM_APPEND="$app" \
		HOST_CHECKS=$hc SUMMARY="$B/summary" EXPORT_DIR="$B/vm-out" \
		"$TOP/tests/vm/run-vm.sh" test "$VM_VMLINUZ" "$B/vm/initramfs.cpio" "$B/run" > "$B/run.log" 2>&1
	rc=$?
	fails=$( { grep -E '^not ok' "$B/run/tap.log.clean"; grep -E '^  not ok' "$B/run.log" | sed 's/^  //'; } 2>/dev/null |
		sed -E 's/^not ok [0-9]+ - //' | cut -c1-70 | paste -sd ';' -)
	echo "# mutant $name: run exit $rc, $(cat "$B/summary" 2>/dev/null)"
	if [ $rc -ne 0 ]; then
		caught=$((caught + 1)); res=caught
	else
		missed=$((missed + 1)); res=MISSED
	fi
	printf '%-22s %-7s %-12s %-8s %s\n' "$name" "$SUITE" "$SCENARIOS" "$res" "${fails:--}" >> "$table"
done
cat "$table"
echo "mutants: $caught caught, $missed missed, $broken broken"
[ $missed -eq 0 ] && [ $broken -eq 0 ]
