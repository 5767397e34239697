#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Extract the vmlinux ELF (the one with the .BTF section) from a kernel
# image (bzImage, /boot/vmlinuz-*).  Shared by tests/vm/kernel.sh (the VM
# kernel's BTF) and scripts/find-btf.sh (BTF for `make install` and DKMS).
#
# usage: extract-vmlinux.sh VMLINUZ OUT
#
# The bzImage carries the kernel as one compressed payload: find the first
# offset of each known magic (xz on Debian; zstd and gzip for other
# kernels), try them in file order until one decompresses to an ELF with a
# .BTF section (a magic can occur by chance).  OUT is written atomically;
# on failure nothing is left behind and the one-line reason says whether no
# payload was found or the kernel was built without BTF.
# Needs: grep -P, xz/zstd/gzip (whichever the image uses), readelf, od.
set -euo pipefail

die() { echo "extract-vmlinux: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: extract-vmlinux.sh VMLINUZ OUT"
VMLINUZ=$1 OUT=$2
[ -f "$VMLINUZ" ] && [ -r "$VMLINUZ" ] || die "cannot read $VMLINUZ"
command -v readelf >/dev/null || die "readelf not found (install binutils)"

tmp=$(mktemp "$OUT.tmp.XXXXXX") || die "cannot create a file next to $OUT"
trap 'rm -f "$tmp"' EXIT

cands=$(for m in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
	o=$(LC_ALL=C grep -obUaP -m1 "${m#*:}" "$VMLINUZ" | head -n1 | cut -d: -f1 || true)
	if [ -n "$o" ]; then echo "$o ${m%%:*}"; fi
done | sort -n)
[ -n "$cands" ] || die "no xz/zstd/gzip payload found in $VMLINUZ (not a compressed kernel image?)"

found='' elf_no_btf=''
while read -r off kind; do
	case $kind in
	xz)   dec=(xz -dc --single-stream) ;;
	zstd) dec=(zstd -dcq) ;;
	gzip) dec=(gzip -dc) ;;
	esac
	command -v "${dec[0]}" >/dev/null || { echo "extract-vmlinux: ${dec[0]} not found, skipping the $kind payload" >&2; continue; }
	# zstd/gzip complain about data after the payload; the ELF and
	# .BTF checks decide whether the output is usable
	tail -c +$((off + 1)) "$VMLINUZ" | "${dec[@]}" > "$tmp" 2>/dev/null || true
	if [ "$(head -c 4 "$tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
		# the section table into a variable first: `readelf | grep -q`
		# under pipefail fails when grep exits before readelf's last
		# write (SIGPIPE), at random, once the table exceeds a pipe write
		sections=$(readelf -S --wide "$tmp" 2>/dev/null || true)
		if grep -q ' \.BTF ' <<< "$sections"; then
			found="$kind payload at offset $off"
			break
		fi
		elf_no_btf="$kind payload at offset $off"
	fi
done <<< "$cands"
if [ -z "$found" ]; then
	[ -z "$elf_no_btf" ] ||
		die "$VMLINUZ holds a vmlinux without a .BTF section ($elf_no_btf): the kernel was built without CONFIG_DEBUG_INFO_BTF=y"
	die "no payload of $VMLINUZ decompresses to an ELF vmlinux (tried: $(echo $cands))"
fi
echo "extract-vmlinux: $(basename "$VMLINUZ"): $found" >&2
mv "$tmp" "$OUT"
trap - EXIT
