# SPDX-License-Identifier: GPL-2.0
#
# sched_shadow top-level Makefile.  The kernel module is built by Kbuild
# (see Kbuild and module/Kbuild); everything else is plain make.  Each area
# owns a fragment included below, so this file only wires them together.
#
#   make                 module (for KDIR/BTF) and user-space tools
#   make test            install dependencies, run unit, bpf, lint, install and vm suites
#   make lint            shellcheck on the scripts, checkpatch on module/ (tests/lint/)
#   make install         module for KVER (default: running kernel), CLI, man page, docs (install.mk)
#   make demo            boot the VM, run the workload in root and nested cgroups
#   make test-mutants    the module with deliberate bugs: the VM tests must fail on each
#
# Building for a kernel other than the running one:
#   make KDIR=/path/to/linux-headers BTF=/path/to/vmlinux-or-raw-btf [BTF_RELEASE=x.y.z]

SHELL       := /bin/bash
TOP         := $(CURDIR)
BUILD       := $(TOP)/build
CACHE       ?= /var/cache/sched_shadow
# one version for the module, the CLI and DKMS (module/Kbuild and dkms.conf read it too)
VERSION     := $(strip $(file < $(TOP)/VERSION))
KDIR        ?= /lib/modules/$(shell uname -r)/build
BTF         ?= /sys/kernel/btf/vmlinux
BTF_RELEASE ?=
# SHADOW_BTF_CHECK=build (default) fails the build when the BTF does not match
# the headers in KDIR; =load defers the same check to insmod time (used only
# by the VM test that proves a foreign-BTF module refuses to load).
SHADOW_BTF_CHECK ?= build
CC          ?= gcc
CFLAGS      ?= -O2 -g -Wall -Wextra

export CACHE

.PHONY: all module tools clean test test-unit test-checker test-bpf test-vm test-install demo deps lint docs
all: tools module

include userspace/btfgen.mk
include tests/unit/unit.mk
-include tests/checker/checker.mk
-include userspace/cli.mk
-include bpf/bpf.mk
-include tests/vm/vm.mk
-include tests/bench/bench.mk
-include tests/vm/stress.mk
-include install.mk
-include tests/mutants/mutants.mk

GEN_HDR := module/generated/kstruct_gen.h

# Regenerate every time (it is fast) but only touch the header when its
# content changes, so Kbuild rebuilds only when the BTF really differs.
.PHONY: FORCE
$(GEN_HDR): $(BTFGEN) module/kstruct.fields FORCE
	@mkdir -p $(dir $@)
	$(BTFGEN) --btf $(BTF) --manifest module/kstruct.fields \
		$(if $(BTF_RELEASE),--release $(BTF_RELEASE)) -o $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

module: $(GEN_HDR)
	@test -f $(KDIR)/Makefile || { echo "error: no kernel build tree at KDIR=$(KDIR)"; \
	  echo "  install linux-headers-$$(uname -r), or pass KDIR= and BTF= (make vm-kernel prepares Debian's kernel under $(CACHE))"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) SHADOW_BTF_CHECK=$(SHADOW_BTF_CHECK) modules
	@cp module/sched_shadow.ko . 2>/dev/null || true

test: deps
	@mkdir -p $(BUILD)/results
	@rm -f $(BUILD)/results/*.summary
	-@$(MAKE) --no-print-directory test-unit
	-@$(MAKE) --no-print-directory test-checker
	-@$(MAKE) --no-print-directory test-bpf
	-@$(MAKE) --no-print-directory lint
	-@$(MAKE) --no-print-directory test-install
	-@$(MAKE) --no-print-directory test-vm
	@tests/summarize.sh $(BUILD)/results

deps:
	tests/deps.sh

# A suite of make test: one TAP check per script and per module file
# (tests/lint/run.sh; the exceptions, with their reasons, in tests/lint/).
lint:
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(BUILD)/results/lint.summary
	@TAP_SUMMARY=$(BUILD)/results/lint.summary CACHE=$(CACHE) tests/lint/run.sh

# Generated documentation: the man page's command sections and the bash
# completion (from the CLI's option tables), docs/debugfs.md's reason list.
docs: docs-cli docs-reasons

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean 2>/dev/null
	rm -rf $(BUILD) module/generated sched_shadow.ko
