#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what building and testing sched_shadow needs on a fresh Debian 12
# machine (idempotent; quiet when everything is present).
set -eu
pkgs="gcc make libc6-dev libbpf-dev libelf-dev zlib1g-dev pkg-config clang llvm bpftool
      qemu-system-x86 busybox-static cpio xz-utils zstd kmod gnuplot-nox bc python3
      binutils dkms linux-headers-amd64 man-db groff-base debootstrap
      protobuf-c-compiler libprotobuf-c-dev protobuf-compiler"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
