#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install suite: make install/uninstall into a DESTDIR and into
# the real /lib/modules, scripts/find-btf.sh's lookup order and error
# paths, and a real DKMS add/build/install/remove cycle, all for the kernel
# of the installed linux-headers-amd64 (Debian bookworm: the kernel the VM
# suite boots; this host's own kernel cannot load modules, so this builds
# and installs, it does not load).  Needs root, dkms and
# linux-headers-amd64 (tests/deps.sh); the matching kernel image comes from
# tests/vm/kernel.sh's cache.  TAP on stdout; "N passed, N failed" into
# $TAP_SUMMARY.
#
# It changes the real system only through what it tests, and undoes it:
# /lib/modules/KVER/extra/sched_shadow.ko (make install-module), the DKMS
# tree and /usr/src/sched_shadow-VERSION.  It refuses to start those parts
# (a failed check, not a skip) when sched_shadow is already installed
# there, so it never removes a copy it did not put there.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib/tap.sh"
# the outer make's flags and command-line variables must not leak into ours
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
export LC_ALL=C
PATH=$PATH:/usr/sbin:/sbin
CACHE=${CACHE:-/var/cache/sched_shadow}
VERSION=$(cat "$top/VERSION")
BTFGEN=$top/build/btfgen
tmp=$(mktemp -d /tmp/sched-shadow-install.XXXXXX)
mk() { make -C "$top" --no-print-directory "$@"; }

