# SPDX-License-Identifier: GPL-2.0
# Reliability and security stress suite, included by the top
# Makefile after tests/vm/vm.mk.  Guest scenarios: tests/vm/stress/*.sh (the
# harness's lib.sh plus tests/vm/stress/stress.lib); host checks of the same
# scenarios: tests/vm/stress/host/*.sh.  Both levels boot the VM test kernel
# once with -accel tcg,thread=single (QEMU 7.2's multi-threaded TCG hangs on
# repeated kprobe text patching: docs/design.md) and the kernel command line
# vmtest.suite=stress vmtest.level=full|short slub_nomerge (every slab cache
# apart, so stress 10 can tell the module's kmalloc memory from the
# kernel's own caches).
#
#   make test-stress [STRESS_SCENARIOS=glob,glob]   full figures; build/stress/full/
#   make test-stress-short                          short figures; build/stress/short/
#
# `make test` runs the short level (results/stress.summary, a fourth suite
# in the closing line): its sub-make for test-vm boots the stress VM first.

STRESS_ACCEL         ?= tcg,thread=single
STRESS_TIMEOUT       ?= 3000
STRESS_SHORT_TIMEOUT ?= 420
STRESS_SCENARIOS     ?=
STRESS_DIR           := $(BUILD)/stress
STRESS_PROGS         := ssread fuzzwr nobody
STRESS_PROG_BINS     := $(addprefix $(BUILD)/progs/,$(STRESS_PROGS))

# the scenarios and programs go into the one VM initramfs
VM_EXTRA_FILES += $(TOP)/tests/vm/stress:/lib/vm/stress
vm-initramfs: $(STRESS_PROG_BINS)

.PHONY: test-stress test-stress-short stress-progs
stress-progs: $(STRESS_PROG_BINS)

# stress_run LEVEL OUTDIR SUMMARY TIMEOUT
define stress_run
	@mkdir -p $(BUILD)/results && echo "0 passed, 1 failed" > $(3)
	@$(MAKE) --no-print-directory vm-initramfs
	@start=$$(date +%s); . $(VM_ENV) && VM_ACCEL='$(STRESS_ACCEL)' \
	  VM_TIMEOUT=$(4) VM_SCENARIOS='$(STRESS_SCENARIOS)' \
	  VM_APPEND="vmtest.suite=stress vmtest.level=$(1) vmtest.accel=$(STRESS_ACCEL) slub_nomerge $(VM_APPEND)" \
	  HOST_CHECKS=$(TOP)/tests/vm/stress/host SUMMARY=$(3) EXPORT_DIR=$(2)/vm-out \
	  tests/vm/run-vm.sh test $$VM_VMLINUZ $(VM_INITRD) $(2); rc=$$?; \
	  echo "# stress $(1): $$(cat $(3)) in $$(( $$(date +%s) - start )) s (accel $(STRESS_ACCEL); log $(2)/tap.log)"; \
	  exit $$rc
endef

# the full level's closing line is checked against its minimum
# (tests/minimums: stress-full) like every suite of make test
.PHONY: stress-full-run
test-stress:
	-@$(MAKE) --no-print-directory stress-full-run
	@SUITES=stress-full tests/summarize.sh $(BUILD)/results

stress-full-run:
	$(call stress_run,full,$(STRESS_DIR)/full,$(BUILD)/results/stress-full.summary,$(STRESS_TIMEOUT))

test-stress-short:
	$(call stress_run,short,$(STRESS_DIR)/short,$(BUILD)/results/stress.summary,$(STRESS_SHORT_TIMEOUT))

# `make test`: the closing line counts the stress suite too (and the bug
# corpus's, which the top Makefile runs), and the sub-make that
# runs test-vm boots the short stress VM first (its failures are counted in
# the summary, not allowed to stop test-vm).
test: export SUITES = unit checker bpf lint docs install vm bugs stress
test: export STRESS_IN_MAKE_TEST = 1
ifeq ($(STRESS_IN_MAKE_TEST),1)
test-vm: stress-in-test
.PHONY: stress-in-test
stress-in-test:
	-@$(MAKE) --no-print-directory test-stress-short STRESS_IN_MAKE_TEST=0
endif
