#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Stress 6, host side: scan what the guest kept from the whole suite
# (stress-out.tar: debugfs reads, the module's dmesg lines, trace event
# output, CLI output) for kernel addresses once more, with grep -P.
set -u
top=$(cd "$(dirname "$0")/../../../.." && pwd)
. "$top/tests/lib/tap.sh"
tap_begin stress-90-host
exports=${1:?usage: 90-perms-leaks.sh EXPORT_DIR}
tar=$exports/stress-out.tar
if [ ! -f "$tar" ]; then
	ok 1 "the guest exported stress-out.tar"
	tap_end
	exit
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xf "$tar"
n=$(find "$tmp" -type f | wc -l)
bytes=$(find "$tmp" -type f -exec cat {} + | wc -c)
re='ffff[0-9a-f]{12}|0x[0-9a-f]{8,}|(?<![0-9a-f])(?=[0-9a-f]{0,15}[a-f])[0-9a-f]{16,}(?![0-9a-f])|____ptrval____'
hits=$(grep -r -n -i -a -P "$re" "$tmp" | sed "s|$tmp/||" | head -n 10)
echo "scanned $n files, $bytes bytes" | diag
[ -n "$hits" ] && echo "$hits" | cut -c1-200 | diag
[ "$n" -gt 0 ] && [ -z "$hits" ]
ok $? "no kernel address in $n files ($bytes bytes) the suite kept"
tap_end