# what this run put on the system, for the cleanup on any exit
we_installed_module='' we_added_dkms='' we_made_src=''
cleanup() {
	if [ -n "$we_added_dkms" ]; then dkms remove "sched_shadow/$VERSION" --all >/dev/null 2>&1; fi
	if [ -n "$we_made_src" ]; then rm -rf "/usr/src/sched_shadow-$VERSION"; fi
	if [ -n "$we_installed_module" ]; then mk uninstall-module KVER="$KVER" >/dev/null 2>&1; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

tap_begin install

# --- the kernel: what linux-headers-amd64 resolves to --------------------
[ "$(id -u)" -eq 0 ]; ok $? "running as root (dkms, depmod, /lib/modules)"
dep=$(dpkg-query -W -f='${Status} ${Version} ${Depends}' linux-headers-amd64 2>/dev/null)
KVER=$(echo "$dep" | grep -o 'linux-headers-[0-9][^ ,]*' | head -n1 | sed 's/^linux-headers-//')
[ -n "$KVER" ] && echo "$dep" | grep -q '^install ok installed' && [ -f "/lib/modules/$KVER/build/Makefile" ]
ok $? "linux-headers-amd64 installed, resolves to linux-headers-${KVER:-?} with /lib/modules/${KVER:-?}/build"
echo "$dep" | diag
[ -x "$BTFGEN" ] && [ -x "$top/build/sched-shadow" ]; ok $? "build/btfgen and build/sched-shadow are built"
if [ -z "$KVER" ] || [ ! -x "$BTFGEN" ]; then tap_end; exit 1; fi

# The same kernel's image and extracted BTF, from the VM suite's cache
# (tests/vm/kernel.sh downloads the current bookworm ABI if it is not there).
CACHE=$CACHE "$top/tests/vm/kernel.sh" bookworm >"$tmp/kernel.log" 2>&1; rc=$?
VM_RELEASE='' VM_BTF='' VM_VMLINUZ=''
[ $rc -eq 0 ] && . "$CACHE/bookworm.env"
[ $rc -eq 0 ] && [ "$VM_RELEASE" = "$KVER" ] && [ -s "$VM_BTF" ] && [ -s "$VM_VMLINUZ" ]
ok $? "kernel image and BTF of $KVER at hand (tests/vm/kernel.sh: ${VM_RELEASE:-failed})"
if [ "$VM_RELEASE" != "$KVER" ]; then
	{ echo "the cached bookworm kernel is '$VM_RELEASE', the headers are $KVER:"
	  echo "apt-get update && apt-get install linux-headers-amd64 brings both to the current ABI"
	  tail -n 3 "$tmp/kernel.log"; } | diag
fi

# --- scripts/find-btf.sh ----------------------------------------------------
FB=$top/scripts/find-btf.sh
mkdir -p "$tmp/empty"
# fb NAME -- env... : run find-btf with the lookup dirs pointed at empty ones
fb() { env SCHED_SHADOW_BOOT="$tmp/empty" SCHED_SHADOW_DEBUG="$tmp/empty" \
	SCHED_SHADOW_BTF_CACHE="$tmp/fbcache" "$@" >"$tmp/fb.out" 2>"$tmp/fb.err"; }
one_line_err() { # one_line_err REGEX: exactly one stderr line, matching
	[ "$(wc -l < "$tmp/fb.err")" -eq 1 ] && grep -qE "$1" "$tmp/fb.err" && [ ! -s "$tmp/fb.out" ]
}

running=$(uname -r)
if [ -r /sys/kernel/btf/vmlinux ]; then
	fb "$FB" "$running"; rc=$?
	[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = /sys/kernel/btf/vmlinux ]
	ok $? "running kernel ($running): /sys/kernel/btf/vmlinux"
else
	fb "$FB" "$running"; rc=$?
	[ $rc -ne 0 ] && one_line_err "^find-btf: no BTF for kernel $running: the running kernel has no /sys/kernel/btf/vmlinux"
	ok $? "running kernel ($running) without /sys/kernel/btf: says so"
fi

fb "$FB" 0.0.0-nosuch; rc=$?
[ $rc -eq 1 ] && one_line_err '^find-btf: no BTF for kernel 0\.0\.0-nosuch: not the running kernel .*vmlinuz-0\.0\.0-nosuch.*vmlinux-0\.0\.0-nosuch.*SCHED_SHADOW_BTF' &&
	[ ! -e "$tmp/fbcache" ]
ok $? "unknown kernel: exit 1, one line naming what is missing, stdout empty, no cache created"
diag < "$tmp/fb.err"
# docs/install.md shows that line for a kernel named 5.4.0-custom while the
# running one is 6.1.0-57-amd64: the same words and order (tests/docs/console.py)
( uname() { if [ "$*" = -r ]; then echo 6.1.0-57-amd64; else command uname "$@"; fi; }
  export -f uname; SCHED_SHADOW_BTF_CACHE=$tmp/fbcache "$FB" 5.4.0-custom ) >/dev/null 2>"$tmp/fbdoc.err"
python3 "$top/tests/docs/console.py" match install-find-btf "$tmp/fbdoc.err" >"$tmp/fbdoc.why"
ok $? "docs/install.md's find-btf line has the words and order of find-btf's ($(cat "$tmp/fbdoc.why"))"
fb env -u SCHED_SHADOW_BOOT -u SCHED_SHADOW_DEBUG "$FB" 0.0.0-nosuch; rc=$?
[ $rc -eq 1 ] && one_line_err 'no /boot/vmlinuz-0\.0\.0-nosuch, no /usr/lib/debug/boot/vmlinux-0\.0\.0-nosuch or /usr/lib/debug/lib/modules/0\.0\.0-nosuch/vmlinux'
ok $? "unknown kernel with the default paths: names /boot and /usr/lib/debug"
fb "$FB" ../../etc; rc=$?
[ $rc -eq 2 ] && one_line_err 'is not a kernel release name'; ok $? "a path as KVER: usage error (2)"

# explicit SCHED_SHADOW_BTF: checked, never silently skipped
cp /bin/true "$tmp/nobtf.elf"
head -c 65536 /dev/urandom > "$tmp/random.bin"
printf 'Linux version 9.9.9-other (x@y) #1 SMP\0' > "$tmp/banner-other"
printf 'Linux version %s (x@y) #1 SMP\0' "$KVER" > "$tmp/banner-kver"
objcopy --add-section .BTF="$VM_BTF" --add-section .rodata.banner="$tmp/banner-other" /bin/true "$tmp/other.elf" 2>/dev/null ||
	objcopy --add-section .BTF=/sys/kernel/btf/vmlinux --add-section .rodata.banner="$tmp/banner-other" /bin/true "$tmp/other.elf"
objcopy --dump-section .BTF="$tmp/raw.btf" "$VM_BTF" "$tmp/discard" 2>/dev/null
objcopy --add-section .BTF="$tmp/raw.btf" --add-section .rodata.banner="$tmp/banner-kver" /bin/true "$tmp/kver.elf" 2>/dev/null
fb env SCHED_SHADOW_BTF="$tmp/missing" "$FB" "$KVER"; rc=$?
[ $rc -eq 1 ] && one_line_err "SCHED_SHADOW_BTF: cannot read $tmp/missing"; ok $? "SCHED_SHADOW_BTF missing: refused"
fb env SCHED_SHADOW_BTF="$tmp/nobtf.elf" "$FB" "$KVER"; rc=$?
[ $rc -eq 1 ] && one_line_err "no BTF for kernel $KVER: SCHED_SHADOW_BTF: .*nobtf.elf has no \.BTF section"
ok $? "SCHED_SHADOW_BTF an ELF without .BTF: refused, says no .BTF section"
fb env SCHED_SHADOW_BTF="$tmp/random.bin" "$FB" "$KVER"; rc=$?
[ $rc -eq 1 ] && one_line_err 'neither a vmlinux ELF nor raw BTF'; ok $? "SCHED_SHADOW_BTF random bytes: refused"
fb env SCHED_SHADOW_BTF="$tmp/other.elf" "$FB" "$KVER"; rc=$?
[ $rc -eq 1 ] && one_line_err "describes kernel 9\.9\.9-other, not $KVER"; ok $? "SCHED_SHADOW_BTF of another kernel (banner): refused"
fb env SCHED_SHADOW_BTF="$tmp/kver.elf" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$tmp/kver.elf" ]; ok $? "SCHED_SHADOW_BTF an ELF with .BTF and $KVER's banner: used"
fb env SCHED_SHADOW_BTF="$tmp/raw.btf" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$tmp/raw.btf" ]; ok $? "SCHED_SHADOW_BTF raw BTF: used"

# Debian -dbg locations, in order; an unusable one is skipped with a note
mkdir -p "$tmp/dbg1/boot" "$tmp/dbg1/lib/modules/$KVER" "$tmp/dbg2/lib/modules/$KVER" "$tmp/dbg3/boot"
ln -s "$VM_BTF" "$tmp/dbg1/boot/vmlinux-$KVER"; ln -s "$VM_BTF" "$tmp/dbg1/lib/modules/$KVER/vmlinux"
ln -s "$VM_BTF" "$tmp/dbg2/lib/modules/$KVER/vmlinux"; cp /bin/true "$tmp/dbg3/boot/vmlinux-$KVER"
fb env SCHED_SHADOW_DEBUG="$tmp/dbg1" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$tmp/dbg1/boot/vmlinux-$KVER" ]; ok $? "debug vmlinux: DEBUG/boot/vmlinux-KVER first"
fb env SCHED_SHADOW_DEBUG="$tmp/dbg2" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$tmp/dbg2/lib/modules/$KVER/vmlinux" ]; ok $? "debug vmlinux: DEBUG/lib/modules/KVER/vmlinux"
fb env SCHED_SHADOW_DEBUG="$tmp/dbg3" "$FB" "$KVER"; rc=$?
[ $rc -eq 1 ] && grep -q "skipping .*vmlinux-$KVER has no \.BTF section" "$tmp/fb.err" &&
	grep -q "^find-btf: no BTF for kernel $KVER: .*has no \.BTF section" "$tmp/fb.err"
ok $? "debug vmlinux without .BTF: skipped, and named in the final error"

# /boot/vmlinuz-KVER: extracted once into the cache
mkdir -p "$tmp/boot" "$tmp/badboot"
ln -s "$VM_VMLINUZ" "$tmp/boot/vmlinuz-$KVER"
ln -s "$VM_VMLINUZ" "$tmp/badboot/vmlinuz-6.1.0-99-amd64"
{ printf 'MZ not a kernel'; xz -c /bin/true; } > "$tmp/badboot/vmlinuz-0.0.1-nobtf"
yes 'no payload here' | head -c 200000 > "$tmp/badboot/vmlinuz-0.0.2-text"
fb env SCHED_SHADOW_BOOT="$tmp/boot" SCHED_SHADOW_BTF_CACHE="$tmp/btfcache" "$FB" "$KVER"; rc=$?
out=$(cat "$tmp/fb.out")
[ $rc -eq 0 ] && [ "$out" = "$tmp/btfcache/$KVER.btf" ] && [ "$(head -c 2 "$out" | od -An -tx1 | tr -d ' ')" = 9feb ]
ok $? "/boot/vmlinuz-KVER: .BTF extracted into the cache as raw BTF"
"$BTFGEN" --btf "$out" --release "$KVER" --manifest "$top/module/kstruct.fields" -o "$tmp/gen-raw.h" 2>"$tmp/g.err" &&
"$BTFGEN" --btf "$VM_BTF" --manifest "$top/module/kstruct.fields" -o "$tmp/gen-elf.h" 2>>"$tmp/g.err" &&
	diff <(grep -v KS_BTF_SOURCE "$tmp/gen-raw.h") <(grep -v KS_BTF_SOURCE "$tmp/gen-elf.h") >"$tmp/g.diff"
ok $? "btfgen output from the extracted BTF equals the one from the vmlinux"
cat "$tmp/g.err" "$tmp/g.diff" | head -n 5 | diag
before=$(stat -c %Y.%i "$out" 2>/dev/null)
fb env SCHED_SHADOW_BOOT="$tmp/boot" SCHED_SHADOW_BTF_CACHE="$tmp/btfcache" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$out" ] && [ "$(stat -c %Y.%i "$out")" = "$before" ] &&
	! grep -q extracting "$tmp/fb.err"
ok $? "second lookup reuses the cached BTF (no new extraction)"
ls -A "$tmp/btfcache" > "$tmp/cache.before"
fb env SCHED_SHADOW_BOOT="$tmp/badboot" SCHED_SHADOW_BTF_CACHE="$tmp/btfcache" "$FB" 6.1.0-99-amd64; rc=$?
[ $rc -eq 1 ] && grep -q "^find-btf: no BTF for kernel 6.1.0-99-amd64: .*holds kernel $KVER, not 6.1.0-99-amd64" "$tmp/fb.err" &&
	[ ! -s "$tmp/fb.out" ] && ls -A "$tmp/btfcache" | cmp -s - "$tmp/cache.before"
ok $? "an image of another release under KVER's name: refused, cache unchanged"
fb env SCHED_SHADOW_BOOT="$tmp/badboot" SCHED_SHADOW_BTF_CACHE="$tmp/newcache" "$FB" 0.0.1-nobtf; rc=$?
[ $rc -eq 1 ] && grep -q '^find-btf: no BTF for kernel 0.0.1-nobtf: .*without a \.BTF section.*CONFIG_DEBUG_INFO_BTF' "$tmp/fb.err" &&
	[ ! -s "$tmp/fb.out" ] && [ ! -e "$tmp/newcache" ]
ok $? "kernel image whose vmlinux has no .BTF: clear message, nothing created"
grep '^find-btf: no' "$tmp/fb.err" | diag
fb env SCHED_SHADOW_BOOT="$tmp/badboot" SCHED_SHADOW_BTF_CACHE="$tmp/newcache" "$FB" 0.0.2-text; rc=$?
[ $rc -eq 1 ] && grep -q '^find-btf: no BTF for kernel 0.0.2-text: no xz/zstd/gzip payload' "$tmp/fb.err" && [ ! -e "$tmp/newcache" ]
ok $? "not a kernel image: clear message, nothing created"

# --- the `readelf | grep -q` race ----------------------------------------------
# Both scripts used to run `readelf -S | grep -q ' \.BTF '` under pipefail:
# grep exits at the match, readelf dies of SIGPIPE on its next write and the
# check fails ("built without CONFIG_DEBUG_INFO_BTF", 20 in 200 on 6.12 and
# 7.x images).  A readelf that pauses after the .BTF line makes that failure
# certain (checked: the old pattern fails with it); 200 real lookups catch
# it on an image whose section table takes more than one write (> 4 KiB,
# the 7.x images; 6.1's table is smaller and never raced).
mkdir -p "$tmp/slowbin"
cat > "$tmp/slowbin/readelf" <<EOF
#!/bin/bash
# readelf, writing the part after the .BTF line 0.3 s later
out=\$("$(command -v readelf)" "\$@") || exit
printf '%s\n' "\$(sed -n '1,/ \.BTF /p' <<< "\$out")"
sleep 0.3
printf '%s\n' "\$(sed '1,/ \.BTF /d' <<< "\$out")"
EOF
chmod +x "$tmp/slowbin/readelf"
PATH=$tmp/slowbin:$PATH bash -c 'set -o pipefail; readelf -S --wide "$1" 2>/dev/null | grep -q " \.BTF "' _ "$VM_BTF"
[ $? -ne 0 ]; ok $? "readelf race: a readelf that pauses after .BTF fails the old 'readelf | grep -q' check"
fb env PATH="$tmp/slowbin:$PATH" SCHED_SHADOW_BTF="$VM_BTF" "$FB" "$KVER"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/fb.out")" = "$VM_BTF" ]
ok $? "readelf race: find-btf.sh accepts the vmlinux with that readelf"
PATH=$tmp/slowbin:$PATH "$top/scripts/extract-vmlinux.sh" "$VM_VMLINUZ" "$tmp/race-vmlinux" 2>"$tmp/race.err"; rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/race-vmlinux" ]
ok $? "readelf race: extract-vmlinux.sh extracts the vmlinux with that readelf"
[ $rc -eq 0 ] || diag < "$tmp/race.err"
rm -f "$tmp/race-vmlinux"
# the real thing: the cached vmlinux with the largest section table
race_btf=$VM_BTF race_rel=$KVER race_size=$(readelf -S --wide "$VM_BTF" 2>/dev/null | wc -c)
for e in "$CACHE"/*.env; do
	# shellcheck source=/dev/null # a kernel's settings, written by tests/vm/kernel.sh
	v=$(. "$e" && echo "$VM_BTF") r=$(. "$e" && echo "$VM_RELEASE")
	[ -s "$v" ] || continue
	n=$(readelf -S --wide "$v" 2>/dev/null | wc -c)
	if [ "$n" -gt "$race_size" ]; then race_btf=$v race_rel=$r race_size=$n; fi
done
fails=0 start=$(date +%s)
for _ in $(seq 200); do
	SCHED_SHADOW_BTF=$race_btf "$FB" "$race_rel" >/dev/null 2>"$tmp/race.err" || fails=$((fails + 1))
done
[ $fails -eq 0 ]
ok $? "readelf race: 200 lookups of the $race_rel vmlinux (section table $race_size bytes), $fails failed ($(( $(date +%s) - start )) s)"
[ "$race_size" -gt 4096 ] ||
	echo "no cached vmlinux with a section table over 4096 bytes (make vm-kernel KERNEL=trixie-backports): the real race cannot show here" | diag

# --- make install / uninstall into a DESTDIR --------------------------------
dest=$tmp/dest
start=$(date +%s)
mk install DESTDIR="$dest" KVER="$KVER" SCHED_SHADOW_BTF="$VM_BTF" >"$tmp/install.log" 2>&1; rc=$?
ok $rc "make install DESTDIR KVER=$KVER exits 0 ($(( $(date +%s) - start )) s, module built for $KVER)"
[ $rc -eq 0 ] || tail -n 15 "$tmp/install.log" | diag
docs=$(cd "$top" && ls docs/*.md docs/*.png)
expect=$( { echo "lib/modules/$KVER/extra/sched_shadow.ko"; echo usr/local/bin/sched-shadow
	echo usr/local/share/man/man1/sched-shadow.1; echo usr/local/share/doc/sched_shadow/README.md
	echo usr/local/share/bash-completion/completions/sched-shadow
	for d in $docs; do echo "usr/local/share/doc/sched_shadow/$d"; done; } | sort)
got=$(cd "$dest" 2>/dev/null && find . -type f -o -type l | sed 's|^\./||' | sort)
[ -n "$got" ] && [ "$got" = "$expect" ]
ok $? "DESTDIR holds exactly the module, CLI, man page, bash completion and docs ($(echo "$got" | grep -c .) files)"
[ "$got" = "$expect" ] || diff <(echo "$expect") <(echo "$got") | head -n 10 | diag
ko=$dest/lib/modules/$KVER/extra/sched_shadow.ko
vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
[ "${vm%% *}" = "$KVER" ]; ok $? "installed module's vermagic is $KVER ('${vm% }')"
[ "$(modinfo -F version "$ko" 2>/dev/null)" = "$VERSION" ]; ok $? "installed module's version is VERSION ($VERSION)"
[ ! -e "$dest/lib/modules/$KVER/modules.dep" ] && grep -q "depmod skipped" "$tmp/install.log"
ok $? "DESTDIR: depmod skipped and said so"
bin=$dest/usr/local/bin/sched-shadow
[ -x "$bin" ] && "$bin" --help >"$tmp/help.out" 2>&1 && grep -q '^usage: sched-shadow' "$tmp/help.out"
ok $? "installed CLI runs: --help from the installed path"
[ "$("$bin" --version 2>&1 | head -n 1)" = "sched-shadow $VERSION" ]; ok $? "installed CLI --version says $VERSION"
man1=$dest/usr/local/share/man/man1/sched-shadow.1
MANWIDTH=80 man -l "$man1" >"$tmp/man.txt" 2>"$tmp/man.err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] && grep -q '^SCHED-SHADOW(1)' "$tmp/man.txt" &&
	grep -q '^NAME' "$tmp/man.txt" && grep -q '^EXIT STATUS' "$tmp/man.txt"
ok $? "man -l renders the installed page with no warnings"
diag < "$tmp/man.err"
# the page documents every command and every option the CLI's help lists
src=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man1")
missing=
cmds=$(sed -n '/^commands:/,/^$/p' "$tmp/help.out" | awk 'NR > 1 && NF { print $1 }')
for c in $cmds; do
	echo "$src" | grep -qE "^\.SS \"sched-shadow $c " || missing="$missing cmd:$c"
	for o in $("$bin" "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		echo "$src" | grep -qF -- "$o" || missing="$missing $c:$o"
	done
done
for o in $(grep -oE -- '--[a-z][a-z-]+' "$tmp/help.out" | sort -u); do
	echo "$src" | grep -qF -- "$o" || missing="$missing global:$o"
done
[ -n "$cmds" ] && [ -z "$missing" ]
ok $? "man page covers every command and option of --help ($(echo $cmds | wc -w) commands)"
[ -z "$missing" ] || echo "missing:$missing" | diag
# the installed bash completion, asked as bash asks it
comp=$dest/usr/local/share/bash-completion/completions/sched-shadow
complete_words() { # complete_words WORD... (the last one is being completed)
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sched_shadow; echo "${COMPREPLY[*]}"' \
		_ "$comp" sched-shadow "$@" 2>&1
}
[ "$(complete_words ru)" = run ] && [ "$(complete_words help co)" = compare ] &&
	[ "$(complete_words run --no-)" = "--no-bpf --no-module" ] &&
	complete_words bench - | grep -qw -- -c && ! complete_words bench - | grep -qw -- -C &&
	[ "$(complete_words -j sta)" = status ] && [ "$(complete_words run -- bas)" != "" ] &&
	bash -c ". '$comp' && complete -p sched-shadow" | grep -q _sched_shadow
ok $? "bash completion: commands, help COMMAND, options per command, after -j, CMD after run --"
mk uninstall DESTDIR="$dest" KVER="$KVER" >"$tmp/uninstall.log" 2>&1; rc=$?
left=$(find "$dest" -type f -o -type l 2>/dev/null)
[ $rc -eq 0 ] && [ -z "$left" ] && [ ! -e "$dest/usr/local/share/doc/sched_shadow" ] && [ ! -e "$dest/lib/modules/$KVER/extra" ]
ok $? "make uninstall DESTDIR leaves no file (nor its doc and extra/ directories)"
[ -z "$left" ] || echo "$left" | head -n 5 | diag

mk install-cli DESTDIR="$tmp/dest2" PREFIX=/opt/ss >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && [ -x "$tmp/dest2/opt/ss/bin/sched-shadow" ] && [ -f "$tmp/dest2/opt/ss/share/man/man1/sched-shadow.1" ] &&
	[ -f "$tmp/dest2/opt/ss/share/doc/sched_shadow/README.md" ] && [ ! -e "$tmp/dest2/usr" ]
ok $? "PREFIX=/opt/ss: CLI, man page and docs under it"
mk uninstall-cli DESTDIR="$tmp/dest2" PREFIX=/opt/ss >/dev/null 2>&1
[ -z "$(find "$tmp/dest2" -type f)" ]; ok $? "uninstall-cli PREFIX=/opt/ss leaves no file"

# bad input changes nothing
mk install DESTDIR="$tmp/dest3" KVER=0.0.0-nosuch >"$tmp/bad1.log" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'no kernel headers for KVER=0.0.0-nosuch' "$tmp/bad1.log" && [ ! -e "$tmp/dest3" ]
ok $? "install for a kernel without headers: fails naming it, installs nothing"
mk install DESTDIR="$tmp/dest4" KVER="$KVER" >"$tmp/bad2.log" 2>&1 \
	SCHED_SHADOW_BOOT="$tmp/empty" SCHED_SHADOW_DEBUG="$tmp/empty"; rc=$?
[ $rc -ne 0 ] && grep -q "^find-btf: no BTF for kernel $KVER: " "$tmp/bad2.log" && [ ! -e "$tmp/dest4" ]
ok $? "install without BTF for KVER: fails with find-btf's line, installs nothing"
mk install DESTDIR="$tmp/dest5" KVER="$KVER" BTF="$tmp/other.elf" >"$tmp/bad3.log" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "describes kernel 9.9.9-other, not $KVER" "$tmp/bad3.log" && [ ! -e "$tmp/dest5" ]
ok $? "install with BTF= of another kernel: refused, installs nothing"

# --- make install-module into the real /lib/modules (depmod) ---------------
moddir=/lib/modules/$KVER
pre=$(find "$moddir" -name 'sched_shadow.ko*' 2>/dev/null)
[ -z "$pre" ]; ok $? "no sched_shadow installed for $KVER before the real install"
if [ -n "$pre" ]; then echo "remove it first: $pre (dkms remove sched_shadow --all; make uninstall KVER=$KVER)" | diag; fi
had_extra=; [ -d "$moddir/extra" ] && had_extra=1
if [ -z "$pre" ]; then
	we_installed_module=1
	mk install-module KVER="$KVER" SCHED_SHADOW_BTF="$VM_BTF" >"$tmp/real.log" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ -f "$moddir/extra/sched_shadow.ko" ] &&
		[ "$(modprobe -S "$KVER" --show-depends sched_shadow 2>&1)" = "insmod $moddir/extra/sched_shadow.ko " ]
	ok $? "make install-module: $moddir/extra/sched_shadow.ko, depmod ran (modprobe -S $KVER resolves it)"
	[ $rc -eq 0 ] || tail -n 5 "$tmp/real.log" | diag
	mk uninstall-module KVER="$KVER" >"$tmp/real-un.log" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ ! -e "$moddir/extra/sched_shadow.ko" ] && ! modprobe -S "$KVER" --show-depends sched_shadow >/dev/null 2>&1 &&
		{ [ -n "$had_extra" ] || [ ! -e "$moddir/extra" ]; }
	ok $? "make uninstall-module: file gone, depmod re-run (modprobe no longer finds it), extra/ as before"
	we_installed_module=
fi

# --- DKMS ------------------------------------------------------------------
stage=$tmp/stage/usr/src/sched_shadow-$VERSION
mk dkms-src DESTDIR="$tmp/stage" >"$tmp/dkms-src.log" 2>&1; rc=$?
[ $rc -eq 0 ] && [ -f "$stage/dkms.conf" ] && [ -f "$stage/VERSION" ] && [ -x "$stage/scripts/find-btf.sh" ] &&
	[ ! -e "$stage/build" ] && [ ! -e "$stage/userspace/cli" ] && [ ! -e "$stage/bpf" ] && [ ! -e "$stage/.git" ] &&
	[ -z "$(find "$stage" -name '*.o' -o -name '*.ko' -o -name generated)" ]
ok $? "make dkms-src: module sources only (no build/, CLI, BPF, .git or objects), $(find "$stage" -type f 2>/dev/null | wc -l) files"
pre=$( { dkms status sched_shadow 2>/dev/null; ls -d "/usr/src/sched_shadow-$VERSION" 2>/dev/null; } )
[ -z "$pre" ]; ok $? "sched_shadow not in DKMS and no /usr/src/sched_shadow-$VERSION before the cycle"
if [ -n "$pre" ]; then { echo "$pre"; echo "remove it first: dkms remove sched_shadow/$VERSION --all; rm -r /usr/src/sched_shadow-$VERSION"; } | diag; fi
if [ -z "$pre" ]; then
	we_made_src=1 we_added_dkms=1
	dkms add "$stage" >"$tmp/dkms-add.log" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ -f "/usr/src/sched_shadow-$VERSION/dkms.conf" ] &&
		dkms status sched_shadow 2>/dev/null | grep -q "^sched_shadow/$VERSION: added"
	ok $? "dkms add: sched_shadow/$VERSION (version read from VERSION by dkms.conf) added"
	[ $rc -eq 0 ] || diag < "$tmp/dkms-add.log"

	# without any BTF for the kernel the build must fail with find-btf's line
	SCHED_SHADOW_BOOT="$tmp/empty" SCHED_SHADOW_DEBUG="$tmp/empty" \
		dkms build "sched_shadow/$VERSION" -k "$KVER" >"$tmp/dkms-nobtf.log" 2>&1; rc=$?
	blog=/var/lib/dkms/sched_shadow/$VERSION/build/make.log
	[ $rc -ne 0 ] && grep -q "^find-btf: no BTF for kernel $KVER: " "$blog" 2>/dev/null &&
		[ ! -d "/var/lib/dkms/sched_shadow/$VERSION/$KVER" ] && [ -z "$(find "$moddir" -name 'sched_shadow.ko*')" ]
	ok $? "dkms build with no BTF for $KVER fails with find-btf's line in make.log, builds nothing"
	grep '^find-btf' "$blog" 2>/dev/null | diag

	# the real build: BTF from /boot/vmlinuz-KVER through the extraction,
	# with git, clang and bpftool replaced by shims that record any call
	mkdir -p "$tmp/shims" "$tmp/dboot"
	for t in git clang llc bpftool llvm-strip; do
		printf '#!/bin/sh\necho "%s $*" >> %s\nexit 1\n' "$t" "$tmp/shims.log" > "$tmp/shims/$t"
		chmod +x "$tmp/shims/$t"
	done
	ln -s "$VM_VMLINUZ" "$tmp/dboot/vmlinuz-$KVER"
	start=$(date +%s)
	PATH="$tmp/shims:$PATH" SCHED_SHADOW_BOOT="$tmp/dboot" SCHED_SHADOW_DEBUG="$tmp/empty" \
		SCHED_SHADOW_BTF_CACHE="$tmp/dkmscache" \
		dkms build "sched_shadow/$VERSION" -k "$KVER" >"$tmp/dkms-build.log" 2>&1; rc=$?
	secs=$(( $(date +%s) - start ))
	log=/var/lib/dkms/sched_shadow/$VERSION/$KVER/$(uname -m)/log/make.log
	ok $rc "dkms build sched_shadow/$VERSION -k $KVER ($secs s)"
	[ $rc -eq 0 ] || { tail -n 5 "$tmp/dkms-build.log"; tail -n 15 "$blog" 2>/dev/null; } | diag
	[ -s "$tmp/dkmscache/$KVER.btf" ] && grep -q "BTF=$tmp/dkmscache/$KVER.btf" "$log" 2>/dev/null
	ok $? "the DKMS build used the BTF extracted from /boot/vmlinuz-$KVER"
	[ ! -s "$tmp/shims.log" ] && [ -z "$(find "/usr/src/sched_shadow-$VERSION" -name .git)" ]
	ok $? "the DKMS build ran no git, clang, llc, bpftool or llvm-strip"
	[ -s "$tmp/shims.log" ] && diag < "$tmp/shims.log"

	dkms install "sched_shadow/$VERSION" -k "$KVER" >"$tmp/dkms-install.log" 2>&1; rc=$?
	installed=$(find "$moddir" -name 'sched_shadow.ko*' 2>/dev/null)
	[ $rc -eq 0 ] && dkms status sched_shadow 2>/dev/null | grep -q "^sched_shadow/$VERSION, $KVER, .*: installed" &&
		[ "$(echo "$installed" | grep -c .)" -eq 1 ]
	ok $? "dkms install: status installed, one module file ($installed)"
	[ $rc -eq 0 ] || tail -n 10 "$tmp/dkms-install.log" | diag
	case $(. /etc/os-release; echo "$ID") in
	debian | ubuntu) want="$moddir/updates/dkms/sched_shadow.ko" ;;
	*) want="$moddir/extra/sched_shadow.ko" ;;
	esac
	[ "$installed" = "$want" ] && [ "$(modprobe -S "$KVER" --show-depends sched_shadow 2>&1)" = "insmod $want " ]
	ok $? "installed where dkms puts it on this distribution ($want) and depmod knows it"
	vm=$(modinfo -F vermagic "$installed" 2>/dev/null)
	[ "${vm%% *}" = "$KVER" ] && [ "$(modinfo -F version "$installed" 2>/dev/null)" = "$VERSION" ]
	ok $? "DKMS module: vermagic $KVER, version $VERSION ('${vm% }')"

	dkms remove "sched_shadow/$VERSION" --all >"$tmp/dkms-remove.log" 2>&1; rc=$?
	[ $rc -eq 0 ] && [ -z "$(find "$moddir" -name 'sched_shadow.ko*')" ] && [ ! -e /var/lib/dkms/sched_shadow ] &&
		[ -z "$(dkms status sched_shadow 2>/dev/null)" ] && ! modprobe -S "$KVER" --show-depends sched_shadow >/dev/null 2>&1
	ok $? "dkms remove --all: no module file, no DKMS tree entry, depmod no longer finds it"
	[ $rc -eq 0 ] || tail -n 5 "$tmp/dkms-remove.log" | diag
	we_added_dkms=
	# dkms remove leaves the source in /usr/src (as documented): remove it
	rm -rf "/usr/src/sched_shadow-$VERSION"
	[ ! -e "/usr/src/sched_shadow-$VERSION" ]; ok $? "source tree /usr/src/sched_shadow-$VERSION removed"
	we_made_src=
fi

# --- optional features: the CLI builds without clang/bpftool and protobuf-c ---
# (clang looked up under a name that does not exist: the real detection;
# Perfetto turned off by hand: protoc-c lives in /usr/bin with the compiler)
nf=$tmp/nofeat
mk BUILD="$nf" BPF_CLANG=/nonexistent/clang NO_PERFETTO=1 cli-features "$nf/sched-shadow" >"$tmp/nofeat.log" 2>&1; rc=$?
[ $rc -eq 0 ] && [ -x "$nf/sched-shadow" ] &&
	grep -q '^\.\.\. *bpf: \[ off \] /nonexistent/clang not found (apt-get install clang llvm)$' "$tmp/nofeat.log" &&
	grep -q '^\.\.\. *perfetto: \[ off \] turned off (NO_PERFETTO=1)$' "$tmp/nofeat.log" &&
	[ ! -e "$nf/bpf/latency.skel.h" ] && [ ! -e "$nf/cli/perfetto_trace.pb-c.c" ]
ok $? "make without clang and protobuf-c: builds the CLI, says which features are off and why"
[ $rc -eq 0 ] || tail -n 5 "$tmp/nofeat.log" | diag
"$nf/sched-shadow" version >"$tmp/nofeat.ver" 2>&1
grep -q '^  bpf  *no: /nonexistent/clang not found' "$tmp/nofeat.ver" &&
	grep -q '^  perfetto  *no: turned off' "$tmp/nofeat.ver" && ! ldd "$nf/sched-shadow" | grep -qE 'libbpf|libprotobuf-c'
ok $? "that CLI's version lists both features off with the reason; it links neither libbpf nor libprotobuf-c"
"$nf/sched-shadow" record --perfetto "$tmp/x.trace" -n 1 --debugfs "$top/tests/unit/fixtures/cli/good" \
	>/dev/null 2>"$tmp/nofeat.err"; rc=$?
"$nf/sched-shadow" run --no-module --no-bpf -- true >/dev/null 2>&1; rc2=$?
"$nf/sched-shadow" run --no-module -- true >"$tmp/nofeat.run" 2>/dev/null; rc3=$?
[ $rc -eq 3 ] && grep -q "built without Perfetto traces: turned off" "$tmp/nofeat.err" && [ ! -e "$tmp/x.trace" ] &&
	[ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && grep -q "^bpf: not available: built without BPF: /nonexistent/clang not found" "$tmp/nofeat.run"
ok $? "record --perfetto there: exit 3 ($rc) saying why; run works and says BPF is not built ($rc2, $rc3)"

# --- the README's quick start: its install steps, as written -----------------
# (tests/quickstart/extract.sh; scenario 64 runs the rest in the VM).  As
# the host cannot load modules, `uname -r` answers the headers' kernel,
# the module is built against that kernel's BTF, and the install is staged
# (DESTDIR): the commands themselves are the README's, `sudo` the only shim.
qs=$tmp/quickstart.txt
"$top/tests/quickstart/extract.sh" "$top/README.md" > "$qs"; rc=$?
nhost=$(grep -c '^cmd host ' "$qs")
[ $rc -eq 0 ] && [ "$nhost" -ge 3 ] && grep -q '^cmd host .*make install' "$qs"
ok $? "the README's quick start: $nhost install steps (apt-get, make, make install) to run on the host"
qs_run() { # qs_run N COMMAND: run it as the README writes it; its output in $tmp/qs.N
	( cd "$top" || exit 1
	  sudo() { "$@"; }
	  uname() { if [ "$*" = -r ]; then echo "$KVER"; else command uname "$@"; fi; }
	  export -f sudo uname
	  unset MAKEFLAGS MFLAGS MAKELEVEL
	  export KVER KDIR=/lib/modules/$KVER/build BTF=$VM_BTF SCHED_SHADOW_BTF=$VM_BTF \
		DESTDIR=$tmp/qs-dest DEBIAN_FRONTEND=noninteractive
	  bash -c "$2" ) > "$tmp/qs.$1" 2>&1
}
n=0
while IFS= read -r rec; do
	case $rec in
	"cmd host "*) n=$((n + 1)); echo "${rec#cmd host }" > "$tmp/qs.cmd.$n"; : > "$tmp/qs.want.$n" ;;
	"cmd vm "*) n=$((n + 1)); echo skip > "$tmp/qs.cmd.$n" ;;
	"out "*) [ -f "$tmp/qs.want.$n" ] && echo "${rec#out }" >> "$tmp/qs.want.$n" ;;
	esac
done < "$qs"
for i in $(seq "$n"); do
	cmd=$(cat "$tmp/qs.cmd.$i")
	[ "$cmd" = skip ] && continue
	qs_run "$i" "$cmd"; rc=$?
	# the README's output of this command: its words and order (digits free),
	# the staged install's DESTDIR taken off the paths it prints
	sed "s|$tmp/qs-dest||g" "$tmp/qs.$i" > "$tmp/qs.$i.paths"
	missing=$(python3 "$top/tests/docs/console.py" match quickstart "$tmp/qs.$i.paths" "$i")
	[ $rc -eq 0 ] && [ -z "$missing" ]
	ok $? "quick start (host): \$ $cmd${missing:+: $missing}"
	[ $rc -eq 0 ] || tail -n 5 "$tmp/qs.$i" | diag
done
[ -f "$tmp/qs-dest/lib/modules/$KVER/extra/sched_shadow.ko" ] && [ -x "$tmp/qs-dest/usr/local/bin/sched-shadow" ] &&
	[ -f "$tmp/qs-dest/usr/local/share/bash-completion/completions/sched-shadow" ]
ok $? "quick start (host): make install put the module, the CLI and the completion in place"

tap_end
