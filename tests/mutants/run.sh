#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-mutants: the module built with deliberate bugs, each of which
# named checks must catch, on every kernel of MUTANT_KERNELS (default
# bookworm = 6.1 and trixie-backports = 7.3), with an unmutated control in
# the same boot.  Not part of `make test`.
#
# A mutant is tests/mutants/NAME.mut (bash), first line "# what it breaks":
#   EDITS=(FILE SED [FILE SED]...)  sed scripts applied to a copy of the
#             tree (a file under module/, or tests/ for a host mutant); an
#             edit that changes nothing is "not applied", a failure of the
#             run (the code it targets moved).  The mutated code carries the
#             token MUTANT_HIT (an expression, see below) where it runs.
#   SCENARIOS='NN*,...'  VM scenarios (tests/vm/scenarios) to boot with it
#   STRESS='NN*,...'     stress scenarios (tests/vm/stress) to boot with it
#   HOST='command'       instead of a boot: a host command run in the
#             mutated tree (model rules: the checker's cross-check,
#             tests/mutants/checker-host.sh), with MUTANT_KERNEL and BUILD
#             set; TAP out
#   CHECKS=(ERE...)      the checks that must catch it: each ERE must match
#             a failing check ("guest: NAME" or "host: NAME", from the
#             scenarios' TAP and their host checkers), and must match no
#             failing check of the control (the unmutated module, same
#             scenarios, same boot); a different failing check does not count
#   INACTIVE='kernel...' kernels where the mutated code does not run (the
#             flat walk on 6.1, ...): there the mutant must not be reached
#
# Reached: every mutant module counts MUTANT_HIT evaluations and prints
# "sched_shadow: mutant NAME reached N times" when it unloads; the guest
# adds them up per scenario.  A mutant is
#   caught    reached (or HOST) and every CHECKS ERE matches a failing check
#             that the control passes;
#   inactive  on a kernel of INACTIVE, reached 0 times in its loads (the
#             proof), and the module's `walk`/`layout` line is printed;
#   missed    anything else (not reached where it should be, a named check
#             that passed, or the control failing it).
# The run prints per kernel a table and "mutants on KERNEL: N caught, N
# inactive, N missed", then "N caught, N missed" over all kernels; it
# fails on any missed, broken or not applied mutant, and when fewer than
# MUTANT_MIN_ACTIVE (10) are active and caught on a kernel.
#   MUTANTS='name ...'  only these; MUTANT_KERNELS='...' only these kernels
# env from make: TOP BUILD CACHE BTFGEN
set -uo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
CACHE=${CACHE:-/var/cache/sched_shadow}
BTFGEN=${BTFGEN:-$BUILD/btfgen}
LOCK=${VM_LOCK:-/tmp/vm.lock}
KERNELS=${MUTANT_KERNELS:-bookworm trixie-backports}
# at least 10 active and caught per kernel, when every mutant runs
MIN_ACTIVE=${MUTANT_MIN_ACTIVE:-$([ -n "${MUTANTS:-}" ] && echo 0 || echo 10)}
names=${MUTANTS:-$(cd "$TOP/tests/mutants" && ls *.mut | sed 's/\.mut$//')}
M=$BUILD/mutants
mkdir -p "$M"
total_caught=0 total_missed=0 total_broken=0 report=$M/report.txt
: > "$report"

load_mut() {	# load_mut NAME: the .mut's variables
	EDITS=() SCENARIOS='' STRESS='' HOST='' CHECKS=() INACTIVE=''
	# shellcheck source=/dev/null
	. "$TOP/tests/mutants/$1.mut"
	WHAT=$(sed -n '1s/^# //p' "$TOP/tests/mutants/$1.mut")
}

# globs_match NAME GLOBS
globs_match() {
	local g
	IFS=, read -ra gs <<< "$2"
	# shellcheck disable=SC2053 # glob matching on purpose
	for g in "${gs[@]}"; do [[ $1 == $g ]] && return 0; done
	return 1
}

