# SPDX-License-Identifier: GPL-2.0
# Installing on a test machine, included by the top Makefile.
#
#   make install [KVER=x.y.z] [DESTDIR=dir] [PREFIX=/usr/local]
#   make uninstall [same variables]            removes exactly what install put
#   make install-module / install-cli          (and uninstall-*) one half only
#   make module-kver [KVER=x.y.z]              the module for KVER, no install
#   make dkms-src [DESTDIR=dir]                minimal source tree for DKMS in
#                                              $(DESTDIR)/usr/src/sched_shadow-$(VERSION)
#   make test-install                          TAP suite (tests/install/run.sh)
#
# The module goes to /lib/modules/$(KVER)/extra/ (the kernel's own default
# INSTALL_MOD_DIR for external modules, used by no distribution's packages,
# so it collides with neither Debian's updates/dkms/ nor a distro module),
# then `depmod -a $(KVER)`.  With DESTDIR (staged install, packaging)
# depmod is skipped: run it on the target.  The module is built for KVER
# with KDIR=/lib/modules/$(KVER)/build (unless KDIR is given) and the BTF
# scripts/find-btf.sh finds for KVER (BTF= on the command line overrides
# it); the build is refused when the BTF or the .ko's vermagic names
# another kernel.  dkms.conf calls `make module-kver` the same way.

KVER            ?= $(shell uname -r)
PREFIX          ?= /usr/local
BINDIR          ?= $(PREFIX)/bin
MANDIR          ?= $(PREFIX)/share/man
DOCDIR          ?= $(PREFIX)/share/doc/sched_shadow
# bash-completion's directory for completions loaded on demand
BASHCOMPDIR     ?= $(PREFIX)/share/bash-completion/completions
INSTALL_MOD_DIR ?= extra
MODDIR          := /lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
DKMS_SRCDIR     := /usr/src/sched_shadow-$(VERSION)

# KDIR follows KVER unless it was given (the top Makefile's default is the
# running kernel's build tree).
ifeq ($(origin KDIR),file)
KDIR := /lib/modules/$(KVER)/build
endif

INSTALL_DOCS    := $(wildcard docs/*.md docs/*.png)
# What a DKMS build needs, nothing more: no CLI, no BPF, no tests but the
# unit.mk the top Makefile includes unconditionally.
DKMS_FILES      := VERSION dkms.conf Kbuild Makefile install.mk \
		   userspace/btfgen.c userspace/btfgen.mk tests/unit/unit.mk \
		   scripts/find-btf.sh scripts/extract-vmlinux.sh module/Kbuild \
		   module/kstruct.fields $(wildcard module/*.[ch] module/core/*.[ch])

.PHONY: install uninstall install-module uninstall-module install-cli uninstall-cli \
	module-kver dkms-src test-install

# One after the other even under -j: a module that cannot be built for
# KVER installs nothing at all.
install:
	@$(MAKE) --no-print-directory install-module
	@$(MAKE) --no-print-directory install-cli

uninstall: uninstall-module uninstall-cli

module-kver: $(BTFGEN)
	@test -f $(KDIR)/Makefile || { echo "error: no kernel headers for KVER=$(KVER) at KDIR=$(KDIR)"; \
	  echo "  install linux-headers-$(KVER), or pass KDIR=/path/to/the/build/tree"; exit 1; }
	@btf=$$($(if $(filter command line,$(origin BTF)),SCHED_SHADOW_BTF='$(BTF)') \
		scripts/find-btf.sh '$(KVER)') || exit 1; \
	if [ "$$(head -c 4 "$$btf" | od -An -c | tr -d ' ')" = 177ELF ]; then rel=; else rel='$(KVER)'; fi; \
	echo "sched_shadow $(VERSION) for $(KVER): KDIR=$(KDIR) BTF=$$btf"; \
	$(MAKE) --no-print-directory module KDIR='$(KDIR)' BTF="$$btf" BTF_RELEASE="$$rel" || exit 1; \
	got=$$(sed -n 's/^#define KS_BTF_RELEASE "\(.*\)"$$/\1/p' $(GEN_HDR)); \
	[ "$$got" = '$(KVER)' ] || { echo "error: BTF $$btf describes kernel '$$got', not KVER=$(KVER)"; exit 1; }; \
	vm=$$(PATH=$$PATH:/sbin:/usr/sbin modinfo -F vermagic module/sched_shadow.ko | cut -d' ' -f1); \
	[ "$$vm" = '$(KVER)' ] || { echo "error: module/sched_shadow.ko has vermagic '$$vm' (headers in $(KDIR)), not KVER=$(KVER)"; exit 1; }

install-module: module-kver
	install -D -m 0644 module/sched_shadow.ko $(DESTDIR)$(MODDIR)/sched_shadow.ko
ifeq ($(DESTDIR),)
	depmod -a $(KVER)
else
	@echo "install-module: DESTDIR is set, depmod skipped: run 'depmod -a $(KVER)' on the target"
endif

uninstall-module:
	rm -f $(DESTDIR)$(MODDIR)/sched_shadow.ko
	-@rmdir $(DESTDIR)$(MODDIR) 2>/dev/null || true
ifeq ($(DESTDIR),)
	@if [ -d /lib/modules/$(KVER)/kernel ] || [ -f /lib/modules/$(KVER)/modules.dep ]; then \
	  echo "depmod -a $(KVER)"; depmod -a $(KVER); fi
endif

install-cli: $(BUILD)/sched-shadow
	install -D -m 0755 $(BUILD)/sched-shadow $(DESTDIR)$(BINDIR)/sched-shadow
	install -D -m 0644 docs/sched-shadow.1 $(DESTDIR)$(MANDIR)/man1/sched-shadow.1
	install -D -m 0644 bash-completion/sched-shadow $(DESTDIR)$(BASHCOMPDIR)/sched-shadow
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -d $(DESTDIR)$(DOCDIR)/docs
	install -m 0644 $(INSTALL_DOCS) $(DESTDIR)$(DOCDIR)/docs/

uninstall-cli:
	rm -f $(DESTDIR)$(BINDIR)/sched-shadow $(DESTDIR)$(MANDIR)/man1/sched-shadow.1 \
	  $(DESTDIR)$(BASHCOMPDIR)/sched-shadow \
	  $(DESTDIR)$(DOCDIR)/README.md $(addprefix $(DESTDIR)$(DOCDIR)/docs/,$(notdir $(INSTALL_DOCS)))
	-@rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true

# `dkms add .` copies the whole tree (build/ included) into /usr/src; this
# copies only what the module build reads.
dkms-src:
	@test -n '$(VERSION)' || { echo "error: no VERSION"; exit 1; }
	@test ! -e $(DESTDIR)$(DKMS_SRCDIR) || { echo "error: $(DESTDIR)$(DKMS_SRCDIR) exists (dkms remove sched_shadow/$(VERSION) --all; rm -r it first)"; exit 1; }
	@for f in $(DKMS_FILES); do install -D -m $$(test -x $$f && echo 0755 || echo 0644) $$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; done
	@echo "dkms-src: $(DESTDIR)$(DKMS_SRCDIR) ($(words $(DKMS_FILES)) files); next: dkms install sched_shadow/$(VERSION) -k KVER"

# A build failure of the tools is a failure of the suite, not a missing line.
test-install:
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(BUILD)/results/install.summary
	@$(MAKE) --no-print-directory $(BTFGEN) $(BUILD)/sched-shadow
	@TAP_SUMMARY=$(BUILD)/results/install.summary tests/install/run.sh
