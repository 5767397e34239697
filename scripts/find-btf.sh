#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the BTF file to build sched_shadow against for kernel release KVER
# (used by `make install`/`make module-kver` and by dkms.conf).  The first
# that exists wins:
#
#   1. $SCHED_SHADOW_BTF (a vmlinux ELF with .BTF, or raw BTF): an explicit
#      choice, so it is checked and never silently skipped;
#   2. /sys/kernel/btf/vmlinux, if KVER is the running kernel;
#   3. /usr/lib/debug/boot/vmlinux-KVER, then
#      /usr/lib/debug/lib/modules/KVER/vmlinux (Debian's -dbg packages);
#   4. the .BTF section of /boot/vmlinuz-KVER, extracted once
#      (scripts/extract-vmlinux.sh) into $SCHED_SHADOW_BTF_CACHE
#      (default $CACHE/btf, CACHE=/var/cache/sched_shadow) as KVER.btf
#      and reused while it is newer than the image.
#
# Otherwise, or when the candidate holds no .BTF or describes another
# kernel, it prints one line "find-btf: no BTF for kernel KVER: ..." on
# stderr, exits 1 and creates nothing.  Progress goes to stderr; stdout is
# only the path.
#
# usage: find-btf.sh KVER
# Where to look (defaults in brackets; tests point them elsewhere):
# SCHED_SHADOW_BOOT [/boot], SCHED_SHADOW_DEBUG [/usr/lib/debug],
# SCHED_SHADOW_BTF_CACHE [$CACHE/btf].
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
KVER=${1:-}
BOOT=${SCHED_SHADOW_BOOT:-/boot}
DEBUG=${SCHED_SHADOW_DEBUG:-/usr/lib/debug}
SYSFS=/sys/kernel/btf/vmlinux
BTF_CACHE=${SCHED_SHADOW_BTF_CACHE:-${CACHE:-/var/cache/sched_shadow}/btf}

fail() { echo "find-btf: no BTF for kernel $KVER: $*" >&2; exit 1; }
[ $# -eq 1 ] && [ -n "$KVER" ] || { echo "usage: find-btf.sh KVER" >&2; exit 2; }
case $KVER in
*/* | .* | *[!A-Za-z0-9._+~-]*) echo "find-btf: '$KVER' is not a kernel release name" >&2; exit 2 ;;
esac

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }
# raw BTF starts with the magic 0xeb9f (little endian on x86)
is_raw_btf() { [ "$(head -c 2 "$1" 2>/dev/null | od -An -tx1 | tr -d ' ')" = '9feb' ]; }
# (never `readelf | grep -q` under pipefail: when grep exits first, readelf
# dies of SIGPIPE and the check fails at random; read the table, then grep)
has_btf_section() {
	local sections
	sections=$(readelf -S --wide "$1" 2>/dev/null) || return 1
	grep -q ' \.BTF ' <<< "$sections"
}
# the release in the "Linux version X (" banner, as userspace/btfgen reads it
banner() { LC_ALL=C grep -a -o -m1 -E 'Linux version [A-Za-z0-9._+~-]+ \(' "$1" 2>/dev/null |
	head -n1 | sed -E 's/^Linux version ([^ ]+) \($/\1/'; }

# A usable BTF file for KVER: raw BTF, or an ELF with .BTF whose banner
# (if any) names KVER.  Prints why not on stdout and returns 1.
check() {
	local f=$1 rel
	[ -r "$f" ] || { echo "cannot read $f"; return 1; }
	if is_elf "$f"; then
		has_btf_section "$f" || { echo "$f has no .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF=y?)"; return 1; }
		rel=$(banner "$f")
		if [ -n "$rel" ] && [ "$rel" != "$KVER" ]; then
			echo "$f describes kernel $rel, not $KVER"; return 1
		fi
	elif ! is_raw_btf "$f"; then
		echo "$f is neither a vmlinux ELF nor raw BTF"; return 1
	fi
}

# 1. explicit
if [ -n "${SCHED_SHADOW_BTF:-}" ]; then
	why=$(check "$SCHED_SHADOW_BTF") || fail "SCHED_SHADOW_BTF: $why"
	echo "$SCHED_SHADOW_BTF"; exit 0
fi

# 2. the running kernel
running=$(uname -r)
if [ "$KVER" = "$running" ] && [ -r "$SYSFS" ]; then
	echo "$SYSFS"; exit 0
fi

# 3. debug vmlinux (an unusable one is reported and skipped)
notes=()
for f in "$DEBUG/boot/vmlinux-$KVER" "$DEBUG/lib/modules/$KVER/vmlinux"; do
	[ -e "$f" ] || continue
	if why=$(check "$f"); then echo "$f"; exit 0; fi
	echo "find-btf: skipping $why" >&2
	notes+=("$why")
done

# 4. /boot/vmlinuz-KVER, extracted into the cache
img=$BOOT/vmlinuz-$KVER
out=$BTF_CACHE/$KVER.btf
if [ -e "$img" ]; then
	if [ -s "$out" ] && [ "$out" -nt "$img" ] && is_raw_btf "$out"; then
		echo "$out"; exit 0
	fi
	command -v objcopy >/dev/null || fail "objcopy not found (install binutils) to extract .BTF from $img"
	made=; [ -d "$BTF_CACHE" ] || made=$BTF_CACHE
	# on failure leave nothing: the work directory, and the cache
	# directory if this run created it
	trap 'rm -rf "${work:-}"; [ -z "$made" ] || rmdir "$made" 2>/dev/null || true' EXIT
	mkdir -p "$BTF_CACHE" 2>/dev/null && [ -w "$BTF_CACHE" ] ||
		fail "cannot write the BTF cache $BTF_CACHE (set SCHED_SHADOW_BTF_CACHE to a writable directory)"
	work=$(mktemp -d "$BTF_CACHE/.extract.XXXXXX") || fail "cannot create a work directory in $BTF_CACHE"
	echo "find-btf: extracting BTF from $img into $out" >&2
	"$here/extract-vmlinux.sh" "$img" "$work/vmlinux" 2>"$work/err" ||
		fail "$(grep -v '^extract-vmlinux: .*skipping' "$work/err" | tail -n1 | sed 's/^extract-vmlinux: //')"
	rel=$(banner "$work/vmlinux")
	[ -z "$rel" ] || [ "$rel" = "$KVER" ] || fail "$img holds kernel $rel, not $KVER"
	objcopy --dump-section .BTF="$work/btf" "$work/vmlinux" "$work/discard" 2>"$work/err" ||
		fail "objcopy could not dump .BTF from the vmlinux in $img: $(head -n1 "$work/err")"
	is_raw_btf "$work/btf" || fail "the .BTF section of the vmlinux in $img is not BTF"
	mv "$work/btf" "$out"
	made=
	echo "$out"; exit 0
fi

# nothing: one line that names what was looked for
what="no /boot/vmlinuz-$KVER, no $DEBUG/boot/vmlinux-$KVER or $DEBUG/lib/modules/$KVER/vmlinux"
[ "$BOOT" = /boot ] || what=${what/\/boot\/vmlinuz/$BOOT\/vmlinuz}
if [ "$KVER" = "$running" ]; then
	what="the running kernel has no $SYSFS (CONFIG_DEBUG_INFO_BTF not set), $what"
else
	what="not the running kernel ($running), $what"
fi
[ ${#notes[@]} -eq 0 ] || what="$what; ${notes[*]}"
fail "$what (install linux-image-$KVER or its -dbg package, or set SCHED_SHADOW_BTF=/path/to/vmlinux-or-raw-btf)"