# make_tree NAME DIR: the tree with the mutant's edits and the hit counter
make_tree() {
	local name=$1 d=$2 i f
	rm -rf "$d" && mkdir -p "$d"
	cp "$TOP/Kbuild" "$TOP/VERSION" "$TOP/Makefile" "$d/"
	tar -C "$TOP" --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
		--exclude=generated -cf - module tests userspace bpf scripts 2>/dev/null | tar -C "$d" -xf -
	for ((i = 0; i < ${#EDITS[@]}; i += 2)); do
		f=${EDITS[i]}
		sed -i "${EDITS[i + 1]}" "$d/$f"
		if cmp -s "$TOP/$f" "$d/$f"; then
			echo "not applied: the edit of $f changed nothing"
			return 1
		fi
		diff -u "$TOP/$f" "$d/$f" | tail -n +3 | sed 's/^/#   /'
	done
	# the hit counter: MUTANT_HIT evaluates to 0 and counts
	cat > "$d/module/mutant_hits.h" <<-EOF
	/* SPDX-License-Identifier: GPL-2.0 */
	/* make test-mutants: counts the evaluations of the mutated code */
	#ifndef SHADOW_MUTANT_HITS_H
	#define SHADOW_MUTANT_HITS_H
	extern unsigned int shadow_mutant_hits;
	/* an expression (0) usable anywhere; racy increments are fine for a count */
	#define MUTANT_HIT (((*(volatile unsigned int *)&shadow_mutant_hits)++), 0)
	#endif
	EOF
	cat > "$d/module/mutant_hits.c" <<-EOF
	// SPDX-License-Identifier: GPL-2.0
	unsigned int shadow_mutant_hits;
	EOF
	printf 'sched_shadow-y += mutant_hits.o\nccflags-y += -include $(src)/mutant_hits.h\n' >> "$d/module/Kbuild"
	sed -i "/^static void __exit shadow_exit(void)\$/{n;s/^{\$/{\\n\\tpr_info(\"mutant $name reached %u times\\\\n\", shadow_mutant_hits);/}" \
		"$d/module/main.c"
	grep -q "mutant $name reached" "$d/module/main.c" ||
		{ echo "not applied: no shadow_exit() in module/main.c for the hit count"; return 1; }
}

# results WRAPPER_NAME_RE TAPLOG: the guest results ("guest: NAME" lines,
# "FAIL " before failures) of the wrappers whose name matches
guest_results() {
	awk -v re="$1" '
		/^# --- / { on = ($3 ~ re); next }
		on && /^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "FAIL guest: " $0; next }
		on && /^ok [0-9]+ - / && !/# SKIP/ { sub(/^ok [0-9]+ - /, ""); print "PASS guest: " $0 }' "$2"
}

# host_results PREFIX VMOUT SCENARIO_GLOBS STRESS_GLOBS WORKDIR
host_results() {
	local pre=$1 vo=$2 sc=$3 st=$4 w=$5 h scen dir hx
	hx=$w/host-out
	rm -rf "$hx" && mkdir -p "$hx"
	for f in "$vo/$pre"*; do [ -f "$f" ] && cp "$f" "$hx/${f##*/$pre}"; done
	for pair in "scenarios:$sc:$TOP/tests/vm/host" "stress:$st:$TOP/tests/vm/stress/host"; do
		IFS=: read -r _ globs dir <<< "$pair"
		[ -n "$globs" ] || continue
		for h in "$dir"/*.sh; do
			[ -f "$h" ] || continue
			scen=$(basename "$h" .sh)
			globs_match "$scen" "$globs" || continue
			bash "$h" "$hx" > "$w/host-$scen.log" 2>&1
			awk '/^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "FAIL host: " $0; next }
			     /^ok [0-9]+ - / && !/# SKIP/ { sub(/^ok [0-9]+ - /, ""); print "PASS host: " $0 }' "$w/host-$scen.log"
			grep -qE '^[0-9]+ passed, [0-9]+ failed' "$w/host-$scen.log" || echo "FAIL host: $scen ended without a result"
		done
	done
}

for K in $KERNELS; do
	env_file=$CACHE/$K.env
	KD=$M/$K
	G=$KD/guest
	rm -rf "$G" && mkdir -p "$G/mods" "$G/suite"
	# shellcheck source=/dev/null
	make -C "$TOP" --no-print-directory -s vm-kernel KERNEL="$K" > "$KD.kernel.log" 2>&1 &&
		. "$env_file" || { echo "# mutants on $K: no kernel ($env_file): see $KD.kernel.log"; total_broken=$((total_broken + 1)); continue; }
	declare -A why=() hostonly=()
	built='' n=0 all_sc='' all_st=''
	echo "# ==== mutants on $K ($VM_RELEASE)"
	for name in $names; do
		load_mut "$name"
		B=$KD/$name
		mkdir -p "$B"
		echo "# ---- mutant $name: $WHAT"
		if ! make_tree "$name" "$B/src" > "$B/edit.log" 2>&1; then
			cat "$B/edit.log"; why[$name]=$(tail -n 1 "$B/edit.log"); continue
		fi
		sed 's/^/  /' "$B/edit.log" | head -n 30
		if [ -n "$HOST" ]; then
			hostonly[$name]=1
			continue
		fi
		bm=$TOP/tests/vm/build-module.sh
		if ! BTFGEN=$BTFGEN TOP=$B/src "$bm" "$env_file" "$B/kmod" > "$B/build.log" 2>&1; then
			echo "# mutant $name: build failed:"; tail -n 10 "$B/build.log" | sed 's/^/#   /'
			why[$name]="build failed"; continue
		fi
		cp "$B/kmod/sched_shadow.ko" "$G/mods/$name.ko"
		built="$built $name"
		[ -n "$SCENARIOS" ] && all_sc="$all_sc,$SCENARIOS"
		[ -n "$STRESS" ] && all_st="$all_st,$STRESS"
	done
	all_sc=${all_sc#,} all_st=${all_st#,}
	# wrappers: the control (the unmutated module) first, then each mutant
	wrap() {	# wrap WHO KO SUITE SCEN
		local who=$1 ko=$2 suite=$3 scen=$4 f=$TOP/tests/vm/$3/$4.sh w
		n=$((n + 1))
		w=$G/suite/$(printf '%03d' $n)-$who--$scen.sh
		{
			echo "# SPDX-License-Identifier: GPL-2.0"
			grep -m1 '^# plan:' "$f"
			grep -m1 '^# timeout:' "$f"
			echo "# make test-mutants: $suite/$scen with the module of $who"
			echo "WHO=$who SCEN=$scen"
			echo "KO=$ko"
			cat <<-'EOF'
			unload_module
			VM_EXPORT_PREFIX=$WHO--
			mutant_mark=$(dmesg_mark)
			EOF
			echo ". /lib/vm/$suite/$scen.sh"
			cat <<-'EOF'
			_rc=$?
			# the layout the mutant's code ran under (a scenario that ends
			# unloaded gets one more load of the same module to show it)
			module_loaded || load_module "$KO"
			_lay=$(awk '$1 == "walk" || $1 == "layout" { printf "%s %s ", $1, $2 }' "$SS/info" 2>/dev/null)
			unload_module
			_h=$(dmesg_since "$mutant_mark" | sed -n "s/.*sched_shadow: mutant $WHO reached \([0-9]*\) times.*/\1/p" |
				awk '{ s += $1; n++ } END { print s + 0, n + 0 }')
			_emit "# mutant-hits $WHO $SCEN $_h $(dmesg_since "$mutant_mark" | grep -c 'sched_shadow: loaded: ')"
			if [ -n "$_lay" ]; then
				_emit "# mutant-layout $WHO $_lay"
			fi
			exit "$_rc"
			EOF
		} > "$w"
	}
	for suite in scenarios stress; do
		globs=$all_sc; [ $suite = stress ] && globs=$all_st
		[ -n "$globs" ] || continue
		for f in "$TOP/tests/vm/$suite"/*.sh; do
			s=$(basename "$f" .sh)
			globs_match "$s" "$globs" && wrap control /lib/vm/sched_shadow.ko $suite "$s"
		done
	done
	for name in $built; do
		load_mut "$name"
		for suite in scenarios stress; do
			globs=$SCENARIOS; [ $suite = stress ] && globs=$STRESS
			[ -n "$globs" ] || continue
			for f in "$TOP/tests/vm/$suite"/*.sh; do
				s=$(basename "$f" .sh)
				globs_match "$s" "$globs" && wrap "$name" "/lib/vm/mutants/mods/$name.ko" $suite "$s"
			done
		done
	done
	if [ $n -gt 0 ]; then
		vmsfx=$([ "$K" = bookworm ] || echo "-$K")
		make -C "$TOP" --no-print-directory -s vm-initramfs KERNEL="$K" MUTANT_GUEST="$G" \
			> "$KD/initramfs.log" 2>&1 ||
			{ echo "# mutants on $K: initramfs failed:"; tail -n 5 "$KD/initramfs.log"; total_broken=$((total_broken + 1)); continue; }
		echo "# booting $K once for$built and the control ($n scenario runs; waiting for $LOCK)"
		start=$(date +%s)
		flock "$LOCK" env VM_LOCK_HELD=1 VM_ACCEL=tcg,thread=single VM_TIMEOUT=${MUTANT_VM_TIMEOUT:-3000} VM_SCENARIOS= \
			VM_APPEND="vmtest.suite=mutants/suite vmtest.accel=tcg,thread=single vmtest.timeout=150 slub_nomerge" \
			HOST_CHECKS=/nonexistent SUMMARY="$KD/summary" EXPORT_DIR="$KD/vm-out" \
			"$TOP/tests/vm/run-vm.sh" test "$VM_VMLINUZ" "$BUILD/vm$vmsfx/initramfs.cpio" "$KD/run" > "$KD/run.log" 2>&1
		rc=$?
		echo "# $K: boot took $(( $(date +%s) - start )) s (rc $rc; log $KD/run.log)"
		grep -q '^=== VM_DONE ===$' "$KD/run/tap.log.clean" ||
			{ echo "# mutants on $K: the VM did not finish: see $KD/run.log"; tail -n 20 "$KD/run.log"; total_broken=$((total_broken + 1)); continue; }
		grep -E '^# vm: (kernel health|the console shows)' "$KD/run.log" | sed 's/^/  /'
	fi
	tap=$KD/run/tap.log.clean
	# the control
	CW=$KD/control
	mkdir -p "$CW"
	{ guest_results '^[0-9]+-control--' "$tap"; host_results control-- "$KD/vm-out" "$all_sc" "$all_st" "$CW"; } > "$CW/results"
	cfail=$(grep -c '^FAIL' "$CW/results")
	echo "# control on $K: $(grep -c '^PASS' "$CW/results") passed, $cfail failed"
	grep '^FAIL' "$CW/results" | head -n 10 | sed 's/^/#   /'
	caught=0 missed=0 inactive=0 active_caught=0
	printf '| mutant | kernel | what | result | named checks that failed (control passed) |\n|---|---|---|---|---|\n' >> "$report"
	for name in $names; do
		load_mut "$name"
		W=$KD/$name
		res='' detail=''
		if [ -n "${why[$name]:-}" ]; then
			res=BROKEN detail=${why[$name]}
			total_broken=$((total_broken + 1))
		else
			if [ -n "${hostonly[$name]:-}" ]; then
				(cd "$W/src" && MUTANT_KERNEL=$K BUILD=$W/build eval "$HOST") > "$W/host.log" 2>&1
				awk '/^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "FAIL host: " $0; next }
				     /^ok [0-9]+ - / { sub(/^ok [0-9]+ - /, ""); print "PASS host: " $0 }' "$W/host.log" > "$W/results"
				hits=host loads=-
				ctl=$W/control-results
				(cd "$TOP" && MUTANT_KERNEL=$K BUILD=$KD/control-host eval "$HOST") > "$W/control-host.log" 2>&1
				awk '/^not ok [0-9]+ - / { sub(/^not ok [0-9]+ - /, ""); print "FAIL host: " $0 }' "$W/control-host.log" > "$ctl"
			else
				{ guest_results "^[0-9]+-$name--" "$tap"; host_results "$name--" "$KD/vm-out" "$SCENARIOS" "$STRESS" "$W"; } > "$W/results"
				# shellcheck disable=SC2046 # three numbers, split on purpose
				set -- $(awk -v m="$name" '$2 == "mutant-hits" && $3 == m { h += $5; n += $6; l += $7 } END { print h + 0, n + 0, l + 0 }' "$tap")
				hits=$1 loads=$3
				ctl=$CW/results
			fi
			layout=$(awk -v m="$name" '$2 == "mutant-layout" && $3 == m { $1 = $2 = $3 = ""; print; exit }' "$tap" | sed 's/^ *//')
			named='' nmiss=''
			for re in "${CHECKS[@]}"; do
				hit=$(grep '^FAIL' "$W/results" | sed 's/^FAIL //' | grep -E -m1 -- "$re")
				cbad=$(grep '^FAIL' "$ctl" | sed 's/^FAIL //' | grep -E -m1 -- "$re")
				if [ -n "$hit" ] && [ -z "$cbad" ]; then
					named="$named${named:+; }$(echo "$hit" | cut -c1-110)"
				else
					nmiss="$nmiss [$re: ${hit:+the control fails it too: $cbad}${hit:-no failing check}]"
				fi
			done
			other=$(grep -c '^FAIL' "$W/results")
			if [[ " $INACTIVE " == *" $K "* ]]; then
				if [ "$hits" = 0 ] && [ "${loads:-0}" != 0 ]; then
					res=inactive detail="reached 0 times in $loads loads ($layout)"
					inactive=$((inactive + 1))
				else
					res=MISSED detail="declared inactive on $K but reached $hits times in ${loads:-0} loads"
				fi
			elif [ "$hits" != host ] && [ "$hits" = 0 ]; then
				res=MISSED detail="not reached (0 times in ${loads:-0} loads: $layout)"
			elif [ -z "$nmiss" ] && [ ${#CHECKS[@]} -gt 0 ]; then
				res=caught detail="$named"
			else
				res=MISSED detail="named checks not failing:$nmiss"
			fi
			case $res in
			caught) caught=$((caught + 1)); active_caught=$((active_caught + 1)) ;;
			MISSED) missed=$((missed + 1)) ;;
			esac
			echo "# mutant $name on $K: $res (reached $hits times in ${loads:-?} loads; $other failing checks in all)"
			echo "#   $detail"
		fi
		printf '| %s | %s | %s | %s | %s |\n' "$name" "$K" "$WHAT" "$res" "$(echo "$detail" | sed 's/|/\\|/g')" >> "$report"
	done
	echo "mutants on $K: $caught caught, $inactive inactive, $missed missed (control: $cfail failing checks)"
	echo "$K $caught $inactive $missed $cfail" >> "$M/tally"
	total_caught=$((total_caught + caught)) total_missed=$((total_missed + missed))
	if [ $active_caught -lt "$MIN_ACTIVE" ]; then
		echo "# mutants on $K: only $active_caught active and caught (at least $MIN_ACTIVE needed)"
		total_missed=$((total_missed + 1))
	fi
done
cat "$report"
echo "$total_caught caught, $total_missed missed"
[ $total_broken -eq 0 ] || echo "# $total_broken broken (not applied, build or boot failures)"
# a summary for tests/summarize.sh (tests/minimums: mutants)
mkdir -p "$BUILD/results"
echo "$total_caught passed, $((total_missed + total_broken)) failed" > "$BUILD/results/mutants.summary"
[ $total_missed -eq 0 ] && [ $total_broken -eq 0 ]
