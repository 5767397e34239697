# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# TAP helpers for the host-side shell suites (source this file).
#   tap_begin NAME     start a suite (prints "TAP version 13")
#   ok COND_EXIT NAME  record a result: `check_something; ok $? "name"`
#   tap_skip NAME WHY  a skipped check that says why (counted apart: a
#                      skip is never a pass)
#   tap_end            print "1..N", "N passed, N failed, N skipped", write
#                      the summary file if TAP_SUMMARY is set, and return
#                      non-zero on failure
TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0 TAP_SUITE=
tap_begin() { TAP_SUITE=$1; echo "TAP version 13"; echo "# suite $1"; }
ok() {
	local rc=$1; shift
	TAP_N=$((TAP_N + 1))
	if [ "$rc" -eq 0 ]; then
		TAP_PASS=$((TAP_PASS + 1)); echo "ok $TAP_N - $*"
	else
		TAP_FAIL=$((TAP_FAIL + 1)); echo "not ok $TAP_N - $*"
	fi
}
tap_skip() { TAP_N=$((TAP_N + 1)); TAP_SKIP=$((TAP_SKIP + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
tap_end() {
	echo "1..$TAP_N"
	echo "$TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped"
	[ -n "${TAP_SUMMARY:-}" ] && echo "$TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped" > "$TAP_SUMMARY"
	[ "$TAP_FAIL" -eq 0 ]
}
