# SPDX-License-Identifier: GPL-2.0
# make test-mutants [MUTANTS='name ...']: the module built with deliberate
# bugs (tests/mutants/*.mut), all booted once, each with the VM scenarios
# that should catch it; fails unless every mutant is caught
# (tests/mutants/run.sh).  Not part of `make test`.
.PHONY: test-mutants
test-mutants: $(BTFGEN) vm-kernel vm-progs stress-progs $(BUILD)/sched-shadow
	@TOP=$(TOP) BUILD=$(BUILD) CACHE=$(CACHE) KERNEL=$(KERNEL) BTFGEN=$(BTFGEN) MUTANTS='$(MUTANTS)' \
		tests/mutants/run.sh

# run.sh packs the mutants' modules and scenario wrappers into the initramfs
ifeq ($(MUTANT_GUEST),1)
VM_EXTRA_FILES += $(BUILD)/mutants/guest:/lib/vm/mutants
endif
