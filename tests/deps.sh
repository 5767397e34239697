#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what building and testing sched_shadow needs on a fresh Debian 12
# machine (idempotent; quiet when everything is present).
set -eu
pkgs="gcc make libc6-dev libbpf-dev libelf-dev zlib1g-dev pkg-config clang llvm bpftool
      qemu-system-x86 busybox-static cpio xz-utils zstd kmod gnuplot-nox bc python3
      binutils dkms linux-headers-amd64 man-db groff-base debootstrap
      protobuf-c-compiler libprotobuf-c-dev protobuf-compiler shellcheck linux-source-6.1"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086 # a list of package names, split on purpose
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# make lint's checkpatch: the kernel's own script, from Debian's kernel
# source package, kept under $CACHE (only the three files it reads)
cp_dir=${CACHE:-/var/cache/sched_shadow}/checkpatch
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	src=/usr/src/linux-source-6.1.tar.xz
	[ -f "$src" ] || { echo "deps: no $src for checkpatch"; exit 1; }
	mkdir -p "$cp_dir"
	tar -xJf "$src" -C "$cp_dir" --strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt linux-source-6.1/scripts/const_structs.checkpatch
fi
