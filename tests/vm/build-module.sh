#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build sched_shadow.ko for a VM kernel prepared by kernel.sh, out of tree
# (a copy of Kbuild + module/ under OUT/src), so builds for several kernels
# and the host build in module/ never share object files.
#
# usage: build-module.sh ENV_FILE OUT_DIR [BTF [CHECK]]
#   ENV_FILE  $CACHE/<kernel>.env written by kernel.sh (VM_KDIR, VM_BTF,
#             VM_RELEASE, VM_CHROOT)
#   BTF       BTF to generate the layouts from (default VM_BTF)
#   CHECK     build (default) or load: SHADOW_BTF_CHECK, see the Makefile
# env: BTFGEN (path of build/btfgen), TOP (source tree; default: cwd)
#
# With VM_CHROOT set (a suite other than the host's), Kbuild runs inside
# that suite's toolchain chroot (toolchain.sh) with the headers and the
# source bind-mounted at the same paths, in a private mount namespace so
# nothing stays mounted.  The layout header is generated on the host.
set -euo pipefail

ENV_FILE=${1:?usage: build-module.sh ENV_FILE OUT_DIR [BTF [CHECK]]}
OUT=$(realpath -m "${2:?}")
TOP=$(realpath "${TOP:-$PWD}")
BTFGEN=${BTFGEN:-$TOP/build/btfgen}
VM_CHROOT=
# shellcheck source=/dev/null # a kernel's settings, written by tests/vm/kernel.sh
. "$ENV_FILE"
BTF=${3:-$VM_BTF}
CHECK=${4:-build}

die() { echo "build-module: $*" >&2; exit 1; }
[ -x "$BTFGEN" ] || die "no btfgen at $BTFGEN (make $BTFGEN)"
[ -f "$VM_KDIR/Makefile" ] || die "no kernel headers at $VM_KDIR (make vm-kernel KERNEL=$VM_KERNEL)"

SRC=$OUT/src
rm -rf "$SRC" "$OUT/sched_shadow.ko"
mkdir -p "$SRC/module/generated"
cp "$TOP/Kbuild" "$TOP/VERSION" "$SRC/"
tar -C "$TOP" --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='generated' --exclude='modules.order' \
	--exclude='Module.symvers' -cf - module | tar -C "$SRC" -xf -
"$BTFGEN" --btf "$BTF" --manifest "$TOP/module/kstruct.fields" \
	$([ "$CHECK" = build ] && echo --release "$VM_RELEASE") -o "$SRC/module/generated/kstruct_gen.h"

kbuild=(make -C "$VM_KDIR" M="$SRC" SHADOW_BTF_CHECK="$CHECK" modules)
if [ -z "$VM_CHROOT" ]; then
	"${kbuild[@]}"
else
	[ -x "$VM_CHROOT/usr/bin/make" ] || die "no toolchain chroot at $VM_CHROOT (make vm-kernel KERNEL=$VM_KERNEL)"
	kroot=${VM_KDIR%/usr/src/*}
	# shellcheck disable=SC2016
	unshare -m bash -euc '
		ch=$1; shift
		for d in "$1" "$2"; do mkdir -p "$ch$d"; mount --bind "$d" "$ch$d"; done
		shift 2
		mount -t proc proc "$ch/proc"
		exec chroot "$ch" "$@"' _ "$VM_CHROOT" "$kroot" "$SRC" "${kbuild[@]}"
fi
cp "$SRC/module/sched_shadow.ko" "$OUT/sched_shadow.ko"
echo "build-module: $OUT/sched_shadow.ko for $VM_RELEASE$([ -n "$VM_CHROOT" ] && echo " (in the $VM_KERNEL toolchain chroot)")"
