# SPDX-License-Identifier: GPL-2.0
#
# sched_shadow top-level Makefile.  The kernel module is built by Kbuild
# (see Kbuild and module/Kbuild); everything else is plain make.  Each area
# owns a fragment included below, so this file only wires them together.
#
#   make                 the CLI (tools), then the module for KDIR/BTF; without a kernel
#                        build tree the module is skipped with one line saying why
#   make help            every target, one line each (HELP_TARGETS below)
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

.PHONY: all module tools clean test test-unit test-checker test-bpf test-vm test-install demo deps lint docs \
	help module-or-skip test-docs docs-blocks
all: tools module-or-skip

# Plain `make` builds the module when it can; `make module` insists (and fails
# with the reason).  One line when it is skipped, exit 0.
MODULE_SKIP_WHY = $(strip $(if $(wildcard $(KDIR)/Makefile),\
	$(if $(wildcard $(BTF)),,no BTF at $(BTF) (pass BTF=)),\
	no kernel build tree at $(KDIR) (install linux-headers-$(shell uname -r), or pass KDIR= and BTF=)))
module-or-skip: tools
ifeq ($(MODULE_SKIP_WHY),)
	@$(MAKE) --no-print-directory module
else
	@echo "make: the module was skipped: $(MODULE_SKIP_WHY); the CLI is built ($(BUILD)/sched-shadow); 'make module' to insist"
endif

# `make help`: one line per target.  tests/docs/run.sh checks that each is a
# target of this Makefile and that docs/testing.md's target list names them.
define HELP_TARGETS
make                 the CLI, then the module for KDIR/BTF (skipped, with why, without a kernel build tree)
make tools           the CLI only (build/sched-shadow), with the optional features it can have
make module          the module only, for KDIR (default: the running kernel) and BTF
make install         the module for KVER, the CLI, man page, completion, docs (uninstall: the same, removed)
make test            every suite of a fresh clone: unit, checker, bpf, lint, install, docs, vm, stress
make test-unit       host unit tests (module/core and the CLI)
make test-checker    the fair.c checker against the audit core
make test-bpf        the BPF collector and the CLI on the host, as root
make lint            shellcheck, checkpatch, the CLI's code map
make test-docs       the docs against the code: console blocks, JSON schemas, option and section lists, prose
make test-install    install/uninstall, find-btf, DKMS
make test-vm         the VM scenarios on one kernel (KERNEL=, VM_SCENARIOS='41*,49*')
make test-matrix     the VM suite on every kernel, the PREEMPT_RT boot, the big machines
make test-big        the big machines (32, 16 and 240-possible vCPUs) on one kernel
make test-stress     the full stress level (test-stress-short: the level make test runs)
make test-mutants    the module with deliberate bugs: the VM tests must fail on each
make demo            root against nested in QEMU, 3 runs each, side by side (build/demo/)
make compare         the demo on several kernels, one report (build/compare/)
make bench           what the module costs, measured in the VM
make docs            the generated docs: man page sections, completion, reason list, docs/ blocks
make clean           remove build/ and the module's build files
endef
export HELP_TARGETS
help:
	@echo "$$HELP_TARGETS"

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
	-@$(MAKE) --no-print-directory test-docs
	-@$(MAKE) --no-print-directory test-install
	-@$(MAKE) --no-print-directory test-vm
	-@$(MAKE) --no-print-directory test-bugs BUGS='$(BUGS_TEST)'
	@tests/summarize.sh $(BUILD)/results

deps:
	tests/deps.sh

# A suite of make test: one TAP check per script and per module file
# (tests/lint/run.sh; the exceptions, with their reasons, in tests/lint/).
lint:
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(BUILD)/results/lint.summary
	@TAP_SUMMARY=$(BUILD)/results/lint.summary CACHE=$(CACHE) tests/lint/run.sh

# A suite of make test: the docs against the code (tests/docs/run.sh): the
# console blocks, the JSON schemas, the option and section lists, the prose.
test-docs: $(BUILD)/sched-shadow
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(BUILD)/results/docs.summary
	@TAP_SUMMARY=$(BUILD)/results/docs.summary SCHED_SHADOW=$(BUILD)/sched-shadow tests/docs/run.sh

# The console blocks and prose numbers made from the CLI's output
# (tests/docs/console.list, source gen), rewritten.
docs-blocks: $(BUILD)/sched-shadow
	@python3 tests/docs/console.py check-gen --update

# Generated documentation: the man page's command sections and the bash
# completion (from the CLI's option tables), docs/debugfs.md's reason list,
# the blocks of docs/ generated from the CLI (tests/docs/blocks.py).
docs: docs-cli docs-reasons docs-blocks

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean 2>/dev/null
	rm -rf $(BUILD) module/generated sched_shadow.ko
