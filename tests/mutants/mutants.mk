# SPDX-License-Identifier: GPL-2.0
# make test-mutants [MUTANTS='name ...'] [MUTANT_KERNELS='bookworm trixie-backports']:
# the module built with deliberate bugs (tests/mutants/*.mut), booted once
# per kernel with an unmutated control, each mutant with the scenarios whose
# named checks must catch it; fails unless every mutant is caught (or shown
# not reached where its code does not run) and at least 10 are active and
# caught on each kernel (tests/mutants/run.sh).  Not part of `make test`.
.PHONY: test-mutants
test-mutants: $(BTFGEN) vm-kernel vm-progs stress-progs $(BUILD)/sched-shadow
	-@TOP=$(TOP) BUILD=$(BUILD) CACHE=$(CACHE) BTFGEN=$(BTFGEN) MUTANTS='$(MUTANTS)' \
		MUTANT_KERNELS='$(MUTANT_KERNELS)' tests/mutants/run.sh
	@SUITES=mutants tests/summarize.sh $(BUILD)/results

# run.sh packs the mutants' modules and scenario wrappers into the initramfs
ifneq ($(MUTANT_GUEST),)
VM_EXTRA_FILES += $(MUTANT_GUEST):/lib/vm/mutants
endif
