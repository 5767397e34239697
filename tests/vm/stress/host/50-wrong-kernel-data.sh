#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Stress 5, host side: BTF that is missing, empty, truncated, garbage or
# lacks a field the module needs is a build-time condition: btfgen must
# fail with a clear message naming the problem, exit normally (no signal)
# and write no header.  Called by run-vm.sh after the stress VM (argument:
# the export directory, unused).
set -u
top=$(cd "$(dirname "$0")/../../../.." && pwd)
. "$top/tests/lib/tap.sh"
tap_begin stress-50-host
btfgen=$top/build/btfgen
manifest=$top/module/kstruct.fields
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$btfgen" ]; then
	ok 1 "btfgen built ($btfgen)"
	tap_end
	exit
fi
# a real BTF to damage: the VM kernel's vmlinux (ELF) if the cache has it,
# and the host's raw BTF
vmbtf=
[ -f "${CACHE:-/var/cache/sched_shadow}/bookworm.env" ] && vmbtf=$(. "${CACHE:-/var/cache/sched_shadow}/bookworm.env"; echo "${VM_BTF:-}")
raw=/sys/kernel/btf/vmlinux
cases=0
try() {	# try NAME BTF [MANIFEST] [WANT_IN_MESSAGE]: btfgen must fail cleanly
	local name=$1 btf=$2 man=${3:-$manifest} want=${4:-} out=$tmp/out.h rc msg
	rm -f "$out"
	cases=$((cases + 1))
	msg=$(timeout 60 "$btfgen" --btf "$btf" --manifest "$man" --release 6.1.0-test -o "$out" 2>&1 >/dev/null)
	rc=$?
	echo "$name: exit $rc: $(echo "$msg" | head -n 2 | tr '\n' '|' | cut -c1-200)" | diag
	[ $rc -ne 0 ] && [ $rc -lt 124 ] && [ -n "$msg" ] && [ ! -s "$out" ] &&
		{ [ -z "$want" ] || echo "$msg" | grep -q -- "$want"; }
	ok $? "btfgen refuses $name with a message (exit $rc), writes no header"
}
try "a missing BTF file" /nonexistent/vmlinux "" /nonexistent/vmlinux
: > "$tmp/empty"
try "an empty BTF file" "$tmp/empty"
head -c 65536 /dev/urandom > "$tmp/garbage"
try "64 KiB of random bytes" "$tmp/garbage"
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\x7f' > "$tmp/badhdr"
try "a BTF header whose lengths run past the file" "$tmp/badhdr"
if [ -r "$raw" ]; then
	sz=$(stat -c %s "$raw")
	head -c 24 "$raw" > "$tmp/raw24"
	try "raw BTF cut after its header (24 bytes)" "$tmp/raw24"
	head -c $((sz / 2)) "$raw" > "$tmp/rawhalf"
	try "raw BTF cut in half" "$tmp/rawhalf"
	head -c $((sz - 1)) "$raw" > "$tmp/rawlast"
	try "raw BTF missing its last byte" "$tmp/rawlast"
	# a manifest field this BTF does not have: the build must name it
	{ cat "$manifest"; echo "rq              no_such_field_for_stress"; } > "$tmp/manifest"
	try "a required field missing from the BTF" "$raw" "$tmp/manifest" no_such_field_for_stress
else
	tap_skip "raw BTF truncations" "no $raw on this host"
fi
if [ -n "$vmbtf" ] && [ -f "$vmbtf" ]; then
	head -c 1048576 "$vmbtf" > "$tmp/vmlinux-1m"
	try "the VM kernel's vmlinux cut at 1 MiB" "$tmp/vmlinux-1m"
fi
try "an ELF file without .BTF" /bin/true
echo "$cases malformed or missing BTF inputs tried" | diag
tap_end
