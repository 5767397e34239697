#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prepare a Debian kernel for the VM tests, reproducibly and idempotently:
#   1. download the image, headers, headers-common and kbuild packages
#      (apt-get download) into $CACHE/pkgs/,
#   2. unpack them into $CACHE/<KERNEL>/root/ and point the headers'
#      Makefile at the unpacked -common tree,
#   3. extract vmlinux (ELF with the .BTF section) from the bzImage
#      (scripts/extract-vmlinux.sh, shared with scripts/find-btf.sh),
#   4. for a suite other than the host's, prepare a chroot with that suite's
#      toolchain (toolchain.sh: the compiler its headers depend on),
#   5. write $CACHE/<KERNEL>.env with VM_RELEASE VM_KDIR VM_BTF VM_VMLINUZ
#      VM_CHROOT (empty: build with the host's toolchain).
#
# usage: kernel.sh [KERNEL]      KERNEL = bookworm (default) | bullseye | trixie
#
# bookworm uses the host's apt configuration (this is a Debian 12 host).
# bullseye and trixie use a private apt state under $CACHE/apt/<KERNEL>/
# (its own sources.list and package lists, nothing installed); that path
# is exercised by `make test-matrix`.
set -euo pipefail

KERNEL=${1:-${KERNEL:-bookworm}}
CACHE=${CACHE:-/var/cache/sched_shadow}
PKGS=$CACHE/pkgs
ROOT=$CACHE/$KERNEL/root
ENV_OUT=$CACHE/$KERNEL.env

die() { echo "vm-kernel: $*" >&2; exit 1; }
trap 'echo "vm-kernel: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
log() { echo "vm-kernel: $*" >&2; }

case $KERNEL in
bookworm) APT_SUITE= ;;
bullseye) APT_SUITE=bullseye ;;
trixie)   APT_SUITE=trixie ;;
*) die "unknown KERNEL=$KERNEL (bookworm, bullseye or trixie)" ;;
esac

mkdir -p "$PKGS" "$ROOT"

# apt for the suite: the host's own, or a private state for other suites.
APT_OPTS=()
if [ -n "$APT_SUITE" ]; then
	A=$CACHE/apt/$KERNEL
	mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
	: > "$A/status"
	echo "deb http://deb.debian.org/debian $APT_SUITE main" > "$A/sources.list"
	APT_OPTS=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=-"
		  -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
		  -o "Dir::Cache=$A/cache")
	if [ -z "$(ls "$A/lists" 2>/dev/null | grep -v partial)" ]; then
		log "apt-get update for $APT_SUITE (private state in $A)"
		apt-get "${APT_OPTS[@]}" update -q >/dev/null || die "apt-get update for $APT_SUITE failed"
	fi
fi

# Print the linux-* packages a package depends on (one name per line).
deps_of() {
	apt-cache "${APT_OPTS[@]}" depends "$1" 2>/dev/null |
		awk -v re="$2" '$1 == "Depends:" && $2 ~ re { print $2 }'
}

# Resolve the current ABI: linux-image-amd64 -> linux-image-<release>.
img_pkg=$(deps_of linux-image-amd64 '^linux-image-[0-9]' | head -n1)
if [ -z "$img_pkg" ] && [ -z "$APT_SUITE" ]; then
	log "linux-image-amd64 unknown to apt: running apt-get update once"
	apt-get update -q >/dev/null || true
	img_pkg=$(deps_of linux-image-amd64 '^linux-image-[0-9]' | head -n1)
