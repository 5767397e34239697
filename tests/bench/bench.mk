# SPDX-License-Identifier: GPL-2.0
# make bench: the module's cost, measured in the QEMU VM.
# Included by the top Makefile after tests/vm/vm.mk.  One boot runs the
# guest scripts tests/bench/guest/*.sh (vmtest.suite=bench): 10-bench
# (paired, rotated configurations: msgbench and sched-shadow bench) and
# 20-scaling (per-call cost from the module's `stats`); the host prints the
# tables with tests/bench/report.py into build/bench/report.txt.
#
#   make bench [BENCH_ROUNDS=5] [BENCH_SCENARIOS=10-*] [BENCH_APPEND=...]
#              [BENCH_QEMU_EXTRA='-icount shift=...']  (BENCH_QEMU_EXTRA= for wall clock)
#
# The VM runs single-threaded TCG (repeated kretprobe insmod/rmmod hangs
# multi-threaded TCG in QEMU 7.2, see docs/design.md; one host core also keeps
# the run from competing with itself) with 4 vCPUs in 2 sockets.

BENCH_ACCEL     ?= tcg,thread=single
BENCH_SMP       ?= 1
BENCH_TIMEOUT   ?= 3600
BENCH_ROUNDS    ?= 5
BENCH_SCENARIOS ?=
BENCH_APPEND    ?=
# Guest time from executed instructions, not the host's clock (QEMU -icount,
# single-threaded TCG only): the other work on this 2-core host no longer
# changes the guest's numbers.  It measures instruction cost: cache and
# memory effects are not modelled (docs/performance.md).
BENCH_QEMU_EXTRA ?= -icount shift=0,sleep=off
BENCH_DIR       := $(BUILD)/bench
# its own initramfs, so a bench never races a test-vm/stress build of build/vm
BENCH_VM_DIR    := $(BENCH_DIR)/vm

VM_EXTRA_FILES += $(TOP)/tests/bench/guest:/lib/vm/bench
# the BPF alternative (bpf/pelt_count.bpf.c) for the "bpf" configuration
VM_EXTRA_FILES += $(BUILD)/pelt-count-static:/bin/pelt-count
vm-initramfs: $(BUILD)/progs/msgbench $(BUILD)/pelt-count-static

.PHONY: bench
bench:
	@mkdir -p $(BENCH_DIR) $(BUILD)/results
	@$(MAKE) --no-print-directory vm-initramfs VM_DIR=$(BENCH_VM_DIR)
	@start=$$(date +%s); . $(VM_ENV) && VM_ACCEL='$(BENCH_ACCEL)' VM_SMP='$(BENCH_SMP)' \
	  VM_QEMU_EXTRA='$(BENCH_QEMU_EXTRA)' \
	  VM_TIMEOUT=$(BENCH_TIMEOUT) VM_SCENARIOS='$(BENCH_SCENARIOS)' \
	  VM_APPEND="vmtest.suite=bench bench.rounds=$(BENCH_ROUNDS) $(BENCH_APPEND)" \
	  HOST_CHECKS=$(TOP)/tests/bench/host SUMMARY=$(BUILD)/results/bench.summary \
	  EXPORT_DIR=$(BENCH_DIR)/vm-out \
	  tests/vm/run-vm.sh test $$VM_VMLINUZ $(BENCH_VM_DIR)/initramfs.cpio $(BENCH_DIR) 2>&1 | tee $(BENCH_DIR)/run.log; \
	  rc=$${PIPESTATUS[0]}; \
	  python3 tests/bench/report.py $(BENCH_DIR)/vm-out | tee $(BENCH_DIR)/report.txt; \
	  echo "# bench: $$(( $$(date +%s) - start )) s (accel $(BENCH_ACCEL) $(BENCH_QEMU_EXTRA), smp $(BENCH_SMP); guest log $(BENCH_DIR)/tap.log)"; \
	  exit $$rc
