#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A build chroot with a Debian suite's own toolchain, for building the
# module against that suite's kernel headers on a host of another suite
# (bullseye's 5.10 headers want gcc-10; trixie's 6.12 headers want gcc-14
# flags and a kbuild/objtool linked against glibc 2.38).
#
# usage: toolchain.sh SUITE CHROOT HEADERS.deb KBUILD.deb
#
# The packages installed are read from the two .debs' Depends (the
# compiler, e.g. linux-compiler-gcc-10-x86 or gcc-14, and the kbuild's
# libraries), plus make, libc6-dev, dwarves (pahole, for module BTF) and
# binutils (7.x's gcc-N-for-host does not pull in the assembler).  Nothing on
# the host is installed or changed; the chroot is rebuilt when the wanted
# package set changes (a stamp records it).
set -euo pipefail

SUITE=${1:?usage: toolchain.sh SUITE CHROOT HEADERS.deb KBUILD.deb}
CH=${2:?}
HDR_DEB=${3:?}
KB_DEB=${4:?}

die() { echo "toolchain: $*" >&2; exit 1; }
log() { echo "toolchain: $*" >&2; }

# Package names from a Depends field, alternatives reduced to the first
# and version constraints dropped; linux-* packages (headers, image, base)
# are provided by the unpacked cache, not installed in the chroot (7.x's
# linux-base-<release> too).
deps_from() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/[[:space:]]//g' |
		grep -v -e '^$' -e '^linux-headers-' -e '^linux-image-' -e '^linux-kbuild-' -e '^linux-base' || true
}

want=$(printf '%s\n' make libc6-dev dwarves binutils $(deps_from "$HDR_DEB") $(deps_from "$KB_DEB") | sort -u | tr '\n' ' ')
stamp=$CH/.sched_shadow-toolchain
if [ "$(cat "$stamp" 2>/dev/null)" = "$SUITE: $want" ]; then
	exit 0
fi
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
log "building a $SUITE chroot in $CH with: $want"
rm -rf "$CH"
mkdir -p "$(dirname "$CH")"
debootstrap --variant=minbase "$SUITE" "$CH" http://deb.debian.org/debian > "$CH.log" 2>&1 ||
	die "debootstrap $SUITE failed (last lines of $CH.log):$(echo; tail -n 5 "$CH.log")"
# apt inside the chroot resolves the dependencies of what is wanted
chroot "$CH" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $want >> "$CH.log" 2>&1 ||
	die "installing $want in the $SUITE chroot failed (see $CH.log):$(echo; tail -n 5 "$CH.log")"
chroot "$CH" apt-get clean
echo "$SUITE: $want" > "$stamp"
log "ready: $CH ($(du -sh "$CH" | cut -f1))"
