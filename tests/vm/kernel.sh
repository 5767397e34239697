#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prepare a Debian kernel for the VM tests, reproducibly and idempotently:
#   1. download the image, headers, headers-common and kbuild packages
#      (apt-get download) into $CACHE/pkgs/; since 7.x linux-image-<rel>
#      is an empty metapackage and the image is in linux-binary-<rel>, so
#      the image's own linux-binary-/linux-image- dependencies come too,
#   2. unpack them into $CACHE/<KERNEL>/root/, find the image wherever the
#      package put it (/boot/vmlinuz-<rel>, /usr/lib/modules/<rel>/vmlinuz)
#      and point the headers' Makefile at the unpacked -common tree (the
#      `include /usr/src/...` line, and 7.x's `KBUILD_OUTPUT=/usr/src/...`),
#   3. extract vmlinux (ELF with the .BTF section) from the bzImage
#      (scripts/extract-vmlinux.sh, shared with scripts/find-btf.sh),
#   4. for a toolchain suite other than the host's, prepare a chroot with
#      that suite's toolchain (toolchain.sh: the compiler its headers depend
#      on); a backports kernel builds in its base suite (trixie-backports:
#      trixie), whose compiler and libc its headers and kbuild were built for,
#   5. write $CACHE/<KERNEL>.env with VM_RELEASE VM_KDIR VM_BTF VM_VMLINUZ
#      VM_CHROOT (empty: build with the host's toolchain).
#
# usage: kernel.sh [KERNEL]
#   KERNEL      package                  apt suite          toolchain
#   bookworm    linux-image-amd64        host's (6.1)       host
#   bookworm-rt linux-image-rt-amd64     host's (6.1 RT)    host
#   bullseye    linux-image-amd64        bullseye (5.10)    bullseye chroot
#   trixie      linux-image-amd64        trixie (6.12)      trixie chroot
#   trixie-backports linux-image-amd64   trixie-backports   trixie chroot
#                                        (7.3, flat run queue)
#   sid         linux-image-amd64        sid (7.2)          sid chroot
#
# bookworm and bookworm-rt use the host's apt configuration (this is a
# Debian 12 host).  The others use a private apt state under
# $CACHE/apt/<KERNEL>/ (its own sources.list and package lists, nothing
# installed); that path is exercised by `make test-matrix`.  Runs for the
# same KERNEL are serialised by a lock in $CACHE (the cache is shared).
set -euo pipefail

KERNEL=${1:-${KERNEL:-bookworm}}
CACHE=${CACHE:-/var/cache/sched_shadow}
PKGS=$CACHE/pkgs
ROOT=$CACHE/$KERNEL/root
ENV_OUT=$CACHE/$KERNEL.env

die() { echo "vm-kernel: $*" >&2; exit 1; }
trap 'echo "vm-kernel: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
log() { echo "vm-kernel: $*" >&2; }

# APT_SUITE: where the packages come from (empty: the host's apt);
# TC_SUITE: whose toolchain builds the module; META: the package that
# names the current ABI.
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
META=linux-image-amd64
case $KERNEL in
bookworm)    APT_SUITE='' TC_SUITE=$host_suite ;;
bookworm-rt) APT_SUITE='' TC_SUITE=$host_suite META=linux-image-rt-amd64 ;;
bullseye | trixie | sid) APT_SUITE=$KERNEL TC_SUITE=$KERNEL ;;
trixie-backports) APT_SUITE=$KERNEL TC_SUITE=${KERNEL%-backports} ;;
*) die "unknown KERNEL=$KERNEL (bookworm, bookworm-rt, bullseye, trixie, trixie-backports or sid)" ;;
esac

mkdir -p "$PKGS" "$ROOT"
# one preparation per KERNEL at a time (helpers and make -j share $CACHE)
exec 9> "$CACHE/.$KERNEL.lock"
flock 9

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
	if [ -z "$(find "$A/lists" -mindepth 1 -maxdepth 1 ! -name '*partial*' 2>/dev/null)" ]; then
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
img_pkg=$(deps_of "$META" '^linux-image-[0-9]' | head -n1)
if [ -z "$img_pkg" ] && [ -z "$APT_SUITE" ]; then
	log "$META unknown to apt: running apt-get update once"
	apt-get update -q >/dev/null || true
	img_pkg=$(deps_of "$META" '^linux-image-[0-9]' | head -n1)
fi
[ -n "$img_pkg" ] || die "cannot resolve $META (is apt-get update done?)"
release=${img_pkg#linux-image-}
# 7.x: linux-image-<release> is a metapackage, the image is in the
# linux-binary-<release> it depends on (not linux-modules-: not needed)
img_extra=$(deps_of "$img_pkg" '^linux-(binary|image)-' |
	while read -r p; do [ "$p" != "linux-binary-$release" ] || echo "$p"; done)
hdr_pkg=linux-headers-$release
extra=$(deps_of "$hdr_pkg" '^linux-(headers|kbuild)-')
[ -n "$extra" ] || die "cannot resolve dependencies of $hdr_pkg"
pkgs="$img_pkg $img_extra $hdr_pkg $extra"
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
[ -f "$KDIR/Makefile" ] || die "no $KDIR/Makefile after unpacking"
# the image: where the packages of this release put it (/boot up to 6.x,
# /usr/lib/modules/<release>/ in 7.x's linux-binary-)
VMLINUZ=
for f in "$ROOT/boot/vmlinuz-$release" "$ROOT/usr/lib/modules/$release/vmlinuz" \
	 "$ROOT/lib/modules/$release/vmlinuz"; do
	[ -f "$f" ] && { VMLINUZ=$f; break; }
done
if [ -z "$VMLINUZ" ]; then
	VMLINUZ=$(find "$ROOT" -type f \( -name "vmlinuz-$release" -o -path "*/$release/vmlinuz" \) | head -n1)
fi
[ -n "$VMLINUZ" ] || die "no kernel image (vmlinuz) for $release in $(echo $pkgs)"

# The arch headers' Makefile includes the -common tree by absolute path,
# and 7.x's also sets KBUILD_OUTPUT=/usr/src/...: point both into $ROOT
# (idempotent: only rewrites paths not yet under $ROOT).
sed -i -E -e "s#^include /usr/src/#include $ROOT/usr/src/#" \
	-e "s#^([[:space:]]*(export[[:space:]]+)?KBUILD_OUTPUT[[:space:]]*:?=[[:space:]]*)/usr/src/#\1$ROOT/usr/src/#" \
	"$KDIR/Makefile"
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
CHROOT=
if [ "$TC_SUITE" != "$host_suite" ]; then
	CHROOT=$CACHE/toolchain/$KERNEL
	hdr_deb=$(ls -t "$PKGS/${hdr_pkg}_"*.deb | head -n1)
	# the kbuild .deb of this release (the newest if several versions
	# are cached; no `| head` here: see scripts/find-btf.sh on SIGPIPE)
	kb_deb=
	for p in $extra; do
		case $p in linux-kbuild-*) kb_deb=$(ls -t "$PKGS/${p}_"*.deb 2>/dev/null || true) ;; esac
		kb_deb=${kb_deb%%$'\n'*}
		[ -z "$kb_deb" ] || break
	done
	[ -n "$kb_deb" ] || die "no linux-kbuild package among: $extra"
	"$(dirname "$0")/toolchain.sh" "$TC_SUITE" "$CHROOT" "$hdr_deb" "$kb_deb"
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
