#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack the VM test initramfs (uncompressed newc cpio: the TCG guest
# unpacks it faster than it would decompress it).
#
# usage: mkinitramfs.sh OUT.cpio STAGE_DIR MODULE_KO FOREIGN_DIR PROGS_DIR [src:dst ...]
#   MODULE_KO    the module built for the VM kernel (may be missing: the
#                scenarios then fail with "module not loaded")
#   FOREIGN_DIR  holds sched_shadow.ko built against another kernel's BTF,
#                or BUILD_FAILED with the reason
#   PROGS_DIR    static workload programs (every executable in it)
#   src:dst      extra files (VM_EXTRA_FILES), dst absolute in the guest
set -euo pipefail
out=$1 stage=$2 ko=$3 foreign=$4 progs=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || { echo "mkinitramfs: busybox not found (apt-get install busybox-static)" >&2; exit 1; }
command -v file >/dev/null && file -L "$busybox" 2>/dev/null | grep -q 'dynamically linked' &&
	{ echo "mkinitramfs: $busybox is dynamically linked; install busybox-static" >&2; exit 1; }

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,run,etc,root,lib/vm/scenarios,lib/vm/foreign}
cp "$busybox" "$stage/bin/busybox"
for app in $("$busybox" --list); do
	[ -e "$stage/bin/$app" ] || ln -s busybox "$stage/bin/$app"
done
# the kernel opens /dev/console before init runs
mknod "$stage/dev/console" c 5 1 2>/dev/null || true

install -m 0755 "$here/guest/init" "$stage/init"
install -m 0644 "$here/guest/lib.sh" "$stage/lib/vm/lib.sh"
install -m 0644 "$here/demo.sh" "$stage/lib/vm/demo.sh"
install -m 0644 "$here"/scenarios/*.sh "$stage/lib/vm/scenarios/"
[ -f "$ko" ] && install -m 0644 "$ko" "$stage/lib/vm/sched_shadow.ko"
cp -a "$foreign"/. "$stage/lib/vm/foreign/" 2>/dev/null || true
for p in "$progs"/*; do
	[ -f "$p" ] && [ -x "$p" ] && install -m 0755 "$p" "$stage/bin/"
done

for pair in "$@"; do
	src=${pair%%:*} dst=${pair#*:}
	case $dst in /*) ;; *) echo "mkinitramfs: destination of '$pair' must be absolute" >&2; exit 1 ;; esac
	[ -e "$src" ] || { echo "mkinitramfs: VM_EXTRA_FILES: no such file $src" >&2; exit 1; }
	mkdir -p "$stage$(dirname "$dst")"
	cp -a "$src" "$stage$dst"
done

(cd "$stage" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -h "$out" | cut -f1))" >&2