fi
[ -n "$img_pkg" ] || die "cannot resolve linux-image-amd64 (is apt-get update done?)"
release=${img_pkg#linux-image-}
hdr_pkg=linux-headers-$release
extra=$(deps_of "$hdr_pkg" '^linux-(headers|kbuild)-')
[ -n "$extra" ] || die "cannot resolve dependencies of $hdr_pkg"
pkgs="$img_pkg $hdr_pkg $extra"
log "KERNEL=$KERNEL release=$release packages: $(echo $pkgs)"

# 1. download what is not in the cache yet (any version of that package name).
debs=()
for p in $pkgs; do
	f=$(ls -t "$PKGS/${p}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		log "downloading $p"
		(cd "$PKGS" && apt-get "${APT_OPTS[@]}" -o APT::Sandbox::User=root download -q "$p" >/dev/null) ||
			die "apt-get download $p failed"
		f=$(ls -t "$PKGS/${p}_"*.deb 2>/dev/null | head -n1 || true)
		[ -n "$f" ] || die "apt-get download $p left no .deb in $PKGS"
	fi
	debs+=("$f")
done

# 2. unpack once per set of .debs (a stamp records which set).
stamp=$ROOT/.unpacked
want=$(for f in "${debs[@]}"; do basename "$f"; done | sort)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "unpacking into $ROOT"
	rm -rf "$ROOT"; mkdir -p "$ROOT"
	for f in "${debs[@]}"; do dpkg-deb -x "$f" "$ROOT"; done
	echo "$want" > "$stamp"
fi

KDIR=$ROOT/usr/src/linux-headers-$release
VMLINUZ=$ROOT/boot/vmlinuz-$release
[ -f "$KDIR/Makefile" ] || die "no $KDIR/Makefile after unpacking"
[ -f "$VMLINUZ" ] || die "no $VMLINUZ after unpacking"

# The arch headers' Makefile includes the -common tree by absolute path:
# point it into $ROOT (idempotent: only rewrites paths not yet under $ROOT).
sed -i -E "s#^include /usr/src/#include $ROOT/usr/src/#" "$KDIR/Makefile"
inc=$(awk '$1 == "include" { print $2 }' "$KDIR/Makefile")
for i in $inc; do [ -f "$i" ] || die "$KDIR/Makefile includes missing $i"; done
[ -e "$KDIR/scripts/Makefile.build" ] || die "$KDIR/scripts does not resolve (linux-kbuild missing?)"

# 3. vmlinux from the bzImage (scripts/extract-vmlinux.sh: the first
# compressed payload that decompresses to an ELF with .BTF).
VMLINUX=$CACHE/$KERNEL/vmlinux
if [ ! -s "$VMLINUX" ] || [ "$VMLINUZ" -nt "$VMLINUX" ]; then
	log "extracting vmlinux from $(basename "$VMLINUZ")"
	"$(dirname "$0")/../../scripts/extract-vmlinux.sh" "$VMLINUZ" "$VMLINUX" || die "cannot extract vmlinux from $VMLINUZ"
fi

# 4. the toolchain: the host's for the host's own suite, else a chroot of
# the kernel's suite (the headers pin their compiler, e.g. gcc-10 for 5.10,
# gcc-14 for 6.12, and trixie's kbuild binaries need its glibc).
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
CHROOT=
if [ "$KERNEL" != "$host_suite" ]; then
	CHROOT=$CACHE/toolchain/$KERNEL
	hdr_deb=$(ls -t "$PKGS/${hdr_pkg}_"*.deb | head -n1)
	kb_deb=$(ls -t "$PKGS"/linux-kbuild-*.deb | while read -r f; do
		for p in $extra; do case $(basename "$f") in "${p}_"*) echo "$f";; esac; done; done | head -n1)
	[ -n "$kb_deb" ] || die "no linux-kbuild package among: $extra"
	"$(dirname "$0")/toolchain.sh" "$KERNEL" "$CHROOT" "$hdr_deb" "$kb_deb"
fi

# 5. the environment file the make targets read.
cat > "$ENV_OUT.tmp" <<ENV
# written by tests/vm/kernel.sh $KERNEL
VM_KERNEL=$KERNEL
VM_RELEASE=$release
VM_KDIR=$KDIR
VM_BTF=$VMLINUX
VM_VMLINUZ=$VMLINUZ
VM_CHROOT=$CHROOT
ENV
mv "$ENV_OUT.tmp" "$ENV_OUT"
log "wrote $ENV_OUT"
